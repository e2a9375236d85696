"""Who holds a seat now decides who moves for it (the "Corrections" issue, item 1; README "Replacing a player"):
once an admin hands a seat to another player or to the site's bot, the player who left it can move for it no
more — not by the move in one round trip this server remembers them for, not on another instance, not from a
live stream that was offering them the seat's moves — while a player the bot stands in for (absent since their
clock ran out) still takes their seat back with a move of their own.

The tests of the bot's stand-in and of the statement drive an app without background jobs (nobody else moves)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import timedelta
from typing import Any

import httpx
from conftest import Api, Player, live_server
from httpx_sse import aconnect_sse

from app.play.accounts import Account
from app.play.commands import PlayerMove, ReplaceSeat, TimeOut
from app.play.record import Outcome, record
from app.play.service import GameService
from app.rules import decide, legal_moves, replay, to_act
from app.settings import Settings
from tests.notify.conftest import Table, now, started
from tests.support import assert_error

SEED = 7
HOURS = 24


async def _awaited_move(api: Api, gid: int, player: Player) -> dict[str, Any]:
    """The body of `player`'s first legal move, read as a client reads it (which teaches the server their seat)."""
    options = (await api.client.get(f"/api/v1/games/{gid}/moves", headers=player.headers)).json()
    assert options["moves"], "the player is awaited"
    return {"seq": options["seq"], "move": options["moves"][0]}


async def _replace(api: Api, admin: Player, gid: int, seat: int, username: str) -> None:
    r = await api.client.post(f"/api/v1/games/{gid}/seats/{seat}/replace", json={"username": username},
                              headers=admin.headers)
    assert r.status_code == 204, r.text


async def _head(table: Table) -> int:
    return (await table.positions.summary(table.id)).head


async def _replaced(api: Api, service: GameService, newcomer: str) -> tuple[Table, Player, dict[str, Any], int]:
    """A two-player game whose awaited player read their moves, then had their seat handed to `newcomer`: the
    table, the player who left, the move they would post with the seq as it is now, and the seat."""
    table, admin, _ = await started(api, service, ["ann", "bob"], seed=SEED)
    (seat,) = await table.to_act()
    leaver = table.player(seat)
    body = await _awaited_move(api, table.id, leaver)
    await _replace(api, admin, table.id, seat, newcomer)
    body["seq"] = (await api.client.get(f"/api/v1/games/{table.id}", headers=leaver.headers)).json()["seq"]
    return table, leaver, body, seat


async def test_a_replaced_player_cannot_move_for_the_seat_they_left(api: Api, service: GameService) -> None:
    """The issue's case: the previous player's move with the current seq was accepted; now 403 `no_seat`, the
    log untouched, and the newcomer plays the seat."""
    carl = await api.player("carl")
    table, leaver, body, seat = await _replaced(api, service, "carl")
    head = await _head(table)
    for _ in range(3):
        r = await api.client.post(f"/api/v1/games/{table.id}/moves", json=body, headers=leaver.headers)
        assert_error(r, 403, "no_seat")
    assert await _head(table) == head
    assert (await table.positions.summary(table.id)).seat_of(carl.id) == seat
    r = await api.client.post(f"/api/v1/games/{table.id}/moves", json=await _awaited_move(api, table.id, carl),
                              headers=carl.headers)
    assert r.status_code == 200, r.text


async def test_the_statement_refuses_a_move_remembered_for_a_seat_its_player_left(
    api: Api, service: GameService
) -> None:
    """Should a memo of who sits where be stale (another instance's handover not heard of yet), the recording
    statement itself checks who holds the seat: the move decided on the memo is not recorded, and the full path
    finds the player seatless."""
    await api.player("carl")
    table, leaver, body, seat = await _replaced(api, service, "carl")
    head = await _head(table)
    # the stale memo, as an instance that missed the notice
    service.cache.seats.tables[table.id].seats[leaver.id] = seat
    r = await api.client.post(f"/api/v1/games/{table.id}/moves", json=body, headers=leaver.headers)
    assert_error(r, 403, "no_seat")
    assert await _head(table) == head


