"""Simulated rated games through the real write path, and the leaderboard they make (issue 27, "Done when").

Accounts of known strength play complete rated games of 2 to 5 seats, some seats taken by the site's bot: each
table is opened by the lobby (`Lobby.create_game`, an admin seating the players, the bots asked for), every move
goes through `GameService.apply` — a person's as `PlayerMove`, the bot's as `BotMove` (the bot job's own
command) — so every game's end writes its results and rates its players exactly as on the server. A simulated
person of strength p makes the heuristic bot's move with probability p and a random legal move otherwise: the
leaderboard should list them in the order of p, with the bots' level (`bot-normal`, the heuristic bot, p = 1)
near the top. At the end the ratings are rebuilt from the results table and compared with the live figures.

Run: `nice -n 10 .venv/bin/python bench/ratings.py [--games 300] [--parallel 6] [--seed 1]`. Uses
BENCH_DATABASE_URL if set (its tables must be empty), else an embedded PostgreSQL in a temporary directory that
it stops and deletes. Prints the leaderboard (every size and by size) and figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from move_latency import PASSWORD, SECRET, bench_database  # noqa: E402

# Simulated people: name prefix, how many, strength (the share of their moves that are the heuristic bot's).
PEOPLE = (("ace", 3, 0.95), ("good", 4, 0.75), ("fair", 4, 0.5), ("weak", 4, 0.25), ("novice", 3, 0.0))
SIZES = (2, 3, 4, 5)  # table sizes, chosen alike
BOT_SEAT = 0.2  # the chance that a seat (other than the first) is the site's bot's


async def simulate(url: str, games: int, parallel: int, seed: int) -> None:
    from sqlalchemy import select

    from app.bots.heuristic import heuristic_bot
    from app.bots.tournament import bot_player
    from app.main import create_app
    from app.play import ratings
    from app.play.accounts import Account
    from app.play.commands import BotMove, PlayerMove
    from app.play.head import counted
    from app.play.standing import leaderboard
    from app.rules import legal_moves, to_act
    from app.settings import Settings
    from app.store.tables import Game, Rating, RatingHistory, Seat, User

    data_dir = Path(tempfile.mkdtemp())
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        environment="test", database_url=url, data_dir=data_dir, secret_key=SECRET, password_hashing="cheapest",
        background_jobs=False, admin_username="admin", admin_password=PASSWORD,
    )
    app = create_app(settings)
    heuristic = bot_player(heuristic_bot)
    async with app.router.lifespan_context(app):
        service, lobby, sign_in = app.state.service, app.state.lobby, app.state.sign_in
        service.moves_per_minute = 10**9  # simulated people move faster than the cap a person meets allows
        admin: Account = await sign_in.ensure_admin("admin", PASSWORD)
        strength: dict[str, float] = {}
        for prefix, count, p in PEOPLE:
            for n in range(1, count + 1):
                name = f"{prefix}{n}"  # each from an address of its own: the sign-ups an address may make are few
                await sign_in.register(name, f"{name}@example.com", PASSWORD, f"192.0.2.{len(strength) + 1}")
                strength[name] = p
        chooser = random.Random(seed)
        moves = Counter[str]()

        async def play(number: int) -> None:
            rng = random.Random(chooser.randrange(2**63))
            size = rng.choice(SIZES)
            bots = sum(1 for _ in range(size - 1) if rng.random() < BOT_SEAT)
            people = rng.sample(sorted(strength), size - bots)
            summary = await lobby.create_game(admin, name=f"Sim {number}", seat_count=size, variants={},
                                              players=people, bots=bots)
            gid = summary.id
            for _ in range(5000):
                async with service.db.autocommit() as session:
                    seq = await session.scalar(select(Game.seq).where(Game.id == gid))
                    state = await service.cache.load(session, gid, seq)
                    if state.status == "finished":
                        return
                    seat = to_act(state)[0]
                    user_id, username, bot = (await session.execute(
                        select(Seat.user_id, User.username, User.is_bot).join(User, User.id == Seat.user_id)
                        .where(Seat.game_id == gid, Seat.seat == seat))).one()
                if bot:
                    await service.apply(BotMove(gid, seat))
                    moves["bot"] += 1
                    continue
                options = legal_moves(state, seat)
                move = heuristic(state, seat, rng) if rng.random() < strength[username] else rng.choice(options)
                await service.apply(PlayerMove(user_id, gid, counted(state, seat), move))
                moves["person"] += 1
            raise RuntimeError(f"game {gid} did not end")

        started = time.perf_counter()
        queue = iter(range(1, games + 1))

        async def worker() -> None:
            for number in queue:
                await play(number)
                if number % 25 == 0:
                    print(f"  {number} games, {time.perf_counter() - started:.0f} s", flush=True)

        await asyncio.gather(*(worker() for _ in range(parallel)))
        seconds = time.perf_counter() - started
        print(f"\n{games} rated games through the write path in {seconds:.0f} s: {moves['person']} moves by "
              f"people, {moves['bot']} by the bot ({(moves['person'] + moves['bot']) / seconds:.0f} moves/s)")

        board = await leaderboard(service.db)
        print(f"\nLeaderboard, every table size ({board.total} ranked; strength = share of the bot's moves):")
        print(f"{'rank':>4}  {'player':<12} {'rating':>6} {'games':>5}  strength")
        for rank, r in enumerate(board.players, 1):
            shown = "bot" if r.username.startswith("bot-") else f"{strength[r.username]:.2f}"
            print(f"{rank:>4}  {r.username:<12} {r.rating:>6} {r.games:>5}  {shown}")
        for size in SIZES:
            by_size = await leaderboard(service.db, size, limit=5)
            top = ", ".join(f"{r.username} {r.rating}" for r in by_size.players)
            print(f"tables of {size}: {by_size.total} ranked; best: {top}")

        async def figures() -> list[tuple[Any, ...]]:
            async with service.db.reading() as session:
                live = (await session.execute(select(Rating.user_id, Rating.mu, Rating.sigma, Rating.games)
                                              .order_by(Rating.user_id))).all()
                history = (await session.execute(select(RatingHistory.game_id, RatingHistory.user_id,
                                                        RatingHistory.mu, RatingHistory.sigma)
                                                 .order_by(RatingHistory.game_id, RatingHistory.user_id))).all()
            return [tuple(row) for row in live + history]

        live = await figures()
        started = time.perf_counter()
        rated = await ratings.rebuild(service.db)
        same = await figures() == live
        print(f"\nrebuild from the results table: {rated} games in {time.perf_counter() - started:.1f} s; "
              f"the same figures as live: {'yes' if same else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--parallel", type=int, default=6, help="games played at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        url = bench_database(stack)
        asyncio.run(simulate(url, args.games, args.parallel, args.seed))


if __name__ == "__main__":
    main()
