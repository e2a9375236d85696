"""What the table's templates show, built from what the reads returned: the viewer's state document, their legal
moves as choices and board targets, the log in words, the move clocks, and a past position's controls."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.notify.gamelog import Describer, LoggedEvent, game_log
from app.play.positions import Board, GameSummary, Position
from app.web import changes, game_rows, guide, present


@dataclass(frozen=True, slots=True)
class HistoryControls:
    """Where the viewer is in the game's past, and where the controls lead."""

    at: int
    last: int
    rounds: list[tuple[int, int]]  # (round, the position where it began)
    everything: bool  # the game is over: every secret is shown

    @property
    def back(self) -> int | None:
        return self.at - 1 if self.at > 1 else None

    @property
    def forward(self) -> int | None:
        return self.at + 1 if self.at < self.last else None


def history_controls(position: Position) -> HistoryControls:
    everything = position.summary.status == "finished"
    return HistoryControls(position.view["seq"], position.last, position.rounds, everything)


def board_context(summary: GameSummary, board: Board, waiting: int = 0) -> dict[str, Any]:
    """The table's templates' context from one read of the game (`Positions.table`): with, once it is no longer
    the viewer's turn here, how many of their other games await them (`next_waiting`, the "Next game" link; 0
    while it is their turn, once the game is over, or for a spectator), and the other seats' moves since the
    viewer's last one (`changes`), marked on the board and in the log."""
    logged: list[LoggedEvent] = [(e.seq, e.data, e.at, e.timed_out, e.by_bot) for e in board.events]
    since = changes.since_last_move(changes.of_events(board.events), board.view.get("viewer"))
    context = table_context(summary, board.view, board.moves, logged, game_rows.deadlines(summary), since)
    seated_elsewhere = context["me"] is not None and not context["my_turn"] and summary.status == "active"
    context["next_waiting"] = waiting if seated_elsewhere else 0
    return context


def past_context(position: Position, log_length: int) -> dict[str, Any]:
    """The table's templates' context for a past position (`Positions.history`), its last `log_length` events
    logged; no choices."""
    logged: list[LoggedEvent] = [(e.seq, e.data, e.at, e.timed_out, e.by_bot) for e in position.events[-log_length:]]
    return table_context(position.summary, position.view, [], logged)


def table_context(
    game: Any, doc: dict[str, Any], moves: list[dict[str, Any]], events: Sequence[LoggedEvent],
    deadlines: list[tuple[str, str, str]] | None = None, since: changes.Changes = changes.NONE,
) -> dict[str, Any]:
    """What the table's templates need: the viewer's state document, their legal moves as choices and board
    targets, the log (`events`: (seq, event) already redacted for the viewer, oldest first) and what changed
    since the viewer's last move (none in a past position)."""
    groups, targets = present.choices(doc, moves)
    built, offered = present.roads(doc, targets)
    describer = Describer([p["username"] for p in doc["players"]])
    log = game_log(describer, events)
    viewer = doc.get("viewer")
    by_seat = {p["seat"]: p for p in doc["players"]}
    stake = present.stake(doc, moves)
    return {
        "game": game,
        "doc": doc,
        "me": by_seat.get(viewer) if viewer is not None else None,
        "my_turn": viewer is not None and viewer in doc["to_act"],
        "decision": present.said(present.decision_text(doc.get("awaiting"))),
        "phase_name": present.phase_name(doc.get("phase")),
        "waiting_text": present.waiting_text(doc),
        "groups": groups,
        "cells": present.cells(doc, targets),
        "marks": present.player_marks([p["username"] for p in doc["players"]]),
        "legend": guide.building_legend(doc["variants"].get("expansions") or []),
        "roads": built,
        "offered_roads": offered,
        "track": present.track(doc, targets),
        "cards": present.personality_cards(doc),
        "variants": present.variant_badges(doc["variants"]),
        "log": log,
        "deadlines": deadlines or [],
        "hint_squares": present.HINT_SQUARES,
        "standings": present.standings(doc),
        "stake": stake,
        "work_in_stake": present.work_in_stake(doc, stake),
        "vp_shown": present.vp_shown(doc),
        "changes": since,
        "changed_by": [doc["players"][s]["username"] for s in since.actors if 0 <= s < len(doc["players"])],
    }
