"""How many jokers cards put into a set free, under ``set_joker_release``, and whether any swap ever could.

The rules of :func:`kalooki.melds.swap` for sets that free jokers only for cards put in together
(``three_card_set``, ``all_missing_suits``): numbers in, the count or the refusal's words out, so that
the rule is read in one place and the meld's own checks (ranks, suits, a closed set) stay with the meld.
"""

from __future__ import annotations

from kalooki.cards import SUITS
from kalooki.rules import SMALLEST_MELD, suits_must_differ
from kalooki.variant import Variant


def freed_together(
    size: int, jokers: int, added: int, variant: Variant, written: str, shown: str
) -> int | str:
    """The jokers ``added`` cards (written ``written``), put in together, free from a set of ``size``
    cards holding ``jokers`` (shown ``shown``), or why they free none. The caller has refused a closed
    set, other ranks and suits the set holds."""
    capacity = variant.set_maximum
    three_card = variant.set_joker_release == "three_card_set"
    if three_card:
        # The online room's rule: only a three-card set gives up a joker, one for two cards put in together.
        if size != SMALLEST_MELD:
            return (
                f"the set {shown} keeps its jokers for good: in this variant only a three-card set gives up "
                "a joker"
            )
        freed = 1 if added == 2 else 0
    else:
        # Cards added together free what no longer fits in a full set; one card can only fill it.
        freed = size + added - capacity
    if (added >= 2 or three_card) and freed >= 1:
        return freed
    distinct = suits_must_differ(variant)
    if three_card:
        two = "two of the missing suits" if distinct else "two cards of its rank"
        asked = f"frees a joker of a three-card set only for {two} added together"
    elif distinct and capacity == len(SUITS):
        asked = "needs two of the missing suits added together"
    else:  # larger sets, or suits that may repeat: as many as take it past its maximum
        needed = max(2, capacity + 1 - size)
        asked = (
            f"frees a set's jokers only for cards added together that take it past {capacity} cards: "
            f"{needed} here"
        )
    # One card more closes the set for good where it leaves a single joker beside the naturals, or where
    # only a three-card set gives up a joker.
    closes = size + 1 == capacity and (size - jokers + 2 == capacity or three_card)
    if added > 2 and three_card:
        why = "put in two: they free one"
    elif added >= 2:
        why = "fewer go on with build, and its jokers stay there to be freed later"
    elif size >= capacity:
        # A full set refuses the build too: pointing there would send the player back and forth.
        why = "the set is full, so one card alone cannot go on with build either"
    elif closes or three_card:
        why = "one card added to a three-card set closes it for good: use build for that"
    else:
        why = "one card alone goes on with build, and its jokers stay there to be freed later"
    return f"{written} does not free a joker of {shown}: this variant {asked} ({why})"


def set_joker_takeable(size: int, jokers: int, variant: Variant) -> bool:
    """Whether some swap could free a joker of a set of ``size`` cards holding ``jokers`` (so that a hint
    to use swap is not misleading)."""
    rule = variant.set_joker_release
    if not jokers or rule == "never":
        return False
    if rule == "three_card_set":
        # Built up to four cards it keeps them: only a three-card set gives one up, and only into a fourth.
        return size == SMALLEST_MELD and variant.set_maximum > SMALLEST_MELD
    if rule == "all_missing_suits":
        return size - jokers <= variant.set_maximum - 2
    # A set of three suits and a joker is closed for good.
    return size - jokers < variant.set_maximum - 1
