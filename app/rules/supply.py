"""The common supply (`000` "Game Content", "End of Round"; RULING B3): the roads that are left, and the bag of
buildings that refills the construction squares."""

from __future__ import annotations

from collections.abc import Mapping

from app.rules.catalog import CITY_HALL, ROADS_SUPPLY
from app.rules.construction import road_pieces_on_board
from app.rules.events import ConstructionRefilled
from app.rules.model import GameState
from app.rules.rng import Rng


def roads_in_supply(s: GameState) -> int:
    """Road pieces neither on the board nor in a personal reserve (RULING B3); a bridge is two pieces (V3)."""
    return ROADS_SUPPLY - road_pieces_on_board(s) - sum(p.roads for p in s.players)


def draw_into(slots: list[str | None], bag: Mapping[str, int], rng: Rng) -> list[str]:
    """Fill the empty squares of `slots` in order, each with a tile drawn at random from `bag`; return the draws.
    The City Hall never takes a square: drawn, it stops the refill until it stands on the board (RULING G2)."""
    tiles = [building for building, count in sorted(bag.items()) for _ in range(count)]
    drawn: list[str] = []
    for k, slot in enumerate(slots):
        if slot is not None:
            continue
        if not tiles:
            break
        tile = tiles.pop(rng.choice(range(len(tiles))))
        drawn.append(tile)
        if tile == CITY_HALL:
            break
        slots[k] = tile
    return drawn


def refill_event(s: GameState, rng: Rng, *, slide: bool = True) -> ConstructionRefilled:
    """Unbought buildings slide toward the cheapest squares (unless `slide` is off: once the drawn City Hall
    stands, the squares still empty are filled where they are); empty squares are refilled from the bag, each
    draw at random and written into the event (`000` "End of Round")."""
    slots: list[str | None] = list(s.construction)
    if slide:
        remaining = [b for b in s.construction if b is not None]
        slots = [*remaining, *[None] * (len(s.construction) - len(remaining))]
    drawn = draw_into(slots, s.bag, rng)
    return {"type": "construction_refilled", "construction": slots, "drawn": drawn}
