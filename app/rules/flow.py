"""The flow of the game: from any state, what happens next — an automatic step or a decision to await.

`next_step(state)` looks at the state's current step (setup, the round's phases, the action track in order,
the end of round, the final scoring) and returns either `Awaiting(kind, seats)` or an `Auto` that produces the
next events with the seeded generator. `advance` runs automatic steps (and moves that are the only possible
one: "the player is asked only where there is a choice or a cost", RULING B10) until a real decision is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.rules.board import parcel_index, parcel_xy
from app.rules.catalog import (
    BUILDINGS,
    BUY_VP_PRICE,
    CONSTRUCTION_PRICE,
    COWBOY_INCOME_PER_FIREPOWER,
    COWBOYS_PER_PLAYER,
    FINAL_STEPS,
    GROCER_MONEY,
    MIGHT_REDRAW,
    NEW_COWBOYS,
    PARCEL_INCOME_PER_PARCEL,
    PERSONALITIES,
    ROADS_SUPPLY,
    ROUND_STEPS,
    SETUP_STEPS,
    SHOP,
    THREE_ROADS,
    WAGE_PER_COWBOY,
)
from app.rules.construction import buildable_roads, parcels_owned, road_pieces_on_board
from app.rules.duels import duelling_seats, earliest_passer, fight
from app.rules.evolve import evolve
from app.rules.income import estate_payments, firepower, is_protected_by_church, parcel_price
from app.rules.model import Event, GameState
from app.rules.rng import Rng
from app.rules.scoring import final_scores


@dataclass(frozen=True, slots=True)
class Awaiting:
    """A decision the game waits for: its kind (which moves are listed) and the seats that must decide."""

    kind: str
    seats: tuple[int, ...]


Auto = Callable[[Rng], list[Event]]
Step = Awaiting | Auto | None


def _events(*events: Event) -> Auto:
    return lambda rng: list(events)


def _completed(s: GameState, *events: Event) -> Auto:
    """The events of a step that finish it at once, then the cursor moves on."""

    def produce(rng: Rng) -> list[Event]:
        after = s
        for event in events:
            after = evolve(after, event)
        return [*events, *finish_step(after)]

    return produce


# --- shared by several steps ----------------------------------------------------------------------------------


def roads_in_supply(s: GameState) -> int:
    """Road pieces neither on the board nor in a personal reserve (RULING B3); a bridge is two pieces (V3)."""
    return ROADS_SUPPLY - road_pieces_on_board(s) - sum(p.roads for p in s.players)


def refill_event(s: GameState, rng: Rng) -> Event:
    """Unbought buildings slide toward the cheapest squares; empty squares are refilled from the bag, each
    draw at random and written into the event (`000` "End of Round")."""
    remaining = [b for b in s.construction if b is not None]
    bag = [building for building, count in sorted(s.bag.items()) for _ in range(count)]
    drawn: list[str] = []
    while len(remaining) + len(drawn) < len(s.construction) and bag:
        tile = bag.pop(rng.choice(range(len(bag))))
        drawn.append(tile)
    slots: list[str | None] = [*remaining, *drawn]
    slots += [None] * (len(s.construction) - len(slots))
    return {"type": "construction_refilled", "construction": slots, "drawn": drawn}


def cash_limit(s: GameState, seat: int) -> int | None:
    side = s.side(seat)
    return None if side is None else side.cash_limit


def over_cash_limit(s: GameState) -> tuple[int, ...]:
    return tuple(
        p.seat for p in s.players if (limit := cash_limit(s, p.seat)) is not None and p.money > limit
    )


def _target(index: int) -> dict[str, int]:
    x, y = parcel_xy(index)
    return {"x": x, "y": y}


def duel_step(s: GameState, target: dict[str, Any], seats: list[int]) -> Step:
    """A duel: dice at once, or with Might Is Right the secret tiles of those involved first (RULING V2)."""
    if not s.config.might_is_right:
        return lambda rng: [fight(s, target, seats, rng)]
    missing = tuple(seat for seat in seats if seat not in s.duel_tiles)
    if missing:
        return Awaiting("duel_tile", missing)

    def reveal(rng: Rng) -> list[Event]:
        duel = fight(s, target, seats, rng)
        after = evolve(s, duel)
        events = [duel]
        for seat in seats:  # an empty hand takes three tiles at random from the used pile (`000`)
            if not after.players[seat].tiles and after.used_tiles:
                pile = list(after.used_tiles)
                drawn = [pile.pop(rng.choice(range(len(pile)))) for _ in range(min(MIGHT_REDRAW, len(pile)))]
                draw: Event = {"type": "tiles_drawn", "seat": seat, "tiles": sorted(drawn)}
                after = evolve(after, draw)
                events.append(draw)
        return events

    return reveal


# --- the steps ------------------------------------------------------------------------------------------------


def _vote(s: GameState) -> Step:
    """The per-card vote on sides: secret and simultaneous; majority wins, a tie is drawn (RULING V1)."""
    if s.config.sides != "vote" or s.sides:
        return None
    missing = tuple(p.seat for p in s.players if len(s.votes.get(p.seat, {})) < len(PERSONALITIES))
    if missing:
        return Awaiting("vote", missing)

    def count(rng: Rng) -> list[Event]:
        sides: dict[str, str] = {}
        drawn: list[str] = []
        for card in PERSONALITIES:
            red = sum(1 for votes in s.votes.values() if votes[card] == "red")
            yellow = len(s.votes) - red
            if red == yellow:
                drawn.append(card)
                sides[card] = rng.choice(("yellow", "red"))
            else:
                sides[card] = "red" if red > yellow else "yellow"
        votes = {str(seat): dict(v) for seat, v in sorted(s.votes.items())}
        return _completed(s, {"type": "sides_decided", "sides": sides, "votes": votes, "drawn": drawn})(rng)

    return count


def _start_parcels(s: GameState) -> Step:
    if s.config.new_beginning:
        return None  # no starting parcels in A New Beginning (RULING V4)
    order = (*s.initial_order, *reversed(s.initial_order))
    if s.draft_claims < len(order):
        return Awaiting("start_parcel", (order[s.draft_claims],))
    return None


def _shopping(s: GameState) -> Step:
    """A New Beginning: everyone shops in secret; the baskets are revealed together (RULING V4)."""
    if not s.config.new_beginning:
        return None
    missing = tuple(p.seat for p in s.players if p.seat not in s.shopping_done)
    if missing:
        return Awaiting("shopping", missing)
    return _completed(s, shopping_revealed(s))


def shopping_revealed(s: GameState) -> Event:
    """What every basket buys. Roads come from the common supply, in turn order; a road the supply cannot
    give is refunded (RULING B3, decision D21)."""
    supply = roads_in_supply(s)
    baskets = []
    for seat in s.initial_order:
        basket = {item: n for item, n in sorted(s.baskets.get(seat, {}).items()) if n}
        roads = min(basket.get("road", 0), supply)
        supply -= roads
        refund = (basket.get("road", 0) - roads) * SHOP["road"].price
        cost = sum(SHOP[item].price * n for item, n in basket.items()) - refund
        vp = sum(SHOP[item].vp * n for item, n in basket.items())
        baskets.append({"seat": seat, "items": basket, "roads": roads, "money": -cost, "vp": vp})
    return {"type": "shopping_revealed", "baskets": baskets}


def _parcel_picks(s: GameState) -> Step:
    """The parcels bought in A New Beginning are placed in turn order, one at a time (RULING V4)."""
    if not s.config.new_beginning or s.turn is None:
        return None
    return Awaiting("parcel_pick", (s.turn,))


def _personalities(s: GameState) -> Step:
    if s.card_decision is not None:
        side = s.side(s.card_decision)
        assert side is not None and side.decision is not None
        return Awaiting(side.decision, (s.card_decision,))
    chosen = sum(1 for p in s.players if p.personality is not None)
    if chosen < len(s.players):
        return Awaiting("personality", (s.choosing_order[chosen],))
    order = sorted(
        (p.seat for p in s.players),
        key=lambda seat: PERSONALITIES[s.players[seat].personality or ""].number,
    )
    return _completed(s, {"type": "placement_order_set", "order": order})


def _placement(s: GameState) -> Step:
    if s.turn is None:
        return None
    return Awaiting("placement", (s.turn,))


def _wages(s: GameState) -> Step:
    cowboys = s.squares.get("wages")
    if not cowboys:
        return None
    payments = [
        {"seat": seat, "cowboys": n, "amount": WAGE_PER_COWBOY * n}
        for seat in s.placement_order
        if (n := sum(1 for c in cowboys if c.seat == seat))
    ]
    return _events({"type": "wages_paid", "payments": payments})


def _road(s: GameState) -> Step:
    cowboys = s.squares.get("road")
    if not cowboys:
        return None
    supply = roads_in_supply(s)
    gains = []
    for seat in s.placement_order:  # a gain beyond the supply is lost (RULING B3)
        n = sum(1 for c in cowboys if c.seat == seat)
        if n:
            gains.append({"seat": seat, "cowboys": n, "roads": min(n, supply)})
            supply -= min(n, supply)
    return _events({"type": "roads_handed_out", "gains": gains})


def _single_square(square: str, perform: Callable[[GameState, str, int], Step]) -> Callable[[GameState], Step]:
    """A square won by one player: a duel if several players are there, then the winner's action."""

    def step(s: GameState) -> Step:
        cowboys = s.squares.get(square)
        if not cowboys:
            return None
        seats = duelling_seats(cowboys)
        if len(seats) > 1:
            return duel_step(s, {"square": square}, seats)
        return perform(s, square, seats[0])

    return step


