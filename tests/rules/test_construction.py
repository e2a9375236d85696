"""Building construction (`000` "Building construction", "Rules adjusted to yucata"; RULINGS B3, B4, B11, B12):
R-CON-1 .. R-CON-9 and R-ONL-1.

The scenarios use a hand-made town: the centre house on (4, 4) with its four roads, so the parcels reached by a
road are exactly the 3 x 3 block around it, x and y in 3..5 (RULING B3: a parcel is reached when one of its
corners is the end of a road).
"""

from __future__ import annotations

from app.rules.board import SIDES, parcel_index
from app.rules.catalog import CONSTRUCTION_INDEX, CONSTRUCTION_PRICE
from app.rules.evolve import evolve
from app.rules.legal import legal_moves
from app.rules.moves import Move
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import at, ready, run_step, seat_of

SQUARE_PRICES = {"build_3": 3, "build_4": 4, "build_5": 5, "build_6": 6, "build_8": 8, "build_10": 10,
                 "build_12": 12}  # `000` "Building construction", RULING B11


def town(cards: tuple[str, ...] = ("sheriff", "banker", "chinese_worker")) -> Game:
    g = ready(cards)
    g.clear_board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]), centre=parcel_index(4, 4))
    g.put(4, 4, content="house")
    return g


def offer(g: Game, square: str, building: str, seat: int = 0, money: int = 30) -> None:
    """Put `building` on `square`, a lone cowboy of `seat` on it, and resolve up to the purchase decision."""
    construction = list(g.state.construction)
    construction[CONSTRUCTION_INDEX[square]] = building
    g.with_state(construction=tuple(construction))
    g.set_player(seat, money=money)
    g.place_cowboys(square=square, seats=[seat])
    run_step(g, square)
    assert g.awaiting == "buy_building"


def bought(g: Game, building: str, square: str = "build_3", seat: int = 0) -> None:
    """Buy `building` at `square`; the construction decision is then awaited."""
    offer(g, square, building, seat)
    g.act({"type": "buy_building"})
    assert g.awaiting == "construct"


def of_type(moves: list[Move], kind: str) -> list[Move]:
    return [m for m in moves if m["type"] == kind]


def xys(moves: list[Move], kind: str) -> set[tuple[int, int]]:
    return {(m["x"], m["y"]) for m in of_type(moves, kind)}


# --- R-CON-1 -----------------------------------------------------------------------------------------------------


def test_seven_squares_resolve_cheapest_first_at_their_price() -> None:
    """R-CON-1: seven construction squares, $3 .. $12, resolved in ascending order; the winner pays the square's
    price (`000` "Building construction", RULING B11)."""
    g = town()
    assert CONSTRUCTION_PRICE == SQUARE_PRICES
    assert list(CONSTRUCTION_INDEX) == sorted(SQUARE_PRICES, key=SQUARE_PRICES.__getitem__)
    construction = list(g.state.construction)
    construction[CONSTRUCTION_INDEX["build_12"]] = "hotel"
    construction[CONSTRUCTION_INDEX["build_3"]] = "ranch"
    g.with_state(construction=tuple(construction))
    g.set_player(0, money=30)
    g.set_player(1, money=30)
    g.place_cowboys(square="build_12", seats=[0])
    g.place_cowboys(square="build_3", seats=[1])
    run_step(g, "build_3")
    assert (g.state.step, g.to_act) == ("build_3", (1,))
    g.act({"type": "decline"})
    assert (g.state.step, g.to_act) == ("build_12", (0,))
    events = g.act({"type": "buy_building"})
    (purchase,) = events_of(events, "building_bought")
    assert purchase["building"] == "hotel"
    assert g.state.players[0].money == 30 - 12
    assert g.state.construction[CONSTRUCTION_INDEX["build_12"]] is None


