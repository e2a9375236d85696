"""Duels (`000` "Performing The Actions and Duels"; RULINGS B8, B9).

Strength = one die + firepower at the moment of the duel; the highest wins; a tie goes to the tied player who
passed earliest this round. Every die is written into the `duel_fought` event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.rules.catalog import CONSTRUCTION_INDEX
from app.rules.income import firepower
from app.rules.model import Cowboy, Event, GameState
from app.rules.rng import Rng


def duelling_seats(cowboys: Iterable[Cowboy]) -> list[int]:
    """The distinct players with a cowboy on a spot, in the order they arrived."""
    seats: list[int] = []
    for c in cowboys:
        if c.seat not in seats:
            seats.append(c.seat)
    return seats


def earliest_passer(s: GameState, seats: Iterable[int]) -> int:
    """Among `seats`, the one who passed earliest this round (ties in duels, the duel-order picker)."""
    return min(seats, key=s.passing_order.index)


def fight(s: GameState, target: Mapping[str, Any], seats: list[int], rng: Rng) -> Event:
    duelists: list[dict[str, Any]] = []
    for seat in seats:
        power = firepower(s, seat)
        if s.config.might_is_right:  # the tile replaces the die (`000` "Might Is Right")
            tile = s.duel_tiles[seat]
            duelists.append({"seat": seat, "tile": tile, "firepower": power, "strength": tile + power})
            continue
        rolls = [rng.die(), rng.die()] if s.players[seat].marksman else [rng.die()]
        roll = max(rolls)  # the marksman keeps the higher die (`000` "Rules adjusted to yucata")
        duelist: dict[str, Any] = {"seat": seat, "roll": roll, "firepower": power, "strength": roll + power}
        if len(rolls) > 1:
            duelist["rolls"] = rolls
        duelists.append(duelist)
    best = max(d["strength"] for d in duelists)
    winner = earliest_passer(s, [d["seat"] for d in duelists if d["strength"] == best])
    event: Event = {"type": "duel_fought", "target": dict(target), "duelists": duelists, "winner": winner}
    square = target.get("square")
    if square in CONSTRUCTION_INDEX:  # name the prize, for the log ("the duel for the $8 saloon")
        event["building"] = s.construction[CONSTRUCTION_INDEX[square]]
    return event
