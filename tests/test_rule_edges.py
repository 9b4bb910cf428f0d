"""Rule edges pinned with literal cards and exact outcomes: the longest runs, jokers at the ends of
the ace, building and swapping with nothing, sets built from a second pack, damaged saves, the end
of a hand and of a game, and the message of a variant that contradicts itself.

The lengths are written out (13, 14), not read from the code's constants, so a changed limit fails here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError
from rules_helpers import assert_illegal, new_game, play

from kalooki.cards import ACE, HEARTS, JOKER, format_cards, make_card, parse_card, parse_cards
from kalooki.engine import Game, IllegalMoveError, StateFormatError
from kalooki.melds import MeldError, TableMeld, build, make_meld, swap
from kalooki.moves import Build, Swap
from kalooki.variant import Variant

ACE_RULES = ("high_or_low", "high", "low", "wrap")
A_TO_K = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
TWO_TO_A = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def meld(text: str, ace_in_runs: str = "high_or_low", **knobs: Any) -> TableMeld:
    return make_meld(parse_cards(text), Variant(ace_in_runs=ace_in_runs, **knobs))


def refusal(text: str, ace_in_runs: str = "high_or_low") -> str:
    with pytest.raises(MeldError) as caught:
        meld(text, ace_in_runs)
    return str(caught.value)


# ---------------------------------------------------------------- the longest runs


@pytest.mark.parametrize(
    ("ace_in_runs", "cards", "low"),
    [
        ("high_or_low", A_TO_K, 1),
        ("high_or_low", TWO_TO_A, 2),
        ("high", TWO_TO_A, 2),
        ("low", A_TO_K, 1),
        ("wrap", A_TO_K, 1),
        ("wrap", TWO_TO_A, 2),
        ("wrap", "5H 6H 7H 8H 9H TH JH QH KH AH 2H 3H 4H", 5),
    ],
)
def test_a_thirteen_card_run_is_a_run(ace_in_runs: str, cards: str, low: int) -> None:
    run = meld(cards, ace_in_runs)
    assert (run.kind, len(run.cards), run.rank, run.suit) == ("run", 13, low, HEARTS)


@pytest.mark.parametrize("ace_in_runs", ACE_RULES)
@pytest.mark.parametrize(
    "cards",
    [
        "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "JK 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH JK",
        "5H 6H 7H 8H 9H TH JH QH KH AH 2H 3H 4H 5H",
    ],
)
def test_a_fourteen_card_run_is_refused(ace_in_runs: str, cards: str) -> None:
    assert refusal(cards, ace_in_runs) == f"{cards} is not a run: a run has at most 13 cards"


@pytest.mark.parametrize(
    ("ace_in_runs", "cards", "reason"),
    [
        ("high", A_TO_K, "in this variant an ace may only sit above the king (Q-K-A)"),
        ("low", TWO_TO_A, "in this variant an ace may only sit below the two (A-2-3)"),
    ],
)
def test_a_thirteen_card_run_with_the_ace_where_the_variant_forbids_it(
    ace_in_runs: str, cards: str, reason: str
) -> None:
    assert refusal(cards, ace_in_runs) == f"{cards} is not a run: {reason}"


@pytest.mark.parametrize("ace_in_runs", ACE_RULES)
def test_building_a_twelve_card_run_to_thirteen_and_no_further(ace_in_runs: str) -> None:
    variant = Variant(ace_in_runs=ace_in_runs)
    twelve = make_meld(parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"), variant)
    ace = parse_cards("AH")
    end = "low" if ace_in_runs in ("low", "wrap") else "high"
    thirteen = build(twelve, ace, variant, end)
    assert len(thirteen.cards) == 13
    assert thirteen.rank == (1 if end == "low" else 2)
    written = format_cards(thirteen.cards)
    for side in ("low", "high"):
        with pytest.raises(MeldError) as caught:
            build(thirteen, [JOKER], variant, side)  # type: ignore[arg-type]
        full = ": a run holds each rank once, 13 cards at most"
        assert str(caught.value) == f"JK does not fit the {side} end of the run {written}{full}"
    with pytest.raises(MeldError) as caught:
        build(thirteen, ace, variant)
    # The limit is said: "an ace may end a run low or high" leads a reader to expect AH to go on.
    assert str(caught.value) == f"AH does not fit either end of the run {written}{full}"
    with pytest.raises(MeldError) as caught:
        build(twelve, parse_cards("AH 2H"), variant)
    assert str(caught.value).endswith(
        f"the run {format_cards(twelve.cards)}: a run holds each rank once, 13 cards at most"
    )


def test_a_card_refused_by_a_twelve_card_run_is_not_refused_for_the_limit() -> None:
    # Twelve cards and one make thirteen, which a run may hold: the limit is not why, the card is.
    twelve_cards = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    twelve = make_meld(parse_cards(twelve_cards), Variant())
    with pytest.raises(MeldError) as caught:
        build(twelve, parse_cards("9H"), Variant())
    assert str(caught.value) == f"9H does not fit either end of the run {twelve_cards}"
    # Where the ace may sit only above the king, an ace below the two is refused for that rule.
    high = Variant(ace_in_runs="high")
    with pytest.raises(MeldError) as caught:
        build(make_meld(parse_cards(twelve_cards), high), parse_cards("AH"), high, "low")
    assert str(caught.value) == (
        f"AH does not fit the low end of the run {twelve_cards}: "
        "in this variant an ace may only sit above the king (Q-K-A)"
    )


def test_solver_lays_a_whole_thirteen_card_run() -> None:
    from kalooki import solver

    hand = parse_cards(A_TO_K)
    plan = solver.solve(hand, Variant(), opened=True)
    assert plan.melds == (tuple(hand),)
    assert plan.points == 11 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10 + 10 + 10
    # A card that fits nowhere stays in hand; the run is still one meld of all 13.
    plan = solver.solve([*hand, parse_card("5C")], Variant(), opened=True)
    assert plan.melds == (tuple(hand),)
    assert plan.remaining == (parse_card("5C"),)


# ---------------------------------------------------------------- a joker beside the ace


@pytest.mark.parametrize("ace_in_runs", ["high_or_low", "low"])
def test_no_joker_below_a_low_ace(ace_in_runs: str) -> None:
    assert refusal("JK AH 2H 3H", ace_in_runs) == (
        "JK AH 2H 3H is not a run: a joker cannot stand below the ace: no card ranks lower"
    )
    variant = Variant(ace_in_runs=ace_in_runs)
    low = make_meld(parse_cards("AH 2H 3H"), variant)
    with pytest.raises(MeldError) as caught:
        build(low, [JOKER], variant, "low")
    assert str(caught.value) == "JK does not fit the low end of the run AH 2H 3H"
    # Without an end named the joker goes where it fits: above the three.
    assert build(low, [JOKER], variant).cards == (*parse_cards("AH 2H 3H"), JOKER)


def test_a_joker_below_the_ace_wraps_to_a_king_under_wrap() -> None:
    run = meld("JK AH 2H 3H", "wrap")
    assert (run.rank, run.stands_for(0)) == (13, parse_card("KH"))


@pytest.mark.parametrize("ace_in_runs", ["high_or_low", "high", "wrap"])
def test_a_run_joker_above_the_king_stands_for_the_ace(ace_in_runs: str) -> None:
    from kalooki_cli.render import joker_meaning, meld_text

    variant = Variant(ace_in_runs=ace_in_runs)
    run = make_meld(parse_cards("QH KH JK"), variant)
    assert (run.rank, run.position_rank(2), run.high_rank()) == (12, 14, 14)
    assert run.stands_for(2) == make_card(ACE, HEARTS)
    assert run.points(11) == 10 + 10 + 11
    assert run.points(1) == 10 + 10 + 1
    assert joker_meaning(run, 2, variant) == "A♥"
    assert joker_meaning(run, 2, variant, letters=True) == "AH"
    assert meld_text(run, variant, letters=True).plain == "QH KH JK(AH)"
    # Only the ace of hearts frees it; the freed run reads Q-K-A.
    for other in ("AD", "KH", "2H"):
        with pytest.raises(MeldError) as caught:
            swap(run, parse_cards(other), variant)
        assert str(caught.value) == (
            f"{other} does not free a joker from the run QH KH JK: "
            "only the exact card a joker stands for does (AH)"
        )
    freed, jokers = swap(run, parse_cards("AH"), variant)
    assert (freed.cards, freed.rank, jokers) == (tuple(parse_cards("QH KH AH")), 12, 1)


def test_no_joker_above_the_king_when_the_ace_is_only_low() -> None:
    assert refusal("QH KH JK", "low") == (
        "QH KH JK is not a run: a joker cannot stand above the king: "
        "in this variant an ace may only sit below the two (A-2-3)"
    )
    assert refusal("QH KH JK JK", "high") == (
        "QH KH JK JK is not a run: a joker cannot stand above the ace: no card ranks higher"
    )


# ---------------------------------------------------------------- building and swapping


NINES = "9D 9H 9S"


def nines() -> tuple[TableMeld, Variant]:
    variant = Variant()
    return make_meld(parse_cards(NINES), variant), variant


@pytest.mark.parametrize("end", ["low", "high"])
def test_building_onto_a_set_with_an_end_is_refused(end: str) -> None:
    table, variant = nines()
    with pytest.raises(MeldError) as caught:
        build(table, parse_cards("9C"), variant, end)  # type: ignore[arg-type]
    assert str(caught.value) == "a set has no ends: leave out low/high"
    assert build(table, parse_cards("9C"), variant).cards == tuple(parse_cards("9D 9H 9S 9C"))


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("9H", "9H does not fit the set 9D 9H 9S: that suit is already there"),
        ("9C 9C", "9C 9C does not fit the set 9D 9H 9S: that suit is already there"),
        ("8C", "8C does not fit a set of 9s: the ranks differ"),
        ("JK 8C", "JK 8C does not fit a set of 9s: the ranks differ"),
        ("9C JK", "9C JK does not fit the set 9D 9H 9S: a set holds at most 4 cards"),
    ],
)
def test_set_builds_that_do_not_fit(cards: str, message: str) -> None:
    table, variant = nines()
    with pytest.raises(MeldError) as caught:
        build(table, parse_cards(cards), variant)
    assert str(caught.value) == message


def test_set_build_rank_word() -> None:
    variant = Variant()
    for text, word in [
        ("AC AD AH", "aces"),
        ("JC JD JH", "jacks"),
        ("QC QD QH", "queens"),
        ("KC KD KH", "kings"),
    ]:
        table = make_meld(parse_cards(text), variant)
        with pytest.raises(MeldError) as caught:
            build(table, parse_cards("2S"), variant)
        assert str(caught.value) == f"2S does not fit a set of {word}: the ranks differ"


@pytest.mark.parametrize("table_cards", [NINES, "7H 8H 9H", "9D 9H JK"])
def test_building_or_swapping_nothing_is_refused(table_cards: str) -> None:
    variant = Variant()
    table = make_meld(parse_cards(table_cards), variant)
    with pytest.raises(MeldError) as caught:
        build(table, [], variant)
    assert str(caught.value) == "name the cards to build"
    with pytest.raises(MeldError) as caught:
        swap(table, [], variant)
    assert str(caught.value) == "swap takes the natural card(s) that free a joker, not a joker"


def opened_with_nines() -> Game:
    """ann has laid 9D 9H 9S and holds 9H (a second pack's) 8C 9C 4S 5S; it is her turn to play."""
    game = new_game(
        {"opening_threshold": 0, "hand_size": 8},
        ["9D 9H 9S 9H 8C 9C 4S 5S", "2C 3C 4C 5C 6C 7C 8D 2S"],
        stock="KD",
    )
    play(game, "draw stock", "meld 9D 9H 9S")
    return game


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("build 1 9H", "9H does not fit the set 9D 9H 9S: that suit is already there"),
        ("build 1 8C", "8C does not fit a set of 9s: the ranks differ"),
        ("build 1 9C low", "a set has no ends: leave out low/high"),
    ],
)
def test_the_engine_refuses_set_builds_and_changes_nothing(move: str, message: str) -> None:
    assert_illegal(opened_with_nines(), move, message)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Build(meld=1, cards=()), "name the cards to build"),
        (Swap(meld=1, cards=()), "swap takes the natural card(s) that free a joker, not a joker"),
    ],
)
def test_the_engine_refuses_building_or_swapping_nothing(action: Build | Swap, message: str) -> None:
    game = opened_with_nines()
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(action)
    assert str(caught.value) == message
    assert json.dumps(game.to_json(), sort_keys=True) == before


