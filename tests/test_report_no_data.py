"""Figures with no data in ``--report`` and ``--plot``: said so, never drawn as a zero; and who sat where."""

from __future__ import annotations

import re
import warnings

from kalooki_cli import html_report
from kalooki_cli.charts import simulation_charts

from kalooki.loader import load_variant
from kalooki.simulate import SimulationResult, simulate


def no_hand_ends() -> SimulationResult:
    """Two games whose every hand is stopped after one turn: nobody opened, nobody went out."""
    result = simulate(load_variant("classic"), ["greedy"] * 4, 2, seed=0, workers=1, max_turns=1, max_hands=2)
    assert result.opening_turn.n == result.points_per_loser.n == 0
    return result


def test_a_mean_of_nothing_reads_no_data_in_the_report() -> None:
    page = html_report.simulation_report(no_hand_ends(), "classic")
    cells = dict(re.findall(r"<tr><td>([^<]*)</td><td[^>]*>([^<]*)</td></tr>", page))
    assert cells["opening turn (own turns)"] == "no data"
    assert cells["points left per loser"] == "no data"
    assert cells["hands per game"] == "2.00 [2.00 to 2.00]"


def test_an_ecdf_of_nothing_names_the_variant_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        charts = simulation_charts([no_hand_ends()], ["classic"])
    (points,) = [chart for chart in charts if chart.name == "ecdf-loser_points"]
    legend = points.figure.axes[0].get_legend()
    assert [text.get_text() for text in legend.get_texts()] == ["classic (no data)"]


def test_the_seat_chart_names_the_bot_in_each_seat() -> None:
    # `--plot` sends this chart alone: "seat 1 won half the hands" read as the seat's edge, not the bot's.
    mixed = simulate(
        load_variant("classic"), ["expert", "greedy", "random"], 1, seed=0, workers=1, max_hands=1
    )
    alike = simulate(load_variant("classic"), ["greedy"] * 2, 1, seed=0, workers=1, max_hands=1)
    ticks = {}
    for name, result in (("mixed", mixed), ("alike", alike)):
        chart = simulation_charts([result], ["classic"])[0]
        ticks[name] = [label.get_text() for label in chart.figure.axes[0].get_xticklabels()]
    assert ticks == {"mixed": ["1\nexpert", "2\ngreedy", "3\nrandom"], "alike": ["1", "2"]}
