"""decide(state, seat, move, seed) -> events: validate a move against `legal_moves`, turn it into events, then
run the flow's automatic steps until the next real decision.

A move outside `legal_moves` raises IllegalMove with a stable code and a sentence for the player; nothing is
produced, so nothing changes. One handler per move type (`registry.MOVES`): the base game's below, the families'
in their own modules (`app.rules.families`); `decline`, one move for many decisions, means what the family of the
decision it answers registered (`registry.DECLINES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, cast

import app.rules.families  # noqa: F401  (every family registers its moves before one is played)
from app.rules.automatic import ASK, Answers, automatic_move
from app.rules.board import parcel_index
from app.rules.catalog import BUY_VP_PRICE, CASH_LIMIT_MONEY_PER_VP, PERSONALITIES
from app.rules.characters import card_gains, on_choosing
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import fold
from app.rules.duels import duelling_seats, fight
from app.rules.dynamite import rerolling_seat
from app.rules.events import ClaimReason, CowboyPlaced, Event, PersonalityChosen
from app.rules.explain import explain_illegal
from app.rules.flow import awaiting, next_step
from app.rules.legal import is_legal
from app.rules.model import GameState
from app.rules.outlaws import fight_outlaw
from app.rules.prices import parcel_price
from app.rules.registry import DECLINES, move_handler
from app.rules.registry import MOVES as _MOVES
from app.rules.rng import Rng
from app.rules.steps import Folded

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import (
        BuyParcel,
        BuyVp,
        ChoosePersonality,
        ClaimParcel,
        Decline,
        DeclineParcel,
        GiveUpMoney,
        Pass,
        PlaceCowboy,
        PlaceWhiteCowboy,
        ResolveDuel,
    )

MAX_AUTOMATIC_EVENTS = 10_000  # a guard against a flow that never waits; a real game has a few hundred
# Why a parcel is claimed, by the decision that claims it; any other claim is the Settler's.
_CLAIM_REASONS: Final[dict[Decision, ClaimReason]] = {
    Decision.START_PARCEL: "start",
    Decision.PARCEL_PICK: "pick",
}


def decide(s: GameState, seat: int, move: Mapping[str, Any], seed: int) -> list[Event]:
    """The events a legal move produces, followed by every automatic step up to the next decision."""
    events, _ = play(s, seat, move, Rng(seed, s.seq))
    return events


def play(
    s: GameState, seat: int, move: Mapping[str, Any], rng: Rng, answers: Answers = ASK
) -> tuple[list[Event], GameState]:
    """Like `decide`, also returning the state after the events (so callers need not fold them again); `answers`:
    what the seats answered ahead of time outside the log (`automatic.Answers`)."""
    waiting = awaiting(s)
    if waiting is None or seat not in waiting.seats:
        raise explain_illegal(s, seat, move, waiting)
    if not isinstance(move, dict) or not is_legal(s, seat, move):
        raise explain_illegal(s, seat, move, waiting)
    events = _MOVES[move["type"]](s, seat, move, rng, waiting.kind)
    more, s = advance(fold(s, events), rng, answers)
    return events + more, s


def advance(s: GameState, rng: Rng, answers: Answers = ASK) -> tuple[list[Event], GameState]:
    """Run automatic steps, and the moves made for a seat without asking it (its only move, or what it answered
    ahead: `automatic.automatic_move`), until a real decision is awaited. The first event of a move made for a
    seat says why (`automatic`), so the log tells it was made for the player."""
    produced: list[Event] = []
    while len(produced) < MAX_AUTOMATIC_EVENTS:
        step = next_step(s)
        if step is None:
            return produced, s
        if isinstance(step, Awaiting):
            made = automatic_move(s, step, answers)
            if made is None:
                return produced, s
            seat, move, why = made
            if why != "only_move":  # as if its player had made it: the audit re-decides it so (D109)
                rng.restart(s.seq)
            new = _MOVES[move["type"]](s, seat, move, rng, step.kind)
            new[0] = cast(Event, {**new[0], "automatic": why})
            done = 0
        else:
            new = step(rng)
            done = 0
            if type(new) is Folded:  # its first events were folded already, from this very state
                s, done = new.after, new.done
        s = fold(s, new[done:] if done else new)
        produced += new
    raise RuntimeError("the game flow produced too many automatic events")


# --- setup and personalities ----------------------------------------------------------------------------------


@move_handler("claim_parcel")
def _claim_parcel(s: GameState, seat: int, move: ClaimParcel, rng: Rng, kind: Decision) -> list[Event]:
    reason: ClaimReason = _CLAIM_REASONS.get(kind, "settler")
    return [{"type": "parcel_claimed", "seat": seat, "x": move["x"], "y": move["y"], "reason": reason}]


@move_handler("choose_personality")
def _choose_personality(s: GameState, seat: int, move: ChoosePersonality, rng: Rng, kind: Decision) -> list[Event]:
    card = move["card"]
    # The Doctor / Undertaker's holder names the side (decision D73); Big Box's cards have theirs (decision D91).
    colour = move.get("side") or s.sides.get(card, "yellow")
    side = PERSONALITIES[card].side(colour)
    event: PersonalityChosen = {"type": "personality_chosen", "seat": seat, "card": card, "side": colour,
                                **card_gains(s, side)}
    return [event, *on_choosing(s, seat, card, side, rng)]


# --- placement ------------------------------------------------------------------------------------------------


def _placed(seat: int, move: PlaceCowboy | PlaceWhiteCowboy, white: bool) -> CowboyPlaced:
    event: CowboyPlaced = {"type": "cowboy_placed", "seat": seat, "white": white}
    if "square" in move:
        event["square"] = move["square"]
    else:
        event["x"], event["y"] = move["x"], move["y"]
    if move.get("buy"):
        event["buy"] = True  # "buy it if I win and can pay" (decision D106)
    return event


@move_handler("place_cowboy")
def _place_cowboy(s: GameState, seat: int, move: PlaceCowboy, rng: Rng, kind: Decision) -> list[Event]:
    placed = _placed(seat, move, white=False)
    if move.get("dynamite"):
        placed["dynamite"] = True
    if move.get("no_duel"):
        placed["no_duel"] = True  # with one of the yellow Singer's chips (RULING G9)
    return [placed]


@move_handler("place_white_cowboy")
def _place_white_cowboy(s: GameState, seat: int, move: PlaceWhiteCowboy, rng: Rng, kind: Decision) -> list[Event]:
    return [_placed(seat, move, white=True)]


@move_handler("pass")
def _pass(s: GameState, seat: int, move: Pass, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "player_passed", "seat": seat}]


# --- resolution -----------------------------------------------------------------------------------------------


@move_handler("resolve_duel")
def _resolve_duel(s: GameState, seat: int, move: ResolveDuel, rng: Rng, kind: Decision) -> list[Event]:
    index = parcel_index(move["x"], move["y"])
    seats = duelling_seats(s.parcel_cowboys[index])
    chosen: Event = {"type": "duel_order_chosen", "seat": seat, "x": move["x"], "y": move["y"]}
    if s.config.might_is_right or rerolling_seat(s, seats) is not None:
        return [chosen]  # the duellists choose their tiles first, or the red Gunsmith decides after the dice
    fought = fight_outlaw if s.parcels[index].outlaw else fight  # an outlaw's fight is one of the duels (G15)
    return [chosen, fought(s, {"x": move["x"], "y": move["y"]}, seats, rng)]


@move_handler("buy_parcel")
def _buy_parcel(s: GameState, seat: int, move: BuyParcel, rng: Rng, kind: Decision) -> list[Event]:
    price = parcel_price(s, parcel_index(move["x"], move["y"]))
    return [{"type": "parcel_bought", "seat": seat, "x": move["x"], "y": move["y"], "price": price}]


@move_handler("decline_parcel")
def _decline_parcel(s: GameState, seat: int, move: DeclineParcel, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "parcel_purchase_declined", "seat": seat, "x": move["x"], "y": move["y"]}]


@move_handler("buy_vp")
def _buy_vp(s: GameState, seat: int, move: BuyVp, rng: Rng, kind: Decision) -> list[Event]:
    square = s.step
    if move["count"] == 0:
        return [{"type": "action_declined", "seat": seat, "square": square}]
    return [{"type": "vp_bought", "seat": seat, "square": square, "count": move["count"],
             "price": BUY_VP_PRICE[square]}]


# --- end of round ---------------------------------------------------------------------------------------------


@move_handler("give_up_money")
def _give_up_money(s: GameState, seat: int, move: GiveUpMoney, rng: Rng, kind: Decision) -> list[Event]:
    amount = move["amount"]
    return [{"type": "money_given_up", "seat": seat, "amount": amount, "vp": amount // CASH_LIMIT_MONEY_PER_VP}]


@move_handler("decline")
def _decline(s: GameState, seat: int, move: Decline, rng: Rng, kind: Decision) -> list[Event]:
    """What declining means is the declined decision's: its family registered it (`registry.declines`)."""
    return DECLINES[kind](s, seat, move, rng, kind)
