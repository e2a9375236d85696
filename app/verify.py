"""`python -m app verify EXPORT.json`: check a finished game's export (`GET /api/v1/games/{id}/export`) offline.

Three checks, each needing nothing but the file and the rules core: the revealed seed's SHA-256 is the commitment
the game published from its creation; every event — each die, bag draw and shuffle in it — is what the rules make
of that seed and the players' moves (`app.rules.audit`); and the final state the export shows (status, winner,
every player's money, VP and score) is the one the rules reach. Exit 0 when all hold, else 1 naming the first
thing that does not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.rules import GameConfig, GameState, player_view
from app.rules.audit import audit
from app.rules.fairness import commitment, parse_seed, seed_number

# What the final state must agree on, for each player of the export's state document.
PLAYER_FIELDS = ("money", "vp", "score")


class Unverified(Exception):
    """Why the export does not verify, in a sentence."""


def verify_export(export: Mapping[str, Any]) -> str:
    """A line saying what was checked; raises Unverified naming the first thing that does not hold."""
    game = export.get("game")
    raw_events = export.get("events")
    if not isinstance(game, Mapping) or not isinstance(raw_events, list):
        raise Unverified("this is not a game export: it needs a 'game' and its 'events'")
    text = export.get("seed")
    if not isinstance(text, str):
        raise Unverified("the export carries no seed: a game's seed is revealed when it is finished")
    try:
        seed = parse_seed(text)
    except ValueError as exc:
        raise Unverified(f"the seed is not 64 hex characters ({exc})") from exc
    if commitment(seed) != game.get("seed_commitment"):
        raise Unverified(
            f"the seed's SHA-256 is {commitment(seed)}, not the commitment the game published "
            f"({game.get('seed_commitment')})"
        )
    events = _events(raw_events)
    config = GameConfig.from_json(int(game["seat_count"]), dict(game["variants"]))
    result = audit(config, seed_number(seed), events)
    if result.discrepancy is not None:
        found = result.discrepancy.seq
        kind = events[found - 1]["type"] if found <= len(events) else "end of the log"
        raise Unverified(f"event {found} ({kind}) does not match: {result.discrepancy.reason}")
    assert result.state is not None  # a log that passed the audit has at least its setup
    _check_final(export, game, result.state)
    return (
        f"seed matches its commitment {game['seed_commitment'][:16]}…; {len(events)} events and "
        f"{result.moves} moves replayed from the seed; every die, draw and shuffle and the final state match"
    )


def _events(raw: list[Any]) -> list[dict[str, Any]]:
    """The export's events as the rules core wrote them, checked to be the whole log numbered 1, 2, 3 …"""
    events = []
    for number, row in enumerate(raw, start=1):
        if not isinstance(row, Mapping) or row.get("seq") != number or not isinstance(row.get("data"), Mapping):
            raise Unverified(f"event {number} is missing or out of order: an export holds the whole log")
        events.append({**row["data"], "type": row.get("type")})
    return events


def _check_final(export: Mapping[str, Any], game: Mapping[str, Any], state: GameState) -> None:
    if game.get("status") != state.status:
        raise Unverified(f"the game is {game.get('status')} by its summary, {state.status} by the rules")
    shown = export.get("state")
    if not isinstance(shown, Mapping) or not shown:
        return
    ours = player_view(state, None, reveal_all=True)
    if shown.get("winner") != ours["winner"]:
        raise Unverified(f"the final state names winner {shown.get('winner')}, the rules {ours['winner']}")
    for theirs, mine in zip(shown.get("players") or [], ours["players"], strict=False):
        for name in PLAYER_FIELDS:
            if theirs.get(name) != mine[name]:
                raise Unverified(
                    f"the final state gives seat {mine['seat']} {name} {theirs.get(name)}, the rules {mine[name]}"
                )


def run_from_args(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        export = json.loads(Path(args.export).read_text(encoding="utf-8"))
        if not isinstance(export, Mapping):
            raise Unverified("this is not a game export")
        summary = verify_export(export)
    except (OSError, ValueError) as exc:
        print(f"NOT VERIFIED: cannot read {args.export}: {exc}", file=sys.stderr)
        return 1
    except Unverified as exc:
        print(f"NOT VERIFIED: {exc}", file=sys.stderr)
        return 1
    print(f"VERIFIED: {summary} ({time.perf_counter() - started:.2f} s)")
    return 0
