"""Cowboy placement (`000` "Cowboy Placement", "Actions"; RULINGS B6, B7, B10): one cowboy per turn or pass,
where cowboys may go, and which placements make a duel."""

from __future__ import annotations

import pytest

from app.rules import IllegalMove
from app.rules.moves import Move
from tests.rules.builders import Game, events_of

# No card decision and no firepower bonus; placement order is Sheriff (1), Banker (2), Chinese Worker (4).
CARDS = ("banker", "chinese_worker", "sheriff")


def placing(cards: tuple[str, ...] = CARDS) -> tuple[Game, tuple[int, ...]]:
    """A game at the start of round 1's placement and its placement order."""
    g = Game(len(cards))
    g.claim_starts()
    g.choose(cards)
    return g, g.state.placement_order


def cowboy_moves(g: Game, seat: int | None = None) -> list[Move]:
    return [m for m in g.moves(seat) if m["type"] == "place_cowboy"]


def spot(move: Move) -> str | tuple[int, int]:
    return move["square"] if "square" in move else (move["x"], move["y"])


def spots(g: Game, seat: int | None = None) -> set[str | tuple[int, int]]:
    return {spot(m) for m in cowboy_moves(g, seat)}


# --- R-PLA-1: one cowboy per turn or pass ----------------------------------------------------------------------


def test_one_cowboy_per_turn_in_placement_order() -> None:
    """R-PLA-1: turns are taken in player order; each turn a player places exactly one cowboy from their reserve
    or passes (`000` "Cowboy Placement", RULING B7)."""
    g, order = placing()
    first, second, third = order
    assert g.to_act == (first,)
    new = g.act({"type": "place_cowboy", "square": "ammunition"})
    assert events_of(new, "cowboy_placed") == [
        {"type": "cowboy_placed", "seat": first, "white": False, "square": "ammunition"}]
    assert g.state.players[first].cowboys == 3 - 1
    assert [c.seat for c in g.state.squares["ammunition"]] == [first]
    assert g.to_act == (second,)
    g.act({"type": "place_cowboy", "square": "wages"})
    assert g.to_act == (third,)
    g.act({"type": "place_cowboy", "square": "road"})
    assert g.to_act == (first,)  # round the table again


def test_pass_is_always_possible() -> None:
    """R-PLA-1: none of the options is obligatory, passing included (`000` "Cowboy Placement")."""
    g, _ = placing()
    assert {"type": "pass"} in g.moves()
    assert cowboy_moves(g)


def test_a_passed_player_places_no_more() -> None:
    """R-PLA-1: after passing, "You are not allowed to place additional cowboys during this round" (`000`
    "Cowboy Placement"): their turns are skipped and a move of theirs is refused."""
    g, (first, second, third) = placing()
    g.act({"type": "pass"})
    assert g.state.players[first].passed
    g.act({"type": "place_cowboy", "square": "wages"})
    g.act({"type": "place_cowboy", "square": "road"})
    assert g.to_act == (second,)  # the first player is skipped
    assert g.moves(first) == []
    before = g.state
    with pytest.raises(IllegalMove) as error:
        g.move(first, {"type": "place_cowboy", "square": "ammunition"})
    assert error.value.code == "not_your_turn"
    assert g.state == before
    g.act({"type": "place_cowboy", "square": "wages"})
    assert g.to_act == (third,)


def test_passing_order_is_recorded() -> None:
    """R-PLA-1: a passing player takes the first free place on the lower turn-order track (`000` "Cowboy
    Placement"): the passing order is kept, and placement ends when everyone has passed."""
    g, (first, second, third) = placing()
    g.act({"type": "place_cowboy", "square": "wages"})  # first
    g.act({"type": "pass"})  # second
    g.act({"type": "place_cowboy", "square": "road"})  # third
    g.act({"type": "pass"})  # first
    assert g.state.passing_order == (second, first)
    assert g.to_act == (third,)
    new = g.act({"type": "pass"})
    assert events_of(new, "player_passed") == [{"type": "player_passed", "seat": third}]
    assert not any(e["type"] in ("player_passed", "cowboy_placed") for e in new[1:])  # placement is over
    assert g.state.round == 2
    assert g.state.choosing_order == (second, first, third)  # the passing order, kept for round 2 (RULING B5)


# --- R-PLA-2: Wages and Road -----------------------------------------------------------------------------------


@pytest.mark.parametrize("square", ["wages", "road"])
def test_wages_and_road_take_many_cowboys(square: str) -> None:
    """R-PLA-2: on Wages and Road a player can place several cowboys, and other players too, without a duel
    (`000` "Wages", "Road"; RULING B7)."""
    g, (first, second, _) = placing()
    for third_move in ({"type": "place_cowboy", "square": "ammunition"}, {"type": "pass"}):
        for seat in (first, second):
            assert g.to_act == (seat,)
            assert {"type": "place_cowboy", "square": square} in g.moves()
            g.act({"type": "place_cowboy", "square": square})
        g.act(third_move)
    assert sorted(c.seat for c in g.state.squares[square]) == sorted([first, second] * 2)
    events = []
    while g.awaiting == "placement":
        events += g.act({"type": "pass"})
    assert not [e for e in events_of(events, "duel_fought") if e["target"] == {"square": square}]
    if square == "wages":
        (paid,) = events_of(events, "wages_paid")
        assert {(p["seat"], p["amount"]) for p in paid["payments"]} == {(first, 2 * 4), (second, 2 * 4)}
    else:
        (handed,) = events_of(events, "roads_handed_out")
        assert {(p["seat"], p["roads"]) for p in handed["gains"]} == {(first, 2), (second, 2)}


