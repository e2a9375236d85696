"""Refuse cross-site requests that would act with the browser's ambient credentials.

A browser attaches the session cookie to whatever page makes the request; SameSite=Lax keeps it off most
cross-site POSTs, but not all (older browsers, sibling subdomains). So an unsafe request (POST, PUT, PATCH,
DELETE) that carries the session cookie, or that signs a browser in (which would plant someone else's session,
"login CSRF"), must come from one of our own pages: its `Origin` (or, without one, its `Referer`) must be the
site's own, that is BASE_URL's origin or the request's own host. Requests with neither header (command-line
clients) and bearer-token requests (no ambient credential: a foreign page cannot set the header) pass.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SIGN_IN_PATHS = frozenset({"/api/v1/auth/login", "/login"})
REFUSAL = {
    "code": "cross_site_request",
    "message": "This request came from another site; it was refused. Use this site's own pages.",
}


def origin_of(url: str) -> str:
    """`scheme://host[:port]` of `url`, lower case and without a default port; "" when `url` has none (such as
    the `null` origin of sandboxed pages)."""
    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        return ""
    if not parts.scheme or not parts.hostname:
        return ""
    scheme = parts.scheme.lower()
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    shown_port = f":{port}" if port is not None and port != {"http": 80, "https": 443}.get(scheme) else ""
    return f"{scheme}://{host}{shown_port}"


class CrossSiteGuard:
    """403 `cross_site_request` for unsafe requests with ambient credentials from a foreign origin."""

    def __init__(self, app: ASGIApp, cookie_name: str, site_url: str) -> None:
        self.app = app
        self.cookie_name = cookie_name
        self.site_origin = origin_of(site_url)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            headers = Headers(scope=scope)
            if self._ambient(scope, headers) and self._foreign(headers):
                await JSONResponse({"detail": REFUSAL}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _ambient(self, scope: Scope, headers: Headers) -> bool:
        """Would the request act with the browser's credentials (or sign a browser in)?"""
        if headers.get("authorization", "").lower().startswith("bearer "):
            return False
        return scope["path"] in SIGN_IN_PATHS or self.cookie_name in cookie_parser(headers.get("cookie", ""))

    def _foreign(self, headers: Headers) -> bool:
        source = headers.get("origin") or headers.get("referer")
        if source is None:
            return False
        origin = origin_of(source)
        own_host = headers.get("host", "").lower()
        return not origin or (origin != self.site_origin and urlsplit(origin).netloc != own_host)
