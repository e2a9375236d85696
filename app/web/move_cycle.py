"""The requests of a move's cycle, which skip the middlewares that have nothing to do for them.

A player's client makes two kinds of request per move: its POST .../moves, and its live stream's GET
.../stream, whose every message passes through the middlewares again. Made with a bearer token, neither has
anything for three of them to do: the cookie session (`SessionMiddleware`) is never read, so it never adds a header;
the cross-site guard passes every bearer-token request; gzip leaves a move's answer (`{"seq"}` or an error, far below
its minimum size) and a live stream (`text/event-stream`) as they are. Each of them still costs its work on every
request and message (measured: about a tenth of the web layer's instructions for a move's POST), which these
requests skip. Any other request, or one of these without a bearer token (first `Authorization` header, as
FastAPI's `OAuth2PasswordBearer` reads it), goes through every layer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

_MOVE = re.compile(r"/api/v1/games/\d+/moves")
_STREAM = re.compile(r"/api/v1/games/\d+/stream")
_KEY = "carson.move_cycle"  # the verdict, kept in the request's scope for the next layer that asks


def in_move_cycle(scope: Scope) -> bool:
    """Whether the request is a move's POST or a live stream's GET, made with a bearer token."""
    verdict = scope.get(_KEY)
    if verdict is None:
        verdict = scope[_KEY] = _judged(scope)
    return bool(verdict)


def _judged(scope: Scope) -> bool:
    method = scope.get("method")
    pattern = _MOVE if method == "POST" else _STREAM if method == "GET" else None
    if pattern is None or not pattern.fullmatch(scope.get("path", "")):
        return False
    authorization = next((value for name, value in scope.get("headers", ()) if name == b"authorization"), b"")
    return authorization[:7].lower() == b"bearer "


class SkippedInMoveCycle:
    """The middleware `layer` (built with `options` around the app), except for the requests of a move's cycle,
    which go straight to the app."""

    def __init__(self, app: ASGIApp, /, layer: Callable[..., ASGIApp], **options: Any) -> None:
        self.app = app
        self.layer = layer(app, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and in_move_cycle(scope):
            await self.app(scope, receive, send)
        else:
            await self.layer(scope, receive, send)
