"""Benchmark of a move through the whole server against the floor any move must pay, in one run.

The project: concurrent two-player games on a running `python -m app serve`, each seat a simulated player that
follows the game's live stream and, whenever it is awaited, posts one of its moves at random (httpx). By default
the player takes its options from the stream's events (`?moves=true`): one request per move, as the API allows
any client; `--client poll` makes it ask GET .../moves each time instead (two requests per move).
The floor: a bare FastAPI endpoint on the same PostgreSQL that does what any authenticated write must do —
check the bearer token, look its session and user up, insert one row, commit — called back-to-back by one client
per game (in a game one seat moves at a time, and a player moves as soon as it may).

Both are measured in rounds that alternate project and floor at the same concurrency, so that the noise of a
shared machine falls on both alike. A request's latency is measured from outside: its round trip as the client
process sees it (from sending the request to having read the whole answer; the client runs in its own process,
talking HTTP to the servers). Per round: the p50 of that round trip for POST .../moves and for the floor, their
ratio, the same for the server's own time (its `Server-Timing` header) beside it, and the throughput (moves/s,
floor requests/s), and the CPU each process spent per request recorded: the client (this process), the server,
the worker (separate layout), PostgreSQL (all its processes), the floor's server; on 2 cores at 10 games the round
trip follows the sum of those, the client's included. At the end, per concurrency: the MEDIAN OF THE ROUNDS'
RATIOS (round trips; server times in brackets) and the medians of the throughputs. Targets (issue 24): round-trip
ratio <= 1.25, and moves/s >= half the floor's requests/s.

The clients, as players' devices would be: every simulated player and every floor client has an HTTP client of its
own (with httpx: an `AsyncClient` each, the player's stream on one connection and its moves on another), not one
pool for all of them, whose every request looked over every idle connection of the pool (a readability check, a
system call each). And httpcore (1.0.9) tries `import sniffio` on every lock, event and cancellation shield it
sets up, a failed import that searches the whole path each time since anyio no longer installs sniffio (a fifth of
the client's CPU; encode/httpcore#1103): without sniffio installed, the benchmark records it as missing once
(`sys.modules`), which answers httpcore's import at once, with the same outcome (asyncio). A stream's answer is
read through httpx and its events split at their blank lines by the benchmark (`bare_http.events_of`), as a
browser's EventSource does in its own code, not decoded line by line in Python by httpx-sse; every event is still
read, and every `turn` event's JSON parsed whole. Both sides of the comparison use the same client. `--http bare`
gives every simulated player and floor client lean connections of its own (`bare_http.py`) instead of httpx: less
still of the shared cores for the client.

Run: `.venv/bin/python bench/move_latency.py [--games 1 10] [--rounds 5] [--seconds 4] [--client poll]`
(default: 1 and 10 concurrent games, about two minutes in all). Uses BENCH_DATABASE_URL if set, else an embedded
PostgreSQL in a temporary directory; starts both servers itself and stops everything after. Prints figures; asserts
nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
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
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
from bare_http import Connection, events_of  # this folder: on the path when run or imported by the benches

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SECRET = "bench-secret-key-0123456789-0123456789"
PASSWORD = "bench password"
WARM_UP_SECONDS = 1.5
SETTLE_SECONDS = 0.3  # after a phase, for requests still in flight to finish before the other side starts
GAMES_READY_PER_PAIR = 2  # games created before a round, so that creating them is not timed; more on demand

# httpcore imports sniffio when it sets up a lock, an event or a cancellation shield, not before: recorded as missing
# here (when it is not installed), that import fails at once instead of searching the path every time (docstring).
if importlib.util.find_spec("sniffio") is None:
    sys.modules["sniffio"] = None  # type: ignore[assignment]


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


def bench_database(stack: contextlib.ExitStack) -> str:
    """A migrated PostgreSQL for a benchmark's server (SQLAlchemy URL): BENCH_DATABASE_URL, or an embedded one in a
    temporary directory that `stack` stops and deletes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from app.store import migrate
        from app.store.db import start_embedded, to_sqlalchemy_url
    given = os.environ.get("BENCH_DATABASE_URL")
    if given:
        url = to_sqlalchemy_url(given)
    else:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        server = start_embedded(Path(tmp) / "pgdata", delete_on_cleanup=True)
        PGDATA.append(str(Path(tmp) / "pgdata"))
        stack.callback(server.cleanup)
        url = to_sqlalchemy_url(server.get_uri())
    migrate.upgrade(url)
    return url


