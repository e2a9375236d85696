"""The site's bot harmless to the server (issue 29, item 4: "in a separate process so that the event loop and the
other games never wait for it ... several servers never make the same bot move twice (one move per transaction,
as today)"). A bot's move reads what the seat sees, gives its connection back, thinks, and records its move at
the head it thought from or drops it (`GameService.apply`, `BotMove`); each game's move is a job of its own
(`BotKeeper`); the thinking pools are bounded and the rest wait their turn (`app.play.thinking`). The bot's
thinking is stubbed by an injected chooser that waits to be let go, so that the test looks at the server while
the bot thinks; PostgreSQL is real.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg
from conftest import Api, Player
from sqlalchemy import text

from app.play.bot_keeper import BotKeeper
from app.play.keeper import ClockKeeper
from app.play.service import GameService
from app.play.thinking import Thinker, hard_workers
from app.rules import GameState, default_move
from app.store.db import to_libpq_url
from tests.notify.conftest import now, started

_HEAD = text("SELECT seq FROM games WHERE id = :id")
WAIT = 10.0  # seconds: how long a stubbed bot waits to be let go (a bound for a failing test, never reached)


class HeldBot:
    """A chooser that tells when it thinks, then waits until let go and plays the safest default move."""

    def __init__(self, parties: int = 1) -> None:
        self.thinking = threading.Event()
        self.go = threading.Event()
        self.together = threading.Barrier(parties, timeout=WAIT)  # the choosers start thinking at once

    def __call__(self, state: GameState, seat: int, game_id: int, level: str) -> dict[str, Any]:
        self.together.wait()
        self.thinking.set()
        assert self.go.wait(WAIT), "never let go"
        move = default_move(state, seat)
        assert move is not None
        return move

    async def started(self) -> None:
        assert await asyncio.to_thread(self.thinking.wait, WAIT), "the bot never started thinking"


async def _bot_game(api: Api, client: httpx.AsyncClient, name: str) -> tuple[int, int, Player]:
    """A 2-seat table of a person and the site's bot (level normal): its id, the person's seat, the person."""
    ann = await api.player(name)
    r = await client.post("/api/v1/games", json={"name": name, "seats": 2, "bots": 1}, headers=ann.headers)
    assert r.status_code == 201, r.text
    game = r.json()
    return game["id"], next(s["seat"] for s in game["seats"] if s["username"] == name), ann


async def _state(client: httpx.AsyncClient, game_id: int, player: Player) -> dict[str, Any]:
    r = await client.get(f"/api/v1/games/{game_id}/state", headers=player.headers)
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()
    return state


async def _head(service: GameService, game_id: int) -> int:
    async with service.db.reading() as session:
        return int((await session.execute(_HEAD, {"id": game_id})).scalar_one())


async def _bot_awaited(
    service: GameService, client: httpx.AsyncClient, game_id: int, mine: int, player: Player, undoable: bool = False
) -> None:
    """Play the person's first legal move whenever awaited (the bot's turns by a quick bot) until the bot is
    awaited — if `undoable`, right after a move of the person's that they may take back."""
    quick = BotKeeper(GameService(service.db, thinker=Thinker(deadline=WAIT)))
    for _ in range(100):
        state = await _state(client, game_id, player)
        if mine not in state["to_act"]:
            if not undoable or state["undo"]:
                return
            assert await quick.tick() == 1
            continue
        options = (await client.get(f"/api/v1/games/{game_id}/moves", headers=player.headers)).json()
        body = {"seq": options["seq"], "move": options["moves"][0]}
        r = await client.post(f"/api/v1/games/{game_id}/moves", json=body, headers=player.headers)
        assert r.status_code == 200, r.text
    raise AssertionError("the bot was never awaited as wanted")


@contextlib.asynccontextmanager
async def _thinking(bot: HeldBot, run: Callable[[], Coroutine[Any, Any, Any]]) -> AsyncIterator[asyncio.Task[Any]]:
    """Run `run()` as a task until the held bot thinks; let the bot go when the block ends."""
    task = asyncio.create_task(run())
    try:
        await bot.started()
        yield task
    finally:
        bot.go.set()


