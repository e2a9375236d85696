"""Benchmark of a move under load: many games played at once through the API, measured from outside.

The server: `python -m app serve` (uvicorn, the mail worker and the move clocks inside, as `./run.sh serve` runs it)
on an embedded PostgreSQL. The load: `--games` two-player games (default 50) played at the same time, each seat a
simulated player that follows its game's live stream (`?moves=true`) and, whenever it is awaited, posts one of the
moves the stream offered, at random (httpx); a finished game is followed by a new one for the same players. The
player behaves as a correct client must: it acts only on the newest head its stream has sent (a task of its own
reads the stream, and heads that arrived while a move was on its way are passed over for the newest), never on a
head older than its own last move's answer; a `409 stale_seq` on a move's first try is then re-read (GET .../moves),
retried once and counted apart as "stale, retried" with what the stream had said, not hidden and not an error, since
a real client meets it when the game moves on under it (no decision of the two-player game awaits both seats, so
none is expected). The player used to act on every head in the order the stream sent them: after one refusal,
retried from GET .../moves, it then moved on the heads the stream had sent meanwhile, older than that retry, so that
one refusal made two `409 stale_seq`. The tables are dealt to `--clients` client processes (default 4), each with
its own event loop: one Python process following 100 streams and playing 50 players was itself the tail (its event
loop ran 60-70 ms late at the median, and a move's p99 was 6-7x its p50, while an idle client saw the server answer
within 0.4 s at p99). A move's latency is the POST's round trip as the client sees it (connection pool, server,
database and all); beside it, the server's own time for the same moves (its `Server-Timing` header), which the
client's own delays on a shared machine do not stretch. Printed per round and over all rounds: the moves made, p50 /
p99 / max of both, and the errors (any answer but 200, and any failed request or stream); target: p99 within 4x p50,
0 errors. Printed to tell where the time goes: how late the client processes' event loops ran; what an idle client
process (the probe) saw of the server at the same time (GET /healthz every 50 ms: its round trip and the server's
own time for it), and what the application's database sessions were doing at those moments (`pg_stat_activity`, and
for a session idle in a transaction the statement it ran last: the transaction held open while the application does
something else); and the CPU share of one core that the server and each client process used.

Run: `.venv/bin/python bench/load.py [--games 50] [--rounds 3] [--seconds 20] [--clients 4] [--metrics]`. Uses
BENCH_DATABASE_URL if set, else an embedded PostgreSQL in a temporary directory; starts the server itself and stops
everything after. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from httpx_sse import aconnect_sse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from move_latency import (  # noqa: E402
    PASSWORD,
    bench_database,
    free_port,
    process,
    register,
    server_cpu,
    server_env,
    server_ms,
    wait_up,
)

SERVER = [sys.executable, "-m", "app", "serve", "--port"]  # and the port
WARM_UP_SECONDS = 10.0
LAG_TICK = 0.01  # seconds between two looks at a client's event loop
PROBE_EVERY = 0.05  # seconds between two probes of the server from an idle client


@dataclass
class Round:
    """The latencies (ms) of a round's moves, and its errors by kind."""

    latencies: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)  # the server's own time for the same moves (Server-Timing)
    errors: dict[str, int] = field(default_factory=dict)
    started: list[float] = field(default_factory=list)  # when each move was sent, and each error happened
    errors_at: list[tuple[float, str]] = field(default_factory=list)
    stale_at: list[float] = field(default_factory=list)  # when a move's first try met a 409 stale_seq (retried)
    lags: list[tuple[float, float]] = field(default_factory=list)  # (when, ms): the client's event loop's lag
    cpu: float = 0.0  # the client process's CPU seconds in the counted window
    details: list[str] = field(default_factory=list)  # what each refused move had heard, and where the game was
    games: int = 0

    def absorb(self, other: Round) -> None:
        """Add another client process's (or round's) figures to these."""
        self.latencies += other.latencies
        self.server += other.server
        self.started += other.started
        self.errors_at += other.errors_at
        self.stale_at += other.stale_at
        self.lags += other.lags
        self.games += other.games
        self.details += other.details
        for kind, count in other.errors.items():
            self.errors[kind] = self.errors.get(kind, 0) + count

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
                part.errors_at.append((at, kind))
                part.errors[kind] = part.errors.get(kind, 0) + 1
        part.stale_at = [at for at in self.stale_at if start <= at < end]
        part.lags = [(at, lag) for at, lag in self.lags if start <= at < end]
        return part

    def line(self) -> str:
        if not self.latencies:
            errors = f"errors {sum(self.errors.values())} {self.errors or ''}"
            return f"no moves | {errors} | stale, retried {len(self.stale_at)}"
        return (
            f"{len(self.latencies):5d} moves | {_spread(self.latencies)} | errors {sum(self.errors.values())}"
            + (f" {self.errors}" if self.errors else "")
            + f" | stale, retried {len(self.stale_at)}"
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
        """Follow the game's stream and move whenever this seat is awaited, until the game ends, as a correct
        client does: on the newest head heard only (a task of its own reads the stream, so the heads that arrived
        while a move was on its way are passed over for the newest), and never on a head older than its own last
        move's answer (a head it has moved from)."""
        heads: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        heard: list[tuple[int, list[int]]] = []  # the (seq, to_act) of the stream's last turn events, for refusals
        listener = asyncio.create_task(self.listen(game_id, headers, heads, heard))
        moved_to = 0  # the seq the answer to this seat's last move gave
        try:
            while True:
                head = await heads.get()
                while not heads.empty():
                    head = heads.get_nowait()
                if head is None:  # the stream ended: with the error that ended it, if any
                    await listener
                    return
                if head["status"] == "finished":
                    return
                if head["seq"] >= moved_to and seat in head["to_act"] and head["moves"]:
                    context = f"seat {seat}, stream heard {heard}, last move answered seq {moved_to}"
                    moved_to = await self.move(game_id, headers, head, chooser, spent, context)
        finally:
            listener.cancel()

    async def listen(
        self,
        game_id: int,
        headers: dict[str, str],
        heads: asyncio.Queue[dict[str, Any] | None],
        heard: list[tuple[int, list[int]]],
    ) -> None:
        """Put each head the game's stream sends into `heads` (its seq and to_act noted in `heard`), then None
        when the stream ends."""
        url = f"/api/v1/games/{game_id}/stream?moves=true"
        try:
            async with aconnect_sse(self.client, "GET", url, headers=headers) as source:
                async for event in source.aiter_sse():
                    if event.event == "turn":
                        head = json.loads(event.data)
                        heard[:] = [*heard[-3:], (head["seq"], head["to_act"])]
                        heads.put_nowait(head)
        finally:
            heads.put_nowait(None)

    async def move(
        self,
        game_id: int,
        headers: dict[str, str],
        options: dict[str, Any],
        chooser: random.Random,
        spent: Round,
        context: str,
    ) -> int:
        """Post one of the moves offered; the seq its answer gave (0 if no move was made). After a refusal, note
        what the stream had said and where the game was (GET .../moves), and move again from what GET .../moves
        offers (up to twice more), so that one refusal does not stall the game. A `409 stale_seq` on the first
        try is counted apart, "stale, retried": a correct client meets it when the game moves on while its move
        is on its way (which no decision of the two-player game allows, so any is printed and looked at); every
        other refusal, and any refusal of a retry, is an error."""
        for attempt in range(3):
            body = {"seq": options["seq"], "move": chooser.choice(options["moves"])}
            start = time.perf_counter()
            r = await self.client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=headers)
            if r.status_code == 200:
                spent.started.append(start)
                spent.latencies.append((time.perf_counter() - start) * 1000)
                spent.server.append(server_ms(r))
                return int(r.json()["seq"])
            kind = f"{r.status_code} {r.json().get('detail', {}).get('code', '')}"
            if attempt == 0 and kind == "409 stale_seq":
                spent.stale_at.append(time.perf_counter())
            else:
                spent.error(kind)
            posted, refused = options["seq"], r.text
            options = (await self.client.get(f"/api/v1/games/{game_id}/moves", headers=headers)).json()
            spent.details.append(
                f"game {game_id}, {context}: posted at seq {posted}, answered {refused}; "
                f"GET .../moves then said seq {options.get('seq')} with "
                f"{len(options.get('moves', []))} moves"
            )
            if not options.get("moves"):
                return 0
        return 0

    async def table(
        self,
        names: tuple[str, str],
        headers: tuple[dict[str, str], dict[str, str]],
        chooser: random.Random,
        until: float,
        spent: Round,
    ) -> None:
        by_name = dict(zip(names, headers, strict=True))
        with contextlib.suppress(TimeoutError):
            # Games still under way at the end are left (their streams closed).
            async with asyncio.timeout(until - time.perf_counter()):
                while True:
                    try:
                        game = await self.new_game(names)
                        await asyncio.gather(
                            *(
                                self.seat(game["id"], s["seat"], by_name[s["username"]], chooser, spent)
                                for s in game["seats"]
                            )
                        )
                    except (httpx.HTTPError, ValueError, KeyError) as exc:
                        spent.error(type(exc).__name__)
                        await asyncio.sleep(0.1)


