"""Tests of the choices recorded in docs/rules-decisions.md (D1..D20), where rules and rulings are silent."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from app.rules import replay
from app.rules.board import parcel_index
from app.rules.income import building_income, estate_payments
from tests.rules.builders import Game, events_of


def _opened(players: int = 2, cards: tuple[str, ...] = ("banker", "mercenary"), **variants: object) -> Game:
    g = Game(players, **variants)  # type: ignore[arg-type]
    g.claim_starts()
    g.choose(cards)
    return g


def test_d1_a_single_possible_move_is_played_by_the_flow() -> None:
    """D1 (RULING B10): a player without cowboys is passed automatically when their turn comes."""
    g = _opened()
    first, second = g.state.placement_order
    g.set_player(second, cowboys=0)
    events = g.move(first, {"type": "pass"})
    assert {"type": "player_passed", "seat": second, "automatic": "only_move"} in events
    assert g.state.step != "placement"


def test_d2_no_cowboy_on_ones_own_church() -> None:
    """D2 (RULING B7): churches cannot be attacked, so their owner cannot defend them either."""
    g = _opened()
    seat = g.to_act[0]
    g.put(4, 4, owner=seat, content="church")
    g.put(6, 6, owner=seat, content="saloon")
    moves = g.moves()
    assert {"type": "place_cowboy", "x": 4, "y": 4} not in moves
    assert {"type": "place_cowboy", "x": 6, "y": 6} in moves


def test_d3_a_lone_defender_leaves_to_the_general_reserve() -> None:
    """D3: with no attacker, the defending cowboy performed its action and does not return to the reserve."""
    g = _opened()
    g.put(6, 6, owner=0, content="hotel")
    g.place_cowboys(xy=(6, 6), seats=[0])
    before = g.state.players[0].cowboys
    events = g.resume_at("estate_income")
    assert events_of(events, "building_defended")[0]["seat"] == 0
    received = events_of(events, "cowboys_received")[0]["gains"][0]
    assert received["seat"] == 0
    assert g.state.players[0].cowboys == before + received["count"]  # the defender did not come back
    assert not events_of(events, "attack_won")
    paid = events_of(events, "estate_income_paid")[0]["payments"]
    assert paid[0]["owner_gets"] == 6 and paid[0]["attacker"] is None


def test_d4_lone_purchases_come_before_duels_and_the_buyer_picks_among_their_own() -> None:
    """D4: lone cowboys' purchases are decided first, by their owner, in any order among their parcels."""
    g = _opened()
    g.clear_board()
    g.place_cowboys(xy=(2, 2), seats=[0])
    g.place_cowboys(xy=(7, 7), seats=[0])
    g.place_cowboys(xy=(4, 4), seats=[0, 1])
    g.resume_at("parcel_purchase", passing_order=[1, 0])
    assert g.awaiting == "buy_parcel" and g.to_act == (0,)
    moves = g.moves()
    assert {"type": "buy_parcel", "x": 7, "y": 7} in moves and {"type": "buy_parcel", "x": 2, "y": 2} in moves
    assert {"type": "buy_parcel", "x": 4, "y": 4} not in moves
    events = g.act({"type": "buy_parcel", "x": 7, "y": 7})
    assert not events_of(events, "duel_fought")  # (2, 2) is still to decide before any duel
    events = g.act({"type": "decline_parcel", "x": 2, "y": 2})
    assert events_of(events, "duel_fought")[0]["target"] == {"x": 4, "y": 4}


def test_d5_no_building_where_it_would_take_the_last_house_parcel() -> None:
    """D5: a building that needs a house may only go where a house parcel remains."""
    g = _opened()
    g.clear_board()
    seat = 0
    centre = g.state.centre
    assert centre is not None
    cx, cy = centre % 8 + 1, centre // 8 + 1
    g.put(cx, cy, content="house")
    # Every reached parcel around the centre is filled, except one that the builder owns.
    from app.rules.board import NEIGHBOURS, parcel_xy

    reached = [n for n in NEIGHBOURS[centre]]
    own = reached[0]
    for n in reached[1:]:
        g.put(*parcel_xy(n), content="mountain")
    g.put(*parcel_xy(own), owner=seat)
    g.set_player(seat, buildings=("saloon",), roads=1)
    g.resume_at("build_from_reserve")
    assert g.awaiting == "construct"
    site = {"type": "place_building", "building": "saloon", **dict(zip(("x", "y"), parcel_xy(own), strict=True))}
    assert site not in g.moves()  # its own parcel would be the last free one for the house
    road = next(m for m in g.moves() if m["type"] == "place_road")
    g.act(road)  # a road reaches new free parcels: now a house parcel would remain
    assert site in g.moves()


