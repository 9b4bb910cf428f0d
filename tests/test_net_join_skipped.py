"""A message from the table that ``kalooki join`` cannot read is skipped, and named if the join then waits
in vain: a hostile table that sent its first state as ``{"view": NaN}`` left it waiting in silence."""

from __future__ import annotations

import queue
import re
from typing import Any

import pytest

pytest.importorskip("websockets")

from kalooki_cli.lobby import SKIPPED_PATIENCE, TableClosed, receive
from kalooki_net.client import Closed, Skipped
from net_helpers import a_real_welcome_and_state, join_a_table_that_sends, welcome_of

NAN_STATE = "not JSON: NaN is not a number JSON allows"


class Inbox:
    """A connection's inbox as :func:`receive` reads it; empty, it is as a table that sends nothing more."""

    def __init__(self, *items: Any) -> None:
        self.items = list(items)
        self.waited: list[float | None] = []

    def receive(self, timeout: float | None = None) -> Any:
        self.waited.append(timeout)
        if self.items:
            return self.items.pop(0)
        assert timeout is not None, "waited for ever"
        raise queue.Empty


def test_a_skipped_message_and_nothing_since_is_named_once() -> None:
    inbox = Inbox(Skipped(NAN_STATE))
    assert receive(inbox) == {"type": "_skipped", "problem": NAN_STATE}
    assert inbox.waited == [None, SKIPPED_PATIENCE]


def test_a_skipped_message_then_a_readable_one_is_not_named() -> None:
    said = {"type": "said", "seat": 0, "name": "ann", "text": "hi"}
    assert receive(Inbox(Skipped(NAN_STATE), said)) == said


def test_a_connection_lost_after_a_skipped_message_names_it() -> None:
    with pytest.raises(TableClosed) as closed:
        receive(Inbox(Skipped(NAN_STATE), Closed("the connection to the table was lost")))
    assert closed.value.sentence() == (
        "The connection to the table was lost. "
        f"Before that it sent a message kalooki cannot read: {NAN_STATE}."
    )


def test_join_names_the_state_it_could_not_read() -> None:
    welcome = welcome_of(a_real_welcome_and_state())
    result = join_a_table_that_sends([welcome, {"type": "state", "view": float("nan")}])
    assert result.returncode == 1
    said = " ".join(result.stdout.split())
    lost = (
        "You sit at seat 2 as bob. The connection to the table was lost. "
        f"Before that it sent a message kalooki cannot read: {NAN_STATE}."
    )
    # The seat waits for its token a while: how to take it back follows.
    assert re.fullmatch(
        re.escape(lost) + r" Rejoin your seat with: kalooki join \S+ --code \w+ --name bob", said
    )
