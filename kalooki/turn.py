"""A turn: drawing, what the turn owes before it may end, discarding, and taking back what was laid."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kalooki import rules
from kalooki.cards import (
    JOKER,
    Card,
    format_card,
)
from kalooki.events import DiscardEvent, DrawEvent, EndTurnEvent, ReshuffleEvent, StockOutEvent
from kalooki.gamestate import (
    Event,
    IllegalMoveError,
    TurnState,
)
from kalooki.melds import (
    TableMeld,
)
from kalooki.moves import Discard, Draw, DrawSource, Swap
from kalooki.randomness import shuffle
from kalooki.scoring import HandScoring
from kalooki.snapshot import TurnSnapshot
from kalooki.variant import Variant
from kalooki.variant_memo import PerVariant

_NOTHING = "there is nothing to take back"
_LAID = "this turn's melds, builds and swaps"
NOTHING_TO_TAKE_BACK = f"{_NOTHING}: undo takes back {_LAID}"
"""Why ``undo`` is refused where a joker may be taken from the table (:func:`nothing_to_take_back`)."""


def laid_this_turn(variant: Variant) -> str:
    """What ``undo`` takes back in ``variant`` ("this turn's melds and builds"): swaps are named only where
    there are any (czech-500's player was told of swaps it has none of). The status, the refusal and the
    terminal's help all say it so."""
    return _LAID if rules.may_ever_swap(variant) else "this turn's melds and builds"


def undo_takes_back(variant: Variant) -> str:
    """What ``undo`` takes back in ``variant``, as the turn's status and the refusal of an undo say it."""
    return f"undo takes back {laid_this_turn(variant)}"


def nothing_to_take_back(variant: Variant) -> str:
    """Why ``undo`` is refused in ``variant``: the one wording for the engine, the play screen and a hosted
    table."""
    return f"{_NOTHING}: {undo_takes_back(variant)}"


_NEW = object.__new__
_SET_DRAW_PLAYER, _SET_DRAW_SOURCE, _SET_DRAW_CARD = (
    DrawEvent.__dict__[name].__set__ for name in ("player", "source", "card")
)
_SET_DISCARD_PLAYER, _SET_DISCARD_CARD = (DiscardEvent.__dict__[name].__set__ for name in ("player", "card"))

_DRAWS: dict[tuple[str, str, Card], DrawEvent] = {}
_DISCARDS: dict[tuple[str, Card], DiscardEvent] = {}
"""The draw and discard events made so far, by their fields. Events are immutable values: a player's
draw of a card from the stock is one event however often it happens, so a turn finds its two events
here (a look-up costs about a third of making one) and makes only those it has not met before."""

_EVENTS_KEPT = 20_000
"""How many events each of those holds at most: names vary from game to game, so past this they start
again empty (a four-player table's are a few hundred)."""


def _draw_event(player: str, source: DrawSource, card: Card) -> DrawEvent:
    """``DrawEvent(player, source, card)``, kept in ``_DRAWS``; its fields are set straight into their slots
    (the frozen dataclass's constructor, ``object.__setattr__`` by name, costs twice as much)."""
    event: DrawEvent = _NEW(DrawEvent)
    _SET_DRAW_PLAYER(event, player)
    _SET_DRAW_SOURCE(event, source)
    _SET_DRAW_CARD(event, card)
    if len(_DRAWS) >= _EVENTS_KEPT:
        _DRAWS.clear()
    _DRAWS[player, source, card] = event
    return event


def _discard_event(player: str, card: Card) -> DiscardEvent:
    """``DiscardEvent(player, card)``, kept in ``_DISCARDS``, made as :func:`_draw_event` makes a draw's."""
    event: DiscardEvent = _NEW(DiscardEvent)
    _SET_DISCARD_PLAYER(event, player)
    _SET_DISCARD_CARD(event, card)
    if len(_DISCARDS) >= _EVENTS_KEPT:
        _DISCARDS.clear()
    _DISCARDS[player, card] = event
    return event


_LAYS: PerVariant[dict[tuple[object, ...], bool]] = PerVariant(lambda variant: {})
""":meth:`TurnPlay._can_lay`'s answers per variant, by hand, table and cards: a swap's check asks the
solver of the positions its swaps reach, and swaps made in another order reach them again."""

_LAYS_KEPT = 4_096
"""Answers :data:`_LAYS` holds per variant before it starts again empty."""


class TurnPlay(HandScoring):
    """The turn from the draw to the discard, and the debts that span it."""

    if TYPE_CHECKING:  # the legal actions' layer (kalooki.legal) lists the swaps the engine accepts

        def legal_swaps(self) -> list[Swap]: ...

        def _swap_lays(self, card: Card) -> bool: ...

    def _keep(self) -> int:
        """Cards that must stay in hand after laying: one to discard, if the last card must be discarded."""
        return rules.keep(self.variant)

    def _start_turn(self, events: list[Event] | None = None) -> list[Event]:
        """Begin the current seat's turn, ending the hand when nobody can draw; returns ``events`` (a new
        list without them) with the start's own added: none, most turns, so the list the turn's discard
        began is passed on, not copied."""
        if events is None:
            events = []
        self.turn = TurnState.start(self.opened[self.current])
        self._undo = None
        self._undo_pending = False
        if not self.stock and rules.reshuffles_discards(self.variant):
            # The pile may have been too small to reshuffle when the stock ran out (reshuffle_keep_top with
            # one card, or an empty pile): it has grown since, so reshuffle it now.
            events += self._stock_exhausted()
        if self.stock or self._discard_draw_allowed():
            return events
        return events + self._end_hand(None, "blocked")

    def _discard_draw_allowed(self) -> bool:
        """Whether the current player may take the top discard now (see :func:`rules.may_draw_discard`)."""
        pile = self.discard_pile
        top = pile[-1] if pile else None
        return rules.may_draw_discard(self.variant, self.opened[self.current], top, self._card_usable)

    def _card_usable(self, card: Card) -> bool:
        """Whether the current player could lay ``card`` this very turn (meld_at_once): meld or build it
        (opening first, where they have not opened), or lay it with a joker swap's help: in a table
        joker's place, which pays for it as a meld would (:meth:`Laying._lay`), or in a meld or build
        with a joker another card frees (:meth:`LegalActions._swap_lays`)."""
        if self._can_lay((card,), self.table, hand=[*self.hands[self.current], card]):
            return True
        return self._swap_lays(card)

    def _unusable_because(self, card: Card) -> str | None:
        """Where the current player may take ``card`` only to lay it and cannot: that the card to discard
        stops it, when it does (laying every card would lay it). Asked only of a refused draw, so its
        solver calls cost a refusal, never a listing of the legal actions."""

        if not rules.may_take_discard(self.variant, self.opened[self.current]):
            return None
        seat, keep = self.current, self._keep()
        hand, opened = [*self.hands[seat], card], self.opened[seat]
        # The rule is named only where the solver, exact on these cards, agrees the card cannot be laid
        # keeping a card and can be keeping none: a refusal for another reason (a joker swap past the
        # bound of its search, a build the opening turn may not make) is left as it is said.
        if not keep or self._solver_lays((card,), self.table, hand, opened, keep):
            return None
        lays_keeping_none = self._solver_lays((card,), self.table, hand, opened, 0)
        return rules.KEEP_A_CARD if lays_keeping_none else None

    def _table_joker_may_be_freed(self) -> bool:
        """Whether a joker lies on the table and the variant lets the current player free one now."""
        variant = self.variant
        return (
            rules.may_ever_swap(variant)
            and rules.may_release_jokers(variant, self.opened[self.current])
            and any(meld.jokers for meld in self.table)
        )

    def _as_if_taken(self, card: Card) -> None:
        """Play, inside a :func:`~kalooki.snapshot.trial`, the current player's taking ``card`` from the
        discard pile under meld_at_once: the draw without its reshuffle, which moves no card a laying
        could use."""
        seat = self.current
        if self.discard_pile and self.discard_pile[-1] == card:
            self.discard_pile.pop()
        self.turn.must_use_card = card
        self.turn.must_use_limit = self.hands[seat].count(card)
        self.hands[seat].append(card)
        self.hand_states[seat] = self.hand_states[seat].add(card)
        self.turn.drew = "discard"
        self.turn.drawn_card = card
        self.phase = "play"

    def _draw(self, action: Draw) -> list[Event]:
        if self.phase != "draw":
            moves = rules.moves_after_the_draw(self.variant)
            raise IllegalMoveError.about(self.player, "has", "have", f"drawn already this turn: {moves}")
        seat, turn, source = self.current, self.turn, action.source
        if source == "discard":
            if not self._discard_draw_allowed():
                top = self.discard_pile[-1] if self.discard_pile else None
                because = None if top is None else self._unusable_because(top)
                raise IllegalMoveError(rules.discard_refusal(self.variant, self.opened[seat], top, because))
            card = self.discard_pile.pop()
            if rules.discard_must_be_laid(self.variant):
                turn.must_use_card = card
                turn.must_use_limit = self.hands[seat].count(card)
        else:
            if not self.stock:
                raise IllegalMoveError("the stock is empty: draw discard")
            card = self.stock.pop()
        self.hands[seat].append(card)
        self.hand_states[seat] = self.hand_states[seat].add(card)
        turn.drew = source
        turn.drawn_card = card
        self.phase = "play"
        player = self.players[seat]
        # Not "get() or make": an event is a Mapping, whose truth is its length, worked out from its JSON.
        drawn = _DRAWS.get((player, source, card))
        events: list[Event] = [_draw_event(player, source, card) if drawn is None else drawn]
        if not self.stock:
            events += self._stock_exhausted()
        # Undo goes back to here; until something is laid the state is still this (``_undo_pending``).
        self._undo = None
        self._undo_pending = True
        return events

    def _stock_exhausted(self) -> list[Event]:
        rule = self.variant.stock_exhausted
        if not rules.reshuffles_discards(self.variant):
            self.stock_ran_out = True
            return [StockOutEvent(rule)]
        kept = self.discard_pile[-1:] if rule == "reshuffle_keep_top" else []
        pile = self.discard_pile[: len(self.discard_pile) - len(kept)]
        if not pile:
            return []
        if self.forced_reshuffles:
            stock = self.forced_reshuffles.pop(0)
            if Counter(stock) != Counter(pile):
                raise IllegalMoveError("the reshuffled stock does not hold the discard pile's cards")
        else:
            stock = list(pile)
            shuffle(self.rng, stock)
        self.stock = stock
        self.discard_pile = kept
        return [ReshuffleEvent(rule, tuple(reversed(self.stock)))]

    def owed_cards(self) -> tuple[Card, ...]:
        """What the current turn must still lay: the discard taken under meld_at_once, freed jokers."""
        card = self.turn.must_use_card
        taken = () if card is None else (card,) * self._must_use_owed()
        return (*taken, *([JOKER] * self.turn.jokers_owed))

    def _must_use_owed(self) -> int:
        """How many copies of the card taken under meld_at_once the hand still holds beyond what it had."""
        turn = self.turn
        if turn.must_use_card is None:
            return 0
        return max(0, self.hands[self.current].count(turn.must_use_card) - turn.must_use_limit)

    def _turn_debts(self, ending: str = "discard") -> str | None:
        """What the turn still owes before it may end (checked before the discard leaves the hand);
        ``ending`` names how the player meant to end it ("discard", or "end the turn")."""
        turn = self.turn
        if turn.must_use_card is not None and self._must_use_owed():
            card = format_card(turn.must_use_card)
            # A swap that puts the card in a joker's place pays too (Laying._lay): said where one could.
            swap = ", or swap it for a joker on the table" if self._table_joker_may_be_freed() else ""
            return f"you took {card} from the discard pile: meld or build it{swap} before you {ending}"
        if turn.jokers_owed:
            return f"the joker you freed must go into a new meld before you {ending}"
        return None

    def _can_lay(
        self, cards: tuple[Card, ...], table: Sequence[TableMeld], hand: Sequence[Card] | None = None
    ) -> bool:
        """Whether the current hand (or ``hand`` in its place) can still lay ``cards`` this turn, building
        only on ``table``."""
        hand = self.hands[self.current] if hand is None else hand
        opened = self.opened[self.current]
        key = (opened, tuple(sorted(hand)), tuple(table), cards)
        known = _LAYS(self.variant)
        answer = known.get(key)
        if answer is None:
            answer = self._solver_lays(cards, table, hand, opened)
            if len(known) >= _LAYS_KEPT:
                known.clear()
            known[key] = answer
        return answer

    def _solver_lays(
        self,
        cards: tuple[Card, ...],
        table: Sequence[TableMeld],
        hand: Sequence[Card],
        opened: bool,
        keep: int | None = None,
    ) -> bool:
        """:meth:`_can_lay`, asked of the solver (``keep``: the cards to keep, the turn's by default)."""
        from kalooki import solver

        variant = self.variant
        keep = self._keep() if keep is None else keep
        if not opened:
            if table:
                # Builds onto the table add no opening points and lay no card an opening needs, so an
                # opening with builds keeps an opening of its new melds alone, which keeps more cards:
                # where the hand cannot open at all it cannot open with builds either, and an opening
                # that lays ``cards`` without them is one with the table too. Both ask the solver far
                # less than an opening that may build on every table meld (a tenth, eight melds down).
                if not solver.can_open(hand, variant, keep=keep):
                    return False
                if solver.best_opening(hand, variant, keep=keep, must_include=cards) is not None:
                    return True
            return solver.best_opening(hand, variant, table=table, keep=keep, must_include=cards) is not None
        try:
            solver.solve(hand, variant, table=table, opened=True, keep=keep, must_include=cards)
        except solver.Unsolvable:
            return False
        return True

    def _discard(self, action: Discard) -> list[Event]:
        seat, card = self.current, action.card
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalMoveError(f"you have no {format_card(card)} in your hand to discard")
        if len(hand) == 1 and not rules.discards_last_card(self.variant):
            raise IllegalMoveError(rules.last_discard_refusal(self.variant))
        turn = self.turn
        if turn.must_use_card is not None or turn.jokers_owed:  # else the turn owes nothing
            debt = self._turn_debts()
            if debt is not None:
                raise IllegalMoveError(debt)
        hand.remove(card)
        self.hand_states[seat] = self.hand_states[seat].remove(card)
        self.discard_pile.append(card)
        player = self.players[seat]
        discarded = _DISCARDS.get((player, card))
        events: list[Event] = [_discard_event(player, card) if discarded is None else discarded]
        if not hand:
            return events + self._went_out()
        return self._pass_turn(events)

    def _end_turn(self) -> list[Event]:
        """End the turn without a discard, where the variant allows it and the turn owes nothing."""
        if not rules.may_end_without_discard(self.variant):
            raise IllegalMoveError(rules.END_TURN_REFUSAL)
        turn = self.turn
        if turn.must_use_card is not None or turn.jokers_owed:
            debt = self._turn_debts("end the turn")
            if debt is not None:
                raise IllegalMoveError(debt)
        return self._pass_turn([EndTurnEvent(self.players[self.current])])

    def _pass_turn(self, events: list[Event]) -> list[Event]:
        """The turn is over and the hand goes on: the hand's end, or the next player's turn."""
        if self.stock_ran_out:
            return events + self._end_hand(None, "stock_exhausted")
        if self.turn_number >= self.turn_limit:
            return events + self._end_hand(None, "turn_limit")
        self.current = self.next_seat(self.current)
        self.turn_number += 1
        self.phase = "draw"
        return self._start_turn(events)

    def _undo_snapshot(self) -> TurnSnapshot | None:
        """The snapshot undo would restore (one taken now while the turn has laid nothing since the draw)."""
        return TurnSnapshot.take(self) if self._undo_pending else self._undo

    def can_undo(self) -> bool:
        """Whether the current player has melded, built or swapped this turn (and may take it back)."""
        if self.phase != "play" or self._undo is None:
            return False
        return self._undo.laid_since(self)

    def undo_turn(self) -> None:
        """Take back this turn's melds, builds and swaps (the draw stands)."""
        if not self.can_undo():
            raise IllegalMoveError(nothing_to_take_back(self.variant))
        assert self._undo is not None
        self._undo.restore(self)
