"""Answers given ahead of time over the API (issue 26): a seated player's standing answer to permission requests
in one game, and the account's answers for every game (the settings page offers the same, `settings_pages`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from app.play import answers
from app.rules.automatic import CashLimitAnswer, PermissionAnswer
from app.web.deps import CurrentAccount, SessionDep
from app.web.fields import Id
from app.web.openapi import errors

router = APIRouter()

PERMISSION = ("Answer to later requests to build a house on your parcels: `ask` (you answer each, the default), "
              "`allow` (every parcel asked about is granted) or `deny` (all are denied), in the request's own write.")
CASH_LIMIT = ("Money above your cash limit at the end of a round: `ask` (the default), `least` (give up the excess "
              "only) or `round_up` (the excess rounded up to the next $10, one VP more).")


class PermissionAnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answer: Annotated[PermissionAnswer, Field(description=PERMISSION)]


class PermissionAnswerOut(BaseModel):
    answer: PermissionAnswer


class AnswersIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    permission: Annotated[
        PermissionAnswer | None, Field(description=PERMISSION + " Games with their own answer keep it.")
    ] = None
    cash_limit: Annotated[CashLimitAnswer | None, Field(description=CASH_LIMIT)] = None


class AnswersOut(BaseModel):
    permission: PermissionAnswer
    cash_limit: CashLimitAnswer


@router.get("/api/v1/games/{game_id}/permission-answer", responses=errors(403, 404), tags=["play"])
async def get_permission_answer(game_id: Id, account: CurrentAccount, session: SessionDep) -> PermissionAnswerOut:
    """The caller's standing answer to permission requests in this game (their account's unless they chose one)."""
    return PermissionAnswerOut(answer=await answers.permission_answer(session, account, game_id))


@router.put("/api/v1/games/{game_id}/permission-answer", responses=errors(403, 404), tags=["play"])
async def put_permission_answer(
    game_id: Id, body: PermissionAnswerIn, account: CurrentAccount, session: SessionDep
) -> PermissionAnswerOut:
    """Set the caller's standing answer to later permission requests in this game (a seated player): with `allow`
    or `deny` a request to build a house on the caller's parcels is answered at once, in the request's own write,
    and the log says so; a request already waiting is still the caller's to answer."""
    await answers.set_permission_answer(session, account, game_id, body.answer)
    await session.commit()
    return PermissionAnswerOut(answer=body.answer)


@router.get("/api/v1/me/answers", tags=["play"])
async def get_answers(account: CurrentAccount, session: SessionDep) -> AnswersOut:
    """The caller's answers ahead for every game: the standing answer to permission requests, and the cash limit."""
    mine = await answers.account_answers(session, account.id)
    return AnswersOut(permission=mine.permission, cash_limit=mine.cash_limit)


@router.put("/api/v1/me/answers", tags=["play"])
async def put_answers(body: AnswersIn, account: CurrentAccount, session: SessionDep) -> AnswersOut:
    """Change the caller's answers ahead for every game (those left out stay as they are)."""
    mine = await answers.account_answers(session, account.id)
    await answers.set_account_answers(session, account.id, body.permission or mine.permission,
                                      body.cash_limit or mine.cash_limit)
    await session.commit()
    mine = await answers.account_answers(session, account.id)
    return AnswersOut(permission=mine.permission, cash_limit=mine.cash_limit)
