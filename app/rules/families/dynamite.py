"""Dynamite and the red Gunsmith (Gold & Guns, `001` "The Prospector (9)" and "The Gunsmith (10)"; RULING G7): a
chip triples one of its holder's mines at the estate income, asked of every holder once the attacks are known;
the red Gunsmith may roll again once in each duel, when a new roll could still make him win.

The chips, the mines a chip may triple and whether a new roll may win are `app.rules.dynamite`'s; a chip placed
with a cowboy is the placement's (`legal`), its second die the duel's (`duels.throw`), and with Might Is Right the
Gunsmith's tile comes last (`families.might_is_right`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.board import parcel_xy
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import add_dynamite, evolve, index_of, replace
from app.rules.duels import duelists, throw
from app.rules.dynamite import Fought, dynamite_deciders, dynamite_targets, reroll_may_win
from app.rules.events import (
    DieRerolled,
    DuelRolled,
    DuelTarget,
    DynamiteKept,
    Event,
    MineDynamited,
    RollKept,
    Throw,
)
from app.rules.model import GameState
from app.rules.registry import Step, handles, lists, move_handler
from app.rules.rng import Rng

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import KeepDynamite, KeepRoll, Move, Reroll, UseDynamite

# --- a chip on a mine (R-GG-6) ------------------------------------------------------------------------------------


def dynamite_step(s: GameState) -> Step:
    """At the estate income, once the attacks are known, every holder of a chip with a mine to triple is asked,
    all at once (decision D60); None when nobody is."""
    deciding = dynamite_deciders(s)
    return Awaiting(Decision.DYNAMITE, deciding) if deciding else None


@lists(Decision.DYNAMITE)
def _dynamite(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """A mine to triple, or keep the chip."""
    moves: list[Move] = []
    for index in dynamite_targets(s, seat):
        x, y = parcel_xy(index)
        moves.append({"type": "use_dynamite", "x": x, "y": y})
    moves.append({"type": "keep_dynamite"})
    return moves


@move_handler("use_dynamite")
def _use_dynamite(s: GameState, seat: int, move: UseDynamite, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "mine_dynamited", "seat": seat, "x": move["x"], "y": move["y"]}]


@move_handler("keep_dynamite")
def _keep_dynamite(s: GameState, seat: int, move: KeepDynamite, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "dynamite_kept", "seat": seat}]


@handles("mine_dynamited")
def _mine_dynamited(s: GameState, e: MineDynamited) -> GameState:
    """The chip is used (back to the supply, decision D57) and the mine earns three times as much this round."""
    return replace(add_dynamite(s, e["seat"], -1), dynamite_mines=s.dynamite_mines | {index_of(e)})


@handles("dynamite_kept")
def _dynamite_kept(s: GameState, e: DynamiteKept) -> GameState:
    return replace(s, dynamite_done=s.dynamite_done | {e["seat"]})


# --- the red Gunsmith's second roll (R-GG-8) ----------------------------------------------------------------------


def gunsmith_rolls(s: GameState, target: DuelTarget, seats: list[int], fought: Fought, gunsmith: int) -> Step:
    """A duel with dice and the red Gunsmith: everyone rolls; he is asked whether to roll again when that could
    still make him win (decision D62), and the duel is then fought with the throws as they stand (`001` "The
    Gunsmith (10)")."""
    if s.reroll_pending:
        return Awaiting(Decision.REROLL, (gunsmith,), target)
    if s.duel_rolls:
        return lambda rng: [fought(s, target, seats, rng)]

    def roll(rng: Rng) -> list[Event]:
        rolled: DuelRolled = {"type": "duel_rolled", "target": target.copy(), "seat": gunsmith,
                              "duelists": duelists(s, target, seats, rng)}
        after = evolve(s, rolled)
        if reroll_may_win(after, target, seats, fought, gunsmith, rng):
            return [rolled]
        return [fought(after, target, seats, rng)]  # nothing to decide: the first throws are the duel's

    return roll


@handles("duel_rolled")
def _duel_rolled(s: GameState, e: DuelRolled) -> GameState:
    """The first throws stand while the red Gunsmith decides."""
    rolls: dict[int, Throw] = {}
    for d in e["duelists"]:
        rolled: Throw = {"roll": d["roll"]}
        if "rolls" in d:
            rolled["rolls"] = d["rolls"]
        if "dynamite" in d:
            rolled["dynamite"] = d["dynamite"]
        if "dice" in d:
            rolled["dice"] = d["dice"]
        rolls[d["seat"]] = rolled
    return replace(s, duel_rolls=rolls, reroll_pending=True)


@lists(Decision.REROLL)
def _reroll_or_keep(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """Roll again, or keep the roll (`001` "The Gunsmith (10)", variant)."""
    return [{"type": "reroll"}, {"type": "keep_roll"}]


@move_handler("reroll")
def _reroll(s: GameState, seat: int, move: Reroll, rng: Rng, kind: Decision) -> list[Event]:
    """The Gunsmith's new throw, as his first one was made (two dice with dynamite, twice for the Marksman)."""
    first = s.duel_rolls[seat]
    return [{"type": "die_rerolled", "seat": seat, "first": first,
             "throw": throw(s, seat, bool(first.get("dynamite")), rng)}]


@move_handler("keep_roll")
def _keep_roll(s: GameState, seat: int, move: KeepRoll, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "roll_kept", "seat": seat}]


@handles("die_rerolled")
def _die_rerolled(s: GameState, e: DieRerolled) -> GameState:
    """The new throw counts; the first one is kept beside it for the duel's record."""
    first = e["first"]
    thrown: Throw = {**e["throw"], "first_roll": first["roll"],
                     "first_dice": first.get("dice", first.get("rolls", [first["roll"]]))}
    return replace(s, duel_rolls={**s.duel_rolls, e["seat"]: thrown}, reroll_pending=False)


@handles("roll_kept")
def _roll_kept(s: GameState, e: RollKept) -> GameState:
    return replace(s, reroll_pending=False)
