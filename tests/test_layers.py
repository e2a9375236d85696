"""ARCHITECTURE "One direction of dependency ... no two files import each other (also not inside a function)":
no group of modules depends on itself in a circle, counting every import — at the top, under TYPE_CHECKING, or
inside a function. (The rules core imports nothing of ours; its own modules are its own tests' business.)"""

from __future__ import annotations

import ast
from pathlib import Path

import app

ROOT = Path(app.__file__).parent


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    """Each module of app (outside the rules core) and the modules of app it imports."""
    modules = {_name(path): path for path in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        if name.startswith("app.rules"):
            continue
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                # `from app.play import clocks` imports the module app.play.clocks
                found |= {f"{node.module}.{alias.name}" for alias in node.names} | {node.module}
        graph[name] = {other for other in found if other in modules and other != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of two or more modules that reach each other (strongly connected components, Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_modules_import_each_other() -> None:
    graph = _graph()
    assert "app.store.db" in graph["app.play.service"]  # the walk sees the imports
    assert _circles(graph) == []
