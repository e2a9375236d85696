"""The authoritative game service: create, join and start games; read views; submit moves.

Every command is one transaction. A move: lock the game row (with the seat's moves of the last minute, for
the cap) -> load (cached state at the committed head) -> authorise (a seat that is awaited, at the seq it
saw) -> decide (the rules core validates) -> append at the head -> outbox row -> notice -> commit. Anything
that goes wrong raises before the commit, so an error never leaves a trace in the log.

Every seq a caller sees or sends is counted as that caller counts the log (`visible_seq`): events private to
other seats (A New Beginning's basket edits) are not in it, so no number tells how many there were. The
server itself works with the real head (`games.seq`).
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Interval, bindparam, distinct, func, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.play import clocks
from app.play.accounts import Account
from app.play.announce import announce
from app.play.bus import Change
from app.play.errors import Conflict, Invalid, NotAllowed, NotFound, TooMany
from app.rules import (
    ConfigError,
    Event,
    GameConfig,
    GameState,
    IllegalMove,
    decide,
    default_move,
    legal_moves,
    new_game,
    player_view,
    private_to,
    redact_event,
    replay,
    to_act,
    visible_seq,
)
from app.store import event_store
from app.store.db import Database
from app.store.event_store import StaleSeq
from app.store.repository import StateCache, fold
from app.store.tables import Game, GameEvent, Seat, User

log = logging.getLogger(__name__)

GameStatus = Literal["open", "active", "finished"]
MAX_SEED = 2**63 - 1
# The cap on one seat's moves in one game. A player clicks a move every few seconds at most; the busiest
# stretch, A New Beginning's shopping, fills a large basket (and takes a few items back) in well under 60 small
# moves. Beyond it, one seat could flood the log, the mail worker and every watcher's page (RULING V4 spam).
MOVES_PER_MINUTE = 60
MOVE_WINDOW = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A player at the table; `seat` is None until the game starts."""

    seat: int | None
    user_id: int
    username: str
    deadline: datetime | None = None  # when the seat's move clock runs out (awaited seats of timed games)


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

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    @property
    def usernames(self) -> list[str]:
        """Usernames indexed by seat (only meaningful once the game has started)."""
        by_seat = sorted((s for s in self.seats if s.seat is not None), key=lambda s: s.seat or 0)
        return [s.username for s in by_seat]


@dataclass(frozen=True, slots=True)
class MoveOptions:
    """The caller's legal moves at `seq` (empty when nothing is awaited from them)."""

    seq: int
    seat: int | None
    moves: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class VisibleEvent:
    """An event of the log as one viewer may see it."""

    seq: int
    type: str
    data: dict[str, Any]
    at: datetime
    timed_out: bool = False  # made by the server because the seat's clock ran out


