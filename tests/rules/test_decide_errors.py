"""The rules core's part of R-WEB-1: only awaited seats may move, a move outside `legal_moves` is refused with a
stable code and a sentence, and a refused move changes nothing (STYLE "Habits" 2 and 7: `decide` validates and
may raise, `evolve` applies and never fails; a command returns the new state and events or an error, never a
half-changed state)."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

import app.rules
from app.rules import IllegalMove, decide, is_legal, legal_moves, replay, to_act
from app.rules.errors import IllegalMoveCode
from tests.rules.builders import SEED, Game

CARDS = ("sheriff", "banker", "chinese_worker")


def placing() -> Game:
    g = Game(3)
    g.claim_starts()
    g.choose(CARDS)
    return g


def refused(g: Game, seat: int, move: Any) -> IllegalMove:
    """Submit an illegal move; check that it changed nothing and return the error."""
    before = g.state
    legal_before = {s: legal_moves(before, s) for s in range(len(before.players))}
    log = list(g.events)
    with pytest.raises(IllegalMove) as error:
        g.move(seat, move)
    assert g.state is before and g.events == log
    assert replay(g.events) == before
    assert {s: legal_moves(before, s) for s in range(len(before.players))} == legal_before
    assert error.value.code and error.value.message
    assert str(error.value) == f"{error.value.code}: {error.value.message}"
    return error.value


# --- only awaited seats ----------------------------------------------------------------------------------------


def test_only_the_awaited_seat_may_claim_a_starting_parcel() -> None:
    """R-WEB-1: during the draft only the player whose turn it is may move (RULING B19); the others are refused
    with "not_your_turn", naming the awaited seat."""
    g = Game(3)
    (awaited,) = g.to_act
    for seat in range(3):
        if seat != awaited:
            assert legal_moves(g.state, seat) == []
            error = refused(g, seat, {"type": "claim_parcel", "x": 1, "y": 1})
            assert error.code == "not_your_turn"
            assert str(awaited) in error.message


def test_only_the_awaited_seat_may_place() -> None:
    """R-WEB-1: in placement only the player whose turn it is may place or pass (`000` "Cowboy Placement")."""
    g = placing()
    (awaited,) = g.to_act
    for seat in range(3):
        if seat != awaited:
            assert refused(g, seat, {"type": "pass"}).code == "not_your_turn"
    assert refused(g, 7, {"type": "pass"}).code == "not_your_turn"  # no such seat


def test_a_card_decision_belongs_to_the_card_holder() -> None:
    """R-WEB-1: the Grocer's choice is awaited from the Grocer only (`000` "Grocer")."""
    g = Game(3)
    g.claim_starts()
    g.act({"type": "choose_personality", "card": "grocer"})
    (grocer,) = g.to_act
    assert g.awaiting == "grocer"
    other = (grocer + 1) % 3
    assert refused(g, other, {"type": "grocer_choice", "option": "money_now"}).code == "not_your_turn"
    assert refused(g, other, {"type": "choose_personality", "card": "banker"}).code == "not_your_turn"


def test_nobody_moves_in_a_finished_game() -> None:
    """R-WEB-1: once the game is over no move is accepted (RULING B17)."""
    g = placing()
    g.with_state(step="finished")
    before = g.state
    assert to_act(before) == () and legal_moves(before, 0) == []
    with pytest.raises(IllegalMove) as error:
        g.move(0, {"type": "pass"})
    assert error.value.code == "game_finished"
    assert g.state is before


# --- moves outside legal_moves ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("move", "code"), [
    ({"type": "choose_personality", "card": "banker"}, "wrong_decision"),
    ({"type": "place_cowboy", "x": 0, "y": 3}, "no_such_parcel"),
    ({"type": "place_cowboy", "x": 9, "y": 3}, "no_such_parcel"),
    ({"type": "place_cowboy", "square": "nowhere"}, "illegal_move"),
    ({"type": "teleport"}, "wrong_decision"),
    ({"x": 1}, "malformed_move"),
    ({"type": 3}, "malformed_move"),
    ("pass", "malformed_move"),
    (None, "malformed_move"),
])
def test_a_move_not_listed_is_refused_with_a_code(move: Any, code: str) -> None:
    """R-WEB-1: a move outside `legal_moves` raises IllegalMove with a stable code and a sentence for people
    (STYLE "Habits" 7)."""
    g = placing()
    assert refused(g, g.to_act[0], move).code == code


def test_a_move_on_an_owned_parcel_names_the_reason() -> None:
    """R-WEB-1: claiming a parcel that is taken is refused as "parcel_taken" (RULING B19)."""
    g = Game(3)
    g.act({"type": "claim_parcel", "x": 2, "y": 2})
    assert refused(g, g.to_act[0], {"type": "claim_parcel", "x": 2, "y": 2}).code == "parcel_taken"