# ---------------------------------------------------------------- a damaged save


def saved_with_table() -> dict[str, Any]:
    """A save where ann has laid 9D 9H 9S and 4S 5S 6S and still holds TS 9C."""
    game = new_game(
        {"opening_threshold": 0, "hand_size": 8},
        ["9D 9H 9S 4S 5S 6S TS 9C", "2C 3C 4C 5C 6C 7C 8D 2D"],
        stock="KD",
    )
    play(game, "draw stock", "meld 9D 9H 9S, 4S 5S 6S")
    return game.to_json()


def exchange(data: dict[str, Any], meld: int, table_card: str, hand_card: str) -> dict[str, Any]:
    """The save with a table meld's card and a card of ann's hand changing places (the pack stays whole)."""
    data = json.loads(json.dumps(data))
    cards, hand = data["table"][meld]["cards"], data["hands"][0]
    cards[cards.index(parse_card(table_card))] = parse_card(hand_card)
    hand[hand.index(parse_card(hand_card))] = parse_card(table_card)
    return data


def test_a_save_whose_melds_are_melds_loads() -> None:
    data = saved_with_table()
    assert Game.from_json(data).to_json() == data


@pytest.mark.parametrize(
    ("meld", "table_card", "hand_card", "message"),
    [
        (0, "9S", "TS", "9D 9H TS is not a set: the ranks differ"),
        (1, "6S", "9C", "4S 5S 9C is not a run: a run's cards are all of one suit"),
        (
            1,
            "6S",
            "TS",
            "4S 5S TS is not a run: the cards are not consecutive as written "
            "(write a run low to high, a joker where a card is missing)",
        ),
    ],
)
def test_a_save_with_a_meld_that_is_no_meld_is_refused(
    meld: int, table_card: str, hand_card: str, message: str
) -> None:
    data = exchange(saved_with_table(), meld, table_card, hand_card)
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value) == f"the saved game is damaged: table[{meld}]: {message}"


