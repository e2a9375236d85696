""" "Game G is at seq N": fan-out to this process's listeners, across instances by PostgreSQL LISTEN/NOTIFY.

A recorded move's notice, `pg_notify(CHANNEL, change.to_json())`, is sent once its change has committed
(`app.play.announcer`: no notice tells of a change that did not land); other writers (a game's start, chat, the
lobby, the clocks' reminders) notify in their own transaction, delivered when (and only if) it commits. PostgreSQL
delivers a notice to every instance including this one. Each instance keeps one LISTEN connection and hands notices
to the in-process queues of its subscribers (the SSE streams) and to its hearers (the game service). A notice
carries the head of the log (`seq`, `to_act`, `status`), for a seat's secret edit that seat (`only`), for a handover
the seat that changed hands (`handed`); the streams turn it into what their viewer may know (`GameService.seen_by`)
before anything leaves the server. A new message of a game's table chat travels the same way (`ChatPosted`, notified
by the transaction that stores it): the notice names the message, never its text, which each client then reads; so
does a change of who sits at an open table (`TableChanged`), which its waiting pages read again.

A notice can be lost: the instance that recorded a move may stop between the move's commit and its notice
(`app.play.announcer`), and notices sent while a LISTEN connection is down never reach it. So every
`catch_up_seconds` the bus reads, in one statement on its LISTEN connection, the head of every game its streams
watch, and hands the head to the streams that have not been told of it (only those): no stream stays behind a
committed change for longer than that, whether or not its notice was ever sent. With no stream open it reads
nothing. A reconnect hands every watched game's head to all its streams (`_resync`); and since the chat's and an
open table's notices can only be lost that way (they are sent by the transactions that make them), it also tells
the streams of a game whose chat holds a message newer than any this bus heard of to read the chat again, and
those of an open table to read who sits there again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import psycopg

import app.metrics as metrics
from app.store.db import array_literal, driver_sql

log = logging.getLogger(__name__)

CHANNEL = "carson_games"

# The head of each watched game that moved past the lowest head its streams were told of, and whether a seat changed
# hands since (an event `seat_replaced` after it: who sits where must be read again). One row per game behind; the
# games' key and the events' (game_id, seq) key, whatever the number of streams.
_CATCH_UP = driver_sql("""
    SELECT g.id, g.seq, g.to_act, g.status,
           EXISTS (SELECT FROM game_events AS e
                   WHERE e.game_id = g.id AND e.seq > w.seen AND e.type = 'seat_replaced')
    FROM unnest(CAST(%(games)s AS integer[]), CAST(%(seen)s AS integer[])) AS w(game_id, seen)
    JOIN games AS g ON g.id = w.game_id
    WHERE g.seq > w.seen
""")

# After a reconnect: each watched game's head, and the newest message of its chat.
_RESYNC = driver_sql("""
    SELECT g.id, g.seq, g.to_act, g.status,
           (SELECT max(c.id) FROM chat_messages AS c WHERE c.game_id = g.id)
    FROM games AS g
    WHERE g.id = ANY(CAST(%(games)s AS integer[]))
""")


@dataclass(frozen=True, slots=True)
class Change:
    """The head of a game's log after a commit; `only` names the seat whose private event it is (nobody
    else's stream may hear of it), None when everyone may; `handed` the seat that changed hands with it (who
    sits there must be read again: memos of it dropped, streams of its former player stop offering its moves)."""

    game_id: int
    seq: int
    to_act: tuple[int, ...]
    status: str
    only: int | None = None
    handed: int | None = None
    # Set on the heads handed out after a lost connection (never sent): a handover may have been among the notices
    # lost, so who sits where must be read again, as for `handed`; and on a head the periodic catch-up hands out when
    # a seat changed hands among the changes a stream was not told of.
    resync: bool = False

    @property
    def reseats(self) -> bool:
        """Whether who sits where may have changed with this change (a handover, or notices lost)."""
        return self.handed is not None or self.resync

    def reaches(self, seat: int | None) -> bool:
        """Whether a stream watching as `seat` (None: a spectator) may hear of this change."""
        return self.only is None or self.only == seat

    def to_json(self) -> str:
        return json.dumps(
            {
                "game_id": self.game_id,
                "seq": self.seq,
                "to_act": list(self.to_act),
                "status": self.status,
                "only": self.only,
                "handed": self.handed,
            }
        )

    @classmethod
    def from_json(cls, payload: str) -> Change:
        return cls.from_data(json.loads(payload))

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Change:
        """The change a notice's parsed payload tells of."""
        only, handed = data.get("only"), data.get("handed")
        return cls(
            int(data["game_id"]),
            int(data["seq"]),
            tuple(data["to_act"]),
            str(data["status"]),
            int(only) if only is not None else None,
            int(handed) if handed is not None else None,
        )


@dataclass(frozen=True, slots=True)
class ChatPosted:
    """A new message `message_id` in the table chat of `game_id` (chat is not part of the game's log)."""

    game_id: int
    message_id: int

    def to_json(self) -> str:
        return json.dumps({"game_id": self.game_id, "chat": self.message_id})


