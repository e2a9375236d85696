"""The game's words that the rules core keeps in English, for the message catalogs: a Babel extraction method
(named in `babel.cfg`), so that `pybabel extract` finds them where they are defined and nobody copies them.

The translations use the words of the French and Spanish rule documents (003, 004) where they give one, so a
player recognises their box: the buildings, the personality cards, what each decision asks, and the variants'
and expansions' names, the action squares, the cards' texts.
Nothing imports this module; the layers translate these words with `gettext` where they show them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from app.rules.catalog import BUILDINGS, PERSONALITIES, SHOP, SQUARES
from app.rules.config import EXPANSION_NAMES
from app.rules.phrases import DECISION_PHRASES, third_person

Extracted = tuple[int, str | None, str, list[str]]


def _words() -> Iterator[tuple[str, str]]:
    for building in BUILDINGS.values():
        yield building.name, "a building (003/004)"
    for card in PERSONALITIES.values():
        yield card.name, "a personality card (004 names every one)"
        yield card.yellow.text, f"the yellow side of the {card.name} (004 gives every card's text)"
        yield card.red.text, f"the red side of the {card.name} (004 gives every card's text)"
    for decision, phrase in DECISION_PHRASES.items():
        yield phrase, f"what the decision {decision.value} asks: 'you must ...', 'your turn: ...'"
        yield third_person(phrase), f"what the decision {decision.value} asks, said of others: 'waiting for Ann to ...'"
    for name in EXPANSION_NAMES.values():
        yield name, "an expansion's name"
    for square in SQUARES.values():
        yield square.name, "an action square of the track"
    for item in SHOP.values():
        yield item.name, "an item of A New Beginning's shop"


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Extracted]:
    """Babel's extraction interface: every word above, once, wherever the mapping points this method."""
    seen: set[str] = set()
    for text, comment in _words():
        if text not in seen:
            seen.add(text)
            yield 1, None, text, [comment]
