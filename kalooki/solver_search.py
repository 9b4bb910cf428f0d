"""The solver's search: the best lay of one hand's candidates under one turn's constraints.

The naturals that appear in some candidate form a multiset packed into one int, a few bits per
card code, followed by a field for the jokers and a bit per table meld already built on. A
depth-first search takes the lowest card code still undecided and either leaves every copy of it
in hand or lays one copy in a candidate whose lowest natural it is. That order reaches every
arrangement exactly once, and the packed int (with two small counters for the opening threshold
and ``keep``) is the whole state, so results are memoised on it. Jokers that no meld needs are
placed last, onto the table, by a knapsack.

A lay's score is a sum of per-card shares, so the shares of the undecided cards bound what a
state can still add; once its jokers are spent, only the naturals of candidates without jokers
can still be laid, so their shares, and for each joker left the most any candidate it may still
lay adds per joker beyond them, bound it more tightly. A branch that cannot beat the best found
so far at its node, or what a node above it must beat to change its choice (its floor), is
skipped. A value above the floor is exact and memoised; one at or below it only says so, and is
kept apart with that floor, so the choices read back are those of the search without floors. An
opening's points are bounded the same way.

Hands of :data:`BIG_HAND` cards or more are searched by :mod:`kalooki.solver_big`, to the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kalooki.cards import JOKER, Card
from kalooki.cardstate import codes_of
from kalooki.rules import SMALLEST_MELD
from kalooki.solver_layout import _NONE_MUST, NEG, _Layout

if TYPE_CHECKING:
    from kalooki.solver import _Problem
    from kalooki.solver_candidates import _Cand


@dataclass(slots=True)
class Outcome:
    """The best lay: its new melds and builds, in the search's order, and its score.

    Not frozen: a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``,
    and every hand with a meld builds one."""

    melds: tuple[_Cand, ...]
    builds: tuple[_Cand, ...]
    score: int


def search(
    problem: _Problem, keep: int, must_include: Sequence[Card], need_points: int | None
) -> Outcome | None:
    """The best lay, or None when none satisfies the constraints.

    ``need_points`` None: the player has opened. Otherwise the lay must hold at least one new
    meld and its new melds must total at least ``need_points``.
    """
    codes = _codes(problem)
    if must_include:
        live = set(codes)
        live.add(JOKER)
        if not live.issuperset(must_include):
            return None  # a card no candidate holds cannot be laid
        counted = [0] * 53
        for card in must_include:
            counted[card] += 1
        must: Sequence[int] = counted
    else:
        must = _NONE_MUST
    # need is twice the points still missing, plus 1 until a first new meld is chosen.
    need = 0 if need_points is None else 2 * max(need_points, 0) + 1
    if len(problem.hand) >= BIG_HAND:
        # Imported here: the large hands' search builds on this module's.
        from kalooki.solver_big import search_big

        return search_big(problem, codes, keep, must, need)
    run = _Search(problem, codes, keep, must)
    # The cards no candidate holds stay in hand, and count toward keep from the start.
    dead = len(problem.hand) - problem.jokers - run.held
    left = min(dead, keep)
    score = run.best(run.start, need, left, run.bound0, run.free0, run.reach0)
    if score <= NEG // 2:
        return None
    return run.read_back(score, need, left)


BIG_HAND: Final = 30
"""Cards in a hand from which :func:`search` hands it to :func:`kalooki.solver_big.search_big`:
below, this module's search took under a tenth of a second on every hand met (seeded random
hands of 27 cards, from two packs and from four)."""


def _codes(problem: _Problem) -> list[Card]:
    """The naturals some candidate holds, ascending, each once.

    With two jokers or more, each natural held makes a set with two of them (a set holds three
    cards or more, and no variant caps it below three), so every natural held is in a candidate."""
    if problem.jokers >= SMALLEST_MELD - 1:
        return codes_of(problem.held)
    return sorted({code for cand in problem.cands for code in cand.naturals})


class _Search(_Layout):
    """The memo of one search over a :class:`_Layout`; :meth:`best` is the search itself."""

    def __init__(self, problem: _Problem, codes: list[Card], keep: int, must: Sequence[int]) -> None:
        super().__init__(problem, codes, keep, must)
        self.joker_tables: dict[int, tuple[list[int], list[list[int]]]] = {}
        self.memo: dict[int, int] = {}
        self.choice: dict[int, int] = {}

    def joker_table(self, used: int) -> tuple[list[int], list[list[int]]]:
        """Knapsack of jokers alone onto the table melds not built on: best score per joker count,
        and per meld how many jokers it takes in the best split of each total."""
        found = self.joker_tables.get(used)
        if found is not None:
            return found
        size = self.total_jokers + 1
        best = [0] + [NEG] * (size - 1)
        splits: list[list[int]] = []
        for meld, scores in enumerate(self.joker_scores):
            split = [0] * size
            if not used >> meld & 1 and max(scores) > NEG:
                merged = list(best)
                for total in range(1, size):
                    for k in range(1, total + 1):
                        if scores[k] > NEG and best[total - k] > NEG:
                            value = best[total - k] + scores[k]
                            if value > merged[total]:
                                merged[total] = value
                                split[total] = k
                best = merged
            splits.append(split)
        self.joker_tables[used] = (best, splits)
        return best, splits

    def leaf(self, s: int, need: int, left: int) -> tuple[int, int]:
        """The best score once every natural is decided, and how many of the jokers left to build."""
        if need:
            return NEG, 0
        jokers = (s >> self.joker_shift) & self.field_mask
        at_least = max(self.must_jokers - (self.total_jokers - jokers), 0)
        at_most = min(jokers, left + jokers - self.keep)
        if at_most < at_least:
            return NEG, 0
        if not self.has_joker_builds:
            return (0, 0) if at_least == 0 else (NEG, 0)
        table = self.joker_table(s >> self.table_shift)[0]
        best, count = NEG, 0
        for k in range(at_least, at_most + 1):
            if table[k] > best:
                best, count = table[k], k
        return best, count

    def best(self, s: int, need: int, left: int, bound: int, free: int, reach: int) -> int:
        """The best score reachable from state ``s`` (NEG when none), recording each node's choice.

        The search is a closure: its constants are locals of this call, which Python reads faster
        than the attributes of ``self`` at every node."""
        memo, choice = self.memo, self.choice
        capped: dict[int, int] = {}
        natural_bits, width, field_mask, tied = self.natural_bits, self.width, self.field_mask, self.tied
        joker_shift, counter_shift, need_shift = self.joker_shift, self.counter_shift, self.need_shift
        guard, keep, cheapest, per_joker = self.guard, self.keep, self.cheapest, self.per_joker
        by_field, plain_by_field, max_leave = self.by_field, self.plain_by_field, self.max_leave
        natural_bound, free_bound, points_of = self.natural_bound, self.free_bound, self.points_of
        leaf = self.leaf
        # Without joker builds or jokers that must be laid, a leaf only asks for the opening and keep.
        plain_leaf = not self.has_joker_builds and not self.must_jokers

        def node(s: int, need: int, left: int, bound: int, free: int, reach: int, floor: int) -> int:
            # ``floor``: what this state must beat to change a choice above it. A value above it is
            # exact; otherwise the state's value is at most ``floor`` and the value returned says
            # only that (kept in ``capped`` until a lower floor asks again).
            # A card no candidate can lay stays, with no choice to make: such states are walked
            # through here rather than searched, and keep the value of the state they lead to.
            passed: list[int] | None = None
            while True:
                if not s & natural_bits:
                    if not plain_leaf:
                        value = leaf(s, need, left)[0]
                    elif need or left + ((s >> joker_shift) & field_mask) < keep:
                        value = NEG
                    else:
                        value = 0
                    if passed:
                        for key in passed:
                            memo[key] = value
                    return value
                if need > 1 and need >> 1 > reach:
                    if passed:
                        for key in passed:
                            memo[key] = NEG
                    return NEG
                key = s | (left << counter_shift) | (need << need_shift) if need or left else s
                found = memo.get(key)
                if found is not None:
                    if passed:
                        for key in passed:
                            memo[key] = found
                    return found
                jokers = (s >> joker_shift) & field_mask
                if s & tied and not jokers and not need and left >= keep:
                    # The naturals no candidate without jokers holds stay, all at once. The bounds
                    # are left as they are: with no joker left, no opening to reach and keep met,
                    # the cut is the free shares alone, and those naturals have none.
                    s -= s & tied
                    continue
                index = ((s & -s).bit_length() - 1) // width
                if left < keep:
                    cut = bound - (keep - left) * cheapest
                else:
                    # A lay holds its naturals' free shares, and no more than per_joker per joker.
                    cut = free + jokers * per_joker[index]
                    if cut > bound:
                        cut = bound
                if cut <= floor:
                    return floor  # even every undecided card laid at its best would not beat it
                if capped:
                    found = capped.get(key)
                    if found is not None and found <= floor:
                        return found
                guarded = s | guard
                top = NEG
                beat = floor
                chosen = -1
                layable = False
                for (
                    packed,
                    table_bit,
                    score,
                    slack,
                    share,
                    free_share,
                    opening_points,
                    points_share,
                    number,
                ) in by_field[index] if jokers else plain_by_field[index]:
                    if (guarded - packed) & guard != guard or s & table_bit:
                        continue
                    layable = True
                    # Skipping a branch that cannot beat the best so far keeps this node's value exact.
                    if slack + cut <= beat:
                        continue
                    if left >= keep:
                        # The cut the branch would make at once, made here: a call saved where it
                        # would return at its floor (it has no side effect then, its value said only
                        # to be at most the floor; a value found or a leaf's is at most that cut too).
                        rest = free - free_share + (jokers - (packed >> joker_shift)) * per_joker[index]
                        if rest > bound - share:
                            rest = bound - share
                        if rest + score <= beat:
                            continue
                    if need and not table_bit:
                        short = (need >> 1) - opening_points
                        after = short << 1 if short > 0 else 0
                    else:
                        after = need
                    # F821: ruff reads the ``del node`` after the search as leaving it unbound here.
                    value = (
                        node(  # noqa: F821
                            (s - packed) | table_bit,
                            after,
                            left,
                            bound - share,
                            free - free_share,
                            reach - points_share,
                            beat - score,
                        )
                        + score
                    )
                    if value > top:
                        top = value
                        chosen = number
                        if value > beat:
                            beat = value
                shift = index * width
                count = (s >> shift) & field_mask
                if layable:
                    break
                if passed is None:
                    passed = [key]
                else:
                    passed.append(key)
                if count > max_leave[index]:
                    for key in passed:
                        memo[key] = NEG
                    return NEG
                s -= count << shift
                left += count
                if left > keep:
                    left = keep
                bound -= count * natural_bound[index]
                free -= count * free_bound[index]
                reach -= count * points_of[index]
            if count <= max_leave[index]:
                rest = bound - count * natural_bound[index]
                kept = left + count
                free -= count * free_bound[index]
                # The cut the state left would make at once (see above).
                if kept < keep:
                    cut = rest - (keep - kept) * cheapest
                else:
                    kept = keep
                    cut = free + jokers * per_joker[index + 1]
                    if cut > rest:
                        cut = rest
                if cut > beat:
                    # F821: ruff reads the ``del node`` after the search as leaving it unbound here.
                    value = node(  # noqa: F821
                        s - (count << shift),
                        need,
                        kept,
                        rest,
                        free,
                        reach - count * points_of[index],
                        beat,
                    )
                    if value > top:
                        top = value
                        chosen = -1
            if top <= floor:
                # Nothing here beats the floor: the value is at most that, and no choice is kept.
                capped[key] = floor
                if passed:
                    for passed_key in passed:
                        capped[passed_key] = floor
                return top
            memo[key] = top
            choice[key] = chosen
            if passed:
                for passed_key in passed:
                    memo[passed_key] = top
            return top

        try:
            return node(s, need, left, bound, free, reach, NEG)
        finally:
            # The closure refers to itself: unbinding it breaks that cycle, so the memo and the
            # whole search are freed as the solve returns rather than by the garbage collector
            # (ruff reads the del as leaving ``node`` undefined in the calls above: F821).
            del node

    def read_back(self, score: int, need: int, left: int) -> Outcome:
        """Walk the recorded choices from the start to read the lay back."""
        s = self.start
        width, field_mask, keep = self.width, self.field_mask, self.keep
        natural_bits, counter_shift, need_shift = self.natural_bits, self.counter_shift, self.need_shift
        by_field, cands, choice = self.by_field, self.problem.cands, self.choice
        joker_shift, tied = self.joker_shift, self.tied
        melds: list[_Cand] = []
        builds: list[_Cand] = []
        while s & natural_bits:
            if s & tied and not (s >> joker_shift) & field_mask and not need and left >= keep:
                s -= s & tied  # left as the search left them, where it recorded its choices
                continue
            # A state the search left no choice at lays no candidate: its card stays (the key as
            # :meth:`key` makes it, written out: this walks every card of the hand).
            key = s | (left << counter_shift) | (need << need_shift) if need or left else s
            number = choice.get(key, -1)
            index = ((s & -s).bit_length() - 1) // width
            if number < 0:
                shift = index * width
                count = (s >> shift) & field_mask
                s -= count << shift
                left = left + count if left + count < keep else keep
                continue
            for packed, table_bit, _, _, _, _, opening_points, _, other in by_field[index]:
                if other == number:
                    s = (s - packed) | table_bit
                    if need and not table_bit:
                        short = (need >> 1) - opening_points
                        need = short << 1 if short > 0 else 0
                    break
            cand = cands[number]
            (builds if cand.table >= 0 else melds).append(cand)
        jokers_built = self.leaf(s, need, left)[1]
        if jokers_built:
            splits = self.joker_table(s >> self.table_shift)[1]
            for meld in range(len(self.joker_scores) - 1, -1, -1):
                k = splits[meld][jokers_built]
                if k:
                    joker_build = self.problem.joker_only[meld][k]
                    assert joker_build is not None
                    builds.append(joker_build)
                    jokers_built -= k
        if len(builds) > 1:
            builds.sort(key=lambda c: c.table)
        return Outcome(tuple(melds), tuple(builds), score)
