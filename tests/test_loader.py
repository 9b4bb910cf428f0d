"""Loading variants: built-ins, overrides, origins and golden error lines (inheritance:
``tests/test_loader_inheritance.py``).

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
    MappingOverrides,
    Origin,
    VariantError,
    builtin_variant_names,
    builtin_variant_path,
    load_variant,
    load_variant_text,
    resolve_variant,
)
from kalooki.resources import variants_dir
from kalooki.set_options import parse_set_options
from kalooki.suggestions import suggest_value
from kalooki.variant import CLASSIC, KNOB_NAMES, Variant
from kalooki.variant_checks import cross_field_problems
from kalooki.variant_writer import variant_differences
from kalooki.yamlio import load_yaml_text

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


# ----------------------------------------------------------------------------- overrides


def test_set_options_override_and_are_validated_like_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "extends: classic\nopening_threshold: 30\n")
    variant = load_variant(path, ["opening_threshold=40", "elimination=true", "name='My rules'", "decks=1"])
    assert (variant.opening_threshold, variant.elimination, variant.name, variant.decks) == (
        40,
        True,
        "My rules",
        1,
    )
    assert errors(load_variant, path, ["opening_threshold=yes", "decks=0250", "openng_threshold=3"]) == [
        "--set:1:19: opening_threshold: expected a whole number, got 'yes': "
        "write a whole number from 0 to 1000",
        "--set:2:7: decks: expected a whole number, got '0250': a leading zero is not allowed "
        "(YAML 1.1 reads 0250 as octal 168); write 250",
        "--set:3:1: openng_threshold: unknown key 'openng_threshold'; did you mean 'opening_threshold'?",
    ]


def test_set_option_syntax_errors() -> None:
    options = ["decks", "=3", "extends=classic", "decks='4'", "a b=1", "jokers\u200b=4"]
    assert errors(parse_set_options, options) == [
        "--set:1:1: expected KEY=VALUE (e.g. opening_threshold=40), got 'decks'",
        "--set:2:1: expected KEY=VALUE (e.g. opening_threshold=40), got '=3'",
        "--set:3:1: extends: a variant's bases cannot be changed with --set",
        "--set:4:7: decks: expected a whole number, got '4': in quotes it is text; remove the quotes",
        "--set:5:1: expected KEY=VALUE (e.g. opening_threshold=40), got 'a b=1'",
        # An invisible character in the knob's name is named, as in a file.
        "--set:6:1: expected KEY=VALUE (e.g. opening_threshold=40), got 'jokers\\u200b=4' "
        "(it holds U+200B ZERO WIDTH SPACE; key names are plain ASCII)",
    ]


def test_a_set_option_given_twice_is_refused() -> None:
    # Which of the two values was meant cannot be known: refused, as --baseline refuses a knob named twice.
    assert errors(parse_set_options, ["decks=1", "jokers=2", "decks=3"]) == [
        "--set:3:1: decks: already given by --set option 1: give its value once"
    ]
    assert errors(parse_set_options, ["decks=1", "decks=1"], "--compare-set") == [
        "--compare-set:2:1: decks: already given by --compare-set option 1: give its value once"
    ]


def test_file_errors_and_set_errors_are_reported_together(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "decks: x\n")
    lines = errors(load_variant, path, ["jokers=y"])
    assert lines == [
        f"{path}:1:8: decks: expected a whole number, got 'x': write a whole number from 1 to 4",
        "--set:1:8: jokers: expected a whole number, got 'y': write a whole number from 0 to 8",
    ]


def test_mapping_overrides_from_a_game_script(tmp_path: Path) -> None:
    script = load_yaml_text("variant: czech-500\nset:\n  goal_score: 100\n  jokers: 3\n", "game.yaml")
    resolved = resolve_variant("czech-500", mapping_overrides=MappingOverrides(script, ("set",)))
    assert (resolved.variant.goal_score, resolved.variant.jokers) == (100, 3)
    assert str(resolved.origins["goal_score"]) == "game.yaml:3:15"
    # --set options come last and win over the script's set:.
    assert (
        load_variant("czech-500", ["goal_score=200"], mapping_overrides=MappingOverrides(script)).goal_score
        == 200
    )

    bad = load_yaml_text("variant: classic\nset:\n  goal_score: lots\n  extends: x\n  golf: 1\n", "game.yaml")
    assert errors(load_variant, "classic", mapping_overrides=MappingOverrides(bad)) == [
        "game.yaml:3:15: set.goal_score: expected a whole number, got 'lots': "
        "write a whole number from 1 to 1000000",
        "game.yaml:4:3: set.extends: a variant's bases cannot be changed here",
        "game.yaml:5:3: set.golf: unknown key 'golf'; `kalooki variants show classic` lists every knob",
    ]
    not_a_mapping = load_yaml_text("set: [1]\n", "game.yaml")
    assert errors(load_variant, "classic", mapping_overrides=MappingOverrides(not_a_mapping)) == [
        "game.yaml:1:6: set: expected a mapping of knob names to values, got a list"
    ]
    cross = load_yaml_text("set:\n  elimination: true\n", "game.yaml")
    assert errors(load_variant, "czech-500", mapping_overrides=MappingOverrides(cross)) == [
        "game.yaml:2:16: elimination: elimination needs scoring: penalty "
        "(with winner_collects the first to goal_score wins)"
    ]


def test_reference_position_for_unknown_names_and_missing_files(tmp_path: Path) -> None:
    script = load_yaml_text("variant: clasic\n", "game.yaml")
    where = script.location(("variant",))
    (line,) = errors(load_variant, "clasic", reference=where)
    assert line.startswith("game.yaml:1:10: variant: unknown variant 'clasic' (did you mean 'classic'?)")
    assert errors(load_variant, "rules/x.yaml", base_dir=tmp_path, reference=where) == [
        f"game.yaml:1:10: variant: no such file: {tmp_path}/rules/x.yaml"
    ]
    write(tmp_path, "rules/x.yaml", "jokers: 5\n")
    assert load_variant("rules/x.yaml", base_dir=tmp_path, reference=where).jokers == 5


# ----------------------------------------------------------------------------- cross-field errors


def test_cross_field_errors_point_at_the_most_specific_source(tmp_path: Path) -> None:
    base = write(tmp_path, "base.yaml", "max_players: 8\njokers: 4\n")
    top = write(tmp_path, "top.yaml", "extends: base.yaml\ndecks: 2\nhand_size: 13\njokers: 0\n")
    (line,) = errors(load_variant, top)
    # Within one file, the knob the rule is named after (hand_size) is the one pointed at.
    assert line.startswith(f"{top}:3:12: hand_size: max_players * hand_size + 1 = 8 * 13 + 1 = 105")
    (line,) = errors(load_variant, base, ["jokers=0"])
    assert line.startswith("--set:1:8: jokers: max_players * hand_size + 1")
    (line,) = errors(load_variant, "classic", ["max_players=8", "jokers=0"])
    assert line.startswith("--set:1:13: max_players: ")
    # Two rules are named after set_maximum; distinct suits' four involves neither decks nor jokers: the
    # file's set_maximum is the one to mend, not the --set that changed the decks.
    five = write(tmp_path, "five.yaml", "set_maximum: 5\n")
    (line,) = errors(load_variant, five, ["decks=3"])
    assert line.startswith(f"{five}:1:14: set_maximum: set_maximum (5) needs set_suits: may_repeat")
    (line,) = errors(load_variant, five, ["set_suits=may_repeat", "jokers=0", "decks=1", "max_players=3"])
    assert line == (
        "--set:1:11: set_suits: set_maximum (5) can never be reached: with set_suits: may_repeat, 1 deck and "
        f"0 jokers a set holds at most 4 cards; set_maximum: 5 comes from {five}"
    )


def test_no_meld_fits_is_said_at_the_knob_that_makes_it_so(tmp_path: Path) -> None:
    two = write(tmp_path, "two.yaml", "hand_size: 2\nopening_threshold: 0\ngoing_out: discard_optional\n")
    assert load_variant(two).hand_size == 2
    (line,) = errors(load_variant, two, ["going_out=discard_required"])
    assert line == (
        "--set:1:11: going_out: hand_size (2) leaves no meld to lay: with the card drawn a hand holds "
        f"3 cards, one of them kept to discard, and a meld needs at least 3; hand_size: 2 comes from {two}"
    )
    (line,) = errors(load_variant, "classic", ["hand_size=1"])
    assert line.startswith("--set:1:11: hand_size: hand_size (1) leaves no meld to lay")


def test_a_hand_that_can_never_be_laid_out_is_refused(tmp_path: Path) -> None:
    # Sets of exactly 3 and runs of all 13 take no card once laid: 14 cards are no sum of 3s and 13s,
    # and every hand ran to the turn limit; validate said ok.
    rules = "set_suits: may_repeat\nset_maximum: 3\ndecks: 2\nrun_minimum: 13\nhand_size: 14\n"
    rules += "opening_threshold: 0\n"
    family = write(tmp_path, "family.yaml", rules)
    (line,) = errors(load_variant, family)
    assert line == (
        f"{family}:5:12: hand_size: hand_size (14) can never be laid out: with sets of exactly 3 cards "
        "(set_maximum 3) and runs of all 13 (run_minimum 13) no meld can take another card, so a hand lays "
        "whole melds of 3 and 13 cards, and going out (going_out: discard_required) lays 14, no sum of them"
    )
    # Laying the last card too lays 15, five sets; thirteen cards are one run; a set of four may grow.
    for fixed in ("going_out=meld_required", "going_out=discard_optional", "hand_size=13", "set_maximum=4"):
        assert load_variant(family, [fixed]).hand_size in (13, 14)
    assert load_variant(family, ["turn_discard=optional"]).hand_size == 14  # a hand that grows


def test_which_counts_going_out_lays_decides_whether_a_hand_can_be_laid_out(tmp_path: Path) -> None:
    # Eight cards are no sum of 3s and 13s, nine are three sets: a hand of 8 goes out only where going
    # out may lay the last card too (one more, not one less or two more).
    rules = "set_suits: may_repeat\nset_maximum: 3\ndecks: 2\nrun_minimum: 13\nhand_size: 8\n"
    rules += "opening_threshold: 0\n"
    family = write(tmp_path, "family.yaml", rules)
    (line,) = errors(load_variant, family)
    assert line.endswith("going out (going_out: discard_required) lays 8, no sum of them")
    for going_out in ("meld_required", "discard_optional"):
        assert load_variant(family, [f"going_out={going_out}"]).hand_size == 8


def test_a_hand_of_one_card_may_grow_to_open_where_a_turn_need_not_discard() -> None:
    # Each turn may keep its card: the hand grows until it holds 51 points of melds.
    variant = load_variant("classic", ["turn_discard=optional", "hand_size=1"])
    assert (variant.hand_size, variant.opening_threshold) == (1, 51)


def test_cross_field_error_for_knobs_all_from_bases(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "scoring: winner_collects\n")
    write(tmp_path, "b.yaml", "elimination: true\n")
    top = write(tmp_path, "top.yaml", "extends: [a.yaml, b.yaml]\n")
    # Each base is valid alone (`validate b.yaml` says ok): the clash is said where top.yaml puts them
    # together, naming both, not in b.yaml, with "write elimination: false here" sending the author there.
    (line,) = errors(load_variant, top)
    assert line == (
        f"{top}:1:10: extends: elimination needs scoring: penalty (with winner_collects the first to "
        f"goal_score wins); elimination: true comes from {tmp_path}/b.yaml (or write elimination: false "
        f"here); scoring: winner_collects comes from {tmp_path}/a.yaml"
    )
    # One base that breaks the rule alone is the file to mend.
    alone = write(tmp_path, "alone.yaml", "scoring: winner_collects\nelimination: true\n")
    top = write(tmp_path, "top2.yaml", f"extends: [{alone.name}]\n")
    (line,) = errors(load_variant, top)
    assert line.startswith(f"{alone}:2:14: elimination: elimination needs scoring: penalty")


# ----------------------------------------------------------------------------- origins


def test_origins_say_which_file_or_set_gave_each_value() -> None:
    resolved = resolve_variant("czech-300", ["decks=3"])
    origins = {name: str(origin) for name, origin in resolved.origins.items()}
    assert origins["goal_score"] == "builtin:czech-300:8:13"
    assert origins["joker_penalty"].startswith("builtin:czech-500:")
    assert origins["decks"] == "--set decks=3"
    assert origins["hand_size"] == "classic default"
    assert origins["name"] == "builtin:czech-300:5:7"
    assert set(origins) == set(Variant.model_fields)
    assert resolved.sources == ("builtin:czech-500", "builtin:czech-300")


def test_builtins_are_named_not_located_when_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An installed copy keeps the built-ins deep in site-packages: origins and diagnostics name them.
    installed = tmp_path / "lib" / "python3" / "site-packages" / "kalooki" / "data" / "variants"
    installed.mkdir(parents=True)
    for name in ("czech-500", "czech-300"):
        (installed / f"{name}.yaml").write_bytes((variants_dir() / f"{name}.yaml").read_bytes())
    (installed / "broken.yaml").write_text("decks: 9\n", encoding="utf-8")
    monkeypatch.setattr("kalooki.loader_refs.variants_dir", lambda: installed)
    resolved = resolve_variant("czech-300")
    assert str(resolved.origins["goal_score"]) == "builtin:czech-300:8:13"
    assert str(resolved.origins["scoring"]).startswith("builtin:czech-500:")
    assert errors(load_variant, "broken") == ["builtin:broken:1:8: decks: must be from 1 to 4, got 9"]


def test_set_errors_are_reported_with_an_unknown_variant_name() -> None:
    assert errors(load_variant, "nosuch", ["jokers=y"]) == [
        "nosuch: unknown variant 'nosuch'; the built-in variants are classic, czech-300, czech-500, "
        "house-rules, kalooki-40, kaluki-51, romanian, or give the path of a .yaml file",
        "--set:1:8: jokers: expected a whole number, got 'y': write a whole number from 0 to 8",
    ]


def test_set_options_can_be_named_for_their_diagnostics() -> None:
    assert errors(parse_set_options, ["jokers=y", "extends=x"], "--set-a") == [
        "--set-a:1:8: jokers: expected a whole number, got 'y': write a whole number from 0 to 8",
        "--set-a:2:1: extends: a variant's bases cannot be changed with --set-a",
    ]
    assert str(resolve_variant("classic", parse_set_options(["jokers=4"], "--set-b")).origins["jokers"]) == (
        "--set-b jokers=4"
    )


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
