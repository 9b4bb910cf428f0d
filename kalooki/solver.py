"""The exact meld solver: the best way to lay a hand down as new melds and builds onto the table.

:func:`solve` finds the arrangement that is best for an objective (most points laid, most
cards laid, or least value left in hand), under the turn's constraints: whether the player
has opened (an opening's new melds must reach ``opening_threshold``), how many cards must stay
in hand, and which cards must be laid. :func:`best_opening` finds the best opening, or None.

How it works. The hand's natural cards are a multiset packed into one int, a few bits per
distinct card code (plus a field for the jokers and one bit per table meld already built on).
Every way a meld can use the hand's naturals is listed once up front: sets by rank and suit
subset, runs by the naturals they hold and the number of jokers, keeping for each the frame
worth the most points (the other objectives do not care where a joker sits). A depth-first
search then takes the lowest card code still undecided and either leaves every copy of it in
hand or lays one copy in a meld or build whose lowest natural it is. That order makes every
arrangement reachable exactly once, and the remaining multiset (with the jokers left, the table
melds used and the constraint counters) is the whole state, so results are memoised on it.
Jokers that no meld needs are placed last, onto the table, by a small knapsack.

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
from kalooki.melds import RUN_MAX, SET_MAX, TableMeld
from kalooki.variant import Variant

Objective = Literal["points", "cards", "value_left"]
BuildEnd = Literal["low", "high"]
PlannedBuild = tuple[int, tuple[Card, ...], BuildEnd | None]

OBJECTIVES: Final[tuple[Objective, ...]] = ("points", "cards", "value_left")
SET_MIN: Final = 3

_NEG: Final = -(1 << 62)
"""The score of an infeasible branch; plain ints stay fast, and any real score is far above it."""


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


# ---------------------------------------------------------------- positions
#
# A run position is a rank on a line: 1 is the ace below the two, 14 the ace above the king.
# Wrap-around runs use the line unrolled three times (positions 1..39, rank (p - 1) % 13 + 1)
# so a frame never needs modular arithmetic.


def _span(variant: Variant) -> tuple[int, int, bool]:
    """The lowest and highest position a run may cover, and whether runs wrap."""
    mode = variant.ace_in_runs
    if mode == "wrap":
        return 1, 39, True
    if mode == "high":
        return 2, 14, False
    if mode == "low":
        return 1, 13, False
    return 1, 14, False


def _position_points(ace_value: int) -> list[int]:
    """Points of each position on the unrolled line (index = position, room below 0 for wrap builds)."""
    return [rank_points((p - 1) % 13 + 1, ace_value) for p in range(-13, 60)]


_POINTS_OFFSET: Final = 13


# ---------------------------------------------------------------- candidates


@dataclass(slots=True)
class _Cand:
    """One way to lay some of the hand: a new meld, or one table meld's whole build."""

    naturals: tuple[Card, ...]
    jokers: int
    points: int
    table: int  # index of the table meld built on, -1 for a new meld
    written: tuple[Card, ...]  # the new meld, or a set build's cards / a run build's low-end cards
    high: tuple[Card, ...] = ()  # a run build's high-end cards
    run_build: bool = False


def _set_candidates(counts: list[int], jokers: int, ace_value: int, out: list[_Cand]) -> None:
    for rank in range(1, 14):
        suits = [suit for suit in range(4) if counts[suit * 13 + rank - 1]]
        if len(suits) + jokers < SET_MIN or not suits:
            continue
        value = rank_points(rank, ace_value)
        for size in range(max(1, SET_MIN - jokers), min(len(suits), SET_MAX) + 1):
            for chosen in combinations(suits, size):
                naturals = tuple(suit * 13 + rank - 1 for suit in chosen)
                # One natural with jokers reads as a set only up to four cards, which is all a set holds.
                for extra in range(max(0, SET_MIN - size), min(jokers, SET_MAX - size) + 1):
                    out.append(
                        _Cand(naturals, extra, value * (size + extra), -1, naturals + (JOKER,) * extra)
                    )


