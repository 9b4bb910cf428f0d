"""Knob grids for ``kalooki sweep``: ``--grid KNOB=V1,V2,...`` options, read and checked like ``--set``.

Each ``--grid`` option is one axis; the sweep's cells are every combination of the axes'
values (the first axis varies slowest). Errors have the same ``FILE:LINE:COL: KEY: message``
form as ``--set``'s, with ``--grid`` as FILE, which option as LINE and the character of the
bad value as COL::

    --grid:2:13: run_minimum: expected a whole number, got 'four': write numbers in digits (four is 4)

Every cell's variant is loaded and checked as ``validate`` checks a file, so a combination
that breaks a rule between knobs is refused, pointing at the value that made it, before any
game is played.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from kalooki.loader import VariantError, resolve_variant
from kalooki.set_options import SetOptions, parse_set_options
from kalooki.text import not_utf8, undecodable_byte
from kalooki.variant import Variant
from kalooki.yamlio import Diagnostic, Location, parse_scalar_text, sort_diagnostics

GRID_SOURCE: Final = "--grid"
BASELINE_SOURCE: Final = "--baseline"


@dataclass(frozen=True)
class Axis:
    """One ``--grid`` option: a knob and the values it takes, with where each value was written."""

    knob: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]
    option: str
    line: int
    columns: tuple[int, ...]


@dataclass(frozen=True)
class Cell:
    """One combination of grid values, and the variant it makes."""

    index: int
    knobs: dict[str, Any]
    variant: Variant

    @property
    def label(self) -> str:
        return ", ".join(f"{knob}={knob_text(value)}" for knob, value in self.knobs.items()) or "as given"


def knob_text(value: Any) -> str:
    """A swept value as the grid and a variant file write it: ``true``, not Python's ``True``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_NOT_RULES: Final = frozenset(("name", "description"))
"""Keys that name or describe a variant: cells that differ only there play the same games."""


def parse_grid(options: Sequence[str], source: str = GRID_SOURCE) -> list[Axis]:
    """Read ``--grid`` options; raise :class:`VariantError` listing every bad one."""
    problems: list[Diagnostic] = []
    axes: list[Axis] = []
    seen: dict[str, int] = {}
    for line, option in enumerate(options, start=1):
        knob, equals, rest = option.partition("=")
        knob = knob.strip()
        byte = undecodable_byte(option)
        if byte is not None and (not equals or byte[0] < option.index("=")):  # the values' are --set's
            problems.append(Diagnostic(source, line, byte[0] + 1, "", not_utf8(byte[1])))
            continue
        if not equals or not knob:
            problems.append(
                Diagnostic(
                    source, line, 1, "", f"expected KNOB=V1,V2,... (e.g. run_minimum=3,4), got {option!r}"
                )
            )
            continue
        if knob in _NOT_RULES:
            problems.append(
                Diagnostic(
                    source, line, 1, knob, f"{knob} does not change play: sweep a rule (e.g. run_minimum=3,4)"
                )
            )
            continue
        if knob in seen:
            problems.append(
                Diagnostic(
                    source,
                    line,
                    1,
                    knob,
                    f"already swept by --grid option {seen[knob]}: give its values once",
                )
            )
            continue
        seen[knob] = line
        values: list[Any] = []
        texts: list[str] = []
        columns: list[int] = []
        column = len(option) - len(rest) + 1
        for text in rest.split(","):
            try:
                # The value is checked exactly as --set checks KNOB=VALUE, messages and all.
                values.append(parse_set_options([f"{knob}={text}"], source).values[knob])
            except VariantError as error:
                for item in error.diagnostics:
                    shift = column - (len(knob) + 2) if item.column > 1 else 0
                    problems.append(Diagnostic(source, line, item.column + shift, item.key, item.message))
                column += len(text) + 1
                continue
            if not text.strip():
                problems.append(Diagnostic(source, line, column, knob, "an empty value: write V1,V2,..."))
            elif values[-1] in values[:-1]:
                problems.append(Diagnostic(source, line, column, knob, f"{text.strip()} is given twice"))
            texts.append(text.strip())
            columns.append(column)
            column += len(text) + 1
        if len(values) == len(texts) and texts:
            axes.append(Axis(knob, tuple(values), tuple(texts), option, line, tuple(columns)))
    if problems:
        unique = {str(item): item for item in problems}  # an unknown knob is wrong once, not once per value
        raise VariantError(sort_diagnostics(unique.values()))
    return axes


def cell_count(axes: Sequence[Axis]) -> int:
    count = 1
    for axis in axes:
        count *= len(axis.values)
    return count


@dataclass(frozen=True)
class _CellOptions(SetOptions):
    """``--set`` options and one cell's ``--grid`` values together, each knob located where it was written."""

    sources: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)

    def location(self, path: Sequence[str | int], key: str | None = None) -> Location:
        found = super().location(path, key)
        name = str(path[0]) if path else ""
        return Location(self.sources.get(name, self.source), found.line, found.column, found.key)

    def key_location(self, path: Sequence[str | int], key: str | None = None) -> Location:
        found = super().key_location(path, key)
        name = str(path[0]) if path else ""
        return Location(self.sources.get(name, self.source), found.line, found.column, found.key)

    def option_text(self, name: str) -> str:
        return self.texts.get(name) or super().option_text(name)


