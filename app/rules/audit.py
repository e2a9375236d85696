"""Checking a game's log against its revealed seed: were the dice, bag draws and shuffles the seed's?

The log records the effects of the players' moves, not the moves themselves, so the audit decides every move
again. The setup must be exactly `new_game(config, seed)`. After it, at every point where the log goes on, the
audit asks the rules for each legal move of each awaited seat, played with the generator the server used there
(`Rng(seed, state.seq)`, as `decide.play`), and keeps the move whose events are the log's next ones; its events
carry every die, draw and shuffle, so they match only if those came from the seed. No move reproducing the log
means the log is not what the rules make of this seed: the audit names the first event that no legal move
reproduces. A move the server made for a seat (its only move, or what the player answered ahead) is
re-decided as that seat's move like any other. Events the server writes itself, outside the rules' decisions (a
seat handed to another player), are folded as they are: they draw nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from app.rules.config import GameConfig
from app.rules.decide import play
from app.rules.events import Event, EventType
from app.rules.evolve import evolve, replay
from app.rules.flow import to_act
from app.rules.legal import legal_moves
from app.rules.model import GameState
from app.rules.rng import Rng
from app.rules.setup import new_game

# Events the server appends without a decision of the rules core; they hold no random result.
SERVER_EVENTS: Final[frozenset[EventType]] = frozenset({"seat_replaced"})


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """The first event of the log (`seq`, 1-based, counted over the whole log) that the rules do not reproduce."""

    seq: int
    reason: str


@dataclass(frozen=True, slots=True)
class Audit:
    """The outcome: no discrepancy, or the first; the state the rules reached and how many moves they re-decided."""

    discrepancy: Discrepancy | None
    state: GameState | None
    moves: int

    @property
    def ok(self) -> bool:
        return self.discrepancy is None


def audit(config: GameConfig, seed: int, log: Sequence[Mapping[str, Any]]) -> Audit:
    """Replay `log` (every event of a game, unredacted, oldest first) from `seed` as described above."""
    events = [_plain(e) for e in log]
    setup = [_plain(e) for e in new_game(config, seed)]
    for index, expected in enumerate(setup):
        found = events[index] if index < len(events) else None
        if found != expected:
            return Audit(Discrepancy(index + 1, "the setup " + _difference(expected, found)), None, 0)
    state = replay(cast(list[Event], setup))
    position, moves = len(setup), 0
    while position < len(events):
        event = events[position]
        if event["type"] in SERVER_EVENTS:
            state = evolve(state, cast(Event, event))
            position += 1
            continue
        if event["type"] == "move_undone":  # a player took a move back: the state before it, by the fold itself
            state = replay(cast(list[Event], events[: position + 1]))
            position += 1
            continue
        decided = _redecide(state, seed, events, position)
        if isinstance(decided, Discrepancy):
            return Audit(decided, state, moves)
        produced, state = decided
        position += produced
        moves += 1
    return Audit(None, state, moves)


def _redecide(
    state: GameState, seed: int, events: Sequence[dict[str, Any]], position: int
) -> tuple[int, GameState] | Discrepancy:
    """The legal move that reproduces the log from `position` on: how many events it made, and the state after
    them; or the first event no legal move reproduces. Of two moves that both match, the one reproducing more of
    the log wins (a move's events always begin with the move's own effect, so two never both match in practice)."""
    if state.status == "finished":
        return Discrepancy(position + 1, "the log goes on after the end of the game")
    best: tuple[int, GameState] | None = None
    nearest = (-1, cast(dict[str, Any] | None, None))
    for seat in to_act(state):
        for move in legal_moves(state, seat):
            produced, after = play(state, seat, move, Rng(seed, state.seq))
            made = [_plain(e) for e in produced]
            same = _common_prefix(made, events[position:])
            if same == len(made):
                if best is None or same > best[0]:
                    best = (same, after)
            elif same > nearest[0]:
                nearest = (same, made[same])
    if best is not None:
        return best
    same, expected = nearest
    if expected is None:
        return Discrepancy(position + 1, "no seat may move here, yet the log goes on")
    found = events[position + same] if position + same < len(events) else None
    return Discrepancy(position + same + 1, "no legal move reproduces it: " + _difference(expected, found))


def _common_prefix(made: Sequence[dict[str, Any]], logged: Sequence[dict[str, Any]]) -> int:
    same = 0
    while same < len(made) and same < len(logged) and made[same] == logged[same]:
        same += 1
    return same


def _plain(event: Mapping[str, Any]) -> dict[str, Any]:
    """An event as JSON has it (tuples become lists), so that the rules' events and a log read back compare;
    without the note that the server made the move for its seat (`automatic`): the audit plays every move as its
    seat's, the answers given ahead outside the log are not in the export, and the note draws nothing."""
    plain: dict[str, Any] = json.loads(json.dumps(dict(event)))
    plain.pop("automatic", None)
    return plain


def _difference(expected: Mapping[str, Any], found: Mapping[str, Any] | None) -> str:
    """In words: what the rules make of the seed here, against what the log holds."""
    if found is None:
        return f"expects a {expected['type']} event, but the log ends"
    if found.get("type") != expected["type"]:
        return f"expects a {expected['type']} event, the log has {found.get('type')}"
    fields = sorted(k for k in {*expected, *found} if expected.get(k) != found.get(k))
    shown = "; ".join(f"{k}: expected {json.dumps(expected.get(k))}, logged {json.dumps(found.get(k))}" for k in fields)
    return f"{expected['type']} differs ({shown})"
