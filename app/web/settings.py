"""Configuration from the environment (see README "Configuration").

One validated object, built once at start-up, so a typo in the environment fails loudly before the server
accepts a request, and a production server never runs with the well-known development secret.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEVELOPMENT_SECRET_KEY = "development-only-secret-key-change-me"


class Settings(BaseSettings):
    """Everything the server reads from the environment (variable names are the field names, upper case)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    environment: Literal["development", "test", "production"] = "development"
    database_url: str | None = None
    data_dir: Path = Path("var")
    secret_key: str = DEVELOPMENT_SECRET_KEY
    base_url: str = "http://127.0.0.1:8000"

    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = "Carson City <noreply@localhost>"
    smtp_starttls: bool = False
    # The mail worker and the clock check run inside every server (and in `python -m app worker`).
    background_jobs: bool = True
    mail_poll_seconds: float = 5.0
    clock_check_seconds: float = 60.0
    digest_hour_utc: int = Field(default=7, ge=0, le=23)

    admin_username: str | None = None
    admin_password: str | None = None

    migrate_on_start: bool = True
    token_max_age_hours: int = 24 * 30
    session_cookie_secure: bool = False
    max_body_bytes: int = 64 * 1024
    sse_ping_seconds: int = 15
    # "cheapest" makes argon2 fast enough for test suites that sign up many players; never in production.
    password_hashing: Literal["standard", "cheapest"] = "standard"

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.environment != "development" and self.secret_key == DEVELOPMENT_SECRET_KEY:
            raise ValueError("SECRET_KEY is the development default; set a long random SECRET_KEY outside development")
        if self.environment == "production" and self.password_hashing != "standard":
            raise ValueError("PASSWORD_HASHING=cheapest is for test suites only, never for production")
        return self
