"""Every request, seen from outside: an id, a count and a latency in the metrics, and one log line.

The id is the proxy's `X-Request-ID` when it sends a plausible one (so that one id follows a request through the
proxy's log and ours), else a new random one; it is in every answer's `X-Request-ID` header, errors included, and
in every log line written while the request is handled (`current_request_id`, which the JSON log format of
`app/serving.py` reads). The metrics label a request by its route's template (`/api/v1/games/{game_id}/moves`),
never by its path, so that their number stays bounded; a request no route matched is `unmatched`.
"""

from __future__ import annotations

import contextvars
import logging
import re
import secrets
import time
from typing import Any

from prometheus_client import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import app.metrics as metrics

access_log = logging.getLogger("carson.access")

_REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
_PLAUSIBLE = re.compile(r"[A-Za-z0-9._:-]{8,64}")
HEADER = "x-request-id"
_HEADER = HEADER.encode()  # ASGI gives header names in lower case
UNMATCHED = "unmatched"


def current_request_id() -> str | None:
    """The id of the request being handled in this task, if any."""
    return _REQUEST_ID.get()


def route_of(scope: Scope) -> str:
    """The template of the route that handled the request, or `unmatched`."""
    route: Any = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


class Observe:
    """Outermost middleware but for the proxy headers: the id, the metrics and the log line of each request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((v.decode("latin-1") for k, v in scope.get("headers") or () if k == _HEADER), "")
        request_id = given if _PLAUSIBLE.fullmatch(given) else secrets.token_hex(8)
        scope.setdefault("state", {})["request_id"] = request_id
        token = _REQUEST_ID.set(request_id)
        start = time.perf_counter()
        answer: dict[str, Any] = {"status": 500, "stream": False}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                out = []
                for k, v in message.get("headers", ()):  # one pass: a request's id replaced, a stream seen
                    name = k.lower()
                    if name == b"content-type" and v.startswith(b"text/event-stream"):
                        answer["stream"] = True
                    if name != _HEADER:
                        out.append((k, v))
                out.append((_HEADER, request_id.encode()))
                message["headers"] = out
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            elapsed = time.perf_counter() - start
            route, method, status = route_of(scope), scope.get("method", "?"), answer["status"]
            _counter(route, method, status).inc()
            if not answer["stream"]:
                _timer(route, method).observe(elapsed)
            if access_log.isEnabledFor(logging.INFO):  # LOG_FORMAT=json; otherwise uvicorn writes its own line
                _log_line(scope, route, method, status, elapsed)
            _REQUEST_ID.reset(token)


# The metrics' children by their labels, as many as the metrics have: prometheus_client's `labels()` checks the
# labels and looks them up under a lock on every call (two calls were a fifth of this middleware's own work per
# request), while the child it hands out for the same labels is always the same one.
_COUNTERS: dict[tuple[str, str, int], Counter] = {}
_TIMERS: dict[tuple[str, str], Histogram] = {}


def _counter(route: str, method: str, status: int) -> Counter:
    """The child of `carson_http_requests_total` for these labels."""
    key = (route, method, status)
    found = _COUNTERS.get(key)
    if found is None:
        found = _COUNTERS[key] = metrics.REQUESTS.labels(route, method, str(status))
    return found


def _timer(route: str, method: str) -> Histogram:
    """The child of the request latency histogram for these labels."""
    key = (route, method)
    found = _TIMERS.get(key)
    if found is None:
        found = _TIMERS[key] = metrics.REQUEST_SECONDS.labels(route, method)
    return found


def _log_line(scope: Scope, route: str, method: str, status: int, elapsed: float) -> None:
    """The request's one log line; its fields also as `extra`, for the JSON format."""
    path = scope.get("path", "")
    access_log.info(
        "%s %s %s %.1f ms",
        method,
        path,
        status,
        elapsed * 1000,
        extra={
            "method": method,
            "path": path,
            "route": route,
            "status": status,
            "duration_ms": round(elapsed * 1000, 2),
            "client": (scope.get("client") or ("", 0))[0],
        },
    )
