"""Sets and runs: making them, building on them, and freeing their jokers.

A meld on the table is a frozen :class:`TableMeld`. Building or swapping returns a
new one, so a rejected action never leaves a meld half-changed.

A run is written low to high; a joker stands for the card its position implies.
A meld with one natural card and jokers could be read either way: it is a set
when it has at most four cards, a run otherwise (or as ``kind`` says).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kalooki.cards import ACE, JOKER, SUITS, Card, format_cards, make_card, rank_of, rank_points, suit_of
from kalooki.errors import KalookiError
from kalooki.joker_layers import built_layers, swapped_layers
from kalooki.rules import RUN_MAX as RUN_MAX  # the public name solver and bots import from here
from kalooki.rules import SMALLEST_MELD, RunFrame, own_joker_points, run_frame, suits_must_differ
from kalooki.run_refusals import ace_rule, either_end_frame, run_refusal
from kalooki.set_release import freed_together, set_joker_takeable
from kalooki.variant import Variant
from kalooki.variant_memo import PerVariant

MeldKind = Literal["set", "run"]
RunEnd = Literal["low", "high"]

SUIT_COUNT = len(SUITS)
"""How many suits there are: the most naturals a set of distinct suits holds. A variant's set_maximum, the
most cards a set holds, jokers included, may be more."""


class MeldError(KalookiError):
    """Cards that do not make, or do not fit, a meld."""


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table.

    ``rank`` is the set's rank, or for a run the rank of its first (lowest) position,
    where 14 is an ace above the king. ``suit`` is the run's suit (-1 for a set).
    ``joker_layers``: the seat that laid each joker, in the order the jokers lie in ``cards``, kept only
    where ``joker_taker: anyone_but_layer`` asks and some joker was laid by another seat than ``owner``;
    empty, every joker reads as laid by the owner (:mod:`kalooki.joker_layers`).
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    owner: int
    rank: int
    suit: int = -1
    joker_layers: tuple[int, ...] = ()

    @property
    def jokers(self) -> int:
        return self.cards.count(JOKER)

    def position_rank(self, index: int) -> int:
        """The rank (1-14) a run's position stands for; for a set, the set's rank."""
        if self.kind == "set":
            return self.rank
        return _position_rank(self.rank, index)

    def stands_for(self, index: int) -> Card:
        """The card at ``index`` stands for (a joker in a set stands for no one suit: JOKER)."""
        card = self.cards[index]
        if card != JOKER:
            return card
        if self.kind == "set":
            return JOKER
        rank = self.position_rank(index)
        return make_card(ACE if rank == 14 else rank, self.suit)

    def missing_suits(self) -> list[int]:
        """A set's suits that no natural card holds."""
        present = {suit_of(card) for card in self.cards if card != JOKER}
        return [suit for suit in range(4) if suit not in present]

    def points(
        self, ace_value: int, low_ace_value: int | None = None, joker_points: int | None = None
    ) -> int:
        """What the meld is worth: every card, jokers included, as the card it stands for.

        An ace below the two of a run counts ``low_ace_value`` when given (the variant's ``ace_low_value``);
        a joker counts ``joker_points`` when given, whatever it stands for (``opening_joker_value: penalty``).
        """
        if self.kind == "set":
            if joker_points is None:
                return rank_points(self.rank, ace_value) * len(self.cards)
            jokers = self.cards.count(JOKER)
            return rank_points(self.rank, ace_value) * (len(self.cards) - jokers) + joker_points * jokers
        low = ace_value if low_ace_value is None else low_ace_value
        total = 0
        for index, card in enumerate(self.cards):
            if card == JOKER and joker_points is not None:
                total += joker_points
                continue
            rank = _position_rank(self.rank, index)
            total += low if rank == 1 else rank_points(rank, ace_value)
        return total

    def worth(self, variant: Variant) -> int:
        """:meth:`points` under the variant's ace values and what it says a joker is worth.

        Where a joker counts as the card it stands for, they depend only on the kind, the first rank and
        the length: remembered per variant on those (:data:`_worths`), as every meld laid, listed or tried
        by a bot asks. Where a joker has its own worth, a meld holding one is worked out each time.
        """
        if variant.opening_joker_value != "represented" and JOKER in self.cards:
            return self.points(variant.ace_value, variant.low_ace_value, own_joker_points(variant))
        worths = _worths(variant)
        key = (self.kind, self.rank, len(self.cards))
        found = worths.get(key)
        if found is None:
            found = worths[key] = self.points(variant.ace_value, variant.low_ace_value)
        return found

    def high_rank(self) -> int:
        return self.position_rank(len(self.cards) - 1)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "owner": self.owner,
            "rank": self.rank,
            "suit": self.suit,
            # Written only where it says more than the owner: saves from before it read as they did.
            **({"joker_layers": list(self.joker_layers)} if self.joker_layers else {}),
        }

    @staticmethod
    def from_json(data: dict[str, object]) -> TableMeld:
        cards = data["cards"]
        assert isinstance(cards, list)
        kind = data["kind"]
        assert kind in ("set", "run")
        owner, rank, suit = data["owner"], data["rank"], data["suit"]
        assert isinstance(owner, int)
        assert isinstance(rank, int)
        assert isinstance(suit, int)
        layers = data.get("joker_layers", [])
        assert isinstance(layers, list)
        return TableMeld(
            kind=kind,
            cards=tuple(int(card) for card in cards),
            owner=owner,
            rank=rank,
            suit=suit,
            joker_layers=tuple(int(seat) for seat in layers),
        )


