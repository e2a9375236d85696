"""No one waits for a choice that is not one (API.md "Further additions", issue 26; decisions D1, D31, D106-D109).

Property tests over seeded random complete games of every expansion and variant, 2 to 6 players, with each seat's
answers ahead drawn at random: a seat is never awaited with exactly one legal move unless that move is a secret's
(a Might Is Right hand of several tiles, D31; a secret basket, which in fact always offers two moves or more),
nor at a decision it answered ahead; every move made for a seat is marked in the log; and no move made for a seat
lets any viewer learn anything hidden — whether it is made, and what a viewer sees of it, are the same whatever
that viewer cannot see (the other seats' tiles, chosen tiles, votes and baskets, the bag: `_scrambled_for`).
Rule tests for each answer follow, citing their sources.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import Event, GameConfig, GameState, legal_moves, new_game, play, redact_event, replay, to_act
from app.rules.audit import audit
from app.rules.automatic import (
    ANSWERED,
    ASK,
    CASH_LIMIT_ANSWERS,
    OUTSIDE_THE_LOG,
    PERMISSION_ANSWERS,
    Answers,
    CashLimitAnswer,
    PermissionAnswer,
    asking_keeps_a_secret,
    automatic_move,
)
from app.rules.board import parcel_index
from app.rules.decide import advance
from app.rules.decisions import Decision
from app.rules.duels import purchase_singles
from app.rules.evolve import evolve
from app.rules.flow import awaiting
from app.rules.model import Cowboy, replace
from app.rules.registry import MOVES
from app.rules.rng import Rng
from tests.rules.builders import Game, events_of
from tests.rules.invariants import _scrambled_for, check_invariants
from tests.rules.scenarios import ready, seat_of
from tests.rules.test_construction import permission_town

ALL_BASE = {"sides": "vote", "might_is_right": True, "river": True, "new_beginning": True}
GG = ["gold_and_guns"]
# Every expansion and variant, alone and together, from 2 to 6 players.
CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {"sides": "yellow"}), (3, {"sides": "red"}), (4, {"sides": "random"}), (5, {"sides": "vote"}),
    (2, {"might_is_right": True}), (4, {"might_is_right": True}), (3, {"river": True}),
    (3, {"new_beginning": True}), (2, {"new_beginning": True, "might_is_right": True}), (4, ALL_BASE),
    (3, {"expansions": GG, "sides": "random"}), (5, {"expansions": GG, "river": True}),
    (3, {"expansions": GG, "characters": [1, 2, 3, 7, 9, 10, 13], "sides": "red", "might_is_right": True}),
    (4, {"expansions": GG, "characters": [1, 2, 4, 6, 8, 12, 13], "sides": "yellow"}),
    (4, {"expansions": [*GG, "outlaws"], "characters": [1, 2, 3, 6, 7, 11, 14]}),
    (3, {"expansions": ["outlaws"], "might_is_right": True}),
    (4, {**ALL_BASE, "expansions": [*GG, "outlaws"]}),
    (2, {"expansions": ["big_box"], "horses": True, "kit_carson": True}),
    (6, {"expansions": ["big_box"], "horses": True, "characters": [0, 1, 2, 3, 5, 6, 16, 17]}),
    (6, {"expansions": [*GG, "outlaws", "big_box"], "horses": True, "kit_carson": True, "sides": "random",
         "might_is_right": True}),
    (5, {"expansions": ["big_box", "outlaws"], "horses": True, "river": True, "new_beginning": True,
         "sides": "vote", "characters": [0, 2, 5, 7, 15, 16, 17, 4]}),
]
IDS = [f"{players}p-" + "+".join(f"{k}={v}" for k, v in sorted(variants.items()) if k != "characters")
       for players, variants in CASES]
# The decisions a seat may answer ahead, and whether its answers cover one (a purchase answered with the cowboy is
# in the state; the others come from the seat's settings).
_ANSWERED_AHEAD = {Decision.PERMISSION, Decision.CASH_LIMIT, Decision.BUY_PARCEL}


def _random_answers(players: int, chooser: random.Random) -> Answers:
    return Answers(permission=tuple(chooser.choice(PERMISSION_ANSWERS) for _ in range(players)),
                   cash_limit=tuple(chooser.choice(CASH_LIMIT_ANSWERS) for _ in range(players)))


def _answered(s: GameState, seat: int, kind: Decision, answers: Answers) -> bool:
    """Whether `seat` answered ahead the decision `kind` it is awaited at in `s`."""
    if kind == Decision.PERMISSION:
        return answers.permission_of(seat) != "ask"
    if kind == Decision.CASH_LIMIT:
        return answers.cash_limit_of(seat) != "ask"
    if kind == Decision.BUY_PARCEL:
        return any(c.buy for i in purchase_singles(s, seat) for c in s.parcel_cowboys[i] if c.seat == seat)
    return False


def _check_awaited(s: GameState, answers: Answers) -> int:
    """Nobody is awaited for a single move (unless asking hides a hand) nor for what they answered ahead; the
    number of awaited seats that do have a choice."""
    waiting = awaiting(s)
    if waiting is None:
        return 0
    for seat in waiting.seats:
        moves = legal_moves(s, seat)
        assert len(moves) != 1 or asking_keeps_a_secret(s, seat, moves[0]), (waiting, seat, moves)
        if waiting.kind in _ANSWERED_AHEAD:
            assert not _answered(s, seat, waiting.kind, answers), (waiting, seat)
    return len(waiting.seats)


def _seen_by(s: GameState, viewer: int | None, answers: Answers) -> tuple[object, ...] | None:
    """What `viewer` learns from the move made for a seat in `s`: whose it is, why, and its events as the viewer
    sees them (None when no move is made for anyone)."""
    waiting = awaiting(s)
    if waiting is None:
        return None
    made = automatic_move(s, waiting, answers)
    if made is None:
        return None
    seat, move, why = made
    events = MOVES[move["type"]](s, seat, move, Rng(1, 1), waiting.kind)
    return seat, why, [redact_event(e, viewer) for e in events]


def _check_nothing_learnt(before: GameState, events: list[Any], answers: Answers) -> int:
    """At every state a move's events pass through, the move made for a seat there (if any) is the same, as each
    other viewer sees it, in the state with that viewer's unknowns changed; the number of such moves."""
    s, made = before, 0
    for event in events:
        if "automatic" in event:
            made += 1
            for viewer in (None, *range(len(s.players))):
                if viewer == event.get("seat"):
                    continue
                assert _seen_by(s, viewer, answers) == _seen_by(_scrambled_for(s, viewer), viewer, answers), (
                    f"a move made for seat {event.get('seat')} tells viewer {viewer} something hidden: {event}")
        s = evolve(s, event)
    return made