class GameService:
    """Game commands and queries against one database; owns the state cache of this process."""

    def __init__(
        self,
        db: Database,
        cache: StateCache | None = None,
        clock: clocks.Clock = clocks.utc_now,
        moves_per_minute: int = MOVES_PER_MINUTE,
    ) -> None:
        self.db = db
        self.cache = cache or StateCache()
        self.clock = clock
        self.moves_per_minute = moves_per_minute

    # --- games -------------------------------------------------------------------------------------------

    async def create_game(
        self,
        admin: Account,
        *,
        name: str,
        seat_count: int,
        variants: dict[str, Any],
        players: Sequence[str] | None = None,
        seed: int | None = None,
        move_timeout_hours: int | None = None,
    ) -> GameSummary:
        """Create a game; with a full `players` list it starts at once (random seating)."""
        _require_admin(admin)
        config = _config(seat_count, variants)
        players = list(players or [])
        if len(players) > seat_count:
            raise Invalid(
                "too_many_players", f"The game has {seat_count} seats but {len(players)} players were listed."
            )
        if len({p.lower() for p in players}) != len(players):
            raise Invalid("duplicate_player", "A player is listed twice.")
        async with self.db.session() as session:
            users = await _users_named(session, players)
            game = Game(
                name=name,
                seat_count=seat_count,
                variants=config.to_json(),
                seed=seed if seed is not None else secrets.randbelow(MAX_SEED),
                move_timeout_hours=move_timeout_hours,
                created_by=admin.id,
            )
            session.add(game)
            await session.flush()
            session.add_all(Seat(game_id=game.id, user_id=user.id) for user in users)
            await session.flush()
            state = None
            if len(users) == seat_count:
                state = await self._start(session, game)
            await session.commit()
            game_id = game.id
        if state is not None:
            self.cache.remember(game_id, state)
        return await self.summary(game_id)

    async def join(self, account: Account, game_id: int) -> GameSummary:
        """Take a free seat in an open game."""
        async with self.db.session() as session:
            game = await _game_for_update(session, game_id)
            if game.status != "open":
                raise Conflict("game_started", "This game has already started; nobody can join it now.")
            seated = await session.scalar(select(func.count()).select_from(Seat).where(Seat.game_id == game_id))
            if await session.get(Seat, (game_id, account.id)) is not None:
                raise Conflict("already_joined", "You have already joined this game.")
            if (seated or 0) >= game.seat_count:
                raise Conflict("game_full", "Every seat of this game is taken.")
            session.add(Seat(game_id=game_id, user_id=account.id))
            await session.commit()
        return await self.summary(game_id)

    async def start(self, admin: Account, game_id: int) -> GameSummary:
        """Start an open game with the players who joined, seated at random."""
        _require_admin(admin)
        async with self.db.session() as session:
            game = await _game_for_update(session, game_id)
            if game.status != "open":
                raise Conflict("game_started", "This game has already started.")
            state = await self._start(session, game)
            await session.commit()
        self.cache.remember(game_id, state)
        return await self.summary(game_id)

    async def _start(self, session: AsyncSession, game: Game) -> GameState:
        seats = list(
            (await session.execute(select(Seat).where(Seat.game_id == game.id).order_by(Seat.joined_at, Seat.user_id)))
            .scalars()
            .all()
        )
        if len(seats) < 2:
            raise Conflict("not_enough_players", "A game needs at least two players to start.")
        config = _config(len(seats), game.variants)
        # Seating follows from the seed, so a game created with a given seed is reproducible end to end.
        order = list(range(len(seats)))
        random.Random(game.seed).shuffle(order)
        for seat, index in zip(seats, order, strict=True):
            seat.seat = index
        await session.flush()
        events = new_game(config, game.seed)
        state = replay(events)
        game.seat_count = len(seats)
        await session.flush()
        new_seq = await event_store.append(session, game.id, 0, events, status=_status(state), to_act=to_act(state))
        await clocks.restart(session, game.id, was_to_act=(), to_act=to_act(state), actor=None, now=self.clock())
        await announce(session, game.id, new_seq, _status(state), to_act(state), from_seq=0, was_to_act=())
        return state

    async def summary(self, game_id: int) -> GameSummary:
        async with self.db.reading() as session:
            summaries = await _summaries(session, select(Game).where(Game.id == game_id))
        if not summaries:
            raise NotFound("game_not_found", f"There is no game {game_id}.")
        return summaries[0]

    async def list_games(
        self,
        account: Account,
        *,
        status: GameStatus | None = None,
        mine: bool = False,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[GameSummary], int]:
        """Games, newest first, with the total count of games matching the filters."""
        query = select(Game)
        if status is not None:
            query = query.where(Game.status == status)
        if mine:
            query = query.where(Game.id.in_(select(Seat.game_id).where(Seat.user_id == account.id)))
        async with self.db.reading() as session:
            count = await session.scalar(select(func.count()).select_from(query.subquery()))
            page = await _summaries(session, query.order_by(Game.id.desc()).limit(limit).offset(offset))
        return page, count or 0

    # --- play --------------------------------------------------------------------------------------------

    async def view(self, account: Account | None, game_id: int) -> dict[str, Any]:
        """The caller's view of the state (a spectator's when the caller has no seat)."""
        summary, state = await self._current(game_id)
        seat = summary.seat_of(account.id) if account is not None else None
        view = player_view(state, seat, game_id=game_id, usernames=summary.usernames)
        if summary.move_timeout_hours is not None:
            # The move clocks are the server's, not the rules core's: added beside the state proper.
            view["deadlines"] = [
                {"seat": s.seat, "deadline": s.deadline.isoformat()}
                for s in summary.seats
                if s.seat is not None and s.deadline is not None
            ]
        return view

    async def moves(self, account: Account, game_id: int) -> MoveOptions:
        """Every move the caller may submit now."""
        async with self.db.reading() as session:
            status, head, _, seat = await _head_and_seat(session, game_id, account.id)
            if status == "open":
                raise _not_started()
            state = await self.cache.load(session, game_id, head)
        if seat is None or seat not in to_act(state):
            return MoveOptions(visible_seq(state, seat), seat, [])
        return MoveOptions(visible_seq(state, seat), seat, legal_moves(state, seat))

    async def events(self, account: Account | None, game_id: int, after: int, limit: int) -> list[VisibleEvent]:
        """The log after `after` as the caller counts it: the events it may know of, each redacted for it."""
        summary = await self.summary(game_id)
        seat = summary.seat_of(account.id) if account is not None else None
        async with self.db.reading() as session:
            stored = await event_store.load_known_to(session, game_id, seat, after=after, limit=limit)
        visible = []
        for row in stored:
            data = redact_event(row.event, seat)
            if data is not None:  # always so: the store leaves out what the seat may not know of
                visible.append(VisibleEvent(row.seq, str(row.event["type"]), data, row.at, row.timed_out))
        return visible

    async def submit(self, account: Account, game_id: int, seq: int, move: dict[str, Any]) -> int:
        """Validate and record the caller's move made against `seq` (as the caller counts the log) and return
        the new head as the caller counts it. The move is appended at the real head: events after `seq` that
        the caller may not know of (other seats' private events) do not make its move stale.

        Raises NotAllowed (no seat, not awaited), TooMany `too_many_moves`, Conflict `stale_seq`, Invalid
        (illegal or malformed move).
        """
        if not isinstance(move.get("type"), str):
            raise Invalid("malformed_move", 'A move is an object with a "type", as listed by GET .../moves.')
        async with self.db.session() as session:
            head = await _lock_for_move(session, game_id, account.id)
            seat = head.seat
            if seat is None:
                raise NotAllowed("no_seat", "You do not have a seat in this game.")
            if head.status != "active":
                raise Conflict("game_not_active", f"This game is {head.status}; no moves are accepted.")
            if head.recent_moves >= self.moves_per_minute:
                raise TooMany(
                    "too_many_moves",
                    f"You have made {head.recent_moves} moves in this game within a minute, the most allowed; "
                    f"please wait {head.retry_after} seconds.",
                    retry_after=head.retry_after,
                )
            state = await self.cache.load(session, game_id, head.seq)
            seen = visible_seq(state, seat)
            if seq != seen:
                raise _stale(seen)
            if seat not in to_act(state):
                raise NotAllowed("not_awaited", "It is not your turn: nothing is awaited from your seat now.")
            new_events = _decide(state, seat, move, head.seed)
            new_state = fold(state, new_events)
            try:
                new_seq = await event_store.append(
                    session,
                    game_id,
                    state.seq,
                    new_events,
                    actor=seat,
                    status=_status(new_state),
                    to_act=to_act(new_state),
                )
            except StaleSeq:
                raise _stale(None) from None
            secret = all(private_to(event) == seat for event in new_events)
            if not secret:
                # A secret edit leaves the clocks alone: a deadline the others see must not move for it.
                await clocks.restart(
                    session, game_id, was_to_act=to_act(state), to_act=to_act(new_state), actor=seat, now=self.clock()
                )
            await announce(
                session,
                game_id,
                new_seq,
                _status(new_state),
                to_act(new_state),
                from_seq=state.seq,
                was_to_act=to_act(state),
                only=seat if secret else None,
            )
            await session.commit()
        self.cache.remember(game_id, new_state)
        return visible_seq(new_state, seat)

    async def time_out(self, game_id: int, seat: int, now: datetime) -> int | None:
        """Make the default move for `seat` if its clock ran out by `now`; return the new head, or None when
        there is nothing to do (the clock was stopped or restarted meanwhile, or another instance is on it).

        The game row is locked with SKIP LOCKED before anything else, in the same order as a player's move
        takes its locks, so a timeout and a move never deadlock and two instances never time out twice.
        """
        async with self.db.session() as session:
            game = await session.scalar(select(Game).where(Game.id == game_id).with_for_update(skip_locked=True))
            if game is None or game.status != "active":
                return None
            deadline = await session.scalar(
                select(Seat.deadline).where(Seat.game_id == game_id, Seat.seat == seat).with_for_update()
            )
            if deadline is None or deadline > now:
                return None
            state = await self.cache.load(session, game_id, game.seq)
            move = default_move(state, seat) if seat in to_act(state) else None
            if move is None:
                await clocks.restart(
                    session, game_id, was_to_act=to_act(state), to_act=to_act(state), actor=None, now=now, by_clock=True
                )
                await session.commit()
                return None
            new_events = _decide(state, seat, move, game.seed)
            new_state = fold(state, new_events)
            new_seq = await event_store.append(
                session,
                game_id,
                game.seq,
                new_events,
                actor=seat,
                status=_status(new_state),
                to_act=to_act(new_state),
            )
            # The log shows these events as made by the clock, not by the player.
            await session.execute(
                update(GameEvent)
                .where(GameEvent.game_id == game_id, GameEvent.seq > game.seq, GameEvent.seq <= new_seq)
                .values(timed_out=True)
            )
            await clocks.restart(
                session, game_id, was_to_act=to_act(state), to_act=to_act(new_state), actor=seat, now=now, by_clock=True
            )
            await clocks.record_timeout(session, game, seat, new_seq, move, now)
            await announce(
                session,
                game_id,
                new_seq,
                _status(new_state),
                to_act(new_state),
                from_seq=game.seq,
                was_to_act=to_act(state),
            )
            await session.commit()
        self.cache.remember(game_id, new_state)
        log.info("game %s: seat %s timed out; default move %s", game_id, seat, move["type"])
        return new_seq

    async def head(self, account: Account, game_id: int) -> tuple[int | None, Change]:
        """The caller's seat, and the head of the log as the caller counts it (for the live stream)."""
        summary = await self.summary(game_id)
        seat = summary.seat_of(account.id)
        if summary.status == "open":
            return seat, Change(summary.id, summary.seq, summary.to_act, summary.status)
        return seat, await self.seen_by(Change(summary.id, summary.head, summary.to_act, summary.status), seat)

    async def seen_by(self, change: Change, seat: int | None) -> Change:
        """`change` as `seat` (None: a spectator) counts the log. Read from the newest state this process
        knows, which is at least the change's (a stream never goes back)."""
        state = self.cache.get(change.game_id)
        if state is None or state.seq < change.seq:
            async with self.db.reading() as session:
                state = await self.cache.load(session, change.game_id, change.seq)
        return Change(change.game_id, visible_seq(state, seat), to_act(state), _status(state))

    async def _current(self, game_id: int) -> tuple[GameSummary, GameState]:
        summary = await self.summary(game_id)
        if summary.status == "open":
            raise _not_started()
        async with self.db.reading() as session:
            state = await self.cache.load(session, game_id, summary.head)
        return summary, state