def server_env(url: str, **more: str) -> dict[str, str]:
    """The environment of a benchmark's server on `url`: test settings, the bench's admin, the cheapest hashing."""
    from app.store.db import to_libpq_url

    return {
        "DATABASE_URL": to_libpq_url(url),
        "ENVIRONMENT": "test",
        "SECRET_KEY": SECRET,
        "ADMIN_USERNAME": "admin",
        "ADMIN_PASSWORD": PASSWORD,
        "PASSWORD_HASHING": "cheapest",
        **more,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def process(args: list[str], env: dict[str, str]) -> Iterator[int]:
    """A process running while the block runs: its id."""
    proc = subprocess.Popen(args, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


PGDATA: list[str] = []  # the embedded PostgreSQL's data directory, once started


def postgres_cpu() -> float:
    """The CPU seconds so far of the benchmark's PostgreSQL: its postmaster (with its ended children: connections
    closed since) and its live processes. With BENCH_DATABASE_URL, every PostgreSQL process of the machine."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if (entry / "comm").read_text().strip() in ("postgres", "postmaster"):
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    stats[int(entry.name)] = (int(fields[1]), fields, cmdline)  # parent, fields, command line
    ours = {pid for pid, (_, _, cmdline) in stats.items() if PGDATA and PGDATA[0] in cmdline} or set(stats)
    ours |= {pid for pid, (parent, _, _) in stats.items() if parent in ours}
    return sum(sum(int(f) for f in stats[pid][1][11:15]) for pid in ours) / os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> float:
    """A process's CPU seconds so far (user and system), NaN where /proc cannot tell."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (IndexError, OSError):
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def wait_up(url: str, seconds: float = 30, pause: float = 0.05) -> None:
    """Return once the server at `url` answers; give up after `seconds` (a start under valgrind takes minutes)."""
    async with httpx.AsyncClient() as client:
        for _ in range(round(seconds / pause)):
            with contextlib.suppress(httpx.TransportError):
                await client.get(url)
                return
            await asyncio.sleep(pause)
    raise SystemExit(f"{url} did not come up")


class Answered(Protocol):
    """An answer as either client gives it: its status and its headers (looked up in lower case)."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]: ...


def server_ms(response: Answered) -> float:
    """The server's own time for a request, from its `Server-Timing: app;dur=...` header."""
    return float(response.headers["server-timing"].split("app;dur=")[1].split(",")[0])


@dataclass
class Phase:
    """The round trips (ms, as the client saw them) and the server's own times of one phase's successful requests,
    and how long the phase ran."""

    samples: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds of each process over the phase

    def cpu_per_request(self, name: str) -> float:
        """Milliseconds of `name`'s CPU per request recorded in the phase."""
        return self.cpu.get(name, float("nan")) * 1000 / len(self.samples) if self.samples else float("nan")

    def record(self, start: float, response: Answered) -> None:
        self.samples.append((time.perf_counter() - start) * 1000)
        self.server.append(server_ms(response))

    @property
    def p50(self) -> float:
        return statistics.median(self.samples) if self.samples else float("nan")

    @property
    def server_p50(self) -> float:
        return statistics.median(self.server) if self.server else float("nan")

    @property
    def rate(self) -> float:
        return len(self.samples) / self.seconds if self.seconds else 0.0


@dataclass
class Pair:
    """The two players of one table: their bearer headers, their HTTP clients (each player's own, kept from game to
    game as a device keeps its client) and the floor client's, and the games made ready for them."""

    headers: tuple[dict[str, str], dict[str, str]]
    usernames: tuple[str, str]
    sides: tuple[Side, Side]
    floor_side: Side
    ready: list[dict[str, Any]] = field(default_factory=list)

    async def close(self) -> None:
        for side in (*self.sides, self.floor_side):
            await side.close()


PIDS: dict[str, int] = {}  # the benchmark's processes by role: "server", "worker" (separate layout), "floor"


def cpu_now() -> dict[str, float]:
    """CPU seconds so far of each process of the benchmark, the client (this process) and PostgreSQL included."""
    return {"client": time.process_time(), "postgres": postgres_cpu()} | {
        role: server_cpu(pid) for role, pid in PIDS.items()
    }


def cpu_since(before: dict[str, float]) -> dict[str, float]:
    now = cpu_now()
    return {role: now[role] - before[role] for role in now}


class Side:
    """How one simulated player (or floor client) talks HTTP to one server, as a device of its own would: through an
    httpx client of its own (the stream's events split as `bare_http` splits them), or (`--http bare`) on lean
    connections of its own (`bare_http`)."""

    def __init__(self, base_url: str, bare: bool) -> None:
        self.base_url = base_url
        self.connection = Connection(base_url) if bare else None
        self.client = None if bare else httpx.AsyncClient(base_url=base_url, timeout=30)

    async def post(self, path: str, headers: dict[str, str], body: Any = None) -> Answered:
        if self.client is not None:
            return await self.client.post(path, headers=headers, json=body)
        assert self.connection is not None
        return await self.connection.request("POST", path, headers, body)

    async def get_json(self, path: str, headers: dict[str, str]) -> Any:
        if self.client is not None:
            return (await self.client.get(path, headers=headers)).json()
        assert self.connection is not None
        return (await self.connection.request("GET", path, headers)).json()

    async def events(self, path: str, headers: dict[str, str]) -> AsyncIterator[tuple[str, str]]:
        """The stream's events as (name, data), on a connection of its own."""
        if self.client is not None:
            async with self.client.stream("GET", path, headers={"Accept": "text/event-stream", **headers}) as answer:
                if answer.status_code != 200:
                    raise RuntimeError(f"stream refused: {answer.status_code}")
                async for event in events_of(answer.aiter_bytes()):
                    yield event.event, event.data
            return
        async for bare in Connection(self.base_url).events(path, headers):
            yield bare.event, bare.data

    async def cut_off(self) -> None:
        """Drop the lean connection of a request cut off half-way (its answer unread), so that the next request
        opens a fresh one; httpx drops such a connection itself."""
        if self.connection is not None:
            await self.connection.close()

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()
        if self.connection is not None:
            await self.connection.close()


class Bench:
    def __init__(
        self, app: httpx.AsyncClient, floor: httpx.AsyncClient, admin: dict[str, str], client: str, bare: bool
    ) -> None:
        self.app = app
        self.client = client
        self.floor = floor
        self.admin = admin
        self.bare = bare
        self.created = 0

    async def new_game(self, pair: Pair) -> dict[str, Any]:
        self.created += 1
        body = {"name": f"bench {self.created}", "seats": 2, "players": list(pair.usernames), "seed": self.created}
        r = await self.app.post("/api/v1/games", headers=self.admin, json=body)
        r.raise_for_status()
        game: dict[str, Any] = r.json()
        return game

    async def seat(
        self, gid: int, seat: int, headers: dict[str, str], side: Side, chooser: random.Random, until: float,
        moves: Phase,
    ) -> None:
        """Follow the game's stream like a real client; move (at random) whenever this seat is awaited. The
        `stream` client takes its options from the stream's events (`?moves=true`), the `poll` client asks for
        them (GET .../moves) each time it is awaited."""
        offered = self.client == "stream"
        url = f"/api/v1/games/{gid}/stream" + ("?moves=true" if offered else "")
        try:
            async for name, data in side.events(url, headers):
                if name != "turn":
                    continue
                head = json.loads(data)
                if head["status"] == "finished":
                    return
                if seat not in head["to_act"]:
                    continue
                if not offered:
                    head = await side.get_json(f"/api/v1/games/{gid}/moves", headers)
                options = head
                if not options["moves"]:
                    continue
                body = {"seq": options["seq"], "move": chooser.choice(options["moves"])}
                start = time.perf_counter()
                r = await side.post(f"/api/v1/games/{gid}/moves", headers, body)
                if r.status_code == 200 and time.perf_counter() < until:
                    moves.record(start, r)
        except BaseException:  # the phase's end cancels the seat, perhaps in the middle of its move
            await side.cut_off()
            raise

    async def table(self, pair: Pair, chooser: random.Random, until: float, moves: Phase) -> None:
        """Play the pair's games one after the other until `until`."""
        while time.perf_counter() < until:
            game = pair.ready.pop() if pair.ready else await self.new_game(pair)
            by_name = dict(zip(pair.usernames, zip(pair.headers, pair.sides, strict=True), strict=True))
            await asyncio.gather(
                *(
                    self.seat(game["id"], s["seat"], *by_name[s["username"]], chooser, until, moves)
                    for s in game["seats"]
                )
            )

    async def project(self, pairs: list[Pair], seconds: float, chooser: random.Random) -> Phase:
        for pair in pairs:
            while len(pair.ready) < GAMES_READY_PER_PAIR:
                pair.ready.append(await self.new_game(pair))
        phase = Phase()
        cpu = cpu_now()
        start = time.perf_counter()
        until = start + seconds
        tables = [asyncio.create_task(self.table(pair, chooser, until, phase)) for pair in pairs]
        await asyncio.sleep(seconds)
        phase.cpu = cpu_since(cpu)
        for task in tables:
            task.cancel()
        await asyncio.gather(*tables, return_exceptions=True)
        await asyncio.sleep(SETTLE_SECONDS)
        phase.seconds = seconds
        return phase

    async def floor_phase(self, pairs: list[Pair], seconds: float) -> Phase:
        phase = Phase()
        cpu = cpu_now()
        until = time.perf_counter() + seconds

        async def client(headers: dict[str, str], side: Side) -> None:
            while time.perf_counter() < until:
                start = time.perf_counter()
                r = await side.post("/floor", headers)
                if r.status_code != 200:
                    raise RuntimeError(f"the floor answered {r.status_code}")
                if time.perf_counter() < until:
                    phase.record(start, r)

        await asyncio.gather(*(client(pair.headers[0], pair.floor_side) for pair in pairs))
        phase.cpu = cpu_since(cpu)
        phase.seconds = seconds
        return phase


def cpu_figures(phase: Phase, roles: tuple[str, ...]) -> str:
    return ", ".join(f"{role} {phase.cpu_per_request(role):.2f}" for role in roles if role in phase.cpu)


async def register(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    await client.post(
        "/api/v1/auth/register", json={"username": name, "email": f"{name}@example.com", "password": PASSWORD}
    )
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": PASSWORD})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


async def bench(
    app_url: str, floor_url: str, concurrencies: list[int], rounds: int, seconds: float, client: str, lean: bool
) -> None:
    limits = httpx.Limits(max_connections=max(concurrencies) * 4)
    async with (
        httpx.AsyncClient(base_url=app_url, limits=limits, timeout=30) as app,
        httpx.AsyncClient(base_url=floor_url, limits=limits, timeout=30) as floor,
    ):
        r = await app.post("/api/v1/auth/token", data={"username": "admin", "password": PASSWORD})
        runner = Bench(app, floor, {"Authorization": f"Bearer {r.json()['access_token']}"}, client, lean)
        pairs = []
        for g in range(max(concurrencies)):
            names = (f"player{2 * g}", f"player{2 * g + 1}")
            sides = (Side(app_url, lean), Side(app_url, lean))
            headers = (await register(app, names[0]), await register(app, names[1]))
            pairs.append(Pair(headers, names, sides, Side(floor_url, lean)))
        chooser = random.Random(2026)
        summary: list[tuple[int, float, float, float, float]] = []
        for games in concurrencies:
            tables = pairs[:games]
            await runner.project(tables, WARM_UP_SECONDS, chooser)
            await runner.floor_phase(tables, WARM_UP_SECONDS)
            print(f"\n{games} concurrent two-player game(s), {rounds} rounds of {seconds:g} s each side:")
            ratios, server_ratios, move_rates, floor_rates = [], [], [], []
            for index in range(rounds):
                moves = await runner.project(tables, seconds, chooser)
                bare = await runner.floor_phase(tables, seconds)
                ratios.append(moves.p50 / bare.p50)
                server_ratios.append(moves.server_p50 / bare.server_p50)
                move_rates.append(moves.rate)
                floor_rates.append(bare.rate)
                print(
                    f"  round {index + 1}: POST .../moves p50 {moves.p50:6.2f} ms [server {moves.server_p50:5.2f}] "
                    f"(n={len(moves.samples):4d}, {moves.rate:6.1f}/s) | floor p50 {bare.p50:6.2f} ms [server "
                    f"{bare.server_p50:5.2f}] (n={len(bare.samples):5d}, {bare.rate:6.1f}/s) | ratio "
                    f"{ratios[-1]:.2f} [{server_ratios[-1]:.2f}]"
                )
                print(
                    "           CPU ms per move: " + cpu_figures(moves, ("client", "server", "worker", "postgres"))
                    + " | per floor request: " + cpu_figures(bare, ("client", "floor", "postgres"))
                )
            median = statistics.median
            summary.append((games, median(ratios), median(server_ratios), median(move_rates), median(floor_rates)))
        print(
            "\nsummary (median over rounds of the round trips' p50 ratio, server times' in brackets; targets: ratio "
            "<= 1.25 (issue 24), moves/s >= 0.50 x floor req/s)"
        )
        for games, ratio, server_ratio, move_rate, floor_rate in summary:
            print(
                f"  {games:2d} game(s): ratio of p50s {ratio:.2f} [{server_ratio:.2f}] | {move_rate:.1f} moves/s vs "
                f"floor {floor_rate:.1f} req/s ({move_rate / floor_rate:.2f} x)"
            )
        for pair in pairs:
            await pair.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10], help="concurrent two-player games")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=4, help="length of each side of a round")
    parser.add_argument(
        "--worker",
        choices=["separate", "inline"],
        default="inline",
        help="run the mail worker and move clocks as their own process (`python -m app worker`, the production "
        "layout the README recommends for busy servers) or inside the server",
    )
    parser.add_argument(
        "--client",
        choices=["stream", "poll"],
        default="stream",
        help="how a simulated player learns its options: from the stream's events (`?moves=true`, one request per "
        "move) or by asking GET .../moves each time it is awaited (two requests per move)",
    )
    parser.add_argument(
        "--http",
        choices=["httpx", "bare"],
        default="httpx",
        help="the simulated players' and floor clients' HTTP: httpx, a client each, or lean connections of their "
        "own (bench/bare_http.py), which spend far less of the shared cores",
    )
    parser.add_argument("--serve-floor", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from app.store.db import to_libpq_url, to_sqlalchemy_url

    if args.serve_floor is not None:
        import uvicorn

        from app.commands import uvicorn_options
        from app.settings import Settings

        # The server's own options (its keep-alive above all: with uvicorn's 5 s an idle client connection could
        # be closed between two floor phases just as the client reused it).
        uvicorn.run(
            floor_app(to_sqlalchemy_url(os.environ["DATABASE_URL"])),
            host="127.0.0.1",
            port=args.serve_floor,
            log_level="warning",
            **uvicorn_options(Settings()),
        )
        return

    with contextlib.ExitStack() as stack:
        url = bench_database(stack)
        import psycopg

        with psycopg.connect(to_libpq_url(url), autocommit=True) as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, user_id int, "
                "at timestamptz DEFAULT now())"
            )
        env = server_env(url)
        app_port, floor_port = free_port(), free_port()
        if args.worker == "separate":
            env["BACKGROUND_JOBS"] = "false"
            PIDS["worker"] = stack.enter_context(
                process([sys.executable, "-m", "app", "worker"], {**env, "MIGRATE_ON_START": "false"})
            )
        PIDS["server"] = stack.enter_context(
            process([sys.executable, "-m", "app", "serve", "--port", str(app_port)], env)
        )
        PIDS["floor"] = stack.enter_context(process([sys.executable, __file__, "--serve-floor", str(floor_port)], env))
        app_url, floor_url = f"http://127.0.0.1:{app_port}", f"http://127.0.0.1:{floor_port}"
        asyncio.run(wait_up(app_url + "/healthz"))
        asyncio.run(wait_up(floor_url + "/docs"))
        print(f"client: {args.client} over {args.http}; mail worker and clocks: {args.worker}")
        asyncio.run(bench(app_url, floor_url, args.games, args.rounds, args.seconds, args.client, args.http == "bare"))
        with psycopg.connect(to_libpq_url(url), autocommit=True) as conn:
            conn.execute("DROP TABLE bench_floor")


if __name__ == "__main__":
    main()
