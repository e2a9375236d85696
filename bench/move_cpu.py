"""Benchmark of the server's CPU time per move: a fixed script of moves through the whole application, in process,
without network, timed with the process's CPU clock (`time.process_time`), which the load of a shared machine
does not inflate the way it does wall-clock times.

The script: two-player games with seeded random moves, both seats following the game's live stream, the awaited
seat listing its moves (GET .../moves) and posting one (POST .../moves) — the cycle `bench/move_latency.py` times
on the wall clock. The requests are handed to the ASGI application directly (no HTTP client, no sockets);
PostgreSQL runs in its own processes, so its work is not counted. Per round it prints the CPU milliseconds per
move of GET .../moves, of POST .../moves (with whatever the streams did while it waited on the database), of the
streams' remaining work for the move, of the whole cycle, and of the mail worker's planning and delivery of the
round's changes (run after the round); and, for comparison, the CPU per request of the floor of
`bench/move_latency.py` (token check, session lookup, one insert, commit) in the same process. At the end: the
median of each over the rounds. The client's own work (reading the answers, choosing a move) is not counted.

What it does not show: the script posts the next move only once every stream has delivered the last one, while the
live client of `bench/move_latency.py` posts as soon as its own stream says it is awaited. In a live server the
next POST therefore arrives while the other streams' messages (and, with the mail worker inline, a run of the
worker) are still being worked out on the same event loop, and waits for them: CPU that this benchmark counts
under "streams" and "worker" shows there in the POST's round trip and server time, not only its own CPU.

Run: `.venv/bin/python bench/move_cpu.py [--moves 300] [--rounds 5] [--profile N]` (`--profile N` prints the N
functions that took most CPU over all rounds, from cProfile; the figures of a profiled run are inflated). Uses
BENCH_DATABASE_URL if set, else an embedded PostgreSQL in a temporary directory. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import psycopg
    from move_latency import floor_app

    from app.main import create_app, notifier_for
    from app.settings import Settings
    from app.store import migrate
    from app.store.db import start_embedded, to_libpq_url, to_sqlalchemy_url

SECRET = "bench-secret-key-0123456789-0123456789"
PASSWORD = "bench password"
Headers = list[tuple[bytes, bytes]]


class Asgi:
    """Requests handed straight to an ASGI application, as a server would, with the least work of its own."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def scope(self, method: str, path: str, headers: Headers) -> dict[str, Any]:
        path, _, query = path.partition("?")
        return {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", b"bench"), *headers],
            "client": ("127.0.0.1", 50000),
            "server": ("bench", 80),
        }

    async def request(
        self, method: str, path: str, headers: Headers = (), body: bytes = b"", content_type: bytes = b""
    ) -> tuple[int, bytes]:
        sent = False
        status = 0
        chunks: list[bytes] = []
        extra = [(b"content-length", str(len(body)).encode())]
        if content_type:
            extra.append((b"content-type", content_type))

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.Event().wait()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(self.scope(method, path, [*headers, *extra]), receive, send)
        return status, b"".join(chunks)

    async def json(self, method: str, path: str, headers: Headers, payload: Any = None) -> tuple[int, Any]:
        body = json.dumps(payload).encode() if payload is not None else b""
        status, answer = await self.request(method, path, headers, body, b"application/json" if body else b"")
        return status, json.loads(answer) if answer else None

    @contextlib.asynccontextmanager
    async def stream(self, path: str, headers: Headers) -> AsyncIterator[Stream]:
        """A live stream, open until the block exits (then the client goes away)."""
        stream = Stream()
        gone = asyncio.Event()

        async def receive() -> dict[str, Any]:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                stream.feed(message.get("body", b""))

        task = asyncio.create_task(self.app(self.scope("GET", path, headers), receive, send))
        try:
            yield stream
        finally:
            gone.set()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@dataclass
class Stream:
    """The `turn` events a live stream delivered: the newest seq, and a signal for each new one."""

    seq: int = -1
    status: str = ""
    to_act: list[int] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)  # with `?moves=true`: the viewer's options at `seq`
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    _pending: bytes = b""

    def feed(self, chunk: bytes) -> None:
        self._pending += chunk
        while b"\r\n\r\n" in self._pending:
            message, self._pending = self._pending.split(b"\r\n\r\n", 1)
            lines = dict(line.split(b": ", 1) for line in message.split(b"\r\n") if b": " in line)
            if lines.get(b"event") == b"turn":
                head = json.loads(lines[b"data"])
                self.seq, self.status, self.to_act = head["seq"], head["status"], head["to_act"]
                self.moves = head.get("moves", [])
                self.changed.set()

    async def reaching(self, seq: int) -> None:
        while self.seq < seq:
            self.changed.clear()
            await self.changed.wait()


