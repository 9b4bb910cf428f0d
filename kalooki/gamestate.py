"""What a game of Kalooki is made of: the table, the hands, the turn, the records of past hands,
what one player may see, and the engine's errors.

:class:`GameState` holds the attributes and answers questions about them; the layers above it add the
rules, each in its own module: the end of a hand and scoring (:mod:`kalooki.scoring`), the turn and
its debts (:mod:`kalooki.turn`), laying, building and swapping (:mod:`kalooki.laying`), saving
(:mod:`kalooki.gamejson`), the legal actions (:mod:`kalooki.legal`), and dealing
(:class:`kalooki.engine.Game`).
"""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, SupportsIndex

from kalooki import rules
from kalooki.cards import (
    JOKER,
    Card,
)
from kalooki.cardstate import CardState, read_only
from kalooki.errors import KalookiError
from kalooki.events import GameEvent
from kalooki.jsonio import MAX_DIGITS, is_whole_number
from kalooki.melds import (
    TableMeld,
)
from kalooki.text import clipped_repr, too_long_to_write
from kalooki.variant import Variant
from kalooki.view import PlayerView, ViewDraft

if TYPE_CHECKING:
    from kalooki.snapshot import TurnSnapshot

Phase = Literal["draw", "play", "hand_over", "game_over"]

DEFAULT_TURN_LIMIT = 1000
"""Turns (all players together) after which a hand is stopped unscored: scripts, the terminal, a host
and simulations share it, so a hand nobody can finish (no one able to open, say) still ends."""

MAX_TURN_LIMIT = 10**12
"""The largest turn limit a game takes: the most a save holds (any count in it), so every game's save
reads back."""

LONGEST_SEED = 10**MAX_DIGITS - 1
"""The largest seed (negated, the smallest) whose save or log can be read back: their JSON reader takes no
longer number (:data:`~kalooki.jsonio.MAX_DIGITS` digits)."""

HandEnd = Literal["went_out", "stock_exhausted", "blocked", "abandoned", "turn_limit"]
Event = GameEvent


class IllegalMoveError(KalookiError):
    """An action the rules do not allow now; the message says why and what would be legal.

    A refusal about the acting player names them (``str(error)``: "ann must draw first: ...", as a log
    or a spectator reads it) and carries ``player`` and ``to_player``, the same refusal addressed to
    that player ("you must draw first: ..."), which the screen of the player who tried it shows.
    Other refusals are worded for the acting player already, and ``to_player`` is the message itself.
    """

    def __init__(self, message: str, *, player: str | None = None, to_player: str | None = None) -> None:
        super().__init__(message)
        self.player = player
        self.to_player = message if to_player is None else to_player

    @classmethod
    def about(cls, player: str, verb: str, your_verb: str, rest: str) -> IllegalMoveError:
        """A refusal about ``player``: "<player> <verb> <rest>", to them "you <your_verb> <rest>".

        A player named "you" (the terminal's own name for its player, kept in saves and logs) is "the
        player 'you'" to everyone else: "you has drawn already" read as nobody's English."""
        subject = "the player 'you'" if player == "you" else player
        return cls(f"{subject} {verb} {rest}", player=player, to_player=f"you {your_verb} {rest}")


class SetupError(KalookiError):
    """A game that cannot be set up as asked: the number of players, their names, the turn limit,
    the seed."""


def seed_to_keep(seed: object) -> int | None:
    """``seed`` as the game keeps (and saves) it: None, or a whole number as a plain ``int`` (numpy's
    ``int64`` too) of at most :data:`~kalooki.jsonio.MAX_DIGITS` digits; else :class:`SetupError`. A bool,
    a string, a float or a longer number was taken, and the save it made was refused when read back."""
    if seed is None:
        return None
    if isinstance(seed, SupportsIndex) and not isinstance(seed, bool):
        number = operator.index(seed)
        if abs(number) > LONGEST_SEED:
            size = "over 4,000" if too_long_to_write(number) else f"{len(str(abs(number))):,}"
            raise SetupError(
                f"a seed of {size} digits: give one of at most {MAX_DIGITS} (a save or a log holds the seed, "
                "and their reader takes no longer number)"
            )
        return number
    shown = clipped_repr(seed)
    raise SetupError(f"the seed must be a whole number or None, not {shown} ({type(seed).__name__})")


class NotYourTurnError(IllegalMoveError):
    """An action by a player whose turn it is not."""


class NoSeatError(KalookiError, IndexError):
    """A seat asked for that the table has not: ``view(5)`` at a table of two, ``view(-1)``. An
    IndexError too, as it was raised before it was named (``view(-1)`` gave the last seat's hand)."""


