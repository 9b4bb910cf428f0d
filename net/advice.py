"""What a table tells a client that has no rules engine of its own (the browser page).

``kalooki join`` rebuilds a stand-in game from each view and words the table itself, with
the play screen's code. A browser cannot; a connection that joins with ``coach`` gets the
same words from the host instead: the ``coach`` field of each ``state``, and the answers to
``hint`` and ``rules``. The host computes them from exactly the view that seat is sent
(:func:`~kalooki_net.view.seat_view`), never from the whole game, so they can tell the seat
nothing a terminal client could not work out for itself.

The words are the terminal's, so the :class:`Advisor` is given by the program that hosts
the table (``kalooki host`` passes the play screen's, :mod:`kalooki_cli.web_coach`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from kalooki.engine import Event
from kalooki.variant import Variant


class Advisor(Protocol):
    """Words for one seat's view; every method gets that seat's view only."""

    def coach(
        self,
        view: Mapping[str, Any],
        events: Sequence[Event],
        variant: Variant,
        bots: Mapping[int, str],
        away: Mapping[int, str | None],
    ) -> dict[str, Any]:
        """The ``coach`` field of a ``state`` message (``kalooki_net.protocol.Coach``).

        ``bots``: the bots' seats, each with its bot; ``away``: the seats whose player is away, each
        with the bot that plays for them now, or None while the table still waits for them.
        """
        ...

    def suggestion(self, view: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        """The ``suggestion`` message answering ``hint``, for the seat whose turn it is."""
        ...

    def rulebook(self, variant: Variant) -> dict[str, Any]:
        """The ``rulebook`` message answering ``rules``."""
        ...


__all__ = ["Advisor"]
