"""Benchmark of a move's fan-out to many idle live streams of one game, held by one server.

The server: `python -m app serve` (uvicorn, as in production) on an embedded PostgreSQL. The game: a two-player
game its admin starts; its two players follow it, and so do `--streams` in all (default 1,000: the two players'
streams and spectators' streams, spread over `--spectators` accounts) with `GET /api/v1/games/{id}/stream`. Then
the players make `--moves` moves (default 5), one at a time, each `--gap` seconds after the previous one's
fan-out ended (or timed out).

The client runs on the same machine as the server (on a two-core machine, on the same two cores), in one process:
each stream is a bare asyncio connection that notes when the `turn` event of each seq arrives, so that the
client's own work per event stays small beside the server's. A move's fan-out latency to a stream is the time
from the move's answer (the POST's response, received by the client) to that stream's receipt of the move's seq;
a stream that reads the seq before the answer counts 0. Printed: per move and in all, how many streams missed the
move (never saw its seq within `--timeout` s), and p50 / p99 / max of the fan-out latency; targets: 0 missed,
p99 < 200 ms.

Run: `.venv/bin/python bench/fanout.py [--streams 1000] [--moves 5] [--rounds 3]` (each round opens the streams
on a new game, makes the moves and closes them). Uses BENCH_DATABASE_URL if set, else an embedded PostgreSQL in a
temporary directory; starts the server itself and stops everything after. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import resource
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from move_latency import PASSWORD, bench_database, free_port, process, server_cpu, server_env, wait_up  # noqa: E402

SERVER = [sys.executable, "-m", "app", "serve", "--port"]  # and the port
SERVER_PID: list[int] = []  # the server's process id, for its CPU time (Linux's /proc)

OPENING_AT_ONCE = 50  # streams opened concurrently while setting up (not timed)
SEQ = re.compile(rb'"seq": ?(\d+)')
BLANK_LINE = re.compile(rb"\r?\n\r?\n")  # the end of an event (sse-starlette ends its lines with CRLF)


class StreamClient(asyncio.Protocol):
    """One live stream, read with the least work: the time each seq of a `turn` event first arrived."""

    def __init__(self, request: bytes) -> None:
        self.request = request
        self.arrived: dict[int, float] = {}
        self.opened = asyncio.get_running_loop().create_future()
        self.closed = False
        self._pending = b""
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self._pending += data
        if not self.opened.done():
            head, found, rest = self._pending.partition(b"\r\n\r\n")
            if not found:
                return
            status = head.split(b" ", 2)[1]
            if status != b"200":
                self.opened.set_exception(RuntimeError(f"stream refused: {head[:200]!r}"))
                return
            self.opened.set_result(None)
            self._pending = rest
        # Chunked transfer encoding frames the events; the seq is found whatever the framing.
        *whole, self._pending = BLANK_LINE.split(self._pending)
        for message in whole:
            if b"event: turn" in message:
                for match in SEQ.finditer(message):
                    self.arrived.setdefault(int(match.group(1)), now)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(RuntimeError("stream closed before it opened"))

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()


@dataclass
class Figures:
    latencies_ms: list[float] = field(default_factory=list)
    missed: int = 0
    moves: int = 0
    server_cpu_ms: list[float] = field(default_factory=list)  # per move: the server's CPU until every stream had it

    def line(self) -> str:
        if not self.latencies_ms:
            return f"missed {self.missed}"
        ordered = sorted(self.latencies_ms)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return (
            f"missed {self.missed:4d} | fan-out p50 {statistics.median(ordered):7.1f} ms | p99 {p99:7.1f} ms | "
            f"max {ordered[-1]:7.1f} ms" + (
                f" | server CPU {statistics.median(self.server_cpu_ms):6.1f} ms" if self.server_cpu_ms else "")
        )

    def p99(self) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("nan")


async def token(client: httpx.AsyncClient, name: str, register: bool) -> str:
    if register:
        r = await client.post(
            "/api/v1/auth/register", json={"username": name, "email": f"{name}@example.com", "password": PASSWORD}
        )
        r.raise_for_status()
    r = await client.post("/api/v1/auth/token", data={"username": name, "password": PASSWORD})
    r.raise_for_status()
    return str(r.json()["access_token"])


async def open_stream(port: int, game_id: int, bearer: str) -> StreamClient:
    request = (
        f"GET /api/v1/games/{game_id}/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {bearer}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()
    _, stream = await loop.create_connection(lambda: StreamClient(request), "127.0.0.1", port)
    await asyncio.wait_for(stream.opened, 60)
    return stream


async def one_round(
    client: httpx.AsyncClient, port: int, admin: str, players: list[tuple[str, str]], spectators: list[str],
    args: argparse.Namespace, number: int,
) -> Figures:
    body = {"name": f"fan-out {number}", "seats": 2, "players": [name for name, _ in players], "seed": number}
    r = await client.post("/api/v1/games", headers={"Authorization": f"Bearer {admin}"}, json=body)
    r.raise_for_status()
    game_id = r.json()["id"]
    bearers = [bearer for _, bearer in players]
    bearers += [spectators[i % len(spectators)] for i in range(args.streams - len(bearers))]
    streams: list[StreamClient] = []
    started = time.perf_counter()
    for start in range(0, len(bearers), OPENING_AT_ONCE):
        batch = bearers[start : start + OPENING_AT_ONCE]
        streams += await asyncio.gather(*(open_stream(port, game_id, bearer) for bearer in batch))
    print(f"  round {number}: {len(streams)} streams open in {time.perf_counter() - started:.1f} s")
    await asyncio.sleep(args.gap)
    figures = Figures()
    try:
        for index in range(args.moves):
            figures_of_move = Figures()
            cpu_before = server_cpu(SERVER_PID[0])
            move_seq, answered = await make_move(client, game_id, players)
            deadline = answered + args.timeout
            while time.perf_counter() < deadline and any(move_seq not in s.arrived for s in streams):
                await asyncio.sleep(0.01)
            figures_of_move.server_cpu_ms.append((server_cpu(SERVER_PID[0]) - cpu_before) * 1000)
            for stream in streams:
                at = stream.arrived.get(move_seq)
                if at is None:
                    figures_of_move.missed += 1
                else:
                    figures_of_move.latencies_ms.append(max(0.0, at - answered) * 1000)
            closed = sum(s.closed for s in streams)
            print(f"    move {index + 1} (seq {move_seq}): {figures_of_move.line()}" + (
                f" | {closed} streams closed" if closed else ""))
            figures.latencies_ms += figures_of_move.latencies_ms
            figures.missed += figures_of_move.missed
            figures.server_cpu_ms += figures_of_move.server_cpu_ms
            figures.moves += 1
            await asyncio.sleep(args.gap)
    finally:
        for stream in streams:
            stream.close()
    return figures


async def make_move(client: httpx.AsyncClient, game_id: int, players: list[tuple[str, str]]) -> tuple[int, float]:
    """The first listed move of whichever player is awaited: its seq and when its answer arrived."""
    for _, bearer in players:
        headers = {"Authorization": f"Bearer {bearer}"}
        options = (await client.get(f"/api/v1/games/{game_id}/moves", headers=headers)).json()
        if options["moves"]:
            body = {"seq": options["seq"], "move": options["moves"][0]}
            r = await client.post(f"/api/v1/games/{game_id}/moves", headers=headers, json=body)
            answered = time.perf_counter()
            r.raise_for_status()
            return int(r.json()["seq"]), answered
    raise RuntimeError("nobody is awaited")


async def bench(port: int, args: argparse.Namespace) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        admin = await token(client, "admin", register=False)
        players = [(name, await token(client, name, register=True)) for name in ("ann", "bob")]
        spectators = [await token(client, f"watcher{i}", register=True) for i in range(args.spectators)]
        rounds = [await one_round(client, port, admin, players, spectators, args, n + 1) for n in range(args.rounds)]
    everything = Figures()
    for figures in rounds:
        everything.latencies_ms += figures.latencies_ms
        everything.missed += figures.missed
        everything.server_cpu_ms += figures.server_cpu_ms
    print(f"\nall rounds ({args.streams} streams x {args.moves} moves x {args.rounds} rounds; targets: 0 missed, "
          f"p99 < 200 ms):")
    print(f"  {everything.line()}")
    print(f"  median of the rounds' p99: {statistics.median(f.p99() for f in rounds):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--spectators", type=int, default=100, help="accounts the spectators' streams share")
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between moves")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds a move's fan-out may take")
    args = parser.parse_args()

    # The client holds one descriptor per stream, and so does the server (which inherits this limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.streams * 2 + 1024)), hard))

    with contextlib.ExitStack() as stack:
        env = server_env(bench_database(stack), SIGN_UPS_PER_ADDRESS_PER_HOUR="100000")
        port = free_port()
        SERVER_PID.append(stack.enter_context(process([*SERVER, str(port)], env)))
        asyncio.run(wait_up(f"http://127.0.0.1:{port}/healthz"))
        asyncio.run(bench(port, args))


if __name__ == "__main__":
    main()
