"""The solver's lone runs: one natural card and jokers laid as a run (``JK 6H JK run`` is 5-6-7).

As written such a group reads as a set wherever a set may hold that many cards, so the run is laid
only when the move says ``run``; the candidate says so (``_Cand.lone_run``), and the plan's ``kinds``
carry it to the move. Longer ones read as runs anyway and are listed with the other runs
(:mod:`kalooki.solver_candidates`).
"""

from __future__ import annotations

from kalooki.candidates import lone_runs_of
from kalooki.cards import Card
from kalooki.melds import make_meld
from kalooki.rules import SMALLEST_MELD
from kalooki.solver_candidates import _Cand, _Rules


def _with_lone_runs(sets: list[_Cand], jokers: int, rules: _Rules) -> list[_Cand]:
    """One rank's ``sets``, listed with ``jokers`` jokers (two or more), with the lone runs of its
    naturals in place of the sets they beat; kept with the rank's sets (:func:`_set_candidates`), so
    a hand's list is made once for all the hands that hold the rank's suits.

    For each natural and number of jokers, the run's frame worth the most, where it is worth more than
    the set of the same cards: the set then lays the same cards for fewer points, so no best lay holds
    it (under every objective the run scores as much, and more points), and the search is no larger than
    without lone runs. Where the set is worth as much or more, the set stays and no run is listed: the
    two would score the same, and the set needs no word. Where in the hand's list a lone run sits
    changes no answer: no other candidate of its lowest natural lays one natural and as many jokers,
    so none scores the same, and the search orders a natural's candidates by score.
    """
    most = jokers if jokers < rules.set_max - 1 else rules.set_max - 1
    if most < 2:
        return sets
    cache = rules.lone_cache
    lone: list[_Cand] = []
    for cand in sets:
        # Each natural the rank's suits hold makes one set with two jokers, a set's fewest.
        if len(cand.naturals) == 1 and cand.jokers == SMALLEST_MELD - 1:
            code = cand.naturals[0]
            key = code << 4 | most
            found = cache.get(key)
            if found is None:
                found = cache[key] = _lone_runs(code, most, rules)
            lone += found
    if not lone:
        return sets
    beaten = {(cand.naturals[0], cand.jokers) for cand in lone}
    kept = [cand for cand in sets if len(cand.naturals) != 1 or (cand.naturals[0], cand.jokers) not in beaten]
    return kept + lone


def _lone_runs(code: Card, most: int, rules: _Rules) -> list[_Cand]:
    """:func:`_with_lone_runs` of one natural with two to ``most`` jokers: of the runs it makes
    (:func:`~kalooki.candidates.lone_runs_of`), the first worth the most of each length."""
    variant = rules.variant
    set_points = rules.set_points[code % 13 + 1]
    joker = set_points if rules.joker_points is None else rules.joker_points
    best: dict[int, tuple[int, tuple[Card, ...]]] = {}
    for written in lone_runs_of(code, most + 1, variant):
        jokers = len(written) - 1
        points = make_meld(written, variant, kind="run").worth(variant)
        if jokers not in best or points > best[jokers][0]:
            best[jokers] = (points, written)
    return [
        _Cand((code,), jokers, points, -1, written, lone_run=True)
        for jokers, (points, written) in best.items()
        if points > set_points + joker * jokers
    ]
