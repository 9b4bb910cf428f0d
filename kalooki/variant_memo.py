"""Memos kept per variant object, found by the object's identity.

Hashing a variant (a pydantic model) costs more than most of the answers it would find, so a memo
is found by ``id(variant)``. Each entry holds its variant, so the id is not reused while the entry
lives, and an entry left by another object under a reused id is replaced. A run plays one or two
variants: the store is emptied when it holds more than a few.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from kalooki.variant import Variant

T = TypeVar("T")


class PerVariant(Generic[T]):
    """``memo(variant)``: the value ``make(variant)`` made the first time this variant object asked."""

    __slots__ = ("_entries", "_last", "_limit", "_make")

    def __init__(self, make: Callable[[Variant], T], limit: int = 16) -> None:
        self._entries: dict[int, tuple[Variant, T]] = {}
        self._make = make
        self._limit = limit
        # The entry asked for last: a run asks about one variant thousands of times in a row.
        self._last: tuple[Variant, T] | None = None

    def __call__(self, variant: Variant) -> T:
        last = self._last
        if last is not None and last[0] is variant:
            return last[1]
        entry = self._entries.get(id(variant))
        if entry is None or entry[0] is not variant:
            if len(self._entries) > self._limit:
                self._entries.clear()
            entry = self._entries[id(variant)] = (variant, self._make(variant))
        self._last = entry
        return entry[1]
