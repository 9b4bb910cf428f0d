"""Which actions are legal now: the draws, the melds, builds and swaps a hand can lay, the discards,
and :meth:`LegalActions.check`, which tries an action without changing anything."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import chain, islice

from kalooki import rules
from kalooki.candidates import candidate_melds, lone_runs
from kalooki.cards import (
    JOKER,
    Card,
    rank_points,
)
from kalooki.cardstate import CardState
from kalooki.gamejson import GameJson
from kalooki.gamestate import (
    IllegalMoveError,
)
from kalooki.melds import MeldKind, make_meld
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, END_TURN, Action, Discard, Meld, Swap, meld_of
from kalooki.snapshot import TurnSnapshot, trial
from kalooki.table_plays import joker_swaps, opened_layings, swap_cards
from kalooki.variant_memo import PerVariant

MAX_LISTED_LAYINGS = 1000
"""Most melds, builds and swaps :meth:`Game.legal_actions` lists (draws and discards are always all listed).

Before opening, every combination of melds reaching the threshold is legal: with a big hand and a low
threshold that is millions. :meth:`Game.iter_legal_actions` yields them all, lazily."""

MAX_OPENING_STEPS = 2_000
"""Combinations of melds :meth:`Game.legal_actions` tries when listing openings; past them it lists what it
found, or else the solver's best opening: a hand that can open always has an opening listed."""


_SWAP_OPENINGS: PerVariant[dict[tuple[object, ...], tuple[Meld, ...]]] = PerVariant(lambda variant: {})
"""The openings :meth:`LegalActions._listed_swap_openings` found, per variant and position: each is a trial,
some hundreds a listing, and a driver that takes back the opening it fell back on lists the same position
again, up to its limit of actions in a turn."""

_SWAP_OPENINGS_KEPT = 256
"""Positions :data:`_SWAP_OPENINGS` holds per variant before it starts again empty."""


class _SwapFound(Exception):
    """A legal joker release was found: :meth:`LegalActions._some_swap` needs no more."""


