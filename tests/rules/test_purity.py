"""The rules core is pure (issue "Rules core"; ARCHITECTURE "rules imports nothing of ours and does no I/O"):
it imports only the standard library and itself, reads no clock, touches no file and uses no global random."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from imports import imported_names

import app.rules

RULES_DIR = Path(app.rules.__file__).parent
APP_DIR = RULES_DIR.parent
FORBIDDEN_MODULES = {"os", "io", "time", "datetime", "socket", "pathlib", "subprocess", "threading", "asyncio",
                     "logging", "shutil", "tempfile", "urllib", "http", "sqlite3", "secrets", "uuid"}


def _modules() -> list[Path]:
    """Every module of the core, the family modules of `families/` (and any later subpackage) included."""
    return sorted(RULES_DIR.rglob("*.py"))


def test_the_checks_read_every_module_of_the_core() -> None:
    """The checks below read the subpackages too: the family modules hold rules as much as the dispatch does."""
    read = set(_modules())
    families = RULES_DIR / "families"
    assert sorted(families.glob("*.py")) and read >= set(families.glob("*.py"))
    assert read >= set(RULES_DIR.glob("*.py"))


def test_rules_import_only_the_standard_library() -> None:
    """R-WEB-3 (determinism rests on it): only stdlib and app.rules itself (and pydantic for the move
    vocabulary's schemas, ARCHITECTURE "pydantic acceptable for move/event schemas", with the typing_extensions
    TypedDict that pydantic reads below Python 3.12)."""
    for path in _modules():
        for name in imported_names(path, APP_DIR):
            top = name.split(".")[0]
            if path == RULES_DIR / "moves.py" and top in ("pydantic", "typing_extensions"):
                continue
            assert name.startswith("app.rules") or (top in sys.stdlib_module_names and top != "app"), (path, name)
            assert top not in FORBIDDEN_MODULES, (path, name)


def test_no_global_random_and_no_io_calls() -> None:
    """Randomness only through rng.Rng (seeded per game and decision); no open()/print()/input()."""
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "print", "input", "exec", "eval"}, (path, node.func.id)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                assert path == RULES_DIR / "rng.py" and node.attr == "Random", (path, node.attr)


def test_the_core_runs_without_pydantic() -> None:
    """The core's modules take the move types from moves.py for the type checker only, so playing a game never
    loads pydantic (only the API's schema and the well-formedness check do)."""
    loads = "import sys, app.rules; print('pydantic' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", loads], capture_output=True, text=True, check=True,
                            cwd=APP_DIR.parent)
    assert result.stdout.strip() == "False"