_worths: PerVariant[dict[tuple[MeldKind, int, int], int]] = PerVariant(lambda variant: {})
""":meth:`TableMeld.worth` under a variant, by the meld's kind, first rank and number of cards."""

_NEW = object.__new__
_SET_KIND, _SET_CARDS, _SET_OWNER, _SET_RANK, _SET_SUIT, _SET_LAYERS = (
    TableMeld.__dict__[name].__set__ for name in ("kind", "cards", "owner", "rank", "suit", "joker_layers")
)


def _table_meld(
    kind: MeldKind,
    cards: tuple[Card, ...],
    owner: int,
    rank: int,
    suit: int = -1,
    layers: tuple[int, ...] = (),
) -> TableMeld:
    """``TableMeld(kind, cards, owner, rank, suit)``, its fields set straight into their slots.

    The frozen dataclass's constructor sets each field through ``object.__setattr__`` by name, which
    cost as much as checking the meld; every meld, build and swap played or planned (bots, the legal
    listing) makes one.
    """
    meld: TableMeld = _NEW(TableMeld)
    _SET_KIND(meld, kind)
    _SET_CARDS(meld, cards)
    _SET_OWNER(meld, owner)
    _SET_RANK(meld, rank)
    _SET_SUIT(meld, suit)
    _SET_LAYERS(meld, layers)
    return meld


def set_room_suits(meld: TableMeld, variant: Variant) -> list[int]:
    """The suits a natural card added to a set may have: those it lacks, or any where suits may repeat."""
    return list(range(4)) if not suits_must_differ(variant) else meld.missing_suits()


def run_span_ok(low: int, length: int, variant: Variant) -> bool:
    """Whether positions ``low .. low+length-1`` form a legal run frame under the variant."""
    return run_frame(variant).span_ok(low, length)


def _position_rank(low: int, index: int) -> int:
    """The rank (1-14) of a run's position ``index`` from position ``low``: only wrap-around runs go
    past the ace above the king."""
    rank = low + index
    return rank if rank <= 14 else (rank - 1) % 13 + 1


def _fits(card: Card, position_rank: int) -> bool:
    """Whether a natural card's rank is the position's (an ace fits 1 and 14)."""
    rank = rank_of(card)
    return rank == position_rank or (rank == ACE and position_rank == 14)


