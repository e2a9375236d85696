"""Apply the Alembic migrations: at server start-up and from `python -m app migrate`."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Config:
    """An Alembic config for `url` that leaves the server's logging configuration alone."""
    cfg = Config(str(PROJECT_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    cfg.attributes["url"] = url
    cfg.attributes["configure_logger"] = False
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at `url` to `revision`. Blocking: from async code use `asyncio.to_thread`."""
    command.upgrade(alembic_config(url), revision)


def head_revision() -> str:
    """The migration the code expects the database at (Alembic's single head)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config("")).get_current_head()
    assert head is not None, "the migrations have one head"
    return head


def downgrade(url: str, revision: str) -> None:
    """Step the database at `url` back to `revision` (tests check that every migration reverses)."""
    command.downgrade(alembic_config(url), revision)
