"""Recording what a command decided, in ONE SQL statement: move the game's head from the seq the command read,
append the events, bring the move clocks in line and queue the notification work (outbox) — all of it, or nothing
when the head has moved on since the command read it. The live notice goes apart (see below).

Why one statement: a move's cost is dominated by round trips to PostgreSQL and by its commit (a WAL flush). Run
in autocommit, the statement is its own transaction: one round trip and one flush, the least a durable write can
cost, with no BEGIN and COMMIT around it and no row lock held while Python decides. Of two writers that read the
same head, the second finds `games.seq` moved and writes nothing (its command decides again, see
`GameService.apply`); the log's key `(game_id, seq)` backs this up. Run inside a transaction, it simply joins it
(and its notice with it: `announce_within`).

The recording statement sends no live notice: a move's notice follows its commit, apart (`app.play.announcer`
says why); a change recorded inside a larger transaction has its notice join that transaction (`announce_within`).
A seat's private edit (`Outcome.private`) concerns nobody else: no outbox row, no clock change, and a notice only
that seat's streams act on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from app.play.bus import CHANNEL, Change
from app.play.results import leaver_place, places
from app.rules import Event, GameState, private_to, to_act
from app.rules.flow import awaiting
from app.store.db import DriverConnection, array_literal, driver_sql, fetch_all, untyped


def status_of(state: GameState) -> Literal["active", "finished"]:
    """The status of a started game as its `games` row and summaries show it."""
    return "finished" if state.status == "finished" else "active"


MOVE_WINDOW = timedelta(minutes=1)  # the window of the moves-per-minute cap


@dataclass(frozen=True, slots=True)
class Mail:
    """A mail for the mail worker to send (`message` names the kind, see app.notify.messages)."""

    recipient_id: int
    message: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SignInCheck:
    """A sign-in the recording statement checks itself, for a move whose request was not looked up first (its
    signature was checked, not whether it still stands): the statement records nothing unless the sign-in with
    key `key` (`app.play.sessions.key_of`) of this `kind` belongs to `user_id`, has not expired by the outcome's
    `now` and was not revoked — the same test as `app.play.sessions.account_of`, in the same round trip."""

    key: str
    kind: str
    user_id: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one command decided, ready to record: the events and the state after them (from the rules core),
    and what the server does around them."""

    game_id: int
    expected_seq: int  # the head the command read and decided on
    was_to_act: tuple[int, ...]  # who was awaited at that head
    events: Sequence[Event]
    after: GameState
    now: datetime
    actor: int | None = None  # the seat the events were made by or for; None: the server's own (setup, seat change)
    by_clock: bool = False  # made for `actor` because its clock ran out: marked so in the log, counted as a timeout
    # The bot's turn for a seat it plays (a bot's own seat, or an absent player's): recorded only while the bot
    # still plays the seat, since its player may have come back in the meantime.
    bot_turn: bool = False
    by_bot: bool = False  # the site's bot chose the move (not the safest default)
    for_absent: bool = False  # made for `actor`'s player, absent since their clock ran out: marked so in the log
    handover: tuple[int, int] | None = None  # (seat, user id): the seat changes hands
    mails: Sequence[Mail] = ()
    # The player who made the move for `actor`'s seat: recorded only while they hold that seat (its `seats` row
    # names them), whatever a memo of who sits where says. A seat changes hands with a `seat_replaced` event, but
    # a player who was told the head after it still sends that head: the head alone does not tell who may move.
    mover: int | None = None
    # A move decided on the cached state without reading the head first: the statement itself checks the seat's
    # moves-per-minute cap and records nothing beyond it.
    move_cap: int | None = None  # the most moves `actor` may have made within MOVE_WINDOW before this one
    sign_in: SignInCheck | None = None  # the request's sign-in, not yet looked up: the statement checks it
    # The events are a move `actor` may take back (`app.rules.undo.may_be_undone`) until anything else is recorded.
    undoable: bool = False
    # Nobody needs a mail: an undo returns the game to a decision its seats were told of when it was awaited.
    quiet: bool = False
    # An undo: `actor`'s clock goes back to what the undone move found (its deadline, and whether its reminder
    # went out), which that move's record kept (`seats.undo_deadline`, `seats.undo_reminded`), so that a move
    # and its undo never give a seat more time.
    clock_back: bool = False

    @property
    def new_seq(self) -> int:
        return self.expected_seq + len(self.events)

    @property
    def ends_game(self) -> bool:
        """Whether these events finish the game: its results are recorded with them (`app.play.results`)."""
        return any(event["type"] == "game_finished" for event in self.events)

    @property
    def private(self) -> bool:
        """Whether every event is private to the actor (A New Beginning's basket edits)."""
        return self.actor is not None and all(private_to(event) == self.actor for event in self.events)


