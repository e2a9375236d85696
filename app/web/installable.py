"""An installable site: the web app manifest and the service worker, both at the site's root.

The service worker (static/sw.js, served here at `/sw.js` so that its scope is the whole site) shows the pushes
and opens their game on a click, and caches the static shell only (the versioned files listed in `SHELL`), never a
page or an API answer: a page from a cache would show a stale board. The list, with each file's version, is put
in front of the script, so a deploy that changes any of them changes the script, and the browser installs the new
worker, which drops the old cache.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from app.i18n import gettext
from app.web.assets import STATIC_DIR, static_url

router = APIRouter(include_in_schema=False)
SHELL = ("style.css", "app.js", "vendor/htmx.min.js", "vendor/sse.min.js", "favicon.svg", "favicon-turn.svg",
         "icon-192.png")
THEME = "#8d6e63"  # the icon's brown
BACKGROUND = "#fff3e0"


@cache
def service_worker() -> str:
    """The worker's script: the shell's versioned addresses, their version and the icon, then static/sw.js."""
    shell = [static_url(path) for path in SHELL]
    version = hashlib.sha256(json.dumps(shell).encode()).hexdigest()[:10]
    head = (f"const SHELL = {json.dumps(shell)};\nconst VERSION = {json.dumps(version)};\n"
            f"const ICON = {json.dumps(static_url('icon-192.png'))};\n")
    return head + (STATIC_DIR / "sw.js").read_text()


@router.get("/sw.js")
async def sw_js() -> Response:
    """Never cached by HTTP: the browser checks for a new worker on each visit."""
    return Response(service_worker(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@router.get("/manifest.webmanifest")
async def manifest() -> JSONResponse:
    """Name, icons, start page, standalone display and colours, so that the site installs as an app."""
    return JSONResponse(
        {
            "name": "Carson City Online",
            "short_name": "Carson City",
            "description": gettext("Carson City, the board game, played asynchronously."),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME,
            "background_color": BACKGROUND,
            "icons": [
                {"src": static_url("icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
                {"src": static_url("icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
                {"src": static_url("icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
                {"src": static_url("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        },
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )
