"""A New Beginning's secret shopping on the platform (R-VAR-8, R-WEB-2; RULING V4: "a series of small moves per
player (add one item, take one back, done), hidden from the others until everyone is done, then revealed
together"): a basket edit shows nowhere to the other seats or spectators — state, events, moves, summary, the
table page, the live stream, the outbox, the move clocks or any seq number — and never makes their moves stale.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from conftest import Api, Player, live_server
from httpx_sse import aconnect_sse
from sqlalchemy import func, select, update

from app.settings import Settings
from app.store.tables import GameEvent, Outbox
from tests.notify.conftest import Table
from tests.support import assert_error
from tests.web.test_pages import csrf_of

SEED = 5


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The app without background jobs: a test here counts the changes the moves leave in the outbox, which the
    mail worker would plan and delete as they come."""
    return settings.model_copy(update={"background_jobs": False})

EDITS: list[dict[str, Any]] = [
    {"type": "shop_add", "item": "cowboy"},
    {"type": "shop_add", "item": "road"},
    {"type": "shop_remove", "item": "road"},
    {"type": "shop_add", "item": "vp"},
    {"type": "shop_add", "item": "road"},
]
BASKETS = {0: {}, 1: {"cowboy": 1}, 5: {"cowboy": 1, "road": 1, "vp": 1}}


@dataclass
class People:
    admin: Player
    players: list[Player]
    spectator: Player


async def _people(api: Api) -> People:
    admin = await api.admin()
    return People(admin, [await api.player(name) for name in ("ann", "bob", "cid")], await api.player("eve"))


async def _shopping_game(api: Api, people: People, **extra: Any) -> tuple[int, dict[int, Player]]:
    """Three players shopping in A New Beginning, by seat (the same seed seats them alike in every game)."""
    game = await api.started_game(people.admin, people.players, seed=SEED, variants={"new_beginning": True}, **extra)
    assert game["to_act"] == [0, 1, 2]
    return game["id"], api.seated(game, people.players)


async def _move(client: httpx.AsyncClient, gid: int, who: Player, move: dict[str, Any]) -> int:
    """Play `move` with the seq the mover sees; returns the new seq as the mover counts it."""
    seq = (await client.get(f"/api/v1/games/{gid}/moves", headers=who.headers)).json()["seq"]
    r = await client.post(f"/api/v1/games/{gid}/moves", json={"seq": seq, "move": move}, headers=who.headers)
    assert r.status_code == 200, r.text
    new_seq: int = r.json()["seq"]
    return new_seq


async def _seen_by(client: httpx.AsyncClient, gid: int, who: Player) -> dict[str, Any]:
    """Everything `who` can read about the game, with what differs between two games (ids, times) taken out."""
    state = (await client.get(f"/api/v1/games/{gid}/state", headers=who.headers)).json()
    events = (await client.get(f"/api/v1/games/{gid}/events", headers=who.headers)).json()["events"]
    moves = (await client.get(f"/api/v1/games/{gid}/moves", headers=who.headers)).json()
    summary = (await client.get(f"/api/v1/games/{gid}", headers=who.headers)).json()
    page = (await client.get(f"/games/{gid}", headers=who.headers)).text
    state.pop("game_id")
    for key in ("id", "created_at"):
        summary.pop(key, None)
    page = re.sub(rf'data-render-ms="[^"]*"|(?<=/games/){gid}\b|<time class="at"[^>]*>[^<]*</time>', "", page)
    return {
        "state": state,
        "events": [{k: v for k, v in e.items() if k != "at"} for e in events],
        "moves": moves,
        "summary": summary,
        "page": page,
    }


async def test_the_others_see_the_same_whether_a_basket_had_0_1_or_5_edits(api: Api, client: httpx.AsyncClient) -> None:
    """Within one game: bob's and a spectator's every read is byte-identical before and after ann's edits
    (in a timed game, so the move clocks are compared too), and bob's edit made with the seq he saw is
    accepted and counted as his next seq, while ann counts her own edits."""
    people = await _people(api)
    gid, seats = await _shopping_game(api, people, move_timeout_hours=24)
    ann, bob, eve = seats[0], seats[1], people.spectator
    before = {p.username: await _seen_by(client, gid, p) for p in (bob, eve)}
    ann_seq = before[bob.username]["state"]["seq"]
    for done, edit in enumerate(EDITS, 1):
        assert await _move(client, gid, ann, edit) == ann_seq + done
        if done in (1, 5):
            for p in (bob, eve):
                assert await _seen_by(client, gid, p) == before[p.username], (p.username, done)
    seq = before[bob.username]["moves"]["seq"]
    r = await client.post(f"/api/v1/games/{gid}/moves", json={"seq": seq, "move": EDITS[0]}, headers=bob.headers)
    assert r.status_code == 200, r.text
    assert r.json()["seq"] == seq + 1
    assert (await client.get(f"/api/v1/games/{gid}/state", headers=ann.headers)).json()["seq"] == ann_seq + 5


