"""``kalooki resume FILE --log LOG.jsonl``: a resumed game goes on writing the log it was started with.

A log is replayed from its first deal, so a resumed game cannot start a new one: it must
continue the log of the same game. The log is checked first, all of it (it must replay
through the engine and end in exactly the saved state), so a log that belongs to another
game, or that was cut short, is refused before any play and left as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kalooki.engine import Game
from kalooki.log import GameRecorder, ReplayError, replay, state_digest

from .interactive import TurnLogWriter
from .replay_commands import read_records
from .saves import write_atomically


class ContinuedLog(TurnLogWriter):
    """A :class:`TurnLogWriter` that appends to an existing log of the same game.

    When the game was saved in the middle of a turn, the melds, builds and swaps made since
    the draw can still be undone: their records are taken back out of the file and held, as
    they were before the game stopped, until the turn's discard.
    """

    def __init__(self, game: Game, path: Path, records: Sequence[dict[str, Any]]) -> None:
        keep = len(records)
        if game.phase == "play" and game.can_undo():
            keep = max(index for index, record in enumerate(records) if record.get("type") == "draw") + 1
        self.path = path
        self.recorder = GameRecorder(game)
        self.recorder.records = list(records)
        self.pending = [dict(record) for record in records[keep:]]
        if self.pending:
            lines = "".join(self.line(record) for record in records[:keep])
            write_atomically(path, lines)


def continue_log(game: Game, path: Path) -> ContinuedLog:
    """The writer that continues ``path``, the log of ``game`` up to its saved state; or ReplayError."""
    if not path.exists():
        raise ReplayError(
            f"{path}: no such log; a log runs from the game's first deal, so a resumed game can only "
            "continue the log it was started with (kalooki play --log FILE.jsonl)"
        )
    records = read_records(path)
    try:
        replay(records)
    except ReplayError as error:
        raise ReplayError(f"{path}: cannot continue this log: {error}") from None
    digests = [record["state"] for record in records if "state" in record]
    if not digests or digests[-1] != state_digest(game):
        raise ReplayError(
            f"{path}: this log does not end where the save does: it is the log of another game, "
            "or of this game at another point"
        )
    return ContinuedLog(game, path, records)