def _status(state: GameState) -> GameStatus:
    return "finished" if state.status == "finished" else "active"


async def _head_and_seat(session: AsyncSession, game_id: int, user_id: int) -> tuple[str, int, int, int | None]:
    """(status, seq, seed, the user's seat or None) of a game in one query; NotFound if there is no game."""
    row = (
        await session.execute(
            select(Game.status, Game.seq, Game.seed, Seat.seat)
            .outerjoin(Seat, (Seat.game_id == Game.id) & (Seat.user_id == user_id))
            .where(Game.id == game_id)
        )
    ).one_or_none()
    if row is None:
        raise NotFound("game_not_found", f"There is no game {game_id}.")
    return row.status, row.seq, row.seed, row.seat


@dataclass(frozen=True, slots=True)
class _MoveHead:
    """What a move needs to know first, read in the statement that locks the game row."""

    status: str
    seq: int
    seed: int
    seat: int | None
    recent_moves: int  # the seat's moves in this game within MOVE_WINDOW
    retry_after: int  # seconds until the oldest of them leaves the window


async def _lock_for_move(session: AsyncSession, game_id: int, user_id: int) -> _MoveHead:
    """Lock the game row (moves of one game take turns, so a move another seat made meanwhile is judged by what
    the mover may know of it) and read the head, the seat and the seat's recent moves in one statement; a
    move's events share their transaction's `created_at`, so each distinct time is one move. NotFound if there
    is no game."""
    window = bindparam("window", MOVE_WINDOW, type_=Interval)
    recent = (
        select(
            func.count(distinct(GameEvent.created_at)).label("moves"),
            func.ceil(func.extract("epoch", func.min(GameEvent.created_at) + window - func.now())).label("wait"),
        )
        .where(
            GameEvent.game_id == Game.id,
            GameEvent.actor == Seat.seat,
            GameEvent.timed_out.is_(False),
            GameEvent.created_at > func.now() - window,
        )
        .lateral("recent")
    )
    row = (
        await session.execute(
            select(Game.status, Game.seq, Game.seed, Seat.seat, recent.c.moves, recent.c.wait)
            .outerjoin(Seat, (Seat.game_id == Game.id) & (Seat.user_id == user_id))
            .join(recent, true())
            .where(Game.id == game_id)
            .with_for_update(of=Game)
        )
    ).one_or_none()
    if row is None:
        raise NotFound("game_not_found", f"There is no game {game_id}.")
    return _MoveHead(row.status, row.seq, row.seed, row.seat, row.moves, max(1, int(row.wait or 1)))


