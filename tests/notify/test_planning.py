"""The mail worker's planning step under a backlog (issue "One write path", speed): a busy server's worker shares
the process with the moves, so planning a batch costs a number of statements that grows with the games in it, not
with its changes, and mails that are already moot are settled at once with the outcome delivery would give them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from conftest import Api
from prometheus_client import REGISTRY
from sqlalchemy import event, func, select

from app.notify.worker import BUSY_BATCH, BUSY_GAP, WAKE_GAP, Notifier, RunResult, next_gap
from app.play.service import GameService
from app.store.tables import Game, Outbox
from tests.notify.conftest import SmtpServer, Table, drain, now, started


@contextmanager
def counted_statements(notifier: Notifier) -> Iterator[list[str]]:
    """The SQL statements the notifier's database runs inside the block."""
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engine = notifier.db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


async def _alternating_moves(table: Table, count: int) -> int:
    """Play until `count` moves handed the turn to the other seat (each a "your turn" to plan); returns the moves."""
    handovers = moves = 0
    while handovers < count:
        before = await table.to_act()
        await table.play(before[0], lambda options: options[0])
        moves += 1
        after = await table.to_act()
        handovers += any(seat not in before for seat in after)
    return moves


async def _planning_statements(table: Table, notifier: Notifier, handovers: int) -> tuple[int, dict[str, int]]:
    await _alternating_moves(table, handovers)
    with counted_statements(notifier) as statements:
        result = await notifier.plan_changes(now())
    return len(statements), result.outcomes


async def test_planning_a_backlog_costs_the_same_statements_for_few_changes_and_many(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    await drain(notifier)
    few, _ = await _planning_statements(table, notifier, 2)
    async with notifier.db.session() as session:
        mark = await session.scalar(select(func.max(Outbox.id)))
    many, outcomes = await _planning_statements(table, notifier, 12)
    assert few == many, (few, many)
    # Of the twelve turns handed over, those of the seat no longer awaited are moot at once; of the awaited seat's,
    # the newest is left to delivery and the others are throttled at once (delivery would send one, and find the
    # rest sent within the hour). The settled ones are counted, and only the newest is queued for delivery.
    assert outcomes == {"stale": 6, "throttled": 5}
    awaited = (await table.to_act())[0]
    async with notifier.db.session() as session:
        queued = (
            await session.execute(
                select(Outbox.payload["seat"].as_integer(), Outbox.seq, Outbox.outcome).where(
                    Outbox.id > mark,
                    Outbox.kind == "mail",
                    Outbox.payload["message"].astext == "your_turn",
                )
            )
        ).all()
        head = await session.scalar(select(Game.seq).where(Game.id == table.id))
    assert [(seat, seq, outcome) for seat, seq, outcome in queued] == [(awaited, head, None)]


async def test_a_moot_turn_is_settled_at_planning_with_the_outcome_delivery_gives_it(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    table, _, _ = await started(api, service, ["ann", "bob"], seed=5)
    await drain(notifier)
    smtp.inbox.clear()
    await _alternating_moves(table, 3)
    awaited = (await table.to_act())[0]
    outcomes = await drain(notifier)
    # Two turns of the awaited seat (one mail, the second within the hour), one of the other seat (moot).
    assert outcomes == {"stale": 1, "sent": 1, "throttled": 1}, outcomes
    assert len(smtp.inbox.mails) == 1
    assert len(smtp.inbox.to(f"{table.player(awaited).username}@example.com")) == 1


async def test_a_turn_within_the_hour_of_a_sent_one_is_throttled_at_planning(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    """A player away from a lively table is told of their turn once an hour (TURN_MAIL_INTERVAL): the turns in
    between are settled "throttled" when they are planned, as delivery would, so they cost no delivery of their
    own."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=5)
    await drain(notifier)
    smtp.inbox.clear()
    await _alternating_moves(table, 2)
    awaited = (await table.to_act())[0]
    assert await drain(notifier) == {"stale": 1, "sent": 1}
    await _alternating_moves(table, 2)
    assert (await table.to_act())[0] == awaited
    planned = await notifier.plan_changes(now())
    assert planned.outcomes == {"stale": 1, "throttled": 1}, planned.outcomes
    assert await drain(notifier) == {}
    assert len(smtp.inbox.mails) == 1
    assert len(smtp.inbox.to(f"{table.player(awaited).username}@example.com")) == 1


async def test_planned_changes_leave_no_row_to_revisit(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    """A planned change is gone from the outbox, and a mail to a player without a push device is not left to the
    push planner (it could make no push): nothing is read again for it."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    await _alternating_moves(table, 3)
    await notifier.plan_changes(now())
    async with notifier.db.session() as session:
        changes = await session.scalar(select(func.count()).where(Outbox.kind == "game_changed"))
        unplanned = await session.scalar(
            select(func.count()).where(~Outbox.push_planned, Outbox.kind.in_(("mail", "digest_item")))
        )
        queued = await session.scalar(select(func.count()).where(Outbox.kind == "mail", Outbox.sent_at.is_(None)))
    assert (changes, unplanned) == (0, 0)
    assert queued == 3  # the two players' "game started" and the awaited seat's newest turn


async def test_a_mail_settled_at_planning_is_counted_in_the_metrics(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    """`carson_outbox_mails_total` counts a mail settled when planned by the outcome delivery would have given it."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=5)
    await drain(notifier)

    def counted(outcome: str) -> float:
        return REGISTRY.get_sample_value("carson_outbox_mails_total", {"outcome": outcome}) or 0.0

    before = {outcome: counted(outcome) for outcome in ("stale", "throttled", "sent")}
    await _alternating_moves(table, 3)
    outcomes = await drain(notifier)
    assert outcomes == {"stale": 1, "sent": 1, "throttled": 1}, outcomes
    assert {outcome: counted(outcome) - before[outcome] for outcome in before} == outcomes


async def test_a_run_with_nothing_waiting_runs_none_of_its_steps(
    api: Api, service: GameService, notifier: Notifier, smtp: SmtpServer
) -> None:
    """A run that finds nothing (a quiet server's poll, a busy one's wake after another run took the work) costs
    the one statement that asks which steps have work, outside the session: no step's transaction is opened."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3)
    await drain(notifier)
    with counted_statements(notifier) as statements:
        result = await notifier.run_once(now())
    assert statements == [] and not result.found_work
    await _alternating_moves(table, 1)
    with counted_statements(notifier) as statements:
        result = await notifier.run_once(now())
    assert statements and result.found_work and result.changes >= 1


def test_woken_runs_come_further_apart_while_they_find_batches_and_at_once_after_a_quiet_one() -> None:
    gaps = [WAKE_GAP]
    for _ in range(5):
        gaps.append(next_gap(gaps[-1], found_a_batch=True))
    assert gaps == sorted(gaps) and gaps[1] > WAKE_GAP and gaps[-1] == BUSY_GAP <= 1.0
    assert next_gap(BUSY_GAP, found_a_batch=False) == WAKE_GAP


def test_a_single_change_is_no_batch_and_a_busy_servers_run_is() -> None:
    """A game's move now and then keeps the least gap, so its push goes at once; a run that takes a busy server's
    changes (BUSY_BATCH of them) widens it."""
    assert not RunResult(changes=1, planned=1, outcomes={"sent": 1}).found_a_batch
    assert not RunResult(changes=BUSY_BATCH - 1).found_a_batch
    assert RunResult(changes=BUSY_BATCH).found_a_batch
