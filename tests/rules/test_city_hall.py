"""The City Hall of Gold & Guns (`001` "City Hall"; RULING G2; decisions D36-D39): R-GG-20, R-GG-24.

Boards are shaped around the centre (4, 4) as in the other Gold & Guns tests; moves go through the real core.
"""

from __future__ import annotations

import pytest

from app.rules import GameConfig, new_game, player_view
from app.rules.board import SIDES, parcel_index
from app.rules.catalog import CITY_HALL_LEVEL, COWBOYS_PER_PLAYER
from app.rules.construction import owner_free_land
from app.rules.income import building_income, firepower
from app.rules.legal import legal_moves
from app.rules.model import Cowboy
from app.rules.scoring import final_scores
from app.rules.supply import roads_in_supply
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import at, run_step
from tests.rules.test_gold_and_guns_buildings import RING, gg_town, of_type

GG = {"expansions": ["gold_and_guns"]}
BASE_NUMBERS = list(range(1, 8))  # the cards `Game` plays with Gold & Guns unless told otherwise
BLOCK = [(x, y) for x in (3, 4, 5) for y in (3, 4, 5)]  # what the centre's four roads reach


def stand(g: Game, x: int, y: int, occupant: int | None = None) -> None:
    """The City Hall on (x, y), occupied by `occupant`'s cowboy (kept from an earlier round)."""
    g.put(x, y, content="city_hall")
    g.with_state(city_hall=parcel_index(x, y))
    if occupant is not None:
        g.place_cowboys(xy=(x, y), seats=[occupant])


def drawn_at_refill(g: Game, passing_order: tuple[int, ...]) -> None:
    """End of round 1 with a bag of the City Hall and two saloons and every square empty."""
    g.with_state(bag={"city_hall": 1, "saloon": 2}, construction=(None,) * 7)
    run_step(g, "refill", passing_order)


# --- placement when drawn ---------------------------------------------------------------------------------------


def test_drawn_at_a_refill_the_first_player_places_it_then_the_squares_are_refilled() -> None:
    """R-GG-20: drawn from the bag at the end of a round, the City Hall goes straight onto an owner-free parcel a
    road reaches, placed free by the first player in the coming round's order (the earliest passer, decision
    D36); then the squares still empty are refilled (`001` "City Hall", RULING G2)."""
    g = gg_town()
    for x, y in BLOCK:
        if (x, y) not in ((4, 4), (5, 5), (3, 4)):
            g.put(x, y, owner=0)
    money = [p.money for p in g.state.players]
    drawn_at_refill(g, passing_order=(2, 0, 1))
    assert g.awaiting == "place_city_hall" and g.to_act == (2,)
    assert of_type(g.moves(), "place_city_hall") == {(5, 5), (3, 4)}
    (placed, refilled, *_) = g.act({"type": "place_city_hall", "x": 5, "y": 5})
    assert placed == {"type": "city_hall_placed", "seat": 2, "x": 5, "y": 5, "roads": []}
    assert at(g.state, 5, 5) == (None, "city_hall") and g.state.city_hall == parcel_index(5, 5)
    assert refilled["type"] == "construction_refilled" and "city_hall" not in refilled["construction"]
    assert sorted(b for b in g.state.construction if b) == ["saloon", "saloon"] and not any(g.state.bag.values())
    assert [p.money for p in g.state.players] == money  # without paying


def test_drawn_at_a_refill_it_is_placed_by_the_yellow_teachers_holder_who_chooses_first_next_round() -> None:
    """R-GG-27 (RULING G18; `001` "City Hall": "The first player (in turn order) immediately places it"; RULING
    X3): with Gold & Guns and Big Box, the yellow Teacher's holder passed last, yet is the coming round's first
    player, so it is they who place the City Hall drawn at the end of the round, not the earliest passer."""
    g = Game(3, expansions=["gold_and_guns", "big_box"], characters=[1, 2, 3, 4, 5, 6, 17])
    g.claim_starts([(x, 1) for x in range(1, 9)])
    g.with_state(choosing_order=(0, 1, 2))
    g.choose(["teacher", "banker", "sheriff"])
    assert g.state.holder("teacher") == 0
    g.clear_board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]), centre=parcel_index(4, 4))
    g.put(4, 4, content="house")
    for seat in range(3):
        g.set_player(seat, money=0)
    drawn_at_refill(g, passing_order=(2, 1, 0))
    assert g.awaiting == "place_city_hall" and g.to_act == (0,)
    (placed, *_) = g.act({"type": "place_city_hall", "x": 5, "y": 5})
    assert placed["seat"] == 0
    g.run(lambda g, seat, moves: moves[0], until=lambda g: g.state.round == 2)
    assert g.state.choosing_order[0] == 0  # the same first player chooses first in round 2


