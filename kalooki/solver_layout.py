"""The solver search's layout (:mod:`kalooki.solver_search`): where each card code's count sits in
the packed state, each card's share of a lay's score, the bounds on what the undecided cards can
still add, and each candidate as an entry of its first natural's field: the first of its cards in the
order the codes are searched (the lowest code but where :mod:`kalooki.solver_big` searches the ranks
from the king down, and the highest is first).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter, mul
from typing import TYPE_CHECKING, Final

from kalooki.cards import JOKER, Card
from kalooki.solver_candidates import _free_naturals

if TYPE_CHECKING:
    from kalooki.solver import _Problem
    from kalooki.solver_candidates import _Cand, _Worth

NEG: Final = -(1 << 62)
"""The score of an infeasible branch: far below any real score, and still a plain int."""

_NONE_MUST: Final = (0,) * 53
"""``must`` when ``must_include`` is empty: no card code must be laid."""

_PLACES: Final = tuple(tuple(1 << (i * width) for i in range(JOKER)) for width in range(17))
"""By field width (up to 16: a count below 32768), where each field of the state starts."""

_by_score: Final = itemgetter(2)
"""An entry's score, for sorting a field's candidates best first."""

_Entry = tuple[int, int, int, int, int, int, int, int, int]
"""A candidate as the search uses it: (packed, table bit, score, slack, share, free share,
opening points, points share, candidate number); see :meth:`_Layout._entries`."""


class _Layout:
    """One search's state layout and scores: where each count sits in the packed state, each
    card's share of a score, the bounds, and each candidate as an entry of its first natural's field."""

    first_natural: int = 0
    """Which of a candidate's naturals (ascending by code) comes first in the order of the codes
    searched, the field it is an entry of: the lowest in the order of codes, the suits' or the
    ranks'; the highest where the codes are in the reverse of one of them (:mod:`kalooki.solver_big`)."""

    def __init__(self, problem: _Problem, codes: list[Card], keep: int, must: Sequence[int]) -> None:
        self.problem = problem
        self.keep = keep
        self.must_jokers = must[JOKER]
        self.total_jokers = problem.jokers
        self.has_joker_builds = problem.has_joker_builds
        self._layout(codes, keep, must)
        self.by_field, self.plain_by_field = self._entries(codes)
        self.joker_scores = [
            [NEG if c is None else problem.score((), c.jokers, c.points) for c in slots]
            for slots in problem.joker_only
        ]

    def _layout(self, codes: list[Card], keep: int, must: Sequence[int]) -> None:
        """Where each card code's count, the jokers, the table bits and the two counters sit in the
        state; each card's share of a lay's score; and the bounds on what the undecided cards can add.

        A lay's score adds, per card laid, its value in hand times ``per_value``, its points in
        the meld times ``per_point`` and ``per_card``; a joker adds ``joker_base`` in place of a
        value in hand. A natural's points are fixed but for an ace (low in a run, or high), a
        joker's depend on the card it stands for (or are its own: ``opening_joker_value: penalty``).
        So the shares of the cards still undecided, each at the most points it can add
        (``meld_value``; jokers at ``joker_most``), bound what a state can still add.
        """
        problem = self.problem
        counts = problem.counts
        jokers = problem.jokers
        rules = problem.rules
        value = rules.hand_value
        code_counts = list(map(counts.__getitem__, codes))
        width = max(max(code_counts, default=0), jokers, 1).bit_length() + 1
        self.width = width
        self.field_mask = (1 << (width - 1)) - 1
        self.joker_shift = len(codes) * width
        self.natural_bits = (1 << self.joker_shift) - 1
        self.table_shift = self.joker_shift + width
        self.counter_shift = self.table_shift + len(problem.joker_only)
        self.need_shift = self.counter_shift + max(keep, 1).bit_length()
        primary_unit, jokers_unit = problem.primary_unit, problem.jokers_unit
        points_unit = problem.points_unit
        objective = problem.objective
        if objective == "cards":
            per_value, per_point, per_card = 0, points_unit, primary_unit + 1
            joker_base = primary_unit - jokers_unit + 1
        elif objective == "points":
            per_value, per_point, per_card = 0, primary_unit + points_unit, 1
            joker_base = -jokers_unit + 1
        else:
            per_value, per_point, per_card = primary_unit, points_unit, 1
            joker_base = value[JOKER] * primary_unit - jokers_unit + 1
        self.joker_base = joker_base
        self.per_value, self.per_point, self.per_card = per_value, per_point, per_card
        places = _PLACES[width][: len(codes)]
        # By card code, lists rather than dicts: a list reads an int index faster than a dict a key.
        bit = [0] * JOKER
        for code, place in zip(codes, places, strict=True):
            bit[code] = place
        self.bit = bit
        # What each undecided natural can still add to an opening's points.
        self.points_of = points_of = list(map(rules.meld_value.__getitem__, codes))
        if rules.meld_value is value:
            per_worth = per_value + per_point
            natural_bound = [worth * per_worth + per_card for worth in points_of]
        else:
            natural_bound = [
                value[code] * per_value + worth * per_point + per_card
                for code, worth in zip(codes, points_of, strict=True)
            ]
        self.natural_bound = natural_bound
        self.max_leave = code_counts if must is _NONE_MUST else [counts[code] - must[code] for code in codes]
        self.code_counts = code_counts
        self.held = sum(code_counts)
        reach = sum(map(mul, code_counts, points_of))
        # The top bit of each natural's field and of the jokers' field: a state minus a candidate
        # keeps all of them (borrows none) exactly when the state holds every card it lays.
        self.guard = (sum(places) + (1 << self.joker_shift)) << (width - 1)
        self.start = sum(map(mul, code_counts, places)) + (jokers << self.joker_shift)
        dearest = rules.joker_most
        self.joker_bound = joker_bound = max(joker_base + dearest * per_point, 0)
        self.bound0 = sum(map(mul, code_counts, natural_bound)) + jokers * joker_bound
        # While fewer than keep cards are left, that many undecided cards must stay: at least the cheapest.
        self.cheapest = min(min(natural_bound), joker_bound) if codes else 0
        # An opening also needs its points: the undecided cards' points (jokers at their most)
        # bound what the new melds can still reach.
        self.joker_reach = dearest
        self.reach0 = reach + jokers * dearest

    def _entries(self, codes: list[Card]) -> tuple[list[list[_Entry]], list[list[_Entry]]]:
        """Per field, the candidates whose first natural it is, best first so that good lays found
        early let the bound cut the rest; and the same without the candidates with jokers, which
        once the jokers are spent are all the search need look at (half the entries it met on
        hands with jokers were candidates with jokers met with none left).

        Also the tighter bound for hands with jokers: ``free_bound`` is each natural's share when
        some candidate without jokers holds it, else 0, and ``per_joker`` by field the most a
        candidate with jokers whose first natural is that field's or a later one adds per joker
        beyond its naturals' free shares (rounded up). A lay adds at most the free shares of the
        naturals it lays plus so much for each joker it lays, and a state lays only candidates whose
        first natural is undecided: so from a state, at most the undecided naturals' free shares
        plus ``per_joker`` of its first undecided field per joker left."""
        by_field: list[list[_Entry]] = [[] for _ in codes]
        plain_by_field: list[list[_Entry]] = [[] for _ in codes] if self.total_jokers else by_field
        rules = self.problem.rules
        bit = self.bit
        field = [0] * JOKER
        for index, code in enumerate(codes):
            field[code] = index
        joker_shift, table_shift = self.joker_shift, self.table_shift
        joker_base, joker_bound, joker_reach = self.joker_base, self.joker_bound, self.joker_reach
        per_value, per_point, per_card = self.per_value, self.per_point, self.per_card
        problem = self.problem
        cands = problem.cands
        first = self.first_natural
        # The naturals some candidate without jokers lays: with no joker left, only they can be laid.
        free_bound = self.natural_bound
        free_of: list[int] = []  # by card code; read only for candidates with jokers
        tied = 0  # a bit at the foot of the field of each natural no candidate without jokers holds
        if self.total_jokers:
            if problem.joker_only or problem.copies:
                free = 0
                for cand in cands:
                    if not cand.jokers:
                        for code in cand.naturals:
                            free |= 1 << code
            else:
                free = _free_naturals(problem.suit_ranks, rules)
            free_bound = [
                bound if free >> code & 1 else 0 for code, bound in zip(codes, free_bound, strict=True)
            ]
            free_of = [0] * JOKER
            for code, bound in zip(codes, free_bound, strict=True):
                free_of[code] = bound
                if not free >> code & 1:
                    tied += bit[code]
        self.free_bound = free_bound
        # Those naturals' whole fields: once the jokers are spent, no candidate left can lay them, and
        # the search leaves them all at once (see _Search.best) unless must_include names cards.
        self.tied = tied * ((1 << self.width) - 1) if self.max_leave is self.code_counts else 0
        self.free0 = sum(map(mul, self.code_counts, free_bound))
        # Jokers left unlaid add only where they may be built onto the table alone.
        per_joker = [joker_bound if self.has_joker_builds else 0] * (len(codes) + 1)
        # What a candidate adds but for its cards' places depends on these alone: kept on it for
        # them (most hands share them, and the listed candidates are kept across hands).
        made: tuple[int, ...] = (per_value, per_point, per_card, joker_base, joker_bound, joker_reach)
        units = rules.units.setdefault(made, made)
        for number, cand in enumerate(cands):
            naturals = cand.naturals
            if not naturals:
                continue
            worth = cand.worth
            if worth is None or worth[0] is not units:
                worth = cand.worth = self._worth(cand, units)
            _, jokers, score, slack, cap, opening_points, points_share, table_bit = worth
            # A plain loop: candidates hold one to a few naturals, too few for map and sum to pay.
            packed = 0
            index = field[naturals[first]]
            if jokers:
                free_share = 0
                for code in naturals:
                    packed += bit[code]
                    free_share += free_of[code]
                # Rounded up, so that jokers times it stays a bound on what they add to free shares.
                joker_share = -(-(cap - free_share) // jokers)
                if joker_share > per_joker[index]:
                    per_joker[index] = joker_share
                packed += jokers << joker_shift
            else:
                for code in naturals:
                    packed += bit[code]
                free_share = cap  # every natural of a candidate without jokers is free
            table_bit <<= table_shift
            entry = (packed, table_bit, score, slack, cap, free_share, opening_points, points_share, number)
            by_field[index].append(entry)
            if not jokers and plain_by_field is not by_field:
                plain_by_field[index].append(entry)
        # A state lays only candidates whose first natural is undecided: the most from its field on.
        for index in range(len(codes) - 1, -1, -1):
            if per_joker[index + 1] > per_joker[index]:
                per_joker[index] = per_joker[index + 1]
        self.per_joker = per_joker
        for group in by_field:
            if len(group) > 1:
                group.sort(key=_by_score, reverse=True)  # stable: equal scores keep their order
        if plain_by_field is not by_field:
            # Sorting a part keeps the order the whole sorted gives it.
            for group in plain_by_field:
                if len(group) > 1:
                    group.sort(key=_by_score, reverse=True)
        return by_field, plain_by_field

    def _worth(self, cand: _Cand, units: tuple[int, ...]) -> _Worth:
        """What ``cand`` adds to a lay's score and bounds under ``units``, whatever the hand."""
        rules = self.problem.rules
        value, meld_value = rules.hand_value, rules.meld_value
        per_value, per_point, per_card, joker_base, joker_bound, joker_reach = units
        naturals = cand.naturals
        natural_value = 0
        for code in naturals:
            natural_value += value[code]
        # Only an ace low worth more than in hand adds more points than its value in hand.
        aces_gain = meld_value is not value
        natural_points = sum(map(meld_value.__getitem__, naturals)) if aces_gain else natural_value
        jokers = cand.jokers
        base = natural_value * per_value + len(naturals) * per_card
        score = base + cand.points * per_point + jokers * joker_base
        cap = base + natural_points * per_point + jokers * joker_bound
        table = cand.table
        return (
            units,
            jokers,
            score,
            score - cap,
            cap,
            cand.points if table < 0 else 0,
            natural_points + jokers * joker_reach,
            0 if table < 0 else 1 << table,
        )
