"""The seeded random source. Each decision gets a generator derived from the game's secret seed and the
sequence number it is decided at, so no generator state is ever stored; every result it produces is written
into the event that uses it, and replaying the log never draws again. A generator counts its draws (`draws`):
a move that drew nothing told nobody anything random, which is what lets its player take it back
(`app.rules.undo`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Rng:
    __slots__ = ("_generator", "_seed", "_seq", "draws")  # one is made for every decision

    def __init__(self, seed: int, seq: int) -> None:
        self._seed = seed
        self._seq = seq
        self._generator: random.Random | None = None
        self.draws = 0

    def restart(self, seq: int) -> None:
        """Go on with the generator a decision at `seq` gets, still counting the draws: a move a player answered
        ahead of time draws what the player's own move there would have drawn (`decide.advance`)."""
        self._seq = seq
        self._generator = None

    @property
    def _random(self) -> random.Random:
        # Seeding (and even writing the key) costs more than most decisions; most decisions draw nothing, so
        # seed only on first use.
        if self._generator is None:
            self._generator = random.Random(f"carson-city:{self._seed}:{self._seq}")
        return self._generator

    def die(self) -> int:
        self.draws += 1
        return self._random.randint(1, 6)

    def choice(self, options: Sequence[T]) -> T:
        self.draws += 1
        return options[self._random.randrange(len(options))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        result = list(items)
        self.draws += 1
        self._random.shuffle(result)
        return result