def _ammunition(s: GameState, square: str, seat: int) -> Step:
    return _events({"type": "chip_taken", "seat": seat, "square": square})


def _three_roads(s: GameState, square: str, seat: int) -> Step:
    return _events({"type": "roads_gained", "seat": seat, "square": square,
                    "count": min(THREE_ROADS, roads_in_supply(s))})


def _money_square(amount: Callable[[GameState, int], int]) -> Callable[[GameState, str, int], Step]:
    def perform(s: GameState, square: str, seat: int) -> Step:
        return _events({"type": "money_gained", "seat": seat, "square": square, "amount": amount(s, seat)})

    return perform


def _gambling(s: GameState, square: str, seat: int) -> Step:
    def roll(rng: Rng) -> list[Event]:
        dice = [rng.die(), rng.die()]
        return [{"type": "money_gained", "seat": seat, "square": square, "amount": sum(dice), "dice": dice}]

    return roll


def _vp_square(amount: Callable[[GameState, int], int]) -> Callable[[GameState, str, int], Step]:
    def perform(s: GameState, square: str, seat: int) -> Step:
        return _events({"type": "vp_gained", "seat": seat, "square": square, "amount": amount(s, seat)})

    return perform


def parcel_income(s: GameState, seat: int) -> int:
    """Parcel income: $2 per parcel owned (`000` "Parcel income")."""
    return PARCEL_INCOME_PER_PARCEL * parcels_owned(s, seat)


