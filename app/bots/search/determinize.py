"""Rebuild, from one seat's view alone, a full game state the rules core can play on (a determinization).

The search bot is handed what a person in the seat is: `player_view(state, seat)` and its legal moves. To look
ahead it needs a state `play` accepts, so this module writes one: everything the view shows is copied, and what it
hides is left to chance as the seat sees it — the bag holds the box's buildings less every building in sight, and
which of them comes out next, like every die, is drawn by the generator the search plays with. The game's seed and the
other seats' secrets are never an input: there is nothing here to read them from.

The view does not show every bookkeeping field of the state; those the base game needs are worked out from the
step and the awaited decision (who has built from their reserve, whose card decision is awaited, how many starting
parcels were claimed). Positions this cannot rebuild faithfully (a secret of a variant the view only counts, an
expansion's state the view does not carry) are refused: `rebuild` returns None when the rebuilt state's view for
the seat differs from the one handed in, or its legal moves from the seat's, and the bot then plays without
search. `tests/bots/test_search.py` checks that every position is rebuilt in the base game, either side, The
River and Big Box's horses; Might Is Right (whose used tiles the view only counts), the vote while under way, A
New Beginning's baskets and most of Gold & Guns' and the Outlaws' positions are not rebuilt yet.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.bots.base import MoveView, View
from app.rules import GameConfig, GameState, legal_moves, player_view
from app.rules.board import Edge, parcel_index
from app.rules.catalog import BUILDINGS, PERSONALITIES, bag_contents
from app.rules.model import Construction, Cowboy, Parcel, PermissionRequest, PlayerState

# What a card's holder is asked right after choosing it (the Settler's, the Grocer's, ...): while one of these is
# awaited in the personalities step, the state names that seat as the one deciding.
CARD_DECISIONS = frozenset(
    str(side.decision) for card in PERSONALITIES.values() for side in (card.side("yellow"), card.side("red"))
    if side.decision is not None
)


def rebuild(view: View, moves: Sequence[MoveView], rng: random.Random | None = None) -> GameState | None:
    """A state consistent with `view`, or None when it would not show the seat the
    same view and the same legal moves."""
    state, cause = _rebuilt(view, moves)
    return state if cause is None else None


def refusal(view: View, moves: Sequence[MoveView], rng: random.Random | None = None) -> str | None:
    """Why `rebuild` refuses this position (None: it does not): the first field of the view the rebuilt state
    shows otherwise, "moves" when only the legal moves differ, or the error raised. For the benchmark."""
    return _rebuilt(view, moves)[1]


def _rebuilt(view: View, moves: Sequence[MoveView]) -> tuple[GameState | None, str | None]:
    try:
        state = _state(view)
        seat = int(view["viewer"])
        shown = player_view(state, seat)
        if shown != dict(view):
            return None, _first_difference(shown, view)
        if legal_moves(state, seat) != [dict(m) for m in moves]:
            return None, "moves"
    except (KeyError, TypeError, ValueError, AssertionError, IndexError) as error:
        return None, f"{type(error).__name__} {error}"  # a view of a kind this module does not know how to rebuild
    return state, None


def _first_difference(shown: Mapping[str, Any], view: View, path: str = "") -> str:
    """The path of the first field where two documents differ (players[2].tiles, ...)."""
    for key in sorted(set(shown) | set(view), key=str):
        a, b = shown.get(key), view.get(key)
        if a == b:
            continue
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            return _first_difference(a, b, f"{path}{key}.")
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for k, (x, y) in enumerate(zip(a, b, strict=True)):
                if x != y:
                    if isinstance(x, Mapping) and isinstance(y, Mapping):
                        return _first_difference(x, y, f"{path}{key}[].")
                    return f"{path}{key}[]"
        return f"{path}{key}"
    return path or "view"


def _state(view: View) -> GameState:
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
        reserve_done = frozenset(placement[:placement.index(work.seat)])
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
        draft_claims=min(sum(1 for p in parcels if p["owner"] is not None), 2 * players),
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
        attacks={parcel_index(p["x"], p["y"]): p["attacked_by"] for p in parcels if p["attacked_by"] is not None},
        winner=view["winner"],
        scores=tuple(row["score"] for row in view["players"]) if view["players"][0]["score"] else (),
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
        if request is not None else None,
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