@pytest.mark.parametrize(("players", "variants"), CASES, ids=IDS)
def test_no_seat_waits_for_a_choice_that_is_not_one(players: int, variants: dict[str, Any]) -> None:
    """D1 (RULING B10 "the player is asked only where there is a choice"), D31 (RULING V2), D106-D108: in random
    complete games with random answers ahead, after every decision no awaited seat has exactly one legal move
    (a Might Is Right hand of several tiles aside) or a decision it answered ahead; every move made for a seat is
    noted (`automatic`) and tells no viewer anything hidden; the log replays to the game and verifies against its
    seed."""
    chooser = random.Random(f"automatic-{players}-{sorted(variants.items(), key=str)}")
    config = GameConfig.from_variants(players, variants, preview=True)
    made = 0
    for _ in range(2):
        seed = chooser.randrange(10**15, 10**16)
        answers = _random_answers(players, chooser)
        events = new_game(config, seed)
        state = replay(events)
        while state.status != "finished":
            _check_awaited(state, answers)
            seat = chooser.choice(to_act(state))
            before = state
            new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq), answers)
            made += _check_nothing_learnt(before, new, answers)
            check_invariants(state)
            events += new
        assert replay(events) == state
        assert audit(config, seed, events).ok
    assert made > 0


# --- the answers, rule by rule ---------------------------------------------------------------------------------


def _resume(g: Game, step: str, answers: Answers) -> list[Event]:
    """`Game.resume_at` with the seats' answers ahead: jump to `step` of the round, everyone passed."""
    players = tuple(replace(p, passed=True) for p in g.state.players)
    g.with_state(step=step, players=players, passing_order=g.state.placement_order, turn=None)
    new, g.state = advance(g.state, Rng(g.seed, g.state.seq), answers)
    g.events += new
    return new


