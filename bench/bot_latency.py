"""Benchmark: a person's move in one game while the hard bot thinks in others (issue 29 "Fast and harmless").

One running `python -m app serve` (bots inside it, `BOT_POLL_SECONDS` 0.2, the hard bot's default budget of
`BOT_HARD_SECONDS` 2 s in one worker process): a two-player game of two simulated people, who move at random as
soon as they are awaited (GET .../moves, POST .../moves), and `--bot-games` three-seat tables at `bot_level`
hard, two bot seats and one simulated person each, so that the hard bot is nearly always thinking. Rounds
alternate an idle phase (the bot tables' people do not move, so the bots soon have nothing to think about) and a
busy one (they move as soon as awaited), after which the bench waits until the bots have nothing left to think
about. Per phase: the p50 of POST .../moves in the people's game, seen by the
client (wall clock: waiting for the event loop included) and by the server (`Server-Timing`). At the end: the
median over rounds of busy p50 / idle p50. Target: at most 1.5. Beside each phase: the bot moves the server
recorded in it and how its bot's thinking ended (`carson_moves_total`, `carson_bot_thinking_seconds_count` from
/metrics: "overran" is a move that fell back to the safest default), and the machine's load average (`uptime`),
since the machine may be shared: compare the ratios of one run, not figures across runs.

Run: `nice -n 10 .venv/bin/python bench/bot_latency.py [--rounds 4] [--seconds 8] [--bot-games 2]`. Uses
BENCH_DATABASE_URL if set, else an embedded PostgreSQL in a temporary directory. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.move_latency import bench_database, free_port, process, register, server_env, server_ms, wait_up

PACE_SECONDS = 1.1  # between a simulated person's moves
# How often a bot table's person asks whether it is awaited: their requests are load the bots' thinking is not,
# and at the people's game's pace (every 50 ms) they would be most of what the busy phase adds (at 0.5 s, four
# tables' still doubled the server's own p50 on two busy cores).
BOT_TABLE_POLL = 2.0
SETTLE_SECONDS = 120.0  # the longest wait, after a busy phase, for the bots to have nothing left to think about


_SAMPLE = re.compile(r'^(carson_moves_total\{kind="bot"\}|carson_bot_thinking_seconds_count\{outcome="(\w+)"\}) (\S+)$')


async def bot_counts(client: httpx.AsyncClient) -> dict[str, float]:
    """The server's bot moves recorded ("moves") and thinking by outcome ("move", "overran", "failed") so far."""
    counts: dict[str, float] = {}
    for line in (await client.get("/metrics")).text.splitlines():
        sample = _SAMPLE.match(line)
        if sample:
            counts[sample.group(2) or "moves"] = float(sample.group(3))
    return counts


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f}"


async def seat_loop(
    client: httpx.AsyncClient,
    gid: int,
    seat: int,
    headers: dict[str, str],
    chooser: random.Random,
    until: float,
    timed: list[tuple[float, float]] | None,
    poll: float = 0.05,
) -> bool:
    """Move at random whenever `seat` is awaited (at a person's pace, within the 60 moves a minute a seat may
    make, asking every `poll` seconds), until `until`; each POST's (client ms, server ms) into `timed`. Whether
    the game is still running."""
    while time.perf_counter() < until:
        options = (await client.get(f"/api/v1/games/{gid}/moves", headers=headers)).json()
        if not options.get("moves"):
            summary = (await client.get(f"/api/v1/games/{gid}", headers=headers)).json()
            if summary["status"] == "finished":
                return False
            await asyncio.sleep(poll)
            continue
        body = {"seq": options["seq"], "move": chooser.choice(options["moves"])}
        started = time.perf_counter()
        r = await client.post(f"/api/v1/games/{gid}/moves", json=body, headers=headers)
        if r.status_code == 200 and timed is not None:
            timed.append(((time.perf_counter() - started) * 1000, server_ms(r)))
        await asyncio.sleep(PACE_SECONDS)
    return True


async def people_game(client: httpx.AsyncClient, name: str) -> tuple[int, list[tuple[int, dict[str, str]]]]:
    """A started two-player game of two simulated people: its id and each seat's headers."""
    a, b = await register(client, f"{name}a"), await register(client, f"{name}b")
    r = await client.post("/api/v1/games", json={"name": name, "seats": 2}, headers=a)
    gid = r.json()["id"]
    r = await client.post(f"/api/v1/games/{gid}/join", headers=b)
    seats = {s["username"]: s["seat"] for s in r.json()["seats"]}
    return gid, [(seats[f"{name}a"], a), (seats[f"{name}b"], b)]