Tables = list[tuple[tuple[str, str], tuple[dict[str, str], dict[str, str]]]]


@dataclass
class Window:
    """When the counted play starts and ends (`time.perf_counter`, the system's monotonic clock: the same in
    every client process), and how it is cut into rounds."""

    start: float
    rounds: int
    seconds: float

    @property
    def until(self) -> float:
        return self.start + self.rounds * self.seconds


async def setup(url: str, games: int) -> tuple[dict[str, str], Tables]:
    """The admin's bearer header and the players of each table, registered."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        r = await client.post("/api/v1/auth/token", data={"username": "admin", "password": PASSWORD})
        admin = {"Authorization": f"Bearer {r.json()['access_token']}"}
        tables = []
        for g in range(games):
            names = (f"player{2 * g}", f"player{2 * g + 1}")
            tables.append((names, (await register(client, names[0]), await register(client, names[1]))))
        return admin, tables


async def play(url: str, admin: dict[str, str], tables: Tables, window: Window, first_game: int) -> Round:
    """Play `tables` without a break until the window ends (one client process's share of the load), watching
    this process's event loop: how late its timers fire (the lag of every callback it runs), and its CPU time."""
    limits = httpx.Limits(max_connections=len(tables) * 4, max_keepalive_connections=len(tables) * 4)
    spent = Round()
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        load = Load(client, admin)
        load.created = first_game
        chooser = random.Random(2026 + first_game)
        watcher = asyncio.create_task(_watch(spent, window))
        await asyncio.gather(*(load.table(n, h, chooser, window.until, spent) for n, h in tables))
        await watcher
        spent.games = load.created - first_game
    return spent


async def _watch(spent: Round, window: Window) -> None:
    """Note the event loop's lag (a timer's delay beyond its due time) and the CPU time the window took."""
    await asyncio.sleep(max(0.0, window.start - time.perf_counter()))
    cpu = time.process_time()
    while (now := time.perf_counter()) < window.until:
        await asyncio.sleep(LAG_TICK)
        spent.lags.append((now, (time.perf_counter() - now - LAG_TICK) * 1000))
    spent.cpu = time.process_time() - cpu


def _client(url: str, admin: dict[str, str], tables: Tables, window: Window, first_game: int) -> Round:
    return asyncio.run(play(url, admin, tables, window, first_game))


@dataclass
class Probe:
    """What an idle client saw of the server through the window: GET /healthz's round trips and the server's own
    time for them (ms), and how many of the application's database sessions were found in each state."""

    trips: list[float] = field(default_factory=list)
    inside: list[float] = field(default_factory=list)
    sessions: Counter[str] = field(default_factory=Counter)
    idle_queries: Counter[str] = field(default_factory=Counter)
    looks: int = 0


async def probe(url: str, database: str, window: Window) -> Probe:
    """From a process of its own that does nothing else: GET /healthz every PROBE_EVERY seconds through the
    window. Its round trip less the server's own time is the time a request spends outside the application while
    the load runs (on the way, waiting to be read and answered by the server's event loop, and a little in this
    idle client). Beside it, PostgreSQL's `pg_stat_activity` at the same moments: what the application's sessions
    are doing or waiting for (the commit's WAL flush, a lock, the client's next statement)."""
    seen = Probe()
    async with (
        httpx.AsyncClient(base_url=url, timeout=60) as client,
        await psycopg.AsyncConnection.connect(database, autocommit=True) as watcher,
    ):
        await asyncio.sleep(max(0.0, window.start - time.perf_counter()))
        while time.perf_counter() < window.until:
            start = time.perf_counter()
            r = await client.get("/healthz")
            seen.trips.append((time.perf_counter() - start) * 1000)
            seen.inside.append(server_ms(r))
            rows = await (await watcher.execute(_ACTIVITY)).fetchall()
            seen.sessions.update(f"{state}: {wait}" for state, wait, _ in rows)
            seen.idle_queries.update(query for _, _, query in rows if query is not None)
            seen.looks += 1
            await asyncio.sleep(PROBE_EVERY)
    return seen


# The sessions of the application (not this probe's, not PostgreSQL's own processes), each as its state and what
# it waits for, if anything; for one idle in a transaction, the start of the statement it ran last.
_ACTIVITY = """
    SELECT state, COALESCE(wait_event_type || ' ' || wait_event, 'on CPU'),
           CASE WHEN state IN ('idle in transaction', 'idle in transaction (aborted)')
                THEN left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 120) END
    FROM pg_stat_activity
    WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND state <> 'idle'
"""


def _probe(url: str, database: str, window: Window) -> Probe:
    return asyncio.run(probe(url, database, window))


def bench(url: str, database: str, server_pid: int, args: argparse.Namespace) -> None:
    admin, tables = asyncio.run(setup(url, args.games))
    # The games are played without a break from the start to the end: a finished game is replaced at once, so
    # games start one by one as the load goes on. The first WARM_UP_SECONDS are not counted; each round is a
    # window of the same play. The tables are dealt to `--clients` processes, each with its own event loop.
    window = Window(time.perf_counter() + WARM_UP_SECONDS + 0.5 * args.clients, args.rounds, args.seconds)
    shares = [tables[i :: args.clients] for i in range(args.clients)]
    with ProcessPoolExecutor(args.clients + 1, mp_context=multiprocessing.get_context("fork")) as pool:
        probed = pool.submit(_probe, url, database, window)
        futures = [
            pool.submit(_client, url, admin, share, window, 1_000_000 * (i + 1)) for i, share in enumerate(shares)
        ]
        time.sleep(max(0.0, window.start - time.perf_counter()))
        server_start = server_cpu(server_pid)
        time.sleep(max(0.0, window.until - time.perf_counter()))
        server_seconds = server_cpu(server_pid) - server_start
        parts = [future.result() for future in futures]
        seen = probed.result()
    spent = Round()
    for part in parts:
        spent.absorb(part)
    rounds = [
        spent.between(window.start + i * args.seconds, window.start + (i + 1) * args.seconds)
        for i in range(args.rounds)
    ]
    print(
        f"{args.games} games at once, both seats of each following its stream, {args.clients} client "
        f"process(es); a move's round trip:"
    )
    for index, part in enumerate(rounds):
        print(f"  round {index + 1}: {part.line()}")
    print(f"  games started: {spent.games}")
    everything = Round()
    for part in rounds:
        everything.absorb(part)
    counted = args.rounds * args.seconds
    print("all rounds (target: p99 within 4x p50, 0 errors; a stale move retried is not an error, and is shown):")
    print(f"  {everything.line()}")
    for detail in spent.details:
        print(f"  refused: {detail}")
    print(
        f"  client processes' event loops, lag of a {LAG_TICK * 1000:g} ms timer: "
        f"{_spread([lag for _, lag in everything.lags])}"
    )
    print(f"  GET /healthz from an idle client process, round trip: {_spread(seen.trips)}")
    print(f"                                 the server's own time: {_spread(seen.inside)}")
    print("  the application's busy database sessions, on average at the probe's looks:")
    for what, count in seen.sessions.most_common(6):
        print(f"    {count / seen.looks:5.1f}  {what}")
    for query, count in seen.idle_queries.most_common(8):
        print(f"    idle in transaction after ({count} looks): {query}")
    print(
        f"  CPU over the counted {counted:g} s (share of one core): server {server_seconds / counted:.0%}, "
        f"client processes {' + '.join(f'{part.cpu / counted:.0%}' for part in parts)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20, help="length of a round")
    parser.add_argument("--clients", type=int, default=4, help="client processes sharing the tables")
    parser.add_argument("--metrics", action="store_true", help="print the server's carson_ metrics at the end")
    args = parser.parse_args()

    with contextlib.ExitStack() as stack:
        env = server_env(bench_database(stack), SIGN_UPS_PER_ADDRESS_PER_HOUR="100000", METRICS_TOKEN=METRICS_TOKEN)
        database = env["DATABASE_URL"]
        port = free_port()
        pid = stack.enter_context(process([*SERVER, str(port)], env))
        asyncio.run(wait_up(f"http://127.0.0.1:{port}/healthz"))
        bench(f"http://127.0.0.1:{port}", database, pid, args)
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