def no_seat(seat: object) -> str:
    """Says that ``seat`` is none of the table's: the seats are whole numbers from 0, one a player."""
    return f"there is no seat {seat if type(seat) is int else clipped_repr(seat)} at this table"


class DealError(KalookiError):
    """A fixed deal that the pack or the variant cannot satisfy."""


class StateFormatError(KalookiError):
    """A saved game state that cannot be loaded (unknown version, or damaged)."""

    def __init__(self, message: str, *, problem: str | None = None) -> None:
        super().__init__(message)
        self.problem = message if problem is None else problem
        """What is wrong, in words that do not say whose the state is: a save's, or a table's."""


@dataclass(frozen=True, slots=True)
class FixedDeal:
    """Cards placed by hand for one deal; everything else is shuffled.

    ``hands`` maps a seat to exactly ``hand_size`` cards; ``stock_top`` lists the top
    of the stock in draw order, the rest of the pack shuffled beneath it. With
    ``stock_complete`` the stock is exactly ``stock_top`` (used to replay a log).
    """

    hands: Mapping[int, Sequence[Card]] = field(default_factory=dict)
    discard: Card | None = None
    stock_top: Sequence[Card] = ()
    stock_complete: bool = False
    dealer: int | None = None
    """The seat that deals, instead of the one the rules choose (a replayed log's dealer)."""
    drawn_for_dealer: Mapping[str, str] = field(default_factory=dict)
    """With ``dealer``: the cards a log says were drawn to choose it, reported again."""
    drawn_again: Sequence[Mapping[str, str]] = ()
    """With ``dealer``: the draws again of the players tied for the highest card, a round each."""
    no_upcard: bool = False
    """With ``stock_complete``: the deal turned up no card (a replayed log of a variant without one)."""


def deal_parts_problem(deal: object) -> str | None:
    """Why ``deal`` is no :class:`FixedDeal` whose parts are what they claim (built in code, not read
    from a script or a log), or None: each seat a whole number, each card a card code. A seat written
    "0" failed as a TypeError while the refusal was worded, a card past the joker's as an IndexError,
    and a seat or a card True was taken for 1."""
    if not isinstance(deal, FixedDeal):
        return f"not a fixed deal: {clipped_repr(deal)}"
    if not isinstance(deal.hands, Mapping):
        return f"the deal's hands: {clipped_repr(deal.hands)} is not a mapping of seats to cards"
    for seat in [*deal.hands, *([] if deal.dealer is None else [deal.dealer])]:
        if not is_whole_number(seat):
            return no_seat(seat)
    parts = [(f"seat {seat}'s hand", cards) for seat, cards in deal.hands.items()]
    parts += [
        ("the stock's top", deal.stock_top),
        ("the discard", [] if deal.discard is None else [deal.discard]),
    ]
    for where, cards in parts:
        if not isinstance(cards, Sequence) or isinstance(cards, str | bytes):
            return f"{where}: {clipped_repr(cards)} is not a list of card codes"
        for card in cards:
            if not is_whole_number(card) or not 0 <= card <= JOKER:
                return f"{where}: {clipped_repr(card)} is not a card code (0 to {JOKER})"
    again = deal.drawn_again if isinstance(deal.drawn_again, list | tuple) else [deal.drawn_again]
    for drawn in [deal.drawn_for_dealer, *again]:
        if not isinstance(drawn, Mapping):
            shown = clipped_repr(drawn)
            return f"the cards drawn for the dealer: {shown} is not a mapping of player names to cards"
    return None


