"""The layout is the architecture: ``kalooki/`` is the library (no terminal, no dependence on the
packages built on it), ``cli/`` and ``net/`` use the library's names that are not private.

Read from the source with :mod:`ast`, so a breach is named by file and line."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "kalooki"
BUILT_ON = ("kalooki_cli", "kalooki_net", "cli", "net")
TERMINAL_CALLS = {"print", "input", "breakpoint"}
TERMINAL_STREAMS = {"stdout", "stderr", "stdin"}


def modules(folder: Path) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(folder.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"


def test_the_library_never_speaks_to_the_terminal() -> None:
    found = []
    for path, tree in modules(LIBRARY):
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in TERMINAL_CALLS
            ):
                found.append(f"{where(path, node)}: {node.func.id}()")
            if (
                isinstance(node, ast.Attribute)
                and node.attr in TERMINAL_STREAMS
                and isinstance(node.value, ast.Name)
                and node.value.id == "sys"
            ):
                found.append(f"{where(path, node)}: sys.{node.attr}")
    assert found == [], "the terminal is cli/'s alone"


def test_the_library_imports_nothing_built_on_it() -> None:
    found = []
    for path, tree in modules(LIBRARY):
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            found += [f"{where(path, node)}: {name}" for name in names if name.split(".")[0] in BUILT_ON]
    assert found == [], "kalooki/ may name the CLI only through importlib, when run as a command"


def test_the_cli_and_the_host_use_no_private_name_of_the_library() -> None:
    found = []
    for folder in (ROOT / "cli", ROOT / "net"):
        for path, tree in modules(folder):
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.ImportFrom)
                    and node.module
                    and node.module.split(".")[0] == "kalooki"
                ):
                    private = [
                        alias.name
                        for alias in node.names
                        if alias.name.startswith("_") and not alias.name.endswith("__")
                    ]
                    found += [f"{where(path, node)}: {node.module}.{name}" for name in private]
                    if any(part.startswith("_") for part in node.module.split(".")):
                        found.append(f"{where(path, node)}: {node.module}")
    assert found == []
