"""The headers every response carries (`app.web.app.ResponseHeaders`): Server-Timing, then the hardening headers
and, but on the API's documentation pages, the Content-Security-Policy."""

from __future__ import annotations

import httpx


async def test_an_answer_carries_its_timing_then_the_hardening_headers(client: httpx.AsyncClient) -> None:
    r = await client.get("/healthz")
    names = [name for name, _ in r.headers.multi_items()]
    wanted = ["server-timing", "x-content-type-options", "referrer-policy", "content-security-policy"]
    assert [name for name in names if name in wanted] == wanted
    assert r.headers["server-timing"].startswith("app;dur=")
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "same-origin"
    assert "script-src 'self'" in r.headers["content-security-policy"]


async def test_the_documentation_pages_have_no_policy_but_the_rest(client: httpx.AsyncClient) -> None:
    r = await client.get("/docs")
    assert "content-security-policy" not in r.headers
    assert r.headers["server-timing"].startswith("app;dur=") and r.headers["x-content-type-options"] == "nosniff"
