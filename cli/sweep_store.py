"""``kalooki sweep --out DIR``: each finished cell saved as it completes, read back to resume.

The folder holds ``sweep.json`` (what the sweep plays: bots, games, seed, caps and every
cell's full rules) and ``cells/cell-NNN.json`` (one finished cell's games). Each file is
written atomically, so a crash or Ctrl-C leaves whole files only. Run again with the same
options, the sweep plays only the cells that have no file; run with different options, it
refuses rather than mix two sweeps' games.

A grid that grows (a value more for a knob, a knob more) keeps the cells already played: a cell's
games depend only on its rules and the settings every cell shares (bots, games, seed, caps), so
each saved cell moves to the number the new grid gives its rules. Each cell file names the rules
it was played under, and a file read back must be of its cell's rules: a crash while the cells
move leaves files that are moved again or played again, never games taken for another cell's.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from kalooki import jsonio
from kalooki.errors import KalookiError
from kalooki.grid import Cell, knob_text
from kalooki.jsonio import is_whole_number
from kalooki.safeio import FileReadError, read_regular_file
from kalooki.sweep import PlayedCell, SweepSpec, record_from_json, record_to_json
from kalooki.text import clipped, escape_controls
from kalooki.variant import variant_json

from . import save_lock
from .output import output_problem
from .saves import write_atomically

MAX_STORE_BYTES = 4 * 1024**3
"""The most a file of the folder may hold: far over what a sweep writes (2,000 games of classic make a
cell of 0.8 MB), but not endless, so a runaway file is refused rather than read into memory."""


class SweepStoreError(KalookiError):
    """An --out folder that cannot be used for this sweep."""


class SweepStore:
    def __init__(self, folder: Path, spec: SweepSpec) -> None:
        self.folder = folder
        self.spec = spec

    @property
    def manifest(self) -> Path:
        return self.folder / "sweep.json"

    def cell_path(self, index: int) -> Path:
        return self.folder / "cells" / f"cell-{index:03d}.json"

    def open(self) -> dict[int, PlayedCell]:
        """Check the folder holds this sweep (or nothing yet) and read the cells already finished."""
        try:
            problem = output_problem(self.folder, folder=True)
            self.manifest.exists()  # raises where the name is too long for the system
        except OSError as error:  # a name too long for the system (ENAMETOOLONG)
            shown = clipped(str(self.folder))
            raise SweepStoreError(
                f"{shown}: cannot write a folder so named: {error.strerror or error}"
            ) from None
        if problem is not None:  # a file, a FIFO, a device (/dev/full), a link to nothing
            raise SweepStoreError(f"{self.folder}: {problem}")
        try:
            # The folder --out names is the sweep's own: made here, and held while this sweep writes it.
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SweepStoreError(f"{self.folder}: cannot write: {error.strerror or error}") from None
        save_lock.hold_sweep(self.folder, self.manifest)
        started = self.manifest.exists()
        identity = self.spec.identity()
        regridded = False
        if started:
            saved = self._read(self.manifest)
            if saved != identity and not _only_cells_differ(saved, identity):
                raise self._different(saved, identity)
            if saved != identity:
                self._regrid(saved, identity)  # checks the cells were played alike before it moves them
                regridded = True
        else:
            try:
                self.cell_path(0).parent.mkdir(parents=True, exist_ok=True)
                write_atomically(self.manifest, json.dumps(identity, indent=1))
            except OSError as error:
                raise SweepStoreError(f"{self.folder}: cannot write: {error.strerror or error}") from None
        done: dict[int, PlayedCell] = {}
        for cell, wanted in zip(self.spec.cells, identity["cells"], strict=True):
            path = self.cell_path(cell.index)
            if path.exists():
                data = self._read(path, CELL_REMEDY)
                done[cell.index] = self._played(path, data)
                if _played_under(data, wanted) != wanted["rules"]:
                    raise SweepStoreError(f"{path}: holds the games of another cell{CELL_REMEDY}")
        if done and not regridded:
            first = min(done)
            self._check_played_alike(first, done[first], self.cell_path(first))
        return done

    def _check_played_alike(self, index: int, played: PlayedCell, path: Path) -> None:
        """Refuse cells that this kalooki would not play as they were played: the first hand of the first
        game of cell ``index`` (read from ``path``), played again.

        Nothing in the folder says which kalooki played it, and a later one whose bots choose otherwise
        plays other games from the same seeds: its cells beside the folder's would be set against one
        another as if one program had played them all. A hand costs a fraction of a second (a whole
        game under a high goal, a minute), and a change in how the bots or the rules play shows in one
        of its dozens of choices.
        """
        plan = replace(self.spec.plan(self.spec.cells[index]), max_hands=1)
        again = plan.play(plan.jobs()[:1])[0]
        if again.hands[:1] != played.records[0].hands[:1]:
            raise SweepStoreError(
                f"{path}: its games were played by a kalooki that plays them differently (its first hand, "
                "played again here, goes another way): its cells beside this one's would not be results of "
                "one program; give another --out folder"
            )

    def _played(self, path: Path, data: Any) -> PlayedCell:
        """The games of a cell file, each checked as a save is: one line naming the file if any is wrong.
        Its time and workers too (a file saved before cells kept them has 0 and 0: not known)."""
        try:
            records = [record_from_json(item) for item in data["records"]]
            if any(len(record.totals) != len(self.spec.bots) for record in records):
                raise ValueError("games of another number of players")
            seconds, workers = data.get("seconds", 0), data.get("workers", 0)
            if not _count(seconds, whole=False) or not _count(workers, whole=True):
                raise ValueError("seconds or workers not a count")
        except (KeyError, TypeError, ValueError, AttributeError):
            raise SweepStoreError(f"{path}: not a saved sweep cell{CELL_REMEDY}") from None
        if len(records) != self.spec.games:
            raise SweepStoreError(f"{path}: holds {len(records)} games, not {self.spec.games}{CELL_REMEDY}")
        return PlayedCell(records, float(seconds), int(workers))

    def _different(self, saved: Any, identity: dict[str, Any]) -> SweepStoreError:
        written = saved.get("format") if isinstance(saved, dict) else None
        if is_whole_number(written) and written > identity["format"]:
            return SweepStoreError(
                f"{self.folder}: was written by a newer kalooki (sweep format {written}; this kalooki reads "
                f"{identity['format']}): upgrade kalooki to resume it, or give another --out folder"
            )
        if not isinstance(saved, dict) or "format" not in saved:
            # Another program's file ("format None there, 1 here" said nothing): not kalooki's to remove.
            return SweepStoreError(
                f"{self.folder}: holds a sweep.json kalooki did not write; give another --out folder"
            )
        # Spelled out and clipped: what a changed sweep.json holds there may be a page of text, or a newline.
        differs = clipped(escape_controls(_first_difference(saved, identity)), 200)
        return SweepStoreError(
            f"{self.folder}: holds a different sweep ({differs}); "
            "give another --out folder, or remove this one"
        )

    def _regrid(self, manifest: dict[str, Any], identity: dict[str, Any]) -> None:
        """Move each saved cell to the number this grid gives its rules, then save this grid as the folder's.

        Every file is read and checked before any is written; a cell this grid leaves out is refused,
        so no game played is lost. The manifest is written last: until then the folder is the old
        sweep, whose files are checked against their rules as they are read.
        """
        saved, cells = manifest["cells"], identity["cells"]
        number = {_key(cell["rules"]): index for index, cell in enumerate(cells)}
        moving: dict[int, tuple[PlayedCell, Path]] = {}  # by number in this grid: the games, their file
        files = sorted(self.cell_path(0).parent.glob("cell-[0-9][0-9][0-9].json"))
        left_out: list[str] = []
        for path in files:
            index = int(path.stem.removeprefix("cell-"))
            data = self._read(path, CELL_REMEDY)
            played = self._played(path, data)
            rules = _played_under(data, saved[index] if index < len(saved) else None)
            if rules is None:
                raise SweepStoreError(f"{path}: holds the games of another cell{CELL_REMEDY}")
            if _key(rules) not in number:
                knobs = data.get("knobs") if isinstance(data, dict) else None
                left_out.append(_label(knobs) if isinstance(knobs, dict) else path.name)
                continue
            moving[number[_key(rules)]] = (played, path)
        if left_out and not moving:
            raise self._different(manifest, identity)  # nothing in common: no grid grew
        if left_out:
            raise SweepStoreError(
                f"{self.folder}: holds played cells this sweep leaves out ({'; '.join(left_out)}); "
                "give their values in --grid too (with the same variant and --set), "
                "or give another --out folder"
            )
        if moving:
            first = min(moving)
            self._check_played_alike(first, *moving[first])
        for index, (played, _) in moving.items():
            self.save(self.spec.cells[index], played)
        for path in files:
            if int(path.stem.removeprefix("cell-")) not in moving:
                path.unlink(missing_ok=True)  # moved to its new number above
        try:
            write_atomically(self.manifest, json.dumps(identity, indent=1))
        except OSError as error:
            raise SweepStoreError(f"{self.folder}: cannot write: {error.strerror or error}") from None

    def save(self, cell: Cell, played: PlayedCell) -> None:
        # The rules too: a file read back is checked to hold its cell's games, wherever it was moved.
        # Its time and workers, so a run that reads it back reports how long the cell took, not 0 s.
        rules = variant_json(cell.variant)
        data = {
            "knobs": cell.knobs,
            "rules": rules,
            "records": [record_to_json(record) for record in played.records],
            "seconds": played.seconds,
            "workers": played.workers,
        }
        try:
            write_atomically(self.cell_path(cell.index), json.dumps(data, separators=(",", ":")))
        except OSError as error:
            raise SweepStoreError(f"{self.folder}: cannot write: {error.strerror or error}") from None

    @staticmethod
    def _read(path: Path, remedy: str = "") -> Any:
        """The JSON in ``path``, read as strictly as a save: a damaged or planted file is one line (with
        ``remedy``, what to do about it)."""
        try:
            return jsonio.loads(read_regular_file(path, MAX_STORE_BYTES))
        except FileReadError as error:
            raise SweepStoreError(f"{path}: {error}{remedy}") from None
        except jsonio.JsonInputError as error:
            where = f"{path}:{error.line}:{error.column}" if error.line else f"{path}"
            raise SweepStoreError(f"{where}: {jsonio.kind_of_fault(error)}: {error.reason}{remedy}") from None


CELL_REMEDY = "; remove it and run the same command again to play that cell again"
"""What to do about a cell file that cannot be read back: the other cells are kept."""


def _only_cells_differ(saved: Any, wanted: dict[str, Any]) -> bool:
    """Whether a saved sweep is this one but for its grid: its cells can then be reused."""
    if not isinstance(saved, dict) or not isinstance(saved.get("cells"), list):
        return False
    if not all(isinstance(cell, dict) and isinstance(cell.get("rules"), dict) for cell in saved["cells"]):
        return False
    # A cell of the same knobs under other rules: the variant or --set changed, not the grid.
    rules = {_key(cell["knobs"]): cell["rules"] for cell in wanted["cells"]}
    if any(rules.get(_key(cell.get("knobs")), cell["rules"]) != cell["rules"] for cell in saved["cells"]):
        return False
    return {**saved, "cells": None} == {**wanted, "cells": None}


def _played_under(data: Any, manifest_cell: Any) -> Any:
    """The rules a cell file's games were played under: its own record of them, or (a file saved before
    cells named their rules) those of the manifest's cell of its number, if the knobs agree."""
    if not isinstance(data, dict):
        return None
    if "rules" in data:
        return data["rules"]
    if isinstance(manifest_cell, dict) and data.get("knobs", manifest_cell.get("knobs")) == manifest_cell.get(
        "knobs"
    ):
        return manifest_cell.get("rules")
    return None