@dataclass(slots=True)
class HandResult:
    """How one hand ended and what it added to each total (indexed by seat)."""

    number: int
    winner: int | None
    kalooki: bool
    end: HandEnd
    seats: tuple[int, ...]
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int
    dealer: int | None = None
    """The seat that dealt (None in saves from before it was recorded)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "winner": self.winner,
            "kalooki": self.kalooki,
            "end": self.end,
            "seats": list(self.seats),
            "hand_points": list(self.hand_points),
            "scores": list(self.scores),
            "turns": self.turns,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> HandResult:
        return HandResult(
            number=int(data["number"]),
            winner=None if data["winner"] is None else int(data["winner"]),
            kalooki=bool(data["kalooki"]),
            end=data["end"],
            seats=tuple(int(seat) for seat in data["seats"]),
            hand_points=tuple(int(value) for value in data["hand_points"]),
            scores=tuple(int(value) for value in data["scores"]),
            turns=int(data["turns"]),
            dealer=None if data.get("dealer") is None else int(data["dealer"]),
        )


_NEW = object.__new__
_IN_PLAY = ("draw", "play")


@dataclass(slots=True)
class TurnState:
    """What the current turn has done so far: the rules that span a turn depend on it."""

    drew: str | None = None
    drawn_card: Card | None = None
    opened_before: bool = False
    built: bool = False
    # meld_at_once: the card taken from the discard pile, and how many of it the hand may keep.
    must_use_card: Card | None = None
    must_use_limit: int = 0
    # released_joker_must_be_melded: freed jokers not yet laid in a new meld.
    jokers_owed: int = 0
    # Table indexes of the melds laid this turn: building onto them is part of laying down (Kalooki).
    laid: list[int] = field(default_factory=list)

    @staticmethod
    def start(opened_before: bool) -> TurnState:
        """``TurnState(opened_before=opened_before)``, set field by field (every turn starts one)."""
        turn: TurnState = _NEW(TurnState)
        turn.drew = None
        turn.drawn_card = None
        turn.opened_before = opened_before
        turn.built = False
        turn.must_use_card = None
        turn.must_use_limit = 0
        turn.jokers_owed = 0
        turn.laid = []
        return turn

    def copy(self) -> TurnState:
        """An independent copy: every view and snapshot takes one, so the fields are stored one by one
        on a bare instance (a third faster than the dataclass's constructor, far faster than
        ``dataclasses.replace``)."""
        turn: TurnState = _NEW(TurnState)
        turn.drew = self.drew
        turn.drawn_card = self.drawn_card
        turn.opened_before = self.opened_before
        turn.built = self.built
        turn.must_use_card = self.must_use_card
        turn.must_use_limit = self.must_use_limit
        turn.jokers_owed = self.jokers_owed
        turn.laid = self.laid[:]
        return turn

    def to_json(self) -> dict[str, Any]:
        return {
            "drew": self.drew,
            "drawn_card": self.drawn_card,
            "opened_before": self.opened_before,
            "built": self.built,
            "must_use_card": self.must_use_card,
            "must_use_limit": self.must_use_limit,
            "jokers_owed": self.jokers_owed,
            "laid": list(self.laid),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> TurnState:
        # Saves from before "laid" was recorded did not count building onto the turn's own melds.
        known = {key: data[key] for key in TurnState.__slots__ if key != "laid"}
        return TurnState(**known, laid=[int(index) for index in data.get("laid", ())])


class GameState:
    """The state of a game and the queries on it; :class:`kalooki.engine.Game` adds the rules."""

    variant: Variant
    players: list[str]
    seed: int | None
    turn_limit: int
    rng: random.Random
    hand_number: int
    first_seat: int
    dealer: int
    current: int
    phase: Phase
    stock: list[Card]
    discard_pile: list[Card]
    table: list[TableMeld]
    hands: list[list[Card]]
    hand_states: list[CardState]
    """Each hand's :class:`CardState`, kept equal to ``hands`` by every change (:meth:`set_hand`)."""
    opened: list[bool]
    totals: list[int]
    eliminated: list[bool]
    turn: TurnState
    turn_number: int
    stock_ran_out: bool
    results: list[HandResult]
    winners: list[int]
    _undo: TurnSnapshot | None
    _undo_pending: bool = False
    """From the draw until the turn's first meld, build or swap: the undo snapshot is the state as it
    stands (nothing has been laid since the draw), so that first lay takes it (see ``_undo_snapshot``)
    and a turn that only draws and discards takes none."""
    forced_reshuffles: list[list[Card]]
    opening_events: list[Event]

    if TYPE_CHECKING:  # the turn's layer (kalooki.turn) works out what the turn owes

        def owed_cards(self) -> tuple[Card, ...]: ...

    @property
    def seats(self) -> list[int]:
        """The seats still playing (not eliminated), in seat order."""
        return [seat for seat in range(len(self.players)) if not self.eliminated[seat]]

    def out_of_the_game(self, seat: int) -> str:
        """``seat`` eliminated, said by name with the hand that put them out: "cid is out of the game
        (eliminated in hand 1)". The last hand a seat played is that hand: an eliminated seat plays none."""
        played = [result.number for result in self.results if seat in result.seats]
        when = f" (eliminated in hand {played[-1]})" if played else ""
        return f"{self.players[seat]} is out of the game{when}"

    def next_seat(self, seat: int, direction: str | None = None) -> int:
        """The next seat still playing after ``seat``, the way play goes (or ``direction``)."""
        step = 1 if (direction or self.variant.play_direction) == "clockwise" else -1
        count = len(self.players)
        # Every turn passes on: the seat just after is the answer unless it is out.
        candidate = (seat + step) % count
        if not self.eliminated[candidate]:
            return candidate
        for offset in range(2, count + 1):
            candidate = (seat + step * offset) % count
            if not self.eliminated[candidate]:
                return candidate
        return seat

    def previous_seat(self, seat: int) -> int:
        """The seat still playing that play reaches just before ``seat``."""
        backwards = "counter_clockwise" if self.variant.play_direction == "clockwise" else "clockwise"
        return self.next_seat(seat, backwards)

    @property
    def player(self) -> str:
        return self.players[self.current]

    @property
    def game_over(self) -> bool:
        return self.phase == "game_over"

    def seat_of(self, name: str) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise IllegalMoveError(
                f"there is no player '{name}': the players are {', '.join(self.players)}"
            ) from None

    def set_hand(self, seat: int, cards: Sequence[Card]) -> None:
        """Put ``cards`` in ``seat``'s hand in place of what it holds (a fixed position, a test's setup)."""
        self.hands[seat] = list(cards)
        self.hand_states[seat] = CardState.of(cards)

    def view(self, seat: int, *, own_bot: bool = False) -> PlayerView:
        """What ``seat`` sees of the game. Its ``hand_state`` is a read-only copy, so that a bot cannot change
        the hand through it; ``own_bot``: the view is for one of kalooki's own bots, which never write to
        it and are given the engine's state itself (the copy cost random play 6%)."""
        count = len(self.players)
        # Seat -1 was shown the last seat's hand, labelled -1; True seat 1's, '0' and 1.0 a TypeError.
        if type(seat) is not int or not 0 <= seat < count:
            raise NoSeatError(f"view: {no_seat(seat)}")
        current = self.current
        turn = self.turn
        phase = self.phase
        owed: tuple[Card, ...] = ()
        if seat == current and (turn.must_use_card is not None or turn.jokers_owed):
            owed = self.owed_cards()
        # The seat after the current one, when it still plays (else the full search of next_seat).
        after = (current + (1 if self.variant.play_direction == "clockwise" else -1)) % count
        if self.eliminated[after]:
            after = self.next_seat(current)
        # The turn so far; which pile was drawn from is public, a card from the stock is not. The
        # current player in play sees their own draw (rules.sees_drawn_card), the view bots are shown.
        if own_bot and seat == current and phase in _IN_PLAY:
            # The player on turn sees every field of it, and kalooki's own bots read it only while they
            # choose, never writing to it: on their turn they are given the engine's own, as with the hand
            # state (the copy and its freeing were about a seventh of a view's instructions, every action).
            seen = turn
        else:
            seen = turn.copy()
            if (
                seen.drawn_card is not None
                and (seat != current or phase not in _IN_PLAY)
                and not rules.sees_drawn_card(seat, current, seen.drew, phase in _IN_PLAY)
            ):
                seen.drawn_card = None
            if not rules.sees_copies_kept(seat, current):
                seen.must_use_limit = 0
        hands = self.hands
        # Typed Any: the draft's slots are the view's fields, each set below (a test holds them all set).
        # Called, not object.__new__(ViewDraft): with no __init__ of its own the call is the cheaper.
        view: Any = ViewDraft()
        view.seat = seat
        view.hand = tuple(hands[seat])
        view.hand_state = self.hand_states[seat] if own_bot else read_only(self.hand_states[seat])
        view.table = tuple(self.table)
        view.discard_pile = tuple(self.discard_pile)
        view.stock_count = len(self.stock)
        if len(hands) == 4:  # the usual table, written out: tuple(map(len, hands)) costs three times as much
            first, second, third, fourth = hands
            view.hand_counts = (len(first), len(second), len(third), len(fourth))
        else:
            view.hand_counts = tuple(map(len, hands))
        view.opened = tuple(self.opened)
        view.totals = tuple(self.totals)
        view.eliminated = tuple(self.eliminated)
        view.current = current
        view.phase = phase
        view.hand_number = self.hand_number
        view.variant = self.variant
        view.players = tuple(self.players)
        view.turn_number = self.turn_number
        view.turn = seen
        view.owed = owed
        view.next_seat = after
        view.first_seat = self.first_seat
        view.dealer = self.dealer
        view.stock_ran_out = self.stock_ran_out
        view.turn_limit = self.turn_limit
        view.__class__ = PlayerView
        shown: PlayerView = view  # what it now is, said to the type checker without a call
        return shown

    def cards_everywhere(self) -> Counter[Card]:
        """Every card the game holds, wherever it is: always the whole pack."""
        cards: Counter[Card] = Counter(self.stock)
        cards.update(self.discard_pile)
        for hand in self.hands:
            cards.update(hand)
        for meld in self.table:
            cards.update(meld.cards)
        return cards
