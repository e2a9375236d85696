"""Personalities (`000` "How To Play", "Personalities", "Variants: The red sides of personality cards";
RULINGS B5, B6, B16): the order of choosing, placement order, each card's yellow and red side, cash limits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app.rules import IllegalMove
from app.rules.board import parcel_index
from app.rules.catalog import CONSTRUCTION_SQUARES
from app.rules.moves import Move
from tests.rules.builders import SEED, Game, events_of

# Starting parcels on the west and east borders, enough for five players.
BORDERS = [(x, y) for x in (1, 8) for y in range(1, 9)]

CARDS = ("sheriff", "banker", "grocer", "chinese_worker", "settler", "captain", "mercenary")

# RULING B5: the card numbers.
NUMBER = {"sheriff": 1, "banker": 2, "grocer": 3, "chinese_worker": 4, "settler": 5, "captain": 6, "mercenary": 7}

# `000` "Personalities": the cash limit printed on each side.
YELLOW_LIMIT = {"sheriff": 20, "chinese_worker": 30, "banker": 120, "settler": 30, "grocer": 60, "captain": 25,
                "mercenary": 20}
RED_LIMIT = {"sheriff": 20, "chinese_worker": 30, "banker": 60, "settler": 20, "grocer": 60, "captain": 20,
             "mercenary": 30}


def chosen(cards: tuple[str, ...], sides: str = "yellow", seed: int = SEED,
           decide: Callable[[Game], Move] | None = None) -> Game:
    """A game at the start of round 1's placement, starting parcels on the borders, `cards` chosen in
    choosing order."""
    g = Game(len(cards), seed, sides=sides)
    g.claim_starts(BORDERS)
    g.choose(cards, decide)
    return g


def at_choice(players: int = 3, sides: str = "yellow", seed: int = SEED) -> Game:
    """A game whose first player is about to choose a personality in round 1."""
    g = Game(players, seed, sides=sides)
    g.claim_starts(BORDERS)
    return g


def seat_of(g: Game, card: str) -> int:
    seat = g.state.holder(card)
    assert seat is not None
    return seat


def others(g: Game, seat: int) -> list[int]:
    return [p.seat for p in g.state.players if p.seat != seat]


def duel(g: Game, square: str, seats: list[int]) -> dict[str, Any]:
    """Put one cowboy of each of `seats` on `square`, resolve the round from there, return the duel."""
    g.place_cowboys(square=square, seats=seats)
    (fought,) = [e for e in events_of(g.resume_at(square), "duel_fought") if e["target"] == {"square": square}]
    return fought


def firepower_in(fought: dict[str, Any], seat: int) -> int:
    (duelist,) = [d for d in fought["duelists"] if d["seat"] == seat]
    power: int = duelist["firepower"]
    return power


# --- R-PER-1: the order of choosing, one card each -------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_one_choice_in_initial_order(seed: int) -> None:
    """R-PER-1: in round 1 the players choose a personality in the (random) initial turn order
    (`000` "How To Play", RULING B5)."""
    g = at_choice(5, seed=seed)
    asked = []
    for card in ("mercenary", "sheriff", "banker", "chinese_worker", "captain"):
        assert g.awaiting == "personality"
        asked.append(g.to_act[0])
        g.act({"type": "choose_personality", "card": card})
    assert tuple(asked) == g.state.initial_order


def test_one_card_each() -> None:
    """R-PER-1: each player chooses one of the cards; a card taken is no longer available (`000` "How To
    Play")."""
    g = at_choice(3)
    first = g.to_act[0]
    assert {m["card"] for m in g.moves()} == set(CARDS)
    g.act({"type": "choose_personality", "card": "banker"})
    second = g.to_act[0]
    assert second != first and g.awaiting == "personality"
    assert {m["card"] for m in g.moves()} == set(CARDS) - {"banker"}
    before = g.state
    with pytest.raises(IllegalMove):
        g.act({"type": "choose_personality", "card": "banker"})
    assert g.state == before
    g.act({"type": "choose_personality", "card": "sheriff"})
    g.act({"type": "choose_personality", "card": "mercenary"})
    held = [p.personality for p in g.state.players]
    assert sorted(held) == ["banker", "mercenary", "sheriff"]
    assert g.awaiting == "placement"


def test_later_rounds_choose_in_the_previous_passing_order() -> None:
    """R-PER-1: from round 2 on, the players choose in the order in which they passed in the previous round
    (RULING B5; `003` "Pourquoi passer tôt": the first to pass chooses first next round)."""
    g = chosen(("sheriff", "banker", "chinese_worker"))
    first, second, third = g.state.placement_order
    g.act({"type": "place_cowboy", "square": "wages"})  # first places, then passes last
    g.act({"type": "pass"})  # second
    g.act({"type": "pass"})  # third
    g.act({"type": "pass"})  # first
    assert g.state.round == 2 and g.awaiting == "personality"
    asked = []
    for card in ("captain", "grocer", "settler"):
        asked.append(g.to_act[0])
        g.act({"type": "choose_personality", "card": card})
        while g.awaiting in ("captain", "grocer", "settler"):
            g.act(g.moves()[0])
    assert asked == [second, third, first]


def test_cards_return_at_the_end_of_the_round() -> None:
    """R-PER-1: the personality cards go back next to the board at the end of the round (`000` "End of
    Round"), so every card may be chosen again in round 2."""
    g = chosen(("sheriff", "banker", "chinese_worker"))
    g.pass_all()
    assert g.state.round == 2 and g.awaiting == "personality"
    assert all(p.personality is None for p in g.state.players)
    assert {m["card"] for m in g.moves()} == set(CARDS)


# --- R-PER-2: placement order ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [
    ("mercenary", "captain", "settler", "chinese_worker", "grocer"),
    ("banker", "sheriff", "mercenary"),
    ("captain", "grocer"),
    ("chinese_worker", "mercenary", "banker", "sheriff"),
])
def test_placement_order_is_ascending_card_number(cards: tuple[str, ...]) -> None:
    """R-PER-2: when all have chosen, placement order is the ascending number of the chosen cards: Sheriff 1,
    Banker 2, Grocer 3, Chinese Worker 4, Settler 5, Captain 6, Mercenary 7 (`000` "How To Play", RULING B5)."""
    g = chosen(cards)
    expected = tuple(seat_of(g, card) for card in sorted(cards, key=NUMBER.__getitem__))
    assert g.state.placement_order == expected
    assert g.awaiting == "placement" and g.to_act == (expected[0],)


