"""Moves through the API as API.md promises: legal moves, seq checks, refusals that change nothing."""

from __future__ import annotations

import asyncio
import importlib
import logging
import random
from typing import Any

import httpx
import psycopg
import pytest
from conftest import Api, Player
from support import assert_error

from app.rules.fairness import commitment, seed_bytes


async def _table(api: Api) -> tuple[dict[str, Any], Player, Player, Player]:
    """A started 2-player game: (game, the awaited player, the other seated player, an unseated player)."""
    admin = await api.admin()
    ann, bob, eve = await api.player("ann"), await api.player("bob"), await api.player("eve")
    game = await api.started_game(admin, [ann, bob])
    seats = api.seated(game, [ann, bob])
    awaited = seats[game["to_act"][0]]
    other = ann if awaited is bob else bob
    return game, awaited, other, eve


async def _log(client: httpx.AsyncClient, gid: int, who: Player) -> list[dict[str, Any]]:
    r = await client.get(f"/api/v1/games/{gid}/events", headers=who.headers)
    assert r.status_code == 200
    events: list[dict[str, Any]] = r.json()["events"]
    return events


async def test_the_awaited_player_plays_the_first_legal_move(api: Api, client: httpx.AsyncClient) -> None:
    game, awaited, other, _ = await _table(api)
    gid = game["id"]
    r = await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)
    assert r.status_code == 200
    options = r.json()
    assert options["seq"] == game["seq"] and options["seat"] == game["to_act"][0] and options["moves"]
    assert all(isinstance(m.get("type"), str) for m in options["moves"])
    r = await client.post(
        f"/api/v1/games/{gid}/moves",
        json={"seq": options["seq"], "move": options["moves"][0]},
        headers=awaited.headers,
    )
    assert r.status_code == 200, r.text
    new_seq = r.json()["seq"]
    assert new_seq > game["seq"]
    assert r.headers["content-type"] == "application/json" and r.content == b'{"seq":%d}' % new_seq
    summary = (await client.get(f"/api/v1/games/{gid}", headers=other.headers)).json()
    assert summary["seq"] == new_seq
    state = (await client.get(f"/api/v1/games/{gid}/state", headers=awaited.headers)).json()
    assert state["seq"] == new_seq and state["game_id"] == gid
    assert [e["seq"] for e in await _log(client, gid, other)] == list(range(1, new_seq + 1))


async def test_a_stale_seq_is_409_and_changes_nothing(api: Api, client: httpx.AsyncClient) -> None:
    game, awaited, _, _ = await _table(api)
    gid = game["id"]
    move = (await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)).json()["moves"][0]
    before = await _log(client, gid, awaited)
    for seq in (game["seq"] - 1, game["seq"] + 1, 0):
        r = await client.post(f"/api/v1/games/{gid}/moves", json={"seq": seq, "move": move}, headers=awaited.headers)
        assert_error(r, 409, "stale_seq")
    assert await _log(client, gid, awaited) == before


async def test_an_illegal_move_is_422_with_a_code_and_changes_nothing(api: Api, client: httpx.AsyncClient) -> None:
    game, awaited, _, _ = await _table(api)
    gid = game["id"]
    before = await _log(client, gid, awaited)
    for move in ({"type": "teleport", "to": [9, 9]}, {"no_type": True}, {"type": 7}):
        r = await client.post(
            f"/api/v1/games/{gid}/moves", json={"seq": game["seq"], "move": move}, headers=awaited.headers
        )
        detail = assert_error(r, 422)
        assert detail["code"] and detail["message"]
    assert await _log(client, gid, awaited) == before


