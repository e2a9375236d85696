"""The OpenAPI schema documents every endpoint of API.md, with the shared error shape."""

from __future__ import annotations

import httpx

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