def test_chinese_worker_pays_half_rounded_up() -> None:
    """R-CON-1: the (yellow) Chinese Worker pays half the price, rounded up (`000` "Chinese worker")."""
    for square, price in SQUARE_PRICES.items():
        g = town()
        seat = seat_of(g, "chinese_worker")
        offer(g, square, "mine", seat=seat, money=30)
        g.act({"type": "buy_building"})
        assert g.state.players[seat].money == 30 - (price + 1) // 2, square


def test_building_beyond_the_winners_money_cannot_be_bought() -> None:
    """R-CON-1: the price must be paid; with less money only declining is possible, so nobody is asked
    (RULING B10, B11)."""
    g = town()
    construction = list(g.state.construction)
    construction[CONSTRUCTION_INDEX["build_8"]] = "bank"
    g.with_state(construction=tuple(construction))
    g.set_player(0, money=7)
    g.place_cowboys(square="build_8", seats=[0])
    events, s = run_step(g, "build_8")
    assert events_of(events, "building_purchase_declined")
    assert s.players[0].money == 7
    assert s.construction[CONSTRUCTION_INDEX["build_8"]] == "bank"


# --- R-CON-2 -----------------------------------------------------------------------------------------------------


def sites_town() -> Game:
    """Seat 0: (5, 5) empty and reached, (7, 7) empty and not reached, (3, 3) with a mountain, (5, 4) with a
    house; seat 1: (3, 5) empty and reached."""
    g = town()
    g.put(5, 5, owner=0)
    g.put(7, 7, owner=0)
    g.put(3, 3, owner=0, content="mountain")
    g.put(5, 4, owner=0, content="house")
    g.put(3, 5, owner=1)
    return g


def test_building_needs_an_own_empty_parcel_reached_by_a_road() -> None:
    """R-CON-2: a saloon goes only on the builder's own parcel with no building, house or mountain, reached by a
    road (`000` "Building construction", `003` "Bâtir sur une parcelle avec maison ou montagne", RULING B11)."""
    g = sites_town()
    bought(g, "saloon")
    assert xys(g.moves(), "place_building") == {(5, 5)}


def test_ranch_and_mine_need_no_road() -> None:
    """R-CON-2: ranches and mines need no road, still an own empty parcel (`000`: "ranches and mines do not need
    to be reached by a road")."""
    for building in ("ranch", "mine"):
        g = sites_town()
        bought(g, building)
        assert xys(g.moves(), "place_building") == {(5, 5), (7, 7)}
        g.act({"type": "place_building", "building": building, "x": 7, "y": 7})
        assert at(g.state, 7, 7) == (0, building)
        assert g.state.players[0].buildings == ()


# --- R-CON-3 / R-ONL-1 -------------------------------------------------------------------------------------------


def test_roads_are_placed_only_while_constructing() -> None:
    """R-CON-3, R-ONL-1: roads from the personal reserve are placed only during a construction (`000` "Rules
    adjusted to yucata", RULING B4): no road move at placement nor at the purchase decision."""
    g = town()
    assert g.state.players[0].roads >= 1
    assert g.awaiting == "placement"
    assert not of_type(g.moves(), "place_road")
    offer(g, "build_3", "saloon")
    assert not of_type(g.moves(), "place_road")
    g.act({"type": "buy_building"})
    assert of_type(g.moves(), "place_road")


def test_no_roads_while_constructing_a_ranch_or_mine() -> None:
    """R-ONL-1, R-CON-3: online, roads are placed only "when constructing a building which has to be connected
    (ie every building except ranch and mine)" (`000` "Rules adjusted to yucata")."""
    for building in ("ranch", "mine"):
        g = town()
        g.put(5, 5, owner=0)
        g.set_player(0, roads=3)
        bought(g, building)
        assert not of_type(g.moves(), "place_road"), building
    g = town()
    g.put(5, 5, owner=0)
    g.set_player(0, roads=3, buildings=("mine",))
    run_step(g, "build_from_reserve")
    assert (g.awaiting, g.to_act) == ("construct", (0,))
    assert not of_type(g.moves(), "place_road")
    g.set_player(0, buildings=("mine", "bank"))  # may build the bank, which has to be connected
    assert of_type(g.moves(), "place_road")


