"""The bots (issue 15, API.md "Bots"): pure players of a seat's view that never learn another seat's secret, play
every variant and expansion to the end, and the `tournament` command's output.

Sources: ARCHITECTURE "Views" (the secrets: the bag, other players' duel tiles, unrevealed simultaneous choices —
RULINGS V1 votes, V2 tiles, V4 baskets, G7 the dynamite duellist's second tile) and issue 15 "Tests".
"""

from __future__ import annotations

import dataclasses
import inspect
import random
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from imports import imported_names

import app.bots
from app.bots import BOTS, Bot
from app.bots.heuristic import SCORERS
from app.bots.search import Budget, search_bot
from app.bots.table import table_move
from app.bots.tournament import bot_player, default_player, play_game
from app.cli import main
from app.rules import GameConfig, GameState, legal_moves, new_game, player_view, replay, to_act
from app.rules.model import replace
from app.rules.moves import MOVE_TYPES
from app.tournament import seat_names
from tests.rules.builders import Game
from tests.rules.invariants import _scrambled_for, check_invariants

BOTS_DIR = Path(app.bots.__file__).parent
# The players themselves; tournament.py is the referee that hands them the view, and may read the state.
PLAYER_MODULES = ("__init__.py", "base.py", "easy.py", "heuristic.py", "random_bot.py")
# The hard bot with a budget of playouts alone, so that the same inputs give the same move; few and short ones
# (each cut at the end of its position's round), as it searches every position of the games with secrets: three
# playouts, each of its own determinization of what the seat cannot see, over three candidates (six took the
# suite a minute and a half of CPU for the same code paths).
UNDER_TEST: dict[str, Bot] = {**BOTS, "hard": search_bot(Budget(playouts=3, seconds=1e9, candidates=3, rounds=0))}


