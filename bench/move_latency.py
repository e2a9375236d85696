"""Benchmark of a move through the whole server: N concurrent simulated players (httpx, random legal moves)
against a running `python -m app serve`, and, in the same run against the same PostgreSQL, a bare FastAPI
endpoint that authenticates a bearer token and inserts one row: the floor any move must pay.

Prints moves/s, p50/p95/p99 of POST .../moves as the server timed it (its `Server-Timing` header; the client
round trip too, inflated when this one-process client saturates its core), the same for the floor, and the
ratio of the medians. Goal: ratio <= 2 and p99 <= 50 ms at 50 players.

Run: `.venv/bin/python bench/move_latency.py [--players 50] [--seconds 20]`. Uses BENCH_DATABASE_URL if set,
else an embedded PostgreSQL in a temporary directory; starts both servers itself and stops everything after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import aconnect_sse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SECRET = "bench-secret-key-0123456789-0123456789"
PASSWORD = "bench password"


def floor_app(database_url: str) -> Any:
    """The floor: verify a bearer token and its session like the real API, insert one row, commit."""
    from fastapi import FastAPI, Header, HTTPException
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import AsyncSession

    from app.play.clocks import utc_now
    from app.play.sessions import account_of
    from app.store.db import make_engine
    from app.web.app import ServerTiming
    from app.web.security import TokenSigner

    engine = make_engine(database_url)
    signer = TokenSigner(SECRET, 3600)
    app = FastAPI()
    app.add_middleware(ServerTiming)

    @app.post("/floor")
    async def floor(authorization: str = Header()) -> dict[str, int]:
        session_id = signer.session_id(authorization.removeprefix("Bearer "))
        if session_id is None:
            raise HTTPException(401)
        async with AsyncSession(engine) as session:
            account = await account_of(session, session_id, "token", utc_now())
            if account is None:
                raise HTTPException(401)
            await session.execute(text("INSERT INTO bench_floor (user_id) VALUES (:id)"), {"id": account.id})
            await session.commit()
        return {"ok": 1}

    return app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def process(args: list[str], env: dict[str, str]) -> Iterator[None]:
    proc = subprocess.Popen(args, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


async def wait_up(url: str) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(600):
            with contextlib.suppress(httpx.TransportError):
                await client.get(url)
                return
            await asyncio.sleep(0.05)
    raise SystemExit(f"{url} did not come up")


def server_ms(response: httpx.Response) -> float:
    """The server's own time for a request, from its `Server-Timing: app;dur=...` header."""
    return float(response.headers["server-timing"].split("dur=")[1])


def describe(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=100)
    return f"p50 {q[49]:6.2f} ms  p95 {q[94]:6.2f} ms  p99 {q[98]:6.2f} ms  (n={len(samples)})"


async def player(
    client: httpx.AsyncClient,
    gid: int,
    seat: int,
    headers: dict[str, str],
    chooser: random.Random,
    latencies: list[float],
    round_trips: list[float],
) -> None:
    """Follow the game's stream like a real client; move (at random) whenever this seat is awaited."""
    async with aconnect_sse(client, "GET", f"/api/v1/games/{gid}/stream", headers=headers) as source:
        async for event in source.aiter_sse():
            if event.event != "turn":
                continue
            head = json.loads(event.data)
            if head["status"] == "finished":
                return
            if seat not in head["to_act"]:
                continue
            options = (await client.get(f"/api/v1/games/{gid}/moves", headers=headers)).json()
            if not options["moves"]:
                continue
            body = {"seq": options["seq"], "move": chooser.choice(options["moves"])}
            start = time.perf_counter()
            r = await client.post(f"/api/v1/games/{gid}/moves", json=body, headers=headers)
            if r.status_code == 200:
                latencies.append(server_ms(r))
                round_trips.append((time.perf_counter() - start) * 1000)


async def floor_client(
    client: httpx.AsyncClient, headers: dict[str, str], interval: float, deadline: float, latencies: list[float]
) -> None:
    """Call the floor at the pace a player moved (`interval` seconds apart on average), so both see one load."""
    pace = random.Random(id(headers))
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        r = await client.post("/floor", headers=headers)
        r.raise_for_status()
        took = time.perf_counter() - start
        latencies.append(server_ms(r))
        await asyncio.sleep(max(0.0, pace.uniform(0.5, 1.5) * interval - took))