def cowboy_income(s: GameState, seat: int) -> int:
    """Cowboy income: $2 per firepower point (`000` "Cowboy income")."""
    return COWBOY_INCOME_PER_FIREPOWER * firepower(s, seat)


def parcels_vp(s: GameState, seat: int) -> int:
    """Parcels VP: half the parcels owned, rounded down (`000` "Parcels victory points")."""
    return parcels_owned(s, seat) // 2


def cowboy_vp(s: GameState, seat: int) -> int:
    """Cowboy VP: half the firepower, rounded down (`000` "Cowboy victory points")."""
    return firepower(s, seat) // 2


def estate_vp(s: GameState, seat: int) -> int:
    """Estate VP: buildings on one's parcels, houses and mountains excluded (`000` "Estate victory points")."""
    return sum(1 for p in s.parcels if p.owner == seat and p.content in BUILDINGS)


# What each income and VP square would give each player now: the hints the board shows (`000` "Hints").
SQUARE_GAINS: dict[str, Callable[[GameState, int], int]] = {
    "parcel_income": parcel_income,
    "cowboy_income": cowboy_income,
    "parcels_vp": parcels_vp,
    "cowboy_vp": cowboy_vp,
    "estate_vp": estate_vp,
}


def _buy_vp(s: GameState, square: str, seat: int) -> Step:
    return Awaiting("buy_vp", (seat,))


def _contested_or_single(s: GameState, spots: dict[int, list[int]], single: Callable[[int, list[int]], Step]) -> Step:
    """Parcels and buildings: lone cowboys first, then the duels, in the order the earliest passer among the
    players involved picks (RULING B9)."""
    for index, seats in spots.items():
        if len(seats) == 1:
            return single(index, seats)
    contested = [index for index, seats in spots.items() if len(seats) > 1]
    if not contested:
        return None
    if s.duel_target is not None:
        target = dict(s.duel_target)
        return duel_step(s, target, spots[parcel_index(target["x"], target["y"])])
    if len(contested) == 1:
        index = contested[0]
        return duel_step(s, _target(index), spots[index])
    involved = {seat for index in contested for seat in spots[index]}
    return Awaiting("choose_duel", (earliest_passer(s, involved),))


