"""Vacations over the API: days a player declares, during which their move clocks stand still (21 a year, see
`app.play.clocks`); the settings page offers the same (`settings_pages`)."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, status
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from app.play import clocks
from app.play.errors import Invalid
from app.web.deps import CurrentAccount, ServiceDep
from app.web.openapi import errors

router = APIRouter()


def _iso_string(value: object) -> object:
    """Let only ISO 8601 strings through (and datetimes, for callers in Python): pydantic would read a number, or
    a string of digits, as seconds since 1970, which the schema's `date-time` does not allow."""
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            datetime.fromisoformat(value)
            return value
    raise PydanticCustomError("datetime_type", "must be an ISO 8601 date and time, e.g. 2026-12-24T00:00:00Z")


IsoDateTime = Annotated[datetime, BeforeValidator(_iso_string)]


class VacationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    days: int = Field(ge=1, le=clocks.VACATION_DAYS_PER_YEAR)
    starts_at: IsoDateTime | None = Field(
        default=None, description="An ISO 8601 date and time with its time zone (`2026-12-24T00:00:00Z`); default: now."
    )


class VacationOut(BaseModel):
    year: int
    days_used: int
    days_left: int
    vacations: list[dict[str, datetime | int | bool | None]]

    @classmethod
    def of(cls, v: clocks.VacationSummary) -> VacationOut:
        return cls(
            year=v.year,
            days_used=v.days_used,
            days_left=v.days_left,
            vacations=[
                {"starts_at": s, "ends_at": e, "days": d, "automatic": auto, "game_id": game}
                for s, e, d, auto, game in v.vacations
            ],
        )


@router.get("/api/v1/me/vacation", tags=["clocks"])
async def get_vacation(account: CurrentAccount, service: ServiceDep) -> VacationOut:
    """The caller's vacations this year and the days left (21 a year): those declared, and the days taken
    automatically (`automatic`, with the game whose clock would have run out)."""
    return VacationOut.of(await clocks.vacation_summary(service.db, account, service.clock()))


@router.post("/api/v1/me/vacation", status_code=status.HTTP_201_CREATED, responses=errors(409), tags=["clocks"])
async def post_vacation(body: VacationIn, account: CurrentAccount, service: ServiceDep) -> VacationOut:
    """Declare vacation days: the caller's move clocks stand still meanwhile (up to 21 days a year)."""
    if body.starts_at is not None and body.starts_at.tzinfo is None:
        raise Invalid("naive_datetime", "starts_at needs a time zone, e.g. 2026-12-24T00:00:00Z.")
    summary = await clocks.declare_vacation(service.db, account, body.days, body.starts_at, service.clock())
    return VacationOut.of(summary)
