"""``kalooki host --resume SAVE``: a hosted table read back from its save, its log going on as before."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from kalooki.errors import KalookiError
from kalooki.text import escape_controls

from . import save_lock
from .host_thread import NetUnavailable

if TYPE_CHECKING:
    from kalooki_net.table import Table
    from rich.console import Console

    from .continue_log import ContinuedLog


def reopened_table(
    path: Path, log: Path | None, *, no_log: bool, wait: float | None = None
) -> tuple[Table, ContinuedLog | None]:
    """The table saved at ``path``, held by this process (:mod:`.save_lock`), and the log it goes on writing.

    ``log`` and ``no_log``: ``--log`` and ``--no-log``, as :func:`~.continue_log.resumed_log` takes them;
    ``wait``: ``--wait`` where given (else the save's).
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
        table = Table.resume(text, wait_seconds=wait)
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


def tell_continued_log(console: Console, continued: ContinuedLog) -> None:
    shown = escape_controls(str(continued.path))  # a tab in its name is spelled, as elsewhere
    console.print(Text(f"Its log goes on, as before, in {shown}", style="dim"), soft_wrap=True)
    if continued.note:  # cut back to the save: what was dropped
        console.print(Text(escape_controls(continued.note), style="bold"), soft_wrap=True)


__all__ = ["reopened_table", "tell_continued_log"]
