"""Reputation where players choose their tables (issue 27 "Reputation", API.md "Ratings and reputation"): the
games each seated player finished, left and let their clock run out in, beside their name at an open table and
in an invitation (the API's seats and the pages); a table may take only players whose clocks ran out in at most
a share of their games (`max_timeout_percent`): others are refused with 403 `reputation_too_low` and a sentence,
and nothing changes; invited players are not asked."""

from __future__ import annotations

import random
from typing import Any

import httpx
from conftest import Api, Player

from app.play.reputation import Reputation
from tests.play.finishing import finish_with_a_timeout, play_to_the_end
from tests.web.test_pages import csrf_of, signed_in


async def _record(app: Any, api: Api) -> dict[str, Player]:
    """ann finishes two games on time; bob's clock runs out in one of his two: 50 %."""
    service = app.state.service
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], seed=1)
    await play_to_the_end(service, game["id"], random.Random(1))
    game = await api.started_game(admin, [ann, bob], seed=2, move_timeout_hours=24)
    await finish_with_a_timeout(service, game, "bob", random.Random(2))
    return {"admin": admin, "ann": ann, "bob": bob}


def test_the_share_of_clocks_run_out_is_rounded_up_and_nothing_for_a_newcomer() -> None:
    assert Reputation(0, 0, 0).timeout_percent == 0
    assert Reputation(1, 1, 1).timeout_percent == 50
    assert Reputation(19, 0, 2).timeout_percent == 11, "10.5 % is more than 10 %"
    assert Reputation(20, 0, 2).timeout_percent == 10


async def test_an_open_tables_seats_and_an_invitation_carry_each_persons_reputation(
    app: Any, api: Api, client: httpx.AsyncClient
) -> None:
    people = await _record(app, api)
    cid = await api.player("cid")
    r = await client.post("/api/v1/games", json={"name": "Open", "seats": 4, "bots": 1, "players": ["cid"],
                                                 "max_timeout_percent": 10}, headers=people["bob"].headers)
    assert r.status_code == 201, r.text
    table = r.json()
    assert table["max_timeout_percent"] == 10 and table["rated"] is True
    seats = {s["username"]: s["reputation"] for s in table["seats"]}
    assert seats == {"bob": {"finished": 2, "abandoned": 0, "timeouts": 1}, "bot-1": None}
    invitation, = (await client.get("/api/v1/me/invitations", headers=cid.headers)).json()["invitations"]
    assert invitation["invited_by"] == "bob"
    assert {s["username"]: s["reputation"] for s in invitation["game"]["seats"]}["bob"] == seats["bob"]

    joined = await client.post(f"/api/v1/games/{table['id']}/join", headers=people["ann"].headers)
    assert joined.status_code == 200, joined.text
    assert {s["username"]: s["reputation"] for s in joined.json()["seats"]}["ann"] == {
        "finished": 2, "abandoned": 0, "timeouts": 0}
    started = await client.post(f"/api/v1/games/{table['id']}/join", headers=cid.headers)
    assert started.json()["status"] == "active"
    assert all(s["reputation"] is None for s in started.json()["seats"]), "a running game's seats carry none"


async def test_a_table_that_asks_for_a_reputation_refuses_a_player_whose_clocks_ran_out_too_often(
    app: Any, api: Api, client: httpx.AsyncClient
) -> None:
    people = await _record(app, api)
    dee, eve = await api.player("dee"), await api.player("eve")
    r = await client.post("/api/v1/games", json={"name": "Reliable", "seats": 4, "max_timeout_percent": 10,
                                                 "players": ["bob"]}, headers=dee.headers)
    table = r.json()
    other = (await client.post("/api/v1/games", json={"name": "Strict", "seats": 3, "max_timeout_percent": 49},
                               headers=eve.headers)).json()
    # bob is invited to dee's table: dee chose him by name. At eve's, he is one more player asking for a seat.
    refused = await client.post(f"/api/v1/games/{other['id']}/join", headers=people["bob"].headers)
    assert refused.status_code == 403
    assert refused.json()["detail"] == {
        "code": "reputation_too_low",
        "message": "This table takes players whose clock ran out in at most 49 %: yours ran out in 1 of 2 "
                   "games (50 %).",
    }
    after = (await client.get(f"/api/v1/games/{other['id']}", headers=eve.headers)).json()
    assert [s["username"] for s in after["seats"]] == ["eve"], "nothing changed"
    assert (await client.post(f"/api/v1/games/{other['id']}/join", headers=people["ann"].headers)).status_code == 200
    assert (await client.post(f"/api/v1/games/{table['id']}/join", headers=people["bob"].headers)).status_code == 200
    newcomer = await api.player("fay")
    assert (await client.post(f"/api/v1/games/{table['id']}/join", headers=newcomer.headers)).status_code == 200
    for wrong in (-1, 101, "ten"):
        bad = await client.post("/api/v1/games", json={"name": "X", "seats": 2, "max_timeout_percent": wrong},
                                headers=eve.headers)
        assert bad.status_code == 422