async def test_a_record_for_a_player_who_does_not_hold_the_seat_writes_nothing(
    api: Api, service: GameService
) -> None:
    """The statement alone (`Outcome.mover`): a move decided for a seat is recorded for the player who holds it,
    and for nobody else, even at the right head."""
    table, _, players = await started(api, service, ["ann", "bob"], seed=SEED)
    (seat,) = await table.to_act()
    holder = table.player(seat)
    other = next(p for p in players if p is not holder)
    state = service.cache.get(table.id)
    assert state is not None
    events = decide(state, seat, legal_moves(state, seat)[0], SEED)
    outcome = Outcome(table.id, state.seq, to_act(state), events, replay(events, state), now(), actor=seat)
    async with service.db.driver() as connection:
        assert not await record(connection, replace(outcome, mover=other.id))
        assert await _head(table) == state.seq
        assert await record(connection, replace(outcome, mover=holder.id))
    assert await _head(table) == state.seq + len(events)


async def test_a_player_whose_seat_went_to_the_bot_cannot_move_for_it(api: Api, service: GameService) -> None:
    """The seat handed to the site's bot (`bot-1`, which a table with a bot created): the player who left it is
    refused, with the memo of their seat still in place."""
    admin = await api.admin()
    await api.started_game(admin, [await api.player("dan")], seats=2, bots=1)  # bot-1 exists from now on
    table, leaver, body, seat = await _replaced(api, service, "bot-1")
    head = await _head(table)
    service.cache.seats.tables[table.id].seats[leaver.id] = seat
    r = await api.client.post(f"/api/v1/games/{table.id}/moves", json=body, headers=leaver.headers)
    assert_error(r, 403, "no_seat")
    assert await _head(table) == head


async def test_an_absent_player_still_takes_their_seat_back_with_a_move(api: Api, service: GameService) -> None:
    """README "Absent players": the bot plays the seat of a player whose clock ran out, but the seat is still
    theirs: their own move (in one round trip, remembered) is recorded and makes them present again."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=SEED, move_timeout_hours=HOURS)
    (first,) = await table.to_act()
    deadline = next(s.deadline for s in (await table.positions.summary(table.id)).seats if s.seat == first)
    assert deadline is not None
    assert await service.apply(TimeOut(table.id, first, deadline + timedelta(minutes=1))) is not None
    for _ in range(10):  # the other player moves until the game waits for the absent seat again
        (seat,) = await table.to_act()
        if seat == first:
            break
        await table.play(seat, lambda moves: moves[0])
    assert seat == first and next(s.absent for s in (await table.positions.summary(table.id)).seats if s.seat == seat)
    player = table.player(seat)
    r = await api.client.post(f"/api/v1/games/{table.id}/moves", json=await _awaited_move(api, table.id, player),
                              headers=player.headers)
    assert r.status_code == 200, r.text
    assert not next(s.absent for s in (await table.positions.summary(table.id)).seats if s.seat == seat)


async def test_a_handover_on_another_instance_drops_this_ones_memo_of_the_seat(
    api: Api, service: GameService, other_app: Any
) -> None:
    """Instances share only PostgreSQL: the handover's notice reaches every instance's service, which forgets
    who it remembered at that seat (the move in one round trip is not even tried for the player who left)."""
    table, admin, _ = await started(api, service, ["ann", "bob"], seed=SEED)
    await api.player("carl")
    (seat,) = await table.to_act()
    leaver = table.player(seat)
    body = await _awaited_move(api, table.id, leaver)
    assert service.cache.seats.tables[table.id].seats.get(leaver.id) == seat
    other: GameService = other_app.state.service
    await other.apply(ReplaceSeat(Account(admin.id, admin.username, True), table.id, seat, "carl"))
    for _ in range(250):
        if leaver.id not in service.cache.seats.tables[table.id].seats:
            break
        await asyncio.sleep(0.02)
    assert leaver.id not in service.cache.seats.tables[table.id].seats
    current = (await table.positions.summary(table.id)).seq
    assert service._decide_on_cache(PlayerMove(leaver.id, table.id, current, body["move"])) is None
    r = await api.client.post(f"/api/v1/games/{table.id}/moves", json={**body, "seq": current},
                              headers=leaver.headers)
    assert_error(r, 403, "no_seat")


async def test_notices_lost_make_the_service_forget_who_sits_where(api: Api, service: GameService) -> None:
    """A handover's notice may be among those lost while the bus was down (`Bus._resync` then calls the gap
    hearers): the service forgets every seat it remembers, so that the next move of each player reads the head."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=SEED)
    (seat,) = await table.to_act()
    player = table.player(seat)
    body = await _awaited_move(api, table.id, player)
    assert service.cache.seats.tables[table.id].seats.get(player.id) == seat
    service.forget_seats()
    assert service.cache.seats.tables[table.id].seats == {}
    current = (await table.positions.summary(table.id)).seq
    assert service._decide_on_cache(PlayerMove(player.id, table.id, current, body["move"])) is None


