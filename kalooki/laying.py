"""Laying down: melds, builds on table melds and joker swaps, each checked in full before it is played."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kalooki import rules
from kalooki.cards import (
    JOKER,
    Card,
    format_card,
)
from kalooki.events import BuildEvent, MeldEvent, ReleaseEvent
from kalooki.gamestate import (
    Event,
    IllegalMoveError,
    NotYourTurnError,
    no_seat,
)
from kalooki.joker_layers import may_take_from, swap_refusal, taker_refusal
from kalooki.melds import (
    MeldError,
    TableMeld,
    build,
    make_meld,
    swap,
)
from kalooki.moves import Action, Build, Discard, Draw, EndTurn, Meld, Swap
from kalooki.snapshot import TurnSnapshot
from kalooki.statecheck import (
    check_action_parts,
)
from kalooki.turn import TurnPlay
from kalooki.variant_memo import PerVariant

_SOURCES = ("stock", "discard")

_PAYING_LAYS_KEPT = 16
"""Lays paying a debt each game remembers (:meth:`Laying._known_lay_pays`): a listing meets a few."""


MAX_SWAP_POSITIONS = 64
"""Positions one laying's check works out (:meth:`Laying._dead_end`) looking for joker swaps that lead on:
each asks the solver a few times, and swaps chain (eight table melds holding jokers, and a card or two
to free each with, reach thousands of positions)."""

_PAST_BOUND = "that would leave the turn owing what it cannot pay without more joker swaps than are weighed"
"""A position past :data:`MAX_SWAP_POSITIONS`: only ever a nested swap's refusal, never the one shown."""

_VERDICTS: PerVariant[dict[tuple[object, ...], str | None]] = PerVariant(lambda variant: {})
""":meth:`Laying._dead_end` of each position asked about, per variant: a listing asks it of every swap,
and the driver, the bots' view and the move ask again."""

_VERDICTS_KEPT = 4_096
"""Positions :data:`_VERDICTS` holds per variant before it starts again empty."""


class _SwapSearch:
    """One laying's search for joker swaps that lead on: the positions worked out, how many more may be."""

    __slots__ = ("known", "left")

    def __init__(self) -> None:
        self.known: dict[tuple[object, ...], str | None] = {}
        self.left = MAX_SWAP_POSITIONS


