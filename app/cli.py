"""The command line: `python -m app <command> ...`.

Each command lives in the module that owns its work; this file only wires argparse to them.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def _simulate(args: argparse.Namespace) -> int:
    from app.simulate import run_from_args

    return run_from_args(args)


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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.handler(args)
    return result
