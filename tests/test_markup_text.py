"""Text from files shown as written: never taken for rich's markup or Markdown on the way out."""

from __future__ import annotations

from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

runner = CliRunner()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- a player's name


@pytest.mark.parametrize("columns", ["120", "30"])
def test_a_script_s_player_named_like_markup_is_shown_by_name_in_every_cell(
    columns: str, tmp_path: Path
) -> None:
    # The hands table's dealer cell was the one left unescaped: '[/]' ended the game told in a
    # MarkupError traceback, on the wide table and on the narrow lines alike, and '[red]b' dealt in red.
    path = write(
        tmp_path,
        "mk.yaml",
        'players: [{name: "[/]", bot: greedy}, {name: "[red]b", bot: greedy}]\nseed: 1\n',
    )
    result = runner.invoke(app, ["play", str(path)], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    assert result.exception is None
    if columns == "30":
        assert "dealt by [/]:" in result.stdout
        assert "dealt by [red]b:" in result.stdout
    else:
        dealers = {line.split("│")[2].strip() for line in result.stdout.splitlines() if line.count("│") > 3}
        assert {"[/]", "[red]b"} <= dealers


# ----------------------------------------------------------------------------- a variant's name


@pytest.mark.parametrize("compare", [[], ["--compare-set", "jokers=4", "--verbose"]])
def test_simulate_reports_a_variant_named_like_markup_by_its_name(compare: list[str], tmp_path: Path) -> None:
    # Every game was played, then the report's first line, the variant's name printed as markup, ended
    # in a MarkupError traceback (and the comparison's 'A = ..., B = ...' line the same).
    path = write(tmp_path, "brk.yaml", 'name: "[/]"\nextends: classic\n')
    result = runner.invoke(app, ["simulate", str(path), "-n", "2", "-w", "1", *compare])
    assert result.exit_code == 0, result.output
    assert result.exception is None
    lines = result.stdout.splitlines()
    if compare:
        assert lines[0].startswith("A = [/], B = [/] with jokers=4: 2 games each")
        assert any(line.startswith("[/] with jokers=4: 2 games,") for line in lines)
    assert any(line.startswith("[/]: 2 games,") for line in lines)
