"""The Outlaws (`001` "Outlaws"; RULING G4; decisions D47-D56): where they arrive, where they move, what they do to
the parcel they stand on, how they are fought and what beating or jailing one gives.

An outlaw is a mark on its parcel (`Parcel.outlaw`), so every rule that reads the parcels sees it: a parcel with
an outlaw is no free land to buy, claim or build on (`construction`, `city_hall`, `townhouses`), nor a building
to attack (`income.attackable_buildings`, `duels`). Every outlaw has the strength of the tile on the board, the
one of the latest arrival (decision D48).

Hooks for the Gold & Guns characters that count outlaws: `outlaw_fought` names the winner (None when the outlaw
won) and every loser (the Gunsmith's duels won, the Doctor's defeated cowboys); `outlaws_removed` counts the
outlaws an event took off the board (the Doctor's $3, the Undertaker's $2 use `outlaw_fought` with a winner).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from app.rules.board import INNER, NEIGHBOURS, parcel_xy, roll_parcel
from app.rules.catalog import (
    BUILDINGS,
    OUTLAW_COUNT,
    OUTLAW_MEEPLES,
    OUTLAW_ROUNDS,
    OUTLAW_STRENGTH_BONUS,
    OUTLAW_VP,
)
from app.rules.defeats import outlaw_bounty
from app.rules.duels import attack_spots, duel_won_vp, duelists, duelling_seats, strongest
from app.rules.events import XY, DuelTarget, OutlawFought, OutlawJailed, OutlawMoved, OutlawsArrived
from app.rules.heroes import shielded
from app.rules.income import building_income
from app.rules.model import GameState, Parcel, about_parcels
from app.rules.rng import Rng


def _xy(index: int) -> XY:
    x, y = parcel_xy(index)
    return {"x": x, "y": y}


def outlaw_parcels(parcels: tuple[Parcel, ...]) -> tuple[int, ...]:
    """Where the outlaws stand, in parcel order."""
    return tuple(i for i, parcel in enumerate(parcels) if parcel.outlaw)


def outlaws_in_supply(s: GameState) -> int:
    """The meeples not on the board: jailed and beaten outlaws go back to the supply (`001`)."""
    return OUTLAW_MEEPLES - len(about_parcels(s, outlaw_parcels))


def outlaw_vp(s: GameState) -> int:
    """The VP on the outlaw tile now on the board (RULING G4: strength // 2)."""
    assert s.outlaw_strength is not None
    return OUTLAW_VP[s.outlaw_strength]


def next_to_prison(parcels: tuple[Parcel, ...], index: int) -> bool:
    return any(parcels[n].content == "prison" for n in NEIGHBOURS[index])


def current_income(s: GameState, index: int) -> int:
    """What an outlaw looks at: the building's estate income as it stands now, before attacks and outlaws
    (decision D50); nothing for a parcel without an owned building, nor for the Heroes' buildings (`004` "Los
    héroes": "considera que los ingresos de todos tus edificios son igual a cero")."""
    parcel = s.parcels[index]
    if parcel.owner is None or parcel.content not in BUILDINGS or shielded(s, parcel.owner):
        return 0
    return building_income(s, index)


# --- arrival (R-OUT-1) and jail (R-OUT-6) ----------------------------------------------------------------------


def arrival_due(s: GameState) -> bool:
    """Whether this round's outlaws are still to arrive: rounds 2-4, before the personalities (`001`)."""
    return s.config.outlaws and s.round in OUTLAW_ROUNDS and s.outlaw_round < s.round


def jailed(s: GameState) -> list[OutlawJailed]:
    """Outlaws that start the round on a prison: each goes to jail, its VP to the prison's owner (`001` "Churches
    and Prisons"). Checked as the round starts, before the new outlaws arrive (decision D49)."""
    events: list[OutlawJailed] = []
    for index in about_parcels(s, outlaw_parcels):
        parcel = s.parcels[index]
        if parcel.content == "prison" and parcel.owner is not None:
            events.append({"type": "outlaw_jailed", **_xy(index), "seat": parcel.owner, "vp": outlaw_vp(s)})
    return events


def may_arrive(parcels: tuple[Parcel, ...], index: int) -> bool:
    """An outlaw may not arrive on another outlaw or next to a prison; anything else the dice name will do
    (decision D47)."""
    return not parcels[index].outlaw and not next_to_prison(parcels, index)


def arrival(s: GameState, rng: Rng) -> OutlawsArrived:
    """The first player rolls the black die (strength = die + 7) and the white die (how many), then two dice per
    outlaw for its parcel, again until the parcel is allowed (`001` "Outlaws", RULING G4)."""
    black, white = rng.die(), rng.die()
    arrived: list[int] = []

    def refused(index: int) -> bool:
        return index in arrived or not may_arrive(s.parcels, index)

    rolls: list[list[int]] = []
    for _ in range(min(OUTLAW_COUNT[white], outlaws_in_supply(s))):
        if all(refused(i) for i in INNER):
            break  # cannot happen with two prisons and nine outlaws; guards the re-rolls
        arrived.append(roll_parcel(rng, refused, rolls))
    placed = [_xy(index) for index in arrived]
    return {"type": "outlaws_arrived", "round": s.round, "black": black, "white": white,
            "strength": black + OUTLAW_STRENGTH_BONUS, "parcels": placed, "dice": rolls}


# --- movement (R-OUT-2) ----------------------------------------------------------------------------------------


def destinations(s: GameState, index: int) -> list[int]:
    """Where the outlaw on `index` would step: the neighbouring buildings with the highest current income, none
    next to a prison or holding another outlaw; none at all when it already stands on a building earning as
    much, or when no neighbour earns anything (`001` "Movements of the Outlaws")."""
    parcels = s.parcels
    options = {
        n: current_income(s, n)
        for n in NEIGHBOURS[index]
        if parcels[n].content in BUILDINGS and not parcels[n].outlaw and not next_to_prison(parcels, n)
    }
    best = max(options.values(), default=0)
    if best <= 0 or best <= current_income(s, index):
        return []
    return [n for n, income in options.items() if income == best]


def movers(s: GameState) -> list[int]:
    """The outlaws that have not moved yet this round and would move now (their neighbours change as others
    move, so this is asked again after every step)."""
    moved = s.outlaws_moved or frozenset()
    return [i for i in about_parcels(s, outlaw_parcels) if i not in moved and destinations(s, i)]


def move_outlaw(s: GameState, index: int, rng: Rng, chosen_by: int | None = None) -> OutlawMoved:
    """The outlaw on `index` steps to its destination; a tie is drawn at random and recorded (`001`)."""
    options = destinations(s, index)
    to = rng.choice(options) if len(options) > 1 else options[0]
    x, y = parcel_xy(index)
    event: OutlawMoved = {"type": "outlaw_moved", "x": x, "y": y, "to": _xy(to)}
    if len(options) > 1:
        event["tied"] = [_xy(n) for n in sorted(options)]
    if chosen_by is not None:
        event["seat"] = chosen_by
    return event


# --- fights (R-OUT-4) and rewards (R-OUT-5) --------------------------------------------------------------------


def fightable(parcels: tuple[Parcel, ...]) -> tuple[int, ...]:
    """The parcels where a cowboy may go to fight an outlaw (`001` "How to Fight an Outlaw?"): any land parcel or
    building with an outlaw, the City Hall too (RULING G14, decision D52)."""
    return tuple(i for i, parcel in enumerate(parcels) if parcel.outlaw and not parcel.river)


def fight_spots(s: GameState) -> dict[int, list[int]]:
    """Who stands on each outlaw's parcel, in parcel order: they fight the outlaw instead of buying the parcel,
    attacking the building or contending for the City Hall, whose occupant fights too (decisions D52, D53)."""
    return {
        index: duelling_seats(cowboys)
        for index, cowboys in sorted(s.parcel_cowboys.items())
        if cowboys and s.parcels[index].outlaw
    }


def estate_duels(s: GameState) -> dict[int, list[int]]:
    """The duels that wait at the estate income once the City Hall's is fought and the lone attackers and
    defenders have been resolved, in parcel order: every outlaw's fight and every contested building. They are one
    pool, fought in the order the earliest passer among the players involved picks (RULINGS B9, G15)."""
    duels = {index: seats for index, seats in attack_spots(s).items() if len(seats) > 1}
    if s.config.outlaws:
        duels.update(fight_spots(s))
        duels = dict(sorted(duels.items()))
    return duels


def fight_outlaw(s: GameState, target: DuelTarget, seats: list[int], rng: Rng) -> OutlawFought:
    """A duel as in the base game, the outlaw rolling nothing: the best player's strength must reach the
    outlaw's, else the outlaw wins (`001` "How to Fight an Outlaw?"); ties among players as in any duel."""
    assert s.outlaw_strength is not None
    sides = duelists(s, target, seats, rng)
    best, strength = strongest(s, sides)
    winner = best if strength >= s.outlaw_strength else None
    fought: OutlawFought = {"type": "outlaw_fought", "x": target["x"], "y": target["y"],
                            "strength": s.outlaw_strength, "duelists": sides, "winner": winner}
    if winner is not None and (vp := duel_won_vp(s, winner)):  # the yellow Gunsmith counts outlaws too (R-GG-7)
        fought["winner_vp"] = vp
    bounties = outlaw_bounty(s, outlaws_removed(fought))  # the Doctor's or the Undertaker's (RULINGS G11, X7)
    if bounties:
        fought["bounty"] = bounties[0]
    if len(bounties) > 1:
        fought["copier_bounty"] = bounties[1]
    return fought


def reward_winner(s: GameState) -> int:
    """The seat whose cowboy just beat the outlaw on `outlaw_beaten` (it stays there until the reward)."""
    assert s.outlaw_beaten is not None
    return s.parcel_cowboys[s.outlaw_beaten][0].seat


Reward = Literal["vp", "income"]


def rewards(s: GameState) -> tuple[Reward, ...]:
    """What the winner may take: the tile's VP, or half the income of another player's building that earns
    something (decision D54; on one's own building or on land only the VP means anything). Neither from the
    Heroes' buildings (their income is 0 to outlaws) nor for the Heroes, who attack nobody's (decision D92)."""
    assert s.outlaw_beaten is not None
    parcel = s.parcels[s.outlaw_beaten]
    winner = reward_winner(s)
    if parcel.owner not in (None, winner) and current_income(s, s.outlaw_beaten) > 0 and not shielded(s, winner):
        return ("vp", "income")
    return ("vp",)


def outlaws_removed(event: Mapping[str, Any]) -> int:
    """How many outlaws `event` took off the board (beaten or jailed): the hook for the Doctor (RULING G11)."""
    if event["type"] == "outlaw_jailed":
        return 1
    return 1 if event["type"] == "outlaw_fought" and event["winner"] is not None else 0
