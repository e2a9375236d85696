"""The table's game log has words for every event the rules core can produce (app/rules/events.py)."""

from __future__ import annotations

from app.rules.events import EVENT_TYPES
from app.web import gamelog
from app.web.pages import game_log


def test_the_game_log_has_words_for_every_event() -> None:
    assert set(gamelog._HANDLERS) == EVENT_TYPES


def test_a_seat_replacement_says_who_took_over_whose_seat_and_its_colour() -> None:
    event = {"type": "seat_replaced", "seat": 1, "previous": "bob", "username": "carl"}
    assert gamelog.Describer(["ann", "carl"]).describe(event) == "carl takes over bob's seat (blue)."


def test_numbers_read_as_words_would_say_them() -> None:
    """No "buys 0 revolvers for $0", no "receives 1 roads" (issue "The table players would switch for", item 6)."""
    d = gamelog.Describer(["ann", "bob"])
    assert d.describe({"type": "revolvers_bought", "seat": 0, "count": 0, "price": 0}) == "ann buys no revolvers."
    assert d.describe({"type": "revolvers_bought", "seat": 0, "count": 1, "price": 3}) == "ann buys 1 revolver for $3."
    assert d.describe({"type": "cowboys_hired", "seat": 1, "count": 2, "price": 4}) == "bob hires 2 cowboys for $4."
    assert d.describe({"type": "roads_gained", "seat": 1, "square": "three_roads", "count": 1}) == (
        "bob receives 1 road.")
    assert d.describe({"type": "cowboys_received", "gains": [{"seat": 0, "count": 4}, {"seat": 1, "count": 1}]}) == (
        "New cowboys: ann 4 cowboys, bob 1 cowboy.")
    assert d.describe({"type": "road_placed", "seat": 0, "x1": 2, "y1": 3, "x2": 3, "y2": 3}) == (
        "ann places a road between (3, 3) and (3, 4).")


def test_the_log_has_a_heading_where_each_round_starts() -> None:
    d = gamelog.Describer(["ann", "bob"])
    start = {"type": "step_completed", "step": "round_end", "next": "personalities"}
    events = [(10, {"type": "player_passed", "seat": 0}), (11, {"type": "round_ended", "round": 2}), (12, start),
              (13, {"type": "player_passed", "seat": 1})]
    lines = game_log(d, events, round_now=3)
    assert [(line.seq, line.text, line.heading) for line in lines] == [
        (13, "bob passes.", False), (12, "Round 3", True), (11, "Round 2 ends.", False), (10, "ann passes.", False)]


def test_an_undo_says_who_took_back_their_move() -> None:
    """API.md "Undo": the log keeps the move and says it was taken back."""
    event = {"type": "move_undone", "seat": 0, "events": 2}
    assert gamelog.Describer(["ann", "bob"]).describe(event) == "ann takes back their move."
