"""Answers given ahead (issue 26, item 3; API.md "Standing answers"): who may set a game's standing answer, the
refusals in the documented shape with nothing changed, the account's answers over the API and on the settings
page (behind sign-in and CSRF). What the answers do in a game: tests/notify/test_standing_answers.py."""

from __future__ import annotations

import httpx
from conftest import Api
from support import assert_error

from tests.web.test_pages import csrf_of, signed_in


async def test_only_a_seated_player_sets_a_games_standing_answer(api: Api) -> None:
    admin = await api.admin()
    ann, bob, cid = [await api.player(name) for name in ("ann", "bob", "cid")]
    game = await api.started_game(admin, [ann, bob], seed=5)
    url = f"/api/v1/games/{game['id']}/permission-answer"
    assert (await api.client.get(url, headers=ann.headers)).json() == {"answer": "ask"}  # the default
    assert_error(await api.client.put(url, json={"answer": "allow"}, headers=cid.headers), 403, "no_seat")
    assert_error(await api.client.get(url, headers=cid.headers), 403, "no_seat")
    assert_error(await api.client.put("/api/v1/games/9999/permission-answer", json={"answer": "allow"},
                                      headers=ann.headers), 404, "game_not_found")
    assert_error(await api.client.put(url, json={"answer": "always"}, headers=ann.headers), 422)
    assert_error(await api.client.put(url, json={"answer": "allow", "more": 1}, headers=ann.headers), 422)
    assert_error(await api.client.put(url, json={"answer": "allow"}), 401)
    assert (await api.client.get(url, headers=ann.headers)).json() == {"answer": "ask"}  # nothing changed
    r = await api.client.put(url, json={"answer": "deny"}, headers=ann.headers)
    assert (r.status_code, r.json()) == (200, {"answer": "deny"})
    assert (await api.client.get(url, headers=ann.headers)).json() == {"answer": "deny"}
    assert (await api.client.get(url, headers=bob.headers)).json() == {"answer": "ask"}  # ann's alone


async def test_a_games_answer_wins_over_the_accounts(api: Api) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], seed=5)
    url = f"/api/v1/games/{game['id']}/permission-answer"
    r = await api.client.put("/api/v1/me/answers", json={"permission": "allow"}, headers=ann.headers)
    assert r.json() == {"permission": "allow", "cash_limit": "ask"}
    assert (await api.client.get(url, headers=ann.headers)).json() == {"answer": "allow"}
    await api.client.put(url, json={"answer": "deny"}, headers=ann.headers)
    assert (await api.client.get(url, headers=ann.headers)).json() == {"answer": "deny"}
    assert_error(await api.client.put("/api/v1/me/answers", json={"cash_limit": "all"}, headers=ann.headers), 422)
    assert (await api.client.get("/api/v1/me/answers", headers=ann.headers)).json() == {
        "permission": "allow", "cash_limit": "ask"}


async def test_the_settings_page_shows_and_saves_the_answers_ahead(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "anna")
    page = await client.get("/settings/notifications")
    assert 'action="/settings/answers"' in page.text and "Answers ahead" in page.text
    r = await client.post("/settings/answers", data={"permission": "allow", "cash_limit": "round_up"})
    assert r.status_code == 403  # no CSRF token: nothing changes
    assert (await client.get("/api/v1/me/answers")).json() == {"permission": "ask", "cash_limit": "ask"}
    r = await client.post("/settings/answers", data={"csrf_token": token, "permission": "always",
                                                     "cash_limit": "least"})
    assert r.status_code == 422
    assert (await client.get("/api/v1/me/answers")).json() == {"permission": "ask", "cash_limit": "ask"}
    r = await client.post("/settings/answers", data={"csrf_token": csrf_of(r.text), "permission": "allow",
                                                     "cash_limit": "round_up"})
    assert r.status_code == 200 and "Your answers are saved." in r.text
    assert (await client.get("/api/v1/me/answers")).json() == {"permission": "allow", "cash_limit": "round_up"}
    assert '<option value="round_up" selected>' in r.text
