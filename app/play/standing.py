"""What the ratings and the results table say of players, as their pages and the leaderboard show it: a player's
rating and reputation (games finished, games left, games whose clock they let run out) and the leaderboard."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.ratings import NEWCOMER, PROVISIONAL_BELOW, Skill, rater_of
from app.store.db import Database
from app.store.tables import GameResult, RatedGame, Rating, RatingHistory, User

LEADERBOARD_SIZE = 100


@dataclass(frozen=True, slots=True)
class Reputation:
    finished: int  # games played to their end
    abandoned: int  # games left while running (their seat handed to another)
    timeouts: int  # games in which their clock ran out


@dataclass(frozen=True, slots=True)
class Ranked:
    username: str
    rating: int
    games: int


async def skill_of(session: AsyncSession, user_id: int) -> Skill:
    """The player's rating (a bot's: its level's), a newcomer's before their first rated game."""
    row = await session.get(Rating, await rater_of(session, user_id))
    return Skill(row.mu, row.sigma, row.games) if row is not None else NEWCOMER


async def reputation_of(session: AsyncSession, user_id: int) -> Reputation:
    row = (
        await session.execute(
            select(
                func.count().filter(GameResult.left_game.is_(False)),
                func.count().filter(GameResult.left_game),
                func.count().filter(GameResult.on_time.is_(False)),
            ).where(GameResult.user_id == user_id)
        )
    ).one()
    return Reputation(*row)


async def history_of(session: AsyncSession, user_id: int) -> list[int]:
    """The player's rating after each of their rated games, oldest first (a bot's: its level's)."""
    rater = await rater_of(session, user_id)
    rows = (
        await session.execute(
            select(RatingHistory.mu, RatingHistory.sigma)
            .join(RatedGame, RatedGame.game_id == RatingHistory.game_id)
            .where(RatingHistory.user_id == rater)
            .order_by(RatedGame.id)
        )
    ).all()
    return [Skill(mu, sigma, 0).value for mu, sigma in rows]


async def leaderboard(db: Database, players: int | None = None, limit: int = LEADERBOARD_SIZE) -> list[Ranked]:
    """The rated players, best first, provisional ones left out; with `players`, only those who played a rated
    game of that many seats."""
    query = select(User.username, Rating.mu, Rating.sigma, Rating.games).join(User, User.id == Rating.user_id).where(
        Rating.games >= PROVISIONAL_BELOW
    )
    if players is not None:
        sized = (
            select(GameResult.game_id)
            .where(GameResult.rated, GameResult.left_game.is_(False))
            .group_by(GameResult.game_id)
            .having(func.count() == players)
        )
        bots = select(User.id).where(User.is_bot)
        query = query.where(
            select(GameResult.game_id)
            .where(
                GameResult.game_id.in_(sized),
                case(
                    (Rating.user_id.in_(bots), GameResult.user_id.in_(bots)),
                    else_=GameResult.user_id == Rating.user_id,
                ),
            )
            .exists()
        )
    async with db.reading() as session:
        rows = (await session.execute(query)).all()
    ranked = sorted((Ranked(name, Skill(mu, sigma, games).value, games) for name, mu, sigma, games in rows),
                    key=lambda r: (-r.rating, r.username))
    return ranked[:limit]
