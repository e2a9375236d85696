"""A fingerprint of what the rules core does: one SHA-256 over complete random games of many configurations.

Why: a change meant to make the core faster must not change what it does. The golden logs and the property tests
check a few hundred games; this plays many more, of every player count, variant and expansion, and hashes every
event, the draws each decision made, and every seat's legal moves at every state a decision is awaited in, so
two versions of the core can be compared by one line each: run it on the old code and on the new, and the hashes
must be equal.

How: `.venv/bin/python bench/engine_fingerprint.py [--games N]` (default 80 games per configuration) prints one
hash per configuration, then the hash over all of them. It plays as the simulation does (`app/simulate.py`:
preview expansions accepted, moves chosen uniformly in the order the core lists them, so a change of that order
changes the games and the hash), each seat's moves hashed sorted (each move as JSON with sorted keys). Every
other game plays the move the state keeps (`legal_moves_read_only`, which `play` recognises by identity) and
gives the seats random answers ahead (the standing permission, the cash limit); the others play a copy and ask
everyone. The spectator's view of each finished game is hashed too. Asserts nothing: compare the output.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rules import GameConfig, legal_moves, legal_moves_read_only, new_game, play, player_view, replay, to_act
from app.rules.automatic import CASH_LIMIT_ANSWERS, PERMISSION_ANSWERS, Answers
from app.rules.rng import Rng

_ALL_VARIANTS = {"sides": "vote", "might_is_right": True, "river": True, "new_beginning": True}
_EXPANSIONS = ["gold_and_guns", "outlaws", "big_box"]
# (players, variants): every player count, every variant alone and together, every expansion alone and together.
CONFIGURATIONS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"sides": "red"}),
    (4, {}),
    (5, {"sides": "random"}),
    (4, {"sides": "vote"}),
    (3, {"might_is_right": True}),
    (4, {"river": True}),
    (4, {"new_beginning": True}),
    (5, _ALL_VARIANTS),
    (4, {"expansions": ["gold_and_guns"]}),
    (4, {"expansions": ["outlaws"], "sides": "random"}),
    (4, {"expansions": ["big_box"], "horses": True, "kit_carson": True}),
    (6, {"expansions": ["big_box"], "sides": "random"}),
    (5, {"expansions": ["gold_and_guns", "outlaws"], "sides": "red", "might_is_right": True}),
    (3, {**_ALL_VARIANTS, "expansions": _EXPANSIONS, "horses": True, "kit_carson": True}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=80, help="games per configuration")
    args = parser.parse_args()
    whole = hashlib.sha256()
    for players, variants in CONFIGURATIONS:
        digest = configuration_digest(players, variants, args.games)
        whole.update(digest.encode())
        print(f"{digest}  {players} players, {json.dumps(variants, sort_keys=True)}")
    print(f"{whole.hexdigest()}  all {len(CONFIGURATIONS)} configurations, {args.games} games each")


def configuration_digest(players: int, variants: dict[str, Any], games: int) -> str:
    """The hash over `games` random games of one configuration, their seeds drawn from the configuration itself."""
    config = GameConfig.from_variants(players, variants, preview=True)
    chooser = random.Random(json.dumps([players, variants], sort_keys=True))
    digest = hashlib.sha256()
    for game in range(games):
        _play(config, chooser.randrange(2**62), chooser, trusted=game % 2 == 1, digest=digest)
    return digest.hexdigest()


def _play(config: GameConfig, seed: int, chooser: random.Random, trusted: bool, digest: Any) -> None:
    """One complete game, every event, draw count and legal move written into `digest`."""
    answers = Answers(
        permission=tuple(chooser.choice(PERMISSION_ANSWERS) for _ in range(config.players)),
        cash_limit=tuple(chooser.choice(CASH_LIMIT_ANSWERS) for _ in range(config.players)),
    ) if trusted else Answers()
    events = new_game(config, seed)
    _write(digest, events)
    state = replay(events)
    while state.status != "finished":
        awaited = to_act(state)
        _write(digest, ["to_act", *awaited])
        for seat in range(config.players):
            _write(digest, sorted(_canonical(move) for move in legal_moves(state, seat)))
        seat = chooser.choice(awaited)
        listed: Sequence[Mapping[str, Any]] = legal_moves_read_only(state, seat) if trusted \
            else legal_moves(state, seat)
        rng = Rng(seed, state.seq)
        new, state = play(state, seat, chooser.choice(listed), rng, answers)
        _write(digest, ["draws", rng.draws, state.seq])
        _write(digest, new)
    _write(digest, player_view(state, None))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _write(digest: Any, value: Any) -> None:
    digest.update(_canonical(value).encode())
    digest.update(b"\n")


if __name__ == "__main__":
    main()
