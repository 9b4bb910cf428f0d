"""The rules engine: a game of Kalooki under one variant, hand after hand, to the goal.

Pure: no printing, no files. A :class:`Game` is driven like an OpenSpiel state:
ask whose turn it is and which actions are legal, :meth:`Game.apply` one, read
what a player may see with :meth:`Game.view`. Every rejected action raises an
:class:`IllegalMoveError` that says what would be legal, and leaves the game as
it was: each action is checked in full before anything changes.

Cards are counted, not tracked one by one: identical cards of different packs
are interchangeable, and the pack's multiset of card codes is always exactly
spread over the stock, the discard pile, the hands and the table.

The rules live in layers, one module each, that :class:`Game` stacks: the state and the queries on it
(:mod:`kalooki.gamestate`), the end of a hand and scoring (:mod:`kalooki.scoring`), the turn and its
debts (:mod:`kalooki.turn`), laying, building and swapping (:mod:`kalooki.laying`), the state as JSON
(:mod:`kalooki.gamejson`) and the legal actions (:mod:`kalooki.legal`). This module deals the hands and
keeps every public name importable from ``kalooki.engine``.
"""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, SupportsIndex

from kalooki import rules
from kalooki.candidates import candidate_melds
from kalooki.cards import Card, CardError, format_card, format_cards, full_pack, parse_card
from kalooki.cardstate import EMPTY
from kalooki.events import DealEvent
from kalooki.gamejson import STATE_FORMAT, STATE_VERSION
from kalooki.gamestate import (
    DEFAULT_TURN_LIMIT,
    MAX_TURN_LIMIT,
    DealError,
    Event,
    FixedDeal,
    HandEnd,
    HandResult,
    IllegalMoveError,
    NoSeatError,
    NotYourTurnError,
    Phase,
    SetupError,
    StateFormatError,
    TurnState,
    deal_parts_problem,
    no_seat,
    seed_to_keep,
)
from kalooki.legal import MAX_LISTED_LAYINGS, MAX_OPENING_STEPS, LegalActions
from kalooki.melds import TableMeld
from kalooki.randomness import shuffle
from kalooki.saved_rules import SavedRulesError, read_saved_rules
from kalooki.statecheck import check_player_name, check_reachable, check_state_shape
from kalooki.text import clipped, clipped_repr, safe_repr, writable_repr
from kalooki.turn import NOTHING_TO_TAKE_BACK, nothing_to_take_back
from kalooki.variant import Variant, not_a_variant
from kalooki.view import PlayerView

__all__ = [
    "DEFAULT_TURN_LIMIT",
    "MAX_LISTED_LAYINGS",
    "MAX_OPENING_STEPS",
    "MAX_TURN_LIMIT",
    "NOTHING_TO_TAKE_BACK",
    "STATE_FORMAT",
    "STATE_VERSION",
    "DealError",
    "Event",
    "FixedDeal",
    "Game",
    "HandEnd",
    "HandResult",
    "IllegalMoveError",
    "NoSeatError",
    "NotYourTurnError",
    "Phase",
    "PlayerView",
    "SetupError",
    "StateFormatError",
    "TurnState",
    "candidate_melds",
    "nothing_to_take_back",
]


@lru_cache(maxsize=16)
def _pack_cards(decks: int, jokers: int) -> tuple[Card, ...]:
    """Every card of the pack in code order (``full_pack(decks, jokers).elements()``), made once."""
    return tuple(full_pack(decks, jokers).elements())


def overused_cards(placed: Counter[Card], pack: Counter[Card]) -> dict[Card, str]:
    """Each card a fixed deal places more times than ``pack`` holds it, in card order, with what to say."""
    return {
        card: f"the deal uses {format_card(card)} {count} times; the pack holds {pack[card]}"
        for card, count in sorted(placed.items())
        if count > pack[card]
    }


