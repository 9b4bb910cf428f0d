"""Benchmarks: ``python -m bench`` (or ``make bench``) runs every registered bench and writes JSON results.

A bench module registers a function with :func:`register`; the runner calls it with the options
and writes what it returns to ``bench/results/<name>.json``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

BenchResult = dict[str, Any]


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
