"""The ``random`` bot: a random legal player, weighted so that games end.

It draws from a legal source at random, lays something whenever it can (a random meld or
build, or a random opening), and otherwise discards a random card. Always laying when it can
is the weight that makes its games end: a player who never melds never goes out. The other
weights work the same way: it never lays, or frees a joker, down to one or two cards that the
table may have no place for (:mod:`kalooki.bots.endgame`), a hand that might never go out; and
its random discard is one of the cards that belong to no meld it holds or could hold with one
more card (a pair of a set, cards of a run one short), falling back to any card. Discarding any
card at random threw those away as fast as they came: four random players in ``kaluki-51`` held
two cards each and needed a set of three to go out, or never gathered the 51 points to open,
and 1.1% of their hands ran to the turn limit.

Listing every legal action is slow before a player has opened (every combination of melds
that reaches the threshold), so the bot samples an opening instead: it adds random disjoint
melds until they reach the threshold, a few times over, and asks the solver only when
sampling finds none and :func:`surely_no_opening` cannot show that there is none. Count
checks (:mod:`kalooki.bots.quick`) skip all of it on the many turns when nothing can be laid.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING

from kalooki import rules, solver
from kalooki.bots import endgame, quick
from kalooki.bots.greedy import keep_count, rival_hands, table_after
from kalooki.candidates import candidate_melds, near_meld_cards
from kalooki.cards import JOKER, Card, rank_points
from kalooki.cardstate import KEY_BITS, CardState, codes_of
from kalooki.melds import MeldError, make_meld
from kalooki.moves import DISCARDS, END_TURN, Action, Build, Discard, Meld, Swap
from kalooki.randomness import choice, choice_of_bits, draw_as_shuffles, shuffle
from kalooki.variant_memo import PerVariant

if TYPE_CHECKING:
    from kalooki.melds import TableMeld
    from kalooki.variant import Variant
    from kalooki.view import LegalView, PlayerView

OPENING_TRIES = 6
"""Random orders tried when sampling an opening before the solver is asked whether there is one."""


class RandomBot:
    """Draws at random, lays something whenever it can, and otherwise discards a loose card at random."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        # The draws listed so far under one variant, by what they depend on (see draws).
        self._draws_rules: Variant | None = None
        self._draws: dict[tuple[bool, bool, bool], list[Action]] = {}
        # The last hand proven to hold no opening: its variant, its cards (as _counts) and room.
        self._hopeless: tuple[Variant, int, int] | None = None
        # What known_discard found where the view is needed after all (see there), for the choose that
        # follows: an opened hand's count checks (the variant, the hand's state, the table, may_lay and
        # releases), and an unopened hand's sampled opening (the variant, the state, the opening).
        self._checked: tuple[Variant, CardState, tuple[TableMeld, ...], bool, bool] | None = None
        self._sampled: tuple[Variant, CardState, Meld] | None = None

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        if view.phase == "draw":
            known = self.known_draw(
                view.variant, view.stock_count > 0, bool(view.discard_pile), view.opened[view.current]
            )
            return known if known is not None else choice(self.rng, self.draws(view, legal))
        # What known_discard has just found of this hand, taken once (a view of another hand, table or
        # variant finds it for itself).
        checked, sampled = self._checked, self._sampled
        self._checked = self._sampled = None
        owed = view.owed
        if owed:
            return self.pay_debts(view, owed, legal)
        seat = view.current
        variant = view.variant
        state = view.hand_state
        if view.opened[seat]:
            if (
                checked is not None
                and checked[0] is variant
                and checked[1] is state
                and checked[2] == view.table
            ):
                may_lay, releases = checked[3], checked[4]
            else:
                may_lay, releases = quick.lay_or_release(state, view.table, variant)
            # A release needs a card a table joker stands for: without one there is no swap to list.
            if may_lay or (releases and legal.swaps()):
                layings = _not_stranding(view, legal.layings(releases))
                if layings:
                    return choice(self.rng, layings)
        else:
            if sampled is not None and sampled[0] is variant and sampled[1] is state:
                opening: Meld | None = sampled[2]
            elif quick.may_open(state, variant):
                opening = self.sample_opening(variant, view.hand, state)
            else:
                opening = None
            if opening is not None and _not_stranding(view, (opening,)):
                return opening
        return self.discard_loose(state, variant)

    def discard_loose(self, state: CardState, variant: Variant) -> Action:
        """A loose card of the hand ``state``: one in no meld the hand holds or could hold with one more
        card (a joker stands for the card still to come; a meld one card short counts only with two
        natural cards in it, else every card would count beside a joker), else any card."""
        if state.size == 1 and rules.keeps_last_card(variant):
            return END_TURN  # the one card left may not be discarded: keep it
        loose = state.held & ~near_meld_cards(state, variant, 1) or state.held
        return DISCARDS[choice_of_bits(self.rng, loose)]

    def known_discard(
        self,
        variant: Variant,
        hand: Sequence[Card],
        state: CardState,
        table: tuple[TableMeld, ...],
        opened: bool,
    ) -> Action | None:
        """The discard :meth:`choose` picks in the play phase of a turn that owes nothing (the hand's cards
        ``hand``, its state ``state``), where nothing is laid: the count checks show the hand can lay
        nothing onto ``table``, or, unopened, that it cannot open or sampling finds no opening. Else None,
        and what was found is kept for the choose that follows (the random state has moved as far as
        choose's own sampling would move it). Most turns lay nothing, and this is all they ask of the
        view: the driver asks it first, and makes no view (nor legal view) where it answers."""
        if opened:
            may_lay, releases = quick.lay_or_release(state, table, variant)
            if may_lay or releases:
                self._checked = (variant, state, table, may_lay, releases)
                return None
        elif quick.may_open(state, variant):
            opening = self.sample_opening(variant, hand, state)
            if opening is not None:
                self._sampled = (variant, state, opening)
                return None
        return self.discard_loose(state, variant)

    def known_draw(self, variant: Variant, stock: bool, pile: bool, opened: bool) -> Action | None:
        """The draw :meth:`choose` picks, where :meth:`draws` remembers the draws for a stock and a pile
        that hold cards or not (``stock``, ``pile``) and a player who has opened or not: else None, and
        nothing is drawn from the generator. Half of every game's actions are draws, and this is all a
        draw asks of the view: the driver asks it first, and makes no view where it answers."""
        if variant is not self._draws_rules:
            return None
        known = self._draws.get((stock, pile, opened))
        return None if known is None else choice(self.rng, known)

    def draws(self, view: PlayerView, legal: LegalView) -> list[Action]:
        """``legal.listed()`` in the draw, in its order: remembered by whether the stock and the pile hold
        cards and the player has opened, all it depends on unless a discard taken must be laid at once
        (then the hand is asked, every time)."""
        variant = view.variant
        if variant is not self._draws_rules:
            self._draws_rules = variant
            self._draws = {}
        key = (view.stock_count > 0, bool(view.discard_pile), view.opened[view.current])
        draws = self._draws.get(key)
        if draws is None:
            draws = legal.listed()
            if not rules.discard_must_be_laid(variant):
                self._draws[key] = draws
        return draws

    def sample_opening(self, variant: Variant, hand: Sequence[Card], state: CardState) -> Meld | None:
        """A random set of disjoint melds of ``hand`` (its state ``state``) worth the threshold, or the
        solver's opening if sampling misses."""
        keep = keep_count(variant)
        room = len(hand) - keep
        # Each group beside its points, cards and size: shuffled alike, as the groups alone used to be.
        options = opening_values(state, variant)
        held = _counts(hand)
        rng = self.rng
        hopeless: bool | None = True if self._within_hopeless(options, held, room, variant) else None
        for tried in range(OPENING_TRIES):
            if hopeless:
                # No order can find an opening: the shuffles left only draw, as the random state must move.
                draw_as_shuffles(rng, len(options), OPENING_TRIES - tried)
                break
            shuffle(rng, options)
            # The cards still free, counted down as melds are chosen, and how many more may be laid.
            left = held
            free = room
            chosen: list[tuple[Card, ...]] = []
            points = 0
            for group, value, needs, size, _ in options:
                # Byte by byte, 128 + left - needs borrows from no other byte, and its high bit is
                # clear exactly where the group needs more copies of a card than are left.
                if size > free or ((left | _HIGH) - needs) & _HIGH != _HIGH:
                    continue
                left -= needs
                free -= size
                chosen.append(group)
                points += value
                if rules.opens(variant, points) and rules.may_leave(variant, free + keep):
                    return Meld(tuple(chosen))
            if hopeless is None:
                # Most hands that pass the count check hold no opening: proven once, after the first miss.
                hopeless = surely_no_opening(options, held, room, state, variant)
        if hopeless is None:
            hopeless = surely_no_opening(options, held, room, state, variant)
        if hopeless:
            self._hopeless = (variant, held, room)
            return None
        plan = solver.best_opening(tuple(hand), variant, keep=keep)
        return None if plan is None else Meld(plan.melds, plan.kinds)

    def _within_hopeless(self, options: list[Option], held: int, room: int, variant: Variant) -> bool:
        """Whether the hand (its :func:`opening_values`, cards as :func:`_counts` and room) surely holds no
        opening because the last hand proven to hold none held every card of its candidates as often.

        Every meld a hand could lay is a candidate (see :func:`surely_no_opening`), so an opening of
        this hand would be melds of its candidates' cards alone: with no more of those cards, and no
        more room, that hand could have laid it too. Most turns a hand that held none draws a card
        that joins no candidate and discards a loose one: then it is proven without the search.
        """
        known = self._hopeless
        if known is None or known[0] is not variant or room > known[2]:
            return False
        # Byte by byte, the high bit of 128 + known - held is clear where this hand holds more copies.
        over = ~((known[1] | _HIGH) - held) & _HIGH
        if not over:
            return True
        cards = 0
        for option in options:
            cards |= option[4]
        while over:
            low = over & -over
            if cards >> ((low.bit_length() - 1) >> 3) & 1:
                return False
            over ^= low
        return True

    def pay_debts(self, view: PlayerView, owed: tuple[Card, ...], legal: LegalView) -> Action:
        """Lay what the turn owes (a card taken under meld_at_once, a freed joker) the solver's way, else
        put the card taken in a table joker's place."""
        seat = view.current
        hand = view.hand
        variant = view.variant
        keep = keep_count(variant)
        freed = view.turn.jokers_owed
        plan: solver.Plan | None = None
        # A freed joker is paid only by a new meld: such plans build on nothing, and pay the freed
        # jokers alone when they cannot pay everything (a discard owed may be built later).
        attempts = [(owed, ()), ((JOKER,) * freed, ())] if freed else [(owed, tuple(view.table))]
        for must, table in attempts:
            if view.opened[seat]:
                try:
                    plan = solver.solve(hand, variant, table=table, opened=True, keep=keep, must_include=must)
                except solver.Unsolvable:
                    plan = None
            else:
                plan = solver.best_opening(hand, variant, table=table, keep=keep, must_include=must)
            if plan is not None and not plan.empty:
                break
        if plan is None or plan.empty:
            # The card taken may have been takeable only because it can replace a table joker.
            taken = view.turn.must_use_card
            swaps = legal.swaps()
            placing = [swap for swap in swaps if taken in swap.cards] if taken is not None else []
            if placing:
                return choice(self.rng, placing)
            if swaps and not view.opened[seat]:
                # Or, before opening, a swap frees a joker that lets the hand open with the card (short of
                # the threshold until a joker or two join it): the engine lists only swaps that lead on.
                return choice(self.rng, swaps)
            # Nothing lays the debt: any discard is refused, and the driver's fallback takes over.
            return Discard(self.rng.choice(sorted(set(hand))))
        if plan.melds:
            return Meld(plan.melds, plan.kinds)
        index, cards, end = plan.builds[0]
        return Build(index + 1, cards, end)