def make_meld(
    cards: Sequence[Card], variant: Variant, owner: int = 0, kind: MeldKind | None = None
) -> TableMeld:
    """Read cards as a new meld, or raise :class:`MeldError` saying why they are not one.

    The verdict depends only on the cards as written, ``kind`` and the variant: it is remembered per
    variant (:data:`_verdicts`), as the same groups are read again and again (the engine checks
    every meld laid, the bots the melds they try).
    """
    cards = tuple(cards)
    verdicts = _verdicts(variant)
    verdict = verdicts.get((cards, kind))
    if verdict is None:
        try:
            meld = _read_meld(cards, variant, kind)
        except MeldError as error:
            verdict = str(error)
        else:
            verdict = (meld.kind, meld.rank, meld.suit)
        if len(verdicts) > _VERDICTS_KEPT:
            verdicts.clear()
        verdicts[(cards, kind)] = verdict
    if isinstance(verdict, str):
        raise MeldError(verdict)
    made_kind, rank, suit = verdict
    return _table_meld(made_kind, cards, owner, rank, suit)


def saved_meld_problem(meld: TableMeld, variant: Variant) -> str | None:
    """Why ``meld``, read back from a save, is not what play lays: its cards make no meld of its kind, or
    its first rank or suit is not the one its cards read as. A run 6♠ 7♠ 8♠ saved as starting at 2, or
    in no suit, was taken, and then built on as another run (or failed as a bare ValueError)."""
    try:
        made = make_meld(meld.cards, variant, kind=meld.kind)
    except MeldError as error:
        return str(error)
    if (made.rank, made.suit) != (meld.rank, meld.suit):
        return (
            f"the {meld.kind} {format_cards(meld.cards)} is saved with rank {meld.rank} and suit "
            f"{meld.suit}: its cards read as rank {made.rank}, suit {made.suit}"
        )
    return None


_verdicts: PerVariant[dict[tuple[tuple[Card, ...], MeldKind | None], tuple[MeldKind, int, int] | str]] = (
    PerVariant(lambda variant: {})
)
""":func:`make_meld`'s verdicts under a variant: the meld's kind, rank and suit, or why it is none."""

_VERDICTS_KEPT = 100_000
"""Verdicts :data:`_verdicts` keeps per variant before it starts afresh."""

_PLAYS_KEPT = 20_000
"""Verdicts :func:`build` and :func:`swap` each keep per variant before they start afresh: a table meld's
cards with the cards put to it are many more than the groups melds are made of (random play adds about
seventy builds a game), so they are kept fewer."""


def _read_meld(cards: tuple[Card, ...], variant: Variant, kind: MeldKind | None) -> TableMeld:
    """:func:`make_meld` worked out (owned by seat 0)."""
    naturals = [card for card in cards if card != JOKER]
    if len(cards) < SMALLEST_MELD:
        raise MeldError(f"{format_cards(cards)} is not a meld: a meld needs at least {SMALLEST_MELD} cards")
    if not naturals:
        raise MeldError(f"{format_cards(cards)} is not a meld: a meld may not be made of jokers alone")
    one_rank = len({rank_of(card) for card in naturals}) == 1
    one_suit = len({suit_of(card) for card in naturals}) == 1
    if kind is None:
        if one_rank and not (one_suit and len(naturals) == 1 and len(cards) > variant.set_maximum):
            kind = "set"
        elif one_suit:
            kind = "run"
        elif len({rank_of(card) for card in naturals}) < len(naturals):
            raise MeldError(f"{format_cards(cards)} is not a set: the ranks differ")
        else:
            raise MeldError(f"{format_cards(cards)} is not a run: the suits differ")
    if kind == "set":
        return _make_set(cards, naturals, variant, 0)
    return _make_run(cards, naturals, variant, 0)


def _make_set(cards: tuple[Card, ...], naturals: list[Card], variant: Variant, owner: int) -> TableMeld:
    if len({rank_of(card) for card in naturals}) != 1:
        raise MeldError(f"{format_cards(cards)} is not a set: the ranks differ")
    suits = [suit_of(card) for card in naturals]
    distinct = suits_must_differ(variant)
    if distinct and len(set(suits)) != len(suits):
        raise MeldError(
            f"{format_cards(cards)} is not a set: two cards share a suit (a set has one card of each suit)"
        )
    if len(cards) > variant.set_maximum:
        each = ", one of each suit" if distinct else ""
        raise MeldError(
            f"{format_cards(cards)} is not a set: a set has at most {variant.set_maximum} cards{each}"
        )
    return _table_meld("set", cards, owner, rank_of(naturals[0]))


