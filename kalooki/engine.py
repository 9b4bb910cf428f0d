"""The rules engine: a game of Kalooki under one variant, hand after hand, to the goal.

Pure: no printing, no files. A :class:`Game` is driven like an OpenSpiel state:
ask whose turn it is and which actions are legal, :meth:`Game.apply` one, read
what a player may see with :meth:`Game.view`. Every rejected action raises an
:class:`IllegalMoveError` that says what would be legal, and leaves the game as
it was: each action is checked in full before anything changes.

Cards are counted, not tracked one by one: identical cards of different packs
are interchangeable, and the pack's multiset of card codes is always exactly
spread over the stock, the discard pile, the hands and the table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, islice
from typing import Any, Literal

from pydantic import ValidationError

from kalooki.cards import (
    JOKER,
    Card,
    format_card,
    format_cards,
    full_pack,
    hand_points,
    make_card,
    rank_points,
)
from kalooki.errors import KalookiError
from kalooki.melds import (
    MeldError,
    RunEnd,
    TableMeld,
    build,
    make_meld,
    run_span_ok,
    set_room_suits,
    swap,
)
from kalooki.moves import Action, Build, Discard, Draw, Meld, Swap
from kalooki.statecheck import (
    check_action_parts,
    check_player_name,
    check_reachable,
    check_state_shape,
    first_error,
)
from kalooki.variant import Variant
from kalooki.view import PlayerView

STATE_FORMAT = "kalooki-game"
STATE_VERSION = 1

Phase = Literal["draw", "play", "hand_over", "game_over"]

DEFAULT_TURN_LIMIT = 1000
"""Turns (all players together) after which a hand is stopped unscored: scripts, the terminal, a host
and simulations share it, so a hand nobody can finish (no one able to open, say) still ends."""

MAX_LISTED_LAYINGS = 1000
"""Most melds, builds and swaps :meth:`Game.legal_actions` lists (draws and discards are always all listed).

Before opening, every combination of melds reaching the threshold is legal: with a big hand and a low
threshold that is millions. :meth:`Game.iter_legal_actions` yields them all, lazily."""

MAX_OPENING_STEPS = 2_000
"""Combinations of melds :meth:`Game.legal_actions` tries when listing openings; past them it lists what it
found, or else the solver's best opening: a hand that can open always has an opening listed."""
HandEnd = Literal["went_out", "stock_exhausted", "blocked", "abandoned", "turn_limit"]
Event = dict[str, Any]


class IllegalMoveError(KalookiError):
    """An action the rules do not allow now; the message says why and what would be legal."""


class NotYourTurnError(IllegalMoveError):
    """An action by a player whose turn it is not."""


class DealError(KalookiError):
    """A fixed deal that the pack or the variant cannot satisfy."""


class StateFormatError(KalookiError):
    """A saved game state that cannot be loaded (unknown version, or damaged)."""


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
    no_upcard: bool = False
    """With ``stock_complete``: the deal turned up no card (a replayed log of a variant without one)."""


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


