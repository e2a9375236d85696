"""Gold & Guns buildings (`001` "Townhouses and Buildings with Increased Income", "New Buildings"; RULINGS G3, G5,
G6, B13): R-GG-2, R-GG-3, R-GG-19, R-GG-21 .. R-GG-24.

Boards are shaped around (4, 4) as in the income tests; construction goes through the real moves.
"""

from __future__ import annotations

import pytest

from app.rules import GameConfig, new_game, player_view, replay
from app.rules.board import SIDES, parcel_index
from app.rules.catalog import BUILDINGS, CONSTRUCTION_INDEX
from app.rules.income import building_income
from app.rules.moves import Move
from app.rules.scoring import final_scores
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import CARDS, at, run_step

GG = ["gold_and_guns"]
RING = [(x, y) for x in (3, 4, 5) for y in (3, 4, 5) if (x, y) != (4, 4)]  # the eight neighbours of (4, 4)


def gg_town(river: bool = False) -> Game:
    """Round 1's placement with Gold & Guns, an empty board, the centre house on (4, 4) and its four roads."""
    g = Game(3, expansions=GG, river=river)
    g.claim_starts([(x, 1) for x in range(1, 9)])  # off the river
    g.choose(CARDS)
    g.clear_board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]), centre=parcel_index(4, 4))
    g.put(4, 4, content="house")
    for seat in range(3):
        g.set_player(seat, money=0)
    g.with_state(passing_order=(0, 1, 2))  # the final score's tie-break reads it
    return g


def bought(g: Game, building: str, seat: int = 0, square: str = "build_3") -> None:
    construction = list(g.state.construction)
    construction[CONSTRUCTION_INDEX[square]] = building
    g.with_state(construction=tuple(construction))
    g.set_player(seat, money=30)
    g.place_cowboys(square=square, seats=[seat])
    run_step(g, square)
    g.act({"type": "buy_building"})
    assert g.awaiting == "construct"


def of_type(moves: list[Move], kind: str) -> set[tuple[int, int]]:
    return {(m["x"], m["y"]) for m in moves if m["type"] == kind}


def income(g: Game, x: int = 4, y: int = 4) -> int:
    return building_income(g.state, parcel_index(x, y))


# --- switching the expansion on ----------------------------------------------------------------------------------


def test_players_may_open_a_table_with_gold_and_guns() -> None:
    """Gold & Guns is played whole (buildings, townhouses, the 7 characters): a player's request is accepted, with
    the Outlaws too."""
    assert GameConfig.from_variants(3, {"expansions": GG}).gold_and_guns
    assert GameConfig.from_variants(5, {"expansions": [*GG, "outlaws"], "sides": "vote"}).outlaws
    events = new_game(GameConfig.from_variants(3, {"expansions": GG}, preview=True), 7)
    assert replay(events).config.gold_and_guns  # the log's own configuration replays


# --- R-GG-24 -----------------------------------------------------------------------------------------------------


def test_new_buildings_go_into_the_bag_only_with_the_expansion() -> None:
    """R-GG-24: the 8 new buildings go into the bag with the base buildings — station 1, city hall 1, school 2,
    general store 2, blacksmith 2 (`001` "Components", "New Buildings"); a City Hall drawn at setup stands on the
    board (RULING G2)."""
    new = {"station": 1, "city_hall": 1, "school": 2, "general_store": 2, "blacksmith": 2}
    with_gg = replay(new_game(GameConfig.from_variants(3, {"expansions": GG}, preview=True), 5))
    base = replay(new_game(GameConfig.from_variants(3, {}), 5))
    in_box = lambda s: {b: n for b, n in s.bag.items()}  # noqa: E731
    on_squares = lambda s, b: sum(1 for c in s.construction if c == b)  # noqa: E731
    for building, count in new.items():
        on_board = sum(1 for p in with_gg.parcels if p.content == building)
        assert in_box(with_gg).get(building, 0) + on_squares(with_gg, building) + on_board == count
        assert building not in base.bag and on_squares(base, building) == 0
    assert sum(with_gg.bag.values()) == sum(base.bag.values()) + sum(new.values())


