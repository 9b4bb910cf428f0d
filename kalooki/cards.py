"""Cards as small integers, their notation, and their values.

A card is an ``int`` code, like a square in python-chess: ``suit * 13 + rank - 1``
for the 52 standard cards (rank 1 is the ace, 13 the king; suits in the order
clubs, diamonds, hearts, spades) and :data:`JOKER` (52) for a joker. Identical
cards from different packs share a code: they are interchangeable in play, and
the engine accounts for them by counting (see :func:`full_pack`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from kalooki.errors import KalookiError
from kalooki.text import clipped, clipped_repr, escape_controls

Card = int
Suit = int
Rank = int

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)

ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
RANKS: Final = tuple(range(1, 14))

JOKER: Final[Card] = 52
CARD_CODES: Final = 53

SUIT_LETTERS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_LETTERS: Final = "A23456789TJQK"
RANK_NAMES: Final = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")


class CardError(KalookiError):
    """A card or list of cards that cannot be read."""


def make_card(rank: Rank, suit: Suit) -> Card:
    return suit * 13 + rank - 1


def rank_of(card: Card) -> Rank:
    """The rank of a standard card (1 = ace ... 13 = king); undefined for a joker."""
    return card % 13 + 1


def suit_of(card: Card) -> Suit:
    return card // 13


def is_joker(card: Card) -> bool:
    return card == JOKER


def is_red(card: Card) -> bool:
    return card != JOKER and suit_of(card) in (DIAMONDS, HEARTS)


_SUIT_BY_CHAR: Final = {
    **{letter: suit for suit, letter in enumerate(SUIT_LETTERS)},
    **{symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)},
    # Outline symbols are what many keyboards and fonts produce for the red suits.
    "♧": CLUBS,
    "♢": DIAMONDS,
    "♡": HEARTS,
    "♤": SPADES,
}
_RANK_BY_TEXT: Final = {
    **{letter: rank for rank, letter in enumerate(RANK_LETTERS, start=1)},
    "10": 10,
    "1": ACE,
}
JOKER_WORDS: Final = ("JK", "JOKER", "*")
JOKER_NOTE_OPEN: Final = "JK("
"""How a joker with its stand-in opens when written as the table shows it: ``JK(7♠)``."""
"""What :func:`parse_card` reads as a joker (in any case)."""
SUIT_CHARACTERS: Final = tuple(_SUIT_BY_CHAR)
"""Every character :func:`parse_card` reads as a suit (in any case)."""
RANK_TEXTS: Final = tuple(text for text in _RANK_BY_TEXT if text != "1")
"""Every rank :func:`parse_card` reads (in any case); a lone ``1`` is not one."""


def _is_joker_note(token: str) -> bool:
    # JK(7♠): a joker written as the table shows it, with what it stands for as a note.
    inner = token[len(JOKER_NOTE_OPEN) : -1]
    return (
        token.startswith(JOKER_NOTE_OPEN)
        and token.endswith(")")
        and not any(char in "()" or char.isspace() for char in inner)
    )


def parse_card(text: str) -> Card:
    """Read one card: rank ``A 2-9 T J Q K`` (or ``10``) and suit ``C D H S`` (or ♣♦♥♠), or ``JK``.

    A joker may carry what it stands for as a note, as the table writes it: ``JK(7♠)``.

    >>> format_card(parse_card("10c"))
    'TC'
    """
    if not isinstance(text, str):
        raise CardError(f"{_not_text(text)} is not a card: a card is written as text, e.g. 7H or JK")
    token = text.strip().upper()
    if token in JOKER_WORDS or _is_joker_note(token):
        return JOKER
    if len(token) >= 2:
        rank = _RANK_BY_TEXT.get(token[:-1])
        suit = _SUIT_BY_CHAR.get(token[-1])
        if rank is not None and suit is not None and token[:-1] in RANK_TEXTS:
            return make_card(rank, suit)
    shown = clipped(escape_controls(text.strip()))
    cards = _run_together(text.strip())
    if cards:
        apart = clipped(" ".join(cards))
        raise CardError(f"'{shown}' is not a card: write the cards apart, a space between them: {apart}")
    raise CardError(
        f"'{shown}' is not a card: "
        "write a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), e.g. 7H, TC, 10C, QS, or JK for a joker"
    )


def _run_together(text: str) -> list[str]:
    """The cards of ``text`` typed with no space between them (``5d5h5s``), or with hyphens as the help
    writes a run (``AS-2S-3S``), as typed; else empty."""
    pieces = text.split("-")
    if len(pieces) > 1 and all(_reads_as_card(piece) for piece in pieces):
        return pieces
    cards: list[str] = []
    rest = text
    while rest:
        # Two characters first, then three: "10" is the only rank of two, and "1" is no rank.
        taken = next((size for size in (2, 3) if _reads_as_card(rest[:size])), 0)
        if not taken:
            return []
        cards.append(rest[:taken])
        rest = rest[taken:]
    return cards if len(cards) > 1 else []


def _reads_as_card(text: str) -> bool:
    token = text.upper()
    return token in JOKER_WORDS[:1] or (
        token[:-1] in RANK_TEXTS and token[:-1] in _RANK_BY_TEXT and token[-1:] in _SUIT_BY_CHAR
    )


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces (``"7H 8H JK"``)."""
    if not isinstance(text, str):
        raise CardError(
            f'{_not_text(text)} is not a list of cards: cards are written as text, e.g. "7H 8H JK"'
        )
    return [parse_card(token) for token in text.split()]