async def bench(app_url: str, floor_url: str, players: int, seconds: float) -> None:
    limits = httpx.Limits(max_connections=players * 2)
    async with httpx.AsyncClient(base_url=app_url, limits=limits, timeout=30) as client:
        r = await client.post("/api/v1/auth/token", data={"username": "admin", "password": PASSWORD})
        admin = {"Authorization": f"Bearer {r.json()['access_token']}"}
        tokens = {}
        for i in range(players):
            name = f"player{i}"
            await client.post(
                "/api/v1/auth/register", json={"username": name, "email": f"{name}@example.com", "password": PASSWORD}
            )
            r = await client.post("/api/v1/auth/token", data={"username": name, "password": PASSWORD})
            tokens[name] = {"Authorization": f"Bearer {r.json()['access_token']}"}
        seats = []
        for g in range(players // 2):
            names = [f"player{2 * g}", f"player{2 * g + 1}"]
            r = await client.post(
                "/api/v1/games", headers=admin, json={"name": f"bench {g}", "seats": 2, "players": names, "seed": g}
            )
            game = r.json()
            seats += [(game["id"], s["seat"], tokens[s["username"]]) for s in game["seats"]]

        latencies: list[float] = []
        round_trips: list[float] = []
        start = time.perf_counter()
        tasks = [
            asyncio.create_task(player(client, gid, seat, headers, random.Random(i), latencies, round_trips))
            for i, (gid, seat, headers) in enumerate(seats)
        ]
        await asyncio.wait(tasks, timeout=seconds)
        elapsed = time.perf_counter() - start
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async with httpx.AsyncClient(base_url=floor_url, limits=limits, timeout=30) as client:
        floor: list[float] = []
        deadline = time.perf_counter() + min(seconds, 10)
        interval = len(seats) * elapsed / max(1, len(latencies))
        await asyncio.gather(*(floor_client(client, h, interval, deadline, floor) for _, _, h in seats))

    print(f"{len(seats)} players in {len(seats) // 2} two-player games, {elapsed:.1f} s")
    print(f"moves/s: {len(latencies) / elapsed:.1f}")
    print(f"POST .../moves, server time:  {describe(latencies)}")
    print(f"POST .../moves, client round trip (this client shares the CPU): {describe(round_trips)}")
    print(f"floor, server time, same clients and pace (token + user + insert + commit): {describe(floor)}")
    print(f"ratio of medians: {statistics.median(latencies) / statistics.median(floor):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--serve-floor", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from app.store import migrate
        from app.store.db import start_embedded, to_libpq_url, to_sqlalchemy_url

    if args.serve_floor is not None:
        import uvicorn

        uvicorn.run(
            floor_app(to_sqlalchemy_url(os.environ["DATABASE_URL"])),
            host="127.0.0.1",
            port=args.serve_floor,
            log_level="warning",
        )
        return

    with contextlib.ExitStack() as stack:
        given = os.environ.get("BENCH_DATABASE_URL")
        if given:
            url = to_sqlalchemy_url(given)
        else:
            tmp = stack.enter_context(tempfile.TemporaryDirectory())
            server = start_embedded(Path(tmp) / "pgdata", delete_on_cleanup=True)
            stack.callback(server.cleanup)
            url = to_sqlalchemy_url(server.get_uri())
        migrate.upgrade(url)
        import psycopg

        with psycopg.connect(to_libpq_url(url), autocommit=True) as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, user_id int, "
                "at timestamptz DEFAULT now())"
            )
        env = {
            "DATABASE_URL": to_libpq_url(url),
            "ENVIRONMENT": "test",
            "SECRET_KEY": SECRET,
            "ADMIN_USERNAME": "admin",
            "ADMIN_PASSWORD": PASSWORD,
            "PASSWORD_HASHING": "cheapest",
        }
        app_port, floor_port = free_port(), free_port()
        stack.enter_context(process([sys.executable, "-m", "app", "serve", "--port", str(app_port)], env))
        stack.enter_context(process([sys.executable, __file__, "--serve-floor", str(floor_port)], env))
        app_url, floor_url = f"http://127.0.0.1:{app_port}", f"http://127.0.0.1:{floor_port}"
        asyncio.run(wait_up(app_url + "/healthz"))
        asyncio.run(wait_up(floor_url + "/docs"))
        asyncio.run(bench(app_url, floor_url, args.players, args.seconds))
        with psycopg.connect(to_libpq_url(url), autocommit=True) as conn:
            conn.execute("DROP TABLE bench_floor")


if __name__ == "__main__":
    main()
