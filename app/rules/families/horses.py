"""Big Box's horses (`004` "Salario"; RULING X6, decision D87): at Wages, each seat that could pay for a horse is
asked, in placement order, before the wages are paid; a horse costs one cowboy's wages.

What a horse costs and is worth, and the wages with a horse, are `app.rules.horses`'s; the final VP `scoring`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.decisions import Awaiting, Decision
from app.rules.draft import replace
from app.rules.events import Event, WagesChosen
from app.rules.horses import horse_chooser
from app.rules.model import GameState
from app.rules.registry import Step, declines, handles, lists, move_handler
from app.rules.rng import Rng
from app.rules.steps import awaits

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import BuyHorse, Decline, Move


def horse_step(s: GameState) -> Step:
    """At Wages, before the wages are paid: the next seat asked whether it buys a horse, if any."""
    buyer = horse_chooser(s)
    return awaits(Decision.HORSE, buyer) if buyer is not None else None


@lists(Decision.HORSE)
def _horse(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """A horse for $4 instead of one cowboy's $4, or the wages as usual."""
    return [{"type": "buy_horse"}, {"type": "decline"}]


@move_handler("buy_horse")
def _buy_horse(s: GameState, seat: int, move: BuyHorse, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "wages_chosen", "seat": seat, "horse": True}]


@declines(Decision.HORSE)
def _no_horse(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "wages_chosen", "seat": seat, "horse": False}]


@handles("wages_chosen")
def _wages_chosen(s: GameState, e: WagesChosen) -> GameState:
    """The answer is kept until the wages are paid (`wages_paid`, which hands over the horse)."""
    return replace(s, wages_chosen={**s.wages_chosen, e["seat"]: e["horse"]})
