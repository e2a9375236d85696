"""Server-sent events: `GET /api/v1/games/{id}/stream` sends the log's head, as the viewer counts it, after
every change the viewer may know of.

The subscription is taken before the current head is read, so no change can fall between the two; the stream then
tells its bus which head it read, so that a later change whose notice never comes reaches it at the bus's next
catch-up (`Bus.shows`). Each stream ends its subscription when the client goes away (sse-starlette cancels the
generator). Another seat's secret edit never reaches a stream: its notice is dropped unread, and a viewer's seq
does not move for it anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Query, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.types import Message, Send

import app.metrics as metrics
from app.notify.presence import watching
from app.play.bus import Bus, Change, ChatPosted, CheckSignIn, SignInsEnded, TableChanged
from app.play.positions import Positions, Seen
from app.play.sessions import key_of
from app.play.sign_in import SignIn
from app.web.deps import BusDep, CurrentSignedIn, PositionsDep, SettingsDep, SignedIn, SignInDep
from app.web.fields import Id
from app.web.openapi import errors

router = APIRouter(prefix="/api/v1", tags=["play"])
EVENT_NAME = "turn"
CHAT_EVENT = "chat"  # a new message in the table chat: `{"id"}`, the client reads it from the chat
TABLE_EVENT = "table"  # who sits at an open table changed (no start): `{}`, its waiting page reads it again


class LiveStream(EventSourceResponse):
    """sse-starlette's response, whose every send opens an anyio cancel scope for its send timeout even when there
    is none (the streams here set none): a fiftieth of the server's instructions per move, for a move's two
    messages. Without a timeout it sends straight away, marking an interrupted send as the library does; with
    one, it is the library's own send."""

    async def _send_with_timeout(self, send: Send, message: Message) -> None:
        if self.send_timeout is not None:
            await super()._send_with_timeout(send, message)
            return
        try:
            await send(message)
        except BaseException:
            self._send_interrupted = True
            raise


_EVENT = EVENT_NAME.encode()


def _message(seen: Seen) -> bytes:
    """Encode the `turn` event of `seen` as the stream sends it: its JSON without spaces, by orjson (the document
    `json.dumps` gives, non-ASCII characters as UTF-8 instead of escapes, in a ninth of its instructions: a seat's
    moves make a message of a few KB, an eighth of which were the spaces after `,` and `:`), framed as sse-starlette
    frames an event (`id`, `event`, `data`, each line ended by CRLF, then an empty line) but written at once: the
    JSON is one line (it escapes every line break), so the library's search for line breaks in the data, a regular
    expression over every byte of it, has nothing to find."""
    change = seen.change
    data: dict[str, Any] = {"seq": change.seq, "to_act": list(change.to_act), "status": change.status}
    if seen.moves is not None:
        data["moves"] = seen.moves
    return b"id: %d\r\nevent: %b\r\ndata: %b\r\n\r\n" % (change.seq, _EVENT, orjson.dumps(data))


