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
