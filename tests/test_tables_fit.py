"""The sweep's and the comparison's tables fit an 80-column terminal: nothing cut, nothing wider.

rich squeezes a table that is too wide by cutting its cells (``0.02…``, ``openin g``); these
render the real commands at 80 columns and read every line back.
"""

from __future__ import annotations

import re

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

runner = CliRunner()
WIDTH = 80


def render(*args: str) -> list[str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def assert_fits(lines: list[str]) -> None:
    too_wide = [line for line in lines if len(line) > WIDTH]
    assert not too_wide, "\n".join(too_wide)
    assert not [line for line in lines if "…" in line]  # nothing cut to fit


def table_rows(lines: list[str], heading_word: str) -> list[str]:
    """The body lines of the table whose heading holds ``heading_word`` (down to its closing blank line)."""
    rule = next(
        number
        for number, line in enumerate(lines)
        if line.strip().startswith("─") and heading_word in lines[number - 1]
    )
    body = lines[rule + 1 :]
    return body[: next(number for number, line in enumerate(body) if not line.strip())]


def test_a_two_knob_sweep_and_its_significant_differences_fit() -> None:
    grid = ["--grid", "opening_threshold=30,51", "--grid", "run_minimum=3,4"]
    lines = render("sweep", "classic", *grid, "-n", "8", "-w", "1")
    assert_fits(lines)
    cells = table_rows(lines, "threshold")
    # Every cell on two lines: its knob values and figures, then each figure's interval.
    assert [line.split()[:2] for line in cells[::2]] == [["30", "3"], ["30", "4"], ["51", "3"], ["51", "4"]]
    assert cells[0].split()[-1] == "baseline"
    assert all(re.fullmatch(r"(±\d+\.\d+%?\s+){5}", line.strip() + " ") for line in cells[1::2])
    differences = table_rows(lines, "adj.")
    assert differences  # these rules differ enough in 8 games for some differences to survive
    # Each difference ends with its whole adjusted p-value; a figure name may wrap onto a line of its own.
    ends = [line for line in differences if re.match(r"\s+\d+\s+\d\s", line)]
    assert all(re.search(r" [+-]\d+\.\d\d%? +0\.\d{4}$", line.rstrip()) for line in ends)


@pytest.mark.parametrize("verbose", [[], ["--verbose"]])
def test_the_comparison_fits(verbose: list[str]) -> None:
    lines = render(
        "simulate",
        "classic",
        "--compare-set",
        "run_minimum=4",
        "-n",
        "4",
        "-w",
        "1",
        "--bots",
        "expert,greedy",
        *verbose,
    )
    assert_fits(lines)
    rows = table_rows(lines, "adj. p")
    # Figure names whole on their line, then five numbers: A, B, B - A, p, adjusted p (dashes for a
    # figure the same in every pair, which has no test).
    assert "hands the stock ran out" in rows[3]
    number = r"[+-]?\d+\.\d\d%?"
    tests = r"( +\d\.\d{4} +\d\.\d{4}( +differs)?| +- +-)"
    assert all(re.fullmatch(rf" ?[a-z][A-Za-z0-9 :]+?( +{number}){{3}}{tests} *", row) for row in rows), rows
    assert any(row.rstrip().endswith("-") for row in rows)


def test_a_three_knob_sweep_fits() -> None:
    grid = ["--grid", "opening_threshold=30,51", "--grid", "run_minimum=3,4", "--grid", "jokers=2,4"]
    # Three games: the means' intervals are over games, and two give a t of one degree of freedom (±156.10).
    lines = render("sweep", "classic", *grid, "-n", "3", "-w", "1")
    assert_fits(lines)
    headings = " ".join(lines[lines.index(next(line for line in lines if "threshold" in line)) - 2 :][:3])
    assert {"opening", "threshold", "run", "minimum", "jokers", "Kalooki", "turn"} <= set(headings.split())
    cells = table_rows(lines, "threshold")
    assert len(cells) == 16


def test_the_comparison_on_a_narrow_terminal_keeps_every_number_whole() -> None:
    # At 50 columns the table folded its numbers across lines ("29." over "86").
    arguments = ["simulate", "classic", "--compare-set", "run_minimum=4", "-n", "4", "-w", "1"]
    result = runner.invoke(app, arguments, env={"COLUMNS": "50"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 50, "\n".join(lines)
    number = r"[+-]?\d+\.\d\d%?"
    values = [line for line in lines if line.startswith("  A ")]
    assert len(values) >= 10
    assert all(re.fullmatch(rf"  A {number}, B {number}, B - A {number}", line.rstrip()) for line in values)
    tests = [line for line in lines if line.startswith("  p ")]
    assert all(re.fullmatch(r"  p \d\.\d{4}, adjusted p \d\.\d{4}", line.rstrip()) for line in tests)
    assert "turns per hand" in lines


def test_a_single_report_on_a_narrow_terminal_keeps_every_interval_whole() -> None:
    # At 50 columns the seats' intervals broke inside their brackets ("33.3%  [" over "9.7-70.0]").
    result = runner.invoke(app, ["simulate", "classic", "-n", "6", "-w", "1"], env={"COLUMNS": "50"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 50, "\n".join(lines)
    assert all(line.count("[") == line.count("]") for line in lines), "\n".join(lines)
    seats = table_rows(lines, "CI]")
    # Each seat on two lines: its rates, then under each rate its whole interval.
    assert all(re.fullmatch(r"\s*\d\s+greedy\s+\d+\.\d%\s+\d+\.\d%\s*", line) for line in seats[::2]), seats
    assert all(re.fullmatch(r"\s*\[[ \d.]+-[\d.]+\]\s+\[[ \d.]+-[\d.]+\]\s*", line) for line in seats[1::2])


def test_the_seats_with_their_hands_played_fit() -> None:
    # Where players drop out, a column of hands played joins the seats' table: with rotated bots its
    # headings were cut at 80 columns ("hands won  [95%" over "CI]").
    lines = render(
        "simulate", "kalooki-40", "-n", "9", "-w", "1", "--bots", "expert,greedy,random", "--duplicate"
    )
    assert_fits(lines)
    assert [line.split() for line in lines[2:4]] == [
        ["hands"],
        ["seat", "bot", "played", "hands", "won", "[95%", "CI]", "games", "won", "[95%", "CI]"],
    ]
    rows = table_rows(lines, "played")
    assert [row.split()[:3] for row in rows[:3]] == [
        ["1", "bots", "rotated"],
        ["2", "bots", "rotated"],
        ["3", "bots", "rotated"],
    ]
    assert all(re.search(r"%  \[[ \d.]+-[\d.]+\]$", row) for row in rows)


def narrow_report(columns: int, *arguments: str) -> list[str]:
    """``kalooki simulate ARGUMENTS`` at ``columns``, below its title line (whose speed wraps as words do)."""
    result = runner.invoke(app, ["simulate", *arguments, "-w", "1"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    lines = [line.replace("\N{NO-BREAK SPACE}", " ").rstrip() for line in result.stdout.splitlines()]
    assert max(len(line) for line in lines) <= columns, "\n".join(lines)
    assert not [line for line in lines if "…" in line]
    lines = lines[2:]
    for line in lines:  # every interval and spread whole on its line
        assert line.count("[") == line.count("]"), line
        assert line.count("(") == line.count(")"), line
    return lines


RATE = r"\d+\.\d% \[\d+\.\d-\d+\.\d\]"


def test_seats_too_wide_even_with_intervals_under_rates_are_told_a_seat_a_line() -> None:
    # Rotated bots and their hands played: at 60 columns the intervals under the rates broke in their
    # brackets ("[" over "0.0-100.0]").
    lines = narrow_report(60, "kalooki-40", "-n", "8", "--bots", "greedy,random,expert,random", "--duplicate")
    assert "Hands and games won, each with its 95% interval:" in lines
    seats = [line for line in lines if re.fullmatch(r"seat \d: bots rotated|\w+ in all its seats", line)]
    assert len(seats) == 7, lines
    told = " ".join(line.strip() for line in lines if line.startswith("  "))
    assert len(re.findall(rf"hands played \d+, hands won {RATE}, games won {RATE}", told)) == 7, told
    assert table_rows(lines, "value")  # the figures' table still fits, its names wrapped


def test_figures_too_wide_for_their_table_are_told_a_line_each() -> None:
    # At 40 columns the spreads folded ("(sd 12.43, n" over "68)").
    lines = narrow_report(40, "classic", "-n", "6", "--bots", "greedy,random")
    spread = r"\d+\.\d\d \(sd \d+\.\d\d, n \d+\)"
    assert re.fullmatch(rf"turns per hand: {spread}", lines[lines.index("random in all its seats") + 3])
    assert "hands ending in Kalooki: 0.0% [0.0-12.9]" in lines
    assert "points left per loser:" in lines  # a long line breaks before its figure, not inside it
    assert re.fullmatch(rf"  {spread}", lines[lines.index("points left per loser:") + 1])


def test_a_comparison_a_column_too_wide_wraps_figure_names_rather_than_telling_a_figure_a_line() -> None:
    # A change shown to six places ("-0.000019", for reshuffles per hand) made the table 81 columns, and
    # at 80 every figure went to three lines of its own: joker_penalty=15 over 200 games did it.
    import io
    from dataclasses import replace

    from kalooki_cli.simulate import comparison_report
    from rich.console import Console

    from kalooki.loader import load_variant
    from kalooki.simulation_comparison import Comparison, compare

    classic = load_variant("classic")
    played = compare(classic, classic.model_copy(update={"joker_penalty": 15}), ["greedy"] * 4, 3, workers=1)
    # Every figure tested, one marked, as in that run: the p-values' and the mark's columns take their room.
    tested = [
        replace(item, test="paired t", p_value=0.2434, adjusted_p=0.3246) for item in played.differences
    ]
    tested[-1] = replace(tested[-1], p_value=0.00001, adjusted_p=0.0001)
    fine = [
        replace(item, a=0.006240, b=0.006221, difference=-0.000019)
        if item.key == "reshuffles_per_hand"
        else item
        for item in tested
    ]
    screen = io.StringIO()
    comparison_report(Comparison(played.a, played.b, fine), Console(file=screen, width=WIDTH), ("A", "B"))
    lines = screen.getvalue().splitlines()
    assert_fits(lines)
    rows = table_rows(lines, "adj. p")
    assert any(
        re.fullmatch(r" reshuffles per hand +0\.006240 +0\.006221 +-0\.000019 .*", row) for row in rows
    )
    assert not [line for line in lines if line.startswith("  A ")]  # no figure told on lines of its own
