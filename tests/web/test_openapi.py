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
