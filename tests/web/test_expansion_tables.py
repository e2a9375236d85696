"""Gold & Guns and the Outlaws open to players (issue "Gold & Guns and the Outlaws", items 1, 3, 4): a table with
them can be created through the API and the admin's form, with any base variant and the characters chosen or
drawn (RULING G1); its state document carries the fields of API.md "With expansions"."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support import assert_error
from tests.web.test_input import _page_client


async def test_a_table_with_the_outlaws_starts_and_shows_them(api: Any, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], variants={"expansions": ["outlaws"], "river": True})
    assert game["variants"]["expansions"] == ["outlaws"]
    state = (await client.get(f"/api/v1/games/{game['id']}/state", headers=ann.headers)).json()
    assert state["outlaws"] == {"strength": None, "reserve": 9}  # none arrive before round 2 (R-OUT-1)
    assert all(p["outlaw"] is None for p in state["board"]["parcels"])
    table = (await client.get(f"/games/{game['id']}", headers={**ann.headers, "HX-Request": "true"})).text
    assert "<strong>Outlaws</strong> arrive from round 2 · 9 in reserve." in table


async def test_an_expansion_named_twice_is_refused(api: Any, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    body = {"name": "Twice", "seats": 2, "variants": {"expansions": ["outlaws", "outlaws"]}}
    assert_error(await client.post("/api/v1/games", json=body, headers=admin.headers), 422)


async def test_the_admin_form_offers_the_outlaws(api: Any, client: httpx.AsyncClient) -> None:
    token = await _page_client(client, api)
    form = (await client.get("/games/new", headers={"Accept": "text/html"})).text
    assert 'name="expansions" value="outlaws"' in form
    assert "Tick the 7 cards to play (8 with the Newspaper Boy)" in form  # RULING G1
    r = await client.post("/games/new", data={"name": "Wild", "seats": "2", "sides": "vote",
                                              "expansions": "outlaws", "csrf_token": token})
    assert r.status_code == 303, r.text
    game_id = int(r.headers["location"].rsplit("/", 1)[1])
    summary = (await client.get(f"/api/v1/games/{game_id}", headers={"Accept": "application/json"})).json()
    assert summary["variants"]["expansions"] == ["outlaws"] and summary["variants"]["sides"] == "vote"


async def test_the_admin_form_chooses_the_characters_or_leaves_them_to_chance(
    api: Any, client: httpx.AsyncClient
) -> None:
    """R-GG-1 (RULING G1): the 7 ticked cards are the game's; none ticked draws 7 at random; 6 ticked is refused
    with the rule's words and the form keeps what was ticked."""
    token = await _page_client(client, api)
    form = (await client.get("/games/new", headers={"Accept": "text/html"})).text
    # Every card of the playable expansions: 1-7, Gold & Guns' 8-14, Big Box's 0 and 15-17 (D90).
    assert 'value="gold_and_guns"' in form and form.count('name="characters"') == 18
    base = {"name": "Gold", "seats": "3", "expansions": ["gold_and_guns", "outlaws"], "csrf_token": token}
    chosen = ["8", "9", "10", "11", "12", "13", "14"]
    r = await client.post("/games/new", data={**base, "characters": chosen})
    assert r.status_code == 303, r.text
    game_id = int(r.headers["location"].rsplit("/", 1)[1])
    summary = (await client.get(f"/api/v1/games/{game_id}", headers={"Accept": "application/json"})).json()
    assert summary["variants"]["characters"] == [8, 9, 10, 11, 12, 13, 14]
    r = await client.post("/games/new", data=base)
    assert r.status_code == 303
    r = await client.post("/games/new", data={**base, "characters": chosen[:6]})
    assert r.status_code == 422 and "7 different card numbers" in r.text
    assert 'value="9" checked' in r.text and 'value="14" checked' not in r.text


async def test_anyone_signed_in_may_watch_a_running_game_from_the_lobby(api: Any, client: httpx.AsyncClient) -> None:
    """Spectators (issue "History and trust", item 4): the lobby lists the games being played that the viewer does
    not sit in; the table shows them the board as a spectator (no decision, no seat's secrets: R-WEB-2)."""
    await _page_client(client, api)  # the browser is the admin's, who sits in no game
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(await api.admin(), [ann, bob], variants={"might_is_right": True})
    lobby = (await client.get("/", headers={"Accept": "text/html"})).text
    assert f'<a href="/games/{game["id"]}">Watch Test game</a>' in lobby
    table = (await client.get(f"/games/{game['id']}", headers={"Accept": "text/html"})).text
    assert 'id="board"' in table and 'data-viewer=""' in table and 'id="decision"' not in table
    assert "Your duel tiles" not in table