Option = tuple[tuple[Card, ...], int, int, int, int]
"""A candidate meld as sampling reads it: its cards, its points laid as a new meld, its cards as
:func:`_counts`, its size, and its cards as a mask (bit ``code``)."""

_option_memo: PerVariant[dict[tuple[Card, ...], Option | None]] = PerVariant(lambda variant: {})
"""The :data:`Option` of each group under a variant (None: not a meld), as found so far."""


def opening_values(state: CardState, variant: Variant) -> list[Option]:
    """The hand's candidate melds that are melds, in the order :func:`candidate_melds` lists them."""
    memo = _option_memo(variant)
    options: list[Option] = []
    for group in candidate_melds(state, variant):
        option = memo.get(group, _UNKNOWN)
        if option is _UNKNOWN:
            option = memo[group] = _option(group, variant)
        if option is not None:
            options.append(option)
    return options


_UNKNOWN: Option = ((), 0, 0, 0, 0)
"""What :func:`opening_values` reads for a group its memo has not seen."""


def _option(group: tuple[Card, ...], variant: Variant) -> Option | None:
    try:
        value = make_meld(group, variant).worth(variant)
    except MeldError:
        return None
    mask = 0
    for card in group:
        mask |= 1 << card
    return (group, value, _counts(group), len(group), mask)


