"""The reads of games: summaries and lists, the game awaiting a player the most urgently, a viewer's state,
moves, log, history and export, the live stream's head, and the table page's one read (`Positions.table`).
Nothing here writes a game; the write path (`app.play.service.GameService`) and these reads share the state cache,
and only it: the states it holds, those a statement of this process is still recording, and the memo of who sits
where that a head read teaches (for the write path's one-trip move).

Every seq a caller sees is counted as that caller counts the log (`app.play.head.counted`).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, NamedTuple

from sqlalchemy import ColumnElement, Integer, any_, bindparam, case, func, literal_column, select
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.play import clocks, invitations, reputation
from app.play.accounts import Account
from app.play.bus import Change
from app.play.chat import ChatLine, lines_of, newest_column
from app.play.errors import NotFound
from app.play.head import Head, counted, not_started, read_head, read_head_signed
from app.play.notes import Notes, notes_column, notes_of
from app.play.record import SignInCheck, status_of
from app.play.reputation import Reputation
from app.rules import GameState, legal_moves, player_view, redact_event, to_act
from app.rules.history import SeenEvent, round_starts, seen_log, state_at
from app.store import event_store
from app.store.db import Database, driver_sql, fetch_all
from app.store.repository import StateCache
from app.store.tables import Game, Seat, User

GameStatus = Literal["open", "active", "finished"]
_EXISTS = driver_sql("SELECT 1 FROM games WHERE id = %(game_id)s")


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A player at the table; `seat` is None until the game starts."""

    seat: int | None
    user_id: int
    username: str
    deadline: datetime | None = None  # when the seat's move clock runs out (awaited seats of timed games)
    bot: bool = False  # one of the site's bots
    absent: bool = False  # the player's clock ran out and the bot plays the seat until they come back
    reputation: Reputation | None = None  # a person's at an open table (their record, for those who join)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What anyone may know about a game without seeing its state; `seq` is the head as a spectator counts it,
    `head` the real one (for the server only: it counts every seat's private events)."""

    id: int
    name: str
    status: str
    seat_count: int
    variants: dict[str, Any]
    seq: int
    to_act: tuple[int, ...]
    move_timeout_hours: int | None
    created_at: datetime
    seats: tuple[SeatInfo, ...] = field(default=())
    head: int = 0
    undo_seat: int | None = None  # the seat that may take back the last move, if any (for the server only)
    public: bool = True  # anyone may join while it is open; otherwise only the players invited
    start_when_full: bool = True  # the last seat taken starts the game; otherwise its creator does
    invitation_days: int = 7  # an invitation unanswered this long expires
    pause_weekends: bool = False  # the clocks stop on each player's weekend
    vacations: bool = True  # vacation days stop the clocks (and a clock about to run out takes one)
    created_by: int | None = None
    creator: str | None = None  # the username of `created_by`
    invited: tuple[str, ...] = ()  # the players invited who have not answered yet (open tables)
    seed_commitment: str = ""  # the SHA-256 (hex) of the secret seed, published from the game's creation
    seed: str | None = None  # the secret seed (64 hex characters), revealed once the game is finished
    seed_chosen: bool = False  # an admin gave the seed (it was not drawn at random)
    updated_at: datetime | None = None  # the game's last change: when the seats awaited now began to wait
    rated: bool = True  # its finished game rates its players
    max_timeout_percent: int | None = None  # joins only players whose clock ran out in at most this % of games

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    @property
    def usernames(self) -> list[str]:
        """Usernames indexed by seat (only meaningful once the game has started)."""
        by_seat = sorted((s for s in self.seats if s.seat is not None), key=lambda s: s.seat or 0)
        return [s.username for s in by_seat]


@dataclass(frozen=True, slots=True)
class PendingInvitation:
    """An invitation to an open table, and who made it."""

    game: GameSummary
    invited_by: str | None


@dataclass(frozen=True, slots=True)
class MoveOptions:
    """The caller's legal moves at `seq` (empty when nothing is awaited from them)."""

    seq: int
    seat: int | None
    moves: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Seen:
    """A change of a game as one viewer counts it, and — when asked for — every move the viewer may submit there
    (empty when nothing is awaited from it)."""

    change: Change
    moves: list[dict[str, Any]] | None = None


class StreamHead(NamedTuple):
    """What a live stream opens with: the caller's seat, the head as the caller counts it (`Seen`), and the head as
    stored, every seat's events counted (`head`): what the bus's notices count, and so what the stream tells its bus
    it shows (`Bus.shows`)."""

    seat: int | None
    seen: Seen
    head: int


@dataclass(frozen=True, slots=True)
class Position:
    """A past position of a game as one viewer saw it (`app.rules.history`): the game's summary, the state
    document at `view["seq"]`, the log up to it, the viewer's newest position, and where each round began (round,
    position)."""

    summary: GameSummary
    view: dict[str, Any]
    events: list[VisibleEvent]
    last: int
    rounds: list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Export:
    """A game's record for the caller: the summary, the log as the caller may see it (a finished game's whole and
    unredacted), the caller's view of the present state, and the seed once it is revealed."""

    summary: GameSummary
    events: list[VisibleEvent]
    view: dict[str, Any]
    seed: str | None


@dataclass(frozen=True, slots=True)
class VisibleEvent:
    """An event of the log as one viewer may see it."""

    seq: int
    type: str
    data: dict[str, Any]
    at: datetime
    timed_out: bool = False  # made by the server because the seat's clock ran out (or its player is absent since)
    by_bot: bool = False  # made by the site's bot for the seat's absent player
    actor: int | None = None  # the seat whose move recorded it (None: the server's own, as the game's setup)


@dataclass(frozen=True, slots=True)
class Board:
    """A started game's table for one viewer at one seq: the view, the moves the viewer may submit there, and
    the newest events of the log up to it."""

    view: dict[str, Any]
    moves: list[dict[str, Any]]
    events: list[VisibleEvent]


@dataclass(frozen=True, slots=True)
class Talk:
    """What the table page shows around the board: the chat's newest messages (oldest first), and the viewer's
    notes (None when the viewer has no seat, and so keeps none)."""

    chat: list[ChatLine]
    notes: Notes | None


@dataclass(frozen=True, slots=True)
class Table:
    """What the table page shows, read at one seq: the summary, once the game has started its board, when asked
    for the chat and the notes, and how many of the viewer's other games await them (the "Next game" link)."""

    summary: GameSummary
    board: Board | None = None
    talk: Talk | None = None
    waiting: int = 0


@dataclass(frozen=True, slots=True)
class NextGame:
    """The game that awaits a player the most urgently, and when their clock there runs out (None: no clock)."""

    game_id: int
    deadline: datetime | None


class Positions:
    """The reads of games against one database, on the state cache the write path fills."""

    def __init__(
        self,
        db: Database,
        cache: StateCache,
        clock: clocks.Clock = clocks.utc_now,
    ) -> None:
        self.db = db
        self.cache = cache
        self.clock = clock

    async def pending_invitations(self, account: Account) -> list[PendingInvitation]:
        """The caller's pending invitations, oldest first."""
        async with self.db.reading() as session:
            pending = await invitations.of_user(session, account.id)
            found = await _summaries(session, select(Game).where(Game.id.in_([g for g, _ in pending])))
        by_id = {g.id: g for g in found}
        return [PendingInvitation(by_id[g], by) for g, by in pending if g in by_id]

    async def summary(self, game_id: int) -> GameSummary:
        """What anyone may know of the game, in one statement (an open table's invitations in a second one);
        NotFound when there is no such game."""
        summary, _ = await self._summary_with(game_id)
        return summary

    async def _summary_with(
        self, game_id: int, viewer: int | None = None, chat: int = 0
    ) -> tuple[GameSummary, tuple[Any, ...]]:
        """The summary; for a `viewer` at the table, the count of their other games awaiting them and, with
        `chat`, the chat's newest `chat` messages and their notes, read in the summary's statement."""
        statement = _one_summary(viewer is not None, chat)
        async with self.db.reading() as session:
            found = await _summary_rows(session, statement, {"game_id": game_id, "viewer": viewer})
        if not found:
            raise NotFound("game_not_found", "There is no game {game}.", game=game_id)
        return found[0]

    async def list_games(
        self,
        account: Account,
        *,
        status: GameStatus | None = None,
        mine: bool = False,
        limit: int = 50,
        offset: int = 0,
        player_id: int | None = None,
    ) -> tuple[list[GameSummary], int]:
        """Games, newest first, with the total count of games matching the filters (`mine`: the caller sits at
        them; `player_id`: that player does)."""
        query = select(Game)
        if status is not None:
            query = query.where(Game.status == status)
        for seated in (account.id if mine else None, player_id):
            if seated is not None:
                query = query.where(Game.id.in_(select(Seat.game_id).where(Seat.user_id == seated)))
        async with self.db.reading() as session:
            count = await session.scalar(select(func.count()).select_from(query.subquery()))
            page = await _summaries(session, query.order_by(Game.id.desc()).limit(limit).offset(offset))
        return page, count or 0

    async def next_game(self, account: Account) -> NextGame | None:
        """The game awaiting the caller whose clock runs out first — games without a clock last, then the turn
        that has waited the longest (the game's last change the oldest) — in ONE statement; None when no game
        awaits them."""
        query = (
            select(Game.id, Seat.deadline)
            .join(Seat, Seat.game_id == Game.id)
            .where(_awaits(Game, Seat, account.id))
            .order_by(Seat.deadline.asc().nulls_last(), Game.updated_at.asc(), Game.id.asc())
            .limit(1)
        )
        async with self.db.reading() as session:
            found = (await session.execute(query)).first()
        return None if found is None else NextGame(found.id, found.deadline)

    # --- play --------------------------------------------------------------------------------------------

    async def view(self, account: Account | None, game_id: int) -> dict[str, Any]:
        """The caller's view of the state (a spectator's when the caller has no seat); a finished game's
        unredacted, as its export shows it: nothing in it is secret any more."""
        summary, state = await self._current(game_id)
        return _view_of(summary, state, summary.seat_of(account.id) if account is not None else None)

    async def moves(self, account: Account, game_id: int) -> MoveOptions:
        """Every move the caller may submit now."""
        async with self.db.driver() as connection:
            head = await read_head(connection, game_id, account.id)
        return await self._options(game_id, account.id, head)

    async def moves_in_one_trip(self, game_id: int, sign_in: SignInCheck) -> MoveOptions | None:
        """Every move the owner of `sign_in` may submit now, in ONE statement for a request whose sign-in was not
        looked up yet (its owner learnt by this process from an earlier lookup): the head read checks the sign-in
        itself. None when it does not stand or there is no game: the caller then looks the sign-in up and asks
        `moves`, which words any refusal."""
        async with self.db.driver() as connection:
            head = await read_head_signed(connection, game_id, sign_in, self.clock())
        return None if head is None else await self._options(game_id, sign_in.user_id, head)

    async def _options(self, game_id: int, user_id: int, head: Head) -> MoveOptions:
        """The moves of `user_id`'s seat at `head` (which the cache's seat memo learns, for the write path's
        one-trip move)."""
        if head.status == "open":
            raise not_started()
        state = await self._state(game_id, head.seq)
        self.cache.seats.learn(game_id, user_id, head.seed, head.seat)
        seat = head.seat
        if seat is None or seat not in to_act(state):
            return MoveOptions(counted(state, seat), seat, [])
        return MoveOptions(counted(state, seat), seat, legal_moves(state, seat))

    async def events(self, account: Account | None, game_id: int, after: int, limit: int) -> list[VisibleEvent]:
        """The log after `after` as the caller counts it: the events it may know of, each redacted for it — a
        finished game's every event, unredacted and numbered as the log is (as its history and export)."""
        summary = await self.summary(game_id)
        return await self._events_of(summary, summary.seat_of(account.id) if account is not None else None,
                                     after, limit)

    async def table(self, account: Account, game_id: int, log_length: int, *, chat: int = 0) -> Table:
        """Everything the table page, its board and its live refresh show, at ONE seq: the summary (read once),
        and once the game has started the caller's view, the moves they may submit and the last `log_length`
        events of the log — the state from the cache at the summary's head, the log read up to that head, so
        that no move made in between can make the parts disagree (a "Waiting for bob" beside bot-4's clock).
        With `chat` (the whole page; the board alone needs neither), also the chat's newest `chat` messages and
        the caller's notes, read in the summary's own statement: two statements in all for a started game. The
        count of the caller's other games awaiting them comes in that statement too."""
        summary, (waiting, *talk_read) = await self._summary_with(game_id, account.id, chat)
        talk = None
        if chat:
            messages, notes = talk_read
            seated = any(s.user_id == account.id for s in summary.seats)
            talk = Talk(lines_of(messages), notes_of(notes) if seated else None)
        if summary.status == "open":
            return Table(summary, talk=talk, waiting=waiting)
        state = await self._state(game_id, summary.head)
        seat = summary.seat_of(account.id)
        view = _view_of(summary, state, seat)
        moves = legal_moves(state, seat) if seat is not None and seat in to_act(state) else []
        after = max(0, view["seq"] - log_length)
        events = await self._events_of(summary, seat, after, view["seq"] - after)
        return Table(summary, Board(view, moves, events), talk, waiting)

    async def _events_of(
        self, summary: GameSummary, seat: int | None, after: int, limit: int
    ) -> list[VisibleEvent]:
        """The log of `summary`'s game after `after` as `seat` counts it (see `events`)."""
        everything = summary.status == "finished"
        async with self.db.reading() as session:
            if everything:
                stored = await event_store.load(session, summary.id, after=after, limit=limit)
            else:
                stored = await event_store.load_known_to(session, summary.id, seat, after=after, limit=limit)
        visible = []
        for row in stored:
            data = dict(row.event) if everything else redact_event(row.event, seat)
            if data is not None:  # always so: the store leaves out what the seat may not know of
                visible.append(
                    VisibleEvent(row.seq, str(row.event["type"]), data, row.at, row.timed_out, row.by_bot, row.actor)
                )
        return visible

    async def history(self, account: Account | None, game_id: int, at: int) -> Position:
        """The caller's view as it was at position `at` of the log as the caller counts it (a finished game's log
        counted whole and shown unredacted: nothing is secret any more). NotFound outside 1 .. the head."""
        summary, seat, stored, everything = await self._whole_log(account, game_id)
        events = [row.event for row in stored]
        seen = seen_log(events, seat, everything=everything)
        if not 1 <= at <= len(seen):
            raise NotFound("position_not_found", "This game's log has positions 1 to {last}, not {at}.",
                           last=len(seen), at=at)
        view = _view_of(summary, state_at(events, seat, at, everything=everything), seat, past=True)
        return Position(summary, view, _visible(seen[:at], stored), len(seen), round_starts(seen))

    async def export(self, account: Account | None, game_id: int) -> Export:
        """The game's record for the caller: while it runs, the log and state as the caller may see them; once
        finished, every event unredacted and the seed, for anyone who may see the game."""
        summary, seat, stored, everything = await self._whole_log(account, game_id)
        events = [row.event for row in stored]
        seen = seen_log(events, seat, everything=everything)
        view = _view_of(summary, state_at(events, seat, len(seen), everything=everything), seat)
        return Export(summary, _visible(seen, stored), view, summary.seed)

    async def _whole_log(
        self, account: Account | None, game_id: int
    ) -> tuple[GameSummary, int | None, list[event_store.StoredEvent], bool]:
        """The summary, the caller's seat, the whole log, and whether everything may be shown (the game is over)."""
        summary = await self.summary(game_id)
        if summary.status == "open":
            raise not_started()
        seat = summary.seat_of(account.id) if account is not None else None
        async with self.db.reading() as session:
            stored = await event_store.load(session, game_id, limit=summary.head)
        return summary, seat, stored, summary.status == "finished"

    async def head(self, account: Account, game_id: int, *, offer: bool = False) -> StreamHead:
        """The caller's seat, and the head of the log as the caller counts it (for the live stream); with `offer`,
        and the moves the caller may submit there. A started game's head is the write path's one-row read (not
        the summary's statement): every stream opens with it, and the seat memo learns from it, so that a
        player's first move in a game they watch is decided on the cache like the others."""
        async with self.db.driver() as connection:
            head = await read_head(connection, game_id, account.id)
        if head.status == "open":
            summary = await self.summary(game_id)
            seen = Seen(Change(summary.id, summary.seq, summary.to_act, summary.status))
            return StreamHead(summary.seat_of(account.id), seen, summary.head)
        self.cache.seats.learn(game_id, account.id, head.seed, head.seat)
        seen = await self.seen_by(Change(game_id, head.seq, (), head.status), head.seat, offer=offer)
        return StreamHead(head.seat, seen, head.seq)

    async def exists(self, game_id: int) -> None:
        """Raise NotFound unless there is a game `game_id`: one indexed row, for a request that reads the rest
        later (the live stream, whose head is read once it is subscribed)."""
        async with self.db.driver() as connection:
            found = await fetch_all(connection, _EXISTS, {"game_id": game_id})
        if not found:
            raise NotFound("game_not_found", "There is no game {game}.", game=game_id)

    async def seen_by(self, change: Change, seat: int | None, *, offer: bool = False) -> Seen:
        """`change` as `seat` (None: a spectator) counts the log — with `offer`, and every move the seat may
        submit there, so that a client following the stream needs no request of its own before its move. Read
        from the newest state this process knows, which is at least the change's (a stream never goes back):
        cached, being recorded here (`StateCache.recording`), or read from the database."""
        state = self.cache.get(change.game_id)
        if state is None or state.seq < change.seq:
            landed = self.cache.landing(change.game_id, change.seq)
            if landed is not None:
                state = await asyncio.shield(landed)
        if state is None or state.seq < change.seq:
            async with self.db.reading() as session:
                state = await self.cache.load(session, change.game_id, change.seq)
        return _seen(state, change.game_id, seat, offer)

    def seen_now(self, change: Change, seat: int | None, *, offer: bool = False) -> Seen | None:
        """`seen_by` without waiting, when this process has the state at or after `change` cached (the common case
        of a stream hearing of a move recorded here, whose answer came first); None when it has not."""
        state = self.cache.get(change.game_id)
        if state is None or state.seq < change.seq:
            return None
        return _seen(state, change.game_id, seat, offer)

    async def _current(self, game_id: int) -> tuple[GameSummary, GameState]:
        summary = await self.summary(game_id)
        if summary.status == "open":
            raise not_started()
        return summary, await self._state(game_id, summary.head)

    async def _state(self, game_id: int, head_seq: int) -> GameState:
        """The state of a started game at `head_seq`, its committed head: from the cache when it holds that head
        (no session opened: this process just recorded or showed it), else read and folded."""
        state = self.cache.at(game_id, head_seq)
        if state is None:
            async with self.db.reading() as session:
                state = await self.cache.load(session, game_id, head_seq)
        return state


def _seen(state: GameState, game_id: int, seat: int | None, offer: bool) -> Seen:
    """The head of `state` as `seat` counts it, with `offer` every move the seat may submit there."""
    awaited = to_act(state)
    seen = Change(game_id, counted(state, seat), awaited, status_of(state))
    if not offer:
        return Seen(seen)
    return Seen(seen, legal_moves(state, seat) if seat is not None and seat in awaited else [])


def _view_of(summary: GameSummary, state: GameState, seat: int | None, *, past: bool = False) -> dict[str, Any]:
    """`seat`'s state document of `state` (a finished game's unredacted) with the server's fields: ONE document
    for the present (the state, the table, the export) and for a past position (`history`), which differ only in
    what the server knows of the present alone (`_with_server_fields`)."""
    view = player_view(state, seat, game_id=summary.id, usernames=summary.usernames,
                       reveal_all=summary.status == "finished")
    return _with_server_fields(view, summary, seat, past=past)


def _visible(seen: Sequence[SeenEvent], stored: Sequence[event_store.StoredEvent]) -> list[VisibleEvent]:
    """Seen events with the time and the clock's mark of their rows."""
    return [
        VisibleEvent(
            e.seq, str(e.event["type"]), e.event, stored[e.index - 1].at, stored[e.index - 1].timed_out,
            stored[e.index - 1].by_bot, stored[e.index - 1].actor,
        )
        for e in seen
    ]


# A game's seats, in seat order (then the order they were taken), as one JSON array in the game's own row; and the
# username of its creator: the summary's parts read with the game itself, in one statement.
_SEATS = (
    select(
        func.coalesce(
            func.json_agg(
                aggregate_order_by(
                    func.json_build_object(
                        "seat", Seat.seat, "user_id", Seat.user_id, "username", User.username,
                        "deadline", Seat.deadline, "bot", User.is_bot, "absent", Seat.absent,
                        # Who sits at an open table, for those deciding to join it: counted there alone.
                        "reputation", case(((Game.status == "open") & User.is_bot.is_(False),
                                            reputation.as_json(Seat.user_id))),
                    ),
                    Seat.seat.asc().nulls_last(), Seat.joined_at,
                )
            ),
            literal_column("'[]'::json"),
        )
    )
    .select_from(Seat)
    .join(User, User.id == Seat.user_id)
    .where(Seat.game_id == Game.id)
    .correlate(Game)
    .scalar_subquery()
)
_CREATOR = select(User.username).where(User.id == Game.created_by).correlate(Game).scalar_subquery()


def _awaits(game: Any, seat: Any, user_id: int | ColumnElement[int]) -> ColumnElement[bool]:
    """Whether `seat` (a row of seats joined to `game`'s row) is user `user_id`'s and awaited in a running game:
    what "a game awaits the player" means for the next-game jump and its count."""
    awaited: ColumnElement[bool] = (seat.user_id == user_id) & (game.status == "active") & (
        seat.seat == any_(game.to_act)
    )
    return awaited


def _waiting_elsewhere(user_id: ColumnElement[int]) -> Any:
    """How many games other than the summary's own await user `user_id` (a subquery correlated to the game's
    row, for the table's "Next game (N waiting)")."""
    other, seat = aliased(Game), aliased(Seat)
    return (
        select(func.count())
        .select_from(seat)
        .join(other, other.id == seat.game_id)
        .where(_awaits(other, seat, user_id), seat.game_id != Game.id)
        .correlate(Game)
        .scalar_subquery()
    )


def _seat_info(seat: dict[str, Any]) -> SeatInfo:
    """A seat of `_SEATS`' array (its deadline an ISO 8601 string there)."""
    deadline = datetime.fromisoformat(seat["deadline"]) if seat["deadline"] is not None else None
    known = seat["reputation"]
    return SeatInfo(seat["seat"], seat["user_id"], seat["username"], deadline, seat["bot"], seat["absent"],
                    Reputation.of(known) if known is not None else None)


def _with_summary(query: Any, *columns: Any) -> Any:
    """`query` (of games) with the columns a summary reads beside the game's row, then `columns` (scalar
    subqueries correlated to the game's row)."""
    return query.add_columns(event_store.private_event_count(Game.id), _SEATS, _CREATOR, *columns)


@functools.cache
def _one_summary(at_table: bool, chat: int) -> Any:
    """The statement of one game's summary (parameter `game_id`); `at_table`, with the count of the other games
    awaiting the viewer (parameter `viewer`), and with `chat`, the newest `chat` messages and the viewer's notes.
    Made once for each shape: a statement made anew costs SQLAlchemy its columns and its cache key at every run,
    more of the server's CPU than PostgreSQL spends on the statement (measured: about 4 ms of a table page's)."""
    game_id, viewer = bindparam("game_id", type_=Integer), bindparam("viewer", type_=Integer)
    columns = [_waiting_elsewhere(viewer)] if at_table else []
    if chat:
        columns += [newest_column(Game.id, chat), notes_column(Game.id, viewer)]
    return _with_summary(select(Game).where(Game.id == game_id), *columns)


async def _summaries(session: AsyncSession, query: Any) -> list[GameSummary]:
    """The summaries of the games `query` selects, in its order, with ONE statement for started games (their
    seats and creator's name come as subqueries of the same row); open tables read their invitations too."""
    return [summary for summary, _ in await _summary_rows(session, _with_summary(query))]


async def _summary_rows(
    session: AsyncSession, statement: Any, params: dict[str, Any] | None = None
) -> list[tuple[GameSummary, tuple[Any, ...]]]:
    """The summaries of `statement`'s games (`_with_summary`), each with the values of the columns that follow
    the summary's own in its row."""
    found = (await session.execute(statement, params)).all()
    games = [game for game, *_ in found]
    private = {game.id: count for game, count, *_ in found}
    seats = {game.id: tuple(_seat_info(s) for s in seated) for game, _, seated, *_ in found}
    names = {game.id: creator for game, _, _, creator, *_ in found}
    more = {game.id: tuple(extra) for game, _, _, _, *extra in found}
    invited = await invitations.invited_names(session, [g.id for g in games if g.status == "open"])
    summaries = [
        GameSummary(
            id=g.id,
            name=g.name,
            status=g.status,
            seat_count=g.seat_count,
            variants=g.variants,
            seq=g.seq if g.status == "finished" else g.seq - private[g.id],
            to_act=tuple(g.to_act),
            move_timeout_hours=g.move_timeout_hours,
            created_at=g.created_at,
            seats=seats[g.id],
            head=g.seq,
            undo_seat=g.undo_seat,
            public=g.public,
            start_when_full=g.start_when_full,
            invitation_days=g.invitation_days,
            pause_weekends=g.pause_weekends,
            vacations=g.vacations,
            created_by=g.created_by,
            creator=names[g.id],
            invited=tuple(invited.get(g.id, ())),
            seed_commitment=g.seed_commitment,
            seed=g.seed.hex() if g.status == "finished" else None,
            seed_chosen=g.seed_chosen,
            updated_at=g.updated_at,
            rated=g.rated,
            max_timeout_percent=g.max_timeout_percent,
        )
        for g in games
    ]
    return [(summary, more[summary.id]) for summary in summaries]


def _with_server_fields(
    view: dict[str, Any], summary: GameSummary, seat: int | None, *, past: bool = False
) -> dict[str, Any]:
    """The state document with what the server knows beside the state proper: whether the viewer may take back
    their last move now, and in a timed game the move clocks and the seats the site's bot plays for their absent
    players. A past position has the same fields: nothing to take back there, and its clocks and absences, which
    the log does not keep, null."""
    if past:
        view["undo"] = False
        if summary.move_timeout_hours is not None:
            view["absent"] = view["deadlines"] = None
        return view
    view["undo"] = seat is not None and summary.undo_seat == seat and summary.status == "active"
    if summary.move_timeout_hours is not None:  # only a clock running out makes a player absent
        view["absent"] = [s.seat for s in summary.seats if s.seat is not None and s.absent and not s.bot]
        view["deadlines"] = [
            {"seat": s.seat, "deadline": s.deadline.isoformat()}
            for s in summary.seats
            if s.seat is not None and s.deadline is not None
        ]
    return view