# Written for the driver (`%(name)s` parameters, see `fetch_all`), and compacted (`driver_sql`) so that psycopg
# keeps its parsed form. Parameters are cast where PostgreSQL could not infer their type (arrays, and values that
# may be NULL); every array is sent as its text form (`array_literal`) and cast here. Every integer is sent as its
# text form too, untyped like a NULL (`untyped`): psycopg prepares a statement per set of parameter types, and a
# move that times out, can be undone or hands a seat over would otherwise be planned anew each time.
_WRITE = """
    WITH moved AS (
        UPDATE games AS g
        SET seq = %(new_seq)s, status = %(status)s, to_act = CAST(%(to_act)s AS integer[]), updated_at = now(),
            -- Another seat's private edit leaves the last move undoable (its player cannot know of the edit, D85).
            undo_seat = CASE WHEN %(private)s AND g.undo_seat IS DISTINCT FROM CAST(%(actor)s AS integer)
                             THEN g.undo_seat ELSE CAST(%(undo_seat)s AS integer) END,
            undo_events = CASE WHEN %(private)s AND g.undo_seat IS DISTINCT FROM CAST(%(actor)s AS integer)
                               THEN g.undo_events ELSE CAST(%(undo_events)s AS integer) END
        WHERE g.id = %(game_id)s AND g.seq = %(expected_seq)s
          AND (CAST(%(expired_seat)s AS integer) IS NULL OR EXISTS (
                SELECT FROM seats AS s
                WHERE s.game_id = g.id AND s.seat = %(expired_seat)s AND s.deadline <= CAST(%(now)s AS timestamptz)))
          AND (CAST(%(bot_seat)s AS integer) IS NULL OR EXISTS (
                SELECT FROM seats AS s JOIN users AS u ON u.id = s.user_id
                WHERE s.game_id = g.id AND s.seat = %(bot_seat)s AND (s.absent OR u.is_bot)))
          AND (CAST(%(mover)s AS integer) IS NULL OR EXISTS (
                SELECT FROM seats AS s
                WHERE s.game_id = g.id AND s.seat = %(actor)s AND s.user_id = %(mover)s))
          AND (CAST(%(move_cap)s AS integer) IS NULL OR (
                SELECT count(DISTINCT e.created_at) FROM game_events AS e
                WHERE e.game_id = g.id AND e.actor = %(actor)s AND NOT e.timed_out
                  AND e.created_at > now() - CAST(%(window)s AS interval)) < %(move_cap)s)
          AND (CAST(%(sign_in_key)s AS varchar) IS NULL OR EXISTS (
                SELECT FROM sessions AS l JOIN users AS su ON su.id = l.user_id
                WHERE l.id = %(sign_in_key)s AND l.kind = %(sign_in_kind)s AND l.user_id = %(sign_in_user)s
                  AND l.expires_at > CAST(%(now)s AS timestamptz) AND l.revoked_at IS NULL
                  AND su.suspended_at IS NULL))
        RETURNING g.id, g.move_timeout_hours, g.pause_weekends, g.vacations
    ),
    logged AS (
        INSERT INTO game_events (game_id, seq, type, data, actor, timed_out, by_bot)
        SELECT moved.id, e.seq, e.type, e.data, CAST(%(actor)s AS integer), %(timed_out)s, %(marked_bot)s
        FROM moved, unnest(CAST(%(seqs)s AS integer[]), CAST(%(types)s AS varchar[]), CAST(%(datas)s AS jsonb[]))
            AS e(seq, type, data)
    ),
    -- Seats newly awaited (or handed over, or awaited again after their own move) get a fresh deadline that
    -- starts after any vacation under way (where the table allows vacations) and, at a table that pauses on
    -- weekends, counts its hours outside the player's weekend (`seat_deadline`, migration 0015); seats no longer
    -- awaited lose theirs; an undoing seat gets back the clock its undone move found, which every seat's change
    -- keeps. Untimed games keep no clocks.
    clocked AS (
        UPDATE seats AS s
        SET user_id = COALESCE(
                CASE WHEN s.seat = %(handover_seat)s THEN CAST(%(handover_user)s AS integer) END, s.user_id),
            undo_deadline = s.deadline, undo_reminded = s.reminded,
            deadline = CASE
                WHEN s.seat = %(back_seat)s THEN s.undo_deadline
                WHEN s.seat = ANY(CAST(%(restart)s AS integer[])) THEN seat_deadline(
                    CAST(%(now)s AS timestamptz), m.move_timeout_hours,
                    COALESCE(CASE WHEN s.seat = %(handover_seat)s THEN CAST(%(handover_user)s AS integer) END,
                             s.user_id),
                    m.pause_weekends, m.vacations)
                WHEN s.seat = ANY(CAST(%(to_act)s AS integer[])) THEN s.deadline
            END,
            reminded = s.seat = ANY(CAST(%(keep)s AS integer[])) AND s.reminded
                OR s.seat = %(back_seat)s AND s.undo_reminded,
            timeouts_in_row = CASE
                WHEN s.seat = %(reset_seat)s THEN 0
                WHEN s.seat = %(timed_out_seat)s THEN s.timeouts_in_row + 1
                ELSE s.timeouts_in_row
            END,
            absent = CASE
                WHEN s.seat = %(reset_seat)s THEN false
                WHEN s.seat = %(timed_out_seat)s THEN true
                ELSE s.absent
            END,
            -- The admins hear of a player still away two more move clocks after the timeout (clocks.py).
            absence_alert_at = CASE
                WHEN s.seat = %(reset_seat)s THEN NULL
                WHEN s.seat = %(timed_out_seat)s AND NOT s.absent
                    THEN CAST(%(now)s AS timestamptz) + make_interval(hours => 2 * m.move_timeout_hours)
                ELSE s.absence_alert_at
            END
        FROM moved AS m
        WHERE s.game_id = m.id AND %(clocks)s
          AND (m.move_timeout_hours IS NOT NULL OR s.seat = %(handover_seat)s)
          AND (s.seat = ANY(CAST(%(restart)s AS integer[])) OR s.seat IN (%(reset_seat)s, %(timed_out_seat)s)
               OR (s.deadline IS NOT NULL AND NOT s.seat = ANY(CAST(%(to_act)s AS integer[]))))
    ),
    queued AS (
        INSERT INTO outbox (game_id, seq, kind, recipient_id, next_attempt_at, payload)
        SELECT moved.id, %(new_seq)s, o.kind, o.recipient_id, COALESCE(o.at, now()), o.payload
        FROM moved, unnest(CAST(%(kinds)s AS varchar[]), CAST(%(recipients)s AS integer[]),
                           CAST(%(ats)s AS timestamptz[]), CAST(%(payloads)s AS jsonb[]))
            AS o(kind, recipient_id, at, payload)
    )
"""
_RECORDED = """
    SELECT 1 FROM moved
"""
# The game's end writes its results too (app.play.results): each seat's player at their place with their score,
# and each player who left a seat during the game (a `seat_replaced` event names them) last. A player's clock
# ran out if a move was made for their seat by the clock while they held it (this one's, `timed_out_seat`,
# included). The game is played out when a person still plays a seat at the end (not every person left it to
# the bot); only then, and when its table is rated, does it count for ratings. The statement runs once a game,
# so it may be longer than what psycopg keeps parsed.
_RESULTS = """,
    held AS (
        SELECT s.user_id, r.seat, r.place, r.score, false AS left_game, CAST(NULL AS integer) AS until,
               COALESCE((SELECT max(x.seq) FROM game_events AS x WHERE x.game_id = s.game_id
                         AND x.type = 'seat_replaced' AND CAST(x.data->>'seat' AS integer) = r.seat), 0) AS since
        FROM unnest(CAST(%(result_seats)s AS integer[]), CAST(%(result_places)s AS integer[]),
                    CAST(%(result_scores)s AS jsonb[])) AS r(seat, place, score)
        JOIN seats AS s ON s.game_id = %(game_id)s AND s.seat = r.seat
    ),
    left_seats AS (
        SELECT DISTINCT ON (u.id) u.id AS user_id, CAST(x.data->>'seat' AS integer) AS seat,
               CAST(%(leaver_place)s AS integer) AS place, CAST(NULL AS jsonb) AS score, true AS left_game,
               x.seq AS until,
               COALESCE((SELECT max(y.seq) FROM game_events AS y WHERE y.game_id = x.game_id
                         AND y.type = 'seat_replaced' AND y.data->>'seat' = x.data->>'seat' AND y.seq < x.seq), 0)
                   AS since
        FROM game_events AS x JOIN users AS u ON lower(u.username) = lower(x.data->>'previous')
        WHERE x.game_id = %(game_id)s AND x.type = 'seat_replaced'
          AND NOT EXISTS (SELECT FROM held WHERE held.user_id = u.id)
        ORDER BY u.id, x.seq DESC
    ),
    resulted AS (
        INSERT INTO game_results (game_id, user_id, seat, place, score, on_time, left_game, rated)
        SELECT g.id, p.user_id, p.seat, p.place, p.score,
               (p.left_game OR p.seat IS DISTINCT FROM CAST(%(timed_out_seat)s AS integer)) AND NOT EXISTS (
                   SELECT FROM game_events AS e
                   WHERE e.game_id = g.id AND e.actor = p.seat AND e.timed_out AND e.seq > p.since
                     AND (p.until IS NULL OR e.seq < p.until)),
               p.left_game,
               g.rated AND EXISTS (
                   SELECT FROM seats AS s JOIN users AS u ON u.id = s.user_id
                   WHERE s.game_id = g.id AND s.seat IS NOT NULL AND NOT u.is_bot
                     AND (NOT s.absent OR s.seat = CAST(%(reset_seat)s AS integer)))
        FROM moved AS m JOIN games AS g ON g.id = m.id,
             (SELECT * FROM held UNION ALL SELECT * FROM left_seats) AS p
    )
"""
_RECORD = driver_sql(_WRITE + _RECORDED)
_RECORD_END = driver_sql(_WRITE + _RESULTS + _RECORDED)
_NOTIFY = "SELECT pg_notify(%(channel)s, %(notice)s)"


