"""Mutation testing of the rule modules: ``python -m mutate [MODULE ...] [-j N] [--survivors] [--list]``.

Prints the score of each module (mutants caught among those not listed as equivalent) and every
surviving mutant with its diff. Exits 1 when a mutant survives that ``mutate/equivalent.toml`` does
not list, so a run shows only what is new.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
import tomllib
from pathlib import Path

from mutate import coverage_map
from mutate.operators import Mutant, module_tree, mutants_of
from mutate.run import Job, preload, run_jobs
from mutate.targets import ROOT, TARGETS, Target

EQUIVALENT = Path(__file__).resolve().parent / "equivalent.toml"
RESULTS = ROOT / ".mutate" / "results.json"
# Collecting the whole suite (importing every test file) takes about 10 s; the trace does not time it.
COLLECTION_TIMEOUT = 60.0
CAUGHT = ("killed", "timeout")


def load_equivalent() -> dict[str, str]:
    """The equivalent mutants' ids and why each cannot change behaviour."""
    data = tomllib.loads(EQUIVALENT.read_text(encoding="utf-8")) if EQUIVALENT.exists() else {}
    return {entry["id"]: entry["reason"] for entry in data.get("equivalent", [])}


def main(argv: list[str] | None = None) -> int:
    names = [target.name for target in TARGETS]
    parser = argparse.ArgumentParser(prog="python -m mutate", description=__doc__)
    parser.add_argument("modules", nargs="*", choices=[[], *names], metavar="MODULE", help=f"of {names}")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--survivors", action="store_true", help="run again only the last run's survivors")
    parser.add_argument("--match", default="", help="run only mutants whose id contains this text")
    parser.add_argument(
        "--budget",
        type=float,
        default=0.0,
        help="run only the fastest tests of each mutant up to this many seconds (default: all of them)",
    )
    parser.add_argument(
        "--tests",
        nargs="+",
        metavar="FILE",
        help="map and run only these test files (a quick look; quote scores from runs without it)",
    )
    parser.add_argument("--list", action="store_true", help="list the mutants and the tests each runs")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("coverage") is None:
        # The map of which tests reach which lines comes from coverage, an extra of its own.
        parser.error("coverage is not installed: run `make mutate`, or pip install -e '.[dev,mutate]'")
    targets = [target for target in TARGETS if not args.modules or target.name in args.modules]
    equivalent = load_equivalent()
    previous: dict[str, str] = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}

    cover = coverage_map.load(only=args.tests)
    trees = {target.path: module_tree(target) for target in targets}
    mutants = [mutant for target in targets for mutant in mutants_of(target)]
    jobs: list[Job] = []
    results: dict[str, str] = {}
    # Each test's call is stopped at three times its own traced time (plus 15 s), its setup and
    # teardown at three times the slowest of its file's (which bore the file's fixtures), so a mutant
    # that makes one test loop is stopped in about that test's time, not in three times all its
    # tests' time; the whole run's limit stays as a backstop. Collecting the tests has a limit too, as
    # some test files run the library when imported.
    slowest: dict[str, float] = {}
    for test, seconds in cover.durations.items():
        file = test.split("::")[0]
        slowest[file] = max(slowest.get(file, 0.0), seconds)
    file_limits = {file: 15 + 3 * seconds for file, seconds in slowest.items()}
    for mutant in mutants:
        if mutant.key in equivalent:
            results[mutant.key] = "equivalent"
            continue
        if args.survivors and previous.get(mutant.key) in CAUGHT:
            results[mutant.key] = previous[mutant.key]
            continue
        if args.match not in mutant.key:
            results[mutant.key] = previous.get(mutant.key, "not run")
            continue
        tests = _tests_for(mutant, cover)
        if not tests:
            results[mutant.key] = "no test reaches it"
            continue
        tests.sort(key=lambda test: cover.durations.get(test, 0.0))
        if args.budget:
            tests = _within(tests, cover.durations, args.budget)
        seconds = sum(cover.durations.get(test, 0.0) for test in tests)
        limits = {test: 15 + 3 * cover.durations[test] for test in tests if test in cover.durations}
        jobs.append(Job(mutant, tests, 15 + 3 * seconds, limits, file_limits, COLLECTION_TIMEOUT))
    if args.list:
        for job in jobs:
            longest = max(job.test_timeouts.values(), default=0.0)
            print(f"{job.mutant.key}\n    {len(job.tests)} tests, timeout {job.timeout:.0f} s", end="")
            print(f" ({longest:.0f} s a test at most)")
        return 0

    preload([target.module for target in targets])
    started = time.monotonic()
    print(f"running {len(jobs)} mutants ({len(mutants) - len(jobs)} equivalent, caught before or unreached)")

    finished = 0

    def done(job: Job, status: str, seconds: float) -> None:
        nonlocal finished
        finished += 1
        results[job.mutant.key] = status
        if status not in CAUGHT:
            print(f"  {status}: {job.mutant.key}", flush=True)
        if finished % 50 == 0:
            # Saved as it goes, so a stopped run's results are kept for --survivors.
            save(previous, results)
            print(f"  {finished}/{len(jobs)} run, {time.monotonic() - started:.0f} s", flush=True)

    run_jobs(jobs, trees, args.jobs, done)
    save(previous, results)
    print(f"ran {len(jobs)} mutants in {time.monotonic() - started:.0f} s\n")
    return report(targets, mutants, results, equivalent)