def _make_run(cards: tuple[Card, ...], naturals: list[Card], variant: Variant, owner: int) -> TableMeld:
    if len({suit_of(card) for card in naturals}) != 1:
        raise MeldError(f"{format_cards(cards)} is not a run: a run's cards are all of one suit")
    minimum = run_frame(variant).minimum
    if len(cards) < minimum:
        raise MeldError(
            f"{format_cards(cards)} is not a run: this variant's runs need at least {minimum} cards"
        )
    low = _run_low(cards, variant)
    if low is None:
        raise MeldError(f"{format_cards(cards)} is not a run: {run_refusal(cards, variant)}")
    return _table_meld("run", cards, owner, low, suit_of(naturals[0]))


def _run_low(cards: Sequence[Card], variant: Variant) -> int | None:
    """The rank of the first position if the cards, as written, are a legal run."""
    frame = run_frame(variant)
    first = next(index for index, card in enumerate(cards) if card != JOKER)
    rank = rank_of(cards[first])
    candidates = [rank - first] if rank != ACE else [1 - first, 14 - first]
    for low in candidates:
        found = _run_from(cards, low, frame)
        if found is not None:
            return found
    return None


def _run_from(cards: Sequence[Card], low: int, frame: RunFrame) -> int | None:
    """The rank of the first position if ``cards`` laid from position ``low`` make a legal run (``low``
    wrapped round where runs go round the corner), else None; a joker fits any position."""
    if frame.wrap:
        low = (low - 1) % 13 + 1
    if not frame.span_ok(low, len(cards)):
        return None
    for index, card in enumerate(cards):
        if card != JOKER and not _fits(card, _position_rank(low, index)):
            return None
    return low


def build(
    meld: TableMeld, cards: Sequence[Card], variant: Variant, end: RunEnd | None = None, by: int | None = None
) -> TableMeld:
    """The meld with ``cards`` added by seat ``by`` (None: its owner), or :class:`MeldError`.

    The verdict depends only on the meld's kind, cards, rank and suit, the cards added, ``end`` and the
    variant: it is remembered per variant (:data:`_build_verdicts`), as the engine checks every build
    played and the bots and the legal listing try the same builds turn after turn.
    """
    cards = tuple(cards)
    verdicts = _build_verdicts(variant)
    key = (meld.kind, meld.cards, meld.rank, meld.suit, cards, end)
    verdict = verdicts.get(key)
    if verdict is None:
        try:
            verdict = _read_build(meld, cards, variant, end)
        except MeldError as error:
            verdict = str(error)
        if len(verdicts) > _PLAYS_KEPT:
            verdicts.clear()
        verdicts[key] = verdict
    if isinstance(verdict, str):
        raise MeldError(verdict)
    side, low = verdict
    layers = meld.joker_layers
    if (layers or (by is not None and by != meld.owner)) and JOKER in cards:
        layers = built_layers(meld, cards, side == "low", by, variant)
    if side is None:
        return _table_meld("set", meld.cards + cards, meld.owner, meld.rank, -1, layers)
    extended = meld.cards + cards if side == "high" else cards + meld.cards
    return _table_meld("run", extended, meld.owner, low, meld.suit, layers)


_BuildVerdict = tuple[RunEnd | None, int] | str
"""A build's verdict: the end of the run it went on (None for a set) and the run's new first rank, or
why the cards do not fit."""

_build_verdicts: PerVariant[dict[tuple[object, ...], _BuildVerdict]] = PerVariant(lambda variant: {})
""":func:`build`'s verdicts under a variant, by the meld's kind, cards, rank and suit, the cards and end."""