@dataclass(frozen=True, slots=True)
class TableChanged:
    """Who sits at, or is invited to, the open table `game_id` changed without starting its game (a join, a
    leave, an invitation made or declined): its waiting pages read it again. Not a change of the log."""

    game_id: int

    def to_json(self) -> str:
        return json.dumps({"game_id": self.game_id, "table": True})


@dataclass(frozen=True, slots=True)
class SignInsEnded:
    """Sign-ins of `user_id` were revoked: the one whose key (its id's SHA-256, as stored) is `key`, or every one
    of them when `key` is None. Live streams opened with such a sign-in end (notified by the revoking
    transaction, so no instance keeps streaming to a browser that signed out)."""

    user_id: int
    key: str | None = None

    def to_json(self) -> str:
        return json.dumps({"revoked_user": self.user_id, "key": self.key})

    def ends(self, key: str) -> bool:
        return self.key is None or self.key == key


@dataclass(frozen=True, slots=True)
class CheckSignIn:
    """Handed to streams after the bus reconnected: a revocation may have been missed; look the sign-in up."""


Notice = Change | ChatPosted | TableChanged | SignInsEnded | CheckSignIn


def notice_from_json(payload: str) -> Notice:
    """The notice a payload of CHANNEL carries: revoked sign-ins, a chat message, an open table's seats, else a
    change of the log."""
    data = json.loads(payload)
    if "revoked_user" in data:
        key = data.get("key")
        return SignInsEnded(int(data["revoked_user"]), str(key) if key is not None else None)
    if "chat" in data:
        return ChatPosted(int(data["game_id"]), int(data["chat"]))
    if "table" in data:
        return TableChanged(int(data["game_id"]))
    return Change.from_data(data)  # parsed once: every move's notice comes this way