def test_players_import_nothing_that_could_show_them_the_state() -> None:
    """A bot is a function of the view, its legal moves and its own generator: the player modules import only
    the standard library, each other and the rulebook's numbers (`app.rules.catalog`, data every player may
    read), never the state, the legal-move or view code of the rules core, and use no global random. The hard
    bot's search (`app.bots.search`) is the one exception, deliberately: it plays the core's pure functions on a
    game it rebuilds from the view (tests/bots/test_search.py checks what it is handed)."""
    for name in PLAYER_MODULES:
        path = BOTS_DIR / name
        for imported in imported_names(path, BOTS_DIR.parent):
            top = imported.split(".")[0]
            ours = imported.startswith(("app.bots", "app.rules.catalog"))
            assert ours or (top in sys.stdlib_module_names and top != "app"), (name, imported)
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\brandom\.(random|choice|randrange|randint|shuffle|sample)\(", text), name


class Recorder:
    """Wraps a bot and keeps what it was handed and what it chose."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.calls: list[tuple[Mapping[str, Any], list[dict[str, Any]], dict[str, Any]]] = []

    def __call__(self, view: Mapping[str, Any], moves: Sequence[Mapping[str, Any]],
                 rng: random.Random) -> dict[str, Any]:
        chosen = self.bot(view, moves, rng)
        self.calls.append((view, [dict(m) for m in moves], chosen))
        return chosen


def _secrets_pending(s: GameState) -> bool:
    return bool(s.votes or s.baskets or s.duel_tiles or s.duel_second_tiles or any(p.tiles for p in s.players))


SECRET_CASES = [
    {"sides": "vote", "might_is_right": True, "new_beginning": True},
    {"expansions": ["gold_and_guns", "outlaws"], "characters": [1, 4, 5, 8, 11, 13, 14], "sides": "red",
     "might_is_right": True},
]


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("variants", SECRET_CASES, ids=["vote+tiles+baskets", "dynamite+gunsmith+tiles"])
def test_a_bot_never_reads_another_seats_secret(name: str, variants: dict[str, object]) -> None:
    """Issue 15: scramble the other seats' secrets (their tiles, chosen tiles, votes, baskets, the bag —
    `invariants._scrambled_for`): what the bot is handed and the move it makes must not change. Checked in every
    position of a whole game with secrets pending (RULINGS V1, V2, V4, G7)."""
    config = GameConfig.from_variants(3, variants, preview=True)
    checked = 0

    def compare(s: GameState) -> None:
        nonlocal checked
        if not _secrets_pending(s):
            return
        for seat in to_act(s):
            runs = []
            for state in (s, _scrambled_for(s, seat)):
                recorder = Recorder(UNDER_TEST[name])
                bot_player(recorder)(state, seat, random.Random(seat))
                runs.append(recorder.calls[0])
            assert runs[0] == runs[1], f"seat {seat} was handed or chose something else when others' secrets moved"
            checked += 1

    players = [bot_player(BOTS["heuristic"]), bot_player(BOTS["random"]), bot_player(UNDER_TEST[name])]
    play_game(config, 20261201, players, random.Random(7), observe=compare)
    assert checked > 10, "the game must have had positions with secrets to check"


def test_a_bot_is_handed_the_seats_view_and_legal_moves() -> None:
    """The referee gives the bot exactly `player_view(state, seat)` and `legal_moves(state, seat)`."""
    state = replay(new_game(GameConfig.from_variants(2, {}), 3))
    seat = to_act(state)[0]
    recorder = Recorder(BOTS["heuristic"])
    bot_player(recorder)(state, seat, random.Random(1))
    view, moves, chosen = recorder.calls[0]
    assert view == player_view(state, seat)
    assert moves == legal_moves(state, seat)
    assert chosen in moves


GAME_CASES: list[dict[str, object]] = [
    {},
    {"sides": "red"},
    {"sides": "vote", "river": True},
    {"might_is_right": True, "new_beginning": True, "sides": "random"},
    {"expansions": ["gold_and_guns"], "characters": [1, 2, 4, 6, 8, 12, 13], "sides": "random"},
    {"expansions": ["gold_and_guns", "outlaws"], "characters": [1, 2, 3, 6, 7, 11, 14]},
    {"expansions": ["outlaws"], "new_beginning": True, "river": True},
    {"expansions": ["big_box"], "horses": True, "characters": [0, 1, 2, 5, 6, 15, 16, 17]},
    {"expansions": ["gold_and_guns", "outlaws", "big_box"], "horses": True, "kit_carson": True,
     "characters": [0, 2, 3, 9, 11, 12, 14, 16]},
]


@pytest.mark.parametrize("variants", GAME_CASES, ids=lambda v: "+".join(sorted(v)) or "base")
def test_bots_play_complete_games_in_every_variant_and_expansion(variants: dict[str, object]) -> None:
    """Bots finish games in the base game, every variant, Gold & Guns and the Outlaws, every move legal (`play`
    refuses any other) and the structural invariants holding after each (tests/rules/invariants.py)."""
    players = 4 if variants else 5
    config = GameConfig.from_variants(players, variants, preview=True)
    line_up = [bot_player(BOTS["heuristic"]), bot_player(BOTS["random"]), default_player,
               bot_player(BOTS["heuristic"]), bot_player(BOTS["random"])][:players]
    finals: list[GameState] = []

    def watch(s: GameState) -> None:
        check_invariants(s)
        finals[:] = [s]

    result = play_game(config, 1000 + len(variants), line_up, random.Random(len(variants)), observe=watch)
    assert finals[0].status == "finished" and finals[0].winner == result.winner
    assert len(result.totals) == players


def test_the_heuristic_beats_random_players() -> None:
    """Issue 15's yardstick in small: over a few 4-player games the heuristic bot wins more than its share
    (a quarter) against three random bots. The full figures are bench/bots.py's."""
    config = GameConfig.from_variants(4, {})
    rng = random.Random(11)
    wins = 0
    for game in range(4):
        seats = seat_names(["heuristic", "random"], 4, game)
        result = play_game(config, rng.randrange(2**40), [bot_player(BOTS[n]) for n in seats], rng)
        wins += seats[result.winner] == "heuristic"
    assert wins >= 3


def test_seats_rotate_and_the_last_name_fills_the_table() -> None:
    assert seat_names(["heuristic", "random"], 4, 0) == ["heuristic", "random", "random", "random"]
    assert seat_names(["heuristic", "random"], 4, 1) == ["random", "random", "random", "heuristic"]
    assert seat_names(["a", "b", "c"], 2, 0) == ["a", "b"]


def test_tournament_prints_each_bots_win_rate_and_ends_with_the_heuristics(capsys: pytest.CaptureFixture[str]) -> None:
    """API.md "Bots": `python -m app tournament --players P --bots heuristic,random --games N --seed S` prints each
    bot's win rate; its last line is `heuristic_win_rate=X.XX`."""
    assert main(["tournament", "--players", "2", "--bots", "heuristic,random", "--games", "3", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    rates = {m[1]: (int(m[2]), float(m[3])) for line in lines
             if (m := re.fullmatch(r"(\w+): won (\d+) of 3, win rate (\d\.\d\d)", line))}
    assert set(rates) == {"heuristic", "random"}
    assert sum(won for won, _ in rates.values()) == 3
    assert all(rate == round(won / 3, 2) for won, rate in rates.values())
    last = re.fullmatch(r"heuristic_win_rate=(\d\.\d\d)", lines[-1])
    assert last is not None and float(last[1]) == rates["heuristic"][1]


def test_tournament_is_reproducible_from_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--players", "3", "--bots", "heuristic,default,random", "--games", "2", "--seed", "9"]
    main(args)
    first = [line for line in capsys.readouterr().out.splitlines() if "ms per move" not in line]
    main(args)
    assert [line for line in capsys.readouterr().out.splitlines() if "ms per move" not in line] == first


def test_tournament_refuses_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "heuristic,genius", "--games", "1"]) == 2
    assert "genius" in capsys.readouterr().err


