"""Server-sent events: `GET /api/v1/games/{id}/stream` sends the log's head, as the viewer counts it, after
every change the viewer may know of.

The subscription is taken before the current head is read, so no change can fall between the two; each stream
ends its subscription when the client goes away (sse-starlette cancels the generator). Another seat's secret
edit never reaches a stream: its notice is dropped unread, and a viewer's seq does not move for it anyway.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent

from app.notify.presence import watching
from app.play.accounts import Account
from app.play.bus import Bus, Change, ChatPosted
from app.play.service import GameService
from app.web.api import errors
from app.web.deps import BusDep, CurrentAccount, ServiceDep, SettingsDep
from app.web.fields import Id

router = APIRouter(prefix="/api/v1", tags=["play"])
EVENT_NAME = "turn"
CHAT_EVENT = "chat"  # a new message in the table chat: `{"id"}`, the client reads it from the chat


def _message(change: Change) -> ServerSentEvent:
    data = {"seq": change.seq, "to_act": list(change.to_act), "status": change.status}
    return ServerSentEvent(data=json.dumps(data), event=EVENT_NAME, id=str(change.seq))


async def _changes(service: GameService, bus: Bus, game_id: int, account: Account) -> AsyncIterator[ServerSentEvent]:
    # While the stream is open its user is watching the game: no "your turn" mail for it (app.notify).
    async with watching(service.db, game_id, account.id), bus.subscribe(game_id) as queue:
        seat, last = await service.head(account, game_id)
        yield _message(last)
        while True:
            change = await queue.get()
            if isinstance(change, ChatPosted):
                yield ServerSentEvent(data=json.dumps({"id": change.message_id}), event=CHAT_EVENT)
                continue
            if not change.reaches(seat):
                continue
            if last.status == "open":
                seat, shown = await service.head(account, game_id)  # seats are drawn as the game starts
            else:
                shown = await service.seen_by(change, seat)
            if shown.seq > last.seq:
                last = shown
                yield _message(shown)


@router.get(
    "/games/{game_id}/stream",
    response_class=EventSourceResponse,
    responses={
        200: {
            "content": {"text/event-stream": {}},
            "description": 'An event "turn" with {"seq", "to_act", "status"} now and after every change; an event '
            '"chat" with {"id"} after every new message of the table chat.',
        },
        **errors(404),
    },
)
async def stream(
    game_id: Id,
    request: Request,
    account: CurrentAccount,
    service: ServiceDep,
    bus: BusDep,
    settings: SettingsDep,
) -> EventSourceResponse:
    """Live updates of a game: its head now, then after every change, with keep-alive pings; and a `chat` event
    for each new message of the table chat (read it from GET .../chat)."""
    await service.summary(game_id)  # 404 before the stream opens
    return EventSourceResponse(_changes(service, bus, game_id, account), ping=settings.sse_ping_seconds)
