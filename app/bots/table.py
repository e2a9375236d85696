"""The site's bot at a table: the heuristic bot's move for a seat of a game on the server.

Like the tournament's referee, this module reads the state only to hand the bot its seat's view and legal moves.
The bot's own generator is seeded from what the seat itself knows (the game's number, the seat, the log's head as
the seat counts it), never from the game's secret seed: its choice cannot depend on a secret, and the same
position gets the same move on every instance that decides it.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots.heuristic import heuristic_bot
from app.bots.tournament import bot_player
from app.rules import GameState
from app.rules.view import visible_seq

_PLAYER = bot_player(heuristic_bot)


def table_move(state: GameState, seat: int, game_id: int) -> dict[str, Any]:
    """The move the site's bot makes for `seat`, which must be awaited."""
    rng = random.Random(f"bot/{game_id}/{seat}/{visible_seq(state, seat)}")
    return _PLAYER(state, seat, rng)