def _run_candidates(
    counts: list[int], jokers: int, variant: Variant, points: list[int], out: list[_Cand]
) -> None:
    lowest, highest, wrap = _span(variant)
    run_min = variant.run_minimum
    for suit in range(4):
        base = suit * 13
        ranks = [rank for rank in range(1, 14) if counts[base + rank - 1]]
        if len(ranks) + jokers < run_min or not ranks:
            continue
        if wrap:
            line = sorted(rank + 13 * copy for rank in ranks for copy in range(3))
            starts = [i for i, position in enumerate(line) if 14 <= position <= 26]
        else:
            line = sorted(
                {rank for rank in ranks if rank != 1}
                | ({1} if 1 in ranks and lowest == 1 else set())
                | ({14} if 1 in ranks and highest == 14 else set())
            )
            starts = list(range(len(line)))
        best: dict[tuple[tuple[Card, ...], int], _Cand] = {}
        for first in starts:
            low = line[first]
            for last in range(first, len(line)):
                high = line[last]
                span = high - low + 1
                if span > RUN_MAX:
                    break
                gaps = span - (last - first + 1)
                if gaps > jokers:
                    break
                inner = line[first + 1 : last]
                for dropped_count in range(min(len(inner), jokers - gaps) + 1):
                    for dropped in combinations(inner, dropped_count):
                        held = [low, *(p for p in inner if p not in dropped)]
                        if last > first:
                            held.append(high)
                        _add_run_frames(
                            held, gaps + dropped_count, jokers, run_min, lowest, highest, wrap,
                            base, points, best,
                        )  # fmt: skip
        out.extend(best.values())


def _add_run_frames(
    held: list[int],
    min_jokers: int,
    jokers: int,
    run_min: int,
    lowest: int,
    highest: int,
    wrap: bool,
    base: int,
    points: list[int],
    best: dict[tuple[tuple[Card, ...], int], _Cand],
) -> None:
    """Record the runs holding exactly the naturals at ``held`` with each joker count, best frame each."""
    naturals = tuple(sorted(base + (p - 1) % 13 for p in held))
    low, high = held[0], held[-1]
    for used in range(min_jokers, jokers + 1):
        length = len(held) + used
        if length > RUN_MAX:
            break
        # One natural with up to three jokers is read as a set, so such a run cannot be laid.
        if length < run_min or (len(held) == 1 and length <= SET_MAX):
            continue
        extra = used - min_jokers
        frame: tuple[int, int] | None = None
        frame_points = -1
        for below in range(extra + 1):
            start, end = low - below, high + extra - below
            if not wrap and (start < lowest or end > highest):
                continue
            value = sum(points[_POINTS_OFFSET + p] for p in range(start, end + 1))
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


def _build_candidates(
    table: Sequence[TableMeld],
    counts: list[int],
    jokers: int,
    variant: Variant,
    points: list[int],
    out: list[_Cand],
    joker_only: list[list[_Cand | None]],
) -> None:
    """Every build onto each table meld; those made of jokers alone go to ``joker_only[meld][jokers]``."""
    lowest, highest, wrap = _span(variant)
    for index, meld in enumerate(table):
        slots: list[_Cand | None] = [None] * (jokers + 1)
        if meld.kind == "set":
            _set_builds(index, meld, counts, jokers, variant.ace_value, out, slots)
        else:
            _run_builds(index, meld, counts, jokers, lowest, highest, wrap, points, out, slots)
        joker_only.append(slots)


def _set_builds(
    index: int,
    meld: TableMeld,
    counts: list[int],
    jokers: int,
    ace_value: int,
    out: list[_Cand],
    slots: list[_Cand | None],
) -> None:
    room = SET_MAX - len(meld.cards)
    if room <= 0:
        return
    rank = meld.rank
    value = rank_points(rank, ace_value)
    suits = [suit for suit in meld.missing_suits() if counts[suit * 13 + rank - 1]]
    for extra in range(1, min(jokers, room) + 1):
        slots[extra] = _Cand((), extra, value * extra, index, (JOKER,) * extra)
    for size in range(1, min(len(suits), room) + 1):
        for chosen in combinations(suits, size):
            naturals = tuple(suit * 13 + rank - 1 for suit in chosen)
            for extra in range(min(jokers, room - size) + 1):
                out.append(_Cand(naturals, extra, value * (size + extra), index, naturals + (JOKER,) * extra))


