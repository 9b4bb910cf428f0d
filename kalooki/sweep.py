"""Sweeps: one simulation per cell of a knob grid, all on the same seeds, each compared with a baseline.

:func:`run_sweep` plays every cell's games through one :class:`~kalooki.executors.Pool`
(local processes or a Dask cluster), so one progress count covers the whole sweep, and hands
each finished cell to a callback as it completes (the CLI saves it, so an interrupted sweep
resumes without replaying finished cells). A cell's result depends only on its variant, the
bots, the games, the seed and the caps: never on the worker count, the executor, the order in
which cells finished, or whether the sweep was resumed.

Each figure of each cell is compared with the baseline cell by a paired t-test over games
(the same seeds pair game ``i`` of one cell with game ``i`` of the other); the p-values of the
whole sweep are adjusted together with Benjamini-Hochberg, and only differences whose adjusted
p-value is under 0.05 are marked significant.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from kalooki.executors import Pool
from kalooki.figures import (
    FDR_METHOD,
    adjust_tests,
    difference,
    figures_of,
    paired_tests,
    unit_table,
)
from kalooki.grid import Axis, Cell
from kalooki.jsonio import is_whole_number
from kalooki.simulate import GamePlan, GameRecord, HandRecord, play_plans
from kalooki.simulation_comparison import ALPHA, Difference
from kalooki.simulation_stats import SimulationResult
from kalooki.stalls import Stall
from kalooki.variant import variant_json

SweepProgress = Callable[[int, int, int, int], None]
"""Called with (games done, games in all, cells done, cells in all)."""

RECORD_FORMAT: Final = 1


@dataclass(frozen=True)
class SweepSpec:
    """What a sweep plays: the cells, and the game settings every cell shares."""

    variant: str
    overrides: tuple[str, ...]
    axes: tuple[Axis, ...]
    cells: tuple[Cell, ...]
    baseline: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    duplicate: bool = False
    max_turns: int = 1000
    max_hands: int = 200

    def plan(self, cell: Cell) -> GamePlan:
        return GamePlan(
            cell.variant, self.bots, self.games, self.seed, self.duplicate, self.max_turns, self.max_hands
        )

    def identity(self) -> dict[str, Any]:
        """Everything a cell's results depend on: a saved sweep resumes only under the same identity.

        The rules as a save writes them (:func:`kalooki.variant.variant_json`): a knob added later is
        left out at its default, so a folder saved before it existed still resumes."""
        return {
            "format": RECORD_FORMAT,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "max_turns": self.max_turns,
            "max_hands": self.max_hands,
            "cells": [{"knobs": cell.knobs, "rules": variant_json(cell.variant)} for cell in self.cells],
        }


@dataclass(frozen=True)
class PlayedCell:
    """A cell's games as they were played: the records, and the time and workers that played them
    (kept with a cell saved by one run, so the run that reads it back reports them, not 0)."""

    records: list[GameRecord]
    seconds: float = 0.0
    workers: int = 0


@dataclass(frozen=True)
class CellResult:
    cell: Cell
    result: SimulationResult
    differences: tuple[Difference, ...]
    """Against the baseline (empty for the baseline itself)."""

    def to_json(self, baseline: bool) -> dict[str, Any]:
        return {
            "knobs": self.cell.knobs,
            "baseline": baseline,
            **self.result.to_json(),
            "differences": [difference.to_json() for difference in self.differences],
        }


@dataclass(frozen=True)
class SweepResult:
    spec: SweepSpec
    cells: tuple[CellResult, ...]
    seconds: float
    workers: int
    where: str
    resumed: int
    """Cells read back from an earlier, interrupted run."""

    @property
    def significant(self) -> list[tuple[CellResult, Difference]]:
        return [(cell, item) for cell in self.cells for item in cell.differences if item.significant]

    @property
    def tests(self) -> int:
        return sum(item.tested for cell in self.cells for item in cell.differences)

    def to_json(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "variant": spec.variant,
            "overrides": list(spec.overrides),
            "grid": {axis.knob: list(axis.values) for axis in spec.axes},
            "baseline": spec.cells[spec.baseline].knobs,
            "bots": list(spec.bots),
            "games": spec.games,
            "seed": spec.seed,
            "duplicate": spec.duplicate,
            "alpha": ALPHA,
            "correction": FDR_METHOD,
            "tests": self.tests,
            "significant": len(self.significant),
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "scheduler": self.where,
            "resumed_cells": self.resumed,
            "cells": [cell.to_json(cell.cell.index == spec.baseline) for cell in self.cells],
        }


def run_sweep(
    spec: SweepSpec,
    pool: Pool,
    *,
    done: Mapping[int, PlayedCell] | None = None,
    on_cell: Callable[[Cell, PlayedCell], None] | None = None,
    progress: SweepProgress | None = None,
) -> SweepResult:
    """Play every cell not in ``done`` (cell index -> its games from an earlier run), then compare.

    ``on_cell`` is called with each cell's games as soon as all its games are played.

    Each cell's result carries its own time: from its first game handed to the pool to its last
    game back (the pool plays the cells in turn, the next one starting as the last games of one
    finish, so these overlap a little and add up to a little more than the sweep's), and the
    workers that played it; a cell in ``done`` has the seconds and workers of the run that played it.
    """
    for cell in spec.cells:
        spec.plan(cell).check()
    finished: dict[int, list[GameRecord]] = {
        index: list(played.records) for index, played in (done or {}).items()
    }
    took: dict[int, tuple[float, int]] = {
        index: (played.seconds, played.workers) for index, played in (done or {}).items()
    }
    todo = [cell for cell in spec.cells if cell.index not in finished]
    total_games = spec.games * len(spec.cells)
    before = spec.games * len(finished)
    cells_done = len(finished)
    if progress is not None:
        progress(before, total_games, cells_done, len(spec.cells))

    began: dict[int, float] = {}

    def cell_started(which: int) -> None:
        began[which] = time.perf_counter()

    def cell_done(which: int, records: list[GameRecord]) -> None:
        nonlocal cells_done
        cells_done += 1
        took[todo[which].index] = (time.perf_counter() - began[which], pool.workers)
        finished[todo[which].index] = records
        if on_cell is not None:
            on_cell(todo[which], PlayedCell(records, *took[todo[which].index]))

    def games_done(count: int, _total: int) -> None:
        if progress is not None:
            progress(before + count, total_games, cells_done, len(spec.cells))

    started = time.perf_counter()
    play_plans(pool, [spec.plan(cell) for cell in todo], games_done, cell_done, cell_started)
    seconds = time.perf_counter() - started
    results = {
        cell.index: replace(
            spec.plan(cell).summarise(finished[cell.index]),
            seconds=took[cell.index][0],
            workers=took[cell.index][1],
        )
        for cell in spec.cells
    }
    return SweepResult(
        spec, _compare_cells(spec, results), seconds, pool.workers, pool.where, len(spec.cells) - len(todo)
    )


def _compare_cells(spec: SweepSpec, results: Mapping[int, SimulationResult]) -> tuple[CellResult, ...]:
    figures = figures_of(spec.bots)
    tables = {index: unit_table(result, figures) for index, result in results.items()}
    base = tables[spec.baseline]
    raw = {
        cell.index: paired_tests(
            figures, base, tables[cell.index], results[spec.baseline], results[cell.index]
        )
        for cell in spec.cells
        if cell.index != spec.baseline
    }
    # One family: every figure of every cell, so the false discovery rate holds for the whole sweep.
    adjusted = iter(adjust_tests([test for tests in raw.values() for test in tests]))
    cells: list[CellResult] = []
    for cell in spec.cells:
        differences = tuple(
            difference(figure, test, next(adjusted))
            for figure, test in zip(figures, raw.get(cell.index, []), strict=False)
        )
        cells.append(CellResult(cell, results[cell.index], differences))
    return tuple(cells)


# ---------------------------------------------------------------- records as JSON (for --out DIR)


def record_to_json(record: GameRecord) -> list[Any]:
    """A game record as compact JSON (lists in field order), read back by :func:`record_from_json`."""
    hands = [
        [
            hand.winner,
            hand.kalooki,
            hand.end,
            hand.turns,
            list(hand.seats),
            list(hand.hand_points),
            list(hand.scores),
            list(hand.opened_on),
            hand.reshuffles,
            hand.stock_outs,
            _stall_to_json(hand.stall),
        ]
        for hand in record.hands
    ]
    return [
        record.index,
        record.seed,
        hands,
        list(record.totals),
        list(record.winners),
        record.finished,
        record.rotation,
    ]


def _stall_to_json(stall: Stall | None) -> list[Any] | None:
    """A hand stopped at the turn cap keeps why, so a resumed sweep reports its abandoned hands too."""
    if stall is None:
        return None
    return [
        stall.turns,
        stall.quiet_turns,
        stall.reshuffles,
        list(stall.seats),
        list(stall.held),
        list(stall.opened),
        list(stall.small),
        stall.places,
    ]


def _stall_from_json(data: Any, players: int) -> Stall | None:
    if data is None:
        return None
    turns, quiet_turns, reshuffles, seats, held, opened, small, places = _list(data, 8)
    seat_list = _seats(seats, players)
    playing = len(seat_list)
    return Stall(
        _count(turns),
        _count(quiet_turns),
        _count(reshuffles),
        seat_list,
        tuple(_count(item) for item in _list(held, playing)),
        tuple(_flag(item) for item in _list(opened, playing)),
        tuple(_flag(item) for item in _list(small, playing)),
        _count(places),
    )


def record_from_json(data: Any) -> GameRecord:
    """The record :func:`record_to_json` wrote; a file changed since raises ``TypeError`` or ``ValueError``.

    Every field is checked for its kind, and every seat for its range: a record read back is counted
    into figures by seat, so a planted one must be refused here rather than fail in the counting.
    """
    index, seed, hands, totals, winners, finished, rotation = _list(data, 7)
    total_list = tuple(_whole(total) for total in _list(totals))
    players = len(total_list)
    if players < 1:
        raise ValueError("a game record has no seats")
    return GameRecord(
        index=_count(index),
        seed=_count(seed),
        hands=tuple(_hand_from_json(hand, players) for hand in _list(hands)),
        totals=total_list,
        winners=_seats(winners, players),
        finished=_flag(finished),
        rotation=_count(rotation),
    )


def _hand_from_json(data: Any, players: int) -> HandRecord:
    hand = _list(data)
    if len(hand) not in (10, 11):  # cells saved before stalls were kept have ten fields a hand
        raise ValueError(f"a hand record has {len(hand)} fields")
    winner, kalooki, end, turns, seats, points, scores, opened_on, reshuffles, stock_outs = hand[:10]
    if not isinstance(end, str):
        raise TypeError("a hand's end is text")
    return HandRecord(
        winner=None if winner is None else _seats([winner], players)[0],
        kalooki=_flag(kalooki),
        end=end,
        turns=_count(turns),
        seats=_seats(seats, players),
        hand_points=tuple(_whole(item) for item in _list(points, players)),
        scores=tuple(_whole(item) for item in _list(scores, players)),
        opened_on=tuple(None if item is None else _count(item) for item in _list(opened_on, players)),
        reshuffles=_count(reshuffles),
        stock_outs=_count(stock_outs),
        stall=_stall_from_json(hand[10], players) if len(hand) > 10 else None,
    )


def _list(value: Any, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError(f"expected a list of {length if length is not None else 'any'} items")
    return value


def _whole(value: Any) -> int:
    if not is_whole_number(value):
        raise TypeError(f"expected a whole number, not {value!r}")
    return value


def _count(value: Any) -> int:
    count = _whole(value)
    if count < 0:
        raise ValueError(f"expected 0 or more, not {count}")
    return count


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, not {value!r}")
    return value


def _seats(values: Any, players: int) -> tuple[int, ...]:
    seats = tuple(_count(value) for value in _list(values))
    if any(seat >= players for seat in seats):
        raise ValueError(f"a seat past the {players} of the game")
    return seats


# ---------------------------------------------------------------- one row per cell


def sweep_rows(result: SweepResult) -> list[dict[str, Any]]:
    """One CSV row per cell: its knobs, then per figure its value, 95% interval, and difference test."""
    figures = figures_of(result.spec.bots)
    rows: list[dict[str, Any]] = []
    for cell in result.cells:
        row: dict[str, Any] = dict(cell.cell.knobs)
        row["baseline"] = cell.cell.index == result.spec.baseline
        row["games"] = cell.result.games
        row["hands"] = cell.result.hands
        tests = {item.key: item for item in cell.differences}
        for figure in figures:
            low, high = figure_interval(cell.result, figure.key)
            row[figure.key] = round(figure_value(cell.result, figure.key), 6)
            row[f"{figure.key}:low"] = round(low, 6)
            row[f"{figure.key}:high"] = round(high, 6)
            test = tests.get(figure.key)
            row[f"{figure.key}:diff"] = round(test.difference, 6) if test else ""
            # Empty where no test was made (no data, or the same in every pair): 1.0 read as a test's.
            row[f"{figure.key}:p_adjusted"] = round(test.adjusted_p, 6) if test and test.tested else ""
            row[f"{figure.key}:significant"] = test.significant if test else ""
        # Last, so no column moves: where players drop out (kalooki-40) the seats' hands won are of
        # different numbers of hands, and add up to more than 100%.
        for seat, rate in enumerate(cell.result.seat_hand_wins, start=1):
            row[f"seat_hand_wins.{seat}:played"] = rate.trials
        rows.append(row)
    return rows


def _figure(result: SimulationResult, key: str) -> Any:
    name, _, part = key.partition(".")
    value = getattr(result, name)
    if not part:
        return value
    if isinstance(value, tuple):
        return value[int(part) - 1]
    return value[part]


def figure_value(result: SimulationResult, key: str) -> float:
    """A figure of a result by its key: ``turns_per_hand``, ``seat_game_wins.1``, ``bot_hand_wins.greedy``."""
    item = _figure(result, key)
    return float(item.rate if hasattr(item, "rate") else item.mean)


def figure_has_data(result: SimulationResult, key: str) -> bool:
    """Whether a figure counts anything: the opening turn of a cell where nobody opened has no value,
    though :func:`figure_value` gives it 0 (as the CSV and the JSON write it)."""
    item = _figure(result, key)
    return bool(item.trials if hasattr(item, "trials") else item.n)


def figure_interval(result: SimulationResult, key: str) -> tuple[float, float]:
    low, high = _figure(result, key).interval
    return (float(low), float(high))