async def record(on: AsyncSession | DriverConnection, outcome: Outcome) -> bool:
    """Record `outcome` with one statement, on a driver connection in autocommit (`Database.driver`) or inside a
    session's transaction; False (and nothing written) when the game is no longer at `outcome.expected_seq` — or,
    for a timeout, when the seat's clock no longer runs out by `outcome.now`; for a player's move, when
    `outcome.mover` no longer holds the seat; for a move decided on the cache, when the seat is over its
    moves-per-minute cap or `outcome.sign_in` no longer stands."""
    if not outcome.events:
        raise ValueError("an outcome records at least one event")
    statement = _RECORD_END if outcome.ends_game else _RECORD
    return len(await fetch_all(on, statement, _parameters(outcome))) == 1


async def announce_within(session: AsyncSession, outcome: Outcome) -> None:
    """Send the live notice of `outcome`, recorded in `session`'s transaction, when (and only if) that transaction
    commits: for a change recorded together with other writes (a game's start). A move's notice goes apart
    (`app.play.announcer`)."""
    await fetch_all(session, _NOTIFY, {"channel": CHANNEL, "notice": notice(outcome).to_json()})


def notice(o: Outcome) -> Change:
    """The bus's notice of `o`: the new head, and whose private edit or which handover it was."""
    handover_seat = o.handover[0] if o.handover else None
    return Change(o.game_id, o.new_seq, tuple(to_act(o.after)), status_of(o.after), o.actor if o.private else None,
                  handover_seat)


