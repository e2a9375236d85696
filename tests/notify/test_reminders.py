"""Reminders at the hours the player chooses (issue 26 item 5): by default 12 hours and 1 hour before a move
clock runs out, at most two a turn, set with `PUT /api/v1/me/clock` or on the settings page; mailed through a real
SMTP server. Time is passed in; nothing sleeps."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import httpx
from conftest import Api
from support import assert_error

from app.notify.worker import Notifier
from app.play.keeper import ClockKeeper
from app.play.service import GameService
from tests.notify.conftest import SmtpServer, Table, drain, started


async def _deadline(table: Table, seat: int) -> datetime:
    (found,) = [s.deadline for s in (await table.positions.summary(table.id)).seats if s.seat == seat]
    assert found is not None
    return found


async def _reminders(service: GameService, deadline: datetime, *before: timedelta) -> list[int]:
    """How many reminders each clock check queues, at each time `before` the deadline (three instances each)."""
    counts = []
    for left in before:
        results = await asyncio.gather(*(ClockKeeper(service).tick(deadline - left) for _ in range(3)))
        counts.append(sum(r.reminders for r in results))
    return counts


def _subjects(smtp: SmtpServer, username: str) -> list[str]:
    return [m["Subject"] for m in smtp.inbox.to(f"{username}@example.com") if m["Subject"].startswith("Reminder")]


async def test_reminders_come_at_12_hours_and_1_hour_left_and_never_more_than_twice(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24)
    (seat,) = await table.to_act()
    deadline = await _deadline(table, seat)
    await drain(notifier)
    hours = timedelta(hours=1)
    counts = await _reminders(service, deadline, 13 * hours, 11.98 * hours, 11 * hours, 0.98 * hours, 0.5 * hours,
                              0.1 * hours)
    assert counts == [0, 1, 0, 1, 0, 0]
    await drain(notifier, deadline - 0.1 * hours)
    assert _subjects(smtp, table.player(seat).username) == [
        "Reminder: 11 hours left for your move in Test game",
        "Reminder: less than an hour left for your move in Test game",
    ]


async def test_a_player_chooses_the_hours_and_may_have_none(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24)
    (seat,) = await table.to_act()
    player = table.player(seat)
    assert (await client.get("/api/v1/me/clock", headers=player.headers)).json() == {
        "time_zone": "UTC", "reminder_hours": [12, 1]}
    r = await client.put("/api/v1/me/clock", json={"reminder_hours": [3, 20]}, headers=player.headers)
    assert r.status_code == 200 and r.json() == {"time_zone": "UTC", "reminder_hours": [20, 3]}, r.text
    deadline = await _deadline(table, seat)
    hours = timedelta(hours=1)
    assert await _reminders(service, deadline, 21 * hours, 19.5 * hours, 11.5 * hours, 2.5 * hours, 0.5 * hours) == [
        0, 1, 0, 1, 0]
    r = await client.put("/api/v1/me/clock", json={"reminder_hours": []}, headers=table.player(1 - seat).headers)
    assert r.json()["reminder_hours"] == []
    await table.play(seat, lambda moves: moves[0])
    if (1 - seat,) == await table.to_act():  # the other player, who wants no reminder, is awaited now
        other = await _deadline(table, 1 - seat)
        assert await _reminders(service, other, 11 * hours, 0.5 * hours) == [0, 0]


async def test_a_late_check_sends_one_reminder_for_both_hours(api: Api, service: GameService) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24)
    (seat,) = await table.to_act()
    deadline = await _deadline(table, seat)
    assert await _reminders(service, deadline, timedelta(minutes=30), timedelta(minutes=20)) == [1, 0]


async def test_hours_not_below_the_move_timeout_are_not_reminded(api: Api, service: GameService) -> None:
    """With 6 hours a move, "12 hours left" would come as the turn begins, on the heels of its own mail."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=6)
    (seat,) = await table.to_act()
    deadline = await _deadline(table, seat)
    hours = timedelta(hours=1)
    assert await _reminders(service, deadline, 5.9 * hours, 0.9 * hours, 0.5 * hours) == [0, 1, 0]


async def test_clock_settings_that_cannot_be_kept_are_refused_and_change_nothing(
    api: Api, client: httpx.AsyncClient
) -> None:
    ann = await api.player("ann")
    url = "/api/v1/me/clock"
    assert_error(await client.put(url, json={"reminder_hours": [1, 2, 3]}, headers=ann.headers), 422,
                 "too_many_reminders")
    assert_error(await client.put(url, json={"reminder_hours": [0]}, headers=ann.headers), 422,
                 "invalid_reminder_hours")
    assert_error(await client.put(url, json={"reminder_hours": [169]}, headers=ann.headers), 422,
                 "invalid_reminder_hours")
    assert_error(await client.put(url, json={"time_zone": "Mars/Olympus_Mons", "reminder_hours": [5]},
                                  headers=ann.headers), 422, "unknown_time_zone")
    assert (await client.get(url, headers=ann.headers)).json() == {"time_zone": "UTC", "reminder_hours": [12, 1]}
    assert (await client.get(url)).status_code == 401
