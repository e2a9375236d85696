"""The command line: `python -m app <command> ...`.

Each command lives in the module that owns its work; this file only wires argparse to them.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def _simulate(args: argparse.Namespace) -> int:
    from app.simulate import run_from_args

    return run_from_args(args)


def _tournament(args: argparse.Namespace) -> int:
    from app.tournament import run_from_args

    return run_from_args(args)


def _verify(args: argparse.Namespace) -> int:
    from app.verify import run_from_args

    return run_from_args(args)


def _serve(args: argparse.Namespace) -> int:
    from app.commands import serve

    return serve(args)


def _migrate(args: argparse.Namespace) -> int:
    from app.commands import migrate

    return migrate(args)


def _create_admin(args: argparse.Namespace) -> int:
    from app.commands import create_admin

    return create_admin(args)


def _worker(args: argparse.Namespace) -> int:
    from app.commands import worker

    return worker(args)


def _ratings(args: argparse.Namespace) -> int:
    from app.commands import ratings

    return ratings(args)


def _audit(args: argparse.Namespace) -> int:
    from app.commands import audit

    return audit(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app", description="Carson City Online")
    commands = parser.add_subparsers(dest="command", required=True)

    sim = commands.add_parser("simulate", help="play random complete games with the rules core")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--variants", default="{}", help="variant settings as JSON (see the API's `variants`)")
    sim.add_argument("--out", default=None, help="write each finished game's spectator state as a JSON line")
    sim.set_defaults(handler=_simulate)

    tour = commands.add_parser("tournament", help="bots play complete games against each other; their win rates")
    tour.add_argument("--players", type=int, default=4)
    tour.add_argument("--bots", default="heuristic,random",
                      help="bots seat by seat (easy, normal or heuristic, hard, random, default), the last one fills "
                           "the other seats; the last line is the first one's win rate")
    tour.add_argument("--games", type=int, default=10)
    tour.add_argument("--seed", type=int, default=1)
    tour.add_argument("--variants", default="{}", help="variant settings as JSON (see the API's `variants`)")
    tour.add_argument("--hard-playouts", type=int, default=None, help="the hard bot's iterations per move at most")
    tour.add_argument("--hard-seconds", type=float, default=None, help="the hard bot's CPU seconds per move at most")
    tour.set_defaults(handler=_tournament)

    verify = commands.add_parser(
        "verify", help="check a finished game's export: the seed, every die, draw and shuffle, the final state"
    )
    verify.add_argument("export", help="the JSON of GET /api/v1/games/{id}/export")
    verify.set_defaults(handler=_verify)

    serve = commands.add_parser("serve", help="run the server (embedded PostgreSQL unless DATABASE_URL is set)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(handler=_serve)

    worker = commands.add_parser("worker", help="run the mail worker, move clocks and bots without the web server")
    worker.set_defaults(handler=_worker)

    migrate = commands.add_parser("migrate", help="apply the database migrations")
    migrate.add_argument("--revision", default="head", help="target revision (default: head)")
    migrate.set_defaults(handler=_migrate)

    admin = commands.add_parser("create-admin", help="create an admin account (or promote an existing one)")
    admin.add_argument("username")
    admin.add_argument("--email", default=None)
    admin.add_argument("--password", default=None, help="default: ADMIN_PASSWORD, else asked on the terminal")
    admin.set_defaults(handler=_create_admin)

    rating = commands.add_parser("ratings", help="rate the finished games still pending (the server does it itself)")
    rating.add_argument("--rebuild", action="store_true", help="compute every rating again from the results table")
    rating.set_defaults(handler=_ratings)

    check = commands.add_parser(
        "audit", help="replay every stored game from its log and check it: exit 1 naming each game that fails"
    )
    check.set_defaults(handler=_audit)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.handler(args)
    return result
