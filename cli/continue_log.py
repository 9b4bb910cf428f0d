"""``kalooki resume FILE [--log FILE.jsonl]``: a resumed game goes on writing the log it was started with.

A log is replayed from its first deal, so a resumed game cannot start a new one: it must
continue the log of the same game. The log is checked first, all of it (it must replay
through the engine and end in exactly the saved state), so a log that belongs to another
game, or that was cut short, is refused before any play and left as it was.

The save remembers its game's log (:attr:`~kalooki.savegame.Session.log`), so ``kalooki resume
FILE`` goes on writing it without being told: a resume that forgot ``--log`` would otherwise play
moves that no log holds, and the log could never be continued again. A log that is gone or no
longer ends where the save does stops the resume, with what to do; only ``--no-log`` plays on
without it, and the save then remembers which log was left behind, and why.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kalooki.engine import Game
from kalooki.errors import KalookiError
from kalooki.log import GameRecorder, ReplayError, replay, state_digest
from kalooki.text import escape_controls

from . import save_lock
from .interactive import TurnLogWriter
from .replay_commands import CutOffLog, read_records
from .saves import write_atomically
from .turn_log import recorded_place, same_place, shown_place


class LogPastSave(ReplayError):
    """The log passes through the saved state and goes on: its refusal says how to go on already."""


class ContinuedLog(TurnLogWriter):
    """A :class:`TurnLogWriter` that appends to an existing log of the same game.

    When the game was saved in the middle of a turn, the melds, builds and swaps made since
    the draw can still be undone: their records are taken back out of the file and held, as
    they were before the game stopped, until the turn's discard.
    """

    def __init__(
        self, game: Game, path: Path, records: Sequence[dict[str, Any]], *, cut: bool = False
    ) -> None:
        """``cut``: the file holds more than ``records`` (a move past the save, a line cut off), to be
        cut back to them whatever the turn."""
        keep = len(records)
        if game.phase == "play" and game.can_undo():
            keep = max(index for index, record in enumerate(records) if record.get("type") == "draw") + 1
        self.path = path
        self.recorder = GameRecorder(game)
        self.recorder.records = list(records)
        self.pending = [dict(record) for record in records[keep:]]
        self.failure = None
        if self.pending or cut:
            lines = "".join(self.line(record) for record in records[:keep])
            try:
                write_atomically(path, lines)
            except OSError as error:
                raise ReplayError(
                    f"{path}: cannot cut the log back to the save: {error.strerror or error}"
                ) from None
        found = path.stat()  # the file the game goes on writing: one put in its place is not written into
        self.identity = (found.st_dev, found.st_ino, found.st_size)


def continue_log(game: Game, path: Path, left: str = "") -> ContinuedLog:
    """The writer that continues ``path``, the log of ``game`` up to its saved state; or ReplayError.

    ``left``: the log the save records the game went on without (``--no-log``), for the refusal of it.
    """
    if not os.path.exists(path):  # False, not OSError, for a name too long for the system
        raise ReplayError(
            f"{path}: no such log; a log runs from the game's first deal, so a resumed game can only "
            "continue the log it was started with (kalooki play --log FILE.jsonl)"
        )
    save_lock.hold_log(path)  # before it is read: another game may be writing it
    dropped: list[str] = []
    try:
        records = read_records(path)
    except CutOffLog as error:  # a kill or a full disk while a line was written: it never stood
        records = error.records
        dropped.append("ended in a line cut off (the game stopped while writing it)")
    try:
        summary = replay(records)
    except ReplayError as error:
        raise ReplayError(f"{path}: cannot continue this log: {error}") from None
    # Where the whole log leads, not the last record that says its state: a record after it (a bot's
    # draw, a line added by hand) would take the game on past the save, and the moves written next
    # would then never replay.
    saved = state_digest(game)
    at_save = one_move_past(records, saved)
    if summary.state != saved and at_save is not None:
        records = records[:at_save]
        dropped.insert(0, "went on 1 move past the save (the game stopped between the two writes)")
    elif summary.state != saved:
        if left and same_place(path, left):
            raise ReplayError(
                f"{path}: this log stops {summary.ends}, where the game went on without it (resumed with "
                "--no-log, or the log could not be written): the moves since are in no log, so it cannot "
                "be continued"
            )
        if any(record.get("state") == saved for record in records):
            raise LogPastSave(
                f"{path}: this log goes on past the save (it stops {summary.ends}): the moves played "
                "from the save would not replay after it; give a log that ends where the save does "
                "with --log FILE.jsonl, or play on without one with --no-log"
            )
        raise ReplayError(
            f"{path}: this log does not end where the save does: it is the log of another game, "
            "or of this game at another point"
        )
    writer = ContinuedLog(game, path, records, cut=bool(dropped))
    if dropped:
        writer.note = f"{path} {' and '.join(dropped)}: cut back to the save"
    return writer


def one_move_past(records: Sequence[dict[str, Any]], saved: str) -> int | None:
    """How many of ``records`` lead to the state ``saved``, where the rest are one move past it; else None.

    A move is logged before it is saved: a game stopped between the two writes leaves its log one
    engine call (one record with a state, the last) past its save. Further than that, the save was not
    written for a while (a full disk): those moves are not dropped, the resume is refused.
    """
    for index in range(len(records) - 1, -1, -1):
        if records[index].get("state") == saved:
            break
    else:
        return None
    past = records[index + 1 :]
    if [record for record in past if "state" in record] != past[-1:]:
        return None
    try:  # the records up to it must replay to the save (a record before it may have been edited)
        reached = replay(records[: index + 1]).state
    except ReplayError:
        return None
    return index + 1 if reached == saved else None


def resumed_log(
    game: Game, recorded: str, left: str, given: Path | None, *, no_log: bool, unnamed: bool, save: Path
) -> tuple[ContinuedLog | None, str, str, bool]:
    """The log a resumed game goes on writing: ``given`` (``--log``), else ``recorded``, its save's.

    With it, the log and the log left behind as the save is to record them from now on, and whether
    the log has a name the save cannot hold (``unnamed``, :attr:`~kalooki.savegame.Session.log_unnamed`):
    ``--no-log`` plays on without the log, noted as left so that its refusal can say why. The save's own
    log, gone, no longer ending where the save does, or unnamed, is a KalookiError that says how to go
    on: its place with ``--log``, or ``--no-log`` (``save``: the save it is named in).
    """
    if game.game_over:
        return None, recorded, left, unnamed
    if no_log:
        return None, "", recorded or left, False
    if given is not None:
        writer = continue_log(game, given.expanduser(), left)
    elif unnamed:
        raise ReplayError(
            f"{escape_controls(str(save))}: this game is logged to a file whose name a save cannot hold "
            "(a control character): give the log with --log FILE.jsonl, or play on without it with --no-log"
        )
    elif not recorded:  # never logged, or left behind: as a save from before saves recorded their log
        return None, "", left, False
    else:
        writer = continue_recorded(game, recorded)
    place = recorded_place(writer.path)
    return writer, place, "", not place


def continue_recorded(game: Game, recorded: str) -> ContinuedLog:
    path = shown_place(recorded)
    if not os.path.exists(path):  # False, not OSError, for a name too long for the system
        raise ReplayError(
            f"{path}: this game's log is not there; it was written up to the save: give its new place "
            "with --log FILE.jsonl, or play on without a log with --no-log"
        )
    try:
        return continue_log(game, path)
    except (LogPastSave, save_lock.LogInUse):
        raise
    except KalookiError as error:
        raise ReplayError(f"{error}; to play on without it, resume with --no-log") from None


def refuse_both(log: Path | None, no_log: bool) -> None:
    """``--log FILE`` and ``--no-log`` together: a usage error (exit 2)."""
    if log is not None and no_log:
        import typer

        raise typer.BadParameter("give --log FILE.jsonl or --no-log, not both", param_hint="'--no-log'")