async def bot_table(client: httpx.AsyncClient, name: str) -> tuple[int, int, dict[str, str]]:
    """A started table of one simulated person and two hard bots: its id, the person's seat and headers."""
    host = await register(client, name)
    body = {"name": name, "seats": 3, "bots": 2, "bot_level": "hard"}
    r = await client.post("/api/v1/games", json=body, headers=host)
    game = r.json()
    return game["id"], next(s["seat"] for s in game["seats"] if s["username"] == name), host


class Tables:
    """The games being played, each replaced by a new one once finished."""

    def __init__(self, client: httpx.AsyncClient, bot_games: int) -> None:
        self.client = client
        self.bot_games = bot_games
        self.made = 0
        self.people: tuple[int, list[tuple[int, dict[str, str]]]] | None = None
        self.bots: list[tuple[int, int, dict[str, str]] | None] = [None] * bot_games

    def name(self, kind: str) -> str:
        self.made += 1
        return f"{kind}{self.made}"

    async def play_people(self, chooser: random.Random, until: float, timed: list[tuple[float, float]]) -> None:
        while time.perf_counter() < until:
            if self.people is None:
                self.people = await people_game(self.client, self.name("people"))
            gid, seats = self.people
            going = await asyncio.gather(
                *[seat_loop(self.client, gid, seat, headers, chooser, until, timed) for seat, headers in seats]
            )
            if not all(going):
                self.people = None

    async def settle(self) -> None:
        """Wait until no bot table awaits a bot (each awaits its person, or is over): the moves the bots were
        thinking of are recorded, so that the next idle phase is idle."""
        until = time.perf_counter() + SETTLE_SECONDS
        for table in self.bots:
            while table is not None and time.perf_counter() < until:
                gid, seat, headers = table
                summary = (await self.client.get(f"/api/v1/games/{gid}", headers=headers)).json()
                if summary["status"] == "finished" or seat in summary["to_act"]:
                    break
                await asyncio.sleep(0.2)

    async def play_bots(self, k: int, chooser: random.Random, until: float) -> None:
        while time.perf_counter() < until:
            table = self.bots[k]
            if table is None:
                table = self.bots[k] = await bot_table(self.client, self.name("host"))
            gid, seat, headers = table
            if not await seat_loop(self.client, gid, seat, headers, chooser, until, None, BOT_TABLE_POLL):
                self.bots[k] = None


async def bench(url: str, rounds: int, seconds: float, bot_games: int) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        tables = Tables(client, bot_games)
        chooser = random.Random(29)
        ratios: list[float] = []
        for index in range(rounds):
            phases: dict[str, list[tuple[float, float]]] = {}
            notes: dict[str, str] = {}
            for phase in ("idle", "busy"):
                timed: list[tuple[float, float]] = []
                until = time.perf_counter() + seconds
                movers = [tables.play_people(chooser, until, timed)]
                if phase == "busy":
                    movers += [tables.play_bots(k, chooser, until) for k in range(bot_games)]
                before = await bot_counts(client)
                await asyncio.gather(*movers)
                after = await bot_counts(client)
                made = {key: int(after.get(key, 0) - before.get(key, 0)) for key in ("moves", "overran", "failed")}
                ended = f"overran {made['overran']}, failed {made['failed']}"
                notes[phase] = f"bot moves {made['moves']} ({ended}), {load()}"
                phases[phase] = timed
                if phase == "busy":
                    await tables.settle()
            idle, busy = (statistics.median(ms for ms, _ in phases[p]) for p in ("idle", "busy"))
            idle_server, busy_server = (statistics.median(ms for _, ms in phases[p]) for p in ("idle", "busy"))
            ratios.append(busy / idle)
            print(
                f"round {index + 1}: POST .../moves p50 idle {idle:.1f} ms (server {idle_server:.1f}, "
                f"n={len(phases['idle'])}; {notes['idle']}) | while hard bots think {busy:.1f} ms "
                f"(server {busy_server:.1f}, n={len(phases['busy'])}; {notes['busy']}) | ratio {ratios[-1]:.2f}",
                flush=True,
            )
        print(
            f"median ratio of p50s over {rounds} rounds: {statistics.median(ratios):.2f} (target <= 1.5); "
            f"ratios {', '.join(f'{r:.2f}' for r in ratios)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--bot-games", type=int, default=2)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        url = bench_database(stack)
        port = free_port()
        env = server_env(url, BOT_POLL_SECONDS="0.2", CLOCK_CHECK_SECONDS="3600")
        stack.enter_context(process([sys.executable, "-m", "app", "serve", "--port", str(port)], env))
        app_url = f"http://127.0.0.1:{port}"
        asyncio.run(wait_up(app_url + "/healthz"))
        asyncio.run(bench(app_url, args.rounds, args.seconds, args.bot_games))


if __name__ == "__main__":
    main()
