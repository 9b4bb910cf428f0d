"""Benchmarks: ``python -m bench`` (or ``make bench``) runs every registered bench and writes JSON results.

A bench module registers a function with :func:`register`; the runner calls it with the options
and writes what it returns to ``bench/results/<name>.json``. A bench that measures figures against
an issue's targets returns them under ``"targets"`` (a list of :meth:`Target.to_json`), and the
runner prints each as one line: the figure, its target, met or missed.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

BenchResult = dict[str, Any]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Options:
    """What every bench is given: ``quick`` asks for a smaller run (a smoke test, not a measurement)."""

    quick: bool = False
    seed: int = 0
    games: int | None = None
    """Games per run (or per cell), for the benches that take it; None: the bench's own figure."""
    cells: int | None = None
    """How many of a sweep bench's cells to play (the first ones); None: all of them."""
    checkpoint: Callable[[BenchResult], object] | None = None
    """Where a long bench saves what it has measured so far, so a run stopped early keeps it."""


BenchFunction = Callable[[Options], BenchResult]

REGISTRY: dict[str, BenchFunction] = {}


def register(name: str) -> Callable[[BenchFunction], BenchFunction]:
    """Add a bench under ``name`` (the JSON file's stem and the name to select it on the command line)."""

    def add(function: BenchFunction) -> BenchFunction:
        if name in REGISTRY:
            raise ValueError(f"a bench named {name!r} is already registered")
        REGISTRY[name] = function
        return function

    return add


@dataclass(frozen=True, slots=True)
class Target:
    """A measured figure set against the bound an issue asks of it; the runner prints one line for each.

    ``value`` is None when the figure could not be measured (OpenSpiel not installed, say): the
    line then says so instead of met or missed.
    """

    figure: str
    value: float | None
    bound: float
    at_least: bool = True
    """True: the figure must reach ``bound`` (a rate); False: it must stay at or under it (a cost)."""
    holds: bool = True
    """A condition besides the bound (identical results, say): the target is missed without it."""
    note: str = ""

    @property
    def met(self) -> bool | None:
        if self.value is None:
            return None
        return self.holds and (self.value >= self.bound if self.at_least else self.value <= self.bound)

    def line(self) -> str:
        sign = ">=" if self.at_least else "<="
        figure = "not measured" if self.value is None else f"{self.value:.3g}"
        verdict = {True: "met", False: "MISSED", None: "not measured"}[self.met]
        note = f"  ({self.note})" if self.note else ""
        return f"{self.figure}: {figure}  target {sign} {self.bound:g}  {verdict}{note}"

    def to_json(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "value": self.value,
            "target": f"{'>=' if self.at_least else '<='} {self.bound:g}",
            "met": self.met,
            "note": self.note,
            "line": self.line(),
        }


def clock_cost_ns(reads_between: int, samples: int = 2001) -> float:
    """CPU nanoseconds an interval timed with ``time.thread_time_ns`` counts when nothing runs in
    it but ``reads_between`` more reads of the same clock: the median of ``samples`` such intervals.

    A read of this clock costs most of a microsecond here, so an interval around a call of a few
    microseconds counts the call and about one read (the end of the first, the start of the last):
    the per-action benches take this out so that a ratio compares the calls.
    """
    clock = time.thread_time_ns
    spent = []
    for _ in range(samples):
        started = clock()
        for _ in range(reads_between):
            clock()
        spent.append(clock() - started)
    return statistics.median(spent)


def interleaved(measures: dict[str, Callable[[], T]], repeats: int) -> dict[str, list[T]]:
    """Run every measure once per round, ``repeats`` rounds, in the order given.

    Taking the rounds in turn, rather than all repeats of one measure and then the next, lets
    every measure see the same spread of load on a shared machine, so their ratios are fair.
    """
    results: dict[str, list[T]] = {name: [] for name in measures}
    for _ in range(repeats):
        for name, measure in measures.items():
            results[name].append(measure())
    return results
