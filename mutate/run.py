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
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

import pytest

from mutate.operators import Mutant
from mutate.targets import ROOT

# pytest's exit codes: 1 a test failed, 2 interrupted (a collection error: the mutant broke an import),
# 3 internal error (a mutant broke pytest's own use of the library, e.g. in a hook), 4 a test id not
# found (the mutant changed the ids of tests parametrized from the library's own values).
KILLED_CODES = {1, 2, 3, 4}
# How a mutant's process ends when one of its tests runs past its own limit: SIGALRM's default action,
# which needs no Python code to run, so a test stuck in one long C call is ended as well.
TEST_TIMEOUT = -signal.SIGALRM


@dataclass
class Job:
    mutant: Mutant
    tests: list[str]
    timeout: float
    """Seconds for the whole run, all its tests together."""
    test_timeouts: dict[str, float] = field(default_factory=dict)
    """Seconds for each test's call by its pytest node id; a test not listed has no limit of its own."""
    file_timeouts: dict[str, float] = field(default_factory=dict)
    """Seconds for the setup and the teardown of a listed test, by its file."""
    collection_timeout: float = 0.0
    """Seconds for collecting the tests (importing their files); 0: no limit but the whole run's."""


class _TestTimeouts:
    """Arms a timer (SIGALRM) for the collection of the tests and for each phase of a test that has a
    limit of its own: its call at that limit, its setup and teardown at its file's. A module's fixtures
    are made in the setup of its first test and ended in the teardown of its last, so their time was
    traced as part of the first and the last test of the file, which are not the first and last that a
    mutant runs (fastest first)."""

    def __init__(self, tests: dict[str, float], files: dict[str, float], collection: float) -> None:
        self.tests, self.files, self.collection = tests, files, collection

    @pytest.hookimpl(hookwrapper=True)
    def pytest_collection(self, session: pytest.Session) -> Generator[None, Any, None]:
        # Some test files run the library as they are imported (parametrized from a simulation).
        if self.collection > 0:
            signal.setitimer(signal.ITIMER_REAL, self.collection)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def _timed(self, item: pytest.Item, own: bool) -> Generator[None, Any, None]:
        limit = 0.0
        if item.nodeid in self.tests:
            limit = self.tests[item.nodeid] if own else self.files.get(item.nodeid.split("::")[0], 0.0)
        if limit > 0:
            signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, Any, None]:
        yield from self._timed(item, own=False)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, Any, None]:
        yield from self._timed(item, own=True)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, Any, None]:
        yield from self._timed(item, own=False)


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

    # No example database: a mutant's failures must not be replayed against the real code later.
    hypothesis.settings.register_profile("mutate", database=None, deadline=None, derandomize=True)
    hypothesis.settings.load_profile("mutate")
    os.chdir(ROOT)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    args = ["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--no-header", "-W", "ignore"]
    code_ = pytest.main(
        [*args, *job.tests],
        plugins=[_TestTimeouts(job.test_timeouts, job.file_timeouts, job.collection_timeout)],
    )
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
        if code == TEST_TIMEOUT:
            _kill(pid)  # what the test started, in the mutant's process group
            done(job, "timeout", time.monotonic() - start)
            continue
        outcome = "survived" if code == 0 else "killed" if code in KILLED_CODES else f"error (exit {code})"
        done(job, outcome, time.monotonic() - start)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
