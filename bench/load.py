"""Benchmark of a move under load: many games played at once through the API, measured from outside.

The server: `python -m app serve` (uvicorn, the mail worker and the move clocks inside, as `./run.sh serve` runs
it) on an embedded PostgreSQL. The load: `--games` two-player games (default 50) played at the same time, each
seat a simulated player that follows its game's live stream (`?moves=true`) and, whenever it is awaited, posts
one of the moves the stream offered, at random (httpx); a finished game is followed by a new one for the same
players. A move's latency is the POST's round trip as the client sees it (connection pool, server, database and
all); beside it, the server's own time for the same moves (its `Server-Timing` header), which the client's own
delays on a shared machine do not stretch. Printed per round and over all rounds: the moves made, p50 / p99 / max
of both, and the errors (any answer but 200, and any failed request or stream); target: p99 within 4x p50, 0
errors.

Run: `.venv/bin/python bench/load.py [--games 50] [--rounds 3] [--seconds 20]`. Uses BENCH_DATABASE_URL if set,
else an embedded PostgreSQL in a temporary directory; starts the server itself and stops everything after. Prints
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import aconnect_sse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from move_latency import PASSWORD, bench_database, free_port, process, register, server_env, server_ms, wait_up  # noqa: E402

SERVER = [sys.executable, "-m", "app", "serve", "--port"]  # and the port
WARM_UP_SECONDS = 10.0


@dataclass
class Round:
    """The latencies (ms) of a round's moves, and its errors by kind."""

    latencies: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)  # the server's own time for the same moves (Server-Timing)
    errors: dict[str, int] = field(default_factory=dict)
    started: list[float] = field(default_factory=list)  # when each move was sent, and each error happened
    errors_at: list[tuple[float, str]] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        self.errors_at.append((time.perf_counter(), kind))

    def between(self, start: float, end: float) -> Round:
        """The moves sent, and the errors met, from `start` to `end`."""
        part = Round()
        for at, latency, server in zip(self.started, self.latencies, self.server, strict=True):
            if start <= at < end:
                part.started.append(at)
                part.latencies.append(latency)
                part.server.append(server)
        for at, kind in self.errors_at:
            if start <= at < end:
                part.errors[kind] = part.errors.get(kind, 0) + 1
        return part

    def line(self) -> str:
        if not self.latencies:
            return f"no moves | errors {sum(self.errors.values())} {self.errors or ''}"
        return (
            f"{len(self.latencies):5d} moves | {_spread(self.latencies)} | errors {sum(self.errors.values())}"
            + (f" {self.errors}" if self.errors else "")
            + f"\n{'':11s}the server's own time: {_spread(self.server)}"
        )


def _spread(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50, p99 = statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {p50:7.1f} ms | p99 {p99:7.1f} ms ({p99 / p50:4.1f}x p50) | max {ordered[-1]:7.1f} ms"


class Load:
    def __init__(self, client: httpx.AsyncClient, admin: dict[str, str]) -> None:
        self.client = client
        self.admin = admin
        self.created = 0

    async def new_game(self, names: tuple[str, str]) -> dict[str, Any]:
        self.created += 1
        body = {"name": f"load {self.created}", "seats": 2, "players": list(names), "seed": self.created}
        r = await self.client.post("/api/v1/games", headers=self.admin, json=body)
        r.raise_for_status()
        game: dict[str, Any] = r.json()
        return game

    async def seat(
        self, game_id: int, seat: int, headers: dict[str, str], chooser: random.Random, spent: Round
    ) -> None:
        """Follow the game's stream and move whenever this seat is awaited, until the game ends."""
        url = f"/api/v1/games/{game_id}/stream?moves=true"
        async with aconnect_sse(self.client, "GET", url, headers=headers) as source:
            async for event in source.aiter_sse():
                if event.event != "turn":
                    continue
                head = json.loads(event.data)
                if head["status"] == "finished":
                    return
                if seat in head["to_act"] and head["moves"]:
                    await self.move(game_id, headers, head, chooser, spent)

    async def move(
        self, game_id: int, headers: dict[str, str], options: dict[str, Any], chooser: random.Random, spent: Round
    ) -> None:
        """Post one of the moves offered; after a refusal, count the error and try again with the options as GET
        .../moves gives them (up to 3 times), so that one error does not stall the game."""
        for _ in range(3):
            body = {"seq": options["seq"], "move": chooser.choice(options["moves"])}
            start = time.perf_counter()
            r = await self.client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=headers)
            if r.status_code == 200:
                spent.started.append(start)
                spent.latencies.append((time.perf_counter() - start) * 1000)
                spent.server.append(server_ms(r))
                return
            spent.error(f"{r.status_code} {r.json().get('detail', {}).get('code', '')}")
            options = (await self.client.get(f"/api/v1/games/{game_id}/moves", headers=headers)).json()
            if not options.get("moves"):
                return

    async def table(
        self, names: tuple[str, str], headers: tuple[dict[str, str], dict[str, str]], chooser: random.Random,
        until: float, spent: Round,
    ) -> None:
        by_name = dict(zip(names, headers, strict=True))
        with contextlib.suppress(TimeoutError):
            # Games still under way at the end are left (their streams closed).
            async with asyncio.timeout(until - time.perf_counter()):
                while True:
                    try:
                        game = await self.new_game(names)
                        await asyncio.gather(
                            *(self.seat(game["id"], s["seat"], by_name[s["username"]], chooser, spent)
                              for s in game["seats"])
                        )
                    except (httpx.HTTPError, ValueError, KeyError) as exc:
                        spent.error(type(exc).__name__)
                        await asyncio.sleep(0.1)


