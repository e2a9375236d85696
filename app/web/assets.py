"""Static files with versioned names: pages link `/static/style.css?v=<digest of its content>`, and such a link is
served with a year's cache lifetime (the digest changes whenever the file does, so a browser never keeps a stale
copy); a link without the digest must be checked again each time.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC_DIR = Path(__file__).resolve().parents[2] / "static"
FOREVER = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@cache
def _digest(path: str) -> str:
    """The first 10 hex digits of the file's SHA-256, read once per process (the files change with a deploy)."""
    return hashlib.sha256((STATIC_DIR / path).read_bytes()).hexdigest()[:10]


def static_url(path: str) -> str:
    """The versioned address of a static file, for templates: `{{ static_url("style.css") }}`."""
    return f"/static/{path}?v={_digest(path)}"


class VersionedStaticFiles(StaticFiles):
    """StaticFiles that lets a versioned address be cached for good."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        versioned = b"v=" in scope.get("query_string", b"")
        if response.status_code == 200:
            response.headers["Cache-Control"] = FOREVER if versioned else REVALIDATE
        return response