def _read_build(
    meld: TableMeld, cards: tuple[Card, ...], variant: Variant, end: RunEnd | None
) -> _BuildVerdict:
    """:func:`build` worked out: the verdict it remembers."""
    if not cards:
        raise MeldError("name the cards to build")
    if meld.kind == "set":
        if end is not None:
            raise MeldError("a set has no ends: leave out low/high")
        for card in cards:
            if card != JOKER and rank_of(card) != meld.rank:
                raise MeldError(
                    f"{format_cards(cards)} does not fit a set of {_rank_word(meld.rank)}: the ranks differ"
                )
        combined = meld.cards + cards
        suits = [suit_of(card) for card in combined if card != JOKER]
        if suits_must_differ(variant) and len(set(suits)) != len(suits):
            raise MeldError(
                f"{format_cards(cards)} does not fit the set {format_cards(meld.cards)}: "
                "that suit is already there"
            )
        if len(combined) > variant.set_maximum:
            raise MeldError(
                f"{format_cards(cards)} does not fit the set {format_cards(meld.cards)}: "
                f"a set holds at most {variant.set_maximum} cards"
                + (
                    " (to take its joker, use swap)"
                    if set_joker_takeable(len(meld.cards), meld.jokers, variant)
                    else ""
                )
            )
        return None, meld.rank
    if any(card != JOKER and suit_of(card) != meld.suit for card in cards):
        raise MeldError(
            f"{format_cards(cards)} does not fit the run {format_cards(meld.cards)}: the suit differs"
        )
    ends: list[RunEnd] = [end] if end is not None else ["high", "low"]
    frame = run_frame(variant)
    for side in ends:
        low = _low_on(meld, cards, side, frame)
        if low is not None:
            return side, low
    where = f"the {end} end of" if end else "either end of"
    # A run past the ranks' count is refused as any misfit is; a reader of "an ace may end a run low or
    # high" expects AH to go on A-2-...-K, so the limit is said.
    why = (
        f": a run holds each rank once, {RUN_MAX} cards at most"
        if len(meld.cards) + len(cards) > RUN_MAX
        else ""
    )
    # Cards that would fit were the ace allowed at either end are refused for this variant's ace rule.
    loose = either_end_frame(variant)
    if loose is not None and not why and any(_low_on(meld, cards, side, loose) is not None for side in ends):
        why = f": {ace_rule(variant)}"
    raise MeldError(f"{format_cards(cards)} does not fit {where} the run {format_cards(meld.cards)}{why}")


def _low_on(meld: TableMeld, cards: tuple[Card, ...], side: RunEnd, frame: RunFrame) -> int | None:
    """The first rank of the run ``meld`` with ``cards`` on that end, if it is a run in ``frame``."""
    extended = meld.cards + cards if side == "high" else cards + meld.cards
    return _run_from(extended, meld.rank if side == "high" else meld.rank - len(cards), frame)


def swap(
    meld: TableMeld, cards: Sequence[Card], variant: Variant, by: int | None = None
) -> tuple[TableMeld, int]:
    """Put natural ``cards`` in for jokers of the meld: the new meld and how many jokers are freed.

    Of a set's jokers, those seat ``by`` did not lay go first (:func:`kalooki.joker_layers.swapped_layers`).

    Remembered per variant as :func:`build` is (:data:`_swap_verdicts`): the legal listing asks of
    every swap a hand could make, turn after turn.
    """
    cards = tuple(cards)
    verdicts = _swap_verdicts(variant)
    key = (meld.kind, meld.cards, meld.rank, meld.suit, cards)
    verdict = verdicts.get(key)
    if verdict is None:
        try:
            swapped, freed = _read_swap(meld, cards, variant)
        except MeldError as error:
            verdict = str(error)
        else:
            verdict = (swapped.kind, swapped.cards, swapped.rank, swapped.suit, freed)
        if len(verdicts) > _PLAYS_KEPT:
            verdicts.clear()
        verdicts[key] = verdict
    if isinstance(verdict, str):
        raise MeldError(verdict)
    kind, laid, rank, suit, freed = verdict
    layers = meld.joker_layers
    if layers:
        layers = swapped_layers(meld, laid, freed, by)
    return _table_meld(kind, laid, meld.owner, rank, suit, layers), freed


