"""The web application's factory: routes, middlewares and error rendering around the services that the
composition root (app.main) builds and starts.

Every error leaves as `{"detail": {"code", "message"}}`; domain errors carry their own code, and framework
errors (validation, unknown routes, oversized bodies, crashes) get one here.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import app.i18n as i18n
from app.i18n import N_, gettext
from app.notify.push_sender import PushSender
from app.play import notes
from app.play.accounts import Account
from app.play.bus import Bus
from app.play.chat import Chat
from app.play.errors import (
    Conflict,
    Invalid,
    NotAllowed,
    NotFound,
    NotSignedIn,
    PlayError,
    TooMany,
    database_unavailable,
)
from app.play.lobby import Lobby
from app.play.notes import NoteBook
from app.play.positions import Positions
from app.play.readiness import Readiness
from app.play.service import GameService
from app.play.sign_in import SignIn
from app.settings import Settings
from app.web import (
    account_pages,
    admin_api,
    answers_api,
    answers_pages,
    api,
    guide_pages,
    installable,
    language_pages,
    leaderboard_pages,
    lobby_pages,
    moderation_api,
    moderation_pages,
    notifications,
    observe,
    openapi,
    ops,
    password_pages,
    player_pages,
    push_api,
    rendering,
    settings_pages,
    stream,
    table_pages,
    talk_pages,
    vacation_api,
    your_data_api,
)
from app.web.assets import STATIC_DIR, VersionedStaticFiles
from app.web.cross_site import CrossSiteGuard
from app.web.device import DeviceCookies
from app.web.fields import CONTROL_CHARACTERS
from app.web.language import RequestLanguage
from app.web.move_cycle import SkippedInMoveCycle
from app.web.security import SESSION_COOKIE, TokenSigner, cookie_session_id

log = logging.getLogger(__name__)

STATUS_OF: dict[type[PlayError], int] = {
    NotSignedIn: 401,
    NotAllowed: 403,
    NotFound: 404,
    Conflict: 409,
    Invalid: 422,
    TooMany: 429,
}
# Codes stay English for programs; the messages are translated into the caller's language when sent.
HTTP_CODES = {
    400: ("bad_request", N_("The request could not be understood.")),
    401: ("not_signed_in", N_("Please sign in first.")),
    403: ("forbidden", N_("You may not do this.")),
    404: ("not_found", N_("There is nothing at this address.")),
    405: ("method_not_allowed", N_("This address does not accept that method.")),
    413: ("body_too_large", N_("The request body is too large.")),
}
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
# The order of the documentation's sections, whatever the order in which the routers are tried (app.web.api).
API_TAGS = ("auth", "players", "games", "chat", "play", "clocks", "notifications", "moderation", "ops")
DATABASE_UNAVAILABLE = (
    "database_unavailable",
    N_("The game server cannot reach its database just now; please try again in a minute."),
)


def error_response(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """The error shape every refusal has; `message` is translated here, into the language of the request."""
    return JSONResponse({"detail": {"code": code, "message": gettext(message)}}, status_code=status,
                        headers=headers)


class BodyTooLarge(Exception):
    """The client sent more than MAX_BODY_BYTES."""


# Bodies that may lawfully hold more than MAX_BODY_BYTES: a note of notes.MAX_LENGTH characters, each of which
# may take 12 bytes on the wire (an emoji is `\ud83d\ude00` in JSON, `%F0%9F%98%80` in a form), and the rest.
LARGER_BODIES: Mapping[re.Pattern[str], int] = {
    re.compile(r"^(/api/v1)?/games/\d+/notes$"): notes.MAX_LENGTH * 12 + 4096,
}


class BodyLimit:
    """Refuse request bodies over `limit` bytes (or the larger limit `larger` gives their path), whether
    announced by Content-Length or streamed in chunks."""

    def __init__(self, app: ASGIApp, limit: int, larger: Mapping[re.Pattern[str], int] = LARGER_BODIES) -> None:
        self.app = app
        self.limit = limit
        self.larger = larger

    def limit_of(self, path: str) -> int:
        """The most bytes a body sent to `path` may hold."""
        most = self.limit
        for pattern, limit in self.larger.items():
            if limit > most and pattern.match(path):
                most = limit
        return most

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        most = self.limit_of(str(scope.get("path", "")))
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > most:
                await _too_large(scope, receive, send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > most:
                raise BodyTooLarge
            return message

        await self.app(scope, limited, send)


class DatabaseFailure(Exception):
    """An unexpected database error, stripped of PostgreSQL's DETAIL (which quotes whole rows, seeds included)
    and of statement parameters, so that neither the response nor any log line can carry a secret."""


def scrubbed(exc: DBAPIError) -> DatabaseFailure:
    """The error code and primary message of `exc`, nothing else."""
    diag = getattr(exc.orig, "diag", None)
    sqlstate = getattr(diag, "sqlstate", None) or "?"
    primary = getattr(diag, "message_primary", None) or type(exc.orig).__name__
    return DatabaseFailure(f"database error {sqlstate}: {primary}")


class HideDatabaseDetails:
    """Replace unexpected database errors by their scrubbed form before anything logs them (the server's error
    middleware re-raises every exception for uvicorn to log)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except DBAPIError as exc:
            raise scrubbed(exc) from None


