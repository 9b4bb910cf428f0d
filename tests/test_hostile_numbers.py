"""Whole numbers on the command line: ASCII digits only, as in a variant file, a save and a log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from kalooki_cli.app import app
from kalooki_cli.common import integer
from typer.testing import CliRunner

runner = CliRunner()

SEED_WITH_UNDERSCORES = "1_" + "0" * 40
"""A 41-digit seed written with an underscore, which int() reads past: it was played, and the game's save and
log could never be read back ("a number of 41 digits (at most 30 are accepted)")."""


@pytest.mark.parametrize(
    "command",
    [["play", "--fast"], ["simulate", "-n", "1"], ["sweep", "--grid", "jokers=2,4", "-n", "1"]],
    ids=lambda command: command[0],
)
def test_a_seed_with_an_underscore_is_refused_before_a_game(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    result = runner.invoke(app, [*command, "--seed", SEED_WITH_UNDERSCORES], input="quit\n")
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '--seed': '{SEED_WITH_UNDERSCORES}' is not a valid integer" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--seed", "1_000"),
        ("--seed", "\u0663"),  # ARABIC-INDIC DIGIT THREE, which int() reads as 3
        ("--seed", "\uff17"),  # FULLWIDTH DIGIT SEVEN
        ("--games", "1_0"),
        ("--games", "\u0661\u0660"),
        ("--workers", "\u0662"),
        ("--players", "\uff13"),
    ],
)
def test_a_whole_number_option_takes_ascii_digits_only(option: str, value: str) -> None:
    # A variant file, --set, a save and a log refuse these; the options took them (--seed ٣ played seed 3).
    result = runner.invoke(app, ["simulate", "-n", "1", option, value])
    assert result.exit_code == 2, result.output
    assert f"'{value}' is not a valid integer" in result.output


@pytest.mark.parametrize("value", ["7", " 7 ", "+7", "-7", "007"])
def test_a_seed_in_ascii_digits_is_taken(value: str) -> None:
    result = runner.invoke(app, ["simulate", "-n", "1", "--seed", value])
    assert result.exit_code == 0, result.output
    assert f"seed {int(value)}," in result.output


@given(st.text(max_size=12))
@settings(max_examples=300, deadline=None)
def test_a_whole_number_option_takes_exactly_an_optional_sign_and_ascii_digits(text: str) -> None:
    ascii_whole = re.fullmatch(r"\s*[+-]?[0-9]+\s*", text) is not None
    if ascii_whole:
        assert integer(text) == int(text)
    else:
        with pytest.raises(typer.BadParameter) as caught:
            integer(text)
        assert str(caught.value) == f"'{text}' is not a valid integer"
