"""The exact meld solver: the best way to lay a hand down as new melds and builds onto the table.

:func:`solve` finds the arrangement that is best for an objective (most points laid, most
cards laid, or least value left in hand), under the turn's constraints: whether the player
has opened (an opening's new melds must reach ``opening_threshold``), how many cards must stay
in hand, and which cards must be laid. :func:`best_opening` finds the best opening, or None.

How it works. Every way a meld can use the hand's natural cards is listed once up front: sets
by rank and suit subset, runs by the naturals they hold and their number of jokers (keeping the
frame worth the most points: the other objectives do not care where a joker sits), builds by
table meld and the cards added at each end (this module). :mod:`kalooki.solver_search` then
finds the best lay of those candidates: a depth-first search over the undecided cards, memoised
on a packed int, with bounds that keep every memoised value exact.

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
from kalooki.rules import keep, most_ace_points, run_frame
from kalooki.solver_search import Outcome, search
from kalooki.variant import Variant

Objective = Literal["points", "cards", "value_left"]
BuildEnd = Literal["low", "high"]
PlannedBuild = tuple[int, tuple[Card, ...], BuildEnd | None]

OBJECTIVES: Final[tuple[Objective, ...]] = ("points", "cards", "value_left")
SET_MIN: Final = 3


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


keep_for = keep
"""The ``keep`` a turn needs before its discard (:func:`kalooki.rules.keep`, kept under its old name)."""


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
            if window:
                _natural_runs(line_mask, suit * 13, rules, out)
            continue
        if mask.bit_count() + jokers < run_min:
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


def _natural_runs(line_mask: int, base: int, rules: _Rules, out: list[_Cand]) -> None:
    """Every run of the hand's naturals alone (no jokers): each stretch of consecutive positions.

    Listed as the general search over frames would list them: by lowest position, then by length,
    each set of naturals once, in its frame worth the most (the first of equals).
    """
    run_min = rules.run_min
    points = rules.position_points
    best: dict[tuple[Card, ...], _Cand] = {}
    first = 14 if rules.wrap else 1
    last = 26 if rules.wrap else 14
    for low in range(first, last + 1):
        if not (line_mask >> low) & 1:
            continue
        high = low
        while high - low + 1 < RUN_MAX and (line_mask >> (high + 1)) & 1:
            high += 1
        if high - low + 1 < run_min:
            continue
        written = [base + (p - 1) % 13 for p in range(low, high + 1)]
        value = sum(points[_OFFSET + low : _OFFSET + low + run_min - 1])
        for end in range(low + run_min - 1, high + 1):
            value += points[_OFFSET + end]
            meld = tuple(written[: end - low + 1])
            naturals = tuple(sorted(meld))
            known = best.get(naturals)
            if known is None:
                best[naturals] = _Cand(naturals, 0, value, -1, meld)
            elif known.points < value:
                known.points, known.written = value, meld
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


# ---------------------------------------------------------------- the problem


class _Problem:
    """One hand, variant, table and objective: the candidates, ready for :func:`search`."""

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

    def plan(self, outcome: Outcome | None) -> Plan:
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
    outcome = search(problem, keep, must_include, None if opened else variant.opening_threshold)
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
    outcome = search(problem, keep, must_include, variant.opening_threshold)
    return None if outcome is None else problem.plan(outcome)