async def bench(url: str, args: argparse.Namespace) -> None:
    limits = httpx.Limits(max_connections=args.games * 4, max_keepalive_connections=args.games * 4)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        r = await client.post("/api/v1/auth/token", data={"username": "admin", "password": PASSWORD})
        load = Load(client, {"Authorization": f"Bearer {r.json()['access_token']}"})
        tables = []
        for g in range(args.games):
            names = (f"player{2 * g}", f"player{2 * g + 1}")
            tables.append((names, (await register(client, names[0]), await register(client, names[1]))))
        chooser = random.Random(2026)
        # The games are played without a break from the start to the end: a finished game is replaced at once, so
        # games start one by one as the load goes on. The first WARM_UP_SECONDS are not counted; each round is a
        # window of the same play.
        spent = Round()
        start = time.perf_counter() + WARM_UP_SECONDS
        until = start + args.rounds * args.seconds
        await asyncio.gather(*(load.table(n, h, chooser, until, spent) for n, h in tables))
        rounds = [spent.between(start + i * args.seconds, start + (i + 1) * args.seconds) for i in range(args.rounds)]
        print(f"{args.games} games at once, both seats of each following its stream; a move's round trip:")
        for index, part in enumerate(rounds):
            print(f"  round {index + 1}: {part.line()}")
        print(f"  games started: {load.created}")
    everything = Round()
    for spent in rounds:
        everything.latencies += spent.latencies
        everything.server += spent.server
        for kind, count in spent.errors.items():
            everything.errors[kind] = everything.errors.get(kind, 0) + count
    print(f"all rounds (target: p99 within 4x p50, 0 errors):\n  {everything.line()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20, help="length of a round")
    parser.add_argument("--metrics", action="store_true", help="print the server's carson_ metrics at the end")
    args = parser.parse_args()

    with contextlib.ExitStack() as stack:
        env = server_env(bench_database(stack), SIGN_UPS_PER_ADDRESS_PER_HOUR="100000", METRICS_TOKEN=METRICS_TOKEN)
        port = free_port()
        stack.enter_context(process([*SERVER, str(port)], env))
        asyncio.run(wait_up(f"http://127.0.0.1:{port}/healthz"))
        asyncio.run(bench(f"http://127.0.0.1:{port}", args))
        if args.metrics:
            print_metrics(f"http://127.0.0.1:{port}")


METRICS_TOKEN = "bench-metrics-token"


def print_metrics(base: str) -> None:
    """The server's own metrics after the run (GET /metrics), its `carson_` samples only, the histograms' buckets
    left out but for their count and sum."""
    r = httpx.get(base + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=10)
    r.raise_for_status()
    print("GET /metrics (carson_ samples, histogram buckets left out):")
    for line in r.text.splitlines():
        if line.startswith("carson_") and "_bucket{" not in line and "_created" not in line:
            print("  " + line)


if __name__ == "__main__":
    main()