def _parameters(o: Outcome) -> dict[str, Any]:
    status = status_of(o.after)
    awaited = list(to_act(o.after))
    handover_seat, handover_user = o.handover or (None, None)
    # A seat gets a fresh clock when it has just become awaited, when it is awaited again after its own move,
    # and when it changes hands; the others still awaited keep theirs (and whether they were reminded).
    fresh = {o.actor, handover_seat}
    restart = [seat for seat in awaited if seat not in o.was_to_act or seat in fresh]
    outbox = _outbox(o)
    winner = o.after.winner if o.ends_game else None
    result_places = places(o.after.scores, winner) if winner is not None else []
    return {
        "game_id": untyped(o.game_id),
        "expected_seq": untyped(o.expected_seq),
        "new_seq": untyped(o.new_seq),
        "status": status,
        "to_act": array_literal(awaited),
        "now": o.now,
        "expired_seat": untyped(o.actor if o.by_clock else None),
        "actor": untyped(o.actor),
        "timed_out": o.by_clock or o.for_absent,
        "marked_bot": o.by_bot and (o.by_clock or o.for_absent),
        "bot_seat": untyped(o.actor if o.bot_turn else None),
        "seqs": array_literal(range(o.expected_seq + 1, o.new_seq + 1)),
        "types": array_literal(str(event["type"]) for event in o.events),
        "datas": array_literal(json.dumps({k: v for k, v in event.items() if k != "type"}) for event in o.events),
        "clocks": not o.private,
        "private": o.private,
        "undo_seat": untyped(o.actor if o.undoable else None),
        "undo_events": untyped(len(o.events) if o.undoable else None),
        "restart": array_literal(restart),
        "back_seat": untyped(o.actor if o.clock_back else None),
        "keep": array_literal(seat for seat in awaited if seat not in restart),
        "reset_seat": untyped(handover_seat if o.handover else (None if o.by_clock or o.for_absent else o.actor)),
        "timed_out_seat": untyped(o.actor if o.by_clock else None),
        "handover_seat": untyped(handover_seat),
        "handover_user": untyped(handover_user),
        "kinds": array_literal(kind for kind, _, _, _ in outbox),
        "recipients": array_literal(recipient for _, recipient, _, _ in outbox),
        "ats": array_literal(at for _, _, at, _ in outbox),
        "payloads": array_literal(json.dumps(payload) for _, _, _, payload in outbox),
        "mover": untyped(o.mover),
        "move_cap": untyped(o.move_cap),
        "sign_in_key": o.sign_in.key if o.sign_in else None,
        "sign_in_kind": o.sign_in.kind if o.sign_in else None,
        "sign_in_user": untyped(o.sign_in.user_id if o.sign_in else None),
        "window": MOVE_WINDOW,
        "result_seats": array_literal(range(len(result_places))),
        "result_places": array_literal(result_places),
        "result_scores": array_literal(json.dumps(dict(score)) for score in o.after.scores) if result_places else "{}",
        "leaver_place": untyped(leaver_place(len(o.after.players))),
    }