def _not_started() -> Conflict:
    return Conflict("game_not_started", "This game has not started yet.")


def _require_admin(account: Account) -> None:
    if not account.is_admin:
        raise NotAllowed("admin_only", "Only an admin may do this.")


def _config(players: int, variants: dict[str, Any]) -> GameConfig:
    try:
        return GameConfig.from_variants(players=players, variants=variants)
    except ConfigError as exc:
        raise Invalid("invalid_variant", f"Variant setting '{exc.setting}': {exc.message}") from exc


def _stale(current: int | None) -> Conflict:
    where = f" (it is now at {current})" if current is not None else ""
    return Conflict("stale_seq", f"The game has moved on since you looked{where}; reload and try again.")


def _decide(state: GameState, seat: int, move: dict[str, Any], seed: int) -> list[Event]:
    try:
        return list(decide(state, seat, move, seed))
    except IllegalMove as exc:
        raise Invalid(exc.code, exc.message) from exc
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # The rules core validates moves it knows; a shape it did not expect is still the client's mistake.
        log.info("malformed move %r for game state seq %s: %r", move.get("type"), state.seq, exc)
        raise Invalid("malformed_move", "That move is not in a shape the game understands.") from exc


async def _game_for_update(session: AsyncSession, game_id: int) -> Game:
    game = await session.scalar(select(Game).where(Game.id == game_id).with_for_update())
    if game is None:
        raise NotFound("game_not_found", f"There is no game {game_id}.")
    return game


