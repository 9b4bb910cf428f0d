"""The exact meld solver: the best way to lay a hand down as new melds and builds onto the table.

:func:`solve` finds the arrangement that is best for an objective (most points laid, most
cards laid, or least value left in hand), under the turn's constraints: whether the player
has opened (an opening's new melds must reach ``opening_threshold``), how many cards must stay
in hand, and which cards must be laid. :func:`best_opening` finds the best opening, or None.

How it works. Every way a meld can use the hand's natural cards is listed once up front: sets
by rank and suit subset (with a card's copies where suits may repeat), runs by the naturals they
hold and their number of jokers (keeping the frame worth the most points: the other objectives do
not care where a joker sits), builds by table meld and the cards added at each end
(:mod:`kalooki.solver_candidates`, :mod:`kalooki.solver_builds`). :mod:`kalooki.solver_search`
then finds the best lay of those candidates: a depth-first search over the undecided cards,
memoised on a packed int, with bounds that keep every memoised value exact. A hand that holds no
meld and faces no table is answered before any of that.

Ties break deterministically: the objective, then fewer jokers laid, then more points, then
more cards, then the first arrangement in the search order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final, Literal

from kalooki.cards import JOKER, Card
from kalooki.errors import KalookiError
from kalooki.melds import MeldKind, TableMeld
from kalooki.rules import may_leave, opening_points
from kalooki.solver_arguments import argument_problem, call_problem, cannot_keep
from kalooki.solver_builds import _run_builds, _set_builds
from kalooki.solver_candidates import (
    _LAST_RULES,
    _NATURALS,
    _SUIT,
    _VALUE_SHIFT,
    _Cand,
    _free_naturals,
    _holds_no_meld,
    _read_hand,
    _Rules,
    _rules,
    _run_candidates,
    _set_candidates,
)
from kalooki.solver_lone_runs import _with_lone_runs
from kalooki.solver_parts import _best_of_each_part, _outermost
from kalooki.solver_search import Outcome, search
from kalooki.variant import Variant

Objective = Literal["points", "cards", "value_left"]
BuildEnd = Literal["low", "high"]
PlannedBuild = tuple[int, tuple[Card, ...], BuildEnd | None]

OBJECTIVES: Final[tuple[Objective, ...]] = ("points", "cards", "value_left")


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
    left it. ``points`` counts new melds and builds, every joker as ``opening_joker_value`` says.
    ``remaining`` is what stays in hand, by card code (jokers last), and ``value_left`` its
    ``card_points`` (jokers at ``joker_penalty``). ``kinds``: empty, or for each new meld ``"run"``
    where one natural and jokers are laid as a run (``JK 6H JK`` as 5-6-7), else None; the move
    that lays the plan is ``Meld(melds, kinds)``.
    """

    melds: tuple[tuple[Card, ...], ...]
    builds: tuple[PlannedBuild, ...]
    points: int
    cards_laid: int
    value_left: int
    remaining: tuple[Card, ...]
    kinds: tuple[MeldKind | None, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.melds and not self.builds


# ---------------------------------------------------------------- the problem


class _Problem:
    """One hand, variant, table and objective: the candidates, ready for :func:`search`."""

    def __init__(
        self,
        hand: Sequence[Card],
        rules: _Rules,
        objective: Objective,
        table: Sequence[TableMeld],
        held: int,
        value: int,
    ) -> None:
        """``held`` and ``value``: the hand's natural cards as a mask, each once, and its value
        in hand (:func:`_read_hand`)."""
        counts = [0] * 53
        for card in hand:
            counts[card] += 1
        jokers = counts[JOKER]
        self.distinct = held.bit_count() + jokers == len(hand)
        suit_ranks = [held & _SUIT, held >> 13 & _SUIT, held >> 26 & _SUIT, held >> 39]
        self.hand = hand
        self.held = held
        self.suit_ranks = suit_ranks
        self.value = value
        self.rules = rules
        self.objective = objective
        self.counts = counts
        self.jokers = jokers
        cands: list[_Cand] = []
        # A set may name a card twice only where suits may repeat and the hand holds a copy.
        self.copies = rules.suits_repeat and not self.distinct
        # With two jokers, a natural's lone runs take the place of its sets they beat.
        lone = _with_lone_runs if jokers > 1 else None
        _set_candidates(suit_ranks, jokers, rules, cands, counts if self.copies else None, lone)
        _run_candidates(suit_ranks, jokers, rules, cands)
        self.joker_only: list[list[_Cand | None]] = []
        joker_builds = False
        for index, meld in enumerate(table):
            slots: list[_Cand | None] = [None] * (jokers + 1)
            if meld.kind == "set":
                _set_builds(index, meld, counts, jokers, rules, cands, slots)
            else:
                _run_builds(index, meld, counts, jokers, rules, cands, slots)
            self.joker_only.append(slots)
            if jokers and not joker_builds:
                joker_builds = slots.count(None) <= jokers  # slot 0 stays None: any other filled
        self.cands = cands
        self.has_joker_builds = joker_builds
        # Units of the score: each term's whole range fits below one unit of the term before it.
        total = len(hand)
        self.points_unit = total + 1
        self.jokers_unit = self.points_unit * (total * max(rules.ace_value, 10, rules.joker_most) + 1)
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
            primary = jokers * value[JOKER]
            # A plain loop: a meld holds too few cards for sum and map to pay.
            for card in naturals:
                primary += value[card]
        return primary * self.primary_unit - jokers * self.jokers_unit + points * self.points_unit + cards

    def plan(self, outcome: Outcome | None) -> Plan:
        remaining = sorted(self.hand)
        if outcome is None:
            return _plan((), (), 0, 0, self.value, tuple(remaining))
        remove = remaining.remove
        value = self.rules.hand_value
        points = jokers = laid_value = 0
        for cand in outcome.melds:
            for card in cand.naturals:
                remove(card)  # one copy the plan lays
                laid_value += value[card]
            jokers += cand.jokers
            points += cand.points
        planned: list[PlannedBuild] = []
        for cand in outcome.builds:
            for card in cand.naturals:
                remove(card)
                laid_value += value[card]
            jokers += cand.jokers
            points += cand.points
            if not cand.run_build:
                planned.append((cand.table, cand.written, None))
                continue
            if cand.written:
                planned.append((cand.table, cand.written, "low"))
            if cand.high:
                planned.append((cand.table, cand.high, "high"))
        if jokers:
            del remaining[-jokers:]  # the jokers sort last
            laid_value += jokers * value[JOKER]
        melds = outcome.melds
        return _plan(
            tuple([c.written for c in melds]),
            tuple(planned),
            points,
            len(self.hand) - len(remaining),
            self.value - laid_value,
            tuple(remaining),
            tuple(["run" if c.lone_run else None for c in melds]) if jokers > 1 else (),
        )


class _PlanDraft:
    """A :class:`Plan` filled in through the same slots by plain assignment, then made a
    :class:`Plan` (``__class__`` may change between classes of the same slots).

    The frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` by name,
    which costs as much as a whole hand with nothing to lay. The parameters are the plan's fields,
    in order (a test holds them to it), as :class:`kalooki.view.PlayerView` is made."""

    __slots__ = Plan.__slots__

    def __init__(
        self,
        melds: tuple[tuple[Card, ...], ...],
        builds: tuple[PlannedBuild, ...],
        points: int,
        cards_laid: int,
        value_left: int,
        remaining: tuple[Card, ...],
        kinds: tuple[MeldKind | None, ...] = (),
    ) -> None:
        self.melds = melds
        self.builds = builds
        self.points = points
        self.cards_laid = cards_laid
        self.value_left = value_left
        self.remaining = remaining
        # Empty where no meld is a lone run: plans compare as they did.
        self.kinds = kinds if "run" in kinds else ()
        self.__class__ = Plan  # type: ignore[assignment]


_plan: Callable[..., Plan] = _PlanDraft  # type: ignore[assignment]
"""``Plan(...)`` with the fields given in order, set straight into its slots (:class:`_PlanDraft`)."""

new_plan = _plan
""":data:`_plan` for the bots, whose plans of nothing to lay or of builds alone are made on most turns."""


class _KeptDraft:
    """The empty plan, the whole hand kept, made as :class:`_PlanDraft` makes a plan: the common
    answer for a hand with nothing to lay, where passing six fields costs a sixth of its making."""

    __slots__ = Plan.__slots__

    def __init__(self, value_left: int, remaining: tuple[Card, ...]) -> None:
        self.melds = ()
        self.builds = ()
        self.points = 0
        self.cards_laid = 0
        self.value_left = value_left
        self.remaining = remaining
        self.kinds = ()
        self.__class__ = Plan  # type: ignore[assignment]


_kept_plan: Callable[[int, tuple[Card, ...]], Plan] = _KeptDraft  # type: ignore[assignment]


# ---------------------------------------------------------------- the public API


def _check(
    hand: Sequence[Card], objective: str, keep: int, must_include: Sequence[Card], opened: object = True
) -> None:
    if objective not in OBJECTIVES:
        raise SolverError(f"unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
    problem = call_problem(hand, keep, must_include, opened)
    if problem is not None:
        raise SolverError(problem)


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
    the empty plan satisfies every other constraint. Raises :class:`SolverError` on bad arguments
    (a bool in ``hand`` is read as the int it is, True as card 1: a look at every card's type would cost
    every call; one in ``must_include`` is refused). Under ``going_out: meld_required`` no plan leaves
    exactly one card (:func:`_none_or_two`).
    """
    try:
        # An opened not a bool ("no" was taken as true), a keep not an int (False for 0): one test each here.
        if (
            objective not in OBJECTIVES
            or keep
            or type(keep) is not int
            or must_include
            or (opened is not True and opened is not False)
        ):
            _check(hand, objective, keep, must_include, opened)
            if keep > len(hand):
                raise Unsolvable(cannot_keep(hand, keep))
        # The tables last used, else looked up: most runs of calls are for one variant.
        rules = _LAST_RULES[0]
        if rules is None or rules.variant is not variant:
            rules = _rules(variant)
        # Reading the hand reads every card's code anyway, so the common call skips a separate check.
        try:
            key = sum(map(rules.card_key, hand))
        except KeyError:
            _check(hand, objective, keep, must_include)  # names the card code out of range
            raise
        # Each card once (a bit per card: no joker, no copy): read here as _read_hand would, saving its call.
        # Most hands a simulation asks about hold no meld: with nothing else asked, the whole hand is kept,
        # without the general path's calls (a lone card nobody may discard has no other plan: others meld).
        held = key & _NATURALS
        distinct = held.bit_count() == len(hand)
        meldless = distinct and _holds_no_meld(held, rules)
        if meldless and not (table or keep or must_include):
            return _kept_plan(key >> _VALUE_SHIFT, tuple(sorted(hand)))
        read = (held, key >> _VALUE_SHIFT, meldless) if distinct else _read_hand(hand, rules, key)
        plan = _solve(hand, rules, read, table, opened, must_include, objective, keep)
    except (TypeError, AttributeError, KeyError):
        problem = argument_problem(hand, variant, must_include, table, keep)
        if problem is None:
            raise
        raise SolverError(problem) from None
    if keep or len(plan.remaining) != 1 or may_leave(variant, 1):
        return plan
    # Not a lambda, which would keep solve's variables in cells made on every call (a tenth of gin's median).
    found = _none_or_two(partial(_solve, hand, rules, read, table, opened, must_include), objective)
    if found is None and must_include:
        raise Unsolvable("no plan lays every card of must_include and leaves no card or two")
    return plan if found is None else found


def _none_or_two(search: Callable[[Objective, int], Plan | None], objective: Objective) -> Plan | None:
    """The plan that replaces one leaving the one card nobody may discard (meld_required): one that lays
    every card, where one does (the most cards laid tells; going out beats any objective), else the best
    for ``objective`` that keeps two, else None."""
    whole = search("cards", 0)
    if whole is not None and not whole.remaining:
        return whole
    try:
        return search(objective, 2)
    except Unsolvable:
        return None


def _solve(
    hand: Sequence[Card],
    rules: _Rules,
    read: tuple[int, int, bool],
    table: Sequence[TableMeld],
    opened: bool,
    must_include: Sequence[Card],
    objective: Objective,
    keep: int,
) -> Plan:
    """:func:`solve`'s plan, one card left or not, for a hand :func:`_read_hand` read, arguments checked."""
    if keep and keep > len(hand):  # asked again by _none_or_two, keeping two
        raise Unsolvable(cannot_keep(hand, keep))
    held, value, meldless = read
    if meldless and not table:
        if must_include:
            raise Unsolvable("the hand cannot lay anything, so it cannot lay the cards it must")
        return _plan((), (), 0, 0, value, tuple(sorted(hand)))
    problem = _Problem(hand, rules, objective, table, held, value)
    if not problem.cands and not problem.has_joker_builds:
        if must_include:
            raise Unsolvable("the hand cannot lay anything, so it cannot lay the cards it must")
        return problem.plan(None)
    outcome = _best_lay(problem, table, keep, must_include, None if opened else opening_points(rules.variant))
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
    ``variant.opening_threshold`` points, plus any builds onto ``table``. Under ``going_out:
    meld_required`` no opening leaves exactly one card (:func:`_none_or_two`).
    """
    plan = _best_opening(hand, variant, table, keep, must_include, objective)
    if keep or plan is None or len(plan.remaining) != 1 or may_leave(variant, 1):
        return plan
    return _none_or_two(
        lambda aim, least: _best_opening(hand, variant, table, least, must_include, aim), objective
    )


def can_open(hand: Sequence[Card], variant: Variant, *, keep: int = 0) -> bool:
    """Whether ``hand`` has an opening of new melds keeping ``keep`` cards, one that leaves a single card
    included: quicker than :func:`best_opening`, and where it says no, no opening, with builds or
    without and whatever ``going_out`` says of the last card, can be found."""
    return _best_opening(hand, variant, (), keep, (), "value_left") is not None


def _best_opening(
    hand: Sequence[Card],
    variant: Variant,
    table: Sequence[TableMeld],
    keep: int,
    must_include: Sequence[Card],
    objective: Objective,
) -> Plan | None:
    """:func:`best_opening`, one leaving one card or not."""
    try:
        if objective not in OBJECTIVES or keep or type(keep) is not int or must_include:
            _check(hand, objective, keep, must_include)
            if keep > len(hand):
                return None
        rules = _LAST_RULES[0]
        if rules is None or rules.variant is not variant:
            rules = _rules(variant)
        try:
            held, value, meldless = _read_hand(hand, rules)
        except KeyError:
            _check(hand, objective, keep, must_include)
            raise
        # Builds alone never open, so only the hand's own melds matter here.
        if meldless:
            return None
        problem = _Problem(hand, rules, objective, table, held, value)
        if not problem.cands:
            return None
        outcome = _best_lay(problem, table, keep, must_include, opening_points(variant))
        return None if outcome is None else problem.plan(outcome)
    except (TypeError, AttributeError, KeyError):  # a card 2.5 or '7H' was a bare KeyError or TypeError
        wrong = argument_problem(hand, variant, must_include, table, keep)
        if wrong is None:
            raise
        raise SolverError(wrong) from None


def _best_lay(
    problem: _Problem,
    table: Sequence[TableMeld],
    keep: int,
    must_include: Sequence[Card],
    need_points: int | None,
) -> Outcome | None:
    """What :func:`search` answers; read off directly when the candidates that no other holds
    share no card.

    Without jokers, a table or cards that must be laid, and with every card in at most one
    candidate, each candidate adds to the score whatever else is laid (its cards, its points and,
    for value_left, their value), so the best lay holds every candidate as often as the hand's
    copies allow, if that leaves ``keep`` cards; it is the only best lay, so the search would find
    it too, listing the melds by their lowest card as it decides them. An opening is then every
    candidate, or none when even they fall short of ``need_points``.

    Candidates inside another (3-4-5 and 4-5-6 inside 3-4-5-6) change nothing when the outer one
    holds each of its cards once: laying it lays all those cards, no other lay of them scores
    more, and the search, which tries the candidates of a card most cards first, keeps it before
    any split that only ties. Candidates that share cards otherwise are read off part by part
    where each part has one best lay (:func:`kalooki.solver_parts._best_of_each_part`).
    """
    if table or must_include or problem.jokers:
        if need_points is None or not problem.jokers:
            return search(problem, keep, must_include, need_points)
        reach = _opening_reach(problem)
        if reach < need_points:
            return None
        if reach >= need_points + _OPENING_MARGIN:
            return _opening_search(problem, keep, must_include, need_points)
        return search(problem, keep, must_include, need_points)
    cands = problem.cands
    counts = problem.counts
    by_parts = False
    # A set that names a card twice is not laid once per copy of each card: the search counts it.
    if len(cands) > 1:
        codes = [code for cand in cands for code in cand.naturals]
        if len(codes) != len(set(codes)):
            if problem.copies and any(len(set(cand.naturals)) != len(cand.naturals) for cand in cands):
                return search(problem, keep, must_include, need_points)
            outer = _outermost(cands, counts)
            if outer is None:
                outer = _best_of_each_part(problem, cands, counts)
                if outer is None:
                    return search(problem, keep, must_include, need_points)
                # The best lay may open with too few points where another lay opens: the search decides.
                by_parts = need_points is not None
            cands = outer
    elif problem.copies and len(set(cands[0].naturals)) != len(cands[0].naturals):
        return search(problem, keep, must_include, need_points)
    melds: list[_Cand] = []
    laid: list[Card] = []
    points = 0
    for cand in sorted(cands, key=_lowest_card) if len(cands) > 1 else cands:
        # Each candidate as often as the hand holds its scarcest card: once without copies.
        times = 1 if problem.distinct else min(map(counts.__getitem__, cand.naturals))
        melds += [cand] * times
        laid += cand.naturals * times
        points += cand.points * times
    if len(problem.hand) - len(laid) < keep:
        return search(problem, keep, must_include, need_points)
    if need_points is not None and points < need_points:
        return search(problem, keep, must_include, need_points) if by_parts else None
    # A lay's score is a sum over its melds, so the whole lay scores as one meld of all its cards.
    return Outcome(tuple(melds), (), problem.score(laid, 0, points))


_OPENING_MARGIN: Final = 10
"""How far :func:`_opening_reach` must clear the threshold for :func:`_opening_search` to try the
best lay first. Nearer the threshold, most best lays do not open, and the second search costs
more than the first saves (callgrind over 2,000 seeded 14-card hands with jokers, by reach)."""


def _opening_search(
    problem: _Problem, keep: int, must_include: Sequence[Card], need_points: int
) -> Outcome | None:
    """The best opening: the best lay when it opens, else what the search for an opening finds.

    The search for an opening keeps the points still missing in its state, so it meets far more
    states than the search without. The best lay scores at least as much as every opening, so
    when it opens (a new meld, and new melds worth ``need_points``) it is a best opening, and the
    one that search would pick: both pick the first best lay in the same order (each card's
    candidates best first, then leaving it), and no lay before it scores as much, opening or not.
    """
    best = search(problem, keep, must_include, None)
    if best is None:
        return None  # not even a lay that is no opening meets keep and must_include
    if best.melds and sum([cand.points for cand in best.melds]) >= need_points:
        return best
    return search(problem, keep, must_include, need_points)


def _opening_reach(problem: _Problem) -> int:
    """The most points a lay of new melds may reach, by a bound tighter than the search's.

    The search bounds an opening by the points of every natural in some candidate, and with a
    joker nearly every card is in one (a pair and the joker are a set), so hands that cannot open
    were searched to the end. A lay holds at most as many candidates with a joker as the hand
    holds jokers; every other meld it lays holds only naturals of the candidates without a joker.
    So its points are at most those naturals' (every copy held, at its dearest) plus, for each
    joker, the most any joker candidate adds per joker beyond them: its other naturals at their
    dearest and its jokers at the most a joker adds. Builds add no opening points.
    """
    rules = problem.rules
    meld_value = rules.meld_value
    if problem.copies:
        plain = 0
        for cand in problem.cands:
            if cand.table < 0 and not cand.jokers:
                for code in cand.naturals:
                    plain |= 1 << code
    else:
        # Read off the suits' ranks: the same naturals, without a walk over every candidate.
        plain = _free_naturals(problem.suit_ranks, rules)
    counts = problem.counts
    reach = 0
    bits = plain
    while bits:
        code = (bits & -bits).bit_length() - 1
        reach += meld_value[code] * counts[code]
        bits &= bits - 1
    dearest = rules.joker_most
    per_joker = 0
    for cand in problem.cands:
        jokers = cand.jokers
        if cand.table < 0 and jokers:
            extra = jokers * dearest
            for code in cand.naturals:
                if not plain >> code & 1:
                    extra += meld_value[code]
            # Rounded up, so that the bound stays a bound.
            if extra > per_joker * jokers:
                per_joker = -(-extra // jokers)
    return reach + problem.jokers * per_joker


def _lowest_card(cand: _Cand) -> Card:
    return cand.naturals[0]