class Laying(TurnPlay):
    """Playing actions: :meth:`apply` and the meld, build and swap handlers."""

    if TYPE_CHECKING:  # the legal actions' layer (kalooki.legal) lists the swaps the engine accepts

        def legal_swaps(self) -> list[Swap]: ...

        def _some_swap(self) -> bool: ...

    _swap_search: _SwapSearch | None = None
    """While a laying is checked: the positions its search for a joker swap that leads on has worked out."""

    _paying_lays: tuple[Counter[Card], ...] = ()
    """Cards of lays of new melds found paying a turn's debts, latest first (:meth:`_known_lay_pays`)."""

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Play ``action`` for the current player (or check that ``seat`` is theirs) and return its events."""
        if self.phase in ("hand_over", "game_over"):
            raise IllegalMoveError(
                "the game is over" if self.phase == "game_over" else f"hand {self.hand_number} is over"
            )
        # A seat that is no whole number is none: True was taken for seat 1, "x" a bare TypeError.
        if seat is not None and (seat != self.current or type(seat) is not int):
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.players):
                raise NotYourTurnError(no_seat(seat))
            if self.eliminated[seat]:
                raise NotYourTurnError(f"{self.out_of_the_game(seat)}: it is {self.player}'s turn")
            raise NotYourTurnError(f"it is {self.player}'s turn, not {self.players[seat]}'s")
        # Every turn draws and discards: a well-formed Draw or Discard (by exact type) needs no more
        # checking of its parts and goes straight to its handler; anything else goes to
        # check_action_parts, which words the refusal (its isinstance walk through every kind of action
        # costs more than the draw itself).
        if type(action) is Draw:
            if action.source in _SOURCES:
                return self._draw(action)
        elif type(action) is Discard:
            card = action.card
            if type(card) is int and 0 <= card <= JOKER:
                if self.phase == "draw":
                    raise self._draw_first()
                return self._discard(action)
        check_action_parts(action)
        if isinstance(action, Draw):
            return self._draw(action)
        if self.phase == "draw":
            raise self._draw_first()
        if isinstance(action, Meld):
            return self._meld(action)
        if isinstance(action, Build):
            return self._build(action)
        if isinstance(action, Swap):
            return self._swap(action)
        if isinstance(action, EndTurn):
            return self._end_turn()
        return self._discard(action)

    def _draw_first(self) -> IllegalMoveError:
        """The refusal of anything but a draw before the turn's draw, naming the draws open to the player.

        Not "or draw discard" where the discard may not be taken (czech-500 never allows it): the player
        would try it next. A turn begins only where one draw is open; else the hand ends blocked.
        """
        draws = ["draw stock"] if self.stock else []
        if self._discard_draw_allowed():
            draws.append("draw discard")
        return IllegalMoveError.about(self.player, "must", "must", f"draw first: {' or '.join(draws)}")

    def _take_from_hand(self, cards: Sequence[Card]) -> None:
        """Check that the hand holds ``cards`` (as a multiset); raise without changing anything.

        The hand's counts are read from its :class:`CardState` (the action's cards are card codes by now:
        ``check_action_parts`` came first) rather than counted again from the list.
        """
        state = self.hand_states[self.current]
        for card in dict.fromkeys(cards):
            held = state.count(card)
            count = cards.count(card)
            if held < count:
                have = "no" if held == 0 else f"only {held}"
                times = "" if count == 1 or not held else f" {count} times"  # none is none, however many
                raise IllegalMoveError(f"you have {have} {format_card(card)} in your hand to play{times}")

    def _check_keep(self, laying: int) -> None:
        left = len(self.hands[self.current]) - laying
        if left < self._keep():
            raise IllegalMoveError(
                "you must keep a card to discard: in this variant the last card must be discarded"
            )

    def _remove(self, cards: Sequence[Card]) -> None:
        hand = self.hands[self.current]
        for card in cards:
            hand.remove(card)
        self.hand_states[self.current] = self.hand_states[self.current].remove_all(cards)

    def _meld(self, action: Meld) -> list[Event]:
        cards = [card for group in action.groups for card in group]
        self._take_from_hand(cards)
        melds: list[TableMeld] = []
        for index, group in enumerate(action.groups):
            try:
                melds.append(make_meld(group, self.variant, owner=self.current, kind=action.kind_of(index)))
            except MeldError as error:
                raise IllegalMoveError(str(error)) from None
        self._check_keep(len(cards))
        points = sum(meld.worth(self.variant) for meld in melds)
        threshold = rules.opening_points(self.variant)
        if not self.opened[self.current] and not rules.opens(self.variant, points):
            worth = "melds are" if len(melds) > 1 else "meld is"
            raise IllegalMoveError(
                f"your first {worth} worth {points} points; this variant needs {threshold} "
                "(lay them all in one meld command, melds parted by commas: meld 7H 8H 9H, QS QD QC)"
            )
        start = len(self.table)

        def lay() -> Event:
            self._remove(cards)
            self.table.extend(melds)
            self.turn.laid = [*self.turn.laid, *range(start, start + len(melds))]
            self.opened[self.current] = True
            self.turn.jokers_owed = max(0, self.turn.jokers_owed - cards.count(JOKER))
            numbers = tuple(range(start + 1, start + 1 + len(melds)))
            laid = tuple(tuple(meld.cards) for meld in melds)
            # No read_as where the move named no reading (kinds all None): its log replays as it reads.
            return MeldEvent(self.player, laid, numbers, points, action.kinds if any(action.kinds) else ())

        return self._lay(lay)

    def _table_meld(self, number: int) -> TableMeld:
        if not 1 <= number <= len(self.table):
            if not self.table:
                raise IllegalMoveError("there are no melds on the table yet")
            raise IllegalMoveError(
                f"there is no table meld {number}: the melds are numbered 1 to {len(self.table)}"
            )
        return self.table[number - 1]

    def _build(self, action: Build) -> list[Event]:
        if not self.opened[self.current]:
            raise IllegalMoveError("you may build only after you have opened (laid your first melds)")
        meld = self._table_meld(action.meld)
        self._take_from_hand(action.cards)
        try:
            built = build(meld, action.cards, self.variant, action.end, by=self.current)
        except MeldError as error:
            raise IllegalMoveError(str(error)) from None
        self._check_keep(len(action.cards))

        def lay() -> Event:
            self._remove(action.cards)
            self.table[action.meld - 1] = built
            self._note_table_use(action.meld)
            return BuildEvent(self.player, action.meld, tuple(action.cards), action.end, tuple(built.cards))

        return self._lay(lay)

    def _swap(self, action: Swap) -> list[Event]:
        variant = self.variant
        if not rules.may_release_jokers(variant, self.opened[self.current]):
            raise IllegalMoveError("you may take a joker from the table only after you have opened")
        meld = self._table_meld(action.meld)
        refusal = taker_refusal(meld, self.current, variant)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        self._take_from_hand(action.cards)
        try:
            swapped, freed = swap(meld, action.cards, variant, by=self.current)
        except MeldError as error:
            raise IllegalMoveError(str(error)) from None
        refusal = swap_refusal(meld, swapped, freed, self.current)
        if refusal is not None:
            raise IllegalMoveError(refusal)

        def lay() -> Event:
            self._remove(action.cards)
            if variant.released_joker_must_be_melded:
                self.turn.jokers_owed += freed
            if self.turn.must_use_card == JOKER:
                # Freed jokers are not the joker taken from the discard pile: they owe what their rule says.
                self.turn.must_use_limit += freed
            self.hands[self.current].extend([JOKER] * freed)
            self.hand_states[self.current] = self.hand_states[self.current].add_all([JOKER] * freed)
            self.table[action.meld - 1] = swapped
            self._note_table_use(action.meld)
            return ReleaseEvent(self.player, action.meld, tuple(action.cards), freed, tuple(swapped.cards))

        return self._lay(lay)

    def _note_table_use(self, number: int) -> None:
        """A build or swap on table meld ``number``: building on the table, unless the turn laid that meld."""
        if number - 1 not in self.turn.laid:
            self.turn.built = True

    def _lay(self, lay: Callable[[], Event]) -> list[Event]:
        """Carry out a checked meld, build or swap, unless it leaves the turn owing what it cannot pay."""
        saved = TurnSnapshot.take(self)
        if self._undo_pending:  # the turn's first lay: the state undo goes back to is this one
            self._undo, self._undo_pending = saved, False
        event = lay()
        problem = self._dead_end()
        if problem is not None:
            saved.restore(self)
            raise IllegalMoveError(problem)
        return [event, *self._after_laying()]

    def _dead_end(self) -> str | None:
        """Why the position a laying reached is a dead end, or None: what the turn owes can still be paid.

        Where melds and builds alone could not pay, a joker swap may still lead on: lay the card taken
        from the discard pile in a joker's place, or free a joker that melds what is owed. Each swap is
        itself refused where it leads to a dead end, so one the engine accepts is enough: a swap's check
        asks again after it, swap after swap. One laying's check works out at most
        :data:`MAX_SWAP_POSITIONS` positions, each once however the swaps reaching it were ordered; past
        them a position not yet worked out counts as a dead end. Its answer depends on the position
        alone, so it is kept (:data:`_VERDICTS`): the legal actions, the bots' view of them and the move
        itself ask it again and again.
        """
        turn = self.turn
        if turn.must_use_card is None and not turn.jokers_owed:  # the turn owes nothing: the common case
            return None
        key = self._position_key()
        search = self._swap_search
        if search is None:
            known = _VERDICTS(self.variant)
            if key in known:
                return known[key]
            self._swap_search = _SwapSearch()
            try:
                verdict = self._work_out(key, self._swap_search)
            finally:
                self._swap_search = None
            if len(known) >= _VERDICTS_KEPT:
                known.clear()
            known[key] = verdict
            return verdict
        if key in search.known:
            return search.known[key]
        if search.left <= 0:
            return _PAST_BOUND
        return self._work_out(key, search)

    def _position_key(self) -> tuple[object, ...]:
        """All that decides which layings the engine accepts now: the hand and table, the turn, whether the
        player has opened (the key of the memos of answers that depend on the position alone)."""
        seat, turn = self.current, self.turn
        return (
            seat,
            self.hand_states[seat].key,
            tuple(self.table),
            (turn.drew, turn.drawn_card, turn.opened_before, turn.built),
            (turn.must_use_card, turn.must_use_limit, turn.jokers_owed, tuple(turn.laid)),
            self.opened[seat],
        )

    def _work_out(self, key: tuple[object, ...], search: _SwapSearch) -> str | None:
        """:meth:`_dead_end` of a position not met before in this laying's check."""
        search.left -= 1
        problem = self._unpayable_debt()
        if problem is not None and self._swap_leads_on():
            problem = None
        search.known[key] = problem
        return problem

    def _swap_leads_on(self) -> bool:
        """Whether the engine would accept some joker swap now."""
        owed = self.turn.jokers_owed
        if self.variant.released_joker_must_be_melded and owed > self.hands[self.current].count(JOKER):
            # A freed joker was built onto the table: every swap frees jokers it also owes, so the hand
            # stays that many jokers short whatever swaps follow, and each of them would be refused.
            return False
        return self._some_swap()

    def _unpayable_debt(self) -> str | None:
        """Why melds and builds could no longer pay what the turn owes, or None: a dead end is refused, not
        entered (unless a joker swap leads on: :meth:`_lay` asks)."""
        turn = self.turn
        if turn.must_use_card is None and not turn.jokers_owed:  # the turn owes nothing: the common case
            return None
        hand = self.hands[self.current]
        owed = self.owed_cards()
        if (
            len(hand) == 1
            and not owed
            and rules.guards_last_card(self.variant, True, 0)
            and not self._can_lay(tuple(hand), self.table)
        ):
            return (
                f"that would leave you {format_card(hand[0])}, which you could neither lay nor discard: "
                "in this variant you go out by melding your last card"
            )
        if not hand or not owed:
            return None
        if self._known_lay_pays(hand, owed) or self._finds_paying_lay(hand, owed):
            return None
        card = self.turn.must_use_card
        taken = self._must_use_owed()
        if card is not None and taken and not self._can_lay((card,) * taken, self.table):
            return (
                f"that would leave you unable to meld the {format_card(card)} you took from the discard pile"
            )
        # With no table to build on, only new melds can pay for a freed joker; one built away is not paid.
        owed_jokers = self.turn.jokers_owed
        if owed_jokers and hand.count(JOKER) < owed_jokers:  # built onto a table meld: that lays, not melds
            return "a freed joker must go into a new meld this turn, not onto a meld on the table"
        if owed_jokers and not self._can_lay((JOKER,) * owed_jokers, ()):
            return "a freed joker must go into a new meld this turn, and your hand could not meld it"
        if card is not None and taken and owed_jokers and not self._can_pay_both(card, taken, owed_jokers):
            return (
                f"that would leave you unable to lay the {format_card(card)} you took from the discard pile "
                "and meld the freed joker as well"
            )
        return None

    def _known_lay_pays(self, hand: list[Card], owed: tuple[Card, ...]) -> bool:
        """Whether new melds found paying a debt earlier (:meth:`_finds_paying_lay`) pay ``owed`` from
        ``hand`` now: they lay every card owed, the hand still holds them, and what they leave may be left.
        Such melds pass every check below, so the solver need not be asked: while a turn that owes is
        listed, most layings leave the melds that pay it in hand."""
        if not self._paying_lays or not self.opened[self.current]:
            return False
        held, needed = Counter(hand), Counter(owed)
        for laid in self._paying_lays:
            if (
                all(laid[card] >= count for card, count in needed.items())
                and all(held[card] >= count for card, count in laid.items())
                and rules.may_leave(self.variant, len(hand) - laid.total())
            ):
                return True
        return False

    def _finds_paying_lay(self, hand: list[Card], owed: tuple[Card, ...]) -> bool:
        """Whether new melds alone, laid from ``hand`` by a player who has opened, pay everything ``owed``;
        the melds that lay owed cards are remembered for :meth:`_known_lay_pays`."""
        from kalooki import solver

        if not self.opened[self.current] or hand.count(JOKER) < owed.count(JOKER):
            return False  # a freed joker built away: the checks below word it
        try:
            plan = solver.solve(hand, self.variant, opened=True, keep=self._keep(), must_include=owed)
        except solver.Unsolvable:
            return False
        needed, laid = Counter(owed), Counter[Card]()
        for meld in plan.melds:
            if any(needed[card] > 0 for card in meld):  # owed cards not yet laid (the rest go below 0)
                laid.update(meld)
                needed.subtract(meld)
        self._paying_lays = (laid, *self._paying_lays[: _PAYING_LAYS_KEPT - 1])
        return True

    def _can_pay_both(self, card: Card, taken: int, jokers: int) -> bool:
        """Whether one lay pays both debts: ``taken`` copies of ``card`` laid anywhere and ``jokers`` freed
        jokers in new melds. Each alone payable is not enough: the one joker that could meld the freed
        one may be needed to build the card (``TH JK`` onto ``QH JK AH``). Either everything owed goes
        into new melds, or the card is built onto the table and the rest melds what is still owed."""
        from kalooki.table_plays import legal_builds

        if self._can_lay((card,) * taken + (JOKER,) * jokers, ()):
            return True
        hand = self.hands[self.current]
        state = self.hand_states[self.current]
        for option in legal_builds(hand, state, self.table, self.variant, self._keep()):
            if card not in option.cards:
                continue
            rest = list(hand)
            for laid in option.cards:
                rest.remove(laid)
            owed = (card,) * max(0, taken - option.cards.count(card)) + (JOKER,) * jokers
            if all(rest.count(owe) >= owed.count(owe) for owe in set(owed)) and self._can_lay(owed, (), rest):
                return True
        return False

    def _after_laying(self) -> list[Event]:
        """The hand ends when a player's last card is melded or built (discard_optional, meld_required)."""
        if not self.hands[self.current]:
            return self._went_out()
        return []

    def may_take_joker_from(self, meld: TableMeld) -> bool:
        """Whether joker_taker leaves the current player some joker of ``meld`` to take."""
        return may_take_from(meld, self.current, self.variant)
