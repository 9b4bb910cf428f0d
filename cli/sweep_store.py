"""``kalooki sweep --out DIR``: each finished cell saved as it completes, read back to resume.

The folder holds ``sweep.json`` (what the sweep plays: bots, games, seed, caps and every
cell's full rules) and ``cells/cell-NNN.json`` (one finished cell's games). Each file is
written atomically, so a crash or Ctrl-C leaves whole files only. Run again with the same
options, the sweep plays only the cells that have no file; run with different options, it
refuses rather than mix two sweeps' games.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kalooki import jsonio
from kalooki.errors import KalookiError
from kalooki.grid import Cell, knob_text
from kalooki.safeio import FileReadError, read_regular_file
from kalooki.simulate import GameRecord
from kalooki.sweep import SweepSpec, record_from_json, record_to_json

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

    def open(self) -> dict[int, list[GameRecord]]:
        """Check the folder holds this sweep (or nothing yet) and read the cells already finished."""
        if self.folder.exists() and not self.folder.is_dir():
            raise SweepStoreError(f"{self.folder}: is a file; --out needs a folder")
        identity = self.spec.identity()
        if self.manifest.exists():
            saved = self._read(self.manifest)
            if saved != identity:
                raise SweepStoreError(
                    f"{self.folder}: holds a different sweep ({_first_difference(saved, identity)}); "
                    "give another --out folder, or remove this one"
                )
        else:
            try:
                # The folder --out names is the sweep's own: made here, with its cells folder.
                self.cell_path(0).parent.mkdir(parents=True, exist_ok=True)
                write_atomically(self.manifest, json.dumps(identity, indent=1))
            except OSError as error:
                raise SweepStoreError(f"{self.folder}: cannot write: {error.strerror or error}") from None
        done: dict[int, list[GameRecord]] = {}
        for cell in self.spec.cells:
            path = self.cell_path(cell.index)
            if path.exists():
                data = self._read(path, CELL_REMEDY)
                try:
                    done[cell.index] = [record_from_json(item) for item in data["records"]]
                    if any(len(record.totals) != len(self.spec.bots) for record in done[cell.index]):
                        raise ValueError("games of another number of players")
                except (KeyError, TypeError, ValueError):
                    raise SweepStoreError(f"{path}: not a saved sweep cell{CELL_REMEDY}") from None
                if len(done[cell.index]) != self.spec.games:
                    raise SweepStoreError(
                        f"{path}: holds {len(done[cell.index])} games, not {self.spec.games}{CELL_REMEDY}"
                    )
        return done

    def save(self, cell: Cell, records: list[GameRecord]) -> None:
        data = {"knobs": cell.knobs, "records": [record_to_json(record) for record in records]}
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
            raise SweepStoreError(f"{where}: not JSON: {error.reason}{remedy}") from None


CELL_REMEDY = "; remove it and run the same command again to play that cell again"
"""What to do about a cell file that cannot be read back: the other cells are kept."""


def _first_difference(saved: Any, wanted: dict[str, Any]) -> str:
    if not isinstance(saved, dict):
        return "not a sweep folder"
    for key, value in wanted.items():
        there = saved.get(key)
        if there != value:
            if key == "cells":
                return _cells_difference(there, value)
            if key == "bots" and isinstance(there, list):
                return f"bots {_bots(there)} there, {_bots(value)} here"
            return f"{key} {there} there, {value} here"
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
