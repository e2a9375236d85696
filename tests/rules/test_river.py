"""The River (`000` "Variants" / "The River" and "Rules adjusted to yucata"; RULINGS V3, V9; decisions D29,
D30): the board, the bridges, the river incomes, the bridge VP and the final road phase — R-VAR-4 .. R-VAR-7,
R-ONL-2.

Grid points and roads as in RULING B3: parcel (x, y) has the corners (x-1, y-1), (x, y-1), (x-1, y), (x, y); a
road is one edge between two neighbouring points, smaller point first."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import IllegalMove, player_view
from app.rules.board import EDGES, parcel_index
from app.rules.construction import is_bridge
from app.rules.income import building_income
from app.rules.model import Construction, Parcel
from app.rules.supply import roads_in_supply
from tests.rules.builders import Game, events_of

# RULING V3, verbatim.
RIVER = {(1, 6), (2, 6), (3, 6), (3, 5), (4, 5), (5, 5), (6, 5), (6, 4), (7, 4), (8, 4)}
# RULING V3: "An edge with no land parcel on either side is water" — worked out by hand from the river above:
# between two river parcels side by side, one above the other, and on the border beside (1,6) and (8,4).
WATER = {
    (1, 5, 1, 6), (2, 5, 2, 6),  # (1,6)|(2,6), (2,6)|(3,6)
    (3, 4, 3, 5), (4, 4, 4, 5), (5, 4, 5, 5),  # (3,5)|(4,5), (4,5)|(5,5), (5,5)|(6,5)
    (6, 3, 6, 4), (7, 3, 7, 4),  # (6,4)|(7,4), (7,4)|(8,4)
    (2, 5, 3, 5), (5, 4, 6, 4),  # (3,5) over (3,6), (6,4) over (6,5)
    (0, 5, 0, 6), (8, 3, 8, 4),  # the west border beside (1,6), the east border beside (8,4)
}
CARDS = ("sheriff", "banker", "chinese_worker")  # no card decision, no firepower bonus
STARTS = [(1, y) for y in (1, 2, 3, 4, 5, 7, 8)]  # the west column without the river parcel (1,6)
BRIDGE = (3, 4, 3, 5)  # (3,5)|(4,5)
APPROACH = (3, 3, 3, 4)  # a land road ending at the bridge's end point (3,4)


def river_game(players: int = 3, seed: int = 12345, cards: tuple[str, ...] = CARDS, **variants: Any) -> Game:
    g = Game(players, seed, river=True, **variants)
    g.claim_starts(STARTS)
    g.choose(cards[:players])
    return g


def clear_land(g: Game) -> None:
    """Every parcel owner-free and empty; the river stays river."""
    g.with_state(parcels=tuple(Parcel(river=p.river) for p in g.state.parcels))


def road(e: tuple[int, int, int, int]) -> dict[str, Any]:
    return {"type": "place_road", "x1": e[0], "y1": e[1], "x2": e[2], "y2": e[3]}


def constructing(g: Game, seat: int, roads: int, building: str = "saloon") -> None:
    """`seat` is building a `building` (bought, in reserve) on a clear board whose only road leads to the
    bridge's end point; `roads` in the personal reserve."""
    clear_land(g)
    g.with_state(roads=frozenset({APPROACH}))
    g.set_player(seat, roads=roads, buildings=(building,))
    g.with_state(work=Construction(seat=seat, source="square", building=building))
    assert g.awaiting == "construct"


# --- R-VAR-4: the board ---------------------------------------------------------------------------------------