async def _users_named(session: AsyncSession, names: Sequence[str]) -> list[User]:
    if not names:
        return []
    found = {
        u.username.lower(): u
        for u in (await session.execute(select(User).where(func.lower(User.username).in_([n.lower() for n in names]))))
        .scalars()
        .all()
    }
    missing = [n for n in names if n.lower() not in found]
    if missing:
        raise Invalid("unknown_player", f"There is no player called '{missing[0]}'.")
    return [found[n.lower()] for n in names]


async def _summaries(session: AsyncSession, query: Any) -> list[GameSummary]:
    found = (await session.execute(query.add_columns(event_store.private_event_count(Game.id)))).all()
    if not found:
        return []
    games = [game for game, _ in found]
    private = {game.id: count for game, count in found}
    rows = await session.execute(
        select(Seat.game_id, Seat.seat, Seat.user_id, User.username, Seat.deadline)
        .join(User, User.id == Seat.user_id)
        .where(Seat.game_id.in_([g.id for g in games]))
        .order_by(Seat.game_id, Seat.seat.nulls_last(), Seat.joined_at)
    )
    seats: dict[int, list[SeatInfo]] = {}
    for game_id, seat, user_id, username, deadline in rows.all():
        seats.setdefault(game_id, []).append(SeatInfo(seat, user_id, username, deadline))
    return [
        GameSummary(
            id=g.id,
            name=g.name,
            status=g.status,
            seat_count=g.seat_count,
            variants=g.variants,
            seq=g.seq - private[g.id],
            to_act=tuple(g.to_act),
            move_timeout_hours=g.move_timeout_hours,
            created_at=g.created_at,
            seats=tuple(seats.get(g.id, ())),
            head=g.seq,
        )
        for g in games
    ]
