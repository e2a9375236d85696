"""The admins' part of the API: a running game's seat handed to another player (`ReplaceSeat` through the write
path), e.g. after its player ran out of time three times in a row."""

from __future__ import annotations

from fastapi import APIRouter, status
from pydantic import BaseModel, ConfigDict, Field

from app.play.commands import ReplaceSeat
from app.web.deps import CurrentAccount, ServiceDep
from app.web.fields import Id, Text
from app.web.openapi import errors

router = APIRouter()


class ReplaceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Text = Field(min_length=1, max_length=32)


@router.post(
    "/api/v1/games/{game_id}/seats/{seat}/replace",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=errors(403, 404, 409),
    tags=["clocks"],
)
async def replace_seat(
    game_id: Id, seat: Id, body: ReplaceIn, account: CurrentAccount, service: ServiceDep
) -> None:
    """Give a running game's seat to another user (admins only), e.g. after a player ran out of time three
    times in a row. The newcomer gets a fresh clock."""
    await service.apply(ReplaceSeat(account, game_id, seat, body.username))
