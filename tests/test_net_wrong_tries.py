"""The host's count of wrong join codes and seat tokens by address: what it holds off, and what it forgets."""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

from kalooki_net.admission import MAX_WRONG_TRIES, WRONG_TRIES_WINDOW, WrongTries


def test_addresses_whose_tries_no_longer_count_are_forgotten() -> None:
    # Each address that ever guessed stayed in the count for the life of the table: a guesser with many
    # addresses (an IPv6 network) grew the host's memory without bound, a guess at a time.
    # The addresses are the count's keys only, nothing is contacted: named as the loopback's and as
    # labels, never as another machine's.
    now = [0.0]
    tries = WrongTries(clock=lambda: now[0])
    for guess in range(1000):
        tries.wrong(f"guesser-{guess}")
        now[0] += 1.0
    # Only the addresses of the last window's tries are kept, however many guessed before.
    assert len(tries.tries) == int(WRONG_TRIES_WINDOW)
    assert "guesser-0" not in tries.tries
    # An address that goes on guessing is still held off, whatever the others do.
    for _ in range(MAX_WRONG_TRIES):
        tries.wrong("127.0.0.1")
    now[0] += WRONG_TRIES_WINDOW - 1
    tries.wrong("::1")
    assert tries.held_off("127.0.0.1") == pytest.approx(1.0)
    assert tries.refusal("127.0.0.1") is not None
    now[0] += 1
    assert tries.refusal("127.0.0.1") is None
