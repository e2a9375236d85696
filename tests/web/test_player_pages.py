"""The player page `/players/{name}` (issue 12 "Accounts"): finished games with their results and the win rate,
the games being played; usernames in the lobby and the table's player panels link to it."""

from __future__ import annotations

import random
from typing import Any

import httpx
from conftest import Api, Player

from app.play.accounts import Account
from app.play.commands import PlayerMove
from app.play.positions import Positions
from app.play.service import GameService
from tests.web.test_pages import signed_in


async def play_to_the_end(
    service: GameService, positions: Positions, game: dict[str, Any], seats: dict[int, Player]
) -> dict[str, Any]:
    """Random legal moves through the service until the game is over; the final state as everyone sees it."""
    chooser = random.Random(3)
    for _ in range(3000):
        summary = await positions.summary(game["id"])
        if summary.status == "finished":
            return await positions.view(None, game["id"])
        who = seats[chooser.choice(summary.to_act)]
        account = Account(who.id, who.username, False)
        options = await positions.moves(account, game["id"])
        await service.apply(PlayerMove(who.id, game["id"], options.seq, chooser.choice(options.moves)))
    raise AssertionError("the game did not end")


async def test_a_players_page_shows_results_win_rate_and_running_games(
    app: Any, api: Api, client: httpx.AsyncClient
) -> None:
    admin = await api.admin()
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    done = await api.started_game(admin, [ann, bob], seed=5)
    final = await play_to_the_end(app.state.service, app.state.positions, done, api.seated(done, [ann, bob]))
    running = await api.started_game(admin, [ann, cid], seed=6)
    winner = final["players"][final["winner"]]["username"]
    loser = "bob" if winner == "ann" else "ann"
    points = {p["username"]: p["score"]["total"] for p in final["players"]}

    await signed_in(client, "dora")
    page = await client.get(f"/players/{winner.upper()}")  # names are found in any case
    assert page.status_code == 200 and f"<h1>{winner}</h1>" in page.text
    assert "1 win in 1 finished game: a win rate of <strong>100 %</strong>" in page.text
    results = page.text[page.text.index('id="results"'):]
    assert f'href="/games/{done["id"]}"' in results and "Won" in results
    assert f'<td data-label="Points">{points[winner]}</td>' in results

    lost = await client.get(f"/players/{loser}")
    assert "0 wins in 1 finished game: a win rate of <strong>0 %</strong>" in lost.text
    assert "2nd place" in lost.text and f'<td data-label="Points">{points[loser]}</td>' in lost.text
    playing_now = (await client.get("/players/ann")).text
    assert f'href="/games/{running["id"]}"' in playing_now.split('id="finished-h"')[0]

    fresh = await client.get("/players/cid")
    assert "No finished game yet." in fresh.text and f'href="/games/{running["id"]}"' in fresh.text
    assert (await client.get("/players/nobody")).status_code == 404

    # The same record in the JSON API.
    record = (await client.get(f"/api/v1/players/{winner.upper()}")).json()
    assert record["username"] == winner and record["wins"] == 1 and record["win_rate"] == 1.0
    assert record["finished_total"] == 1 and [r["game"]["id"] for r in record["finished"]] == [done["id"]]
    (result,) = record["finished"]
    assert result["won"] and result["place"] == 1 and result["points"] == points[winner]
    assert result["winner"] == winner and result["game"]["seed"] is not None  # a finished game shows its seed
    other = (await client.get(f"/api/v1/players/{loser}")).json()
    assert other["wins"] == 0 and other["finished"][0]["place"] == 2 and other["finished"][0]["winner"] == winner
    assert [g["id"] for g in (await client.get("/api/v1/players/cid")).json()["running"]] == [running["id"]]
    missing = await client.get("/api/v1/players/nobody")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "player_not_found"


async def test_usernames_in_the_lobby_and_on_the_table_link_to_their_pages(
    api: Api, client: httpx.AsyncClient
) -> None:
    admin = await api.admin()
    await signed_in(client, "ann")
    bob = await api.player("bob")
    me = (await client.get("/api/v1/auth/me")).json()
    ann = Player(me["id"], "ann", {})
    game = await api.started_game(admin, [ann, bob], seed=5)
    lobby = await client.get("/")
    assert '<a class="player-link" href="/players/bob">bob</a>' in lobby.text
    table = await client.get(f"/games/{game['id']}")
    panels = table.text[table.text.index('id="players-h"'):]
    assert '<a class="player-link" href="/players/bob">bob</a>' in panels


async def test_the_player_page_needs_a_sign_in(client: httpx.AsyncClient) -> None:
    r = await client.get("/players/ann")
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert (await client.get("/api/v1/players/ann")).status_code == 401
