"""The OpenAPI schema documents every endpoint of API.md, with the shared error shape."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from conftest import Api
from support import assert_error

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

API_MD = {
    ("post", "/api/v1/auth/register"),
    ("post", "/api/v1/auth/token"),
    ("post", "/api/v1/games"),
    ("get", "/api/v1/games"),
    ("get", "/api/v1/games/{game_id}"),
    ("post", "/api/v1/games/{game_id}/join"),
    ("post", "/api/v1/games/{game_id}/start"),
    ("get", "/api/v1/games/{game_id}/state"),
    ("get", "/api/v1/games/{game_id}/moves"),
    ("post", "/api/v1/games/{game_id}/moves"),
    ("get", "/api/v1/games/{game_id}/events"),
    ("get", "/api/v1/games/{game_id}/stream"),
}


async def test_every_endpoint_is_documented(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    documented = {(method, path) for path, item in schema["paths"].items() for method in item}
    assert documented >= API_MD
    move = schema["paths"]["/api/v1/games/{game_id}/moves"]["post"]
    assert {"403", "409", "422"} <= set(move["responses"])
    stream = schema["paths"]["/api/v1/games/{game_id}/stream"]["get"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert "ErrorResponse" in schema["components"]["schemas"]


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, item in schema["paths"].items() for method, op in item.items()]


def _is_error_shape(response: dict[str, Any]) -> bool:
    return response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorResponse"}


async def test_the_schema_documents_the_real_error_answers(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    assert "HTTPValidationError" not in json.dumps(schema)
    with_body = 0
    for method, path, op in _operations(schema):
        responses = op["responses"]
        if op.get("parameters") or "requestBody" in op:
            assert _is_error_shape(responses["422"]), (method, path)
        assert _is_error_shape(responses["503"]), (method, path)
        if "application/json" in op.get("requestBody", {}).get("content", {}):
            with_body += 1
            assert _is_error_shape(responses["400"]), (method, path)
    assert with_body >= 5
    page = schema["paths"]["/unsubscribe/{token}"]
    for method in ("get", "post"):
        assert list(page[method]["responses"]["200"]["content"]) == ["text/html"]
        assert _is_error_shape(page[method]["responses"]["422"])


def _concrete(path: str, number: str = "1") -> str:
    return re.sub(r"\{[a-z_]+\}", number, path)


async def test_every_documented_answer_holds_for_real_requests(api: Api, client: httpx.AsyncClient) -> None:
    """Walk the schema: each JSON body that does not parse is 400 `malformed_json`, each integer path
    parameter beyond the database's range is 404, each integer query parameter beyond it 422; all in the
    error shape."""
    admin = await api.admin()
    await api.started_game(admin, [await api.player("ann"), await api.player("bob")])
    schema = (await client.get("/openapi.json")).json()
    checked = 0
    for method, path, op in _operations(schema):
        params = op.get("parameters", [])
        url = _concrete(path)
        if "application/json" in op.get("requestBody", {}).get("content", {}):
            broken = {**admin.headers, "Content-Type": "application/json"}
            assert_error(await client.request(method, url, content=b'{"seq": ', headers=broken), 400, "malformed_json")
            checked += 1
        integers = [p for p in params if p["schema"].get("type") == "integer"]
        for param in integers:
            huge = "9223372036854775808"
            if param["in"] == "path":
                r = await client.request(method, path.replace(f"{{{param['name']}}}", huge).replace("{game_id}", "1"),
                                         json={}, headers=admin.headers)
                assert_error(r, 404)
            else:
                r = await client.request(method, url, params={param["name"]: huge}, headers=admin.headers)
                assert_error(r, 422)
            checked += 1
    assert checked >= 20


async def test_405_names_every_method_the_path_accepts(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    for path in schema["paths"]:
        url = _concrete(path)
        answers = {method: (await client.request(method, url)) for method in METHODS}
        accepted = {method for method, r in answers.items() if r.status_code != 405}
        assert {method.upper() for method in schema["paths"][path]} <= accepted
        for method, r in answers.items():
            if r.status_code == 405:
                if method != "HEAD":  # an answer to HEAD has no body
                    assert_error(r, 405, "method_not_allowed")
                assert set(r.headers["allow"].split(", ")) == accepted, path
    assert (await client.put("/api/v1/games")).headers["allow"] == "GET, POST"


# --- Corrections item 9: the schema says what the server accepts --------------------------------------------


async def test_a_vacation_starts_at_a_date_and_time_string_not_a_number(api: Api, client: httpx.AsyncClient) -> None:
    ann = await api.player("ann")
    for starts_at in (0, 1767225600, "1767225600", True):
        r = await client.post("/api/v1/me/vacation", json={"days": 1, "starts_at": starts_at}, headers=ann.headers)
        assert_error(r, 422, "invalid_request")
    assert (await client.get("/api/v1/me/vacation", headers=ann.headers)).json()["days_used"] == 0
    r = await client.post("/api/v1/me/vacation", json={"days": 1, "starts_at": "2099-01-02T00:00:00Z"},
                          headers=ann.headers)
    assert_error(r, 422, "vacation_too_far")  # read as a date: refused for what it says, not for its type
    schema = (await client.get("/openapi.json")).json()["components"]["schemas"]["VacationIn"]
    assert {"type": "string", "format": "date-time"} in schema["properties"]["starts_at"]["anyOf"]


async def test_a_note_as_long_as_the_schema_allows_is_accepted_whatever_its_characters(
    api: Api, client: httpx.AsyncClient
) -> None:
    """A legal 10,000-character note of emoji was 413: escaped as JSON (`\\ud83e\\udd20`) it takes 120 kB."""
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    notes = f"/api/v1/games/{game['id']}/notes"
    schema = (await client.get("/openapi.json")).json()
    longest = schema["components"]["schemas"]["NotesIn"]["properties"]["text"]["maxLength"]
    text = "\N{FACE WITH COWBOY HAT}" * longest
    body = json.dumps({"text": text}).encode()  # ASCII, as most JSON encoders write it
    assert len(body) > 12 * longest
    r = await client.put(notes, content=body, headers={**ann.headers, "Content-Type": "application/json"})
    assert r.status_code == 200, r.text[:300]
    assert (await client.get(notes, headers=ann.headers)).json()["text"] == text
    longer = json.dumps({"text": text + "!"}).encode()
    r = await client.put(notes, content=longer, headers={**ann.headers, "Content-Type": "application/json"})
    assert_error(r, 422)
    assert "413" in schema["paths"]["/api/v1/games/{game_id}/notes"]["put"]["responses"]


async def test_the_forgotten_password_answer_is_as_documented(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    accepted = schema["paths"]["/api/v1/auth/password/forgot"]["post"]["responses"]["202"]
    r = await client.post("/api/v1/auth/password/forgot", json={"email": "nobody@example.com"})
    assert r.status_code == 202
    assert r.content == b"" and accepted.get("content", {}) == {}


async def test_the_schema_states_the_rules_on_texts_and_variants(client: httpx.AsyncClient) -> None:
    """Control characters are refused everywhere a name or text is read: the schema says so with a `pattern`
    (the stricter one of usernames kept), and the variants' rules across fields in their description."""
    schemas = (await client.get("/openapi.json")).json()["components"]["schemas"]
    name = schemas["CreateGameIn"]["properties"]["name"]
    assert re.fullmatch(name["pattern"], "Friday game, é 🤠")
    for control in ("\x00", "\n", "\t", "\u202e", "\u2028", "\u200b"):
        assert not re.fullmatch(name["pattern"], f"a{control}b"), repr(control)
    note = schemas["NotesIn"]["properties"]["text"]
    assert re.fullmatch(note["pattern"], "line one\r\nline two\n\tand a tab")
    assert not re.fullmatch(note["pattern"], "a\x00b") and not re.fullmatch(note["pattern"], "a\rb")
    assert schemas["RegisterIn"]["properties"]["username"]["pattern"] == r"^[A-Za-z0-9_.-]+$"
    players = schemas["CreateGameIn"]["properties"]["players"]["anyOf"][0]["items"]
    assert players["pattern"] == name["pattern"]
    variants = schemas["VariantsIn"]["description"]
    assert "`horses` and `kit_carson` need the `big_box` expansion" in variants