def _run_builds(
    index: int,
    meld: TableMeld,
    counts: list[int],
    jokers: int,
    lowest: int,
    highest: int,
    wrap: bool,
    points: list[int],
    out: list[_Cand],
    slots: list[_Cand | None],
) -> None:
    room = RUN_MAX - len(meld.cards)
    if room <= 0:
        return
    base = meld.suit * 13
    low = meld.rank
    high = low + len(meld.cards) - 1
    below_max = room if wrap else min(room, low - lowest)
    for below in range(below_max + 1):
        above_max = room - below if wrap else min(room - below, highest - high)
        lows = list(range(low - below, low))
        for above in range(above_max + 1):
            if below + above == 0:
                continue
            highs = list(range(high + 1, high + above + 1))
            extension = lows + highs
            present = [p for p in extension if counts[base + (p - 1) % 13]]
            missing = len(extension) - len(present)
            if missing > jokers:
                break
            value = sum(points[_POINTS_OFFSET + p] for p in extension)
            for dropped_count in range(min(len(present), jokers - missing) + 1):
                for dropped in combinations(present, dropped_count):
                    held = set(present) - set(dropped)
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
class _Weights:
    """Maps a lay (primary objective value, jokers, points, cards) to one int ordered lexicographically."""

    objective: Objective
    ace_value: int
    joker_penalty: int
    cards_unit: int
    points_unit: int
    jokers_unit: int
    primary_unit: int

    def score(self, naturals: Sequence[Card], jokers: int, points: int) -> int:
        cards = len(naturals) + jokers
        if self.objective == "points":
            primary = points
        elif self.objective == "cards":
            primary = cards
        else:
            primary = sum(card_points(c, self.ace_value, 0) for c in naturals) + jokers * self.joker_penalty
        return primary * self.primary_unit - jokers * self.jokers_unit + points * self.points_unit + cards


class _Problem:
    """One hand, variant, table and objective: the candidates and the memoised search over them."""

    def __init__(
        self, hand: Sequence[Card], variant: Variant, objective: Objective, table: Sequence[TableMeld]
    ) -> None:
        counts = [0] * 53
        for card in hand:
            counts[card] += 1
        self.hand = tuple(hand)
        self.counts = counts
        self.variant = variant
        self.jokers = counts[JOKER]
        points = _position_points(variant.ace_value)
        cands: list[_Cand] = []
        _set_candidates(counts, self.jokers, variant.ace_value, cands)
        _run_candidates(counts, self.jokers, variant, points, cands)
        self.joker_only: list[list[_Cand | None]] = []
        _build_candidates(table, counts, self.jokers, variant, points, cands, self.joker_only)
        self.cands = cands

        total = len(hand)
        cards_unit = 1
        points_unit = total + 1
        jokers_unit = points_unit * (total * max(variant.ace_value, 10) + 1)
        primary_unit = jokers_unit * (self.jokers + 1)
        self.weights = _Weights(
            objective,
            variant.ace_value,
            variant.joker_penalty,
            cards_unit,
            points_unit,
            jokers_unit,
            primary_unit,
        )

        # Pack the multiset: a field per distinct natural code, then the jokers, then a bit per table meld.
        self.codes = sorted({card for card in hand if card != JOKER})
        width = max(max(counts), 1).bit_length() + 1
        self.width = width
        field = {code: i for i, code in enumerate(self.codes)}
        self.joker_shift = len(self.codes) * width
        self.table_shift = self.joker_shift + width
        self.guard = sum(1 << (i * width + width - 1) for i in range(len(self.codes) + 1))
        self.start = sum(counts[code] << (field[code] * width) for code in self.codes) + (
            self.jokers << self.joker_shift
        )
        by_field: list[list[tuple[int, int, int, int, int]]] = [[] for _ in self.codes]
        for number, cand in enumerate(cands):
            if not cand.naturals:
                continue
            packed = sum(1 << (field[c] * width) for c in cand.naturals) + (cand.jokers << self.joker_shift)
            table_bit = 0 if cand.table < 0 else 1 << (self.table_shift + cand.table)
            opening_points = cand.points if cand.table < 0 else 0
            score = self.weights.score(cand.naturals, cand.jokers, cand.points)
            by_field[field[min(cand.naturals)]].append((packed, table_bit, score, opening_points, number))
        self.by_field = by_field
        self.joker_scores: list[list[int]] = [
            [_NEG if c is None else self.weights.score((), c.jokers, c.points) for c in slots]
            for slots in self.joker_only
        ]
        self.has_joker_builds = any(c is not None for slots in self.joker_only for c in slots)

    @property
    def anything(self) -> bool:
        """Whether the hand can lay anything at all."""
        return bool(self.cands) or self.has_joker_builds

    def run(self, keep: int, must_include: Sequence[Card], need_points: int | None) -> _Outcome | None:
        """The best lay, or None when none satisfies the constraints.

        ``need_points`` None: the player has opened. Otherwise the new melds must total at least
        that many points (and be at least one meld).
        """
        return _Search(self, keep, must_include, need_points).best()


