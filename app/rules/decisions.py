"""The decisions the game can await from a seat (`Awaiting.kind`, the "awaiting" of the state document), and
`Awaiting` itself: what the flow answers when it waits.

One vocabulary for the flow that asks, the legal moves that answer (`registry.LEGAL`, one entry per decision), the
personality cards that name their holder's decision (`catalog.Side.decision`) and every phrase that puts a decision
into words (`phrases.DECISION_PHRASES`). A StrEnum member is its string, so the state document reads as it always
did.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from app.rules.events import DuelTarget


class Decision(StrEnum):
    # setup and the variants' setup
    VOTE = "vote"
    START_PARCEL = "start_parcel"
    SHOPPING = "shopping"
    PARCEL_PICK = "parcel_pick"
    # Gold & Guns: the City Hall drawn from the bag, at setup or at a refill
    PLACE_CITY_HALL = "place_city_hall"
    # the Outlaws: the first player orders their moves when several would move
    OUTLAW_ORDER = "outlaw_order"
    # personalities: the choice, then the decision printed on some cards
    PERSONALITY = "personality"
    SETTLER = "settler"
    SETTLER_RED = "settler_red"
    GROCER = "grocer"
    GROCER_RED = "grocer_red"
    CAPTAIN = "captain"
    CAPTAIN_RED = "captain_red"
    CHINESE_WORKER_RED = "chinese_worker_red"
    PROSPECTOR = "prospector"
    GOVERNOR_RED = "governor_red"
    AUCTION_PARCELS = "auction_parcels"
    AUCTION_BID = "auction_bid"
    # Big Box: the Newspaper Boy names the card he copies (RULING X2)
    NEWSPAPER_BOY = "newspaper_boy"
    # placement and the action track
    PLACEMENT = "placement"
    DUEL_TILE = "duel_tile"
    CHOOSE_DUEL = "choose_duel"
    BUY_PARCEL = "buy_parcel"
    BUY_BUILDING = "buy_building"
    CONSTRUCT = "construct"
    PERMISSION = "permission"
    BUY_VP = "buy_vp"
    OUTLAW_REWARD = "outlaw_reward"
    # Gold & Guns: the red Gunsmith rolls again or keeps his roll; dynamite chips at the estate income
    REROLL = "reroll"
    DYNAMITE = "dynamite"
    # Gold & Guns: a defeated cowboy's owner, with the Doctor (move it, or let it go home) or the Undertaker
    DOCTOR = "doctor"
    UNDERTAKER = "undertaker"
    # Big Box: at Wages, a horse for $4 instead of $4 (RULING X6)
    HORSE = "horse"
    # end of round and game
    BANKER_VP = "banker_vp"
    CASH_LIMIT = "cash_limit"
    FINAL_ROADS = "final_roads"


class Awaiting(NamedTuple):
    """A decision the game waits for: its kind (which moves are listed) and the seats that must decide; for a
    duel's decisions, what the duel is fought over (a dynamite chip there asks for two tiles). A named tuple
    rather than a frozen dataclass: the flow makes one for nearly every state a game passes through, and a tuple
    is made several times faster."""

    kind: Decision
    seats: tuple[int, ...]
    target: DuelTarget | None = None