# ---------------------------------------------------------------- the end of a hand and of a game


def test_abandon_hand_needs_a_hand_being_played() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["7H 8H 9H TH", "2C 3C 4D 5S"])
    events = game.abandon_hand()
    assert events[0]["end"] == "abandoned"
    assert events[0]["winner"] is None
    assert events[0]["scores"] == {"ann": 0, "bob": 0}
    assert game.totals == [0, 0]
    assert game.phase == "hand_over"
    for _ in range(2):
        with pytest.raises(IllegalMoveError) as caught:
            game.abandon_hand()
        assert str(caught.value) == "no hand is being played"
    assert len(game.results) == 1


ELIM = {"hand_size": 4, "opening_threshold": 0, "kalooki_bonus": 0, "goal_score": 60, "elimination": True}


def test_the_hand_that_ends_a_game_by_elimination() -> None:
    # ann goes out; bob holds 70 and cid 40: both reach the goal in the same hand and ann is left alone.
    game = new_game({**ELIM, "goal_score": 40}, ["7H 8H 9H TH", "JK JK KS KD", "KC QC JC TC"], stock="QS")
    events = play(game, "draw stock", "meld 7H 8H 9H TH", "discard QS")
    assert [event["type"] for event in events] == [
        "draw", "meld", "discard", "hand_end", "eliminated", "eliminated", "game_end",
    ]  # fmt: skip
    assert events[-3:] == [
        {"type": "eliminated", "player": "bob"},
        {"type": "eliminated", "player": "cid"},
        {"type": "game_end", "winners": ["ann"], "totals": {"ann": 0, "bob": 70, "cid": 40}},
    ]
    assert game.eliminated == [False, True, True]
    assert (game.phase, game.winners) == ("game_over", [0])


