"""Benchmark: the time from a move to its push at the player's push endpoint (issue 28).

A `python -m app serve` (background jobs inside it, as by default) on an embedded PostgreSQL, and a push service
on loopback in this process that notes when each push arrives. Two players subscribe a device each; their games
are played through the API one move at a time, and for every move that makes a seat newly awaited the clock runs
from just before the move's POST to the arrival of the push at that seat's endpoint. Prints the median, p90, p99
and max over `--moves` such moves (default 100). Uses BENCH_DATABASE_URL if set; asserts nothing.

Run: `.venv/bin/python bench/push_latency.py [--moves 100]`
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import uvicorn
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parent))
from move_latency import PASSWORD, bench_database, free_port, process, register, server_env, wait_up


class Endpoint:
    """The push service: records each push's arrival time by the name in its path."""

    def __init__(self) -> None:
        self.port = free_port()
        self.arrivals: dict[str, list[float]] = {}
        self.waiters: list[tuple[str, float, asyncio.Future[float]]] = []

    async def push(self, request: Request) -> Response:
        arrived = time.perf_counter()
        name = request.path_params["name"]
        await request.body()
        self.arrivals.setdefault(name, []).append(arrived)
        for waiter in [w for w in self.waiters if w[0] == name and arrived >= w[1]]:
            self.waiters.remove(waiter)
            if not waiter[2].done():
                waiter[2].set_result(arrived)
        return Response(status_code=201)

    def expect(self, name: str, after: float) -> asyncio.Future[float]:
        """The arrival time of the first push to `name` at or after `after`."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        earlier = [t for t in self.arrivals.get(name, []) if t >= after]
        if earlier:
            future.set_result(earlier[0])
        else:
            self.waiters.append((name, after, future))
        return future


def keys() -> dict[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    encode = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    return {"p256dh": encode(point), "auth": encode(os.urandom(16))}


async def bench(app_url: str, endpoint: Endpoint, wanted: int) -> list[float]:
    chooser = random.Random(2028)
    samples: list[float] = []
    async with httpx.AsyncClient(base_url=app_url, timeout=30) as client:
        r = await client.post("/api/v1/auth/token", data={"username": "admin", "password": PASSWORD})
        admin = {"Authorization": f"Bearer {r.json()['access_token']}"}
        names = ["ann", "bob"]
        headers = {name: await register(client, name) for name in names}
        for name in names:
            r = await client.post("/api/v1/push/subscriptions", headers=headers[name], json={
                "endpoint": f"http://127.0.0.1:{endpoint.port}/push/{name}", "keys": keys()})
            assert r.status_code == 201, r.text
        while len(samples) < wanted:
            r = await client.post("/api/v1/games", headers=admin, json={"name": "Push bench", "seats": 2,
                                                                        "players": names})
            game = r.json()
            seat_of = {s["seat"]: s["username"] for s in game["seats"]}
            to_act = set(game["to_act"])
            while len(samples) < wanted and to_act:
                seat = min(to_act)
                mover = seat_of[seat]
                options = (await client.get(f"/api/v1/games/{game['id']}/moves", headers=headers[mover])).json()
                if not options["moves"]:
                    await asyncio.sleep(0.01)
                    to_act = set((await client.get(f"/api/v1/games/{game['id']}", headers=admin)).json()["to_act"])
                    continue
                move = chooser.choice(options["moves"])
                started = time.perf_counter()
                r = await client.post(f"/api/v1/games/{game['id']}/moves", headers=headers[mover],
                                      json={"seq": options["seq"], "move": move})
                if r.status_code != 200:
                    continue
                summary = (await client.get(f"/api/v1/games/{game['id']}", headers=admin)).json()
                now_acting = set(summary["to_act"])
                newly = now_acting - to_act
                to_act = now_acting if summary["status"] == "active" else set()
                if not newly:
                    continue
                waits = [endpoint.expect(seat_of[s], started) for s in newly]
                try:
                    arrived = await asyncio.wait_for(asyncio.gather(*waits), 30)
                except TimeoutError:
                    print(f"  no push within 30 s after move {summary['seq']}", flush=True)
                    continue
                samples.append((max(arrived) - started) * 1000)
                if len(samples) % 20 == 0:
                    print(f"  {len(samples)} moves measured", flush=True)
    return samples


async def run(args: argparse.Namespace, url: str, data_dir: str) -> None:
    endpoint = Endpoint()
    config = uvicorn.Config(Starlette(routes=[Route("/push/{name}", endpoint.push, methods=["POST"])]),
                            host="127.0.0.1", port=endpoint.port, log_level="warning")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        port = free_port()
        env = server_env(url, PUSH_ALLOW_PRIVATE_ENDPOINTS="true", DATA_DIR=data_dir,
                         BASE_URL=f"http://127.0.0.1:{port}", BOT_POLL_SECONDS="5")
        with process([sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)], env):
            await wait_up(f"http://127.0.0.1:{port}/healthz")
            samples = await bench(f"http://127.0.0.1:{port}", endpoint, args.moves)
    finally:
        server.should_exit = True
        await task
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    p90 = ordered[min(len(ordered) - 1, round(0.90 * (len(ordered) - 1)))]
    print(f"\nmove -> push at the local endpoint, {len(samples)} moves: median {statistics.median(samples):.1f} ms, "
          f"p90 {p90:.1f} ms, p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=100, help="moves that make a seat newly awaited, measured")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        url = bench_database(stack)  # migrated before the event loop starts (Alembic runs its own)
        asyncio.run(run(args, url, stack.enter_context(tempfile.TemporaryDirectory())))


if __name__ == "__main__":
    main()
