"""Picks and shuffles are the library's: the same results from the same draws.

:func:`kalooki.randomness.choice` and :func:`~kalooki.randomness.shuffle` write out what
``random.Random.choice`` and ``shuffle`` do, for speed; the games stay the same only while every pick,
every order and the generator's state after them are the library's.
"""

from __future__ import annotations

import random

import pytest

from kalooki.randomness import choice, choice_of_bits, draw_as_shuffles, shuffle


@pytest.mark.parametrize("seed", range(5))
def test_picks_and_shuffles_are_the_librarys_and_leave_the_same_state(seed: int) -> None:
    ours, library = random.Random(seed), random.Random(seed)
    # Sizes across powers of two, where the draws' bit counts change and rejections are most likely.
    for size in [*range(1, 70), 127, 128, 129, 1000, 2000]:
        items = list(range(size))
        assert choice(ours, items) == library.choice(items)
        mine, theirs = items[:], items[:]
        shuffle(ours, mine)
        library.shuffle(theirs)
        assert mine == theirs
        assert ours.getstate() == library.getstate()


@pytest.mark.parametrize("seed", range(5))
def test_a_pick_of_a_masks_bits_is_the_librarys_choice_of_the_listed_bits(seed: int) -> None:
    ours, library, masks = random.Random(seed), random.Random(seed), random.Random(seed + 100)
    # Masks of card codes (up to the joker's bit 52) and wider, with every count of bits up to 70.
    for count in [*range(1, 71), 1, 2, 3]:
        for _ in range(20):
            places = masks.sample(range(max(53, count)), count)
            mask = sum(1 << place for place in places)
            assert choice_of_bits(ours, mask) == library.choice(sorted(places))
            assert ours.getstate() == library.getstate()


@pytest.mark.parametrize("seed", range(3))
def test_drawing_as_shuffles_leaves_the_state_shuffles_leave(seed: int) -> None:
    ours, library = random.Random(seed), random.Random(seed)
    for size in [0, 1, 2, 3, 5, 8, 9, 17, 33, 106, 2000]:
        for times in (1, 5):
            draw_as_shuffles(ours, size, times)
            for _ in range(times):
                library.shuffle(list(range(size)))
            assert ours.getstate() == library.getstate()


def test_an_empty_choice_is_refused_and_another_generator_is_asked_itself() -> None:
    with pytest.raises(IndexError):
        choice(random.Random(0), [])
    with pytest.raises(IndexError):
        choice_of_bits(random.Random(0), 0)

    class Counting(random.Random):
        calls = 0

        def choice(self, seq):  # type: ignore[no-untyped-def]
            Counting.calls += 1
            return super().choice(seq)

        def shuffle(self, x):  # type: ignore[no-untyped-def]
            Counting.calls += 1
            super().shuffle(x)

    counting = Counting(3)
    choice(counting, [1, 2, 3])
    shuffle(counting, [1, 2, 3])
    assert Counting.calls == 2
    assert choice_of_bits(counting, 0b10110) in (1, 2, 4)
    assert Counting.calls == 3
    draw_as_shuffles(counting, 4, 2)
    assert Counting.calls == 5
