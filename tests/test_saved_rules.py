"""Rules kalooki saved (a save, a log's header, a table's welcome) are read as the kalooki that wrote them
played them: a check added since, that a value can never be reached, does not lock the game out; rules
from a newer kalooki are said to be such."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kalooki.engine import Game
from kalooki.errors import KalookiError
from kalooki.gamestate import StateFormatError
from kalooki.loader import VariantError, load_variant
from kalooki.log import GameRecorder, ReplayError, replay
from kalooki.saved_rules import SavedRulesError, read_saved_rules
from kalooki.variant import DEFER_CROSS_FIELD, Variant

# An earlier kalooki dealt games under these: a set larger than two decks and two jokers can make
# (10 cards), and an opening no 14 cards reach.
OUT_OF_REACH = [
    {"set_suits": "may_repeat", "set_maximum": 26},
    {"opening_threshold": 200},
]


def dealt_under(knobs: dict[str, Any]) -> Game:
    rules = {**load_variant("classic").model_dump(mode="json"), **knobs}
    game = Game(Variant.model_validate(rules, context={DEFER_CROSS_FIELD: True}), ["Ann", "Bob"], seed=3)
    game.apply(game.legal_actions()[0])  # a draw: the game is under way
    return game


@pytest.mark.parametrize("knobs", OUT_OF_REACH, ids=["set_maximum", "opening_threshold"])
def test_a_saved_game_under_rules_a_later_check_refuses_resumes_and_its_log_replays(
    knobs: dict[str, Any],
) -> None:
    with pytest.raises(VariantError, match="can never be reached"):
        load_variant("classic", [f"{knob}={value}" for knob, value in knobs.items()])
    saved = dealt_under(knobs)
    assert Game.from_json(saved.to_json()).to_json() == saved.to_json()
    game = Game(saved.variant, ["Ann", "Bob"], seed=3)
    recorder = GameRecorder(game)
    for _ in range(6):
        recorder.record(game, game.apply(game.legal_actions()[0]))
    summary = replay(recorder.records)
    assert (summary.actions, summary.state) == (6, recorder.records[-1]["state"])


def test_a_saved_game_of_a_variant_with_a_blank_name_resumes() -> None:
    # Blank names were accepted once: a game saved under one is read as it was written.
    data = dealt_under({}).to_json()
    data["variant"].update(name="  ")
    assert Game.from_json(data).to_json() == data
    with pytest.raises(ValueError, match="is blank"):
        Variant(name="  ")


def test_a_contradiction_in_saved_rules_is_still_refused() -> None:
    # Not a value out of reach: sets of distinct suits with six cards would break the rules of play.
    data = dealt_under({}).to_json()
    data["variant"].update(set_maximum=6)
    with pytest.raises(StateFormatError) as refused:
        Game.from_json(data)
    assert str(refused.value) == (
        "the saved game's rules are invalid: variant: set_maximum (6) needs set_suits: may_repeat: "
        "a set of distinct suits holds at most 4 cards"
    )


def test_rules_from_a_newer_kalooki_are_said_to_be_such() -> None:
    data = dealt_under({}).to_json()
    data["variant"]["meld_bonus"] = 5
    with pytest.raises(StateFormatError) as save:
        Game.from_json(data)
    assert str(save.value) == (
        "the saved game's rules use 'meld_bonus', a knob this kalooki does not know: a newer kalooki wrote "
        "them; upgrade kalooki to load it"
    )
    records = copy.deepcopy(GameRecorder(dealt_under({})).records)
    records[0]["variant"]["meld_bonus"] = 5
    with pytest.raises(ReplayError) as log:
        replay(records)
    assert str(log.value) == (
        "record 1: the log's rules use 'meld_bonus', a knob this kalooki does not know: a newer kalooki "
        "wrote them; upgrade kalooki to read it"
    )


def test_a_newer_knob_named_like_a_knob_of_this_kalooki_is_no_misspelling() -> None:
    # run_maximum read as a misspelt run_minimum: the user was told to mend a file kalooki wrote.
    rules = {**dealt_under({}).to_json()["variant"], "run_maximum": 8}
    with pytest.raises(SavedRulesError) as refused:
        read_saved_rules(rules, "the saved game's rules", upgrade="upgrade kalooki to load it")
    assert str(refused.value) == (
        "the saved game's rules use 'run_maximum', a knob this kalooki does not know: a newer kalooki wrote "
        "them; upgrade kalooki to load it"
    )
    assert isinstance(refused.value, KalookiError)
