"""A lighter refresh (issue "The table players would switch for", item 7): the table's live refresh comes
compressed, and static files have versioned names that browsers may keep for a year."""

from __future__ import annotations

import re
from typing import Any

import httpx

from app.web.assets import FOREVER, REVALIDATE
from tests.web.test_input import _page_client


async def test_the_tables_refresh_is_compressed(api: Any, client: httpx.AsyncClient) -> None:
    await _page_client(client, api)
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(await api.admin(), [ann, bob])
    headers = {"Accept": "text/html", "HX-Request": "true", "Accept-Encoding": "gzip"}
    refresh = await client.get(f"/games/{game['id']}", headers=headers)
    assert refresh.status_code == 200 and refresh.headers["content-encoding"] == "gzip"
    sent = int(refresh.headers["content-length"])
    assert 'id="board"' in refresh.text and sent * 4 < len(refresh.content)  # httpx gives the page unzipped
    plain = await client.get(f"/games/{game['id']}", headers={**headers, "Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    timing = re.compile(r'data-render-ms="[^"]*"')  # the only part that differs from one render to the next
    assert timing.sub("", plain.text) == timing.sub("", refresh.text)


async def test_static_files_have_versioned_names_cached_for_good(client: httpx.AsyncClient) -> None:
    page = (await client.get("/rules", headers={"Accept": "text/html"})).text
    (css,) = re.findall(r'href="(/static/style\.css\?v=[0-9a-f]{10})"', page)
    versioned = await client.get(css)
    assert versioned.status_code == 200 and versioned.headers["cache-control"] == FOREVER
    bare = await client.get("/static/style.css")
    assert bare.headers["cache-control"] == REVALIDATE
    assert bare.content == versioned.content