class LegalActions(GameJson):
    """The legal actions of the current player, listed lazily or bounded."""

    def legal_actions(self) -> list[Action]:
        """The legal actions, with at most :data:`MAX_LISTED_LAYINGS` melds, builds and swaps (in the order
        :meth:`iter_legal_actions` yields them) and every draw and discard."""
        if self.phase != "play":
            return list(self.iter_legal_actions())
        layings = self._legal_layings(MAX_OPENING_STEPS)
        actions: list[Action] = list(islice(layings, MAX_LISTED_LAYINGS))
        return actions + list(self._legal_discards())

    def can_end_turn(self) -> bool:
        """Whether the current player may end the turn now without a discard (``turn_discard: optional``,
        drawn, and the turn owes nothing)."""
        return (
            self.phase == "play"
            and rules.may_end_without_discard(self.variant)
            and self._turn_debts() is None
        )

    def iter_legal_actions(self) -> Iterator[Action]:
        """Every legal action of the current player.

        Melds are listed as the distinct melds the hand can lay (a joker fills a missing
        card or stands for one held, which then stays free), a natural card and jokers that read as a
        set also as the runs they make when the move says so (``JK 6H JK run``); a player who has not opened
        gets every combination of melds the hand's cards can lay together (the same meld twice where
        two packs give it its cards twice) that reaches the opening threshold.
        """
        if self.phase == "draw":
            if self.stock:
                yield DRAW_STOCK
            if self._discard_draw_allowed():
                yield DRAW_DISCARD
            return
        if self.phase != "play":
            return
        yield from self._legal_layings()
        yield from self._legal_discards()

    def _legal_layings(self, max_steps: int | None = None) -> Iterator[Action]:
        hand = self.hands[self.current]
        # While the turn owes a card, a laying that would make it unpayable is refused: check each. So is,
        # under meld_required, one that leaves a card that can be neither laid nor discarded.
        turn = self.turn
        owing = bool(self.owed_cards()) or rules.guards_last_card(
            self.variant, turn.must_use_card is not None, turn.jokers_owed
        )
        listed = False
        for action in self._layings(hand, max_steps):
            if not owing or isinstance(action, Swap) or self._is_legal(action):
                listed = True
                yield action
        if owing and not listed:
            # The opening search is bounded and blind to the swap after it: where none of the openings it
            # found leads on, the draw check's route may be one that keeps a card to free a joker with.
            yield from self._listed_swap_openings()

    def _legal_discards(self) -> Iterator[Action]:
        """The discards, then the end of the turn without one where the variant allows it."""
        state = self.hand_states[self.current]
        debts = self._turn_debts()
        if debts is None and (state.size != 1 or rules.discards_last_card(self.variant)):
            for card in state.distinct():
                yield Discard(card)
        # The variant's field first: under the default rule this read is all the end costs a turn.
        if rules.may_end_without_discard(self.variant) and debts is None:
            yield END_TURN

    def _layings(self, hand: list[Card], max_steps: int | None = None) -> Iterator[Action]:
        keep = self._keep()
        state = self.hand_states[self.current]
        if self.opened[self.current]:
            yield from opened_layings(hand, state, self.table, self.variant, keep, self.legal_swaps)
            return
        groups = candidate_melds(state, self.variant)
        runs = lone_runs(state, self.variant)
        run: list[MeldKind | None] = ["run"]
        kinds = [None] * len(groups) + run * len(runs)
        yield from self._opening_melds(groups + runs, kinds, hand, keep, max_steps)
        if rules.may_release_jokers(self.variant, False):
            yield from self.legal_swaps()

    def _opening_melds(
        self,
        groups: list[tuple[Card, ...]],
        kinds: list[MeldKind | None],
        hand: list[Card],
        keep: int,
        max_steps: int | None,
        minimal: bool = False,
        cut_to_solver: bool = False,
    ) -> Iterator[Meld]:
        """Every combination of ``groups`` (each read as ``kinds`` says) that opens; ``minimal``: none that
        adds a meld to one already reaching the threshold. Past ``max_steps`` the solver's opening is
        yielded where none was found, or (``cut_to_solver``) whatever was."""
        # The number, not rules.opens on every step: the search prunes on the points still missing.
        threshold = rules.opening_points(self.variant)
        variant = self.variant
        values = [
            make_meld(group, variant, kind=kind).worth(variant)
            for group, kind in zip(groups, kinds, strict=True)
        ]
        needs = [tuple(Counter(group).items()) for group in groups]
        left = Counter(hand)
        # Cards still in hand are counted down in place (and back up), so each step costs one meld's cards.
        spare = len(hand) - keep
        # A joker stands for any card (or has its own worth); an ace may be worth more than a ten (high or
        # low in a run).
        ace = rules.most_ace_points(self.variant)
        joker = rules.most_joker_points(self.variant)
        worth = {card: joker if card == JOKER else rank_points(card % 13 + 1, ace) for card in left}
        by_worth = sorted(worth, key=worth.__getitem__, reverse=True)

        def most_to_add(spare: int) -> int:
            """The most points ``spare`` more cards from the hand could add: prunes what cannot open."""
            total = 0
            for card in by_worth:
                take = min(left[card], spare)
                total += take * worth[card]
                spare -= take
                if not spare:
                    break
            return total

        steps = [0]

        def extend(start: int, chosen: list[int], spare: int, points: int) -> Iterator[Meld]:
            if points >= threshold:
                if chosen:
                    yield meld_of(
                        tuple(groups[index] for index in chosen), tuple(kinds[index] for index in chosen)
                    )
                    if minimal:
                        return
            elif points + most_to_add(spare) < threshold:
                return
            steps[0] += 1
            if max_steps is not None and steps[0] > max_steps:
                return
            for index in range(start, len(groups)):
                if len(groups[index]) > spare or any(left[card] < count for card, count in needs[index]):
                    continue
                for card, count in needs[index]:
                    left[card] -= count
                chosen.append(index)
                # From the same meld again: two packs may hold its cards twice (7H 8H 9H 7H 8H 9H).
                yield from extend(index, chosen, spare - len(groups[index]), points + values[index])
                chosen.pop()
                for card, count in needs[index]:
                    left[card] += count

        found = False
        for action in extend(0, [], spare, 0):
            found = True
            yield action
        if max_steps is not None and steps[0] > max_steps and (cut_to_solver or not found):
            yield from self._solver_opening(hand, keep)

    def _solver_opening(self, hand: list[Card], keep: int) -> Iterator[Meld]:
        """The solver's best opening, when a bounded search of combinations found none."""
        from kalooki.solver import best_opening

        plan = best_opening(hand, self.variant, keep=keep)
        if plan is not None and plan.melds:
            yield meld_of(plan.melds, plan.kinds)

    def _swap_lays(self, card: Card) -> bool:
        """Whether, had the current player taken ``card`` from the discard pile (meld_at_once), a joker swap
        would lead to laying it where melds and builds alone could not (:meth:`TurnPlay._card_usable`):
        a swap of that card, or of another that frees a joker to lay it with; where only a player who
        has opened may free a joker and this one has not, such a swap after an opening this turn.

        The engine accepts a swap or an opening only where the turn can still pay what it owes
        (:meth:`Laying._lay`), so one accepted is a way to lay the card. Every such way starts with a
        swap the player may make at once or, before opening, with an opening: one as small as the
        threshold allows serves, as the rest of a larger one can be laid after it as ordinary melds.
        """
        seat, variant = self.current, self.variant
        if not rules.may_ever_swap(variant):
            return False
        state = self.hand_states[seat].add(card)
        wanted = state.held & swap_cards(self.table, variant, seat)
        if not wanted:  # no card to free a table joker with, in hand or taken
            return False
        with trial(self):
            self._as_if_taken(card)
            return self._swap_pays_later()

    def _swap_pays_later(self) -> bool:
        """Whether a joker swap, at once or after an opening this turn, can still lead to laying the card the
        turn took and owes (meld_at_once): the question :meth:`_swap_lays` asks of a card not yet taken,
        here of the turn as it stands (a saved turn's check: one that asked only for a swap at once refused
        a game the draw led to, where the player had yet to open)."""
        seat, variant = self.current, self.variant
        if rules.may_release_jokers(variant, self.opened[seat]):
            return self._some_swap()
        return next(self._swap_openings(), None) is not None

    def _listed_swap_openings(self) -> Iterator[Meld]:
        """:meth:`_swap_openings` as the listing gives them, kept per position (:data:`_SWAP_OPENINGS`)."""
        known = _SWAP_OPENINGS(self.variant)
        key = self._position_key()
        found = known.get(key)
        if found is None:
            found = tuple(islice(self._swap_openings(), MAX_LISTED_LAYINGS))
            if len(known) >= _SWAP_OPENINGS_KEPT:
                known.clear()
            known[key] = found
        yield from found

    def _swap_openings(self) -> Iterator[Meld]:
        """The legal openings of a player who has not opened and owes the card taken (meld_at_once) that
        keep a card to free a table joker with, so that a swap after them leads to laying the card: the
        routes :meth:`_swap_pays_later` looks for, which the listing gives where its own search found none."""
        seat, variant = self.current, self.variant
        card = self.turn.must_use_card
        if card is None or self.opened[seat] or not rules.may_ever_swap(variant):
            return
        state = self.hand_states[seat]
        wanted = state.held & swap_cards(self.table, variant, seat)
        if not wanted:
            return
        for opening in self._openings_keeping(card, list(self.hands[seat]), state, wanted):
            if self._is_legal(opening):
                yield opening

    def _openings_keeping(
        self, card: Card, hand: list[Card], state: CardState, wanted: int
    ) -> Iterator[Meld]:
        """The openings of ``hand``, which holds ``card`` (``state``), that leave the card and one of the
        ``wanted`` cards (bit ``code``) to free a joker with, none of them laying a meld more than the
        threshold needs. An opening that lays the card itself is left out: melds and builds lay it.

        Searched per wanted card, on the hand less the card and that one, so every opening found keeps
        both; first the solver says whether that hand can open at all (most often it cannot, and the
        search would try every combination of its melds to learn so). Where it can, the search is
        bounded as the listing's is (:data:`MAX_OPENING_STEPS` combinations, and as many openings): past
        the bound, the solver's opening of that hand is tried too. So the draw is refused only where no
        opening keeping a swap card leads on, or, past the bound, where none of those tried does.
        """
        from kalooki.solver import can_open

        variant = self.variant
        tried: set[Meld] = set()

        def found_past(found: Iterator[Meld], rest: list[Card]) -> Iterator[Meld]:
            if next(found, None) is not None:  # the search had more to give than the bound takes
                yield from self._solver_opening(rest, 0)

        for other in state.distinct():
            if not wanted >> other & 1:
                continue
            rest = list(hand)
            rest.remove(card)
            if other != card:
                rest.remove(other)
            # keep 0: the card and the swap card stay, which leaves the one card to discard any variant keeps.
            if not rest or not can_open(rest, variant):
                continue
            rest_state = CardState.of(rest)
            groups = [group for group in candidate_melds(rest_state, variant) if card not in group]
            runs = [group for group in lone_runs(rest_state, variant) if card not in group]
            run: list[MeldKind | None] = ["run"]
            kinds = [None] * len(groups) + run * len(runs)
            found = self._opening_melds(
                groups + runs, kinds, rest, 0, MAX_OPENING_STEPS, minimal=True, cut_to_solver=True
            )
            # Each opening found costs a trial of it: past the bound's count of them, the solver's too.
            bounded = chain(islice(found, MAX_OPENING_STEPS), found_past(found, rest))
            for opening in bounded:
                if opening not in tried:
                    tried.add(opening)
                    yield opening

    def legal_swaps(self) -> list[Swap]:
        """Every joker release the current player may make now."""
        if self.phase != "play":
            return []
        if not rules.may_release_jokers(self.variant, self.opened[self.current]):
            return []
        return joker_swaps(
            self.hand_states[self.current], self.table, self.variant, self.current, self.turn, self._is_legal
        )

    def _some_swap(self) -> bool:
        """Whether the current player may make some joker release now: :meth:`legal_swaps` that stops at
        the first one (each swap's check is a search of its own)."""
        if self.phase != "play" or not rules.may_release_jokers(self.variant, self.opened[self.current]):
            return False

        def first(swap: Swap) -> bool:
            if self._is_legal(swap):
                raise _SwapFound
            return False

        try:
            found = joker_swaps(
                self.hand_states[self.current], self.table, self.variant, self.current, self.turn, first
            )
        except _SwapFound:
            return True
        return bool(found)

    def _is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalMoveError:
            return False
        return True

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalMoveError` if ``action`` is not legal now; change nothing.

        The trial plays on fresh copies of the state: lists a caller holds (a hand, the table) are never
        changed, even for a moment.
        """
        saved = TurnSnapshot.take(self, whole=True)
        saved.restore(self, rng=False)
        try:
            self.apply(action)
        finally:
            saved.restore(self)