def test_an_amount_not_offered_is_refused() -> None:
    """R-WEB-1: the Captain cannot hire 4 cowboys (`000` "Captain": 1, 2 or 3)."""
    g = Game(3)
    g.claim_starts()
    g.act({"type": "choose_personality", "card": "captain"})
    assert refused(g, g.to_act[0], {"type": "hire_cowboys", "count": 4}).code == "amount_not_allowed"


@pytest.mark.parametrize("move", [
    {"type": "claim_parcel", "x": True, "y": 1},  # true is not 1
    {"type": "claim_parcel", "x": 1.0, "y": 1},
    {"type": "claim_parcel", "x": "1", "y": 1},
    {"type": "claim_parcel", "x": 1, "y": 1, "extra": 0},
    {"type": "claim_parcel", "x": 1},
])
def test_a_move_must_match_a_listed_move_exactly(move: dict[str, Any]) -> None:
    """R-WEB-1: only the listed moves are accepted, value for value and type for type; `is_legal` agrees with
    `decide`."""
    g = Game(3)
    assert {"type": "claim_parcel", "x": 1, "y": 1} in g.moves()
    assert not is_legal(g.state, g.to_act[0], move)
    refused(g, g.to_act[0], move)


# --- a refused move changes nothing; decide is pure ------------------------------------------------------------


def test_the_state_stays_valid_after_a_refused_move() -> None:
    """R-WEB-1: after a refused move the same state object is still the game (STYLE "Habits" 2): the awaited
    seat's legal move is then accepted, and the log replays to the state reached."""
    g = placing()
    seat = g.to_act[0]
    refused(g, seat, {"type": "place_cowboy", "x": 9, "y": 9})
    refused(g, (seat + 1) % 3, {"type": "pass"})
    g.act({"type": "place_cowboy", "square": "ammunition"})
    assert replay(g.events) == g.state


def test_decide_is_pure() -> None:
    """R-WEB-1: `decide` returns events and changes nothing: the same state, seat, move and seed give the same
    events every time, and folding them onto the state gives what `play` gives (STYLE "Habits" 2)."""
    g = placing()
    state, seat = g.state, g.to_act[0]
    snapshot = replay(g.events)
    move = {"type": "place_cowboy", "square": "ammunition"}
    first = decide(state, seat, move, SEED)
    second = decide(state, seat, dict(move), SEED)
    assert first == second and first
    assert state == snapshot  # nothing changed in the state decided on
    assert legal_moves(state, seat) == legal_moves(snapshot, seat)
    new = g.move(seat, move)
    assert new == first
    assert replay(g.events) == g.state


def test_a_refused_move_inside_decide_produces_nothing() -> None:
    """R-WEB-1: `decide` raises before producing any event for an illegal move or a seat not awaited."""
    g = placing()
    seat = g.to_act[0]
    snapshot = replay(g.events)
    for who, move in ((seat, {"type": "place_cowboy", "x": 9, "y": 9}), ((seat + 1) % 3, {"type": "pass"})):
        with pytest.raises(IllegalMove):
            decide(g.state, who, move, SEED)
    assert g.state == snapshot


def test_a_duel_tile_not_held_is_refused_with_its_code() -> None:
    """R-WEB-1: a Might Is Right tile one does not hold is refused clearly (RULING V2)."""
    g = Game(2, might_is_right=True)
    g.claim_starts()
    g.choose(["banker", "mercenary"])
    g.set_player(0, tiles=(1,))
    g.set_player(1, tiles=(2, 3))
    g.place_cowboys(square="ammunition", seats=[0, 1])
    g.resume_at("ammunition", (0, 1))
    assert g.awaiting == "duel_tile" and g.to_act == (1,)
    with pytest.raises(IllegalMove) as refused:
        g.move(1, {"type": "play_tile", "tile": 5})
    assert refused.value.code == "tile_not_in_hand"


# --- the codes ---------------------------------------------------------------------------------------------------


def test_the_core_refuses_only_with_codes_of_its_vocabulary() -> None:
    """R-WEB-1 (STYLE "Habits" 7, stable codes): no IllegalMove in the core is made with a code written as a string
    where it is raised; each names a member of IllegalMoveCode (which mypy checks), so the codes clients rely on
    are listed in one place."""
    inline = []
    for path in sorted(Path(app.rules.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "IllegalMove":
                code = node.args[0] if node.args else node.keywords[0].value
                if isinstance(code, ast.Constant | ast.JoinedStr):
                    inline.append(f"{path.name}:{node.lineno}")
    assert inline == []


def test_a_code_is_its_stable_string_on_the_wire() -> None:
    """R-WEB-1: a code is a member of the vocabulary, and compares and serialises as the plain string clients
    have always received."""
    g = placing()
    error = refused(g, g.to_act[0], {"type": "teleport"})
    assert error.code is IllegalMoveCode.WRONG_DECISION
    assert error.code == "wrong_decision" and json.dumps({"code": error.code}) == '{"code": "wrong_decision"}'
