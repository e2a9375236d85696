"""The rating's history drawn as a small SVG line (the player page): the points' coordinates only, so that the
template draws it without a script and without arithmetic; the figures themselves come from `app.play.standing`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 320, 120  # the drawing's own units (its viewBox); the page scales it to its width
LEFT, RIGHT, TOP, BOTTOM = 44, 8, 10, 10  # room for the lowest and highest figures on the left


@dataclass(frozen=True, slots=True)
class Chart:
    """A line through the rating after each rated game, oldest on the left."""

    points: str  # "x,y x,y ..." for a <polyline>
    last: tuple[float, float]  # the newest point, marked
    low: int
    high: int
    first: int
    newest: int
    games: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    bottom_y: int = HEIGHT - BOTTOM
    label_x: int = LEFT - 4  # the figures' right end
    high_y: int = TOP + 4  # the highest figure's baseline


def chart_of(history: Sequence[int]) -> Chart | None:
    """The chart of `history` (oldest first); None before the first rated game."""
    if not history:
        return None
    low, high = min(history), max(history)
    span = max(high - low, 1)
    steps = max(len(history) - 1, 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    coords = [
        (round(LEFT + inner_w * (i / steps if len(history) > 1 else 1.0), 1),
         round(TOP + inner_h * (high - value) / span if high > low else TOP + inner_h / 2, 1))
        for i, value in enumerate(history)
    ]
    return Chart(" ".join(f"{x},{y}" for x, y in coords), coords[-1], low, high, history[0], history[-1], len(history))
