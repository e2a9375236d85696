"""Pushes through the outbox, beside the mails and like them: planned once, sent with retries, never blocking.

1. **Plan.** Every mail row of a kind a player can have pushed (`messages.KINDS`) is looked at once
   (`outbox.push_planned`), whatever becomes of the mail itself (its kind may be off by mail and on by push): for
   each of the recipient's devices, if they want that kind pushed, one `push` row naming the subscription. A mail
   already settled stale (the decision is no longer awaited) makes none. The open game page does not hold a push
   back: a background tab keeps the page's stream open, and its player would miss the turn. The mail planner
   marks the game mails of recipients without a device as looked at already (`with_devices`).
2. **Deliver.** Due push rows are claimed in one short transaction (their next attempt moved a lease ahead, so a
   crashed worker's rows come back), then prepared (the recipient's choice again, staleness, the words from the
   recipient's view, how many games await them), sent concurrently, and settled in one transaction: sent, `gone`
   (404/410: the subscription is deleted), a retry with the mails' back-off, or failed. One slow or broken push
   service delays no other notice.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.notify.messages import ABOUT_AN_AWAITED_DECISION, KINDS, Message, Recipient, default_push
from app.notify.push_notices import STACKED, TTL, URGENCY, notice, topic
from app.notify.push_sender import Delivery, PushSender, Subscription
from app.store.db import Database, end_unwritten
from app.store.tables import Game, Outbox, PushPreference, PushSubscription, Seat, User

log = logging.getLogger(__name__)

Compose = Callable[[AsyncSession, Outbox, Recipient, str], Awaitable[Message]]
IsStale = Callable[[AsyncSession, Outbox], Awaitable[bool]]
NOT_PUSHED = frozenset({"stale", "no_recipient"})  # mail outcomes that make no push
LEASE = timedelta(minutes=2)  # a claimed row comes back after this if its worker died while sending
CONCURRENT_SENDS = 16


def may_push(message: object, outcome: str | None) -> bool:
    """Whether a mail row of `message` settled with `outcome` (None: not yet) can make pushes for a recipient
    with devices: a kind players can have pushed, not settled stale."""
    return message in KINDS and outcome not in NOT_PUSHED


async def with_devices(session: AsyncSession, users: set[int]) -> set[int]:
    """Those of `users` with at least one push device, in one query: the mail planner marks the mails of the
    others as looked at for pushes (they can make none), so that the push planner never visits them."""
    if not users:
        return set()
    found = await session.scalars(
        select(PushSubscription.user_id).where(PushSubscription.user_id.in_(users)).distinct()
    )
    return set(found.all())


@dataclass(frozen=True, slots=True)
class Prepared:
    """A claimed push row ready to send, or settled before sending (`outcome`)."""

    row_id: int
    attempts: int
    subscription: Subscription | None = None
    data: bytes = b""
    topic: str = ""
    ttl: int = 0
    urgency: str = "normal"
    outcome: str | None = None
    detail: str = ""


class PushOutbox:
    """Plans and delivers the `push` rows of the outbox. `compose` and `is_stale` are the mail worker's: a push
    says what the mail says, and goes stale when the mail would."""

    def __init__(
        self,
        db: Database,
        sender: PushSender,
        base_url: str,
        compose: Compose,
        is_stale: IsStale,
        retry_delay: Callable[[int], timedelta],
        max_attempts: int,
    ) -> None:
        self.db = db
        self.sender = sender
        self.base_url = base_url
        self.compose = compose
        self.is_stale = is_stale
        self.retry_delay = retry_delay
        self.max_attempts = max_attempts

    # --- 1. plan --------------------------------------------------------------------------------------------

    async def plan(self, now: datetime, batch: int = 200) -> int:
        """Turn the mail rows not yet looked at into push rows; returns how many push rows were made."""
        made = 0
        while True:
            looked, planned = await self._plan_batch(now, batch)
            made += planned
            if looked < batch:
                return made

    async def _plan_batch(self, now: datetime, batch: int) -> tuple[int, int]:
        async with self.db.session() as session:
            rows = (
                await session.execute(
                    select(Outbox.id, Outbox.game_id, Outbox.seq, Outbox.recipient_id, Outbox.payload, Outbox.outcome)
                    .where(~Outbox.push_planned, Outbox.kind.in_(("mail", "digest_item")))
                    .order_by(Outbox.id)
                    .limit(batch)
                    .with_for_update(skip_locked=True)
                )
            ).all()
            if not rows:
                await end_unwritten(session)
                return 0, 0
            wanted = [r for r in rows if r.recipient_id is not None and may_push(r.payload.get("message"), r.outcome)]
            # Of several turn notices of one game to one player in the batch, the newest says it all.
            newest = {(r.recipient_id, r.game_id, r.payload["message"]): r.id for r in wanted
                      if r.payload["message"] in STACKED}
            wanted = [r for r in wanted if newest.get((r.recipient_id, r.game_id, r.payload["message"]), r.id) == r.id]
            users = {row.recipient_id for row in wanted}
            devices: dict[int, list[int]] = {}
            choices: dict[tuple[int, str], bool] = {}
            if users:
                for sub_id, user_id in await session.execute(
                    select(PushSubscription.id, PushSubscription.user_id)
                    .where(PushSubscription.user_id.in_(users))
                    .order_by(PushSubscription.id)
                ):
                    devices.setdefault(user_id, []).append(sub_id)
                choices = {
                    (user_id, kind): push
                    for user_id, kind, push in await session.execute(
                        select(PushPreference.user_id, PushPreference.kind, PushPreference.push).where(
                            PushPreference.user_id.in_(users)
                        )
                    )
                }
            pushes = [
                {
                    "game_id": row.game_id,
                    "seq": row.seq,
                    "kind": "push",
                    "recipient_id": row.recipient_id,
                    "next_attempt_at": now,
                    "payload": {**row.payload, "subscription": sub_id, "mail": row.id},
                    "push_planned": True,
                }
                for row in wanted
                if choices.get((row.recipient_id, str(row.payload["message"])), default_push(row.payload["message"]))
                for sub_id in devices.get(row.recipient_id, ())
            ]
            if pushes:
                await session.execute(insert(Outbox).execution_options(render_nulls=True), pushes)
            await session.execute(update(Outbox).where(Outbox.id.in_([r.id for r in rows])).values(push_planned=True))
            await session.commit()
        return len(rows), len(pushes)

    # --- 2. deliver -----------------------------------------------------------------------------------------

    async def deliver(self, now: datetime, batch: int = 100) -> list[str]:
        """Send every due push row (in batches); returns each row's outcome."""
        outcomes: list[str] = []
        while True:
            claimed = await self._claim(now, batch)
            if not claimed:
                return outcomes
            prepared = [await self._prepare(row_id, now) for row_id in claimed]
            limit = asyncio.Semaphore(CONCURRENT_SENDS)
            deliveries = await asyncio.gather(*(self._send(item, limit, now) for item in prepared))
            outcomes.extend(await self._settle(prepared, deliveries, now))
            if len(claimed) < batch:
                return outcomes

    async def _send(self, item: Prepared, limit: asyncio.Semaphore, now: datetime) -> Delivery | None:
        """Send one prepared push (None for a row settled without sending)."""
        if item.outcome is not None or item.subscription is None:
            return None
        async with limit:
            return await self.sender.send(
                item.subscription, item.data, topic=item.topic, ttl=item.ttl, urgency=item.urgency, now=now
            )

    async def _claim(self, now: datetime, batch: int) -> list[int]:
        """Lock the due push rows, move their next attempt a lease ahead (no other worker takes them meanwhile),
        and return their ids."""
        async with self.db.session() as session:
            due = (
                select(Outbox.id)
                .where(Outbox.kind == "push", Outbox.sent_at.is_(None), Outbox.next_attempt_at <= now)
                .order_by(Outbox.next_attempt_at, Outbox.id)
                .limit(batch)
                .with_for_update(skip_locked=True)
                .scalar_subquery()
            )
            ids = list(
                (
                    await session.scalars(
                        update(Outbox).where(Outbox.id.in_(due)).values(next_attempt_at=now + LEASE)
                        .returning(Outbox.id)
                    )
                ).all()
            )
            await session.commit()
        return sorted(ids)

    async def _prepare(self, row_id: int, now: datetime) -> Prepared:
        """What to send for one claimed row, read in a transaction of its own; a row that needs no sending (the
        kind turned off, the decision no longer awaited, the device gone) or cannot be written is settled here."""
        async with self.db.reading() as session:
            row = await session.get(Outbox, row_id)
            assert row is not None
            message = str(row.payload.get("message"))
            user = await session.get(User, row.recipient_id) if row.recipient_id is not None else None
            if user is None:
                return Prepared(row_id, row.attempts, outcome="no_recipient")
            sub = await session.get(PushSubscription, int(row.payload.get("subscription", 0)))
            if sub is None or sub.user_id != user.id:
                return Prepared(row_id, row.attempts, outcome="no_subscription")
            chosen = await session.scalar(
                select(PushPreference.push).where(PushPreference.user_id == user.id, PushPreference.kind == message)
            )
            if not (default_push(message) if chosen is None else chosen):
                return Prepared(row_id, row.attempts, outcome="off")
            if message in ABOUT_AN_AWAITED_DECISION and await self.is_stale(session, row):
                return Prepared(row_id, row.attempts, outcome="stale")
            try:
                recipient = Recipient(user.id, user.username, user.email or "", user.language)
                content = await self.compose(session, row, recipient, message)
                waiting = await _games_awaiting(session, user.id) if message in STACKED else 1
                data = json.dumps(notice(content, self.base_url, max(waiting, 1)), ensure_ascii=False).encode()
            except Exception as exc:  # pure code on stored data: every retry would fail the same way
                log.error("push %s to user %s cannot be composed; marked failed: %r", row_id, user.id, exc)
                return Prepared(row_id, row.attempts, outcome="failed", detail=f"cannot be composed: {exc!r}")
            return Prepared(
                row_id,
                row.attempts,
                Subscription(sub.id, sub.endpoint, sub.p256dh, sub.auth),
                data,
                topic(message, row.game_id),
                TTL[message],
                URGENCY[message],
            )

    async def _settle(
        self, prepared: Sequence[Prepared], deliveries: Sequence[Delivery | None], now: datetime
    ) -> list[str]:
        """Write what became of each row, delete the subscriptions their push service called gone, and note when
        each device was last reached, in one transaction."""
        outcomes: list[str] = []
        async with self.db.session() as session:
            for item, delivery in zip(prepared, deliveries, strict=True):
                values: dict[str, Any]
                if delivery is None:
                    outcome = item.outcome or "failed"
                    values = {"sent_at": now, "outcome": outcome, "last_error": item.detail[:500] or None}
                elif delivery.outcome == "retry" and item.attempts + 1 < self.max_attempts:
                    outcome = "retry"
                    values = {"attempts": item.attempts + 1, "last_error": delivery.detail[:500],
                              "next_attempt_at": now + self.retry_delay(item.attempts + 1)}
                    log.warning("push %s not sent (attempt %s): %s", item.row_id, item.attempts + 1, delivery.detail)
                else:  # sent, gone, or given up
                    outcome = "failed" if delivery.outcome == "retry" else delivery.outcome
                    values = {"sent_at": now, "outcome": outcome, "attempts": item.attempts + 1,
                              "last_error": delivery.detail[:500] or None}
                    if outcome in ("failed", "unsafe"):
                        log.warning("push %s given up (%s): %s", item.row_id, outcome, delivery.detail)
                await session.execute(update(Outbox).where(Outbox.id == item.row_id).values(**values))
                if delivery is not None and item.subscription is not None:
                    if delivery.outcome == "gone":
                        await session.execute(
                            delete(PushSubscription).where(PushSubscription.id == item.subscription.id)
                        )
                    elif delivery.outcome == "sent":
                        await session.execute(
                            update(PushSubscription)
                            .where(PushSubscription.id == item.subscription.id)
                            .values(last_sent_at=now)
                        )
                outcomes.append(outcome)
            await session.commit()
        return outcomes


async def _games_awaiting(session: AsyncSession, user_id: int) -> int:
    """How many running games await a decision from `user_id` (their seat is in the game's `to_act`)."""
    found = await session.scalar(
        select(func.count())
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.user_id == user_id, Game.status == "active", Seat.seat == func.any(Game.to_act))
    )
    return int(found or 0)