_swap_verdicts: PerVariant[
    dict[tuple[object, ...], tuple[MeldKind, tuple[Card, ...], int, int, int] | str]
] = PerVariant(lambda variant: {})
""":func:`swap`'s verdicts under a variant, by the meld's kind, cards, rank and suit and the cards put in:
the new meld's kind, cards, rank and suit and the jokers freed, or why the swap is refused."""


def _read_swap(meld: TableMeld, cards: tuple[Card, ...], variant: Variant) -> tuple[TableMeld, int]:
    """:func:`swap` worked out."""
    written = format_cards(cards)
    if not cards or JOKER in cards:
        raise MeldError("swap takes the natural card(s) that free a joker, not a joker")
    if not meld.jokers:
        raise MeldError(f"the meld {format_cards(meld.cards)} has no joker to take")
    if meld.kind == "run":
        return _swap_run(meld, cards, variant, written)
    return _swap_set(meld, cards, variant, written)


def _swap_run(
    meld: TableMeld, cards: tuple[Card, ...], variant: Variant, written: str
) -> tuple[TableMeld, int]:
    if variant.run_joker_release == "never":
        raise MeldError("in this variant a joker in a run stays there for good")
    laid = list(meld.cards)
    for card in cards:
        position = next(
            (i for i, held in enumerate(laid) if held == JOKER and meld.stands_for(i) == card),
            None,
        )
        if position is None:
            wanted = format_cards(meld.stands_for(i) for i, held in enumerate(laid) if held == JOKER)
            raise MeldError(
                f"{written} does not free a joker from the run {format_cards(meld.cards)}: "
                + (
                    f"only the exact card a joker stands for does ({wanted})"
                    if wanted
                    else "no joker is left"
                )
            )
        laid[position] = card
    return _table_meld("run", tuple(laid), meld.owner, meld.rank, meld.suit), len(cards)


def _swap_set(
    meld: TableMeld, cards: tuple[Card, ...], variant: Variant, written: str
) -> tuple[TableMeld, int]:
    rule = variant.set_joker_release
    table = format_cards(meld.cards)
    if rule == "never":
        raise MeldError("in this variant a joker in a set stays there for good")
    missing = meld.missing_suits()
    suits = [suit_of(card) for card in cards]
    capacity = variant.set_maximum
    if any(rank_of(card) != meld.rank for card in cards):
        raise MeldError(f"{written} does not free a joker from the set {table}: the ranks differ")
    if suits_must_differ(variant) and (len(set(suits)) != len(suits) or any(s not in missing for s in suits)):
        raise MeldError(
            f"{written} does not free a joker from the set {table}: each card must be of a missing suit"
        )
    naturals = [card for card in meld.cards if card != JOKER]
    if len(meld.cards) == capacity and len(naturals) == capacity - 1:
        kind = "three suits" if capacity == SUIT_COUNT and suits_must_differ(variant) else "full"
        raise MeldError(f"the set {table} is closed: {kind} and a joker, its joker can never be taken")
    together = (
        len(cards)
        if rule == "any_missing_suit"
        else freed_together(len(meld.cards), meld.jokers, len(cards), variant, written, table)
    )
    if isinstance(together, str):
        raise MeldError(together)
    freed = together
    if freed > meld.jokers:
        raise MeldError(f"{written} is more than the set {table} needs to give up its jokers")
    kept_jokers = meld.jokers - freed
    new_cards = tuple(naturals) + cards + (JOKER,) * kept_jokers
    if len(new_cards) > capacity:
        raise MeldError(f"{written} is more than the set {table} can hold")
    return _table_meld("set", new_cards, meld.owner, meld.rank), freed


def jokers_held_for_good(meld: TableMeld, variant: Variant) -> bool:
    """Whether the meld holds jokers that no swap can ever free (a closed set, or the variant forbids it)."""
    if not meld.jokers:
        return False
    if meld.kind == "set":
        return not set_joker_takeable(len(meld.cards), meld.jokers, variant)
    return variant.run_joker_release == "never"


def _rank_word(rank: int) -> str:
    return {1: "aces", 11: "jacks", 12: "queens", 13: "kings", 14: "aces"}.get(rank, f"{rank}s")
