"""Memos per variant object: found by identity, never handed to another variant."""

from __future__ import annotations

from kalooki.variant import Variant
from kalooki.variant_memo import PerVariant


def test_a_variant_gets_its_own_memo_back_and_an_equal_variant_gets_another() -> None:
    made: list[Variant] = []

    def make(variant: Variant) -> dict[str, int]:
        made.append(variant)
        return {}

    memo = PerVariant(make)
    classic, twin = Variant(), Variant()
    assert classic == twin
    assert memo(classic) is memo(classic)
    assert memo(twin) is not memo(classic)
    assert made == [classic, twin]
    # Asked in turn (the last one asked is answered first): each still gets its own.
    first = memo(classic)
    assert memo(twin) is not first
    assert memo(classic) is first
    assert made == [classic, twin]


def test_a_full_store_starts_afresh_and_still_answers() -> None:
    memo: PerVariant[list[int]] = PerVariant(lambda variant: [], limit=2)
    variants = [Variant(goal_score=100 + step) for step in range(4)]
    first = memo(variants[0])
    for variant in variants[1:]:
        memo(variant)
    # Past the limit the store was emptied: the first variant gets a new memo, made for it.
    again = memo(variants[0])
    assert again is not first
    assert memo(variants[0]) is again
