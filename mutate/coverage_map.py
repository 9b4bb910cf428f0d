"""Which tests reach which lines, traced once per test file and cached until a source changes."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mutate.targets import ROOT

CACHE = ROOT / ".mutate" / "coverage.json"


def _digest(paths: list[Path]) -> str:
    sha = hashlib.sha256()
    for path in paths:
        sha.update(str(path.relative_to(ROOT)).encode())
        sha.update(path.read_bytes())
    return sha.hexdigest()


# These drive the CLI in a pseudo-terminal: the rule modules run in the child process, never in the test's.
UNTRACED = ("test_play_pty.py",)


def _test_files() -> list[Path]:
    return sorted(path for path in (ROOT / "tests").rglob("test_*.py") if path.name not in UNTRACED)


def _shared_digest() -> str:
    """Everything a test's reach depends on besides its own file: the code, the test helpers and
    the tracer itself (how it maps a test to the lines it runs)."""
    sources = sorted([*(ROOT / "kalooki").rglob("*.py"), *(ROOT / "cli").rglob("*.py")])
    helpers = [path for path in sorted((ROOT / "tests").rglob("*.py")) if not path.name.startswith("test_")]
    return _digest([*sources, *helpers, ROOT / "mutate" / "trace.py"])


@dataclass
class CoverageMap:
    lines: dict[str, dict[int, set[str]]] = field(default_factory=dict)
    durations: dict[str, float] = field(default_factory=dict)

    def tests_for(self, path: str, first: int, last: int) -> set[str]:
        by_line = self.lines.get(path, {})
        found: set[str] = set()
        for line in range(first, last + 1):
            found |= by_line.get(line, set())
        return found

    def tests_of_file(self, path: str) -> set[str]:
        found: set[str] = set()
        for tests in self.lines.get(path, {}).values():
            found |= tests
        return found


def load(progress: bool = True, only: list[str] | None = None) -> CoverageMap:
    """The coverage map, tracing again only the test files whose code or text changed.

    ``only``: test files (paths relative to the repository) to map and trace; the others are left
    out of this map, and kept in the cache as they were.
    """
    shared = _shared_digest()
    cache: dict[str, Any] = {}
    if CACHE.exists():
        cache = json.loads(CACHE.read_text(encoding="utf-8"))
    files = _test_files()
    if only is not None:
        files = [path for path in files if str(path.relative_to(ROOT)) in only]
    keys = {str(path.relative_to(ROOT)): shared + _digest([path]) for path in files}
    stale = [name for name, key in keys.items() if cache.get(name, {}).get("key") != key]
    if stale:
        if progress:
            print(f"tracing which tests reach which lines: {len(stale)} test file(s)", file=sys.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "trace.json"
            subprocess.run(
                [sys.executable, "-m", "mutate.trace", str(out), *stale],
                cwd=ROOT,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            traced = json.loads(out.read_text(encoding="utf-8"))
        for name in stale:
            prefix = name + "::"
            # A test that fails without any mutant would count every mutant it reaches as caught.
            failed = {test for test in traced["failed"] if test.startswith(prefix)}
            for test in sorted(failed):
                print(f"warning: {test} fails without any mutant: left out", file=sys.stderr)
            cache[name] = {
                "key": keys[name],
                "lines": {
                    path: {
                        line: [t for t in tests if t.startswith(prefix) and t not in failed]
                        for line, tests in by_line.items()
                    }
                    for path, by_line in traced["lines"].items()
                },
                "durations": {t: d for t, d in traced["durations"].items() if t.startswith(prefix)},
            }
        if only is None:
            cache = {name: entry for name, entry in cache.items() if name in keys}
        CACHE.parent.mkdir(exist_ok=True)
        CACHE.write_text(json.dumps(cache), encoding="utf-8")
    result = CoverageMap()
    for name, entry in cache.items():
        if name not in keys:
            continue
        for path, by_line in entry["lines"].items():
            target = result.lines.setdefault(path, {})
            for line, tests in by_line.items():
                if tests:
                    target.setdefault(int(line), set()).update(tests)
        result.durations.update(entry["durations"])
    return result
