"""What a bot is: (view, legal moves, random generator) -> one of the legal moves."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

View = Mapping[str, Any]
MoveView = Mapping[str, Any]


class Bot(Protocol):
    def __call__(self, view: View, moves: Sequence[MoveView], rng: random.Random) -> dict[str, Any]:
        """One of `moves` (a copy), chosen from what `view` shows; `moves` is never empty."""
        ...