@dataclass(frozen=True, slots=True)
class _Outcome:
    melds: tuple[_Cand, ...]
    builds: tuple[_Cand, ...]
    score: int


class _Search:
    def __init__(
        self, problem: _Problem, keep: int, must_include: Sequence[Card], need_points: int | None
    ) -> None:
        self.p = problem
        self.keep = keep
        must = [0] * 53
        for card in must_include:
            must[card] += 1
        self.must_jokers = must[JOKER]
        self.max_leave = [problem.counts[code] - must[code] for code in problem.codes]
        # need: twice the points still missing, plus 1 until a first new meld is chosen.
        self.need0 = 0 if need_points is None else 2 * max(need_points, 0) + 1
        self.memo: dict[object, int] = {}
        self.choice: dict[object, int] = {}
        self.joker_tables: dict[int, list[int]] = {}

    def best(self) -> _Outcome | None:
        p = self.p
        score = self._rec(p.start, self.need0, 0)
        if score <= _NEG // 2:
            return None
        return self._reconstruct(score)

    # The recursion is the hot loop: everything it touches is a local or a plain int.
    def _rec(self, s: int, need: int, left: int) -> int:
        p = self.p
        width = p.width
        if not s & ((1 << p.joker_shift) - 1):
            return self._leaf(s, need, left)
        key = (s, need, left)
        memo = self.memo
        found = memo.get(key)
        if found is not None:
            return found
        low = s & -s
        index = (low.bit_length() - 1) // width
        shift = index * width
        count = (s >> shift) & ((1 << (width - 1)) - 1)
        best = _NEG
        chosen = -1
        if count <= self.max_leave[index]:
            kept = left + count
            best = self._rec(s - (count << shift), need, kept if kept < self.keep else self.keep)
        guard = p.guard
        rec = self._rec
        for packed, table_bit, score, opening_points, number in p.by_field[index]:
            if s & table_bit:
                continue
            t = (s | guard) - packed
            if t & guard != guard:
                continue
            if need and not table_bit:
                short = (need >> 1) - opening_points
                after = short << 1 if short > 0 else 0
            else:
                after = need
            value = rec((t ^ guard) | table_bit, after, left) + score
            if value > best:
                best = value
                chosen = number
        memo[key] = best
        self.choice[key] = chosen
        return best

    def _leaf(self, s: int, need: int, left: int) -> int:
        best, _ = self._leaf_choice(s, need, left)
        return best

    def _leaf_choice(self, s: int, need: int, left: int) -> tuple[int, int]:
        """The best score once every natural is decided, and how many of the jokers left to build."""
        if need:
            return _NEG, 0
        p = self.p
        jokers = (s >> p.joker_shift) & ((1 << (p.width - 1)) - 1)
        at_least = self.must_jokers - (p.jokers - jokers)
        at_most = min(jokers, left + jokers - self.keep)
        at_least = max(at_least, 0)
        if at_most < at_least:
            return _NEG, 0
        if not p.has_joker_builds:
            return (0, 0) if at_least == 0 else (_NEG, 0)
        used = s >> p.table_shift
        table = self.joker_tables.get(used)
        if table is None:
            table = self._joker_table(used)[0]
        best, count = _NEG, 0
        for k in range(at_least, at_most + 1):
            if table[k] > best:
                best, count = table[k], k
        return best, count

    def _joker_table(self, used: int) -> tuple[list[int], list[list[int]]]:
        """Knapsack of jokers alone onto table melds not yet built on: best score for each joker count.

        Also returns, per meld in order, how many jokers it takes in the best split (for reconstruction).
        """
        p = self.p
        size = p.jokers + 1
        table = [0] + [_NEG] * (size - 1)
        splits: list[list[int]] = []
        for meld, scores in enumerate(p.joker_scores):
            split = [0] * size
            if not used >> meld & 1 and any(v > _NEG for v in scores):
                merged = list(table)
                for total in range(1, size):
                    for k in range(1, total + 1):
                        if scores[k] > _NEG and table[total - k] > _NEG:
                            value = table[total - k] + scores[k]
                            if value > merged[total]:
                                merged[total] = value
                                split[total] = k
                table = merged
            splits.append(split)
        self.joker_tables[used] = table
        return table, splits

    def _reconstruct(self, score: int) -> _Outcome:
        p = self.p
        s, need, left = p.start, self.need0, 0
        melds: list[_Cand] = []
        builds: list[_Cand] = []
        width = p.width
        while s & ((1 << p.joker_shift) - 1):
            key = (s, need, left)
            number = self.choice[key]
            if number < 0:
                low = s & -s
                shift = (low.bit_length() - 1) // width * width
                count = (s >> shift) & ((1 << (width - 1)) - 1)
                s -= count << shift
                left = min(left + count, self.keep)
                continue
            cand = p.cands[number]
            for packed, table_bit, _, opening_points, other in p.by_field[p.codes.index(min(cand.naturals))]:
                if other == number:
                    s = (((s | p.guard) - packed) ^ p.guard) | table_bit
                    if need and not table_bit:
                        short = (need >> 1) - opening_points
                        need = short << 1 if short > 0 else 0
                    break
            (builds if cand.table >= 0 else melds).append(cand)
        _, jokers_built = self._leaf_choice(s, need, left)
        if jokers_built:
            used = s >> p.table_shift
            _, splits = self._joker_table(used)
            remaining = jokers_built
            for meld in range(len(p.joker_scores) - 1, -1, -1):
                k = splits[meld][remaining]
                if k:
                    joker_build = p.joker_only[meld][k]
                    assert joker_build is not None
                    builds.append(joker_build)
                    remaining -= k
        builds.sort(key=lambda c: c.table)
        return _Outcome(tuple(melds), tuple(builds), score)