# --- R-PER-3: yellow Sheriff -----------------------------------------------------------------------------------


def white_moves(g: Game, seat: int) -> list[Move]:
    return [m for m in g.moves(seat) if m["type"] == "place_white_cowboy"] if seat in g.to_act else []


def test_only_the_sheriff_has_the_white_cowboy() -> None:
    """R-PER-3: the Sheriff takes the white cowboy; nobody else may place it (`000` "Sheriff", RULING B6)."""
    g = chosen(("banker", "sheriff", "mercenary"))
    sheriff = seat_of(g, "sheriff")
    assert g.to_act == (sheriff,)  # card 1 places first
    assert white_moves(g, sheriff)
    g.act({"type": "place_cowboy", "square": "wages"})
    for seat in others(g, sheriff):
        assert g.to_act == (seat,)
        assert not white_moves(g, seat)
        g.act({"type": "place_cowboy", "square": "road"})


def test_white_cowboy_only_where_no_cowboy_stands() -> None:
    """R-PER-3: the white cowboy goes only on a cowboy-free action square, owner-free parcel or the Sheriff's
    own building, never to attack or to challenge (`000` "Sheriff", RULING B6)."""
    g = chosen(("sheriff", "banker", "mercenary"))
    sheriff = seat_of(g, "sheriff")
    banker = seat_of(g, "banker")
    g.put(5, 5, owner=sheriff, content="hotel")
    g.put(6, 6, owner=banker, content="hotel")
    g.act({"type": "place_cowboy", "square": "three_roads"})  # the Sheriff's own ordinary cowboy
    g.act({"type": "place_cowboy", "square": "ammunition"})
    g.act({"type": "place_cowboy", "x": 4, "y": 8})
    g.act({"type": "place_cowboy", "square": "wages"})  # the Sheriff again
    assert g.to_act == (banker,)
    g.act({"type": "place_cowboy", "x": 5, "y": 5})  # the banker attacks the Sheriff's hotel
    g.act({"type": "pass"})
    assert g.to_act == (sheriff,)
    targets = {m.get("square") or (m["x"], m["y"]) for m in white_moves(g, sheriff)}
    for taken in ("three_roads", "ammunition", "wages", (4, 8), (5, 5)):
        assert taken not in targets
    assert (6, 6) not in targets  # another player's building
    assert {"gambling_income", "road", "build_3", (4, 4)} <= targets
    owner_free = {(x, y) for x in range(1, 9) for y in range(1, 9)
                  if g.state.parcels[parcel_index(x, y)].owner is None} - {(4, 8)}
    assert owner_free <= targets


def test_sheriff_may_put_the_white_cowboy_on_an_own_building() -> None:
    """R-PER-3: the white cowboy may defend the Sheriff's own building (RULING B6) and nobody may then attack
    it."""
    g = chosen(("sheriff", "banker", "mercenary"))
    sheriff, banker = seat_of(g, "sheriff"), seat_of(g, "banker")
    g.put(5, 5, owner=sheriff, content="hotel")
    assert {"type": "place_white_cowboy", "x": 5, "y": 5} in g.moves()
    g.act({"type": "place_white_cowboy", "x": 5, "y": 5})
    assert g.to_act == (banker,)
    assert {"type": "place_cowboy", "x": 5, "y": 5} not in g.moves()


