"""The site's bot thinks off the event loop, against a deadline.

The `easy` and `normal` bots' moves are computed in a thread of this pool, so that the server's event loop goes on
answering while they think; one that takes longer than `deadline` (200 ms by default, the bound of issue 15), or
fails, gives no move and its caller makes the safest default move instead (`app.rules.default_move`). A thread
that overran is not stopped — Python cannot stop a thread — but its answer is ignored.

The `hard` bot searches for up to `hard_budget.seconds` of CPU time (the settings' `BOT_HARD_SECONDS`), too long
for a thread of the server's process: it would hold the interpreter's lock against the requests. It thinks in
worker processes of its own (started on the first hard move, `spawn`ed so that nothing of the server's loop or
connections is copied into them), handed only the seat's view, legal moves and generator's key
(`app.bots.table.seat_inputs`); past `hard_deadline` seconds of wall-clock time its answer is ignored too. The
worker processes run at a lower scheduling priority (`WORKER_NICENESS`) than the server: where they share a core,
a person's request goes first, and the search, whose budget is counted in its own CPU time, loses nothing but
wall-clock time.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import app.metrics as metrics
from app.bots.search import Budget
from app.bots.table import ABSENT_LEVEL, level_move, seat_inputs, table_move
from app.rules import GameState

log = logging.getLogger(__name__)

Chooser = Callable[[GameState, int, int, str], dict[str, Any]]
DEADLINE_SECONDS = 0.2
HARD = "hard"
WORKER_NICENESS = 5


class Thinker:
    """Runs `choose(state, seat, game_id, level)` in its own threads, giving up after `deadline` seconds; the hard
    level in `processes` worker processes within `hard_budget`, giving up after `hard_deadline` seconds."""

    def __init__(self, choose: Chooser = table_move, deadline: float = DEADLINE_SECONDS, threads: int = 2,
                 hard_budget: Budget | None = None, hard_deadline: float | None = None, processes: int = 1) -> None:
        self.choose = choose
        self.deadline = deadline
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bot")
        self.hard_budget = hard_budget or Budget()
        # Wall-clock time: on a busy machine the search's CPU seconds take longer than that to get.
        self.hard_deadline = hard_deadline if hard_deadline is not None else 3 * self.hard_budget.seconds + 2
        self.processes = processes
        self._hard_pool: ProcessPoolExecutor | None = None

    async def move(self, state: GameState, seat: int, game_id: int, level: str = ABSENT_LEVEL) -> dict[str, Any] | None:
        """The bot's move for `seat`, or None when it failed or overran the deadline."""
        loop = asyncio.get_running_loop()
        start, outcome = time.perf_counter(), "move"
        try:
            if level == HARD:
                view, moves, key = await loop.run_in_executor(self._pool, seat_inputs, state, seat, game_id)
                thinking = loop.run_in_executor(self._hard(), level_move, level, view, moves, key, self.hard_budget)
                async with asyncio.timeout(self.hard_deadline):  # not wait_for: see app.notify.worker's pause
                    return await thinking
            thinking = loop.run_in_executor(self._pool, self.choose, state, seat, game_id, level)
            async with asyncio.timeout(self.deadline):
                return await thinking
        except TimeoutError:
            outcome = "overran"
            log.warning("game %s: the %s bot overran its deadline for seat %s", game_id, level, seat)
        except Exception:
            outcome = "failed"
            log.exception("game %s: the %s bot failed for seat %s", game_id, level, seat)
        finally:
            metrics.BOT_THINKING_SECONDS.labels(outcome).observe(time.perf_counter() - start)
        return None

    def _hard(self) -> Executor:
        if self._hard_pool is None:
            self._hard_pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=os.nice, initargs=(WORKER_NICENESS,))
        return self._hard_pool

    def close(self) -> None:
        """Stop the worker processes (the threads end with the process)."""
        if self._hard_pool is not None:
            self._hard_pool.shutdown(wait=False, cancel_futures=True)
            self._hard_pool = None
