"""Benchmark of the server's work per move in instructions, which the load of a shared machine does not disturb.

The server (`python -m app serve`, the mail worker and clocks left out: BACKGROUND_JOBS=false) runs under
valgrind's callgrind, instrumented only while the measured script runs: `--games` two-player games, each created
by the admin, both seats following its live stream with `?moves=true` and posting a seeded random move whenever
awaited, to the game's end; the streams then close. A first game warms the server up and is not counted. It
prints the moves and the server's instructions (Ir) per move; two runs of the same code agree within
about 1 %, so one run each way is an A/B.

With `--floor N` it counts instead N requests of the floor of `bench/move_latency.py` (token check, session
lookup, one insert, commit; the floor's server under callgrind, one client posting back to back).

Run: `.venv/bin/python bench/move_instructions.py [--games 3] [--floor N]` (about a minute a game). Uses
BENCH_DATABASE_URL if set, else an embedded PostgreSQL in a temporary directory. Prints figures; asserts nothing.
Whatever uvicorn picks up is measured: to count the pure-Python HTTP and event loop, put a directory whose
`uvloop.py` and `httptools.py` raise ImportError first on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import aconnect_sse

sys.path.insert(0, str(Path(__file__).resolve().parent))

import move_latency as latency  # the bench's database, environment and accounts

PLAYERS = ("player0", "player1")


async def follow(client: httpx.AsyncClient, game_id: int, seat: int, headers: dict[str, str],
                 chooser: random.Random) -> int:
    """Play `seat` from its stream's offers to the game's end; the moves recorded."""
    made = 0
    url = f"/api/v1/games/{game_id}/stream?moves=true"
    async with aconnect_sse(client, "GET", url, headers=headers) as source:
        async for event in source.aiter_sse():
            if event.event != "turn":
                continue
            head = json.loads(event.data)
            if head["status"] == "finished":
                return made
            if seat in head["to_act"] and head["moves"]:
                body = {"seq": head["seq"], "move": chooser.choice(head["moves"])}
                r = await client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=headers)
                made += r.status_code == 200
    return made


async def play(client: httpx.AsyncClient, admin: dict[str, str], players: dict[str, dict[str, str]],
               seed: int, chooser: random.Random) -> int:
    """One game from its creation to its end; the moves recorded."""
    body = {"name": f"bench {seed}", "seats": 2, "players": list(players), "seed": seed}
    r = await client.post("/api/v1/games", headers=admin, json=body)
    r.raise_for_status()
    game: dict[str, Any] = r.json()
    made = await asyncio.gather(*(
        follow(client, game["id"], s["seat"], players[s["username"]], chooser) for s in game["seats"]
    ))
    return sum(made)


def callgrind(command: str, pid: int) -> None:
    subprocess.run(["callgrind_control", command, str(pid)], check=True, capture_output=True)


async def script(url: str, pid: int, games: int) -> int:
    """The measured moves: collection on after the warm-up game, the counts dumped after the last game."""
    async with httpx.AsyncClient(base_url=url, timeout=600) as client:
        r = await client.post("/api/v1/auth/token", data={"username": "admin", "password": latency.PASSWORD})
        admin = {"Authorization": f"Bearer {r.json()['access_token']}"}
        players = {name: await latency.register(client, name) for name in PLAYERS}
        chooser = random.Random(7)
        await play(client, admin, players, 1000, chooser)
        callgrind("--instr=on", pid)
        callgrind("--zero", pid)
        moves = 0
        for seed in range(1, games + 1):
            moves += await play(client, admin, players, seed, chooser)
        await asyncio.sleep(1.0)  # the streams' ends
        callgrind("--dump", pid)
        return moves


async def floor_script(app_url: str, floor_url: str, pid: int, requests: int) -> int:
    """The floor's measured requests: one client, back to back, collection on after a warm-up of 50."""
    async with httpx.AsyncClient(base_url=app_url, timeout=600) as app:
        headers = await latency.register(app, "floor0")
    async with httpx.AsyncClient(base_url=floor_url, timeout=600) as floor:
        for _ in range(50):
            (await floor.post("/floor", headers=headers)).raise_for_status()
        callgrind("--instr=on", pid)
        callgrind("--zero", pid)
        for _ in range(requests):
            (await floor.post("/floor", headers=headers)).raise_for_status()
        callgrind("--dump", pid)
    return requests


def instructions(dump: Path) -> int:
    for line in dump.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise SystemExit(f"no totals in {dump}")


def under_callgrind(stack: contextlib.ExitStack, args: list[str], env: dict[str, str]) -> tuple[int, Path]:
    """A process started under callgrind, instrumentation off (`callgrind --instr=on` turns it on): its id, and
    where its first dump goes."""
    out = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "callgrind.out"
    process = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}", *args],
        env={**os.environ, **env, "PYTHONHASHSEED": "0"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    stack.callback(process.wait)
    stack.callback(process.terminate)
    return process.pid, Path(f"{out}.1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games measured (after one not counted)")
    parser.add_argument("--floor", type=int, default=0, metavar="N",
                        help="count N requests of the floor of bench/move_latency.py instead")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        url = latency.bench_database(stack)
        env = {**latency.server_env(url), "BACKGROUND_JOBS": "false"}
        port = latency.free_port()
        app_url = f"http://127.0.0.1:{port}"
        if args.floor:
            import psycopg

            from app.store.db import to_libpq_url

            with psycopg.connect(to_libpq_url(url), autocommit=True) as conn:
                conn.execute("CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, user_id int, "
                             "at timestamptz DEFAULT now())")
            stack.enter_context(latency.process([sys.executable, "-m", "app", "serve", "--port", str(port)], env))
            floor_port = latency.free_port()
            floor = [sys.executable, latency.__file__, "--serve-floor", str(floor_port)]
            pid, dump = under_callgrind(stack, floor, env)
            floor_url = f"http://127.0.0.1:{floor_port}"
            asyncio.run(latency.wait_up(app_url + "/healthz", seconds=300, pause=0.25))
            asyncio.run(latency.wait_up(floor_url + "/docs", seconds=300, pause=0.25))
            count = asyncio.run(floor_script(app_url, floor_url, pid, args.floor))
            what = "floor requests"
        else:
            pid, dump = under_callgrind(stack, [sys.executable, "-m", "app", "serve", "--port", str(port)], env)
            asyncio.run(latency.wait_up(app_url + "/healthz", seconds=300, pause=0.25))
            count = asyncio.run(script(app_url, pid, args.games))
            what = f"moves in {args.games} games"
        total = instructions(dump)
        print(f"{count} {what}: {total:,} instructions, {total / max(count, 1):,.0f} each")


if __name__ == "__main__":
    main()
