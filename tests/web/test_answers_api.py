"""Answers given ahead (issue 26, item 3; API.md "Standing answers"): who may set a game's standing answer, the
refusals in the documented shape with nothing changed, the account's answers over the API and on the settings
page (behind sign-in and CSRF). What the answers do in a game: tests/notify/test_standing_answers.py."""

from __future__ import annotations

from typing import Any

import httpx
from conftest import Api
from support import assert_error

from app.rules.automatic import CASH_LIMIT_ANSWERS, PERMISSION_ANSWERS
from app.web.labels import ANSWER_LABELS
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


def test_the_pages_offer_every_answer_the_rules_know() -> None:
    """The pages' words cover each answer of the rules core exactly, in its order."""
    assert [value for value, _ in ANSWER_LABELS["permission"]] == list(PERMISSION_ANSWERS)
    assert [value for value, _ in ANSWER_LABELS["cash_limit"]] == list(CASH_LIMIT_ANSWERS)


async def test_a_games_answers_page_is_for_its_seated_players(client: httpx.AsyncClient, app: Any, api: Api) -> None:
    """The table links to "Answers ahead in this game" for a seated player, whose page shows and saves the game's
    standing answer (behind CSRF); anyone else is refused."""
    token = await signed_in(client, "anna")
    admin = await api.admin()
    bob = await api.player("bob")
    r = await client.post("/api/v1/games", json={"name": "Test game", "seats": 2, "players": ["anna", "bob"]},
                          headers=admin.headers)
    game_id = r.json()["id"]
    table = await client.get(f"/games/{game_id}")
    assert f'href="/games/{game_id}/answers"' in table.text
    page = await client.get(f"/games/{game_id}/answers")
    assert page.status_code == 200 and '<option value="ask" selected>' in page.text
    r = await client.post(f"/games/{game_id}/answers", data={"permission": "allow"})
    assert r.status_code == 403
    r = await client.post(f"/games/{game_id}/answers", data={"permission": "allow", "csrf_token": token})
    assert r.status_code == 200 and "Your answer is saved." in r.text and '<option value="allow" selected>' in r.text
    r = await api.client.get(f"/api/v1/games/{game_id}/permission-answer", headers=bob.headers)
    assert r.json() == {"answer": "ask"}
    cid_client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
    try:
        cid_token = await signed_in(cid_client, "cid")
        assert (await cid_client.get(f"/games/{game_id}/answers")).status_code == 403
        r = await cid_client.post(f"/games/{game_id}/answers", data={"permission": "deny", "csrf_token": cid_token})
        assert r.status_code == 403
    finally:
        await cid_client.aclose()