class Game:
    """A game of Kalooki: hands are played until the variant's goal ends the game."""

    def __init__(
        self,
        variant: Variant,
        players: Sequence[str],
        seed: int | None = None,
        deal: FixedDeal | None = None,
        *,
        turn_limit: int = DEFAULT_TURN_LIMIT,
    ) -> None:
        names = list(players)
        if turn_limit < 1:
            raise IllegalMoveError(f"the turn limit must be 1 or more, not {turn_limit}")
        for name in names:
            check_player_name(name)
        if not variant.min_players <= len(names) <= variant.max_players:
            span = (
                f"exactly {variant.min_players}"
                if variant.min_players == variant.max_players
                else f"{variant.min_players} to {variant.max_players}"
            )
            raise IllegalMoveError(f"{len(names)} players: this variant is for {span}")
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise IllegalMoveError(
                f"two players are called '{duplicates[0]}': give each player a different name"
            )
        self.variant = variant
        self.players = names
        self.seed = seed
        self.turn_limit = turn_limit
        self.rng = random.Random(seed)
        self.hand_number = 0
        self.first_seat = 0
        self.dealer = 0
        self.current = 0
        self.phase: Phase = "hand_over"
        self.stock: list[Card] = []
        self.discard_pile: list[Card] = []
        self.table: list[TableMeld] = []
        self.hands: list[list[Card]] = [[] for _ in names]
        self.opened = [False] * len(names)
        self.totals = [0] * len(names)
        self.eliminated = [False] * len(names)
        self.turn = TurnState()
        self.turn_number = 0
        self.stock_ran_out = False
        self.results: list[HandResult] = []
        self.winners: list[int] = []
        self._undo: dict[str, Any] | None = None
        self.forced_reshuffles: list[list[Card]] = []
        self.opening_events: list[Event] = self.next_hand(deal)
        """The first hand's deal events (a log starts with them)."""

    # ------------------------------------------------------------------ hands

    @property
    def seats(self) -> list[int]:
        """The seats still playing (not eliminated), in seat order."""
        return [seat for seat in range(len(self.players)) if not self.eliminated[seat]]

    def next_seat(self, seat: int, direction: str | None = None) -> int:
        """The next seat still playing after ``seat``, the way play goes (or ``direction``)."""
        step = 1 if (direction or self.variant.play_direction) == "clockwise" else -1
        count = len(self.players)
        for offset in range(1, count + 1):
            candidate = (seat + step * offset) % count
            if not self.eliminated[candidate]:
                return candidate
        return seat

    def previous_seat(self, seat: int) -> int:
        """The seat still playing that play reaches just before ``seat``."""
        backwards = "counter_clockwise" if self.variant.play_direction == "clockwise" else "clockwise"
        return self.next_seat(seat, backwards)

    def _choose_dealer(self, deal: FixedDeal) -> tuple[int, int, dict[str, str]]:
        """The next hand's dealer and first player, and the cards drawn to choose the first dealer."""
        variant = self.variant
        drawn: dict[str, str] = {}
        if deal.dealer is not None:
            dealer, drawn = deal.dealer, dict(deal.drawn_for_dealer)
        elif self.hand_number == 0:
            if variant.first_dealer == "high_card":
                dealer, drawn = self._draw_for_dealer()
            else:
                dealer = self.previous_seat(0)
        elif variant.deal_direction == "as_play":
            # The deal passes the way play goes: the first player moves on one seat, the dealer before them.
            first = self.next_seat(self.first_seat)
            return self.previous_seat(first), first, drawn
        else:
            dealer = self.next_seat(self.dealer, variant.deal_direction)
        return dealer, self.next_seat(dealer), drawn

    def _draw_for_dealer(self) -> tuple[int, dict[str, str]]:
        """Each player draws a card from a shuffled pack: the highest rank deals; ties draw again."""
        contenders = self.seats
        drawn: dict[str, str] = {}
        while True:
            pack = list(range(52))
            self.rng.shuffle(pack)
            cards = dict(zip(contenders, pack, strict=False))
            for seat, card in cards.items():
                drawn[self.players[seat]] = format_card(card)
            rank = {seat: 14 if card % 13 == 0 else card % 13 + 1 for seat, card in cards.items()}
            best = max(rank.values())
            contenders = [seat for seat in contenders if rank[seat] == best]
            if len(contenders) == 1:
                return contenders[0], drawn

    def next_hand(self, deal: FixedDeal | None = None) -> list[Event]:
        """Shuffle and deal the next hand; the deal passes on one seat each hand."""
        if self.phase == "game_over":
            raise IllegalMoveError("the game is over: start a new game")
        if self.phase != "hand_over":
            raise IllegalMoveError(f"hand {self.hand_number} is still being played")
        deal = deal or FixedDeal()
        if deal.dealer is not None and deal.dealer not in self.seats:
            raise DealError(f"seat {deal.dealer} is not playing this hand")
        # A deal the pack cannot satisfy raises before anything changes (the dealer included).
        rng_state = self.rng.getstate()
        dealer, first_seat, drawn = self._choose_dealer(deal)
        seats = self.seats
        try:
            hands, discard, stock = self._deal_cards(seats, deal)
        except DealError:
            self.rng.setstate(rng_state)
            raise
        self.dealer = dealer
        self.first_seat = first_seat
        self.hand_number += 1
        self.hands = [[] for _ in self.players]
        for seat, cards in zip(seats, hands, strict=True):
            self.hands[seat] = cards
        self.discard_pile = [] if discard is None else [discard]
        self.stock = stock
        self.table = []
        self.opened = [False] * len(self.players)
        self.current = self.first_seat
        self.turn_number = 1
        self.stock_ran_out = False
        self.phase = "draw"
        self.turn = TurnState()
        self._undo = None
        deal_event: Event = {
            "type": "deal",
            "hand": self.hand_number,
            "dealer": self.players[self.dealer],
            "first": self.players[self.first_seat],
            "hands": {self.players[seat]: format_cards(self.hands[seat]) for seat in seats},
            "discard": None if discard is None else format_card(discard),
            # Top of the stock first, the order cards will be drawn in.
            "stock": format_cards(reversed(self.stock)),
        }
        if drawn:
            deal_event["drawn_for_dealer"] = drawn
        events: list[Event] = [deal_event]
        events += self._start_turn()
        return events

    def _deal_cards(
        self, seats: list[int], deal: FixedDeal
    ) -> tuple[list[list[Card]], Card | None, list[Card]]:
        variant = self.variant
        upcard = variant.upcard and not deal.no_upcard
        if deal.discard is not None and not upcard:
            raise DealError("this variant turns up no card at the deal: leave out the discard")
        pack = full_pack(variant.decks, variant.jokers)
        placed: Counter[Card] = Counter()
        for seat, cards in deal.hands.items():
            if seat not in seats:
                raise DealError(f"seat {seat} is not playing this hand")
            if len(cards) != variant.hand_size:
                raise DealError(
                    f"{self.players[seat]} is dealt {len(cards)} cards: "
                    f"this variant deals {variant.hand_size}"
                )
            placed.update(cards)
        if deal.discard is not None:
            placed[deal.discard] += 1
        placed.update(deal.stock_top)
        for card, count in sorted(placed.items()):
            if count > pack[card]:
                raise DealError(
                    f"the deal uses {format_card(card)} {count} times; the pack holds {pack[card]}"
                )
        rest = list((pack - placed).elements())
        needed = variant.hand_size * (len(seats) - len(deal.hands)) + (upcard and deal.discard is None)
        if len(rest) < needed:
            raise DealError("the deal leaves too few cards for the other hands and the discard")
        if deal.stock_complete:
            if rest:
                raise DealError(f"the stock leaves out {format_cards(sorted(rest))}")
        else:
            self.rng.shuffle(rest)
        hands: list[list[Card]] = []
        for seat in seats:
            fixed = deal.hands.get(seat)
            if fixed is not None:
                hands.append(list(fixed))
            else:
                hands.append(rest[-variant.hand_size :])
                del rest[-variant.hand_size :]
        discard = deal.discard if deal.discard is not None or not upcard else rest.pop()
        # The stock is a list whose end is its top: the cards placed on top come last.
        stock = rest + list(reversed(deal.stock_top))
        return hands, discard, stock

    def _start_turn(self) -> list[Event]:
        """Begin the current seat's turn, ending the hand when nobody can draw."""
        self.turn = TurnState(opened_before=self.opened[self.current])
        self._undo = None
        events: list[Event] = []
        if not self.stock and self.variant.stock_exhausted != "end_hand":
            # The pile may have been too small to reshuffle when the stock ran out (reshuffle_keep_top with
            # one card, or an empty pile): it has grown since, so reshuffle it now.
            events = self._stock_exhausted()
        if self.stock or self._discard_draw_allowed():
            return events
        return events + self._end_hand(None, "blocked")

    # ------------------------------------------------------------------ queries

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

    def view(self, seat: int) -> PlayerView:
        return PlayerView(
            seat=seat,
            hand=tuple(self.hands[seat]),
            table=tuple(self.table),
            discard_pile=tuple(self.discard_pile),
            stock_count=len(self.stock),
            hand_counts=tuple(len(hand) for hand in self.hands),
            opened=tuple(self.opened),
            totals=tuple(self.totals),
            eliminated=tuple(self.eliminated),
            current=self.current,
            phase=self.phase,
            hand_number=self.hand_number,
            variant=self.variant,
            players=tuple(self.players),
            turn_number=self.turn_number,
            turn=self._turn_seen_by(seat),
            owed=self.owed_cards() if seat == self.current else (),
            next_seat=self.next_seat(self.current),
            first_seat=self.first_seat,
            dealer=self.dealer,
            stock_ran_out=self.stock_ran_out,
            turn_limit=self.turn_limit,
        )

    def _turn_seen_by(self, seat: int) -> TurnState:
        """A copy of the turn so far; which pile was drawn from is public, a card from the stock is not."""
        turn = replace(self.turn, laid=list(self.turn.laid))
        if (seat != self.current or self.phase not in ("draw", "play")) and turn.drew != "discard":
            turn.drawn_card = None
        return turn

    def cards_everywhere(self) -> Counter[Card]:
        """Every card the game holds, wherever it is: always the whole pack."""
        cards: Counter[Card] = Counter(self.stock)
        cards.update(self.discard_pile)
        for hand in self.hands:
            cards.update(hand)
        for meld in self.table:
            cards.update(meld.cards)
        return cards

    def hand_value(self, seat: int) -> int:
        return hand_points(self.hands[seat], self.variant.ace_value, self.variant.joker_penalty)

    def _keep(self) -> int:
        """Cards that must stay in hand after laying: one to discard, if the last card must be discarded."""
        return 1 if self.variant.going_out == "discard_required" else 0

    def _discard_draw_allowed(self) -> bool:
        if not self.discard_pile:
            return False
        rule = self.variant.discard_draw
        if rule == "never":
            return False
        if rule == "after_opening":
            return self.opened[self.current]
        if rule == "before_opening":
            return not self.opened[self.current]
        if rule == "meld_at_once":
            return self._card_usable(self.discard_pile[-1])
        return True

    def _card_usable(self, card: Card) -> bool:
        """Whether the current player could meld or build ``card`` this very turn (meld_at_once)."""
        hand = self.hands[self.current]
        hand.append(card)
        try:
            return self._can_lay((card,), self.table)
        finally:
            hand.pop()

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Play ``action`` for the current player (or check that ``seat`` is theirs) and return its events."""
        if self.phase in ("hand_over", "game_over"):
            raise IllegalMoveError(
                "the game is over" if self.phase == "game_over" else f"hand {self.hand_number} is over"
            )
        if seat is not None and seat != self.current:
            if not 0 <= seat < len(self.players):
                raise NotYourTurnError(f"there is no seat {seat} at this table")
            raise NotYourTurnError(f"it is {self.player}'s turn, not {self.players[seat]}'s")
        check_action_parts(action)
        if isinstance(action, Draw):
            return self._draw(action)
        if self.phase == "draw":
            raise IllegalMoveError(f"{self.player} must draw first: draw stock or draw discard")
        if isinstance(action, Meld):
            return self._meld(action)
        if isinstance(action, Build):
            return self._build(action)
        if isinstance(action, Swap):
            return self._swap(action)
        return self._discard(action)

    def _draw(self, action: Draw) -> list[Event]:
        if self.phase != "draw":
            raise IllegalMoveError(f"{self.player} has drawn already this turn: meld, build or discard")
        if action.source == "discard":
            if not self.discard_pile:
                raise IllegalMoveError("the discard pile is empty: draw stock")
            if not self._discard_draw_allowed():
                raise IllegalMoveError(self._discard_refusal())
            card = self.discard_pile.pop()
            if self.variant.discard_draw == "meld_at_once":
                self.turn.must_use_card = card
                self.turn.must_use_limit = self.hands[self.current].count(card)
        else:
            if not self.stock:
                raise IllegalMoveError("the stock is empty: draw discard")
            card = self.stock.pop()
        self.hands[self.current].append(card)
        self.turn.drew = action.source
        self.turn.drawn_card = card
        self.phase = "play"
        events: list[Event] = [
            {"type": "draw", "player": self.player, "source": action.source, "card": format_card(card)}
        ]
        if not self.stock:
            events += self._stock_exhausted()
        self._undo = self._snapshot()
        return events

    def _discard_refusal(self) -> str:
        rule = self.variant.discard_draw
        if rule == "never":
            return "this variant never lets a player take the discard: draw stock"
        if rule == "after_opening":
            return "only a player who has opened may take the discard: draw stock"
        if rule == "before_opening":
            return "a player who has opened may not take the discard: draw stock"
        top = format_card(self.discard_pile[-1])
        return f"you may take {top} only to meld it this turn, and you could not: draw stock"

    def _stock_exhausted(self) -> list[Event]:
        rule = self.variant.stock_exhausted
        if rule == "end_hand":
            self.stock_ran_out = True
            return [{"type": "stock_out", "rule": rule}]
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
            self.rng.shuffle(stock)
        self.stock = stock
        self.discard_pile = kept
        return [{"type": "reshuffle", "rule": rule, "stock": format_cards(reversed(self.stock))}]

    def _take_from_hand(self, cards: Sequence[Card]) -> None:
        """Check that the hand holds ``cards`` (as a multiset); raise without changing anything."""
        hand = Counter(self.hands[self.current])
        need = Counter(cards)
        for card, count in need.items():
            if hand[card] < count:
                have = "no" if hand[card] == 0 else f"only {hand[card]}"
                times = "" if count == 1 else f" {count} times"
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

    def _meld(self, action: Meld) -> list[Event]:
        cards = [card for group in action.groups for card in group]
        self._take_from_hand(cards)
        melds: list[TableMeld] = []
        for group in action.groups:
            try:
                melds.append(make_meld(group, self.variant, owner=self.current))
            except MeldError as error:
                raise IllegalMoveError(str(error)) from None
        self._check_keep(len(cards))
        points = sum(meld.worth(self.variant) for meld in melds)
        threshold = self.variant.opening_threshold
        if not self.opened[self.current] and points < threshold:
            worth = "melds are" if len(melds) > 1 else "meld is"
            raise IllegalMoveError(
                f"your first {worth} worth {points} points; this variant needs {threshold} "
                "(lay them all in one meld command: meld A, B, C)"
            )
        start = len(self.table)

        def lay() -> Event:
            self._remove(cards)
            self.table.extend(melds)
            self.turn.laid = [*self.turn.laid, *range(start, start + len(melds))]
            self.opened[self.current] = True
            self.turn.jokers_owed = max(0, self.turn.jokers_owed - cards.count(JOKER))
            return {
                "type": "meld",
                "player": self.player,
                "melds": [format_cards(meld.cards) for meld in melds],
                "numbers": list(range(start + 1, start + 1 + len(melds))),
                "points": points,
            }

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
            built = build(meld, action.cards, self.variant, action.end)
        except MeldError as error:
            raise IllegalMoveError(str(error)) from None
        self._check_keep(len(action.cards))

        def lay() -> Event:
            self._remove(action.cards)
            self.table[action.meld - 1] = built
            self._note_table_use(action.meld)
            return {
                "type": "build",
                "player": self.player,
                "meld": action.meld,
                "cards": format_cards(action.cards),
                "end": action.end,
                "result": format_cards(built.cards),
            }

        return self._lay(lay)

    def _swap(self, action: Swap) -> list[Event]:
        variant = self.variant
        if variant.joker_release_requires_opening and not self.opened[self.current]:
            raise IllegalMoveError("you may take a joker from the table only after you have opened")
        meld = self._table_meld(action.meld)
        if not self.may_take_joker_from(meld):
            raise IllegalMoveError(
                "in this variant only another player may take a joker from your meld "
                f"{format_cards(meld.cards)}"
            )
        self._take_from_hand(action.cards)
        try:
            swapped, freed = swap(meld, action.cards, variant)
        except MeldError as error:
            raise IllegalMoveError(str(error)) from None

        def lay() -> Event:
            self._remove(action.cards)
            if variant.released_joker_must_be_melded:
                self.turn.jokers_owed += freed
            if self.turn.must_use_card == JOKER:
                # Freed jokers are not the joker taken from the discard pile: they owe what their rule says.
                self.turn.must_use_limit += freed
            self.hands[self.current].extend([JOKER] * freed)
            self.table[action.meld - 1] = swapped
            self._note_table_use(action.meld)
            return {
                "type": "release",
                "player": self.player,
                "meld": action.meld,
                "cards": format_cards(action.cards),
                "jokers": freed,
                "result": format_cards(swapped.cards),
            }

        return self._lay(lay)

    def _note_table_use(self, number: int) -> None:
        """A build or swap on table meld ``number``: building on the table, unless the turn laid that meld."""
        if number - 1 not in self.turn.laid:
            self.turn.built = True

    def _lay(self, lay: Callable[[], Event]) -> list[Event]:
        """Carry out a checked meld, build or swap, unless it leaves the turn owing what it cannot pay."""
        seat = self.current
        saved = (list(self.hands[seat]), list(self.table), self.opened[seat], replace(self.turn))
        event = lay()
        problem = self._unpayable_debt()
        if problem is not None:
            self.hands[seat], self.table, self.opened[seat], self.turn = saved
            raise IllegalMoveError(problem)
        return [event, *self._after_laying()]

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

    def _unpayable_debt(self) -> str | None:
        """Why the turn could no longer pay what it owes, or None: a dead end is refused, not entered."""
        hand = self.hands[self.current]
        owed = self.owed_cards()
        if not hand or not owed:
            return None
        card = self.turn.must_use_card
        taken = self._must_use_owed()
        if card is not None and taken and not self._can_lay((card,) * taken, self.table):
            return (
                f"that would leave you unable to meld the {format_card(card)} you took from the discard pile"
            )
        # With no table to build on, only new melds can pay for a freed joker; one built away is not paid.
        owed_jokers = self.turn.jokers_owed
        if owed_jokers and (hand.count(JOKER) < owed_jokers or not self._can_lay((JOKER,) * owed_jokers, ())):
            return "a freed joker must go into a new meld this turn, and your hand could not meld it"
        return None

    def _can_lay(self, cards: tuple[Card, ...], table: Sequence[TableMeld]) -> bool:
        """Whether the current hand can still lay ``cards`` this turn, building only on ``table``."""
        from kalooki import solver

        hand, variant, keep = self.hands[self.current], self.variant, self._keep()
        if not self.opened[self.current]:
            return solver.best_opening(hand, variant, table=table, keep=keep, must_include=cards) is not None
        try:
            solver.solve(hand, variant, table=table, opened=True, keep=keep, must_include=cards)
        except solver.Unsolvable:
            return False
        return True

    def _after_laying(self) -> list[Event]:
        """The hand ends when a player's last card is melded or built (discard_optional)."""
        if not self.hands[self.current]:
            return self._went_out()
        return []

    def _turn_debts(self) -> str | None:
        """What the turn still owes before it may end (checked before the discard leaves the hand)."""
        turn = self.turn
        if turn.must_use_card is not None and self._must_use_owed():
            card = format_card(turn.must_use_card)
            return f"you took {card} from the discard pile: meld or build it before you discard"
        if turn.jokers_owed:
            return "the joker you freed must go into a new meld before you discard"
        return None

    def _discard(self, action: Discard) -> list[Event]:
        hand = self.hands[self.current]
        if action.card not in hand:
            raise IllegalMoveError(f"you have no {format_card(action.card)} in your hand to discard")
        debt = self._turn_debts()
        if debt is not None:
            raise IllegalMoveError(debt)
        hand.remove(action.card)
        self.discard_pile.append(action.card)
        events: list[Event] = [{"type": "discard", "player": self.player, "card": format_card(action.card)}]
        if not hand:
            return events + self._went_out()
        if self.stock_ran_out:
            return events + self._end_hand(None, "stock_exhausted")
        if self.turn_number >= self.turn_limit:
            return events + self._end_hand(None, "turn_limit")
        self.current = self.next_seat(self.current)
        self.turn_number += 1
        self.phase = "draw"
        return events + self._start_turn()

    # ------------------------------------------------------------------ end of a hand

    def _went_out(self) -> list[Event]:
        turn = self.turn
        kalooki = not turn.opened_before and (self.variant.kalooki_allows_building or not turn.built)
        return self._end_hand(self.current, "went_out", kalooki=kalooki)

    def abandon_hand(self) -> list[Event]:
        """End the hand unscored (a simulation's turn limit, or players agreeing to stop)."""
        if self.phase not in ("draw", "play"):
            raise IllegalMoveError("no hand is being played")
        return self._end_hand(None, "abandoned")

    def _end_hand(self, winner: int | None, end: HandEnd, kalooki: bool = False) -> list[Event]:
        variant = self.variant
        seats = tuple(self.seats)
        points = tuple(self.hand_value(seat) if seat != winner else 0 for seat in range(len(self.players)))
        scores = [0] * len(self.players)
        bonus = variant.kalooki_bonus if kalooki else 0
        if winner is not None:
            losers = [seat for seat in seats if seat != winner]
            if variant.scoring == "penalty":
                for seat in losers:
                    scores[seat] = points[seat] + bonus
            else:
                scores[winner] = sum(points[seat] for seat in losers)
                for seat in losers:
                    scores[seat] = -bonus
        for seat in seats:
            self.totals[seat] += scores[seat]
        result = HandResult(
            number=self.hand_number,
            winner=winner,
            kalooki=kalooki,
            end=end,
            seats=seats,
            hand_points=tuple(points[seat] if seat in seats else 0 for seat in range(len(self.players))),
            scores=tuple(scores),
            turns=self.turn_number,
            dealer=self.dealer,
        )
        self.results.append(result)
        self.phase = "hand_over"
        self._undo = None
        event: Event = {
            "type": "hand_end",
            "hand": self.hand_number,
            "end": end,
            "winner": None if winner is None else self.players[winner],
            "kalooki": kalooki,
            "hand_points": {self.players[seat]: points[seat] for seat in seats},
            "scores": {self.players[seat]: scores[seat] for seat in seats},
            "totals": {self.players[seat]: self.totals[seat] for seat in range(len(self.players))},
        }
        events = [event]
        events += self._check_game_end(seats)
        return events

    def _check_game_end(self, seats: tuple[int, ...]) -> list[Event]:
        variant = self.variant
        goal = variant.goal_score
        if variant.scoring == "winner_collects":
            reached = [seat for seat in seats if self.totals[seat] >= goal]
            if not reached:
                return []
            best = max(self.totals[seat] for seat in reached)
            self.winners = [seat for seat in reached if self.totals[seat] == best]
        elif variant.elimination:
            out = [seat for seat in seats if self.totals[seat] >= goal]
            for seat in out:
                self.eliminated[seat] = True
            events: list[Event] = [{"type": "eliminated", "player": self.players[seat]} for seat in out]
            left = self.seats
            if len(left) > 1:
                return events
            # Nobody left standing cannot happen (the hand's winner adds nothing), but a tie must not crash.
            self.winners = left or self._lowest(list(seats))
            self.phase = "game_over"
            return [*events, self._game_end_event()]
        else:
            if not any(self.totals[seat] >= goal for seat in seats):
                return []
            self.winners = self._lowest(list(seats))
        self.phase = "game_over"
        return [self._game_end_event()]

    def _lowest(self, seats: list[int]) -> list[int]:
        best = min(self.totals[seat] for seat in seats)
        return [seat for seat in seats if self.totals[seat] == best]

    def _game_end_event(self) -> Event:
        return {
            "type": "game_end",
            "winners": [self.players[seat] for seat in self.winners],
            "totals": dict(zip(self.players, self.totals, strict=True)),
        }

    # ------------------------------------------------------------------ undo and legal actions

    def _snapshot(self) -> dict[str, Any]:
        return {
            "hand": list(self.hands[self.current]),
            "table": list(self.table),
            "opened": self.opened[self.current],
            "turn": TurnState.from_json(self.turn.to_json()),
        }

    def can_undo(self) -> bool:
        """Whether the current player has melded, built or swapped this turn (and may take it back)."""
        if self.phase != "play" or self._undo is None:
            return False
        return bool(self._undo["hand"] != self.hands[self.current] or self._undo["table"] != self.table)

    def undo_turn(self) -> None:
        """Take back this turn's melds, builds and swaps (the draw stands)."""
        if not self.can_undo():
            raise IllegalMoveError("there is nothing to take back this turn")
        snapshot = self._undo
        assert snapshot is not None
        self.hands[self.current] = list(snapshot["hand"])
        self.table = list(snapshot["table"])
        self.opened[self.current] = snapshot["opened"]
        self.turn = TurnState.from_json(snapshot["turn"].to_json())

    def legal_actions(self) -> list[Action]:
        """The legal actions, with at most :data:`MAX_LISTED_LAYINGS` melds, builds and swaps (in the order
        :meth:`iter_legal_actions` yields them) and every draw and discard."""
        if self.phase != "play":
            return list(self.iter_legal_actions())
        layings = self._legal_layings(MAX_OPENING_STEPS)
        actions: list[Action] = list(islice(layings, MAX_LISTED_LAYINGS))
        return actions + list(self._legal_discards())

    def iter_legal_actions(self) -> Iterator[Action]:
        """Every legal action of the current player.

        Melds are listed as the distinct melds the hand can lay (a joker fills only a
        missing card); a player who has not opened gets every combination of disjoint
        melds that reaches the opening threshold.
        """
        if self.phase == "draw":
            if self.stock:
                yield Draw("stock")
            if self._discard_draw_allowed():
                yield Draw("discard")
            return
        if self.phase != "play":
            return
        yield from self._legal_layings()
        yield from self._legal_discards()

    def _legal_layings(self, max_steps: int | None = None) -> Iterator[Action]:
        hand = self.hands[self.current]
        # While the turn owes a card, a laying that would make it unpayable is refused: check each.
        owing = bool(self.owed_cards())
        for action in self._layings(hand, max_steps):
            if not owing or isinstance(action, Swap) or self._is_legal(action):
                yield action

    def _legal_discards(self) -> Iterator[Action]:
        if self._turn_debts() is None:
            for card in sorted(set(self.hands[self.current])):
                yield Discard(card)

    def _layings(self, hand: list[Card], max_steps: int | None = None) -> Iterator[Action]:
        keep = self._keep()
        groups = candidate_melds(hand, self.variant)
        if self.opened[self.current]:
            for group in groups:
                if len(hand) - len(group) >= keep:
                    yield Meld((group,))
        else:
            yield from self._opening_melds(groups, hand, keep, max_steps)
        if self.opened[self.current]:
            yield from self._legal_builds(hand, keep)
        if self.opened[self.current] or not self.variant.joker_release_requires_opening:
            yield from self.legal_swaps()

    def _opening_melds(
        self, groups: list[tuple[Card, ...]], hand: list[Card], keep: int, max_steps: int | None
    ) -> Iterator[Action]:
        threshold = self.variant.opening_threshold
        values = [make_meld(group, self.variant).worth(self.variant) for group in groups]
        needs = [tuple(Counter(group).items()) for group in groups]
        left = Counter(hand)
        # Cards still in hand are counted down in place (and back up), so each step costs one meld's cards.
        spare = len(hand) - keep
        # A joker stands for any card; an ace may be worth more than a ten (high or low in a run).
        ace = max(self.variant.ace_value, self.variant.low_ace_value)
        worth = {card: max(10, ace) if card == JOKER else rank_points(card % 13 + 1, ace) for card in left}
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

        def extend(start: int, chosen: list[int], spare: int, points: int) -> Iterator[Action]:
            if points >= threshold:
                if chosen:
                    yield Meld(tuple(groups[index] for index in chosen))
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
                yield from extend(index + 1, chosen, spare - len(groups[index]), points + values[index])
                chosen.pop()
                for card, count in needs[index]:
                    left[card] += count

        found = False
        for action in extend(0, [], spare, 0):
            found = True
            yield action
        if max_steps is not None and steps[0] > max_steps and not found:
            yield from self._solver_opening(hand, keep)

    def _solver_opening(self, hand: list[Card], keep: int) -> Iterator[Action]:
        """The solver's best opening, when a bounded search of combinations found none."""
        from kalooki.solver import best_opening

        plan = best_opening(hand, self.variant, keep=keep)
        if plan is not None and plan.melds:
            yield Meld(plan.melds)

    def _legal_builds(self, hand: list[Card], keep: int) -> Iterator[Action]:
        counts = Counter(hand)
        for number, meld in enumerate(self.table, start=1):
            for cards, end in _build_candidates(meld, counts, self.variant):
                if len(hand) - len(cards) < keep:
                    continue
                try:
                    build(meld, cards, self.variant, end)
                except MeldError:
                    continue
                yield Build(number, cards, end)

    def may_take_joker_from(self, meld: TableMeld) -> bool:
        """Whether joker_taker lets the current player take a joker from ``meld``."""
        return self.variant.joker_taker == "anyone" or meld.owner != self.current

    def legal_swaps(self) -> list[Swap]:
        """Every joker release the current player may make now."""
        if self.phase != "play":
            return []
        if self.variant.joker_release_requires_opening and not self.opened[self.current]:
            return []
        counts = Counter(self.hands[self.current])
        found: list[Swap] = []
        for number, meld in enumerate(self.table, start=1):
            if not meld.jokers or not self.may_take_joker_from(meld):
                continue
            if meld.kind == "run":
                wanted = sorted({meld.stands_for(i) for i, card in enumerate(meld.cards) if card == JOKER})
            else:
                wanted = [make_card(meld.rank, suit) for suit in set_room_suits(meld, self.variant)]
            offered = [card for card in wanted if counts[card]]
            for size in range(1, len(offered) + 1):
                for cards in combinations(offered, size):
                    action = Swap(number, cards)
                    if self._is_legal(action):
                        found.append(action)
        return found

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
        saved = self.to_json()
        reshuffles = [list(stock) for stock in self.forced_reshuffles]
        self._restore(saved)
        try:
            self.apply(action)
        finally:
            self._restore(saved)
            self.forced_reshuffles = reshuffles

    # ------------------------------------------------------------------ serialisation

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; :meth:`from_json` restores it exactly."""
        version, internal, gauss = self.rng.getstate()
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "variant": self.variant.model_dump(mode="json", exclude={"extends"}),
            "players": list(self.players),
            "seed": self.seed,
            "turn_limit": self.turn_limit,
            "rng": [version, list(internal), gauss],
            "hand_number": self.hand_number,
            "first_seat": self.first_seat,
            "dealer": self.dealer,
            "current": self.current,
            "phase": self.phase,
            "stock": list(self.stock),
            "discard_pile": list(self.discard_pile),
            "table": [meld.to_json() for meld in self.table],
            "hands": [list(hand) for hand in self.hands],
            "opened": list(self.opened),
            "totals": list(self.totals),
            "eliminated": list(self.eliminated),
            "turn": self.turn.to_json(),
            "turn_number": self.turn_number,
            "stock_ran_out": self.stock_ran_out,
            "results": [result.to_json() for result in self.results],
            "winners": list(self.winners),
            "undo": None
            if self._undo is None
            else {
                "hand": list(self._undo["hand"]),
                "table": [meld.to_json() for meld in self._undo["table"]],
                "opened": self._undo["opened"],
                "turn": self._undo["turn"].to_json(),
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game saved by :meth:`to_json`; a damaged or unknown state raises StateFormatError."""
        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise StateFormatError("this is not a saved kalooki game")
        version = data.get("version")
        if version != STATE_VERSION:
            newer = isinstance(version, int) and version > STATE_VERSION
            raise StateFormatError(
                f"the saved game has format version {version!r}; this kalooki reads version {STATE_VERSION}"
                + (": upgrade kalooki to load it" if newer else "")
            )
        try:
            variant = Variant.model_validate(data.get("variant"), strict=False)
        except ValidationError as error:
            raise StateFormatError(
                f"the saved game's rules are invalid: {first_error(error, 'variant')}"
            ) from None
        check_state_shape(data)
        try:
            game = cls.__new__(cls)
            game.variant = variant
            game.players = [str(name) for name in data["players"]]
            game.seed = data["seed"]
            # A save from before the limit was saved may be past it already: it plays on to its end.
            game.turn_limit = data.get("turn_limit", max(DEFAULT_TURN_LIMIT, data["turn_number"]))
            game.rng = random.Random()
            game.forced_reshuffles = []
            game.opening_events = []
            game._restore(data)
        except (KeyError, TypeError, ValueError, AssertionError) as error:
            if isinstance(error, StateFormatError):
                raise
            raise StateFormatError(f"the saved game is damaged ({type(error).__name__}: {error})") from None
        game._validate_restored()
        check_reachable(game)
        return game

    def _restore(self, data: Mapping[str, Any]) -> None:
        rng_version, internal, gauss = data["rng"]
        self.rng.setstate((rng_version, tuple(internal), gauss))
        self.hand_number = int(data["hand_number"])
        self.first_seat = int(data["first_seat"])
        self.current = int(data["current"])
        self.eliminated = [bool(flag) for flag in data["eliminated"]]
        # Saves from before the dealer was recorded: the dealer sat just before the first player.
        dealer = data.get("dealer")
        if dealer is not None:
            self.dealer = int(dealer)
        elif len(self.eliminated) == len(self.players):
            self.dealer = self.previous_seat(self.first_seat)
        else:
            self.dealer = self.first_seat  # a damaged save: _validate_restored refuses it

        phase = data["phase"]
        if phase not in ("draw", "play", "hand_over", "game_over"):
            raise StateFormatError(f"the saved game has an unknown phase {phase!r}")
        self.phase = phase
        self.stock = [int(card) for card in data["stock"]]
        self.discard_pile = [int(card) for card in data["discard_pile"]]
        self.table = [TableMeld.from_json(meld) for meld in data["table"]]
        self.hands = [[int(card) for card in hand] for hand in data["hands"]]
        self.opened = [bool(flag) for flag in data["opened"]]
        self.totals = [int(total) for total in data["totals"]]
        self.eliminated = [bool(flag) for flag in data["eliminated"]]
        self.turn = TurnState.from_json(data["turn"])
        self.turn_number = int(data["turn_number"])
        self.stock_ran_out = bool(data["stock_ran_out"])
        self.results = [HandResult.from_json(result) for result in data["results"]]
        self.winners = [int(seat) for seat in data["winners"]]
        undo = data["undo"]
        self._undo = (
            None
            if undo is None
            else {
                "hand": [int(card) for card in undo["hand"]],
                "table": [TableMeld.from_json(meld) for meld in undo["table"]],
                "opened": bool(undo["opened"]),
                "turn": TurnState.from_json(undo["turn"]),
            }
        )

    def _validate_restored(self) -> None:
        count = len(self.players)
        lists = (self.hands, self.opened, self.totals, self.eliminated)
        if any(len(values) != count for values in lists) or not 0 <= self.current < count:
            raise StateFormatError("the saved game is damaged: its seats do not match its players")
        if not 0 <= self.dealer < count:
            raise StateFormatError("the saved game is damaged: its seats do not match its players")
        pack = full_pack(self.variant.decks, self.variant.jokers)
        if self.cards_everywhere() != pack:
            raise StateFormatError("the saved game is damaged: its cards are not exactly one pack")
        for meld in self.table:
            try:
                make_meld(meld.cards, self.variant, kind=meld.kind)
            except MeldError as error:
                raise StateFormatError(f"the saved game is damaged: {error}") from None


