"""What each figure of a simulation's report counts: every figure carries its meaning, and the help of
``simulate`` and ``sweep`` lists them, for a user who has the installed command and no docs folder."""

from __future__ import annotations

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.figures import figures_of


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_help_says_what_each_figure_of_the_reports_counts(command: str) -> None:
    # "opening turn", "points left per loser", "final score spread" were explained only in the docs.
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "opening turn: the player's own turn on which they opened, among openers" in text
    assert "seat N: games won: games seat N won (a shared win counts for each)" in text
    assert "BOT: score per hand: the points a BOT seat scores in a hand" in text
    for figure in figures_of(("BOT", "other")):
        assert figure.meaning, figure.key
        if not figure.key.endswith((".2", ".other")):
            assert f"{figure.label.replace('seat 1', 'seat N')}: " in text


def test_a_single_report_names_its_figures_as_the_comparison_and_the_help_do() -> None:
    # "hands where the stock ran out", "turns per hand (all players)", "hands abandoned (turn cap)" in one,
    # "hands the stock ran out", "turns per hand", "hands abandoned" in the others.
    result = CliRunner().invoke(app, ["simulate", "classic", "-n", "2", "-w", "1"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    shown = {line.strip().split("  ")[0] for line in result.output.splitlines()}
    for figure in figures_of(("greedy",)):
        if "." not in figure.key:  # the seats' and bots' figures are the seats table's columns
            assert figure.label in shown, figure.label
