"""The seat tokens ``kalooki join`` keeps, with what cannot be kept said in one line, never raised.

A token that cannot be written (a full disk, ``KALOOKI_HOME`` a file) must not end the join in a
traceback: the table has given the seat by then, and would hold it, dropped, against its player. The
game goes on in this process; only a rejoin once it has started needs the token (docs/protocol.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .common import print_error
from .saves import file_in_the_way

if TYPE_CHECKING:
    from kalooki_net.client import TokenStore


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


__all__ = ["token_store"]