@dataclass
class Round:
    """CPU seconds spent by the parts of a round's moves."""

    moves: int = 0
    get: float = 0.0
    post: float = 0.0
    cycle: float = 0.0
    worker: float = 0.0
    floor: float = 0.0
    floor_requests: int = 0

    def per_move(self) -> dict[str, float]:
        """Milliseconds per move (per request for the floor)."""
        n = self.moves or 1
        return {
            "GET moves": self.get / n * 1000,
            "POST move": self.post / n * 1000,
            "streams": (self.cycle - self.get - self.post) / n * 1000,
            "cycle": self.cycle / n * 1000,
            "worker": self.worker / n * 1000,
            "cycle+worker": (self.cycle + self.worker) / n * 1000,
            "floor": self.floor / (self.floor_requests or 1) * 1000,
        }


class Player:
    def __init__(self, name: str, headers: Headers) -> None:
        self.name = name
        self.headers = headers


async def sign_up(client: Asgi, name: str) -> Player:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD}
    status, _ = await client.json("POST", "/api/v1/auth/register", [], body)
    assert status == 201, status
    return Player(name, await token(client, name))


async def token(client: Asgi, name: str) -> Headers:
    form = f"username={name}&password={PASSWORD.replace(' ', '+')}".encode()
    status, answer = await client.request(
        "POST", "/api/v1/auth/token", [], form, b"application/x-www-form-urlencoded"
    )
    assert status == 200, answer
    return [(b"authorization", f"Bearer {json.loads(answer)['access_token']}".encode())]


class Script:
    """Plays games move by move and adds up the CPU time of each part."""

    def __init__(
        self, client: Asgi, admin: Headers, players: tuple[Player, Player], seed: int, offered: bool
    ) -> None:
        self.client = client
        self.offered = offered  # the options come with the stream's events (`?moves=true`), not from GET .../moves
        self.admin = admin
        self.players = players
        self.chooser = random.Random(seed)
        self.games = 0

    async def new_game(self) -> tuple[int, dict[int, Player]]:
        self.games += 1
        body = {"name": f"bench {self.games}", "seats": 2, "players": [p.name for p in self.players],
                "seed": self.games}
        status, game = await self.client.json("POST", "/api/v1/games", self.admin, body)
        assert status == 201, game
        by_name = {p.name: p for p in self.players}
        return game["id"], {s["seat"]: by_name[s["username"]] for s in game["seats"]}

    async def play(self, moves: int, spent: Round) -> None:
        """`moves` moves (games are started as needed; starting one is not counted)."""
        while spent.moves < moves:
            game_id, seats = await self.new_game()
            async with contextlib.AsyncExitStack() as streams:
                followed = [
                    await streams.enter_async_context(
                        self.client.stream(
                            f"/api/v1/games/{game_id}/stream" + ("?moves=true" if self.offered else ""),
                            player.headers,
                        )
                    )
                    for player in seats.values()
                ]
                for stream in followed:
                    await stream.reaching(0)
                await self._game(game_id, seats, followed, moves, spent)

    async def _game(
        self, game_id: int, seats: dict[int, Player], streams: list[Stream], moves: int, spent: Round
    ) -> None:
        path = f"/api/v1/games/{game_id}/moves"
        by_seat = dict(zip(seats, streams, strict=True))
        while spent.moves < moves and streams[0].status == "active":
            seat = streams[0].to_act[0]
            player = seats[seat]
            start = time.process_time()
            if self.offered:
                listed = start
                options = {"seq": by_seat[seat].seq, "moves": by_seat[seat].moves}
            else:
                status, answer = await self.client.request("GET", path, player.headers)
                listed = time.process_time()
                options = json.loads(answer)  # the client's work: not counted
            body = json.dumps({"seq": options["seq"], "move": self.chooser.choice(options["moves"])}).encode()
            chosen = time.process_time()
            status, answer = await self.client.request("POST", path, player.headers, body, b"application/json")
            posted = time.process_time()
            assert status == 200, answer
            seq = json.loads(answer)["seq"]
            resumed = time.process_time()
            for stream in streams:
                await stream.reaching(seq)
            done = time.process_time()
            spent.moves += 1
            spent.get += listed - start
            spent.post += posted - chosen
            spent.cycle += (listed - start) + (posted - chosen) + (done - resumed)


