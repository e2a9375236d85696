"""Configuration from the environment (see README "Configuration").

One validated object, built once at start-up, so a typo in the environment fails loudly before the server
accepts a request. There is no default signing key anywhere: outside development SECRET_KEY is required, and a
development server without one makes a random key on first use and keeps it in DATA_DIR, so nobody can mint
tokens for it from a key printed in the source.
"""

from __future__ import annotations

import base64
import contextlib
import os
import secrets
from collections.abc import Callable
from email.utils import parseaddr
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from pydantic import Field, PrivateAttr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

KEY_FILE = "secret_key"
VAPID_KEY_FILE = "vapid_private_key"


class Settings(BaseSettings):
    """Everything the server reads from the environment (variable names are the field names, upper case)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    environment: Literal["development", "test", "production"] = "development"
    database_url: str | None = None
    # PgBouncer in transaction pooling (docs/operations.md): DATABASE_URL names the pooler, LISTEN_DATABASE_URL
    # the PostgreSQL server itself for the bus's LISTEN (default: DATABASE_URL), and DATABASE_PREPARED_STATEMENTS
    # false turns psycopg's prepared statements off, which a pooler before PgBouncer 1.21 cannot carry.
    listen_database_url: str | None = None
    database_prepared_statements: bool = True
    data_dir: Path = Path("var")
    secret_key: str = ""  # empty: development keeps a generated key in DATA_DIR (see `signing_key`)
    base_url: str = "http://127.0.0.1:8000"

    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = "Carson City <noreply@localhost>"
    smtp_starttls: bool = False
    # Web push (RFC 8292): the VAPID private key as base64url of its 32 bytes, or PEM; empty: development and tests
    # keep one made on first use in DATA_DIR, production sends no push. VAPID_SUBJECT is the contact push services
    # see (a mailto: or https: URL; empty: the address of SMTP_FROM).
    vapid_private_key: str = ""
    vapid_subject: str = ""
    # Push endpoints must be https URLs on public addresses; true lifts that for development and tests only.
    push_allow_private_endpoints: bool = False
    # The mail worker, the clock check and the bots run inside every server (and in `python -m app worker`).
    background_jobs: bool = True
    mail_poll_seconds: float = 5.0
    clock_check_seconds: float = 60.0
    bot_poll_seconds: float = Field(default=1.0, gt=0)  # how soon the site's bot notices it is awaited
    # The hard bot's budget per move (issue 29: at most 2 s of one core): CPU seconds and search iterations (one
    # playout each), whichever ends first, in this many worker processes of each server (started on the first hard
    # move; at most the cores but one, at least one: `app.play.thinking.hard_workers`).
    bot_hard_seconds: float = Field(default=2.0, gt=0, le=10)
    bot_hard_playouts: int = Field(default=50, ge=1)
    bot_hard_processes: int = Field(default=1, ge=1, le=8)
    digest_hour_utc: int = Field(default=7, ge=0, le=23)

    admin_username: str | None = None
    admin_password: str | None = None
    # Every signed-in player may open a table (and invite to it); off for clubs where only admins create games.
    players_create_games: bool = True

    migrate_on_start: bool = True
    # GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` when set (anyone when unset: keep the
    # path off the public proxy then). LOG_FORMAT=json writes one JSON object a line, with each request's id.
    metrics_token: str | None = None
    log_format: Literal["text", "json"] = "text"
    token_max_age_hours: int = 24 * 30
    session_max_age_hours: int = 24 * 14
    session_cookie_secure: bool = False
    # Failed sign-ins allowed within one window per account and address (then that pair waits), per account (then
    # its sign-ins slow down to one per SIGN_IN_SLOWDOWN_SECONDS) and per address (see app.play.sign_in_limits).
    sign_in_failures_per_account_and_address: int = Field(default=10, ge=1)
    sign_in_failures_per_account: int = Field(default=20, ge=1)
    sign_in_failures_per_address: int = Field(default=100, ge=1)
    sign_in_window_minutes: int = Field(default=15, ge=1)
    sign_in_slowdown_seconds: int = Field(default=5, ge=1)
    # The proxies whose X-Forwarded-For (and -Proto) name the client: addresses or networks, comma-separated, as
    # uvicorn's FORWARDED_ALLOW_IPS; empty, nobody's (no proxy in front), "*" anybody's (never on an open port).
    forwarded_allow_ips: str = ""
    # How long uvicorn keeps an idle keep-alive connection open: longer than any client or proxy in front keeps
    # one, so that the server never closes a connection just as a client reuses it.
    keep_alive_seconds: int = Field(default=75, ge=1)
    # Accounts that may be created from one client address within an hour (each sign-up hashes a password).
    sign_ups_per_address_per_hour: int = Field(default=30, ge=1)
    # Tables a player may open, and invitations they may send, within a day, per account and per client address
    # (each invitation mails someone the inviter names; see app.play.hosting_limits). Admins are not counted.
    tables_per_day: int = Field(default=20, ge=1)
    tables_per_address_per_day: int = Field(default=60, ge=1)
    invitations_per_day: int = Field(default=50, ge=1)
    invitations_per_address_per_day: int = Field(default=150, ge=1)
    max_body_bytes: int = 64 * 1024
    sse_ping_seconds: int = 15
    # How often each instance reads the heads of the games its live streams watch, to hand a change whose notice
    # was never sent (its instance stopped first) to the streams behind it: the longest a stream can miss one.
    live_catch_up_seconds: float = Field(default=5.0, gt=0)
    lobby_refresh_seconds: int = Field(default=20, ge=1)  # how often an open lobby asks whether anything changed
    # "cheapest" makes argon2 fast enough for test suites that sign up many players; never in production.
    password_hashing: Literal["standard", "cheapest"] = "standard"

    _stored_key: str | None = PrivateAttr(default=None)
    _stored_vapid_key: str | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.environment != "development" and not self.secret_key:
            raise ValueError("SECRET_KEY is required outside development; set a long random SECRET_KEY")
        if self.environment == "production" and self.password_hashing != "standard":
            raise ValueError("PASSWORD_HASHING=cheapest is for test suites only, never for production")
        if self.environment == "production" and self.push_allow_private_endpoints:
            raise ValueError("PUSH_ALLOW_PRIVATE_ENDPOINTS is for development and tests only, never for production")
        return self

    @property
    def cookie_secure(self) -> bool:
        """Send the session cookie over HTTPS only: when asked to, and whenever the site's address is https."""
        return self.session_cookie_secure or urlsplit(self.base_url).scheme.lower() == "https"

    def signing_key(self) -> str:
        """The key that signs tokens, cookies and mail links: SECRET_KEY, or (development only) the random key
        kept in DATA_DIR, made on first use. Read lazily, so commands that sign nothing (migrate, create-admin)
        write no file."""
        if self.secret_key:
            return self.secret_key
        if self._stored_key is None:
            self._stored_key = stored_key(self.data_dir / KEY_FILE)
        return self._stored_key

    def vapid_key(self) -> str | None:
        """The VAPID private key push messages are signed with: VAPID_PRIVATE_KEY, or outside production the key
        kept in DATA_DIR (made on first use, like the signing key); None in production without the setting (no
        push)."""
        if self.vapid_private_key:
            return self.vapid_private_key
        if self.environment == "production":
            return None
        if self._stored_vapid_key is None:
            self._stored_vapid_key = stored_key(self.data_dir / VAPID_KEY_FILE, make=new_vapid_key)
        return self._stored_vapid_key

    def vapid_contact(self) -> str:
        """The `sub` of the VAPID claims: VAPID_SUBJECT, or a mailto: URL of SMTP_FROM's address."""
        return self.vapid_subject or f"mailto:{parseaddr(self.smtp_from)[1] or 'noreply@localhost'}"


def new_vapid_key() -> str:
    """A new P-256 private key as base64url of its 32 bytes (the form VAPID_PRIVATE_KEY takes)."""
    number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return base64.urlsafe_b64encode(number.to_bytes(32, "big")).rstrip(b"=").decode()


def stored_key(path: Path, make: Callable[[], str] = lambda: secrets.token_urlsafe(48)) -> str:
    """The key in `path`, or a new one (`make`: random text) written there first.

    The file is created with mode 0600 from its first byte (never readable by others, not even for a moment) and
    published by a hard link, which fails instead of overwriting: when several processes start at once, the
    first link wins and all of them read the same key.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as out:
                out.write(make())
                out.flush()
                os.fsync(out.fileno())
            with contextlib.suppress(FileExistsError):
                os.link(draft, path)
        finally:
            draft.unlink()
    key = path.read_text().strip()
    if not key:
        raise ValueError(f"{path} is empty; delete it (a new key is made) or set SECRET_KEY")
    return key