def _not_text(value: object) -> str:
    """A value that is not text, as a refusal of it names it: a list or an object by its kind and size (a
    log's stock written as a list of its cards was echoed card by card), anything else as Python writes it."""
    if isinstance(value, list | tuple | Mapping):
        size = len(value)
        kind, part = ("an object", "key") if isinstance(value, Mapping) else ("a list", "item")
        return f"{kind} of {size:,} {part}{'' if size == 1 else 's'}"
    return repr(value)


def format_card(card: Card) -> str:
    """The card as the move language writes it (``7H``, ``TS``, ``JK``); :class:`CardError` for a code
    that is no card's (-1 read as the king of spades, and 53 as an IndexError)."""
    try:
        return _WRITTEN[card]
    except (KeyError, TypeError):
        raise CardError(no_code(card)) from None


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(format_card(card) for card in cards)


def card_symbol(card: Card) -> str:
    """The card with its suit symbol, ``10`` written out (``10♥``), for people rather than scripts."""
    try:
        return _SYMBOLS[card]
    except (KeyError, TypeError):
        raise CardError(no_code(card)) from None


def card_name(card: Card) -> str:
    """The card in words (``ten of hearts``, ``joker``)."""
    try:
        return _NAMES[card]
    except (KeyError, TypeError):
        raise CardError(no_code(card)) from None


def no_code(card: object) -> str:
    """Says that ``card`` is no card code, and what the codes are."""
    return f"{clipped_repr(card)} is not a card code (0-51 for standard cards, {JOKER} for a joker)"


# Each card's words, looked up: a code outside them is refused rather than read modulo 13.
_WRITTEN: Final = {
    **{card: RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13] for card in range(JOKER)},
    JOKER: "JK",
}
_SYMBOLS: Final = {
    **{
        card: ("10" if card % 13 == 9 else RANK_LETTERS[card % 13]) + SUIT_SYMBOLS[card // 13]
        for card in range(JOKER)
    },
    JOKER: "JK",
}
_NAMES: Final = {
    **{card: f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}" for card in range(JOKER)},
    JOKER: "joker",
}


def rank_points(rank: Rank, ace_value: int) -> int:
    """What a card of this rank is worth: 2-9 face value, 10 and faces 10, the ace as the variant says."""
    if rank == ACE or rank == 14:
        return ace_value
    return min(rank, 10)


def card_points(card: Card, ace_value: int, joker_penalty: int) -> int:
    """The value of a card left in hand at the end of a hand."""
    if card == JOKER:
        return joker_penalty
    return rank_points(rank_of(card), ace_value)


def hand_points(cards: Iterable[Card], ace_value: int, joker_penalty: int) -> int:
    return sum(card_points(card, ace_value, joker_penalty) for card in cards)


def full_pack(decks: int, jokers: int) -> Counter[Card]:
    """How many of each card code the pack holds."""
    pack: Counter[Card] = Counter(dict.fromkeys(range(52), decks))
    if jokers:
        pack[JOKER] = jokers
    return pack


def pack_difference(cards: Counter[Card], pack: Counter[Card], most: int = 4) -> str:
    """How ``cards`` differ from ``pack``, card by card ("QD twice, 7C missing"); the first ``most``
    differences, then how many more (a save edited at random can differ in every card)."""
    said: list[str] = []
    for card in sorted(cards.keys() | pack.keys()):
        held, wanted = cards[card], pack[card]
        if held == wanted:
            continue
        if held == 0:
            said.append(f"{format_card(card)} missing")
            continue
        times = {1: "once", 2: "twice"}.get(held, f"{held} times")
        said.append(f"{format_card(card)} {times}" + (f" (the pack has {wanted})" if wanted != 1 else ""))
    shown = ", ".join(said[:most])
    return shown if len(said) <= most else f"{shown} and {len(said) - most} more"


def pack_list(decks: int, jokers: int) -> list[Card]:
    """Every physical card of the pack in a fixed order, ready to shuffle."""
    return [card for card in range(52) for _ in range(decks)] + [JOKER] * jokers


def sort_key(card: Card) -> tuple[int, int]:
    """Order for showing a hand: by suit, then rank, jokers last."""
    if card == JOKER:
        return (4, 0)
    return (suit_of(card), rank_of(card))


def sorted_hand(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=sort_key)
