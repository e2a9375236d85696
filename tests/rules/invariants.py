"""Invariants that hold after every decision of every game (issue "Rules core", property tests)."""

from __future__ import annotations

import json

from app.rules import GameState, player_view
from app.rules.board import is_connected, is_reached, road_points
from app.rules.catalog import BUILDINGS, COWBOYS_PER_PLAYER, HOUSES_SUPPLY, PROPERTY_TILES, ROADS_SUPPLY
from app.rules.model import replace


def check_invariants(s: GameState) -> None:
    points = road_points(s.roads)
    owned = [0] * len(s.players)
    houses_on_board = 0
    for index, parcel in enumerate(s.parcels):
        if parcel.owner is not None:
            owned[parcel.owner] += 1
        if parcel.content == "house":
            houses_on_board += 1
        if parcel.content in BUILDINGS:
            assert parcel.owner is not None, "a building stands on an owner-free parcel"
            if BUILDINGS[parcel.content].needs_road:
                assert is_reached(index, points), f"{parcel.content} at {index} is not reached by a road"
    placed = [0] * len(s.players)
    for spot in (*s.squares.values(), *s.parcel_cowboys.values()):
        for cowboy in spot:
            if not cowboy.white:
                placed[cowboy.seat] += 1
    for p in s.players:
        assert p.money >= 0, f"seat {p.seat} has ${p.money}"
        assert p.vp >= 0
        assert p.roads >= 0
        assert p.cowboys >= 0 and p.cowboys + placed[p.seat] <= COWBOYS_PER_PLAYER
        assert owned[p.seat] <= PROPERTY_TILES
    assert is_connected(s.roads), "the road network is not connected"
    assert len(s.roads) + sum(p.roads for p in s.players) <= ROADS_SUPPLY
    assert houses_on_board + s.houses == HOUSES_SUPPLY and s.houses >= 0
    assert all(count >= 0 for count in s.bag.values())


def check_view_hides_secrets(s: GameState, seed: int) -> None:
    """No view contains the seed, and the bag cannot influence any view (so its contents never leak)."""
    other_bag = replace(s, bag={building: 0 for building in BUILDINGS})
    for seat in (None, *range(len(s.players))):
        view = player_view(s, seat)
        text = json.dumps(view)
        assert str(seed) not in text
        assert '"bag"' not in text
        assert view == player_view(other_bag, seat)