async def test_malformed_bodies_are_4xx_never_5xx(api: Api, client: httpx.AsyncClient) -> None:
    game, awaited, _, _ = await _table(api)
    url = f"/api/v1/games/{game['id']}/moves"
    bodies: list[Any] = [
        {"seq": "three", "move": {"type": "pass"}},
        {"seq": game["seq"], "move": "pass"},
        {"seq": game["seq"]},
        [1, 2, 3],
        {"seq": game["seq"], "move": {"type": "pass"}, "extra": 1},
        {"seq": 2**70, "move": {"type": "pass"}},
    ]
    for body in bodies:
        assert_error(await client.post(url, json=body, headers=awaited.headers), 422)
    r = await client.post(
        url, content=b'{"seq": 1, "move": {', headers={**awaited.headers, "Content-Type": "application/json"}
    )
    assert_error(r, 400, "malformed_json")
    huge = {"seq": game["seq"], "move": {"type": "pass", "junk": "x" * 100_000}}
    assert_error(await client.post(url, json=huge, headers=awaited.headers), 413, "body_too_large")


async def test_only_the_awaited_seat_may_move(api: Api, client: httpx.AsyncClient) -> None:
    game, awaited, other, eve = await _table(api)
    gid = game["id"]
    move = (await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)).json()["moves"][0]
    body = {"seq": game["seq"], "move": move}
    other_options = (await client.get(f"/api/v1/games/{gid}/moves", headers=other.headers)).json()
    assert other_options["moves"] == [] and other_options["seat"] is not None
    assert_error(await client.post(f"/api/v1/games/{gid}/moves", json=body, headers=other.headers), 403, "not_awaited")
    assert_error(await client.post(f"/api/v1/games/{gid}/moves", json=body, headers=eve.headers), 403, "no_seat")
    assert_error(await client.post(f"/api/v1/games/{gid}/moves", json=body), 401, "not_signed_in")
    spectator = (await client.get(f"/api/v1/games/{gid}/moves", headers=eve.headers)).json()
    assert spectator == {"seq": game["seq"], "seat": None, "moves": []}
    assert [e["seq"] for e in await _log(client, gid, eve)] == list(range(1, game["seq"] + 1))


async def test_a_seat_not_awaited_is_refused_by_the_rules_core(api: Api, client: httpx.AsyncClient) -> None:
    """The service does not judge whose turn it is: the rules core refuses the move (`not_your_turn`, naming the
    awaited seat), which reaches the player as 403 `not_awaited` (API.md)."""
    game, awaited, other, _ = await _table(api)
    gid = game["id"]
    move = (await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)).json()["moves"][0]
    r = await client.post(f"/api/v1/games/{gid}/moves", json={"seq": game["seq"], "move": move}, headers=other.headers)
    detail = assert_error(r, 403, "not_awaited")
    assert detail["message"] == f"It is not your turn: the game waits for seat {game['to_act'][0]}."