def save(previous: dict[str, str], results: dict[str, str]) -> None:
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({**previous, **results}, indent=1), encoding="utf-8")


def _within(tests: list[str], durations: dict[str, float], budget: float) -> list[str]:
    """The fastest tests (already sorted) whose time adds up to at most ``budget``, and at least one."""
    kept: list[str] = []
    total = 0.0
    for test in tests:
        total += durations.get(test, 0.0)
        if kept and total > budget:
            break
        kept.append(test)
    return kept


def _tests_for(mutant: Mutant, cover: coverage_map.CoverageMap) -> list[str]:
    """The tests that execute the mutant's lines; for code run at import, every test of the module."""
    tests = set()
    if mutant.in_function:
        tests = cover.tests_for(mutant.path, mutant.lineno, mutant.end_lineno)
    if not tests:
        tests = cover.tests_of_file(mutant.path)
    return sorted(tests)


def report(
    targets: list[Target], mutants: list[Mutant], results: dict[str, str], equivalent: dict[str, str]
) -> int:
    print(f"{'module':<10}{'mutants':>9}{'equivalent':>12}{'caught':>8}{'survived':>10}{'score':>9}")
    new: list[Mutant] = []
    for target in targets:
        mine = [mutant for mutant in mutants if mutant.target == target.name]
        statuses = [results[mutant.key] for mutant in mine]
        equal = statuses.count("equivalent")
        caught = sum(status in CAUGHT for status in statuses)
        survived = len(mine) - equal - caught
        score = 100 * caught / max(1, len(mine) - equal)
        print(f"{target.name:<10}{len(mine):>9}{equal:>12}{caught:>8}{survived:>10}{score:>8.1f}%")
        new += [m for m in mine if results[m.key] not in (*CAUGHT, "equivalent")]
    sources = {target.path: (ROOT / target.path).read_text(encoding="utf-8") for target in targets}
    known = {mutant.key for mutant in mutants}
    stale = [key for key in equivalent if key not in known and key.split("::")[0] in sources]
    for key in stale:
        print(f"\nlisted as equivalent but no longer generated (remove it from {EQUIVALENT.name}): {key}")
    for mutant in new:
        print(f"\n{results[mutant.key]} [{mutant.operator}] {mutant.key}")
        print(mutant.diff(sources[mutant.path]), end="")
    if new:
        print(f"\n{len(new)} mutant(s) survived: add a test that tells them apart, or list them with the")
        print(f"reason they cannot change behaviour in {EQUIVALENT.relative_to(ROOT)}")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
