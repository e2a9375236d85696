"""The head read the write path and the reads share: a game's head, its seed, a user's seat and the seat's moves
within the last minute, in one statement; and the head as one viewer counts it.

A move reads it to decide (`app.play.service`), a look at one's moves to list them (`app.play.positions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.play.errors import Conflict, NotFound
from app.play.record import MOVE_WINDOW, SignInCheck
from app.rules import GameState, visible_seq
from app.rules.fairness import seed_number
from app.store.db import DriverConnection, driver_sql, fetch_all


@dataclass(frozen=True, slots=True)
class Head:
    """A game's head as a user's move (or list of moves) needs it, read in one statement (HEAD)."""

    status: str
    seq: int
    seed: int
    seat: int | None
    recent_moves: int  # the seat's moves in this game within MOVE_WINDOW
    retry_after: int  # seconds until the oldest of them leaves the window
    undo_seat: int | None = None  # who may take back the last move, and how many events it made
    undo_events: int | None = None


# The head, the user's seat and the seat's moves within the window, in one statement. A move's events share their
# statement's `created_at`, so each distinct time is one move. Plain SQL for the driver (`fetch_all`): every move
# (and every look at one's moves) reads it, and building the same query with SQLAlchemy's expression language cost
# more than running it. With a sign-in to check (`read_head_signed`) it answers nothing unless that sign-in still
# stands, as the recording statement checks one (`app.play.record`).
HEAD = driver_sql(
    """
    SELECT g.status, g.seq, g.seed, s.seat, recent.moves, recent.wait, g.undo_seat, g.undo_events
    FROM games AS g
    LEFT JOIN seats AS s ON s.game_id = g.id AND s.user_id = %(user_id)s
    CROSS JOIN LATERAL (
        SELECT count(DISTINCT e.created_at) AS moves,
               ceil(EXTRACT(epoch FROM min(e.created_at) + CAST(%(window)s AS interval) - now())) AS wait
        FROM game_events AS e
        WHERE e.game_id = g.id AND e.actor = s.seat AND NOT e.timed_out
          AND e.created_at > now() - CAST(%(window)s AS interval)
    ) AS recent
    WHERE g.id = %(game_id)s
      AND (CAST(%(sign_in_key)s AS varchar) IS NULL OR EXISTS (
            SELECT FROM sessions AS l
            WHERE l.id = %(sign_in_key)s AND l.kind = %(sign_in_kind)s AND l.user_id = %(user_id)s
              AND l.expires_at > CAST(%(now)s AS timestamptz) AND l.revoked_at IS NULL))
    """
)


async def read_head(on: AsyncSession | DriverConnection, game_id: int, user_id: int) -> Head:
    """The head of `game_id` as `user_id` needs it to move or to list their moves. NotFound if there is no game."""
    head = await _fetch(on, game_id, user_id, None, None)
    if head is None:
        raise NotFound("game_not_found", "There is no game {game}.", game=game_id)
    return head


async def read_head_signed(
    on: AsyncSession | DriverConnection, game_id: int, sign_in: SignInCheck, now: datetime
) -> Head | None:
    """The head of `game_id` for the owner of `sign_in`, in the same statement that checks the sign-in still
    stands at `now` (a request not looked up first): None when it does not or there is no game — the caller then
    looks the sign-in up and reads again, which words the refusal."""
    return await _fetch(on, game_id, sign_in.user_id, sign_in, now)


async def _fetch(
    on: AsyncSession | DriverConnection, game_id: int, user_id: int, sign_in: SignInCheck | None,
    now: datetime | None,
) -> Head | None:
    rows = await fetch_all(on, HEAD, {
        "game_id": game_id, "user_id": user_id, "window": MOVE_WINDOW, "now": now,
        "sign_in_key": sign_in.key if sign_in else None, "sign_in_kind": sign_in.kind if sign_in else None,
    })
    if not rows:
        return None
    status, seq, seed, seat, moves, wait, undo_seat, undo_events = rows[0]
    return Head(status, seq, seed_number(seed), seat, moves, max(1, int(wait or 1)), undo_seat, undo_events)


def counted(state: GameState, seat: int | None) -> int:
    """The head of the log as `seat` (None: a spectator) counts it: while the game runs, the events that viewer
    may know of (`visible_seq`); once it is finished nothing in it is secret, and everyone counts every event
    (as its history, export and summary do)."""
    return state.seq if state.status == "finished" else visible_seq(state, seat)


def not_started() -> Conflict:
    """The refusal of a read or a move that needs a started game."""
    return Conflict("game_not_started", "This game has not started yet.")