async def test_no_seq_tells_the_others_how_many_edits_came_before_their_moves(
    api: Api, client: httpx.AsyncClient
) -> None:
    """Across three games with the same seating: ann makes 0, 1 or 5 edits, then bob edits his basket and cid
    is done shopping. What bob and a spectator read then (their numbering of the log included) is the same in
    all three; once everyone is done, the reveal shows ann's basket to everyone."""
    people = await _people(api)
    eve = people.spectator
    seen: dict[int, list[dict[str, Any]]] = {}
    for n, basket in BASKETS.items():
        gid, seats = await _shopping_game(api, people)
        ann, bob, cid = seats[0], seats[1], seats[2]
        for edit in EDITS[:n]:
            await _move(client, gid, ann, edit)
        await _move(client, gid, bob, {"type": "shop_add", "item": "marksman"})
        await _move(client, gid, cid, {"type": "shop_done"})
        seen[n] = [await _seen_by(client, gid, p) for p in (bob, eve)]
        await _move(client, gid, ann, {"type": "shop_done"})
        await _move(client, gid, bob, {"type": "shop_done"})
        for p in (bob, eve):
            events = (await client.get(f"/api/v1/games/{gid}/events", headers=p.headers)).json()["events"]
            (reveal,) = [e["data"] for e in events if e["type"] == "shopping_revealed"]
            assert {b["seat"]: b["items"] for b in reveal["baskets"]}[0] == basket
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # no gaps in anyone's log
    assert seen[0] == seen[1] == seen[5]


async def test_a_seq_beyond_what_the_mover_saw_is_stale_and_names_only_what_they_saw(
    api: Api, client: httpx.AsyncClient
) -> None:
    """Guessing a higher seq cannot probe for hidden edits: only the seq bob sees is accepted, and the refusal
    tells him his own count, not the real head."""
    gid, seats = await _shopping_game(api, await _people(api))
    ann, bob = seats[0], seats[1]
    for edit in EDITS[:3]:
        await _move(client, gid, ann, edit)
    seen = (await client.get(f"/api/v1/games/{gid}/moves", headers=bob.headers)).json()["seq"]
    for guess in (seen + 1, seen + 3):
        r = await client.post(f"/api/v1/games/{gid}/moves", json={"seq": guess, "move": EDITS[0]}, headers=bob.headers)
        detail = assert_error(r, 409, "stale_seq")
        assert f"now at {seen})" in detail["message"]
    assert (await client.get(f"/api/v1/games/{gid}/moves", headers=bob.headers)).json()["seq"] == seen


async def test_edits_of_two_seats_at_once_are_all_accepted_without_gaps(
    api: Api, client: httpx.AsyncClient, app: Any
) -> None:
    """Two seats editing their baskets at the same moment do not make each other's moves stale (neither may
    know of the other's edit); every edit is appended at the real head, and the log neither forks nor gaps."""
    gid, seats = await _shopping_game(api, await _people(api))
    ann, bob = seats[0], seats[1]
    start = (await client.get(f"/api/v1/games/{gid}/moves", headers=ann.headers)).json()["seq"]
    for i in range(4):
        body = {"seq": start + i, "move": {"type": "shop_add", "item": "vp"}}
        responses = await asyncio.gather(
            *(client.post(f"/api/v1/games/{gid}/moves", json=body, headers=p.headers) for p in (ann, bob))
        )
        assert [r.status_code for r in responses] == [200, 200], [r.text for r in responses]
        assert [r.json()["seq"] for r in responses] == [start + i + 1] * 2
    async with app.state.service.db.session() as session:
        seqs = list((await session.execute(select(GameEvent.seq).where(GameEvent.game_id == gid))).scalars())
    assert sorted(seqs) == list(range(1, start + 9))


