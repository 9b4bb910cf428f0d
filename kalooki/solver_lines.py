"""The solver's lines of run positions: which of a suit's ranks can be in a run, and the stretches of
ranks that can hold one with some jokers, worked out once per variant's run rules for every suit's
ranks (see :mod:`kalooki.solver_candidates`, which keeps its lists by them).

A run position is a rank on a line: 1 is the ace below the two, 14 the ace above the king; wrap-around
runs use the line unrolled three times (positions 1..39, rank (p - 1) % 13 + 1).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

_SUIT: Final = (1 << 13) - 1


def _line(mask: int, wrap: bool, lowest: int, highest: int) -> int:
    if wrap:
        return (mask | mask << 13 | mask << 26) << 1
    line = mask << 1
    if mask & 1:
        if highest == 14:
            line |= 1 << 14
        if lowest > 1:
            line &= ~2
    return line


def _in_runs(line: int, run_min: int) -> int:
    """The ranks (bit r-1 for rank r) at positions of ``line`` that lie in ``run_min`` or more
    consecutive taken positions: the cards of some run without jokers."""
    starts = line
    for step in range(1, run_min):
        starts &= line >> step
    covered = starts
    for step in range(1, run_min):
        covered |= starts << step
    # Position p is rank (p - 1) % 13 + 1; the line is at most three times thirteen positions long.
    return (covered >> 1 | covered >> 14 | covered >> 27) & _SUIT


@lru_cache(maxsize=64)
def _run_part_table(wrap: bool, lowest: int, highest: int, run_min: int) -> tuple[int, ...]:
    """For each suit's ranks (bit r-1 for rank r), those in a run without jokers (0: none).

    The cards in no such run change nothing about the runs a suit holds without jokers (they
    split no stretch of run_min or more), so runs are listed and kept by these ranks alone, which
    far fewer suits differ in than in all their ranks."""
    return tuple(_in_runs(_line(mask, wrap, lowest, highest), run_min) for mask in range(1 << 13))


def _near(line: int, reach: int) -> int:
    """The ranks at positions of ``line`` with another taken position at most ``reach`` away."""
    near = 0
    for step in range(1, reach + 1):
        near |= line & (line >> step | line << step)
    return (near >> 1 | near >> 14 | near >> 27) & _SUIT


def _stretches(line: int, reach: int, fewest: int) -> tuple[int, ...]:
    """The ranks of each stretch of ``line`` (taken positions each at most ``reach`` from the
    next), lowest first: those of two positions or more and at least ``fewest`` ranks."""
    found: list[int] = []
    part = count = 0
    last = -reach - 1
    while line:
        position = (line & -line).bit_length() - 1
        line &= line - 1
        if position - last > reach:
            if count > 1 and part.bit_count() >= fewest:
                found.append(part)
            part = count = 0
        part |= 1 << (position - 1) % 13
        count += 1
        last = position
    if count > 1 and part.bit_count() >= fewest:
        found.append(part)
    return tuple(found)


@lru_cache(maxsize=64)
def _stretch_table(
    wrap: bool, lowest: int, highest: int, reach: int, fewest: int
) -> tuple[tuple[int, ...], ...]:
    """For each suit's ranks (bit r-1 for rank r), the ranks of each stretch that can hold a run
    with ``reach - 1`` jokers (fewer than a set's most cards), lowest first.

    With fewer jokers than a set's most cards, a run holds two naturals or more (one natural
    with jokers reads as a set), and the jokers fill at most their number of gaps between two
    naturals: so a run's naturals lie in one stretch of positions each within jokers + 1 of the
    next. Listing each stretch's ranks alone lists its runs as the whole suit lists them, and the
    stretches one after another list the whole suit's runs in its order: its frames start at one
    position after another, and a frame never reaches from one stretch to the next. (An ace in two
    stretches, low and high, is alone at its other end in each, and one natural makes no run
    here.) Stretches repeat across hands far more than whole suits, so runs are kept by stretch.
    A stretch of fewer than ``fewest`` ranks holds no run. With wrap, the suit's ranks near another
    are one stretch (the line there is unrolled, and a stretch may go round)."""
    if wrap:
        near = (_near(_line(mask, wrap, lowest, highest), reach) for mask in range(1 << 13))
        return tuple((part,) if part and part.bit_count() >= fewest else () for part in near)
    return tuple(_stretches(_line(mask, wrap, lowest, highest), reach, fewest) for mask in range(1 << 13))
