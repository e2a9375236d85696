"""Layers in one direction (ARCHITECTURE "One direction of dependency"): `rules` → `bots` → `store` → `play` →
`notify` → `web` (the bots are pure players over the rules, which the play layer will seat at tables); a module
imports its own layer and those below, never above, and no two modules import each other, not even inside a
function. The settings and the composition root live directly in `app/`, outside the layers.

That `rules` imports nothing but the standard library (and itself) is tests/rules/test_purity.py's to check.
"""

from __future__ import annotations

import ast
import graphlib
import re
from collections.abc import Collection, Mapping
from pathlib import Path

from imports import import_graph, imported_names, modules

import app

APP_DIR = Path(app.__file__).parent
GRAPH = import_graph(APP_DIR)
LAYERS = ("rules", "bots", "store", "play", "notify", "web")  # lowest first

# The modules directly in app/ (the settings, the composition root app.main, the commands) sit outside the
# layers: they may import every layer, and no layer imports them, with two exceptions: the web layer reads the
# Settings (its middlewares and pages need the site's address, keys and limits), and the layers that speak to
# people (the mails, the pages) read the translations, which import nothing of ours. Lower layers are handed
# plain values (a database URL, a poll interval) by the composition root, never the Settings object.
# The metrics' instruments (app.metrics, which imports nothing of ours) are process-wide, like the translations:
# the layers that count something add to them.
OUTSIDE_READERS = {"app.settings": {"web"}, "app.i18n": {"notify", "web"}, "app.metrics": {"play", "notify", "web"}}

# What only the composition root (or a command) does: the layers are handed an open, migrated database and
# never start the long-running jobs themselves.
WIRING_IMPORTS = {
    "app.store.db.open_database": "opens the database",
    "app.store.migrate": "migrates the database",
}
STARTS_A_JOB = "run_forever"
FLOW = "app.rules.flow"
# The rules core's kind registries and what the families build their pieces from; the families; the base game's
# dispatch modules, which import the families so that every piece is registered before it is dispatched.
KERNEL = {"app.rules.registry", "app.rules.draft", "app.rules.steps"}
FAMILIES = "app.rules.families"
DISPATCH = {"app.rules.decide", "app.rules.legal", "app.rules.flow", "app.rules.evolve"}


def layer_of(module: str) -> str | None:
    """`rules` for app.rules.flow; None for the modules outside the layers (app.settings, app.main, ...)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def may_import(layer: str, target: str) -> bool:
    target_layer = layer_of(target)
    if target_layer is None:
        return layer in OUTSIDE_READERS.get(target, set())
    return LAYERS.index(target_layer) <= LAYERS.index(layer)


def cycle(graph: Mapping[str, Collection[str]]) -> list[str] | None:
    """One import cycle of `graph` (its first module repeated at the end), or None when there is none."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as found:
        return list(found.args[1])
    return None


def test_every_module_is_in_a_layer_or_directly_in_app() -> None:
    """The layer names above are the packages of app/: a new package must be placed in the order first."""
    packages = {path.parent.name for path in APP_DIR.glob("*/__init__.py")}
    assert packages == set(LAYERS)


def test_layers_import_only_their_own_layer_and_those_below() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if (layer := layer_of(module)) is not None
        for target in sorted(targets)
        if not may_import(layer, target)
    ]
    assert wrong == []


def test_no_import_cycles_in_app() -> None:
    """Two modules importing each other, directly or through others, anywhere in a file: none."""
    assert cycle(GRAPH) is None


def test_the_rules_core_imports_at_the_top_of_its_modules() -> None:
    """A rules module imports what it needs once, at module level (or for the type checker only), never inside a
    function: an import inside a function hides a dependency, and the core's calls are its hot path."""
    inside = []
    for module, path in modules(APP_DIR).items():
        if layer_of(module) != "rules":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inside += [f"{module}.{node.name}" for inner in ast.walk(node)
                           if isinstance(inner, ast.Import | ast.ImportFrom)]
    assert inside == []


def test_flow_lends_only_the_schedule() -> None:
    """`app.rules.flow` is the schedule (which step, whose decision): other modules take from it only that;
    prices, income, the supply, duels and the shop live in modules named after those rules."""
    schedule = {"Awaiting", "Step", "STEPS", "awaiting", "next_step", "finish_step", "to_act"}
    borrowed = {
        f"{module} imports {name}"
        for module, path in modules(APP_DIR).items()
        if module != FLOW
        for name in imported_names(path, APP_DIR)
        if name.startswith(f"{FLOW}.") and name.removeprefix(f"{FLOW}.") not in schedule
    }
    assert borrowed == set()


def _is_family(module: str) -> bool:
    return module.startswith(f"{FAMILIES}.")


