"""What becomes of a defeated cowboy while the Doctor or the Undertaker is held (`001` "The Doctor / The Undertaker
(14)"; RULING G11; decisions D76-D80), and the money their holder takes for each outlaw beaten.

A cowboy that loses a duel (to a player, or to an outlaw in a fight) normally goes straight home. With the Doctor
or the Undertaker in play it waits instead, off the board and out of the reserve (`GameState.defeat`), for its
owner's decision, asked at once: the holder's own cowboys first, then in the placement order (the turn-order track,
RULING X8). The Doctor's patients may move to a place whose turn in the resolution order has not come yet and that
no cowboy holds (for $3 to the Doctor, free for his own), where they act as if placed there; the Undertaker's
customers pay him $2 or lose 1 VP (his own free).

Each rule reads a field of the holder's side (`catalog.Side`), never the card's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from app.rules.board import parcel_index
from app.rules.catalog import PERSONALITIES, TRACK_STEPS, Side
from app.rules.decisions import Decision
from app.rules.events import Bounty
from app.rules.model import Defeat, GameState

# The order in which the places of a round are resolved: the action track (RULING B14), the estate income taken
# apart as it is played — the City Hall's duel, then the attacks and the outlaw fights, one pool in the order the
# earliest passer picks (RULING G15, decisions D38, D51), then the incomes.
_ESTATE_INCOME: Final = "estate_income"
_ATTACKS: Final = "attacks"
RESOLUTION_STAGES: Final = tuple(
    stage
    for step in TRACK_STEPS
    for stage in (("city_hall", _ATTACKS, _ESTATE_INCOME) if step == _ESTATE_INCOME else (step,))
)
_STAGE_INDEX: Final = {stage: i for i, stage in enumerate(RESOLUTION_STAGES)}


# The cards with a side that has each field set: a duel asks who holds one, and most games have none.
_CARDS_WITH: Final = {
    field: frozenset(card for card, p in PERSONALITIES.items() if getattr(p.yellow, field) or getattr(p.red, field))
    for field in ("healing_price", "burial_price", "outlaw_bounty")
}


def _holders_with(s: GameState, field: str) -> list[tuple[int, Side]]:
    """The seats holding a card this round whose side has `field` set, with that side: the card's holder first,
    then a Newspaper Boy copying it (RULING X7)."""
    cards = _CARDS_WITH[field]
    held: list[tuple[int, Side]] = []
    for seat in s.placement_order or range(len(s.players)):
        p = s.players[seat]
        if p.personality in cards or p.copied in cards:
            side = s.side(seat)
            if side is not None and getattr(side, field):
                held.append((seat, side))
    if held[1:]:
        held.sort(key=lambda item: s.players[item[0]].copied is not None)
    return held


# The one seat a defeated cowboy's owner deals with is the first of `_holders_with`: the card's holder, or the
# Newspaper Boy copying a card nobody holds (RULING X7: a heal or a toll "happens once, to the card's holder").


def doctor(s: GameState) -> tuple[int, Side] | None:
    held = _holders_with(s, "healing_price")
    return held[0] if held else None


def undertaker(s: GameState) -> tuple[int, Side] | None:
    held = _holders_with(s, "burial_price")
    return held[0] if held else None


# --- the defeated cowboys' queue (R-GG-15, R-GG-16) ------------------------------------------------------------


def duel_stage(s: GameState, target: Mapping[str, Any], outlaw_fight: bool = False) -> str:
    """Where in the resolution order a duel on `target` is fought: its square's step, the parcel purchase, or
    at the estate income the City Hall's duel or the attacks, the outlaw fights among them (RULING G15)."""
    if outlaw_fight:
        return _ATTACKS
    if "square" in target:
        return str(target["square"])
    if s.step != _ESTATE_INCOME:
        return s.step
    return "city_hall" if parcel_index(target["x"], target["y"]) == s.city_hall else _ATTACKS


def defeated_cowboys(
    s: GameState, losers: list[int], target: Mapping[str, Any], outlaw_fight: bool = False
) -> Defeat | None:
    """The defeated cowboys whose owners are to decide, or None when they simply go home: the Doctor's patients,
    his own first, then in the order of the turn-order track as it stands, the placement order (RULINGS G11, X8);
    the Undertaker's, in the same order, but never his own, which cost nothing (`001`)."""
    held = doctor(s) or undertaker(s)
    if held is None or not losers:
        return None
    holder, side = held
    order = s.placement_order
    seats = sorted(losers, key=lambda seat: (seat != holder, order.index(seat) if seat in order else seat))
    if side.healing_price is None:
        seats = [seat for seat in seats if seat != holder]
    return Defeat(tuple(seats), duel_stage(s, target, outlaw_fight)) if seats else None


def defeat_decision(s: GameState) -> Decision:
    """What the owner of the first defeated cowboy is asked."""
    return Decision.DOCTOR if doctor(s) is not None else Decision.UNDERTAKER


def healing_price(s: GameState, seat: int) -> int:
    """The Doctor's fee for moving `seat`'s cowboy: nothing for his own (`001`)."""
    held = doctor(s)
    assert held is not None and held[1].healing_price is not None
    return 0 if held[0] == seat else held[1].healing_price


def spot_stage(s: GameState, spot: Mapping[str, Any]) -> str:
    """Where in the resolution order a place is resolved: a square at its own step, owner-free land at the parcel
    purchase, the City Hall in its duel, a building or an outlaw's parcel (the City Hall too, G14) in the attacks."""
    if "square" in spot:
        return str(spot["square"])
    index = parcel_index(spot["x"], spot["y"])
    parcel = s.parcels[index]
    if parcel.outlaw:
        return _ATTACKS
    if index == s.city_hall:
        return "city_hall"
    return "parcel_purchase" if parcel.owner is None else _ATTACKS


def is_unperformed(s: GameState, spot: Mapping[str, Any]) -> bool:
    """Whether the Doctor may send a cowboy to `spot` now: no cowboy stands there, and its stage of the resolution
    order comes after the one of the duel just fought (RULING G11, decision D77)."""
    assert s.defeat is not None
    if "square" in spot:
        if s.squares.get(spot["square"]):
            return False
    elif s.parcel_cowboys.get(parcel_index(spot["x"], spot["y"])):
        return False
    return _STAGE_INDEX[spot_stage(s, spot)] > _STAGE_INDEX[s.defeat.stage]


Burial = Literal["money", "vp"]


def burial_options(s: GameState, seat: int) -> tuple[Burial, ...]:
    """How the owner may pay the Undertaker: $2 if they have it, 1 VP if they have one (decision D79); neither
    possible, the cowboy goes home for nothing."""
    held = undertaker(s)
    assert held is not None and held[1].burial_price is not None
    p = s.players[seat]
    options: list[Burial] = []
    if p.money >= held[1].burial_price:
        options.append("money")
    if p.vp >= held[1].burial_vp > 0:
        options.append("vp")
    return tuple(options)


# --- the outlaw bounty -----------------------------------------------------------------------------------------


def outlaw_bounty(s: GameState, removed: int) -> list[Bounty]:
    """The Doctor's $3 (`004`, RULING G11) or the Undertaker's $2 (`001`) from the bank for each outlaw an event
    took off the board (`outlaws.outlaws_removed`), whoever fought it: to the card's holder and to a Newspaper Boy
    copying it alike (RULING X7), the holder first."""
    if not removed:
        return []
    return [{"seat": seat, "amount": side.outlaw_bounty * removed} for seat, side in _holders_with(s, "outlaw_bounty")]
