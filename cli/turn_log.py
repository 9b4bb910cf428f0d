"""The ``--log`` of a game at the terminal: JSON lines, a turn's melds held back until they stand."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from kalooki.engine import Event, Game
from kalooki.safeio import kind_problem
from kalooki.text import escape_controls, has_controls

from .common import fail
from .output import output_problem


def refuse_a_written_log(path: Path) -> None:
    """Stop (exit 1, one line) before a game's ``--log`` writes over a file that holds something.

    A game played at the terminal cannot be played again to write its log anew: the moves typed are
    in that file only. A script's can, but the file named may be another game's log or a save.
    """
    try:
        found = path.stat()
    except OSError:
        # A link to nothing would have the log written wherever it points; one that loops, nowhere.
        problem = output_problem(path)
        if problem is not None:
            fail(f"{escape_controls(str(path))}: {problem}")
        return  # nothing there yet (a name the system refuses is named when the log is opened)
    problem = kind_problem(found.st_mode)
    if problem is not None:  # a FIFO would hold the game until something reads it; /dev/null loses it
        fail(f"{escape_controls(str(path))}: {problem}; give a new file for the game's log")
    if found.st_size > 0:
        fail(
            f"{escape_controls(str(path))}: already exists, and the log would write over it; give a new file"
        )


def refuse_one_file(log: Path | None, save: Path | None) -> None:
    """Stop (usage, exit 2) a game whose ``--log`` and ``--save`` name one file, by any path or link:
    the save, written whole after every move, would replace the log, and neither could be resumed."""
    if log is None or save is None:
        return
    with contextlib.suppress(OSError):
        if os.path.realpath(log.expanduser()) == os.path.realpath(save.expanduser()):
            raise typer.BadParameter("the log and the save must be two files", param_hint="'--log'")


def recorded_place(path: Path) -> str:
    """How a save records the log at ``path``: absolute, so a resume from another folder finds it.

    "" for a name a save cannot hold (a control character, a byte that is not UTF-8): that game's log
    is still written, only ``kalooki resume`` must then be given it with ``--log``.
    """
    place = str(path.absolute())
    try:
        place.encode("utf-8")
    except UnicodeEncodeError:
        return ""
    return "" if has_controls(place) else place


def shown_place(recorded: str) -> Path:
    """A recorded log's path as the player would write it: from the current folder when it is inside it."""
    path = Path(recorded)
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def same_place(path: Path, recorded: str) -> bool:
    """Whether ``path`` is the log a save records (the same file, however it was named)."""
    try:
        return path.samefile(recorded)
    except OSError:
        return str(path.absolute()) == recorded


class TurnLogWriter:
    """Writes ``--log`` records as JSON lines, holding back a turn's melds until they can no longer be undone.

    Records are made as a script's log makes them: one :meth:`GameRecorder.record` call for
    each call into the engine (a bot's whole turn counts as one), so the last event of each
    carries the digest of the state it led to, and lines are compact JSON. A replay must see
    only what stood, so the records of melds, builds and swaps wait in ``pending`` until the
    turn's discard (or the end of the hand); ``undo`` drops them.
    """

    note = ""
    """What was done to the log before it went on (a resumed log cut back to its save), to be said."""

    def __init__(self, game: Game, path: Path) -> None:
        from kalooki.log import GameRecorder

        self.path = path
        self.recorder = GameRecorder(game)
        self.pending: list[dict[str, Any]] = []
        self.failure: str | None = None
        """Why the log could not be written (None while it is): from then on it is not written at all."""
        self.identity: tuple[int, int, int] | None = None
        """The log file's (device, inode, size) once written: a log deleted or replaced is not written
        anew (the size too, as a file made in its place may be given the inode the log had)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self.failure = f"{path}: cannot write the log: {error.strerror or error}"
            return
        self._write(self.recorder.records, mode="w")

    def _write(self, records: Sequence[dict[str, Any]], mode: str = "a") -> None:
        """Append ``records`` (``mode`` "w": start the file); a failure is kept in :attr:`failure`.

        A record cut short, or missing, would leave a log that no longer replays: once one write fails,
        the log stops (its callers say so once, and the save then records the game as going on without
        it), rather than go on with a hole in it. The file is appended to only if it is still the one
        this game started: a log deleted in mid-game is not made again without its first record.
        """
        if self.failure is not None:
            return
        shown = str(self.path)  # escaped where it is shown
        data = "".join(self.line(record) for record in records).encode("utf-8")
        flags = os.O_WRONLY | (os.O_CREAT | os.O_TRUNC if mode == "w" else os.O_APPEND)
        try:
            descriptor = os.open(self.path, flags, 0o666)
        except FileNotFoundError:
            self.failure = f"{shown}: the log is gone (deleted, or its folder was); it is not made again"
            return
        except OSError as error:
            self.failure = f"{shown}: cannot write the log: {error.strerror or error}"
            return
        try:
            found = os.fstat(descriptor)
            if self.identity is not None and (found.st_dev, found.st_ino, found.st_size) != self.identity:
                self.failure = f"{shown}: the log was replaced by another file; it is not written into"
                return
            view = memoryview(data)
            while view:  # a short write (a disk nearly full) is gone on with, or fails with its reason
                view = view[os.write(descriptor, view) :]
            self.identity = (found.st_dev, found.st_ino, found.st_size + len(data))
        except OSError as error:
            self.failure = f"{shown}: cannot write the log: {error.strerror or error}"
        finally:
            os.close(descriptor)

    @staticmethod
    def line(record: dict[str, Any]) -> str:
        return json.dumps(record, separators=(",", ":")) + "\n"

    def hold(self, game: Game, events: Sequence[Event]) -> None:
        """A human's action, recorded now (with this state's digest), written once it cannot be undone."""
        self.pending.extend(self.recorder.record(game, events))
        if game.phase != "play":
            self.flush()

    def write(self, game: Game, events: Sequence[Event]) -> None:
        """Events that stand at once: a draw, a bot's whole turn, a deal."""
        self.flush()
        self._write(self.recorder.record(game, events))

    def undo(self) -> None:
        if self.pending:
            del self.recorder.records[-len(self.pending) :]
            self.pending = []

    def flush(self) -> None:
        if self.pending:
            self._write(self.pending)
            self.pending = []


__all__ = ["TurnLogWriter", "recorded_place", "same_place", "shown_place"]
