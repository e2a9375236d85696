"""Ratings and reputation through the API (API.md "Ratings and reputation"): `GET /api/v1/players/{username}`
carries `rating` and `reputation`; `GET /api/v1/leaderboard` lists the players with 10 rated games or more,
best first, by table size on request."""

from __future__ import annotations

import random
from typing import Any

import httpx
from conftest import Api

from tests.play.finishing import play_to_the_end


async def test_the_player_and_the_leaderboard_show_ratings_and_reputation(
    api: Api, client: httpx.AsyncClient, app: Any
) -> None:
    service = app.state.service
    admin = await api.admin()
    ann, bob, cid, dee = [await api.player(name) for name in ("ann", "bob", "cid", "dee")]
    for n in range(10):
        game = await api.started_game(admin, [ann, bob], seed=n)
        await play_to_the_end(service, game["id"], random.Random(n))
    game = await api.started_game(admin, [cid, dee], seed=99)
    await play_to_the_end(service, game["id"], random.Random(99))

    ann_page = (await client.get("/api/v1/players/ann", headers=bob.headers)).json()
    cid_page = (await client.get("/api/v1/players/cid", headers=bob.headers)).json()
    assert ann_page["rating"]["games"] == 10 and ann_page["rating"]["provisional"] is False
    assert ann_page["reputation"] == {"finished": 10, "abandoned": 0, "timeouts": 0}
    assert cid_page["rating"]["games"] == 1 and cid_page["rating"]["provisional"] is True

    board = (await client.get("/api/v1/leaderboard", headers=cid.headers)).json()["players"]
    assert {p["username"] for p in board} == {"ann", "bob"}, "provisional players are left out"
    assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
    assert {p["username"]: p["rating"] for p in board}["ann"] == ann_page["rating"]["value"]
    assert all(p["games"] == 10 for p in board)
    by_size = (await client.get("/api/v1/leaderboard", params={"players": 3}, headers=cid.headers)).json()
    assert by_size == {"players": [], "count": 0, "offset": 0}
    by_size = (await client.get("/api/v1/leaderboard", params={"players": 2}, headers=cid.headers)).json()
    assert by_size["players"] == board and by_size["count"] == 2
    second = (await client.get("/api/v1/leaderboard", params={"limit": 1, "offset": 1}, headers=cid.headers)).json()
    assert second == {"players": board[1:], "count": 2, "offset": 1}
    too_many = await client.get("/api/v1/leaderboard", params={"limit": 101}, headers=cid.headers)
    assert too_many.status_code == 422


async def test_a_newcomer_has_the_starting_rating(api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    page = (await client.get("/api/v1/players/ann", headers=ann.headers)).json()
    assert page["rating"] == {"value": 1000, "games": 0, "provisional": True}
    assert page["reputation"] == {"finished": 0, "abandoned": 0, "timeouts": 0}
