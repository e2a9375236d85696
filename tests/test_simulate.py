"""`python -m app simulate` (issue "Rules core", item 3): complete games, one finished state document per line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.cli import main
from app.simulate import _uniform


@pytest.mark.parametrize("players", [2, 5])
def test_simulate_writes_one_finished_state_per_game(tmp_path: Path, players: int,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """R-END-6, R-END-8: every simulated game finishes with a winner and a score breakdown for every player."""
    out = tmp_path / "games.jsonl"
    assert main(["simulate", "--players", str(players), "--games", "4", "--seed", "1", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    for line in lines:
        doc = json.loads(line)
        assert doc["status"] == "finished" and doc["winner"] in range(players)
        assert len(doc["players"]) == players
        for player in doc["players"]:
            score = player["score"]
            parts = ("during_game", "buildings", "houses", "mountains", "money")
            assert score["total"] == sum(score[part] for part in parts)
        best = max(p["score"]["total"] for p in doc["players"])
        assert doc["players"][doc["winner"]]["score"]["total"] == best
    printed = capsys.readouterr().out
    for figure in ("games:", "decisions per game:", "games/s:", "median us per decide:", "median us per legal_moves:"):
        assert figure in printed


def test_simulate_refuses_unknown_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--variants", '{"dragons": true}']) == 2
    assert "dragons" in capsys.readouterr().err


def test_simulate_plays_big_box_with_every_expansion_and_six_players(tmp_path: Path) -> None:
    """R-BB-1 .. R-BB-7: the core's own caller plays Big Box while it is in preview — six players, Gold & Guns,
    the Outlaws, horses and Kit Carson, the cards drawn from the whole box — and every game finishes."""
    out = tmp_path / "games.jsonl"
    variants = {"expansions": ["gold_and_guns", "outlaws", "big_box"], "horses": True, "kit_carson": True}
    assert main(["simulate", "--players", "6", "--games", "3", "--seed", "2", "--variants", json.dumps(variants),
                 "--out", str(out)]) == 0
    docs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(docs) == 3 and all(doc["status"] == "finished" and len(doc["players"]) == 6 for doc in docs)
    assert all("horses" in p["score"] and "kit_carson" in p["score"] for doc in docs for p in doc["players"])


def test_the_random_players_draw_exactly_what_random_choice_draws() -> None:
    """The simulation's uniform pick stands in for `random.Random.choice` to save its pure-Python layers: it must
    draw the same options from the same generator, or a seed would no longer replay the same games."""
    ours, theirs = random.Random(7), random.Random(7)
    pick = _uniform(ours)
    for size in [1, 2, 3, 5, 8, 13, 64, 97, 100, 1000] * 50:
        options = list(range(size))
        assert pick(options) == theirs.choice(options)
    with pytest.raises(IndexError):
        pick([])