def surely_no_opening(
    options: list[Option], held: int, room: int, state: CardState, variant: Variant
) -> bool:
    """Whether the hand surely holds no opening, so that :func:`kalooki.solver.best_opening` would say None.

    ``options``: the hand's :func:`opening_values`, in any order;
    ``held``: the hand's :func:`_counts`; ``room``: the most cards it may lay. False means "maybe".

    Every meld the hand could lay is a candidate (a joker standing for a missing card or for one the
    hand holds, in each frame), so an opening is some candidates, each as often as the cards allow
    (jokers counted like any card): a short search settles it (:func:`_most_points`). It runs only
    when counting cannot answer first: without jokers, the cards in joker-free candidates are all
    the natural cards a meld can hold; with one joker, a natural card in no joker-free candidate can
    be laid only in the joker's meld, so an opening is worth at most those cards, the joker, and the
    most the candidates with the joker add to them. Two jokers go straight to the search, which
    spares the solver most hands that hold them and no opening.
    """
    points = _natural_points(rules.most_ace_points(variant), rules.most_joker_points(variant))
    jokers = state.jokers
    if jokers > 1:
        return _most_points(options, held, room, rules.opening_points(variant), points) is False
    meldable = 0
    for option in options:
        # The joker's bit is the highest: a mask below it is a group without one.
        if option[4] < _JOKER_BIT:
            meldable |= option[4]
    key = state.key
    bound = 0
    for card in codes_of(meldable):
        bound += points[card] * ((key >> (card * KEY_BITS)) & 15)
    if jokers:
        added = 0
        for _, _, needs, _, mask in options:
            # The naturals of a candidate with the joker that no joker-free candidate holds, each copy.
            extra = mask & ~meldable & ~_JOKER_BIT
            if mask >= _JOKER_BIT and extra:
                more = 0
                while extra:
                    low = extra & -extra
                    card = low.bit_length() - 1
                    more += points[card] * ((needs >> (card * 8)) & 0xFF)
                    extra ^= low
                added = max(added, more)
        if not rules.opens(variant, bound + added + points[JOKER]):
            return True
    elif not rules.opens(variant, bound):
        return True
    # Counting could not tell: the search, every option with or without a joker.
    return _most_points(options, held, room, rules.opening_points(variant), points) is False


