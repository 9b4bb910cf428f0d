"""What is wrong with arguments the solver failed on, in words: looked for only once it has failed, so
the common call pays nothing for it."""

from __future__ import annotations

from collections.abc import Sequence

from kalooki.melds import TableMeld
from kalooki.text import clipped
from kalooki.variant import not_a_variant


def argument_problem(hand: object, variant: object, must_include: object, table: object) -> str | None:
    """Why :func:`kalooki.solver.solve` cannot work with ``hand``, ``variant``, ``must_include`` or
    ``table``, or None where they are not what it failed on. A card given as ``"7H"`` was a bare
    TypeError, a variant's name for the variant and a card for a meld on the table an AttributeError."""
    problem = not_a_variant(variant)
    if problem is not None:
        return problem
    for name, cards in (("the hand", hand), ("must_include", must_include)):
        if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
            return f"{name} must be a sequence of card codes, not {_shown(cards)}"
        for card in cards:
            if not isinstance(card, int) or isinstance(card, bool):
                return (
                    f"{name} holds {_shown(card)}: cards are given by their codes, whole numbers "
                    "(kalooki.cards.parse_card('7H') reads one)"
                )
    if isinstance(table, str | bytes) or not isinstance(table, Sequence):
        return f"the table must be a sequence of melds, not {_shown(table)}"
    for meld in table:
        if not isinstance(meld, TableMeld):
            return (
                f"the table holds {_shown(meld)}: its melds are TableMeld objects (a game's table holds them)"
            )
    return None


def _shown(value: object) -> str:
    return clipped(repr(value), 60)
