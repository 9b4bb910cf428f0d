"""Loading variants with overrides: --set options and a game script's set: over a variant file, checked as
the file is, and where each value came from (its origin)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_loader import errors, write

from kalooki.loader import MappingOverrides, load_variant, resolve_variant
from kalooki.resources import variants_dir
from kalooki.set_options import parse_set_options
from kalooki.variant import Variant
from kalooki.yamlio import load_yaml_text


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
