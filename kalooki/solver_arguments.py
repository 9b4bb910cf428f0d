"""What is wrong with arguments the solver failed on, in words: looked for only once it has failed, so
the common call pays nothing for it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from kalooki.cards import JOKER, Card, format_card
from kalooki.melds import TableMeld
from kalooki.text import clipped_repr
from kalooki.variant import not_a_variant


def argument_problem(
    hand: object, variant: object, must_include: object, table: object, keep: object = 0
) -> str | None:
    """Why :func:`kalooki.solver.solve` cannot work with ``hand``, ``variant``, ``must_include``,
    ``table`` or ``keep``, or None where they are not what it failed on. A card given as ``"7H"`` was a
    bare TypeError, a variant's name for the variant and a card for a meld on the table an
    AttributeError, ``keep="1"`` or ``keep=1.5`` a TypeError or an AttributeError."""
    problem = not_a_variant(variant)
    if problem is not None:
        return problem
    for name, cards in (("the hand", hand), ("must_include", must_include)):
        problem = cards_problem(name, cards)
        if problem is not None:
            return problem
    if not _whole(keep):
        return _keep_refusal(keep)
    if isinstance(table, str | bytes) or not isinstance(table, Sequence):
        return f"the table must be a sequence of melds, not {clipped_repr(table)}"
    for meld in table:
        if not isinstance(meld, TableMeld):
            return (
                f"the table holds {clipped_repr(meld)}: "
                "its melds are TableMeld objects (a game's table holds them)"
            )
    return None


def call_problem(
    hand: Sequence[Card], keep: object, must_include: Sequence[Card], opened: object
) -> str | None:
    """Why the solver cannot answer for ``hand`` with ``keep``, ``must_include`` and ``opened``, or None: a
    card code out of range, a ``keep`` below 0 or no whole number (True was one card), a card of
    ``must_include`` the hand does not hold or a bool (True was card 1), an ``opened`` that is no bool
    ("no" was taken as true)."""
    if opened is not True and opened is not False:
        return f"opened must be True or False, not {clipped_repr(opened)}"
    if hand and not (min(hand) >= 0 and max(hand) <= JOKER):
        for card in hand:
            if not 0 <= card <= JOKER:
                return f"{card} is not a card code (0-51 for standard cards, 52 for a joker)"
    if not _whole(keep):
        return _keep_refusal(keep)
    if keep < 0:
        return f"keep must be 0 or more, not {keep}"
    if must_include:
        if bool in map(type, must_include):  # True would name card 1
            return cards_problem("must_include", must_include)
        left = list(hand)
        for card in must_include:
            if card not in left:
                return not_held(card, must_include)
            left.remove(card)
    return None


def _whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number, and not a bool (True was taken for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _keep_refusal(keep: object) -> str:
    return f"keep must be a whole number of cards, not {clipped_repr(keep)}"


def cards_problem(name: str, cards: object) -> str | None:
    """Why ``cards`` (``name``: the hand, or must_include) is no sequence of whole numbers, or None."""
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        return f"{name} must be a sequence of card codes, not {clipped_repr(cards)}"
    for card in cards:
        if not _whole(card):
            return (
                f"{name} holds {clipped_repr(card)}: cards are given by their codes, whole numbers "
                "(kalooki.cards.parse_card('7H') reads one)"
            )
    return None


def not_held(card: object, must_include: object) -> str:
    """The refusal of ``card`` of ``must_include``, which the hand does not hold: named, or, given as text
    (``"7H"``, or each letter of ``"7H"``, which the hand never holds), said to be no card code."""
    problem = cards_problem("must_include", must_include)
    if problem is not None:
        return problem
    shown = format_card(card) if isinstance(card, int) and 0 <= card <= JOKER else clipped_repr(card)
    return f"must_include names {shown}, a card the hand does not hold"


def cannot_keep(hand: Sequence[Card], keep: int) -> str:
    """Why ``hand`` cannot keep ``keep`` cards: a ``keep`` Python will not write out (over 4,300 digits)
    is said to be a number that long, not a ValueError."""
    return (
        f"the hand holds {len(hand)} card{'' if len(hand) == 1 else 's'} and cannot keep {clipped_repr(keep)}"
    )
