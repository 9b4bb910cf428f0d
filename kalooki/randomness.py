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
    pick = choice(rng, range(mask.bit_count()))
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
    # A pick from 0 to last draws last + 1's bit length; a draw over last is drawn again.
    for last, bits in _shuffle_steps(len(items)):
        pick = getrandbits(bits)
        while pick > last:
            pick = getrandbits(bits)
        items[last], items[pick] = items[pick], items[last]


def draw_as_shuffles(rng: random.Random, length: int, times: int) -> None:
    """Draw from ``rng`` what ``times`` calls of :func:`shuffle` on ``length`` items draw, without the items:
    for a caller that has no use for the orders but must leave the generator where they would."""
    if type(rng) is not random.Random:
        for _ in range(times):
            rng.shuffle(list(range(length)))
        return
    getrandbits = rng.getrandbits
    steps = _shuffle_steps(length)
    for _ in range(times):
        for last, bits in steps:
            while getrandbits(bits) > last:
                pass


def _shuffle_steps(length: int) -> tuple[tuple[int, int], ...]:
    """The last places of a shuffle of ``length`` items, from the end, each beside the bit length its
    picks are drawn with: worked out once per length (the loop then does no arithmetic of its own)."""
    steps = _SHUFFLE_STEPS.get(length)
    if steps is None:
        steps = tuple((last, (last + 1).bit_length()) for last in range(length - 1, 0, -1))
        if length <= _LENGTHS_KEPT:
            _SHUFFLE_STEPS[length] = steps
    return steps


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}
_LENGTHS_KEPT = 1024
"""Shuffles of up to this many items keep their steps (a pack, a bot's candidate melds)."""
