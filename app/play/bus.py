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

log = logging.getLogger(__name__)

CHANNEL = "carson_games"


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
    # lost, so who sits where must be read again, as for `handed`.
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

    def __init__(self, libpq_url: str, *, queue_size: int = 64) -> None:
        self.libpq_url = libpq_url
        self.queue_size = queue_size
        # Shown in pg_stat_activity, so an operator (or a test) can tell the listeners apart.
        self.name = f"carson-bus-{uuid.uuid4().hex[:8]}"
        self._subscribers: defaultdict[int, set[asyncio.Queue[Notice]]] = defaultdict(set)
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
        try:
            yield queue
        finally:
            subscribers = self._subscribers.get(game_id)
            if subscribers is not None:
                subscribers.discard(queue)
                if not subscribers:
                    del self._subscribers[game_id]

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
        if isinstance(notice, Change):
            for hearer in self._hearers:
                hearer(notice)
        for queue in tuple(self._subscribers.get(notice.game_id, ())):
            _put(queue, notice)

    async def _listen_forever(self) -> None:
        delay = 0.5
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.libpq_url, autocommit=True, application_name=self.name
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if self._listening.is_set():
                        await self._resync(conn)
                    self._listening.set()
                    delay = 0.5
                    async for notice in conn.notifies():
                        try:
                            self.deliver(notice_from_json(notice.payload))
                        except (ValueError, KeyError, TypeError):
                            log.warning("ignoring a malformed notice on %s", CHANNEL)
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError) as exc:
                log.warning("bus connection lost (%s); reconnecting in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def _resync(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """After a reconnect, hand every watched game's current head to its subscribers: notices sent while
        the connection was down are lost, and a stream must not stay behind (nor a memo of who sits where)."""
        for gap in self._gap_hearers:
            gap()
        for watchers in tuple(self._signed_in.values()):
            for _, queue in tuple(watchers):
                _put(queue, CheckSignIn())
        watched = list(self._subscribers)
        if not watched:
            return
        cursor = await conn.execute("SELECT id, seq, to_act, status FROM games WHERE id = ANY(%s)", (watched,))
        for game_id, seq, to_act, status in await cursor.fetchall():
            self.deliver(Change(game_id, seq, tuple(to_act), status, resync=True))


def _put(queue: asyncio.Queue[Notice], notice: Notice) -> None:
    if queue.full():
        # Only the newest head matters to a stream (and a chat notice only says "read the chat again"): a slow
        # reader loses stale notices, not the latest.
        dropped = queue.get_nowait()
        if isinstance(dropped, SignInsEnded | CheckSignIn) and not isinstance(notice, SignInsEnded):
            notice = dropped  # an end of the sign-in is never the notice lost
    queue.put_nowait(notice)