# --- R-GG-2 ------------------------------------------------------------------------------------------------------


def hemmed_in(g: Game, house_owner: int | None = 0) -> None:
    """A house on (4, 4) whose eight neighbours are all occupied or owned, and a saloon of seat 0 to build."""
    g.put(4, 4, owner=house_owner, content="house")
    for x, y in RING:
        g.put(x, y, owner=1)
    g.put(3, 3, content="mountain")
    g.put(5, 5, river=True)
    g.put(4, 5, owner=1, content="bank")
    g.put(6, 6, owner=0)
    g.with_state(roads=g.state.roads | frozenset(SIDES[parcel_index(6, 6)]) | {(4, 4, 5, 4), (5, 4, 5, 5)})


def test_townhouse_replaces_a_hemmed_in_house_instead_of_a_new_house() -> None:
    """R-GG-2: instead of a new house, the builder may turn an existing house whose 8 neighbours are all occupied
    or owned into a townhouse; it keeps its parcel and owner, the house returns to the supply, one of the 20
    townhouses is used (`001` "Townhouses", RULING G6, decision D35)."""
    g = gg_town()
    hemmed_in(g)
    bought(g, "saloon")
    g.act({"type": "place_building", "building": "saloon", "x": 6, "y": 6})
    assert of_type(g.moves(), "place_townhouse") == {(4, 4)}
    houses, townhouses = g.state.houses, g.state.townhouses
    (placed, *_) = g.act({"type": "place_townhouse", "x": 4, "y": 4})
    assert placed == {"type": "townhouse_placed", "seat": 0, "x": 4, "y": 4}
    assert at(g.state, 4, 4) == (0, "townhouse")
    assert (g.state.houses, g.state.townhouses) == (houses + 1, townhouses - 1) == (houses + 1, 19)
    assert g.state.work is None


@pytest.mark.parametrize("gap", [(3, 4), (5, 3)])
def test_no_townhouse_beside_a_free_owner_free_parcel(gap: tuple[int, int]) -> None:
    """R-GG-2: one free, owner-free neighbour is enough to forbid the townhouse (RULING G6)."""
    g = gg_town()
    hemmed_in(g)
    g.put(*gap)
    bought(g, "saloon")
    g.act({"type": "place_building", "building": "saloon", "x": 6, "y": 6})
    assert of_type(g.moves(), "place_townhouse") == set()


def test_no_townhouse_on_the_edge_of_the_board_nor_on_another_players_house() -> None:
    """R-GG-2: a house on the board's edge has fewer than 8 neighbours, so never becomes a townhouse (RULING G6);
    another player's house is theirs, as their parcels are for a new house: not without their permission (RULINGS
    B11, G19, decision D35)."""
    g = gg_town()
    hemmed_in(g, house_owner=2)
    g.put(1, 1, owner=0, content="house")
    g.put(2, 1, owner=1)
    g.put(1, 2, owner=1)
    g.put(2, 2, owner=1)
    bought(g, "saloon")
    g.act({"type": "place_building", "building": "saloon", "x": 6, "y": 6})
    assert of_type(g.moves(), "place_townhouse") == set()


