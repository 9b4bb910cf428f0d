"""The solver's builds: every way the hand can add to each table meld, as one candidate per build.

A set build is some of the hand's cards of the set's rank (and jokers) up to the set's most
cards; a run build is the cards added at each end, jokers filling the gaps or standing in for
cards held. Builds of jokers alone go to ``slots`` (the best per number of jokers), which the
search places last by a knapsack (:mod:`kalooki.solver_search`).
"""

from __future__ import annotations

from itertools import combinations

from kalooki.cards import JOKER
from kalooki.melds import RUN_MAX, TableMeld
from kalooki.solver_candidates import _OFFSET, _Cand, _own_joker_run_points, _Rules


def _set_builds(
    index: int,
    meld: TableMeld,
    counts: list[int],
    jokers: int,
    rules: _Rules,
    out: list[_Cand],
    slots: list[_Cand | None],
) -> None:
    room = rules.set_max - len(meld.cards)
    if room <= 0:
        return
    rank = meld.rank
    if not jokers and not (counts[rank - 1] or counts[rank + 12] or counts[rank + 25] or counts[rank + 38]):
        return  # no card of the set's rank and no joker: most sets on the table, for most hands
    if rules.suits_repeat:
        # Any suit may join, each card as often as the hand holds it (two packs hold two).
        cards = [code for code in range(rank - 1, JOKER, 13) for _ in range(min(counts[code], room))]
    else:
        held = 0
        for card in meld.cards:
            if card != JOKER:
                held |= 1 << (card // 13)
        cards = [
            suit * 13 + rank - 1 for suit in range(4) if not held >> suit & 1 and counts[suit * 13 + rank - 1]
        ]
    if not cards and not jokers:
        return
    value = rules.set_points[rank]
    joker = value if rules.joker_points is None else rules.joker_points
    for extra in range(1, min(jokers, room) + 1):
        slots[extra] = _Cand((), extra, joker * extra, index, (JOKER,) * extra)
    for size in range(1, min(len(cards), room) + 1):
        # Two copies of a card make the same choice twice: each multiset once, in first-seen order.
        for naturals in dict.fromkeys(combinations(cards, size)):
            for extra in range(min(jokers, room - size) + 1):
                out.append(
                    _Cand(naturals, extra, value * size + joker * extra, index, naturals + (JOKER,) * extra)
                )


def _reach(positions: range, base: int, counts: list[int], jokers: int) -> int:
    """How many of ``positions`` (outward from a run's end) can be filled, jokers filling the gaps."""
    missing = 0
    for step, position in enumerate(positions):
        if not counts[base + (position - 1) % 13]:
            missing += 1
            if missing > jokers:
                return step
    return len(positions)


def _run_builds(
    index: int,
    meld: TableMeld,
    counts: list[int],
    jokers: int,
    rules: _Rules,
    out: list[_Cand],
    slots: list[_Cand | None],
) -> None:
    room = RUN_MAX - len(meld.cards)
    if room <= 0:
        return
    base = meld.suit * 13
    low = meld.rank
    high = low + len(meld.cards) - 1
    if not jokers and not counts[base + (low - 2) % 13] and not counts[base + high % 13]:
        return  # without jokers a build holds the card next to an end: most runs, for most hands
    wrap = rules.wrap
    below = range(low - 1, low - 1 - (room if wrap else min(room, low - rules.lowest)), -1)
    above = range(high + 1, high + 1 + (room if wrap else min(room, rules.highest - high)))
    down = _reach(below, base, counts, jokers)
    up = _reach(above, base, counts, jokers)
    if not down and not up:
        return
    below_list, above_list = list(below), list(above)
    points = rules.position_points
    own = rules.joker_points
    # The extension's points, added up position by position as it grows outward.
    low_value = 0
    for below_count in range(down + 1):
        if below_count:
            low_value += points[_OFFSET + below_list[below_count - 1]]
        lows = below_list[:below_count][::-1]
        value = low_value
        for above_count in range(min(up, room - below_count) + 1):
            if above_count:
                value += points[_OFFSET + above_list[above_count - 1]]
            elif not below_count:
                continue
            highs = above_list[:above_count]
            extension = lows + highs
            present = [p for p in extension if counts[base + (p - 1) % 13]]
            missing = len(extension) - len(present)
            if missing > jokers:
                break
            if not present:
                # Jokers alone, as many as the positions: kept only when the best of their number
                # (the loop below would make this one build, whatever it keeps).
                known = slots[missing]
                gain = value if own is None else missing * own
                if known is None or known.points < gain:
                    slots[missing] = _Cand(
                        (), missing, gain, index, (JOKER,) * len(lows), (JOKER,) * len(highs), run_build=True
                    )
                continue
            for dropped_count in range(min(len(present), jokers - missing) + 1):
                for dropped in combinations(present, dropped_count):
                    held = set(present).difference(dropped)
                    low_cards = tuple([base + (p - 1) % 13 if p in held else JOKER for p in lows])
                    high_cards = tuple([base + (p - 1) % 13 if p in held else JOKER for p in highs])
                    used = missing + dropped_count
                    naturals = tuple(sorted([base + (p - 1) % 13 for p in held]))
                    # The jokers at their own points where they have them, the naturals at their places'.
                    gain = value if own is None else _own_joker_run_points(held, used, own, rules)
                    cand = _Cand(naturals, used, gain, index, low_cards, high_cards, run_build=True)
                    if naturals:
                        out.append(cand)
                    else:
                        known = slots[used]
                        if known is None or known.points < gain:
                            slots[used] = cand