def candidate_melds(hand: Sequence[Card], variant: Variant) -> list[tuple[Card, ...]]:
    """Every distinct meld the hand can lay, a joker filling only a missing card, in a stable order."""
    counts = Counter(hand)
    jokers = counts[JOKER]
    found: list[tuple[Card, ...]] = []
    for rank in range(1, 14):
        suits = [suit for suit in range(4) if counts[make_card(rank, suit)]]
        if variant.set_suits == "may_repeat":
            # Each copy held may go in (books): a suit appears as often as the hand holds it.
            suits = [suit for suit in suits for _ in range(counts[make_card(rank, suit)])]
        capacity = variant.set_maximum
        for size in range(1, min(len(suits), capacity) + 1):
            for chosen in dict.fromkeys(combinations(suits, size)):
                set_cards = tuple(make_card(rank, suit) for suit in chosen)
                for extra in range(max(0, 3 - size), min(jokers, capacity - size) + 1):
                    found.append(set_cards + (JOKER,) * extra)
    lows = range(1, 14) if variant.ace_in_runs == "wrap" else range(1, 13)
    for suit in range(4):
        for low in lows:
            for length in range(variant.run_minimum, 14):
                if not run_span_ok(low, length, variant):
                    continue
                group: list[Card] = []
                missing = 0
                for index in range(length):
                    rank = low + index
                    rank = rank if rank <= 14 else (rank - 1) % 13 + 1
                    card = make_card(1 if rank == 14 else rank, suit)
                    if counts[card]:
                        group.append(card)
                    else:
                        missing += 1
                        group.append(JOKER)
                naturals = length - missing
                if missing > jokers:
                    continue
                # One natural and jokers in at most four cards reads as a set: not a run to list.
                if naturals == 0 or (naturals == 1 and length <= variant.set_maximum):
                    continue
                found.append(tuple(group))
    return found


