"""Unexpected database errors are scrubbed before they reach a response or a log line."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from app.store.tables import Game
from app.web.app import scrubbed


async def test_database_errors_are_scrubbed_of_rows_and_parameters(app: Any) -> None:
    secret_seed = "9182736455463728" * 4  # PostgreSQL's DETAIL shows a bytea's first 30 bytes or so
    async with app.state.service.db.session() as session:
        with pytest.raises(IntegrityError) as failure:
            await session.execute(
                insert(Game).values(
                    name=None, seat_count=2, variants={}, seed=bytes.fromhex(secret_seed)
                )
            )
    assert secret_seed[:48] in str(failure.value)  # PostgreSQL's DETAIL quotes the failing row
    clean = str(scrubbed(failure.value))
    assert secret_seed[:16] not in clean and "23502" in clean
