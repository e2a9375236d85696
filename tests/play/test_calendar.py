"""A clock with a calendar (issue 26 item 6): a table's clocks may stop on weekends, in each player's time zone;
a clock about to run out takes a day of its player's yearly vacation budget (21 days) instead, announced at the
table; a table may forbid vacation days. Time is passed in; nothing sleeps."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from conftest import Api
from sqlalchemy import text

from app.play import clocks
from app.play.keeper import ClockKeeper
from app.play.service import GameService
from tests.notify.conftest import Table, started

UTC_ = "UTC"


def _utc(text_: str) -> datetime:
    return datetime.fromisoformat(text_).replace(tzinfo=UTC)


# (start, hours, zone, weekends) -> deadline, worked out by hand. 2026-12-04 is a Friday; in December Paris is
# UTC+1 and New York UTC-5; Paris moves to summer time on Sunday 2027-03-28.
CASES = [
    ("2026-12-04 20:00", 24, UTC_, False, "2026-12-05 20:00"),  # no pause: simply 24 hours later
    ("2026-12-04 20:00", 24, UTC_, True, "2026-12-07 20:00"),  # 4 h on Friday, 20 h from Monday 00:00
    ("2026-12-05 12:00", 24, UTC_, True, "2026-12-08 00:00"),  # started on a Saturday: counts from Monday
    ("2026-12-07 09:00", 48, UTC_, True, "2026-12-09 09:00"),  # within the week: no pause
    ("2026-12-07 00:00", 200, UTC_, True, "2026-12-17 08:00"),  # 120 h, a weekend, 80 h
    ("2026-12-04 22:00", 24, "Europe/Paris", True, "2026-12-07 22:00"),  # Friday 23:00 in Paris: 1 h + 23 h
    ("2026-12-04 23:00", 10, "America/New_York", True, "2026-12-07 09:00"),  # Friday 18:00 there: 6 h + 4 h
    ("2027-03-26 22:00", 2, "Europe/Paris", True, "2027-03-28 23:00"),  # resumes at Monday 00:00 summer time
    ("2026-12-04 20:00", 24, "Mars/Olympus_Mons", True, "2026-12-07 20:00"),  # a name nobody knows: UTC
]


@pytest.mark.parametrize(("start", "hours", "zone", "weekends", "expected"), CASES)
async def test_clock_deadline_counts_the_hours_outside_the_players_weekend(
    service: GameService, start: str, hours: int, zone: str, weekends: bool, expected: str
) -> None:
    async with service.db.autocommit() as session:
        found = await session.scalar(
            text("SELECT clock_deadline(:start, :hours, :zone, :weekends)"),
            {"start": _utc(start), "hours": hours, "zone": zone, "weekends": weekends},
        )
    assert found == _utc(expected)


async def _deadlines(table: Table) -> dict[int, datetime]:
    summary = await table.positions.summary(table.id)
    return {s.seat: s.deadline for s in summary.seats if s.seat is not None and s.deadline is not None}


async def test_a_table_that_pauses_on_weekends_counts_each_clock_in_its_players_time_zone(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    table, _, players = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=10, pause_weekends=True)
    summary = (await client.get(f"/api/v1/games/{table.id}", headers=players[0].headers)).json()
    assert summary["pause_weekends"] is True and summary["vacations"] is True
    for player in players:
        r = await client.put("/api/v1/me/clock", json={"time_zone": "America/New_York"}, headers=player.headers)
        assert r.status_code == 200 and r.json()["time_zone"] == "America/New_York", r.text
    friday = _utc("2026-12-04 23:00")  # 18:00 in New York
    service.clock = lambda: friday
    (seat,) = await table.to_act()
    await table.play(seat, lambda moves: moves[0])
    awaited = await table.to_act()
    deadlines = await _deadlines(table)
    # 6 hours until Saturday 00:00 in New York, the other 4 from Monday 00:00 there (05:00 UTC).
    assert awaited and all(deadlines[s] == _utc("2026-12-07 09:00") for s in awaited)


async def test_a_table_without_the_pause_gives_the_plain_move_time(api: Api, service: GameService) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=10)
    friday = _utc("2026-12-04 23:00")
    service.clock = lambda: friday
    (seat,) = await table.to_act()
    await table.play(seat, lambda moves: moves[0])
    deadlines = await _deadlines(table)
    assert all(deadlines[s] == friday + timedelta(hours=10) for s in await table.to_act())


async def test_a_clock_about_to_run_out_takes_a_vacation_day_announced_at_the_table(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24)
    (seat,) = await table.to_act()
    player = table.player(seat)
    budget = (await client.get("/api/v1/me/vacation", headers=player.headers)).json()
    assert budget["days_left"] == 21 and budget["days_used"] == 0  # the yearly budget
    deadline = (await _deadlines(table))[seat]
    late = deadline + timedelta(minutes=1)
    results = await asyncio.gather(*(ClockKeeper(service).tick(late) for _ in range(3)))  # three instances
    assert sum(r.vacation_days for r in results) == 1 and sum(r.timeouts for r in results) == 0
    assert await table.to_act() == (seat,)  # nobody moved for the player
    assert (await _deadlines(table))[seat] == deadline + timedelta(days=1)
    summary = (await client.get("/api/v1/me/vacation", headers=player.headers)).json()
    assert summary["days_used"] == 1 and summary["days_left"] == 20
    (day,) = summary["vacations"]
    assert day["automatic"] is True and day["game_id"] == table.id and day["days"] == 1
    assert datetime.fromisoformat(day["starts_at"]) == deadline
    chat = (await client.get(f"/api/v1/games/{table.id}/chat", headers=table.player(1 - seat).headers)).json()
    (line,) = chat["messages"]
    assert line["username"] == player.username
    assert line["notice"] == {"kind": "vacation_day", "until": (deadline + timedelta(days=1)).isoformat(),
                              "days_left": 20}
    assert "takes a vacation day" in line["text"]
    page = await client.get(f"/games/{table.id}", headers=table.player(1 - seat).headers)
    assert f"{player.username} takes a vacation day: their clock stands still until" in page.text
    # A day at a time: the next day runs out and takes the next one.
    again = await ClockKeeper(service).tick(deadline + timedelta(days=1, minutes=1))
    assert again.vacation_days == 1 and again.timeouts == 0
    assert (await client.get("/api/v1/me/vacation", headers=player.headers)).json()["days_left"] == 19


async def test_once_the_budget_is_spent_the_clock_runs_out(
    api: Api, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clocks, "VACATION_DAYS_PER_YEAR", 1)
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24)
    (seat,) = await table.to_act()
    deadline = (await _deadlines(table))[seat]
    first = await ClockKeeper(service).tick(deadline + timedelta(minutes=1))
    assert (first.vacation_days, first.timeouts) == (1, 0)
    second = await ClockKeeper(service).tick(deadline + timedelta(days=1, minutes=1))
    assert (second.vacation_days, second.timeouts) == (0, 1)


async def test_a_table_that_forbids_vacations_keeps_its_clock_running(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    strict, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24, vacations=False)
    relaxed, _, _ = await started(api, service, ["cid", "dan"], seed=3, move_timeout_hours=24)
    (seat,) = await strict.to_act()
    player = strict.player(seat)
    assert (await client.get(f"/api/v1/games/{strict.id}", headers=player.headers)).json()["vacations"] is False
    deadline = (await _deadlines(strict))[seat]
    # A vacation declared now stops the clocks of the tables that allow it, not this one's.
    (other,) = await relaxed.to_act()
    relaxed_deadline = (await _deadlines(relaxed))[other]
    r = await client.post("/api/v1/me/vacation", json={"days": 2}, headers=player.headers)
    assert r.status_code == 201, r.text
    r = await client.post("/api/v1/me/vacation", json={"days": 2}, headers=relaxed.player(other).headers)
    assert r.status_code == 201, r.text
    assert (await _deadlines(strict))[seat] == deadline
    assert (await _deadlines(relaxed))[other] == relaxed_deadline + timedelta(days=2)
    result = await ClockKeeper(service).tick(deadline + timedelta(minutes=1))
    assert (result.vacation_days, result.timeouts) == (0, 1)
    chat = (await client.get(f"/api/v1/games/{strict.id}/chat", headers=player.headers)).json()
    assert chat["messages"] == []
