"""The tables before their game: open one, join it, leave it, invite to it, decline an invitation, start it.

What happens here changes who sits at a table, never a game's log, but for one step: starting a game records
its setup events, and it does so as every change of a log is recorded, by `app.play.record` (in the
transaction that seats the players at random, which the statement joins). The state it starts from enters the
state cache once that transaction commits. The answers are the table's summary as the reads show it
(`app.play.positions.Positions`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.bots import LEVELS
from app.play import clocks, hosting_limits, invitations, reputation, table_names
from app.play.accounts import Account, bot_accounts
from app.play.bus import CHANNEL, TableChanged
from app.play.errors import Conflict, Invalid, NotAllowed, NotFound
from app.play.hosting_limits import HostingLimits
from app.play.positions import GameSummary, Positions
from app.play.record import Outcome, announce_within, record
from app.rules import ConfigError, GameConfig, GameState, start_game
from app.rules.fairness import SEED_BYTES, seed_bytes, seed_number
from app.store.db import Database
from app.store.repository import StateCache
from app.store.tables import Game, Seat, User

DEFAULT_LEVEL = "normal"  # the heuristic bot, every table's before the levels (API.md "Bot levels")


class Lobby:
    """The open tables against one database: who sits, who is invited, and the start that hands a table to the
    write path (`app.play.service.GameService`). Shares the state cache with it and with the reads."""

    def __init__(
        self,
        db: Database,
        cache: StateCache,
        positions: Positions,
        clock: clocks.Clock = clocks.utc_now,
        *,
        players_create_games: bool = True,
        hosting_limits: HostingLimits | None = None,
    ) -> None:
        self.db = db
        self.cache = cache
        self.positions = positions  # the summary each command answers with
        self.clock = clock
        self.players_create_games = players_create_games  # False: only admins open tables (PLAYERS_CREATE_GAMES)
        self.hosting_limits = hosting_limits or HostingLimits()  # tables and invitations a player makes a day

    async def create_game(
        self,
        creator: Account,
        *,
        name: str,
        seat_count: int,
        variants: dict[str, Any],
        players: Sequence[str] | None = None,
        seed: int | None = None,
        move_timeout_hours: int | None = None,
        public: bool = True,
        bots: int = 0,
        bot_level: str = DEFAULT_LEVEL,
        rated: bool = True,
        start_when_full: bool = True,
        invitation_days: int = 7,
        max_timeout_percent: int | None = None,
        pause_weekends: bool = False,
        vacations: bool = True,
        address: str = "unknown",
    ) -> GameSummary:
        """Open a table. An admin's table seats the `players` listed; a player's table seats its creator and
        invites the `players` listed, who accept or decline. `bots` more seats are taken by the site's bots
        (`bot-1` ...), playing at `bot_level` (`app.bots.LEVELS`). A table that `start_when_full` starts when its
        last seat is taken (random seating): here, when the seated fill it, else by the join that does (`join`);
        otherwise its creator starts it (`start`). Its invitations expire unanswered after `invitation_days`
        (`app.play.invitations.expire`). Its clocks stop on each player's weekend when it `pause_weekends`, and
        for vacation days unless `vacations` is false.
        The secret seed is 32 random bytes, or the admin's `seed` (`app.rules.fairness`); its commitment is fixed
        here, before any draw.

        A player's tables and invitations are counted per account and per client `address`
        (app.play.hosting_limits), once the request is otherwise valid.

        Raises NotAllowed `players_create_games_off` (a player, where only admins create games) or
        `seed_admin_only`, Invalid for variants, player lists, numbers of bots or a bot level (`unknown_bot_level`)
        that cannot be played, TooMany `too_many_tables` / `too_many_invitations`; Invalid `link_in_name` for a
        name that reads as an address (app.play.table_names). An unrated (`rated` false) table's game changes
        nobody's rating. With `max_timeout_percent`, only players whose clock ran out in at most that share of
        their games may join (`join`); the players it seats or invites are chosen by name and not asked."""
        table_names.check_name(name)
        if not creator.is_admin:
            if not self.players_create_games:
                raise NotAllowed("players_create_games_off", "On this site only an admin may open a table.")
            if seed is not None:
                raise NotAllowed("seed_admin_only", "Only an admin may choose a game's seed.")
        config = _config(seat_count, variants)
        players = list(players or [])
        if not creator.is_admin:  # the creator sits down anyway: naming oneself invites nobody
            players = [p for p in players if p.lower() != creator.username.lower()]
        _check_bots(seat_count, bots)
        if bot_level not in LEVELS:
            raise Invalid("unknown_bot_level", "The bot level '{level}' does not exist: choose easy, normal or hard.",
                          level=bot_level)
        places = (seat_count if creator.is_admin else seat_count - 1) - bots
        if len(players) > places:
            if bots:
                raise Invalid(
                    "too_many_players",
                    "The game has {seats} seats but {players} players were listed besides the bots ({bots}).",
                    seats=seat_count, players=len(players), bots=bots,
                )
            raise Invalid(
                "too_many_players", "The game has {seats} seats but {players} players were listed.",
                seats=seat_count, players=len(players),
            )
        if len({p.lower() for p in players}) != len(players):
            raise Invalid("duplicate_player", "A player is listed twice.")
        if not creator.is_admin:
            async with self.db.session() as session:
                await _users_named(session, players)  # unknown names and bots are refused before anything counts
                await hosting_limits.count_table(session, self.hosting_limits, creator.username, address, self.clock())
                await hosting_limits.count_invitations(
                    session, self.hosting_limits, creator.username, address, self.clock(), len(players)
                )
        async with self.db.session() as session:
            users = await _users_named(session, players)
            robots = await bot_accounts(session, bots)
            secret = seed_bytes(seed) if seed is not None else secrets.token_bytes(SEED_BYTES)
            game = Game(
                name=name,
                seat_count=seat_count,
                variants=config.to_json(),
                seed=secret,
                seed_chosen=seed is not None,
                move_timeout_hours=move_timeout_hours,
                created_by=creator.id,
                public=public,
                rated=rated,
                start_when_full=start_when_full,
                invitation_days=invitation_days,
                max_timeout_percent=max_timeout_percent,
                pause_weekends=pause_weekends,
                vacations=vacations,
                bot_level=bot_level,
            )
            session.add(game)
            await session.flush()
            state = None
            seated = [user.id for user in users] if creator.is_admin else [creator.id]
            seated += [robot.id for robot in robots]
            session.add_all(Seat(game_id=game.id, user_id=user_id) for user_id in seated)
            await session.flush()
            if not creator.is_admin:
                await invitations.invite(session, game.id, creator.id, users)
            if start_when_full and len(seated) == seat_count:
                state = await self._start(session, game)
            await session.commit()
            game_id = game.id
        if state is not None:
            self.cache.remember(game_id, state)
        return await self.positions.summary(game_id)

    async def join(self, account: Account, game_id: int) -> GameSummary:
        """Take a free seat in an open game, or the seat one's invitation holds (accepting it). A table by
        invitation only takes its invited players alone; a table with a reputation requirement takes the others
        only if their record meets it (NotAllowed `reputation_too_low`), an invited player having been chosen
        by name. The join that takes the last seat of a table that starts when full starts its game, in the same
        transaction: the answer is the running game."""
        async with self.db.session() as session:
            game = await _game_for_update(session, game_id)
            if game.status != "open":
                raise Conflict("game_started", "This game has already started; nobody can join it now.")
            if await session.get(Seat, (game_id, account.id)) is not None:
                raise Conflict("already_joined", "You have already joined this game.")
            if not await invitations.take(session, game_id, account.id):
                if not game.public:
                    raise NotAllowed("invitation_required", "This table is by invitation only.")
                if await invitations.free_seats(session, game_id, game.seat_count) <= 0:
                    raise Conflict("game_full", "Every seat of this game is taken or held for an invited player.")
                await reputation.check_join(session, account.id, game.max_timeout_percent)
            session.add(Seat(game_id=game_id, user_id=account.id))
            await session.flush()
            state = None
            if game.start_when_full and await _seated(session, game_id) == game.seat_count:
                state = await self._start(session, game)
            else:
                await _announce(session, game_id)
            await session.commit()
        if state is not None:
            self.cache.remember(game_id, state)
        return await self.positions.summary(game_id)

    async def leave(self, account: Account, game_id: int) -> None:
        """Give up one's seat at an open table. The last player to leave closes the table (it is deleted with its
        invitations and chat); a creator who leaves hands the table to the player seated longest."""
        async with self.db.session() as session:
            game = await _game_for_update(session, game_id)
            if game.status != "open":
                raise Conflict("game_started", "This game has started; its seats are played to the end.")
            seat = await session.get(Seat, (game_id, account.id))
            if seat is None:
                raise Conflict("not_joined", "You have no seat at this table.")
            await session.delete(seat)
            await session.flush()
            stays = await session.scalar(
                select(Seat.user_id)
                .join(User, User.id == Seat.user_id)
                .where(Seat.game_id == game_id, User.is_bot.is_(False))
                .order_by(Seat.joined_at, Seat.user_id)
                .limit(1)
            )
            if stays is None:  # only bots would be left
                await session.delete(game)
            elif game.created_by == account.id:
                game.created_by = stays
            await _announce(session, game_id)
            await session.commit()

    async def invite(self, account: Account, game_id: int, username: str, address: str = "unknown") -> GameSummary:
        """Invite the player called `username` to an open table (its creator, or an admin): the invitation holds
        a seat for them and is mailed to them. A player's invitation is counted first (per account and client
        `address`): TooMany `too_many_invitations`."""
        if not account.is_admin:
            async with self.db.session() as session:
                await hosting_limits.count_invitations(
                    session, self.hosting_limits, account.username, address, self.clock(), 1
                )
        async with self.db.session() as session:
            game = await _game_for_update(session, game_id)
            _require_host(account, game)
            if game.status != "open":
                raise Conflict("game_started", "This game has already started; nobody can be invited now.")
            (user,) = await _users_named(session, [username])
            if await session.get(Seat, (game_id, user.id)) is not None:
                raise Conflict("already_joined", "{name} already sits at this table.", name=user.username)
            if await invitations.is_invited(session, game_id, user.id):
                raise Conflict("already_invited", "{name} is invited already.", name=user.username)
            if await invitations.free_seats(session, game_id, game.seat_count) <= 0:
                raise Conflict("game_full", "Every seat of this table is taken or held for an invited player.")
            await invitations.invite(session, game_id, account.id, [user])
            await _announce(session, game_id)
            await session.commit()
        return await self.positions.summary(game_id)

    async def decline(self, account: Account, game_id: int) -> None:
        """Turn down one's invitation to a table; its seat is free again."""
        async with self.db.session() as session:
            if not await invitations.take(session, game_id, account.id):
                raise NotFound("no_invitation", "You have no invitation to this table.")
            await _announce(session, game_id)
            await session.commit()

    async def start(self, account: Account, game_id: int) -> GameSummary:
        """Start an open game with the players who joined, seated at random (its creator, or an admin); the
        invitations nobody answered lapse."""
        async with self.db.session() as session:
            game = await _game_for_update(session, game_id)
            _require_host(account, game)
            if game.status != "open":
                raise Conflict("game_started", "This game has already started.")
            state = await self._start(session, game)
            await invitations.drop_all(session, game_id)
            await session.commit()
        self.cache.remember(game_id, state)
        return await self.positions.summary(game_id)

    async def _start(self, session: AsyncSession, game: Game) -> GameState:
        """Seat the players of `game` at random and record its setup events, in `session`'s transaction: the
        recording statement is the write path's own (`app.play.record`), which joins the transaction, so the
        seats, the events, the move clocks and the mails of the start commit together or not at all. Returns the
        state to remember once the transaction commits."""
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
        seed = seed_number(game.seed)
        random.Random(seed).shuffle(order)
        for seat, index in zip(seats, order, strict=True):
            seat.seat = index
        events, state = start_game(config, seed)
        game.seat_count = len(seats)
        await session.flush()
        outcome = Outcome(game.id, 0, (), events, state, self.clock())
        if not await record(session, outcome):
            raise Conflict("game_started", "This game has already started.")
        await announce_within(session, outcome)
        return state


