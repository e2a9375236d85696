"""The mail worker: drains the outbox in three steps, each safe to run in several instances at once.

1. **Plan.** A `game_changed` row (written by the move's own transaction, for a change that may call for mail:
   `app.play.record.may_call_for_mail`) becomes one `mail` row per message and recipient: "game started", "game
   finished", "your turn" for seats that have just become awaited, or "permission" for the owner asked to allow a
   house; never for the site's bots. The row tells what the change left (`Changed`): no state is rebuilt for it.
   The clocks add `reminder`, `timed_out` and `admin_alert` mail rows themselves. A mail whose outcome planning
   already tells (`_settle`: most of a busy game's turns) is counted and not stored, unless its recipient has a
   push device (the push planner reads it); the planned change is deleted.
2. **Deliver.** Each `mail` row is locked alone (`FOR UPDATE SKIP LOCKED`), checked against the recipient's
   address (a bot has none: dropped), preferences (off: dropped; digest: kept as a `digest_item`), staleness
   (the game moved on), the open game page and the hourly limit ("your turn" only; an invitation within the
   hour of the last one waits, "deferred", and the next invitation mail lists every one pending), then sent with a
   Message-ID derived from the row, and marked sent in the same transaction. A failure to send schedules a
   retry with exponential back-off (outcome "failed" after `max_attempts`); a mail that cannot even be written
   (data no template can render) is marked "failed" at once, so it never holds up the mails behind it. A move
   never waits for any of this.
3. **Digest.** Once a day (DIGEST_HOUR_UTC) a user's pending `digest_item` rows become one `digest` mail.

With a push sender, every mail row of a kind players can have pushed also becomes push rows for the recipient's
devices, delivered beside the mails (app.notify.push_outbox). The worker runs every `interval` seconds, and
sooner when woken (`wake`: a game changed), starting at most every `WAKE_GAP` seconds, or up to `BUSY_GAP` while
run after run finds a batch of changes (`next_gap`). A run first asks which steps have work (`WAITING`, one
statement) and skips the others.

Time is passed in (`now`), so tests move it instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

from sqlalchemy import delete, func, insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession

import app.i18n as i18n
import app.metrics as metrics
from app.notify import presence
from app.notify.messages import (
    ABOUT_AN_AWAITED_DECISION,
    ABOUT_THE_TABLE,
    ALWAYS_SENT,
    Message,
    Recipient,
    awaited_phrase,
    compose,
    default_mode,
    game_link,
    subject_of,
)
from app.notify.preferences import UnsubscribeLinks
from app.notify.push_outbox import PushOutbox, may_push, with_devices
from app.notify.push_sender import PushSender
from app.notify.sender import Sender, SendFailed, build_email
from app.play.email_change import MAIL as EMAIL_CONFIRM
from app.play.email_change import EmailLinks
from app.play.password_reset import ResetLinks
from app.rules import GameState, player_view, redact_event, to_act
from app.rules.decisions import Decision
from app.rules.flow import awaiting
from app.store import event_store
from app.store.availability import run_forever
from app.store.db import Database, driver_sql, end_unwritten, fetch_all
from app.store.repository import StateCache
from app.store.tables import Game, GameEvent, Invitation, NotificationPreference, Outbox, Seat, User, Watcher

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
DIGEST_LOCK = 7_424_211_002  # advisory lock class: one digest at a time per recipient
SINCE_EVENTS = 200  # the most events since a player's last move a turn mail reads (it tells the newest few)
WAKE_GAP = 0.2  # seconds between the starts of two runs at least, however often the worker is woken
BUSY_GAP = 1.0  # the longest such gap, reached while run after run finds a batch (a busy server's moves batched)
BUSY_BATCH = 10  # changes found by one run that make it a busy server's: at the least gap, 50 changes a second


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class MailSettings:
    base_url: str
    from_address: str
    digest_hour_utc: int = 7
    first_retry: timedelta = timedelta(seconds=30)
    longest_retry: timedelta = timedelta(hours=1)
    max_attempts: int = 30  # about a day of retries before a mail is given up
    turn_mail_interval: timedelta = timedelta(hours=1)
    invitation_mail_interval: timedelta = timedelta(hours=1)  # at most one invitation mail per invitee

    @property
    def preferences_url(self) -> str:
        return f"{self.base_url.rstrip('/')}/settings/notifications"


@dataclass
class RunResult:
    planned: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    digests: int = 0
    changes: int = 0  # `game_changed` rows planned
    queued: int = 0  # mail rows planned and left to delivery
    to_push: int = 0  # mail rows planned and left to the push planner

    @property
    def sent(self) -> int:
        return self.outcomes.get("sent", 0)

    @property
    def found_work(self) -> bool:
        return bool(self.changes or self.planned or self.outcomes or self.digests)

    @property
    def found_a_batch(self) -> bool:
        """Whether the run found as many changes as a busy server's run does (BUSY_BATCH): a game's single move now
        and then, however often, is no batch, and its push or mail goes at once."""
        return self.changes >= BUSY_BATCH


@dataclass(slots=True)
class Waiting:
    """Which steps of a run have work, as one statement found before the run (`WAITING`) and as the run's own
    steps then add to it."""

    changes: bool
    unplanned: bool
    digests: bool
    pushes: bool
    mails: bool


# One statement tells which of a run's steps can find anything: each is a probe of the step's own query on one of
# the outbox's partial indexes. A quiet worker's run then costs one statement, not one transaction per step.
WAITING = driver_sql("""
    SELECT
        EXISTS (SELECT FROM outbox WHERE sent_at IS NULL AND kind = 'game_changed'),
        EXISTS (SELECT FROM outbox WHERE NOT push_planned AND kind IN ('mail', 'digest_item')),
        EXISTS (SELECT FROM outbox WHERE sent_at IS NULL AND kind = 'digest_item' AND created_at <= %(cutoff)s),
        EXISTS (SELECT FROM outbox WHERE sent_at IS NULL AND kind = 'push' AND next_attempt_at <= %(now)s),
        EXISTS (SELECT FROM outbox WHERE sent_at IS NULL AND kind = 'mail' AND next_attempt_at <= %(now)s)
