"""The candidate melds at the edges of the run frames, each a literal hand with the melds it lists.

Random hands rarely hold twelve cards of one suit, or four jokers beside two naturals: these hands
pin where a run's frame stops and when jokers may stand for the cards a run holds.
"""

from __future__ import annotations

from kalooki.candidates import candidate_melds
from kalooki.cards import JOKER, Card, format_cards, parse_cards
from kalooki.variant import Variant


def _written(groups: list[tuple[Card, ...]]) -> list[str]:
    return [format_cards(group) for group in groups]


def test_a_run_of_thirteen_stops_at_the_ace_above_the_king() -> None:
    # Twelve clubs from the three to the ace and a joker, aces high or low: a thirteen-card run is the
    # joker as the two below the three (with the ace low or high), never a card past the high ace.
    hand = parse_cards("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC JK")
    found = candidate_melds(hand, Variant())
    assert _written([group for group in found if len(group) == 13]) == [
        "AC JK 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "JK 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ]
    assert max(len(group) for group in found if group[0] == parse_cards("4C")[0]) == 11


def test_jokers_stand_for_a_runs_cards_down_to_one_natural_and_never_all() -> None:
    # With sets of at most three, four cards holding one natural are a run: 5C 6C and four jokers list
    # the runs where a joker stands for the five or the six as well as those missing the other.
    variant = Variant(set_maximum=3, jokers=4)
    found = candidate_melds(parse_cards("5C 6C JK JK JK JK"), variant)
    assert _written([group for group in found if len(group) == 4 and group.count(JOKER) == 3]) == [
        "JK JK JK 5C",
        "JK JK JK 6C",
        "JK JK 5C JK",
        "JK JK 6C JK",
        "JK 5C JK JK",
        "JK 6C JK JK",
        "5C JK JK JK",
        "6C JK JK JK",
    ]
    assert [group for group in found if group.count(JOKER) == len(group)] == []
