"""Rebuild the public part of a game from one seat's view: the board, the players, the orders, the round's
bookkeeping the base game needs, and the bag as the seat can know it. The secrets are `secrets.py`'s, the
expansions' fields `expansions.py`'s.

The view does not show every bookkeeping field of the state; those the base game needs are worked out from the
step and the awaited decision (who has built from their reserve, whose card decision is awaited, how many starting
parcels were claimed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.bots.base import View
from app.rules import GameConfig, GameState
from app.rules.board import Edge, parcel_index
from app.rules.catalog import BUILDINGS, PERSONALITIES, bag_contents
from app.rules.model import Construction, Cowboy, Parcel, PermissionRequest, PlayerState

# What a card's holder is asked right after choosing it (the Settler's, the Grocer's, ...): while one of these is
# awaited in the personalities step, the state names that seat as the one deciding.
CARD_DECISIONS = frozenset(
    str(side.decision)
    for card in PERSONALITIES.values()
    for side in (card.side("yellow"), card.side("red"))
    if side.decision is not None
)


def state(view: View) -> GameState:
    """The state the view shows, every secret left empty (the bag as the seat can know it)."""
    players = len(view["players"])
    config = GameConfig.from_variants(players, dict(view["variants"]), preview=True)
    step = str(view["step"])
    order = view["turn_order"]
    parcels = view["board"]["parcels"]
    cards = tuple(str(row["card"]) for row in view["personalities"])
    work = _work(view.get("construction_work"))
    awaited = view.get("awaiting")
    to_act = list(view["to_act"])
    card_decision = to_act[0] if step == "personalities" and awaited in CARD_DECISIONS else None
    placement = tuple(order["placement"])
    reserve_done: frozenset[int] = frozenset()
    if step == "build_from_reserve" and work is not None and work.source == "reserve":
        reserve_done = frozenset(placement[: placement.index(work.seat)])
    state = GameState(
        config=config,
        seq=int(view["seq"]),
        round=int(view["round"]),
        step=step,
        players=tuple(_player(row) for row in view["players"]),
        parcels=tuple(Parcel(p["owner"], p["content"], bool(p["river"]), bool(p.get("outlaw"))) for p in parcels),
        roads=frozenset(_edge(road) for road in view["board"]["roads"]),
        centre=parcel_index(*view["board"]["centre"]) if view["board"]["centre"] else None,
        construction=tuple(row["building"] for row in view["construction"]),
        bag=_sampled_bag(view, config, work),
        houses=int(view["houses_left"]),
        townhouses=int(view.get("townhouses_left", GameState.townhouses)),
        sides=_sides(view),
        cards=cards,
        initial_order=tuple(order["initial"]),
        draft_claims=0 if config.new_beginning else min(sum(1 for p in parcels if p["owner"] is not None), 2 * players),
        choosing_order=tuple(order["choosing"]),
        placement_order=placement,
        passing_order=tuple(order["passing"]),
        turn=view["turn"],
        squares=_square_cowboys(view["squares"]),
        parcel_cowboys=_parcel_cowboys(parcels),
        white_cowboy=bool(view["white_cowboy_available"]),
        chip_holder=view["chip_holder"],
        card_decision=card_decision,
        work=work,
        reserve_done=reserve_done,
        duel_target=_duel_target(view.get("duel")),
        attacks={parcel_index(p["x"], p["y"]): p["attacked_by"] for p in parcels if p["attacked_by"] is not None},
        winner=view["winner"],
        scores=tuple(row["score"] for row in view["players"]) if view["players"][0]["score"] else (),
        shopping_done=frozenset(int(row["seat"]) for row in view["players"] if row["shopping_done"]),
    )
    return state


def _player(row: Mapping[str, Any]) -> PlayerState:
    return PlayerState(
        seat=int(row["seat"]),
        money=int(row["money"]),
        cowboys=int(row["cowboys"]),
        revolvers=int(row["revolvers"]),
        roads=int(row["roads"]),
        vp=int(row["vp"]),
        personality=row["personality"],
        passed=bool(row["passed"]),
        buildings=tuple(row["buildings_in_reserve"]),
        card_option=row["card_option"],
        tiles=tuple(row["tiles"] or ()),
        marksman=bool(row["marksman"]),
        picks=int(row["parcel_picks"]),
        dynamite=int(row.get("dynamite", 0)),
        no_duel_chips=int(row.get("no_duel_chips", 0)),
        horses=int(row.get("horses", 0)),
        copied=row.get("copies"),
    )


def _duel_target(duel: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The parcel whose duel is under way (a square's duel is never chosen among others): the state names it once
    its order was chosen among several, and naming it when it was the only one changes nothing."""
    if duel is None or "x" not in duel:
        return None
    return {"x": duel["x"], "y": duel["y"]}


def _edge(road: Sequence[int]) -> Edge:
    a, b, c, d = road
    return (a, b, c, d)


def _cowboys(seats: Sequence[int], white: int | None) -> tuple[Cowboy, ...]:
    """A spot's cowboys as the state keeps them (the white cowboy last: the view does not say where it stands)."""
    cowboys = tuple(Cowboy(seat) for seat in seats)
    return cowboys + ((Cowboy(white, white=True),) if white is not None else ())


def _square_cowboys(squares: Sequence[Mapping[str, Any]]) -> dict[str, tuple[Cowboy, ...]]:
    found = {str(row["square"]): _cowboys(row["cowboys"], row["white_cowboy"]) for row in squares}
    return {square: cowboys for square, cowboys in found.items() if cowboys}


def _parcel_cowboys(parcels: Sequence[Mapping[str, Any]]) -> dict[int, tuple[Cowboy, ...]]:
    found = {parcel_index(p["x"], p["y"]): _cowboys(p["cowboys"], p["white_cowboy"]) for p in parcels}
    return {index: cowboys for index, cowboys in found.items() if cowboys}


def _sides(view: View) -> dict[str, str]:
    """The sides the state records: every side shown, but those the view shows of a card whose side is fixed."""
    sides: dict[str, str] = {}
    for row in view["personalities"]:
        card = PERSONALITIES[row["card"]]
        if row["side"] is None or card.one_side or (card.red_from_round and row["side"] == "yellow"):
            continue
        sides[card.card] = str(row["side"])
    return sides


def _work(work: Mapping[str, Any] | None) -> Construction | None:
    if work is None:
        return None
    request = work["request"]
    return Construction(
        seat=int(work["seat"]),
        source=str(work["source"]),
        building=work["building"],
        parcel=parcel_index(*work["parcel"]) if work["parcel"] is not None else None,
        asked=frozenset(work["asked"]),
        granted=frozenset(parcel_index(x, y) for x, y in work["granted"]),
        request=PermissionRequest(int(request["asked"]), tuple(parcel_index(x, y) for x, y in request["parcels"]))
        if request is not None
        else None,
    )


def _sampled_bag(view: View, config: GameConfig, work: Construction | None) -> dict[str, int]:
    """The bag as the seat can know it: the box's buildings less those in sight (on the board, on the
    construction squares, in the players' reserves, under construction). Which of them is drawn next is left to
    the generator the search plays with."""
    bag = bag_contents(config.expansions)
    seen = [p["content"] for p in view["board"]["parcels"] if p["content"] in BUILDINGS]
    seen += [row["building"] for row in view["construction"] if row["building"] is not None]
    seen += [b for row in view["players"] for b in row["buildings_in_reserve"]]
    if work is not None and work.building is not None and work.parcel is None and work.source == "square":
        seen.append(work.building)
    for building in seen:
        if bag.get(building, 0) > 0:
            bag[building] -= 1
    return bag
