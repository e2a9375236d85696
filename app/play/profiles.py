"""A player's record, as their page shows it: their finished games with each result, their win rate, and the
games they play now.

Results come from each finished game's final state as everyone may see it (a finished game hides nothing), so
the page and the table can never disagree; the win rate counts the finished games listed (the newest
`FINISHED_SHOWN`), and says how many that is.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.play.accounts import Account, find_by_name
from app.play.errors import NotFound
from app.play.positions import GameSummary, Positions
from app.play.ratings import Skill
from app.play.reputation import Reputation, reputation_of
from app.play.standing import history_of, skill_of

FINISHED_SHOWN = 50
RUNNING_SHOWN = 50


@dataclass(frozen=True, slots=True)
class Result:
    """How one finished game ended for the player."""

    game: GameSummary
    won: bool
    place: int  # 1 for the winner; the others by points, then money
    points: int
    winner: str


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    username: str
    finished: list[Result]
    finished_total: int  # all their finished games, of which `finished` lists the newest
    running: list[GameSummary]
    skill: Skill  # their rating (app.play.ratings)
    reputation: Reputation
    history: list[int]  # the rating shown after each rated game, oldest first

    @property
    def wins(self) -> int:
        return sum(1 for r in self.finished if r.won)

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game listed; None before the first."""
        return self.wins / len(self.finished) if self.finished else None


async def player_record(positions: Positions, viewer: Account, username: str) -> PlayerRecord:
    """The record of the player called `username` (any case) as `viewer` may see it (game summaries are
    public to the signed-in); NotFound `player_not_found` for nobody."""
    async with positions.db.reading() as session:
        user = await find_by_name(session, username)
        if user is None:
            raise NotFound("player_not_found", "There is no player called '{name}'.", name=username)
        user_id, name = user.id, user.username
        skill, reputation = await skill_of(session, user_id), await reputation_of(session, user_id)
        history = await history_of(session, user_id)
    finished, total = await positions.list_games(viewer, status="finished", player_id=user_id, limit=FINISHED_SHOWN)
    active, _ = await positions.list_games(viewer, status="active", player_id=user_id, limit=RUNNING_SHOWN)
    results = [await _result(positions, user_id, g) for g in finished]
    return PlayerRecord(name, [r for r in results if r is not None], total, active, skill, reputation, history)


async def _result(positions: Positions, user_id: int, game: GameSummary) -> Result | None:
    seat = game.seat_of(user_id)
    if seat is None:
        return None
    view = await positions.view(None, game.id)  # a spectator's view: everything, once the game is over
    players = view["players"]
    ranked = sorted(players, key=lambda p: (-_points(p), -int(p.get("money") or 0)))
    winner = view.get("winner")
    mine = next(p for p in players if p["seat"] == seat)
    place = 1 if winner == seat else max(2, 1 + next(i for i, p in enumerate(ranked) if p["seat"] == seat))
    winner_name = next((p["username"] for p in players if p["seat"] == winner), "")
    return Result(game, winner == seat, place, _points(mine), winner_name)


def _points(player: dict[str, object]) -> int:
    score = player.get("score")
    total = score.get("total") if isinstance(score, dict) else player.get("vp")
    return int(total) if isinstance(total, int) else 0