# --- R-PLA-3: one cowboy per player elsewhere; a second player's cowboy makes a duel ----------------------------


@pytest.mark.parametrize("target", [{"square": "ammunition"}, {"square": "build_3"}, {"x": 4, "y": 8}])
def test_one_cowboy_per_player_elsewhere(target: Move) -> None:
    """R-PLA-3: on every other square and on a parcel a player holds at most one cowboy (RULING B7); another
    player may still place there."""
    g, (first, _, _) = placing()
    g.act({"type": "place_cowboy", **target})
    g.act({"type": "place_cowboy", "square": "wages"})
    g.act({"type": "place_cowboy", "square": "wages"})
    assert g.to_act == (first,)
    assert {"type": "place_cowboy", **target} not in g.moves()
    g.act({"type": "pass"})
    assert {"type": "place_cowboy", **target} in g.moves()  # the second player


def test_one_cowboy_per_player_on_a_building() -> None:
    """R-PLA-3: on a building too, an attacker or a defender holds at most one cowboy (RULING B7)."""
    g, (first, second, _) = placing()
    g.put(5, 5, owner=second, content="hotel")
    g.put(6, 6, owner=first, content="hotel")
    g.act({"type": "place_cowboy", "x": 5, "y": 5})  # attack
    g.act({"type": "place_cowboy", "x": 6, "y": 6})  # attack
    g.act({"type": "place_cowboy", "square": "wages"})
    assert {"type": "place_cowboy", "x": 5, "y": 5} not in g.moves()
    assert {"type": "place_cowboy", "x": 6, "y": 6} in g.moves()  # defending the own building
    g.act({"type": "place_cowboy", "x": 6, "y": 6})
    assert {"type": "place_cowboy", "x": 6, "y": 6} not in g.moves()
    assert {"type": "place_cowboy", "x": 5, "y": 5} in g.moves()  # the owner defends


def test_a_second_players_cowboy_makes_a_duel() -> None:
    """R-PLA-3: placing a cowboy on a square or parcel occupied by another player's cowboy leads to a duel
    (`000` "Cowboy Placement"), of every player there (`000` "Performing The Actions and Duels")."""
    g, (first, second, third) = placing()
    g.act({"type": "place_cowboy", "square": "ammunition"})
    g.act({"type": "place_cowboy", "square": "ammunition"})
    g.act({"type": "place_cowboy", "square": "ammunition"})
    g.act({"type": "place_cowboy", "x": 4, "y": 8})
    g.act({"type": "place_cowboy", "x": 4, "y": 8})
    events = []
    while g.awaiting == "placement":
        events += g.act({"type": "pass"})
    fought = {tuple(sorted(e["target"].items())): {d["seat"] for d in e["duelists"]}
              for e in events_of(events, "duel_fought")}
    assert fought[(("square", "ammunition"),)] == {first, second, third}
    assert fought[(("x", 4), ("y", 8))] == {first, second}


def test_a_lone_cowboy_makes_no_duel() -> None:
    """R-PLA-3: a duel needs several players on the same square or parcel (`000` "Performing The Actions and
    Duels")."""
    g, (first, _, _) = placing()
    g.act({"type": "place_cowboy", "square": "ammunition"})
    events = []
    while g.awaiting == "placement":
        events += g.act({"type": "pass"})
    assert not events_of(events, "duel_fought")
    assert {"type": "chip_taken", "seat": first, "square": "ammunition"} in events


# --- R-PLA-4: parcels ------------------------------------------------------------------------------------------


