"""The lobby updates by itself (issue 12 "Lobby live"): the open lobby polls `/lobby/live` with the version it
shows; the answer is 204 (nothing to do) until a game waiting for the viewer moves or a table they may join
opens, and then the fresh list, "your turn" games first, with the time left on each clock."""

from __future__ import annotations

import re
from typing import Any

import httpx
from conftest import Api, Player

from tests.web.test_pages import signed_in


def poll_url(html: str) -> str:
    match = re.search(r'hx-get="(/lobby/live\?v=[0-9a-f]+)" hx-trigger="every (\d+)s"', html)
    assert match, "the lobby does not poll"
    return match.group(1)


async def me(client: httpx.AsyncClient) -> Player:
    data = (await client.get("/api/v1/auth/me")).json()
    return Player(data["id"], data["username"], {})


async def test_nothing_is_sent_until_a_table_one_may_join_opens(api: Api, client: httpx.AsyncClient) -> None:
    await signed_in(client, "ann")
    url = poll_url((await client.get("/")).text)
    assert (await client.get(url)).status_code == 204
    bob = await api.player("bob")
    r = await client.post("/api/v1/games", json={"name": "Bob's table", "seats": 3}, headers=bob.headers)
    assert r.status_code == 201, r.text
    fresh = await client.get(url)
    assert fresh.status_code == 200 and "Join Bob&#39;s table" in fresh.text
    assert 'id="lobby-live"' in fresh.text and "<html" not in fresh.text  # the fragment, not the page
    assert (await client.get(poll_url(fresh.text))).status_code == 204  # the new version is quiet again


async def first_move(client: httpx.AsyncClient, game_id: int, headers: dict[str, str]) -> None:
    options = (await client.get(f"/api/v1/games/{game_id}/moves", headers=headers)).json()
    r = await client.post(f"/api/v1/games/{game_id}/moves", json={"seq": options["seq"], "move": options["moves"][0]},
                          headers=headers)
    assert r.status_code == 200, r.text


async def test_a_game_waiting_for_the_viewer_that_moves_comes_first_with_its_clock(
    api: Api, client: httpx.AsyncClient
) -> None:
    """The game that became ann's turn is listed first: before games waiting for others, and before her other
    games' turns whose clocks run out later (48 h against 24 h); its row shows her time left."""
    admin = await api.admin()
    await signed_in(client, "ann")
    ann, bob, cid = await me(client), await api.player("bob"), await api.player("cid")
    later = await api.started_game(admin, [ann, cid], seed=1, move_timeout_hours=48)
    game = await api.started_game(admin, [ann, bob], seed=5, move_timeout_hours=24)
    seats = api.seated(game, [ann, bob])

    def awaited(summary: dict[str, Any]) -> str:
        return seats[summary["to_act"][0]].username

    if awaited((await client.get(f"/api/v1/games/{game['id']}")).json()) == "ann":
        await first_move(client, game["id"], {})  # bob's turn now: ann's comes by his move
    url = poll_url((await client.get("/")).text)
    assert (await client.get(url)).status_code == 204
    while awaited((await client.get(f"/api/v1/games/{game['id']}")).json()) != "ann":
        await first_move(client, game["id"], bob.headers)
    fresh = await client.get(url)
    assert fresh.status_code == 200
    rows = re.findall(r'<li class="game-row( my-turn)?">\s*<a href="/games/(\d+)"', fresh.text)
    listed = [(bool(turn), int(gid)) for turn, gid in rows if int(gid) in (game["id"], later["id"])]
    assert listed[0] == (True, game["id"]) and len(listed) == 2
    row = fresh.text[fresh.text.index(f'href="/games/{game["id"]}"'):].split("</li>")[0]
    assert re.search(r"time left: ann <time [^>]*>23 h \d+ min</time>", row), row


async def test_polling_stops_once_signed_out(client: httpx.AsyncClient) -> None:
    assert (await client.get("/lobby/live?v=x")).status_code == 286
