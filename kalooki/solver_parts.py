"""The solver's read-off of a best lay part by part, for hands the search need not walk.

Without jokers, a table or cards that must be laid, a lay's score is the sum of its candidates'
scores: where candidates share no card, or lie inside one another, or fall into small parts that
share no card, the best lay can be read off (:func:`kalooki.solver._best_lay`) rather than searched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kalooki.solver_candidates import _CARD_BIT, _Cand

if TYPE_CHECKING:
    from kalooki.solver import _Problem


def _outermost(cands: list[_Cand], counts: list[int]) -> list[_Cand] | None:
    """The candidates no other holds, when they share no card, every other candidate lies inside
    one of them, and the hand holds once each card of one that has others inside; else None."""
    masks = [sum(map(_CARD_BIT.__getitem__, cand.naturals)) for cand in cands]
    outer: list[_Cand] = []
    outer_masks: list[int] = []
    nested = 0
    for index in sorted(range(len(cands)), key=lambda i: -masks[i].bit_count()):
        mask = masks[index]
        for held in outer_masks:
            if mask & held:
                if mask & ~held or mask == held:
                    return None  # across two outer candidates, or the same cards twice
                nested |= held
                break
        else:
            outer.append(cands[index])
            outer_masks.append(mask)
    while nested:
        card = (nested & -nested).bit_length() - 1
        if counts[card] > 1:
            return None
        nested &= nested - 1
    return outer


_PART_MAX: Final = 12
"""Most candidates in one part whose lays are tried one by one (at most 2 ** 12 of them)."""


def _best_of_each_part(problem: _Problem, cands: list[_Cand], counts: list[int]) -> list[_Cand] | None:
    """The best lay as the candidates of each part, when every part has one best lay; else None.

    Candidates that share a card, directly or through others, form a part. Without jokers, a
    table or cards that must be laid, a lay's score is the sum of its candidates' scores, and the
    parts share no card, so the best lay is the best lay of each part. A part whose cards the hand
    holds once is small enough to try every lay of: when one scores more than every other it is
    the only best lay, which the search finds too; a tie is left to the search, which keeps the
    first of equal lays in its own order. A part with a card held twice is left to it as well.
    """
    parts: list[tuple[int, list[_Cand]]] = []
    for cand in cands:
        mask = sum(map(_CARD_BIT.__getitem__, cand.naturals))
        members = [cand]
        apart: list[tuple[int, list[_Cand]]] = []
        for part in parts:
            if part[0] & mask:
                mask |= part[0]
                members += part[1]
            else:
                apart.append(part)
        apart.append((mask, members))
        parts = apart
    chosen: list[_Cand] = []
    for mask, members in parts:
        if len(members) == 1:
            chosen += members
            continue
        if len(members) > _PART_MAX:
            return None
        while mask:
            if counts[(mask & -mask).bit_length() - 1] > 1:
                return None
            mask &= mask - 1
        best = _only_best_lay(problem, members)
        if best is None:
            return None
        chosen += best
    return chosen


def _only_best_lay(problem: _Problem, members: list[_Cand]) -> list[_Cand] | None:
    """The lay of ``members`` (sharing no card) that scores more than every other, or None on a tie."""
    masks = [sum(map(_CARD_BIT.__getitem__, cand.naturals)) for cand in members]
    scores = [problem.score(cand.naturals, 0, cand.points) for cand in members]
    # Every lay, as a bit per member, built up one member at a time from the lays before it.
    lays = [(0, 0, 0)]  # (members laid, cards laid, score)
    for index, mask in enumerate(masks):
        bit = 1 << index
        score = scores[index]
        lays += [(laid | bit, cards | mask, total + score) for laid, cards, total in lays if not cards & mask]
    totals = [total for _, _, total in lays]
    best = max(totals)
    if totals.count(best) > 1:
        return None
    best_lay = lays[totals.index(best)][0]
    return [cand for index, cand in enumerate(members) if best_lay >> index & 1]