_JOKER_BIT = 1 << JOKER


def _most_points(
    options: list[Option], held: int, room: int, threshold: int, worth: tuple[int, ...]
) -> bool | None:
    """Whether some candidates (each as often as the cards of ``held``, jokers too, allow; ``room``
    cards at most) reach ``threshold`` points; None when the search ran past :data:`PROOF_STEPS` steps.

    ``worth``: the most each card code (the joker too) adds to a meld. The candidates from any one on
    add at most every copy held of every card in them, each at its most: where even that falls short,
    the search goes no further along.
    """
    choices = sorted(((value, needs, size, mask) for _, value, needs, size, mask in options), reverse=True)
    beyond = [0] * len(choices)
    cards = total = 0
    for index in range(len(choices) - 1, -1, -1):
        new = choices[index][3] & ~cards
        cards |= new
        # A bit at a time: most candidates bring a card or two not met yet.
        while new:
            low = new & -new
            card = low.bit_length() - 1
            total += worth[card] * ((held >> (card * 8)) & 0xFF)
            new ^= low
        beyond[index] = total
    return _reaches(choices, beyond, threshold, 0, held, room, 0, [PROOF_STEPS])


def _reaches(
    choices: list[tuple[int, int, int, int]],
    beyond: list[int],
    threshold: int,
    start: int,
    left: int,
    room: int,
    points: int,
    steps: list[int],
) -> bool | None:
    """:func:`_most_points`' search from candidate ``start`` on, ``points`` laid so far, ``left`` cards
    (as :func:`_counts`) and ``room`` left; ``steps``: the steps still allowed, counted down.

    A module function, its state passed in: a closure read it through cells at every step."""
    steps[0] -= 1
    if steps[0] < 0:
        return None
    for index in range(start, len(choices)):
        if points + beyond[index] < threshold:
            break
        value, needs, size, _ = choices[index]
        if size > room or ((left | _HIGH) - needs) & _HIGH != _HIGH:
            continue
        if points + value >= threshold:
            return True
        # From the same candidate on: a meld may be laid twice where two packs give the cards.
        found = _reaches(choices, beyond, threshold, index, left - needs, room - size, points + value, steps)
        if found is not False:
            return found
    return False


