"""The best opening of a hand without jokers, by a small search over its new melds.

Without jokers the candidates are few (the sets of three or four suits of a rank, and the windows
along a suit's consecutive cards), so a depth-first search over them answers in a fraction of the
general solver's time. The greedy bot asks it before :func:`kalooki.solver.best_opening`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from kalooki.cards import JOKER, Card, rank_points
from kalooki.melds import RUN_MAX, SUIT_COUNT
from kalooki.rules import SMALLEST_MELD, opening_points, run_frame, suits_must_differ
from kalooki.variant import Variant
from kalooki.variant_memo import PerVariant


def _opening_candidates(
    hand: Sequence[Card], variant: Variant
) -> tuple[dict[Card, int], list[tuple[tuple[Card, ...], int]]]:
    """A joker-free hand's card counts and every new meld it can lay with its points, best first.

    Sets of three or four suits of a rank, and every window of at least ``run_minimum`` along a
    suit's consecutive cards, written as make_meld reads them (runs low to high, an ace above
    the king last): each rank's sets and each suit's windows read from the variant's
    :class:`_Candidates` by what the hand holds there.
    """
    counts: dict[Card, int] = {}
    # Beside the counts, the suits held of each rank and the run positions held of each suit
    # (an ace at both ends): the tables are read by these, and what holds nothing is skipped.
    rank_suits = [0] * 13
    suit_runs = [0] * 4
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
        rank_suits[card % 13] |= _SUIT_BIT[card]
        suit_runs[card // 13] |= _POSITION_BITS[card]
    tables = _candidates_of(variant)
    found: list[tuple[tuple[Card, ...], int]] = []
    for index in range(13):
        held = rank_suits[index]
        if _SUITS_HELD[held] >= SMALLEST_MELD:
            found += tables.sets[index][held]
    size, span = tables.size, tables.span
    for suit in range(4):
        positions = suit_runs[suit] & span
        if positions.bit_count() >= size:  # else no stretch of ``size`` consecutive cards fits
            found += tables.runs(suit, positions)
    found.sort(key=_points, reverse=True)  # stable, as a sort on the negated points
    return counts, found


_points = itemgetter(1)

_Candidate = tuple[tuple[Card, ...], int]


class _Candidates:
    """One variant's candidate melds: each rank's sets by the suits held of it, each suit's run windows
    by its run positions held (found on first ask: a hand changes by a card a turn, so they recur)."""

    __slots__ = ("_points", "_runs", "highest", "lowest", "sets", "size", "span")

    def __init__(self, variant: Variant) -> None:
        self.sets = [[_rank_sets(index, held, variant) for held in range(16)] for index in range(13)]
        frame = run_frame(variant)
        starts, self.size = frame.window_starts(), frame.minimum
        self.lowest, self.highest = starts[0], starts[-1] + self.size - 1
        self.span = ((1 << (self.highest + 1)) - 1) ^ ((1 << self.lowest) - 1)
        self._points = _position_points(variant.ace_value, variant.low_ace_value)
        self._runs: dict[int, list[_Candidate]] = {}

    def runs(self, suit: int, positions: int) -> list[_Candidate]:
        """Every window of at least ``size`` along the stretches of consecutive ``positions`` of ``suit``."""
        key = positions << 2 | suit
        found = self._runs.get(key)
        if found is None:
            if len(self._runs) > _RUNS_KEPT:
                self._runs.clear()
            found = self._runs[key] = self._windows(suit, positions)
        return found

    def _windows(self, suit: int, positions: int) -> list[_Candidate]:
        size, points, base = self.size, self._points, suit * 13
        found: list[_Candidate] = []
        run: list[int] = []  # the positions of the current stretch of consecutive cards
        for position in range(self.lowest, self.highest + 2):
            if positions >> position & 1:
                run.append(position)
                continue
            for first in range(len(run) - size + 1):
                for last in range(first + size, min(len(run), first + RUN_MAX) + 1):
                    window = run[first:last]
                    cards = tuple(base + (spot - 1) % 13 for spot in window)
                    found.append((cards, sum(points[spot] for spot in window)))
            run = []
        return found


_RUNS_KEPT = 4096
"""Suits' windows a variant's :class:`_Candidates` remembers before it starts afresh."""


def _rank_sets(index: int, held: int, variant: Variant) -> list[_Candidate]:
    """The sets of three or four of the suits ``held`` (bits) of rank ``index``, with their points."""
    suits = _SUITS_OF[held]
    if len(suits) < SMALLEST_MELD:
        return []
    value = rank_points(index + 1, variant.ace_value)
    return [
        (tuple(suit * 13 + index for suit in chosen), value * size)
        for size in range(SMALLEST_MELD, min(len(suits), SUIT_COUNT, variant.set_maximum) + 1)
        for chosen in combinations(suits, size)
    ]


_candidates_of: PerVariant[_Candidates] = PerVariant(_Candidates, limit=16)


_SUIT_BIT = tuple(1 << (code // 13) for code in range(JOKER))
_POSITION_BITS = tuple(
    (1 << 1) | (1 << 14) if code % 13 == 0 else 1 << (code % 13 + 1) for code in range(JOKER)
)
"""Each natural card's run positions (1-14: an ace is 1 and 14) as bits."""
_SUITS_OF = tuple(tuple(suit for suit in range(4) if held >> suit & 1) for held in range(16))
_SUITS_HELD = tuple(len(suits) for suits in _SUITS_OF)


