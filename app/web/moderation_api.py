"""Moderation over the API (`app.play.moderation`): admins suspend and unsuspend accounts and remove chat
messages; players report chat messages. The admins' page of reports and actions is `moderation_pages`."""

from __future__ import annotations

from fastapi import APIRouter, Response, status
from pydantic import BaseModel, ConfigDict, Field

from app.play import moderation
from app.web.deps import CurrentAccount, ServiceDep
from app.web.fields import Id, Name, Text
from app.web.openapi import errors

router = APIRouter(prefix="/api/v1", tags=["moderation"])


class ReasonIn(BaseModel):
    """Why: kept in the admins' audit trail (and, for a suspension, mailed to the player)."""

    model_config = ConfigDict(extra="forbid")

    reason: Text = Field(min_length=1, max_length=500)


class OptionalReasonIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: Text = Field(default="", max_length=500)


@router.post("/admin/users/{username}/suspend", responses=errors(403, 404, 409))
async def suspend(username: Name, body: ReasonIn, account: CurrentAccount, service: ServiceDep) -> dict[str, str]:
    """Suspend an account (admins): its sign-ins and requests get 403 `account_suspended`, its live streams end,
    the bot plays its seats in running games, and it is mailed the reason. 403 `cannot_suspend_admin` for an
    admin or a bot, 409 `already_suspended`."""
    await moderation.suspend(service.db, account, username, body.reason, service.clock())
    return {"username": username, "status": "suspended"}


@router.post("/admin/users/{username}/unsuspend", responses=errors(403, 404, 409))
async def unsuspend(
    username: Name, account: CurrentAccount, service: ServiceDep, body: OptionalReasonIn | None = None
) -> dict[str, str]:
    """Lift a suspension (admins); 409 `not_suspended`. The player takes their seats back by moving."""
    await moderation.unsuspend(service.db, account, username, body.reason if body else "", service.clock())
    return {"username": username, "status": "active"}


@router.delete("/games/{game_id}/chat/{message_id}", status_code=status.HTTP_204_NO_CONTENT,
               responses=errors(403, 404))
async def remove_message(
    game_id: Id, message_id: Id, account: CurrentAccount, service: ServiceDep, body: OptionalReasonIn | None = None
) -> Response:
    """Remove a chat message (admins): everyone sees it as removed (`"removed": true`, no text), every open table
    reads its chat again."""
    reason = body.reason if body else ""
    await moderation.remove_message(service.db, account, game_id, message_id, reason, service.clock())
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/games/{game_id}/chat/{message_id}/report", status_code=status.HTTP_202_ACCEPTED,
             responses=errors(403, 404))
async def report_message(
    game_id: Id, message_id: Id, body: ReasonIn, account: CurrentAccount, service: ServiceDep
) -> Response:
    """Report a chat message of one's table to the admins (202; once per message): they see it on `/admin`."""
    await moderation.report_message(service.db, account, game_id, message_id, body.reason, service.clock())
    return Response(status_code=status.HTTP_202_ACCEPTED)