def test_d6_permission_asked_once_and_only_of_players_with_an_eligible_parcel() -> None:
    """D6 (RULING B12): ask before the building; each player once per construction."""
    g = _opened(3, ("banker", "mercenary", "captain"))
    g.clear_board()
    centre = g.state.centre
    assert centre is not None
    from app.rules.board import NEIGHBOURS, parcel_xy

    around = list(NEIGHBOURS[centre])
    g.put(*parcel_xy(centre), content="house")
    g.put(*parcel_xy(around[0]), owner=0)  # the builder's site
    g.put(*parcel_xy(around[1]), owner=2)
    for n in around[2:]:
        g.put(*parcel_xy(n), owner=1)
    g.set_player(0, buildings=("hotel",), roads=0)
    g.resume_at("build_from_reserve")
    asks = [m for m in g.moves() if m["type"] == "ask_permission"]
    assert asks == [{"type": "ask_permission", "seat": 1}, {"type": "ask_permission", "seat": 2}]
    g.act({"type": "ask_permission", "seat": 1})
    assert g.awaiting == "permission" and g.to_act == (1,)
    assert len([m for m in g.moves() if m["type"] == "answer_permission"]) == 2 * 6  # grant/deny per parcel
    g.act({"type": "deny_remaining"})
    assert g.awaiting == "construct"
    asks = [m for m in g.moves() if m["type"] == "ask_permission"]
    assert asks == [{"type": "ask_permission", "seat": 2}]  # seat 1 was asked in this construction


def test_d7_the_grocer_doubles_the_capped_income() -> None:
    """D7 (RULING B13 caps; `000` "Grocer"): a saloon at its $55 cap pays $110 to the doubling Grocer."""
    g = _opened(2, ("grocer", "banker"), sides="yellow")
    g.clear_board()
    grocer = g.state.holder("grocer")
    assert grocer is not None
    g.set_player(grocer, card_option="double:saloon")
    g.put(4, 4, owner=grocer, content="saloon")
    for x, y in ((3, 3), (4, 3), (5, 3), (3, 4), (5, 4), (3, 5), (4, 5), (5, 5)):
        g.put(x, y, owner=grocer, content="hotel")  # 8 hotels = 16 house values = $80 before the cap
    assert building_income(g.state, parcel_index(4, 4)) == 55
    saloon = next(p for p in estate_payments(g.state) if (p["x"], p["y"]) == (4, 4))
    assert saloon["owner_gets"] == 110


def test_d8_the_grocer_doubles_only_earning_types() -> None:
    """D8: the yellow Grocer's choices are the earning types and the two money options."""
    g = Game(2)
    g.claim_starts()
    g.act({"type": "choose_personality", "card": "grocer"})
    assert g.awaiting == "grocer"
    moves = g.moves()
    doubles = {m["building"] for m in moves if m.get("option") == "double"}
    assert doubles == {"ranch", "mine", "drugstore", "bank", "saloon", "hotel"}
    assert {"type": "grocer_choice", "option": "money_now"} in moves


def test_d9_twelve_parcels_means_no_purchase() -> None:
    """D9 (`000` "Game Setup": 12 property tiles): a cowboy may stand on a parcel, the purchase is declined."""
    g = _opened()
    g.clear_board()
    for x in range(1, 7):
        for y in (1, 2):
            g.put(x, y, owner=0)
    g.place_cowboys(xy=(8, 8), seats=[0])
    g.set_player(0, money=50)
    events = g.resume_at("parcel_purchase")
    assert {"type": "parcel_purchase_declined", "seat": 0, "x": 8, "y": 8, "automatic": "only_move"} in events
    assert g.state.parcels[parcel_index(8, 8)].owner is None


