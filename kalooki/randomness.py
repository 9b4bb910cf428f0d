"""Random picks and shuffles written out: :meth:`random.Random.choice` and :meth:`~random.Random.shuffle`'s
results from the same draws, in fewer calls.

The library's ``choice`` and ``shuffle`` call ``Random._randbelow``, a second Python call, for every
pick. The engine shuffles the pack every hand, and the random bot picks on every action and shuffles
its candidate melds six times a turn it samples an opening: those calls cost more than the picks. For a
plain :class:`random.Random`, ``_randbelow`` draws ``getrandbits`` of the bound's bit length until the
draw is in range; that is written into the loops here, and :func:`choice_of_bits` picks a set bit of a
mask as ``choice`` picks from the list of them, without the list. Any other generator is asked itself.
The games stay the same only while every pick, every order and the generator's state after them are the
library's: ``tests/test_randomness.py`` holds them to it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """``rng.choice(items)``: the same pick from the same draws of ``rng``."""
    if type(rng) is not random.Random:
        return rng.choice(items)
    count = len(items)
    if not count:
        raise IndexError("Cannot choose from an empty sequence")
    bits = count.bit_length()
    pick = rng.getrandbits(bits)
    while pick >= count:
        pick = rng.getrandbits(bits)
    return items[pick]


def choice_of_bits(rng: random.Random, mask: int) -> int:
    """``rng.choice(codes_of(mask))``: the same pick of a set bit of ``mask`` (its place, counted from
    bit 0) from the same draws, without listing the bits first.

    A choice reads only its sequence's length and the item at the index drawn, so a range of the
    bits' count draws the same index as their list.
    """
    count = mask.bit_count()
    if type(rng) is not random.Random or not count:
        pick = choice(rng, range(count))
    else:
        # choice's draws written out here too: the random bot picks its discard this way every turn.
        bits = count.bit_length()
        pick = rng.getrandbits(bits)
        while pick >= count:
            pick = rng.getrandbits(bits)
    # Drop the ``pick`` lowest bits: the lowest one left is the pick.
    for _ in range(pick):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: the same order from the same draws of ``rng``."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for last in range(len(items) - 1, 0, -1):
        count = last + 1
        bits = count.bit_length()
        pick = getrandbits(bits)
        while pick >= count:
            pick = getrandbits(bits)
        items[last], items[pick] = items[pick], items[last]


def skip_shuffle(rng: random.Random, size: int) -> None:
    """Move ``rng`` on as :func:`shuffle` of ``size`` items does, with no items to move: the random bot's
    sampling shuffles a list it no longer reads only so that the later draws stay the same."""
    if type(rng) is not random.Random:
        rng.shuffle([None] * size)
        return
    getrandbits = rng.getrandbits
    for last in range(size - 1, 0, -1):
        bits = (last + 1).bit_length()
        while getrandbits(bits) > last:
            pass
