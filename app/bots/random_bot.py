"""The random bot: any legal move, uniformly (the yardstick the heuristic bot is measured against)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from app.bots.base import MoveView, View


def random_bot(view: View, moves: Sequence[MoveView], rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal move; the view is not read at all."""
    return dict(rng.choice(moves))
