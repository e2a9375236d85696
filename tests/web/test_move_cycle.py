"""Which requests skip the session, cross-site and gzip middlewares (`app.web.move_cycle`): only a move's POST and a
live stream's GET made with a bearer token, for which those layers have nothing to do."""

from __future__ import annotations

from typing import Any

import pytest

from app.web.move_cycle import SkippedInMoveCycle, in_move_cycle


def _scope(method: str, path: str, *headers: tuple[bytes, bytes]) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path, "headers": list(headers)}


BEARER = (b"authorization", b"Bearer abc.def")


@pytest.mark.parametrize(
    ("scope", "skips"),
    [
        (_scope("POST", "/api/v1/games/12/moves", BEARER), True),
        (_scope("GET", "/api/v1/games/12/stream", BEARER), True),
        (_scope("POST", "/api/v1/games/12/moves", (b"authorization", b"bearer abc")), True),
        (_scope("POST", "/api/v1/games/12/moves", (b"cookie", b"carson_session=x")), False),
        (_scope("POST", "/api/v1/games/12/moves", (b"authorization", b"Basic eDp5"), BEARER), False),
        (_scope("POST", "/api/v1/games/12/moves", (b"authorization", b"Bearer")), False),
        (_scope("GET", "/api/v1/games/12/moves", BEARER), False),  # its list of moves may be worth compressing
        (_scope("POST", "/api/v1/games/12/undo", BEARER), False),
        (_scope("POST", "/api/v1/games/12/moves/x", BEARER), False),
        (_scope("POST", "/api/v1/games/x/moves", BEARER), False),
        (_scope("POST", "/api/v1/auth/logout", BEARER), False),
    ],
)
def test_only_a_moves_post_and_a_streams_get_with_a_bearer_token_skip(scope: dict[str, Any], skips: bool) -> None:
    assert in_move_cycle(scope) is skips


async def test_the_layer_sees_every_other_request_and_the_app_the_move_cycles() -> None:
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append("app")

    def layer(inner: Any, label: str) -> Any:
        async def wrapped(scope: Any, receive: Any, send: Any) -> None:
            seen.append(label)
            await inner(scope, receive, send)

        return wrapped

    skipping = SkippedInMoveCycle(app, layer, label="layer")
    await skipping(_scope("POST", "/api/v1/games/3/moves", BEARER), None, None)
    assert seen == ["app"]
    seen.clear()
    await skipping(_scope("POST", "/api/v1/games/3/moves"), None, None)
    assert seen == ["layer", "app"]
