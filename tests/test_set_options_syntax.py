"""A ``--set KEY=VALUE`` value YAML cannot read is said in the project's words, at the mistake, with
the words the same mistake in a variant file gets (``FILE:LINE:COL: YAML syntax: ...``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kalooki.grid import parse_grid
from kalooki.loader import MappingOverrides, VariantError, load_variant, load_variant_text
from kalooki.set_options import parse_set_options
from kalooki.yamlio import load_yaml_text

BACKSLASH = "inside double quotes write a backslash as \\\\, or use single quotes"
AFTER_QUOTE = "text after the closing quote: put all of the value inside the quotes"
NEVER_CLOSED = "the quoted text that starts here is never closed (no closing"
UNCLOSED_DOUBLE, UNCLOSED_SINGLE = f'{NEVER_CLOSED} ")', f"{NEVER_CLOSED} ')"


def set_errors(*options: str) -> list[str]:
    with pytest.raises(VariantError) as caught:
        parse_set_options(options)
    return str(caught.value).splitlines()


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ('name="\\q"', f"--set:1:7: name: \\q is not an escape: {BACKSLASH}"),
        ('name="ab\\qc"', f"--set:1:9: name: \\q is not an escape: {BACKSLASH}"),
        (
            'name="\\x4G"',
            "--set:1:7: name: \\x4G is not an escape: \\x is followed by 2 hexadecimal digits "
            f"(\\x41 is A); {BACKSLASH}",
        ),
        (
            'description="C:\\xfiles"',
            "--set:1:16: description: \\xfi is not an escape: \\x is followed by 2 hexadecimal digits "
            f"(\\x41 is A); {BACKSLASH}",
        ),
        (
            'name="\\u12"',
            "--set:1:7: name: \\u12 is not an escape: \\u is followed by 4 hexadecimal digits "
            f"(\\u00E9 is é); {BACKSLASH}",
        ),
        (
            'name="\\U0001F6"',
            "--set:1:7: name: \\U0001F6 is not an escape: \\U is followed by 8 hexadecimal digits "
            f"(\\U000000E9 is é); {BACKSLASH}",
        ),
        ('name="abc', f"--set:1:6: name: {UNCLOSED_DOUBLE}"),
        ("name='abc", f"--set:1:6: name: {UNCLOSED_SINGLE}"),
        # A backslash last escapes the closing quote: the quoted text never ends.
        ('name="abc\\"', f"--set:1:6: name: {UNCLOSED_DOUBLE}"),
        ('name="abc\\', f"--set:1:6: name: {UNCLOSED_DOUBLE}"),
        (
            "name='it's'",
            "--set:1:9: name: this apostrophe ends the single-quoted text: inside single quotes write it "
            "twice (it''s), or use double quotes",
        ),
        (
            'name="say "hi""',
            '--set:1:11: name: this " ends the double-quoted text: inside double quotes write it as \\" '
            '(\\"hi), or use single quotes',
        ),
        ('name="a" b', f"--set:1:10: name: {AFTER_QUOTE}"),
        ("name='a' 'b'", f"--set:1:10: name: {AFTER_QUOTE}"),
        ("name='a': b", f"--set:1:9: name: {AFTER_QUOTE}"),
        ('name="a",', f"--set:1:9: name: {AFTER_QUOTE}"),
        ('name="a" {b: 1}', f"--set:1:10: name: {AFTER_QUOTE}"),
        ('name="a" [1,2', f"--set:1:10: name: {AFTER_QUOTE}"),
        ('name="a" - b', f"--set:1:10: name: {AFTER_QUOTE}"),
        ("name='a' &anchor", f"--set:1:10: name: {AFTER_QUOTE}"),
        ("name='a' *alias", f"--set:1:10: name: {AFTER_QUOTE}"),
        ('name="a" !!python/object:os.system', f"--set:1:10: name: {AFTER_QUOTE}"),
        ('name="a" %YAML 1.2', f"--set:1:10: name: {AFTER_QUOTE}"),
        ("name='a'\n'b'", f"--set:1:10: name: {AFTER_QUOTE}"),
        ('name="a"\n---\n"b"', f"--set:1:10: name: {AFTER_QUOTE}"),
        ("name='a\n---\nb'", f"--set:1:6: name: {UNCLOSED_SINGLE}"),
        ("name=a\tb", "--set:1:7: name: tab character: write spaces instead"),
        ('name="a\tb"', "--set:1:8: name: tab character: write spaces instead"),
        ('name="a\x01"', "--set:1:8: name: non-printable character U+0001 is not allowed"),
        ('name= "\\q"', f"--set:1:8: name: \\q is not an escape: {BACKSLASH}"),
    ],
)
def test_a_value_yaml_cannot_read_is_said_at_the_mistake(option: str, expected: str) -> None:
    assert set_errors(option) == [expected]


@pytest.mark.parametrize(
    "value",
    ['"\\q"', '"\\x4G"', '"\\u12"', '"abc', "'it's'", '"say "hi""', '"a" b', '"a" !!str', '"a" &x'],
)
def test_a_file_and_a_set_option_say_the_same_mistake_alike(value: str) -> None:
    with pytest.raises(VariantError) as caught:
        load_variant_text(f"extends: classic\nname: {value}\n", "v.yaml")
    [in_file] = str(caught.value).splitlines()
    [in_option] = set_errors(f"name= {value}")
    # "name: " and "name= " are as long: the column is the same, and so are the words.
    assert in_file.removeprefix("v.yaml:2:") == in_option.removeprefix("--set:1:").replace(
        "name: ", "YAML syntax: ", 1
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "name: %YAML 1.2",
            "v.yaml:2:7: YAML syntax: plain text cannot start with %: put the text in quotes",
        ),
        ("name: @ours", "v.yaml:2:7: YAML syntax: plain text cannot start with @: put the text in quotes"),
        ("description: {a: 'x' y}", f"v.yaml:2:22: YAML syntax: {AFTER_QUOTE}"),
    ],
)
def test_a_file_says_these_in_plain_words_too(line: str, expected: str) -> None:
    with pytest.raises(VariantError) as caught:
        load_variant_text(f"extends: classic\n{line}\n", "v.yaml")
    assert str(caught.value).splitlines() == [expected]


def test_a_grid_value_is_said_alike_at_its_place() -> None:
    with pytest.raises(VariantError) as caught:
        parse_grid(['opening_threshold=40,"5\\q"'])
    assert str(caught.value).splitlines() == [
        f"--grid:1:24: opening_threshold: \\q is not an escape: {BACKSLASH}"
    ]


@pytest.mark.parametrize(
    "command", [["validate", "classic"], ["rules", "classic"], ["simulate", "classic", "--games", "1"]]
)
def test_a_real_process_says_it_in_one_line(tmp_path: Path, command: list[str]) -> None:
    kalooki = os.fsencode(Path(sys.executable).with_name("kalooki"))
    result = subprocess.run(
        [kalooki, *command, "--set", 'name="\\q"'],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"--set:1:7: name: \\q is not an escape: {BACKSLASH}\n"
    assert list(tmp_path.iterdir()) == []


def test_a_set_asking_for_the_number_of_players_is_told_the_option_that_gives_it() -> None:
    # max_players, the knob a table's size names, bounds the table; it does not seat three.
    table = (
        " (the number of players at the table is the --players option of kalooki play, host, simulate"
        " and sweep)"
    )
    assert set_errors("players=3") == [
        f"--set:1:1: players: unknown key 'players'; did you mean 'max_players'?{table}"
    ]
    assert set_errors("goal_score=200", "number_of_players=3") == [
        f"--set:2:1: number_of_players: unknown key 'number_of_players'; did you mean 'max_players'?{table}"
    ]
    # Other unknown keys are not.
    assert set_errors("playerz=3") == [
        "--set:1:1: playerz: unknown key 'playerz'; did you mean 'min_players'?"
    ]


def test_several_knobs_in_one_set_are_told_to_go_one_a_set() -> None:
    # It said "expected a whole number, got '40,jokers=4'".
    each = "give each knob its own --set: --set opening_threshold=40 --set jokers=4"
    assert set_errors("opening_threshold=40,jokers=4") == [f"--set:1:21: opening_threshold: {each}"]
    # A comma in text is text: only a knob's name after it reads as another knob.
    assert parse_set_options(["description=House, rule=ours"]).values == {"description": "House, rule=ours"}
    assert set_errors("goal_score=1,000") == [
        "--set:1:12: goal_score: expected a whole number, got '1,000': write the number without its commas "
        "(1000)"
    ]


@pytest.mark.parametrize(
    ("option", "meant"),
    [
        # A family's words for its rules: spelling alone offered turn_discard, or nothing.
        ("pick_up_discard=meld_at_once", "discard_draw"),
        ("pickup_discard=meld_at_once", "discard_draw"),
        ("take_discard=never", "discard_draw"),
        ("open=40", "opening_threshold"),
        ("to_open=40", "opening_threshold"),
        # One word is the whole key: a key with more words goes by its spelling.
        ("joker_release_requires_open=true", "joker_release_requires_opening"),
        # A house's "first to 300", "40 to open with", "jokers wild" were offered first_dealer, play_direction
        # or nothing; "first to open" and "first to deal" stay their own rules.
        ("first_to=300", "goal_score"),
        ("play_to=300", "goal_score"),
        ("game_to=300", "goal_score"),
        ("target_points=300", "goal_score"),
        ("first_to_open=40", "opening_threshold"),
        ("open_with=40", "opening_threshold"),
        ("initial_meld=40", "opening_threshold"),
        ("first_to_deal=high_card", "first_dealer"),
        ("play_to_left=clockwise", "play_direction"),
        ("wild_cards=4", "jokers"),
        ("penalty_joker=15", "joker_penalty"),
        ("pickup_rule=never", "discard_draw"),
    ],
)
def test_a_knob_in_a_players_words_is_suggested(option: str, meant: str) -> None:
    key = option.partition("=")[0]
    assert set_errors(option) == [f"--set:1:1: {key}: unknown key '{key}'; did you mean '{meant}'?"]


def test_jokers_given_a_penalty_s_worth_names_the_penalty() -> None:
    # "Jokers are 15 here": jokers: 15 said only that 8 is the most.
    assert set_errors("jokers=15") == [
        "--set:1:8: jokers: must be from 0 to 8, got 15 "
        "(the jokers in the pack: what a joker costs in hand is "
        "joker_penalty)"
    ]
    assert set_errors("jokers=9") == ["--set:1:8: jokers: must be from 0 to 8, got 9"]


def test_a_set_naming_a_variant_is_told_it_changes_knobs_not_the_variant() -> None:
    # A variant file's `variant:` or `base:` is taken for extends; a --set's was told "did you mean
    # 'extends'?", which --set refuses, as a script's set: and a mapping of overrides do.
    given = "changes the knobs of the variant given, not which it is"
    assert set_errors("variant=kalooki-40", "extend=classic") == [
        f"--set:1:1: variant: unknown key 'variant'; --set {given}",
        f"--set:2:1: extend: unknown key 'extend'; --set {given}",
    ]
    script = load_yaml_text("variant: classic\nset:\n  base: kalooki-40\n", "game.yaml")
    with pytest.raises(VariantError) as raised:
        load_variant("classic", mapping_overrides=MappingOverrides(script, ("set",)))
    assert [str(item) for item in raised.value.diagnostics] == [
        f"game.yaml:3:3: set.base: unknown key 'base'; set: {given}"
    ]
    with pytest.raises(VariantError) as raised:
        load_variant("classic", {"variant": "kalooki-40"})
    assert [str(item) for item in raised.value.diagnostics] == [
        f"overrides: variant: unknown key 'variant'; the mapping {given}"
    ]
