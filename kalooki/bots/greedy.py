"""The ``greedy`` bot: opens as soon as it can, lays all it can, discards its costliest loose card.

Speed matters as much as play here: simulations run hundreds of thousands of turns. The bot
asks the exact solver only when cheap count checks (:mod:`kalooki.bots.quick`) say that
something might be laid, remembers each answer for the rest of the turn, and plays a plan's
melds and builds one action after another without solving again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kalooki import rules, solver
from kalooki.bots import endgame, opening_search, quick
from kalooki.bots.closed_hands import ClosedHands, joins_nothing
from kalooki.bots.nearness import closeness_of, least_useful
from kalooki.bots.turn_memo import TurnMemo
from kalooki.cards import JOKER, Card
from kalooki.cardstate import CardState
from kalooki.melds import MeldError, MeldKind, build, make_meld
from kalooki.moves import DISCARDS, DRAW_DISCARD, DRAW_STOCK, END_TURN, Action, Build, Meld, Swap, kind_at

if TYPE_CHECKING:
    from kalooki.melds import TableMeld
    from kalooki.variant import Variant
    from kalooki.view import LegalView, PlayerView

PlanKey = tuple[object, ...]


def keep_count(variant: Variant) -> int:
    """Cards that must stay in hand after laying: one to discard where the last card must be discarded."""
    return rules.keep(variant)


def melds_plan(
    hand: Sequence[Card], melds: tuple[tuple[Card, ...], ...], points: int, variant: Variant
) -> solver.Plan:
    """A plan that lays ``melds`` (worth ``points``) from ``hand`` and nothing else."""
    left = sorted(hand)  # stays sorted as the melds' cards are taken out
    for group in melds:
        for card in group:
            left.remove(card)
    values = quick.card_values(variant.ace_value, variant.joker_penalty)
    return solver.new_plan(
        melds=melds,
        builds=(),
        points=points,
        cards_laid=len(hand) - len(left),
        value_left=sum(values[card] for card in left),
        remaining=tuple(left),
    )


def lays_all(plan: solver.Plan, hand: Sequence[Card], must: Sequence[Card]) -> bool:
    """Whether ``plan`` lays every card of ``must`` (a multiset), so it answers a must_include search too."""
    if not must:
        return True
    left = plan.remaining
    return all(hand.count(card) - left.count(card) >= must.count(card) for card in set(must))


def discard_allowed(view: PlayerView) -> bool:
    """Whether the rules let the current player take the top discard, meld_at_once's test left out:
    the bot takes such a card only when it finds a way to lay it (:meth:`GreedyBot.lays_top`)."""
    top = view.discard_pile[-1] if view.discard_pile else None
    return rules.may_draw_discard(view.variant, view.opened[view.current], top, None)


def strands(view: PlayerView, plan: solver.Plan) -> bool:
    """Whether laying ``plan`` leaves a hand that can never go out: too few cards, a dead table.

    See :mod:`kalooki.bots.endgame`: such hands used to run until the turn limit. Keeping the melds
    in hand keeps going out possible.
    """
    variant = view.variant
    keep = keep_count(variant)
    if not endgame.too_few_for_a_meld(len(plan.remaining) - 1, keep):
        return False
    table = table_after(view.table, plan.melds, plan.builds, variant, plan.kinds)
    if table is None:
        return False
    others, contested = rival_hands(view, keep)
    return endgame.strands(plan.remaining, table, view.discard_pile, variant, keep, others, contested)


def table_after(
    table: Sequence[TableMeld],
    melds: Sequence[Sequence[Card]],
    builds: Sequence[solver.PlannedBuild],
    variant: Variant,
    kinds: tuple[MeldKind | None, ...] = (),
) -> list[TableMeld] | None:
    """The table once ``melds`` (read as ``kinds`` says, as :class:`~kalooki.moves.Meld`'s) are laid and
    ``builds`` made, or None when one is not a meld or build (the engine would refuse it, so it strands
    nothing)."""
    after = list(table)
    try:
        after += [make_meld(group, variant, kind=kind_at(kinds, index)) for index, group in enumerate(melds)]
        for index, cards, end in builds:
            after[index] = build(after[index], cards, variant, end)
    except (MeldError, IndexError):
        return None
    return after


def rival_hands(view: PlayerView, keep: int) -> tuple[list[int], bool]:
    """The other players' hand sizes, and whether one of them holds cards enough to meld (and so may
    fill the sets' places first: :func:`kalooki.bots.endgame.strands`' ``contested``)."""
    others = [view.hand_counts[seat] for seat in view.seats if seat != view.current]
    return others, any(not endgame.too_few_for_a_meld(size, keep) for size in others)


def holds_swap_card(view: PlayerView) -> bool:
    """Whether the hand holds a card that a joker on the table stands for: no joker release without one."""
    return bool(view.hand_state.held & quick.swap_mask(view.table, view.variant))


def owing_swap(view: PlayerView, legal: LegalView) -> Swap | None:
    """Where the turn owes what no plan lays: a joker swap, the card taken into a joker's place first.

    A discard would be refused. The engine lists only swaps that lead on: one that lays the card taken,
    or frees a joker that lets the hand lay it (a hand short of the threshold until a joker or two join
    it, which melds and builds alone never see)."""
    if not view.owed or not rules.may_release_jokers(view.variant, view.opened[view.current]):
        return None
    swaps = legal.swaps()
    taken = view.turn.must_use_card
    placing = [swap for swap in swaps if taken in swap.cards]
    return next(iter(placing or swaps), None)


def may_swap_now(view: PlayerView) -> bool:
    """Whether a swap is worth weighing: the player has opened, owes nothing (paying comes first), and
    holds a card that stands in for a joker on the table (listing the swaps is costly)."""
    return view.opened[view.current] and not view.owed and holds_swap_card(view)


class GreedyBot:
    """Lays down as soon and as much as it can, keeping cards that are near melds."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._turn: tuple[int, int, int] | None = None
        self._plans: dict[PlanKey, solver.Plan | None] = {}
        self._pending: list[tuple[Action, tuple[Card, ...]]] = []
        self._closed = ClosedHands()
        self._memo = TurnMemo()
        # The hands of this turn whose card state is known (the view's, the view's plus the top discard).
        self._known: list[tuple[Sequence[Card], CardState]] = []
        # The last answer of lays_top: the draw asks it twice of one view (wants_discard, throws_back).
        self._lays_top: tuple[PlayerView, Card, bool] | None = None
        self._hand_with: tuple[PlayerView, Card, list[Card]] | None = None
        # This turn's discard choices, by the hand's count key, what it owes and whether it has opened.
        self._discards: dict[tuple[int, tuple[Card, ...], bool], Card] = {}

    # ---------------------------------------------------------------- the turn's memory

    def _start(self, view: PlayerView) -> None:
        """Forget the last turn's plans when a new turn (or a new view) begins."""
        self._known = [(view.hand, view.hand_state)]
        key = (view.hand_number, view.turn_number, view.current)
        if key != self._turn:
            if self._turn is None or self._turn[:1] != key[:1]:
                self._closed.forget()
            self._turn = key
            self._plans.clear()
            self._pending.clear()
            self._discards.clear()
            self._memo.new_turn()

    def state_of(self, hand: Sequence[Card]) -> CardState:
        """The card state of ``hand``: the engine's for the view's hand (or it with the top discard)."""
        for known, state in self._known:
            if known is hand:
                return state
        return CardState.of(hand)

    def table_key(self, table: Sequence[TableMeld]) -> tuple[object, ...]:
        """The table as plain values (see :meth:`TurnMemo.table_key`)."""
        return self._memo.table_key(table)

    def table_number(self, table: Sequence[TableMeld]) -> int:
        """A number for the table in the plans' keys (see :meth:`TurnMemo.table_number`)."""
        return self._memo.table_number(table)

    def best_opening(
        self, view: PlayerView, hand: Sequence[Card], must: tuple[Card, ...] = (), table: bool = True
    ) -> solver.Plan | None:
        """The best opening for ``hand``, skipped when the cards rule one out; memoised per turn."""
        variant = view.variant
        if not must:
            if self.within_closed(hand, variant):
                return None
            if not self.may_open(hand, variant):
                self.remember_openless(hand, variant)
                return None
        melds = view.table if table else ()
        key: PlanKey = ("open", self.state_of(hand).key, self.table_number(melds), must)
        if key in self._plans:
            return self._plans[key]
        keep = keep_count(variant)
        plan: solver.Plan | None = None
        # A small search of new melds alone finds an opening as good; its builds onto the table
        # then follow as ordinary builds, the player having opened.
        found = None if must else opening_search.best_opening(hand, variant, keep)
        if found is None:
            # Builds onto the table do not count toward an opening and can follow it, so leave them
            # out of the search unless a card owed this turn may need one.
            table_cards = melds if must else ()
            plan = solver.best_opening(hand, variant, table=table_cards, keep=keep, must_include=must)
        elif found[0]:
            plan = melds_plan(hand, found[0], found[1], variant)
            if len(plan.remaining) == 1 and not rules.may_leave(variant, 1):
                # The small search may leave the card meld_required lets nobody discard; the solver never.
                plan = solver.best_opening(hand, variant, keep=keep)
        if plan is None and not must:
            self.remember_closed(hand, variant)
        self._plans[key] = plan
        return plan

    def remember_closed(self, hand: Sequence[Card], variant: Variant) -> None:
        """Note that ``hand`` holds no opening (see :meth:`may_open`)."""
        self._closed.searched_in_vain(hand, self.state_of(hand), self.meldable(hand, variant), variant)

    def remember_openless(self, hand: Sequence[Card], variant: Variant) -> None:
        """Note that ``hand``, found by the count checks alone, holds no opening (:meth:`within_closed`).
        Next turn's draw asks about this hand less its discard, which then lies within it."""
        self._closed.ruled_out(self.state_of(hand), len(hand), variant)

    def within_closed(self, hand: Sequence[Card], variant: Variant) -> bool:
        """Whether ``hand`` surely holds no opening (:meth:`ClosedHands.within`)."""
        return self._closed.within(self.state_of(hand), len(hand), variant)

    def meldable(self, hand: Sequence[Card], variant: Variant) -> int:
        """:func:`quick.meldable`, remembered for the turn (a turn asks about each hand 2-3 times)."""
        return self._memo.meldable(self.state_of(hand), variant)

    def opening_bound(self, hand: Sequence[Card], variant: Variant, can_meld: int) -> int:
        """:func:`quick.opening_bound` of ``hand`` and its :meth:`meldable` mask, remembered for the turn."""
        return self._memo.opening_bound(self.state_of(hand), variant, can_meld)

    def may_open(self, hand: Sequence[Card], variant: Variant) -> bool:
        """False when ``hand`` surely holds no opening.

        Only meldable cards can be in an opening, so a hand whose meldable cards all lie within
        those of a hand already found to hold no opening (and no larger) holds none either: after
        one solver call, a hand is solved again only when a new card joins a meld.
        """
        # The hand's state found once and the turn's memo asked directly: a draw asks this of most hands.
        state, memo = self.state_of(hand), self._memo
        can_meld = memo.meldable(state, variant)
        if not can_meld or not rules.opens(variant, memo.opening_bound(state, variant, can_meld)):
            return False
        return self._closed.may_open(state, len(hand), variant, can_meld)

    def solve(
        self,
        view: PlayerView,
        hand: Sequence[Card],
        must: tuple[Card, ...] = (),
        objective: solver.Objective = "value_left",
        builds: bool = True,
    ) -> solver.Plan | None:
        """The best plan for a player who has opened (None when ``must`` cannot be laid); memoised.

        ``builds=False`` plans new melds only (a freed joker is paid only by a new meld).
        """
        variant = view.variant
        table = view.table if builds else ()
        key: PlanKey = ("solve", self.state_of(hand).key, self.table_number(table), must, objective)
        if key in self._plans:
            return self._plans[key]
        plan = None if must or JOKER in hand else self.without_search(hand, table, variant)
        if plan is None or (len(plan.remaining) == 1 and not rules.may_leave(variant, 1)):
            # Builds alone may leave the one card meld_required lets nobody discard: the solver never does.
            try:
                plan = solver.solve(
                    hand,
                    variant,
                    table=table,
                    opened=True,
                    keep=keep_count(variant),
                    must_include=must,
                    objective=objective,
                )
            except solver.Unsolvable:
                plan = None
        self._plans[key] = plan
        return plan

    def without_search(
        self, hand: Sequence[Card], table: Sequence[TableMeld], variant: Variant
    ) -> solver.Plan | None:
        """The plan of a joker-free hand when no search is needed: nothing to lay, or builds only."""
        state = self.state_of(hand)
        can_meld = self._memo.meldable(state, variant)
        if can_meld:
            return None
        if not quick.may_lay(state, table, variant, can_meld):
            return solver.new_plan((), (), 0, 0, 0, tuple(hand))
        return quick.build_plan(hand, table, variant, keep_count(variant))

    # ---------------------------------------------------------------- draw

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        self._start(view)
        if view.phase == "draw":
            return self.choose_draw(view)
        return self.choose_play(view, legal)

    def choose_draw(self, view: PlayerView) -> Action:
        top = view.discard_pile[-1] if view.discard_pile else None
        wanted = top is not None and discard_allowed(view) and self.wants_discard(view, top)
        if top is not None and wanted and (not view.stock_count or not self.throws_back(view, top)):
            return DRAW_DISCARD
        if view.stock_count:
            return DRAW_STOCK
        return DRAW_DISCARD

    def throws_back(self, view: PlayerView, top: Card) -> bool:
        """Whether taking ``top`` would end with discarding it again, unlaid: a turn that changes nothing.

        Two players each taking the card the other just threw back never draw from the stock, so
        neither hand changes and the hand never ends: take the stock's unknown card instead.
        """
        if rules.discard_must_be_laid(view.variant) or top == JOKER:
            return False
        if self.lays_top(view, top):
            return False
        with_top = self.hand_with(view, top)
        return self.choose_discard(view, with_top, view.variant) == top

    def hand_with(self, view: PlayerView, top: Card) -> list[Card]:
        """The view's hand and ``top``, its card state known for the turn: lays_top and throws_back
        both ask about it, and one list (found by identity) spares the second its state."""
        last = self._hand_with
        if last is not None and last[0] is view and last[1] == top:
            return last[2]
        with_top = [*view.hand, top]
        self._known.append((with_top, view.hand_state.add(top)))
        self._hand_with = (view, top, with_top)
        return with_top

    def lays_top(self, view: PlayerView, top: Card) -> bool:
        """Whether taking ``top`` lets this turn lay it and lay more than the hand could without it.

        Never when that laying strands the hand (:func:`strands`): a card taken under meld_at_once
        must be laid whatever that leaves, and so the bot used to lay down to a hand that could never go out.
        Remembered for the view (held, so its identity is not reused): the answer rests on it alone.
        """
        last = self._lays_top
        if last is not None and last[0] is view and last[1] == top:
            return last[2]
        answer = self._lays_top_now(view, top)
        self._lays_top = (view, top, answer)
        return answer

    def _lays_top_now(self, view: PlayerView, top: Card) -> bool:
        seat = view.current
        hand = view.hand
        with_top = self.hand_with(view, top)
        if view.opened[seat]:
            loose = top != JOKER and not self.meldable(with_top, view.variant) >> top & 1
            if loose and not quick.fits_table(top, view.table, view.variant):
                return False
            # The unconstrained plan is the one the play phase asks for: asking the same question keeps
            # it remembered, and a plan that lays ``top`` proves it usable under meld_at_once too.
            laid = self.solve(view, with_top)
            if laid is None or not lays_all(laid, with_top, (top,)) or strands(view, laid):
                return False
            without = self.solve(view, hand)
            return without is None or laid.cards_laid > without.cards_laid
        # Unopened: every opening of hand + top uses top exactly when the hand alone has none, and
        # then the unconstrained search is the one the play phase repeats (so it is remembered).
        if self.best_opening(view, hand) is not None:
            return False
        state = view.hand_state
        if (
            top != JOKER
            and JOKER not in hand
            and joins_nothing(top, state, state.count(top) + 1, view.variant)
        ):
            return False  # it joins no meld: the hand still holds no opening
        opening = self.best_opening(view, with_top)
        return opening is not None and not strands(view, opening)

    def wants_discard(self, view: PlayerView, top: Card) -> bool:
        """Take the top discard when it lets the hand lay more this turn, or joins two cards toward a meld."""
        variant = view.variant
        if rules.discard_must_be_laid(variant):
            # Taking it is legal only if it can be laid at once, so that is the whole question.
            return self.lays_top(view, top)
        if top == JOKER:
            return True
        return self.lays_top(view, top) or closeness_of(top, view.hand_state) >= 2

    # ---------------------------------------------------------------- play

    def choose_play(self, view: PlayerView, legal: LegalView) -> Action:
        hand = view.hand
        if self._pending:
            action, expected = self._pending[0]
            if tuple(sorted(hand)) == expected:
                self._pending.pop(0)
                return action
            self._pending.clear()
        swap_action = self.useful_swap(view, legal)
        if swap_action is not None:
            return swap_action
        plan = self.plan(view)
        if plan is not None and not plan.empty:
            return self.follow(plan, hand)
        owed_swap = owing_swap(view, legal)
        if owed_swap is not None:
            return owed_swap
        if view.hand_state.size == 1 and rules.keeps_last_card(view.variant):
            return END_TURN  # the one card left may not be discarded: keep it
        return DISCARDS[self.choose_discard(view, hand, view.variant)]

    def follow(self, plan: solver.Plan, hand: Sequence[Card]) -> Action:
        """The plan's first action; the rest wait in order, each with the hand it expects to find."""
        actions: list[tuple[Action, tuple[Card, ...]]] = []
        left = sorted(hand)  # stays sorted as cards are taken out
        if plan.melds:
            actions.append((Meld(plan.melds, plan.kinds), tuple(left)))
            for group in plan.melds:
                for card in group:
                    left.remove(card)
        for index, cards, end in plan.builds:
            actions.append((Build(index + 1, cards, end), tuple(left)))
            for card in cards:
                left.remove(card)
        first = actions[0][0]
        self._pending = actions[1:]
        return first

    def plan(self, view: PlayerView) -> solver.Plan | None:
        """What to lay now: the best opening, or once open everything that lowers the hand's value.

        A plan that would strand the hand (see :func:`strands`) is held back, unless the turn owes cards.
        """
        plan = self.laying_plan(view)
        if plan is not None and not plan.empty and not view.owed and strands(view, plan):
            return None
        return plan

    def laying_plan(self, view: PlayerView) -> solver.Plan | None:
        """The best opening, or once open everything that lowers the hand's value."""
        seat = view.current
        hand = view.hand
        must = view.owed
        if view.turn.jokers_owed:
            return self.pay_freed_jokers(view, hand, must)
        if not view.opened[seat]:
            free = self.best_opening(view, hand)
            # The plan found while deciding the draw usually lays the owed card already: reuse it.
            if free is not None and lays_all(free, hand, must):
                return free
            return self.best_opening(view, hand, must=must) if must else None
        free_plan = self.solve(view, hand)
        if free_plan is not None and lays_all(free_plan, hand, must):
            return free_plan
        return self.solve(view, hand, must=must)

    def pay_freed_jokers(
        self, view: PlayerView, hand: Sequence[Card], must: tuple[Card, ...]
    ) -> solver.Plan | None:
        """New melds that pay a joker freed this turn: with the rest of the debt if they can, else alone.

        A freed joker is paid only by a new meld, so these plans build on nothing; a discard also
        owed (meld_at_once) may still go onto the table in a later action of the turn.
        """
        jokers = (JOKER,) * view.turn.jokers_owed
        for owed in dict.fromkeys((must, jokers)):
            if view.opened[view.current]:
                plan = self.solve(view, hand, must=owed, builds=False)
            else:
                plan = self.best_opening(view, hand, must=owed, table=False)
            if plan is not None and not plan.empty:
                return plan
        return None

    def useful_swap(self, view: PlayerView, legal: LegalView) -> Swap | None:
        """A joker release after which the hand is left with less value than it could leave without it."""
        if not may_swap_now(view):
            return None
        swaps = legal.swaps()
        if not swaps:
            return None
        hand = view.hand
        base = self.solve(view, hand)
        if base is None:
            return None
        for action in swaps:
            after = Counter(hand)
            after.subtract(action.cards)
            freed = self.solve(view, [*after.elements(), JOKER])
            # The freed joker must go down at once: never where that leaves a stranded hand.
            if freed is not None and freed.value_left < base.value_left and not strands(view, freed):
                return action
        return None

    def choose_discard(self, view: PlayerView, hand: Sequence[Card], variant: Variant) -> Card:
        """:meth:`discard_now`, remembered for the turn: a top discard taken and not laid is weighed twice,
        when the draw asks whether it would be thrown back and again as the play phase's discard."""
        key = (self.state_of(hand).key, view.owed, view.opened[view.current])
        found = self._discards.get(key)
        if found is None:
            found = self._discards[key] = self.discard_now(view, hand, variant)
        return found

    def discard_now(self, view: PlayerView, hand: Sequence[Card], variant: Variant) -> Card:
        """The costliest card least connected to the rest of the hand (never a joker if avoidable)."""
        values = quick.card_values(variant.ace_value, variant.joker_penalty)
        return least_useful(hand, view.owed, values, self.short_of_opening(view, hand, variant))

    def short_of_opening(self, view: PlayerView, hand: Sequence[Card], variant: Variant) -> bool:
        """Whether the player has not opened and even every meldable card of ``hand`` falls short of it.

        Such a hand opens only by gaining points, so it keeps its high cards and lets its low ones go;
        otherwise two such players can draw and throw back high cards for ever.
        """
        if view.opened[view.current] or not rules.opening_points(variant):
            return False  # (where any meld opens, no hand falls short: the search below is skipped)
        state, memo = self.state_of(hand), self._memo
        return not rules.opens(variant, memo.opening_bound(state, variant, memo.meldable(state, variant)))
