"""What a greedy bot remembers within a turn, under keys cheap to build.

A turn asks about the same few hands and the same table several times (deciding the draw, then
the play): the answers are kept by the hand's count key and by a number for the table, since
building and hashing keys that hold a variant's id or every table meld's cards cost more than
many of the answers they found.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kalooki.bots import quick
from kalooki.bots.quick import CountTables, bound_with, meldable_with, tables_of

if TYPE_CHECKING:
    from kalooki.cardstate import CardState
    from kalooki.melds import TableMeld
    from kalooki.variant import Variant


class TurnMemo:
    """The meldable masks and opening bounds of this turn's hands, and names for the table."""

    __slots__ = ("_bounds", "_frame", "_masks", "_number", "_numbered", "_rules", "_table", "_table_key")

    def __init__(self) -> None:
        # By hand key, for this turn and the variant ``_rules``.
        self._masks: dict[int, int] = {}
        self._bounds: dict[int, int] = {}
        self._rules: Variant | None = None
        # The count checks' tables of ``_rules``, held here: a hand's checks then skip the variant's look-up.
        self._frame: CountTables | None = None
        self._table: Sequence[TableMeld] = ()
        self._table_key: tuple[object, ...] = ()
        self._numbered: Sequence[TableMeld] = ()
        self._number = 0

    def new_turn(self) -> None:
        """Forget the hands (the table's names stay good: they follow the table, not the turn)."""
        self._masks.clear()
        self._bounds.clear()

    def meldable(self, state: CardState, variant: Variant) -> int:
        """:func:`quick.meldable` of the hand ``state``."""
        frame = self._frame
        if variant is not self._rules or frame is None:
            self.new_turn()
            self._rules = variant
            frame = self._frame = tables_of(variant)
        found = self._masks.get(state.key)
        if found is None:
            found = self._masks[state.key] = meldable_with(state, frame)
        return found

    def opening_bound(self, state: CardState, variant: Variant, can_meld: int) -> int:
        """:func:`quick.opening_bound` of the hand ``state`` and its meldable mask ``can_meld``."""
        found = self._bounds.get(state.key)
        if found is None or variant is not self._rules:
            frame = self._frame
            if variant is not self._rules or frame is None:
                return quick.opening_bound(state, can_meld, variant)
            found = self._bounds[state.key] = bound_with(state, can_meld, frame)
        return found

    def table_key(self, table: Sequence[TableMeld]) -> tuple[object, ...]:
        """The table as plain values, equal for equal tables whenever asked (the last one's is kept:
        a view's table is asked about several times a turn)."""
        # Each view brings a new tuple of the same (frozen, shared) melds: == matches them by identity.
        if table == self._table:
            return self._table_key
        key = tuple((meld.cards, meld.kind) for meld in table)
        if type(table) is tuple:  # a list could change under the remembered key
            self._table, self._table_key = table, key
        return key

    def table_number(self, table: Sequence[TableMeld]) -> int:
        """A number for ``table``: the same for equal tables asked one after another, never the same
        for two different tables; 0 is the empty table (the searches without builds)."""
        if not table:
            return 0
        if table == self._numbered:
            return self._number
        self._number += 1
        # A list could change under the remembered number: the next ask numbers it afresh.
        self._numbered = table if type(table) is tuple else ()
        return self._number
