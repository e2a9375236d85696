"""Running it as a service (issue 30 item 1, API.md "Metrics"): `/metrics` in Prometheus' text format behind
METRICS_TOKEN, with requests by route template and status, moves by kind, live streams, the outbox, the bot's
thinking time and the database pool; a request id in every answer's headers (errors too) and in the JSON log
line of each request; `/healthz` (alive) apart from `/readyz` (database and migrations ready)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, get_args

import httpx
import psycopg
import pytest
from conftest import Api, live_server, settings_for
from httpx_sse import aconnect_sse
from prometheus_client.parser import text_string_to_metric_families

from app.main import create_app
from app.play.commands import KINDS, Command
from app.play.readiness import Readiness
from app.serving import JsonLines
from app.settings import Settings
from app.store.db import to_libpq_url

TOKEN = "metrics-token-for-the-tests"


@pytest.fixture
def settings(clean_db: str, tmp_path: Path) -> Settings:
    return settings_for(clean_db, tmp_path, metrics_token=TOKEN, bot_poll_seconds=0.2, sse_ping_seconds=1)


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a Prometheus text answer, by name and labels."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def scrape(client: httpx.AsyncClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    r = await client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    return samples(r.text)


def value(found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def test_every_command_has_its_kind_of_move() -> None:
    assert set(KINDS) == set(get_args(Command))


async def test_metrics_need_the_token_and_count_requests_by_route_template_and_moves_by_kind(
    api: Api, client: httpx.AsyncClient, clean_db: str
) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
        r = await client.get("/metrics", headers=headers)
        assert r.status_code == 401 and r.json()["detail"]["code"] == "metrics_token_required"
        assert r.headers["www-authenticate"] == "Bearer"
    before = await scrape(client)
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    seated = api.seated(game, [ann, bob])
    mover = seated[game["to_act"][0]]
    moves_route = "/api/v1/games/{game_id}/moves"
    options = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=mover.headers)).json()
    r = await client.post(f"/api/v1/games/{game['id']}/moves", headers=mover.headers,
                          json={"seq": options["seq"], "move": options["moves"][0]})
    assert r.status_code == 200, r.text
    r = await client.post(f"/api/v1/games/{game['id']}/moves", headers=mover.headers,
                          json={"seq": options["seq"], "move": options["moves"][0]})
    assert r.status_code in (403, 409)
    stale = r.status_code
    await client.get("/no/such/page")
    after = await scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("carson_http_requests_total", route=moves_route, method="POST", status="200") == 1
    assert grew("carson_http_requests_total", route=moves_route, method="POST", status=str(stale)) == 1
    assert grew("carson_http_requests_total", route=moves_route, method="GET", status="200") == 1
    assert grew("carson_http_requests_total", route="unmatched", method="GET", status="404") == 1
    assert not any(dict(labels).get("route", "").startswith(f"/api/v1/games/{game['id']}") for _, labels in after)
    assert grew("carson_http_request_duration_seconds_count", route=moves_route, method="POST") == 2
    assert grew("carson_moves_total", kind="player") == 1
    # The outbox's backlog is read from the database at each scrape: counted just before and just after one, the
    # gauge lies between the two counts (the mail worker may plan or settle mails meanwhile).
    query = "SELECT count(*) FROM outbox WHERE sent_at IS NULL"
    with psycopg.connect(to_libpq_url(clean_db), autocommit=True) as conn:
        pending_before = conn.execute(query).fetchone()
        scraped = await scrape(client)
        pending_after = conn.execute(query).fetchone()
    assert pending_before is not None and pending_after is not None
    low, high = sorted((pending_before[0], pending_after[0]))
    assert low <= value(scraped, "carson_outbox_pending") <= high
    assert ("carson_outbox_oldest_pending_seconds", frozenset()) in after
    assert value(after, "carson_db_pool_connections", state="size") == 10
    assert ("carson_db_pool_connections", frozenset({("state", "in_use")})) in after


async def test_the_bots_thinking_time_and_moves_are_measured(api: Api, client: httpx.AsyncClient) -> None:
    before = await scrape(client)
    ann = await api.player("ann")
    r = await client.post("/api/v1/games", json={"name": "Ann vs the bot", "seats": 2, "bots": 1},
                          headers=ann.headers)
    assert r.status_code == 201, r.text
    game = r.json()
    deadline = time.monotonic() + 10
    while True:
        options = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=ann.headers)).json()
        if options["moves"]:  # ann's turn first: the bot's comes after it
            await client.post(f"/api/v1/games/{game['id']}/moves", headers=ann.headers,
                              json={"seq": options["seq"], "move": options["moves"][0]})
        after = await scrape(client)
        thought = value(after, "carson_bot_thinking_seconds_count", outcome="move") - value(
            before, "carson_bot_thinking_seconds_count", outcome="move"
        )
        bot_moves = value(after, "carson_moves_total", kind="bot") - value(before, "carson_moves_total", kind="bot")
        if thought >= 1 and bot_moves >= 1:
            break
        assert time.monotonic() < deadline, "the bot's move was not measured"
        await asyncio.sleep(0.1)
    assert value(after, "carson_bot_thinking_seconds_sum", outcome="move") > 0


async def test_every_answer_carries_its_request_id_errors_and_crashes_included(
    app: Any, client: httpx.AsyncClient
) -> None:
    ok = await client.get("/healthz")
    missing = await client.get("/api/v1/games/999999", headers={"X-Request-ID": "from-the-proxy-1234"})
    refused = await client.post("/api/v1/auth/register", json={"username": ""})
    assert ok.status_code == 200 and len(ok.headers["x-request-id"]) == 16
    assert missing.status_code in (401, 404) and missing.headers["x-request-id"] == "from-the-proxy-1234"
    assert refused.status_code == 422 and refused.headers["x-request-id"] not in (ok.headers["x-request-id"], "")
    forged = await client.get("/healthz", headers={"X-Request-ID": "no\tgood"})
    assert forged.headers["x-request-id"] != "no\tgood" and len(forged.headers["x-request-id"]) == 16

    async def crash() -> None:
        raise RuntimeError("a bug")

    app.router.add_api_route("/crash-for-the-test", crash)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as raw:
        crashed = await raw.get("/crash-for-the-test", headers={"X-Request-ID": "crash-request-42"})
    assert crashed.status_code == 500 and crashed.json()["detail"]["code"] == "internal_error"
    assert crashed.headers["x-request-id"] == "crash-request-42"


async def test_the_json_log_has_one_line_per_request_with_its_id(client: httpx.AsyncClient) -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonLines())
    access = logging.getLogger("carson.access")
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    try:
        r = await client.get("/api/v1/games/7", headers={"X-Request-ID": "trace-me-0001"})
    finally:
        access.removeHandler(handler)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 1
    line = lines[0]
    assert line["request_id"] == "trace-me-0001" == r.headers["x-request-id"]
    assert line["route"] == "/api/v1/games/{game_id}" and line["path"] == "/api/v1/games/7"
    assert line["status"] == r.status_code and line["method"] == "GET" and line["duration_ms"] >= 0
    assert line["level"] == "info" and line["logger"] == "carson.access" and line["time"].endswith("+00:00")


async def test_healthz_is_alive_and_readyz_checks_database_and_migrations(app: Any, client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    r = await client.get("/readyz")
    assert r.status_code == 200 and r.json() == {"status": "ready"}
    ready: Readiness = app.state.readiness
    app.state.readiness = Readiness(ready.db, "9999")  # code newer than the schema
    try:
        r = await client.get("/readyz")
        assert r.status_code == 503 and r.json()["detail"]["code"] == "not_ready"
        assert "not at the migration 9999" in r.json()["detail"]["message"]
        assert (await client.get("/healthz")).status_code == 200, "alive all the same"
    finally:
        app.state.readiness = ready


async def test_readyz_says_not_ready_while_the_database_is_away(settings: Settings) -> None:
    away = settings.model_copy(update={"database_url": "postgresql://nobody@127.0.0.1:1/none"})
    application = create_app(away)
    application.state.readiness = Readiness(_unreachable_database(away), "0013")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://t") as c:
        r = await c.get("/readyz")
        assert r.status_code == 503 and "does not answer" in r.json()["detail"]["message"]
        assert (await c.get("/healthz")).status_code == 200


def _unreachable_database(settings: Settings) -> Any:
    from app.store.db import open_database

    return open_database(settings.database_url, settings.data_dir)


async def test_the_live_streams_gauge_follows_open_streams(settings: Settings) -> None:
    settings = settings.model_copy(update={"admin_username": "boss", "admin_password": "boss password"})
    async with live_server(settings) as (url, _), httpx.AsyncClient(base_url=url, timeout=10) as client:
        api = Api(client, None)
        boss = {"Authorization": (await api.token("boss", "boss password"))["Authorization"]}
        ann, bob = await api.player("ann"), await api.player("bob")
        r = await client.post("/api/v1/games", json={"name": "Live", "seats": 2, "players": ["ann", "bob"]},
                              headers=boss)
        gid = r.json()["id"]
        base = value(await scrape(client), "carson_live_streams")
        async with aconnect_sse(client, "GET", f"/api/v1/games/{gid}/stream", headers=ann.headers) as source:
            events: AsyncIterator[Any] = source.aiter_sse()
            await anext(events)
            assert value(await scrape(client), "carson_live_streams") == base + 1
        for _ in range(100):
            if value(await scrape(client), "carson_live_streams") == base:
                break
            await asyncio.sleep(0.05)
        assert value(await scrape(client), "carson_live_streams") == base
        assert bob.username == "bob"


COUNT_A_MOVE = "from app import metrics; metrics.MOVES.labels('player').inc(); metrics.LIVE_STREAMS.inc()"
SHOW = "from app import metrics; import sys; sys.stdout.write(metrics.exposition().decode())"


def test_worker_processes_add_up_under_prometheus_multiproc_dir(tmp_path: Path) -> None:
    """prometheus-client's multiprocess mode: each worker process counts in files of the directory, and
    `/metrics` of any of them adds every process's counts up."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    for _ in range(2):
        subprocess.run([sys.executable, "-c", COUNT_A_MOVE], env=env, check=True, timeout=60)
    shown = subprocess.run([sys.executable, "-c", SHOW], env=env, check=True, timeout=60, capture_output=True,
                           text=True).stdout
    found = samples(shown)
    assert value(found, "carson_moves_total", kind="player") == 2
