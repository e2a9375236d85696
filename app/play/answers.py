"""Answers given ahead of time outside a game's log (issue 26): a player's standing answer to permission requests
in one game (`PUT /api/v1/games/{id}/permission-answer`), and the account's defaults — the standing answer for
games without one, and how cash above the limit is given up — chosen in the settings.

The write path reads them only where they could decide something (`app.rules.automatic.needs_answers`), in the
statement-free way the rules core takes them: `Answers`, by seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.accounts import Account
from app.play.errors import Invalid, NotAllowed, NotFound
from app.rules.automatic import CASH_LIMIT_ANSWERS, PERMISSION_ANSWERS, Answers, CashLimitAnswer, PermissionAnswer
from app.store.tables import Game, Seat, StandingAnswer, User


@dataclass(frozen=True, slots=True)
class AccountAnswers:
    """An account's answers for every game: the standing answer to permission requests, and the cash limit."""

    permission: PermissionAnswer
    cash_limit: CashLimitAnswer


async def answers_of(session: AsyncSession, game_id: int, players: int) -> Answers:
    """What each seat of a running game answered ahead: its player's standing answer in this game, or their
    account's, and their account's cash limit answer. One statement."""
    rows = (
        await session.execute(
            select(Seat.seat, StandingAnswer.permission, User.permission_answer, User.cash_limit_answer)
            .join(User, User.id == Seat.user_id)
            .outerjoin(StandingAnswer, (StandingAnswer.game_id == Seat.game_id) & (StandingAnswer.user_id == User.id))
            .where(Seat.game_id == game_id, Seat.seat.is_not(None))
        )
    ).all()
    permission: list[PermissionAnswer] = ["ask"] * players
    cash_limit: list[CashLimitAnswer] = ["ask"] * players
    for seat, in_game, default, cash in rows:
        if seat is not None and seat < players:
            permission[seat] = _permission(in_game or default)
            cash_limit[seat] = _cash_limit(cash)
    return Answers(permission=tuple(permission), cash_limit=tuple(cash_limit))


async def permission_answer(session: AsyncSession, account: Account, game_id: int) -> PermissionAnswer:
    """The caller's standing answer in a game they sit at (their account's unless they chose one there).

    Raises NotFound `game_not_found`, NotAllowed `no_seat`."""
    row = (
        await session.execute(
            select(StandingAnswer.permission, User.permission_answer)
            .select_from(Seat)
            .join(User, User.id == Seat.user_id)
            .outerjoin(StandingAnswer, (StandingAnswer.game_id == Seat.game_id) & (StandingAnswer.user_id == User.id))
            .where(Seat.game_id == game_id, Seat.user_id == account.id)
        )
    ).one_or_none()
    if row is None:
        raise await _no_seat(session, game_id)
    return _permission(row[0] or row[1])


async def set_permission_answer(session: AsyncSession, account: Account, game_id: int, answer: str) -> None:
    """Set the caller's standing answer to permission requests in a game they sit at; committed by the caller.
    Later requests are answered with it in the request's own write; one already waiting is not (the player
    answers it at the table).

    Raises Invalid `invalid_answer`, NotFound `game_not_found`, NotAllowed `no_seat`."""
    chosen = _checked(answer, PERMISSION_ANSWERS)
    if await session.scalar(select(Seat.user_id).where(Seat.game_id == game_id, Seat.user_id == account.id)) is None:
        raise await _no_seat(session, game_id)
    statement = insert(StandingAnswer).values(game_id=game_id, user_id=account.id, permission=chosen)
    await session.execute(statement.on_conflict_do_update(
        index_elements=[StandingAnswer.game_id, StandingAnswer.user_id], set_={"permission": chosen}))


async def account_answers(session: AsyncSession, user_id: int) -> AccountAnswers:
    """The account's answers for every game."""
    row = (
        await session.execute(select(User.permission_answer, User.cash_limit_answer).where(User.id == user_id))
    ).one()
    return AccountAnswers(_permission(row[0]), _cash_limit(row[1]))


async def set_account_answers(session: AsyncSession, user_id: int, permission: str, cash_limit: str) -> None:
    """Set the account's answers for every game; committed by the caller.

    Raises Invalid `invalid_answer`."""
    chosen = (_checked(permission, PERMISSION_ANSWERS), _checked(cash_limit, CASH_LIMIT_ANSWERS))
    user = await session.get(User, user_id)
    assert user is not None
    user.permission_answer, user.cash_limit_answer = chosen


def _checked(answer: str, allowed: tuple[str, ...]) -> str:
    if answer not in allowed:
        raise Invalid("invalid_answer", "The answer must be one of {answers}.", answers=", ".join(allowed))
    return answer


def _permission(value: str | None) -> PermissionAnswer:
    return next((answer for answer in PERMISSION_ANSWERS if answer == value), "ask")


def _cash_limit(value: str | None) -> CashLimitAnswer:
    return next((answer for answer in CASH_LIMIT_ANSWERS if answer == value), "ask")


async def _no_seat(session: AsyncSession, game_id: int) -> NotFound | NotAllowed:
    if await session.get(Game, game_id) is None:
        return NotFound("game_not_found", "There is no game {game}.", game=game_id)
    return NotAllowed("no_seat", "You do not have a seat in this game.")
