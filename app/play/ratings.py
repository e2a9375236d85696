"""Ratings from the results table (issue 27): openskill's Plackett-Luce model, made for games of more than two
players, rates each rated game's players from their places (`game_results.place`, ties shared), in the order the
games were rated (`rated_games.id`). A rating is data: `rebuild` computes every figure again from the results
and gets the same numbers, which is how a change of model or of a game's results reaches them.

The site's bots are rated like anyone, one rating identity per bot level (their seats' accounts `bot-1`,
`bot-2`, ... are one player as far as skill goes): `bot-easy`, `bot-normal` (the heuristic bot) and `bot-hard`, the
level the game's table chose for its bot seats (`games.bot_level`).
Two bot seats in one game are two opponents of the same rating; the identity then takes the mean of their
updates and counts the game once.

A rating is shown as one integer, the conservative estimate mu - 3 sigma scaled (`value`): it starts at 1000
and is provisional below `PROVISIONAL_BELOW` rated games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import ScalarSelect, case, delete, func, insert, select, text
from sqlalchemy.dialects.postgresql import insert as upsert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.play.accounts import NO_PASSWORD
from app.store.db import Database, end_unwritten
from app.store.tables import Game, GameResult, RatedGame, Rating, RatingHistory, User

MODEL = PlackettLuce()
PROVISIONAL_BELOW = 10
# The one integer shown: openskill's ordinal (mu - 3 sigma, 0 for a newcomer) times SCALE, from BASE.
BASE, SCALE = 1000, 40
# The rating identity of each bot level (`app.bots.LEVELS`; a test checks that every level has one).
BOT_IDENTITIES: Mapping[str, str] = {"easy": "bot-easy", "normal": "bot-normal", "hard": "bot-hard"}
BOT_LEVEL = "normal"
# Ratings change one game at a time, across every instance of the server: a transaction-level advisory lock
# (`rate_pending` only tries it; `rebuild` waits for it).
_LOCK = 27_000_027


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's Plackett-Luce rating and the rated games it rests on."""

    mu: float
    sigma: float
    games: int

    @property
    def value(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_BELOW


NEWCOMER = Skill(MODEL.mu, MODEL.sigma, 0)


def shown(mu: float, sigma: float) -> int:
    """The one integer a rating is shown as."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def rate(entries: Sequence[tuple[int, int]], known: Mapping[int, Skill]) -> dict[int, Skill]:
    """The new skill of each player of one game from `entries` (player, place), each entry a team of one; players
    not in `known` start as newcomers. A player with several entries (a bot level's seats) gets the mean of their
    updates, and the game counts once."""
    before = [known.get(player, NEWCOMER) for player, _ in entries]
    teams = [[MODEL.create_rating([skill.mu, skill.sigma])] for skill in before]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in entries])
    updates: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for (player, _), (after,) in zip(entries, rated, strict=True):
        updates[player].append((after.mu, after.sigma))
    return {
        player: Skill(
            sum(mu for mu, _ in pairs) / len(pairs),
            sum(sigma for _, sigma in pairs) / len(pairs),
            known.get(player, NEWCOMER).games + 1,
        )
        for player, pairs in updates.items()
    }


async def bot_identity(session: AsyncSession, level: str = BOT_LEVEL) -> int:
    """The account a bot level is rated as, created when first needed (no address, no password): for the
    rating's write alone; the reads find it with `rater`, and a bot level never rated has no rating to find."""
    name = BOT_IDENTITIES[level]
    await session.execute(
        upsert(User).values(username=name, email=None, password_hash=NO_PASSWORD, is_bot=True).on_conflict_do_nothing()
    )
    found = await session.scalar(select(User.id).where(User.username == name, User.is_bot))
    if found is None:
        raise RuntimeError(f"the name {name!r} belongs to a player, not to the site's bot")
    return found


_LEVEL = aliased(User)  # made once: an alias works its columns out at its first use, a millisecond or more of CPU


def rater(user_id: int) -> ScalarSelect[Any]:
    """Whom `user_id`'s ratings are about, as a subquery that only reads: the account itself (a bot level's
    identity too), or for a bot seat's account (`bot-1`, ...), which plays at every level, the `normal` level's
    identity (NULL, so no rating, while that level was never rated)."""
    level = _LEVEL
    identity = select(level.id).where(level.username == BOT_IDENTITIES[BOT_LEVEL], level.is_bot).scalar_subquery()
    seat_account = User.is_bot & User.username.not_in(list(BOT_IDENTITIES.values()))
    return select(case((seat_account, identity), else_=User.id)).where(User.id == user_id).scalar_subquery()


async def rate_pending(db: Database) -> int:
    """Rate every rated game whose results have not changed the ratings yet, oldest end first, pass after pass
    until none is left or another rater holds the lock (`rate_once`). Returns how many games this call rated."""
    rated, more = await rate_once(db)
    while more:
        this_pass, more = await rate_once(db)
        rated += this_pass
    return rated


async def rate_once(db: Database, most: int | None = None) -> tuple[int, bool]:
    """One pass: rate the games pending now (the `most` oldest of them, if given), oldest end first, called after
    a game's end is recorded. Returns how many it rated, and whether games are pending after its commit (left by
    `most`, or ended meanwhile: the caller, which held the lock, must see to another pass, `rate_pending`).

    Never waits for another rater (here or on another instance): games that end at the same time would otherwise
    queue their last moves behind one another's rating, each holding a pooled connection while it waits (measured
    under bench/load.py: 2.8-4.2 sessions on average waiting for the lock, and a move's p99 at 7.7-10x its p50 in
    the rounds where games ended). When the lock is taken, (0, False): the rater that holds it takes this game
    too, since every rater looks for pending games again once its transaction has ended, and this game's results
    were committed before that."""
    async with db.session() as session:
        if not await session.scalar(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": _LOCK}):
            await end_unwritten(session)
            return 0, False
        pending = (await _pending(session))[:most]
        await _rate_games(session, pending)
        await session.commit()
    async with db.reading() as session:
        return len(pending), bool(await _pending(session))


async def _pending(session: AsyncSession) -> Sequence[int]:
    """The rated games whose results have not changed the ratings yet, oldest end first."""
    return (
        await session.scalars(
            select(GameResult.game_id)
            .where(GameResult.rated, GameResult.game_id.not_in(select(RatedGame.game_id)))
            .group_by(GameResult.game_id)
            .order_by(func.min(GameResult.finished_at), GameResult.game_id)
        )
    ).all()


async def rebuild(db: Database) -> int:
    """Compute every rating again from the results table, the games in the order they were first rated (then
    any not rated yet): the same figures as the live ones. Returns how many games were rated."""
    async with db.session() as session:
        await session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        order = (await session.scalars(select(RatedGame.game_id).order_by(RatedGame.id))).all()
        for table in (RatingHistory, Rating, RatedGame):
            await session.execute(delete(table))
        await _rate_games(session, order)
        await session.commit()
    return len(order) + await rate_pending(db)


async def _rate_games(session: AsyncSession, game_ids: Iterable[int]) -> None:
    for game_id in game_ids:
        rows = (
            await session.execute(
                select(GameResult.user_id, GameResult.place, User.is_bot, Game.bot_level)
                .join(User, User.id == GameResult.user_id)
                .join(Game, Game.id == GameResult.game_id)
                .where(GameResult.game_id == game_id)
                .order_by(GameResult.seat, GameResult.user_id)
            )
        ).all()
        bot = await bot_identity(session, rows[0].bot_level) if any(row.is_bot for row in rows) else None
        entries = [(bot if row.is_bot and bot is not None else row.user_id, row.place) for row in rows]
        players = {player for player, _ in entries}
        known = {
            r.user_id: Skill(r.mu, r.sigma, r.games)
            for r in (await session.scalars(select(Rating).where(Rating.user_id.in_(players)))).all()
        }
        after = rate(entries, known)
        await session.execute(insert(RatedGame).values(game_id=game_id))
        await session.execute(
            insert(RatingHistory),
            [
                {"game_id": game_id, "user_id": player, "mu": s.mu, "sigma": s.sigma, "games": s.games}
                for player, s in after.items()
            ],
        )
        for player, s in after.items():
            await session.execute(
                upsert(Rating)
                .values(user_id=player, mu=s.mu, sigma=s.sigma, games=s.games)
                .on_conflict_do_update(
                    index_elements=[Rating.user_id],
                    set_={"mu": s.mu, "sigma": s.sigma, "games": s.games, "updated_at": func.now()},
                )
            )
        await session.flush()
