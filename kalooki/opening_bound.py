"""The most a first meld of a given number of cards can be worth under a variant's melds.

``validate`` refuses an ``opening_threshold`` no hand can reach. Every card at the dearest card's worth
bounds it loosely: seven cards at 11 are 77, yet with sets of at most three the best seven are A-A-A and
J-Q-K-A, 74. This works the best out from the melds themselves: a knapsack over melds by the cards they
hold and the aces they take, with each rank's supply (its naturals and every joker) counted for sets.
It relaxes what it cannot cheaply follow (which suit a run is of; a joker counted once per rank it
could stand for; runs sharing ranks with sets; how many runs the pack holds, for which the pack's
dearest cards, each once, bound it instead), so it never says less than the truth, and says the truth
for the tables people write (it is exact wherever the best melds do not contend for one card).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from kalooki.cards import rank_points
from kalooki.rules import RUN_MAX, SMALLEST_MELD, RunFrame, own_joker_points, run_frame

if TYPE_CHECKING:
    from kalooki.variant import Variant

_NONE = -1
"""A number of cards and aces no melds make."""


def most_opening_points(variant: Variant, cards: int) -> int:
    """The most points new melds of at most ``cards`` cards can total (0 where none fits)."""
    return _most_points(
        cards,
        variant.decks,
        variant.jokers,
        variant.set_maximum,
        run_frame(variant),
        variant.ace_value,
        variant.ace_low_value,
        own_joker_points(variant) if variant.jokers else None,
    )


@lru_cache(maxsize=256)  # validate, --set and every sweep cell ask again with the same knobs
def _most_points(
    cards: int,
    decks: int,
    jokers: int,
    set_maximum: int,
    frame: RunFrame,
    ace_value: int,
    ace_low_value: int | None,
    joker_points: int | None = None,
) -> int:
    """``joker_points``: what a joker adds to a meld whatever it stands for (``opening_joker_value:
    penalty``); None, the card it stands for."""
    each_rank = 4 * decks + jokers  # the naturals of a rank and every joker standing for one
    aces = min(each_rank, cards)
    # best[c][a]: the most points melds of exactly c cards holding a aces make.
    best = [[_NONE] * (aces + 1) for _ in range(cards + 1)]
    best[0][0] = 0
    sizes = _set_totals(set_maximum, min(each_rank, cards))
    # Sets, one rank at a time (a rank's sets together hold at most each_rank cards).
    jokered = _Jokers(jokers, joker_points)
    naturals = 4 * decks  # of each card: a set of more holds jokers
    for rank in range(2, 14):
        worth = rank_points(rank, ace_value)
        best = _add_group(
            best, [(total, 0, jokered.best([worth] * total, max(0, total - naturals))) for total in sizes]
        )
    best = _add_group(
        best, [(total, total, jokered.best([ace_value] * total, max(0, total - naturals))) for total in sizes]
    )
    # Runs, as many as fit: the best run of each length and number of aces.
    for length, held_aces, worth in _best_runs(frame, ace_value, ace_low_value, cards, jokered):
        for count in range(cards - length + 1):
            row, after = best[count], best[count + length]
            for used in range(aces - held_aces + 1):
                if row[used] != _NONE and row[used] + worth > after[used + held_aces]:
                    after[used + held_aces] = row[used] + worth
    knapsack = max(max(row) for row in best)
    # Runs are counted as often as they fit, whatever the pack holds: its dearest cards, each once
    # (a joker as the dearest card of all), bound a lay of many cards, a hand grown to the pack's size.
    dearest_ace = max(ace_value, ace_low_value or 0)
    worths = [dearest_ace if rank == 1 else rank_points(rank, ace_value) for rank in range(1, 14)]
    joker = max(*worths, 10) if joker_points is None else joker_points
    pack = sorted([*worths * (4 * decks), *[joker] * jokers], reverse=True)
    return min(knapsack, sum(pack[:cards]))


class _Jokers:
    """The most a meld's cards are worth where a joker has its own points (``opening_joker_value:
    penalty``): some of them jokers, at most as many as the pack holds and with a natural card left."""

    def __init__(self, jokers: int, joker_points: int | None) -> None:
        self.jokers, self.joker_points = jokers, joker_points

    def best(self, worths: list[int], fewest: int = 0) -> int:
        """The most ``worths`` (each place's, as the card it is) make with jokers in some of the places,
        ``fewest`` of them at least (a set of more cards of a rank than the pack's naturals)."""
        total = sum(worths)
        own = self.joker_points
        if own is None:
            return total
        cheapest = sorted(worths)  # jokers in the cheapest places
        return max(
            total - sum(cheapest[:used]) + used * own
            for used in range(fewest, max(fewest, min(self.jokers, len(worths) - 1)) + 1)
        )


def _set_totals(set_maximum: int, most: int) -> list[int]:
    """The numbers of cards of one rank that sets of 3 to ``set_maximum`` cards can hold together."""
    reachable = [False] * (most + 1)
    reachable[0] = True
    for total in range(SMALLEST_MELD, most + 1):
        reachable[total] = any(
            reachable[total - size] for size in range(SMALLEST_MELD, min(set_maximum, total) + 1)
        )
    return [total for total in range(SMALLEST_MELD, most + 1) if reachable[total]]


def _add_group(best: list[list[int]], choices: list[tuple[int, int, int]]) -> list[list[int]]:
    """``best`` with at most one of ``choices`` (cards, aces, points) added to each entry."""
    grown = [list(row) for row in best]
    top = len(best[0]) - 1
    for count, row in enumerate(best):
        for used, points in enumerate(row):
            if points == _NONE:
                continue
            for size, held_aces, worth in choices:
                if count + size >= len(best) or used + held_aces > top:
                    continue
                if points + worth > grown[count + size][used + held_aces]:
                    grown[count + size][used + held_aces] = points + worth
    return grown


def _best_runs(
    frame: RunFrame, ace_value: int, ace_low_value: int | None, cards: int, jokered: _Jokers
) -> list[tuple[int, int, int]]:
    """(length, aces, points) of the dearest run of each length and number of aces the frame allows
    (jokers in it at their own points, where they have them)."""
    low_ace = ace_value if ace_low_value is None else ace_low_value
    found: dict[tuple[int, int], int] = {}
    for length in range(frame.minimum, min(RUN_MAX, cards) + 1):
        for low in range(1, 15):
            if not frame.span_ok(low, length):
                continue
            ranks = [_position_rank(low + index) for index in range(length)]
            worth = jokered.best([low_ace if rank == 1 else rank_points(rank, ace_value) for rank in ranks])
            key = (length, sum(rank in (1, 14) for rank in ranks))
            found[key] = max(found.get(key, worth), worth)
    return [(length, held_aces, worth) for (length, held_aces), worth in sorted(found.items())]


def _position_rank(position: int) -> int:
    """The rank at a run's ``position`` (1 a low ace, 14 a high one; past 14 a wrapping run starts again
    at the two), as :meth:`TableMeld.position_rank <kalooki.melds.TableMeld.position_rank>` reads it.
    Not imported from there: the variant's own checks ask this module while the melds module loads."""
    return position if position <= 14 else (position - 1) % 13 + 1