def _closure(module: str) -> set[str]:
    """Every module `module` imports, directly or through others."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for target in GRAPH[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_a_family_imports_neither_another_family_nor_the_dispatch() -> None:
    """A family of rules (`app.rules.families.*`) stands on its own: it reads the registries, the helpers every
    effect and step is built from and the modules that compute its rules, never another family nor the base
    game's dispatch, so that a family is read, and changed, in its own module."""
    wrong = {
        f"{module} imports {target}"
        for module in GRAPH
        if _is_family(module)
        for target in _closure(module)
        if _is_family(target) or target == FAMILIES or target in DISPATCH
    }
    assert wrong == set()


def test_only_the_dispatch_reads_the_families() -> None:
    """The families register themselves; the dispatch modules import them (and the schedule names the families'
    steps at their place), no other module: what a family computes for others to read (prices, income, the view)
    lives in the module named after that rule."""
    wrong = {
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if module not in DISPATCH and module != FAMILIES
        for target in targets
        if _is_family(target) or target == FAMILIES
    }
    assert wrong == set()


def test_the_registries_stand_below_the_families_and_the_dispatch() -> None:
    """The kind registries and the helpers of the effects and the steps import no family and no dispatch module,
    directly or through others: both can import them without a cycle."""
    wrong = {
        f"{module} imports {target}"
        for module in KERNEL
        for target in _closure(module)
        if _is_family(target) or target == FAMILIES or target in DISPATCH
    }
    assert wrong == set()


def test_only_the_composition_root_opens_the_database_and_starts_the_jobs() -> None:
    """ARCHITECTURE: the composition root "wires the layers together and starts background jobs"."""
    wrong = []
    for module, path in modules(APP_DIR).items():
        if layer_of(module) is None:
            continue
        names = imported_names(path, APP_DIR)
        wrong += [f"{module} {what}" for name, what in WIRING_IMPORTS.items() if name in names]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.Attribute) and node.attr == STARTS_A_JOB for node in ast.walk(tree)):
            wrong.append(f"{module} starts a background job")
    assert wrong == []


WEB_FACTORY = "app.web.app"  # builds the application: the one module that gathers the routes
RECORD = "app.play.record.record"  # the one statement that writes a game's log
# Who records a game's events with it: the write path (every change of a running game) and the lobby (the start).
RECORDERS = {"app.play.service", "app.play.lobby"}
# The write path and the reads share the state cache (app.store.repository) and nothing else.
APART = {"app.play.service": {"app.play.positions", "app.play.lobby"}, "app.play.positions": {"app.play.service",
                                                                                                "app.play.lobby"}}
WRITES_THE_LOG = re.compile(r"\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+game_events\b", re.IGNORECASE)


def route_modules() -> set[str]:
    """The modules of the web layer that declare routes (an `APIRouter`): the areas of the site."""
    found = set()
    for module, path in modules(APP_DIR).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if layer_of(module) == "web" and any(
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "APIRouter"
            for node in ast.walk(tree)
        ):
            found.add(module)
    return found


def test_the_web_layer_never_reads_the_store() -> None:
    """Pages and the API reach the database only through the play layer's services and functions, which keep
    its rows, sessions and errors to themselves (an account, not a `users` row)."""
    wrong = {
        f"{module} imports {name}"
        for module, path in modules(APP_DIR).items()
        if layer_of(module) == "web"
        for name in imported_names(path, APP_DIR)
        if name == "app.store" or name.startswith("app.store.")
    }
    assert wrong == set()


def test_route_modules_import_no_other_route_module() -> None:
    """Each area of the site (the lobby, the table, the accounts, the API, ...) is a module of routes built on
    the web layer's toolkit (rendering, forms, fields, dependencies), never on another area; only the
    application's factory gathers them."""
    routes = route_modules()
    assert {"app.web.api", "app.web.lobby_pages", "app.web.table_pages"} <= routes  # the test sees the areas
    wrong = {
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if module != WEB_FACTORY
        for target in targets & routes
    }
    assert wrong == set()


def test_the_write_path_and_the_reads_share_only_the_state_cache() -> None:
    """`GameService` (the write path) and `Positions` (the reads) meet in the state cache they are both handed;
    neither imports the other, nor the lobby."""
    wrong = {f"{module} imports {target}" for module, apart in APART.items() for target in GRAPH[module] & apart}
    assert wrong == set()


def test_a_games_events_are_written_by_one_statement() -> None:
    """Every event of a game's log is written by `app.play.record` (one statement, the move clocks, the mails
    and the live notice with it), called by the write path and by the lobby when a game starts; no other module
    writes the log."""
    recorders = {module for module, path in modules(APP_DIR).items() if RECORD in imported_names(path, APP_DIR)}
    assert recorders == RECORDERS
    writers = {
        module for module, path in modules(APP_DIR).items()
        if WRITES_THE_LOG.search(path.read_text(encoding="utf-8")) or _builds_event_rows(path)
    }
    assert writers == {"app.play.record"}


def _builds_event_rows(path: Path) -> bool:
    """Whether the module makes `GameEvent` rows or statements on them (`GameEvent(...)`, `insert(GameEvent)`)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            args = [arg.id for arg in node.args if isinstance(arg, ast.Name)]
            if called == "GameEvent" or (called in {"insert", "update", "delete"} and "GameEvent" in args):
                return True
    return False