async def _signup(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": "long enough pw"}
    assert (await client.post("/api/v1/auth/register", json=body)).status_code == 201, name
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": body["password"]})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def test_a_stream_of_the_player_who_left_the_seat_stops_offering_its_moves(settings: Settings) -> None:
    """`?moves=true` on instance B, the handover on instance A: the stream of the player who left the seat goes
    on as a spectator's, with no move of the seat, and the newcomer's stream (open before, as a spectator's)
    now offers them the seat's moves."""
    settings = settings.model_copy(update={"admin_username": "boss", "admin_password": "boss password",
                                           "background_jobs": False})
    async with (
        live_server(settings) as (url_a, _),
        live_server(settings) as (url_b, _),
        httpx.AsyncClient(base_url=url_a, timeout=10) as a,
        httpx.AsyncClient(base_url=url_b, timeout=10) as b,
    ):
        r = await a.post("/api/v1/auth/token", data={"username": "boss", "password": "boss password"})
        boss = {"Authorization": f"Bearer {r.json()['access_token']}"}
        people = {name: await _signup(a, name) for name in ("ann", "bob", "carl")}
        body = {"name": "Handed over", "seats": 2, "players": ["ann", "bob"], "seed": SEED}
        game = (await a.post("/api/v1/games", json=body, headers=boss)).json()
        gid, seat = game["id"], game["to_act"][0]
        leaver = next(s["username"] for s in game["seats"] if s["seat"] == seat)
        turns: dict[str, list[dict[str, Any]]] = {leaver: [], "carl": []}
        opened = {name: asyncio.Event() for name in turns}

        async def follow(name: str) -> None:
            async with aconnect_sse(b, "GET", f"/api/v1/games/{gid}/stream?moves=true",
                                    headers=people[name]) as source:
                async for event in source.aiter_sse():
                    if event.event == "turn":
                        turns[name].append(json.loads(event.data))
                        opened[name].set()
                        if len(turns[name]) == 2:
                            return

        followers = [asyncio.create_task(follow(name)) for name in turns]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened.values())), timeout=10)
        assert turns[leaver][0]["moves"] and turns["carl"][0]["moves"] == []
        r = await a.post(f"/api/v1/games/{gid}/seats/{seat}/replace", json={"username": "carl"}, headers=boss)
        assert r.status_code == 204, r.text
        await asyncio.wait_for(asyncio.gather(*followers), timeout=10)
        carl_moves = (await b.get(f"/api/v1/games/{gid}/moves", headers=people["carl"])).json()
        assert turns[leaver][1]["moves"] == []
        assert turns["carl"][1]["moves"] == carl_moves["moves"] != []
        assert turns["carl"][1]["seq"] == carl_moves["seq"]