class SharedMessages:
    """Each change as each kind of viewer sees it (a seat, or a spectator; with the seat's moves or without),
    worked out and encoded once for every stream of this process that shows it: a game watched by a thousand
    spectators costs one `seen_by` and one encoding per change, not a thousand. Streams that ask while it is
    being worked out wait for that one; the newest `size` are kept. When the state is at hand (`Positions.seen_now`)
    the message is worked out at once, without a task of its own to run and wait for."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._shown: OrderedDict[tuple[Change, int | None, bool], asyncio.Future[tuple[Seen, bytes]]] = OrderedDict()

    async def shown(self, positions: Positions, change: Change, seat: int | None, offer: bool) -> tuple[Seen, bytes]:
        key = (change, seat, offer)
        found = self._shown.get(key)
        if found is None:
            now = positions.seen_now(change, seat, offer=offer)
            if now is not None:
                found = asyncio.get_running_loop().create_future()
                found.set_result((now, _message(now)))
            else:
                found = asyncio.ensure_future(_worked_out(positions, change, seat, offer))
                found.add_done_callback(lambda done: self._forget_failed(key, done))
            self._shown[key] = found
            while len(self._shown) > self.size:
                self._shown.popitem(last=False)
        if found.done():  # the common case: another stream worked it out already
            return found.result()
        # Shielded: a stream that goes away while waiting leaves the work to the others.
        return await asyncio.shield(found)

    def _forget_failed(self, key: tuple[Change, int | None, bool], done: asyncio.Future[tuple[Seen, bytes]]) -> None:
        if (done.cancelled() or done.exception() is not None) and self._shown.get(key) is done:
            del self._shown[key]


async def _worked_out(positions: Positions, change: Change, seat: int | None, offer: bool) -> tuple[Seen, bytes]:
    seen = await positions.seen_by(change, seat, offer=offer)
    return seen, _message(seen)


# Per reads' service (one per application): the same change of the same game means the same state there.
_MESSAGES: weakref.WeakKeyDictionary[Positions, SharedMessages] = weakref.WeakKeyDictionary()


def shared_messages(positions: Positions) -> SharedMessages:
    """The messages shared by the streams that `positions` serves."""
    messages = _MESSAGES.get(positions)
    if messages is None:
        messages = _MESSAGES[positions] = SharedMessages()
    return messages


@contextlib.asynccontextmanager
async def _counted_open() -> AsyncIterator[None]:
    """Count the stream among the open ones (`carson_live_streams`) while the block runs."""
    metrics.LIVE_STREAMS.inc()
    try:
        yield
    finally:
        metrics.LIVE_STREAMS.dec()


async def _changes(
    positions: Positions, bus: Bus, sign_in: SignIn, game_id: int, signed_in: SignedIn, offer: bool
) -> AsyncIterator[ServerSentEvent | bytes]:
    account = signed_in.account
    messages = shared_messages(positions)
    # While the stream is open its user is watching the game: no "your turn" mail for it (app.notify). It ends
    # when its sign-in does (signed out, signed out everywhere, password changed).
    async with (
        watching(positions.db, game_id, account.id),
        bus.subscribe(game_id) as queue,
        bus.watch_sign_in(account.id, key_of(signed_in.session_id), queue),
        _counted_open(),
    ):
        seat, last, head = await positions.head(account, game_id, offer=offer)
        bus.shows(queue, head)  # a later head whose notice never comes reaches it at the bus's next catch-up
        yield _message(last)
        while True:
            change = await queue.get()
            if isinstance(change, SignInsEnded):
                return
            if isinstance(change, CheckSignIn):
                if await sign_in.account(signed_in.session_id, signed_in.kind) is None:
                    return
                continue
            if isinstance(change, ChatPosted):
                yield ServerSentEvent(data=json.dumps({"id": change.message_id}), event=CHAT_EVENT)
                continue
            if isinstance(change, TableChanged):
                yield ServerSentEvent(data="{}", event=TABLE_EVENT)
                continue
            if not change.reaches(seat):
                continue
            # Who sits where is read again when the seats are drawn (the game starts) and when a seat changes
            # hands (or a handover may have been among notices lost): the player who left it watches on as a
            # spectator, offered none of its moves, and counts the log as one (which may count fewer events).
            if last.change.status == "open" or change.reseats:
                was, (seat, shown, head) = seat, await positions.head(account, game_id, offer=offer)
                bus.shows(queue, head)
                resat, message = seat != was, _message(shown)
            else:
                resat, (shown, message) = False, await messages.shown(positions, change, seat, offer)
            if resat or shown.change.seq > last.change.seq:
                last = shown
                yield message


@router.get(
    "/games/{game_id}/stream",
    response_class=EventSourceResponse,
    responses={
        200: {
            "content": {"text/event-stream": {}},
            "description": 'An event "turn" with {"seq", "to_act", "status"} (and "moves" with `moves=true`) now '
            'and after every change; an event "chat" with {"id"} after every new message of the table chat; an '
            'event "table" with {} when who sits at an open table changes without starting it.',
        },
        **errors(404),
    },
)
async def stream(
    game_id: Id,
    request: Request,
    signed_in: CurrentSignedIn,
    positions: PositionsDep,
    bus: BusDep,
    sign_in: SignInDep,
    settings: SettingsDep,
    moves: Annotated[
        bool, Query(description="Add to each `turn` event every move the caller may submit there (as GET .../moves).")
    ] = False,
) -> EventSourceResponse:
    """Live updates of a game: its head now, then after every change, with keep-alive pings; and a `chat` event
    for each new message of the table chat (read it from GET .../chat). The stream ends when the sign-in it was
    opened with ends.

    With `moves=true` each `turn` event also carries `"moves"`: every move the caller may submit at that `seq`,
    each in the shape POST .../moves accepts (empty when nothing is awaited from the caller) — what GET
    .../moves would answer, so that a client that plays needs one request per move."""
    await positions.exists(game_id)  # 404 before the stream opens
    changes = _changes(positions, bus, sign_in, game_id, signed_in, moves)
    return LiveStream(changes, ping=settings.sse_ping_seconds)