class Bus:
    """One LISTEN connection per instance, and per-game queues of the local subscribers."""

    def __init__(self, libpq_url: str, *, queue_size: int = 64, catch_up_seconds: float = 5.0) -> None:
        self.libpq_url = libpq_url
        self.queue_size = queue_size
        self.catch_up_seconds = catch_up_seconds
        # Shown in pg_stat_activity, so an operator (or a test) can tell the listeners apart.
        self.name = f"carson-bus-{uuid.uuid4().hex[:8]}"
        self._subscribers: defaultdict[int, set[asyncio.Queue[Notice]]] = defaultdict(set)
        # The head of its game's log (as stored: every seat's events counted) each subscriber was told of or read
        # itself (`shows`); None while it reads its head, until when the catch-up leaves it out.
        self._heads: dict[asyncio.Queue[Notice], int | None] = {}
        # The newest chat message this bus heard of, by watched game: after a reconnect, a newer one in the
        # database is one whose notice was lost.
        self._chat_heads: dict[int, int] = {}
        # Queues of streams opened with a sign-in, by user id, with that sign-in's key.
        self._signed_in: defaultdict[int, set[tuple[str, asyncio.Queue[Notice]]]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._hearers: list[Callable[[Change], None]] = []
        self._gap_hearers: list[Callable[[], None]] = []

    async def start(self) -> None:
        """Start listening; returns once the LISTEN is in place, so no later commit goes unheard."""
        self._task = asyncio.create_task(self._listen_forever(), name="bus-listener")
        await asyncio.wait_for(self._listening.wait(), timeout=30)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: int) -> AsyncIterator[asyncio.Queue[Notice]]:
        """A queue that receives every notice about `game_id` until the block exits."""
        queue: asyncio.Queue[Notice] = asyncio.Queue(self.queue_size)
        self._subscribers[game_id].add(queue)
        self._heads[queue] = None
        try:
            yield queue
        finally:
            self._heads.pop(queue, None)
            subscribers = self._subscribers.get(game_id)
            if subscribers is not None:
                subscribers.discard(queue)
                if not subscribers:
                    del self._subscribers[game_id]
                    self._chat_heads.pop(game_id, None)

    def shows(self, queue: asyncio.Queue[Notice], head: int) -> None:
        """Note that the subscriber of `queue` read its game's head `head` itself (its stream's first message):
        from then on the catch-up hands it any later head it was not told of."""
        if queue in self._heads:
            self._heads[queue] = max(head, self._heads[queue] or 0)

    @contextlib.asynccontextmanager
    async def watch_sign_in(self, user_id: int, key: str, queue: asyncio.Queue[Notice]) -> AsyncIterator[None]:
        """Until the block exits, hand `queue` the revocations of `user_id`'s sign-in `key` (and of all of
        theirs), and a CheckSignIn after a reconnect."""
        entry = (key, queue)
        self._signed_in[user_id].add(entry)
        try:
            yield
        finally:
            watchers = self._signed_in.get(user_id)
            if watchers is not None:
                watchers.discard(entry)
                if not watchers:
                    del self._signed_in[user_id]

    def hear(self, hearer: Callable[[Change], None], gap: Callable[[], None]) -> None:
        """Hand `hearer` every change of any game this instance hears of, before its streams do, and call `gap`
        when notices may have been lost (the connection was down): how a service keeps what it remembers of a
        game in line with the other instances' writes."""
        self._hearers.append(hearer)
        self._gap_hearers.append(gap)

    def subscriber_count(self, game_id: int) -> int:
        return len(self._subscribers.get(game_id, ()))

    def deliver(self, notice: Notice) -> None:
        """Hand `notice` to every local subscriber of its game (or, for revoked sign-ins, to the streams opened
        with them); a full queue drops its oldest notice."""
        if isinstance(notice, CheckSignIn):
            return
        if isinstance(notice, SignInsEnded):
            for key, queue in tuple(self._signed_in.get(notice.user_id, ())):
                if notice.ends(key):
                    _put(queue, notice)
            return
        if not isinstance(notice, Change):
            if isinstance(notice, ChatPosted) and notice.game_id in self._subscribers:
                self._chat_heads[notice.game_id] = max(notice.message_id, self._chat_heads.get(notice.game_id, 0))
            for queue in tuple(self._subscribers.get(notice.game_id, ())):
                _put(queue, notice)
            return
        for hearer in self._hearers:
            hearer(notice)
        heads = self._heads
        for queue in tuple(self._subscribers.get(notice.game_id, ())):
            told = heads.get(queue)
            if told is None or told < notice.seq:
                heads[queue] = notice.seq
            _put(queue, notice)

    async def _listen_forever(self) -> None:
        delay = 0.5
        while True:
            try:
                conn = await self._connect()
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if self._listening.is_set():
                        await self._resync(conn)
                    self._listening.set()
                    delay = 0.5
                    while True:
                        # Notices until the period is over (those that come during the catch-up's statement wait in
                        # the connection's backlog for the next round), then the catch-up.
                        async for notice in conn.notifies(timeout=self.catch_up_seconds):
                            try:
                                self.deliver(notice_from_json(notice.payload))
                            except (ValueError, KeyError, TypeError):
                                log.warning("ignoring a malformed notice on %s", CHANNEL)
                        await self._catch_up(conn)
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError) as exc:
                log.warning("bus connection lost (%s); reconnecting in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        """The LISTEN connection, in autocommit, named after this bus (a test counts what runs on it)."""
        return await psycopg.AsyncConnection.connect(self.libpq_url, autocommit=True, application_name=self.name)

    async def _resync(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """After a reconnect, hand every watched game's current head to its subscribers: notices sent while
        the connection was down are lost, and a stream must not stay behind (nor a memo of who sits where). A
        chat notice too, where the chat holds a message newer than any this bus heard of; and a table notice to an
        open table's, whose seats may have changed."""
        for gap in self._gap_hearers:
            gap()
        for watchers in tuple(self._signed_in.values()):
            for _, queue in tuple(watchers):
                _put(queue, CheckSignIn())
        watched = list(self._subscribers)
        if not watched:
            return
        cursor = await conn.execute(_RESYNC, {"games": array_literal(watched)})
        for game_id, seq, to_act, status, newest_chat in await cursor.fetchall():
            self.deliver(Change(game_id, seq, tuple(to_act), status, resync=True))
            if status == "open":
                self.deliver(TableChanged(game_id))
            if newest_chat is not None and newest_chat > self._chat_heads.get(game_id, 0):
                self.deliver(ChatPosted(game_id, newest_chat))

    async def _catch_up(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Hand each subscriber that was not told of its game's head that head: the notice of a committed change
        may never have been sent (its instance stopped first, `app.play.announcer`). One statement for every
        watched game, none when no subscriber has read its head; the subscribers told of the head are not woken."""
        seen: dict[int, int] = {}
        for game_id, queues in self._subscribers.items():
            heads = [head for queue in queues if (head := self._heads.get(queue)) is not None]
            if heads:
                seen[game_id] = min(heads)
        if not seen:
            return
        cursor = await conn.execute(_CATCH_UP, {"games": array_literal(seen), "seen": array_literal(seen.values())})
        rows = await cursor.fetchall()
        metrics.LIVE_CATCH_UP_READS.inc()
        for game_id, seq, to_act, status, reseated in rows:
            self._catch_up_with(Change(game_id, seq, tuple(to_act), status, resync=reseated))

    def _catch_up_with(self, change: Change) -> None:
        """Hand `change`, a game's head read by the catch-up, to the hearers and to the subscribers of its game
        that were told of an older head."""
        for hearer in self._hearers:
            hearer(change)
        for queue in tuple(self._subscribers.get(change.game_id, ())):
            told = self._heads.get(queue)
            if told is not None and told < change.seq:
                self._heads[queue] = change.seq
                _put(queue, change)
                metrics.LIVE_CAUGHT_UP.inc()


def _put(queue: asyncio.Queue[Notice], notice: Notice) -> None:
    if queue.full():
        # Only the newest head matters to a stream (and a chat notice only says "read the chat again"): a slow
        # reader loses stale notices, not the latest.
        dropped = queue.get_nowait()
        if isinstance(dropped, SignInsEnded | CheckSignIn) and not isinstance(notice, SignInsEnded):
            notice = dropped  # an end of the sign-in is never the notice lost
    queue.put_nowait(notice)