def test_each_road_extends_the_network() -> None:
    """R-CON-3: a new road must share an end point with a road on the board (`000` "Road": "must always extend
    previously placed roads", RULING B3). Around the centre's square of four roads, each of its four corners has
    two free edges: eight possible roads."""
    g = town()
    g.set_player(0, roads=2)
    bought(g, "saloon")
    roads = of_type(g.moves(), "place_road")
    assert len(roads) == 8
    centre_points = {(3, 3), (4, 3), (3, 4), (4, 4)}
    for r in roads:
        assert {(r["x1"], r["y1"]), (r["x2"], r["y2"])} & centre_points
    g.act({"type": "place_road", "x1": 4, "y1": 4, "x2": 5, "y2": 4})
    assert (4, 4, 5, 4) in g.state.roads
    assert g.state.players[0].roads == 1
    # the new end point (5, 4) offers its three free edges; the used edge is gone
    assert len(of_type(g.moves(), "place_road")) == 8 - 1 + 3


def test_roads_let_a_building_reach_a_parcel() -> None:
    """R-CON-3: with no road reaching the parcel, the builder may first place roads from their reserve (`000`
    "Building construction"); without roads in the reserve, none can be placed."""
    g = town()
    g.put(6, 4, owner=0)
    g.set_player(0, roads=0)
    offer(g, "build_3", "bank")
    events = g.act({"type": "buy_building"})  # nothing can be done but keep it, so it is kept at once
    assert not events_of(events, "road_placed")
    assert events_of(events, "building_kept")
    assert at(g.state, 6, 4) == (0, None)

    g = town()
    g.put(6, 4, owner=0)
    g.set_player(0, roads=1)
    bought(g, "bank")
    assert xys(g.moves(), "place_building") == set()
    g.act({"type": "place_road", "x1": 4, "y1": 4, "x2": 5, "y2": 4})  # (5, 4) is a corner of (6, 4)
    assert xys(g.moves(), "place_building") == {(6, 4)}


# --- R-CON-4 -----------------------------------------------------------------------------------------------------


def test_saloon_places_a_free_house_on_a_free_reached_parcel() -> None:
    """R-CON-4: every building but ranch and mine also places a house, free, on a parcel with no building, house
    or mountain, reached by a road, not a river parcel (`000` "Building construction", RULING B11)."""
    g = town()
    g.put(5, 5, owner=0)
    g.put(3, 3, content="mountain")
    g.put(3, 4, river=True)
    g.put(7, 7)  # free but not reached
    bought(g, "saloon")
    money, houses = g.state.players[0].money, g.state.houses
    g.act({"type": "place_building", "building": "saloon", "x": 5, "y": 5})
    assert g.awaiting == "construct"
    reached_free = {(x, y) for x in (3, 4, 5) for y in (3, 4, 5)} - {(4, 4), (5, 5), (3, 3), (3, 4)}
    assert xys(g.moves(), "place_house") == reached_free
    assert of_type(g.moves(), "place_road")  # roads may be placed again before the house (RULING B4)
    before = g.state
    (placed, *_) = g.act({"type": "place_house", "x": 4, "y": 5})
    after = evolve(before, placed)  # the flow then runs on (estate income pays the new saloon)
    assert at(after, 4, 5) == (None, "house")
    assert after.houses == houses - 1
    assert after.players[0].money == money
    assert after.work is None


def test_ranch_and_mine_place_no_house() -> None:
    """R-CON-4: ranch and mine place no house (`000` "Building construction", RULING B11)."""
    for building in ("ranch", "mine"):
        g = town()
        g.put(5, 5, owner=0)
        bought(g, building)
        houses = g.state.houses
        g.act({"type": "place_building", "building": building, "x": 5, "y": 5})
        assert g.state.work is None
        assert g.state.houses == houses


