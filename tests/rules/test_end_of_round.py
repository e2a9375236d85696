"""End of round (`000` "End of Round"; RULINGS B15, B16): R-END-1 .. R-END-5."""

from __future__ import annotations

from app.rules.catalog import BASE_CARDS, CONSTRUCTION_INDEX
from app.rules.legal import legal_moves
from tests.rules.builders import Game, events_of
from tests.rules.scenarios import CARDS, ready, run_step, seat_of

BUY_VP = {"buy_vp_2": 2, "buy_vp_3": 3, "buy_vp_4": 4, "buy_vp_5": 5}
# RULING B15: "round 1 all four, round 2 $3-$5, round 3 $4-$5, round 4 $5 only"
OPEN_BUY_VP = {1: {2, 3, 4, 5}, 2: {3, 4, 5}, 3: {4, 5}, 4: {5}}


def open_buy_vp(g: Game) -> set[int]:
    seat = g.to_act[0]
    return {BUY_VP[m["square"]] for m in legal_moves(g.state, seat)
            if m["type"] == "place_cowboy" and m.get("square") in BUY_VP}


def play_quiet_rounds() -> tuple[Game, dict[int, set[int]]]:
    """Four rounds in which everybody passes at once; returns the open buy-VP squares seen at each round's
    placement."""
    g = ready()
    buy_vp: dict[int, set[int]] = {}
    for rnd in range(1, 5):
        assert (g.state.round, g.awaiting) == (rnd, "placement")
        buy_vp[rnd] = open_buy_vp(g)
        g.pass_all()
        if rnd < 4:
            g.choose(CARDS)
    return g, buy_vp


# --- R-END-1 / R-END-2 -------------------------------------------------------------------------------------------


def test_round_counter_advances_and_blocks_buy_vp_squares() -> None:
    """R-END-1: after each round the counter moves on, blocking the cheapest open buy-VP square for the rest of
    the game (`000` "End of Round", RULING B15, B16); after round 4 the game ends."""
    g, buy_vp = play_quiet_rounds()
    assert buy_vp == OPEN_BUY_VP
    assert g.state.status == "finished"


def test_new_cowboys_four_five_five_up_to_ten() -> None:
    """R-END-2: +4 cowboys after round 1, +5 after rounds 2 and 3, never more than 10 in the personal reserve
    (`000` "End of Round", `003` "Combien de cow-boys reçoit-on"; RULING B16). Two players place every cowboy on
    Wages each round (placed cowboys go to the general reserve), so they start the next round with exactly the
    new cowboys, 4, 5 and 5; the third always passes: 3, 7, then 10 and 10 (capped)."""
    g = ready()
    keeper = 0
    wages = {"type": "place_cowboy", "square": "wages"}
    reserves: dict[int, list[int]] = {}
    for rnd in range(1, 5):
        assert (g.state.round, g.awaiting) == (rnd, "placement")
        reserves[rnd] = [p.cowboys for p in g.state.players]
        while g.awaiting == "placement":
            (seat,) = g.to_act
            g.act(wages if seat != keeper and wages in g.moves() else {"type": "pass"})
        while g.state.status != "finished" and g.awaiting != "personality":  # cash limits: the least allowed
            seat = g.to_act[0]
            g.move(seat, g.moves(seat)[0])
        if rnd < 4:
            g.choose(CARDS)
    assert g.state.status == "finished"
    assert reserves == {1: [3, 3, 3], 2: [3 + 4, 4, 4], 3: [10, 5, 5], 4: [10, 5, 5]}


def test_new_cowboys_capped_at_ten() -> None:
    """R-END-2: a player keeping 8 cowboys in reserve receives only 2 of the 4 (`000`: "The maximum number of
    cowboys in your personal reserve is 10")."""
    g = ready()
    g.set_player(0, cowboys=8)
    g.set_player(1, cowboys=0)
    events, s = run_step(g, "new_cowboys")
    assert events_of(events, "cowboys_received")
    assert [p.cowboys for p in s.players[:2]] == [10, 4]


def test_no_new_cowboys_after_round_four() -> None:
    """R-END-2: cowboys come only after rounds 1, 2 and 3 (`000` "End of Round")."""
    g = ready()
    g.with_state(round=4)
    events = g.resume_at("banker_vp")
    assert not events_of(events, "cowboys_received")
    assert g.state.status == "finished"


# --- R-END-3 -----------------------------------------------------------------------------------------------------


def test_cash_limit_give_up_at_least_the_excess() -> None:
    """R-END-3: money above the card's cash limit must be given up; the player may give up more, up to all of it,
    and scores 1 VP per $10 given up (`000` "End of Round", `003` "À quoi sert la limite", RULING B16). The
    (yellow) Sheriff's limit is $20 (`000` "Sheriff")."""
    g = ready()
    sheriff = seat_of(g, "sheriff")
    g.set_player(sheriff, money=47, vp=0)
    run_step(g, "cash_limit")
    assert (g.awaiting, g.to_act) == ("cash_limit", (sheriff,))  # nobody else is over their limit
    assert sorted(m["amount"] for m in g.moves()) == list(range(47 - 20, 47 + 1))
    g.act({"type": "give_up_money", "amount": 30})
    assert (g.state.players[sheriff].money, g.state.players[sheriff].vp) == (17, 3)


def test_cash_limit_vp_per_full_ten_dollars() -> None:
    """R-END-3: $27 given up is 2 VP — 1 VP per $10 (`000`: "You get 1 victory point per $10 that you must give
    up")."""
    g = ready()
    sheriff = seat_of(g, "sheriff")
    g.set_player(sheriff, money=47, vp=0)
    run_step(g, "cash_limit")
    events = g.act({"type": "give_up_money", "amount": 27})
    assert events_of(events, "money_given_up")[0]["vp"] == 2
    assert g.state.players[sheriff].vp == 2


