"""``--workers`` over the cores this process may use is capped at them, with a note: ``-n 16 -w 16`` forked
16 processes on a 2-core machine, each waiting its turn with its memory. The results do not depend on the
count, so a script written on a bigger machine still runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

KALOOKI = Path(sys.executable).with_name("kalooki")
pytestmark = pytest.mark.skipif(not KALOOKI.exists(), reason="needs the installed console script")
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
ASKED = CORES + 14


def kalooki(*args: str) -> tuple[int, dict[str, object], str]:
    done = subprocess.run([str(KALOOKI), *args], capture_output=True, text=True, timeout=600, check=False)
    return done.returncode, json.loads(done.stdout or "{}"), done.stderr


def note(cores: int) -> str:
    processes = "1 process plays" if cores == 1 else f"{cores} processes play"
    core_count = "1 core" if cores == 1 else f"{cores} cores"
    return (
        f"--workers {ASKED}: this machine gives kalooki {core_count}, so {processes} "
        "(the results are the same whatever --workers is)\n"
    )


def test_simulate_plays_on_at_most_one_process_a_core() -> None:
    code, data, err = kalooki("simulate", "-n", str(ASKED), "-w", str(ASKED), "--json")
    assert (code, data["workers"], err) == (0, CORES, note(CORES))


def test_sweep_plays_on_at_most_one_process_a_core() -> None:
    code, data, err = kalooki("sweep", "--grid", "jokers=2,4", "-n", str(ASKED), "-w", str(ASKED), "--json")
    assert (code, err) == (0, note(CORES))
    assert data["workers"] == CORES


def test_fewer_games_than_cores_need_no_note() -> None:
    code, data, err = kalooki("simulate", "-n", "1", "-w", str(ASKED), "--json")
    assert (code, data["workers"], err) == (0, 1, "")
