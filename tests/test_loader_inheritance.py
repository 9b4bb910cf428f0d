"""Loading variants: inheritance, through ``extends`` and a file's own name, and how a base is found (a
built-in's name, a path relative to the file, a file beside it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_loader import BUILTINS, errors, write

from kalooki.loader import builtin_variant_names, load_variant
from kalooki.script import ScriptError, load_script
from kalooki.variant import CLASSIC
from kalooki.variant_writer import variant_differences


def test_no_base_means_classic_and_name_defaults_to_the_stem(tmp_path: Path) -> None:
    path = write(tmp_path, "friday.yaml", "jokers: 4\n")
    variant = load_variant(path)
    assert variant.name == "friday"
    assert variant_differences(CLASSIC, variant) == [("jokers", 2, 4)]


def test_name_and_description_are_not_inherited(tmp_path: Path) -> None:
    variant = load_variant(write(tmp_path, "mine.yaml", "extends: kalooki-40\n"))
    assert variant.name == "mine"
    assert variant.description == ""
    assert variant.opening_threshold == 40


def test_later_bases_win_and_the_file_wins_over_them(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "goal_score: 300\njokers: 4\n")
    write(tmp_path, "sub/b.yaml", "goal_score: 400\n")
    path = write(tmp_path, "top.yaml", "extends: [czech-500, a.yaml, sub/b.yaml]\njokers: 3\n")
    variant = load_variant(path)
    assert (variant.goal_score, variant.jokers, variant.joker_penalty) == (400, 3, 15)
    assert variant.extends == ["czech-500", "a.yaml", "sub/b.yaml"]


def test_paths_in_extends_are_relative_to_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "rules/base.yaml", "run_minimum: 5\n")
    write(tmp_path, "rules/house/mine.yaml", "extends: ../base.yaml\n")
    monkeypatch.chdir(tmp_path / "rules")
    assert load_variant("house/mine.yaml").run_minimum == 5


def test_a_base_named_in_capitals_is_a_file_as_a_script_s_variant_is(tmp_path: Path) -> None:
    # `extends: ours.YAML` said "unknown variant 'ours.YAML'" beside the file, where a game script's
    # `variant: ours.YAML` read it: no built-in name has a dot.
    write(tmp_path, "ours.YAML", "opening_threshold: 40\n")
    child = write(tmp_path, "child.yaml", "extends: ours.YAML\n")
    assert load_variant(child).opening_threshold == 40
    missing = write(tmp_path, "other.yaml", "extends: theirs.YML\n")
    assert errors(load_variant, missing) == [
        f"{missing}:1:10: extends: no such file: {tmp_path / 'theirs.YML'}"
    ]


def test_a_shared_base_is_read_once(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "decks: three\n")
    write(tmp_path, "left.yaml", "extends: base.yaml\n")
    write(tmp_path, "right.yaml", "extends: base.yaml\n")
    path = write(tmp_path, "top.yaml", "extends: [left.yaml, right.yaml]\n")
    lines = errors(load_variant, path)
    assert sum("decks: expected a whole number" in line for line in lines) == 1


def test_cycles_name_the_chain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: [classic, c.yaml]\n")
    write(tmp_path, "c.yaml", "extends: a.yaml\n")
    lines = errors(load_variant, "a.yaml")
    assert "c.yaml:1:10: extends: extends cycle: a.yaml -> b.yaml -> c.yaml -> a.yaml" in lines


def test_unknown_base_lists_the_builtins(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "extends: czech500\n")
    (line,) = errors(load_variant, path)
    assert "unknown variant 'czech500' (did you mean 'czech-500'?)" in line
    assert ", ".join(BUILTINS[:1]) in line
    for name in BUILTINS:
        assert name in line


def test_a_top_level_reference_can_be_a_name_a_path_or_a_local_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "local", "jokers: 3\n")
    monkeypatch.chdir(tmp_path)
    assert load_variant("local").jokers == 3
    assert load_variant("kaluki-51").name == "kaluki-51"
    assert errors(load_variant, "nope") == [
        "nope: unknown variant 'nope'; the built-in variants are "
        + ", ".join(builtin_variant_names())
        + ", or give the path of a .yaml file"
    ]
    assert errors(load_variant, "missing.yaml") == ["missing.yaml: no such file"]


def test_a_name_with_a_variant_file_of_that_name_beside_it_suggests_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kalooki new friday.yaml, then `kalooki play friday` or `extends: friday`: the file was meant.
    write(tmp_path, "friday.yaml", "jokers: 3\n")
    write(tmp_path, "ours.yml", "jokers: 3\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    monkeypatch.chdir(tmp_path)
    tail = (
        "; the built-in variants are "
        + ", ".join(builtin_variant_names())
        + ", or give the path of a .yaml file"
    )
    assert errors(load_variant, "friday") == [
        "friday: unknown variant 'friday' (did you mean 'friday.yaml'?)" + tail
    ]
    assert errors(load_variant, "ours") == ["ours: unknown variant 'ours' (did you mean 'ours.yml'?)" + tail]
    write(tmp_path, "v.yaml", "extends: friday\n")
    assert errors(load_variant, "v.yaml") == [
        "v.yaml:1:10: extends: unknown variant 'friday' (did you mean 'friday.yaml'?)" + tail
    ]
    # Only beside the file that names it: from sub/, friday.yaml is ../friday.yaml.
    write(sub, "w.yaml", "extends: friday\n")
    assert errors(load_variant, "sub/w.yaml") == ["sub/w.yaml:1:10: extends: unknown variant 'friday'" + tail]


def test_a_path_to_a_variant_file_without_its_ending_or_in_another_case_suggests_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `extends: ./friday` said only "a base variant file must end in .yaml or .yml: friday", and
    # `extends: Friday.yaml` or `friday.yml` only "no such file", with friday.yaml beside it.
    write(tmp_path, "friday.yaml", "jokers: 3\n")
    write(tmp_path, "sub/v.yaml", "extends: [../friday, ../Friday.yaml, ../friday.yml]\n")
    monkeypatch.chdir(tmp_path)
    assert errors(load_variant, "sub/v.yaml") == [
        "sub/v.yaml:1:11: extends[0]: a base variant file must end in .yaml or .yml: friday "
        "(did you mean '../friday.yaml'?)",
        "sub/v.yaml:1:22: extends[1]: no such file: Friday.yaml (did you mean '../friday.yaml'?)",
        "sub/v.yaml:1:38: extends[2]: no such file: friday.yml (did you mean '../friday.yaml'?)",
    ]
    # Named on the command line, as `kalooki play ./friday`.
    assert errors(load_variant, "./friday") == ["./friday: no such file (did you mean './friday.yaml'?)"]
    assert errors(load_variant, "./saturday") == ["./saturday: no such file"]


def test_a_builtin_named_as_a_yaml_file_that_is_not_there_says_how_the_builtin_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `extends: classic.yaml` or `kalooki play kalooki-40.yml` said only "no such file".
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "v.yaml", "extends: classic.yaml\n")
    assert errors(load_variant, "v.yaml") == [
        "v.yaml:1:10: extends: no such file: classic.yaml "
        "(the built-in variant is named classic, without .yaml)"
    ]
    assert errors(load_variant, "kalooki-40.yml") == [
        "kalooki-40.yml: no such file (the built-in variant is named kalooki-40, without .yml)"
    ]
    # A file of that name that is there is read, and one in a folder is no built-in.
    write(tmp_path, "classic.yaml", "jokers: 3\n")
    assert load_variant("v.yaml").jokers == 3
    assert errors(load_variant, "sub/classic.yaml") == ["sub/classic.yaml: no such file"]
    # The folder the README links a built-in in, and a built-in's name misspelt, said only "no such file".
    write(tmp_path, "w.yaml", "extends: [variants/kalooki-40.yaml, clasic.yaml]\n")
    assert errors(load_variant, "w.yaml") == [
        "w.yaml:1:11: extends[0]: no such file: variants/kalooki-40.yaml "
        "(the built-in variant is named kalooki-40, without variants/ and .yaml)",
        "w.yaml:1:37: extends[1]: no such file: clasic.yaml "
        "(did you mean the built-in variant 'classic', named without .yaml?)",
    ]
    assert errors(load_variant, "fridya.yaml") == ["fridya.yaml: no such file"]


def test_a_variant_with_a_list_of_bases_is_simulated(tmp_path: Path) -> None:
    # kalooki validate, rules and play took extends: [classic, kalooki-40]; kalooki simulate stopped in a
    # traceback (TypeError: unhashable type: 'list'), the variant a key of its plans.
    from kalooki_cli.app import app
    from typer.testing import CliRunner

    path = write(tmp_path, "mixed.yaml", "extends: [classic, kalooki-40]\n")
    variant = load_variant(path)
    assert hash(variant) == hash(variant.model_copy())
    assert variant == load_variant(path)
    result = CliRunner().invoke(app, ["simulate", str(path), "-n", "1", "-w", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("mixed: 1 game, ")


TAKES = "takes a built-in variant's name or a variant file"


def test_a_base_that_is_a_game_script_a_save_or_a_log_is_named_as_what_it_is(tmp_path: Path) -> None:
    # A game script as a base was "not a variant file: none of its keys is a variant's", and so was a save
    # named .yaml; a log named .yaml was its YAML error, said at the log's second line.
    write(tmp_path, "game.yaml", "players: [ann, bob]\nhands:\n  - moves:\n      - ann: draw stock\n")
    write(
        tmp_path, "save.yaml", '{"format":"kalooki-save","version":1,"checksum":"0","session":{},"game":{}}'
    )
    write(tmp_path, "log.yaml", '{"type":"game","format":"kalooki-log","version":1}\n{"type":"deal"}\n')
    said = {
        "game.yaml": f"a game script, not a variant file: extends {TAKES}; run it with `kalooki play",
        "save.yaml": f"a saved game, not a variant file: extends {TAKES}; continue it with `kalooki resume",
        "log.yaml": f"a game log, not a variant file: extends {TAKES}; replay it with `kalooki replay",
    }
    for base, what in said.items():
        path = write(tmp_path / "rules", "v.yaml", f"jokers: 4\nextends: ../{base}\n")
        shown = tmp_path / base
        assert errors(load_variant, path) == [f"{path}:2:10: extends: {shown} is {what} {shown}`"]
    # Where a list names it, and where a game script's variant: does.
    path = write(tmp_path, "v.yaml", "extends: [classic, game.yaml]\n")
    game = tmp_path / "game.yaml"
    assert errors(load_variant, path) == [f"{path}:1:20: extends[1]: {game} is {said['game.yaml']} {game}`"]
    script = write(tmp_path, "other.yaml", "variant: game.yaml\nplayers: [ann, bob]\n")
    with pytest.raises(ScriptError) as caught:
        load_script(script)
    variant_takes = said["game.yaml"].replace("extends", "variant")
    assert str(caught.value) == f"{script}:1:10: variant: {game} is {variant_takes} {game}`"


def test_a_base_named_without_yaml_that_is_a_file_there_is_told_what_it_is(tmp_path: Path) -> None:
    # extends: save.json was "unknown variant 'save.json'; the built-in variants are ...": a name without
    # .yaml or .yml is read as a built-in's, so the file beside it was never looked at.
    write(
        tmp_path, "save.json", '{"format":"kalooki-save","version":1,"checksum":"0","session":{},"game":{}}'
    )
    write(tmp_path, "notes.txt", "jokers: 4\n")
    save = tmp_path / "save.json"
    path = write(tmp_path, "v.yaml", "extends: [classic, save.json]\n")
    assert errors(load_variant, path) == [
        f"{path}:1:20: extends[1]: {save} is a saved game, not a variant file: extends {TAKES}; "
        f"continue it with `kalooki resume {save}`"
    ]
    path = write(tmp_path, "w.yaml", "extends: notes.txt\n")
    assert errors(load_variant, path) == [
        f"{path}:1:10: extends: a base variant file must end in .yaml or .yml: notes.txt "
        "(a name without one is read as a built-in variant's)"
    ]
    path = write(tmp_path, "x.yaml", "extends: nothere.json\n")
    assert errors(load_variant, path)[0].startswith(f"{path}:1:10: extends: unknown variant 'nothere.json'")
