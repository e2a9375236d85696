"""The site's bot thinks off the event loop, against a deadline.

The bot's move is computed in a thread of its own pool, so that the server's event loop goes on answering while
it thinks; a bot that takes longer than `deadline` (200 ms by default, the bound of issue 15), or fails, gives no
move and its caller makes the safest default move instead (`app.rules.default_move`). A thread that overran is
not stopped — Python cannot stop a thread — but its answer is ignored.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import app.metrics as metrics
from app.bots.table import table_move
from app.rules import GameState

log = logging.getLogger(__name__)

Chooser = Callable[[GameState, int, int], dict[str, Any]]
DEADLINE_SECONDS = 0.2


class Thinker:
    """Runs `choose(state, seat, game_id)` in its own threads, giving up after `deadline` seconds."""

    def __init__(self, choose: Chooser = table_move, deadline: float = DEADLINE_SECONDS, threads: int = 2) -> None:
        self.choose = choose
        self.deadline = deadline
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bot")

    async def move(self, state: GameState, seat: int, game_id: int) -> dict[str, Any] | None:
        """The bot's move for `seat`, or None when it failed or overran the deadline."""
        thinking = asyncio.get_running_loop().run_in_executor(self._pool, self.choose, state, seat, game_id)
        start, outcome = time.perf_counter(), "move"
        try:
            return await asyncio.wait_for(thinking, self.deadline)
        except TimeoutError:
            outcome = "overran"
            log.warning("game %s: the bot overran %.0f ms for seat %s", game_id, self.deadline * 1000, seat)
        except Exception:
            outcome = "failed"
            log.exception("game %s: the bot failed for seat %s", game_id, seat)
        finally:
            metrics.BOT_THINKING_SECONDS.labels(outcome).observe(time.perf_counter() - start)
        return None
