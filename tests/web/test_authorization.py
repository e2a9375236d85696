"""Who may call what: every endpoint against anonymous, a seated player, another player and an admin."""

from __future__ import annotations

import httpx
import pytest
from conftest import Api

ROLES = ("anonymous", "seated", "other", "admin")
# endpoint -> expected status per role; "seated" is awaited, "other" is seated but not awaited, and the
# admin has no seat.
MATRIX: list[tuple[str, str, tuple[int, int, int, int]]] = [
    ("GET", "/api/v1/auth/me", (401, 200, 200, 200)),
    ("GET", "/api/v1/games", (401, 200, 200, 200)),
    ("POST", "/api/v1/games", (401, 201, 201, 201)),
    ("GET", "/api/v1/games/{gid}", (401, 200, 200, 200)),
    ("POST", "/api/v1/games/{open}/join", (401, 200, 200, 200)),
    ("POST", "/api/v1/games/{open2}/start", (401, 403, 403, 200)),
    ("POST", "/api/v1/games/{open2}/leave", (401, 204, 204, 409)),
    ("POST", "/api/v1/games/{open}/invitations", (401, 403, 403, 201)),
    ("POST", "/api/v1/games/{open}/decline", (401, 404, 404, 404)),
    ("GET", "/api/v1/me/invitations", (401, 200, 200, 200)),
    ("GET", "/api/v1/games/{gid}/chat", (401, 200, 200, 200)),
    ("POST", "/api/v1/games/{gid}/chat", (401, 201, 201, 403)),
    ("GET", "/api/v1/games/{gid}/notes", (401, 200, 200, 403)),
    ("PUT", "/api/v1/games/{gid}/notes", (401, 200, 200, 403)),
    ("GET", "/api/v1/games/{gid}/state", (401, 200, 200, 200)),
    ("GET", "/api/v1/games/{gid}/moves", (401, 200, 200, 200)),
    ("POST", "/api/v1/games/{gid}/moves", (401, 200, 403, 403)),
    ("GET", "/api/v1/games/{gid}/events", (401, 200, 200, 200)),
    ("GET", "/api/v1/games/999/stream", (401, 404, 404, 404)),
]


BODIES = {
    "/api/v1/games": {"name": "new", "seats": 2},
    "/api/v1/games/{open}/invitations": {"username": "ann"},
    "/api/v1/games/{gid}/chat": {"text": "hello"},
    "/api/v1/games/{gid}/notes": {"text": "mine"},
}


@pytest.mark.parametrize(("method", "path", "expected"), MATRIX, ids=[f"{m} {p}" for m, p, _ in MATRIX])
async def test_authorization_matrix(
    api: Api, client: httpx.AsyncClient, method: str, path: str, expected: tuple[int, ...]
) -> None:
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob])
    for role, status in zip(ROLES, expected, strict=True):
        # "seated" is the player awaited right now, "other" the one who is seated but not awaited.
        summary = (await client.get(f"/api/v1/games/{game['id']}", headers=admin.headers)).json()
        seated = api.seated(summary, [ann, bob])[summary["to_act"][0]]
        other = ann if seated is bob else bob
        ids = {"gid": game["id"]}
        for key in ("open", "open2"):
            r = await client.post("/api/v1/games", json={"name": key, "seats": 3}, headers=admin.headers)
            ids[key] = r.json()["id"]
        await client.post(f"/api/v1/games/{ids['open2']}/join", headers=ann.headers)
        await client.post(f"/api/v1/games/{ids['open2']}/join", headers=bob.headers)
        headers = {"seated": seated.headers, "other": other.headers, "admin": admin.headers}.get(role, {})
        body = BODIES.get(path)
        if path.endswith("/moves") and method == "POST":
            moves = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=seated.headers)).json()
            move = moves["moves"][0] if moves["moves"] else {"type": "pass"}
            body = {"seq": summary["seq"], "move": move}
        r = await client.request(method, path.format(**ids), json=body, headers=headers)
        assert r.status_code == status, (role, r.text)
        if status >= 400:
            assert set(r.json()["detail"]) == {"code", "message"}
