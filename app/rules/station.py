"""The station's end-of-game victory points (Gold & Guns, `001` "Station"; RULING G3): its owner scores 1 VP per
2 house values standing anywhere in the city, whoever owns them."""

from __future__ import annotations

from app.rules.catalog import STATION_HOUSE_VALUES_PER_VP
from app.rules.income import house_values
from app.rules.model import GameState


def city_house_values(s: GameState) -> int:
    """Every house value on the board: houses 1, townhouses 2, and each building's own number (RULING G3)."""
    return sum(house_values(p.content) for p in s.parcels)


def station_vp(s: GameState, seat: int) -> int:
    stations = sum(1 for p in s.parcels if p.owner == seat and p.content == "station")
    return stations * (city_house_values(s) // STATION_HOUSE_VALUES_PER_VP)
