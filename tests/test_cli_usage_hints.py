"""Usage mistakes a newcomer makes on the command line, told what to type instead of click's bare words."""

from __future__ import annotations

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.text import has_controls

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
