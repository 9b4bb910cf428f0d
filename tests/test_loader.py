"""Loading variants: built-ins, golden error lines, files of other kinds and a rule written in other words
(inheritance: ``tests/test_loader_inheritance.py``; --set and a script's set:, and origins:
``tests/test_loader_overrides.py``; the rules among knobs: ``tests/test_loader_cross_field.py``).

The golden error lines live next to each bad fixture (``bad/NAME.expected``). After a deliberate
change to a message, regenerate them with ``KALOOKI_UPDATE_GOLDEN=1 pytest tests/test_loader.py``
and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from kalooki.loader import (
    Origin,
    VariantError,
    builtin_variant_names,
    builtin_variant_path,
    load_variant,
    load_variant_text,
    resolve_variant,
)
from kalooki.resources import variants_dir
from kalooki.suggestions import suggest_value
from kalooki.variant import CLASSIC, KNOB_NAMES, Variant
from kalooki.variant_checks import cross_field_problems
from kalooki.variant_writer import variant_differences

FIXTURES = Path(__file__).parent / "fixtures" / "variants"
BAD = sorted((FIXTURES / "bad").glob("*.yaml"))
GOOD = sorted((FIXTURES / "good").glob("*.yaml"))
BUILTINS = ["classic", "kaluki-51", "romanian", "czech-500", "czech-300", "kalooki-40", "house-rules"]


def errors(call: Any, *args: Any, **kwargs: Any) -> list[str]:
    with pytest.raises(VariantError) as caught:
        call(*args, **kwargs)
    return str(caught.value).splitlines()


# ----------------------------------------------------------------------------- built-ins


def test_builtin_names() -> None:
    names = builtin_variant_names()
    assert names[0] == "classic"
    assert sorted(names) == sorted(BUILTINS)
    assert builtin_variant_path("czech-500") == variants_dir() / "czech-500.yaml"
    with pytest.raises(VariantError, match="did you mean 'classic'"):
        builtin_variant_path("clasic")


@pytest.mark.parametrize("name", BUILTINS)
def test_builtins_load_cite_a_source_and_carry_the_modeline(name: str) -> None:
    variant = load_variant(name)
    assert variant.name == name
    assert variant.description
    text = (variants_dir() / f"{name}.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schemas/variant.schema.json\n")
    header = " ".join(line for line in text.splitlines()[1:] if line.startswith("#"))
    # Each file's header comment says where its rules come from: a rule text, a site, or the tutorial.
    assert any(word in header for word in ("rules", "kalooki.co.uk", "README")), "cite a source"


def test_classic_is_the_model_defaults() -> None:
    assert variant_differences(CLASSIC, load_variant("classic")) == []
    assert variant_differences(CLASSIC, load_variant("romanian")) == []


def knobs(name: str) -> dict[str, Any]:
    return {knob: value for knob, _, value in variant_differences(CLASSIC, load_variant(name))}


def test_builtin_knobs_follow_the_issue_and_the_seeds() -> None:
    assert knobs("kaluki-51") == {
        "run_minimum": 4,
        "set_joker_release": "any_missing_suit",
        "going_out": "discard_optional",
        "kalooki_allows_building": True,
        "scoring": "winner_collects",
        "goal_score": 250,
        # Seed 001: "a game for 4 players"; "the highest card determines the first dealer"; "the deal move
        # counter-clockwise"; play starts "with the player left of the dealer" (clockwise).
        "min_players": 4,
        "first_dealer": "high_card",
        "deal_direction": "counter_clockwise",
        # "another player may steal the Joker": another than the one who laid it; the deal ends with the
        # draw pile, no upcard.
        "joker_taker": "anyone_but_layer",
        "upcard": False,
        # "the point values shown below are used to add up each players first Meld", "Joker = 25 points".
        "opening_joker_value": "penalty",
    }
    assert load_variant("kaluki-51").opening_threshold == 51
    assert load_variant("kaluki-51").play_direction == "clockwise"
    # Seed 004 where it speaks; everything else classic's default.
    assert knobs("czech-500") == {
        "scoring": "winner_collects",
        "goal_score": 500,
        "joker_penalty": 15,
        "discard_draw": "never",
        "opening_threshold": 0,
        "going_out": "meld_required",
        "turn_discard": "optional",
        "kalooki_bonus": 0,
        "stock_exhausted": "end_hand",
        "upcard": False,
        "set_suits": "may_repeat",
        "set_joker_release": "never",
        "run_joker_release": "never",
    }
    assert load_variant("czech-500").run_minimum == 3
    assert knobs("czech-300") == {**knobs("czech-500"), "goal_score": 300}
    assert knobs("kalooki-40") == {
        "opening_threshold": 40,
        "joker_penalty": 15,
        "ace_in_runs": "high",
        "discard_draw": "meld_at_once",
        "released_joker_must_be_melded": True,
        "goal_score": 151,
        "elimination": True,
        "stock_exhausted": "reshuffle_keep_top",
        "upcard": False,
        "max_players": 5,
    }
    assert load_variant("kalooki-40").goal_score == 151
    assert load_variant("romanian").extends == "classic"
    assert load_variant("czech-300").extends == "czech-500"


# ----------------------------------------------------------------------------- golden corpus


def test_the_bad_corpus_is_large_enough() -> None:
    assert len(BAD) >= 25
    prefixes = {path.name.split("-")[0] for path in BAD}
    assert prefixes == {"yaml", "field", "enum", "cross", "extends", "text"}
    enums = {
        path.stem.removeprefix("enum-").replace("-", "_") for path in BAD if path.stem.startswith("enum-")
    }
    literal_knobs = {
        name
        for name in KNOB_NAMES
        if getattr(Variant.model_fields[name].annotation, "__origin__", None) is not None
    }
    assert literal_knobs <= enums, "every enum knob needs a bad fixture"


@pytest.mark.parametrize("path", BAD, ids=lambda path: path.stem)
def test_bad_fixture_golden_lines(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    relative = f"bad/{path.name}"
    lines = errors(load_variant, relative)
    expected_path = path.with_suffix(".expected")
    if os.environ.get("KALOOKI_UPDATE_GOLDEN"):
        expected_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert lines == expected_path.read_text(encoding="utf-8").splitlines()
    for line in lines:
        assert line.startswith("bad/"), line


@pytest.mark.parametrize(
    ("written", "suggested"),
    [
        ("anticlockwise", " (did you mean 'counter_clockwise'?)"),
        ("anti_clockwise", " (did you mean 'counter_clockwise'?)"),
        ("anti-clockwise", " (did you mean 'counter_clockwise'?)"),
        ("CounterClockwise", " (did you mean 'counter_clockwise'?)"),
        ("clockwize", " (did you mean 'clockwise'?)"),
        # Play to the left is clockwise; "left" got no suggestion, "to the right" none either.
        ("left", " (did you mean 'clockwise'?)"),
        ("to the right", " (did you mean 'counter_clockwise'?)"),
        # A near miss of the opposite gets no suggestion rather than the wrong way round.
        ("antclockwise", ""),
        ("nonclockwise", ""),
    ],
)
def test_a_direction_is_suggested_by_meaning_never_the_opposite(written: str, suggested: str) -> None:
    assert errors(load_variant_text, f"play_direction: {written}\n", "v.yaml") == [
        "v.yaml:1:17: play_direction: expected one of clockwise, counter_clockwise, "
        f"got '{written}'{suggested}"
    ]


@pytest.mark.parametrize(
    ("written", "suggested"),
    [
        # Too far from winner_collects for a close spelling, it got no "did you mean" at all.
        ("winner", " (did you mean 'winner_collects'?)"),
        ("Winner", " (did you mean 'winner_collects'?)"),
        ("win", " (did you mean 'winner_collects'?)"),
        ("penalt", " (did you mean 'penalty'?)"),
        ("wi", ""),  # two letters are taken for no value
        ("loser", ""),
    ],
)
def test_the_start_of_one_value_is_suggested_that_value(written: str, suggested: str) -> None:
    assert errors(load_variant_text, f"scoring: {written}\n", "v.yaml") == [
        f"v.yaml:1:10: scoring: expected one of penalty, winner_collects, got '{written}'{suggested}"
    ]


def test_the_start_of_two_values_suggests_neither() -> None:
    assert suggest_value("disc", ["discard_required", "discard_optional", "meld_required"]) is None
    assert suggest_value("mel", ["discard_required", "discard_optional", "meld_required"]) == "meld_required"


def test_a_negated_value_is_not_suggested_its_opposite() -> None:
    assert errors(load_variant_text, "going_out: discard_not_required\n", "v.yaml") == [
        "v.yaml:1:12: going_out: expected one of discard_required, discard_optional, meld_required, "
        "got 'discard_not_required'"
    ]


@pytest.mark.parametrize("path", GOOD, ids=lambda path: path.stem)
def test_good_fixtures_load(path: Path) -> None:
    variant = load_variant(path)
    assert not cross_field_problems(variant)


def test_oversized_variant_file(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("description: '" + "x" * 70000 + "'\n", encoding="utf-8")
    assert errors(load_variant, path) == [
        f"{path}:1:1: the file is 70016 bytes; at most 65536 bytes (64 KiB) are accepted"
    ]


# ----------------------------------------------------------------------------- writing variant files


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- other files and words


def test_a_game_script_is_not_a_variant(tmp_path: Path) -> None:
    script = write(tmp_path, "game.yaml", "players: [ann, bob]\nseed: 1\nsed: 2\n")
    assert errors(load_variant, script) == [
        f"{script}:1:1: this is a game script, not a variant: run it with `kalooki play {script}`"
    ]
    assert errors(load_variant_text, "hands: []\n", "game.yaml") == [
        "game.yaml:1:1: this is a game script, not a variant: run it with `kalooki play game.yaml`"
    ]
    # A variant with a stray players: number is a variant with a typo, not a script.
    assert errors(load_variant_text, "players: 4\n", "v.yaml") == [
        "v.yaml:1:1: players: unknown key 'players'; did you mean 'max_players'?"
    ]


def test_a_save_or_a_log_is_not_a_variant(tmp_path: Path) -> None:
    # Both are JSON, which YAML reads: a save was a screen of unknown keys ("checksum: did you mean
    # 'decks'?"), a log a YAML error on its second line, a big save "the file is over 64 KiB".
    head = '{"format":"kalooki-save","version":1,"checksum":"0","session":{},"game":{"hands":[]}}'
    save = write(tmp_path, "g.kalooki-save.json", head)
    big = write(tmp_path, "big.json", head.replace("[]", f'["{"x" * 70_000}"]'))
    records = '{"type":"game","format":"kalooki-log","version":1}\n{"type":"deal"}\n'
    log = write(tmp_path, "game.jsonl", records)
    for path in (save, big):
        assert errors(load_variant, path) == [
            f"{path}:1:1: this is a saved game, not a variant: continue it with `kalooki resume {path}`"
        ]
    assert errors(load_variant, log) == [
        f"{log}:1:1: this is a game log, not a variant: replay it with `kalooki replay {log}`"
    ]
    # JSON that is a variant stays one.
    text = '{"jokers": 4, "description": "not a \\"format\\": \\"kalooki-save\\""}'
    variant = write(tmp_path, "v.json", text)
    assert load_variant(variant).jokers == 4


def test_yaml_errors_that_leave_the_data_usable_do_not_hide_the_others() -> None:
    text = "decks: &two 2\njokers: !!int 3\nace_value: *two\nopenng_threshold: 40\ndecks: 3\n"
    assert errors(load_variant_text, text, "v.yaml") == [
        "v.yaml:1:8: anchor &two is not allowed: anchors and aliases are not supported",
        "v.yaml:2:9: tag !!int is not allowed: remove it",
        "v.yaml:3:12: alias *two is not allowed: write the value out in full",
        "v.yaml:4:1: openng_threshold: unknown key 'openng_threshold'; did you mean 'opening_threshold'?",
        "v.yaml:5:1: decks: duplicate key (first given on line 1): give it once",
    ]
    # A syntax error leaves nothing to validate: it is reported alone.
    assert errors(load_variant_text, "decks: [1\nopenng_threshold: 40\n", "v.yaml") == [
        "v.yaml:1:8: YAML syntax: the list that opens here with '[' is never closed (no ']' before line 2)"
    ]


def test_a_defaulted_name_comes_from_the_file_name(tmp_path: Path) -> None:
    resolved = resolve_variant(write(tmp_path, "friday.yaml", "jokers: 4\n"))
    assert resolved.origins["name"] == Origin("stem", f"{tmp_path}/friday.yaml")
    assert str(resolved.origins["name"]) == f"the name of {tmp_path}/friday.yaml"


DOCUMENTED_KEY_SUGGESTIONS = {
    "jokers_per_pack": "did you mean 'jokers'?",
    "joker_cost": "did you mean 'joker_penalty'?",
    "points_to_open": "did you mean 'opening_threshold'?",
    "run_length": "did you mean 'run_minimum'?",
    "first_to": "did you mean 'goal_score'?",
    "variant": "did you mean 'extends'?",
    "openng_threshold": "did you mean 'opening_threshold'?",
    "discard_only_to_lay": "the knobs about discard: discard_draw, turn_discard",
}
"""The unknown keys docs/variants.md gives as examples, and what the loader answers each."""


@pytest.mark.parametrize("key", DOCUMENTED_KEY_SUGGESTIONS)
def test_the_key_suggestions_the_docs_give_are_the_loaders(key: str) -> None:
    # The docs' example of a key in a player's own words had come to be answered another way.
    docs = (Path(__file__).resolve().parent.parent / "docs" / "variants.md").read_text(encoding="utf-8")
    assert f"`{key}`" in " ".join(docs.split())
    answer = f"v.yaml:1:1: {key}: unknown key '{key}'; {DOCUMENTED_KEY_SUGGESTIONS[key]}"
    assert errors(load_variant_text, f"{key}: 1\n", "v.yaml") == [answer]


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("kalooki_penalty", "kalooki_bonus"),  # spelling alone said joker_penalty, another rule
        ("points_to_win", "goal_score"),  # these three were told only that variants show lists the knobs
        ("winner_takes_all", "scoring"),
        ("reshuffle", "stock_exhausted"),
        ("players", "max_players"),  # a table's size is its most: min_players would refuse a smaller one
        ("variant", "extends"),  # a game script's key for its variant; this and the next were told only
        ("base", "extends"),  # that `kalooki variants show classic` lists the knobs
        ("inherits_from", "extends"),
    ],
)
def test_a_rule_in_a_players_words_is_told_its_knob(key: str, meant: str) -> None:
    answer = f"v.yaml:1:1: {key}: unknown key '{key}'; did you mean '{meant}'?"
    assert errors(load_variant_text, f"{key}: 1\n", "v.yaml") == [answer]


def test_a_kalooki_bonus_below_zero_is_told_how_winner_collects_writes_it() -> None:
    # A room's "-25 from each loser's score" was refused as "must be at least 0, got -25", and no more.
    assert errors(load_variant_text, "extends: czech-500\nkalooki_bonus: -25\n", "v.yaml") == [
        "v.yaml:2:16: kalooki_bonus: must be from 0 to 1000, got -25 "
        "(the points each other player is charged: "
        "under scoring: winner_collects they are taken from their scores, so '-25 to each loser' is "
        "kalooki_bonus: 25 there)"
    ]


def test_two_bases_read_as_one_name_are_told_apart() -> None:
    # The second base's '- ' indented deeper: 'classic - kalooki-40' was offered 'kalooki-40', dropping
    # classic.
    said = (
        "unknown variant 'classic - kalooki-40': it reads as one name of 'classic', 'kalooki-40'; to extend "
        "each, write them as a list, each base on a line of its own with its '- ' in the same column"
    )
    text = "extends:\n  - classic\n   - kalooki-40\n"
    assert errors(load_variant_text, text, "v.yaml") == [f"v.yaml:2:5: extends[0]: {said}"]


def test_a_discard_taken_to_meld_at_once_in_other_words_is_told_its_value() -> None:
    # 'meld_immediately' was told the allowed values and no more.
    said = errors(load_variant_text, "discard_draw: meld_immediately\n", "v.yaml")
    assert said[0].endswith("got 'meld_immediately' (did you mean 'meld_at_once'?)")