OutboxRow = tuple[str, int | None, datetime | None, dict[str, Any]]


def _outbox(o: Outcome) -> list[OutboxRow]:
    """(kind, recipient, not before, payload) of each outbox row. The `game_changed` row says who was awaited
    before, so the mail worker can tell who has just become awaited, and what the change left (who is awaited now,
    the status, the kind of the decision awaited: `awaits`), so the worker plans its mails without rebuilding the
    state at it from the log; it is due at once (the database's now). It is written only for a change that may
    call for mail (`may_call_for_mail`)."""
    if o.private or o.quiet:
        return []
    mails: list[OutboxRow] = [
        ("mail", mail.recipient_id, o.now, {"message": mail.message, **mail.details}) for mail in o.mails
    ]
    awaited = to_act(o.after)
    if not may_call_for_mail(o.expected_seq, o.was_to_act, awaited, o.after.status):
        return mails
    waiting = awaiting(o.after)
    changed = {"to_act": list(awaited), "status": status_of(o.after), "from_seq": o.expected_seq,
               "was_to_act": list(o.was_to_act), "awaits": waiting.kind if waiting is not None else None}
    return [("game_changed", None, None, changed), *mails]


def may_call_for_mail(from_seq: int, was_to_act: Sequence[int], awaited: Sequence[int], status: str) -> bool:
    """Whether a change of a game from `from_seq` (awaiting `was_to_act` there) to a state awaiting `awaited` in
    `status` may call for any mail, as the mail worker plans them (`app.notify.worker.plan`): the game's start,
    its end, or a seat newly awaited. Any other change (a seat that goes on deciding, one of several awaited seats
    done) mails nobody, so it queues no `game_changed` row: for a fifth to a quarter of a random game's moves
    that row was an insert, a foreign key's check and a delete in PostgreSQL, and a state worked out by the worker,
    all for nothing."""
    return from_seq == 0 or status == "finished" or not set(awaited) <= set(was_to_act)


_RENAMED = """
    UPDATE game_events
    SET data = data || jsonb_build_object(CAST(%(field)s AS text), CAST(%(new)s AS text))
    WHERE type = 'seat_replaced' AND data ->> CAST(%(field)s AS text) = CAST(%(old)s AS text)
    RETURNING game_id
"""


async def rename_in_logs(session: AsyncSession, old: str, new: str) -> None:
    """Replace the name `old` by `new` where the logs hold names (the handover events' `previous` and `username`),
    for an account deleted by its owner (app.play.your_data). The only change ever made to a recorded event:
    names are not part of the game (the rules fold a handover without reading them, and the audit checks no name),
    so every log replays and verifies as before."""
    for named in ("previous", "username"):
        await fetch_all(session, driver_sql(_RENAMED), {"field": named, "old": old, "new": new})
