"""A player's own data over the API: everything stored about them, and deleting their account
(`app.play.your_data`); the settings page offers both (`settings_pages`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from app.play import your_data
from app.web.deps import CurrentSignedIn, ServiceDep, SignInDep, client_address
from app.web.openapi import errors

router = APIRouter(prefix="/api/v1", tags=["auth"])


class DeleteAccountIn(BaseModel):
    """The account's password, asked again before it is deleted."""

    model_config = ConfigDict(extra="forbid")

    password: str = Field(max_length=256)


@router.get("/me/export", responses=errors(401))
async def export(signed_in: CurrentSignedIn, service: ServiceDep) -> Any:
    """Everything stored about the caller as one JSON document (account, games, chat messages, notes,
    preferences, subscriptions), as a download (`Content-Disposition: attachment`)."""
    async with service.db.reading() as session:
        document = await your_data.export(session, signed_in.account)
    name = f"carson-city-{signed_in.account.username}.json"
    return JSONResponse(document, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.post("/me/delete", status_code=status.HTTP_204_NO_CONTENT, responses=errors(401, 403, 429))
async def delete(request: Request, body: DeleteAccountIn, signed_in: CurrentSignedIn, sign_in: SignInDep) -> Response:
    """Delete the caller's account (403 `wrong_password` when `password` is wrong): it can no longer sign in,
    every sign-in ends, its mail address, notes, mail settings and vacations are erased, its name becomes
    `deleted-N` everywhere, and the bot plays its seats in running games. Finished games stay replayable."""
    await sign_in.delete_account(signed_in.account, body.password, client_address(request))
    request.session.clear()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
