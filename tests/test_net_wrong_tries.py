"""The host's count of wrong join codes and seat tokens by address: what it holds off, and what it forgets."""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

from kalooki_net.admission import MAX_WRONG_TRIES, WRONG_TRIES_WINDOW, WrongTries


def test_addresses_whose_tries_no_longer_count_are_forgotten() -> None:
    # Each address that ever guessed stayed in the count for the life of the table: a guesser with many
    # addresses (an IPv6 network) grew the host's memory without bound, a guess at a time.
    now = [0.0]
    tries = WrongTries(clock=lambda: now[0])
    for guess in range(1000):
        tries.wrong(f"2001:db8::{guess:x}")
        now[0] += 1.0
    # Only the addresses of the last window's tries are kept, however many guessed before.
    assert len(tries.tries) == int(WRONG_TRIES_WINDOW)
    assert "2001:db8::0" not in tries.tries
    # An address that goes on guessing is still held off, whatever the others do.
    for _ in range(MAX_WRONG_TRIES):
        tries.wrong("192.0.2.7")
    now[0] += WRONG_TRIES_WINDOW - 1
    tries.wrong("192.0.2.8")
    assert tries.held_off("192.0.2.7") == pytest.approx(1.0)
    assert tries.refusal("192.0.2.7") is not None
    now[0] += 1
    assert tries.refusal("192.0.2.7") is None