@lru_cache(maxsize=16)
def _position_points(ace_value: int, low_ace_value: int) -> tuple[int, ...]:
    """Points of each run position (index 1-14: 1 the ace below the two, 14 the ace above the king)."""
    return (0, low_ace_value, *(rank_points(position, ace_value) for position in range(2, 15)))


def best_opening(
    hand: Sequence[Card], variant: Variant, keep: int
) -> tuple[tuple[tuple[Card, ...], ...], int] | None:
    """The new melds worth the most points that open a joker-free hand, and their points.

    ``((), 0)`` when there is no opening; None when the hand holds a joker or runs wrap (ask the
    solver: with jokers the candidates multiply and its memoised search is the faster), or where a
    set may repeat a suit (``7H 7H 7S``: the sets here are of three or four suits). Without
    jokers the points laid are the value taken out of the hand, so the most points is the
    solver's least value left among plans of new melds alone (builds onto the table come after,
    the player having opened). The candidates are few, so a depth-first search over them,
    pruned on the points still available, answers in a fraction of the general solver's time.
    """
    if JOKER in hand or run_frame(variant).wrap or not suits_must_differ(variant):
        return None
    threshold = opening_points(variant)
    counts, candidates = _opening_candidates(hand, variant)
    if not candidates:
        return ((), 0)
    # What the candidates from i on could add at most, ignoring overlaps: the pruning bound. With two
    # packs a meld can go down twice (8C 9C TC and 8C 9C TC), so each counts as often as its cards allow.
    count_of = counts.__getitem__  # counts read through map: no generator frame per meld
    tails = [0] * (len(candidates) + 1)
    for position in range(len(candidates) - 1, -1, -1):
        cards, value = candidates[position]
        tails[position] = tails[position + 1] + value * min(map(count_of, cards))
    most = len(hand) - keep
    chosen: list[tuple[Card, ...]] = []
    best: list[tuple[Card, ...]] = []
    best_points = threshold - 1

    def search(start: int, points: int, laid: int) -> None:
        nonlocal best, best_points
        if points > best_points and chosen:  # an opening is one meld at least, even where 0 points open
            best, best_points = list(chosen), points
        for position in range(start, len(candidates)):
            if points + tails[position] <= best_points:
                return
            cards, value = candidates[position]
            if laid + len(cards) > most or 0 in map(count_of, cards):
                continue
            for card in cards:
                counts[card] -= 1
            chosen.append(cards)
            # The same meld may go down again from the second pack: stay at this position.
            search(position, points + value, laid + len(cards))
            chosen.pop()
            for card in cards:
                counts[card] += 1

    search(0, 0, 0)
    return (tuple(best), best_points) if best else ((), 0)
