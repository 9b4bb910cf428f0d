"""The exact meld solver: the best way to lay a hand down as new melds and builds onto the table.

:func:`solve` finds the arrangement that is best for an objective (most points laid, most
cards laid, or least value left in hand), under the turn's constraints: whether the player
has opened (an opening's new melds must reach ``opening_threshold``), how many cards must stay
in hand, and which cards must be laid. :func:`best_opening` finds the best opening, or None.

How it works. Every way a meld can use the hand's natural cards is listed once up front: sets
by rank and suit subset, runs by the naturals they hold and their number of jokers (keeping the
frame worth the most points: the other objectives do not care where a joker sits), builds by
table meld and the cards added at each end. The naturals that appear in some candidate form a
multiset packed into one int, a few bits per card code, followed by a field for the jokers and a
bit per table meld already built on. A depth-first search takes the lowest card code still
undecided and either leaves every copy of it in hand or lays one copy in a candidate whose
lowest natural it is. That order reaches every arrangement exactly once, and the packed int
(with two small counters for the opening threshold and ``keep``) is the whole state, so results
are memoised on it. Jokers that no meld needs are placed last, onto the table, by a knapsack.

A lay's score is a sum of per-card shares, so the shares of the undecided cards bound what a
state can still add; a branch that cannot beat the best found so far at its node is skipped,
which leaves every memoised value exact. An opening's points are bounded the same way.

Ties break deterministically: the objective, then fewer jokers laid, then more points, then
more cards, then the first arrangement in the search order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal

from kalooki.cards import JOKER, Card, card_points, rank_points
from kalooki.errors import KalookiError
from kalooki.melds import RUN_MAX, TableMeld
from kalooki.rules import most_ace_points, run_frame
from kalooki.variant import Variant

Objective = Literal["points", "cards", "value_left"]
BuildEnd = Literal["low", "high"]
PlannedBuild = tuple[int, tuple[Card, ...], BuildEnd | None]

OBJECTIVES: Final[tuple[Objective, ...]] = ("points", "cards", "value_left")
SET_MIN: Final = 3

_NEG: Final = -(1 << 62)
"""The score of an infeasible branch: far below any real score, and still a plain int."""


class SolverError(KalookiError):
    """Arguments the solver cannot work with (an unknown objective, a card code out of range, ...)."""


class Unsolvable(SolverError):
    """No plan satisfies the constraints: ``must_include`` cannot all be laid (keeping ``keep``
    cards, and as an opening when the player has not opened)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What to lay this turn.

    ``melds`` are new melds, each written as :func:`kalooki.melds.make_meld` reads it (runs low
    to high with jokers at their positions; sets naturals first, by suit, then jokers).
    ``builds`` are ``(table meld index, cards, end)`` applied in order: a set's cards with end
    None, a run's cards written low to high with the end they join. A run extended at both ends
    has two entries for the same meld, low end first; the second applies to the meld as the first
    left it. ``points`` counts new melds and builds, every joker as the card it stands for.
    ``remaining`` is what stays in hand, by card code (jokers last), and ``value_left`` its
    ``card_points`` (jokers at ``joker_penalty``).
    """

    melds: tuple[tuple[Card, ...], ...]
    builds: tuple[PlannedBuild, ...]
    points: int
    cards_laid: int
    value_left: int
    remaining: tuple[Card, ...]

    @property
    def empty(self) -> bool:
        return not self.melds and not self.builds


def keep_for(variant: Variant) -> int:
    """The ``keep`` a turn needs before its discard: 1 where the last card must be discarded."""
    return 1 if variant.going_out == "discard_required" else 0


# ---------------------------------------------------------------- per-variant tables
#
# A run position is a rank on a line: 1 is the ace below the two, 14 the ace above the king.
# Wrap-around runs use the line unrolled three times (positions 1..39, rank (p - 1) % 13 + 1)
# so a frame never needs modular arithmetic.

_OFFSET: Final = 13
"""Index of position 0 in ``_Rules.position_points`` (wrap builds reach below position 1)."""

_SUITS_OF_MASK: Final = tuple(tuple(s for s in range(4) if mask >> s & 1) for mask in range(16))


@dataclass(frozen=True, slots=True)
class _Rules:
    """What the solver needs from a variant, as plain tuples and ints."""

    variant: Variant
    lowest: int
    highest: int
    wrap: bool
    run_min: int
    ace_value: int  # the most an ace is worth in a meld (high, or low in a run)
    hand_value: tuple[int, ...]  # card_points of each code, the joker at its penalty
    position_points: tuple[int, ...]  # points of each run position, index position + _OFFSET
    set_points: tuple[int, ...]  # points of a card in a set of each rank (1-13), index rank
    set_max: int  # most cards in a set (the variant's set_maximum)


_RULES_CACHE: dict[int, _Rules] = {}


def _rules(variant: Variant) -> _Rules:
    # Keyed by identity: hashing a pydantic model costs more than a whole easy solve.
    found = _RULES_CACHE.get(id(variant))
    if found is not None and found.variant is variant:
        return found
    frame = run_frame(variant)
    rules = _Rules(
        variant=variant,
        lowest=frame.lowest,
        # Wrapping runs walk the line unrolled three times.
        highest=39 if frame.wrap else frame.highest,
        wrap=frame.wrap,
        run_min=frame.minimum,
        ace_value=most_ace_points(variant),
        hand_value=tuple(card_points(c, variant.ace_value, variant.joker_penalty) for c in range(53)),
        # Position 1 is an ace below the two (wrap runs count the ace of K-A-2 as the high one).
        position_points=tuple(
            variant.low_ace_value if p == 1 else rank_points((p - 1) % 13 + 1, variant.ace_value)
            for p in range(-_OFFSET, 60)
        ),
        set_points=tuple(rank_points(rank, variant.ace_value) for rank in range(14)),
        set_max=variant.set_maximum,
    )
    if len(_RULES_CACHE) > 256:
        _RULES_CACHE.clear()
    _RULES_CACHE[id(variant)] = rules
    return rules


# ---------------------------------------------------------------- candidates


@dataclass(slots=True)
class _Cand:
    """One way to lay some of the hand: a new meld, or one table meld's whole build."""

    naturals: tuple[Card, ...]  # ascending codes, each at most once
    jokers: int
    points: int
    table: int  # index of the table meld built on, -1 for a new meld
    written: tuple[Card, ...]  # the new meld, or a set build's cards / a run build's low-end cards
    high: tuple[Card, ...] = ()  # a run build's high-end cards
    run_build: bool = False