def test_d10_road_square_gains_follow_placement_order_within_the_supply() -> None:
    """D10 (RULING B3): gains beyond the 25 road pieces are lost, handed out in placement order."""
    g = _opened()
    first, second = g.state.placement_order
    # Leave exactly one road in the supply.
    on_board = len(g.state.roads)
    g.set_player(first, roads=0)
    g.set_player(second, roads=25 - on_board - 1)
    g.place_cowboys(square="road", seats=[second, first, second])
    events = g.resume_at("road")
    gains = events_of(events, "roads_handed_out")[0]["gains"]
    assert gains[0] == {"seat": first, "cowboys": 1, "roads": 1}
    assert gains[1] == {"seat": second, "cowboys": 2, "roads": 0}


def test_d11_chinese_worker_roads_are_limited_by_the_supply() -> None:
    """D11 (RULING B3): the yellow Chinese Worker receives only what the supply holds."""
    g = Game(2)
    g.claim_starts()
    on_board = len(g.state.roads)
    g.set_player(0, roads=25 - on_board - 1 - g.state.players[1].roads)
    events = g.act({"type": "choose_personality", "card": "chinese_worker"})
    assert events_of(events, "personality_chosen")[0]["roads"] == 1


def test_d13_red_sheriff_starts_no_duel_but_defends() -> None:
    """D13 (`000` Sheriff, red side)."""
    g = _opened(2, ("sheriff", "banker"), sides="red")
    sheriff = g.state.holder("sheriff")
    other = 1 - sheriff
    g.put(3, 3, owner=sheriff, content="saloon")
    g.put(6, 6, owner=other, content="saloon")
    g.place_cowboys(square="gambling_income", seats=[other])
    g.place_cowboys(xy=(3, 3), seats=[other])
    moves = g.moves(sheriff)
    assert {"type": "place_cowboy", "square": "gambling_income"} not in moves
    assert {"type": "place_cowboy", "x": 6, "y": 6} not in moves
    assert {"type": "place_cowboy", "x": 3, "y": 3} in moves


def test_d14_red_chinese_worker_builds_like_after_a_square() -> None:
    """D14: $5, then build or keep; the squares slide and one building is drawn."""
    g = Game(2, sides="red")
    g.claim_starts()
    before = g.state.construction
    g.act({"type": "choose_personality", "card": "chinese_worker"})
    events = g.act({"type": "take_building", "square": "build_12"})
    refill = events_of(events, "construction_refilled")[0]
    assert refill["construction"][:6] == list(before[:6]) and len(refill["drawn"]) == 1
    assert refill["construction"][6] == refill["drawn"][0]
    assert g.awaiting == "construct" and g.state.work is not None and g.state.work.building == before[6]
    assert {"type": "keep_building"} in g.moves()


def test_d15_cash_limit_is_decided_by_all_over_the_limit_at_once() -> None:
    """D15 (RULING B16)."""
    g = _opened(2, ("sheriff", "mercenary"))
    g.set_player(0, money=40)
    g.set_player(1, money=33)
    g.resume_at("cash_limit")
    assert g.awaiting == "cash_limit" and set(g.to_act) == {0, 1}
    amounts = [m["amount"] for m in g.moves(0)]
    assert amounts == list(range(20, 41))


def test_d16_no_cowboys_and_no_refill_after_round_four() -> None:
    """D16 (`000` "End of Round": cowboys after rounds 1-3)."""
    g = _opened()
    g.with_state(round=4)
    events = g.resume_at("new_cowboys")
    assert not events_of(events, "cowboys_received")
    assert not events_of(events, "construction_refilled")
    assert g.state.status == "finished"


def test_d17_cowboy_income_counts_the_3_guns_chip() -> None:
    """D17 (`004` "Puntos de victoria por vaqueros")."""
    g = _opened(2, ("banker", "settler"))
    g.with_state(chip_holder=0)
    g.place_cowboys(square="cowboy_income", seats=[0])
    p = g.state.players[0]
    events = g.resume_at("cowboy_income")
    assert events_of(events, "money_gained")[0]["amount"] == 2 * (p.cowboys + p.revolvers + 3)


