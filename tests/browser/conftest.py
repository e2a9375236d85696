"""Browser tests: Playwright for Python driving Debian's Chromium headless against a live server.

Never `playwright install`: the tests use the system's Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH) and are
skipped, saying so, when there is none. The server is a real uvicorn in a thread of this process, on a free port,
serving the session's test database; every page's SSE stream is closed with its browser context before the
server stops, and the server's graceful shutdown is bounded, so nothing can hang on a stream.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
import uvicorn
from playwright.sync_api import Browser, sync_playwright

from app.main import create_app
from app.settings import Settings
from app.store.db import to_libpq_url
from tests.conftest import TABLES, TEST_SECRET, free_port

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).parent / "artifacts"
ADMIN = ("admin", "admin password 123")
PASSWORD = "correct horse battery"


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser(live: LiveServer) -> Iterator[Browser]:
    """Chromium for this module's tests; Playwright is started and stopped here, not for the whole session as
    pytest-playwright's own fixtures would: its sync API keeps an event loop registered in the main thread while
    it runs, which the async tests and migrations after this folder would trip over. (`live` comes first so the
    database is migrated before that loop exists.)"""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found: browser tests skipped (install Debian's `chromium` or set CHROMIUM_PATH)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, headless=True, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class LiveServer:
    url: str
    app: Any


@pytest.fixture(scope="module")
def live(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A uvicorn serving a fresh app on a free port, with an empty database and an admin account."""
    with psycopg.connect(to_libpq_url(database_url), autocommit=True) as conn:
        conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    settings = Settings(
        environment="test",
        database_url=database_url,
        data_dir=tmp_path_factory.mktemp("browser"),
        secret_key=TEST_SECRET,
        password_hashing="cheapest",
        migrate_on_start=False,
        sse_ping_seconds=1,
        lobby_refresh_seconds=1,
        admin_username=ADMIN[0],
        admin_password=ADMIN[1],
        _env_file=None,  # type: ignore[call-arg]
    )
    application = create_app(settings)
    config = uvicorn.Config(application, host="127.0.0.1", port=free_port(), log_level="warning",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="live-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the live server did not start")
        time.sleep(0.02)
    try:
        yield LiveServer(f"http://127.0.0.1:{config.port}", application)
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@pytest.fixture(scope="session")
def shots() -> Any:
    """save(page, name): a screenshot under tests/browser/artifacts/ (ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)

    def save(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{re.sub(r'[^a-z0-9_-]+', '-', name.lower())}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save
