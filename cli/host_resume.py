"""``kalooki host --resume SAVE``: a hosted table read back from its save, its log going on as before."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kalooki.errors import KalookiError

from . import save_lock
from .host_thread import NetUnavailable

if TYPE_CHECKING:
    from kalooki_net.table import Table

    from .continue_log import ContinuedLog


def reopened_table(path: Path, log: Path | None, *, no_log: bool) -> tuple[Table, ContinuedLog | None]:
    """The table saved at ``path``, held by this process (:mod:`.save_lock`), and the log it goes on writing.

    ``log`` and ``no_log``: ``--log`` and ``--no-log``, as :func:`~.continue_log.resumed_log` takes them.
    """
    from kalooki_net.table import Table

    from kalooki.file_kinds import MAX_SAVE_BYTES
    from kalooki.safeio import FileReadError, read_regular_file

    from .continue_log import resumed_log
    from .wrong_file import what_it_is

    save_lock.hold(path)  # before it is read: another kalooki may be playing it, and saving it
    try:  # a FIFO or /dev/zero is refused by name, not read for ever
        text = read_regular_file(path, MAX_SAVE_BYTES)
    except FileReadError as error:
        raise NetUnavailable(f"{path}: cannot read the save: {error}") from None
    try:
        table = Table.resume(text)
    except KalookiError as error:
        # A log, a game script or a variant given by mistake is named, not called a damaged save.
        raise NetUnavailable(f"{path}: {what_it_is(path, 'save', hosting=True) or error}") from None
    if table.game is not None and table.game.game_over:
        # Opened, it would wait for a start that cannot deal: a game over is over, as resume says.
        raise NetUnavailable(f"{path}: that game is over; open a new table with: kalooki host")
    # The table's log goes on as a terminal game's does (its save records it); checked before it opens.
    continued, table.log_place, table.log_left, table.log_unnamed = resumed_log(
        table.require_game(),
        table.log_place,
        table.log_left,
        log,
        no_log=no_log,
        unnamed=table.log_unnamed,
        save=path,
    )
    table.log = continued
    return table, continued


__all__ = ["reopened_table"]