PROOF_STEPS = 2_000
"""Steps :func:`surely_no_opening`'s search may take before it leaves the answer to the solver."""


@lru_cache(maxsize=16)
def _natural_points(ace: int, joker: int) -> tuple[int, ...]:
    """What each card code adds to a meld at most, an ace counted at ``ace``, a joker at ``joker``."""
    return (*(rank_points(code % 13 + 1, ace) for code in range(JOKER)), joker)


def _not_stranding(view: PlayerView, layings: Iterable[Meld | Build | Swap]) -> list[Meld | Build | Swap]:
    """The layings that leave a hand able to go out (see :func:`kalooki.bots.greedy.strands`), in order.

    A swap counts too: freeing a set's joker with two cards leaves the hand a card smaller, and so
    random players used to free jokers down to two cards that nothing on the table would take.
    """
    size = view.hand_state.size
    keep = keep_count(view.variant)
    too_few = endgame.too_few_for_a_meld
    stranding: _Stranding | None = None
    kept: list[Meld | Build | Swap] = []
    for action in layings:
        # Most layings leave cards enough for a new meld: they strand nothing, and counting says so
        # without the hand that remains (the first test of :func:`kalooki.bots.greedy.strands`).
        if isinstance(action, Meld):
            laid = sum(map(len, action.groups))
        else:
            laid = len(action.cards) - (1 if isinstance(action, Swap) else 0)
        if size - laid == 1 and not rules.may_leave(view.variant, 1) and not _last_fits(view, action):
            continue  # the one card left could be neither discarded (meld_required) nor built
        if too_few(size - laid - 1, keep):
            if stranding is None:
                stranding = _Stranding(view)
            if stranding.strands(action, size - laid - 1):
                continue
        kept.append(action)
    return kept


def _last_fits(view: PlayerView, action: Meld | Build | Swap) -> bool:
    """Whether the one card a meld or build leaves in hand could be built on the table it leaves.

    A swap's last card is the freed joker: such a laying counts as not fitting (a random player
    loses little by not freeing a joker down to its last card)."""
    if isinstance(action, Swap):
        return False
    laid = [card for group in action.groups for card in group] if isinstance(action, Meld) else action.cards
    left = list(view.hand)
    for card in laid:
        left.remove(card)
    if isinstance(action, Meld):
        table = table_after(view.table, action.groups, (), view.variant, action.kinds)
    else:
        table = table_after(view.table, (), ((action.meld - 1, action.cards, action.end),), view.variant)
    return table is not None and any(endgame.fits(meld, left[0], view.variant) for meld in table)


