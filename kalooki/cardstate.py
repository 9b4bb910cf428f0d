"""A hand as a small value of ints: counts per card code, bit masks by suit and by rank, a hashable key.

The engine keeps one :class:`CardState` per seat beside the hand's list of cards, updated on every
draw, discard, meld, build and swap and restored with the turn's snapshot, so that no one rebuilds it
from the list (the bots' count checks used to, two or three times a turn). As python-chess packs a
board into bitboards, a state is three ints and a size, and immutable: the engine, a snapshot and a
player's view share one object, and a change makes a new state in a few int operations.

- ``key``: the counts, ``KEY_BITS`` bits per card code (``count(code)`` reads one); equal keys
  mean the same cards, so it is also the hand's hashable key;
- ``runs``: 16 bits per suit; bit ``p`` of a suit's part (``run_mask(suit)``) is set when the hand
  holds the card at run position ``p`` (1 the ace below the two ... 13 the king, 14 the ace again);
- ``held``: bit ``code`` set when the hand holds at least one card of that code;
- ``suits``: 4 bits per rank index (0 = ace ... 12 = king); bit ``s`` of a rank's part
  (``suit_mask(index)``) is set when the hand holds that rank in suit ``s``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import reduce
from operator import or_

from kalooki.cards import JOKER, Card, CardError, no_code

KEY_BITS = 4
"""Bits of the key per card code: the pack holds at most 8 copies of a code (4 packs, 8 jokers)."""

RUN_BITS = 16
"""Bits of ``runs`` per suit: run positions 1 to 14."""

CODES = JOKER + 1
JOKER_AT = JOKER * KEY_BITS
"""Where a hand's ``key`` counts its jokers."""