def _adding_headers(send: Send, headers: Callable[[], list[tuple[bytes, bytes]]]) -> Send:
    """`send`, with the headers `headers()` gives at the moment the response starts added to it."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", ()), *headers()]
        await send(message)

    return sending


class ServerTiming:
    """Add `Server-Timing: app;dur=<ms>` to every response: the time spent inside the application, which
    benchmarks and browsers' developer tools can read without counting the client's own delays; and the headers
    `along` gives (none here, see `ResponseHeaders`) in the same send wrapper, which is called for every message of
    every response, each of a live stream's too."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def along(self, scope: Scope) -> Sequence[tuple[bytes, bytes]]:
        """The headers added after the timing to the response to `scope`."""
        return ()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        along = self.along(scope)

        def timing() -> list[tuple[bytes, bytes]]:
            return [(b"server-timing", f"app;dur={(time.perf_counter() - start) * 1000:.2f}".encode()), *along]

        await self.app(scope, receive, _adding_headers(send, timing))


class ResponseHeaders(ServerTiming):
    """The Server-Timing of every response, then a Content-Security-Policy for our own pages (scripts only from
    this site: the vendored htmx and app.js; no inline script) and the usual hardening headers, in one layer (a
    layer and a send wrapper less than two: 11,000 instructions of a move's POST, and a call on each stream
    message). The API's /docs pages load their assets elsewhere, so they are left without the policy."""

    POLICY = (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    )
    EXEMPT = ("/docs", "/redoc")
    HARDENING = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"))
    WITH_POLICY = (*HARDENING, (b"content-security-policy", POLICY.encode()))

    def along(self, scope: Scope) -> Sequence[tuple[bytes, bytes]]:
        return self.HARDENING if str(scope.get("path", "")).startswith(self.EXEMPT) else self.WITH_POLICY


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    code, message = HTTP_CODES[413]
    await error_response(413, code, message)(scope, receive, send)


def _validation_error(exc: RequestValidationError) -> tuple[int, str, str]:
    """Status, code and message for a request FastAPI could not read: 400 for a body that is not JSON, 404 for
    a path that names nothing (a malformed id, or one beyond what the database can hold), 422 otherwise."""
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return 400, "malformed_json", N_("The request body is not valid JSON.")
    first = errors[0] if errors else {}
    if tuple(first.get("loc", ()))[:1] == ("path",):
        return 404, *HTTP_CODES[404]
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path"))
    reason = str(first.get("msg", "is invalid"))
    code = CONTROL_CHARACTERS if first.get("type") == CONTROL_CHARACTERS else "invalid_request"
    return 422, code, f"{where}: {reason}" if where else reason


def _allowed_methods(request: Request) -> list[str]:
    """Every method the request's path accepts: Starlette's own 405 names only the methods of the first route
    that matched the path, though several routes may share it (GET and POST /api/v1/games). Mounted apps (the
    static files) answer for themselves."""
    routes = [route for route in request.app.router.routes if not isinstance(route, Mount)]
    return [
        method
        for method in METHODS
        if any(route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes)
    ]


