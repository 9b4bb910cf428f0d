"""The solver's search for large hands: the same best lay as :func:`kalooki.solver_search.search`,
found by searching the cards in three orders.

The search takes the lowest undecided card code, and codes run suit by suit: a set laid from
the first suit takes cards of every later suit, so by the end of a suit the states differ in
which cards of the other three are gone, and on hands of 40 cards or more the memo held few of
them twice (a 50-card hand met 2.6 million nodes for 56,000 states; seconds, where a turn takes
microseconds). Searched rank by rank, a set takes only cards of its own rank, and a run the next
cards of its suit, so states repeat and most hands are searched in milliseconds.

Rank by rank, the ranks may rise from the ace or fall from the king (the suits within a rank
then from the last, so that a candidate's highest natural is its first card in that order). On
60-card hands of classic's pack, rising met millions of nodes where falling meets tens of
thousands, and on 50-card hands with four jokers of four decks mostly several times as many: falling
decides the dearest cards first, so the bound falls with them early, and the runs an ace ends
(Q-K-A) are laid where the king is decided rather than carried from the first rank to the last.
Some hands with jokers are the other way round. So the three orders take turns, falling, rising,
then by suit (for a smaller share), each for a budget of nodes that grows, until one finishes;
what a search has found stays found for its next turn.

The suit order's search finishing gives the answer directly. A rank order's finds the best
score, not the plan: ties break by the suit order (the first lay in its order, see
:mod:`kalooki.solver`). That plan is read off by walking the suit order's choices from the
start, taking at each state the first choice (candidates in the search's order, then leaving
the card) from which the rank order's search still reaches the score that remains: the first
best choice, as the suit order's search would record it.

Those searches know the best score ``V`` of the whole hand, so no state reached by lays scoring
``p`` can add more than ``V - p`` (its ceiling): a state stops as soon as a choice reaches it,
and a floor at or above it cuts the state at once. The values kept stay exact, the ceiling
being a true bound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from kalooki.solver_layout import NEG
from kalooki.solver_search import Outcome, _Search

if TYPE_CHECKING:
    from kalooki.solver import _Problem
    from kalooki.solver_candidates import _Cand

FIRST_BUDGET: Final = 20_000
"""Nodes each order may meet on its first turn (a few hundredths of a second); each turn after
has four times the last."""

SUIT_SHARE: Final = 16
"""The suit order's turn is a sixteenth of the rank orders'. On hands of 40 to 60 cards, of classic's
pack or with four jokers of four decks, a rank order finished first on every hand timed, so the suit
order's turns (which spare the walk only when it finishes first) were spent for nothing: a sixteenth
met 10 to 15% fewer nodes on them, and the same on hands of 30 to 36 cards, which a rank order
searches within its first turn."""

_UNBOUNDED: Final = 1 << 62
"""The budget of the walk: it asks only the order that finished, to the end. Asking every order in
turn at each question, each for a budget growing fourfold, was slower on each size timed (45 and 50
cards with four jokers, 60 of classic's pack)."""

_CEILING: Final = -NEG
"""The ceiling of a search that knows no best score."""


class _OverBudget(Exception):
    """A search met its budget of nodes before it finished."""


def search_big(
    problem: _Problem, codes: list[int], keep: int, must: Sequence[int], need: int
) -> Outcome | None:
    """:func:`kalooki.solver_search.search`'s answer for a large hand, with the arguments as it read
    them: the naturals some candidate holds (ascending), ``must`` by card code and ``need``, the opening
    points still missing as its search counts them."""
    by_suit = _BoundedSearch(problem, codes, keep, must)
    searches = [
        _BoundedSearch(problem, sorted(codes, key=place), keep, must, first_natural)
        for place, first_natural in RANK_ORDERS
    ]
    searches.append(by_suit)
    # The cards no candidate holds stay in hand, as search counts them.
    left = min(len(problem.hand) - problem.jokers - by_suit.held, keep)
    budget = FIRST_BUDGET
    while True:
        for search in searches:
            search.nodes_left = budget if search is not by_suit else budget // SUIT_SHARE
            try:
                best = search.bounded(search.start, need, left, NEG, _CEILING)
            except _OverBudget:
                continue
            if best <= NEG // 2:
                return None
            if search is by_suit:
                return by_suit.read_back(best, need, left)
            search.nodes_left = _UNBOUNDED
            return _walk(by_suit, search, best, need, left)
        budget *= 4


def _ace_first(code: int) -> tuple[int, int]:
    """A card code's place in the rank order from the ace up: by rank, then suit. A candidate's
    lowest code is still its first card in that order (a set's cards are of one rank, a run's of
    one suit), so it stays the field the search files it under."""
    return code % 13, code // 13


def _king_first(code: int) -> tuple[int, int]:
    """A card code's place in the rank order: by rank from the king down, then by suit from the last.
    A candidate's highest code is its first card in that order (a set's cards are of one rank, a
    run's of one suit), so that is the field the search files it under."""
    return -(code % 13), -(code // 13)


RANK_ORDERS: Final[tuple[tuple[Callable[[int], tuple[int, int]], int], ...]] = (
    (_king_first, -1),
    (_ace_first, 0),
)
"""The rank orders, in the order they take their turns before the suit order's: each as the place
of a card code in it and the candidate's natural that comes first in it (``first_natural``)."""


def _walk(by_suit: _BoundedSearch, by_rank: _BoundedSearch, best: int, need: int, left: int) -> Outcome:
    """The plan the suit order's search would read back, the best score being ``best``: at each
    state, its first choice from which ``by_rank`` reaches what is still to score (see the module's
    docstring). The states are as :meth:`_Search.read_back` walks them."""
    s = by_suit.start
    width, field_mask, keep = by_suit.width, by_suit.field_mask, by_suit.keep
    natural_bits, joker_shift, tied, guard = (
        by_suit.natural_bits,
        by_suit.joker_shift,
        by_suit.tied,
        by_suit.guard,
    )
    cands = by_suit.problem.cands
    # Where each field of the suit order sits in the rank order.
    place = {code: index for index, code in enumerate(by_rank.codes)}
    moved = [place[code] * width for code in by_suit.codes]
    full_field = (1 << width) - 1
    melds: list[_Cand] = []
    builds: list[_Cand] = []
    remaining = best
    while s & natural_bits:
        jokers = (s >> joker_shift) & field_mask
        if s & tied and not jokers and not need and left >= keep:
            s -= s & tied
            continue
        index = ((s & -s).bit_length() - 1) // width
        guarded = s | guard
        for packed, table_bit, score, _, _, _, opening_points, _, number in (
            by_suit.by_field[index] if jokers else by_suit.plain_by_field[index]
        ):
            if (guarded - packed) & guard != guard or s & table_bit:
                continue
            if need and not table_bit:
                short = (need >> 1) - opening_points
                after = short << 1 if short > 0 else 0
            else:
                after = need
            child = (s - packed) | table_bit
            goal = remaining - score
            # Reaching the goal from below the ceiling the goal is: a yes or no, cut at goal - 1.
            moved_child = (child >> joker_shift) << joker_shift
            for field, shift in enumerate(moved):
                moved_child |= ((child >> field * width) & full_field) << shift
            if by_rank.bounded(moved_child, after, left, goal - 1, goal) >= goal:
                s, need, remaining = child, after, goal
                cand = cands[number]
                (builds if cand.table >= 0 else melds).append(cand)
                break
        else:
            shift = index * width
            count = (s >> shift) & field_mask
            s -= count << shift
            left = left + count if left + count < keep else keep
    # The jokers no meld took, built onto the table as :meth:`_Search.read_back` builds them.
    jokers_built = by_suit.leaf(s, need, left)[1]
    if jokers_built:
        splits = by_suit.joker_table(s >> by_suit.table_shift)[1]
        for meld in range(len(by_suit.joker_scores) - 1, -1, -1):
            k = splits[meld][jokers_built]
            if k:
                joker_build = by_suit.problem.joker_only[meld][k]
                assert joker_build is not None
                builds.append(joker_build)
                jokers_built -= k
    if len(builds) > 1:
        builds.sort(key=lambda c: c.table)
    return Outcome(tuple(melds), tuple(builds), best)


class _BoundedSearch(_Search):
    """A :class:`_Search` over some order of the card codes, searched by :meth:`bounded`;
    ``first_natural`` as :attr:`kalooki.solver_layout._Layout.first_natural` says, for that order."""

    def __init__(
        self, problem: _Problem, codes: list[int], keep: int, must: Sequence[int], first_natural: int = 0
    ) -> None:
        self.first_natural = first_natural
        super().__init__(problem, codes, keep, must)
        self.codes = codes
        self.capped: dict[int, int] = {}
        self.nodes_left = 0
        # By jokers left, each field's entries that lay no more: the others cannot be laid, and
        # skipping them keeps the order of the rest. Searched from the king down, a node met 46
        # entries on a 40-card hand with two jokers where it met 5 from the ace up.
        joker_shift = self.joker_shift
        self.by_jokers = [self.plain_by_field] + [
            [[entry for entry in group if entry[0] >> joker_shift <= jokers] for group in self.by_field]
            for jokers in range(1, self.total_jokers + 1)
        ]

    def bounds(self, s: int) -> tuple[int, int, int]:
        """What the undecided cards of state ``s`` may still add, as :meth:`_Search.best` takes it:
        the bound, the free shares and the opening points (:mod:`kalooki.solver_layout`)."""
        jokers = (s >> self.joker_shift) & self.field_mask
        bound, free, reach = jokers * self.joker_bound, 0, jokers * self.joker_reach
        width, field_mask = self.width, self.field_mask
        for index, (natural, free_share, points) in enumerate(
            zip(self.natural_bound, self.free_bound, self.points_of, strict=True)
        ):
            count = (s >> index * width) & field_mask
            if count:
                bound += count * natural
                free += count * free_share
                reach += count * points
        return bound, free, reach

    def bounded(self, s: int, need: int, left: int, floor: int, ceil: int) -> int:
        """:meth:`_Search.best` from any state, with a floor, a ceiling and a budget: the best score
        reachable from state ``s``, exact where above ``floor`` (else at most ``floor``), given that
        it is at most ``ceil``; :class:`_OverBudget` once ``nodes_left`` nodes are met.

        The node below is :meth:`_Search.best`'s with three changes: the ceiling, the count of nodes,
        and the memo of values at most a floor (``capped``) kept on the search, across calls (what it
        holds stays true). Kept apart so that the hands of every turn pay for none of them."""
        memo, choice, capped = self.memo, self.choice, self.capped
        bound, free, reach = self.bounds(s)
        nodes = self.nodes_left
        natural_bits, width, field_mask, tied = self.natural_bits, self.width, self.field_mask, self.tied
        joker_shift, counter_shift, need_shift = self.joker_shift, self.counter_shift, self.need_shift
        guard, keep, cheapest, per_joker = self.guard, self.keep, self.cheapest, self.per_joker
        by_jokers, max_leave = self.by_jokers, self.max_leave
        natural_bound, free_bound, points_of = self.natural_bound, self.free_bound, self.points_of
        leaf = self.leaf
        # Without joker builds or jokers that must be laid, a leaf only asks for the opening and keep.
        plain_leaf = not self.has_joker_builds and not self.must_jokers

        def node(
            s: int, need: int, left: int, bound: int, free: int, reach: int, floor: int, ceil: int
        ) -> int:
            # ``floor``: what this state must beat to change a choice above it. A value above it is
            # exact; otherwise the state's value is at most ``floor`` and the value returned says
            # only that (kept in ``capped`` until a lower floor asks again).
            # A card no candidate can lay stays, with no choice to make: such states are walked
            # through here rather than searched, and keep the value of the state they lead to.
            # ``ceil``: what this state cannot exceed (see the module's docstring); children get it
            # less their score. It is not a share of the cards, so it is not added to their slack.
            nonlocal nodes
            nodes -= 1
            if nodes < 0:
                raise _OverBudget
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
                if cut <= floor or ceil <= floor:
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
                ) in by_jokers[jokers][index]:
                    if (guarded - packed) & guard != guard or s & table_bit:
                        continue
                    layable = True
                    # Skipping a branch that cannot beat the best so far keeps this node's value exact.
                    if beat >= ceil:
                        break
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
                            ceil - score,
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
                if cut > beat and ceil > beat:
                    # F821: ruff reads the ``del node`` after the search as leaving it unbound here.
                    value = node(  # noqa: F821
                        s - (count << shift),
                        need,
                        kept,
                        rest,
                        free,
                        reach - count * points_of[index],
                        beat,
                        ceil,
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
            return node(s, need, left, bound, free, reach, floor, ceil)
        finally:
            self.nodes_left = nodes
            # The closure refers to itself: unbinding it breaks that cycle, so the memo and the
            # whole search are freed as the solve returns rather than by the garbage collector
            # (ruff reads the del as leaving ``node`` undefined in the calls above: F821).
            del node