def test_another_players_house_becomes_a_townhouse_with_their_permission() -> None:
    """R-GG-28 (RULING G19; `001` "Townhouses": they "act exactly like a normal house tile"; RULING B12): the
    builder asks the house's owner as for a new house there; granted, the house may become the builder's
    townhouse step, and the townhouse stays the parcel owner's (decision D35)."""
    g = gg_town()
    hemmed_in(g, house_owner=2)
    bought(g, "saloon")
    g.act({"type": "place_building", "building": "saloon", "x": 6, "y": 6})
    assert {"type": "ask_permission", "seat": 2} in g.moves()
    (asked,) = g.act({"type": "ask_permission", "seat": 2})
    assert asked == {"type": "permission_asked", "seat": 0, "asked": 2, "parcels": [[4, 4]], "townhouses": [[4, 4]]}
    assert g.to_act == (2,) and {"type": "answer_permission", "x": 4, "y": 4, "grant": True} in g.moves()
    (granted,) = g.act({"type": "answer_permission", "x": 4, "y": 4, "grant": True})
    assert granted == {"type": "permission_answered", "seat": 2, "x": 4, "y": 4, "granted": True, "townhouse": True}
    assert g.to_act == (0,) and of_type(g.moves(), "place_townhouse") == {(4, 4)}
    (placed, *_) = g.act({"type": "place_townhouse", "x": 4, "y": 4})
    assert placed == {"type": "townhouse_placed", "seat": 0, "x": 4, "y": 4}
    assert at(g.state, 4, 4) == (2, "townhouse") and g.state.work is None


def test_a_refused_townhouse_is_not_built_on_another_players_house() -> None:
    """R-GG-28 (RULINGS G19, B12): refused, the house stays a house and the builder places theirs elsewhere."""
    g = gg_town()
    hemmed_in(g, house_owner=2)
    bought(g, "saloon")
    g.act({"type": "place_building", "building": "saloon", "x": 6, "y": 6})
    g.act({"type": "ask_permission", "seat": 2})
    (refused,) = g.act({"type": "answer_permission", "x": 4, "y": 4, "grant": False})
    assert refused["townhouse"] is True and not refused["granted"]
    assert g.to_act == (0,) and of_type(g.moves(), "place_townhouse") == set()
    assert {"type": "ask_permission", "seat": 2} not in g.moves()  # once per construction (decision D6)


def test_townhouse_counts_as_two_houses_and_scores_as_one_house() -> None:
    """R-GG-2: a townhouse is two house values for income, by the same ownership test as a house, and 2 VP at the
    end like a house (RULING G6, B13)."""
    g = gg_town()
    g.put(4, 4, owner=0, content="saloon")
    g.put(5, 5, owner=0, content="townhouse")
    g.put(3, 3, content="townhouse")
    g.put(3, 5, owner=1, content="townhouse")
    assert income(g) == 5 * 4
    scores, _ = final_scores(g.state)
    assert scores[0]["houses"] == 2 and scores[1]["houses"] == 2


# --- R-GG-3 ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("building", "cap"), [("saloon", 55), ("bank", 45), ("drugstore", 33),
                                               ("general_store", 33), ("blacksmith", 40)])
def test_increased_income_tiles_cap_the_income(building: str, cap: int) -> None:
    """R-GG-3: the increased-income tiles' maxima: saloon $55, bank $45, drugstore $33, general store $33,
    blacksmith $40 (RULING B13, `004` income caps)."""
    g = gg_town()
    g.put(4, 4, owner=0, content=building)
    for x, y in RING:
        g.put(x, y, owner=0, content="townhouse")
    for x in range(1, 9):
        g.put(x, 8, owner=0, content="ranch")
        g.put(x, 1, owner=0, content="mine")
    g.with_state(round=4)
    assert income(g) == cap
    assert BUILDINGS[building].income_cap == cap


# --- R-GG-19 -----------------------------------------------------------------------------------------------------


def test_station_stands_only_beside_a_road_crossing_the_whole_map() -> None:
    """R-GG-19: the station is built along a road crossing the map in a straight line — one side of its parcel on
    a grid line roaded from border to border; it places no house (`001` "Station", RULING G3)."""
    g = gg_town()
    for x in range(1, 9):
        g.put(x, 6, owner=0)
    g.put(2, 4, owner=0)
    line = frozenset((i, 5, i + 1, 5) for i in range(8))  # the line between rows 5 and 6
    g.with_state(roads=g.state.roads | line - {(7, 5, 8, 5)} | {(3, 3, 3, 4)})
    bought(g, "station")
    assert of_type(g.moves(), "place_building") == set()  # one edge short of the border
    g.with_state(roads=g.state.roads | line)
    assert of_type(g.moves(), "place_building") == {(x, 6) for x in range(1, 9)}
    (placed, *_) = g.act({"type": "place_building", "building": "station", "x": 3, "y": 6})
    assert placed["house"] is False
    assert g.state.work is None