def load_cells(
    variant: str | Path, overrides: Sequence[str], axes: Sequence[Axis], base_dir: str | Path | None = None
) -> list[Cell]:
    """Every cell's variant: ``variant`` with ``--set`` ``overrides`` and the cell's grid values.

    Raises :class:`VariantError` with every problem of every cell (each reported once), located
    at the ``--set`` or ``--grid`` value that caused it.
    """
    set_options = parse_set_options(list(overrides)) if overrides else SetOptions((), {})
    problems: list[Diagnostic] = []
    for axis in axes:
        if axis.knob in set_options.values:
            problems.append(
                Diagnostic(
                    GRID_SOURCE, axis.line, 1, axis.knob, "also given with --set: give it in one place"
                )
            )
    if problems:
        raise VariantError(problems)
    cells: list[Cell] = []
    seen: set[str] = set()
    for index, combination in enumerate(itertools.product(*(range(len(axis.values)) for axis in axes))):
        values = dict(set_options.values)
        where = dict(set_options._where)
        plain = dict(set_options._plain)
        sources: dict[str, str] = {}
        texts: dict[str, str] = {}
        for axis, choice in zip(axes, combination, strict=True):
            values[axis.knob] = axis.values[choice]
            where[axis.knob] = (axis.line, axis.columns[choice])
            plain[axis.knob] = axis.texts[choice]
            sources[axis.knob] = GRID_SOURCE
            texts[axis.knob] = f"{axis.knob}={axis.texts[choice]}"
        options = _CellOptions(set_options.options, values, where, plain, set_options.source, sources, texts)
        try:
            resolved = resolve_variant(variant, options, base_dir)
        except VariantError as error:
            for item in error.diagnostics:
                if str(item) not in seen:
                    seen.add(str(item))
                    problems.append(item)
            continue
        knobs = {axis.knob: axis.values[choice] for axis, choice in zip(axes, combination, strict=True)}
        cells.append(Cell(index, knobs, resolved.variant))
    if problems:
        raise VariantError(sort_diagnostics(problems))
    return cells


def find_baseline(text: str | Sequence[str] | None, axes: Sequence[Axis], cells: Sequence[Cell]) -> int:
    """The index of the cell ``--baseline KNOB=V,...`` names (default: the first cell).

    ``text`` is one option's value, or each ``--baseline`` option's (errors are located at option N,
    as ``--grid``'s are): ``--baseline opening_threshold=51 --baseline run_minimum=4`` names one cell.
    A knob left out matches any of its values: the first such cell is the baseline.
    """
    if not text:
        return 0
    wanted: dict[str, Any] = {}
    named_on: dict[str, int] = {}
    by_knob = {axis.knob: axis for axis in axes}
    for line, option in enumerate([text] if isinstance(text, str) else text, 1):
        byte = undecodable_byte(option)
        if byte is not None:  # said as --grid and --set say it, not in repr's '\udcff'
            where = Location(BASELINE_SOURCE, line, byte[0] + 1)
            raise VariantError([where.error(not_utf8(byte[1]))])
        column = 1
        for part in option.split(","):
            named, equals, value_text = part.partition("=")
            knob = named.strip()
            where = Location(BASELINE_SOURCE, line, column, knob)
            # A value's fault is located at the value, as --grid locates it: column 1 pointed at the knob.
            blank = len(value_text) - len(value_text.lstrip())
            at_value = Location(BASELINE_SOURCE, line, column + len(named) + 1 + blank, knob)
            if not equals or knob not in by_knob:
                swept = ", ".join(by_knob) or "no knob"
                reason = f"expected KNOB=VALUE, got {part!r}" if not equals else f"{knob} is not swept"
                raise VariantError([where.error(f"{reason} (the grid sweeps {swept})")])
            if knob in wanted:
                # Two values for one knob name no cell; a later option used to win over the earlier.
                named = f"by --baseline option {named_on[knob]}" if named_on[knob] != line else "before"
                raise VariantError([where.error(f"already named {named}: give its value once")])
            try:
                value = parse_scalar_text(value_text)
            except ValueError as error:
                raise VariantError([at_value.error(str(error))]) from None
            if value not in by_knob[knob].values:
                choices = ", ".join(by_knob[knob].texts)
                raise VariantError([at_value.error(f"{value_text.strip()} is not in the grid ({choices})")])
            wanted[knob] = value
            named_on[knob] = line
            column += len(part) + 1
    for cell in cells:
        if all(cell.knobs[knob] == value for knob, value in wanted.items()):
            return cell.index
    raise VariantError(
        [Location(BASELINE_SOURCE, 1, 1).error("names no cell of the grid")]
    )  # pragma: no cover


__all__ = ["Axis", "Cell", "cell_count", "find_baseline", "knob_text", "load_cells", "parse_grid"]
