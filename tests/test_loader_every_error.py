"""One run of the loader says every mistake of a variant file it can, each in words that lead to a fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from kalooki.grid import load_cells, parse_grid
from kalooki.loader import VariantError, load_variant, load_variant_text
from kalooki.set_options import parse_set_options

PACK = (
    "hand_size: max_players * hand_size + 1 = 4 * 26 + 1 = 105 cards do not fit in the pack of "
    "decks * 52 + jokers = 1 * 52 + 4 = 56 (2 players fit: max_players: 2)"
)


def errors(path: Path, *overrides: str, option: str = "--set") -> list[str]:
    with pytest.raises(VariantError) as caught:
        load_variant(path, parse_set_options(overrides, option) if overrides else ())
    return str(caught.value).splitlines()


def text_errors(text: str) -> list[str]:
    """The lines a variant file named v.yaml holding ``text`` is refused with."""
    with pytest.raises(VariantError) as caught:
        load_variant_text(text, "v.yaml")
    return str(caught.value).splitlines()


def write(directory: Path, text: str, name: str = "p.yaml") -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("colour: red", "1: colour: unknown key 'colour'; `kalooki variants show classic` lists every knob"),
        (
            "elimination: True",
            "14: elimination: expected true or false, got 'True': "
            "only lowercase true and false are booleans: write true",
        ),
        ("name: 5", "7: name: expected text, got 5 (put it in quotes to make it text)"),
    ],
)
def test_a_key_in_error_does_not_hide_the_rules_among_the_other_knobs(
    tmp_path: Path, line: str, said: str
) -> None:
    path = write(tmp_path, f"jokers: 4\nhand_size: 26\ndecks: 1\n{line}\n")
    assert errors(path) == [f"{path}:2:12: {PACK}", f"{path}:4:{said}"]


def test_an_unknown_key_hides_only_the_rules_of_the_knob_it_is_taken_for(tmp_path: Path) -> None:
    path = write(tmp_path, "opening_threshold: 900\nfoo: 1\n")
    assert errors(path) == [
        f"{path}:1:20: opening_threshold: opening_threshold (900) can never be reached: a first meld holds "
        "at most 13 cards (hand_size 13) worth at most 11 each",
        f"{path}:2:1: foo: unknown key 'foo'; `kalooki variants show classic` lists every knob",
    ]
    # `jokerz` is taken for jokers, still at its base's value: whether the pack is big enough waits.
    path = write(tmp_path, "jokerz: 4\nhand_size: 26\ndecks: 1\n")
    assert errors(path) == [f"{path}:1:1: jokerz: unknown key 'jokerz'; did you mean 'jokers'?"]


def test_a_rule_broken_with_a_bases_value_says_where_that_value_came_from(tmp_path: Path) -> None:
    path = write(tmp_path, "extends: kalooki-40\nscoring: winner_collects\n")
    assert errors(path) == [
        f"{path}:2:10: scoring: elimination needs scoring: penalty (with winner_collects the first to "
        "goal_score wins); elimination: true comes from kalooki-40 (or write elimination: false here)"
    ]
    path = write(tmp_path, "extends: kalooki-40\nace_low_value: 1\n")
    assert errors(path) == [
        f"{path}:2:16: ace_low_value: ace_low_value is for an ace below the two (A-2-3) under ace_in_runs: "
        "high_or_low or low, but with ace_in_runs: high no run holds an ace below the two: leave it out "
        "(null); ace_in_runs: high comes from kalooki-40 (or write ace_in_runs: high_or_low here)"
    ]
    assert errors(path, "ace_in_runs=low", "scoring=winner_collects") == [
        "--set:2:9: scoring: elimination needs scoring: penalty (with winner_collects the first to "
        "goal_score wins); elimination: true comes from kalooki-40 (or add --set elimination=false)"
    ]
    # Said at a --set, the rule names the file asked for too: the other value is not on that line.
    path = write(tmp_path, "elimination: true\n")
    assert errors(path, "scoring=winner_collects") == [
        "--set:1:9: scoring: elimination needs scoring: penalty (with winner_collects the first to "
        f"goal_score wins); elimination: true comes from {path} (or add --set elimination=false)"
    ]
    # The way out is given to the option the rule is said at: B's --compare-set, A's --set-a, not --set,
    # which would change the other variant; a sweep's --grid cells share --set.
    for option in ("--compare-set", "--set-a"):
        assert errors(path, "scoring=winner_collects", option=option) == [
            f"{option}:1:9: scoring: elimination needs scoring: penalty (with winner_collects the first to "
            f"goal_score wins); elimination: true comes from {path} (or add {option} elimination=false)"
        ]
    with pytest.raises(VariantError) as caught:
        load_cells(path, [], parse_grid(["scoring=penalty,winner_collects"]))
    assert str(caught.value).endswith(f"elimination: true comes from {path} (or add --set elimination=false)")
    # Said in the file, its own value is the author's own: not said to come from anywhere.
    path = write(tmp_path, "elimination: true\nscoring: winner_collects\n")
    assert errors(path) == [
        f"{path}:1:14: elimination: elimination needs scoring: penalty (with winner_collects the first to "
        "goal_score wins)"
    ]


COLON = "YAML syntax: a colon followed by a space inside a value is read as another key: "


def test_a_knobs_value_run_into_the_next_key_is_said_to_want_its_own_line(tmp_path: Path) -> None:
    # In quotes, "40  jokers: 2" would be text, which no knob takes: the line feed was forgotten.
    path = write(tmp_path, "decks: 2\nopening_threshold: 40  jokers: 2\n", "ours.yaml")
    assert errors(path) == [
        f"{path}:2:30: {COLON}write one key per line: opening_threshold: 40, then jokers: 2 "
        "on a line of its own"
    ]
    assert errors(write(tmp_path, "extends: ours.yaml\n", "top.yaml")) == [
        f"{tmp_path}/ours.yaml:2:30: {COLON}write one key per line: opening_threshold: 40, then jokers: 2 "
        "on a line of its own",
    ]
    with pytest.raises(VariantError) as caught:
        load_variant_text("scoring: penalty  jokers: 2\n", "text.yaml")
    assert str(caught.value) == (
        f"text.yaml:1:25: {COLON}write one key per line: scoring: penalty, then jokers: 2 "
        "on a line of its own"
    )
    # Text may hold a colon: in quotes, it does.
    path = write(tmp_path, "description: Friday: at ours\n")
    assert errors(path) == [f'{path}:1:20: {COLON}put the value in quotes: description: "Friday: at ours"']


def test_a_misspelt_extends_hides_the_rules_its_bases_would_have_changed(tmp_path: Path) -> None:
    write(tmp_path, "decks: 3\n", "three.yaml")
    path = write(tmp_path, "extend: three.yaml\nmax_players: 8\njokers: 0\n")
    # Over classic's two packs eight hands would not fit; over the base meant, three packs, they do.
    assert errors(path) == [f"{path}:1:1: extend: unknown key 'extend'; did you mean 'extends'?"]


def test_an_ace_low_value_under_wrap_says_why_wrap_has_none(tmp_path: Path) -> None:
    """Wrap lays A-2-3, so "for an ace below the two" alone read as wrong: under wrap a run's ace is
    valued by its place on the wrapped line, next to the king as much as the two."""
    path = write(tmp_path, "ace_in_runs: wrap\nace_low_value: 1\n")
    assert errors(path) == [
        f"{path}:2:16: ace_low_value: ace_low_value is for an ace below the two (A-2-3) under ace_in_runs: "
        "high_or_low or low, but with ace_in_runs: wrap an ace counts ace_value wherever it sits in a run "
        "(A-2-3, K-A-2 or Q-K-A): leave it out (null)"
    ]


def test_knobs_under_a_heading_are_told_to_go_at_the_top_level() -> None:
    # A game script's set: copied into a variant file was told "the knobs about set: set_suits, ...".
    def said(text: str) -> list[str]:
        with pytest.raises(VariantError) as caught:
            load_variant_text(text, "v.yaml")
        return str(caught.value).splitlines()

    top = "a variant file gives its knobs at the top level, not under"
    assert said("extends: classic\nset:\n  goal_score: 300\n  jokers: 4\n") == [
        f"v.yaml:2:1: set: unknown key 'set'; {top} set: delete the line set: and unindent the lines below it"
    ]
    assert said("rules:\n  opening_threshold: 40\n") == [
        f"v.yaml:1:1: rules: unknown key 'rules'; {top} rules: delete the line rules: and unindent the lines "
        "below it"
    ]
    # A misspelt key that holds knobs by right is told its spelling (it was told where the knobs are
    # listed, as a misspelt source was).
    assert said("sorce: the club's book\n") == [
        "v.yaml:1:1: sorce: unknown key 'sorce'; did you mean 'source'?"
    ]
    assert said("provenence:\n  jokers: we say so\n") == [
        "v.yaml:1:1: provenence: unknown key 'provenence'; did you mean 'provenance'?"
    ]
    # A mapping holding no knob is only an unknown key.
    assert said("set:\n  colour: red\n") == [
        "v.yaml:1:1: set: unknown key 'set'; the knobs about set: set_suits, set_maximum, set_joker_release"
    ]


def test_a_knob_left_without_a_value_is_told_to_give_one_or_leave_it_out() -> None:
    # "opening_threshold:" with its value yet to be written said only "got nothing (null)".
    assert text_errors("opening_threshold:\ndiscard_draw:\ngoal_score: null\ndescription:\n") == [
        "v.yaml:1:1: opening_threshold: expected a whole number, got nothing (null): give it a value, "
        "or leave the key out",
        "v.yaml:2:1: discard_draw: expected one of always, never, after_opening, before_opening, "
        "meld_at_once, got nothing (null): give it one, or leave the key out",
        # Written null is meant: not to be given a value, but what values there are.
        "v.yaml:3:13: goal_score: expected a whole number, got nothing (null): "
        "write a whole number from 1 to 1000000",
        # Text left out said only "expected text, got nothing (null)".
        "v.yaml:4:1: description: expected text, got nothing (null): give it a value, or leave the key out",
    ]


@pytest.mark.parametrize(
    ("value", "meant"),
    [("ja", "true"), ("oui", "true"), ("sí", "true"), ("Nein", "false"), ("nope", "false"), ("1", "true")],
)
def test_yes_or_no_in_another_language_is_told_the_boolean_it_means(
    tmp_path: Path, value: str, meant: str
) -> None:
    # `elimination: ja` said only "expected true or false, got 'ja'".
    got = value if value.isdigit() else f"'{value}'"
    said = f"expected true or false, got {got}: only true and false are booleans: write {meant}"
    assert errors(write(tmp_path, f"elimination: {value}\n")) == [
        f"{tmp_path / 'p.yaml'}:1:14: elimination: {said}"
    ]
    assert errors(write(tmp_path, "jokers: 4\n", "q.yaml"), f"upcard={value}") == [
        f"--set:1:8: upcard: {said}"
    ]


def test_a_knob_that_may_be_null_says_so_beside_its_numbers() -> None:
    # `ace_low_value: none` (meaning null) was told only to write a whole number from 0 to 1000.
    assert text_errors("ace_in_runs: low\nace_low_value: none\njokers: none\n") == [
        "v.yaml:2:16: ace_low_value: expected a whole number, got 'none': write a whole number "
        "from 0 to 1000, or null",
        "v.yaml:3:9: jokers: expected a whole number, got 'none': write a whole number from 0 to 8",
    ]
