"""The authoritative game service, the write path: every change of a running game's log. The tables before their
game are `app.play.lobby.Lobby`, the reads `app.play.positions.Positions`; the three share the state cache.

Every change of a running game's log — a player's move, a timeout, the site's bot's move, a seat changing hands,
an undo — goes through one function, `GameService.apply`: read the head, decide with the rules core (which returns
the events and the new state), record the outcome with one statement (`app.play.record`), remember the state.

Every seq a caller sees or sends is counted as that caller counts the log (`visible_seq`): events private to
other seats (A New Beginning's basket edits) are not in it, so no number tells how many there were — while the
game runs; a finished game's numbers count every event for everyone (`app.play.head.counted`). The server
itself works with the real head (`games.seq`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, overload

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

import app.metrics as metrics
from app.bots.table import ABSENT_LEVEL
from app.play import clocks, ratings
from app.play.accounts import Account
from app.play.announcer import Announcer
from app.play.answers import answers_of
from app.play.bus import Change
from app.play.commands import KINDS, BotMove, Command, PlayerMove, ReplaceSeat, TimeOut, Undo
from app.play.errors import Conflict, Invalid, NotAllowed, NotFound, PlayError, TooMany
from app.play.head import Head, counted, read_head
from app.play.record import Mail, Outcome, SignInCheck, notice, record
from app.play.thinking import Thinker
from app.rules import Event, GameState, IllegalMove, default_move, play, replay, to_act
from app.rules.automatic import ASK, Answers, needs_answers
from app.rules.events import SeatReplaced
from app.rules.fairness import seed_number
from app.rules.flow import awaiting
from app.rules.rng import Rng
from app.rules.undo import may_be_undone, move_undone
from app.store.db import Database, DriverConnection
from app.store.repository import StateCache, log_of
from app.store.tables import Game, Seat, User

log = logging.getLogger(__name__)

# The cap on one seat's moves in one game. A player clicks a move every few seconds at most; the busiest
# stretch, A New Beginning's shopping, fills a large basket (and takes a few items back) in well under 60 small
# moves. Beyond it, one seat could flood the log, the mail worker and every watcher's page (RULING V4 spam).
MOVES_PER_MINUTE = 60
# How many pending games a game's last move rates before it answers (the rest: after it, `GameService._rate`).
RATED_BEFORE_ANSWER = 1
# How often one command is decided again because other writers got ahead of it; each retry means another write
# succeeded, so only a crowd of simultaneous writers to one game gets this far (and then a 409 stale_seq).
MAX_DECISIONS = 10
# The most pooled connections the site's bot's moves use at once (each for a read, or a decision and its record).
BOT_CONNECTIONS = 2
# The rules core's refusals that are not an illegal move, by the core's code: the kind of refusal (and so the
# HTTP status) and the code clients know it by. Every other refusal is an illegal move (422) under the core's code.
REFUSALS: dict[str, tuple[type[PlayError], str]] = {
    "not_your_turn": (NotAllowed, "not_awaited"),
    "game_finished": (Conflict, "game_not_active"),
}


@dataclass(frozen=True, slots=True)
class Applied:
    """A command recorded: the new head of the game's log as the command's seat counts it."""

    game_id: int
    seq: int


class GameService:
    """Game commands against one database (the write path), on this process's state cache, which the lobby and
    the reads share: the write path fills it, and remembers there who sits where for its one-trip move."""

    def __init__(
        self,
        db: Database,
        cache: StateCache | None = None,
        clock: clocks.Clock = clocks.utc_now,
        moves_per_minute: int = MOVES_PER_MINUTE,
        *,
        thinker: Thinker | None = None,
    ) -> None:
        self.db = db
        self.announcer = Announcer(db)  # the recorded moves' live notices, sent after their commits
        self.thinker = thinker or Thinker()  # the site's bot, thinking off the event loop against a deadline
        self.cache = cache or StateCache()
        self.clock = clock
        self.moves_per_minute = moves_per_minute
        # The games a last move's pass left pending (`_rate`): the task that rates them, and whether it must look again.
        self._rating: asyncio.Task[None] | None = None
        self._more_to_rate = False
        self._deciders: dict[type[Any], Callable[[AsyncSession, Any], Awaitable[Outcome | None]]] = {
            PlayerMove: self._decide_move,
            ReplaceSeat: self._decide_replacement,
            Undo: self._decide_undo,
        }
        # The bot's moves of many games, started at once (`app.play.bot_keeper`), leave the pool to people's requests.
        self._bot_connections = asyncio.Semaphore(BOT_CONNECTIONS)
        # The commands the site's bot thinks for: read, think with nothing held, then decide and record.
        self._thought: dict[type[Any], Callable[[Any], Awaitable[Applied | None]]] = {
            BotMove: self._apply_bot,
            TimeOut: self._apply_timeout,
        }

    @overload
    async def apply(self, command: TimeOut | BotMove) -> Applied | None: ...

    @overload
    async def apply(self, command: PlayerMove | ReplaceSeat | Undo) -> Applied: ...

    async def apply(self, command: Command) -> Applied | None:
        """The one write path of a running game: decide `command` against the current state, with the rules core
        (once: the core returns the events and the state after them), then record the outcome with one statement
        (`app.play.record`). In autocommit, so a command costs two round trips — read, write — and one commit.

        No lock is held while deciding: when another writer got ahead in between, the write changes nothing and
        the command is decided again against the newer state (where a player's move is stale if the player can
        tell the difference, and a timeout finds its clock restarted). Anything that goes wrong raises before the
        write, so an error never leaves a trace in the log. Returns the new head as the command's seat counts
        it, or None for a timeout or a bot's move with nothing to do. The bot's moves and the timeouts, which
        the bot thinks for, hold no connection while it thinks (`_apply_bot`, `_apply_timeout`).
        """
        thought = self._thought.get(type(command))
        if thought is not None:
            return await thought(command)
        decide = self._deciders[type(command)]
        warm = self._decide_on_cache(command) if isinstance(command, PlayerMove) else None
        if warm is not None:
            async with self.db.driver() as connection:
                if await self._record(connection, warm):
                    return _applied(command, warm)
        async with self.db.autocommit() as session:
            for _ in range(MAX_DECISIONS):
                outcome = await decide(session, command)
                if outcome is None:
                    return None
                if await self._record(session, outcome):
                    return _applied(command, outcome)
        raise _stale(None)

    async def _apply_bot(self, command: BotMove) -> Applied | None:
        """The site's bot's move, in three steps of which only the first and last touch the database: read what
        the seat sees (one short read, the connection then back in the pool), think (`Thinker`: up to seconds at
        the hard level, with no connection or transaction held), then decide the chosen move and record it at the
        head it was thought for. When the game moved on meanwhile (a player's move or undo, another instance's
        bot, the seat's player back), nothing is recorded and the result is dropped — no error, no second try:
        the keeper's next pass thinks again from where the game is. One move per seat and head, on any number
        of instances."""
        async with self._bot_connections, self.db.reading() as session:
            turn = await self._bot_turn(session, command)
        if turn is None:
            return None
        move = await self.thinker.move(turn.state, command.seat, command.game_id, turn.level)
        async with self._bot_connections, self.db.autocommit() as session:
            outcome = await self._bot_outcome(session, command, turn, move)
            if await self._record(session, outcome):
                return _applied(command, outcome)
        log.info("game %s: the bot's move for seat %s was dropped, the game moved on", command.game_id, command.seat)
        return None

    async def apply_in_one_trip(self, command: PlayerMove, sign_in: SignInCheck) -> Applied | None:
        """A player's move in ONE round trip to the database, for a request whose sign-in was not looked up yet
        (`sign_in`, whose owner this process learnt from an earlier lookup): decided on the cached state and
        recorded by the statement that also checks the head, the moves-per-minute cap and the sign-in itself.
        None when any of that is unknown here or refused there, and nothing was written: the caller then looks
        the sign-in up as for any request and goes the whole way (`apply`), which words any refusal."""
        warm = self._decide_on_cache(command)
        if warm is None:
            return None
        async with self.db.driver() as connection:
            if await self._record(connection, replace(warm, sign_in=sign_in)):
                return _applied(command, warm)
        return None

    async def _record(self, on: AsyncSession | DriverConnection, outcome: Outcome) -> bool:
        """Record `outcome` in autocommit, remember the state after it, then send its notice to the live streams
        (`announcer`). A reader can find the committed head before the statement's own answer arrives:
        while the statement is under way, a stream that meets its head waits for the state in the cache
        (`StateCache.recording`) instead of reading it back from the database."""
        recorded = await self.cache.recording(outcome.game_id, outcome.new_seq, outcome.after, record(on, outcome))
        if recorded:
            self.announcer.send(notice(outcome))
        if recorded and outcome.handover is not None:
            self.cache.seats.forget_seat(outcome.game_id, outcome.handover[0])
        if recorded and outcome.ends_game:
            await self._rate()
        return recorded

    async def _rate(self) -> None:
        """Rate the game that just ended once its results are recorded: before the move answers, the oldest game
        pending (`ratings.rate_once`; alone, this one). Any other pending game — ended at the same time, its own
        last move having found the lock taken and left it to this one — is rated by a task of this service after
        the move has answered: a pass takes a few statements per game it rates, and under load games end
        together. The move stands whatever happens here: a failure is logged, and the next game's end, or
        `python -m app ratings --rebuild`, rates what was left."""
        try:
            _, more = await ratings.rate_once(self.db, most=RATED_BEFORE_ANSWER)
        except Exception:
            log.exception("rating the finished games failed; they stay pending")
            return
        if more:
            self._more_to_rate = True
            if self._rating is None or self._rating.done():
                self._rating = asyncio.create_task(self._rate_the_rest(), name="ratings")

    async def _rate_the_rest(self) -> None:
        """Rate, pass after pass, the games still pending (`_rate`), and again whenever a last move's pass left
        more meanwhile."""
        while self._more_to_rate:
            self._more_to_rate = False
            try:
                await ratings.rate_pending(self.db)
            except Exception:
                log.exception("rating the finished games failed; they stay pending")

    async def settled(self) -> None:
        """Return once the work this service still has under way is done: the live notices handed over, and the
        ratings (`_rate`). Before the process stops."""
        await self.announcer.settled()
        await self.ratings_settled()

    async def ratings_settled(self) -> None:
        """Return once the ratings this service still has under way (`_rate`) are done."""
        while self._rating is not None and not self._rating.done():
            await asyncio.shield(self._rating)

    def _decide_on_cache(self, command: PlayerMove) -> Outcome | None:
        """The move decided on this process's cached state, without reading the head: the common case of a
        player moving in a game this server has just shown them. The recording statement checks what the head
        read would have (the head itself, that the player still holds the seat this process remembers for them,
        the moves-per-minute cap) and records nothing otherwise; None whenever anything here is unknown or
        refused, and the move takes the full path, which decides at the real head and words any refusal."""
        seated = self.cache.seats.seated(command.game_id, command.user_id)
        state = self.cache.get(command.game_id)
        if seated is None or state is None or state.status != "active":
            return None
        seat = seated.seat
        if command.seq != counted(state, seat):
            return None
        try:
            events, after, draws = _play(state, seat, command.move, seated.seed)
        except PlayError:
            return None
        if needs_answers(awaiting(after)):
            return None  # the seats' answers ahead are read from the database: the full path
        return Outcome(
            command.game_id, state.seq, to_act(state), events, after, self.clock(), actor=seat,
            mover=command.user_id, move_cap=self.moves_per_minute, undoable=may_be_undone(events, draws),
        )

    def hear(self, change: Change) -> None:
        """Forget who this process remembers at a seat that changed hands (`change.handed`), whichever instance
        recorded the handover (the bus hands every instance each change): the player who left the seat then
        takes the full path, which finds them seatless. The recording statement refuses a stale memo anyway
        (`Outcome.mover`); this keeps it from being tried."""
        if change.handed is not None:
            self.cache.seats.forget_seat(change.game_id, change.handed)
        elif change.resync:  # a seat may have changed hands among changes heard of late (which one is unknown)
            self.cache.seats.forget_game(change.game_id)

    def forget_seats(self) -> None:
        """Drop every memo of who sits where, in every game: called when notices may have been lost (a handover
        among them), so that each player's next move reads the head again."""
        self.cache.seats.forget_all()

    def _learn(self, game_id: int, user_id: int, head: Head) -> None:
        """Keep what a head read told of who sits where, for `_decide_on_cache`."""
        self.cache.seats.learn(game_id, user_id, head.seed, head.seat)

    async def _decide_move(self, session: AsyncSession, command: PlayerMove) -> Outcome:
        """A player's move, made against `command.seq` as the player counts the log. Events the player may not
        know of (other seats' private events) do not make it stale: it is decided at the real head.

        Raises NotAllowed (no seat, not awaited), TooMany `too_many_moves`, Conflict `stale_seq` or
        `game_not_active`, Invalid (an illegal or malformed move).
        """
        head = await read_head(session, command.game_id, command.user_id)
        self._learn(command.game_id, command.user_id, head)
        seat, state = await self._seat_at_head(session, command, head)
        events, after, draws = await _decided(session, command.game_id, state, seat, command.move, head.seed)
        return Outcome(
            command.game_id, state.seq, to_act(state), events, after, self.clock(), actor=seat,
            mover=command.user_id, undoable=may_be_undone(events, draws),
        )

    async def _seat_at_head(
        self, session: AsyncSession, command: PlayerMove | Undo, head: Head
    ) -> tuple[int, GameState]:
        """The caller's seat and the state at the head, once the caller may change the log there: seated, within
        the moves-per-minute cap, and having seen the head (its seq as the caller counts the log)."""
        seat = head.seat
        if seat is None:
            raise NotAllowed("no_seat", "You do not have a seat in this game.")
        if head.recent_moves >= self.moves_per_minute:
            raise TooMany(
                "too_many_moves",
                "You have made {moves} moves in this game within a minute, the most allowed; "
                "please wait {seconds} s.",
                retry_after=head.retry_after, moves=head.recent_moves, seconds=head.retry_after,
            )
        state = await self.cache.load(session, command.game_id, head.seq)
        seen = counted(state, seat)
        if command.seq != seen:
            raise _stale(seen)
        return seat, state

    async def _decide_undo(self, session: AsyncSession, command: Undo) -> Outcome:
        """The caller takes back their last move (`app.rules.undo`, decisions D83-D86): only while it is the last
        move recorded (others' secret basket edits aside) and it drew and revealed nothing, which the move's own
        record noted (`games.undo_seat`). The state after the undo is the log's fold, read from its start.

        Raises what a move raises for the seat and the seq, and Conflict `undo_not_allowed`."""
        head = await read_head(session, command.game_id, command.user_id)
        self._learn(command.game_id, command.user_id, head)
        seat, state = await self._seat_at_head(session, command, head)
        if head.status != "active":
            raise Conflict("game_not_active", "This game is over; its moves stay made.")
        if head.undo_seat != seat or head.undo_events is None:
            raise Conflict(
                "undo_not_allowed",
                "You can take back only your own last move, while nobody else has moved since and the move drew "
                "or revealed nothing (no die, no bag, no secret shown).",
            )
        event = move_undone(seat, head.undo_events)
        after = replay([*await log_of(session, command.game_id, head.seq), event])
        return Outcome(
            command.game_id, state.seq, to_act(state), [event], after, self.clock(), actor=seat,
            mover=command.user_id, quiet=True, clock_back=True,
        )

    async def _apply_timeout(self, command: TimeOut) -> Applied | None:
        """The bot's move (or, should the bot fail, the safest default) for a seat whose clock ran out by
        `command.now`, marked in the log; from now on the bot plays the seat until its player comes back
        (`seats.absent`). With the player's mail (and the admins' on the third timeout in a row); None when the
        clock no longer runs out by then (the seat moved, or another instance made the move). Like the bot's
        move (`_apply_bot`), the bot thinks with no connection held; when another writer got ahead meanwhile, the
        timeout is read and thought again (a clock runs out once, whoever else moves).
        """
        for _ in range(MAX_DECISIONS):
            async with self.db.reading() as session:
                clock = await _seat_clock(session, command.game_id, command.seat)
                if clock is None or clock.status != "active" or clock.deadline is None or clock.deadline > command.now:
                    return None
                state = await self.cache.load(session, command.game_id, clock.seq)
            if command.seat not in to_act(state):
                return None
            thought = await self.thinker.move(state, command.seat, command.game_id)
            async with self.db.autocommit() as session:
                move, events, after, by_bot = await self._bot_decided(
                    session, state, command.seat, command.game_id, clock.seed, thought
                )
                mails = await clocks.timeout_mails(
                    session, clock.created_by, clock.user_id, clock.username, command.seat, move,
                    clock.timeouts_in_row + 1, by_bot,
                )
                outcome = Outcome(
                    command.game_id, state.seq, to_act(state), events, after, command.now,
                    actor=command.seat, by_clock=True, by_bot=by_bot, mails=mails,
                )
                if await self._record(session, outcome):
                    return _applied(command, outcome)
        raise _stale(None)

    async def _bot_turn(self, session: AsyncSession, command: BotMove) -> _BotTurn | None:
        """What the site's bot needs to think of its move for a seat it plays — a bot's own seat, or one whose
        player is absent since their clock ran out; None when the seat is no longer awaited or no longer the
        bot's to play (its player came back)."""
        row = (
            await session.execute(
                select(Game.status, Game.seq, Game.seed, Game.to_act, Game.bot_level, Seat.absent, User.is_bot)
                .join(Seat, (Seat.game_id == Game.id) & (Seat.seat == command.seat))
                .join(User, User.id == Seat.user_id)
                .where(Game.id == command.game_id)
            )
        ).one_or_none()
        if row is None or row.status != "active" or command.seat not in row.to_act or not (row.absent or row.is_bot):
            return None
        state = await self.cache.load(session, command.game_id, row.seq)
        level = row.bot_level if row.is_bot else ABSENT_LEVEL  # an absent player's seat: `normal` (API.md)
        return _BotTurn(state, seed_number(row.seed), level, for_absent=not row.is_bot)

    async def _bot_outcome(
        self, session: AsyncSession, command: BotMove, turn: _BotTurn, move: dict[str, Any] | None
    ) -> Outcome:
        """The bot's `move` (None: it failed) decided at the head it was thought for, marked in the log when made
        for an absent player; recorded only while the seat is still the bot's (`Outcome.bot_turn`)."""
        _, events, after, by_bot = await self._bot_decided(
            session, turn.state, command.seat, command.game_id, turn.seed, move)
        return Outcome(
            command.game_id, turn.state.seq, to_act(turn.state), events, after, self.clock(), actor=command.seat,
            bot_turn=True, by_bot=by_bot, for_absent=turn.for_absent,
        )

    async def _bot_decided(
        self, session: AsyncSession, state: GameState, seat: int, game_id: int, seed: int, move: dict[str, Any] | None
    ) -> tuple[dict[str, Any], list[Event], GameState, bool]:
        """The bot's `move` for the awaited `seat`, decided by the rules core: the move, its events, the state
        after them and whether the bot chose it — or the safest default when the bot failed, overran its deadline
        (`move` None) or chose a move the core refuses."""
        if move is not None:
            try:
                events, after, _ = await _decided(session, game_id, state, seat, move, seed)
                return move, events, after, True
            except PlayError as exc:
                log.error("game %s: the bot chose a move the rules refuse for seat %s: %s", game_id, seat, exc.message)
        fallback = default_move(state, seat)
        assert fallback is not None, "an awaited seat always has a move"
        events, after, _ = await _decided(session, game_id, state, seat, fallback, seed)
        return fallback, events, after, False

    async def take_seat_back(self, account: Account, game_id: int) -> None:
        """The caller plays their seat again after the bot played it for them (their clock had run out): from now
        on the game waits for them. Harmless when the bot was not playing it.

        Raises NotFound (no game), NotAllowed `no_seat`."""
        async with self.db.session() as session:
            taken = await session.scalar(
                update(Seat)
                .where(Seat.game_id == game_id, Seat.user_id == account.id, Seat.seat.is_not(None))
                .values(absent=False, absence_alert_at=None)
                .returning(Seat.seat)
            )
            await session.commit()
            if taken is None and await session.get(Game, game_id) is None:
                raise NotFound("game_not_found", "There is no game {game}.", game=game_id)
        if taken is None:
            raise NotAllowed("no_seat", "You do not have a seat in this game.")

    async def _decide_replacement(self, session: AsyncSession, command: ReplaceSeat) -> Outcome:
        """A `seat_replaced` event: the seat changes hands with a fresh clock and no timeouts counted, everyone
        seated and the player who leaves the seat are mailed about it, and the newcomer is told it is their turn if
        the seat is awaited."""
        _require_admin(command.admin)
        game_id, seat = command.game_id, command.seat
        game = (await session.execute(select(Game.status, Game.seq).where(Game.id == game_id))).one_or_none()
        if game is None:
            raise NotFound("game_not_found", "There is no game {game}.", game=game_id)
        if game.status != "active":
            raise Conflict("game_not_active", "This game is {status}; only a running game's seats change hands.",
                           status=game.status)
        newcomer = await session.scalar(select(User).where(func.lower(User.username) == command.username.lower()))
        if newcomer is None:
            raise Invalid("unknown_player", "There is no player called '{name}'.", name=command.username)
        seated = (
            await session.execute(
                select(Seat.seat, Seat.user_id, User.username)
                .join(User, User.id == Seat.user_id)
                .where(Seat.game_id == game_id, Seat.seat.is_not(None))
                .order_by(Seat.seat)
            )
        ).all()
        if any(user_id == newcomer.id for _, user_id, _ in seated):
            raise Conflict("already_seated", "{name} already has a seat in this game.", name=newcomer.username)
        previous = next((username for theirs, _, username in seated if theirs == seat), None)
        if previous is None:
            raise NotFound("seat_not_found", "Game {game} has no seat {seat}.", game=game_id, seat=seat)
        state = await self.cache.load(session, game_id, game.seq)
        event: SeatReplaced = {
            "type": "seat_replaced", "seat": seat, "previous": previous, "username": newcomer.username
        }
        # `seat` in a mail is the recipient's own: each mail shows its reader's view of the game (the player who
        # leaves the seat reads a spectator's).
        mails = [
            Mail(newcomer.id if theirs == seat else user_id, "seat_replaced",
                 {"seat": theirs, "previous": previous, "username": newcomer.username})
            for theirs, user_id, _ in seated
        ]
        mails += [
            Mail(user_id, "seat_replaced", {"seat": None, "previous": previous, "username": newcomer.username})
            for theirs, user_id, _ in seated
            if theirs == seat
        ]
        if seat in to_act(state):
            mails.append(Mail(newcomer.id, "your_turn", {"seat": seat}))
        return Outcome(
            game_id, state.seq, to_act(state), [event], replay([event], state), self.clock(),
            handover=(seat, newcomer.id), mails=mails,
        )

@dataclass(frozen=True, slots=True)
class _BotTurn:
    """What the site's bot's move is thought from: the state at the head read, the game's seed (for deciding the
    move, never handed to the bot), the bot's level, and whether it plays for an absent player."""

    state: GameState
    seed: int
    level: str
    for_absent: bool


@dataclass(frozen=True, slots=True)
class _SeatClock:
    """What a timeout needs to know first, read in one statement."""

    status: str
    seq: int
    seed: int
    created_by: int | None
    user_id: int
    username: str
    deadline: datetime | None
    timeouts_in_row: int


async def _seat_clock(session: AsyncSession, game_id: int, seat: int) -> _SeatClock | None:
    row = (
        await session.execute(
            select(
                Game.status, Game.seq, Game.seed, Game.created_by, Seat.user_id, User.username, Seat.deadline,
                Seat.timeouts_in_row,
            )
            .join(Seat, (Seat.game_id == Game.id) & (Seat.seat == seat))
            .join(User, User.id == Seat.user_id)
            .where(Game.id == game_id)
        )
    ).one_or_none()
    if row is None:
        return None
    return _SeatClock(
        row.status, row.seq, seed_number(row.seed), row.created_by, row.user_id, row.username, row.deadline,
        row.timeouts_in_row,
    )


async def _decided(
    session: AsyncSession, game_id: int, state: GameState, seat: int, move: dict[str, Any], seed: int
) -> tuple[list[Event], GameState, int]:
    """`_play`, with what the seats answered ahead outside the log when the game comes to a decision they may have
    answered (a permission request, the cash limit): read then, in one statement, and the move decided again with
    them — the same generator, so the same events up to there."""
    events, after, draws = _play(state, seat, move, seed)
    if needs_answers(awaiting(after)):
        events, after, draws = _play(state, seat, move, seed, await answers_of(session, game_id, len(state.players)))
    return events, after, draws


def _play(
    state: GameState, seat: int, move: dict[str, Any], seed: int, answers: Answers = ASK
) -> tuple[list[Event], GameState, int]:
    """The rules core decides, once: the events, the state after them and how often the generator drew. Its
    refusals reach the player by their code (REFUSALS); anything else it raises is a bug, left to travel up as
    one (a 500, logged)."""
    rng = Rng(seed, state.seq)
    try:
        events, after = play(state, seat, move, rng, answers)
        return events, after, rng.draws
    except IllegalMove as exc:
        kind, code = REFUSALS.get(exc.code, (Invalid, exc.code))
        raise kind(code, exc.template, phrases=exc.phrases, **exc.params) from exc


def _applied(command: Command, outcome: Outcome) -> Applied:
    """What `apply` answers for a recorded `outcome`; counted in `carson_moves_total` by its command's kind."""
    metrics.MOVES.labels(KINDS[type(command)]).inc()
    return Applied(outcome.game_id, counted(outcome.after, outcome.actor))


def _require_admin(account: Account) -> None:
    if not account.is_admin:
        raise NotAllowed("admin_only", "Only an admin may do this.")




def _stale(current: int | None) -> Conflict:
    if current is None:
        return Conflict("stale_seq", "The game has moved on since you looked; reload and try again.")
    return Conflict("stale_seq", "The game has moved on since you looked (it is now at {seq}); reload and try again.",
                    seq=current)