async def test_an_edit_makes_no_notification_work_and_a_done_does(
    api: Api, client: httpx.AsyncClient, app: Any
) -> None:
    """A secret edit concerns nobody else: no outbox row for the mail worker. "Done shopping" is public, but mails
    nobody while others still shop (no row either); the last shopper's ends the shopping and awaits a seat anew:
    a row for the worker to plan its mail."""
    gid, seats = await _shopping_game(api, await _people(api))

    async def changes() -> int:
        async with app.state.service.db.session() as session:
            found = await session.scalar(
                select(func.count()).select_from(Outbox).where(Outbox.game_id == gid, Outbox.kind == "game_changed")
            )
        return int(found or 0)

    started = await changes()
    for edit in EDITS:
        await _move(client, gid, seats[0], edit)
    assert await changes() == started
    await _move(client, gid, seats[0], {"type": "shop_done"})
    assert await changes() == started
    await _move(client, gid, seats[1], {"type": "shop_done"})
    await _move(client, gid, seats[2], {"type": "shop_done"})
    assert await changes() == started + 1


async def test_only_the_shoppers_own_streams_hear_of_an_edit(settings: Settings) -> None:
    """The live stream: ann's edit reaches ann's stream only; bob's and a spectator's hear nothing until cid
    is done shopping, and then their seq moves by one, as they count the log."""
    settings = settings.model_copy(update={"admin_username": "boss", "admin_password": "boss password"})
    async with live_server(settings) as (url, app), httpx.AsyncClient(base_url=url, timeout=10) as client:
        api = Api(client, app)
        people = await _people(api)
        gid, seats = await _shopping_game(api, people)
        ann, bob, cid, eve = seats[0], seats[1], seats[2], people.spectator
        heard: dict[str, list[dict[str, Any]]] = {p.username: [] for p in (ann, bob, eve)}
        connected = {name: asyncio.Event() for name in heard}

        async def watch(who: Player, until: int) -> None:
            async with aconnect_sse(client, "GET", f"/api/v1/games/{gid}/stream", headers=who.headers) as source:
                async for event in source.aiter_sse():
                    if event.event != "turn":
                        continue  # keep-alive pings
                    heard[who.username].append(json.loads(event.data))
                    connected[who.username].set()
                    if len(heard[who.username]) == until:
                        return

        watchers = [asyncio.create_task(watch(p, n)) for p, n in ((ann, 4), (bob, 2), (eve, 2))]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in connected.values())), timeout=10)
        first = heard[bob.username][0]["seq"]
        await _move(client, gid, ann, EDITS[0])
        await _move(client, gid, ann, EDITS[1])
        await _move(client, gid, cid, {"type": "shop_done"})
        await asyncio.wait_for(asyncio.gather(*watchers), timeout=10)
        assert [m["seq"] for m in heard[ann.username]] == [first, first + 1, first + 2, first + 3]
        for name in (bob.username, eve.username):
            assert [m["seq"] for m in heard[name]] == [first, first + 1], name
            assert heard[name][1]["to_act"] == [0, 1]


async def test_too_many_moves_in_a_minute_are_refused_with_retry_after(
    api: Api, client: httpx.AsyncClient, app: Any
) -> None:
    """A seat's moves are capped per minute (here 3): the next one is 429 `too_many_moves` with Retry-After
    (the table page says so too), and the log is untouched; once the earlier moves are a minute old, moves are
    accepted again. The count is the database's, so it holds across server instances."""
    app.state.service.moves_per_minute = 3
    gid, seats = await _shopping_game(api, await _people(api))
    ann = seats[0]
    for edit in EDITS[:3]:
        await _move(client, gid, ann, edit)

    async def log() -> list[int]:
        async with app.state.service.db.session() as session:
            return list((await session.execute(select(GameEvent.seq).where(GameEvent.game_id == gid))).scalars())

    before = await log()
    seq = (await client.get(f"/api/v1/games/{gid}/moves", headers=ann.headers)).json()["seq"]
    r = await client.post(f"/api/v1/games/{gid}/moves", json={"seq": seq, "move": EDITS[3]}, headers=ann.headers)
    detail = assert_error(r, 429, "too_many_moves")
    assert "wait" in detail["message"]
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    page = await client.get(f"/games/{gid}", headers=ann.headers)
    form = {"seq": str(seq), "move": json.dumps(EDITS[3]), "csrf_token": csrf_of(page.text)}
    r = await client.post(f"/games/{gid}/moves", data=form, headers=ann.headers)
    assert r.status_code == 429 and "the most allowed; please wait" in r.text
    assert await log() == before
    # Another seat is not held back by ann's moves.
    await _move(client, gid, seats[1], EDITS[0])
    async with app.state.service.db.session() as session:
        await session.execute(
            update(GameEvent)
            .where(GameEvent.game_id == gid, GameEvent.actor == 0)
            .values(created_at=GameEvent.created_at - func.make_interval(0, 0, 0, 0, 0, 1))
        )
        await session.commit()
    await _move(client, gid, ann, EDITS[3])


