"""Telling "the database is not there" apart from every other database error, and saying so once.

A stopped, restarting or unreachable PostgreSQL is an outage to wait out: requests answer 503 and the
background jobs pause. Any other database error is a bug, reported in full.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import psycopg
from sqlalchemy.exc import DBAPIError

# SQLSTATE classes and codes PostgreSQL uses for a connection it cannot or will not serve: connection
# exceptions (08), and shutting down or starting up (57P01..57P03).
UNAVAILABLE_STATES = ("08", "57P01", "57P02", "57P03")


def is_unavailable(exc: BaseException) -> bool:
    """Whether `exc` says the database cannot be reached now (not that a statement was wrong)."""
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    if not isinstance(exc.orig, psycopg.OperationalError):
        return False
    # libpq's own failures (refused, no socket, connection lost) carry no SQLSTATE at all.
    sqlstate = exc.orig.sqlstate
    return sqlstate is None or sqlstate.startswith(UNAVAILABLE_STATES)


class OutageLog:
    """One log line when the database goes away and one when it is back, for a job that polls it: a job
    polling every few seconds would otherwise write a traceback per poll for the whole outage."""

    def __init__(self, logger: logging.Logger, job: str) -> None:
        self.logger = logger
        self.job = job
        self.down = False

    def failed(self, exc: BaseException) -> bool:
        """Note a failed run; True when it was the outage (logged at most once), False for any other error."""
        if not is_unavailable(exc):
            return False
        if not self.down:
            self.down = True
            self.logger.warning("database unavailable; %s paused", self.job)
        return True

    def succeeded(self) -> None:
        """Note a run that reached the database."""
        if self.down:
            self.down = False
            # A warning like the outage itself, so that both show with the server's default logging.
            self.logger.warning("database back; %s resumed", self.job)


async def run_forever(run: Callable[[], Awaitable[object]], interval: float, logger: logging.Logger, job: str) -> None:
    """Run `run` every `interval` seconds until cancelled: a database outage logged once each way (OutageLog),
    any other failure with its traceback, and the job carries on either way."""
    outage = OutageLog(logger, job)
    while True:
        try:
            await run()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not outage.failed(exc):
                logger.exception("%s run failed", job)
        else:
            outage.succeeded()
        await asyncio.sleep(interval)
