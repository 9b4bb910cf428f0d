"""The seat tokens ``kalooki join`` keeps, with what cannot be kept said in one line, never raised; which
kept seat a join takes back, and what a table's refusal of it leaves the player to do.

A token that cannot be written (a full disk, ``KALOOKI_HOME`` a file) must not end the join in a
traceback: the table has given the seat by then, and would hold it, dropped, against its player. The
game goes on in this process; only a rejoin once it has started needs the token (docs/protocol.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from kalooki.text import escape_controls, name_key

from .common import print_error
from .saves import file_in_the_way

if TYPE_CHECKING:
    from kalooki_net.client import KeptSeat, TableConnectionError, TokenStore


def token_store(folder: Path) -> TokenStore:
    """The tokens kept in ``folder``, a token it cannot keep said on standard error.

    A file where the folder goes is said at once, before a seat is taken, in the words ``kalooki saves``
    uses for its own folder; the token is then not said again when it fails the same way.
    """
    from kalooki_net.client import UNKEPT, TokenStore

    blocked = file_in_the_way(folder, "the seats it joined")
    if blocked is not None:
        print_error(f"{blocked}: this seat's token cannot be kept; {UNKEPT}")
    return TokenStore(folder, tell=print_error if blocked is None else None)


def kept_seat(seats: list[KeptSeat], name: str | None) -> KeptSeat | None:
    """The kept seat ``--name`` names (none: the only one kept), or None to sit down anew."""
    if name is not None:
        # Its own name first: a file from before look-alike names collided may keep seats for both ann and
        # аnn (Cyrillic а), and each still takes back its own.
        exact = next((kept for kept in seats if kept.name == name), None)
        return exact or next((kept for kept in seats if name_key(kept.name) == name_key(name)), None)
    if len(seats) > 1:
        names = " and ".join(escape_controls(kept.name) for kept in seats)
        raise typer.BadParameter(
            f"this account keeps seats at that table for {names}: say whose with --name",
            param_hint="'--name'",
        )
    return seats[0] if seats else None


def refusal(
    error: TableConnectionError, kept: KeptSeat | None, seats: list[KeptSeat]
) -> TableConnectionError:
    """The table's refusal of a join, with what to do where its own words do not say it."""
    from kalooki_net.client import TableConnectionError

    if error.code == "seat_in_use" and kept is not None:
        return TableConnectionError(
            f"seat {kept.seat + 1} ({escape_controls(kept.name)}) is still held by another connection: quit "
            "the kalooki join that holds it; if that one stopped answering, the table lets it go within half "
            "a minute: try again then",
            code=error.code,
        )
    if error.code in ("started", "table_full") and kept is None and seats:
        # The seats this account keeps there may be another's who shares it: not "your seat" to a newcomer.
        names = " or ".join(f"--name {escape_controls(seat.name)}" for seat in seats)
        back = f"if you had a seat there, it comes back with {names}"
        return TableConnectionError(f"{error}; {back}", code=error.code)
    if error.code in NEXT_TRY:  # the table's words say what is wrong; a terminal's player also reads the fix
        return TableConnectionError(f"{error}; {NEXT_TRY[error.code]}", code=error.code)
    return error


NEXT_TRY = {
    "name_taken": "join again with another --name",
    "bad_code": "check the code the host's screen shows (--code), or the address, if that is another table",
}
"""What a player refused with these codes types next (the browser's page asks it on its own)."""


__all__ = ["kept_seat", "refusal", "token_store"]
