"""Settings refuse unsafe production configurations."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.settings import Settings


@pytest.mark.parametrize("environment", ["production", "test"])
def test_a_missing_secret_is_refused_outside_development(environment: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(environment=environment, _env_file=None)  # type: ignore[call-arg, arg-type]


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", "a long random production secret")
    monkeypatch.setenv("DATABASE_URL", "postgresql://app:app@db:5432/app")
    monkeypatch.setenv("SMTP_PORT", "1025")
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (s.database_url, s.smtp_port, s.environment) == (
        "postgresql://app:app@db:5432/app",
        1025,
        "production",
    )


def test_cheap_password_hashing_is_refused_in_production() -> None:
    with pytest.raises(ValidationError, match="PASSWORD_HASHING"):
        Settings(  # type: ignore[call-arg]
            environment="production", secret_key="s" * 40, password_hashing="cheapest", _env_file=None
        )
