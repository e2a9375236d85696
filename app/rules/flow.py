"""The flow of the game: from any state, what happens next — an automatic step or a decision to await.

`next_step(state)` looks at what must be settled first (the defeated cowboys, the City Hall just drawn, a
construction under way), then at the state's current step (setup, the round's phases, the action track in order,
the end of round, the final scoring), and returns either `Awaiting(kind, seats)` or an `Auto` that produces the
next events with the seeded generator. `decide.advance` runs automatic steps (and moves that are the only possible
one: "the player is asked only where there is a choice or a cost", RULING B10) until a real decision is needed.

This module is the schedule: which step comes next and whose decision it awaits. Each step is registered by name
(`registry.STEPS`): the base game's here, the families' in their modules, and where a family acts within a step of
the base game (the horses at Wages, the Outlaws before the personalities, ...) the step here calls the family's
`..._step` at its place. What a step computes — prices, income, the supply, duels, the shop, the score — lives in
the module named after that part of the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import app.rules.families  # noqa: F401  (every family registers its steps before the schedule is read)
from app.rules.board import parcel_index, parcel_xy
from app.rules.cash_limit import over_cash_limit
from app.rules.catalog import (
    BUY_VP_PRICE,
    CONSTRUCTION_PRICE,
    COWBOYS_PER_PLAYER,
    NEW_COWBOYS,
    PERSONALITIES,
    THREE_ROADS,
)
from app.rules.city_hall import cowboys_away
from app.rules.decisions import Awaiting, Decision
from app.rules.duels import (
    attack_spots,
    city_hall_contenders,
    duelling_seats,
    earliest_passer,
    fight,
    lone_buyers,
    purchase_spots,
)
from app.rules.dynamite import Fought, rerolling_seat
from app.rules.events import XY, CowboyGain, DuelTarget, Event, RoadGain
from app.rules.families.auction import auction_step
from app.rules.families.cards import grocer_income
from app.rules.families.characters import singer_step
from app.rules.families.city_hall import city_hall_step
from app.rules.families.construction import construction_step
from app.rules.families.doctor_undertaker import defeat_step
from app.rules.families.dynamite import dynamite_step, gunsmith_rolls
from app.rules.families.horses import horse_step
from app.rules.families.might_is_right import tiles_step
from app.rules.families.outlaws import outlaws_step, reward_step
from app.rules.horses import wages_payments
from app.rules.income import (
    cowboy_income,
    cowboy_vp,
    estate_payments,
    estate_vp,
    is_protected_by_church,
    parcel_income,
    parcels_vp,
)
from app.rules.model import GameState
from app.rules.outlaws import estate_duels, fight_outlaw
from app.rules.registry import STEPS, Step, StepFunction, runs
from app.rules.rng import Rng
from app.rules.scoring import final_scores
from app.rules.steps import at_once, awaits, completed, finish_step
from app.rules.supply import refill_event, roads_in_supply

__all__ = ["STEPS", "Awaiting", "Step", "awaiting", "finish_step", "next_step", "to_act"]


# --- shared by several steps ----------------------------------------------------------------------------------


def _target(index: int) -> XY:
    x, y = parcel_xy(index)
    return {"x": x, "y": y}


def duel_step(s: GameState, target: DuelTarget, seats: list[int], fought: Fought = fight) -> Step:
    """A duel (or an outlaw fight, `fought`): dice at once, or with Might Is Right the secret tiles of those
    involved first (RULING V2). The red Gunsmith may roll again, or plays his tile after the others (RULING G7)."""
    gunsmith = rerolling_seat(s, seats)
    if s.config.might_is_right:
        return tiles_step(s, target, seats, fought, gunsmith)
    if gunsmith is None:
        return lambda rng: [fought(s, target, seats, rng)]
    return gunsmith_rolls(s, target, seats, fought, gunsmith)


# --- the steps ------------------------------------------------------------------------------------------------


def _start_parcels(s: GameState) -> Step:
    if s.config.new_beginning:
        return None  # no starting parcels in A New Beginning (RULING V4)
    order = (*s.initial_order, *reversed(s.initial_order))
    if s.draft_claims < len(order):
        return awaits(Decision.START_PARCEL, order[s.draft_claims])
    return None


def _personalities(s: GameState) -> Step:
    outlaws = outlaws_step(s)  # the Outlaws arrive and move first (RULING G4)
    if outlaws is not None:
        return outlaws
    if s.card_decision is not None:
        side = s.side(s.card_decision)
        assert side is not None and side.decision is not None
        return awaits(side.decision, s.card_decision)
    if s.auction is not None:
        return auction_step(s)
    chosen = sum(1 for p in s.players if p.personality is not None)
    if chosen < len(s.players):
        return awaits(Decision.PERSONALITY, s.choosing_order[chosen])
    order = sorted(
        (p.seat for p in s.players),
        key=lambda seat: PERSONALITIES[s.players[seat].personality or ""].number,
    )
    return completed(s, {"type": "placement_order_set", "order": order})


def _placement(s: GameState) -> Step:
    if s.turn is None:
        return None
    return awaits(Decision.PLACEMENT, s.turn)


def _wages(s: GameState) -> Step:
    """Wages for every cowboy there; with Big Box's horses each seat that could buy one is asked first (X6)."""
    if not s.squares.get("wages"):
        return None
    asked = horse_step(s)
    if asked is not None:
        return asked
    return at_once({"type": "wages_paid", "payments": wages_payments(s)})


