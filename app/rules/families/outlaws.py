"""The Outlaws (Gold & Guns, `001` "Outlaws"; RULING G4): at the start of rounds 2-4, before the personalities,
the outlaws on a prison go to jail, new ones arrive, then every outlaw moves, in the order the first player picks
when several would; at the estate income their fights are duels among the others (RULING G15), and each beaten
outlaw's winner takes a reward.

Arrival, movement, fights and rewards are computed in `app.rules.outlaws`; the fights are scheduled with the
other duels of the estate income (`flow._estate_income`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.board import parcel_index, parcel_xy
from app.rules.city_hall import first_player
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import clear_parcel, duel_outcome, gain, index_of, replace, set_parcel, update_player
from app.rules.events import (
    Event,
    OutlawFought,
    OutlawJailed,
    OutlawMoved,
    OutlawRewardTaken,
    OutlawsArrived,
    OutlawsSettled,
)
from app.rules.model import GameState
from app.rules.outlaws import arrival, arrival_due, jailed, move_outlaw, movers, outlaw_vp, reward_winner, rewards
from app.rules.registry import Step, handles, lists, move_handler
from app.rules.rng import Rng
from app.rules.spots import xy
from app.rules.steps import at_once, awaits

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Move, MoveOutlaw, OutlawReward

# --- arrival and movement at the round's start (R-OUT-1, R-OUT-2) ----------------------------------------------


def outlaws_step(s: GameState) -> Step:
    """Before the personalities (RULING G4): those on a prison go to jail (decision D49), the new ones arrive, then
    every outlaw moves, in the order the first player picks when two or more would move; None once they are
    settled (or in a round without them)."""
    if arrival_due(s):
        jail = jailed(s)
        if jail:
            return at_once(*jail)
        return lambda rng: [arrival(s, rng)]
    if s.outlaws_moved is None:
        return None
    moving = movers(s)
    if not moving:
        return at_once({"type": "outlaws_settled"})
    if len(moving) == 1:
        return lambda rng: [move_outlaw(s, moving[0], rng)]
    return awaits(Decision.OUTLAW_ORDER, first_player(s))


@lists(Decision.OUTLAW_ORDER)
def _outlaw_order(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The outlaws that would move now; the first player picks which one moves next (RULING G4)."""
    return [{"type": "move_outlaw", **xy(index)} for index in movers(s)]


@move_handler("move_outlaw")
def _move_outlaw(s: GameState, seat: int, move: MoveOutlaw, rng: Rng, kind: Decision) -> list[Event]:
    return [move_outlaw(s, parcel_index(move["x"], move["y"]), rng, chosen_by=seat)]


def _outlaw_vp(s: GameState, seat: int, vp: int) -> GameState:
    """VP won from an outlaw, kept apart as well for the final score's `outlaws` part."""
    s = gain(s, seat, vp=vp)
    return update_player(s, seat, outlaw_vp=s.players[seat].outlaw_vp + vp)


@handles("outlaw_jailed")
def _outlaw_jailed(s: GameState, e: OutlawJailed) -> GameState:
    return _outlaw_vp(set_parcel(s, index_of(e), outlaw=False), e["seat"], e["vp"])


@handles("outlaws_arrived")
def _outlaws_arrived(s: GameState, e: OutlawsArrived) -> GameState:
    for spot in e["parcels"]:
        s = set_parcel(s, index_of(spot), outlaw=True)
    return replace(s, outlaw_strength=e["strength"], outlaw_round=e["round"], outlaws_moved=frozenset())


@handles("outlaw_moved")
def _outlaw_moved(s: GameState, e: OutlawMoved) -> GameState:
    to = index_of(e["to"])
    s = set_parcel(set_parcel(s, index_of(e), outlaw=False), to, outlaw=True)
    return replace(s, outlaws_moved=(s.outlaws_moved or frozenset()) | {to})


@handles("outlaws_settled")
def _outlaws_settled(s: GameState, e: OutlawsSettled) -> GameState:
    return replace(s, outlaws_moved=None)


# --- fights (R-OUT-4) and rewards (R-OUT-5) --------------------------------------------------------------------


@handles("outlaw_fought")
def _outlaw_fought(s: GameState, e: OutlawFought) -> GameState:
    """The losers go home; a beaten outlaw goes back to the supply, its winner's cowboy waits for the reward."""
    s = duel_outcome(s, e, e["duelists"], e["winner"], e.get("winner_vp", 0), outlaw_fight=True)
    for paid in (e.get("bounty"), e.get("copier_bounty")):
        if paid is not None:
            s = gain(s, paid["seat"], money=paid["amount"])
    if e["winner"] is None:
        return clear_parcel(s, index_of(e))
    return replace(set_parcel(s, index_of(e), outlaw=False), outlaw_beaten=index_of(e))


def reward_step(s: GameState) -> Step:
    """The winner of the fight just fought takes the reward before anything else at the estate income; the flow
    asks this while `outlaw_beaten` is set."""
    return awaits(Decision.OUTLAW_REWARD, reward_winner(s))


@lists(Decision.OUTLAW_REWARD)
def _outlaw_reward(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """The tile's VP, or half the building's income where that means something (`001`, decision D54)."""
    return [{"type": "outlaw_reward", "reward": reward} for reward in rewards(s)]


@move_handler("outlaw_reward")
def _take_reward(s: GameState, seat: int, move: OutlawReward, rng: Rng, kind: Decision) -> list[Event]:
    assert s.outlaw_beaten is not None
    x, y = parcel_xy(s.outlaw_beaten)
    vp = outlaw_vp(s) if move["reward"] == "vp" else 0
    return [{"type": "outlaw_reward_taken", "x": x, "y": y, "seat": seat, "reward": move["reward"], "vp": vp}]


@handles("outlaw_reward_taken")
def _outlaw_reward_taken(s: GameState, e: OutlawRewardTaken) -> GameState:
    """The tile's VP (the cowboy leaves), or half the building's income at this round's estate income, taken as an
    attacker's: the cowboy then stays on the building until the income is paid (RULING G13)."""
    index = index_of(e)
    if e["reward"] == "income":
        return replace(s, attacks={**s.attacks, index: e["seat"]}, outlaw_beaten=None)
    s = _outlaw_vp(s, e["seat"], e["vp"])
    if index == s.city_hall:  # the fight was for the City Hall too: its winner occupies it (decision D52)
        return replace(s, outlaw_beaten=None)
    return replace(clear_parcel(s, index), outlaw_beaten=None)
