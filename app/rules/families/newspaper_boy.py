"""Big Box's Newspaper Boy (`004` "El Chico de los Periódicos"; RULING X2): on choosing the card, its holder
copies another card of the game for the round, taken or not, but neither himself nor the Sheriff, with all its
abilities: what it gives at once and what it does on choosing. The copy is read wherever a card is
(`GameState.side`, `holds`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from app.rules.catalog import PERSONALITIES
from app.rules.characters import card_gains, on_choosing
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import card_taken, update_player
from app.rules.events import CardCopied, Event
from app.rules.model import GameState
from app.rules.registry import handles, lists, move_handler
from app.rules.rng import Rng

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import CopyCard, Move

# The Newspaper Boy copies neither himself nor the Sheriff (`004` "a excepción del Sheriff").
_NOT_COPIED: Final = frozenset({"newspaper_boy", "sheriff"})
_COPY: dict[str, tuple[CopyCard, ...]] = {
    card: tuple({"type": "copy_card", "card": card, "side": side} for side in ("yellow", "red"))
    if p.holder_chooses_side else ({"type": "copy_card", "card": card},)
    for card, p in PERSONALITIES.items()
}


@lists(Decision.NEWSPAPER_BOY)
def _newspaper_boy(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """Any other card of the game but the Sheriff, taken or not (RULING X2); the Doctor / Undertaker on the side
    it shows, or, when nobody has chosen it yet, on the side the copy names (decision D95)."""
    return [
        move
        for card in s.cards
        if card not in _NOT_COPIED
        for move in _COPY[card]
        if card not in s.sides or move.get("side", s.sides[card]) == s.sides[card]
    ]


@move_handler("copy_card")
def _copy_card(s: GameState, seat: int, move: CopyCard, rng: Rng, kind: Decision) -> list[Event]:
    """The Newspaper Boy copies a card with its abilities: what it gives at once and what it does on choosing
    (RULING X2); the Doctor / Undertaker on the side its holder chose, or that the copy names (decision D95)."""
    card = move["card"]
    colour = move.get("side") or s.sides.get(card, "yellow")
    side = PERSONALITIES[card].side(colour)
    event: CardCopied = {"type": "card_copied", "seat": seat, "card": card, "side": colour, **card_gains(s, side)}
    return [event, *on_choosing(s, seat, card, side, rng)]


@handles("card_copied")
def _card_copied(s: GameState, e: CardCopied) -> GameState:
    """The Newspaper Boy has the copied card's abilities for the round (RULING X2)."""
    return card_taken(update_player(s, e["seat"], copied=e["card"]), e["seat"], e)
