"""Move clocks (issue "Asynchronous play", part 4): deadlines in the summary, reminders (since issue 26 at the
player's hours, by default 12 h and 1 h left), the bot's move when the clock runs out (marked in the log,
mailed), an admin alert after three timeouts in a row and the replacement of the player, vacations. Time is
passed in; nothing sleeps."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

import httpx
from conftest import Api, Player, live_server
from httpx_sse import ServerSentEvent, aconnect_sse

from app.notify.worker import Notifier
from app.play.bot_keeper import BotKeeper
from app.play.keeper import ClockKeeper
from app.play.service import GameService
from app.settings import Settings
from tests.notify.conftest import SmtpServer, Table, drain, now, started


async def _deadline(client: httpx.AsyncClient, api: Api, table: Table, seat: int) -> datetime:
    r = await client.get(f"/api/v1/games/{table.id}", headers=table.player(seat).headers)
    deadlines = {d["seat"]: d["deadline"] for d in r.json()["deadlines"]}
    return datetime.fromisoformat(deadlines[seat])


async def test_awaited_seats_have_deadlines_in_the_summary_and_the_state(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    before = now()
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=48)
    (seat,) = await table.to_act()
    r = await client.get(f"/api/v1/games/{table.id}", headers=table.player(seat).headers)
    (entry,) = r.json()["deadlines"]
    assert entry["seat"] == seat and entry["username"] == table.player(seat).username
    deadline = datetime.fromisoformat(entry["deadline"])
    assert before + timedelta(hours=48) <= deadline <= now() + timedelta(hours=48)
    state = (await client.get(f"/api/v1/games/{table.id}/state", headers=table.player(seat).headers)).json()
    assert [d["seat"] for d in state["deadlines"]] == [seat]
    untimed, _, _ = await started(api, service, ["cid", "dan"], seed=3)
    r = await client.get(f"/api/v1/games/{untimed.id}", headers=untimed.player(0).headers)
    assert r.json()["deadlines"] == []


async def test_a_reminder_at_each_of_the_default_hours_left_once(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24)
    (seat,) = await table.to_act()
    deadline = await _deadline(client, api, table, seat)
    await drain(notifier)
    smtp.inbox.clear()
    keeper = ClockKeeper(service)
    assert (await keeper.tick(deadline - timedelta(hours=13))).reminders == 0
    at = deadline - timedelta(hours=11, minutes=59)  # issue 26 item 5: by default 12 h and 1 h before
    results = await asyncio.gather(keeper.tick(at), ClockKeeper(service).tick(at))
    assert sum(r.reminders for r in results) == 1
    await drain(notifier, at)
    (mail,) = smtp.inbox.to(f"{table.player(seat).username}@example.com")
    assert mail["Subject"] == "Reminder: 11 hours left for your move in Test game"


async def test_an_expired_clock_makes_the_bots_move_marks_it_in_the_log_and_mails_the_player(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24, vacations=False)
    (seat,) = await table.to_act()
    player = table.player(seat)
    head = (await table.positions.summary(table.id)).seq
    deadline = await _deadline(client, api, table, seat)
    await drain(notifier)
    smtp.inbox.clear()
    assert (await ClockKeeper(service).tick(deadline - timedelta(seconds=1))).timeouts == 0
    later = deadline + timedelta(minutes=1)
    results = await asyncio.gather(*(ClockKeeper(service).tick(later) for _ in range(3)))
    assert sum(r.timeouts for r in results) == 1  # three instances, one default move
    events = (await client.get(f"/api/v1/games/{table.id}/events", headers=player.headers)).json()["events"]
    assert not any(e["timed_out"] for e in events if e["seq"] <= head)
    made = [e for e in events if e["seq"] > head]
    assert made and all(e["timed_out"] and e["by_bot"] for e in made)  # issue 15: the bot plays a timed-out seat
    await drain(notifier, later)
    mails = smtp.inbox.to(f"{player.username}@example.com")
    assert [m["Subject"] for m in mails] == ["Your time ran out in Test game: a move was made for you"]
    text = mails[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "the site's bot made a move for you" in text and "until you come back" in text


async def test_three_timeouts_in_a_row_alert_the_admin_who_may_replace_the_player(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, admin, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=1, vacations=False)
    eve = await api.player("eve")
    keeper = ClockKeeper(service)
    t = now()
    timeouts: dict[int, int] = {}
    absent = None
    for _ in range(40):
        t += timedelta(hours=2)
        before = await table.to_act()
        await keeper.tick(t)
        for seat in before:
            timeouts[seat] = timeouts.get(seat, 0) + 1
            if timeouts[seat] == 3:
                absent = seat
        if absent is not None:
            break
    assert absent is not None
    await drain(notifier, t)
    alerts = [m for m in smtp.inbox.to("admin@example.com") if "ran out of time 3 times in a row" in m["Subject"]]
    assert len(alerts) == 1
    assert alerts[0]["Subject"].startswith(table.player(absent).username)
    url = f"/api/v1/games/{table.id}/seats/{absent}/replace"
    r = await client.post(url, json={"username": "eve"}, headers=table.player(absent).headers)
    assert r.status_code == 403
    r = await client.post(url, json={"username": "eve"}, headers=admin.headers)
    assert r.status_code == 204, r.text
    summary = (await client.get(f"/api/v1/games/{table.id}", headers=eve.headers)).json()
    assert {s["seat"]: s["username"] for s in summary["seats"]}[absent] == "eve"
    r = await client.get(f"/api/v1/games/{table.id}/moves", headers=eve.headers)
    assert r.json()["seat"] == absent


async def test_vacation_stops_the_clock_and_is_limited_to_21_days_a_year(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24)
    (seat,) = await table.to_act()
    player = table.player(seat)
    deadline = await _deadline(client, api, table, seat)
    r = await client.post("/api/v1/me/vacation", json={"days": 10}, headers=player.headers)
    assert r.status_code == 201, r.text
    assert r.json()["days_left"] == 11  # issue 26 item 6: a yearly budget of 21 days
    assert await _deadline(client, api, table, seat) == deadline + timedelta(days=10)
    assert (await ClockKeeper(service).tick(deadline + timedelta(hours=1))).timeouts == 0
    starts = (now() + timedelta(days=30)).isoformat()
    r = await client.post("/api/v1/me/vacation", json={"days": 12, "starts_at": starts}, headers=player.headers)
    if now().year == (now() + timedelta(days=30)).year:
        assert r.status_code == 409 and r.json()["detail"]["code"] == "vacation_limit"
    r = await client.get("/api/v1/me/vacation", headers=player.headers)
    assert r.json()["days_used"] == 10


async def _next_turn(events: AsyncIterator[ServerSentEvent]) -> dict[str, Any]:
    async for event in events:
        if event.event == "turn":
            data: dict[str, Any] = json.loads(event.data)
            return data
    raise AssertionError("the stream ended")


async def test_a_seat_replacement_is_in_the_log_on_the_stream_and_in_the_players_mail(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer,
    mail_settings: Settings,
) -> None:
    admin = await api.admin()
    ann, bob, dan, carl = [await api.player(name) for name in ("ann", "bob", "dan", "carl")]
    off = {"preferences": {"seat_replaced": "off"}}
    r = await client.put("/api/v1/me/notifications", json=off, headers=dan.headers)
    assert r.status_code == 200, r.text
    game = await api.started_game(admin, [ann, bob, dan], seed=3)
    bob_seat = next(s["seat"] for s in game["seats"] if s["username"] == "bob")
    await drain(notifier)
    smtp.inbox.clear()
    async with (
        live_server(mail_settings) as (url, _),
        httpx.AsyncClient(base_url=url, timeout=10) as live,
        aconnect_sse(live, "GET", f"/api/v1/games/{game['id']}/stream", headers=ann.headers) as source,
    ):
        events = source.aiter_sse()
        assert (await asyncio.wait_for(_next_turn(events), 10))["seq"] == game["seq"]
        replace = f"/api/v1/games/{game['id']}/seats/{bob_seat}/replace"
        assert (await client.post(replace, json={"username": "carl"}, headers=admin.headers)).status_code == 204
        announced = await asyncio.wait_for(_next_turn(events), 10)
    assert announced["seq"] == game["seq"] + 1 and announced["to_act"] == game["to_act"]
    r = await client.get(f"/api/v1/games/{game['id']}/events", params={"after": game["seq"]}, headers=ann.headers)
    replaced = {"type": "seat_replaced", "seat": bob_seat, "previous": "bob", "username": "carl"}
    assert [(e["seq"], e["data"]) for e in r.json()["events"]] == [(game["seq"] + 1, replaced)]
    await drain(notifier)

    def about_the_seat(player: Player) -> list[str]:
        return [m["Subject"] for m in smtp.inbox.to(f"{player.username}@example.com") if "seat" in m["Subject"]]

    assert about_the_seat(ann) == ["carl takes over bob's seat in Test game"]
    assert about_the_seat(carl) == ["You take over bob's seat in Test game"]
    assert about_the_seat(dan) == []  # (turned off)
    assert about_the_seat(bob) == ["carl takes over your seat in Test game"]  # the player who leaves the seat
    (left,) = [m for m in smtp.inbox.to("bob@example.com") if "seat" in m["Subject"]]
    assert "You no longer play in this game" in left.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    (mail,) = [m for m in smtp.inbox.to("carl@example.com") if "seat" in m["Subject"]]
    assert f"/games/{game['id']}" in mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]


async def test_a_replacement_racing_a_move_leaves_one_unbroken_log(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    for round_ in range(3):
        table, admin, _ = await started(api, service, [f"ann{round_}", f"bob{round_}"], seed=3)
        newcomer = await api.player(f"carl{round_}")
        (awaited,) = await table.to_act()
        options = (await client.get(f"/api/v1/games/{table.id}/moves", headers=table.player(awaited).headers)).json()
        move = client.post(
            f"/api/v1/games/{table.id}/moves",
            json={"seq": options["seq"], "move": options["moves"][0]},
            headers=table.player(awaited).headers,
        )
        replace = client.post(
            f"/api/v1/games/{table.id}/seats/{1 - awaited}/replace",
            json={"username": newcomer.username},
            headers=admin.headers,
        )
        moved, replaced = await asyncio.gather(move, replace)
        assert replaced.status_code == 204, replaced.text
        assert moved.status_code == 200 or moved.json()["detail"]["code"] == "stale_seq"
        events = (await client.get(f"/api/v1/games/{table.id}/events", headers=admin.headers)).json()["events"]
        assert [e["seq"] for e in events] == list(range(1, (await table.positions.summary(table.id)).seq + 1))
        assert [e["type"] for e in events].count("seat_replaced") == 1


async def test_three_timeouts_at_a_players_table_alert_the_admins_not_its_creator(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    """A player who opened a table cannot hand a seat to someone else: the alert goes to the admins."""
    await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    r = await client.post("/api/v1/games", headers=ann.headers,
                          json={"name": "Slow", "seats": 2, "move_timeout_hours": 1, "vacations": False})
    gid = r.json()["id"]
    game = (await client.post(f"/api/v1/games/{gid}/join", headers=bob.headers)).json()  # the last seat starts it
    assert game["status"] == "active"
    table = Table(service, api.app.state.positions, game, [ann, bob])
    keeper = ClockKeeper(service)
    t = now()
    counts: dict[int, int] = {}
    for _ in range(40):
        t += timedelta(hours=2)
        for seat in await table.to_act():
            counts[seat] = counts.get(seat, 0) + 1
        await keeper.tick(t)
        if 3 in counts.values():
            break
    await drain(notifier, t)
    alerts = [rcpt for rcpt, m in smtp.inbox.mails if "ran out of time 3 times in a row" in m["Subject"]]
    assert alerts == [["admin@example.com"]]


async def _timed_out_and_played_by_the_bot(
    client: httpx.AsyncClient, api: Api, service: GameService, table: Table
) -> tuple[int, datetime]:
    """The awaited seat's clock runs out; the site's bot then plays the absent seat whenever it is awaited (as the
    server's bot job does). Returns the seat and the time of the timeout."""
    (seat,) = await table.to_act()
    later = await _deadline(client, api, table, seat) + timedelta(minutes=1)
    assert (await ClockKeeper(service).tick(later)).timeouts == 1
    await BotKeeper(service).run_once()
    return seat, later


def _away_alerts(smtp: SmtpServer, table: Table, seat: int) -> list[Any]:
    subject = f"{table.player(seat).username} has not come back to Test game"
    return [m for m in smtp.inbox.to("admin@example.com") if m["Subject"] == subject]


async def test_a_player_still_away_two_clocks_after_the_timeout_is_reported_to_the_admin_once(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    """Issue "Asynchronous play", part 4 ("after three timeouts in a row the admin is mailed"), with the bot of
    issue 15: an absent seat never runs out of time again (the bot plays it at once), so the admin hears of a
    player who has not come back two more move clocks after the timeout — once, however many instances check."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24, vacations=False)
    seat, timed_out = await _timed_out_and_played_by_the_bot(client, api, service, table)
    await drain(notifier, timed_out)
    await ClockKeeper(service).tick(timed_out + timedelta(hours=47))
    await drain(notifier, timed_out + timedelta(hours=47))
    assert _away_alerts(smtp, table, seat) == []
    due = timed_out + timedelta(hours=48, minutes=1)
    await asyncio.gather(*(ClockKeeper(service).tick(due) for _ in range(3)))
    await ClockKeeper(service).tick(due + timedelta(hours=24))
    await drain(notifier, due + timedelta(hours=24))
    (alert,) = _away_alerts(smtp, table, seat)
    text = alert.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "has not moved for 48 hours since" in text and "the site's bot plays the seat" in text
    assert f"/api/v1/games/{table.id}/seats/{seat}/replace" in text


async def test_a_player_who_takes_the_seat_back_is_not_reported(
    api: Api, client: httpx.AsyncClient, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24, vacations=False)
    seat, timed_out = await _timed_out_and_played_by_the_bot(client, api, service, table)
    r = await client.post(f"/api/v1/games/{table.id}/seat/back", headers=table.player(seat).headers)
    assert r.status_code == 200, r.text
    await ClockKeeper(service).tick(timed_out + timedelta(hours=49))
    await drain(notifier, timed_out + timedelta(hours=49))
    assert _away_alerts(smtp, table, seat) == []