class Game(LegalActions):
    """A game of Kalooki: hands are played until the variant's goal ends the game.

    Each turn is ``apply``-ed action by action (``legal_actions`` lists them; ``phase`` is ``draw``, then
    ``play``). A hand ends with ``phase`` ``hand_over`` (``results[-1]`` says how), and :meth:`next_hand`
    deals the next; the game ends with ``phase`` ``game_over`` (``game_over``, ``winners``).
    """

    def __init__(
        self,
        variant: Variant,
        players: Sequence[str],
        seed: int | None = None,
        deal: FixedDeal | None = None,
        *,
        turn_limit: int = DEFAULT_TURN_LIMIT,
    ) -> None:
        problem = not_a_variant(variant)
        if problem is not None:
            raise SetupError(problem)
        if isinstance(players, str | bytes) or not isinstance(players, Iterable):
            # "ann" was read letter by letter (two players called n), "ab" as players a and b.
            shown = clipped_repr(players)
            raise SetupError(f"players: give a list of names, one a seat (['ann', 'bob']), not {shown}")
        names = list(players)
        # As the seed (seed_to_keep): a limit of 1.5 or True was taken, and the save it made was refused
        # when read back; None or "10" failed as a bare TypeError.
        if not isinstance(turn_limit, SupportsIndex) or isinstance(turn_limit, bool):
            shown = clipped_repr(turn_limit)
            raise SetupError(
                f"the turn limit must be a whole number, not {shown} ({type(turn_limit).__name__})"
            )
        turn_limit = operator.index(turn_limit)
        if not 1 <= turn_limit <= MAX_TURN_LIMIT:  # a larger one was played, then its save refused
            raise SetupError(
                f"the turn limit must be 1 to {MAX_TURN_LIMIT:,}, not {clipped_repr(turn_limit)}"
            )
        for name in names:
            check_player_name(name)
        if not rules.may_play(variant, len(names)):
            counts, note = rules.player_counts(variant), rules.seating_note(variant)
            raise SetupError(f"{rules.players_counted(len(names))}: this variant is for {counts}{note}")
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise SetupError(f"two players are called '{duplicates[0]}': give each player a different name")
        self.variant = variant
        self.players = names
        self.seed = seed = seed_to_keep(seed)
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
        self.hand_states = [EMPTY] * len(names)
        self.opened = [False] * len(names)
        self.totals = [0] * len(names)
        self.eliminated = [False] * len(names)
        self.turn = TurnState()
        self.turn_number = 0
        self.stock_ran_out = False
        self.results: list[HandResult] = []
        self.winners: list[int] = []
        self._undo = None
        self.forced_reshuffles: list[list[Card]] = []
        self.opening_events: list[Event] = self.next_hand(deal)
        """The first hand's deal events (a log starts with them)."""

    def _choose_dealer(self, deal: FixedDeal) -> tuple[int, int, list[dict[str, str]]]:
        """The next hand's dealer and first player, and the cards drawn to choose the first dealer: a
        round of draws each, every player's first, then each draw again of those tied."""
        variant = self.variant
        drawn: list[dict[str, str]] = []
        if deal.dealer is not None:
            dealer = deal.dealer
            drawn = (
                [dict(deal.drawn_for_dealer), *map(dict, deal.drawn_again)] if deal.drawn_for_dealer else []
            )
        elif self.hand_number == 0:
            if variant.first_dealer == "high_card":
                dealer, drawn = self._draw_for_dealer()
            else:
                dealer = self.previous_seat(0)
        else:
            # The deal passes from the dealer to the next player still in the game (as_play: the way play
            # goes), whoever played first: moving the first player on gave the deal twice running to a
            # dealer whose first player had been put out.
            direction = None if variant.deal_direction == "as_play" else variant.deal_direction
            dealer = self.next_seat(self.dealer, direction)
        return dealer, self.next_seat(dealer), drawn

    def _draw_for_dealer(self) -> tuple[int, list[dict[str, str]]]:
        """Each player draws a card from a shuffled pack: the highest rank deals; ties draw again.

        Every round is kept: writing each draw again over the first left a record in which a tied player's
        second card stood beside the others' first ones (two players holding the same card of one pack).
        """
        contenders = self.seats
        drawn: list[dict[str, str]] = []
        while True:
            pack = list(range(52))
            shuffle(self.rng, pack)
            cards = dict(zip(contenders, pack, strict=False))
            drawn.append({self.players[seat]: format_card(card) for seat, card in cards.items()})
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
        deal = FixedDeal() if deal is None else deal
        problem = deal_parts_problem(deal)
        if problem is not None:
            raise DealError(problem)
        if deal.dealer is not None and deal.dealer not in self.seats:
            raise DealError(self._not_dealt_to(deal.dealer, "name a player still in the game to deal"))
        # A deal the pack cannot satisfy raises before anything changes (the dealer included). Before the
        # deal's checks the generator moves only to draw for the first dealer (the shuffle comes after
        # them): only the first hand has a state to put back, and copying it costs a tenth of a deal.
        rng_state = self.rng.getstate() if self.hand_number == 0 else None
        dealer, first_seat, drawn = self._choose_dealer(deal)
        seats = self.seats
        try:
            # The cards a deal says were drawn for the dealer are read with its other checks: read as the
            # deal event was made, a card that is none was refused after the hand had been dealt.
            drawn_cards = [{name: parse_card(card) for name, card in draws.items()} for draws in drawn]
            hands, discard, stock = self._deal_cards(seats, deal)
        except (DealError, CardError):
            if rng_state is not None:
                self.rng.setstate(rng_state)
            raise
        self.dealer = dealer
        self.first_seat = first_seat
        self.hand_number += 1
        self.hands = [[] for _ in self.players]
        self.hand_states = [EMPTY] * len(self.players)
        for seat, cards in zip(seats, hands, strict=True):
            self.set_hand(seat, cards)
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
        self._undo_pending = False
        deal_event = DealEvent(
            hand=self.hand_number,
            dealer=self.players[self.dealer],
            first=self.players[self.first_seat],
            hands={self.players[seat]: tuple(self.hands[seat]) for seat in seats},
            discard=discard,
            # Top of the stock first, the order cards will be drawn in.
            stock=tuple(reversed(self.stock)),
            drawn_for_dealer=drawn_cards[0] if drawn_cards else {},
            drawn_again=tuple(drawn_cards[1:]),
        )
        return self._start_turn([deal_event])

    def _not_dealt_to(self, seat: int, advice: str) -> str:
        """Why a deal may not name ``seat``: a player out of the game by name (seat numbers count from
        0, which a script's writer does not see), with ``advice`` (``{name}`` is their name), else the
        seat that is not at the table."""
        if not 0 <= seat < len(self.players):
            return no_seat(seat)
        if self.eliminated[seat]:
            return f"{self.out_of_the_game(seat)}: {advice.format(name=self.players[seat])}"
        return f"seat {seat} is not playing this hand"

    def _deal_cards(
        self, seats: list[int], deal: FixedDeal
    ) -> tuple[list[list[Card]], Card | None, list[Card]]:
        variant = self.variant
        upcard = variant.upcard and not deal.no_upcard
        if deal.discard is not None and not upcard:
            raise DealError("this variant turns up no card at the deal: leave out the discard")
        placed: Counter[Card] = Counter()
        for seat, cards in deal.hands.items():
            if seat not in seats:
                raise DealError(self._not_dealt_to(seat, "leave {name} out of the deal"))
            if len(cards) != variant.hand_size:
                raise DealError(
                    f"{self.players[seat]} is dealt {len(cards)} cards: "
                    f"this variant deals {variant.hand_size}"
                )
            placed.update(cards)
        if deal.discard is not None:
            placed[deal.discard] += 1
        placed.update(deal.stock_top)
        if placed:
            pack = full_pack(variant.decks, variant.jokers)
            for problem in overused_cards(placed, pack).values():
                raise DealError(problem)  # the first card's: a game is dealt or refused, once
            rest = list((pack - placed).elements())
        else:
            # Most deals place nothing: the whole pack in code order, as the pack's elements list it.
            rest = list(_pack_cards(variant.decks, variant.jokers))
        needed = variant.hand_size * (len(seats) - len(deal.hands)) + (upcard and deal.discard is None)
        if len(rest) < needed:
            raise DealError("the deal leaves too few cards for the other hands and the discard")
        if deal.stock_complete:
            if rest:
                raise DealError(f"the stock leaves out {format_cards(sorted(rest))}")
        else:
            shuffle(self.rng, rest)
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

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, place: str = "", stand_ins: Collection[int] = ()) -> Game:
        """Rebuild a game saved by :meth:`to_json`; a damaged or unknown state raises StateFormatError.

        ``place`` starts the name of a field in the wrong shape where the document came from elsewhere
        than a save (``view``: a table's view, rebuilt by a client); ``stand_ins`` are the seats whose
        hands it fills with stand-in cards (see :func:`~kalooki.statecheck.check_reachable`).
        """
        # The text of a state (json.dumps of to_json) was said to be "not a saved kalooki game".
        if isinstance(data, str | bytes):
            shown = clipped(safe_repr(data), 40)
            raise StateFormatError(
                f"from_json reads the state as data, not as text ({shown}): give it json.loads(text)"
            )
        problem = None if place == "" and stand_ins == () else _from_json_arguments(place, stand_ins)
        if problem is not None:  # each a bare TypeError (place only once a field was found damaged)
            raise StateFormatError(f"from_json: {problem}")
        if isinstance(data, Game):  # it was "not a saved kalooki game", as of anything else
            raise StateFormatError("from_json reads a game's state, not the game: give it game.to_json()")
        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise StateFormatError("this is not a saved kalooki game")
        version = data.get("version")
        if version != STATE_VERSION:
            newer = isinstance(version, int) and version > STATE_VERSION
            raise StateFormatError(
                f"the saved game has format version {clipped(writable_repr(version))}; "
                f"this kalooki reads version {STATE_VERSION}"
                + (": upgrade kalooki to load it" if newer else "")
            )
        try:
            variant = read_saved_rules(
                data.get("variant"), "the saved game's rules", upgrade="upgrade kalooki to load it"
            )
        except SavedRulesError as error:
            raise StateFormatError(str(error)) from None
        check_state_shape(data, place)
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
        if any(seat >= len(game.players) for seat in stand_ins):
            raise StateFormatError(f"from_json: stand_ins {sorted(stand_ins)} name a seat the game has not")
        check_reachable(game, stand_ins)
        return game


def _from_json_arguments(place: object, stand_ins: object) -> str | None:
    """What is wrong with :meth:`Game.from_json`'s ``place`` or ``stand_ins``, or None."""
    if not isinstance(place, str):
        return f"place must be text, not {clipped(safe_repr(place), 60)}"
    seats = isinstance(stand_ins, Collection) and not isinstance(stand_ins, str | bytes)
    if not seats or not all(type(seat) is int and seat >= 0 for seat in stand_ins):  # type: ignore[attr-defined]
        return f"stand_ins must be seats, whole numbers from 0, not {clipped(safe_repr(stand_ins), 60)}"
    return None
