"""The common supply (`000` "Game Content", "End of Round"; RULING B3): the roads that are left, and the bag of
buildings that refills the construction squares."""

from __future__ import annotations

from app.rules.catalog import ROADS_SUPPLY
from app.rules.construction import road_pieces_on_board
from app.rules.events import ConstructionRefilled
from app.rules.model import GameState
from app.rules.rng import Rng


def roads_in_supply(s: GameState) -> int:
    """Road pieces neither on the board nor in a personal reserve (RULING B3); a bridge is two pieces (V3)."""
    return ROADS_SUPPLY - road_pieces_on_board(s) - sum(p.roads for p in s.players)


def refill_event(s: GameState, rng: Rng) -> ConstructionRefilled:
    """Unbought buildings slide toward the cheapest squares; empty squares are refilled from the bag, each
    draw at random and written into the event (`000` "End of Round")."""
    remaining = [b for b in s.construction if b is not None]
    bag = [building for building, count in sorted(s.bag.items()) for _ in range(count)]
    drawn: list[str] = []
    while len(remaining) + len(drawn) < len(s.construction) and bag:
        tile = bag.pop(rng.choice(range(len(bag))))
        drawn.append(tile)
    slots: list[str | None] = [*remaining, *drawn]
    slots += [None] * (len(s.construction) - len(slots))
    return {"type": "construction_refilled", "construction": slots, "drawn": drawn}