def test_every_other_building_places_a_house() -> None:
    """R-CON-4: drugstore, bank, saloon, hotel, church and prison each place a house (`000`)."""
    for building in ("drugstore", "bank", "saloon", "hotel", "church", "prison"):
        g = town()
        g.put(5, 5, owner=0)
        bought(g, building)
        g.act({"type": "place_building", "building": building, "x": 5, "y": 5})
        assert g.awaiting == "construct", building
        assert of_type(g.moves(), "place_house"), building


# --- R-CON-5 / R-CON-6 -------------------------------------------------------------------------------------------


def permission_town() -> Game:
    """Seat 0 has bought a saloon for (3, 3); the only other free reached parcels are seat 1's (5, 5) and
    (5, 3) and seat 2's (3, 5), so the saloon can stand only once a house parcel is granted."""
    g = town()
    g.put(3, 3, owner=0)
    for xy in ((4, 3), (3, 4), (5, 4), (4, 5)):
        g.put(*xy, content="mountain")
    g.put(5, 5, owner=1)
    g.put(5, 3, owner=1)
    g.put(3, 5, owner=2)
    bought(g, "saloon")
    return g


def test_house_on_own_or_owner_free_parcel_but_not_anothers() -> None:
    """R-CON-5: the house may go on the builder's parcel or an owner-free one, another player's only with
    permission (`000`: "upon agreement", RULING B11, B12)."""
    g = town()
    g.put(3, 3, owner=0)
    g.put(5, 5, owner=0)
    g.put(3, 5, owner=1)
    bought(g, "hotel")
    g.act({"type": "place_building", "building": "hotel", "x": 3, "y": 3})
    targets = xys(g.moves(), "place_house")
    assert (5, 5) in targets  # own
    assert (4, 3) in targets  # owner-free
    assert (3, 5) not in targets  # seat 1's, no permission
    g.act({"type": "place_house", "x": 5, "y": 5})
    assert at(g.state, 5, 5) == (0, "house")


def test_permission_answered_parcel_by_parcel() -> None:
    """R-CON-5, R-CON-6: the builder asks one player; that player answers for each of their free, road-reached
    parcels, grant or deny; a granted parcel takes the house, which stays on its owner's parcel (RULING B12,
    `000` "Building a house on a parcel owned by another player")."""
    g = permission_town()
    assert xys(g.moves(), "place_building") == set()
    assert {m["seat"] for m in of_type(g.moves(), "ask_permission")} == {1, 2}
    g.act({"type": "ask_permission", "seat": 1})
    assert (g.awaiting, g.to_act) == ("permission", (1,))
    assert legal_moves(g.state, 0) == []  # one player at a time: the builder waits for the answer
    answers = of_type(g.moves(1), "answer_permission")
    assert {(m["x"], m["y"], m["grant"]) for m in answers} == {
        (5, 5, True), (5, 5, False), (5, 3, True), (5, 3, False)}
    assert {"type": "deny_remaining"} in g.moves(1)
    g.move(1, {"type": "answer_permission", "x": 5, "y": 5, "grant": False})
    assert (g.awaiting, g.to_act) == ("permission", (1,))  # (5, 3) is still unanswered
    assert xys(g.moves(1), "answer_permission") == {(5, 3)}
    g.move(1, {"type": "answer_permission", "x": 5, "y": 3, "grant": True})
    assert (g.awaiting, g.to_act) == ("construct", (0,))
    assert 1 not in {m["seat"] for m in of_type(g.moves(), "ask_permission")}  # asked once per construction
    g.act({"type": "place_building", "building": "saloon", "x": 3, "y": 3})
    assert xys(g.moves(), "place_house") == {(5, 3)}
    assert 1 not in {m["seat"] for m in of_type(g.moves(), "ask_permission")}
    g.act({"type": "place_house", "x": 5, "y": 3})
    assert at(g.state, 5, 3) == (1, "house")


