"""The event vocabulary (app/rules/events.py) names exactly the events the core can apply, and every game's
first event says which schema version its log uses."""

from __future__ import annotations

from app.rules import GameConfig, evolve, legal_moves, new_game, replay
from app.rules.events import EVENTS, SCHEMA_VERSION
from app.rules.evolve import _HANDLERS
from app.rules.model import replace


def test_every_event_type_is_documented_and_applied() -> None:
    """R-WEB-3: the fold knows every documented event, and nothing undocumented."""
    assert set(EVENTS) == set(_HANDLERS)


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