def _build_candidates(
    meld: TableMeld, counts: Counter[Card], variant: Variant
) -> Iterator[tuple[tuple[Card, ...], RunEnd | None]]:
    jokers = counts[JOKER]
    if meld.kind == "set":
        room = variant.set_maximum - len(meld.cards)
        offered = [
            make_card(meld.rank, suit)
            for suit in set_room_suits(meld, variant)
            for _ in range(counts[make_card(meld.rank, suit)] if variant.set_suits == "may_repeat" else 1)
            if counts[make_card(meld.rank, suit)]
        ]
        offered += [JOKER] * min(jokers, room)
        seen: set[tuple[Card, ...]] = set()
        for size in range(1, room + 1):
            for chosen in combinations(offered, size):
                if chosen not in seen:
                    seen.add(chosen)
                    yield chosen, None
        return
    ends: tuple[RunEnd, ...] = ("high", "low")
    for end in ends:
        cards: list[Card] = []
        used_jokers = 0
        for step in range(1, 14 - len(meld.cards) + 1):
            rank = meld.high_rank() + step if end == "high" else meld.rank - step
            if variant.ace_in_runs == "wrap":
                rank = (rank - 1) % 13 + 1
            elif not 1 <= rank <= 14:
                break
            natural = make_card(1 if rank == 14 else rank, meld.suit)
            # Each position takes a natural card when the hand has a spare one, else a joker.
            if counts[natural] > cards.count(natural):
                piece = natural
            elif used_jokers < jokers:
                piece = JOKER
                used_jokers += 1
            else:
                break
            cards = [*cards, piece] if end == "high" else [piece, *cards]
            yield tuple(cards), end
