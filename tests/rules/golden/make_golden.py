"""Regenerate the golden game logs: `python -m tests.rules.golden.make_golden`.

Only after a deliberate rules change — the golden test exists to notice undeliberate ones. Each file holds the
configuration, the seed, every move in order, the event log and the final spectator view.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.rules import GameConfig, legal_moves, new_game, play, player_view, replay, to_act
from app.rules.rng import Rng

HERE = Path(__file__).parent
GAMES = (
    ("two_players_yellow", 2, {"sides": "yellow"}, 1001),
    ("three_players_red", 3, {"sides": "red"}, 2002),
    ("five_players_random", 5, {"sides": "random"}, 3003),
)


def make(players: int, variants: dict[str, str], seed: int) -> dict[str, object]:
    chooser = random.Random(seed)
    config = GameConfig.from_variants(players, variants)
    events = new_game(config, seed)
    state = replay(events)
    moves = []
    while state.status != "finished":
        seat = chooser.choice(to_act(state))
        move = chooser.choice(legal_moves(state, seat))
        new, state = play(state, seat, move, Rng(seed, state.seq))
        moves.append([seat, move])
        events += new
    return {"players": players, "variants": variants, "seed": seed, "moves": moves, "events": events,
            "final": player_view(state, None)}


def main() -> None:
    for name, players, variants, seed in GAMES:
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(make(players, variants, seed), separators=(",", ":")) + "\n", encoding="utf-8")
        print(path.name)


if __name__ == "__main__":
    main()