def test_cash_limit_not_asked_at_or_below_the_limit() -> None:
    """R-END-3: players not above their limit are not asked (RULING B16); exactly at the limit is not above."""
    g = ready()
    sheriff = seat_of(g, "sheriff")
    g.set_player(sheriff, money=20)
    g.set_player(seat_of(g, "chinese_worker"), money=30)
    events, s = run_step(g, "cash_limit")
    assert not events_of(events, "money_given_up")
    assert g.awaiting != "cash_limit"
    assert s.players[sheriff].money == 20


def test_cash_limit_asks_every_player_above_it() -> None:
    """R-END-3: every player above their limit gives money up; each decides for themselves (RULING B16)."""
    g = ready()
    sheriff, worker = seat_of(g, "sheriff"), seat_of(g, "chinese_worker")
    g.set_player(sheriff, money=21, vp=0)
    g.set_player(worker, money=55, vp=0)
    run_step(g, "cash_limit")
    assert g.awaiting == "cash_limit"
    assert set(g.to_act) == {sheriff, worker}
    g.move(worker, {"type": "give_up_money", "amount": 25})
    assert g.to_act == (sheriff,)
    g.move(sheriff, {"type": "give_up_money", "amount": 1})
    assert [(p.money, p.vp) for p in (g.state.players[sheriff], g.state.players[worker])] == [(20, 0), (30, 2)]


def test_cash_limit_applies_in_the_last_round() -> None:
    """R-END-3: money beyond the limit is given up "even in the last round" (`000` "End of Round", "End Of The
    Game"), before the final scoring, and its VP count."""
    g = ready()
    sheriff = seat_of(g, "sheriff")
    g.with_state(round=4)
    g.set_player(sheriff, money=45, vp=0)
    run_step(g, "cash_limit")
    assert (g.awaiting, g.to_act) == ("cash_limit", (sheriff,))
    g.act({"type": "give_up_money", "amount": 25})
    assert g.state.status == "finished"
    assert g.state.players[sheriff].money == 20
    assert g.state.scores[sheriff]["during_game"] == 2


# --- R-END-4 -----------------------------------------------------------------------------------------------------


def test_unbought_buildings_slide_and_the_bag_refills() -> None:
    """R-END-4: unbought buildings shift toward the cheaper squares, keeping their order; each empty square gets a
    building drawn from the bag (`000` "End of Round", RULING B16)."""
    g = ready()
    g.with_state(construction=(None, "mine", None, "hotel", None, None, "bank"),
                 bag={"saloon": 2, "church": 1, "prison": 1, "ranch": 3})
    events, s = run_step(g, "refill")
    (refill,) = events_of(events, "construction_refilled")
    assert list(s.construction[:3]) == ["mine", "hotel", "bank"]
    assert list(s.construction[3:]) == refill["drawn"]
    assert len(refill["drawn"]) == 4
    bag_before = {"saloon": 2, "church": 1, "prison": 1, "ranch": 3}
    for building in set(refill["drawn"]):
        assert s.bag[building] == bag_before[building] - refill["drawn"].count(building)
    assert sum(s.bag.values()) == sum(bag_before.values()) - 4


def test_refill_stops_when_the_bag_is_empty() -> None:
    """R-END-4: with fewer tiles in the bag than empty squares, the most expensive squares stay empty (`000`:
    "For each remaining available position one building is drawn"), and an empty square takes no cowboy."""
    g = ready()
    g.with_state(construction=("ranch", None, None, None, None, None, "mine"), bag={"saloon": 1})
    _, s = run_step(g, "refill")
    assert list(s.construction) == ["ranch", "mine", "saloon", None, None, None, None]
    assert sum(s.bag.values()) == 0
    g.choose(CARDS)
    squares = {m.get("square") for m in g.moves() if m["type"] == "place_cowboy"}
    assert {"build_3", "build_4", "build_5"} <= squares
    assert not squares & {"build_6", "build_8", "build_10", "build_12"}


def test_bought_building_leaves_its_square_empty_until_the_refill() -> None:
    """R-END-4: a bought building's square stays empty for the round and is refilled at its end (`000` "End of
    Round")."""
    g = ready()
    taken = g.state.construction[CONSTRUCTION_INDEX["build_5"]]
    assert taken is not None
    g.with_state(construction=tuple(None if i == CONSTRUCTION_INDEX["build_5"] else b
                                    for i, b in enumerate(g.state.construction)))
    before = [b for b in g.state.construction if b is not None]
    events, s = run_step(g, "refill")
    (refill,) = events_of(events, "construction_refilled")
    assert list(s.construction[:6]) == before
    assert [s.construction[6]] == refill["drawn"]


# --- R-END-5 -----------------------------------------------------------------------------------------------------


def test_cards_white_cowboy_and_chip_return() -> None:
    """R-END-5: at the end of the round the personality cards go back, the white cowboy returns (placed or not)
    and the 3-guns chip goes back to its square (`000` "End of Round", RULING B6, B16)."""
    g = ready()
    sheriff = seat_of(g, "sheriff")
    assert g.state.white_cowboy
    assert g.to_act == (sheriff,)
    g.act({"type": "place_white_cowboy", "square": "three_roads"})
    g.with_state(chip_holder=1)
    g.pass_all()
    assert g.state.round == 2
    assert g.state.chip_holder is None
    assert not g.state.white_cowboy
    assert all(p.personality is None for p in g.state.players)
    assert not g.state.squares and not g.state.parcel_cowboys
    assert g.awaiting == "personality"
    assert {m["card"] for m in g.moves()} == set(BASE_CARDS)