async def floor_cost(client: Asgi, headers: Headers, requests: int, spent: Round) -> None:
    start = time.process_time()
    for _ in range(requests):
        status, _ = await client.request("POST", "/floor", headers)
        assert status == 200, status
    spent.floor += time.process_time() - start
    spent.floor_requests += requests


async def bench(url: str, data_dir: Path, moves: int, rounds: int, profile: int, client_kind: str) -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        environment="test",
        database_url=url,
        data_dir=data_dir,
        secret_key=SECRET,
        password_hashing="cheapest",
        migrate_on_start=False,
        background_jobs=False,  # the mail worker's share is run and timed after each round instead
        admin_username="admin",
        admin_password=PASSWORD,
    )
    app = create_app(settings)
    floor = Asgi(floor_app(url))
    async with app.router.lifespan_context(app):
        client = Asgi(app)
        admin = await token(client, "admin")
        players = (await sign_up(client, "ann"), await sign_up(client, "bob"))
        floor_headers = [(b"authorization", players[0].headers[0][1])]
        notifier = notifier_for(settings, app.state.service)
        script = Script(client, admin, players, 2026, client_kind == "stream")
        await script.play(60, Round())  # warm up: caches, prepared statements, the pool
        await notifier.run_once()
        await floor_cost(floor, floor_headers, 60, Round())
        profiler = cProfile.Profile(time.process_time) if profile else None
        results = []
        print(f"CPU ms per move ({moves} moves a round, {client_kind} client) and per floor request, in process:")
        for index in range(rounds):
            spent = Round()
            with _profiling(profiler):
                await script.play(moves, spent)
                start = time.process_time()
                await notifier.run_once()
                spent.worker = time.process_time() - start
                await floor_cost(floor, floor_headers, moves, spent)
            figures = spent.per_move()
            results.append(figures)
            print(f"  round {index + 1}: " + " | ".join(f"{name} {value:.3f}" for name, value in figures.items()))
        print("median over rounds:")
        for name in results[0]:
            print(f"  {name:13s} {statistics.median(r[name] for r in results):.3f} ms")
        cycle = statistics.median(r["cycle+worker"] / r["floor"] for r in results)
        print(f"  a move's cycle (with the worker) costs {cycle:.2f} floor requests of CPU")
    if profiler is not None:
        if os.environ.get("BENCH_PROFILE_FILE"):
            profiler.dump_stats(os.environ["BENCH_PROFILE_FILE"])
        pstats.Stats(profiler).sort_stats("tottime").print_stats(profile)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(profile)


@contextlib.contextmanager
def _profiling(profiler: cProfile.Profile | None) -> Iterator[None]:
    if profiler is None:
        yield
        return
    profiler.enable()
    try:
        yield
    finally:
        profiler.disable()


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed, as uvicorn chooses it for the server; else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        print("event loop: asyncio's own")
        return None
    print("event loop: uvloop")
    return uvloop.new_event_loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=300, help="moves per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions")
    parser.add_argument(
        "--client",
        choices=["stream", "poll"],
        default="stream",
        help="where the awaited seat takes its options: from its stream's events (`?moves=true`) or from GET .../moves",
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        given = os.environ.get("BENCH_DATABASE_URL")
        if given:
            url = to_sqlalchemy_url(given)
        else:
            server = start_embedded(tmp / "pgdata", delete_on_cleanup=True)
            stack.callback(server.cleanup)
            url = to_sqlalchemy_url(server.get_uri())
        migrate.upgrade(url)
        with psycopg.connect(to_libpq_url(url), autocommit=True) as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, user_id int, "
                "at timestamptz DEFAULT now())"
            )
        try:
            with asyncio.Runner(loop_factory=_loop_factory()) as runner:
                runner.run(bench(url, tmp, args.moves, args.rounds, args.profile, args.client))
        finally:
            with psycopg.connect(to_libpq_url(url), autocommit=True) as conn:
                conn.execute("DROP TABLE bench_floor")


if __name__ == "__main__":
    main()
