"""What one seat may see, and the legal actions worked out from that alone: all a bot is given.

:meth:`Game.view <kalooki.engine.Game.view>` copies out a :class:`PlayerView`: the seat's own
hand, the table, the discard pile, counts of every other hand and of the stock, the scores,
and the turn as that seat saw it. It holds no reference to the :class:`~kalooki.engine.Game`,
so nothing reached from it leads to another hand, the stock's order or the random state.

:class:`LegalView` answers "what may the current player do?" on a stand-in game rebuilt
from the view, the way OpenSpiel's observers keep what a player knows apart from the state:
the cards the seat cannot see are dealt, in a fixed sorted order, into the other hands and
the stock. Legality depends only on what the acting player sees (their hand, the table, the
discard pile, the stock's size), so the stand-in lists exactly the real game's legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kalooki import rules
from kalooki.cards import Card
from kalooki.cardstate import CardState
from kalooki.errors import KalookiError
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Action, Build, Meld, Swap
from kalooki.table_plays import joker_swaps, opened_layings
from kalooki.text import clipped_repr

if TYPE_CHECKING:
    from kalooki.engine import Game, Phase, TurnState
    from kalooki.melds import TableMeld
    from kalooki.variant import Variant


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one player may see: their own hand, the table, the discard pile, and counts."""

    seat: int
    hand: tuple[Card, ...]
    hand_state: CardState
    """The seat's own hand as counts and masks (the engine's, kept current: nothing to rebuild)."""
    table: tuple[TableMeld, ...]
    discard_pile: tuple[Card, ...]
    stock_count: int
    hand_counts: tuple[int, ...]
    opened: tuple[bool, ...]
    totals: tuple[int, ...]
    eliminated: tuple[bool, ...]
    current: int
    phase: Phase
    hand_number: int
    variant: Variant
    players: tuple[str, ...]
    turn_number: int
    turn: TurnState
    """The turn so far; a card the current player drew from the stock shows only in their own view."""
    owed: tuple[Card, ...]
    """In the current player's view: what the turn must still lay (see ``Game.owed_cards``)."""
    next_seat: int
    """The seat still playing that plays after the current player."""
    first_seat: int
    dealer: int
    stock_ran_out: bool
    turn_limit: int

    @property
    def discard_top(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def seats(self) -> list[int]:
        """The seats still playing (not eliminated), in seat order."""
        return [seat for seat, out in enumerate(self.eliminated) if not out]

    def unseen(self) -> list[int]:
        """Copies of each card code (0-52) this seat has not seen: the pack less hand, table and discards.

        Jokers on the table stand for cards that are still out there: nothing to correct for them.
        """
        hidden = [self.variant.decks] * 52 + [self.variant.jokers]
        for card in self.hand:
            hidden[card] -= 1
        for card in self.discard_pile:
            hidden[card] -= 1
        for meld in self.table:
            for card in meld.cards:
                hidden[card] -= 1
        return hidden


class ViewDraft:
    """A :class:`PlayerView` being filled in: :meth:`Game.view <kalooki.engine.Game.view>` sets each
    field by plain assignment into these slots, then makes it a :class:`PlayerView` (``__class__`` may
    change between classes of the same slots).

    The engine builds a view for every action a bot chooses. The frozen dataclass's constructor sets
    each field through ``object.__setattr__`` by name, four times the cost; a constructor taking the
    fields as arguments still costs a third more than the assignments (the call passes 23 of them).
    The slots take only the view's field names; a test holds every one of them set.
    """

    __slots__ = PlayerView.__slots__


class NotAViewError(KalookiError, TypeError):
    """:class:`LegalView` given what is no :class:`PlayerView`."""


class LegalView:
    """The current player's legal actions, worked out from their :class:`PlayerView` alone.

    ``action in legal`` checks one action; iterating yields every legal action lazily (as
    ``Game.iter_legal_actions``); :meth:`listed` and :meth:`swaps` mirror ``Game.legal_actions``
    and ``Game.legal_swaps``. The stand-in game is built on first use, so a bot that never asks
    pays nothing; the draws are read from the view itself, unless taking the discard depends on
    whether the hand could lay it (meld_at_once), which the stand-in's solver answers.
    """

    __slots__ = ("_stand_in", "_swaps", "view")

    def __init__(self, view: PlayerView) -> None:
        try:
            others = view.seat != view.current
        except AttributeError:  # a game or None: 'Game' object has no attribute 'seat'
            plain = view is None or isinstance(view, str | bytes | int | float)
            shown = clipped_repr(view) if plain else f"a {type(view).__name__}"
            raise NotAViewError(
                f"LegalView is made from a PlayerView (game.view(seat) gives one), not {shown}"
            ) from None
        if others:
            # A NotYourTurnError (a KalookiError, and still the ValueError it was) naming both players.
            from kalooki.gamestate import NotYourTurnError

            players, seat = view.players, view.seat
            raise NotYourTurnError(
                f"seat {seat} ({players[seat]}) is not the current player, {players[view.current]}: "
                "only their view has legal actions"
            )
        self.view = view
        self._stand_in: Game | None = None
        self._swaps: list[Swap] | None = None

    def _game(self) -> Game:
        if self._stand_in is None:
            self._stand_in = stand_in(self.view)
        return self._stand_in

    def _draws(self) -> list[Action] | None:
        """The legal draws, read from the view (None when it is not the draw).

        Whether the discard may be taken is :func:`kalooki.rules.may_draw_discard`'s verdict, as in
        the engine; only under meld_at_once does it ask the stand-in whether the hand could lay it.
        """
        view = self.view
        if view.phase != "draw":
            return None
        draws: list[Action] = [DRAW_STOCK] if view.stock_count else []
        pile = view.discard_pile
        top = pile[-1] if pile else None
        if rules.may_draw_discard(view.variant, view.opened[view.current], top, self._layable):
            draws.append(DRAW_DISCARD)
        return draws

    def _layable(self, card: Card) -> bool:
        """Whether the current player could meld or build ``card`` this very turn (meld_at_once)."""
        return self._game()._card_usable(card)

    def __iter__(self) -> Iterator[Action]:
        draws = self._draws()
        return iter(draws) if draws is not None else self._game().iter_legal_actions()

    def __contains__(self, action: object) -> bool:
        from kalooki.engine import IllegalMoveError

        if not isinstance(action, Action):  # ``"draw stock" in legal``: text is not a move
            return False
        try:
            self._game().check(action)
        except (IllegalMoveError, TypeError, AttributeError):
            return False
        return True

    def listed(self) -> list[Action]:
        """The legal actions, laying actions capped as ``Game.legal_actions`` caps them."""
        draws = self._draws()
        return draws if draws is not None else self._game().legal_actions()

    def swaps(self) -> list[Swap]:
        """Every joker release the current player may make now.

        Read from the view (:func:`kalooki.table_plays.joker_swaps`): the stand-in is built only to try
        a swap that leaves the turn owing something. Worked out once: a bot that asks whether it may
        swap and then lists its layings pays once.
        """
        if self._swaps is None:
            view = self.view
            seat = view.current
            if view.phase != "play" or not rules.may_release_jokers(view.variant, view.opened[seat]):
                self._swaps = []
            else:
                self._swaps = joker_swaps(
                    view.hand_state, view.table, view.variant, seat, view.turn, self._tried
                )
        return list(self._swaps)

    def layings(self, releases: bool = True) -> Iterator[Meld | Build | Swap]:
        """The legal melds, builds and swaps, in the order iterating yields them (no draw or discard).

        For a player who has opened and owes nothing they are read from the view
        (:func:`kalooki.table_plays.opened_layings`), with no stand-in game and no discards listed; there
        ``releases=False`` (the caller knows the hand holds no card a table joker stands for, so
        there is no joker release) spares looking for swaps.
        """
        view = self.view
        seat = view.current
        turn = view.turn
        guarded = rules.guards_last_card(view.variant, turn.must_use_card is not None, turn.jokers_owed)
        if view.phase == "play" and view.opened[seat] and not view.owed and not guarded:
            keep = rules.keep(view.variant)
            swaps = self.swaps if releases else _no_swaps
            return opened_layings(view.hand, view.hand_state, view.table, view.variant, keep, swaps)
        return (action for action in self if isinstance(action, (Meld, Build, Swap)))

    def _tried(self, action: Action) -> bool:
        """Whether the stand-in game accepts ``action``."""
        return self._game()._is_legal(action)


def _no_swaps() -> list[Swap]:
    return []


_STAND_IN_RNG = random.Random(0).getstate()


def stand_in(view: PlayerView) -> Game:
    """A game equal to the real one in all that ``view`` shows; the cards it does not show are stand-ins.

    The unseen cards, sorted, fill the other hands (each to its real size) and then the stock;
    the random state is a fixed one, so not even a reshuffle's order comes from the real game.
    Past results play no part in legality and are left out; table melds are frozen, so shared.
    """
    from kalooki.engine import Game

    filler: list[Card] = []
    for code, copies in enumerate(view.unseen()):
        if copies:
            filler += [code] * copies
    hands: list[list[Card]] = []
    states: list[CardState] = []
    for seat, count in enumerate(view.hand_counts):
        if seat == view.seat:
            hands.append(list(view.hand))
            states.append(view.hand_state)
        else:
            hands.append(filler[:count])
            states.append(CardState.of(hands[-1]))
            del filler[:count]
    game = Game.__new__(Game)
    game.variant = view.variant
    game.players = list(view.players)
    game.seed = None
    game.turn_limit = view.turn_limit
    game.rng = random.Random.__new__(random.Random)  # set to a fixed state: skip seeding from the OS
    game.rng.setstate(_STAND_IN_RNG)
    game.forced_reshuffles = []
    game.opening_events = []
    game.hand_number = view.hand_number
    game.first_seat = view.first_seat
    game.dealer = view.dealer
    game.current = view.current
    game.phase = view.phase
    game.stock = filler
    game.discard_pile = list(view.discard_pile)
    game.table = list(view.table)
    game.hands = hands
    game.hand_states = states
    game.opened = list(view.opened)
    game.totals = list(view.totals)
    game.eliminated = list(view.eliminated)
    game.turn = view.turn.copy()
    game.turn_number = view.turn_number
    game.stock_ran_out = view.stock_ran_out
    game.results = []
    game.winners = []
    game._undo = None
    return game


__all__ = ["LegalView", "PlayerView", "ViewDraft", "stand_in"]
