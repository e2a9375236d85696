"""The event vocabulary (app/rules/events.py) names exactly the events the core can apply, describes the shape of
every event it produces, and every game's first event says which schema version its log uses."""

from __future__ import annotations

import random
from typing import Any, get_args, get_type_hints

import pytest

from app.rules import GameConfig, evolve, legal_moves, new_game, play, replay, to_act
from app.rules.events import EVENT_TYPES, SCHEMA_VERSION, Event
from app.rules.evolve import _HANDLERS
from app.rules.model import replace
from app.rules.rng import Rng

SHAPES: dict[str, Any] = {get_args(get_type_hints(shape)["type"])[0]: shape for shape in get_args(Event)}


def test_every_event_type_is_documented_and_applied() -> None:
    """R-WEB-3: the fold knows every event of the vocabulary, and nothing else."""
    assert set(_HANDLERS) == EVENT_TYPES


def test_every_event_type_has_one_documented_shape() -> None:
    """R-WEB-3: each name of `EventType` has exactly one typed dict in the `Event` union, with a sentence that
    says what happened (the names mypy checks the tables against are the shapes the core builds)."""
    assert len(SHAPES) == len(get_args(Event)) and set(SHAPES) == EVENT_TYPES
    assert all(shape.__doc__ for shape in SHAPES.values())


def test_each_handler_takes_the_event_it_is_applied_to() -> None:
    """R-WEB-3: a handler registered for an event type declares that event's typed dict, so mypy checks the
    fields it reads against what the event carries."""
    wrong = {name: hints["e"] for name, handler in _HANDLERS.items()
             if (hints := get_type_hints(handler))["e"] is not SHAPES[name]}
    assert wrong == {}


@pytest.mark.parametrize(("players", "variants"), [
    (4, {}), (2, {"sides": "red"}), (3, {"sides": "vote", "might_is_right": True}),
    (3, {"river": True, "sides": "random"}), (5, {"new_beginning": True}),
    (3, {"new_beginning": True, "might_is_right": True, "river": True}),
])
def test_every_event_produced_has_its_documented_fields(players: int, variants: dict[str, Any]) -> None:
    """R-WEB-3: in whole random games, every event carries all the required fields of its shape and no field
    its shape does not name, so the typed dicts describe the stored logs as they are."""
    seen: set[str] = set()
    for seed in range(3):
        chooser = random.Random(seed)
        events = new_game(GameConfig.from_variants(players, variants), seed)
        state = replay(events)
        while state.status != "finished":
            seat = chooser.choice(to_act(state))
            new, state = play(state, seat, chooser.choice(legal_moves(state, seat)), Rng(seed, state.seq))
            events += new
        for event in events:
            shape = SHAPES[event["type"]]
            assert shape.__required_keys__ <= event.keys() <= shape.__required_keys__ | shape.__optional_keys__, event
            seen.add(event["type"])
    assert len(seen) > 30


def test_first_event_carries_the_schema_version() -> None:
    first = new_game(GameConfig.from_variants(2, {}), 1)[0]
    assert first["type"] == "game_started" and first["schema"] == SCHEMA_VERSION



def test_a_seat_replacement_changes_nothing_in_the_game_but_its_seq() -> None:
    """R-WEB-3 (replay gives the same state) with the admin's seat replacement (issue "Hardening", item 10):
    who sits in a seat is the server's business, so the event only moves the log on."""
    state = replay(new_game(GameConfig.from_variants(2, {}), 5))
    after = evolve(state, {"type": "seat_replaced", "seat": 1, "previous": "bob", "username": "carl"})
    assert after.seq == state.seq + 1
    assert replace(after, seq=state.seq) == state
    for seat in (0, 1):
        assert legal_moves(after, seat) == legal_moves(state, seat)