""")


@dataclass(frozen=True, slots=True)
class Planned:
    user_id: int
    seat: int
    message: str


@dataclass(frozen=True, slots=True)
class Changed:
    """What planning reads of the state a change left: whether the game is finished, the seats it awaits, and
    whether what it awaits is a permission request. A `game_changed` row tells all of it (`told`, written by
    `app.play.record`), so planning needs no state; a row written before it did is planned from the state
    (`of`), rebuilt from the log."""

    finished: bool
    to_act: tuple[int, ...]
    permission: bool

    @classmethod
    def of(cls, state: GameState) -> Changed:
        waiting = awaiting(state)
        return cls(state.status == "finished", to_act(state),
                   waiting is not None and waiting.kind == Decision.PERMISSION)

    @classmethod
    def told(cls, payload: dict[str, Any]) -> Changed | None:
        """What the row's payload tells (its `awaits`: the kind of the decision awaited, null for none), or None
        for a row that does not tell it."""
        if "awaits" not in payload:
            return None
        return cls(payload["status"] == "finished", tuple(payload["to_act"]), payload["awaits"] == Decision.PERMISSION)


def plan(payload: dict[str, Any], after: Changed, seats: dict[int, int]) -> list[Planned]:
    """The mails one change of a game calls for, from what the change left (`after`); `seats` maps seat -> user
    id. The start of a game tells everyone (the first player's mail says they play first), the end tells everyone
    the scores; otherwise each seat that has just become awaited hears that it is their turn (or that they are
    asked for a permission)."""
    if payload.get("from_seq") == 0:
        return [Planned(user, seat, "game_started") for seat, user in sorted(seats.items())]
    if after.finished:
        return [Planned(user, seat, "game_finished") for seat, user in sorted(seats.items())]
    was = set(payload.get("was_to_act", ()))
    kind = "permission" if after.permission else "your_turn"
    return [Planned(seats[seat], seat, kind) for seat in after.to_act if seat not in was and seat in seats]


def next_gap(gap: float, found_a_batch: bool) -> float:
    """The least time between the start of a run and the next: doubled, up to BUSY_GAP, after a run that found a
    batch of changes (every woken run pays a few statements whatever it finds, so a busy server's runs take more
    changes each), back to WAKE_GAP after one that did not (a quieter server's next notice goes at once: widening
    the gap after every run that found a single change held each push of a game moving once a second a whole
    second)."""
    return min(gap * 2, BUSY_GAP) if found_a_batch else WAKE_GAP


def backoff(settings: MailSettings, attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, ... doubling up to an hour between attempts."""
    delay: timedelta = settings.first_retry * 2 ** max(attempts - 1, 0)
    return min(delay, settings.longest_retry)


def last_digest_time(now: datetime, hour: int) -> datetime:
    """The most recent digest time at or before `now` (every day at `hour`:00 UTC)."""
    today = now.astimezone(UTC).replace(hour=hour, minute=0, second=0, microsecond=0)
    return today if today <= now else today - timedelta(days=1)


class Notifier:
    """Plans, delivers and digests the mails of the outbox."""

    def __init__(
        self,
        db: Database,
        sender: Sender,
        settings: MailSettings,
        links: UnsubscribeLinks,
        clock: Clock = utc_now,
        reset_links: ResetLinks | None = None,
        email_links: EmailLinks | None = None,
        pushes: PushSender | None = None,
        recorded: StateCache | None = None,
    ) -> None:
        self.db = db
        self.sender = sender
        self.settings = settings
        self.links = links
        self.reset_links = reset_links
        self.email_links = email_links
        self.clock = clock
        self.cache = StateCache(capacity=256)
        # The states this process's write path keeps (`GameService.cache`), looked at first: a mail's state is
        # often a game's head, which its last move left there (a game's end; a turn its player has not taken).
        self.recorded = recorded
        self.push = (
            PushOutbox(db, pushes, settings.base_url, self._message, self._is_stale,
                       lambda attempts: backoff(settings, attempts), settings.max_attempts)
            if pushes is not None else None
        )
        self._woken = asyncio.Event()

    async def run_once(self, now: datetime | None = None) -> RunResult:
        """One round: plan the changes' mails (and their pushes), fold the digests, send the pushes and the mails;
        a step that can find nothing (`waiting`) is skipped. Push outcomes are counted as `push:<outcome>`."""
        now = now or self.clock()
        waiting = await self.waiting(now)
        result = await self.plan_changes(now) if waiting.changes else RunResult()
        for outcome, count in result.outcomes.items():  # settled at planning: counted as delivery would count them
            metrics.MAILS.labels(outcome).inc(count)
        if self.push is not None and (waiting.unplanned or result.to_push):
            made = await self.push.plan(now)
            result.planned += made
            waiting.pushes |= made > 0
        if waiting.digests:
            result.digests = await self.collect_digests(now)
        waiting.mails |= result.queued > 0 or result.digests > 0
        # The pushes and the mails go side by side: a slow push service never holds a mail back, nor the reverse.
        pushed, mailed = await asyncio.gather(
            self.push.deliver(now) if self.push is not None and waiting.pushes else _nothing(),
            self.deliver(now) if waiting.mails else _nothing(),
            return_exceptions=True,
        )
        for failed in (pushed, mailed):  # both ran to their end; the first failure is the run's (an outage, a bug)
            if isinstance(failed, BaseException):
                raise failed
        assert isinstance(pushed, list) and isinstance(mailed, list)
        for outcome in pushed:
            result.outcomes[f"push:{outcome}"] = result.outcomes.get(f"push:{outcome}", 0) + 1
        for outcome in mailed:
            result.outcomes[outcome] = result.outcomes.get(outcome, 0) + 1
            metrics.MAILS.labels(outcome).inc()
        return result

    async def waiting(self, now: datetime) -> Waiting:
        """Which steps of a run at `now` have work, in one statement outside any transaction. What it misses (a
        change committed just after) wakes the worker again, or waits for the next poll."""
        cutoff = last_digest_time(now, self.settings.digest_hour_utc)
        async with self.db.driver() as connection:
            (found,) = await fetch_all(connection, WAITING, {"now": now, "cutoff": cutoff})
        return Waiting(*(bool(flag) for flag in found))

    def wake(self) -> None:
        """Run again soon (a game changed: its notices are waiting), not after the whole interval."""
        self._woken.set()

    async def run_forever(self, interval: float) -> None:
        gap = WAKE_GAP

        async def pause(started: float) -> None:
            # Runs start `gap` apart at least: a quiet server's notices go at once, a busy one's moves are batched.
            # `asyncio.timeout`, not `wait_for`: on Python 3.11 `wait_for` can swallow a cancellation that comes as
            # the event is set, and the cancelled worker would then run on forever (a server that never stops).
            await asyncio.sleep(max(gap - (time.monotonic() - started), 0))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(interval - (time.monotonic() - started), 0)):
                    await self._woken.wait()

        async def run_then_wait() -> None:
            nonlocal gap
            self._woken.clear()
            started = time.monotonic()
            try:
                result = await self.run_once()
            except Exception:
                await pause(started)  # a failed run waits too; a cancelled one (not an Exception) stops at once
                raise
            gap = next_gap(gap, result.found_a_batch)
            await pause(started)

        await run_forever(run_then_wait, 0, log, "mail")

    # --- 1. plan --------------------------------------------------------------------------------------------

    async def plan_changes(self, now: datetime, batch: int = 100) -> RunResult:
        """Turn pending `game_changed` rows into `mail` rows; returns how many mails were planned and the outcomes
        of those settled at once (see `_settle`)."""
        result = RunResult()
        while True:
            rows = await self._plan_batch(now, batch, result)
            if rows < batch:
                return result

    async def _plan_batch(self, now: datetime, batch: int, result: RunResult) -> int:
        """Plan one batch of changes in one transaction, with a number of statements that grows with the games in
        it, not its changes: a busy server's worker shares the process (and the event loop) with the moves, so its
        cost per move counts."""
        async with self.db.session() as session:
            rows = (
                await session.execute(
                    select(Outbox.id, Outbox.game_id, Outbox.seq, Outbox.payload)
                    .where(Outbox.kind == "game_changed", Outbox.sent_at.is_(None))
                    .order_by(Outbox.id)
                    .limit(batch)
                    .with_for_update(skip_locked=True)
                )
            ).all()
            if not rows:
                await end_unwritten(session)
                return 0
            seats = await _seats_of(session, {game_id for _, game_id, _, _ in rows if game_id is not None})
            # What each change left, as its row tells it; the states of rows that do not tell it, rebuilt.
            told: dict[int, Changed] = {}
            wanted: dict[int, list[int]] = {}
            for row_id, game_id, seq, payload in rows:
                if game_id is not None and seq is not None and "from_seq" in payload:
                    after = Changed.told(payload)
                    if after is not None:
                        told[row_id] = after
                    else:
                        wanted.setdefault(game_id, []).append(seq)
            states = {game_id: await self.cache.load_each(session, game_id, seqs) for game_id, seqs in wanted.items()}
            mails: list[tuple[int, int, Planned]] = []
            for row_id, game_id, seq, payload in rows:
                if row_id in told:
                    after = told[row_id]
                elif game_id in states and seq in states[game_id]:
                    after = Changed.of(states[game_id][seq])
                else:
                    continue
                mails.extend((game_id, seq, m) for m in plan(payload, after, seats.get(game_id, {})))
            settled = await _settle(session, mails, now, self.settings.turn_mail_interval)
            pushable = [may_push(m.message, outcome) for (_, _, m), outcome in zip(mails, settled, strict=True)]
            devices = await with_devices(
                session, {m.user_id for (_, _, m), can in zip(mails, pushable, strict=True) if can}
            )
            # A mail settled here is only counted, unless it can still make pushes: nothing reads a settled row but
            # the push planner (the hourly limits read sent mails only).
            stored = []
            for (game_id, seq, m), outcome, can in zip(mails, settled, pushable, strict=True):
                pushed = can and m.user_id in devices
                if outcome is None or pushed:
                    stored.append({
                        "game_id": game_id,
                        "seq": seq,
                        "next_attempt_at": now,
                        "kind": "mail",
                        "recipient_id": m.user_id,
                        "payload": {"message": m.message, "seat": m.seat},
                        "sent_at": now if outcome is not None else None,
                        "outcome": outcome,
                        "push_planned": not pushed,
                    })
            if stored:
                await session.execute(insert(Outbox).execution_options(render_nulls=True), stored)  # NULLs and all
            # Planned: nothing reads the change again, and a deleted row costs PostgreSQL less than an updated one.
            await session.execute(delete(Outbox).where(Outbox.id.in_([row_id for row_id, _, _, _ in rows])))
            await session.commit()
        result.changes += len(rows)
        result.planned += len(mails)
        result.queued += sum(1 for row in stored if row["outcome"] is None)
        result.to_push += sum(1 for row in stored if not row["push_planned"])
        for outcome in settled:
            if outcome is not None:
                result.outcomes[outcome] = result.outcomes.get(outcome, 0) + 1
        return len(rows)

    # --- 2. deliver -----------------------------------------------------------------------------------------

    async def deliver(self, now: datetime, limit: int = 500) -> list[str]:
        """Send (or drop, or defer to the digest) every due mail row; returns each row's outcome."""
        outcomes = []
        for _ in range(limit):
            async with self.db.session() as session:
                row = await session.scalar(
                    select(Outbox)
                    .where(Outbox.kind == "mail", Outbox.sent_at.is_(None), Outbox.next_attempt_at <= now)
                    .order_by(Outbox.next_attempt_at, Outbox.id)
                    .limit(1)
                    .with_for_update(skip_locked=True)
                )
                if row is None:
                    await end_unwritten(session)
                    break
                outcome = await self._deliver_one(session, row, now)
                if outcome not in ("retry", "digest", "deferred"):
                    row.sent_at = now
                    row.outcome = outcome
                await session.commit()
            outcomes.append(outcome)
        return outcomes

    async def _deliver_one(self, session: AsyncSession, row: Outbox, now: datetime) -> str:
        message = str(row.payload.get("message"))
        user = await session.get(User, row.recipient_id) if row.recipient_id is not None else None
        if user is None:
            return "no_recipient"
        if user.email is None:  # the site's bots have no address
            return "no_address"
        # A change of address is told at the address it replaced (in the row), the link that confirms one is sent
        # to the new address (in the row), every other mail goes to the current one.
        to_row = message in ("email_changed", EMAIL_CONFIRM)
        address = str(row.payload.get("to") or user.email) if to_row else user.email
        recipient = Recipient(user.id, user.username, address, user.language)
        if message not in ("digest", *ALWAYS_SENT):
            mode = await _mode(session, user.id, message)
            if mode == "off":
                return "off"
            if message in ABOUT_AN_AWAITED_DECISION and await self._is_stale(session, row):
                return "stale"
            if message == "invitation" and not await _still_invited(session, row):
                return "stale"
            if message in ("your_turn", "chat") and row.game_id is not None:
                # At the table already, or told within the hour: a mail would only repeat the page.
                if await presence.is_watching(session, row.game_id, user.id, now):
                    return "watching"
                if await self._mail_sent_lately(session, user.id, row.game_id, message, now):
                    return "throttled"
            if mode == "digest":
                row.kind = "digest_item"
                return "digest"
            if message == "invitation":
                due = await self._next_invitation_mail(session, user.id)
                if due > now:  # told of an invitation within the hour: this one waits, and goes with the others
                    row.next_attempt_at = due
                    return "deferred"
        gathered = await self._pending_invitations(session, row, now) if message == "invitation" else []
        content = await self._message(session, row, recipient, message, gathered)
        if message == "password_reset":
            content = self._reset_message(content, user)
        if message == EMAIL_CONFIRM:
            content = self._confirm_message(content, user, address)
        try:
            email = self._email(row, content, now)
        except Exception as exc:  # pure code on stored data: every retry would fail the same way
            row.last_error = f"cannot be composed: {exc!r}"[:500]
            log.error("mail %s to user %s cannot be composed; marked failed: %r", row.id, user.id, exc)
            return "failed"
        try:
            await self.sender.send(email)
        except SendFailed as exc:
            row.attempts += 1
            row.last_error = str(exc)[:500]
            if row.attempts >= self.settings.max_attempts:
                log.error("giving up mail %s to user %s after %s attempts: %s", row.id, user.id, row.attempts, exc)
                return "failed"
            row.next_attempt_at = now + backoff(self.settings, row.attempts)
            log.warning(
                "mail %s not sent (attempt %s, retry at %s): %s", row.id, row.attempts, row.next_attempt_at, exc
            )
            return "retry"
        for other in gathered:  # told in this mail
            other.sent_at = now
            other.outcome = "gathered"
        return "sent"

    def _reset_message(self, content: Message, user: User) -> Message:
        """The reset mail with its link, made now from the account's current password hash and address (never
        stored), so it is void once either changes. Without the links no reset mail can be written (marked failed)."""
        if self.reset_links is None:
            return content
        link = self.reset_links.url(user.id, user.password_hash, user.email)
        hours = self.reset_links.lifetime.total_seconds() / 3600
        return Message(content.kind, content.recipient, details={"link": link, "hours": hours})

    def _confirm_message(self, content: Message, user: User, new_email: str) -> Message:
        """The mail that confirms a new address, with its link made now from the account's current address
        (never stored), so it is void once the address changes. Without the links it cannot be written (marked
        failed)."""
        if self.email_links is None or user.email is None:
            return content
        link = self.email_links.url(user.id, new_email, user.email)
        hours = self.email_links.lifetime.total_seconds() / 3600
        return Message(content.kind, content.recipient, details={"link": link, "hours": hours, "new": new_email})

    def _email(self, row: Outbox, content: Message, now: datetime) -> EmailMessage:
        """The mail of `row`, ready to send; raises whatever keeps it from being written (a game name with a
        line break cannot be a Subject header)."""
        unsubscribe_url = (
            None if content.kind in ALWAYS_SENT else self.links.url(content.recipient.user_id, content.kind)
        )
        composed = compose(
            content,
            base_url=self.settings.base_url,
            unsubscribe_url=unsubscribe_url,
            preferences_url=self.settings.preferences_url,
        )
        return build_email(
            composed,
            content.recipient,
            outbox_id=row.id,
            from_address=self.settings.from_address,
            unsubscribe_url=unsubscribe_url,
            date=now,
        )

    async def _is_stale(self, session: AsyncSession, row: Outbox) -> bool:
        """Whether the decision the mail is about is no longer awaited (or, for a reminder, its clock changed)."""
        seat = row.payload.get("seat")
        current = (
            await session.execute(
                select(Game.status, Game.to_act, Seat.deadline)
                .join(Seat, (Seat.game_id == Game.id) & (Seat.seat == seat))
                .where(Game.id == row.game_id)
            )
        ).one_or_none()
        if current is None or current.status != "active" or seat not in current.to_act:
            return True
        if row.payload.get("message") == "reminder":
            deadline = current.deadline
            return deadline is None or deadline != datetime.fromisoformat(str(row.payload["deadline"]))
        return False

    async def _mail_sent_lately(
        self, session: AsyncSession, user_id: int, game_id: int, message: str, now: datetime
    ) -> bool:
        since = now - self.settings.turn_mail_interval
        found = await session.scalar(
            select(func.count())
            .select_from(Outbox)
            .where(
                Outbox.recipient_id == user_id,
                Outbox.kind == "mail",
                Outbox.game_id == game_id,
                Outbox.outcome == "sent",
                Outbox.sent_at > since,
                Outbox.payload["message"].astext == message,
            )
        )
        return bool(found)

    async def _next_invitation_mail(self, session: AsyncSession, user_id: int) -> datetime:
        """When `user_id` may next be mailed an invitation: an hour after the last one (at once if none)."""
        last = await session.scalar(
            select(func.max(Outbox.sent_at)).where(
                Outbox.recipient_id == user_id,
                Outbox.kind == "mail",
                Outbox.outcome == "sent",
                Outbox.payload["message"].astext == "invitation",
            )
        )
        return datetime.min.replace(tzinfo=UTC) if last is None else last + self.settings.invitation_mail_interval

    async def _pending_invitations(self, session: AsyncSession, row: Outbox, now: datetime) -> list[Outbox]:
        """The recipient's other invitation mails not sent yet (deferred within the hour, or due too), locked: the
        mail of `row` tells of them all. Those whose invitation was answered or lapsed meanwhile are settled stale."""
        others = list(
            (
                await session.scalars(
                    select(Outbox)
                    .where(
                        Outbox.recipient_id == row.recipient_id,
                        Outbox.kind == "mail",
                        Outbox.sent_at.is_(None),
                        Outbox.id != row.id,
                        Outbox.payload["message"].astext == "invitation",
                    )
                    .order_by(Outbox.id)
                    .with_for_update(skip_locked=True)
                )
            ).all()
        )
        pending = []
        for other in others:
            if await _still_invited(session, other):
                pending.append(other)
            else:
                other.sent_at, other.outcome = now, "stale"
        return pending

    async def _message(
        self, session: AsyncSession, row: Outbox, recipient: Recipient, message: str, gathered: Sequence[Outbox] = ()
    ) -> Message:
        details = {k: v for k, v in row.payload.items() if k != "message"}
        if message == "invitation" and row.game_id is not None:
            details["invitations"] = [
                {"by": r.payload.get("by"), "game": await self._name(session, r.game_id), "game_id": r.game_id}
                for r in (row, *gathered)
                if r.game_id is not None
            ]
        if message == "digest":
            details = {"games": await self._digest_games(session, recipient, details.get("items", []))}
            return Message("digest", recipient, details=details)
        if message in ABOUT_THE_TABLE and row.game_id is not None:
            return Message(message, recipient, row.game_id, await self._name(session, row.game_id), None, details)
        if row.game_id is None or row.seq is None:
            return Message(message, recipient, details=details)
        seat = details.get("seat") if message != "admin_alert" else None
        name, view = await self._view(session, row.game_id, row.seq, seat)
        if message == "your_turn" and isinstance(seat, int):
            details["since"] = await _since_last_move(session, row.game_id, row.seq, seat)
        return Message(message, recipient, row.game_id, name, view, details)

    async def _view(
        self, session: AsyncSession, game_id: int, seq: int, seat: int | None
    ) -> tuple[str, dict[str, Any]]:
        """The game's name and `seat`'s view of the state at `seq` (a spectator's for None)."""
        name = await self._name(session, game_id)
        usernames = list(
            (
                await session.scalars(
                    select(User.username)
                    .join(Seat, Seat.user_id == User.id)
                    .where(Seat.game_id == game_id, Seat.seat.is_not(None))
                    .order_by(Seat.seat)
                )
            ).all()
        )
        state = self.recorded.peek(game_id, seq) if self.recorded is not None else None
        if state is None:
            state = await self.cache.load(session, game_id, seq)
        return name, player_view(state, seat, game_id=game_id, usernames=usernames)

    async def _name(self, session: AsyncSession, game_id: int) -> str:
        return await session.scalar(select(Game.name).where(Game.id == game_id)) or f"Game {game_id}"

    async def _digest_games(
        self, session: AsyncSession, recipient: Recipient, items: Sequence[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """One entry per game: the subject lines of its pending mails and what it waits for from the recipient."""
        games: dict[int, dict[str, Any]] = {}
        for item in items:
            game_id, seq, message = item.get("game_id"), item.get("seq"), str(item.get("message"))
            if game_id is None or (seq is None and message not in ABOUT_THE_TABLE):
                continue
            view: dict[str, Any] | None = None
            if message in ABOUT_THE_TABLE or seq is None:  # (None only for them: see above)
                name = await self._name(session, game_id)
            else:
                seat = item.get("seat") if message != "admin_alert" else None
                name, view = await self._view(session, game_id, seq, seat)
            entry = games.setdefault(
                game_id,
                {"name": name, "link": game_link(self.settings.base_url, game_id), "lines": [], "awaiting": None},
            )
            line = subject_of(Message(message, recipient, game_id, name, view, item))
            if line not in entry["lines"]:
                entry["lines"].append(line)
        for game_id, entry in games.items():
            head = (await session.execute(select(Game.seq, Game.status).where(Game.id == game_id))).one_or_none()
            seat = await session.scalar(
                select(Seat.seat).where(Seat.game_id == game_id, Seat.user_id == recipient.user_id)
            )
            if head is None or head.status != "active" or seat is None:
                continue
            _, view = await self._view(session, game_id, head.seq, seat)
            if seat in view["to_act"]:
                with i18n.speaking(recipient.language):
                    entry["awaiting"] = awaited_phrase(view.get("awaiting"))
        return list(games.values())

    # --- 3. digest ------------------------------------------------------------------------------------------

    async def collect_digests(self, now: datetime) -> int:
        """Fold each user's digest items queued before the last digest time into one `digest` mail."""
        cutoff = last_digest_time(now, self.settings.digest_hour_utc)
        async with self.db.reading() as session:
            recipients = list(
                (
                    await session.scalars(
                        select(Outbox.recipient_id)
                        .where(Outbox.kind == "digest_item", Outbox.sent_at.is_(None), Outbox.created_at <= cutoff)
                        .distinct()
                    )
                ).all()
            )
        made = 0
        for user_id in recipients:
            if user_id is None:
                continue
            async with self.db.session() as session:
                locked = await session.scalar(
                    text("SELECT pg_try_advisory_xact_lock(:cls, :key)"), {"cls": DIGEST_LOCK % 2**31, "key": user_id}
                )
                if not locked:
                    await end_unwritten(session)
                    continue
                items = list(
                    (
                        await session.scalars(
                            select(Outbox)
                            .where(
                                Outbox.kind == "digest_item",
                                Outbox.recipient_id == user_id,
                                Outbox.sent_at.is_(None),
                                Outbox.created_at <= cutoff,
                            )
                            .order_by(Outbox.id)
                            .with_for_update()
                        )
                    ).all()
                )
                if not items:
                    await end_unwritten(session)
                    continue
                entries = [{"id": i.id, "game_id": i.game_id, "seq": i.seq, **i.payload} for i in items]
                await session.execute(
                    insert(Outbox),
                    [
                        {
                            "kind": "mail",
                            "recipient_id": user_id,
                            "next_attempt_at": now,
                            "payload": {"message": "digest", "items": entries},
                        }
                    ],
                )
                for item in items:
                    item.sent_at = now
                    item.outcome = "digested"
                await session.commit()
                made += 1
        return made


async def _since_last_move(
    session: AsyncSession, game_id: int, seq: int, seat: int
) -> list[tuple[int, dict[str, Any]]]:
    """The events from `seat`'s last own move (not one the clock or the bot made for it) up to `seq`, each
    redacted for `seat` (`redact_event`: what the seat may not know of is left out, secrets removed): what the
    others did meanwhile, for the turn mail to tell (`messages.since_last_move`). At most the newest
    SINCE_EVENTS, so a long absence costs one bounded read."""
    last = await session.scalar(
        select(func.coalesce(func.max(GameEvent.seq), 0)).where(
            GameEvent.game_id == game_id, GameEvent.actor == seat, GameEvent.timed_out.is_(False),
            GameEvent.seq <= seq,
        )
    )
    after = max(int(last or 0), seq - SINCE_EVENTS)
    shown = []
    for stored in await event_store.load(session, game_id, after=after, limit=seq - after):
        redacted = redact_event(stored.event, seat)
        if redacted is not None and stored.actor != seat:
            shown.append((stored.seq, redacted))
    return shown


async def _nothing() -> list[str]:
    return []


async def _mode(session: AsyncSession, user_id: int, kind: str) -> str:
    mode = await session.scalar(
        select(NotificationPreference.mode).where(
            NotificationPreference.user_id == user_id, NotificationPreference.kind == kind
        )
    )
    return mode or default_mode(kind)


async def _still_invited(session: AsyncSession, row: Outbox) -> bool:
    """Whether the invitation the mail announces still waits for an answer (not accepted, declined or lapsed)."""
    if row.game_id is None or row.recipient_id is None:
        return False
    return await session.get(Invitation, (row.game_id, row.recipient_id)) is not None


async def _seats_of(session: AsyncSession, game_ids: set[int]) -> dict[int, dict[int, int]]:
    """Seat -> user id of each game's people (the site's bots get no mail), in one query."""
    seats: dict[int, dict[int, int]] = {}
    if game_ids:
        found = await session.execute(
            select(Seat.game_id, Seat.seat, Seat.user_id)
            .join(User, User.id == Seat.user_id)
            .where(Seat.game_id.in_(game_ids), Seat.seat.is_not(None), User.is_bot.is_(False))
        )
        for game_id, seat, user_id in found:
            if seat is not None:
                seats.setdefault(game_id, {})[seat] = user_id
    return seats


async def _settle(
    session: AsyncSession, mails: Sequence[tuple[int, int, Planned]], now: datetime, interval: timedelta
) -> list[str | None]:
    """The outcome each planned mail would get from delivery's first checks, where four queries for the whole
    batch already tell it: the recipient turned the kind off, the decision is no longer awaited (a backlog of
    moves in one game makes every "your turn" but the last one stale), the recipient is watching the game's page,
    or was sent a "your turn" of this game within `interval` or gets a newer one in this batch (throttled: a
    player away from a lively table gets one such mail an hour, and every other change in that hour is settled
    here).
    None: left to delivery, which checks everything again when it sends. Settling these here keeps a busy game's
    mail work to a few statements per batch instead of several per move."""
    if not mails:
        return []
    users = {m.user_id for _, _, m in mails}
    games = {game_id for game_id, _, _ in mails}
    modes = {
        (user_id, kind): mode
        for user_id, kind, mode in await session.execute(
            select(NotificationPreference.user_id, NotificationPreference.kind, NotificationPreference.mode).where(
                NotificationPreference.user_id.in_(users)
            )
        )
    }
    heads = {
        game_id: (status, set(to_act))
        for game_id, status, to_act in await session.execute(
            select(Game.id, Game.status, Game.to_act).where(Game.id.in_(games))
        )
    }
    watching = {
        (game_id, user_id)
        for game_id, user_id in await session.execute(
            select(Watcher.game_id, Watcher.user_id)
            .where(Watcher.game_id.in_(games), Watcher.user_id.in_(users), Watcher.expires_at > now)
            .distinct()
        )
    }
    lately = {
        (game_id, user_id)
        for game_id, user_id in await session.execute(
            select(Outbox.game_id, Outbox.recipient_id)
            .where(
                Outbox.game_id.in_(games),
                Outbox.recipient_id.in_(users),
                Outbox.kind == "mail",
                Outbox.outcome == "sent",
                Outbox.sent_at > now - interval,
                Outbox.payload["message"].astext == "your_turn",
            )
            .distinct()
        )
    }
    # Of several "your turn" of one game to one player in the batch, only the newest may be sent: delivery would
    # send the first and throttle the others (one an hour), so the others are settled here and the mail that goes
    # tells of the newest position.
    newest = {(game_id, m.user_id): index for index, (game_id, _, m) in enumerate(mails) if m.message == "your_turn"}
    outcomes: list[str | None] = []
    for index, (game_id, _, m) in enumerate(mails):
        status, to_act = heads.get(game_id, ("gone", set()))
        if m.message in ALWAYS_SENT:
            outcomes.append(None)
        elif modes.get((m.user_id, m.message), default_mode(m.message)) == "off":
            outcomes.append("off")
        elif m.message in ABOUT_AN_AWAITED_DECISION and (status != "active" or m.seat not in to_act):
            outcomes.append("stale")
        elif m.message == "your_turn" and (game_id, m.user_id) in watching:
            outcomes.append("watching")
        elif m.message == "your_turn" and ((game_id, m.user_id) in lately or newest[game_id, m.user_id] != index):
            outcomes.append("throttled")
        else:
            outcomes.append(None)
    return outcomes