def test_permission_deny_remaining_and_ask_the_next_player() -> None:
    """R-CON-6: "deny the rest" answers every open parcel at once; the builder may then ask another player, each
    at most once per construction (RULING B12)."""
    g = permission_town()
    g.act({"type": "ask_permission", "seat": 1})
    g.move(1, {"type": "deny_remaining"})
    assert g.awaiting == "construct"
    assert xys(g.moves(), "place_building") == set()
    assert [m["seat"] for m in of_type(g.moves(), "ask_permission")] == [2]
    g.act({"type": "ask_permission", "seat": 2})
    g.move(2, {"type": "answer_permission", "x": 3, "y": 5, "grant": True})
    assert not of_type(g.moves(), "ask_permission")
    g.act({"type": "place_building", "building": "saloon", "x": 3, "y": 3})
    assert xys(g.moves(), "place_house") == {(3, 5)}


def test_player_without_eligible_parcels_is_not_asked() -> None:
    """R-CON-6: only parcels that could take the house are asked about (free, road-reached, non-river: RULING
    B12); a player with none is not offered."""
    g = town()
    g.put(3, 3, owner=0)
    g.put(7, 7, owner=1)  # not reached
    g.put(5, 5, owner=2, content="mountain")  # not free
    bought(g, "church")
    assert not of_type(g.moves(), "ask_permission")


def test_asked_again_in_a_new_construction() -> None:
    """R-CON-6: "each player may be asked at most once per construction" — a new construction may ask again
    (RULING B12, `000` "Each player may be asked permission only once each construction action")."""
    g = permission_town()
    g.act({"type": "ask_permission", "seat": 1})
    g.move(1, {"type": "deny_remaining"})
    g.act({"type": "ask_permission", "seat": 2})
    g.move(2, {"type": "deny_remaining"})
    g.act({"type": "place_road", "x1": 2, "y1": 3, "x2": 3, "y2": 3})  # (2, 3) and (2, 4) now reached
    g.act({"type": "place_building", "building": "saloon", "x": 3, "y": 3})
    g.act({"type": "place_house", "x": 2, "y": 3})
    assert g.state.work is None
    offer(g, "build_4", "drugstore")
    g.act({"type": "buy_building"})
    assert {m["seat"] for m in of_type(g.moves(), "ask_permission")} == {1, 2}


# --- R-CON-7 -----------------------------------------------------------------------------------------------------


def test_bought_building_may_be_kept_and_built_after_the_squares() -> None:
    """R-CON-7: instead of building at once the buyer may keep the building and build it after the last
    construction square (`000` "Important: Instead of building it immediately...", RULING B11)."""
    g = town()
    g.put(5, 5, owner=0)
    g.set_player(1, money=30)
    construction = list(g.state.construction)
    construction[CONSTRUCTION_INDEX["build_12"]] = "mine"
    g.with_state(construction=tuple(construction))
    g.place_cowboys(square="build_12", seats=[1])
    bought(g, "ranch", square="build_3")
    assert {"type": "keep_building"} in g.moves()
    g.act({"type": "keep_building"})
    assert g.state.players[0].buildings == ("ranch",)
    assert at(g.state, 5, 5) == (0, None)
    # the later square comes first, then building from reserve
    assert (g.state.step, g.awaiting, g.to_act) == ("build_12", "buy_building", (1,))
    g.act({"type": "decline"})
    assert (g.state.step, g.awaiting, g.to_act) == ("build_from_reserve", "construct", (0,))
    g.act({"type": "place_building", "building": "ranch", "x": 5, "y": 5})
    assert at(g.state, 5, 5) == (0, "ranch")
    assert g.state.players[0].buildings == ()


def test_kept_building_waits_for_the_end_of_the_construction_squares() -> None:
    """R-CON-7: a kept building may be placed only after the construction squares (`000`: "they must wait until
    the end of the 'building construction actions'"): at a later square only the building just bought can be
    placed."""
    g = town()
    g.put(5, 5, owner=0)
    g.put(3, 3, owner=0)
    g.set_player(0, buildings=("ranch",))
    bought(g, "mine", square="build_4")
    assert {m["building"] for m in of_type(g.moves(), "place_building")} == {"mine"}
    g.act({"type": "place_building", "building": "mine", "x": 5, "y": 5})
    assert (g.state.step, g.to_act) == ("build_from_reserve", (0,))
    assert {m["building"] for m in of_type(g.moves(), "place_building")} == {"ranch"}