def test_station_scores_one_vp_per_two_house_symbols_in_the_city() -> None:
    """R-GG-19, the rulebook's example: 12 houses, 2 hotels, 4 ranches, 1 church and 1 station are 23 house
    symbols, so the station's owner scores 11 VP, whoever owns the rest (`001` "Station", RULING G3)."""
    g = gg_town()
    g.clear_board()
    pieces = ["house"] * 12 + ["hotel"] * 2 + ["ranch"] * 4 + ["church"]
    for k, content in enumerate(pieces):
        g.put(k % 8 + 1, k // 8 + 1, owner=k % 3 if content != "house" else None, content=content)
    g.put(8, 8, owner=1, content="station")
    g.put(7, 8, owner=0, content="mine")  # no house symbol
    scores, _ = final_scores(g.state)
    assert [score["station"] for score in scores] == [0, 11, 0]
    assert scores[1]["total"] == sum(v for k, v in scores[1].items() if k != "total")


def test_station_counts_as_two_houses_for_its_owners_buildings() -> None:
    """R-GG-19: the station counts as 2 houses for its owner's drugstores, banks and saloons; it earns nothing
    itself and cannot be attacked (RULINGS G3, B13; decision D34)."""
    g = gg_town()
    g.put(4, 4, owner=0, content="saloon")
    g.put(5, 4, owner=0, content="station")
    g.put(3, 4, owner=1, content="station")
    assert income(g) == 5 * 2
    assert income(g, 5, 4) == 0
    assert not BUILDINGS["station"].attackable


def test_base_game_scores_have_no_station_part() -> None:
    """R-GG-19: the `station` score part exists only with Gold & Guns (the API's "With expansions")."""
    g = Game(3)
    g.with_state(passing_order=(0, 1, 2))
    scores, _ = final_scores(g.state)
    assert "station" not in scores[0]


# --- R-GG-21 -----------------------------------------------------------------------------------------------------


def test_school_is_built_with_three_houses() -> None:
    """R-GG-21: a school touches a road and is built with three houses; it counts as one house for its owner's
    other buildings and earns nothing (`001` "School")."""
    g = gg_town()
    g.put(5, 5, owner=0)
    bought(g, "school")
    (placed, *_) = g.act({"type": "place_building", "building": "school", "x": 5, "y": 5})
    assert placed["houses"] == 3
    houses = g.state.houses
    for x, y in ((3, 3), (3, 4), (3, 5)):
        assert g.state.work is not None and (x, y) in of_type(g.moves(), "place_house")
        g.act({"type": "place_house", "x": x, "y": y})
    assert g.state.houses == houses - 3
    assert [at(g.state, 3, y)[1] for y in (3, 4, 5)] == ["house"] * 3
    g.put(4, 4, owner=0, content="saloon")
    g.put(3, 3)
    g.put(3, 4)
    g.put(3, 5)
    assert income(g) == 5 * 1
    assert income(g, 5, 5) == 0


def test_school_needs_three_house_parcels_to_be_placed() -> None:
    """R-GG-21 (decision D5): the school may be placed only where three house parcels (or houses to turn into
    townhouses) remain, so its construction can always be finished."""
    g = gg_town()
    g.put(5, 5, owner=0)
    for x, y in RING:
        if (x, y) not in ((5, 5), (3, 3), (3, 4)):
            g.put(x, y, owner=1, content="mountain")
    bought(g, "school")
    assert of_type(g.moves(), "place_building") == set()


def test_one_school_on_each_side_of_the_river() -> None:
    """R-GG-21: with The River, only one school on each side (`001` "School")."""
    g = gg_town(river=True)
    g.put(2, 2, owner=2, content="school")  # north of the river
    g.put(4, 4, owner=0)  # north
    g.put(4, 6, owner=0)  # south
    g.with_state(roads=g.state.roads | frozenset(SIDES[parcel_index(4, 6)]) | {(3, 4, 3, 5)})
    bought(g, "school")
    assert of_type(g.moves(), "place_building") == {(4, 6)}


# --- R-GG-22 -----------------------------------------------------------------------------------------------------


def test_general_store_rulebook_example_earns_12() -> None:
    """R-GG-22, the rulebook's example: two adjacent houses, one the owner's, and another player's church earn
    $12 — $6 per own house value, $3 per house value of anyone else (`001` "General Store", RULING G5)."""
    g = gg_town()
    g.put(4, 4, owner=0, content="general_store")
    g.put(3, 3, owner=0, content="house")
    g.put(5, 5, owner=1, content="house")
    g.put(3, 5, owner=2, content="church")
    assert income(g) == 12
    g.put(5, 3, content="house")  # an owner-free house is not the owner's: $3
    g.put(5, 4, owner=0, content="townhouse")  # two own house values: $12
    assert income(g) == 12 + 3 + 12


def test_general_store_and_blacksmith_are_built_with_a_house() -> None:
    """R-GG-22, R-GG-23: both touch a road and are built with a house (`001` "General Store", "Blacksmith")."""
    for building in ("general_store", "blacksmith"):
        g = gg_town()
        g.put(5, 5, owner=0)
        g.put(7, 7, owner=0)  # not reached by a road
        bought(g, building)
        assert of_type(g.moves(), "place_building") == {(5, 5)}
        (placed, *_) = g.act({"type": "place_building", "building": building, "x": 5, "y": 5})
        assert placed["house"] is True and "houses" not in placed
        assert g.awaiting == "construct" and of_type(g.moves(), "place_house")


# --- R-GG-23 -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("round_", "ranches", "expected"), [(1, 0, 5), (2, 1, 15), (3, 0, 15), (4, 2, 30)])
def test_blacksmith_earns_5_per_round_and_5_per_ranch(round_: int, ranches: int, expected: int) -> None:
    """R-GG-23: $5 in the first round, $10 in the second, $15, $20, plus $5 per ranch its owner has anywhere
    (`001` "Blacksmith")."""
    g = gg_town()
    g.put(4, 4, owner=0, content="blacksmith")
    for x in range(1, ranches + 1):
        g.put(x, 8, owner=0, content="ranch")
    g.put(8, 8, owner=1, content="ranch")  # another player's ranch
    g.with_state(round=round_)
    assert income(g) == expected


def test_blacksmith_income_is_paid_at_the_estate_income() -> None:
    """R-GG-23: the blacksmith's income is paid to its owner at the estate income step (RULING B13)."""
    g = gg_town()
    g.put(6, 6, owner=0, content="blacksmith")
    events, state = run_step(g, "estate_income")
    (paid,) = events_of(events, "estate_income_paid")
    assert [(p["building"], p["owner_gets"]) for p in paid["payments"]] == [("blacksmith", 5)]
    assert state.players[0].money == 5


# --- the state document ----------------------------------------------------------------------------------------


def test_view_has_the_expansion_fields_only_with_the_expansion() -> None:
    """The API's "With expansions": the Gold & Guns fields appear only when it is played; a townhouse is a parcel
    whose content is `townhouse`."""
    g = gg_town()
    g.put(5, 5, owner=0, content="townhouse")
    view = player_view(g.state, 0)
    assert view["city_hall"] is None and view["townhouses_left"] == 20
    assert {"x": 5, "y": 5, "owner": 0, "content": "townhouse"}.items() <= view["board"]["parcels"][36].items()
    base = player_view(Game(3).state, 0)
    assert "city_hall" not in base and "townhouses_left" not in base
