"""The Doctor / Undertaker (Gold & Guns, `001` "The Doctor / The Undertaker (14)"; RULING G11): while either side
is held, a cowboy defeated in a duel or an outlaw fight waits for its owner's decision, asked before anything else
happens — the Doctor moves it (for his fee) to a place whose turn has not come yet, or it goes home; the
Undertaker is paid $2 or 1 VP for it.

Who holds which side, the queue of defeated cowboys, the fees and the outlaw bounty are `app.rules.defeats`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.decisions import Awaiting, Decision
from app.rules.defeats import burial_options, defeat_decision, doctor, healing_price, is_unperformed, undertaker
from app.rules.draft import gain, index_of, replace
from app.rules.events import CowboyHealed, Event, HealingDeclined, UndertakerPaid
from app.rules.model import COWBOYS, GameState
from app.rules.registry import Step, declines, handles, lists, move_handler
from app.rules.rng import Rng
from app.rules.spots import cowboy_spots

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Decline, HealCowboy, Move, PayUndertaker


def defeat_step(s: GameState) -> Step:
    """The owner of the first defeated cowboy decides at once (RULING G11); the flow asks this first, while
    `defeat` is set."""
    assert s.defeat is not None
    return Awaiting(defeat_decision(s), s.defeat.seats[:1])


def _defeat_settled(s: GameState, seat: int) -> GameState:
    """The first defeated cowboy's owner has decided; the next one decides, if any."""
    assert s.defeat is not None and s.defeat.seats[0] == seat
    rest = s.defeat.seats[1:]
    return replace(s, defeat=replace(s.defeat, seats=rest) if rest else None)


# --- the Doctor -----------------------------------------------------------------------------------------------


@lists(Decision.DOCTOR)
def _doctor(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The owner of a defeated cowboy may have the Doctor move it, for $3 (free for his own), to a place no
    cowboy holds whose turn in the resolution order has not come yet (RULING G11, decision D77), or let it go
    home."""
    moves: list[Move] = [{"type": "decline"}]
    if healing_price(s, seat) > s.players[seat].money:
        return moves
    for spot in cowboy_spots(s, seat):
        if is_unperformed(s, spot):
            heal: HealCowboy = {"type": "heal_cowboy"}
            if "square" in spot:
                heal["square"] = spot["square"]
            else:
                heal["x"], heal["y"] = spot["x"], spot["y"]
            moves.insert(-1, heal)
    return moves


@move_handler("heal_cowboy")
def _heal_cowboy(s: GameState, seat: int, move: HealCowboy, rng: Rng, kind: Decision) -> list[Event]:
    """The Doctor moves the defeated cowboy; its owner pays him, unless it is his own (RULING G11)."""
    held = doctor(s)
    assert held is not None
    healed: CowboyHealed = {"type": "cowboy_healed", "seat": seat, "doctor": held[0],
                            "price": healing_price(s, seat)}
    if "square" in move:
        healed["square"] = move["square"]
    else:
        healed["x"], healed["y"] = move["x"], move["y"]
    return [healed]


@declines(Decision.DOCTOR)
def _go_home(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "healing_declined", "seat": seat}]


@handles("cowboy_healed")
def _cowboy_healed(s: GameState, e: CowboyHealed) -> GameState:
    """The cowboy goes to its new place as if placed there; the Doctor is paid."""
    seat = e["seat"]
    s = gain(gain(_defeat_settled(s, seat), seat, money=-e["price"]), e["doctor"], money=e["price"])
    cowboy = COWBOYS[seat, False]
    if "square" in e:
        return replace(s, squares={**s.squares, e["square"]: (*s.squares.get(e["square"], ()), cowboy)})
    index = index_of(e)
    return replace(s, parcel_cowboys={**s.parcel_cowboys, index: (*s.parcel_cowboys.get(index, ()), cowboy)})


@handles("healing_declined")
def _healing_declined(s: GameState, e: HealingDeclined) -> GameState:
    return gain(_defeat_settled(s, e["seat"]), e["seat"], cowboys=1)


# --- the Undertaker -------------------------------------------------------------------------------------------


@lists(Decision.UNDERTAKER)
def _undertaker(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """$2 to the Undertaker or 1 VP for a defeated cowboy (`001`); with neither, nothing (decision D79)."""
    options = burial_options(s, seat)
    moves: list[Move] = [{"type": "pay_undertaker", "pay": pay} for pay in options]
    return moves or [{"type": "decline"}]


@move_handler("pay_undertaker")
def _pay_undertaker(s: GameState, seat: int, move: PayUndertaker, rng: Rng, kind: Decision) -> list[Event]:
    held = undertaker(s)
    assert held is not None and held[1].burial_price is not None
    money = held[1].burial_price if move["pay"] == "money" else 0
    vp = held[1].burial_vp if move["pay"] == "vp" else 0
    return [{"type": "undertaker_paid", "seat": seat, "undertaker": held[0], "money": money, "vp": vp}]


@declines(Decision.UNDERTAKER)
def _pay_nothing(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    """Neither $2 nor a VP to give: the cowboy goes home for nothing (decision D79)."""
    held = undertaker(s)
    assert held is not None
    return [{"type": "undertaker_paid", "seat": seat, "undertaker": held[0], "money": 0, "vp": 0}]


@handles("undertaker_paid")
def _undertaker_paid(s: GameState, e: UndertakerPaid) -> GameState:
    s = gain(_defeat_settled(s, e["seat"]), e["seat"], cowboys=1, money=-e["money"], vp=-e["vp"])
    return gain(s, e["undertaker"], money=e["money"])
