"""Benchmark of the reads of a running table: what each one asks PostgreSQL for, and how long it takes.

For the table page (`GET /games/{id}`), its board partial (the same with `HX-Request`: a move's answer and the
live refresh), `GET /api/v1/games/{id}/state` and `GET /api/v1/games/{id}/moves`, on a warm cache (the server
has shown the table just before): the statements the server sent, counted from outside the server by a proxy in
front of PostgreSQL that reads the protocol's messages (tests/wire.py), and the median wall-clock time of the
request in process (httpx over ASGI, no network). A move (`POST .../moves`) is measured alongside for scale.

Run: `.venv/bin/python bench/reads.py [--requests 50]`. Starts an embedded PostgreSQL in a temporary directory and
stops it after. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
SECRET = "bench-secret-key-0123456789-0123456789"
PASSWORD = "bench password"


async def token(client: httpx.AsyncClient, username: str) -> dict[str, str]:
    r = await client.post("/api/v1/auth/token", data={"username": username, "password": PASSWORD})
    r.raise_for_status()
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def bench(proxy_dir: Path, data_dir: Path, requests: int, counter: Any) -> None:
    from app.main import create_app
    from app.settings import Settings

    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        environment="test",
        database_url=f"postgresql://postgres:@/postgres?host={proxy_dir}",
        data_dir=data_dir,
        secret_key=SECRET,
        password_hashing="cheapest",
        background_jobs=False,
        admin_username="admin",
        admin_password=PASSWORD,
    )
    app = create_app(settings)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as client,
    ):
        admin = await token(client, "admin")
        for name in ("ann", "bob"):
            r = await client.post("/api/v1/auth/register",
                                  json={"username": name, "email": f"{name}@example.com", "password": PASSWORD})
            r.raise_for_status()
        players = {name: await token(client, name) for name in ("ann", "bob")}
        r = await client.post("/api/v1/games", headers=admin,
                              json={"name": "Bench", "seats": 2, "players": list(players), "seed": 5})
        r.raise_for_status()
        game = r.json()
        by_seat = {s["seat"]: players[s["username"]] for s in game["seats"]}
        who = by_seat[game["to_act"][0]]
        reads = {
            "table page": (f"/games/{game['id']}", {}),
            "board partial": (f"/games/{game['id']}", {"HX-Request": "true"}),
            "GET .../state": (f"/api/v1/games/{game['id']}/state", {}),
            "GET .../moves": (f"/api/v1/games/{game['id']}/moves", {}),
        }
        for _ in range(5):  # warm up: the cache, the pool, the statements prepared on the connections
            for url, extra in reads.values():
                (await client.get(url, headers={**who, **extra})).raise_for_status()
        print(f"{'request':<16}{'statements':>12}{'median ms':>12}   ({requests} requests each, warm cache)")
        for name, (url, extra) in reads.items():
            statements, times = [], []
            for _ in range(requests):
                before, start = counter.statements, time.perf_counter()
                (await client.get(url, headers={**who, **extra})).raise_for_status()
                times.append(time.perf_counter() - start)
                statements.append(counter.statements - before)
            print(f"{name:<16}{statistics.median(statements):>12.0f}{statistics.median(times) * 1000:>12.2f}")
        statements, times = [], []
        for _ in range(min(requests, 20)):
            summary = (await client.get(f"/api/v1/games/{game['id']}", headers=admin)).json()
            mover = by_seat[summary["to_act"][0]]
            options = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=mover)).json()
            body = {"seq": options["seq"], "move": options["moves"][0]}
            before, start = counter.statements, time.perf_counter()
            (await client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=mover)).raise_for_status()
            times.append(time.perf_counter() - start)
            statements.append(counter.statements - before)
        print(f"{'POST .../moves':<16}{statistics.median(statements):>12.0f}{statistics.median(times) * 1000:>12.2f}")


async def main(requests: int) -> None:
    from wire import WireCounter, socket_of

    from app.store.db import start_embedded

    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        server = start_embedded(tmp / "pgdata", delete_on_cleanup=True)
        stack.callback(server.cleanup)
        (tmp / "proxy").mkdir()
        async with WireCounter(socket_of(server.get_uri()), tmp / "proxy") as counter:
            await bench(tmp / "proxy", tmp, requests, counter)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50, help="requests of each kind measured")
    asyncio.run(main(parser.parse_args().requests))
