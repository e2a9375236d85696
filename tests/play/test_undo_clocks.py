"""Undo and the server's work around a move (decision D86; `../shared/API.md` "Undo"): a move made by the clock
is not the player's to take back; an undo restarts the undoing seat's clock, stops the other's, and queues no
mail."""

from __future__ import annotations

from datetime import timedelta

import pytest
from conftest import Api
from sqlalchemy import select

from app.play.commands import TimeOut, Undo
from app.play.errors import Conflict
from app.play.service import GameService
from app.store.tables import Outbox
from tests.notify.conftest import Table, account, started

HOURS = 24


async def _deadlines(service: GameService, table: Table) -> dict[int, object]:
    return {s.seat: s.deadline for s in (await service.summary(table.id)).seats if s.seat is not None}


async def test_a_move_made_by_the_clock_cannot_be_taken_back(api: Api, service: GameService) -> None:
    """D84/D86: the clock's move (a timeout) is the server's, not the player's: 409 `undo_not_allowed`."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=HOURS)
    (seat,) = await table.to_act()
    later = (await _deadlines(service, table))[seat] + timedelta(minutes=1)  # type: ignore[operator]
    assert await service.apply(TimeOut(table.id, seat, later)) is not None
    seq = (await service.view(account(table.player(seat)), table.id))["seq"]
    with pytest.raises(Conflict) as refused:
        await service.apply(Undo(table.player(seat).id, table.id, seq))
    assert refused.value.code == "undo_not_allowed"


async def test_an_undo_restarts_the_movers_clock_and_queues_no_mail(api: Api, service: GameService) -> None:
    """D86: after the undo the mover is awaited again with a fresh clock, the seat awaited after the move has
    none, and no outbox row (no "your turn" mail) is written for the undo."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=HOURS)
    (seat,) = await table.to_act()
    seq = await table.play(seat, lambda moves: moves[0])  # a starting parcel: nothing drawn
    (other,) = await table.to_act()
    assert other != seat
    moved = await _deadlines(service, table)
    assert moved[seat] is None and moved[other] is not None
    applied = await service.apply(Undo(table.player(seat).id, table.id, seq))
    assert await table.to_act() == (seat,)
    undone = await _deadlines(service, table)
    assert undone[other] is None and undone[seat] is not None
    async with service.db.autocommit() as session:
        rows = (await session.execute(select(Outbox.kind).where(
            Outbox.game_id == table.id, Outbox.seq == (await service.summary(table.id)).head))).all()
    assert rows == [] and applied.seq == seq + 1