def test_the_heuristic_newspaper_boy_copies_the_best_card_still_useful() -> None:
    """R-BB-2, RULING X2: the heuristic bot's Newspaper Boy copies the Banker ($9 and a $120 limit) rather than
    the Mercenary; in round 4 it never copies the Teacher, whose red side gives only its cash limit (X3)."""
    g = Game(3, expansions=["big_box"], characters=[0, 1, 2, 3, 4, 5, 7, 17])
    g.claim_starts()
    g.act({"type": "choose_personality", "card": "newspaper_boy"})
    seat = g.to_act[0]
    chosen = BOTS["heuristic"](player_view(g.state, seat), legal_moves(g.state, seat), random.Random(1))
    assert chosen == {"type": "copy_card", "card": "banker"}
    last = replace(g.state, round=4, sides={**g.state.sides, "teacher": "red"})
    only_teacher_or_mercenary = [m for m in legal_moves(last, seat) if m["card"] in ("teacher", "mercenary")]
    chosen = BOTS["heuristic"](player_view(last, seat), only_teacher_or_mercenary, random.Random(1))
    assert chosen == {"type": "copy_card", "card": "mercenary"}


def test_the_heuristic_has_an_opinion_on_every_move_type() -> None:
    """Every move the core may list (`moves.MOVE_TYPES`, every variant and expansion) has a scorer, so a new move
    type is not silently played as "worth nothing"."""
    assert set(SCORERS) >= MOVE_TYPES


@pytest.mark.parametrize("variants", SECRET_CASES, ids=["vote+tiles+baskets", "dynamite+gunsmith+tiles"])
def test_the_sites_bot_at_a_table_never_reads_another_seats_secret_nor_the_seed(variants: dict[str, object]) -> None:
    """Issue 15 "Bots at the table": the move the server's bot makes for a seat (`app.bots.table.table_move`, what
    `GameService` runs for a bot's seat or an absent player's) stays the same when the other seats' secrets are
    scrambled (their tiles, chosen tiles, votes, baskets and basket edits, the bag — RULINGS V1, V2, V4, G7). The
    game's seed is not among its inputs at all: the state holds no seed, and the bot's own generator is seeded
    from the game's number, the seat and the log's head as the seat counts it."""
    assert list(inspect.signature(table_move).parameters) == ["state", "seat", "game_id", "level"]
    assert not any("seed" in f.name for f in dataclasses.fields(GameState))
    config = GameConfig.from_variants(3, variants, preview=True)
    checked = 0

    def compare(s: GameState) -> None:
        nonlocal checked
        if not _secrets_pending(s):
            return
        for seat in to_act(s):
            for level in ("easy", "normal"):  # the hard level's search: tests/bots/test_search.py
                assert table_move(s, seat, 42, level) == table_move(_scrambled_for(s, seat), seat, 42, level), seat
            checked += 1

    players = [bot_player(BOTS["heuristic"]), bot_player(BOTS["random"]), bot_player(BOTS["heuristic"])]
    play_game(config, 20261202, players, random.Random(8), observe=compare)
    assert checked > 10, "the game must have had positions with secrets to check"


def test_tournament_knows_the_levels_and_ends_with_the_first_bots_win_rate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """API.md "Bot levels": `--bots hard,heuristic` plays the hard bot (here with a budget of 5 playouts a move,
    `--hard-playouts`); the last line names the first bot, `hard_win_rate=X.XX`."""
    args = ["tournament", "--players", "2", "--bots", "hard,heuristic", "--games", "1", "--seed", "3",
            "--hard-playouts", "5"]
    assert main(args) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"hard: won [01] of 1, win rate \d\.\d\d", lines[1])
    assert re.fullmatch(r"hard_win_rate=(0|1)\.00", lines[-1])
    assert main(["tournament", "--players", "2", "--bots", "easy,normal", "--games", "2", "--seed", "3"]) == 0
    assert re.fullmatch(r"easy_win_rate=\d\.\d\d", capsys.readouterr().out.strip().splitlines()[-1])