def _wants_page(request: Request) -> bool:
    """A browser asking for one of our pages gets an error page; programs (and the API) get the JSON shape."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")


async def _page_account(request: Request, status: int) -> Account | None:
    """Who is signed in, for the error page's header; nobody while the database is unavailable (503) or when the
    session cannot be looked up, since an error page must never fail itself."""
    session_id = cookie_session_id(request)
    if status == 503 or session_id is None:
        return None
    try:
        account: Account | None = await request.app.state.sign_in.account(session_id, "cookie")
    except Exception:
        log.warning("error page rendered without the account: the session lookup failed", exc_info=True)
        return None
    if account is not None and account.language is not None:
        i18n.use(account.language)
    return account


async def _error(
    request: Request, status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    if _wants_page(request):
        account = await _page_account(request, status)
        page = rendering.render(request, "pages/error.html", account, status=status, message=gettext(message))
        page.headers.update(headers or {})
        return page
    return error_response(status, code, message, headers)


CRASH_MESSAGE = N_("Something went wrong on our side; please try again.")


def error_headers(exc: PlayError, status: int) -> dict[str, str] | None:
    """The headers a refusal carries: the auth scheme with a 401, the wait with a 429."""
    if isinstance(exc, TooMany):
        return {"Retry-After": str(exc.retry_after)}
    return {"WWW-Authenticate": "Bearer"} if status == 401 else None


def install_error_handlers(app: FastAPI) -> None:
    async def on_play_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, PlayError)
        status = next((s for kind, s in STATUS_OF.items() if isinstance(exc, kind)), 400)
        return await _error(request, status, exc.code, exc.translated(gettext), error_headers(exc, status))

    async def on_validation(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return await _error(request, *_validation_error(exc))

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if isinstance(exc.detail, dict) and {"code", "message"} <= exc.detail.keys():
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
        headers = dict(exc.headers or {})
        if exc.status_code == 405 and (allowed := _allowed_methods(request)):
            headers["Allow"] = ", ".join(allowed)
        code, message = HTTP_CODES.get(exc.status_code, ("http_error", str(exc.detail)))
        return await _error(request, exc.status_code, code, message, headers)

    async def on_too_large(request: Request, exc: Exception) -> JSONResponse:
        code, message = HTTP_CODES[413]
        return error_response(413, code, message)

    async def on_database_error(request: Request, exc: Exception) -> Response:
        if not database_unavailable(exc):
            raise exc  # a bug, not an outage: scrubbed, logged and answered 500 further out
        return await _error(request, 503, *DATABASE_UNAVAILABLE, {"Retry-After": "30"})

    async def on_crash(request: Request, exc: Exception) -> Response:
        # Answered outside the middlewares (Starlette's outermost error handler): the request's id is added here.
        request_id = getattr(request.state, "request_id", None)
        log.exception("unhandled error on %s %s", request.method, request.url.path, extra={"request_id": request_id})
        headers = {observe.HEADER: request_id} if request_id else {}
        if _wants_page(request):  # the page without the account: a crash may have come from its lookup
            page = rendering.render(request, "pages/error.html", None, status=500, message=gettext(CRASH_MESSAGE))
            page.headers.update(headers)
            return page
        return error_response(500, "internal_error", CRASH_MESSAGE, headers)

    app.add_exception_handler(PlayError, on_play_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(BodyTooLarge, on_too_large)
    app.add_exception_handler(DBAPIError, on_database_error)
    app.add_exception_handler(Exception, on_crash)


@dataclass(frozen=True, slots=True)
class Services:
    """What the web layer serves with; the composition root (app.main) builds them at start-up."""

    service: GameService  # the write path
    positions: Positions  # the reads
    lobby: Lobby  # the tables before their game; the three share one state cache
    sign_in: SignIn
    bus: Bus
    chat: Chat
    notes: NoteBook
    readiness: Readiness
    pushes: PushSender | None = None  # web push (None: no VAPID key, no push)


Running = Callable[[], AbstractAsyncContextManager[Services]]


def build_app(settings: Settings, running: Running) -> FastAPI:
    """The web application: its routes, middlewares and error rendering. Its start-up enters `running` for the
    services and its shutdown leaves it, so the one who wires the layers (app.main) decides what that opens."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with running() as services:
            app.state.service = services.service
            app.state.positions = services.positions
            app.state.lobby = services.lobby
            app.state.sign_in = services.sign_in
            app.state.accounts = services.sign_in.accounts
            app.state.bus = services.bus
            app.state.chat = services.chat
            app.state.notes = services.notes
            app.state.readiness = services.readiness
            app.state.pushes = services.pushes
            app.state.signer = TokenSigner(settings.signing_key(), settings.token_max_age_hours * 3600)
            yield

    app = FastAPI(
        title="Carson City Online",
        version="1",
        summary="Carson City, the board game, played asynchronously.",
        lifespan=lifespan,
        openapi_tags=[{"name": tag} for tag in API_TAGS],
        # FastAPI's own OpenTelemetry acts only where an OpenTelemetry SDK is installed and configured, which this
        # project installs none of (its metrics are Prometheus's, at /metrics; its logs its own): off, so that
        # each request does not look up three providers to find that out (measured: 34,000 instructions a request,
        # a thirtieth of a move's POST through the web layer).
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    app.state.settings = settings
    app.state.devices = DeviceCookies(settings.signing_key(), secure=settings.cookie_secure)
    install_error_handlers(app)
    openapi.install(app)
    # SkippedInMoveCycle: a move's POST and a live stream made with a bearer token have nothing for these to do.
    app.add_middleware(
        SkippedInMoveCycle,
        layer=SessionMiddleware,
        secret_key=settings.signing_key(),
        session_cookie=SESSION_COOKIE,
        same_site="lax",
        https_only=settings.cookie_secure,
        max_age=settings.session_max_age_hours * 3600,
    )
    app.add_middleware(SkippedInMoveCycle, layer=CrossSiteGuard, cookie_name=SESSION_COOKIE, site_url=settings.base_url)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(ResponseHeaders)
    app.add_middleware(HideDatabaseDetails)
    # Pages compress well (the table is ~85 KB of HTML and SVG, a tenth of that gzipped); small answers such as a
    # move's `{"seq"}` stay as they are, and live streams are never compressed (Starlette leaves
    # text/event-stream alone). Level 6, zlib's own default, not Starlette's 9: measured on the table's page, 9
    # took 2.6 ms to make it 1 % smaller than 6 does in 1.7 ms.
    app.add_middleware(SkippedInMoveCycle, layer=GZipMiddleware, minimum_size=1024, compresslevel=6)
    app.add_middleware(RequestLanguage)
    app.add_middleware(observe.Observe)
    if settings.forwarded_allow_ips:  # outermost: every layer sees the client the trusted proxy names
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
    app.include_router(api.play_router)  # first: the routes of a move's cycle (see there)
    app.include_router(stream.router)
    app.include_router(api.router)
    app.include_router(notifications.router)
    app.include_router(push_api.router)
    app.include_router(installable.router)
    app.include_router(vacation_api.router)
    app.include_router(your_data_api.router)
    app.include_router(answers_api.router)
    app.include_router(admin_api.router)
    app.include_router(moderation_api.router)
    app.include_router(moderation_pages.router)
    app.include_router(account_pages.router)
    app.include_router(guide_pages.router)
    app.include_router(lobby_pages.router)  # before the table's: /games/new is not the table of a game "new"
    app.include_router(table_pages.router)
    app.include_router(settings_pages.router)
    app.include_router(answers_pages.router)
    app.include_router(password_pages.router)
    app.include_router(player_pages.router)
    app.include_router(leaderboard_pages.router)
    app.include_router(talk_pages.router)
    app.include_router(language_pages.router)
    app.include_router(ops.router)
    app.mount("/static", VersionedStaticFiles(directory=STATIC_DIR), name="static")

    return app
