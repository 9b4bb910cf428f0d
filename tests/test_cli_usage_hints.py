"""Usage mistakes a newcomer makes on the command line, told what to type instead of click's bare words."""

from __future__ import annotations

from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.interactive import new_game
from kalooki_cli.saves import write_save
from typer.testing import CliRunner

from kalooki.savegame import dump_save
from kalooki.text import has_controls
from kalooki.variant import Variant

runner = CliRunner()


@pytest.mark.parametrize(("given", "shown"), [("classic", "classic"), ("a b.yaml", "'a b.yaml'")])
def test_a_variant_given_to_variants_without_a_command_is_told_the_command_that_shows_it(
    given: str, shown: str
) -> None:
    # It was told only "No such command 'classic'.", as any other word is.
    result = runner.invoke(app, ["variants", given])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: No such command '{given}': to see that variant, kalooki variants show {shown}"
    )
    assert runner.invoke(app, ["variants", "foo"]).stderr.splitlines()[-1] == "Error: No such command 'foo'."


@pytest.mark.parametrize(
    ("given", "quoted", "typed"),
    [("\x1bX.yml", "\\x1bX.yml", "$'\\EX.yml'"), ("tab\there.yaml", "tab\\there.yaml", "$'tab\\there.yaml'")],
)
def test_a_variant_file_named_with_a_control_character_is_told_a_command_that_can_be_typed(
    given: str, quoted: str, typed: str
) -> None:
    # The command was 'kalooki variants show '\x1bX.yml'': the name as quoted, which bash reads back as a
    # backslash, an x, a 1 and a b.
    result = runner.invoke(app, ["variants", given])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: No such command '{quoted}': to see that variant, kalooki variants show {typed}"
    )
    assert not has_controls(result.stderr.replace("\n", ""))  # none reaches the terminal


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (
            "simulate classic --set jokers 4 -n 1",
            "Got unexpected extra argument(s) (4): write --set jokers=4",
        ),
        (
            "sweep classic --grid opening_threshold 30,40 -n 1",
            "Got unexpected extra argument(s) (30,40): write --grid opening_threshold=30,40",
        ),
        ("simulate classic -n 1 more", "Got unexpected extra argument(s) (more)"),
        # The word after the key is the variant, taken: the extra word is no value of --set's.
        ("simulate --set jokers classic extra", "Got unexpected extra argument(s) (extra)"),
    ],
)
def test_a_key_and_value_given_with_a_space_for_the_equals_sign_is_told_how_to_write_them(
    command: str, said: str
) -> None:
    # It was told only "Got unexpected extra argument(s) (4)", the value the option had not taken.
    result = runner.invoke(app, command.split(), prog_name="kalooki")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == f"Error: {said}"


def test_a_file_of_another_kind_is_told_a_command_that_can_be_typed_whatever_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A game script named 'my game.yaml' was told "run it with `kalooki play my game.yaml`", which plays
    # 'my' with 'game.yaml' left over; a name with a control character was quoted with it spelt out.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    script = "players: [ann, bob]\nvariant: classic\nseed: 3\nmoves: []\n"
    for name in ("my game.yaml", "e\x1bg.yaml"):
        (tmp_path / name).write_text(script)
    (tmp_path / "base.yaml").write_text("extends: my game.yaml\n")
    typed = "run it with `kalooki play 'my game.yaml'`"
    for command in (["validate", "my game.yaml"], ["resume", "my game.yaml"], ["validate", "base.yaml"]):
        assert typed in runner.invoke(app, command).output, command
    assert (
        "run it with `kalooki play $'e\\Eg.yaml'`" in runner.invoke(app, ["validate", "e\x1bg.yaml"]).output
    )
    (tmp_path / "variant friday.yaml").write_text("extends: classic\n")
    reopened = runner.invoke(app, ["host", "--resume", "variant friday.yaml"]).output
    assert "host it with `kalooki host 'variant friday.yaml'`" in reopened
    write_save(tmp_path / "my save.json", dump_save(*new_game(Variant(), "ann", ["greedy"], 1)))
    refused = runner.invoke(app, ["play", "--save", "my save.json"], input="").output
    assert "continue it with `kalooki resume 'my save.json'`" in refused
