"""The audit of every stored game (`python -m app audit`): is each log whole, and still what the rules make of it?

A backup restored somewhere, a disk that lost a page, a hand-made UPDATE: the log is the games' only truth, so
the audit reads it back from the database and checks, game by game, that its events are numbered 1, 2, 3 …
without a gap up to the head the `games` row names; that the rules core, deciding every move again from the
game's seed, reproduces every event (`app.rules.audit`: each die, draw and shuffle included); that the state so
reached is the head's (status and awaited seats); and, for a finished game, that the seed hashes to the
commitment the game published. Nothing is written.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from app.play.record import status_of
from app.rules import GameConfig, to_act
from app.rules.audit import audit
from app.rules.fairness import SEED_BYTES, commitment, seed_number
from app.store.db import Database
from app.store.event_store import StoredEvent, load
from app.store.tables import Game


@dataclass(frozen=True, slots=True)
class GameAudit:
    """What the audit found in one game: nothing when it holds."""

    game_id: int
    name: str
    events: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class _Head:
    game_id: int
    name: str
    status: str
    seq: int
    to_act: tuple[int, ...]
    seat_count: int
    variants: dict[str, Any]
    seed: bytes
    seed_commitment: str


async def audit_games(db: Database) -> AsyncIterator[GameAudit]:
    """Audit every started game, one at a time in id order (a game's log is read and checked before the next is
    read, so memory holds one log at a time)."""
    async with db.reading() as session:
        rows = (
            await session.execute(
                select(
                    Game.id, Game.name, Game.status, Game.seq, Game.to_act, Game.seat_count, Game.variants,
                    Game.seed, Game.seed_commitment,
                )
                .where(Game.status != "open")
                .order_by(Game.id)
            )
        ).all()
    for row in rows:
        head = _Head(row[0], row[1], row[2], row[3], tuple(row[4] or ()), row[5], dict(row[6]), bytes(row[7]), row[8])
        async with db.reading() as session:
            stored = await load(session, head.game_id)
        yield GameAudit(head.game_id, head.name, len(stored), tuple(check_game(head, stored)))


def check_game(head: _Head, stored: Sequence[StoredEvent]) -> list[str]:
    """The problems of one game's log against its head and the rules, in words; empty when it holds."""
    numbers = [e.seq for e in stored]
    expected = list(range(1, len(stored) + 1))
    if numbers != expected:
        first = next(i for i, (n, e) in enumerate(zip(numbers, expected, strict=True)) if n != e)
        return [f"the log is not numbered without gaps: event {expected[first]} is missing (found {numbers[first]})"]
    problems = []
    if head.seq != len(stored):
        problems.append(f"the head says seq {head.seq}, the log ends at {len(stored)}")
    if len(head.seed) != SEED_BYTES:
        return [*problems, f"the seed has {len(head.seed)} bytes, not {SEED_BYTES}"]
    if head.status == "finished" and commitment(head.seed) != head.seed_commitment:
        problems.append("the seed does not hash to the commitment the game published")
    config = GameConfig.from_json(head.seat_count, head.variants)
    result = audit(config, seed_number(head.seed), [e.event for e in stored])
    if result.discrepancy is not None:
        found = result.discrepancy
        problems.append(f"event {found.seq} is not what the rules make of the seed: {found.reason}")
        return problems
    if result.state is not None:
        status, awaited = status_of(result.state), tuple(to_act(result.state))
        if (status, awaited) != (head.status, head.to_act):
            problems.append(
                f"the head says {head.status}, awaiting {list(head.to_act)}; the log replays to {status}, "
                f"awaiting {list(awaited)}"
            )
    return problems
