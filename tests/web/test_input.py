"""Bad input never reaches the database: control characters in names and texts, and integers beyond what
PostgreSQL's `integer` holds, are refused with a 4xx in the error shape, and change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from conftest import Api
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from support import assert_error

# NUL (PostgreSQL cannot store it), line breaks (they break mail headers), a tab, a right-to-left override
# (it makes one name look like another) and the Unicode line separator.
CONTROLS = ["\x00", "\n", "\r", "\t", "\u202e", "\u2028"]
TOO_BIG = ["2147483648", "9223372036854775808", "99999999999999999999999"]
GAME_PATHS = [
    ("get", "/api/v1/games/{}"),
    ("post", "/api/v1/games/{}/join"),
    ("post", "/api/v1/games/{}/start"),
    ("get", "/api/v1/games/{}/state"),
    ("get", "/api/v1/games/{}/moves"),
    ("post", "/api/v1/games/{}/moves"),
    ("get", "/api/v1/games/{}/events"),
    ("get", "/api/v1/games/{}/stream"),
    ("post", "/api/v1/games/{}/seats/0/replace"),
    ("post", "/api/v1/games/1/seats/{}/replace"),
]


@pytest.mark.parametrize("control", CONTROLS)
async def test_names_and_texts_with_control_characters_are_422_and_change_nothing(
    api: Api, client: httpx.AsyncClient, control: str
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    bad = f"a{control}b"
    register = {"username": "carl", "email": "carl@example.com", "password": "long enough"}
    for body in ({**register, "username": bad}, {**register, "email": f"carl{control}@example.com"}):
        assert_error(await client.post("/api/v1/auth/register", json=body), 422)
    game = {"name": "Fine", "seats": 2, "players": ["ann", "bob"]}
    for body in ({**game, "name": bad}, {**game, "players": ["ann", bad]}):
        detail = assert_error(await client.post("/api/v1/games", json=body, headers=admin.headers), 422)
        assert detail["code"] == "control_characters" and "control characters" in detail["message"]
    assert_error(await client.post("/api/v1/auth/token", data={"username": bad, "password": "x" * 8}), 422)
    started = await api.started_game(admin, [ann, bob])
    url = f"/api/v1/games/{started['id']}/seats/0/replace"
    assert_error(await client.post(url, json={"username": bad}, headers=admin.headers), 422)
    games = (await client.get("/api/v1/games", headers=admin.headers)).json()
    assert [g["name"] for g in games["data"]] == ["Test game"]
    assert (await client.get(f"/api/v1/games/{started['id']}", headers=admin.headers)).json() == started
    assert_error(await client.post("/api/v1/auth/token", data={"username": "carl", "password": "long enough"}), 401)


@pytest.mark.parametrize(("method", "path"), GAME_PATHS)
async def test_ids_beyond_the_database_range_are_404(
    api: Api, client: httpx.AsyncClient, method: str, path: str
) -> None:
    admin = await api.admin()
    game = await api.started_game(admin, [await api.player("ann"), await api.player("bob")])
    assert game["id"] == 1
    body: dict[str, Any] = {"seq": 0, "move": {"type": "pass"}} if path.endswith("moves") else {"username": "admin"}
    for number in TOO_BIG:
        r = await client.request(method, path.format(number), json=body, headers=admin.headers)
        assert_error(r, 404)


async def test_query_integers_beyond_the_database_range_are_422(api: Api, client: httpx.AsyncClient) -> None:
    admin = await api.admin()
    game = await api.started_game(admin, [await api.player("ann"), await api.player("bob")])
    for number in TOO_BIG:
        assert_error(await client.get(f"/api/v1/games?offset={number}", headers=admin.headers), 422)
        assert_error(await client.get(f"/api/v1/games/{game['id']}/events?after={number}", headers=admin.headers), 422)
    assert (await client.get("/api/v1/games?offset=2147483647", headers=admin.headers)).json()["data"] == []


async def _page_client(client: httpx.AsyncClient, api: Api) -> str:
    """Sign the client's browser session in as the admin; returns a CSRF token of the session."""
    await api.admin()
    form = (await client.get("/login")).text
    token = form.split('name="csrf_token" value="')[1].split('"')[0]
    r = await client.post("/login", data={"username": "admin", "password": "admin password", "csrf_token": token})
    assert r.status_code == 303, r.text
    page = (await client.get("/games/new")).text
    return page.split('name="csrf_token" value="')[1].split('"')[0]


async def test_pages_refuse_bad_names_and_ids_with_4xx(api: Api, client: httpx.AsyncClient) -> None:
    token = await _page_client(client, api)
    await api.player("ann")
    r = await client.post("/games/new", data={"name": "a\nb", "seats": "2", "csrf_token": token})
    assert r.status_code == 422 and "control characters" in r.text
    r = await client.post("/games/new", data={"name": "ok", "seats": "2", "players": "ann a\x00b", "csrf_token": token})
    assert r.status_code == 422 and "control characters" in r.text
    r = await client.post("/signup", data={"username": "carl", "email": "c\x00@example.com", "password": "long enough",
                                           "csrf_token": token})
    assert r.status_code == 422
    r = await client.post("/login", data={"username": "a\x00", "password": "long enough", "csrf_token": token})
    assert r.status_code == 422
    for number in TOO_BIG:
        assert_error(await client.get(f"/games/{number}"), 404)
        browser = await client.get(f"/games/{number}", headers={"Accept": "text/html"})
        assert browser.status_code == 404 and "There is nothing at this address." in browser.text
        assert browser.headers["content-type"].startswith("text/html")
        assert (await client.post(f"/games/{number}/join", data={"csrf_token": token})).status_code == 404
    assert (await client.get("/api/v1/games", headers={"Accept": "application/json"})).json()["count"] == 0


