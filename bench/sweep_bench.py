"""Sweeps: local worker processes against a Dask LocalCluster, and what duplicate deals do to intervals.

``sweep-cluster``: the sweep a designer runs to answer "where should the opening threshold be,
given runs of 3 or 4?": opening_threshold 0/21/30/40/51/61 (none, the rule texts' 40 and 51,
the steps between and one above) × run_minimum 3/4, greedy in every seat, 12 cells of
``--games`` games each (default 100, a few minutes on a quiet machine, so ``make bench`` stays
short; the figure in docs/dask.md is ``--games 2000``). Each cell is played with 2 local worker
processes and on a LocalCluster of 2 single-thread worker processes on the loopback address,
one after the other, the order turned every cell (local first, then cluster first...), so a
busy machine weighs on both alike; ``--cells N`` plays the first N cells only. Both pools stay
open throughout, as a standing cluster does (its start-up is reported, not counted). Per run:
wall time, the CPU time of the main process (which hosts the LocalCluster's scheduler) and of
that side's worker processes, and the load average before and after. The overhead is the
cluster's summed wall time over the local one; every cell's results must be identical both
ways. After each cell the figures so far are saved (``partial``), so a run stopped early keeps
what it measured.

``duplicate``: the interval half-widths of the per-bot figures with two bots alternating round
the table (greedy and random, then expert and greedy), on the same number of games, without
and with duplicate deals. Without, two widths: the one ``simulate`` reports (Wilson, hands
taken as independent) and the one over games; with duplicate deals, over deals (each deal's
rotations together).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from typing import Any

import psutil

from bench import BenchResult, Options, register
from kalooki.executors import Pool, open_pool
from kalooki.figures import figures_of, ratio_interval, unit_table
from kalooki.grid import load_cells, parse_grid
from kalooki.loader import load_variant
from kalooki.simulate import simulate
from kalooki.sweep import SweepSpec, figure_interval, figure_value, run_sweep

SWEEP_GRID = ("opening_threshold=0,21,30,40,51,61", "run_minimum=3,4")
SWEEP_GAMES = 100
QUICK_SWEEP_GAMES = 2
DUPLICATE_GAMES = 400
QUICK_DUPLICATE_GAMES = 8
TABLES = (("greedy", "random", "greedy", "random"), ("expert", "greedy", "expert", "greedy"))
"""Two bots alternating round the table: far apart in skill, then close."""


def _spec(games: int, seed: int) -> SweepSpec:
    axes = parse_grid(list(SWEEP_GRID))
    cells = load_cells("classic", [], axes)
    return SweepSpec("classic", (), tuple(axes), tuple(cells), 0, ("greedy",) * 4, games, seed)


def _stable(data: dict[str, Any]) -> Any:
    drop = {"seconds", "workers", "games_per_second", "scheduler", "resumed_cells"}
    return [{k: v for k, v in cell.items() if k not in drop} for cell in data["cells"]]


def _cpu(pids: set[int]) -> float:
    """CPU seconds (user and system) the given processes have used so far; gone ones count 0."""
    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def _children() -> set[int]:
    return {child.pid for child in psutil.Process().children(recursive=True)}


def _timed(spec: SweepSpec, pool: Pool, workers: Callable[[], set[int]]) -> tuple[dict[str, Any], Any]:
    """Play the sweep on the pool: its measurements, and its results without the timings."""
    load_before = os.getloadavg()[0]
    pids = workers()
    worker_cpu, main_cpu = _cpu(pids), time.process_time()
    begun = time.perf_counter()
    result = run_sweep(spec, pool)
    wall = time.perf_counter() - begun
    pids |= workers()  # local pool processes start on the first task
    run = {
        "wall_seconds": round(wall, 2),
        "main_cpu_seconds": round(time.process_time() - main_cpu, 2),
        "worker_cpu_seconds": round(_cpu(pids) - worker_cpu, 2),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }
    return run, _stable(result.to_json())


@register("sweep-cluster")
def sweep_cluster_bench(options: Options) -> BenchResult:
    from distributed import LocalCluster

    games = options.games or (QUICK_SWEEP_GAMES if options.quick else SWEEP_GAMES)
    full = _spec(games, options.seed)
    cells = full.cells[: options.cells] if options.cells else full.cells
    started = time.perf_counter()
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        startup = time.perf_counter() - started
        dask_pids = _children()
        with open_pool(2) as local, open_pool(scheduler=cluster.scheduler_address) as remote:
            sides = {
                "local": (local, lambda: _children() - dask_pids),
                "cluster": (remote, lambda: dask_pids),
            }
            rows: list[dict[str, Any]] = []
            result: BenchResult = {}
            for number, cell in enumerate(cells):
                # The cell alone, as a one-cell sweep (its own baseline): the same games as in the full one.
                alone = (dataclasses.replace(cell, index=0),)
                one = SweepSpec(full.variant, (), full.axes, alone, 0, full.bots, games, options.seed)
                row: dict[str, Any] = {"knobs": cell.knobs}
                outputs = {}
                for where in ("local", "cluster") if number % 2 == 0 else ("cluster", "local"):
                    pool, workers = sides[where]
                    row[where], outputs[where] = _timed(one, pool, workers)
                row["identical"] = outputs["local"] == outputs["cluster"]
                rows.append(row)
                result = _sweep_summary(rows, len(full.cells), games, startup)
                if options.checkpoint is not None and number + 1 < len(cells):
                    options.checkpoint(result)
    return result


def _sweep_summary(rows: list[dict[str, Any]], planned: int, games: int, startup: float) -> BenchResult:
    total = {
        where: {
            key: round(sum(row[where][key] for row in rows), 2)
            for key in ("wall_seconds", "main_cpu_seconds", "worker_cpu_seconds")
        }
        for where in ("local", "cluster")
    }
    local, remote = total["local"]["wall_seconds"], total["cluster"]["wall_seconds"]
    return {
        "grid": list(SWEEP_GRID),
        "bots": "greedy in every seat",
        "cells_planned": planned,
        "cells_played": len(rows),
        "games_per_cell": games,
        "cluster_startup_seconds": round(startup, 2),
        "local_seconds": local,
        "cluster_seconds": remote,
        "overhead_percent": round(100 * (remote - local) / local, 1),
        "identical": all(row["identical"] for row in rows),
        "total": total,
        "cells": rows,
    }


@register("duplicate")
def duplicate_bench(options: Options) -> BenchResult:
    games = options.games or (QUICK_DUPLICATE_GAMES if options.quick else DUPLICATE_GAMES)
    return {"games": games, "tables": [_duplicate_widths(bots, games, options.seed) for bots in TABLES]}


def _duplicate_widths(bots: tuple[str, ...], games: int, seed: int) -> dict[str, Any]:
    classic = load_variant("classic")
    plain = simulate(classic, bots, games, seed, workers=2)
    dealt = simulate(classic, bots, games, seed, workers=2, duplicate=True)
    figures = [figure for figure in figures_of(bots) if figure.key.startswith("bot_")]
    by_game = unit_table(plain, figures)
    rows: dict[str, Any] = {}
    for figure in figures:
        reported = figure_interval(plain, figure.key)
        over_games = ratio_interval(by_game[figure.key], figure.kind)
        over_deals = figure_interval(dealt, figure.key)
        rows[figure.label] = {
            "value": round(figure_value(plain, figure.key), 4),
            "value_duplicate": round(figure_value(dealt, figure.key), 4),
            "half_width_reported": round((reported[1] - reported[0]) / 2, 4),
            "half_width_over_games": round((over_games[1] - over_games[0]) / 2, 4),
            "half_width_duplicate": round((over_deals[1] - over_deals[0]) / 2, 4),
            "narrowing_percent": round(
                100 * (1 - (over_deals[1] - over_deals[0]) / (over_games[1] - over_games[0])), 1
            ),
        }
    return {"bots": list(bots), "hands": plain.hands, "hands_duplicate": dealt.hands, "figures": rows}
