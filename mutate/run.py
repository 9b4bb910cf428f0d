"""Run mutants, each in a forked process against the tests that reach it."""

from __future__ import annotations

import ast
import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, ModuleType

from mutate.operators import Mutant
from mutate.targets import ROOT

# pytest's exit codes: 1 a test failed, 2 interrupted (a collection error: the mutant broke an import),
# 3 internal error (a mutant broke pytest's own use of the library, e.g. in a hook), 4 a test id not
# found (the mutant changed the ids of tests parametrized from the library's own values).
KILLED_CODES = {1, 2, 3, 4}


@dataclass
class Job:
    mutant: Mutant
    tests: list[str]
    timeout: float


def preload(mutated: Sequence[str]) -> None:
    """Import the test tools once, so each forked mutant starts with them, and the library modules
    that import none of the ``mutated`` modules (each mutant imports its own module afresh)."""
    import hypothesis
    import pydantic
    import pytest
    import rich.console
    import typer
    import yaml

    del hypothesis, pydantic, pytest, rich, typer, yaml
    assert not any(name == "kalooki" or name.startswith("kalooki.") for name in sys.modules)
    for module in independent_modules(mutated):
        importlib.import_module(module)
    assert not any(name in sys.modules for name in mutated)


def independent_modules(mutated: Sequence[str]) -> list[str]:
    """The library's modules that import none of ``mutated``, directly or not (read from their
    import statements, those under ``if TYPE_CHECKING`` included, so the list errs on the safe side)."""
    package = ROOT / "kalooki"
    names = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in sorted(package.rglob("*.py"))
    }
    # Importing a module imports its packages first: their __init__ imports count as the module's own.
    direct = {name: _library_imports(path, names) | _packages_of(name, names) for name, path in names.items()}
    reached: dict[str, set[str]] = {}
    for name in sorted(names):
        seen: set[str] = set()
        stack = [name]
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(direct.get(current, set()))
        reached[name] = seen
    return sorted(
        name for name, seen in reached.items() if not seen & set(mutated) and not name.endswith("__main__")
    )


def _packages_of(name: str, names: dict[str, Path]) -> set[str]:
    """The packages that hold module ``name`` (``kalooki.bots`` for ``kalooki.bots.endgame``)."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))} & set(names)


def _library_imports(path: Path, names: dict[str, Path]) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    # A package's modules are imported with their parents.
    parents = {".".join(name.split(".")[:i]) for name in found for i in range(1, name.count(".") + 1)}
    return {name for name in found | parents if name in names}


class _MutantFinder(importlib.abc.MetaPathFinder):
    def __init__(self, module: str, path: str, code: CodeType) -> None:
        self.module, self.path, self.code = module, path, code

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.module:
            return None
        return importlib.util.spec_from_file_location(fullname, self.path, loader=_MutantLoader(self.code))


class _MutantLoader(importlib.abc.Loader):
    def __init__(self, code: CodeType) -> None:
        self.code = code

    def exec_module(self, module: ModuleType) -> None:
        exec(self.code, module.__dict__)


def _child(job: Job, tree: ast.Module) -> None:
    """In the forked process: import the mutant in place of the module and run its tests."""
    os.setpgid(0, 0)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    mutant = job.mutant
    path = str(ROOT / mutant.path)
    code = compile(mutant.tree(tree), path, "exec")
    module = mutant.path.removesuffix(".py").replace("/", ".")
    sys.meta_path.insert(0, _MutantFinder(module, path, code))
    import hypothesis
    import pytest

    # No example database: a mutant's failures must not be replayed against the real code later.
    hypothesis.settings.register_profile("mutate", database=None, deadline=None, derandomize=True)
    hypothesis.settings.load_profile("mutate")
    os.chdir(ROOT)
    args = ["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--no-header", "-W", "ignore"]
    code_ = pytest.main([*args, *job.tests])
    os._exit(int(code_))


def run_jobs(
    jobs: list[Job],
    trees: dict[str, ast.Module],
    workers: int,
    done: Callable[[Job, str, float], None],
) -> None:
    """Run every job, ``workers`` at a time; ``done(job, status, seconds)`` as each finishes."""
    queue = list(jobs)
    running: dict[int, tuple[Job, float]] = {}
    # A stopped run takes its mutants with it (each runs in its own process group).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        _loop(queue, running, trees, workers, done)
    finally:
        for child in running:
            _kill(child)


def _loop(
    queue: list[Job],
    running: dict[int, tuple[Job, float]],
    trees: dict[str, ast.Module],
    workers: int,
    done: Callable[[Job, str, float], None],
) -> None:
    while queue or running:
        while queue and len(running) < workers:
            job = queue.pop(0)
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                try:
                    _child(job, trees[job.mutant.path])
                finally:
                    os._exit(99)
            running[pid] = (job, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            time.sleep(0.01)
            now = time.monotonic()
            for child, (job, start) in list(running.items()):
                if now - start > job.timeout:
                    _kill(child)
                    os.waitpid(child, 0)
                    del running[child]
                    done(job, "timeout", now - start)
            continue
        if pid not in running:
            continue
        job, start = running.pop(pid)
        code = os.waitstatus_to_exitcode(status)
        outcome = "survived" if code == 0 else "killed" if code in KILLED_CODES else f"error (exit {code})"
        done(job, outcome, time.monotonic() - start)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