def _road(s: GameState) -> Step:
    cowboys = s.squares.get("road")
    if not cowboys:
        return None
    supply = roads_in_supply(s)
    gains: list[RoadGain] = []
    for seat in s.placement_order:  # a gain beyond the supply is lost (RULING B3)
        n = sum(1 for c in cowboys if c.seat == seat)
        if n:
            gains.append({"seat": seat, "cowboys": n, "roads": min(n, supply)})
            supply -= min(n, supply)
    return at_once({"type": "roads_handed_out", "gains": gains})


def _single_square(square: str, perform: Callable[[GameState, str, int], Step]) -> Callable[[GameState], Step]:
    """A square won by one player: a duel if several players are there, then the winner's action. A cowboy with
    the Singer's "no duel" chip performs first, whoever else is there; the others are then resolved as if it were
    absent (RULING G9)."""

    def step(s: GameState) -> Step:
        cowboys = s.squares.get(square)
        if not cowboys:
            return None
        for c in cowboys:  # a plain loop: the schedule looks ahead through this step often
            if c.no_duel:
                return perform(s, square, c.seat)
        seats = duelling_seats(cowboys)
        if len(seats) > 1:
            return duel_step(s, {"square": square}, seats)
        return perform(s, square, seats[0])

    return step


def _ammunition(s: GameState, square: str, seat: int) -> Step:
    return at_once({"type": "chip_taken", "seat": seat, "square": square})


def _three_roads(s: GameState, square: str, seat: int) -> Step:
    return at_once({"type": "roads_gained", "seat": seat, "square": square,
                    "count": min(THREE_ROADS, roads_in_supply(s))})


def _money_square(amount: Callable[[GameState, int], int]) -> Callable[[GameState, str, int], Step]:
    def perform(s: GameState, square: str, seat: int) -> Step:
        return at_once({"type": "money_gained", "seat": seat, "square": square, "amount": amount(s, seat)})

    return perform


def _gambling_income(s: GameState) -> Step:
    """The red Singer's cowboy acts first and never duels; the other cowboys are then resolved among themselves
    as if it were absent (`001` "The Singer (11)", RULING G9 by analogy, decision D43)."""
    singer = singer_step(s)
    if singer is not None:
        return singer
    return _single_square("gambling_income", _gambling)(s)


def _gambling(s: GameState, square: str, seat: int) -> Step:
    def roll(rng: Rng) -> list[Event]:
        dice = [rng.die(), rng.die()]
        return [{"type": "money_gained", "seat": seat, "square": square, "amount": sum(dice), "dice": dice}]

    return roll


def _vp_square(amount: Callable[[GameState, int], int]) -> Callable[[GameState, str, int], Step]:
    def perform(s: GameState, square: str, seat: int) -> Step:
        return at_once({"type": "vp_gained", "seat": seat, "square": square, "amount": amount(s, seat)})

    return perform


