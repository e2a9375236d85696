"""Golden logs of whole games (STYLE "Golden event logs of whole games are kept as fixtures and replayed").

R-WEB-3: each stored log replays to the stored final state document, and the same seed and moves decided again
produce exactly the stored events — so neither old logs nor the rules' behaviour change unnoticed. After a
deliberate rules change, regenerate with `python -m tests.rules.golden.make_golden`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.rules import GameConfig, new_game, play, player_view, replay
from app.rules.rng import Rng

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def _load(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_there_are_three_golden_games() -> None:
    assert len(GOLDEN) == 3


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_log_replays_to_its_final_state(path: Path) -> None:
    """R-WEB-3: the fold of the stored events is the stored finished game."""
    game = _load(path)
    state = replay(game["events"])  # type: ignore[arg-type]
    assert state.status == "finished"
    assert player_view(state, None) == game["final"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_moves_decide_to_the_same_events(path: Path) -> None:
    """R-WEB-3: deciding the stored moves again from the seed gives the stored log, event for event."""
    game = _load(path)
    config = GameConfig.from_variants(game["players"], game["variants"])  # type: ignore[arg-type]
    seed: int = game["seed"]  # type: ignore[assignment]
    events = new_game(config, seed)
    state = replay(events)
    for seat, move in game["moves"]:  # type: ignore[attr-defined]
        new, state = play(state, seat, move, Rng(seed, state.seq))
        events += new
    assert events == game["events"]