def _count(value: Any, whole: bool) -> bool:
    """Whether a cell file's seconds (any number) or workers (``whole``) can be taken: a number, not
    true/false, not negative (the JSON reader refuses an endless one)."""
    number = is_whole_number(value) or (not whole and isinstance(value, float))
    return number and value >= 0


def _key(rules: Any) -> str:
    return json.dumps(rules, sort_keys=True)


def _label(knobs: dict[str, Any]) -> str:
    return ", ".join(f"{knob}={_scalar(value)}" for knob, value in knobs.items()) or "as given"


def _first_difference(saved: dict[str, Any], wanted: dict[str, Any]) -> str:
    for key, value in wanted.items():
        there = saved.get(key)
        if key not in saved:
            return f"no {key} there"
        if there != value:
            if key == "cells":
                return _cells_difference(there, value)
            if key == "bots" and isinstance(there, list):
                return f"bots {_bots(there)} there, {_bots(value)} here"
            return f"{key} {json.dumps(there)} there, {json.dumps(value)} here"  # "1" there is not 1
    return "other settings"


def _bots(bots: list[Any]) -> str:
    return ",".join(str(bot) for bot in bots)


def _cells_difference(saved: Any, wanted: list[dict[str, Any]]) -> str:
    """Which knob differs: an edited variant file changes every cell's rules, and the folder should say so."""
    if not isinstance(saved, list) or len(saved) != len(wanted):
        count = len(saved) if isinstance(saved, list) else "no"
        return f"{count} cells there, {len(wanted)} here"
    for there, here in zip(saved, wanted, strict=True):
        if not isinstance(there, dict):
            break
        for part in ("knobs", "rules"):
            old, new = there.get(part), here[part]
            if old == new:
                continue
            if not isinstance(old, dict):
                break
            if part == "knobs" and list(old) != list(new):
                return f"a grid of {', '.join(old) or 'nothing'} there, of {', '.join(new) or 'nothing'} here"
            knob = next((name for name in {**old, **new} if old.get(name) != new.get(name)), None)
            if knob is not None:
                return f"{knob} {_scalar(old.get(knob))} there, {_scalar(new.get(knob))} here"
    return "other cells or rules"


def _scalar(value: Any) -> str:
    """A knob's value as a cell's label writes it (``true``), or "nothing" where one side has none."""
    return "nothing" if value is None else knob_text(value)
