"""The City Hall (Gold & Guns, `001` "City Hall"; RULING G2): drawn from the bag, it goes onto the board at once,
before anything else happens, placed by the first player on an owner-free parcel with its roads from the general
supply; then the squares still empty are refilled.

Where it may stand and who occupies it are `app.rules.city_hall`'s; its duel at the estate income is fought as any
duel (`flow._estate_income`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.board import parcel_index
from app.rules.catalog import CITY_HALL
from app.rules.city_hall import city_hall_sites, first_player
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import evolve, index_of, replace, set_parcel
from app.rules.events import CityHallPlaced, CityHallSetAside, Event
from app.rules.model import GameState
from app.rules.registry import Step, handles, lists, move_handler
from app.rules.rng import Rng
from app.rules.spots import xy
from app.rules.steps import awaits
from app.rules.supply import refill_event

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Move, PlaceCityHall


def city_hall_step(s: GameState) -> Step:
    """The City Hall just drawn goes onto the board at once, then its square is refilled; with nowhere to go, it
    is set aside (RULING G2). The flow asks this first, while `city_hall_drawn`."""
    if city_hall_sites(s):
        return awaits(Decision.PLACE_CITY_HALL, first_player(s))

    def set_aside(rng: Rng) -> list[Event]:
        gone: Event = {"type": "city_hall_set_aside"}
        return [gone, refill_event(evolve(s, gone), rng, slide=False)]

    return set_aside


@lists(Decision.PLACE_CITY_HALL)
def _place_city_hall(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The owner-free parcels the fewest roads from the supply reach (RULING G2)."""
    return [{"type": "place_city_hall", **xy(index)} for index in city_hall_sites(s)]


@move_handler("place_city_hall")
def _place(s: GameState, seat: int, move: PlaceCityHall, rng: Rng, kind: Decision) -> list[Event]:
    """The City Hall stands with its roads from the supply; then the squares still empty are refilled (G2)."""
    roads = city_hall_sites(s)[parcel_index(move["x"], move["y"])]
    placed: CityHallPlaced = {"type": "city_hall_placed", "seat": seat, "x": move["x"], "y": move["y"],
                              "roads": [list(road) for road in roads]}
    return [placed, refill_event(evolve(s, placed), rng, slide=False)]


@handles("city_hall_placed")
def _city_hall_placed(s: GameState, e: CityHallPlaced) -> GameState:
    """Free, on an owner-free parcel; its roads come from the general supply, nobody's reserve (RULING G2)."""
    index = index_of(e)
    roads = frozenset((x1, y1, x2, y2) for x1, y1, x2, y2 in e["roads"])
    s = set_parcel(s, index, content=CITY_HALL)
    return replace(s, city_hall=index, city_hall_drawn=False, roads=s.roads | roads)


@handles("city_hall_set_aside")
def _city_hall_set_aside(s: GameState, e: CityHallSetAside) -> GameState:
    return replace(s, city_hall_drawn=False)