def _set_candidates(rank_suits: list[int], jokers: int, rules: _Rules, out: list[_Cand]) -> None:
    for index, mask in enumerate(rank_suits):
        if not mask:
            continue
        suits = _SUITS_OF_MASK[mask]
        if len(suits) + jokers < SET_MIN:
            continue
        value = rules.set_points[index + 1]
        for size in range(max(1, SET_MIN - jokers), len(suits) + 1):
            for chosen in combinations(suits, size):
                naturals = tuple(suit * 13 + index for suit in chosen)
                # One natural with jokers reads as a set only up to four cards, which is all a set holds.
                for extra in range(max(0, SET_MIN - size), min(jokers, rules.set_max - size) + 1):
                    out.append(
                        _Cand(naturals, extra, value * (size + extra), -1, naturals + (JOKER,) * extra)
                    )


def _run_line(mask: int, rules: _Rules) -> int:
    """The positions a suit's ranks (bit r-1 for rank r) may take, as a bit per position."""
    if rules.wrap:
        return (mask | mask << 13 | mask << 26) << 1
    line = mask << 1
    if mask & 1:
        if rules.highest == 14:
            line |= 1 << 14
        if rules.lowest > 1:
            line &= ~2
    return line


def _run_candidates(suit_ranks: list[int], jokers: int, rules: _Rules, out: list[_Cand]) -> None:
    run_min = rules.run_min
    for suit, mask in enumerate(suit_ranks):
        if not mask:
            continue
        line_mask = _run_line(mask, rules)
        if jokers == 0:
            # Without jokers a run needs run_min consecutive positions present.
            window = line_mask
            for step in range(1, run_min):
                window &= line_mask >> step
            if not window:
                continue
        elif mask.bit_count() + jokers < run_min:
            continue
        line = [p for p in range(1, 40) if line_mask >> p & 1]
        if rules.wrap:
            starts = [i for i, position in enumerate(line) if 14 <= position <= 26]
        else:
            starts = list(range(len(line)))
        best: dict[tuple[tuple[Card, ...], int], _Cand] = {}
        base = suit * 13
        for first in starts:
            low = line[first]
            for last in range(first, len(line)):
                high = line[last]
                span = high - low + 1
                if span > RUN_MAX:
                    break
                held = last - first + 1
                gaps = span - held
                if gaps > jokers:
                    break
                # Prune frames that cannot reach a legal length even with every joker.
                if held + jokers < run_min or (held == 1 and jokers < rules.set_max):
                    continue
                inner = line[first + 1 : last]
                for dropped_count in range(min(len(inner), jokers - gaps) + 1):
                    for dropped in combinations(inner, dropped_count):
                        positions = [low, *(p for p in inner if p not in dropped)]
                        if last > first:
                            positions.append(high)
                        _add_run_frames(positions, gaps + dropped_count, jokers, rules, base, best)
        out.extend(best.values())


