"""The kind registries (app/rules/registry.py) are complete: every move type of the vocabulary has its handler,
every event type its effect, every decision its legal moves, every decision that may be declined a meaning for
`decline`, every step of the schedule what happens there — once each, and nothing else, so that the dispatch has
no default to fall back on. Every family of rules (app/rules/families/) is imported with the core and registers
its pieces there."""

from __future__ import annotations

import ast
import inspect
import random
import sys
import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from imports import imported_names

import app.rules.families
from app.rules import GameConfig, legal_moves, new_game, play, replay
from app.rules.catalog import FINAL_STEPS, ROUND_STEPS, SETUP_STEPS
from app.rules.decisions import Decision
from app.rules.events import EVENT_TYPES
from app.rules.families import FAMILIES
from app.rules.flow import awaiting
from app.rules.moves import MOVE_TYPES
from app.rules.registry import DECLINES, EFFECTS, LEGAL, MOVES, STEPS, declines, handles, lists, move_handler, runs
from app.rules.rng import Rng
from tests.rules.builders import Game
from tests.rules.test_purity import FORBIDDEN_MODULES

FAMILIES_DIR = Path(app.rules.families.__file__).parent
APP_DIR = FAMILIES_DIR.parent.parent
# The base game's own pieces are registered by the dispatch modules themselves.
DISPATCH = {"app.rules.decide", "app.rules.legal", "app.rules.flow", "app.rules.evolve"}
TABLES: dict[str, Mapping[Any, Callable[..., Any]]] = {
    "MOVES": MOVES, "DECLINES": DECLINES, "LEGAL": LEGAL, "EFFECTS": EFFECTS, "STEPS": STEPS,
}


def test_every_table_covers_its_vocabulary_and_nothing_else() -> None:
    """R-WEB-1, R-WEB-3: one handler per move type, one effect per event type, legal moves for every decision,
    one entry per step of the three schedules."""
    assert set(MOVES) == MOVE_TYPES
    assert set(EFFECTS) == EVENT_TYPES
    assert set(LEGAL) == set(Decision)
    assert set(STEPS) == {*SETUP_STEPS, *ROUND_STEPS, *FINAL_STEPS}


def _lists_decline(legal: Callable[..., Any]) -> bool:
    """Whether the legal moves of a decision can hold the move `decline`: its function writes it out."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(legal)))
    return any(
        isinstance(node, ast.Dict) and any(
            isinstance(k, ast.Constant) and k.value == "type" and isinstance(v, ast.Constant) and v.value == "decline"
            for k, v in zip(node.keys, node.values, strict=True)
        )
        for node in ast.walk(tree)
    )


def test_each_decision_that_lists_decline_says_what_declining_means() -> None:
    """R-WEB-1: `decline` is one move type for eight decisions; what it turns into is registered for exactly the
    decisions whose legal moves list it (a building not bought, a pick given up, a cowboy going home, ...)."""
    assert {kind for kind, legal in LEGAL.items() if _lists_decline(legal)} == set(DECLINES)
    assert len(DECLINES) == 8


def test_a_decline_nobody_gave_a_meaning_is_refused_rather_than_guessed() -> None:
    """No silent fallback: declining a decision without a registered meaning is a programming error."""
    g = Game(3)
    with pytest.raises(KeyError):
        MOVES["decline"](g.state, 0, {"type": "decline"}, Rng(1, 0), Decision.PLACEMENT)


@pytest.mark.parametrize(("players", "variants"), [
    (4, {"sides": "red"}), (3, {"new_beginning": True}), (4, {"expansions": ["gold_and_guns"], "sides": "random"}),
    (5, {"expansions": ["gold_and_guns", "outlaws", "big_box"], "horses": True, "sides": "random"}),
])
def test_every_decline_listed_in_whole_games_has_its_meaning(players: int, variants: dict[str, Any]) -> None:
    """R-WEB-1: in whole random games, a decision that offers `decline` is one whose meaning is registered."""
    offered: set[Decision] = set()
    for seed in range(2):
        chooser = random.Random(seed)
        state = replay(new_game(GameConfig.from_variants(players, variants), seed))
        while (waiting := awaiting(state)) is not None:
            seat = chooser.choice(waiting.seats)
            moves = legal_moves(state, seat)
            if {"type": "decline"} in moves:
                offered.add(waiting.kind)
            _, state = play(state, seat, chooser.choice(moves), Rng(seed, state.seq))
    assert offered and offered <= set(DECLINES)


@pytest.mark.parametrize("register", [
    lambda fn: move_handler("pass")(fn), lambda fn: declines(Decision.HORSE)(fn),
    lambda fn: lists(Decision.VOTE)(fn), lambda fn: handles("game_started")(fn), lambda fn: runs("placement")(fn),
])
def test_a_kind_registered_twice_is_refused(register: Callable[[Callable[..., Any]], Any]) -> None:
    """Exactly one piece per kind: a second registration raises at import instead of replacing the first."""
    before = {name: dict(table) for name, table in TABLES.items()}
    with pytest.raises(ValueError, match="registered twice"):
        register(lambda *args: None)
    assert {name: dict(table) for name, table in TABLES.items()} == before


def test_every_family_module_is_imported_with_the_core_and_registers_its_pieces() -> None:
    """Each module of app/rules/families/ is named in `FAMILIES` (the package imports them all, so they register
    before anything is dispatched) and registers at least one piece; every piece comes from a family or from the
    base game's dispatch modules."""
    files = {f"app.rules.families.{path.stem}" for path in FAMILIES_DIR.glob("*.py") if path.stem != "__init__"}
    families = {module.__name__ for module in FAMILIES}
    assert families == files
    owners = {fn.__module__ for table in TABLES.values() for fn in table.values()}
    assert families <= owners
    assert owners <= families | DISPATCH


def test_the_families_are_as_pure_as_the_rest_of_the_core() -> None:
    """As tests/rules/test_purity.py for the core's top modules: only the standard library and the core itself,
    no I/O, no global random."""
    for path in sorted(FAMILIES_DIR.glob("*.py")):
        for name in imported_names(path, APP_DIR):
            top = name.split(".")[0]
            assert name.startswith("app.rules") or (top in sys.stdlib_module_names and top != "app"), (path, name)
            assert top not in FORBIDDEN_MODULES, (path, name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "print", "input", "exec", "eval"}, (path, node.func.id)
            assert not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                        and node.value.id == "random"), (path, node.attr)
