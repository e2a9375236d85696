"""The event vocabulary (app/rules/events.py) names exactly the events the core can apply, and every game's
first event says which schema version its log uses."""

from __future__ import annotations

from app.rules import GameConfig, new_game
from app.rules.events import EVENTS, SCHEMA_VERSION
from app.rules.evolve import _HANDLERS


def test_every_event_type_is_documented_and_applied() -> None:
    """R-WEB-3: the fold knows every documented event, and nothing undocumented."""
    assert set(EVENTS) == set(_HANDLERS)


def test_first_event_carries_the_schema_version() -> None:
    first = new_game(GameConfig.from_variants(2, {}), 1)[0]
    assert first["type"] == "game_started" and first["schema"] == SCHEMA_VERSION