def test_kept_building_stays_in_reserve_into_the_next_round() -> None:
    """R-CON-7: kept buildings stay in front of their owner ("All players may have several buildings in front of
    them", `000`) until built, also across rounds."""
    g = town()
    g.set_player(1, roads=0, buildings=("hotel", "ranch"))  # no parcel, no road: nothing can be built
    g.pass_all()
    assert g.state.round == 2
    assert g.state.players[1].buildings == ("hotel", "ranch")


def test_build_from_reserve_in_placement_order() -> None:
    """R-CON-7: several players with buildings in reserve build them in placement (turn) order, not seat order
    (`000`: "done in player turn order", RULING B11)."""
    g = town(cards=("chinese_worker", "banker", "sheriff"))  # placement order: seat 2 (1), 1 (2), 0 (4)
    assert g.state.placement_order == (2, 1, 0)
    g.put(5, 5, owner=0)
    g.put(3, 3, owner=2)
    g.put(3, 5, owner=2)
    g.set_player(0, buildings=("mine",))
    g.set_player(2, buildings=("ranch", "mine"))
    run_step(g, "build_from_reserve")
    assert (g.awaiting, g.to_act) == ("construct", (2,))
    assert {m["building"] for m in of_type(g.moves(), "place_building")} == {"ranch", "mine"}
    g.act({"type": "place_building", "building": "mine", "x": 3, "y": 3})
    assert (g.awaiting, g.to_act) == ("construct", (2,))  # may build the ranch on (3, 5) too, or keep it
    g.act({"type": "keep_building"})
    assert (g.awaiting, g.to_act) == ("construct", (0,))
    g.act({"type": "place_building", "building": "mine", "x": 5, "y": 5})
    assert g.state.players[2].buildings == ("ranch",)
    assert g.state.step != "build_from_reserve"


# --- R-CON-8 -----------------------------------------------------------------------------------------------------


def test_ranch_mine_and_prison_bring_revolvers() -> None:
    """R-CON-8: ranch and mine +1 revolver, prison +2, the others none, taken when placed (`000` "Ranch", "Mine",
    "Prison", RULING B11)."""
    expected = {"ranch": 1, "mine": 1, "prison": 2, "saloon": 0, "bank": 0, "drugstore": 0, "hotel": 0,
                "church": 0}
    for building, revolvers in expected.items():
        g = town()
        g.put(5, 5, owner=0)
        bought(g, building)
        before = g.state.players[0].revolvers
        g.act({"type": "place_building", "building": building, "x": 5, "y": 5})
        assert g.state.players[0].revolvers == before + revolvers, building


# --- R-CON-9 -----------------------------------------------------------------------------------------------------


def test_no_house_left_building_needs_none() -> None:
    """R-CON-9: with no house in the supply, the building is built without one (RULING B11), so it may stand
    where no parcel is left for a house."""
    g = town()
    g.put(5, 5, owner=0)
    for x in (3, 4, 5):
        for y in (3, 4, 5):
            if (x, y) not in ((4, 4), (5, 5)):
                g.put(x, y, content="mountain")
    g.set_player(0, roads=0)
    offer(g, "build_3", "saloon")
    events = g.act({"type": "buy_building"})  # with houses left there is no room for one: the saloon is kept
    assert events_of(events, "building_kept")
    assert not events_of(events, "building_placed")

    g = town()
    g.put(5, 5, owner=0)
    for x in (3, 4, 5):
        for y in (3, 4, 5):
            if (x, y) not in ((4, 4), (5, 5)):
                g.put(x, y, content="mountain")
    g.with_state(houses=0)
    bought(g, "saloon")
    assert xys(g.moves(), "place_building") == {(5, 5)}
    g.act({"type": "place_building", "building": "saloon", "x": 5, "y": 5})
    assert at(g.state, 5, 5) == (0, "saloon")
    assert g.state.work is None
    assert g.state.houses == 0