def test_r_var_4_the_river_parcels_are_the_ruling_v3_table() -> None:
    """R-VAR-4 (RULING V3: the river parcels listed in one table; `000` "The River": the reverse board)."""
    g = Game(3, river=True)
    river = {(i % 8 + 1, i // 8 + 1) for i, p in enumerate(g.state.parcels) if p.river}
    assert river == RIVER
    assert not any(p.river for p in Game(3).state.parcels)
    view = player_view(g.state, 0)
    assert {(row["x"], row["y"]) for row in view["board"]["parcels"] if row["river"]} == RIVER
    assert all(row["price"] is None for row in view["board"]["parcels"] if row["river"])  # never for sale


@pytest.mark.parametrize("seed", range(1, 31))
def test_r_var_4_six_mountains_and_no_mountain_or_centre_on_the_river(seed: int) -> None:
    """R-VAR-4 (`000` "The River": "All river parcels must be kept free (no mountain and no city center)",
    "6 mountains are placed instead of 9"; RULING B1: a river result is rolled again)."""
    g = Game(3, seed, river=True)
    (mountains,) = events_of(g.events, "mountains_placed")
    placed = {(m["x"], m["y"]) for m in mountains["parcels"]}
    assert len(mountains["parcels"]) == len(placed) == 6
    assert not placed & RIVER
    (centre,) = events_of(g.events, "centre_placed")
    assert (centre["x"], centre["y"]) not in RIVER
    assert all(p.content is None and p.owner is None for p in g.state.parcels if p.river)


def test_r_var_4_nine_mountains_without_the_river() -> None:
    """R-VAR-4 (`000`: 6 mountains "instead of 9"): the standard board keeps its nine."""
    (mountains,) = events_of(Game(3).events, "mountains_placed")
    assert len(mountains["parcels"]) == 9


def test_r_var_4_a_river_parcel_cannot_be_bought_or_taken() -> None:
    """R-VAR-4 (`000` "The River": "It is neither allowed to buy a river parcel ..."; RULINGS B19, V3): no
    starting parcel and no cowboy (white or not) on the river."""
    g = Game(3, river=True)
    assert g.awaiting == "start_parcel"
    assert not {(m["x"], m["y"]) for m in g.moves()} & RIVER
    g = river_game()
    assert g.awaiting == "placement"
    seat = g.to_act[0]
    g.set_player(seat, cowboys=3)
    on_parcels = {(m["x"], m["y"]) for m in g.moves() if "x" in m}
    assert on_parcels and not on_parcels & RIVER
    for x, y in RIVER:
        with pytest.raises(IllegalMove):
            g.act({"type": "place_cowboy", "x": x, "y": y})


def test_r_var_4_the_settler_takes_no_river_parcel() -> None:
    """R-VAR-4 (`000` "The River"; RULING V3): the Settler's owner-free parcel is never a river parcel."""
    g = Game(3, river=True)
    g.claim_starts(STARTS)
    while g.awaiting == "personality":
        cards = [m["card"] for m in g.moves()]
        g.act({"type": "choose_personality", "card": "settler" if "settler" in cards else cards[0]})
        if g.awaiting == "settler":
            break
    assert g.awaiting == "settler"
    offered = {(m["x"], m["y"]) for m in g.moves() if m["type"] == "claim_parcel"}
    assert offered and not offered & RIVER


def test_r_var_4_no_building_or_house_on_a_river_parcel() -> None:
    """R-VAR-4 (`000` "The River": "... nor to build a building or a house on a river parcel"): a river parcel
    reached by a road is neither a building site nor a house parcel."""
    g = river_game()
    constructing(g, 0, roads=0)
    g.put(3, 4, owner=0)
    g.put(3, 5, owner=0, river=True)  # even if it were someone's, it stays river
    sites = {(m["x"], m["y"]) for m in g.moves() if m["type"] == "place_building"}
    assert sites == {(3, 4)}
    g.act({"type": "place_building", "building": "saloon", "x": 3, "y": 4})
    houses = {(m["x"], m["y"]) for m in g.moves() if m["type"] == "place_house"}
    # Touching the road's end points (3,3) and (3,4): (3,3) (4,3) (4,4), and the river parcels (3,5) (4,5).
    assert houses == {(3, 3), (4, 3), (4, 4)}


# --- R-VAR-5: bridges -----------------------------------------------------------------------------------------


def test_r_var_5_the_water_edges() -> None:
    """R-VAR-5 (RULING V3: "An edge with no land parcel on either side is water; a road there is a bridge")."""
    g = Game(3, river=True)
    assert {e for e in EDGES if is_bridge(g.state, e)} == WATER
    assert not any(is_bridge(Game(3).state, e) for e in EDGES)  # no river, no bridge


def test_r_var_5_a_bridge_takes_two_roads_from_the_builders_reserve() -> None:
    """R-VAR-5 (`000` "The River": "Two roads are necessary to cross the river. A double road crossing the
    river is called a bridge"; RULING V3): the builder's reserve pays two, the supply counts two pieces."""
    g = river_game()
    constructing(g, 0, roads=3)
    supply = roads_in_supply(g.state)
    assert road(BRIDGE) in g.moves()
    (placed,) = g.act(road(BRIDGE))
    assert placed["bridge"] is True
    assert g.state.players[0].roads == 1
    assert BRIDGE in g.state.roads
    assert roads_in_supply(g.state) == supply  # two pieces left the reserve for the board
    assert player_view(g.state, 1)["board"]["bridges"] == [list(BRIDGE)]
    # One road left: the next water edge (3,5)|(3,6) is not offered, a land edge is.
    assert road((2, 5, 3, 5)) not in g.moves()
    assert road((3, 5, 4, 5)) in g.moves()
    placed = g.act(road((3, 5, 4, 5)))[0]
    assert "bridge" not in placed
    assert g.state.players[0].roads == 0


def test_r_var_5_no_bridge_is_offered_with_a_single_road() -> None:
    """R-VAR-5 (RULING V3: a bridge "takes 2 roads from the builder's reserve")."""
    g = river_game()
    constructing(g, 0, roads=1)
    moves = g.moves()
    assert road(BRIDGE) not in moves
    # The other edges at the road's end points are land edges and are offered.
    for e in ((2, 4, 3, 4), (3, 4, 4, 4), (2, 3, 3, 3), (3, 3, 4, 3), (3, 2, 3, 3)):
        assert road(e) in moves
    with pytest.raises(IllegalMove):
        g.act(road(BRIDGE))


def test_d30_roads_from_the_three_roads_square_build_bridges_like_any_other() -> None:
    """D30 (RULING V3 makes no exception): roads won on the 3 Roads square are ordinary roads; a bridge built
    with them takes two."""
    g = river_game()
    seat = g.state.placement_order[0]
    g.set_player(seat, roads=0)
    g.place_cowboys(square="three_roads", seats=[seat])
    events = g.resume_at("three_roads")
    assert events_of(events, "roads_gained")[0] == {"type": "roads_gained", "seat": seat, "square": "three_roads",
                                                    "count": 3}
    roads = g.state.players[seat].roads
    clear_land(g)
    g.with_state(roads=frozenset({APPROACH}))
    g.set_player(seat, buildings=("bank",))
    g.with_state(work=Construction(seat=seat, source="reserve", building="bank"))
    g.move(seat, road(BRIDGE))
    assert g.state.players[seat].roads == roads - 2


# --- R-VAR-6: river incomes -----------------------------------------------------------------------------------


def _income(g: Game, xy: tuple[int, int], building: str) -> int:
    g.put(*xy, owner=0, content=building)
    return building_income(g.state, parcel_index(*xy))


def test_r_var_6_river_neighbours_are_free_parcels_for_a_ranch() -> None:
    """R-VAR-6 (`000` "The River": "A river parcel is considered as a free parcel when calculating ranch
    incomes (thus +$1 per river parcel)"; `000` "Ranch": $1 per neighbouring free parcel)."""
    g = river_game()
    clear_land(g)
    for xy in ((1, 4), (2, 4), (3, 4), (1, 5)):  # the land around (2,5), all taken by mountains
        g.put(*xy, content="mountain")
    assert _income(g, (2, 5), "ranch") == 4  # (3,5) (1,6) (2,6) (3,6)


def test_r_var_6_a_mine_beside_the_river_earns_3_more_once() -> None:
    """R-VAR-6 (`000` "The River": "If a mine is in contact with the river, the mine income is increased by
    $3, no matter the number of adjacent river parcels"; RULING V3: "if any neighbour is river", diagonals
    included as every neighbourhood, RULING B2)."""
    g = river_game()
    clear_land(g)
    assert _income(g, (2, 5), "mine") == 3  # four river neighbours, no mountain: $3 once
    g.put(1, 4, content="mountain")
    assert _income(g, (2, 5), "mine") == 3 + 3
    g.put(4, 2, content="mountain")
    assert _income(g, (5, 3), "mine") == 3 + 3  # (6,4), diagonally below, is river
    g.put(1, 1, content="mountain")
    assert _income(g, (2, 2), "mine") == 3  # no river around
    plain = Game(3)
    plain.clear_board()
    plain.put(1, 4, content="mountain")
    assert _income(plain, (2, 5), "mine") == 3  # the same mine on the standard board


def test_r_var_6_river_income_is_paid_at_the_estate_income() -> None:
    """R-VAR-6: the estate income pays what the river adds (`000` "Estate income")."""
    g = river_game()
    clear_land(g)
    g.put(2, 5, owner=0, content="mine")
    events = g.resume_at("estate_income")
    (paid,) = events_of(events, "estate_income_paid")[0]["payments"]
    assert (paid["building"], paid["income"], paid["owner_gets"]) == ("mine", 3, 3)


# --- R-VAR-7: bridge VP ---------------------------------------------------------------------------------------


def _scored(river: bool) -> list[dict[str, int]]:
    g = river_game() if river else Game(3)
    if not river:
        g.claim_starts()
        g.choose(CARDS)
    clear_land(g)
    g.with_state(roads=frozenset({APPROACH, BRIDGE}))
    for seat in range(3):
        g.set_player(seat, money=0, vp=0)
    # Parcels touching a bridge end point ((3,4) or (3,5)): (3,4) (4,4) (4,6) on land.
    g.put(3, 4, owner=0, content="mountain")
    g.put(4, 4, owner=0, content="saloon")
    g.put(4, 6, owner=0, content="house")
    # Not touching: (3,3) touches only the land road's far end (3,3); (1,1) touches no road.
    g.put(3, 3, owner=0, content="mountain")
    g.put(1, 1, owner=0, content="hotel")
    g.put(6, 1, owner=1, content="mountain")
    (finished,) = events_of(g.resume_at("final_scoring"), "game_finished")
    scores: list[dict[str, int]] = finished["scores"]
    return scores


def test_r_var_7_three_vp_per_item_on_parcels_touching_a_bridge() -> None:
    """R-VAR-7 (`000` "The River": "any private parcel with a mountain, building or house in contact with a
    bridge brings 3 victory points instead of 2"; RULING V3: "A parcel touching a bridge end point scores 3 VP
    per building, house or mountain instead of 2")."""
    scores = _scored(river=True)
    assert (scores[0]["buildings"], scores[0]["houses"], scores[0]["mountains"]) == (3 + 2, 3, 3 + 2)
    assert scores[0]["total"] == 13
    assert scores[1]["mountains"] == 2 and scores[1]["total"] == 2


def test_r_var_7_no_bridge_no_bonus() -> None:
    """R-VAR-7 (RULING B17: 2 VP per item): the same roads on the standard board are no bridge."""
    scores = _scored(river=False)
    assert (scores[0]["buildings"], scores[0]["houses"], scores[0]["mountains"]) == (4, 2, 4)


# --- R-ONL-2 / D29: the final road phase ----------------------------------------------------------------------


def _last_round_end(g: Game, roads: dict[int, int], passing: tuple[int, ...]) -> list[dict[str, Any]]:
    g.with_state(roads=frozenset({APPROACH}), round=4)
    for seat, n in roads.items():
        g.set_player(seat, roads=n)
    return g.resume_at("cash_limit", passing)


def test_r_onl_2_d29_final_roads_in_placement_order_after_the_last_cash_limit() -> None:
    """R-ONL-2, D29 (`000` "Rules adjusted to yucata": "every player still having roads will have the chance to
    build them after the last round has been completed ... in actual turn order, ie the order determined by
    personality cards and NOT the passing order"; RULING V9: "after the last cash-limit check"): players
    without roads are skipped; each places roads one at a time (a bridge takes two) and says when done; the
    roads then count for the bridge VP (R-VAR-7)."""
    g = river_game()
    first, second, third = g.state.placement_order
    g.set_player(third, money=500)  # over every cash limit
    clear_land(g)
    g.put(4, 4, owner=third, content="mountain")  # touches the bridge end point (3,4) once a bridge is there
    events = _last_round_end(g, {first: 0, second: 3, third: 1}, passing=(third, second, first))
    assert g.awaiting == "cash_limit" and g.to_act == (third,)
    events += g.act(g.moves()[0])
    assert events_of(events, "round_ended")[0]["round"] == 4
    assert g.state.step == "final_roads"
    view = player_view(g.state, None)
    assert (view["status"], view["phase"]) == ("active", "final_roads")  # API.md: a running game
    assert g.awaiting == "final_roads" and g.to_act == (second,)  # `first` has no road
    moves = g.moves()
    assert road(BRIDGE) in moves and {"type": "finish_roads"} in moves
    assert all(m["type"] in ("place_road", "finish_roads") for m in moves)
    g.act(road(BRIDGE))
    assert g.state.players[second].roads == 1 and g.to_act == (second,)  # one at a time, may go on
    g.act({"type": "finish_roads"})
    assert g.state.players[second].roads == 1  # kept, scores nothing
    assert g.to_act == (third,)
    assert road((2, 5, 3, 5)) not in g.moves()  # one road: no bridge
    events = g.act(road((3, 4, 4, 4)))
    assert g.state.status == "finished"  # no road left: the phase ends, the game is scored
    (finished,) = events_of(events, "game_finished")
    assert finished["scores"][third]["mountains"] == 3  # the bridge placed in the final phase counts


def test_r_onl_2_final_road_moves_are_checked() -> None:
    """R-ONL-2 (RULING V9; RULING B3: every road extends the network): a road that does not extend the network
    or a player out of turn is refused."""
    g = river_game()
    first, second, third = g.state.placement_order
    clear_land(g)
    _last_round_end(g, {first: 2, second: 2, third: 0}, passing=(first, second, third))
    assert g.to_act == (first,)
    with pytest.raises(IllegalMove):
        g.act(road((6, 6, 6, 7)))
    with pytest.raises(IllegalMove):
        g.move(second, {"type": "finish_roads"})


def test_r_onl_2_no_final_road_phase_without_the_river() -> None:
    """R-ONL-2 (`000` "Rules adjusted to yucata": only "If the variant 'The River' is being played"): the game
    is scored right after round 4, roads or not."""
    g = Game(3)
    g.claim_starts()
    g.choose(CARDS)
    for seat in range(3):
        g.set_player(seat, roads=3, money=0)
    g.with_state(round=4)
    g.resume_at("cash_limit")
    assert g.state.status == "finished"
