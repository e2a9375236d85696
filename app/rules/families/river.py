"""The River's final road phase (variant, RULING V9): after the last cash limit, each player with roads left may
place them, in placement order, one at a time, until they stop.

The river itself (its parcels, the bridges and their cost and VP) is the board's and construction's
(`board.py`, `construction.py`, `scoring.py`); a road is placed with the base game's move, `place_road`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.construction import buildable_roads
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import replace
from app.rules.events import Event, FinalRoadsFinished
from app.rules.model import GameState
from app.rules.registry import Step, handles, lists, move_handler, runs
from app.rules.rng import Rng
from app.rules.steps import awaits

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import FinishRoads, Move


@runs("final_roads")
def _final_roads_step(s: GameState) -> Step:
    """Each player with roads to place, in placement order (`000` "Rules adjusted to yucata", RULING V9)."""
    if not s.config.river:
        return None
    for seat in s.placement_order:
        if seat not in s.final_roads_done and buildable_roads(s, seat):
            return awaits(Decision.FINAL_ROADS, seat)
    return None


@lists(Decision.FINAL_ROADS)
def _final_roads(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """Place roads one at a time, or stop."""
    moves: list[Move] = [
        {"type": "place_road", "x1": e[0], "y1": e[1], "x2": e[2], "y2": e[3]} for e in buildable_roads(s, seat)
    ]
    moves.append({"type": "finish_roads"})
    return moves


@move_handler("finish_roads")
def _finish_roads(s: GameState, seat: int, move: FinishRoads, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "final_roads_finished", "seat": seat}]


@handles("final_roads_finished")
def _final_roads_finished(s: GameState, e: FinalRoadsFinished) -> GameState:
    return replace(s, final_roads_done=s.final_roads_done | {e["seat"]})