async def test_the_lobby_and_the_waiting_page_show_the_seated_players_reputation_and_the_tables_requirement(
    app: Any, api: Api, client: httpx.AsyncClient
) -> None:
    people = await _record(app, api)
    table = (await client.post("/api/v1/games", json={"name": "Careful", "seats": 3, "max_timeout_percent": 10,
                                                      "rated": False}, headers=people["ann"].headers)).json()
    csrf = await signed_in(client, "zed")
    lobby = (await client.get("/")).text
    row = lobby[lobby.index('id="open-games"'):]
    row = row[:row.index("</li>")]
    assert '<a class="player-link" href="/players/ann">ann</a> <span class="reputation">(2 games finished · ' \
           '0 abandoned · 0 clocks run out)</span>' in row
    assert "Joins players whose clock ran out in at most 10 % of their games" in row
    waiting = (await client.get(f"/games/{table['id']}")).text
    assert '<span class="reputation">(2 games finished · 0 abandoned · 0 clocks run out)</span>' in waiting
    assert "Joins players whose clock ran out in at most 10 % of their games</span>.</p>" in waiting
    assert "Unrated: this game changes nobody's rating." in waiting

    bob_client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
    async with bob_client:
        page = await bob_client.get("/login")
        await bob_client.post("/login", data={"username": "bob", "password": "correct horse battery",
                                              "csrf_token": csrf_of(page.text)})
        token = csrf_of((await bob_client.get("/")).text)
        refused = await bob_client.post(f"/games/{table['id']}/join", data={"csrf_token": token})
        assert refused.status_code == 403
        assert "yours ran out in 1 of 2 games (50 %)" in refused.text
    joined = await client.post(f"/games/{table['id']}/join", data={"csrf_token": csrf})
    assert joined.status_code == 303
    seated = (await client.get(f"/api/v1/games/{table['id']}", headers=people["ann"].headers)).json()["seats"]
    assert [s["username"] for s in seated] == ["ann", "zed"]


async def test_the_new_game_form_opens_an_unrated_table_that_asks_for_a_reputation(
    app: Any, api: Api, client: httpx.AsyncClient
) -> None:
    csrf = await signed_in(client, "ann")
    form = (await client.get("/games/new")).text
    assert '<option value="10">Clocks run out in at most 10 % of their games</option>' in form
    r = await client.post("/games/new", data={"name": "Form table", "seats": "3", "rated": "no",
                                               "max_timeout_percent": "25", "csrf_token": csrf})
    assert r.status_code == 303, r.text
    game_id = r.headers["location"].rsplit("/", 1)[1]
    ann = Player(0, "ann", await api.token("ann", "correct horse battery"))
    game = (await client.get(f"/api/v1/games/{game_id}", headers=ann.headers)).json()
    assert game["rated"] is False and game["max_timeout_percent"] == 25
    r = await client.post("/games/new", data={"name": "Plain", "seats": "2", "csrf_token": csrf})
    plain = (await client.get(f"/api/v1/games/{r.headers['location'].rsplit('/', 1)[1]}", headers=ann.headers))
    assert plain.json()["rated"] is True and plain.json()["max_timeout_percent"] is None