async def test_a_bug_in_the_rules_core_is_a_500_with_a_log_line_and_changes_nothing(
    api: Api, client: httpx.AsyncClient, app: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Only the core's IllegalMove is the player's mistake. Anything else it raises (here a KeyError inside a move
    handler) is a bug: 500 `internal_error`, a log line with the traceback, and the log untouched."""
    game, awaited, _, _ = await _table(api)
    gid = game["id"]
    move = (await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)).json()["moves"][0]
    before = await _log(client, gid, awaited)

    def broken(*args: Any) -> list[dict[str, Any]]:
        raise KeyError("a bug in the rules core")

    core = importlib.import_module("app.rules.decide")  # the module (app.rules exports its `decide` function)
    monkeypatch.setitem(core._MOVES, move["type"], broken)
    caplog.set_level(logging.ERROR)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as raw:
        body = {"seq": game["seq"], "move": move}
        r = await raw.post(f"/api/v1/games/{gid}/moves", json=body, headers=awaited.headers)
    assert_error(r, 500, "internal_error")
    (line,) = [record for record in caplog.records if record.exc_info]
    assert line.getMessage() == f"unhandled error on POST /api/v1/games/{gid}/moves"
    assert isinstance(line.exc_info[1], KeyError)  # type: ignore[index]
    assert await _log(client, gid, awaited) == before


async def test_a_move_is_one_statement_on_a_warm_cache_and_three_on_a_cold_one(
    api: Api, client: httpx.AsyncClient, app: Any
) -> None:
    """A move in one round trip: when this server holds the game's state, the player's seat and the owner of the
    request's sign-in (it just listed the player's moves), the move is ONE statement that checks the sign-in and
    records everything (app.play.record); without them, the sign-in lookup and a read of the game's head come
    first. Each statement runs in autocommit, so no BEGIN or COMMIT round trips and no lock held while the rules
    core decides."""
    game, first, second, _ = await _table(api)
    gid = game["id"]
    sent: list[tuple[str, bool]] = []
    execute = psycopg.AsyncCursor.execute

    request_task = asyncio.current_task()

    async def statement(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        # At the driver, so that statements sent through SQLAlchemy and those sent to psycopg directly all count;
        # only the request's own (the in-process transport runs it in this task), not a background task's poll
        # that happens to land while the move is measured.
        if asyncio.current_task() is request_task:
            sent.append((str(query).split()[0].upper(), cursor.connection.autocommit))
        return await execute(cursor, query, *args, **kwargs)

    by_seat = {(await client.get(f"/api/v1/games/{gid}/moves", headers=p.headers)).json()["seat"]: p
               for p in (first, second)}
    for warm, expected in ((True, [("WITH", True)]),
                           (False, [("SELECT", True), ("SELECT", True), ("WITH", True)])):
        summary = (await client.get(f"/api/v1/games/{gid}", headers=first.headers)).json()
        awaited = by_seat[summary["to_act"][0]]
        options = (await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)).json()
        if not warm:
            app.state.service.cache.seats.tables.clear()  # as on a server that never showed this player the game
        sent.clear()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(psycopg.AsyncCursor, "execute", statement)
            body = {"seq": options["seq"], "move": options["moves"][0]}
            r = await client.post(f"/api/v1/games/{gid}/moves", json=body, headers=awaited.headers)
        assert r.status_code == 200, r.text
        assert sent == expected, (warm, sent)


async def test_events_after_n(api: Api, client: httpx.AsyncClient) -> None:
    game, awaited, _, _ = await _table(api)
    gid = game["id"]
    all_events = await _log(client, gid, awaited)
    assert all(set(e) == {"seq", "type", "data", "at", "timed_out", "by_bot"} for e in all_events)
    assert not any(e["timed_out"] for e in all_events)
    r = await client.get(f"/api/v1/games/{gid}/events", params={"after": 1}, headers=awaited.headers)
    assert r.json()["events"] == all_events[1:]
    r = await client.get(f"/api/v1/games/{gid}/events", params={"after": game["seq"]}, headers=awaited.headers)
    assert r.json() == {"events": []}
    assert_error(await client.get(f"/api/v1/games/{gid}/events", params={"after": -1}, headers=awaited.headers), 422)


async def test_the_seed_never_reaches_a_client(api: Api, client: httpx.AsyncClient) -> None:
    seed = 8_675_309_123_457
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], seed=seed)
    gid = game["id"]
    seats = api.seated(game, [ann, bob])
    bodies = [str(game)]
    for who in (admin, ann, bob):
        for path in ("", "/state", "/moves", "/events"):
            bodies.append((await client.get(f"/api/v1/games/{gid}{path}", headers=who.headers)).text)
        bodies.append((await client.get("/api/v1/games", headers=who.headers)).text)
    awaited = seats[game["to_act"][0]]
    move = (await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)).json()["moves"][0]
    r = await client.post(
        f"/api/v1/games/{gid}/moves", json={"seq": game["seq"], "move": move}, headers=awaited.headers
    )
    bodies.append(r.text)
    for path in ("/export", "/state?at=1"):
        bodies.append((await client.get(f"/api/v1/games/{gid}{path}", headers=ann.headers)).text)
    for page in (f"/games/{gid}", f"/games/{gid}?at=3"):  # the table, live and past
        bodies.append((await client.get(page, headers=ann.headers)).text)
    secret = seed_bytes(seed).hex()
    assert not [b for b in bodies if str(seed) in b or secret in b or secret.lstrip("0") in b]
    # The summary names the seed only as null, beside the commitment published from the start.
    assert game["seed"] is None and game["seed_commitment"] == commitment(seed_bytes(seed))


async def test_deeply_nested_json_is_refused_not_crashed(api: Api, client: httpx.AsyncClient) -> None:
    game, awaited, _, _ = await _table(api)
    url = f"/api/v1/games/{game['id']}/moves"
    depth = 20_000
    body = b'{"seq": 1, "move": {"type": "pass", "x": ' + b"[" * depth + b"]" * depth + b"}}"
    r = await client.post(url, content=body, headers={**awaited.headers, "Content-Type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    assert set(r.json()["detail"]) == {"code", "message"}


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["int", "float", "str", "bool", "null"] + (["list", "dict"] if depth < 3 else [])
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.choice([0, 1, -1, 7, 2**40, -(2**63)])
    if kind == "float":
        return rng.choice([0.5, -1.25, 1e300])
    if kind == "str":
        return rng.choice(["", "a", "ranch", "x" * 50, "\u00e9\u2603"])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["x", "y", "type", "seat", "parcel", "building"]): _random_json(rng, depth + 1)
        for _ in range(rng.randrange(4))
    }


async def test_random_move_shapes_get_4xx_never_5xx(api: Api, client: httpx.AsyncClient) -> None:
    game, awaited, _, _ = await _table(api)
    url = f"/api/v1/games/{game['id']}/moves"
    legal = (await client.get(url, headers=awaited.headers)).json()["moves"]
    types = [*sorted({m["type"] for m in legal}), "pass", "buy_parcel", "place_cowboy"]
    rng = random.Random(3)
    before = await _log(client, game["id"], awaited)
    for _ in range(150):
        move = _random_json(rng)
        if isinstance(move, dict) and rng.random() < 0.7:
            move["type"] = rng.choice(types)
        r = await client.post(url, json={"seq": game["seq"], "move": move}, headers=awaited.headers)
        if r.status_code == 200:  # a random shape can happen to be legal: that is fine, and ends the probe
            break
        assert 400 <= r.status_code < 500, (move, r.text)
        assert set(r.json()["detail"]) == {"code", "message"}
    else:
        assert await _log(client, game["id"], awaited) == before


async def test_a_player_whose_seat_was_handed_over_cannot_move_on_a_warm_cache(
    api: Api, client: httpx.AsyncClient, app: Any
) -> None:
    """R-WEB-1: this server knew the awaited player's seat (it listed their moves); the admin then gives the seat
    to another player. The old player's move is refused (403 `no_seat`) and changes nothing; the newcomer moves."""
    game, awaited, _, newcomer = await _table(api)
    gid = game["id"]
    options = (await client.get(f"/api/v1/games/{gid}/moves", headers=awaited.headers)).json()
    admin = await api.admin()
    r = await client.post(f"/api/v1/games/{gid}/seats/{options['seat']}/replace",
                          json={"username": newcomer.username}, headers=admin.headers)
    assert r.status_code in (200, 204), r.text
    before = await _log(client, gid, admin)
    body = {"seq": options["seq"], "move": options["moves"][0]}
    assert_error(await client.post(f"/api/v1/games/{gid}/moves", json=body, headers=awaited.headers), 403, "no_seat")
    assert await _log(client, gid, admin) == before
    fresh = (await client.get(f"/api/v1/games/{gid}/moves", headers=newcomer.headers)).json()
    body = {"seq": fresh["seq"], "move": fresh["moves"][0]}
    assert (await client.post(f"/api/v1/games/{gid}/moves", json=body, headers=newcomer.headers)).status_code == 200
