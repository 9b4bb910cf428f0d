"""Answers about table melds, remembered by the meld: by the object first, then by what it holds.

The bots and the legal listing ask the same questions of every meld on the table on turn after turn
(what could be built onto it, what its jokers stand for, its places). A table meld stays for many
turns, so an answer is found by the meld object, its id, without hashing the meld; each build makes
a new meld object, though, and the same melds come back hand after hand and game after game, laid by
any seat, so a meld not met as this object is found by its kind, cards, rank and suit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from kalooki.cards import Card
from kalooki.melds import TableMeld

if TYPE_CHECKING:
    from kalooki.variant import Variant

T = TypeVar("T")

MeldContent = tuple[str, tuple[Card, ...], int, int]
"""A meld's kind, cards, rank and suit: all that an answer kept here may depend on (not the owner)."""


class MeldMemo(Generic[T]):
    """One question's answers under one variant: ``melds`` by the meld's id (each entry holds its meld, so
    the id is not reused while remembered; hot loops read it themselves), ``by_content`` by its
    :data:`MeldContent`. Each starts afresh once it holds more than ``limit`` answers."""

    __slots__ = ("by_content", "limit", "melds")

    def __init__(self, limit: int) -> None:
        self.melds: dict[int, tuple[TableMeld, T]] = {}
        self.by_content: dict[MeldContent, T] = {}
        self.limit = limit

    def get(self, meld: TableMeld, work: Callable[[TableMeld, Variant], T], variant: Variant) -> T:
        """The answer for ``meld``, ``work(meld, variant)`` worked out once per meld content."""
        entry = self.melds.get(id(meld))
        if entry is not None and entry[0] is meld:
            return entry[1]
        return self.learn(meld, work, variant)

    def learn(self, meld: TableMeld, work: Callable[[TableMeld, Variant], T], variant: Variant) -> T:
        """:meth:`get` for a meld not met as this object: found by its content, else worked out."""
        content = (meld.kind, meld.cards, meld.rank, meld.suit)
        answer = self.by_content.get(content)
        if answer is None:
            if len(self.by_content) > self.limit:
                self.by_content.clear()
            answer = self.by_content[content] = work(meld, variant)
        if len(self.melds) > self.limit:
            self.melds.clear()
        self.melds[id(meld)] = (meld, answer)
        return answer