def _with_cowboys(g: Game, cowboys: dict[tuple[int, int], Cowboy]) -> None:
    g.with_state(parcel_cowboys={parcel_index(x, y): (c,) for (x, y), c in cowboys.items()})


def test_d106_the_placement_offers_each_owner_free_parcel_with_its_purchase_answered_ahead() -> None:
    """R-PLA-4, R-ACT-5, D106: every placement on an owner-free parcel is offered once more with "buy it if I win
    and can pay" (`buy`), none on a building; the placed cowboy carries the answer, shown to everyone."""
    g = ready()
    seat = g.to_act[0]
    moves = g.moves()
    plain = {(m["x"], m["y"]) for m in moves if m["type"] == "place_cowboy" and "x" in m and not m.get("buy")}
    ahead = {(m["x"], m["y"]) for m in moves if m.get("buy")}
    land = {(x, y) for x, y in plain if g.state.parcels[parcel_index(x, y)].owner is None}
    assert ahead == land and land
    x, y = sorted(ahead)[0]
    placed = g.act({"type": "place_cowboy", "x": x, "y": y, "buy": True})
    assert placed[0] == {"type": "cowboy_placed", "seat": seat, "white": False, "x": x, "y": y, "buy": True}
    assert g.state.parcel_cowboys[parcel_index(x, y)] == (Cowboy(seat, buy=True),)
    assert redact_event(placed[0], (seat + 1) % 3) == placed[0]  # no secret (D106)


def test_d106_a_parcel_won_with_its_purchase_answered_ahead_is_bought_without_asking() -> None:
    """R-ACT-5, D106: a lone cowboy placed with "buy it if I win and can pay" buys its parcel at the parcel
    purchases when its player can pay, without the game waiting for them; the log says it was answered ahead
    (`000` "Parcel purchase")."""
    g = ready()
    g.clear_board()
    g.set_player(0, money=20)
    _with_cowboys(g, {(4, 4): Cowboy(0, buy=True)})
    events = _resume(g, "parcel_purchase", ASK)
    assert events_of(events, "parcel_bought") == [
        {"type": "parcel_bought", "seat": 0, "x": 4, "y": 4, "price": 1, "automatic": "answered_ahead"}]
    assert g.state.parcels[parcel_index(4, 4)].owner == 0 and g.state.players[0].money == 19
    assert g.awaiting != "buy_parcel"


def test_d106_a_purchase_answered_ahead_that_cannot_be_paid_is_declined_and_the_rest_is_asked() -> None:
    """R-ACT-5, D106: "if I can pay" — a parcel its player cannot pay for is declined for them; their other lone
    parcel, placed without an answer, is still theirs to decide (RULING B10)."""
    g = ready()
    g.clear_board()
    g.put(5, 5, content="house")  # (4, 4) costs $2; (8, 8) costs $1
    g.set_player(0, money=1)
    _with_cowboys(g, {(4, 4): Cowboy(0, buy=True), (8, 8): Cowboy(0)})
    events = _resume(g, "parcel_purchase", ASK)
    assert events_of(events, "parcel_purchase_declined") == [
        {"type": "parcel_purchase_declined", "seat": 0, "x": 4, "y": 4, "automatic": "answered_ahead"}]
    assert (g.awaiting, g.to_act) == ("buy_parcel", (0,))
    assert {(m["type"], m["x"], m["y"]) for m in g.moves()} == {("buy_parcel", 8, 8), ("decline_parcel", 8, 8)}


@pytest.mark.parametrize(("answer", "given", "vp"), [("least", 27, 2), ("round_up", 30, 3)])
def test_d107_the_cash_limit_is_given_up_as_the_settings_say(answer: CashLimitAnswer, given: int, vp: int) -> None:
    """R-END-3, D107: above the cash limit, a player who chose it in their settings gives up the excess only
    (`least`) or the excess rounded up to the next $10 (`round_up`), without being asked; 1 VP per $10 (`000`
    "End of Round", RULING B16). The yellow Sheriff's limit is $20."""
    g = ready()
    sheriff = seat_of(g, "sheriff")
    g.set_player(sheriff, money=47, vp=0)
    cash = ["ask"] * 3
    cash[sheriff] = answer
    events = _resume(g, "cash_limit", Answers(cash_limit=tuple(cash)))
    assert events_of(events, "money_given_up") == [
        {"type": "money_given_up", "seat": sheriff, "amount": given, "vp": vp, "automatic": "answered_ahead"}]
    assert g.awaiting != "cash_limit"
    assert (g.state.players[sheriff].money, g.state.players[sheriff].vp) == (47 - given, vp)


