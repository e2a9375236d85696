"""The signing key (hardening issue, item 1): no constant key anywhere; a development server without SECRET_KEY
makes a random key once, keeps it in DATA_DIR (mode 0600) and uses it again on every later start."""

from __future__ import annotations

import base64
import contextlib
import json
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from support import assert_error

from app.main import create_app
from app.settings import KEY_FILE, VAPID_KEY_FILE, Settings

# The constant that development servers used to sign with: anyone could read it in the source.
OLD_CONSTANT = "development-only-secret-key-change-me"
PASSWORD = "long enough password"


def development(database_url: str, data_dir: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        environment="development",
        secret_key="",
        database_url=database_url,
        data_dir=data_dir,
        password_hashing="cheapest",
        migrate_on_start=False,
        background_jobs=False,
        _env_file=None,
    )


@contextlib.asynccontextmanager
async def started(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """One start of the server: a fresh application with its lifespan, and a client for it."""
    app = create_app(settings)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client,
    ):
        yield client


async def signed_up(client: httpx.AsyncClient) -> str:
    r = await client.post("/api/v1/auth/register",
                          json={"username": "ann", "email": "ann@example.com", "password": PASSWORD})
    assert r.status_code == 201, r.text
    r = await client.post("/api/v1/auth/token", data={"username": "ann", "password": PASSWORD})
    assert r.status_code == 200, r.text
    token: str = r.json()["access_token"]
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_development_key_is_kept_in_data_dir_and_reused_on_the_next_start(
    clean_db: str, tmp_path: Path
) -> None:
    async with started(development(clean_db, tmp_path / "one")) as first:
        token = await signed_up(first)
    async with started(development(clean_db, tmp_path / "one")) as again:
        r = await again.get("/api/v1/auth/me", headers=bearer(token))
        assert r.status_code == 200, r.text
    key_file = tmp_path / "one" / KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    # The web push key (issue 28) is kept beside it, the same way; no draft of either left behind.
    assert sorted(p.name for p in key_file.parent.iterdir()) == sorted([KEY_FILE, VAPID_KEY_FILE])
    assert stat.S_IMODE((key_file.parent / VAPID_KEY_FILE).stat().st_mode) == 0o600


async def test_another_data_dir_gets_another_key(clean_db: str, tmp_path: Path) -> None:
    async with started(development(clean_db, tmp_path / "one")) as first:
        token = await signed_up(first)
    async with started(development(clean_db, tmp_path / "two")) as other:
        assert_error(await other.get("/api/v1/auth/me", headers=bearer(token)), 401, "invalid_token")
    assert (tmp_path / "one" / KEY_FILE).read_text() != (tmp_path / "two" / KEY_FILE).read_text()


def _payload(token: str, key: str) -> Any:
    """What a genuine token carries (read with the key that signed it)."""
    return URLSafeTimedSerializer(key, salt="api-access-token").loads(token)


def _cookie(payload: dict[str, Any], key: str) -> str:
    """A session cookie as Starlette's SessionMiddleware writes it, signed with `key`."""
    data = base64.b64encode(json.dumps(payload).encode())
    return TimestampSigner(key).sign(data).decode()


async def test_credentials_signed_with_the_old_constant_are_refused(clean_db: str, tmp_path: Path) -> None:
    settings = development(clean_db, tmp_path)
    async with started(settings) as client:
        token = await signed_up(client)
        payload = _payload(token, settings.signing_key())
        forged = URLSafeTimedSerializer(OLD_CONSTANT, salt="api-access-token").dumps(payload)
        assert_error(await client.get("/api/v1/auth/me", headers=bearer(forged)), 401, "invalid_token")

        r = await client.post("/api/v1/auth/login", data={"username": "ann", "password": PASSWORD})
        assert r.status_code == 200, r.text
        value = client.cookies["carson_session"]
        session = json.loads(base64.b64decode(value.split(".")[0]))
        client.cookies.clear()
        client.cookies["carson_session"] = _cookie(session, OLD_CONSTANT)
        assert_error(await client.get("/api/v1/auth/me"), 401, "not_signed_in")
        # The same cookie signed with the server's own key is accepted: only the key made the difference.
        client.cookies["carson_session"] = _cookie(session, settings.signing_key())
        assert (await client.get("/api/v1/auth/me")).status_code == 200


def test_the_key_file_is_created_once_with_mode_0600(tmp_path: Path) -> None:
    first = development("postgresql://unused", tmp_path).signing_key()
    again = development("postgresql://unused", tmp_path).signing_key()
    assert first == again and len(first) >= 40
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