@pytest.mark.parametrize("spot", [{"square": "ammunition"}, {"square": "build_3"}, {"x": 4, "y": 4}])
def test_nobody_joins_the_white_cowboy(spot: dict[str, Any]) -> None:
    """R-PER-3: "no one challenges the sheriff to a duel": no cowboy may join the white cowboy afterwards on a
    square, parcel or building where cowboys duel (`000` "Sheriff", RULING B6)."""
    g = chosen(("sheriff", "banker", "mercenary"))
    sheriff = seat_of(g, "sheriff")
    g.act({"type": "place_white_cowboy", **spot})
    for seat in (*others(g, sheriff), sheriff):
        assert g.to_act == (seat,)
        assert {"type": "place_cowboy", **spot} not in g.moves()
        g.act({"type": "place_cowboy", "square": "road"})


@pytest.mark.parametrize("square", ["wages", "road"])
def test_everyone_may_join_the_white_cowboy_on_wages_and_road(square: str) -> None:
    """R-PER-3, R-PLA-2: on Wages and Road, where nobody ever duels, the other players and the Sheriff may still
    place cowboys beside the white cowboy, and every cowboy there acts, the white one included (RULING B6,
    revised 2026-12-01: "there others may still join, and everyone there acts")."""
    g = chosen(("sheriff", "banker", "mercenary"))
    sheriff, banker, mercenary = (seat_of(g, card) for card in ("sheriff", "banker", "mercenary"))
    g.act({"type": "place_white_cowboy", "square": square})
    for seat in (banker, mercenary, sheriff, banker):
        assert g.to_act == (seat,)
        assert {"type": "place_cowboy", "square": square} in g.moves()
        g.act({"type": "place_cowboy", "square": square})
    events = []
    while g.awaiting == "placement":
        events += g.act({"type": "pass"})
    assert not events_of(events, "duel_fought")
    expected = {sheriff: 2, banker: 2, mercenary: 1}  # the Sheriff's white cowboy and own cowboy both act
    if square == "wages":
        (paid,) = events_of(events, "wages_paid")
        assert {p["seat"]: p["amount"] for p in paid["payments"]} == {s: 4 * n for s, n in expected.items()}
    else:
        (handed,) = events_of(events, "roads_handed_out")
        assert {p["seat"]: p["roads"] for p in handed["gains"]} == expected


def test_white_cowboy_is_an_extra_placement() -> None:
    """R-PER-3: the white cowboy is not part of the personal reserve: placing it takes no cowboy from the
    reserve, it can be placed with an empty reserve, and only once a round (RULING B6)."""
    g = chosen(("sheriff", "banker", "mercenary"))
    sheriff = seat_of(g, "sheriff")
    g.set_player(sheriff, cowboys=0)
    assert {m["type"] for m in g.moves()} == {"place_white_cowboy", "pass"}
    g.act({"type": "place_white_cowboy", "square": "ammunition"})
    assert g.state.players[sheriff].cowboys == 0
    for seat in others(g, sheriff):
        g.move(seat, {"type": "place_cowboy", "square": "road"})
    # Back to the Sheriff, who has no cowboy and no white cowboy left: passing is the only move, played by the
    # flow (RULING B10).
    assert sheriff in g.state.passing_order


def test_white_cowboy_performs_its_action_and_returns_at_round_end() -> None:
    """R-PER-3: the white cowboy's action is the Sheriff's; at the end of the round it goes back to the general
    reserve, never to the Sheriff's reserve (`000` "End of Round", RULING B6)."""
    g = chosen(("sheriff", "banker", "mercenary"))
    sheriff = seat_of(g, "sheriff")
    g.act({"type": "place_white_cowboy", "square": "ammunition"})
    reserve = g.state.players[sheriff].cowboys
    assert reserve == 3
    new = []
    while g.awaiting == "placement":
        new += g.act({"type": "pass"})
    assert {"type": "chip_taken", "seat": sheriff, "square": "ammunition"} in new
    assert not events_of(new, "duel_fought")
    assert g.state.round == 2
    assert g.state.players[sheriff].cowboys == reserve + 4  # only the new cowboys of round 1 (`000`)
    assert not g.state.white_cowboy and not g.state.squares
    # The white cowboy comes back with the card: whoever takes the Sheriff in round 2 has it again.
    g.choose(("sheriff", "banker", "mercenary"))
    assert g.state.white_cowboy


# --- R-PER-4: yellow Chinese Worker ----------------------------------------------------------------------------


def test_chinese_worker_receives_two_roads() -> None:
    """R-PER-4: the Chinese Worker immediately receives two roads (`000` "Chinese worker")."""
    g = at_choice(3)
    seat = g.to_act[0]
    new = g.act({"type": "choose_personality", "card": "chinese_worker"})
    assert events_of(new, "personality_chosen")[0]["roads"] == 2
    assert g.state.players[seat].roads == 1 + 2


