"""Townhouses (Gold & Guns, `001` "Townhouses"; RULINGS G6, G19): instead of placing a new house, a builder may turn
an existing house into a townhouse, worth two house values, where it is hemmed in on all eight sides — on another
player's parcel with that player's permission, asked as for a new house there (RULING B12)."""

from __future__ import annotations

from app.rules.board import NEIGHBOURS
from app.rules.model import GameState, Parcel, about_parcels

FULL_RING = 8  # a parcel on the board's edge has fewer neighbours, so it never takes a townhouse (RULING G6)


def is_hemmed_in(parcels: tuple[Parcel, ...], index: int) -> bool:
    """Whether each of the 8 neighbours is occupied (building, house, mountain, river) or owned (RULING G6)."""
    ring = NEIGHBOURS[index]
    return len(ring) == FULL_RING and all(
        parcels[n].content is not None or parcels[n].owner is not None or parcels[n].river for n in ring
    )


def _houses_hemmed_in(parcels: tuple[Parcel, ...]) -> tuple[int, ...]:
    """Houses that could become townhouses; never under an outlaw, where nothing is built (RULING G4)."""
    return tuple(i for i, p in enumerate(parcels) if p.content == "house" and not p.outlaw and is_hemmed_in(parcels, i))


def townhouse_targets(s: GameState, seat: int, granted: frozenset[int] = frozenset()) -> list[int]:
    """The houses `seat` may turn into a townhouse now: on their own or an owner-free parcel, or on a parcel its
    owner granted, as a new house could be (RULINGS B11, B12, G19, decision D35), hemmed in, while a townhouse is
    left in the supply."""
    if not s.config.gold_and_guns or s.townhouses < 1:
        return []
    return [i for i in about_parcels(s, _houses_hemmed_in) if s.parcels[i].owner in (None, seat) or i in granted]


def townhouse_permission_parcels(s: GameState, owner: int) -> list[int]:
    """The houses of `owner` another builder could turn into a townhouse with their permission (RULING G19); the
    caller asks only in a Gold & Guns game, while a townhouse is left in the supply."""
    return [i for i in about_parcels(s, _houses_hemmed_in) if s.parcels[i].owner == owner]