def test_drawn_at_setup_the_first_player_of_the_drawn_turn_order_places_it() -> None:
    """R-GG-20, R-GG-24 (decision D36): drawn at setup, before any round, the City Hall is placed by the first
    player of the turn order just drawn, before the starting parcels; the other draws follow it."""
    for seed in range(200):
        events = new_game(GameConfig.from_variants(3, {**GG, "characters": BASE_NUMBERS}, preview=True), seed)
        if "city_hall" in next(e for e in events if e["type"] == "construction_refilled")["drawn"]:
            break
    else:
        pytest.fail("no seed below 200 draws the City Hall at setup")
    g = Game(3, seed=seed, **GG)
    first = g.state.initial_order[0]
    if g.awaiting == "place_city_hall":
        assert g.to_act == (first,)
        g.act(g.moves()[0])
    (placed,) = events_of(g.events, "city_hall_placed")
    assert placed["seat"] == first
    assert None not in g.state.construction and g.awaiting == "start_parcel"


def test_with_no_reached_free_parcel_the_fewest_roads_come_from_the_supply() -> None:
    """R-GG-20: if no owner-free parcel is connected to a road, the first player places new roads from the general
    supply, as few as possible, to make one (RULING G2, decision D36: the first shortest way in grid order, taken
    by no player's reserve)."""
    g = gg_town()
    for x, y in BLOCK:
        if (x, y) != (4, 4):
            g.put(x, y, owner=1)
    reserves = [p.roads for p in g.state.players]
    supply = roads_in_supply(g.state)
    drawn_at_refill(g, passing_order=(0, 1, 2))
    corners = {(2, 2), (2, 6), (6, 2), (6, 6)}  # two roads away: a diagonal step is two edges
    one_road_away = {(x, y) for x in range(2, 7) for y in range(2, 7)} - set(BLOCK) - corners
    assert of_type(g.moves(), "place_city_hall") == one_road_away
    (placed, *_) = g.act({"type": "place_city_hall", "x": 6, "y": 5})
    assert len(placed["roads"]) == 1
    assert roads_in_supply(g.state) == supply - 1 and [p.roads for p in g.state.players] == reserves
    assert player_view(g.state, 0)["board"]["parcels"][parcel_index(6, 5)]["reached"]


# --- never bought -----------------------------------------------------------------------------------------------


def test_its_parcel_is_never_bought_nor_claimed() -> None:
    """R-GG-20: the City Hall may not be bought by any player: its parcel is no purchase, claim or price, and a
    cowboy there buys nothing (`001` "City Hall", RULING G2)."""
    g = gg_town()
    stand(g, 5, 5)
    assert parcel_index(5, 5) not in owner_free_land(g.state.parcels)
    assert player_view(g.state, 0)["board"]["parcels"][parcel_index(5, 5)]["price"] is None
    g.place_cowboys(xy=(5, 5), seats=[0])
    assert player_view(g.state, 0)["players"][0]["hints"]["placement_cost"] == 0
    events, state = run_step(g, "parcel_purchase")
    assert not events_of(events, "parcel_bought") and at(state, 5, 5) == (None, "city_hall")


# --- one house value --------------------------------------------------------------------------------------------


def test_it_counts_as_one_house_for_every_neighbouring_building() -> None:
    """R-GG-20: the City Hall counts as one house for the income of every building beside it, whoever owns the
    building — it stands on an owner-free parcel (RULINGS G2, B13, G5)."""
    g = gg_town()
    g.put(4, 4, owner=0, content="saloon")
    g.put(6, 6, owner=1, content="bank")
    g.put(6, 4, owner=2, content="general_store")
    stand(g, 5, 5)
    assert building_income(g.state, parcel_index(4, 4)) == 5
    assert building_income(g.state, parcel_index(6, 6)) == 3
    assert building_income(g.state, parcel_index(6, 4)) == 3
    assert player_view(g.state, 0)["board"]["parcels"][parcel_index(5, 5)]["income"] is None


# --- occupation and duels ---------------------------------------------------------------------------------------


def test_one_cowboy_occupies_it_a_challenger_duels_at_the_estate_income() -> None:
    """R-GG-20 (decision D38): a cowboy placed on the occupied City Hall makes a duel with its occupant, fought at
    the estate income step before the incomes; the loser's cowboy returns to the reserve, the winner's stays
    (`001` "City Hall", RULING G2)."""
    g = gg_town()
    stand(g, 5, 5, occupant=1)
    g.place_cowboys(xy=(5, 5), seats=[2])
    reserves = [p.cowboys for p in g.state.players]
    events, state = run_step(g, "estate_income")
    kinds = [e["type"] for e in events]
    assert kinds.index("duel_fought") < kinds.index("estate_income_paid")
    (duel,) = events_of(events, "duel_fought")
    assert duel["target"] == {"x": 5, "y": 5} and [d["seat"] for d in duel["duelists"]] == [1, 2]
    loser = 3 - duel["winner"]
    assert state.parcel_cowboys[parcel_index(5, 5)] == (Cowboy(duel["winner"]),)
    assert state.players[loser].cowboys == reserves[loser] + 1
    assert player_view(state, 0)["city_hall"] == {"x": 5, "y": 5, "occupant": duel["winner"]}


