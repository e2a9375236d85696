"""The table's game log has words for every event the rules core can produce (app/rules/events.py)."""

from __future__ import annotations

from app.rules.events import EVENT_TYPES
from app.web import gamelog


def test_the_game_log_has_words_for_every_event() -> None:
    assert set(gamelog._HANDLERS) == EVENT_TYPES


def test_a_seat_replacement_says_who_took_over_whose_seat_and_its_colour() -> None:
    event = {"type": "seat_replaced", "seat": 1, "previous": "bob", "username": "carl"}
    assert gamelog.Describer(["ann", "carl"]).describe(event) == "carl takes over bob's seat (blue)."