def test_a_hand_that_eliminates_one_of_three_goes_on() -> None:
    game = new_game(ELIM, ["7H 8H 9H TH", "JK JK KS KD", "2C 3C 4D 5S"], stock="QS")
    events = play(game, "draw stock", "meld 7H 8H 9H TH", "discard QS")
    assert events[-2:] == [
        {
            "type": "hand_end",
            "hand": 1,
            "end": "went_out",
            "winner": "ann",
            "kalooki": True,
            "hand_points": {"ann": 0, "bob": 70, "cid": 14},
            "scores": {"ann": 0, "bob": 70, "cid": 14},
            "totals": {"ann": 0, "bob": 70, "cid": 14},
        },
        {"type": "eliminated", "player": "bob"},
    ]
    assert game.phase == "hand_over"


# ---------------------------------------------------------------- a variant that contradicts itself


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        # It said what is wrong, not how to mend it.
        (
            {"min_players": 5, "max_players": 4},
            "min_players (5) is more than max_players (4): raise max_players to 5 or lower min_players to 4",
        ),
        (
            {"elimination": True, "scoring": "winner_collects"},
            "elimination needs scoring: penalty (with winner_collects the first to goal_score wins)",
        ),
        (
            {"hand_size": 14, "decks": 1, "jokers": 0},
            "max_players * hand_size + 1 = 4 * 14 + 1 = 57 cards do not fit in the pack of "
            "decks * 52 + jokers = 1 * 52 + 0 = 52 (3 players fit: max_players: 3)",
        ),
        # No fewer players the variant allows fit either: no count is offered.
        (
            {"hand_size": 14, "decks": 1, "jokers": 0, "min_players": 4},
            "max_players * hand_size + 1 = 4 * 14 + 1 = 57 cards do not fit in the pack of "
            "decks * 52 + jokers = 1 * 52 + 0 = 52",
        ),
        # Nor where two players, the fewest, would be dealt the whole pack and leave no stock.
        (
            {"hand_size": 26, "decks": 1, "jokers": 0, "upcard": False},
            "max_players * hand_size = 4 * 26 = 104 cards do not fit in the pack of "
            "decks * 52 + jokers = 1 * 52 + 0 = 52",
        ),
        # Without an upcard the deal needs no card beyond the hands.
        (
            {"hand_size": 14, "decks": 1, "jokers": 0, "upcard": False},
            "max_players * hand_size = 4 * 14 = 56 cards do not fit in the pack of "
            "decks * 52 + jokers = 1 * 52 + 0 = 52 (3 players fit: max_players: 3)",
        ),
        # A deal of the whole pack even to the fewest players: every hand ended at its deal.
        (
            {"hand_size": 13, "decks": 1, "jokers": 0, "upcard": False, "min_players": 4},
            "min_players * hand_size = 4 * 13 = 52 cards take all of the pack of "
            "decks * 52 + jokers = 1 * 52 + 0 = 52, leaving no stock",
        ),
        (
            {"hand_size": 13, "decks": 1, "jokers": 1, "min_players": 4},
            "min_players * hand_size + 1 = 4 * 13 + 1 = 53 cards take all of the pack of "
            "decks * 52 + jokers = 1 * 52 + 1 = 53, leaving no stock",
        ),
        (
            {"hand_size": 3, "opening_threshold": 34},
            "opening_threshold (34) can never be reached: a first meld holds at most 3 cards "
            "(hand_size 3) worth at most 11 each",
        ),
        # Two problems: Variant(...) raises the first one, in the order the rules are checked.
        (
            {"min_players": 5, "max_players": 4, "elimination": True, "scoring": "winner_collects"},
            "min_players (5) is more than max_players (4): raise max_players to 5 or lower min_players to 4",
        ),
    ],
)
def test_variant_raises_the_first_cross_field_problem(knobs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Variant(**knobs)
    errors = caught.value.errors()
    assert len(errors) == 1
    assert errors[0]["msg"] == f"Value error, {message}"
    assert errors[0]["loc"] == ()


@pytest.mark.parametrize(
    ("knobs", "fits"),
    [
        ({"hand_size": 3, "opening_threshold": 33}, True),
        ({"hand_size": 3, "opening_threshold": 34, "going_out": "discard_optional"}, True),
        ({"hand_size": 3, "opening_threshold": 44, "going_out": "discard_optional"}, True),
        ({"hand_size": 3, "opening_threshold": 45, "going_out": "discard_optional"}, False),
        ({"hand_size": 3, "opening_threshold": 30, "ace_value": 1}, True),
        ({"hand_size": 3, "opening_threshold": 31, "ace_value": 1}, False),
        ({"hand_size": 25, "max_players": 4, "decks": 1, "jokers": 0}, False),
        ({"hand_size": 12, "max_players": 4, "decks": 1, "jokers": 3}, True),
        ({"hand_size": 12, "max_players": 4, "decks": 1, "jokers": 0}, True),
        ({"hand_size": 13, "max_players": 4, "decks": 1, "jokers": 0}, False),
        # Dealt the whole pack, four players have no stock: the game seats three (rules.may_play); a
        # variant whose fewest players would be is refused.
        ({"hand_size": 13, "max_players": 4, "decks": 1, "jokers": 1}, True),
        ({"hand_size": 13, "max_players": 4, "decks": 1, "jokers": 0, "upcard": False}, True),
        ({"hand_size": 13, "min_players": 4, "max_players": 4, "decks": 1, "jokers": 1}, False),
        ({"hand_size": 13, "min_players": 4, "max_players": 4, "decks": 1, "jokers": 2}, True),
        ({"hand_size": 14, "max_players": 4, "decks": 1, "jokers": 3, "upcard": False}, False),
        ({"min_players": 4, "max_players": 4}, True),
    ],
)
def test_cross_field_limits_exactly(knobs: dict[str, Any], fits: bool) -> None:
    if fits:
        Variant(**knobs)
        return
    with pytest.raises(ValidationError):
        Variant(**knobs)