def test_the_occupant_stays_across_rounds() -> None:
    """R-GG-20: at the end of the round the cowboy occupying the City Hall is not removed; every other cowboy
    goes home (`001` "City Hall", RULING G2)."""
    g = gg_town()
    stand(g, 5, 5, occupant=1)
    g.place_cowboys(xy=(6, 6), seats=[0])
    events, state = run_step(g, "round_end")
    assert events_of(events, "round_ended") and state.round == 2
    assert state.parcel_cowboys == {parcel_index(5, 5): (Cowboy(1),)}


def test_placement_on_the_city_hall_one_cowboy_each_never_the_white_cowboy() -> None:
    """R-GG-20: anyone may place a cowboy on the City Hall, its occupant not a second one; the white cowboy may
    not go there (RULING G2), nor may the red Sheriff challenge the occupant (he starts no duel, `000`)."""
    g = gg_town()
    stand(g, 5, 5)
    g.with_state(white_cowboy=True)
    sheriff = g.state.holder("sheriff")
    assert sheriff is not None and sheriff != 1
    g.with_state(turn=sheriff)
    moves = legal_moves(g.state, sheriff)
    assert {"type": "place_cowboy", "x": 5, "y": 5} in moves
    assert {"type": "place_white_cowboy", "x": 5, "y": 5} not in moves
    assert {"type": "place_white_cowboy", "x": 6, "y": 6} in moves  # any other free parcel
    g.place_cowboys(xy=(5, 5), seats=[1])
    g.with_state(turn=1)
    assert {"type": "place_cowboy", "x": 5, "y": 5} not in legal_moves(g.state, 1)
    g.with_state(sides={**g.state.sides, "sheriff": "red"}, turn=sheriff)
    assert {"type": "place_cowboy", "x": 5, "y": 5} not in legal_moves(g.state, sheriff)


def test_the_occupants_cowboy_is_no_firepower_and_still_one_of_the_ten() -> None:
    """Decision D37: the cowboy on the City Hall is not in its player's reserve, so it adds no firepower (RULING
    B8), yet it is one of the 10 cowboys a player may have: new cowboys stop at 10 with it."""
    g = gg_town()
    stand(g, 5, 5, occupant=0)
    g.set_player(0, cowboys=7)
    g.set_player(1, cowboys=7)
    assert firepower(g.state, 0) == firepower(g.state, 1)
    events, _ = run_step(g, "new_cowboys")
    (received,) = events_of(events, "cowboys_received")
    assert [gain["count"] for gain in received["gains"]][:2] == [2, 3]
    assert COWBOYS_PER_PLAYER == 7 + 1 + 2


# --- one level more ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("building", "level"), [("drugstore", 3), ("bank", 3), ("saloon", 5), ("general_store", 6),
                                                 ("blacksmith", 5)])
def test_the_occupants_buildings_earn_one_level_more(building: str, level: int) -> None:
    """R-GG-20: each drugstore, bank, saloon, general store and blacksmith of the City Hall's occupant earns one
    level more — the income of one more house value — and loses it with the City Hall (`001`, RULING G2)."""
    g = gg_town()
    g.put(2, 2, owner=0, content=building)
    g.put(1, 1, owner=0, content="house")
    g.put(7, 7, owner=0, content="hotel")
    stand(g, 5, 5)
    before, hotel = building_income(g.state, parcel_index(2, 2)), building_income(g.state, parcel_index(7, 7))
    g.place_cowboys(xy=(5, 5), seats=[0])
    assert CITY_HALL_LEVEL[building] == level
    assert building_income(g.state, parcel_index(2, 2)) == before + level
    assert building_income(g.state, parcel_index(7, 7)) == hotel  # not in the list of `001`: no level more
    g.with_state(parcel_cowboys={parcel_index(5, 5): (Cowboy(1),)})
    assert building_income(g.state, parcel_index(2, 2)) == before


def test_one_level_more_stays_within_the_caps() -> None:
    """R-GG-20: the extra level never passes the printed maximum (saloon $55, RULINGS G2, B13)."""
    g = gg_town()
    g.put(4, 4, owner=0, content="saloon")
    for x, y in RING[:5]:
        g.put(x, y, owner=0, content="townhouse")
    stand(g, 7, 7, occupant=0)
    assert building_income(g.state, parcel_index(4, 4)) == 5 * 10 + 5
    g.put(*RING[5], owner=0, content="house")
    assert building_income(g.state, parcel_index(4, 4)) == 55


# --- the end of the game ----------------------------------------------------------------------------------------


def test_the_occupant_scores_nothing_for_it_at_the_end() -> None:
    """Decision D39: at the end the occupant keeps the City Hall, yet it is nobody's parcel and its cowboy is no
    building, house or mountain, so the final scoring gives nothing for it (`000` "End Of The Game", RULING B17)."""
    g = gg_town()
    stand(g, 5, 5)
    alone, _ = final_scores(g.state)
    g.place_cowboys(xy=(5, 5), seats=[0])
    occupied, _ = final_scores(g.state)
    assert occupied == alone
    assert player_view(g.state, 0)["city_hall"] == {"x": 5, "y": 5, "occupant": 0}

