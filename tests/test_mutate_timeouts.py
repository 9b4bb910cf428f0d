"""The mutation tool stops a mutant's run when one test runs past its own limit, long before the whole
run's limit: a mutant that makes one test loop for ever is counted "timeout" in that test's time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs one job given as JSON ([test ids, whole-run timeout, {test id: its own timeout}, {file: its
# fixtures' timeout}, collection timeout]) against a mutant the tests never import, and prints
# [status, seconds].
RUNNER = """
import json, sys
from mutate.operators import module_tree, mutants_of
from mutate.run import Job, run_jobs
from mutate.targets import TARGETS

target = TARGETS[0]
tests, timeout, limits, files, collection = json.loads(sys.argv[1])
job = Job(next(iter(mutants_of(target))), tests, timeout, limits, files, collection)
found = []
trees = {target.path: module_tree(target)}
run_jobs([job], trees, 1, lambda _, status, seconds: found.append([status, seconds]))
print(json.dumps(found[0]))
"""

TESTS = """
import time

import pytest


@pytest.fixture(scope="module")
def slow_to_make():
    time.sleep(2)


@pytest.fixture(scope="module")
def never_made():
    while True:
        pass


def test_quick():
    pass


def test_slow():
    time.sleep(2)


def test_forever():
    while True:
        pass


def test_made_slowly(slow_to_make):
    pass


def test_never_made(never_made):
    pass
"""


def run(
    tmp_path: Path, tests: list[str], timeout: float, limits: dict[str, float], collection: float = 0.0
) -> tuple[str, float]:
    """The status and seconds of a run of ``tests`` (of TESTS, whose fixtures have 3 s)."""
    # Its own pytest.ini makes the folder pytest's root, so the tests' node ids are "test_loops.py::...".
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "test_loops.py").write_text(TESTS, encoding="utf-8")
    (tmp_path / "test_loops_when_imported.py").write_text("while True:\n    pass\n", encoding="utf-8")
    job = [[str(tmp_path / test) for test in tests], timeout, limits, {"test_loops.py": 3.0}, collection]
    result = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(job)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    status, seconds = json.loads(result.stdout)
    return status, seconds


def test_a_test_past_its_own_limit_ends_the_run_as_a_timeout(tmp_path: Path) -> None:
    loops = "test_loops.py::test_forever"
    status, seconds = run(tmp_path, [loops], 600.0, {loops: 1.0})
    assert status == "timeout"
    assert seconds < 30


def test_a_limit_ends_with_its_test(tmp_path: Path) -> None:
    # The quick test's second is over before the slow one (no limit of its own) has slept two.
    quick, slow = "test_loops.py::test_quick", "test_loops.py::test_slow"
    status, seconds = run(tmp_path, [quick, slow], 600.0, {quick: 1.0})
    assert status == "survived"
    assert seconds >= 2


def test_a_modules_fixtures_have_their_files_limit(tmp_path: Path) -> None:
    # Two seconds to make the fixture, past the test's own second and within its file's three.
    slowly = "test_loops.py::test_made_slowly"
    assert run(tmp_path, [slowly], 600.0, {slowly: 1.0})[0] == "survived"
    never = "test_loops.py::test_never_made"
    status, seconds = run(tmp_path, [never], 600.0, {never: 1.0})
    assert status == "timeout"
    assert seconds < 30


def test_the_whole_run_keeps_its_limit(tmp_path: Path) -> None:
    loops = "test_loops.py::test_forever"
    status, seconds = run(tmp_path, [loops], 1.0, {})
    assert status == "timeout"
    assert seconds < 30


def test_collecting_the_tests_has_its_limit(tmp_path: Path) -> None:
    # A test file that runs the library as it is imported, looping for ever there.
    status, seconds = run(tmp_path, ["test_loops_when_imported.py"], 600.0, {}, collection=1.0)
    assert status == "timeout"
    assert seconds < 30