async def test_the_bot_holds_no_connection_nor_transaction_while_it_thinks(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    """Issue 29 item 4: while the bot thinks, its job holds no pooled connection and PostgreSQL shows no session
    idle in a transaction; once it has thought, its move is recorded."""
    game_id, mine, ann = await _bot_game(api, client, "ann")
    await _bot_awaited(service, client, game_id, mine, ann)
    head = await _head(service, game_id)
    bot = HeldBot()
    service.thinker = Thinker(bot, deadline=WAIT)
    async with _thinking(bot, BotKeeper(service).tick) as tick:
        assert service.db.pool_use()["in_use"] == 0, "no pooled connection is checked out while the bot thinks"
        async with await psycopg.AsyncConnection.connect(to_libpq_url(service.db.url), autocommit=True) as conn:
            idle = await (
                await conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND state LIKE 'idle in transaction%%' AND pid <> pg_backend_pid()"
                )
            ).fetchone()
        assert idle == (0,), "no session waits in a transaction while the bot thinks"
    assert await tick == 1
    assert await _head(service, game_id) > head


async def test_a_players_undo_while_the_bot_thinks_drops_the_bots_stale_move(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    """Issue 29 item 4: the bot's move is recorded only at the head it was thought from. The person takes their
    move back while the bot thinks of its answer: the bot's result is dropped without an error, nothing of it
    is logged, and the game waits for the person again."""
    game_id, mine, ann = await _bot_awaited_game(api, client, service)
    bot = HeldBot()
    service.thinker = Thinker(bot, deadline=WAIT)
    keeper = BotKeeper(service)
    async with _thinking(bot, keeper.tick) as tick:
        seq = (await _state(client, game_id, ann))["seq"]
        r = await client.post(f"/api/v1/games/{game_id}/undo", json={"seq": seq}, headers=ann.headers)
        assert r.status_code == 200, r.text
        undone = await _head(service, game_id)
    assert await tick == 0, "the stale move is dropped"
    assert await _head(service, game_id) == undone, "nothing of the bot's move is logged"
    events = (await client.get(f"/api/v1/games/{game_id}/events", headers=ann.headers)).json()["events"]
    assert events[-1]["type"] == "move_undone"
    assert (await _state(client, game_id, ann))["to_act"] == [mine]
    assert await keeper.run_once() == 0, "the game waits for the person"


async def _bot_awaited_game(api: Api, client: httpx.AsyncClient, service: GameService) -> tuple[int, int, Player]:
    game_id, mine, ann = await _bot_game(api, client, "ann")
    await _bot_awaited(service, client, game_id, mine, ann, undoable=True)
    return game_id, mine, ann


async def test_two_servers_record_one_move_for_one_seat_and_head(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    """Issue 29 item 4 ("several servers never make the same bot move twice"): two instances (each its own state
    cache and bot job) think of the same seat's move at the same head at once; one move is recorded, the
    other is dropped."""
    game_id, mine, ann = await _bot_game(api, client, "ann")
    await _bot_awaited(service, client, game_id, mine, ann)
    head = await _head(service, game_id)
    bot = HeldBot(parties=2)
    service.thinker = Thinker(bot, deadline=WAIT)
    other = GameService(service.db, thinker=Thinker(bot, deadline=WAIT))

    async def both() -> list[int]:
        return list(await asyncio.gather(BotKeeper(service).tick(), BotKeeper(other).tick()))

    async with _thinking(bot, both) as ticks:
        pass
    assert sorted(await ticks) == [0, 1], "one instance recorded the move, the other dropped it"
    events = (await client.get(f"/api/v1/games/{game_id}/events", headers=ann.headers)).json()["events"]
    made = [e for e in events if e["seq"] > head]
    assert made and made[0]["seq"] == head + 1 and len({e["seq"] for e in made}) == len(made)
    assert await _head(service, game_id) == made[-1]["seq"]


async def test_a_game_whose_bot_thinks_holds_up_no_other(
    api: Api, client: httpx.AsyncClient, service: GameService
) -> None:
    """Issue 29 item 4 ("the other games never wait for it"): while one game's bot thinks, the running bot job
    records the bot's move in another game."""
    slow_id, slow_seat, ann = await _bot_game(api, client, "ann")
    await _bot_awaited(service, client, slow_id, slow_seat, ann)
    bot = HeldBot()
    quick = Thinker(deadline=WAIT)

    def choose(state: GameState, seat: int, game_id: int, level: str) -> dict[str, Any]:
        return bot(state, seat, game_id, level) if game_id == slow_id else quick.choose(state, seat, game_id, level)

    service.thinker = Thinker(choose, deadline=WAIT, threads=2)
    keeper = BotKeeper(service)
    async with _thinking(bot, lambda: keeper.run_forever(0.05)) as job:
        fast_id, fast_seat, bob = await _bot_game(api, client, "bob")
        await _bot_awaited(service, client, fast_id, fast_seat, bob)
        head = await _head(service, fast_id)
        for _ in range(200):
            if await _head(service, fast_id) > head:
                break
            await asyncio.sleep(0.05)
        assert await _head(service, fast_id) > head, "the other game's bot moved"
        assert not bot.go.is_set() and slow_id in keeper._jobs, "while the first game's bot still thinks"
    job.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await job
    assert keeper._jobs == {}, "the moves under way end with the job"


def test_the_hard_bot_leaves_a_core_to_the_server() -> None:
    """Issue 29 item 4: the hard bot's worker processes are at most the cores but one, and at least one."""
    assert [hard_workers(8, cores) for cores in (1, 2, 4, 16)] == [1, 1, 3, 8]
    assert hard_workers(2, 16) == 2
    assert Thinker(processes=64).processes == hard_workers(64)


async def test_moves_beyond_the_workers_wait_their_turn_and_each_gets_its_whole_deadline() -> None:
    """Issue 29 item 4: more moves than workers wait their turn on the event loop (never more thinking at once
    than workers), and each move's deadline counts from when a worker takes it: none of the waiting ones fails."""
    lock, running, most = threading.Lock(), [0], [0]
    go = threading.Event()

    def choose(state: GameState, seat: int, game_id: int, level: str) -> dict[str, Any]:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        assert go.wait(WAIT)
        with lock:
            running[0] -= 1
        return {"type": "pass", "game": game_id}

    thinker = Thinker(choose, deadline=WAIT, threads=1)
    state: Any = None  # the stub never reads it
    moves = [asyncio.create_task(thinker.move(state, 0, game_id)) for game_id in range(3)]
    await asyncio.sleep(0.1)
    go.set()
    assert await asyncio.gather(*moves) == [{"type": "pass", "game": game_id} for game_id in range(3)]
    assert most == [1]
    thinker.close()


async def test_a_timeouts_bot_holds_no_connection_while_it_thinks(api: Api, service: GameService) -> None:
    """Issue 29 item 4, decision D105: the bot that makes a timed-out seat's move thinks with no pooled connection
    checked out either; its move is then recorded, marked as made by the bot for the absent player."""
    table, _, _ = await started(api, service, ["ann", "bob"], seed=3, move_timeout_hours=24, vacations=False)
    (seat,) = await table.to_act()
    head = await _head(service, table.id)
    bot = HeldBot()
    service.thinker = Thinker(bot, deadline=WAIT)
    async with _thinking(bot, lambda: ClockKeeper(service).tick(now() + timedelta(hours=25))) as tick:
        assert service.db.pool_use()["in_use"] == 0, "no pooled connection is checked out while the bot thinks"
    assert (await tick).timeouts == 1
    assert await _head(service, table.id) > head
    assert seat not in await table.to_act()


def test_the_hard_bots_worker_processes_end_with_a_server_that_dies(tmp_path: Path) -> None:
    """Issue 29 item 4: a server killed without stopping its pool (SIGKILL, a crash) leaves no worker process of
    the hard bot behind, waiting or searching on."""
    pid_file = tmp_path / "worker.pid"
    script = (
        "import asyncio, os, sys\n"
        "from app.play.thinking import Thinker\n"
        "workers = Thinker()._processes\n"
        "open(sys.argv[1], 'w').write(str(asyncio.run(workers.run(60, os.getpid))))\n"
        "os._exit(0)\n"  # as a killed process: no shutdown of the pool
    )
    subprocess.run([sys.executable, "-c", script, str(pid_file)], stdout=subprocess.DEVNULL, timeout=120, check=True)
    worker = int(pid_file.read_text())
    for _ in range(200):
        if not Path(f"/proc/{worker}").exists() or "(zombie)" in _process_state(worker):
            return
        time.sleep(0.05)
    os.kill(worker, signal.SIGKILL)
    raise AssertionError("the worker process outlived its server")


def _process_state(pid: int) -> str:
    try:
        return next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("State"))
    except OSError:
        return "(zombie)"  # gone meanwhile
