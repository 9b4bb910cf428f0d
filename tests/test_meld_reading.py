"""How cards written as a run are read: jokers before an ace, a run that wraps past the king,
building a king under a low ace, and the reason a refused run is given."""

from __future__ import annotations

import pytest

from kalooki.cards import parse_card, parse_cards
from kalooki.melds import MeldError, build, make_meld, swap
from kalooki.variant import AceInRuns, Variant

NOT_CONSECUTIVE = (
    "the cards are not consecutive as written (write a run low to high, a joker where a card is missing)"
)


@pytest.mark.parametrize("ace_in_runs", ["high_or_low", "high", "wrap"])
def test_jokers_before_a_high_ace(ace_in_runs: str) -> None:
    # One natural and jokers read as a set unless the kind is named.
    run = make_meld(parse_cards("JK JK AH"), Variant(ace_in_runs=ace_in_runs), kind="run")
    assert (run.kind, run.rank) == ("run", 12)
    assert [run.stands_for(i) for i in (0, 1)] == parse_cards("QH KH")


def test_jokers_before_a_two_wrap_past_the_king() -> None:
    run = make_meld(parse_cards("JK JK 2H"), Variant(ace_in_runs="wrap"), kind="run")
    assert (run.rank, run.stands_for(0), run.stands_for(1)) == (13, parse_card("KH"), parse_card("AH"))


def test_a_king_built_under_a_low_ace_wraps() -> None:
    variant = Variant(ace_in_runs="wrap")
    low = make_meld(parse_cards("AH 2H 3H"), variant)
    built = build(low, parse_cards("KH"), variant, "low")
    assert (built.cards, built.rank) == (tuple(parse_cards("KH AH 2H 3H")), 13)
    with pytest.raises(MeldError):
        build(low, parse_cards("KH"), Variant(), "low")


NO_CORNER = "an ace may sit below the two or above the king, not between them (no K-A-2)"
HIGH_ONLY = "in this variant an ace may only sit above the king (Q-K-A)"
LOW_ONLY = "in this variant an ace may only sit below the two (A-2-3)"


@pytest.mark.parametrize(
    ("ace_in_runs", "cards", "reason"),
    [
        # A gap or a wrong order is the reason, wherever the ace sits.
        ("high_or_low", "AH 3H 4H", NOT_CONSECUTIVE),
        ("high_or_low", "AH 2H 4H", NOT_CONSECUTIVE),
        ("high_or_low", "QH AH KH", NOT_CONSECUTIVE),
        ("high_or_low", "AH 3H JK 6H", NOT_CONSECUTIVE),
        ("high_or_low", "2H AH KH", NOT_CONSECUTIVE),
        ("high", "JH KH AH", NOT_CONSECUTIVE),
        ("low", "AH 3H 4H", NOT_CONSECUTIVE),
        ("wrap", "QH AH KH", NOT_CONSECUTIVE),
        # Consecutive round the corner: the ace's place is the reason, a joker standing for it too.
        ("high_or_low", "KH AH 2H", NO_CORNER),
        ("high_or_low", "QH KH AH 2H", NO_CORNER),
        ("high_or_low", "KH AH JK", "a joker cannot stand above the ace: no card ranks higher"),
        ("high_or_low", "KH JK 2H", NO_CORNER),
        ("high", "AH 2H 3H", HIGH_ONLY),
        ("high", "KH AH 2H", HIGH_ONLY),
        ("low", "QH KH AH", LOW_ONLY),
        ("low", "KH AH 2H", LOW_ONLY),
    ],
)
def test_each_refused_run_with_an_ace_says_its_own_reason(
    ace_in_runs: AceInRuns, cards: str, reason: str
) -> None:
    with pytest.raises(MeldError) as caught:
        make_meld(parse_cards(cards), Variant(ace_in_runs=ace_in_runs))
    assert str(caught.value) == f"{cards} is not a run: {reason}"


def test_swap_takes_a_list_of_cards() -> None:
    variant = Variant(set_joker_release="any_missing_suit")
    nines = make_meld(parse_cards("9D 9H JK"), variant)
    freed, jokers = swap(nines, parse_cards("9C"), variant)
    assert (freed.cards, jokers) == (tuple(parse_cards("9D 9H 9C")), 1)


def test_a_joker_past_a_high_ace() -> None:
    with pytest.raises(MeldError) as caught:
        make_meld(parse_cards("QH KH AH JK"), Variant(ace_in_runs="high"))
    assert (
        str(caught.value)
        == "QH KH AH JK is not a run: a joker cannot stand above the ace: no card ranks higher"
    )
