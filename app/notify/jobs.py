"""The background jobs of an instance: the mail worker and the clock check, run with the server (in its
lifespan) or alone (`python -m app worker`). Both are safe to run in every instance at once."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from app.notify.preferences import UnsubscribeLinks
from app.notify.sender import LogSender, Sender, SmtpSender
from app.notify.worker import MailSettings, Notifier
from app.play.keeper import ClockKeeper
from app.play.service import GameService
from app.web.settings import Settings

log = logging.getLogger(__name__)


def sender_for(settings: Settings) -> Sender:
    """SMTP when SMTP_HOST is set; otherwise mails only go to the log."""
    if not settings.smtp_host:
        return LogSender()
    return SmtpSender(
        host=settings.smtp_host,
        port=settings.smtp_port,
        username=settings.smtp_user,
        password=settings.smtp_password,
        start_tls=settings.smtp_starttls,
    )


def notifier_for(settings: Settings, service: GameService, sender: Sender | None = None) -> Notifier:
    return Notifier(
        service.db,
        sender or sender_for(settings),
        MailSettings(
            base_url=settings.base_url, from_address=settings.smtp_from, digest_hour_utc=settings.digest_hour_utc
        ),
        UnsubscribeLinks(settings.signing_key(), settings.base_url),
    )


@contextlib.asynccontextmanager
async def background_jobs(settings: Settings, service: GameService) -> AsyncIterator[None]:
    """Run the mail worker and the clock check until the block exits."""
    notifier = notifier_for(settings, service)
    keeper = ClockKeeper(service)
    tasks = [
        asyncio.create_task(notifier.run_forever(settings.mail_poll_seconds), name="mail-worker"),
        asyncio.create_task(keeper.run_forever(settings.clock_check_seconds), name="clock-check"),
    ]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def run_worker(settings: Settings) -> None:
    """`python -m app worker`: the jobs alone, without the web server (migrations applied first)."""
    from app.store import migrate
    from app.store.db import open_database

    db = await asyncio.to_thread(open_database, settings.database_url, settings.data_dir)
    try:
        if settings.migrate_on_start:
            await asyncio.to_thread(migrate.upgrade, db.url)
        mail = f"SMTP {settings.smtp_host}:{settings.smtp_port}" if settings.smtp_host else "the log (no SMTP_HOST)"
        log.info("worker running: mail to %s, clock check every %ss", mail, settings.clock_check_seconds)
        async with background_jobs(settings, GameService(db)):
            await asyncio.Event().wait()
    finally:
        await db.close()
