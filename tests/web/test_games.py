"""Games through the API: creation with variants, joining, starting, listing."""

from __future__ import annotations

import httpx
from conftest import Api
from support import assert_error


async def test_admin_creates_a_game_that_starts_at_once_with_a_full_player_list(api: Api) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    assert {s["username"] for s in game["seats"]} == {"ann", "bob"}
    assert sorted(s["seat"] for s in game["seats"]) == [0, 1]
    assert game["seq"] > 0 and game["to_act"]
    assert set(game) >= {"id", "name", "status", "seats", "variants", "seq", "to_act"}
    assert isinstance(game["variants"], dict)


async def test_players_join_and_the_admin_starts(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    r = await client.post("/api/v1/games", json={"name": "Open", "seats": 2, "start_when_full": False},
                          headers=admin.headers)
    assert r.status_code == 201 and r.json()["status"] == "open" and r.json()["seq"] == 0
    gid = r.json()["id"]
    assert (await client.post(f"/api/v1/games/{gid}/join", headers=ann.headers)).status_code == 200
    assert_error(await client.post(f"/api/v1/games/{gid}/join", headers=ann.headers), 409, "already_joined")
    assert_error(await client.get(f"/api/v1/games/{gid}/state", headers=ann.headers), 409, "game_not_started")
    r = await client.post(f"/api/v1/games/{gid}/join", headers=bob.headers)
    assert [s["seat"] for s in r.json()["seats"]] == [None, None]
    assert_error(await client.post(f"/api/v1/games/{gid}/join", headers=cid.headers), 409, "game_full")
    assert_error(await client.post(f"/api/v1/games/{gid}/start", headers=ann.headers), 403, "not_creator")
    r = await client.post(f"/api/v1/games/{gid}/start", headers=admin.headers)
    assert r.status_code == 200 and r.json()["status"] == "active"
    assert sorted(s["seat"] for s in r.json()["seats"]) == [0, 1]
    assert_error(await client.post(f"/api/v1/games/{gid}/start", headers=admin.headers), 409, "game_started")
    assert_error(await client.post(f"/api/v1/games/{gid}/join", headers=cid.headers), 409, "game_started")


async def test_a_game_needs_two_players_to_start(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    r = await client.post("/api/v1/games", json={"name": "Lonely", "seats": 3}, headers=admin.headers)
    gid = r.json()["id"]
    await client.post(f"/api/v1/games/{gid}/join", headers=admin.headers)
    assert_error(await client.post(f"/api/v1/games/{gid}/start", headers=admin.headers), 409, "not_enough_players")


async def test_unknown_variant_settings_are_named_in_a_422(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    body = {"name": "Odd", "seats": 2, "variants": {"teleporters": True}}
    detail = assert_error(await client.post("/api/v1/games", json=body, headers=admin.headers), 422)
    assert detail["code"] == "invalid_variant" and "teleporters" in detail["message"]
    body = {"name": "Odd", "seats": 2, "variants": {"sides": "purple"}}
    detail = assert_error(await client.post("/api/v1/games", json=body, headers=admin.headers), 422)
    assert "sides" in detail["message"]


async def test_creation_input_is_checked(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    for body, code in [
        ({"name": "Big", "seats": 7}, "invalid_request"),
        ({"name": "Big", "seats": 6}, "invalid_variant"),  # six only with Big Box (RULING X1)
        ({"name": "Few", "seats": 1}, "invalid_request"),
        ({"name": "Who", "seats": 2, "players": ["admin", "ghost"]}, "unknown_player"),
        ({"name": "Twice", "seats": 2, "players": ["admin", "ADMIN"]}, "duplicate_player"),
        ({"name": "Many", "seats": 2, "players": ["admin", "a", "b"]}, "too_many_players"),
        ({"name": "Seed", "seats": 2, "seed": -1}, "invalid_request"),
    ]:
        assert_error(await client.post("/api/v1/games", json=body, headers=admin.headers), 422, code)


async def test_listing_filters_by_status_and_by_mine(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    active = await api.started_game(admin, [ann, bob])
    r = await client.post("/api/v1/games", json={"name": "Open", "seats": 2}, headers=admin.headers)
    open_id = r.json()["id"]
    r = await client.get("/api/v1/games", headers=ann.headers)
    assert r.json()["count"] == 2 and [g["id"] for g in r.json()["data"]] == [open_id, active["id"]]
    r = await client.get("/api/v1/games", params={"status": "open"}, headers=ann.headers)
    assert [g["id"] for g in r.json()["data"]] == [open_id]
    r = await client.get("/api/v1/games", params={"mine": "true"}, headers=ann.headers)
    assert [g["id"] for g in r.json()["data"]] == [active["id"]]
    r = await client.get("/api/v1/games", params={"status": "finished"}, headers=ann.headers)
    assert r.json() == {"data": [], "count": 0}
    assert_error(await client.get("/api/v1/games", params={"status": "lost"}, headers=ann.headers), 422)


async def test_unknown_games_are_404(api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    for method, path in [
        ("GET", ""),
        ("POST", "/join"),
        ("GET", "/moves"),
        ("GET", "/state"),
        ("GET", "/events"),
    ]:
        assert_error(await client.request(method, f"/api/v1/games/999{path}", headers=ann.headers), 404)


async def test_seating_follows_the_seed(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    players = [await api.player(n) for n in ("ann", "bob", "cid")]
    first = await api.started_game(admin, players, seed=42)
    second = await api.started_game(admin, players, seed=42)
    assert first["seats"] == second["seats"]
