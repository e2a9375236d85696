"""The clock's settings over the API: vacations, days during which a player's move clocks stand still (21 a year,
see `app.play.clocks`), and the time zone and reminder hours (`app.play.clock_settings`); the settings page offers
the same (`settings_pages`)."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, status
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from app.play import clocks
from app.play.clock_settings import ClockSettings, clock_settings, save_clock_settings
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


class ClockIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    time_zone: str | None = Field(
        default=None, max_length=64,
        description="An IANA time zone (`Europe/Paris`): where the player's weekend falls at tables whose clocks "
        "stop on weekends (422 `unknown_time_zone`). Omitted: unchanged.",
    )
    reminder_hours: list[int] | None = Field(
        default=None, max_length=8,
        description="The hours left on a move clock at which to be reminded: at most two (422 "
        "`too_many_reminders`), each 1 to 168 (422 `invalid_reminder_hours`); `[]`: no reminders. Omitted: unchanged.",
    )


class ClockOut(BaseModel):
    time_zone: str
    reminder_hours: list[int] = Field(description="Largest first; default [12, 1].")

    @classmethod
    def of(cls, c: ClockSettings) -> ClockOut:
        return cls(time_zone=c.time_zone, reminder_hours=list(c.reminder_hours))


@router.get("/api/v1/me/clock", tags=["clocks"])
async def get_clock(account: CurrentAccount, service: ServiceDep) -> ClockOut:
    """The caller's time zone and reminder hours."""
    return ClockOut.of(await clock_settings(service.db, account))


@router.put("/api/v1/me/clock", responses=errors(422), tags=["clocks"])
async def put_clock(body: ClockIn, account: CurrentAccount, service: ServiceDep) -> ClockOut:
    """Set the caller's time zone and reminder hours (a turn reminds at most twice, at these hours left; an hour
    not below a table's move timeout is not reminded of there)."""
    return ClockOut.of(await save_clock_settings(service.db, account, body.time_zone, body.reminder_hours))
