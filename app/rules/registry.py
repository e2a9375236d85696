"""The kind registries: the tables the dispatch reads, and the decorators that fill them.

The base game (`decide`, `legal`, `flow`, `evolve`) and every family of rules (`app.rules.families`) register their
pieces here, each under the kind it answers, so that a family keeps its pieces in its own module and the dispatch
names no family:

- `MOVES`: for each move type, what the move turns into (its events); `decide.play` dispatches on the move's type;
- `DECLINES`: for each decision a seat may decline, what declining it means: `decline` is one move type for them
  all, and its handler dispatches on the decision it answers;
- `LEGAL`: for each decision, the moves that answer it (`legal.legal_moves`);
- `EFFECTS`: for each event type, what the event does to the state (`draft.evolve`);
- `STEPS`: for each step of the schedule (`catalog.SETUP_STEPS`, `ROUND_STEPS`, `FINAL_STEPS`), what happens there
  (`flow.next_step`).

A kind registered twice is a programming error, raised at import. A kind nobody registered is a KeyError where it
is dispatched, never a default: tests/rules/test_registries.py checks that every table covers its vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar

from app.rules.decisions import Awaiting, Decision
from app.rules.events import Event, EventType
from app.rules.model import GameState
from app.rules.rng import Rng

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Move, MoveType

# A move handler takes the move of its own type (the table dispatches on `type`) and the decision it answers; typed
# `Any` here so that each handler can declare its own TypedDict. A decline handler is one with the move `decline`.
MoveHandler = Callable[[GameState, int, Any, Rng, Decision], list[Event]]
# The moves of a decision: the state, the seat asked and what the flow awaits (a duel's decisions name the duel).
LegalMoves = Callable[[GameState, int, Awaiting], "list[Move]"]
# An effect takes the event of its own type and the draft state (`draft.evolve`), typed `Any` as above.
Effect = Callable[[GameState, Any], GameState]
# A step of the schedule is a decision awaited, events produced with the game's generator, or nothing to do.
Auto = Callable[[Rng], list[Event]]
Step = Awaiting | Auto | None
StepFunction = Callable[[GameState], Step]

MOVES: dict[MoveType, MoveHandler] = {}
DECLINES: dict[Decision, MoveHandler] = {}
LEGAL: dict[Decision, LegalMoves] = {}
EFFECTS: dict[EventType, Effect] = {}
STEPS: dict[str, StepFunction] = {}

K = TypeVar("K", bound=Hashable)
F = TypeVar("F")


def _register(table: dict[K, F], kind: K) -> Callable[[F], F]:
    def register(fn: F) -> F:
        if kind in table:
            raise ValueError(f"{kind!r} is registered twice: {table[kind]!r} and {fn!r}")
        table[kind] = fn
        return fn

    return register


def move_handler(move_type: MoveType) -> Callable[[MoveHandler], MoveHandler]:
    """Register what a move of `move_type` turns into."""
    return _register(MOVES, move_type)


def declines(kind: Decision) -> Callable[[MoveHandler], MoveHandler]:
    """Register what the move `decline` means when it answers the decision `kind`."""
    return _register(DECLINES, kind)


def lists(kind: Decision) -> Callable[[LegalMoves], LegalMoves]:
    """Register the moves that answer the decision `kind`."""
    return _register(LEGAL, kind)


def handles(event_type: EventType) -> Callable[[Effect], Effect]:
    """Register what an event of `event_type` does to the state."""
    return _register(EFFECTS, event_type)


def runs(step: str) -> Callable[[StepFunction], StepFunction]:
    """Register what happens at the step `step` of the schedule."""
    return _register(STEPS, step)