def test_chinese_worker_pays_half_price_rounded_up() -> None:
    """R-PER-4: "the price of all buildings is halved (rounded up)" (`000` "Chinese worker"), on every
    construction square; another player pays the full price."""
    g = chosen(("chinese_worker", "banker", "mercenary"))
    worker, banker = seat_of(g, "chinese_worker"), seat_of(g, "banker")
    for c in CONSTRUCTION_SQUARES[:-1]:
        g.place_cowboys(square=c.square, seats=[worker])
    last = CONSTRUCTION_SQUARES[-1]
    g.place_cowboys(square=last.square, seats=[banker])
    g.set_player(worker, money=100)
    g.set_player(banker, money=100)
    bought = events_of(g.resume_at("build_3"), "building_bought")
    while g.awaiting in ("buy_building", "construct"):
        move: Move = {"type": "buy_building"} if g.awaiting == "buy_building" else {"type": "keep_building"}
        bought += events_of(g.act(move), "building_bought")
    paid = {e["square"]: (e["seat"], e["price"]) for e in bought}
    expected = {c.square: (worker, (c.price + 1) // 2) for c in CONSTRUCTION_SQUARES[:-1]}
    assert expected == {"build_3": (worker, 2), "build_4": (worker, 2), "build_5": (worker, 3),
                        "build_6": (worker, 3), "build_8": (worker, 4), "build_10": (worker, 5)}
    expected[last.square] = (banker, 12)
    assert paid == expected


# --- R-PER-5: yellow Banker ------------------------------------------------------------------------------------


def test_banker_receives_nine_dollars() -> None:
    """R-PER-5: the Banker immediately receives $9 (`000` "Banker")."""
    g = at_choice(3)
    seat = g.to_act[0]
    g.act({"type": "choose_personality", "card": "banker"})
    assert g.state.players[seat].money == 15 + 9


# --- R-PER-6: yellow Settler -----------------------------------------------------------------------------------


def test_settler_takes_an_owner_free_parcel_at_once() -> None:
    """R-PER-6: the Settler immediately gives an owner-free parcel (`000` "Settler"); mountains and houses
    included, owned and river parcels not (RULING B7)."""
    g = at_choice(3)
    seat = g.to_act[0]
    g.put(8, 8, river=True)
    g.act({"type": "choose_personality", "card": "settler"})
    assert g.awaiting == "settler" and g.to_act == (seat,)
    offered = {(m["x"], m["y"]) for m in g.moves()}
    assert {m["type"] for m in g.moves()} == {"claim_parcel"}
    owner_free = {(x, y) for x in range(1, 9) for y in range(1, 9)
                  if g.state.parcels[parcel_index(x, y)].owner is None} - {(8, 8)}
    assert offered == owner_free
    mountain = next(xy for xy in offered if g.state.parcels[parcel_index(*xy)].content == "mountain")
    g.act({"type": "claim_parcel", "x": mountain[0], "y": mountain[1]})
    assert g.state.parcels[parcel_index(*mountain)].owner == seat
    assert g.awaiting == "personality" and g.to_act != (seat,)


def test_settler_without_an_owner_free_parcel_gets_nothing() -> None:
    """R-PER-6: the parcel must be owner-free at the moment it is taken (`000` "Settler"): with none left, the
    card gives nothing (the only move, declining, is played by the flow — RULING B10)."""
    g = at_choice(3)
    seat = g.to_act[0]
    for index, parcel in enumerate(g.state.parcels):
        if parcel.owner is None:
            g.put(index % 8 + 1, index // 8 + 1, owner=(seat + 1) % 3, content=parcel.content)
    new = g.act({"type": "choose_personality", "card": "settler"})
    assert events_of(new, "card_decision_declined") == [
        {"type": "card_decision_declined", "seat": seat, "automatic": "only_move"}]
    assert g.awaiting == "personality"


# --- R-PER-7: yellow Grocer ------------------------------------------------------------------------------------


def test_grocer_options() -> None:
    """R-PER-7: the Grocer doubles the income of one building type, or receives $8 now or at the estate income
    (`000` "Grocer")."""
    g = at_choice(3)
    g.act({"type": "choose_personality", "card": "grocer"})
    assert g.awaiting == "grocer"
    moves = g.moves()
    doubled = {m["building"] for m in moves if m.get("option") == "double"}
    assert doubled == {"ranch", "mine", "drugstore", "bank", "saloon", "hotel"}  # the types that earn income
    assert {"type": "grocer_choice", "option": "money_now"} in moves
    assert {"type": "grocer_choice", "option": "money_at_income"} in moves


def grocer_game(option: Move) -> tuple[Game, int]:
    g = chosen(("grocer", "banker", "mercenary"), decide=lambda game: option)
    return g, seat_of(g, "grocer")


def test_grocer_eight_dollars_now() -> None:
    """R-PER-7: the Grocer may receive $8 immediately (`000` "Grocer")."""
    g, grocer = grocer_game({"type": "grocer_choice", "option": "money_now"})
    assert g.state.players[grocer].money == 15 + 8
    events = g.resume_at("estate_income")
    assert not [e for e in events_of(events, "money_gained") if e.get("reason") == "grocer"]


def test_grocer_eight_dollars_at_estate_income() -> None:
    """R-PER-7: or $8 during the estate income phase (`000` "Grocer") — not before, and only once."""
    g, grocer = grocer_game({"type": "grocer_choice", "option": "money_at_income"})
    assert g.state.players[grocer].money == 15
    events = g.resume_at("estate_income")
    gains = [e for e in events_of(events, "money_gained") if e["seat"] == grocer]
    assert gains == [{"type": "money_gained", "seat": grocer, "amount": 8, "reason": "grocer"}]
    assert events.index(gains[0]) < events.index(events_of(events, "estate_income_paid")[0])


def payments_by_parcel(events: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, Any]]:
    (paid,) = events_of(events, "estate_income_paid")
    return {(p["x"], p["y"]): p for p in paid["payments"]}


def test_grocer_doubles_one_building_type() -> None:
    """R-PER-7: the Grocer doubles the income of one particular building type — all their buildings of that
    type, not the others, nor other players' (`000` "Grocer"). A hotel earns $6 (`000` "Hotel")."""
    g, grocer = grocer_game({"type": "grocer_choice", "option": "double", "building": "hotel"})
    other = seat_of(g, "banker")
    g.clear_board()
    g.put(2, 2, owner=grocer, content="hotel")
    g.put(6, 6, owner=grocer, content="hotel")
    g.put(4, 8, owner=grocer, content="ranch")
    g.put(8, 1, owner=other, content="hotel")
    paid = payments_by_parcel(g.resume_at("estate_income"))
    assert paid[(2, 2)]["owner_gets"] == paid[(6, 6)]["owner_gets"] == 2 * 6
    ranch = paid[(4, 8)]
    assert not ranch["doubled"] and ranch["owner_gets"] == ranch["income"]
    assert paid[(8, 1)]["owner_gets"] == 6


def test_grocer_doubling_not_when_attacked() -> None:
    """R-PER-7: "If a building with double income is attacked then you and the attacker receive normal income"
    (`000` "Grocer", RULING B13): the attacker takes half the normal income, rounded down, the Grocer the rest."""
    g, grocer = grocer_game({"type": "grocer_choice", "option": "double", "building": "hotel"})
    attacker = seat_of(g, "banker")
    g.clear_board()
    g.put(2, 2, owner=grocer, content="hotel")
    g.put(6, 6, owner=grocer, content="hotel")
    g.place_cowboys(xy=(2, 2), seats=[attacker])
    paid = payments_by_parcel(g.resume_at("estate_income"))
    attacked = paid[(2, 2)]
    assert not attacked["doubled"]
    assert (attacked["attacker"], attacked["attacker_gets"], attacked["owner_gets"]) == (attacker, 6 // 2, 6 - 3)
    assert paid[(6, 6)]["owner_gets"] == 12


# --- R-PER-8: yellow Captain -----------------------------------------------------------------------------------


def captain_offers(money: int, cowboys: int) -> tuple[Game, int, set[int]]:
    g = at_choice(3)
    seat = g.to_act[0]
    g.set_player(seat, money=money, cowboys=cowboys)
    g.act({"type": "choose_personality", "card": "captain"})
    offers = {m["count"] for m in g.moves()} if g.awaiting == "captain" else set()
    return g, seat, offers


@pytest.mark.parametrize(("count", "price"), [(1, 1), (2, 4), (3, 9)])
def test_captain_hires_cowboys(count: int, price: int) -> None:
    """R-PER-8: the Captain may pay $1, $4 or $9 for one, two or three extra cowboys (`000` "Captain")."""
    g, seat, offers = captain_offers(15, 3)
    assert offers == {0, 1, 2, 3}
    g.act({"type": "hire_cowboys", "count": count})
    assert (g.state.players[seat].money, g.state.players[seat].cowboys) == (15 - price, 3 + count)


def test_captain_cowboys_up_to_ten() -> None:
    """R-PER-8: the personal reserve holds at most 10 cowboys (`000` "End of Round"): with 8, at most 2 more."""
    _, _, offers = captain_offers(15, 8)
    assert offers == {0, 1, 2}


def test_captain_pays_what_he_can() -> None:
    """R-PER-8: the Captain must pay for the cowboys (`000` "Captain"): with $3, only one cowboy ($1) or none."""
    _, _, offers = captain_offers(3, 3)
    assert offers == {0, 1}


# --- R-PER-9: yellow Mercenary ---------------------------------------------------------------------------------


def test_mercenary_three_extra_firepower() -> None:
    """R-PER-9: the Mercenary has 3 extra firepower points this round (`000` "Mercenary"), counted in duels
    (RULING B8)."""
    g = chosen(("mercenary", "banker", "sheriff"))
    mercenary, banker = seat_of(g, "mercenary"), seat_of(g, "banker")
    g.set_player(mercenary, cowboys=2, revolvers=1)
    g.set_player(banker, cowboys=2, revolvers=1)
    fought = duel(g, "three_roads", [mercenary, banker])
    assert firepower_in(fought, mercenary) == 2 + 1 + 3
    assert firepower_in(fought, banker) == 2 + 1


# --- R-PER-10 / R-PER-11: cash limits --------------------------------------------------------------------------


def holder_game(card: str, sides: str) -> tuple[Game, int]:
    fillers = [c for c in ("banker", "mercenary", "sheriff") if c != card][:2]
    g = chosen((card, *fillers), sides=sides)
    seat = seat_of(g, card)
    for p in g.state.players:
        g.set_player(p.seat, money=0, vp=0)
    return g, seat


def check_cash_limit(card: str, sides: str, limit: int) -> None:
    g, seat = holder_game(card, sides)
    g.set_player(seat, money=limit)
    g.resume_at("cash_limit")
    assert g.awaiting != "cash_limit"  # at the limit: nothing to give up (RULING B16)
    assert g.state.players[seat].money == limit

    g, seat = holder_game(card, sides)
    g.set_player(seat, money=limit + 7)
    g.resume_at("cash_limit")
    assert (g.awaiting, g.to_act) == ("cash_limit", (seat,))
    amounts = [m["amount"] for m in g.moves()]
    assert amounts == list(range(7, limit + 8))  # at least the excess, at most everything (`000`)


@pytest.mark.parametrize("card", CARDS)
def test_yellow_cash_limits(card: str) -> None:
    """R-PER-10: yellow cash limits Sheriff $20, Chinese Worker $30, Banker $120, Settler $30, Grocer $60,
    Captain $25, Mercenary $20 (`000` "Personalities"); money beyond it must be given up (`000` "End of
    Round")."""
    check_cash_limit(card, "yellow", YELLOW_LIMIT[card])


@pytest.mark.parametrize("card", CARDS)
def test_red_cash_limits(card: str) -> None:
    """R-PER-11: red cash limits Sheriff $20, Chinese Worker $30, Banker $60, Settler $20, Grocer $60,
    Captain $20, Mercenary $30 (`000` "Personalities", "Red Side")."""
    check_cash_limit(card, "red", RED_LIMIT[card])


# --- R-PER-11: red sides ---------------------------------------------------------------------------------------


def test_red_sheriff_has_no_white_cowboy() -> None:
    """R-PER-11: the red Sheriff's side has no white cowboy (`000` "Sheriff", "Red Side")."""
    g = chosen(("sheriff", "banker", "mercenary"), sides="red")
    assert not g.state.white_cowboy
    assert not white_moves(g, seat_of(g, "sheriff"))


def test_red_sheriff_starts_no_duel_and_attacks_nothing() -> None:
    """R-PER-11: the red Sheriff may not attack any building or engage in a duel, except to defend their own
    building (`000` "Sheriff", "Red Side"); Wages and Road hold no duel (RULING B7)."""
    g = chosen(("sheriff", "banker", "mercenary"), sides="red")
    sheriff, banker, mercenary = seat_of(g, "sheriff"), seat_of(g, "banker"), seat_of(g, "mercenary")
    g.put(5, 5, owner=sheriff, content="hotel")
    g.put(6, 6, owner=banker, content="hotel")
    g.move(sheriff, {"type": "place_cowboy", "square": "gambling_income"})
    g.move(banker, {"type": "place_cowboy", "square": "ammunition"})
    g.move(mercenary, {"type": "place_cowboy", "x": 4, "y": 8})
    g.move(sheriff, {"type": "place_cowboy", "square": "wages"})
    g.move(banker, {"type": "place_cowboy", "x": 5, "y": 5})  # attacks the Sheriff's hotel
    g.move(mercenary, {"type": "place_cowboy", "square": "road"})
    assert g.to_act == (sheriff,)
    moves = g.moves()
    assert {"type": "place_cowboy", "square": "ammunition"} not in moves  # would start a duel
    assert {"type": "place_cowboy", "x": 4, "y": 8} not in moves  # would start a duel
    assert {"type": "place_cowboy", "x": 6, "y": 6} not in moves  # an attack
    assert {"type": "place_cowboy", "x": 5, "y": 5} in moves  # defending the own building
    assert {"type": "place_cowboy", "square": "road"} in moves  # no duel on Road
    assert {"type": "place_cowboy", "square": "three_roads"} in moves  # a cowboy-free square


def test_red_sheriff_scores_three_vp_per_lost_duel() -> None:
    """R-PER-11: the red Sheriff receives 3 VP for every lost duel (`000` "Sheriff", "Red Side") — challenged on
    a square, or defending a building. The outcome is forced: firepower 15 against at most 1 + 6."""
    g = chosen(("sheriff", "banker", "mercenary"), sides="red")
    sheriff, banker = seat_of(g, "sheriff"), seat_of(g, "banker")
    g.put(5, 5, owner=sheriff, content="hotel")
    g.set_player(sheriff, cowboys=0, revolvers=0, vp=0)
    g.set_player(banker, cowboys=10, revolvers=5)
    g.place_cowboys(square="three_roads", seats=[sheriff, banker])
    g.place_cowboys(xy=(5, 5), seats=[sheriff, banker])
    events = g.resume_at("three_roads")
    fought = events_of(events, "duel_fought")
    assert [d["winner"] for d in fought] == [banker, banker]
    assert g.state.players[sheriff].vp == 2 * 3


def test_red_sheriff_scores_nothing_for_a_won_duel() -> None:
    """R-PER-11: only lost duels score for the red Sheriff (`000` "Sheriff", "Red Side")."""
    g = chosen(("sheriff", "banker", "mercenary"), sides="red")
    sheriff, banker = seat_of(g, "sheriff"), seat_of(g, "banker")
    g.set_player(sheriff, cowboys=10, revolvers=5, vp=0)
    g.set_player(banker, cowboys=0, revolvers=0, vp=0)
    fought = duel(g, "three_roads", [banker, sheriff])
    assert fought["winner"] == sheriff
    assert g.state.players[sheriff].vp == 0


def test_red_chinese_worker_takes_a_building_for_five_dollars() -> None:
    """R-PER-11: the red Chinese Worker may pay $5 and take one of the available buildings, build it at once or
    keep it; the remaining buildings shift toward lower prices and a new one is drawn from the bag (`000`
    "Chinese worker", "Red Side")."""
    g = at_choice(3, sides="red")
    seat = g.to_act[0]
    before = g.state.construction
    bag = sum(g.state.bag.values())
    g.act({"type": "choose_personality", "card": "chinese_worker"})
    assert g.awaiting == "chinese_worker_red"
    squares = [c.square for c in CONSTRUCTION_SQUARES]
    assert g.moves() == [{"type": "decline"}, *({"type": "take_building", "square": sq} for sq in squares)]
    new = g.act({"type": "take_building", "square": "build_3"})
    assert g.state.players[seat].money == 15 - 5
    assert g.state.players[seat].buildings == (before[0],)
    (refill,) = events_of(new, "construction_refilled")
    assert len(refill["drawn"]) == 1
    assert g.state.construction == (*before[1:], refill["drawn"][0])
    assert sum(g.state.bag.values()) == bag - 1
    # Build it at once or keep it.
    assert g.awaiting == "construct" and g.to_act == (seat,)
    assert {"type": "keep_building"} in g.moves()
    assert any(m["type"] == "place_building" for m in g.moves())  # a ranch needs no road (`000` "Ranch")
    g.act({"type": "keep_building"})
    assert g.state.players[seat].buildings == (before[0],)
    assert g.awaiting == "personality"


def test_red_chinese_worker_may_decline() -> None:
    """R-PER-11: taking a building is optional ("You may immediately pay $5", `000` "Chinese worker", "Red
    Side"); without $5 the card offers nothing."""
    g = at_choice(3, sides="red")
    seat = g.to_act[0]
    g.act({"type": "choose_personality", "card": "chinese_worker"})
    g.act({"type": "decline"})
    assert g.state.players[seat].money == 15 and g.awaiting == "personality"

    g = at_choice(3, sides="red")
    seat = g.to_act[0]
    g.set_player(seat, money=4)
    new = g.act({"type": "choose_personality", "card": "chinese_worker"})
    assert events_of(new, "card_decision_declined") and g.state.players[seat].money == 4


def test_red_chinese_worker_gets_no_roads() -> None:
    """R-PER-11: the two roads are the yellow side's (`000` "Chinese worker")."""
    g = at_choice(3, sides="red")
    seat = g.to_act[0]
    g.act({"type": "choose_personality", "card": "chinese_worker"})
    g.act({"type": "decline"})
    assert g.state.players[seat].roads == 1


def test_red_banker_gets_no_nine_dollars() -> None:
    """R-PER-11: the $9 is the yellow side's (`000` "Banker")."""
    g = at_choice(3, sides="red")
    seat = g.to_act[0]
    g.act({"type": "choose_personality", "card": "banker"})
    assert g.state.players[seat].money == 15


@pytest.mark.parametrize(("vp", "price"), [(0, 0), (3, 3), (5, 12), (7, 25)])
def test_red_banker_buys_vp_before_the_cash_limit(vp: int, price: int) -> None:
    """R-PER-11: at the end of the round, before the cash limit is checked, the red Banker may buy 3, 5 or 7 VP
    for $3, $12 or $25 (`000` "Banker", "Red Side"; RULING B16). With $70 and a $60 limit, buying for $12 or more
    leaves nothing to give up."""
    g, banker = holder_game("banker", "red")
    g.set_player(banker, money=70)
    g.resume_at("banker_vp")
    assert (g.awaiting, g.to_act) == ("banker_vp", (banker,))
    assert [m["vp"] for m in g.moves()] == [0, 3, 5, 7]
    g.act({"type": "banker_vp", "vp": vp})
    assert (g.state.players[banker].vp, g.state.players[banker].money) == (vp, 70 - price)
    assert (g.awaiting == "cash_limit") == (70 - price > 60)


def test_red_banker_pays_what_he_can() -> None:
    """R-PER-11: the red Banker must pay for the VP (`000` "Banker", "Red Side"): with $14, 7 VP ($25) is out of
    reach."""
    g, banker = holder_game("banker", "red")
    g.set_player(banker, money=14)
    g.resume_at("banker_vp")
    assert [m["vp"] for m in g.moves()] == [0, 3, 5]


def red_option_game(card: str, option: str) -> tuple[Game, int]:
    g = chosen((card, "banker", "mercenary"), sides="red",
               decide=lambda game: {"type": "card_option", "option": option})
    return g, seat_of(g, card)


@pytest.mark.parametrize("card", ["settler", "grocer"])
def test_red_settler_and_grocer_eight_dollars_now(card: str) -> None:
    """R-PER-11: the red Settler and the red Grocer may receive $8 immediately (`000` "Settler", "Grocer", "Red
    Side"), and then score nothing at the end of the round."""
    g, seat = red_option_game(card, "money")
    assert g.state.players[seat].money == 15 + 8
    g.put(4, 4, owner=seat, content="mountain")
    g.put(4, 5, owner=seat, content="house")
    events = g.resume_at("end_of_round_vp")
    assert not [e for e in events_of(events, "vp_gained") if e["seat"] == seat]


def test_red_settler_vp_per_mountain() -> None:
    """R-PER-11: or the red Settler receives 1 VP per mountain they own at the end of the round (`000`
    "Settler", "Red Side") — owner-free mountains and other players' do not count."""
    g, settler = red_option_game("settler", "vp")
    other = seat_of(g, "banker")
    assert g.state.players[settler].money == 15
    g.clear_board()
    g.put(2, 2, owner=settler, content="mountain")
    g.put(3, 3, owner=settler, content="mountain")
    g.put(4, 4, owner=None, content="mountain")
    g.put(5, 5, owner=other, content="mountain")
    g.put(6, 6, owner=settler, content="house")
    g.set_player(settler, vp=0)
    g.resume_at("end_of_round_vp")
    assert g.state.players[settler].vp == 2


def test_red_grocer_vp_per_house() -> None:
    """R-PER-11: or the red Grocer receives 1 VP per house they own at the end of the round, "except ranches,
    hotels and churches" (`000` "Grocer", "Red Side")."""
    g, grocer = red_option_game("grocer", "vp")
    g.clear_board()
    g.put(2, 2, owner=grocer, content="house")
    g.put(3, 3, owner=grocer, content="house")
    g.put(4, 4, owner=grocer, content="ranch")
    g.put(5, 5, owner=grocer, content="hotel")
    g.put(6, 6, owner=grocer, content="church")
    g.put(7, 7, owner=None, content="house")
    g.put(2, 7, owner=grocer, content="mountain")
    g.set_player(grocer, vp=0)
    g.resume_at("end_of_round_vp")
    assert g.state.players[grocer].vp == 2


@pytest.mark.parametrize(("count", "price"), [(1, 3), (2, 9)])
def test_red_captain_buys_revolvers(count: int, price: int) -> None:
    """R-PER-11: the red Captain pays $3 for a revolver or $9 for two, kept until the end of the game (`000`
    "Captain", "Red Side")."""
    g = at_choice(3, sides="red")
    seat = g.to_act[0]
    g.act({"type": "choose_personality", "card": "captain"})
    assert [m["count"] for m in g.moves()] == [0, 1, 2]
    g.act({"type": "buy_revolvers", "count": count})
    assert (g.state.players[seat].money, g.state.players[seat].revolvers) == (15 - price, 1 + count)
    for card in ("sheriff", "mercenary"):
        g.act({"type": "choose_personality", "card": card})
    g.pass_all()
    assert g.state.round == 2
    assert g.state.players[seat].revolvers == 1 + count


def test_red_captain_pays_what_he_can() -> None:
    """R-PER-11: with $5 the red Captain can buy one revolver ($3) but not two ($9) (`000` "Captain", "Red
    Side")."""
    g = at_choice(3, sides="red")
    g.set_player(g.to_act[0], money=5)
    g.act({"type": "choose_personality", "card": "captain"})
    assert [m["count"] for m in g.moves()] == [0, 1]


def test_red_mercenary_two_extra_firepower() -> None:
    """R-PER-11: the red Mercenary has 2 extra firepower points this round (`000` "Mercenary", "Red Side")."""
    g = chosen(("mercenary", "banker", "sheriff"), sides="red")
    mercenary, banker = seat_of(g, "mercenary"), seat_of(g, "banker")
    g.set_player(mercenary, cowboys=2, revolvers=1)
    g.set_player(banker, cowboys=2, revolvers=1)
    fought = duel(g, "three_roads", [mercenary, banker])
    assert firepower_in(fought, mercenary) == 2 + 1 + 2
    assert firepower_in(fought, banker) == 2 + 1
