"""Every move type of the vocabulary has its words on the table, and every event type its sentence in the log,
each from one table keyed by type: a type without an entry raises instead of showing its name. The words, the help,
the score's headings and the templates' words about the rules take their prices, incomes and VP from the catalog,
never typed again in the web layer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from jinja2.ext import babel_extract

from app.notify import gamelog
from app.rules import GameConfig, new_game, player_view, replay
from app.rules.decisions import Decision
from app.rules.events import EVENT_TYPES
from app.rules.moves import MOVE_TYPES
from app.web import guide, labels, present

ROOT = Path(__file__).resolve().parents[2]
# Names that hold a digit, not an amount: the chips named by what is printed on them ("the 3-guns chip"), and the
# site's bots (bot-1, bot-2, …).
NAMES = re.compile(r"3-guns chip|3-revolvers chip|bot-\d")


def _doc(**more: Any) -> dict[str, Any]:
    """A real state document of a new three-player game, as seat 0 sees it."""
    state = replay(new_game(GameConfig.from_variants(players=3, variants={}, preview=True), 7))
    return {**player_view(state, 0, game_id=1, usernames=["ann", "bob", "cy"]), **more}


def test_every_move_type_has_its_words() -> None:
    assert set(labels.MOVE_LABELS) == MOVE_TYPES


def test_every_event_type_has_its_sentence() -> None:
    assert set(gamelog.EVENT_SENTENCES) == EVENT_TYPES


def test_a_move_type_outside_the_vocabulary_has_no_words() -> None:
    with pytest.raises(KeyError):
        labels.Labeller(_doc()).label({"type": "jump_the_river"})


def test_an_event_type_outside_the_vocabulary_has_no_sentence() -> None:
    with pytest.raises(KeyError):
        gamelog.Describer(["ann", "bob"]).describe({"type": "train_robbed", "seat": 0})


def test_an_event_its_sentence_cannot_read_is_told_by_its_type_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    """A known type with its fields missing (a bug, or a log older than a field) must not take the table page
    down: the log line names the type, and the error is logged for us, not hidden."""
    with caplog.at_level("ERROR", logger="app.notify.gamelog"):
        sentence = gamelog.Describer(["ann", "bob"]).describe({"type": "parcel_bought", "seq": 41})
    assert sentence == "Parcel bought."
    assert any("event 41 of type parcel_bought" in r.getMessage() for r in caplog.records)


def _marked_texts(module: Path) -> list[str]:
    """The texts `module` marks for translation (what the catalogs extract), plural forms included."""
    keywords = {**DEFAULT_KEYWORDS, "N_": None}
    found: list[str] = []
    for _line, message, _comments, _context in extract_from_file("python", module, keywords=keywords):
        found.extend(message if isinstance(message, tuple) else [message])
    return found


def _template_texts(template: Path) -> list[str]:
    """The texts a template marks for translation, as `babel.cfg` extracts them."""
    found: list[str] = []
    with template.open("rb") as source:
        for _line, _function, message, _comments in babel_extract(source, DEFAULT_KEYWORDS, [], {"trimmed": "true"}):
            found.extend(m for m in (message if isinstance(message, tuple) else [message]) if m)
    return found


@pytest.mark.parametrize("module", ["app/web/labels.py", "app/notify/gamelog.py", "app/web/guide.py",
                                    "app/web/present.py"])
def test_the_words_take_their_numbers_from_the_catalog(module: str) -> None:
    """A price, an income or a VP amount in a move's words, a log sentence, the help or the score's headings is a
    `{field}` filled from the catalog, the core or the event: no "$4" typed again beside `HORSE_PRICE`."""
    typed = [text for text in _marked_texts(ROOT / module) if re.search(r"\d", NAMES.sub("", text))]
    assert typed == []


# The templates that speak of the rules: the table's board, the new-game form, the rules page.
RULES_TEMPLATES = ("templates/partials/board.html", "templates/pages/new_game.html", "templates/pages/rules.html")


@pytest.mark.parametrize("template", RULES_TEMPLATES)
def test_the_templates_take_their_numbers_from_the_catalog(template: str) -> None:
    """The templates' words about the rules ("Outlaws arrive from round 2", "Tick the 7 cards") fill their
    numbers from the catalog (`guide.NUMBERS`, the `numbers` of every template)."""
    texts = _template_texts(ROOT / template)
    assert texts
    assert [text for text in texts if re.search(r"\d", NAMES.sub("", text))] == []


def test_the_help_filled_from_the_catalog_reads_as_before() -> None:
    """R-INC-3, R-INC-6, R-INC-8, R-CON-8, R-END-3, R-END-6, R-GG-2, R-OUT-1: the incomes, revolvers, VP and counts
    the catalog and the core hold, shown as the help always showed them (000 "Buildings": "Drugstore: $3 per house
    value ... plus $3 per ranch"; "End of the Game": "1 VP per $6")."""
    assert guide.building_help("drugstore", str) == (
        "Earns $3 for each house value around it, plus $3 for each ranch you own anywhere. Needs a road; built with a "
        "house. At most $33.")
    assert guide.building_help("ranch", str).startswith(
        "Earns $1 for each empty parcel around it (no building, house or mountain, whoever owns it), at least $1;")
    assert guide.building_help("ranch", str).endswith("Gives 1 revolver when built.")
    assert guide.building_help("hotel", str).startswith("Earns $6, and counts as 2 houses")
    assert guide.building_help("prison", str).startswith("Earns nothing; gives 2 revolvers when built.")
    outline = dict(guide.rules_context()["outline"])
    assert "scores a VP for each $10 given up; new cowboys arrive (after rounds 1 to 3)" in outline["End of the round"]
    assert outline["End of the game"] == (
        "After round 4: 2 VP for each building, house and mountain on one's own parcels, and a VP for every $6. Most "
        "VP wins; a tie goes to the tied player who passed first in round 4.")
    assert dict(guide.rules_context()["pieces"])["townhouse"] == (
        "A townhouse: a house turned over when all 8 parcels around it are taken; counts as 2 houses.")
    assert guide.variant_help("outlaws", str).startswith(
        "From round 2, 1 to 3 outlaws arrive each round (strength 8 to 13, by dice)")
    assert present.score_part("money") == "Money ($6 per VP)"


def test_the_words_filled_from_the_catalog_read_as_before() -> None:
    """R-PER-7, R-PER-11, R-GG-4, R-GG-14 (RULING G12), R-GG-16 (RULING G11), R-VAR-5, R-VAR-3, R-BB-6 (RULING X6):
    the prices and VP the catalog holds, shown as the table always showed them (000 "Personalities": "either $8
    immediately or 1 victory point per house"; 001 "The Prospector": "immediately pays $10")."""
    lab = labels.Labeller(_doc(awaiting=Decision.GROCER_RED.value))
    assert lab.label({"type": "card_option", "option": "money"}) == "Receive $8 now"
    assert lab.label({"type": "card_option", "option": "vp"}) == "1 VP per house you own at the end of the round"
    assert labels.Labeller(_doc(awaiting=Decision.SETTLER_RED.value)).label({"type": "card_option", "option": "vp"}) \
        == "1 VP per mountain you own at the end of the round"
    assert lab.label({"type": "grocer_choice", "option": "money_at_income"}) == "Receive $8 at the estate income"
    assert lab.label({"type": "pay_undertaker", "pay": "money"}) == "Pay the Undertaker $2"
    assert lab.label({"type": "pay_undertaker", "pay": "vp"}) == "Lose 1 VP to the Undertaker"
    assert lab.label({"type": "collect_tax", "tax": "money"}) == "Tax money ($1 per started $10)"
    assert lab.label({"type": "collect_tax", "tax": "revolvers"}) == "Tax revolver chips ($1 each)"
    assert lab.label({"type": "prospect_mine", "x": 2, "y": 3}) == (
        "Pay $10 for a mine from the bag and build it on parcel (2, 3)")
    river = labels.Labeller(_doc(board={**_doc()["board"], "water_edges": [[2, 5, 3, 5]]}))
    assert river.label({"type": "place_road", "x1": 2, "y1": 5, "x2": 3, "y2": 5}) == (
        "Bridge between (3, 5) and (3, 6) (takes 2 roads)")
    d = gamelog.Describer(["ann"])
    assert d.describe({"type": "wages_chosen", "seat": 0, "horse": True}) == "ann pays $4 for a horse at Wages."
    assert d.describe({"type": "tiles_drawn", "seat": 0}) == "ann draws 3 tiles from the used pile."