def _buy_vp(s: GameState, square: str, seat: int) -> Step:
    return awaits(Decision.BUY_VP, seat)


def _next_duel(s: GameState, duels: dict[int, list[int]]) -> Step:
    """One contested parcel or building, or one outlaw's fight, at a time, in the order the earliest passer among
    the players involved picks (RULINGS B9, G15)."""
    if s.duel_target is not None:
        index = parcel_index(s.duel_target["x"], s.duel_target["y"])
    elif len(duels) == 1:
        (index,) = duels
    else:
        involved = {seat for seats in duels.values() for seat in seats}
        return awaits(Decision.CHOOSE_DUEL, earliest_passer(s, involved))
    x, y = parcel_xy(index)
    return duel_step(s, {"x": x, "y": y}, duels[index], fight_outlaw if s.parcels[index].outlaw else fight)


def _contested_or_single(s: GameState, spots: dict[int, list[int]], single: Callable[[int, list[int]], Step],
                         duels: Callable[[GameState], dict[int, list[int]]] | None = None) -> Step:
    """Parcels and buildings: lone cowboys first, then the duels (those `duels` names, by default the contested
    `spots`)."""
    for index, seats in spots.items():
        if len(seats) == 1:
            return single(index, seats)
    waiting = {index: seats for index, seats in spots.items() if len(seats) > 1} if duels is None else duels(s)
    return _next_duel(s, waiting) if waiting else None


def _parcel_purchase(s: GameState) -> Step:
    """Lone cowboys first, their players in placement order, then the duels."""
    alone = lone_buyers(s)
    for seat in s.placement_order:
        if seat in alone:
            return awaits(Decision.BUY_PARCEL, seat)
    return _contested_or_single(s, purchase_spots(s), _bought_already)


def _bought_already(index: int, seats: list[int]) -> Step:
    """Nothing for a lone cowboy among the duels: every lone cowboy's purchase was asked before them."""
    return None


def _offer_building(s: GameState, square: str, seat: int) -> Step:
    return awaits(Decision.BUY_BUILDING, seat)


def _estate_income(s: GameState) -> Step:
    """The City Hall's duel first (RULING G2, decision D38), then the attacks nobody contests, then the outlaw
    fights (`001` "How to Fight an Outlaw?": before the incomes) and the contested buildings, one pool in the order
    the earliest passer among those involved picks (RULINGS B9, G15, decision D51), each fight followed by its
    winner's reward; then the incomes (B13)."""
    if s.outlaw_beaten is not None:
        return reward_step(s)
    contenders = city_hall_contenders(s)
    if len(contenders) > 1:
        assert s.city_hall is not None
        x, y = parcel_xy(s.city_hall)
        return duel_step(s, {"x": x, "y": y}, contenders)
    spots = attack_spots(s)
    for index, seats in spots.items():
        owner = s.parcels[index].owner
        attackers = [seat for seat in seats if seat != owner]
        if attackers and is_protected_by_church(s.parcels, index):
            return at_once({"type": "attack_cancelled", **_target(index), "seats": attackers})

    def single(index: int, seats: list[int]) -> Step:
        if seats[0] == s.parcels[index].owner:
            return at_once({"type": "building_defended", **_target(index), "seat": seats[0]})
        return at_once({"type": "attack_won", **_target(index), "seat": seats[0]})

    # Without the Outlaws the duels are the contested buildings, `_contested_or_single`'s own.
    step = _contested_or_single(s, spots, single, estate_duels if s.config.outlaws else None)
    if step is not None:
        return step
    dynamite = dynamite_step(s)  # dynamite on a mine, once the attacks are known (decision D60)
    if dynamite is not None:
        return dynamite
    return completed(s, *grocer_income(s), {"type": "estate_income_paid", "payments": estate_payments(s)})


def _cash_limit(s: GameState) -> Step:
    over = over_cash_limit(s)
    return Awaiting(Decision.CASH_LIMIT, over) if over else None


