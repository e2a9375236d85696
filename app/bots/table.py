"""The site's bot at a table: the move of a bot level for a seat of a game on the server.

Like the tournament's referee, this module reads the state only to hand the bot its seat's view and legal moves.
The bot's own generator is seeded from what the seat itself knows (the game's number, the seat, the log's head as
the seat counts it), never from the game's secret seed: its choice cannot depend on a secret, and the same
position gets the same move on every instance that decides it (the hard bot's, within its time budget, may stop
its search at another point on a busier machine).

The hard bot thinks in another process (`app.play.thinking`): `seat_inputs` is what crosses to it — the view,
the legal moves and the generator's key, plain data — and `level_move` what runs there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from app.bots import LEVELS
from app.bots.base import MoveView, View
from app.bots.search import Budget, search_bot
from app.rules import GameState, legal_moves_read_only, player_view
from app.rules.view import visible_seq

ABSENT_LEVEL = "normal"  # a seat whose player's clock ran out (API.md "Bot levels")


def seat_inputs(state: GameState, seat: int, game_id: int) -> tuple[View, Sequence[MoveView], str]:
    """What the bot is handed for `seat`, which must be awaited: its view, its legal moves (as the state keeps
    them, uncopied: a bot only reads them and returns a copy of the one it chooses), its generator's key."""
    moves = legal_moves_read_only(state, seat)
    return player_view(state, seat), moves, f"bot/{game_id}/{seat}/{visible_seq(state, seat)}"


def level_move(level: str, view: View, moves: Sequence[MoveView], key: str,
               budget: Budget | None = None) -> dict[str, Any]:
    """The move the bot of `level` makes from the seat's view and moves (the hard bot within `budget`)."""
    bot = search_bot(budget) if level == "hard" and budget is not None else LEVELS[level]
    return bot(view, moves, random.Random(key))


def table_move(state: GameState, seat: int, game_id: int, level: str = ABSENT_LEVEL) -> dict[str, Any]:
    """The move the site's bot of `level` makes for `seat`, which must be awaited."""
    return level_move(level, *seat_inputs(state, seat, game_id))
