"""The table's game log has words for every event the rules core can produce (app/rules/events.py)."""

from __future__ import annotations

from app.rules.events import EVENTS
from app.web import gamelog


def test_the_game_log_has_words_for_every_event() -> None:
    assert set(gamelog._HANDLERS) == set(EVENTS)