def test_d18_attackers_without_defender_duel_among_themselves() -> None:
    """D18: the winner of the attackers' duel takes half the income."""
    g = _opened(3, ("banker", "settler", "captain"))
    g.clear_board()
    g.put(4, 4, owner=0, content="hotel")
    g.place_cowboys(xy=(4, 4), seats=[1, 2])
    events = g.resume_at("estate_income", passing_order=[2, 1, 0])
    duel = events_of(events, "duel_fought")[0]
    pay = events_of(events, "estate_income_paid")[0]["payments"][0]
    assert pay["attacker"] == duel["winner"] and pay["attacker_gets"] == 3 and pay["owner_gets"] == 3


def test_d19_no_cowboy_on_an_empty_construction_square() -> None:
    """D19."""
    g = _opened()
    g.with_state(construction=(None, *g.state.construction[1:]))
    assert {"type": "place_cowboy", "square": "build_3"} not in g.moves()
    assert {"type": "place_cowboy", "square": "build_4"} in g.moves()


def test_d20_replay_never_rolls() -> None:
    """D20: replay takes no seed; the dice live in the events."""
    assert "seed" not in inspect.signature(replay).parameters
    g = _opened()
    assert g.events[2]["type"] == "centre_placed" and len(g.events[2]["dice"]) == 2
    assert replay(g.events) == g.state


def test_d32_the_drawn_tiles_and_the_used_pile_are_shown_as_counts() -> None:
    """D32 (RULING V2: "Everyone sees the tiles played in each duel, but the used pile is shown only as a count,
    so that nobody can work out which tiles another player drew")."""
    from app.rules import player_view, redact_event

    g = Game(3, might_is_right=True)
    g.with_state(used_tiles=(0, 2, 5))
    for viewer in (None, 0, 1, 2):
        view = player_view(g.state, viewer)
        assert view["used_tile_count"] == 3 and "used_tiles" not in view
    drawn = {"type": "tiles_drawn", "seat": 1, "tiles": [0, 2, 5]}
    assert redact_event(drawn, 1)["tiles"] == [0, 2, 5]
    for viewer in (None, 0, 2):
        assert redact_event(drawn, viewer) == {"type": "tiles_drawn", "seat": 1, "count": 3}


def test_d33_a_parcel_pick_may_take_a_mountain_or_the_centre() -> None:
    """D33 (RULING B19 applied to RULING V4's picks)."""
    g = Game(2, new_beginning=True)
    for seat in g.state.initial_order:
        g.move(seat, {"type": "shop_add", "item": "parcel"})
        g.move(seat, {"type": "shop_done"})
    assert g.awaiting == "parcel_pick"
    centre = g.state.centre
    assert centre is not None
    mountain = next(i for i, p in enumerate(g.state.parcels) if p.content == "mountain")
    moves = g.moves()
    for index in (centre, mountain):
        assert {"type": "claim_parcel", "x": index % 8 + 1, "y": index // 8 + 1} in moves


def test_every_decision_number_is_in_the_table_or_said_to_be_withdrawn_or_unused() -> None:
    """docs/rules-decisions.md: ids are never reused, so every number up to the highest is either a decision of
    the table or listed under "Numbers not in the table" as withdrawn or never used, and never both."""
    text = (Path(__file__).parents[2] / "docs" / "rules-decisions.md").read_text(encoding="utf-8")
    table, _, skipped = text.partition("## Numbers not in the table")
    used = {int(n) for n in re.findall(r"^\| D(\d+) \|", table, re.MULTILINE)}
    accounted: set[int] = set()
    for ids in re.findall(r"^- (D[-D\d, ]+): (?:withdrawn|never used)\.", skipped, re.MULTILINE):
        for first, last in re.findall(r"D(\d+)(?:-D(\d+))?", ids):
            accounted |= set(range(int(first), int(last or first) + 1))
    assert not used & accounted
    assert used | accounted == set(range(1, max(used) + 1))
