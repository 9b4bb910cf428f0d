"""Sweeps on a real Dask cluster: a LocalCluster of worker processes on the loopback address.

The same seed gives the same results on the cluster as in this process, and still does when a
worker is killed in the middle of the sweep (Dask runs its lost tasks again elsewhere).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kalooki.executors import open_pool
from kalooki.grid import Cell, load_cells, parse_grid
from kalooki.simulate import GameRecord
from kalooki.sweep import SweepSpec, run_sweep

distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")

KALOOKI = str(Path(sys.executable).parent / "kalooki")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=50,
    ) as local:
        yield local


def spec() -> SweepSpec:
    axes = parse_grid(["opening_threshold=0,40,51"])
    cells = load_cells("classic", [], axes)
    return SweepSpec("classic", (), tuple(axes), tuple(cells), 0, ("greedy", "random"), 12, 11)


def stable(data: dict[str, Any]) -> dict[str, Any]:
    drop = {"seconds", "workers", "games_per_second", "scheduler", "resumed_cells"}
    out = {key: value for key, value in data.items() if key not in drop}
    out["cells"] = [{k: v for k, v in cell.items() if k not in drop} for cell in data["cells"]]
    return out


def test_cluster_gives_the_local_results(cluster: Any) -> None:
    with open_pool(1) as pool:
        local = run_sweep(spec(), pool).to_json()
    with open_pool(scheduler=cluster.scheduler_address) as pool:
        assert pool.workers == 2
        remote = run_sweep(spec(), pool).to_json()
    assert remote["scheduler"] == cluster.scheduler_address
    assert stable(remote) == stable(local)


def test_cli_sends_the_sweep_to_the_scheduler(cluster: Any) -> None:
    args = ["sweep", "classic", "--grid", "jokers=2,4", "-n", "4", "--json"]
    local = subprocess.run([KALOOKI, *args, "-w", "1"], capture_output=True, text=True, check=True)
    remote = subprocess.run(
        [KALOOKI, *args, "--scheduler", cluster.scheduler_address], capture_output=True, text=True, check=True
    )
    assert json.loads(remote.stdout)["scheduler"] == cluster.scheduler_address
    assert stable(json.loads(remote.stdout)) == stable(json.loads(local.stdout))


def test_a_worker_killed_mid_sweep_changes_nothing(cluster: Any) -> None:
    with open_pool(1) as pool:
        local = run_sweep(spec(), pool).to_json()
    killed: list[int] = []
    cells_done: list[int] = []

    def kill_a_worker(cell: Cell, records: list[GameRecord]) -> None:
        cells_done.append(cell.index)
        if killed:
            return
        with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
            pids = client.run(os.getpid)
        pid = sorted(pids.values())[0]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    with open_pool(scheduler=cluster.scheduler_address) as pool:
        remote = run_sweep(spec(), pool, on_cell=kill_a_worker).to_json()
    assert killed  # the worker really went after the first cell, with two cells still to play
    assert len(cells_done) == 3
    assert stable(remote) == stable(local)


def test_simulate_on_the_scheduler_matches_local(cluster: Any) -> None:
    args = ["simulate", "classic", "--compare-set", "jokers=4", "-n", "4", "--duplicate", "--json"]
    local = subprocess.run([KALOOKI, *args, "-w", "1"], capture_output=True, text=True, check=True)
    remote = subprocess.run(
        [KALOOKI, *args, "--scheduler", cluster.scheduler_address], capture_output=True, text=True, check=True
    )
    drop = {"seconds", "workers", "games_per_second"}
    for side in ("a", "b"):
        here = {k: v for k, v in json.loads(local.stdout)[side].items() if k not in drop}
        there = {k: v for k, v in json.loads(remote.stdout)[side].items() if k not in drop}
        assert there == here
    assert json.loads(remote.stdout)["differences"] == json.loads(local.stdout)["differences"]
