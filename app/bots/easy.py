"""The easy bot: the heuristic's opinion of every move, played less carefully.

It usually plays the move the heuristic bot values most, but now and then one of the next best, so it makes the
mistakes a casual player makes (a parcel a little too dear, a square a little less paying) rather than absurd ones:
weaker than the `normal` level, still plausible. `bench/bots.py` measures how much weaker.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from app.bots.base import MoveView, View
from app.bots.heuristic import move_values

CAREFUL: Final = 0.6  # the share of moves that are the heuristic's best
RUNNERS_UP: Final = 2  # otherwise one of this many next best, at random


def easy_bot(view: View, moves: Sequence[MoveView], rng: random.Random) -> dict[str, Any]:
    """The heuristic's best move most of the time, otherwise one of the next best."""
    values = move_values(view, moves)
    ranked = sorted(range(len(moves)), key=lambda k: -(values[k] + rng.random() * 1e-3))
    if len(ranked) == 1 or rng.random() < CAREFUL:
        return dict(moves[ranked[0]])
    return dict(moves[rng.choice(ranked[1:1 + RUNNERS_UP])])