# ---------------------------------------------------------------- the public API


def _check(hand: Sequence[Card], objective: str, keep: int, must_include: Sequence[Card]) -> None:
    if objective not in OBJECTIVES:
        raise SolverError(f"unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
    if any(not 0 <= card <= JOKER for card in hand):
        raise SolverError("a card code is out of range (0-51 for standard cards, 52 for a joker)")
    if keep < 0:
        raise SolverError(f"keep must be 0 or more, not {keep}")
    left = list(hand)
    for card in must_include:
        if card not in left:
            raise SolverError("must_include names a card the hand does not hold")
        left.remove(card)


def _plan(problem: _Problem, outcome: _Outcome | None) -> Plan:
    variant = problem.variant
    melds = () if outcome is None else outcome.melds
    builds = () if outcome is None else outcome.builds
    laid = [0] * 53
    points = 0
    for cand in (*melds, *builds):
        for card in cand.naturals:
            laid[card] += 1
        laid[JOKER] += cand.jokers
        points += cand.points
    remaining: list[Card] = []
    for code in range(53):
        remaining.extend([code] * (problem.counts[code] - laid[code]))
    planned: list[PlannedBuild] = []
    for cand in builds:
        if cand.run_build:
            if cand.written:
                planned.append((cand.table, cand.written, "low"))
            if cand.high:
                planned.append((cand.table, cand.high, "high"))
        else:
            planned.append((cand.table, cand.written, None))
    return Plan(
        melds=tuple(c.written for c in melds),
        builds=tuple(planned),
        points=points,
        cards_laid=len(problem.hand) - len(remaining),
        value_left=sum(card_points(c, variant.ace_value, variant.joker_penalty) for c in remaining),
        remaining=tuple(remaining),
    )


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
    Raises :class:`Unsolvable` when no plan lays ``must_include`` (the empty plan satisfies
    every other constraint, so that is the only way to fail).
    """
    _check(hand, objective, keep, must_include)
    if keep > len(hand):
        raise Unsolvable(f"the hand holds {len(hand)} cards and cannot keep {keep}")
    problem = _Problem(hand, variant, objective, table)
    if not problem.anything:
        if must_include:
            raise Unsolvable("the hand cannot lay anything, so it cannot lay the cards it must")
        return _plan(problem, None)
    need = None if opened else variant.opening_threshold
    outcome = problem.run(keep, must_include, need)
    if outcome is None or (not opened and not must_include and outcome.score <= 0):
        if must_include:
            raise Unsolvable("no plan lays every card of must_include under the constraints")
        return _plan(problem, None)
    return _plan(problem, outcome)


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
    problem = _Problem(hand, variant, objective, table)
    if not problem.cands:
        return None
    outcome = problem.run(keep, must_include, variant.opening_threshold)
    return None if outcome is None else _plan(problem, outcome)
