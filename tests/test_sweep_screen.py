"""What ``kalooki sweep`` shows a person: its tables on a narrow terminal, its charts, its lines about
the baseline and the ``--out`` folder; numbers whole, values written as the grid wrote them."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import pytest
from kalooki_cli.app import app
from sweep_helpers import runner, sweep
from test_simulate_report import SCORE_DIRECTIONS

from kalooki.executors import open_pool
from kalooki.grid import load_cells, parse_grid
from kalooki.sweep import SweepSpec, run_sweep


def test_a_chart_of_three_knobs_draws_a_line_per_combination_of_the_others() -> None:
    # With a third knob, the cells of both its values shared one line per value of the second knob,
    # which went back and forth at each value of the first, the points impossible to tell apart.
    pytest.importorskip("matplotlib")
    from kalooki_cli.charts import sweep_charts

    axes = parse_grid(["opening_threshold=40,51", "jokers=2,4", "run_minimum=3,4"])
    cells = load_cells("classic", [], axes)
    spec = SweepSpec("classic", (), tuple(axes), tuple(cells), 0, ("greedy",) * 4, 1, 7)
    with open_pool(1) as pool:
        chart = sweep_charts(run_sweep(spec, pool))[0]
    lines = {
        container.get_label(): list(container.lines[0].get_xdata())
        for container in chart.figure.axes[0].containers
    }
    assert set(lines) == {f"jokers = {jokers}, run_minimum = {run}" for jokers in (2, 4) for run in (3, 4)}
    # Each line a little aside, the four about the value (lines of equal values lay one under another,
    # two in the legend and one to see): a twentieth of the gap of 11 between 40 and 51 each.
    shifts = [(low - 40.0, high - 51.0) for low, high in lines.values()]
    assert all(low == pytest.approx(high) for low, high in shifts)
    assert sorted(low for low, _ in shifts) == pytest.approx([-0.825, -0.275, 0.275, 0.825])


def test_out_names_what_differs_in_the_rules_bots_or_grid(tmp_path: Path) -> None:
    # An edited variant file was "other cells or rules", the bots a Python list: the folder now says which.
    rules, folder = tmp_path / "club.yaml", tmp_path / "run"
    rules.write_text("extends: classic\njoker_penalty: 15\n")
    common = ["-n", "1", "-w", "1", "--out", str(folder)]
    code, _, err = sweep(str(rules), "--grid", "jokers=2,4", *common)
    assert code == 0, err
    rules.write_text("extends: classic\njoker_penalty: 5\n")
    expected = {
        (str(rules), "--grid", "jokers=2,4"): "joker_penalty 15 there, 5 here",
        (str(rules), "--grid", "jokers=2,4,5"): "2 cells there, 3 here",
        (str(rules), "--grid", "run_minimum=3,4"): "a grid of jokers there, of run_minimum here",
        (str(rules), "--grid", "jokers=2,4", "--bots", "expert,greedy"): (
            "bots greedy,greedy,greedy,greedy there, expert,greedy here"
        ),
    }
    for arguments, what in expected.items():
        code, _, err = sweep(*arguments, *common)
        assert code == 1
        assert err.splitlines() == [
            f"{folder}: holds a different sweep ({what}); give another --out folder, or remove this one"
        ]


def test_out_says_a_sweep_json_another_program_wrote_is_not_kalookis(tmp_path: Path) -> None:
    # "holds a different sweep (format None there, 1 here)" for a sweep.json kalooki never wrote.
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "sweep.json").write_text('{"runs": 3}')
    code, _, err = sweep("classic", "--grid", "jokers=2,4", "-n", "1", "-w", "1", "--out", str(folder))
    assert code == 1
    assert err.splitlines() == [
        f"{folder}: holds a sweep.json kalooki did not write; give another --out folder"
    ]


def test_one_cell_read_back_is_counted_in_the_singular(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    common = ["classic", "--grid", "jokers=2,4", "-n", "1", "-w", "1", "--out", str(folder)]
    assert sweep(*common)[0] == 0
    (folder / "cells" / "cell-001.json").unlink()
    code, out, err = sweep(*common)
    assert code == 0, err
    assert ", 1 cell read back from --out" in " ".join(out.split())


def test_a_true_or_false_knob_reads_as_the_grid_wrote_it(tmp_path: Path) -> None:
    # The table and the report read "True" and "False" beside "baseline: upcard=true".
    page = tmp_path / "r.html"
    code, out, err = sweep(
        "classic", "--grid", "upcard=true,false", "-n", "1", "-w", "1", "--report", str(page)
    )
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines() if line.split()[:1] in (["true"], ["false"])] == [
        "true",
        "false",
    ]
    assert "True" not in out
    assert "False" not in out
    text = page.read_text()
    assert "<tr><td>true</td>" in text
    assert "<td>True</td>" not in text


def test_cli_baseline_options_name_one_cell_together() -> None:
    grid = ["classic", "--grid", "opening_threshold=40,51", "--grid", "run_minimum=3,4", "-n", "1", "-w", "1"]
    code, out, err = sweep(*grid, "--baseline", "opening_threshold=51", "--baseline", "run_minimum=4")
    assert code == 0, err
    assert " ".join(out.split()).count("baseline: opening_threshold=51, run_minimum=4.") == 1
    code, out, err = sweep(*grid, "--baseline", "opening_threshold=51", "--baseline", "opening_threshold=40")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "--baseline:2:1: opening_threshold: already named by --baseline option 1: give its value once"
    ]


def test_a_table_too_wide_for_the_terminal_is_told_a_cell_a_line_every_number_whole() -> None:
    # rich folded the table's columns: "32.54" read "32.5" over "4", "±2.87" as "±12.8" over "7".
    grid = ["classic", "--grid", "opening_threshold=0,51", "--grid", "jokers=2,4", "-n", "12", "-w", "1"]
    shown = runner.invoke(app, ["sweep", *grid], env={"COLUMNS": "60"})
    assert shown.exit_code == 0, shown.output
    data = json.loads(runner.invoke(app, ["sweep", *grid, "--json"]).stdout)
    lines = shown.stdout.splitlines()
    assert max(len(line) for line in lines) <= 60
    text = " ".join(shown.stdout.split())
    for cell in data["cells"]:
        label = ", ".join(f"{knob}={value}" for knob, value in cell["knobs"].items())
        low, high = cell["turns_per_hand"]["ci95"]
        half = max(cell["turns_per_hand"]["mean"] - low, high - cell["turns_per_hand"]["mean"])
        figure = f"{cell['turns_per_hand']['mean']:.2f} ±{half:.2f}"
        assert re.search(rf"turns per hand \*?{re.escape(figure)}", text), figure
        assert text.count(f"{label}: ") >= 1
        for item in cell["differences"]:
            if item["significant"]:
                assert f"{label}: {item['metric']} " in text
                shown_p = f"{item['adjusted_p']:.4f}" if item["adjusted_p"] >= 0.00005 else "<0.0001"
                assert f"adj. p {shown_p}" in text
    assert data["significant"] > 0


def test_a_figure_no_game_produced_reads_as_no_data_not_zero() -> None:
    # Nobody reaches an opening of 140 in 40 turns: that cell's opening turn read "0.00 ±0.00", a value.
    grid = ["classic", "--grid", "opening_threshold=51,140", "-n", "4", "-w", "1"]
    grid += ["--max-turns", "40", "--max-hands", "2"]
    table = runner.invoke(app, ["sweep", *grid], env={"COLUMNS": "80"})
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    # One significant difference (players who opened) once the figures alike in every pair left the family.
    row = lines.index("       140   40.00    2.00     0.0%      0.0%         -          1")
    assert lines[row + 1] == "             ±0.00   ±0.00    ±49.0     ±32.4"  # no interval under the dash
    # A cell a line where the table does not fit: the figure as the comparison tells one of nothing.
    stacked = runner.invoke(app, ["sweep", *grid], env={"COLUMNS": "60"}).stdout
    assert "±32.4, opening turn - baseline: opening_threshold=51." in " ".join(stacked.split())
    assert not re.search(r"(?<![\d.±])0\.00 ±0\.00", " ".join((table.stdout + stacked).split()))
    data = json.loads(runner.invoke(app, ["sweep", *grid, "--json"]).stdout)
    assert data["cells"][1]["opening_turn"] == {
        "n": 0,
        "mean": 0.0,
        "sd": 0.0,
        "ci95": [0.0, 0.0],
    }  # as before


def test_a_chart_leaves_no_point_where_a_cell_has_no_data() -> None:
    # Nobody can open at 140 within 60 turns: its opening turn is no figure (the table's dash), and the
    # chart drew it at 0 turns, read as measured.
    pytest.importorskip("matplotlib")
    from kalooki_cli.charts import svg_text, sweep_charts

    axes = parse_grid(["opening_threshold=30,140"])
    cells = load_cells("classic", [], axes)
    spec = SweepSpec(
        "classic", (), tuple(axes), tuple(cells), 0, ("greedy",) * 4, 2, 0, max_turns=60, max_hands=1
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with open_pool(1) as pool:
            charts = {chart.name: chart for chart in sweep_charts(run_sweep(spec, pool))}
        svg_text(charts["sweep-opening_turn"])
    drawn = charts["sweep-opening_turn"].figure.axes[0]
    (line,) = [container.lines[0] for container in drawn.containers]
    heights = list(line.get_ydata())
    assert heights[0] == pytest.approx(13 / 7)
    assert math.isnan(heights[1])
    legend = [text.get_text() for text in drawn.get_legend().get_texts()]
    assert "no point: no data in that cell" in legend
    # Where every cell has data, the legend says nothing of gaps.
    turns = charts["sweep-turns_per_hand"].figure.axes[0].get_legend().get_texts()
    assert "no point: no data in that cell" not in [text.get_text() for text in turns]


def test_only_figures_no_cell_could_test_are_named_as_untested(tmp_path: Path) -> None:
    # One cell that changes nothing (kalooki_bonus=30 at 51) made every figure "the same in every pair"
    # in the line under a sweep whose other cells tested them, and the CSV gave such a figure p 1.
    grid = ["classic", "--grid", "kalooki_bonus=25,30", "--grid", "opening_threshold=51,40"]
    grid += ["-n", "6", "-w", "1", "--csv", str(tmp_path / "sweep.csv"), "--report", str(tmp_path / "r.html")]
    result = runner.invoke(app, ["sweep", *grid], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    said = (
        "No difference to test for hands the stock ran out, reshuffles per hand, hands abandoned: "
        "the same in every pair of games."
    )
    assert said in " ".join(result.stdout.split())
    assert said in " ".join((tmp_path / "r.html").read_text().split())
    rows = (tmp_path / "sweep.csv").read_text().splitlines()
    header = rows[0].split(",")
    column = header.index("turns_per_hand:p_adjusted")
    cells = [row.split(",") for row in rows[1:]]
    assert [(cell[0], cell[1], cell[column] == "") for cell in cells] == [
        ("25", "51", True),  # the baseline: nothing to test
        ("25", "40", False),
        ("30", "51", True),  # changes nothing that is counted: no test, no p
        ("30", "40", False),
    ]


def test_the_reports_cells_give_hands_per_game_with_its_interval(tmp_path: Path) -> None:
    # "Are games shorter?" is hands per game: the page gave its mean alone, where the terminal gives ±.
    page = tmp_path / "r.html"
    grid = ["classic", "--grid", "opening_threshold=51,40", "-n", "4", "-w", "1", "--report", str(page)]
    assert runner.invoke(app, ["sweep", *grid]).exit_code == 0
    rows = re.findall(r'<tr><td class="num">(51|40)</td>((?:<td[^>]*>[^<]*</td>)+)</tr>', page.read_text())
    for _, cells in rows:
        turns, hands = re.findall(r"<td[^>]*>([^<]*)</td>", cells)[:2]
        assert re.fullmatch(r"\d+\.\d\d \[\d+\.\d\d to \d+\.\d\d\]", turns)
        assert re.fullmatch(r"\d+\.\d\d \[\d+\.\d\d to \d+\.\d\d\]", hands)
    assert len(rows) == 2


def test_a_chart_of_a_variant_named_by_a_long_path_keeps_its_plot_wide() -> None:
    # The legend named the variant by its path on one line: a long path made the legend wider than the
    # plot, and the constrained layout squeezed the plot to a sliver beside it (with a UserWarning).
    pytest.importorskip("matplotlib")
    from kalooki_cli.charts import sweep_charts

    path = "/home/" + "q" * 100 + "/house-rules/friday-night.yaml"
    axes = parse_grid(["jokers=2,3"])
    spec = SweepSpec(path, (), tuple(axes), tuple(load_cells("classic", [], axes)), 0, ("greedy",) * 4, 1, 7)
    with open_pool(1) as pool:
        figure = sweep_charts(run_sweep(spec, pool))[0].figure
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure.draw_without_rendering()
    assert figure.axes[0].get_position().width > 0.8
    legend = figure.axes[0].get_legend()
    assert legend is not None
    # In lines of 48 characters at most, broken after a '/' or a '-' where one falls (a folder stays whole).
    entries = [text.get_text() for text in legend.get_texts()]
    assert [entry.split("\n") for entry in entries if entry.startswith("/home/")] == [
        [
            "/home/",
            "q" * 48,
            "q" * 48,
            "qqqq/house-rules/friday-night.yaml",
        ]
    ]


def test_a_sweep_names_the_cells_whose_games_the_hand_cap_stopped(tmp_path: Path) -> None:
    # goal_score=5000 'differed' in hands per game and seat 1's games won, and nothing said that the
    # cap, not the goal, had ended its games.
    page = tmp_path / "s.html"
    args = ["classic", "--grid", "goal_score=150,5000", "-n", "3", "-w", "1", "--max-hands", "12"]
    code, out, err = sweep(*args, "--report", str(page))
    assert code == 0, err
    said = "Games stopped at --max-hands 12 before the goal ended them: 3 of 3 in goal_score=5000."
    assert said in " ".join(out.split())
    # The changes below the table are in percentage points too, as the ± are ("-40.00%" of 40.00%).
    assert "(percentage points for a %, as is a change from the baseline)" in " ".join(out.split())
    assert f'<p class="note">{said}' in page.read_text()


@pytest.mark.parametrize(("scoring", "direction"), SCORE_DIRECTIONS)
def test_a_sweep_says_which_way_a_score_per_hand_is_better(
    tmp_path: Path, scoring: str, direction: str
) -> None:
    # "greedy: score per hand 18.58 to 33.09" was marked a difference with nothing to say whether more
    # points a hand is worse (penalty) or better (winner_collects), as simulate --compare says.
    page = tmp_path / "s.html"
    args = ["classic", "--set", f"scoring={scoring}", "--grid", "opening_threshold=30,51", "-n", "12"]
    args += ["-w", "1"]
    result = runner.invoke(app, ["sweep", *args, "--report", str(page)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    # A difference that survives (its name wraps in the table), so the note is about something shown.
    assert re.search(r"greedy: score +[+-]?[\d.]+", result.stdout)
    assert direction in flat
    assert f'<p class="note">{direction}</p>' in page.read_text()


def test_a_sweep_whose_scores_differ_nowhere_says_nothing_of_their_direction() -> None:
    # Nothing about a score per hand survives two games: a note about it would explain nothing shown.
    code, out, err = sweep("classic", "--grid", "opening_threshold=30,51", "-n", "2", "-w", "1")
    assert code == 0, err
    assert "A score per hand" not in out


def test_a_sweeps_p_value_too_small_for_four_places_reads_under_them_not_zero() -> None:
    # Twenty games that all went from one hand to two: adjusted p 2 / 2**20 times the family read "0.0000".
    args = ["classic", "--grid", "goal_score=1,5000", "--max-hands", "2", "-n", "20", "-w", "1"]
    result = runner.invoke(app, ["sweep", *args], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    (row,) = [
        line.split() for line in result.stdout.splitlines() if line.startswith("  5000   hands per game")
    ]
    assert row == ["5000", "hands", "per", "game", "1.00", "2.00", "+1.00", "<0.0001"]


def test_a_sweep_names_the_scores_it_left_untested_in_the_cells_that_score_otherwise(tmp_path: Path) -> None:
    # A sweep of scoring and another knob said nothing of them: tested in one cell, the line for what no
    # cell tested left them out, and the winner_collects cells' scores read as tested and found alike.
    page = tmp_path / "s.html"
    grid = ["--grid", "scoring=penalty,winner_collects", "--grid", "ace_in_runs=high_or_low,high"]
    code, out, err = sweep("classic", *grid, "-n", "2", "-w", "1", "--report", str(page))
    assert code == 0, err
    said = (
        "Not tested in the cells that score otherwise than the baseline (scoring=winner_collects, "
        "ace_in_runs=high_or_low; scoring=winner_collects, ace_in_runs=high): final score spread, "
        "greedy: score per hand, whose points count different things there."
    )
    assert said in " ".join(out.split())
    assert said in " ".join(page.read_text().split())
    # Where every cell scores otherwise, the line for what no cell tested names them, once.
    code, out, err = sweep("classic", "--grid", "scoring=penalty,winner_collects", "-n", "2", "-w", "1")
    assert code == 0, err
    assert "Not tested in the cells" not in out
    assert "Not tested: final score spread, greedy: score per hand (the cells and the baseline" in " ".join(
        out.split()
    )