async def test_a_stream_opened_before_the_start_follows_its_players_seat(settings: Settings) -> None:
    """Seats are drawn when the game starts: a stream a player opened on the open game then counts the log
    as that seat does, and hears of the seat's own edits."""
    settings = settings.model_copy(update={"admin_username": "boss", "admin_password": "boss password"})
    async with live_server(settings) as (url, app), httpx.AsyncClient(base_url=url, timeout=10) as client:
        api = Api(client, app)
        people = await _people(api)
        body = {"name": "Later", "seats": 2, "seed": SEED, "variants": {"new_beginning": True},
                "start_when_full": False}
        gid = (await client.post("/api/v1/games", json=body, headers=people.admin.headers)).json()["id"]
        ann, bob = people.players[:2]
        for p in (ann, bob):
            assert (await client.post(f"/api/v1/games/{gid}/join", headers=p.headers)).status_code == 200
        heard: list[dict[str, Any]] = []
        connected = asyncio.Event()

        async def watch() -> None:
            async with aconnect_sse(client, "GET", f"/api/v1/games/{gid}/stream", headers=ann.headers) as source:
                async for event in source.aiter_sse():
                    if event.event != "turn":
                        continue  # keep-alive pings
                    heard.append(json.loads(event.data))
                    connected.set()
                    if len(heard) == 3:
                        return

        watcher = asyncio.create_task(watch())
        await asyncio.wait_for(connected.wait(), timeout=10)
        assert heard[0]["status"] == "open"
        r = await client.post(f"/api/v1/games/{gid}/start", headers=people.admin.headers)
        assert r.status_code == 200, r.text
        started = (await client.get(f"/api/v1/games/{gid}/moves", headers=ann.headers)).json()["seq"]
        assert await _move(client, gid, ann, EDITS[0]) == started + 1
        await asyncio.wait_for(watcher, timeout=10)
        assert [(m["seq"], m["status"]) for m in heard[1:]] == [(started, "active"), (started + 1, "active")]


async def test_a_finished_game_counts_every_event_for_everyone(api: Api, client: httpx.AsyncClient, app: Any) -> None:
    """The "Corrections" issue, item 10: a finished A New Beginning game said `state.seq` 341 while its history
    went to 357. Once a game is finished nothing in it is secret (its export already shows every event): for
    each player and a spectator the state, the summary, the log, the history and the export all count every
    event — while it ran, the others' basket edits were in nobody else's numbers."""
    people = await _people(api)
    gid, seats = await _shopping_game(api, people)
    service = app.state.service
    table = Table(service, app.state.positions,
                  {"id": gid, "seats": [{"seat": s, "username": p.username} for s, p in seats.items()]}, people.players)
    for edit in EDITS:  # secret basket edits of one seat, which the others' numbers leave out while it runs
        await table.play(0, lambda moves, edit=edit: edit)
    running = (await client.get(f"/api/v1/games/{gid}", headers=seats[1].headers)).json()
    assert running["seq"] < (await table.positions.summary(gid)).head
    chooser = random.Random(10)
    for _ in range(3000):
        awaited = await table.to_act()
        if not awaited:
            break
        await table.play(chooser.choice(awaited), chooser.choice)
    summary = await table.positions.summary(gid)
    assert summary.status == "finished"
    head = summary.head
    for who in (*people.players, people.spectator):
        url = f"/api/v1/games/{gid}"
        assert (await client.get(url, headers=who.headers)).json()["seq"] == head, who.username
        assert (await client.get(f"{url}/state", headers=who.headers)).json()["seq"] == head, who.username
        assert (await client.get(f"{url}/moves", headers=who.headers)).json()["seq"] == head, who.username
        events = (await client.get(f"{url}/events", params={"limit": 5000}, headers=who.headers)).json()["events"]
        assert [e["seq"] for e in events] == list(range(1, head + 1)), who.username
        assert sum(e["type"] == "shop_item_added" for e in events) >= 4
        assert (await client.get(f"{url}/state", params={"at": head}, headers=who.headers)).json()["seq"] == head
        assert_error(await client.get(f"{url}/state", params={"at": head + 1}, headers=who.headers), 404)
        export = (await client.get(f"{url}/export", headers=who.headers)).json()
        assert [e["seq"] for e in export["events"]] == list(range(1, head + 1)), who.username
        assert export["state"]["seq"] == head
