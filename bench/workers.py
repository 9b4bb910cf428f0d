"""``kalooki simulate --workers 1`` against ``--workers 2``, and what this machine allows two processes.

:func:`simulate_run` runs the real command in a child process, as a user would, and returns the
games per second it reports, its wall time from launch to exit, the CPU seconds it and its worker
processes spent, and its JSON result without the timing fields, so two runs can be checked for
identical results.

:func:`two_process_ceiling` is the yardstick for the pool on a shared machine: the speed-up that
two processes of a pure CPU loop get over one, right now. On an idle 2-core machine it is close
to 2; when other jobs hold the cores it falls, and no pool can beat it.
"""

from __future__ import annotations

import json
import multiprocessing
import resource
import subprocess
import sys
import time
from typing import Any

TIMING_FIELDS = ("seconds", "workers", "games_per_second")


def simulate_command(games: int, seed: int, workers: int) -> list[str]:
    """The command line measured: greedy in every seat of classic, results as JSON."""
    return [
        *(sys.executable, "-m", "kalooki", "simulate", "classic"),
        *("--games", str(games), "--seed", str(seed), "--workers", str(workers), "--json"),
    ]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate_run(games: int, seed: int, workers: int) -> dict[str, Any]:
    """One ``kalooki simulate`` run: the games per second it reports (timed from its first game to its
    last, the pool's start included), the whole process's wall seconds and CPU seconds (its workers
    included), and its result."""
    cpu = _children_cpu()
    wall = time.perf_counter()
    completed = subprocess.run(
        simulate_command(games, seed, workers), capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - wall
    result = json.loads(completed.stdout)
    games_per_second = float(result["games_per_second"])
    for name in TIMING_FIELDS:
        result.pop(name, None)
    return {
        "games_per_second": games_per_second,
        "wall": wall,
        "cpu": _children_cpu() - cpu,
        "result": result,
    }


def startup_seconds() -> float:
    """Wall seconds for ``kalooki simulate`` to start, play one game in this process and print."""
    return float(simulate_run(1, 0, 1)["wall"])


def _spin(loops: int) -> int:
    total = 0
    for number in range(loops):
        total += number & 7
    return total


def _run_spinners(count: int, loops: int) -> float:
    """Wall seconds for ``count`` processes to each spin ``loops`` times, all at once."""
    started = time.perf_counter()
    processes = [multiprocessing.Process(target=_spin, args=(loops,)) for _ in range(count)]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    return time.perf_counter() - started


def two_process_ceiling(loops: int) -> float:
    """How many times faster two processes get through the same CPU-bound work as one, now."""
    one = _run_spinners(1, loops)
    two = _run_spinners(2, loops)
    return 2 * one / two