async def test_a_move_form_with_an_unreadable_seq_is_422(api: Api, client: httpx.AsyncClient) -> None:
    token = await _page_client(client, api)
    ann, bob = await api.player("ann"), await api.player("bob")
    admin = await api.admin()
    game = await api.started_game(admin, [ann, bob])
    await client.post(f"/games/{game['id']}/join", data={"csrf_token": token})
    for seq in ("²", "1e3", "-1", "9" * 5000):
        data = {"seq": seq, "move": '{"type": "pass"}', "csrf_token": token}
        r = await client.post(f"/games/{game['id']}/moves", data=data)
        assert r.status_code == 422 and "could not be read" in r.text
    data = {"seq": "0", "move": "[" * 5000 + "]" * 5000, "csrf_token": token}  # deeper than json.loads goes
    r = await client.post(f"/games/{game['id']}/moves", data=data)
    assert r.status_code == 422 and "could not be read" in r.text


async def test_a_vacation_starting_out_of_reach_is_422(api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    for starts_at in ("9999-12-30T00:00:00Z", "2999-01-01T00:00:00Z"):
        r = await client.post("/api/v1/me/vacation", json={"days": 3, "starts_at": starts_at}, headers=ann.headers)
        assert_error(r, 422, "vacation_too_far")
    assert (await client.get("/api/v1/me/vacation", headers=ann.headers)).json()["days_used"] == 0


async def test_an_error_page_knows_who_is_signed_in(api: Api, client: httpx.AsyncClient) -> None:
    """A signed-in browser reaching an unknown address sees its own name in the page's header, not "Sign in"."""
    await _page_client(client, api)
    page = await client.get("/no/such/page", headers={"Accept": "text/html"})
    assert page.status_code == 404 and "There is nothing at this address." in page.text
    assert "Signed in as" in page.text and "<strong>admin</strong>" in page.text


async def test_a_browser_asking_for_a_game_that_does_not_exist_gets_a_page(api: Api, client: httpx.AsyncClient) -> None:
    """Errors as pages (issue "The table players would switch for", item 8): a well-formed id that names no game
    answers a browser with an HTML page, 404, that still knows who is signed in."""
    await _page_client(client, api)
    page = await client.get("/games/424242", headers={"Accept": "text/html"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "<strong>admin</strong>" in page.text and "<html" in page.text


# Characters no PostgreSQL text can hold, as they arrive in a URL: NUL, and bytes that are not UTF-8.
UNSTORABLE = ["%00", "a%00b", "%FF", "%ED%A0%80"]


def _parameters(dependant: Dependant) -> tuple[list[str], list[str]]:
    """The names of the path and query parameters of `dependant` and of its dependencies."""
    path_params = [p.alias for p in dependant.path_params]
    query_params = [p.alias for p in dependant.query_params]
    for sub in dependant.dependencies:
        more_path, more_query = _parameters(sub)
        path_params += [p for p in more_path if p not in path_params]
        query_params += [q for q in more_query if q not in query_params]
    return path_params, query_params


def _api_routes(routes: list[Any]) -> Iterator[APIRoute]:
    """The API routes of `routes`, those of the routers included there too (the application's own routes are
    what its routers were when it was built: no route is added later)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif (router := getattr(route, "original_router", None)) is not None:
            yield from _api_routes(router.routes)


def _routes(app: Any) -> list[tuple[str, str, list[str], list[str]]]:
    """Every route the application serves (API and pages), with the names of its path and query parameters,
    those of its dependencies included."""
    found = []
    for route in _api_routes(app.routes):
        path_params, query_params = _parameters(route.dependant)
        if path_params or query_params:
            found.extend((method, route.path_format, path_params, query_params) for method in route.methods)
    return found


async def test_every_path_and_query_parameter_refuses_unstorable_characters_without_a_5xx(
    api: Api, client: httpx.AsyncClient, app: Any
) -> None:
    """Corrections item 5: a NUL in a player's name was a 500 (`GET /api/v1/players/%00`): every path and query
    parameter of every route (the OpenAPI schema's and the pages') gets a 4xx instead, signed in with a token and
    with a browser session, and a game to look at."""
    token = await _page_client(client, api)
    admin = (await client.get("/api/v1/auth/me")).json()
    assert admin["username"] == "admin"
    headers = await api.token("admin", "admin password")
    await api.started_game(await api.admin(), [await api.player("ann"), await api.player("bob")])
    routes = _routes(app)
    assert ("GET", "/api/v1/players/{username}", ["username"], []) in routes
    schema = (await client.get("/openapi.json")).json()
    documented = {
        (method.upper(), path) for path, item in schema["paths"].items() for method, op in item.items()
        if op.get("parameters")
    }
    assert documented <= {(method, path) for method, path, _, _ in routes}
    checked = 0
    for method, path, path_params, query_params in routes:
        valid = {name: "1" if name in ("game_id", "seat") else "admin" for name in path_params}
        trials = [({**valid, name: bad}, {}) for name in path_params for bad in UNSTORABLE]
        trials += [(valid, {name: bad}) for name in query_params for bad in UNSTORABLE]
        for values, query in trials:
            url = path.format(**values) + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
            for extra in ({"headers": headers}, {"headers": {"Accept": "text/html"}}):
                data = None if path.startswith("/api/") else {"csrf_token": token}
                r = await client.request(method, url, data=data, **extra)  # type: ignore[arg-type]
                assert r.status_code < 500, (method, url, r.status_code, r.text[:300])
                checked += 1
    assert checked > 100
