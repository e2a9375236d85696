"""A player's reputation (issue 27, item 3): the games they finished, the running games they left (their seat
handed to another), and the games in which their move clock ran out, all counted from the results table
(`game_results`). Their profile shows it, and so does each seat of an open table and of an invitation, read in
the summary's own statement (`seats_reputation`). A table may turn away players whose clocks ran out too often
(`games.max_timeout_percent`): `check_join`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app.play.errors import NotAllowed
from app.store.tables import GameResult


@dataclass(frozen=True, slots=True)
class Reputation:
    finished: int  # games played to their end
    abandoned: int  # games left while running (their seat handed to another)
    timeouts: int  # games in which their clock ran out

    @property
    def games(self) -> int:
        """Every game with a result for the player: finished or left."""
        return self.finished + self.abandoned

    @property
    def timeout_percent(self) -> int:
        """The share of their games in which their clock ran out, in whole percent rounded up (so a table's
        "at most 10 %" never lets 10.5 % in); 0 before their first game."""
        return -(-100 * self.timeouts // self.games) if self.games else 0

    @classmethod
    def of(cls, counts: Any) -> Reputation:
        """From the three counts as `_counts` reads them (a row, or the JSON array of a summary's seat)."""
        finished, abandoned, timeouts = counts
        return cls(int(finished), int(abandoned), int(timeouts))


def _counts() -> tuple[ColumnElement[int], ColumnElement[int], ColumnElement[int]]:
    """The three counts over a player's results: finished, left, clock run out."""
    return (
        func.count().filter(GameResult.left_game.is_(False)),
        func.count().filter(GameResult.left_game),
        func.count().filter(GameResult.on_time.is_(False)),
    )


def as_json(user_id: ColumnElement[int] | InstrumentedAttribute[int]) -> ColumnElement[Any]:
    """The counts of the player in column `user_id` as one JSON array, a scalar subquery for a summary's row
    (the results' index on their user makes it an index scan per seat)."""
    return select(func.json_build_array(*_counts())).where(GameResult.user_id == user_id).scalar_subquery()


async def reputation_of(session: AsyncSession, user_id: int) -> Reputation:
    """The player's reputation, from the results table."""
    return Reputation.of((await session.execute(select(*_counts()).where(GameResult.user_id == user_id))).one())


async def check_join(session: AsyncSession, user_id: int, max_timeout_percent: int | None) -> None:
    """Let the player join a table that asks for at most `max_timeout_percent` % of games with a clock run out
    (None: anyone). Raises NotAllowed `reputation_too_low` otherwise."""
    if max_timeout_percent is None:
        return
    mine = await reputation_of(session, user_id)
    if mine.timeout_percent > max_timeout_percent:
        raise NotAllowed(
            "reputation_too_low",
            "This table takes players whose clock ran out in at most {most} %: yours ran out in {timeouts} of "
            "{games} games ({percent} %).",
            most=max_timeout_percent, timeouts=mine.timeouts, games=mine.games, percent=mine.timeout_percent,
        )
