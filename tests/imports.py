"""What our source files import, read from their syntax trees (for the architecture and purity tests).

Reading the source rather than importing it sees every import: at module level, inside functions and under
`if TYPE_CHECKING:` alike, since each of them ties one file to another all the same.
"""

from __future__ import annotations

import ast
from pathlib import Path


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module in `path`, for files under the package directory `root`."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path, root: Path) -> set[str]:
    """Every name `path` imports, as absolute dotted names: `import a.b` gives "a.b", and `from a import b`
    gives both "a" and "a.b" (b may be a submodule or a name defined in a). Relative imports are resolved
    against the file's package (`root` is the top package's directory)."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            origin = _origin(node, package)
            names.add(origin)
            names |= {f"{origin}.{alias.name}" for alias in node.names}
    return names


def _origin(node: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module a `from ... import` reads from."""
    if node.level == 0:
        return node.module or ""
    base = package.rsplit(".", node.level - 1)[0]
    return f"{base}.{node.module}" if node.module else base


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package in the directory `root`, with its file."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def import_graph(root: Path) -> dict[str, set[str]]:
    """For every module of the package in `root`, the other modules of that package it imports."""
    files = modules(root)
    return {
        module: {name for name in imported_names(path, root) if name in files and name != module}
        for module, path in files.items()
    }