async def _announce(session: AsyncSession, game_id: int) -> None:
    """Tell the open table's waiting pages, on every instance, that who sits or is invited there changed: the
    notice goes out when (and only if) the transaction commits."""
    await session.execute(
        text("SELECT pg_notify(:channel, :notice)"), {"channel": CHANNEL, "notice": TableChanged(game_id).to_json()}
    )


async def _seated(session: AsyncSession, game_id: int) -> int:
    return await session.scalar(select(func.count()).select_from(Seat).where(Seat.game_id == game_id)) or 0


def _require_host(account: Account, game: Game) -> None:
    """The table's creator or an admin."""
    if not account.is_admin and game.created_by != account.id:
        raise NotAllowed("not_creator", "Only the player who opened this table (or an admin) may do this.")


def _config(players: int, variants: dict[str, Any]) -> GameConfig:
    try:
        return GameConfig.from_variants(players=players, variants=variants)
    except ConfigError as exc:
        # The sentence names the setting; the web layer says it in the caller's language.
        raise Invalid("invalid_variant", exc.template, phrases=exc.phrases, **exc.params) from exc


async def _game_for_update(session: AsyncSession, game_id: int) -> Game:
    game = await session.scalar(select(Game).where(Game.id == game_id).with_for_update())
    if game is None:
        raise NotFound("game_not_found", "There is no game {game}.", game=game_id)
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
        raise Invalid("unknown_player", "There is no player called '{name}'.", name=missing[0])
    robots = [found[n.lower()].username for n in names if found[n.lower()].is_bot]
    if robots:
        raise Invalid(
            "bot_not_invited",
            "{name} is the site's bot, who is not invited: ask for bots with \"Bots\" when you open a table.",
            name=robots[0],
        )
    return [found[n.lower()] for n in names]


def _check_bots(seat_count: int, bots: int) -> None:
    """A game takes 0 .. seats - 1 bots: at least one seat is a person's (who opens the table or joins it)."""
    if bots < 0:
        raise Invalid("invalid_bots", "The number of bots cannot be negative.")
    if bots > seat_count - 1:
        raise Invalid(
            "too_many_bots",
            "A game of {seats} seats leaves at least one seat to a person: the most bots it takes is {most}.",
            seats=seat_count, most=seat_count - 1,
        )
