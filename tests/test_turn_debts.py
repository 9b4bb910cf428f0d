"""A turn that owes a card (meld_at_once, released_joker_must_be_melded) can always still pay it."""

from __future__ import annotations

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text
from test_rules_jokers import table_position

from kalooki import laying
from kalooki.cards import JOKER, parse_card, parse_cards
from kalooki.engine import Game, StateFormatError
from kalooki.loader import builtin_variant_path, load_variant
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Build, Meld, Swap
from kalooki.variant_memo import PerVariant
from kalooki.view import LegalView

STRANDED_5H = "that would leave you unable to meld the 5H you took from the discard pile"
# Once said "and your hand could not meld it", though `meld QS QD JK` could.
JOKER_BUILT = "a freed joker must go into a new meld this turn, not onto a meld on the table"


def taken_5h(rule: str) -> Game:
    """ann has opened with 7H 8H 9H and holds 5C 5D QS KS JK; bob discards 5H and ann takes it."""
    game = new_game(
        {"hand_size": 8, "opening_threshold": 0, "discard_draw": rule},
        ["7H 8H 9H 5C 5D QS KS JK", "5H 2S 3D 9C TD 4S 6D 8C"],
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2C")
    play(game, "draw stock", "discard 5H")
    play(game, "draw discard")
    return game


def test_a_meld_that_would_strand_the_taken_discard_is_refused() -> None:
    game = taken_5h("meld_at_once")
    # After QS KS JK only 5C 5D 5H would be left: melding all three leaves nothing to discard.
    assert_illegal(game, "meld QS KS JK", STRANDED_5H)
    assert Meld((tuple(parse_cards("QS KS JK")),)) not in game.legal_actions()
    # 5C 5D JK leaves the 5H a place on the new set: that is allowed.
    assert Meld((tuple(parse_cards("5C 5D JK")),)) in game.legal_actions()
    play(game, "meld 5C 5D 5H", "discard KS")
    assert table_text(game) == ["7H 8H 9H", "5C 5D 5H"]


def test_each_laying_weighs_its_own_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    # At one position per laying's check each laying here needs only its own; a search carried over
    # from the check before would count the next laying's position past the bound and refuse it.
    monkeypatch.setattr(laying, "MAX_SWAP_POSITIONS", 1)
    monkeypatch.setattr(laying, "_VERDICTS", PerVariant(lambda variant: {}))
    game = taken_5h("meld_at_once")
    assert [str(action) for action in game.legal_actions()] == [
        "meld 5C 5D JK",
        "meld 5C 5H JK",
        "meld 5D 5H JK",
        "meld 5C 5D 5H",
        "meld 5C 5D 5H JK",
        "build 1 JK high",
        "build 1 JK low",
        "build 1 5H JK low",
    ]
    play(game, "meld 5C 5D JK", "build 2 5H", "discard KS")
    assert table_text(game) == ["7H 8H 9H", "5C 5D JK 5H"]


def test_without_meld_at_once_the_same_meld_is_fine() -> None:
    game = taken_5h("always")
    play(game, "meld QS KS JK", "discard 5H")
    assert table_text(game) == ["7H 8H 9H", "QS KS JK"]


@pytest.mark.parametrize("must_meld", [True, False])
def test_a_freed_joker_built_onto_the_table_does_not_pay(must_meld: bool) -> None:
    game = table_position({"released_joker_must_be_melded": must_meld}, "5H 6H JK 8H", "7H QS QD")
    play(game, "swap 2 7H")
    assert hand_text(game, 0) == ["JK", "KH", "QD", "QS"]
    if must_meld:
        assert_illegal(game, "build 1 JK", JOKER_BUILT)
        play(game, "meld QS QD JK", "discard KH")
        assert table_text(game)[-1] == "QS QD JK"
    else:
        play(game, "build 1 JK", "discard KH")
        assert table_text(game)[0] == "5S 6S 7S JK"


def test_a_joker_taken_from_the_discard_pile_and_a_freed_joker_are_owed_separately() -> None:
    game = new_game(
        {
            "hand_size": 7,
            "opening_threshold": 0,
            "discard_draw": "meld_at_once",
            "released_joker_must_be_melded": True,
        },
        ["7C 8C 9C 3D 5H 5S KC", "2D JK 4D 5D 6D JK 9S"],
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 7C 8C 9C", "discard 2C")
    play(game, "draw stock", "meld 2D JK 4D 5D 6D", "discard JK")
    play(game, "draw discard")
    assert game.owed_cards() == (JOKER,)
    assert Swap(2, (parse_card("3D"),)) in game.legal_actions()
    play(game, "swap 2 3D")
    # One joker for the discard taken, one freed: both go into the new meld.
    assert game.owed_cards() == (JOKER, JOKER)
    assert_illegal(
        game, "discard KC", "you took JK from the discard pile: meld or build it before you discard"
    )
    play(game, "meld 5H 5S JK JK", "discard KC")
    assert game.results[-1].winner == 0


def test_a_build_that_leaves_the_taken_discard_only_a_joker_swap_is_allowed() -> None:
    """ann takes 6H (layable as 6S 6D 6H) and builds 6S onto her run: the 6H can then go only in place of
    bob's joker, and the swap pays for it as a meld would."""
    game = new_game(
        {"hand_size": 7, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        ["3S 4S 5S 6S 6D KC QD", "5H JK 7H 6H 9C TD 2S"],
        stock="2C 3C",
    )
    play(game, "draw stock", "meld 3S 4S 5S", "discard 2C")
    play(game, "draw stock", "meld 5H JK 7H", "discard 6H")
    play(game, "draw discard")
    assert Build(1, (parse_card("6S"),), "high") in game.legal_actions()
    play(game, "build 1 6S")
    assert game.owed_cards() == (parse_card("6H"),)
    assert game.legal_actions() == [Swap(2, (parse_card("6H"),))]
    # The refusal names the one way left to pay.
    assert_illegal(
        game,
        "discard KC",
        "you took 6H from the discard pile: meld or build it, or swap it for a joker on the table before "
        "you discard",
    )
    play(game, "swap 2 6H", "discard KC")
    assert table_text(game) == ["3S 4S 5S 6S", "5H 6H 7H"]
    assert hand_text(game, 0) == ["6D", "JK", "QD"]


def test_a_freed_joker_a_second_swap_helps_to_meld_may_be_freed() -> None:
    """Neither of ann's swaps alone leaves a meld for its joker; both together do (2D JK JK)."""
    game = new_game(
        {"hand_size": 7, "opening_threshold": 0, "released_joker_must_be_melded": True},
        ["3S 4S 5S 6H 9C 2D KD", "5H JK 7H 8C JK TC 2S"],
        stock="2C 3C 4C",
    )
    play(game, "draw stock", "meld 3S 4S 5S", "discard 2C")
    play(game, "draw stock", "meld 5H JK 7H", "meld 8C JK TC", "discard 2S")
    play(game, "draw stock")
    swaps = [Swap(2, (parse_card("6H"),)), Swap(3, (parse_card("9C"),))]
    assert [action for action in game.legal_actions() if isinstance(action, Swap)] == swaps
    play(game, "swap 2 6H")
    assert_illegal(game, "discard 4C", "the joker you freed must go into a new meld before you discard")
    play(game, "swap 3 9C", "meld 2D JK JK", "discard 4C")
    assert table_text(game) == ["3S 4S 5S", "5H 6H 7H", "8C 9C TC", "2D JK JK"]
    assert hand_text(game, 0) == ["KD"]


MELD_REQUIRED_AT_ONCE = {
    "opening_threshold": 0,
    "discard_draw": "meld_at_once",
    "going_out": "meld_required",
}


def test_a_last_card_a_joker_swap_lays_may_be_left() -> None:
    """Under meld_required, building KD leaves ann 6H, which only a swap can lay: the joker it frees is
    built and she goes out."""
    game = new_game(
        {"hand_size": 7, **MELD_REQUIRED_AT_ONCE},
        ["3S 4S 5S 9D 9C 6H KD", "5H JK 7H TD JD QD 9S"],
        stock="2C 3C 4C",
    )
    play(game, "draw stock", "meld 3S 4S 5S", "discard 2C")
    play(game, "draw stock", "meld 5H JK 7H", "meld TD JD QD", "discard 9S")
    play(game, "draw discard", "meld 9D 9C 9S")
    assert Build(3, (parse_card("KD"),), "high") in game.legal_actions()
    play(game, "build 3 KD")
    assert game.legal_actions() == [Swap(2, (parse_card("6H"),))]
    play(game, "swap 2 6H", "build 1 JK")
    assert game.results[-1].winner == 0


def test_a_last_card_whose_swap_strands_the_freed_joker_is_still_refused() -> None:
    """ann's KH could take the place of the joker in bob's full run, but that joker would have nowhere to
    go (every set is full, the run ends at the king): leaving her the KH is a dead end, refused."""
    game = new_game(
        {"hand_size": 15, "set_maximum": 3, "ace_in_runs": "low", **MELD_REQUIRED_AT_ONCE},
        [
            "9S 9D 9C 7S 7D 7C 8S 8D 8C 4S 4D 5S 5D 5C KH",
            "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH JK 4C 2S",
        ],
        stock="2C 3C",
    )
    play(game, "draw stock", "meld 9S 9D 9C, 7S 7D 7C, 8S 8D 8C", "discard 2C")
    play(game, "draw stock", "meld AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH JK", "discard 4C")
    play(game, "draw discard", "meld 4S 4D 4C")
    assert_illegal(
        game,
        "meld 5S 5D 5C",
        "that would leave you KH, which you could neither lay nor discard: "
        "in this variant you go out by melding your last card",
    )
    assert not [action for action in game.legal_actions() if isinstance(action, Meld)]


def test_under_meld_at_once_a_discard_only_a_joker_swap_could_lay_may_be_taken() -> None:
    """bob can neither meld 6C nor build it (its place in ann's run is the joker's), but may put it in
    the joker's place: taking it is legal, as the swap pays for it as a meld would."""
    game = new_game(
        {
            "hand_size": 7,
            "opening_threshold": 0,
            "discard_draw": "meld_at_once",
            "joker_release_requires_opening": False,
        },
        ["5C JK 7C 6C 2D 9S KH", "2S 3H 8D TD QS 9H 4D"],
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 5C JK 7C", "discard 6C")
    assert DRAW_DISCARD in game.legal_actions()
    assert DRAW_DISCARD in LegalView(game.view(1)).listed()
    play(game, "draw discard")
    assert game.legal_actions() == [Swap(1, (parse_card("6C"),))]
    play(game, "swap 1 6C", "discard 2S")
    assert table_text(game) == ["5C 6C 7C"]
    assert "JK" in hand_text(game, 1)


def test_under_meld_at_once_no_swap_makes_a_discard_takeable_before_opening_where_jokers_wait() -> None:
    # joker_release_requires_opening (classic's): bob has not opened, so the joker is not his to take.
    game = new_game(
        {"hand_size": 7, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        ["5C JK 7C 6C 2D 9S KH", "2S 3H 8D TD QS 9H 4D"],
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 5C JK 7C", "discard 6C")
    assert game.legal_actions() == [DRAW_STOCK]
    assert_illegal(
        game, "draw discard", "you may take 6C only to lay it this turn, and you could not: draw stock"
    )


# ------------------------------------------------------------ a taken card and a freed joker paid together

TAKEN_AND_FREED = {
    "hand_size": 8,
    "opening_threshold": 0,
    "discard_draw": "meld_at_once",
    "released_joker_must_be_melded": True,
}


def test_a_swap_is_accepted_where_the_card_taken_builds_and_the_rest_melds_the_freed_joker() -> None:
    # bob, opened, takes KH (it builds onto TH JH QH) and frees ann's joker with 6D: no new meld holds
    # KH and the joker together, but building KH leaves 5S 6S to meld the joker with.
    game = new_game(
        TAKEN_AND_FREED,
        ["TH JH QH 5D JK 7D KH 3S", "8C 9C TC 5S 6S 6D 2H 9D"],
        discard=None,
        stock="4C 2D 8S 3H",
    )
    play(game, "draw stock", "meld TH JH QH, 5D JK 7D", "discard 3S")
    play(game, "draw stock", "meld 8C 9C TC", "discard 2H", "draw stock", "discard KH")
    play(game, "draw discard", "swap 2 6D")
    assert game.owed_cards() == tuple(parse_cards("KH JK"))
    play(game, "meld 5S 6S JK", "build 1 KH", "discard 9D")
    assert table_text(game) == ["TH JH QH KH", "5D 6D 7D", "8C 9C TC", "5S 6S JK"]


def test_a_swap_before_opening_is_accepted_where_one_opening_lays_the_card_and_the_freed_joker() -> None:
    # kalooki-40 letting jokers be freed before opening: bob takes 8C and frees ann's joker with 6H.
    # Nothing builds 8C; the opening AS AC AH with 8C 9C JK lays both it and the joker.
    variant = load_variant(builtin_variant_path("kalooki-40")).model_copy(
        update={"hand_size": 8, "joker_release_requires_opening": False}
    )
    game = new_game(
        variant, ["5H JK 7H KH KS KD 2C 4D", "AS AC AH 9C 6H 3D 4S TD"], discard=None, stock="8C 2S"
    )
    play(game, "draw stock", "meld 5H JK 7H, KH KS KD", "discard 8C", "draw discard", "swap 1 6H")
    assert game.owed_cards() == tuple(parse_cards("8C JK"))
    play(game, "meld AS AC AH, 8C 9C JK", "discard 3D")
    assert table_text(game) == ["5H 6H 7H", "KH KS KD", "AS AC AH", "8C 9C JK"]


# ---------------------------------------------------------------- melds remembered as paying a debt


def test_a_remembered_lay_that_would_leave_nothing_to_discard_does_not_pay() -> None:
    # Building TH finds 5C 5D 5H paying the 5H taken; after JH that lay still leaves QH to discard, but
    # after QH it would leave nothing, and nothing else lays 5H.
    game = new_game(
        {"hand_size": 8, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        ["7H 8H 9H 5C 5D TH JH QH", "5H 2S 3D 9C TD 4S 6D 8C"],
        discard=None,
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2C", "draw stock", "discard 5H", "draw discard")
    play(game, "build 1 TH", "build 1 JH")
    assert_illegal(game, "build 1 QH", STRANDED_5H)


def test_a_lay_remembered_from_another_player_does_not_pay_before_opening() -> None:
    # ann, opened, took bob's 8C and paid it with 8C 9C JK, found when she built 4H. bob holds the same
    # cards once he takes her other 8C and frees her first joker with 6H, but he has not opened and
    # 8C 9C JK (27) does not open on 40: no way lays the 8C, so he may not take it.
    variant = load_variant(builtin_variant_path("kalooki-40")).model_copy(
        update={"hand_size": 11, "joker_release_requires_opening": False}
    )
    game = new_game(
        variant,
        ["5H JK 7H KH KS KD 4H 9C JK 8C QS", "6H 9C 8C 2S 3D 5C 7S TD QC JD 4D"],
        discard=None,
        stock="2D 4S 3H",
    )
    play(game, "draw stock", "meld 5H JK 7H, KH KS KD", "discard 2D", "draw stock", "discard 8C")
    play(game, "draw discard", "build 1 4H", "meld 8C 9C JK", "discard 8C")
    assert game.legal_actions() == [DRAW_STOCK]
    assert_illegal(
        game, "draw discard", "you may take 8C only to lay it this turn, and you could not: draw stock"
    )


def test_a_save_owing_a_freed_joker_before_opening_where_none_may_be_freed_then_is_refused() -> None:
    # bob has not opened and the variant frees jokers only after opening, yet the edited turn owes one:
    # no swap can lead on (he holds 6H, which would free ann's, but may not), so the check refuses it.
    game = new_game(
        {"hand_size": 7, "opening_threshold": 40, "released_joker_must_be_melded": True},
        ["5H JK 7H KH KS KD 2S", "6H JK 2C 4S 9D QC 3H"],
        discard=None,
        stock="8C 3D",
    )
    play(game, "draw stock", "meld 5H JK 7H, KH KS KD", "discard 8C", "draw stock")
    data = game.to_json()
    data["turn"]["jokers_owed"] = 1
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value) == (
        "the saved game is not one play can reach: "
        "the turn owes what its hand can no longer lay, so it could never end"
    )
