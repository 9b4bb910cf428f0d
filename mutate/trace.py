"""Which tests execute which lines of the rule modules: ``python -m mutate.trace OUT TEST_FILE ...``.

Runs pytest over the test files under coverage with one context per test and writes, as JSON,
``{"lines": {path: {line: [test ids]}}, "durations": {test id: seconds}, "failed": [test ids]}``.
It runs in its own process so the process that forks the mutants never imports the library.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import coverage
import pytest

from mutate.targets import ROOT, TARGETS


class _PerTest:
    def __init__(self, cov: coverage.Coverage) -> None:
        self.cov = cov
        self.durations: dict[str, float] = {}
        self.failed: set[str] = set()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, Any, None]:
        _clear_caches()
        self.cov.switch_context(item.nodeid)
        start = time.perf_counter()
        yield
        self.durations[item.nodeid] = time.perf_counter() - start
        self.cov.switch_context("")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed:
            self.failed.add(report.nodeid)


def _clear_caches() -> None:
    """Empty the rule modules' function caches (``functools.lru_cache``), so a cached function's body
    runs, and is mapped, in every test that calls it and not only in the first one."""
    for target in TARGETS:
        module = sys.modules.get(target.module)
        for value in vars(module).values() if module else ():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def main(out: str, files: list[str]) -> int:
    paths = [str(ROOT / target.path) for target in TARGETS]
    cov = coverage.Coverage(data_file=None, include=paths, config_file=False)
    plugin = _PerTest(cov)
    cov.start()
    code = pytest.main(
        ["-q", "-p", "no:cacheprovider", "-o", "addopts=", "--no-header", *files], plugins=[plugin]
    )
    cov.stop()
    data = cov.get_data()
    lines: dict[str, dict[str, list[str]]] = {}
    for target in TARGETS:
        by_line = data.contexts_by_lineno(str(ROOT / target.path))
        lines[target.path] = {str(line): sorted(c for c in ctxs if c) for line, ctxs in by_line.items()}
    result = {"lines": lines, "durations": plugin.durations, "failed": sorted(plugin.failed)}
    Path(out).write_text(json.dumps(result), encoding="utf-8")
    return 0 if code in (0, 1) else int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