def _new_cowboys(s: GameState) -> Step:
    if s.round not in NEW_COWBOYS:
        return None
    gains: list[CowboyGain] = [
        {"seat": p.seat, "count": min(NEW_COWBOYS[s.round], COWBOYS_PER_PLAYER - p.cowboys - cowboys_away(s, p.seat))}
        for p in s.players
    ]
    return completed(s, {"type": "cowboys_received", "gains": gains})


def _refill(s: GameState) -> Step:
    if s.round not in NEW_COWBOYS:
        return None
    return lambda rng: completed(s, refill_event(s, rng))(rng)


def _round_end(s: GameState) -> Step:
    return at_once({"type": "round_ended", "round": s.round})


def _final_scoring(s: GameState) -> Step:
    def score(rng: Rng) -> list[Event]:  # scored when the step runs, not each time the flow looks ahead to it
        scores, winner = final_scores(s)
        return [{"type": "game_finished", "scores": scores, "winner": winner}]

    return score


# The base game's steps; the families register theirs (the vote, A New Beginning's shopping and parcel picks,
# building from the reserve, the red Banker's VP and the red cards' VP, The River's final roads).
_BASE_STEPS: Final[dict[str, StepFunction]] = {
    "start_parcels": _start_parcels,
    "personalities": _personalities,
    "placement": _placement,
    "wages": _wages,
    "ammunition": _single_square("ammunition", _ammunition),
    "three_roads": _single_square("three_roads", _three_roads),
    "road": _road,
    "parcel_purchase": _parcel_purchase,
    **{square: _single_square(square, _offer_building) for square in CONSTRUCTION_PRICE},
    "parcel_income": _single_square("parcel_income", _money_square(parcel_income)),
    "cowboy_income": _single_square("cowboy_income", _money_square(cowboy_income)),
    "gambling_income": _gambling_income,
    "estate_income": _estate_income,
    "parcels_vp": _single_square("parcels_vp", _vp_square(parcels_vp)),
    "cowboy_vp": _single_square("cowboy_vp", _vp_square(cowboy_vp)),
    "estate_vp": _single_square("estate_vp", _vp_square(estate_vp)),
    **{square: _single_square(square, _buy_vp) for square in BUY_VP_PRICE},
    "cash_limit": _cash_limit,
    "new_cowboys": _new_cowboys,
    "refill": _refill,
    "round_end": _round_end,
    "final_scoring": _final_scoring,
}
for _name, _step in _BASE_STEPS.items():
    runs(_name)(_step)


def next_step(s: GameState) -> Step:
    """What happens next. An awaited decision is memoised per state (`advance` asks it of every state it
    reaches, `awaiting` and the legal moves ask it again); an automatic step runs once and is not kept, since
    it holds its state (kept, it would tie the state to itself and leave it for the garbage collector)."""
    step: Step = s.memo.get("next", _UNKNOWN)
    if step is not _UNKNOWN:
        return step
    step = _next_step(s)
    if type(step) is Awaiting or step is None:
        s.memo["next"] = step
    return step


_UNKNOWN: Final = object()  # a state's next step not worked out yet (None is an answer of its own)


def _next_step(s: GameState) -> Step:
    """The defeated cowboys' fate comes first, then the City Hall just drawn, then a construction under way (its
    permission request before it)."""
    if s.step == "finished":
        return None
    if s.defeat is not None:  # the owners of cowboys just defeated decide at once (RULING G11)
        return defeat_step(s)
    if s.city_hall_drawn:
        return city_hall_step(s)
    if s.work is not None:
        return construction_step(s)
    step = STEPS[s.step](s)
    if step is not None:
        return step
    return at_once(*finish_step(s))


def awaiting(s: GameState) -> Awaiting | None:
    """The decision awaited now, if any (`next_step`'s answer, read from the state's memo when it is there: asked
    several times of every state a decision is awaited in)."""
    step = s.memo.get("next", _UNKNOWN)
    if step is _UNKNOWN:
        step = next_step(s)
    return step if type(step) is Awaiting else None


def to_act(s: GameState) -> tuple[int, ...]:
    """The seats whose decision the game awaits now."""
    step = s.memo.get("next", _UNKNOWN)  # `awaiting`, written out: asked once a decision by every caller
    if step is _UNKNOWN:
        step = next_step(s)
    return step.seats if type(step) is Awaiting else ()
