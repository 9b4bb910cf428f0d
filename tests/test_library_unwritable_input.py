"""Input a library call cannot write back or show: text holding half of a UTF-16 pair (a lone surrogate,
which no UTF-8 holds), whole numbers too long for a save's reader (over 30 digits) or for Python to write out
(over 4,300). Each was taken, or raised a bare UnicodeEncodeError or ValueError; each is refused in words."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kalooki.engine import Game, SetupError, StateFormatError
from kalooki.loader import VariantError, load_variant, load_variant_text
from kalooki.solver import SolverError, solve
from kalooki.variant import Variant


@pytest.mark.parametrize(
    ("seed", "size"), [(10**30, "31"), (-(10**40), "41"), (10**5000, "over 4,000")], ids=["31", "41", "5001"]
)
def test_a_seed_too_long_for_a_save_is_refused_when_the_game_is_made(seed: int, size: str) -> None:
    # The game was made and played; its save and its log were then refused as holding a number too long.
    with pytest.raises(SetupError) as caught:
        Game(load_variant("classic"), ["a", "b"], seed=seed)
    assert str(caught.value) == (
        f"a seed of {size} digits: give one of at most 30 (a save or a log holds the seed, "
        "and their reader takes no longer number)"
    )
    assert Game(load_variant("classic"), ["a", "b"], seed=-(10**30 - 1)).seed == -(10**30 - 1)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("name: a\ud800\n", "v.yaml:1:8: not valid text: it holds U+D800"),
        ("\udfff: 1\n", "v.yaml:1:1: not valid text: it holds U+DFFF"),
        ("jokers: 4\nextends: 'b\udc80.yaml'\n", "v.yaml:2:12: not valid text: it holds U+DC80"),
    ],
)
def test_variant_text_holding_half_a_utf16_pair_is_refused_where_it_is(text: str, said: str) -> None:
    # Text decoded leniently (surrogateescape) was a UnicodeEncodeError out of the YAML parser.
    with pytest.raises(VariantError) as caught:
        load_variant_text(text, "v.yaml")
    assert (
        str(caught.value) == f"{said}, which is not a character (U+D800 to U+DFFF are halves of UTF-16 pairs)"
    )


def test_a_player_name_holding_half_a_utf16_pair_is_refused() -> None:
    # The game was made, and its save could not be: a UnicodeEncodeError out of save_checksum.
    halves = "which is not a character (U+D800 to U+DFFF are halves of UTF-16 pairs)"
    with pytest.raises(SetupError) as caught:
        Game(load_variant("classic"), ["ann", "b\ud800"], seed=1)
    assert str(caught.value) == f"the player's name 'b\\ud800' is not valid text: it holds U+D800, {halves}"
    state = Game(load_variant("classic"), ["ann", "bob"], seed=1).to_json()
    with pytest.raises(StateFormatError) as refused:
        Game.from_json({**state, "players": ["ann", "\udfffbob"]})
    assert str(refused.value).endswith(
        f"the player's name '\\udfffbob' is not valid text: it holds U+DFFF, {halves}"
    )


HUGE = 10**5000
"""A whole number Python will not write out (over 4,300 digits): every message naming it raised ValueError."""


@pytest.mark.parametrize(
    ("call", "error", "said"),
    [
        (
            lambda: Variant(jokers=HUGE),
            VariantError,
            "Variant: jokers: must be from 0 to 8, got a number of over",
        ),
        (
            lambda: Game(load_variant("classic"), ["a", "b"], turn_limit=HUGE),
            SetupError,
            "the turn limit must be 1 to 1,000,000,000,000, not a number of over 4,000 digits",
        ),
        (
            lambda: Game.from_json(
                {**Game(load_variant("classic"), ["a", "b"], seed=1).to_json(), "hand_number": HUGE}
            ),
            StateFormatError,
            "the saved game is damaged: hand_number: must be at most 1000000000000, got a number of over",
        ),
        (
            lambda: Game.from_json(
                {**Game(load_variant("classic"), ["a", "b"], seed=1).to_json(), "version": HUGE}
            ),
            StateFormatError,
            "the saved game has format version a number of over 4,000 digits;",
        ),
        (
            lambda: solve([0, 1, 2], load_variant("classic"), keep=HUGE),
            SolverError,
            "the hand holds 3 cards and cannot keep a number of over 4,000 digits",
        ),
    ],
    ids=["knob", "turn_limit", "state", "version", "keep"],
)
def test_a_number_too_long_to_write_out_is_said_to_be_one(
    call: Callable[[], object], error: type[Exception], said: str
) -> None:
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value).startswith(said)


def test_a_state_given_in_code_with_a_seed_too_long_for_a_save_is_refused() -> None:
    # Game.from_json took it, and the save it made was refused when read back.
    state = Game(load_variant("classic"), ["a", "b"], seed=1).to_json()
    with pytest.raises(StateFormatError) as caught:
        Game.from_json({**state, "seed": 10**40})
    assert str(caught.value).startswith(
        "the saved game is damaged: seed: must be less than 1" + "0" * 30 + ", got"
    )
    assert Game.from_json({**state, "seed": 10**30 - 1}).seed == 10**30 - 1