def purchase_spots(s: GameState) -> dict[int, list[int]]:
    """Who stands on each building-free parcel (memoised per state: the flow and the legal moves both ask)."""
    if "purchase_spots" not in s.memo:
        s.memo["purchase_spots"] = {
            index: duelling_seats(cowboys)
            for index, cowboys in sorted(s.parcel_cowboys.items())
            if cowboys and s.parcels[index].content not in BUILDINGS
        }
    spots: dict[int, list[int]] = s.memo["purchase_spots"]
    return spots


def attack_spots(s: GameState) -> dict[int, list[int]]:
    return {
        index: duelling_seats(cowboys)
        for index, cowboys in sorted(s.parcel_cowboys.items())
        if cowboys and s.parcels[index].content in BUILDINGS
    }


def purchase_singles(s: GameState, seat: int) -> list[int]:
    """The parcels where only `seat`'s cowboy stands: the purchases awaiting their decision."""
    return [index for index, seats in purchase_spots(s).items() if seats == [seat]]


def _parcel_purchase(s: GameState) -> Step:
    """Lone cowboys first, their players in placement order, then the duels."""
    spots = purchase_spots(s)
    alone = {seats[0] for seats in spots.values() if len(seats) == 1}
    for seat in s.placement_order:
        if seat in alone:
            return Awaiting("buy_parcel", (seat,))
    return _contested_or_single(s, spots, lambda index, seats: None)


def _offer_building(s: GameState, square: str, seat: int) -> Step:
    return Awaiting("buy_building", (seat,))


def placement_cost(s: GameState, seat: int) -> int:
    """What the parcels and buildings under `seat`'s cowboys would cost them now (`000` "Hints": the sum
    shown during cowboy placement)."""
    parcels = sum(
        parcel_price(s, index)
        for index, cowboys in s.parcel_cowboys.items()
        if s.parcels[index].owner is None and any(c.seat == seat for c in cowboys)
    )
    buildings = sum(
        building_price(s, seat, square)
        for square in CONSTRUCTION_PRICE
        if any(c.seat == seat for c in s.squares.get(square, ()))
    )
    return parcels + buildings


def building_price(s: GameState, seat: int, square: str) -> int:
    """The square's price; the (yellow) Chinese Worker pays half, rounded up (`000` "Chinese worker")."""
    price = CONSTRUCTION_PRICE[square]
    return (price + 1) // 2 if s.holds(seat, "chinese_worker", "yellow") else price


def _build_from_reserve(s: GameState) -> Step:
    for seat in s.placement_order:
        if seat not in s.reserve_done and s.players[seat].buildings:
            return _events({"type": "construction_started", "seat": seat})
    return None


def _estate_income(s: GameState) -> Step:
    spots = attack_spots(s)
    for index, seats in spots.items():
        owner = s.parcels[index].owner
        attackers = [seat for seat in seats if seat != owner]
        if attackers and is_protected_by_church(s.parcels, index):
            return _events({"type": "attack_cancelled", **_target(index), "seats": attackers})

    def single(index: int, seats: list[int]) -> Step:
        kind = "building_defended" if seats[0] == s.parcels[index].owner else "attack_won"
        return _events({"type": kind, **_target(index), "seat": seats[0]})

    step = _contested_or_single(s, spots, single)
    if step is not None:
        return step
    grocer = [
        {"type": "money_gained", "seat": p.seat, "amount": GROCER_MONEY, "reason": "grocer"}
        for p in s.players
        if p.card_option == "money_at_income" and s.holds(p.seat, "grocer", "yellow")
    ]
    return _completed(s, *grocer, {"type": "estate_income_paid", "payments": estate_payments(s)})


def _banker_vp(s: GameState) -> Step:
    banker = s.holder("banker", "red")
    if banker is None:
        return None
    return Awaiting("banker_vp", (banker,))


def _cash_limit(s: GameState) -> Step:
    over = over_cash_limit(s)
    return Awaiting("cash_limit", over) if over else None


def _end_of_round_vp(s: GameState) -> Step:
    """Red Settler: 1 VP per mountain owned; red Grocer: 1 VP per house owned (`000` "Personalities")."""
    events: list[Event] = []
    for card, content in (("settler", "mountain"), ("grocer", "house")):
        seat = s.holder(card, "red")
        if seat is not None and s.players[seat].card_option == "vp":
            count = sum(1 for p in s.parcels if p.owner == seat and p.content == content)
            events.append({"type": "vp_gained", "seat": seat, "amount": count, "reason": f"{card}_red"})
    return _completed(s, *events) if events else None


