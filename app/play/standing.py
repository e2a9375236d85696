"""What the ratings say of players, as their pages and the leaderboard show it: a player's rating and its
history, and the leaderboard. Everything here only reads (a bot's rating identity is found, never created:
`app.play.ratings.rater`)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, Select, exists, func, literal_column, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.ratings import NEWCOMER, PROVISIONAL_BELOW, Skill, rater
from app.store.db import Database
from app.store.tables import Game, RatedGame, Rating, RatingHistory, User

LEADERBOARD_SIZE = 100

# The order of the leaderboard, openskill's ordinal (what the shown rating scales), and the players it leaves
# out, written as the partial index `ix_ratings_leaderboard` (migration 0016) has them, constants inline: the
# planner matches an index's expression and predicate only to the same expression, never to a bound parameter.
ORDINAL: ColumnElement[float] = Rating.mu - literal_column("3") * Rating.sigma
RANKED: ColumnElement[bool] = Rating.games >= literal_column(str(PROVISIONAL_BELOW))


@dataclass(frozen=True, slots=True)
class Ranked:
    username: str
    rating: int
    games: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One page of the leaderboard, and how many players the whole of it holds."""

    players: list[Ranked]
    total: int
    offset: int


async def skill_of(session: AsyncSession, user_id: int) -> Skill:
    """The player's rating (a bot's: its level's), a newcomer's before their first rated game."""
    row = (await session.execute(select(Rating.mu, Rating.sigma, Rating.games)
                                 .where(Rating.user_id == rater(user_id)))).one_or_none()
    return Skill(*row) if row is not None else NEWCOMER


async def history_of(session: AsyncSession, user_id: int) -> list[int]:
    """The player's rating after each of their rated games, oldest first (a bot's: its level's)."""
    rows = (
        await session.execute(
            select(RatingHistory.mu, RatingHistory.sigma)
            .join(RatedGame, RatedGame.game_id == RatingHistory.game_id)
            .where(RatingHistory.user_id == rater(user_id))
            .order_by(RatedGame.id)
        )
    ).all()
    return [Skill(mu, sigma, 0).value for mu, sigma in rows]


def ranked(players: int | None = None) -> Select[str, float, float, int]:
    """The leaderboard's players (name, mu, sigma, games), best first (then by name), provisional ones left out;
    with `players`, only those who played a rated game at a table of that many seats (a bot level's identity
    included: its history is its own)."""
    query = select(User.username, Rating.mu, Rating.sigma, Rating.games).join(User, User.id == Rating.user_id).where(
        RANKED
    )
    if players is not None:
        query = query.where(
            exists(
                select(RatingHistory.game_id)
                .join(Game, Game.id == RatingHistory.game_id)
                .where(RatingHistory.user_id == Rating.user_id, Game.seat_count == players)
            )
        )
    return query.order_by(ORDINAL.desc(), User.username)


async def leaderboard(db: Database, players: int | None = None, limit: int = LEADERBOARD_SIZE,
                      offset: int = 0) -> Leaderboard:
    """`limit` players of the leaderboard (`ranked`) from the `offset`-th, and how many it holds: sorted,
    filtered and cut by the database, on the partial index of the ranked players' ordinals."""
    query = ranked(players)
    async with db.reading() as session:
        rows = (await session.execute(query.limit(limit).offset(offset))).all()
        total = await session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0
    return Leaderboard([Ranked(name, Skill(mu, sigma, games).value, games) for name, mu, sigma, games in rows],
                       total, offset)