def test_only_owner_free_parcels() -> None:
    """R-PLA-4: a cowboy may go on an owner-free parcel to buy it — with a house or a mountain or not — never on
    another player's or one's own parcel that holds no building (`000` "Parcel purchase", RULING B7)."""
    g, (first, second, _) = placing()
    g.put(3, 3, owner=None, content="house")
    g.put(3, 4, owner=None, content="mountain")
    g.put(6, 6, owner=second, content=None)
    g.put(6, 7, owner=second, content="house")
    g.put(6, 8, owner=second, content="mountain")
    g.put(7, 6, owner=first, content=None)
    parcels = {s for s in spots(g) if isinstance(s, tuple)}
    owner_free = {(i % 8 + 1, i // 8 + 1) for i, p in enumerate(g.state.parcels) if p.owner is None}
    assert parcels == owner_free
    assert {(3, 3), (3, 4)} <= parcels
    assert not {(6, 6), (6, 7), (6, 8), (7, 6)} & parcels
    before = g.state
    with pytest.raises(IllegalMove):
        g.act({"type": "place_cowboy", "x": 6, "y": 6})
    assert g.state == before


def test_no_river_parcel() -> None:
    """R-PLA-4: river parcels cannot be bought, so no cowboy goes there (`000` "The River", RULING B7)."""
    g, _ = placing()
    g.put(4, 5, river=True)
    assert (4, 5) not in spots(g)
    with pytest.raises(IllegalMove) as error:
        g.act({"type": "place_cowboy", "x": 4, "y": 5})
    assert error.value.code == "river_parcel"


# --- R-PLA-5: buildings ----------------------------------------------------------------------------------------


def test_attack_others_buildings_and_defend_ones_own() -> None:
    """R-PLA-5: a cowboy may attack another player's building or defend one's own (`000` "Cowboy Placement",
    "Estate income / attacks on buildings")."""
    g, (first, second, _) = placing()
    for x, building in enumerate(("ranch", "mine", "drugstore", "bank", "saloon", "hotel"), start=2):
        g.put(x, 6, owner=second, content=building)
        g.put(x, 8, owner=first, content=building)
    offered = spots(g)
    assert {(x, 6) for x in range(2, 8)} <= offered  # attacks
    assert {(x, 8) for x in range(2, 8)} <= offered  # defences


def test_churches_and_prisons_cannot_be_attacked() -> None:
    """R-PLA-5: "You are not allowed to attack a church" (`000` "Church"); churches and prisons cannot be
    attacked (RULING B7)."""
    g, (_, second, _) = placing()
    g.put(3, 6, owner=second, content="church")
    g.put(6, 6, owner=second, content="prison")
    offered = spots(g)
    assert (3, 6) not in offered and (6, 6) not in offered


def test_buildings_next_to_their_owners_church_cannot_be_attacked() -> None:
    """R-PLA-5: "All buildings of yours directly adjacent to your church cannot be attacked" (`000` "Church"),
    diagonals included (RULING B2); a church of another player protects nothing."""
    g, (_, second, third) = placing()
    g.clear_board()
    g.put(4, 4, owner=second, content="church")
    g.put(5, 5, owner=second, content="hotel")  # diagonal neighbour of the church: protected
    g.put(4, 3, owner=second, content="bank")  # edge neighbour: protected
    g.put(6, 6, owner=second, content="saloon")  # two parcels away: attackable
    g.put(3, 4, owner=third, content="ranch")  # next to a church of someone else: attackable
    offered = spots(g)
    assert (5, 5) not in offered and (4, 3) not in offered
    assert (6, 6) in offered and (3, 4) in offered


def test_houses_and_mountains_are_not_buildings() -> None:
    """R-PLA-5: houses and mountains on a player's parcel are not buildings, so they cannot be attacked or
    defended (RULING B7)."""
    g, (first, second, _) = placing()
    g.put(5, 5, owner=second, content="house")
    g.put(6, 6, owner=second, content="mountain")
    g.put(7, 7, owner=first, content="house")
    assert not {(5, 5), (6, 6), (7, 7)} & spots(g)


# --- R-PLA-6: no cowboy left -----------------------------------------------------------------------------------


def test_no_cowboy_in_reserve_only_pass() -> None:
    """R-PLA-6: every placement takes one cowboy from the reserve (`000` "Cowboy Placement"), so a player whose
    reserve is empty can only pass."""
    g, (first, _, _) = placing(("banker", "chinese_worker", "mercenary"))
    g.set_player(first, cowboys=0)
    assert g.moves() == [{"type": "pass"}]
    before = g.state
    with pytest.raises(IllegalMove) as error:
        g.act({"type": "place_cowboy", "square": "wages"})
    assert error.value.code == "no_cowboys_left"
    assert g.state == before


def test_sheriff_without_cowboys_is_told_why() -> None:
    """R-PLA-6: the yellow Sheriff with an empty reserve may still place the white cowboy (RULING B6), but an
    ordinary cowboy is refused as "no cowboy left"."""
    g, (sheriff, _, _) = placing()
    assert g.state.holds(sheriff, "sheriff", "yellow")
    g.set_player(sheriff, cowboys=0)
    assert {m["type"] for m in g.moves()} == {"place_white_cowboy", "pass"}
    with pytest.raises(IllegalMove) as error:
        g.act({"type": "place_cowboy", "square": "wages"})
    assert error.value.code == "no_cowboys_left"


def test_the_flow_passes_for_a_player_without_cowboys() -> None:
    """R-PLA-6: a decision with a single legal move is played by the flow (RULING B10): a player whose last
    cowboy is placed passes automatically at their next turn, in the passing order."""
    g, (_, second, third) = placing()
    g.set_player(second, cowboys=1)
    g.act({"type": "place_cowboy", "square": "wages"})
    g.act({"type": "place_cowboy", "square": "wages"})  # the second player's last cowboy
    g.act({"type": "place_cowboy", "square": "wages"})
    new = g.act({"type": "place_cowboy", "square": "road"})  # the first player again
    assert events_of(new, "player_passed") == [{"type": "player_passed", "seat": second, "automatic": "only_move"}]
    assert g.state.passing_order == (second,)
    assert g.to_act == (third,)