_COUNT = (1 << KEY_BITS) - 1
_RUN = (1 << RUN_BITS) - 1
_HIGH = sum(1 << (code * KEY_BITS + KEY_BITS - 1) for code in range(CODES))
"""The high bit of every card code's count in a key."""
# Per natural card code: its run-position bits within ``runs`` (an ace sits at both ends of its
# suit) and its bit within ``suits``.
_RUN_BITS = tuple(
    ((1 << 1) | (1 << 14) if code % 13 == 0 else 1 << (code % 13 + 1)) << (code // 13 * RUN_BITS)
    for code in range(JOKER)
)
_BYTE_CODES = tuple(
    tuple(tuple(start + bit for bit in range(8) if byte >> bit & 1) for byte in range(256))
    for start in range(0, CODES, 8)
)
"""For each byte of a ``held`` mask (the codes from 8 times its place on), the codes each value holds."""
_CODES0, _CODES1, _CODES2, _CODES3, _CODES4, _CODES5, _CODES6 = _BYTE_CODES
_SUIT_BITS = tuple(1 << (code % 13 * 4 + code // 13) for code in range(JOKER))
_KEY_ONE = tuple(1 << (code * KEY_BITS) for code in range(CODES))
_RUNS_AT, _SUITS_AT = 64, 128
_WORD = (1 << 64) - 1
_HELD = (1 << CODES) - 1
_MASKS_ONE = tuple(
    1 << code | (_RUN_BITS[code] << _RUNS_AT | _SUIT_BITS[code] << _SUITS_AT if code != JOKER else 0)
    for code in range(CODES)
)
"""Per card code: its ``held``, ``runs`` and ``suits`` bits side by side in one int (64 bits apart)."""


class CardState:
    """The cards of one hand as ints; immutable (:meth:`add` and :meth:`remove` make new states)."""

    __slots__ = ("held", "key", "runs", "size", "suits")

    key: int
    held: int
    runs: int
    suits: int
    size: int

    def __init__(self, key: int = 0, held: int = 0, runs: int = 0, suits: int = 0, size: int = 0) -> None:
        self.key = key
        self.held = held
        self.runs = runs
        self.suits = suits
        self.size = size

    @classmethod
    def of(cls, cards: Iterable[Card]) -> CardState:
        """The state of a hand holding ``cards`` (in any order)."""
        if not isinstance(cards, (list, tuple)):
            cards = list(cards)
        try:
            if cards and min(cards) < 0:
                # The tables below would read a negative code from their end.
                raise IndexError
            # Two passes in C: the counts summed, and the three masks ORed together as one int.
            key = sum(map(_KEY_ONE.__getitem__, cards))
            masks = reduce(or_, map(_MASKS_ONE.__getitem__, cards), 0)
        except (IndexError, TypeError):
            # A code past the joker's was a bare IndexError, "7H" or 1.5 a TypeError: the first one named.
            wrong = next(card for card in cards if type(card) is not int or not 0 <= card <= JOKER)
            raise CardError(no_code(wrong)) from None
        return _made(key, masks & _HELD, (masks >> _RUNS_AT) & _WORD, masks >> _SUITS_AT, len(cards))

    def count(self, card: Card) -> int:
        """Copies of ``card`` held."""
        return (self.key >> (card * KEY_BITS)) & _COUNT

    @property
    def jokers(self) -> int:
        return (self.key >> JOKER_AT) & _COUNT

    def counts(self) -> list[int]:
        """Copies held of each card code 0-52."""
        key = self.key
        return [(key >> (code * KEY_BITS)) & _COUNT for code in range(CODES)]

    def run_mask(self, suit: int) -> int:
        """The run positions (bits 1-14) held in ``suit``."""
        return (self.runs >> (suit * RUN_BITS)) & _RUN

    def suit_mask(self, index: int) -> int:
        """The suits (bits 0-3) held of rank index ``index`` (0 = ace ... 12 = king)."""
        return (self.suits >> (index * 4)) & 15

    def add(self, card: Card) -> CardState:
        """This hand with one more ``card``."""
        shift = card * KEY_BITS
        key = self.key
        if (key >> shift) & _COUNT:
            return _made(key + (1 << shift), self.held, self.runs, self.suits, self.size + 1)
        held = self.held | (1 << card)
        if card == JOKER:
            return _made(key + (1 << shift), held, self.runs, self.suits, self.size + 1)
        runs, suits = self.runs | _RUN_BITS[card], self.suits | _SUIT_BITS[card]
        return _made(key + (1 << shift), held, runs, suits, self.size + 1)

    def remove(self, card: Card) -> CardState:
        """This hand with one ``card`` fewer; the hand must hold it."""
        shift = card * KEY_BITS
        key = self.key
        held = (key >> shift) & _COUNT
        if not held:
            raise ValueError(f"the hand holds no card {card}")
        if held > 1:
            return _made(key - (1 << shift), self.held, self.runs, self.suits, self.size - 1)
        mask = self.held & ~(1 << card)
        if card == JOKER:
            return _made(key - (1 << shift), mask, self.runs, self.suits, self.size - 1)
        runs, suits = self.runs & ~_RUN_BITS[card], self.suits & ~_SUIT_BITS[card]
        return _made(key - (1 << shift), mask, runs, suits, self.size - 1)

    def excess(self, other: CardState) -> int:
        """The card codes held more often here than in ``other``, as a mask (bit ``code``)."""
        key, base = self.key, other.key
        if (key | base) & _HIGH:
            # A count of 8 or more (four packs of jokers): compare code by code.
            return sum(1 << code for code in self.distinct() if self.count(code) > other.count(code))
        # Nibble by nibble, 8 + other's count - this count never borrows from the next nibble
        # (both counts are below 8), and its high bit is clear exactly where this count is larger.
        over = ~((base | _HIGH) - key) & _HIGH
        found = 0
        while over:
            low = over & -over
            found |= 1 << ((low.bit_length() - 1) >> 2)
            over ^= low
        return found

    def add_all(self, cards: Iterable[Card]) -> CardState:
        state = self
        for card in cards:
            state = state.add(card)
        return state

    def remove_all(self, cards: Iterable[Card]) -> CardState:
        """This hand without ``cards`` (each copy); the hand must hold them all.

        :meth:`remove` a card at a time, on the ints: one new state, not one per card (a meld takes
        three to a dozen cards out of the hand).
        """
        key, held, runs, suits, size = self.key, self.held, self.runs, self.suits, self.size
        for card in cards:
            shift = card * KEY_BITS
            count = (key >> shift) & _COUNT
            if not count:
                raise ValueError(f"the hand holds no card {card}")
            key -= 1 << shift
            size -= 1
            if count == 1:
                held &= ~(1 << card)
                if card != JOKER:
                    runs &= ~_RUN_BITS[card]
                    suits &= ~_SUIT_BITS[card]
        return _made(key, held, runs, suits, size)

    def __len__(self) -> int:
        return self.size

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < CODES and bool(self.held >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        """The cards held, in code order (each copy)."""
        key = self.key
        for code in range(CODES):
            for _ in range((key >> (code * KEY_BITS)) & _COUNT):
                yield code

    def distinct(self) -> list[Card]:
        """The card codes held, each once, in code order."""
        return codes_of(self.held)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardState) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"CardState.of({list(self)})"


def codes_of(mask: int) -> list[Card]:
    """The card codes whose bits ``mask`` holds (bit ``code``), in code order."""
    # by_bytes written out for the seven bytes of 53 codes: one list display, no loop.
    b0, b1, b2, b3, b4, b5, b6 = mask.to_bytes(7, "little")
    return [*_CODES0[b0], *_CODES1[b1], *_CODES2[b2], *_CODES3[b3], *_CODES4[b4], *_CODES5[b5], *_CODES6[b6]]


def by_bytes(mask: int, tables: tuple[tuple[tuple[int, ...], ...], ...]) -> list[int]:
    """What ``tables`` give for ``mask``, a byte at a time (``tables[i][b]``: the items of byte ``i``
    holding ``b``), in order: a few steps for a whole hand."""
    if len(tables) == 7:  # a mask of card codes or of ranks' suits: written out as in codes_of
        b0, b1, b2, b3, b4, b5, b6 = mask.to_bytes(7, "little")
        t0, t1, t2, t3, t4, t5, t6 = tables
        return [*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6]]
    found: list[int] = []
    # The bytes as small ints in one call: shifting a mask of more than 30 bits makes a new int each time.
    for items, byte in zip(tables, mask.to_bytes(len(tables), "little"), strict=True):
        if byte:
            found += items[byte]
    return found


SuitTables = tuple[list[int | None], list[int | None], list[int | None], list[int | None]]
"""A memo of something each suit's ranks decide: per suit, a list by the ranks held (bit 0 = ace),
None until worked out. A hand's suit ``s`` reads the entry of :func:`suit_ranks`."""

_RANKS = (1 << 13) - 1
_AT1, _AT2, _AT3, _AT4 = (suit * RUN_BITS + 1 for suit in range(4))


def new_suit_tables() -> SuitTables:
    """Empty :data:`SuitTables`, one list of 8,192 per suit."""
    return ([None] * 8192, [None] * 8192, [None] * 8192, [None] * 8192)


def suit_ranks(runs: int, suit: int) -> int:
    """The ranks of ``suit`` a hand's ``runs`` holds (bit 0 the ace): the index of its :data:`SuitTables`."""
    return runs >> (suit * RUN_BITS + 1) & _RANKS


def suit_tables_union(runs: int, by_suit: SuitTables) -> int | None:
    """The entries of ``by_suit`` for the four suits of a hand's ``runs`` ORed together, or None while one
    of them is not worked out yet (the caller works it out, suit by suit, with :func:`suit_ranks`)."""
    clubs, diamonds, hearts, spades = by_suit
    # This runs two or three times a turn for every bot: one try costs less than four tests for None,
    # which no int ORs with. The shifts are suit_ranks' for each suit, named once at the module's load.
    try:
        return (
            clubs[runs >> _AT1 & _RANKS]  # type: ignore[operator]  # None raises TypeError, caught below
            | diamonds[runs >> _AT2 & _RANKS]
            | hearts[runs >> _AT3 & _RANKS]
            | spades[runs >> _AT4 & _RANKS]
        )
    except TypeError:
        return None


def _made(key: int, held: int, runs: int, suits: int, size: int) -> CardState:
    """``CardState(key, held, runs, suits, size)``, its slots set on a bare instance: every draw and discard
    makes a new state, and calling the class (its ``__init__`` through the type's call) costs half again."""
    state: CardState = _NEW(CardState)
    state.key = key
    state.held = held
    state.runs = runs
    state.suits = suits
    state.size = size
    return state


_NEW = object.__new__


class ReadOnlyCardState(CardState):
    """A :class:`CardState` that refuses assignment: the copy a player's view holds of their hand.

    The view held the engine's own state, so a bot that set ``view.hand_state.held`` changed the real
    hand. The engine's states stay plain (a refusing ``__setattr__`` on every state made the engine
    make them through the slots' setters: some 10% slower in a simulation); a view's is copied once.
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a player's view of their hand cannot be changed: {name} is read only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a player's view of their hand cannot be changed: {name} is read only")

    def __reduce__(self) -> tuple[object, tuple[int, int, int, int, int]]:
        # Copied and pickled through read_only_state: the default sets the slots, which is refused.
        return read_only_state, (self.key, self.held, self.runs, self.suits, self.size)


_SLOTS = tuple(CardState.__dict__[name].__set__ for name in ("key", "held", "runs", "suits", "size"))


def read_only(state: CardState) -> CardState:
    """A copy of ``state`` that refuses assignment (:class:`ReadOnlyCardState`)."""
    return read_only_state(state.key, state.held, state.runs, state.suits, state.size)


def read_only_state(key: int, held: int, runs: int, suits: int, size: int) -> CardState:
    """A :class:`ReadOnlyCardState` of these ints."""
    copy: CardState = _NEW(ReadOnlyCardState)
    set_key, set_held, set_runs, set_suits, set_size = _SLOTS
    set_key(copy, key)
    set_held(copy, held)
    set_runs(copy, runs)
    set_suits(copy, suits)
    set_size(copy, size)
    return copy


EMPTY = CardState()
"""The state of an empty hand."""


__all__ = [
    "EMPTY",
    "JOKER_AT",
    "KEY_BITS",
    "RUN_BITS",
    "CardState",
    "ReadOnlyCardState",
    "SuitTables",
    "by_bytes",
    "codes_of",
    "new_suit_tables",
    "read_only",
    "suit_ranks",
    "suit_tables_union",
]