class _Stranding:
    """:func:`kalooki.bots.greedy.strands` for the layings of one view: what they share worked out once.

    The other hands and the cards used up on the table as it stands are the same for every laying
    tried; each laying adds only its own melds or the meld it builds onto.

    Most layings tried leave the table places enough, and a bound says so without the table after
    them (:meth:`strands`): ``spare``, the places the table has now beyond what the other small hands
    want (:func:`kalooki.bots.endgame.places_to_spare`), and ``fills``, how many of the
    table's melds each card is a place of.
    """

    __slots__ = ("contested", "fills", "gone", "keep", "others", "spare", "view")

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        variant = view.variant
        keep = self.keep = keep_count(variant)
        others, contested = self.others, self.contested = rival_hands(view, keep)
        self.gone: dict[Card, int] = endgame.used_up(view.table, view.discard_pile, variant)
        self.spare = endgame.places_to_spare(view.table, self.gone, variant, keep, others, contested)
        fills: dict[Card, int] = {}
        for meld in view.table:
            for card in endgame.places(meld, variant):
                fills[card] = fills.get(card, 0) + 1
        self.fills = fills

    def strands(self, action: Meld | Build | Swap, held: int) -> bool:
        """Whether laying ``action`` down to ``held`` cards after the discard strands the hand.

        A swap leaves the table as it is here, as it did in the plan ``strands`` was given: the
        plan of a swap lays nothing, and ``spare`` answers it.

        A meld or build can take away no more places than it has cards that fill them, each once for
        every meld it is a place of (a set's place by one copy, a run's whole), and a joker one that
        only a joker could fill; a build also loses its meld's own places (the built meld has places
        of its own, as a new meld has: places only added). Where ``spare`` covers that loss and the
        hand's own cards, :func:`kalooki.bots.endgame.short_of_places` would say no.
        """
        view = self.view
        variant = view.variant
        if isinstance(action, Swap):
            return self.spare < held
        if self._places_left(action) >= held:
            return False
        if isinstance(action, Meld):
            table = table_after(view.table, action.groups, (), variant, action.kinds)
        else:
            table = table_after(view.table, (), ((action.meld - 1, action.cards, action.end),), variant)
        if table is None:
            return False
        # The cards used up grow by what the laying put on the table: the melds it changed or added.
        gone = self.gone
        before = view.table
        for index, meld in enumerate(table):
            if index < len(before) and meld is before[index]:
                continue
            if gone is self.gone:
                gone = dict(gone)
            for card in meld.cards:
                gone[card] = gone.get(card, 0) + 1
            if index < len(before):
                for card in before[index].cards:
                    gone[card] -= 1
        return endgame.short_of_places(held, table, gone, variant, self.keep, self.others, self.contested)

    def _places_left(self, action: Meld | Build) -> int:
        """At least the places the table keeps after ``action`` beyond what the other small hands want."""
        table = self.view.table
        lost = 0
        if isinstance(action, Meld):
            cards: Iterable[Card] = chain.from_iterable(action.groups)
        elif 1 <= action.meld <= len(table):
            cards = action.cards
            lost = len(endgame.places(table[action.meld - 1], self.view.variant))
        else:
            return -1  # no such meld: left to the full check
        fills = self.fills
        for card in cards:
            lost += 1 if card == JOKER else fills.get(card, 0)
        return self.spare - lost


_HIGH = sum(0x80 << (code * 8) for code in range(JOKER + 1))
"""The high bit of every card code's byte in :func:`_counts`."""


def _counts(cards: Iterable[Card]) -> int:
    """The copies of each card code in ``cards``, a byte per code (a hand holds fewer than 128)."""
    counts = 0
    for card in cards:
        counts += 1 << (card * 8)
    return counts
