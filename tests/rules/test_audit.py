"""`app.rules.audit` (issue 14 "Provably fair dice", docs/fairness.md): replaying a log from its revealed seed
re-decides every move and checks every die, bag draw and shuffle; the first event that does not follow from the
seed is named."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from app.rules import Event, GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.audit import audit
from app.rules.rng import Rng
from app.rules.undo import may_be_undone, move_undone

CASES = [
    (2, {}),
    (3, {"sides": "vote", "might_is_right": True, "new_beginning": True, "river": True}),
    (4, {"expansions": ["gold_and_guns", "outlaws"], "sides": "random"}),
]


def _finished(
    players: int, variants: dict[str, Any], seed: int, server_event: tuple[int, Event] | None = None
) -> tuple[GameConfig, list[Event], int]:
    """A complete random game: its configuration, its log and how many moves were made; with `server_event`
    (after how many moves, which event) the server appends an event of its own in between, as it does live."""
    config = GameConfig.from_variants(players, variants, preview=True)
    chooser = random.Random(seed)
    events = new_game(config, seed)
    state = replay(events)
    moves = 0
    while state.status != "finished":
        if server_event is not None and moves == server_event[0]:
            events.append(server_event[1])
            state = replay([server_event[1]], state)
        seat = chooser.choice(to_act(state))
        new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
        events += new
        moves += 1
    return config, events, moves


@pytest.mark.parametrize(("players", "variants"), CASES, ids=["base", "all-variants", "gold-and-guns+outlaws"])
def test_a_finished_game_verifies_against_its_seed(players: int, variants: dict[str, Any]) -> None:
    """Every move is found again and every event matches: the audit ends in the game's own final state."""
    seed = 2**255 + 12345  # a 32-byte seed's number
    config, events, moves = _finished(players, variants, seed)
    result = audit(config, seed, events)
    assert result.ok, result.discrepancy
    assert result.moves == moves
    assert result.state == replay(events)


def _first(events: list[Event], kind: str, after: int = 0) -> int:
    return next(i for i, e in enumerate(events) if e["type"] == kind and i >= after)


def _change_a_die(event: dict[str, Any]) -> None:
    """Turn one die of `event` (a duel's roll, an income's or the setup's dice) to another face."""
    if event["type"] == "duel_fought":
        duelist = next(d for d in event["duelists"] if "roll" in d)
        duelist["roll"] = duelist["roll"] % 6 + 1
        return
    dice = event["dice"]
    row = dice[0] if isinstance(dice[0], list) else dice
    row[0] = row[0] % 6 + 1


def test_one_changed_die_is_named() -> None:
    """One die changed — in the setup, in a duel, in Gambling income — makes the audit fail at that event and
    say what the seed gives there."""
    seed = 424245  # a game with both (the random players' games change with the moves listed, decision D106)
    config, events, _ = _finished(4, {}, seed)
    duels = [i for i, e in enumerate(events) if e["type"] == "duel_fought" and any("roll" in d for d in e["duelists"])]
    gambling = [i for i, e in enumerate(events) if e["type"] == "money_gained" and e.get("dice")]
    assert duels and gambling, "a 4-player game has duels and Gambling income"
    for index in (2, duels[0], duels[-1], gambling[len(gambling) // 2]):
        tampered: list[Any] = copy.deepcopy(events)
        _change_a_die(tampered[index])
        result = audit(config, seed, tampered)
        assert result.discrepancy is not None
        assert result.discrepancy.seq == index + 1, (index, result.discrepancy)
        assert events[index]["type"] in result.discrepancy.reason


def test_a_changed_bag_draw_or_shuffle_is_named() -> None:
    """A building drawn from the bag other than the seed's, or another turn order: named at that event."""
    seed = 778  # a game with a refill drawn from the bag after the first round
    config, events, _ = _finished(3, {}, seed)
    index = next(i for i, e in enumerate(events) if e["type"] == "construction_refilled" and i > 10 and e["drawn"])
    tampered: list[Any] = copy.deepcopy(events)
    drawn = tampered[index]["drawn"]
    drawn[0] = "church" if drawn[0] != "church" else "bank"
    result = audit(config, seed, tampered)
    assert result.discrepancy is not None and result.discrepancy.seq == index + 1
    assert "drawn" in result.discrepancy.reason
    shuffled: list[Any] = copy.deepcopy(events)
    shuffled[1]["order"] = shuffled[1]["order"][::-1]
    result = audit(config, seed, shuffled)
    assert result.discrepancy is not None and result.discrepancy.seq == 2
    assert "setup" in result.discrepancy.reason


def test_another_seed_does_not_verify() -> None:
    """The log of one seed fails against any other: the setup's first random result already differs."""
    config, events, _ = _finished(2, {}, 31337)
    result = audit(config, 31338, events)
    assert not result.ok and result.discrepancy is not None and result.discrepancy.seq <= 3


def test_events_the_server_writes_itself_are_folded_and_nothing_after_the_end() -> None:
    """A seat handed to another player (`seat_replaced`) draws nothing: the audit folds it and goes on. An event
    after the end of the game follows from no move."""
    seed = 99
    handover: Event = {"type": "seat_replaced", "seat": 1, "previous": "bob", "username": "cid"}
    config, events, _ = _finished(2, {}, seed, server_event=(20, handover))
    assert handover in events
    assert audit(config, seed, events).ok
    result = audit(config, seed, [*events, {"type": "player_passed", "seat": 0}])
    assert result.discrepancy is not None and result.discrepancy.seq == len(events) + 1
    assert "after the end" in result.discrepancy.reason


def test_a_log_cut_inside_a_move_names_the_first_missing_event() -> None:
    """A log that stops in the middle of a move's events is not what any move makes: the audit names the first
    event the log lacks."""
    seed = 5
    config, events, _ = _finished(2, {}, seed)
    cut = next(n for n in range(41, len(events)) if not audit(config, seed, events[:n]).ok)
    result = audit(config, seed, events[:cut])
    assert result.discrepancy is not None and result.discrepancy.seq == cut + 1
    assert "log ends" in result.discrepancy.reason


def test_a_game_with_undos_verifies() -> None:
    """Undo (decision D83) with the fair dice: a taken-back move stays in the log and was itself made from the
    seed; the audit returns to the state before it, as the fold does, and goes on verifying the moves after it."""
    seed, chooser = 41, random.Random(41)
    config = GameConfig.from_variants(3, {"expansions": ["gold_and_guns", "outlaws"]})
    events = new_game(config, seed)
    state = replay(events)
    undos = 0
    while state.status != "finished":
        seat = chooser.choice(to_act(state))
        rng = Rng(seed, state.seq)
        new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), rng)
        events += new
        if may_be_undone(new, rng.draws) and chooser.random() < 0.3:
            events.append(move_undone(seat, len(new)))
            state = replay(events)
            undos += 1
    assert undos > 5
    result = audit(config, seed, events)
    assert result.ok, result.discrepancy
    assert result.state == state