def _new_cowboys(s: GameState) -> Step:
    if s.round not in NEW_COWBOYS:
        return None
    gains = [
        {"seat": p.seat, "count": min(NEW_COWBOYS[s.round], COWBOYS_PER_PLAYER - p.cowboys)} for p in s.players
    ]
    return _completed(s, {"type": "cowboys_received", "gains": gains})


def _refill(s: GameState) -> Step:
    if s.round not in NEW_COWBOYS:
        return None
    return lambda rng: _completed(s, refill_event(s, rng))(rng)


def _round_end(s: GameState) -> Step:
    return _events({"type": "round_ended", "round": s.round})


def _final_roads(s: GameState) -> Step:
    """The River: after the last cash limit, each player with roads may place them, in placement order
    (`000` "Rules adjusted to yucata", RULING V9)."""
    if not s.config.river:
        return None
    for seat in s.placement_order:
        if seat not in s.final_roads_done and buildable_roads(s, seat):
            return Awaiting("final_roads", (seat,))
    return None


def _final_scoring(s: GameState) -> Step:
    def score(rng: Rng) -> list[Event]:  # scored when the step runs, not each time the flow looks ahead to it
        scores, winner = final_scores(s)
        return [{"type": "game_finished", "scores": scores, "winner": winner}]

    return score


STEPS: dict[str, Callable[[GameState], Step]] = {
    "vote": _vote,
    "start_parcels": _start_parcels,
    "shopping": _shopping,
    "parcel_picks": _parcel_picks,
    "personalities": _personalities,
    "placement": _placement,
    "wages": _wages,
    "ammunition": _single_square("ammunition", _ammunition),
    "three_roads": _single_square("three_roads", _three_roads),
    "road": _road,
    "parcel_purchase": _parcel_purchase,
    **{square: _single_square(square, _offer_building) for square in CONSTRUCTION_PRICE},
    "build_from_reserve": _build_from_reserve,
    "parcel_income": _single_square("parcel_income", _money_square(parcel_income)),
    "cowboy_income": _single_square("cowboy_income", _money_square(cowboy_income)),
    "gambling_income": _single_square("gambling_income", _gambling),
    "estate_income": _estate_income,
    "parcels_vp": _single_square("parcels_vp", _vp_square(parcels_vp)),
    "cowboy_vp": _single_square("cowboy_vp", _vp_square(cowboy_vp)),
    "estate_vp": _single_square("estate_vp", _vp_square(estate_vp)),
    **{square: _single_square(square, _buy_vp) for square in BUY_VP_PRICE},
    "banker_vp": _banker_vp,
    "cash_limit": _cash_limit,
    "end_of_round_vp": _end_of_round_vp,
    "new_cowboys": _new_cowboys,
    "refill": _refill,
    "round_end": _round_end,
    "final_roads": _final_roads,
    "final_scoring": _final_scoring,
}


def next_step(s: GameState) -> Step:
    """What happens next. An awaited decision is memoised per state (`advance` asks it of every state it
    reaches, `awaiting` and the legal moves ask it again); an automatic step runs once and is not kept, since
    it holds its state (kept, it would tie the state to itself and leave it for the garbage collector)."""
    if "next" in s.memo:
        step: Step = s.memo["next"]
        return step
    step = _next_step(s)
    if isinstance(step, Awaiting) or step is None:
        s.memo["next"] = step
    return step


def _next_step(s: GameState) -> Step:
    """A construction under way comes first (its permission request before it)."""
    if s.step == "finished":
        return None
    if s.work is not None:
        if s.work.request is not None:
            return Awaiting("permission", (s.work.request.asked,))
        return Awaiting("construct", (s.work.seat,))
    step = STEPS[s.step](s)
    if step is not None:
        return step
    return _events(*finish_step(s))


def finish_step(s: GameState) -> list[Event]:
    """The event that ends the current step (for decisions that end a step by themselves)."""
    return [{"type": "step_completed", "step": s.step, "next": _next_busy_step(s)}]


def _next_busy_step(s: GameState) -> str:
    """The next step of the schedule that has something to do; steps with nothing to do are skipped in one
    event, so the log shows only what happened."""
    for schedule in (SETUP_STEPS + ROUND_STEPS[:1], ROUND_STEPS, FINAL_STEPS):
        if s.step in schedule:
            for step in schedule[schedule.index(s.step) + 1:]:
                # A round always starts with the personalities (whose order is only set as it starts).
                if step == ROUND_STEPS[0] or STEPS[step](s) is not None:
                    return step
    raise AssertionError("the last step of every schedule always has something to do")


def awaiting(s: GameState) -> Awaiting | None:
    step = next_step(s)
    return step if isinstance(step, Awaiting) else None
