"""A variant file that carries a built-in's name but not its rules: `kalooki validate`, `rules` and `play`
warn, and pass it.

Saves, logs, the saves list and simulate reports name a game's rules by the variant's name, so such a
file's games would read as the built-in's. `kalooki variants show classic > ours.yaml`, then a changed
knob, is how many a file begins: it stays valid.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.loader import resolve_variant
from kalooki.variant_changes import builtin_name_warning

runner = CliRunner()


def validate(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["validate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_file_named_as_a_builtin_with_other_rules_is_warned_of_and_valid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("ours.yaml").write_text("name: classic\njokers: 4\n", encoding="utf-8")
    assert validate("ours.yaml") == (
        0,
        "ours.yaml: ok\n",
        "ours.yaml:1:7: name: warning: 'classic' is a built-in variant's name, "
        "but these rules differ from it in jokers (4, not 2): "
        "saves, game logs and simulate reports would call them classic; give them a name of their own\n",
    )
    code, out, _ = validate("--format", "json", "ours.yaml")
    report = json.loads(out)
    assert (code, report["valid"], report["diagnostics"]) == (0, True, [])
    assert [(item["line"], item["column"], item["key"]) for item in report["warnings"]] == [(1, 7, "name")]


def test_a_file_whose_own_name_is_a_builtin_s_is_told_to_name_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("kalooki-40.yaml").write_text(
        "extends: classic\njokers: 4\ngoal_score: 200\nupcard: false\nace_value: 15\nelimination: true\n",
        encoding="utf-8",
    )
    warning = builtin_name_warning(resolve_variant("kalooki-40.yaml"))
    assert warning is not None
    assert str(warning) == (
        "kalooki-40.yaml:1:1: name: warning: 'kalooki-40', the file's name, is a built-in variant's name, "
        "but these rules differ from it in jokers (4, not 2), max_players (4, not 5), ace_value (15, not 11) "
        "and 7 more knobs: saves, game logs and simulate reports would call "
        "them kalooki-40; add a line 'name: ...' with a name of their own"
    )


def test_the_builtins_their_copies_and_set_options_are_not_warned_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shown = runner.invoke(app, ["variants", "show", "czech-500"]).stdout
    Path("copy.yaml").write_text(shown, encoding="utf-8")
    Path("undone.yaml").write_text("name: classic\njokers: 4\n", encoding="utf-8")
    # A built-in, or a copy of one, changed by --set keeps its name by design (its rulebook says how it
    # differs); a change --set undoes is none.
    assert validate("classic", "copy.yaml", "undone.yaml", "--set", "jokers=2") == (
        0,
        "classic: ok\ncopy.yaml: ok\nundone.yaml: ok\n",
        "",
    )
    assert validate("kalooki-40", "copy.yaml", "--set", "jokers=4")[2] == ""


def test_rules_and_a_game_warn_of_it_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Only validate warned: the rulebook was headed "# classic" over other rules, and a game's screens,
    # saves and log called them classic, with nothing said.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    Path("ours.yaml").write_text("name: classic\njokers: 4\n", encoding="utf-8")
    warning = (
        "ours.yaml:1:7: name: warning: 'classic' is a built-in variant's name, but these rules differ from "
        "it in jokers (4, not 2): saves, game logs and simulate reports would call them classic; give them "
        "a name of their own"
    )
    rules = runner.invoke(app, ["rules", "ours.yaml", "--no-pager"])
    assert rules.exit_code == 0
    assert rules.stderr.splitlines() == [warning]
    assert rules.stdout.startswith("# classic\n")
    played = runner.invoke(app, ["play", "ours.yaml", "--fast"], input="quit\n")
    assert played.stderr.splitlines()[0] == warning
    assert runner.invoke(app, ["rules", "classic", "--no-pager"]).stderr == ""
    assert runner.invoke(app, ["rules", "ours.yaml", "--set", "jokers=2", "--no-pager"]).stderr == ""


def test_a_game_script_playing_such_a_file_warns_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its account read "classic: ann, bob" over other rules, with nothing said.
    monkeypatch.chdir(tmp_path)
    Path("ours.yaml").write_text("name: classic\njokers: 4\n", encoding="utf-8")
    script = "players: [ann, bob]\nseed: 3\nhands:\n  - moves:\n      - ann: ds\n"
    Path("game.yaml").write_text("variant: ours.yaml\n" + script, encoding="utf-8")
    played = runner.invoke(app, ["play", "game.yaml"])
    assert played.exit_code == 0
    assert played.stderr.splitlines() == [
        "ours.yaml:1:7: name: warning: 'classic' is a built-in variant's name, but these rules differ from "
        "it in jokers (4, not 2): saves, game logs and simulate reports would call them classic; give them "
        "a name of their own"
    ]
    # The built-in with the script's own set: is the built-in's name kept by design, as with --set.
    Path("game.yaml").write_text("variant: classic\nset: {jokers: 4}\n" + script, encoding="utf-8")
    assert runner.invoke(app, ["play", "game.yaml"]).stderr == ""