def test_d109_a_move_answered_ahead_draws_what_its_players_own_move_would_have_drawn() -> None:
    """R-WEB-3, D109: the end of the round after the cash limit draws from the bag; answered ahead or by hand,
    the same amount gives the same log (but for the note), so the audit finds the seed's draws either way."""
    by_hand, ahead = ready(), ready()
    for g in (by_hand, ahead):
        g.set_player(seat_of(g, "sheriff"), money=47)
    _resume(by_hand, "cash_limit", ASK)
    assert by_hand.awaiting == "cash_limit"
    moved = by_hand.act({"type": "give_up_money", "amount": 27})
    cash = ["least" if seat == seat_of(ahead, "sheriff") else "ask" for seat in range(3)]
    answered = _resume(ahead, "cash_limit", Answers(cash_limit=tuple(cash)))
    assert events_of(moved, "construction_refilled"), "the round's end draws from the bag"
    tail = answered[len(answered) - len(moved):]
    assert tail[0].pop("automatic") == "answered_ahead"
    assert tail == moved


@pytest.mark.parametrize("answer", ["allow", "deny"])
def test_d108_a_standing_answer_answers_a_permission_request_at_once(answer: PermissionAnswer) -> None:
    """R-CON-6, D108: a player whose standing answer is `allow` grants every parcel asked about, parcel by
    parcel, and `deny` denies them all, in the request's own write; the builder decides next (RULING B12)."""
    g = permission_town()
    new, g.state = play(g.state, 0, {"type": "ask_permission", "seat": 1}, Rng(g.seed, g.state.seq),
                        Answers(permission=("ask", answer, "ask")))
    assert (g.awaiting, g.to_act) == ("construct", (0,))
    if answer == "allow":
        assert [(e["type"], e.get("granted"), e.get("automatic")) for e in new[1:]] == [
            ("permission_answered", True, "standing_answer")] * 2
        assert g.state.work is not None and len(g.state.work.granted) == 2
    else:
        assert new[1:] == [{"type": "permission_denied_rest", "seat": 1, "automatic": "standing_answer"}]
        assert g.state.work is not None and not g.state.work.granted


def test_d108_a_player_who_is_asked_answers_themselves() -> None:
    """R-CON-6, D108: `ask` (the default) keeps the request waiting for its player, as RULING B12 says."""
    g = permission_town()
    new, g.state = play(g.state, 0, {"type": "ask_permission", "seat": 1}, Rng(g.seed, g.state.seq),
                        Answers(permission=("allow", "ask", "deny")))
    assert (g.awaiting, g.to_act) == ("permission", (1,)) and len(new) == 1


def test_every_decision_answered_ahead_has_its_answer_and_outside_the_log_only_settings() -> None:
    """The table of answers is complete: the three decisions of issue 26 (a purchase, the cash limit, permission),
    and only the settings' ones are read outside the log."""
    assert set(ANSWERED) == {Decision.BUY_PARCEL, Decision.CASH_LIMIT, Decision.PERMISSION}
    assert {Decision.CASH_LIMIT, Decision.PERMISSION} == OUTSIDE_THE_LOG


def test_d31_a_secret_is_asked_for_even_with_one_choice() -> None:
    """R-VAR-3, R-VAR-8, D31: a Might Is Right hand of several tiles, and any move of a secret basket, are never
    made for the player (RULINGS V2, V4: their number would tell what is hidden); a lone tile is."""
    g = Game(2, might_is_right=True, new_beginning=True)
    assert g.awaiting == "shopping"
    for move in g.moves(0):
        assert asking_keeps_a_secret(g.state, 0, move)
    assert len(g.state.players[0].tiles) > 1
    assert asking_keeps_a_secret(g.state, 0, {"type": "play_tile", "tile": g.state.players[0].tiles[0]})
    g.set_player(0, tiles=(3,))
    assert not asking_keeps_a_secret(g.state, 0, {"type": "play_tile", "tile": 3})
