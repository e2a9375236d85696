"""A New Beginning (`000` "Variants" / "A new beginning", "Rules adjusted to yucata"; RULING V4; decisions
D21, D22, D23, D25, D27, D28): $50 and one cowboy, secret and simultaneous shopping revealed together at the
house prices, parcel picks placed in turn order, the Marksman — R-VAR-8, R-VAR-9, R-ONL-3."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from app.rules import IllegalMove, player_view, redact_event
from app.rules.catalog import SHOP
from app.rules.model import Parcel
from tests.rules.builders import Game, events_of

# RULING V4: "cowboy $5 (max 10), revolver $6, road $3, VP $5, parcel pick $6 ..., Marksman $10 ...
# A player may take -5 VP for +$15 or -10 VP for +$30."
PRICES = {"cowboy": 5, "revolver": 6, "road": 3, "vp": 5, "parcel": 6, "marksman": 10, "sell_5_vp": -15,
          "sell_10_vp": -30}


def add(item: str) -> dict[str, Any]:
    return {"type": "shop_add", "item": item}


def shop(g: Game, seat: int, items: Iterable[str], done: bool = True) -> None:
    for item in items:
        g.move(seat, add(item))
    if done:
        g.move(seat, {"type": "shop_done"})


def shopped(players: int, baskets: dict[int, list[str]], seed: int = 12345, **variants: Any) -> Game:
    """Every seat buys its basket (nothing if not named) and is done, in seat order."""
    g = Game(players, seed, new_beginning=True, **variants)
    for seat in range(players):
        shop(g, seat, baskets.get(seat, []))
    return g


def revealed(g: Game) -> dict[int, dict[str, Any]]:
    (event,) = events_of(g.events, "shopping_revealed")
    return {basket["seat"]: basket for basket in event["baskets"]}


def shop_adds(g: Game, seat: int) -> set[str]:
    return {m["item"] for m in g.moves(seat) if m["type"] == "shop_add"}


# --- R-VAR-8: the start and the shop --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_r_var_8_fifty_dollars_one_cowboy_and_nothing_else(players: int) -> None:
    """R-VAR-8 (`000` "A new beginning": "Each player begins the game with $50 and one cowboy"; RULING V4: "no
    revolver, road or starting parcels"): there is no starting-parcel draft; everyone shops at once."""
    g = Game(players, new_beginning=True)
    for p in g.state.players:
        assert (p.money, p.cowboys, p.revolvers, p.roads, p.vp) == (50, 1, 0, 0, 0)
    assert not any(p.owner is not None for p in g.state.parcels)
    assert g.awaiting == "shopping"
    assert g.to_act == tuple(range(players))
    assert not events_of(g.events, "parcel_claimed")


def test_r_var_8_the_shop_has_the_ruling_v4_prices() -> None:
    """R-VAR-8 (RULING V4: the house prices, one table)."""
    assert {item: row.price for item, row in SHOP.items()} == PRICES
    assert SHOP["vp"].vp == 1 and SHOP["sell_5_vp"].vp == -5 and SHOP["sell_10_vp"].vp == -10


@pytest.mark.parametrize(("item", "expected"), [
    ("cowboy", {"money": 45, "cowboys": 2}),
    ("revolver", {"money": 44, "revolvers": 1}),
    ("road", {"money": 47, "roads": 1}),
    ("vp", {"money": 45, "vp": 1}),
    ("parcel", {"money": 44, "picks": 1}),
    ("marksman", {"money": 40, "marksman": True}),
    ("sell_5_vp", {"money": 65, "vp": -5}),
    ("sell_10_vp", {"money": 80, "vp": -10}),
])
def test_r_var_8_each_item_at_its_price(item: str, expected: dict[str, Any]) -> None:
    """R-VAR-8 (`000`: "buy additional cowboys, revolvers, roads, parcels, victory points, special powers ...
    You can even choose to 'pay' 5 or 10 victory points to receive more money"; RULING V4 prices)."""
    g = shopped(2, {0: [item]})
    p = g.state.players[0]
    start = {"money": 50, "cowboys": 1, "revolvers": 0, "roads": 0, "vp": 0, "picks": 0, "marksman": False}
    for name, value in {**start, **expected}.items():
        if name == "picks" and value:
            continue  # a pick is placed at once (below)
        assert getattr(p, name) == value, name
    assert revealed(g)[0]["items"] == {item: 1}
    if item == "parcel":
        assert g.awaiting == "parcel_pick" and g.to_act == (0,)


def test_r_var_8_a_basket_adds_up() -> None:
    """R-VAR-8 (RULING V4 prices): 3 cowboys, 2 revolvers, 2 roads, 1 VP = $15 + $12 + $6 + $5 = $38."""
    g = shopped(2, {1: ["cowboy", "revolver", "cowboy", "road", "vp", "road", "revolver", "cowboy"]})
    p = g.state.players[1]
    assert (p.money, p.cowboys, p.revolvers, p.roads, p.vp) == (50 - 38, 4, 2, 2, 1)
    assert revealed(g)[1]["money"] == -38 and revealed(g)[1]["vp"] == 1 and revealed(g)[1]["roads"] == 2


def test_r_var_8_r_web_2_shopping_is_simultaneous_and_secret_until_all_are_done() -> None:
    """R-VAR-8, R-WEB-2 (`000`: "each player may secretly buy ... Choices are revealed simultaneously"; RULING
    V4: "a series of small moves per player (add one item, take one back, done), hidden from the others until
    everyone is done, then revealed together")."""
    g = Game(3, new_beginning=True)
    (added,) = g.move(1, add("marksman"))
    g.move(1, add("road"))
    (removed,) = g.move(1, {"type": "shop_remove", "item": "road"})
    for viewer in (0, 2, None):
        for event in (added, removed):
            assert redact_event(event, viewer) is None  # not even that an edit happened
        row = player_view(g.state, viewer)["players"][1]
        assert row["basket"] is None
        assert "marksman" not in str({k: v for k, v in row.items() if k != "marksman"})
        assert row["marksman"] is False and row["money"] == 50  # nothing bought yet
    assert redact_event(added, 1)["item"] == "marksman"
    assert player_view(g.state, 1)["players"][1]["basket"] == {"marksman": 1, "road": 0}

    g.move(1, {"type": "shop_done"})
    assert g.to_act == (0, 2)
    assert g.moves(1) == []
    with pytest.raises(IllegalMove):
        g.move(1, add("vp"))  # done is done
    assert player_view(g.state, 0)["players"][1]["shopping_done"] is True
    assert not events_of(g.events, "shopping_revealed")
    shop(g, 0, ["vp"])
    assert not events_of(g.events, "shopping_revealed")
    shop(g, 2, [])
    baskets = revealed(g)
    assert {seat: b["items"] for seat, b in baskets.items()} == {0: {"vp": 1}, 1: {"marksman": 1}, 2: {}}
    (event,) = events_of(g.events, "shopping_revealed")
    assert redact_event(event, None) == event  # revealed to everyone at once
    assert g.state.players[1].marksman and g.state.players[1].money == 40


def _as_seen_by(g: Game, viewer: int | None) -> dict[str, Any]:
    """Everything `viewer` may know of the game: its view and the log as redacted for it."""
    log = [shown for event in g.events if (shown := redact_event(event, viewer)) is not None]
    return {"view": player_view(g.state, viewer), "log": log}


def test_r_var_8_r_web_2_nobody_else_can_tell_how_many_basket_edits_were_made() -> None:
    """R-VAR-8, R-WEB-2 (RULING V4: "a series of small moves per player (add one item, take one back, done),
    hidden from the others until everyone is done, then revealed together"): whether seat 1 made 0, 1 or 5
    edits, the others' views and logs are the same — seq included — before their own edits, after them and
    after seat 1 is done; the reveal then shows every basket to everyone."""
    edits = [add("cowboy"), add("road"), {"type": "shop_remove", "item": "road"}, add("vp"), add("road")]
    seen: dict[int, list[dict[str, Any]]] = {}
    for n in (0, 1, 5):
        g = Game(3, new_beginning=True)
        for edit in edits[:n]:
            g.move(1, edit)
        before = [_as_seen_by(g, viewer) for viewer in (0, 2, None)]
        assert player_view(g.state, 1)["seq"] == g.state.seq  # the shopper counts its own edits
        g.move(0, add("vp"))
        g.move(2, add("marksman"))
        g.move(1, {"type": "shop_done"})
        seen[n] = [*before, *(_as_seen_by(g, viewer) for viewer in (0, 2, None))]
        shop(g, 0, [])
        shop(g, 2, [])
        basket = {"cowboy": 1, "road": 1, "vp": 1} if n == 5 else {"cowboy": 1} if n == 1 else {}
        assert revealed(g)[1]["items"] == basket
        for viewer in (0, 2, None):
            (reveal,) = events_of(_as_seen_by(g, viewer)["log"], "shopping_revealed")
            assert {b["seat"]: b["items"] for b in reveal["baskets"]}[1] == basket
    assert seen[0] == seen[1] == seen[5]


def test_r_var_8_only_what_is_in_the_basket_can_be_taken_back() -> None:
    """R-VAR-8 (RULING V4: "take one back"), D28: "Items may be taken back until the player is done"."""
    g = Game(2, new_beginning=True)
    assert {m["type"] for m in g.moves(0)} == {"shop_add", "shop_done"}
    with pytest.raises(IllegalMove):
        g.move(0, {"type": "shop_remove", "item": "cowboy"})
    g.move(0, add("cowboy"))
    g.move(0, add("cowboy"))
    assert [m for m in g.moves(0) if m["type"] == "shop_remove"] == [{"type": "shop_remove", "item": "cowboy"}]
    g.move(0, {"type": "shop_remove", "item": "cowboy"})
    shop(g, 0, [])
    shop(g, 1, [])
    assert g.state.players[0].cowboys == 2 and g.state.players[0].money == 45


# --- D28, D27: limits and the VP sale -------------------------------------------------------------------------


def test_d28_never_more_than_the_money() -> None:
    """D28 (RULING V4): a basket never costs more than the money it has."""
    g = Game(2, new_beginning=True)
    shop(g, 0, ["marksman", *["parcel"] * 6, "road"], done=False)  # $10 + $36 + $3 = $49
    assert shop_adds(g, 0) == {"sell_5_vp", "sell_10_vp"}
    g.move(0, add("sell_5_vp"))  # $16 left
    assert {"cowboy", "revolver", "road", "vp", "parcel"} <= shop_adds(g, 0)
    assert "marksman" not in shop_adds(g, 0)  # one Marksman (D28)


def test_d28_cowboys_up_to_ten_in_the_reserve() -> None:
    """D28 (RULING B18: 10 cowboys per player; RULING V4: "cowboy $5 (max 10)"): one to start, nine bought."""
    g = Game(2, new_beginning=True)
    shop(g, 0, ["cowboy"] * 9, done=False)
    assert "cowboy" not in shop_adds(g, 0)
    assert {"road", "vp"} <= shop_adds(g, 0)
    with pytest.raises(IllegalMove):
        g.move(0, add("cowboy"))
    shop(g, 0, [])
    shop(g, 1, [])
    assert g.state.players[0].cowboys == 10


def test_d28_parcel_picks_up_to_the_twelve_property_tiles_revolvers_without_limit() -> None:
    """D28 (`000` "Game Setup": 12 property tiles per player): at most 12 picks; revolvers and VP have no limit
    but the money."""
    g = Game(2, new_beginning=True)
    shop(g, 0, ["sell_10_vp", *["parcel"] * 12], done=False)  # $80 - $72
    assert "parcel" not in shop_adds(g, 0)
    assert {"revolver", "vp", "road"} <= shop_adds(g, 0)
    g = Game(2, new_beginning=True)
    shop(g, 0, ["sell_10_vp", *["revolver"] * 13])  # $80 - $78
    shop(g, 1, [])
    assert g.state.players[0].revolvers == 13 and g.state.players[0].money == 2


def test_d27_one_vp_sale_once() -> None:
    """D27 (RULING V4: "-5 VP for +$15 or -10 VP for +$30"): one of the two options, once."""
    g = Game(2, new_beginning=True)
    g.move(0, add("sell_5_vp"))
    assert not {"sell_5_vp", "sell_10_vp"} & shop_adds(g, 0)
    with pytest.raises(IllegalMove):
        g.move(0, add("sell_10_vp"))
    g.move(0, {"type": "shop_remove", "item": "sell_5_vp"})
    g.move(0, add("sell_10_vp"))
    assert not {"sell_5_vp", "sell_10_vp"} & shop_adds(g, 0)


def test_d27_vp_may_go_negative() -> None:
    """D27: "VP may be negative afterwards" (`000`: "'pay' 5 or 10 victory points")."""
    g = shopped(2, {0: ["sell_10_vp", "vp", "vp"]})
    assert g.state.players[0].vp == -10 + 2
    assert g.state.players[0].money == 50 + 30 - 10


def test_d27_a_sale_cannot_be_taken_back_once_its_money_is_spent() -> None:
    """D27, D28 (a basket never costs more than its money): the $30 of the sale are spent, so the sale stays."""
    g = Game(2, new_beginning=True)
    shop(g, 0, ["sell_10_vp", *["marksman"], *["revolver"] * 11], done=False)  # $80 - $76
    assert {"type": "shop_remove", "item": "sell_10_vp"} not in g.moves(0)
    with pytest.raises(IllegalMove):
        g.move(0, {"type": "shop_remove", "item": "sell_10_vp"})


def test_d21_roads_beyond_the_supply_are_refunded_in_turn_order() -> None:
    """D21 (`000` "Game Setup": 25 roads, four of them along the centre house; RULING V4: no starting road, road
    $3): roads are handed out at the reveal in turn order from the 21 left; a road the supply cannot give is
    refunded at its price; a basket never holds more roads than the supply."""
    supply = 25 - 4
    g = Game(2, 7, new_beginning=True)
    first, second = g.state.initial_order
    shop(g, second, ["road"] * 16)
    shop(g, first, ["road"] * 16)
    baskets = revealed(g)
    assert baskets[first]["roads"] == 16 and baskets[second]["roads"] == supply - 16
    assert g.state.players[first].roads == 16 and g.state.players[first].money == 50 - 48
    assert g.state.players[second].roads == 5 and g.state.players[second].money == 50 - 48 + 11 * 3

    g = Game(2, new_beginning=True)
    shop(g, 0, ["sell_10_vp", *["road"] * supply], done=False)  # $80 - $63
    assert "road" not in shop_adds(g, 0)
    assert {"cowboy", "revolver", "vp", "parcel"} <= shop_adds(g, 0)


# --- R-VAR-8 / D25 / D23: parcel picks ------------------------------------------------------------------------


def test_d25_parcel_picks_round_robin_in_turn_order() -> None:
    """R-VAR-8, D25 (RULING V4: "picks are then placed in turn order, one at a time"): the initial turn order,
    one pick each in turn, players without picks skipped; any owner-free parcel off the river."""
    for seed in range(1, 6):
        g = Game(3, seed, new_beginning=True, river=True)
        first, second, third = g.state.initial_order
        for seat, n in ((first, 2), (second, 0), (third, 1)):
            shop(g, seat, ["parcel"] * n)
        order = []
        free = [(x, y) for y in range(1, 9) for x in (1, 8) if (x, y) not in {(1, 6), (8, 4)}]
        while g.awaiting == "parcel_pick":
            (seat,) = g.to_act
            offered = {(m["x"], m["y"]) for m in g.moves()}
            assert not offered & {(1, 6), (2, 6), (3, 6), (3, 5), (4, 5), (5, 5), (6, 5), (6, 4), (7, 4), (8, 4)}
            x, y = free.pop()
            (claimed,) = events_of(g.act({"type": "claim_parcel", "x": x, "y": y}), "parcel_claimed")
            assert claimed["reason"] == "pick"
            order.append(seat)
        assert order == [first, third, first]
        owned = [sum(1 for p in g.state.parcels if p.owner == seat) for seat in (first, second, third)]
        assert owned == [2, 0, 1]
        assert g.awaiting == "personality"
        assert g.to_act == (first,)


def test_d23_a_pick_with_no_parcel_to_take_is_refunded() -> None:
    """D23 (with D1): a pick that cannot be placed (here: no property tile left, `000` "Game Setup": 12 per
    player) is given back and its $6 refunded, without asking."""
    g = Game(2, new_beginning=True)
    g.with_state(parcels=tuple(Parcel(owner=0) if i < 12 else Parcel() for i in range(64)))
    shop(g, 0, ["parcel", "parcel"])
    shop(g, 1, [])
    forfeited = events_of(g.events, "parcel_pick_forfeited")
    assert forfeited == [{"type": "parcel_pick_forfeited", "seat": 0, "refund": 6, "automatic": "only_move"}] * 2
    assert g.state.players[0].money == 50 and g.state.players[0].picks == 0
    assert g.awaiting == "personality"


def test_d23_a_pick_with_no_owner_free_land_left_is_refunded() -> None:
    """D23: with no owner-free land parcel left the only move is to give the pick back, for $6."""
    g = Game(2, new_beginning=True)
    shop(g, 0, ["parcel"])
    g.with_state(parcels=tuple(Parcel(owner=1) for _ in range(64)))
    shop(g, 1, [])
    assert events_of(g.events, "parcel_pick_forfeited") == [
        {"type": "parcel_pick_forfeited", "seat": 0, "refund": 6, "automatic": "only_move"}]
    assert g.state.players[0].money == 50


# --- R-ONL-3: the Marksman ------------------------------------------------------------------------------------


def test_r_onl_3_the_marksman_rolls_two_dice_and_keeps_the_higher() -> None:
    """R-ONL-3 (`000` "Rules adjusted to yucata": "a player with the marksman ... may throw 2 dice and choose
    one of them. At yucata, the die with the higher value will always be chosen"; RULING V4): both dice are in
    the duellist's `rolls`; the other duellist rolls one die as usual (RULING B8)."""
    differed = False
    for seed in range(1, 31):
        g = shopped(2, {0: ["marksman", "cowboy", "cowboy"], 1: ["cowboy", "cowboy"]}, seed=seed)
        g.choose(("sheriff", "banker"))
        g.place_cowboys(square="three_roads", seats=[0, 1])
        passing = (1, 0)
        (duel,) = events_of(g.resume_at("three_roads", passing), "duel_fought")
        marksman, other = sorted(duel["duelists"], key=lambda d: d["seat"])
        assert len(marksman["rolls"]) == 2 and all(1 <= r <= 6 for r in marksman["rolls"])
        assert marksman["roll"] == max(marksman["rolls"])
        assert marksman["strength"] == marksman["roll"] + marksman["firepower"]
        assert "rolls" not in other and 1 <= other["roll"] <= 6
        assert marksman["firepower"] == other["firepower"] == 3
        best = max(marksman["strength"], other["strength"])
        tied = [d["seat"] for d in (marksman, other) if d["strength"] == best]
        assert duel["winner"] == min(tied, key=passing.index)
        differed |= marksman["rolls"][0] != marksman["rolls"][1]
    assert differed


# --- R-VAR-9 / D22: with Might Is Right -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r_var_9_with_might_is_right_every_player_gets_tiles_0_to_5(players: int) -> None:
    """R-VAR-9 (`000` "A new beginning": "With the 'Might is Right' variant, each player receives 6 duel tiles
    numbered from 0 to 5, the same as the game for two players"; RULING V4): whatever the number of players,
    and the money stays the $50 of A New Beginning."""
    for seed in range(1, 4):
        g = Game(players, seed, new_beginning=True, might_is_right=True)
        for p in g.state.players:
            assert sorted(p.tiles) == [0, 1, 2, 3, 4, 5]
            assert p.money == 50


def test_d22_no_marksman_with_might_is_right() -> None:
    """D22: with duel tiles there are no dice, so the Marksman is not on sale."""
    g = Game(3, new_beginning=True, might_is_right=True)
    assert "marksman" not in shop_adds(g, 0)
    assert {"cowboy", "revolver", "road", "vp", "parcel", "sell_5_vp", "sell_10_vp"} == shop_adds(g, 0)
    with pytest.raises(IllegalMove):
        g.move(0, add("marksman"))


def test_r_var_8_the_state_document_names_the_shopping_and_picking_phases() -> None:
    """R-VAR-8 (RULING V4; API.md: `status` "active" while the game runs): the shopping and the parcel picks
    are phases of a running game."""
    g = Game(2, new_beginning=True)
    assert (player_view(g.state, None)["status"], player_view(g.state, None)["phase"]) == ("active", "shopping")
    shop(g, 0, ["parcel"])
    shop(g, 1, [])
    assert (player_view(g.state, None)["status"], player_view(g.state, None)["phase"]) == ("active", "parcel_picks")