def _add_run_frames(
    held: list[int],
    min_jokers: int,
    jokers: int,
    rules: _Rules,
    base: int,
    best: dict[tuple[tuple[Card, ...], int], _Cand],
) -> None:
    """Record the runs holding exactly the naturals at ``held`` with each joker count, best frame each."""
    naturals = tuple(sorted(base + (p - 1) % 13 for p in held))
    low, high = held[0], held[-1]
    points = rules.position_points
    for used in range(min_jokers, jokers + 1):
        length = len(held) + used
        if length > RUN_MAX:
            break
        # One natural with up to three jokers is read as a set, so such a run cannot be laid.
        if length < rules.run_min or (len(held) == 1 and length <= rules.set_max):
            continue
        extra = used - min_jokers
        frame: tuple[int, int] | None = None
        frame_points = -1
        for below in range(extra + 1):
            start, end = low - below, high + extra - below
            if not rules.wrap and (start < rules.lowest or end > rules.highest):
                continue
            value = sum(points[_OFFSET + start : _OFFSET + end + 1])
            if value > frame_points:
                frame, frame_points = (start, end), value
        if frame is None:
            continue
        key = (naturals, used)
        known = best.get(key)
        if known is not None and known.points >= frame_points:
            continue
        positions = set(held)
        written = tuple(
            base + (p - 1) % 13 if p in positions else JOKER for p in range(frame[0], frame[1] + 1)
        )
        best[key] = _Cand(naturals, used, frame_points, -1, written)


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
    held = 0
    for card in meld.cards:
        if card != JOKER:
            held |= 1 << (card // 13)
    suits = [suit for suit in range(4) if not held >> suit & 1 and counts[suit * 13 + rank - 1]]
    if not suits and not jokers:
        return
    value = rules.set_points[rank]
    for extra in range(1, min(jokers, room) + 1):
        slots[extra] = _Cand((), extra, value * extra, index, (JOKER,) * extra)
    for size in range(1, min(len(suits), room) + 1):
        for chosen in combinations(suits, size):
            naturals = tuple(suit * 13 + rank - 1 for suit in chosen)
            for extra in range(min(jokers, room - size) + 1):
                out.append(_Cand(naturals, extra, value * (size + extra), index, naturals + (JOKER,) * extra))


def _reach(positions: list[int], base: int, counts: list[int], jokers: int) -> int:
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
    wrap = rules.wrap
    below = list(range(low - 1, low - 1 - (room if wrap else min(room, low - rules.lowest)), -1))
    above = list(range(high + 1, high + 1 + (room if wrap else min(room, rules.highest - high))))
    down = _reach(below, base, counts, jokers)
    up = _reach(above, base, counts, jokers)
    if not down and not up:
        return
    points = rules.position_points
    for below_count in range(down + 1):
        lows = below[:below_count][::-1]
        for above_count in range(min(up, room - below_count) + 1):
            if below_count + above_count == 0:
                continue
            highs = above[:above_count]
            extension = lows + highs
            present = [p for p in extension if counts[base + (p - 1) % 13]]
            missing = len(extension) - len(present)
            if missing > jokers:
                break
            value = sum(points[_OFFSET + p] for p in extension)
            for dropped_count in range(min(len(present), jokers - missing) + 1):
                for dropped in combinations(present, dropped_count):
                    held = set(present).difference(dropped)
                    low_cards = tuple(base + (p - 1) % 13 if p in held else JOKER for p in lows)
                    high_cards = tuple(base + (p - 1) % 13 if p in held else JOKER for p in highs)
                    used = missing + dropped_count
                    naturals = tuple(sorted(base + (p - 1) % 13 for p in held))
                    cand = _Cand(naturals, used, value, index, low_cards, high_cards, run_build=True)
                    if naturals:
                        out.append(cand)
                    else:
                        known = slots[used]
                        if known is None or known.points < value:
                            slots[used] = cand


# ---------------------------------------------------------------- the search


@dataclass(frozen=True, slots=True)
class _Outcome:
    melds: tuple[_Cand, ...]
    builds: tuple[_Cand, ...]
    score: int


class _Problem:
    """One hand, variant, table and objective: the candidates, ready for :meth:`search`."""

    def __init__(
        self, hand: Sequence[Card], rules: _Rules, objective: Objective, table: Sequence[TableMeld]
    ) -> None:
        counts = [0] * 53
        rank_suits = [0] * 13
        suit_ranks = [0] * 4
        for card in hand:
            counts[card] += 1
            if card != JOKER:
                rank_suits[card % 13] |= 1 << (card // 13)
                suit_ranks[card // 13] |= 1 << (card % 13)
        jokers = counts[JOKER]
        self.hand = hand
        self.rules = rules
        self.objective = objective
        self.counts = counts
        self.jokers = jokers
        cands: list[_Cand] = []
        _set_candidates(rank_suits, jokers, rules, cands)
        _run_candidates(suit_ranks, jokers, rules, cands)
        self.joker_only: list[list[_Cand | None]] = []
        for index, meld in enumerate(table):
            slots: list[_Cand | None] = [None] * (jokers + 1)
            if meld.kind == "set":
                _set_builds(index, meld, counts, jokers, rules, cands, slots)
            else:
                _run_builds(index, meld, counts, jokers, rules, cands, slots)
            self.joker_only.append(slots)
        self.cands = cands
        self.has_joker_builds = any(c is not None for slots in self.joker_only for c in slots)
        # Units of the score: each term's whole range fits below one unit of the term before it.
        total = len(hand)
        self.points_unit = total + 1
        self.jokers_unit = self.points_unit * (total * max(rules.ace_value, 10) + 1)
        self.primary_unit = self.jokers_unit * (jokers + 1)

    def score(self, naturals: Sequence[Card], jokers: int, points: int) -> int:
        """A lay as one int ordered by (objective, fewer jokers, more points, more cards)."""
        cards = len(naturals) + jokers
        if self.objective == "points":
            primary = points
        elif self.objective == "cards":
            primary = cards
        else:
            value = self.rules.hand_value
            primary = sum(value[c] for c in naturals) + jokers * value[JOKER]
        return primary * self.primary_unit - jokers * self.jokers_unit + points * self.points_unit + cards

    def search(self, keep: int, must_include: Sequence[Card], need_points: int | None) -> _Outcome | None:
        """The best lay, or None when none satisfies the constraints.

        ``need_points`` None: the player has opened. Otherwise the lay must hold at least one new
        meld and its new melds must total at least ``need_points``.
        """
        must = [0] * 53
        for card in must_include:
            must[card] += 1
        counts = self.counts
        cands = self.cands
        codes = sorted({c for cand in cands for c in cand.naturals})
        live = set(codes)
        live.add(JOKER)
        dead = 0
        for card in self.hand:
            if card not in live:
                if must[card]:
                    return None  # a card no candidate holds cannot be laid
                dead += 1
        width = max(max(counts), 1).bit_length() + 1
        field_mask = (1 << (width - 1)) - 1
        bit = {code: 1 << (i * width) for i, code in enumerate(codes)}
        joker_shift = len(codes) * width
        natural_bits = (1 << joker_shift) - 1
        table_shift = joker_shift + width
        counter_shift = table_shift + len(self.joker_only)
        need_shift = counter_shift + max(keep, 1).bit_length()
        ones = sum(bit.values())
        guard = ones << (width - 1)
        start = sum(counts[code] * bit[code] for code in codes) + (self.jokers << joker_shift)
        max_leave = [counts[code] - must[code] for code in codes]

        # Scores and the bound. A lay's score is the sum of its cards' shares: a natural's share is
        # fixed (its points count whatever it is in), a joker's depends on the card it stands for.
        # So the shares of the cards still undecided, jokers at the dearest card they could stand
        # for, bound what a state can still add.
        value = self.rules.hand_value
        primary_unit, jokers_unit, points_unit = self.primary_unit, self.jokers_unit, self.points_unit
        objective = self.objective
        if objective == "cards":
            share = {code: primary_unit + value[code] * points_unit + 1 for code in codes}
            joker_primary = [primary_unit, 0]  # [per joker, per point it stands for]
        elif objective == "points":
            share = {code: value[code] * (primary_unit + points_unit) + 1 for code in codes}
            joker_primary = [0, 1]  # a joker's points are the primary term
        else:
            share = {code: value[code] * (primary_unit + points_unit) + 1 for code in codes}
            joker_primary = [value[JOKER] * primary_unit, 0]
        joker_base = joker_primary[0] - jokers_unit + 1
        joker_points_unit = points_unit + joker_primary[1] * primary_unit
        natural_bound = [share[code] for code in codes]
        value_of = [value[code] for code in codes]
        joker_bound = max(joker_base + max(self.rules.ace_value, 10) * joker_points_unit, 0)
        bound0 = sum(counts[code] * share[code] for code in codes) + self.jokers * joker_bound
        # While fewer than keep cards are left, that many undecided cards must stay: at least the cheapest.
        cheapest = min([*natural_bound, joker_bound]) if codes else 0

        # Per field, the candidates whose lowest natural it is, best first so that good lays found
        # early let the bound cut the rest.
        # An opening also needs its points: the undecided cards' points (jokers at the dearest card)
        # bound what the new melds can still reach.
        joker_reach = max(self.rules.ace_value, 10)
        reach0 = sum(counts[code] * value[code] for code in codes) + self.jokers * joker_reach

        by_field: list[list[tuple[int, int, int, int, int, int, int, int, int, int]]] = [[] for _ in codes]
        first_field = {code: i for i, code in enumerate(codes)}
        for number, cand in enumerate(cands):
            naturals = cand.naturals
            if not naturals:
                continue
            packed = 0
            natural_share = 0
            natural_points = 0
            for code in naturals:
                packed += bit[code]
                natural_share += share[code]
                natural_points += value[code]
            jokers = cand.jokers
            score = natural_share + jokers * joker_base + (cand.points - natural_points) * joker_points_unit
            cap = natural_share + jokers * joker_bound
            table = cand.table
            by_field[first_field[naturals[0]]].append(
                (
                    packed << (width - 1),
                    jokers,
                    packed + (jokers << joker_shift),
                    0 if table < 0 else 1 << (table_shift + table),
                    score,
                    score - cap,
                    cap,
                    cand.points if table < 0 else 0,
                    natural_points + jokers * joker_reach,
                    number,
                )
            )
        for group in by_field:
            if len(group) > 1:
                group.sort(key=lambda entry: -entry[4])

        joker_scores = [
            [_NEG if c is None else self.score((), c.jokers, c.points) for c in slots]
            for slots in self.joker_only
        ]
        joker_tables: dict[int, tuple[list[int], list[list[int]]]] = {}
        total_jokers = self.jokers
        must_jokers = must[JOKER]
        has_joker_builds = self.has_joker_builds

        def joker_table(used: int) -> tuple[list[int], list[list[int]]]:
            """Knapsack of jokers alone onto the table melds not built on: best score per joker count,
            and per meld how many jokers it takes in the best split of each total."""
            found = joker_tables.get(used)
            if found is not None:
                return found
            size = total_jokers + 1
            best = [0] + [_NEG] * (size - 1)
            splits: list[list[int]] = []
            for meld, scores in enumerate(joker_scores):
                split = [0] * size
                if not used >> meld & 1 and max(scores) > _NEG:
                    merged = list(best)
                    for total in range(1, size):
                        for k in range(1, total + 1):
                            if scores[k] > _NEG and best[total - k] > _NEG:
                                value = best[total - k] + scores[k]
                                if value > merged[total]:
                                    merged[total] = value
                                    split[total] = k
                    best = merged
                splits.append(split)
            joker_tables[used] = (best, splits)
            return best, splits

        def leaf(s: int, need: int, left: int) -> tuple[int, int]:
            """The best score once every natural is decided, and how many of the jokers left to build."""
            if need:
                return _NEG, 0
            jokers = (s >> joker_shift) & field_mask
            at_least = max(must_jokers - (total_jokers - jokers), 0)
            at_most = min(jokers, left + jokers - keep)
            if at_most < at_least:
                return _NEG, 0
            if not has_joker_builds:
                return (0, 0) if at_least == 0 else (_NEG, 0)
            table = joker_table(s >> table_shift)[0]
            best, count = _NEG, 0
            for k in range(at_least, at_most + 1):
                if table[k] > best:
                    best, count = table[k], k
            return best, count

        memo: dict[int, int] = {}
        choice: dict[int, int] = {}

        def rec(s: int, need: int, left: int, bound: int, reach: int) -> int:
            if not s & natural_bits:
                return leaf(s, need, left)[0]
            if need > 1 and need >> 1 > reach:
                return _NEG
            key = s | (left << counter_shift) | (need << need_shift) if need or left else s
            found = memo.get(key)
            if found is not None:
                return found
            index = ((s & -s).bit_length() - 1) // width
            jokers = (s >> joker_shift) & field_mask
            present = ((s | guard) - ones) & guard
            best = _NEG
            chosen = -1
            cut = bound - (keep - left) * cheapest if left < keep else bound
            for (
                needs,
                joker_count,
                packed,
                table_bit,
                score,
                slack,
                share,
                opening_points,
                points_share,
                number,
            ) in by_field[index]:
                if joker_count > jokers or needs & present != needs or s & table_bit:
                    continue
                # Skipping a branch that cannot beat the best so far keeps this node's value exact.
                if slack + cut <= best:
                    continue
                if need and not table_bit:
                    short = (need >> 1) - opening_points
                    after = short << 1 if short > 0 else 0
                else:
                    after = need
                value = (
                    rec((s - packed) | table_bit, after, left, bound - share, reach - points_share) + score
                )
                if value > best:
                    best = value
                    chosen = number
            shift = index * width
            count = (s >> shift) & field_mask
            if count <= max_leave[index]:
                rest = bound - count * natural_bound[index]
                kept = left + count
                if (rest - (keep - kept) * cheapest if kept < keep else rest) > best:
                    kept = kept if kept < keep else keep
                    value = rec(s - (count << shift), need, kept, rest, reach - count * value_of[index])
                    if value > best:
                        best = value
                        chosen = -1
            memo[key] = best
            choice[key] = chosen
            return best

        # need is twice the points still missing, plus 1 until a first new meld is chosen.
        need0 = 0 if need_points is None else 2 * max(need_points, 0) + 1
        left0 = min(dead, keep)
        score = rec(start, need0, left0, bound0, reach0)
        if score <= _NEG // 2:
            return None

        # Walk the recorded choices from the start to read the lay back.
        s, need, left = start, need0, left0
        melds: list[_Cand] = []
        builds: list[_Cand] = []
        while s & natural_bits:
            key = s | (left << counter_shift) | (need << need_shift) if need or left else s
            number = choice[key]
            shift = ((s & -s).bit_length() - 1) // width * width
            if number < 0:
                count = (s >> shift) & field_mask
                s -= count << shift
                left = min(left + count, keep)
                continue
            for _, _, packed, table_bit, _, _, _, opening_points, _, other in by_field[shift // width]:
                if other == number:
                    s = (s - packed) | table_bit
                    if need and not table_bit:
                        short = (need >> 1) - opening_points
                        need = short << 1 if short > 0 else 0
                    break
            cand = self.cands[number]
            (builds if cand.table >= 0 else melds).append(cand)
        jokers_built = leaf(s, need, left)[1]
        if jokers_built:
            splits = joker_table(s >> table_shift)[1]
            for meld in range(len(joker_scores) - 1, -1, -1):
                k = splits[meld][jokers_built]
                if k:
                    joker_build = self.joker_only[meld][k]
                    assert joker_build is not None
                    builds.append(joker_build)
                    jokers_built -= k
        builds.sort(key=lambda c: c.table)
        return _Outcome(tuple(melds), tuple(builds), score)

    def plan(self, outcome: _Outcome | None) -> Plan:
        if outcome is None:
            remaining = sorted(self.hand)
            value = self.rules.hand_value
            return Plan((), (), 0, 0, sum(value[c] for c in remaining), tuple(remaining))
        laid = [0] * 53
        points = 0
        for cand in (*outcome.melds, *outcome.builds):
            for card in cand.naturals:
                laid[card] += 1
            laid[JOKER] += cand.jokers
            points += cand.points
        remaining = [c for c in sorted(self.hand) if not _take(laid, c)]
        planned: list[PlannedBuild] = []
        for cand in outcome.builds:
            if not cand.run_build:
                planned.append((cand.table, cand.written, None))
                continue
            if cand.written:
                planned.append((cand.table, cand.written, "low"))
            if cand.high:
                planned.append((cand.table, cand.high, "high"))
        value = self.rules.hand_value
        return Plan(
            melds=tuple(c.written for c in outcome.melds),
            builds=tuple(planned),
            points=points,
            cards_laid=len(self.hand) - len(remaining),
            value_left=sum(value[c] for c in remaining),
            remaining=tuple(remaining),
        )


def _take(laid: list[int], card: Card) -> bool:
    """Count one copy of ``card`` as laid if the plan lays one still unaccounted for."""
    if laid[card]:
        laid[card] -= 1
        return True
    return False


# ---------------------------------------------------------------- the public API


def _check(hand: Sequence[Card], objective: str, keep: int, must_include: Sequence[Card]) -> None:
    if objective not in OBJECTIVES:
        raise SolverError(f"unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
    for card in hand:
        if not 0 <= card <= JOKER:
            raise SolverError(f"{card} is not a card code (0-51 for standard cards, 52 for a joker)")
    if keep < 0:
        raise SolverError(f"keep must be 0 or more, not {keep}")
    if must_include:
        left = list(hand)
        for card in must_include:
            if card not in left:
                raise SolverError("must_include names a card the hand does not hold")
            left.remove(card)


def solve(
    hand: Sequence[Card],
    variant: Variant,
    *,
    objective: Objective = "value_left",
    table: Sequence[TableMeld] = (),
    opened: bool = True,
    keep: int = 0,
    must_include: Sequence[Card] = (),
) -> Plan:
    """The best plan for ``objective``: ``points`` laid, ``cards`` laid, or least ``value_left``.

    ``opened=False``: the plan is either empty or an opening, whose new melds total at least
    ``variant.opening_threshold`` points (builds onto ``table`` come with it but do not count).
    ``keep``: at least this many cards stay in hand. ``must_include``: these cards are laid.
    Raises :class:`Unsolvable` when no plan lays ``must_include`` (or ``keep`` exceeds the hand):
    the empty plan satisfies every other constraint. Raises :class:`SolverError` on bad arguments.
    """
    _check(hand, objective, keep, must_include)
    if keep > len(hand):
        raise Unsolvable(f"the hand holds {len(hand)} cards and cannot keep {keep}")
    problem = _Problem(hand, _rules(variant), objective, table)
    if not problem.cands and not problem.has_joker_builds:
        if must_include:
            raise Unsolvable("the hand cannot lay anything, so it cannot lay the cards it must")
        return problem.plan(None)
    outcome = problem.search(keep, must_include, None if opened else variant.opening_threshold)
    # An opening always lays cards, so it beats laying nothing unless it is worth nothing at all.
    if outcome is None or (not opened and not must_include and outcome.score <= 0):
        if must_include:
            raise Unsolvable("no plan lays every card of must_include under the constraints")
        return problem.plan(None)
    return problem.plan(outcome)


def best_opening(
    hand: Sequence[Card],
    variant: Variant,
    *,
    table: Sequence[TableMeld] = (),
    keep: int = 0,
    must_include: Sequence[Card] = (),
    objective: Objective = "value_left",
) -> Plan | None:
    """The best opening for ``objective`` (least value left by default), or None when there is none.

    An opening is at least one new meld, the new melds totalling at least
    ``variant.opening_threshold`` points, plus any builds onto ``table``.
    """
    _check(hand, objective, keep, must_include)
    if keep > len(hand):
        return None
    problem = _Problem(hand, _rules(variant), objective, table)
    if not problem.cands:
        return None
    outcome = problem.search(keep, must_include, variant.opening_threshold)
    return None if outcome is None else problem.plan(outcome)
