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

Several games' bots think at once (`app.play.bot_keeper` runs each game's move as a job of its own): each pool
takes at most as many moves as it has workers — for the processes, at most the cores but one, and at least one
(`hard_workers`), so that the searches never take every core from the server — and the rest wait their turn on
the event loop, costing nothing. A move's deadline starts when a worker takes it, not while it waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

import app.metrics as metrics
from app.bots.search import Budget
from app.bots.table import ABSENT_LEVEL, level_move, seat_inputs, table_move
from app.rules import GameState

log = logging.getLogger(__name__)
T = TypeVar("T")

Chooser = Callable[[GameState, int, int, str], dict[str, Any]]
DEADLINE_SECONDS = 0.2
HARD = "hard"
WORKER_NICENESS = 5
HARD_DEADLINE_FACTOR = 15  # the hard bot's wall-clock deadline, in multiples of its CPU budget


def worker_started(niceness: int) -> None:
    """Set up a worker process of the hard bot: a lower priority than the server's, and its end with the server's
    — a server that dies without stopping its pool (SIGKILL, a crash) would otherwise leave it waiting for work
    for ever, or searching on."""
    os.nice(niceness)
    server = multiprocessing.parent_process()
    if server is not None:
        threading.Thread(target=_end_with, args=(server.sentinel,), name="server-watch", daemon=True).start()


def _end_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # ready when the server's process has ended
    os._exit(0)


def hard_workers(wanted: int, cores: int | None = None) -> int:
    """The hard bot's worker processes for `wanted` (the settings' BOT_HARD_PROCESSES) on a machine of `cores`
    usable cores: at most the cores but one, so that a core is always left to the server, and at least one."""
    usable = cores if cores is not None else len(os.sched_getaffinity(0))
    return max(1, min(wanted, usable - 1))


class _Workers:
    """A pool and the number of its workers: a job waits on the event loop until a worker is free, so that the
    pool never queues work of its own and a job's deadline counts only the time it runs."""

    def __init__(self, size: int, pool: Callable[[], Executor]) -> None:
        self._make = pool
        self.pool: Executor | None = None
        self._free = asyncio.Semaphore(size)

    async def run(self, deadline: float, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a free worker, within `deadline` seconds from when it starts (TimeoutError after it).
        The worker stays taken until the work ends, even past the deadline: a thread or a search cannot be
        stopped, and the next job would only queue behind it in the pool."""
        await self._free.acquire()
        try:
            if self.pool is None:
                self.pool = self._make()
            future: Future[T] = self.pool.submit(work, *args)
        except BaseException:
            self._free.release()
            raise
        future.add_done_callback(_on(asyncio.get_running_loop(), self._free.release))
        async with asyncio.timeout(deadline):  # not wait_for: see app.notify.worker's pause
            return await asyncio.wrap_future(future)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None


def _on(loop: asyncio.AbstractEventLoop, call: Callable[[], object]) -> Callable[[Future[Any]], None]:
    """A future's done callback that runs `call` on `loop` (futures end in their worker's thread), unless the loop
    is gone: a thread that outlived its server."""

    def done(_: Future[Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed
            loop.call_soon_threadsafe(call)

    return done


class Thinker:
    """Runs `choose(state, seat, game_id, level)` in its own threads, giving up after `deadline` seconds; the hard
    level in at most `processes` worker processes (`hard_workers`) within `hard_budget`, giving up after
    `hard_deadline` seconds."""

    def __init__(
        self,
        choose: Chooser = table_move,
        deadline: float = DEADLINE_SECONDS,
        threads: int = 2,
        hard_budget: Budget | None = None,
        hard_deadline: float | None = None,
        processes: int = 1,
    ) -> None:
        self.choose = choose
        self.deadline = deadline
        self._threads = _Workers(threads, lambda: ThreadPoolExecutor(threads, thread_name_prefix="bot"))
        self.hard_budget = hard_budget or Budget()
        # Wall-clock time, a bound for a search that hangs: the search stops itself at its CPU budget, which a
        # worker at a lower priority on a busy machine takes many times as long to get (measured: 2 s of CPU past
        # 8 s with two cores at a load average of 8). Waiting costs the server nothing: nothing is held meanwhile.
        self.hard_deadline = (
            hard_deadline if hard_deadline is not None else HARD_DEADLINE_FACTOR * self.hard_budget.seconds
        )
        self.processes = hard_workers(processes)
        self._processes = _Workers(
            self.processes,
            lambda: ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=worker_started,
                initargs=(WORKER_NICENESS,),
            ),
        )

    @property
    def _hard_pool(self) -> Executor | None:
        """The worker processes, once the first hard move started them."""
        return self._processes.pool

    async def move(self, state: GameState, seat: int, game_id: int, level: str = ABSENT_LEVEL) -> dict[str, Any] | None:
        """The bot's move for `seat`, or None when it failed or overran the deadline."""
        start, outcome = time.perf_counter(), "move"
        try:
            return await self._think(state, seat, game_id, level)
        except TimeoutError:
            outcome = "overran"
            log.warning("game %s: the %s bot overran its deadline for seat %s", game_id, level, seat)
        except Exception:
            outcome = "failed"
            log.exception("game %s: the %s bot failed for seat %s", game_id, level, seat)
        finally:
            metrics.BOT_THINKING_SECONDS.labels(outcome).observe(time.perf_counter() - start)
        return None

    def _think(self, state: GameState, seat: int, game_id: int, level: str) -> Awaitable[dict[str, Any]]:
        if level != HARD:
            return self._threads.run(self.deadline, self.choose, state, seat, game_id, level)
        return self._think_hard(state, seat, game_id)

    async def _think_hard(self, state: GameState, seat: int, game_id: int) -> dict[str, Any]:
        view, moves, key = await self._threads.run(self.hard_deadline, seat_inputs, state, seat, game_id)
        return await self._processes.run(self.hard_deadline, level_move, HARD, view, moves, key, self.hard_budget)

    def close(self) -> None:
        """Stop the worker processes and threads (a thread under way ends with its work)."""
        self._processes.close()
        self._threads.close()
