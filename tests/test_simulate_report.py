"""``kalooki simulate``'s files and lines about a comparison, duplicate deals or seats that play unequal
hands: the CSV's bots, the report's setting out, what the paired tests pair, what hands won are of, and
the progress bar's rate."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_csv_rows_of_duplicate_deals_name_the_bot_in_each_seat(tmp_path: Path) -> None:
    # The bots move round from game to game: winners and totals are seats, and seat 1 is not always greedy.
    target = tmp_path / "games.csv"
    code, _, err = run(
        "classic", "-n", "4", "-w", "1", "--bots", "greedy,random", "--duplicate", "--csv", str(target)
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert [(row["game"], row["bots"]) for row in rows] == [
        ("0", "greedy random"),
        ("1", "random greedy"),
        ("2", "greedy random"),
        ("3", "random greedy"),
    ]


def test_cli_comparison_page_names_both_runs_hands_and_the_rule_changes(tmp_path: Path) -> None:
    # The page gave A's hands as the comparison's ("3 games (10 hands)") and never said what B changed.
    page = tmp_path / "r.html"
    code, _, err = run(
        "classic", "-n", "3", "-w", "1", "--compare-set", "opening_threshold=40", "--report", str(page)
    )
    assert code == 0, err
    text = page.read_text()
    setup = re.search(r"<p>(3 games each on the same seeds \(A [0-9]+ hands, B [0-9]+\)), seed 0", text)
    assert setup is not None, text[:2000]
    data = json.loads(
        run("classic", "-n", "3", "-w", "1", "--compare-set", "opening_threshold=40", "--json")[1]
    )
    hands = f"A {data['a']['hands']} hands, B {data['b']['hands']}"
    assert setup.group(1) == f"3 games each on the same seeds ({hands})"
    assert "<h2>B's rules differ from A's in</h2>" in text
    assert '<tr><td>opening_threshold</td><td class="num">51</td><td class="num">40</td></tr>' in text


def test_cli_comparison_of_duplicate_deals_says_its_tests_pair_deals(tmp_path: Path) -> None:
    # The tests pair whole deals (a deal's seat rotations together), not games, as the line said.
    page = tmp_path / "r.html"
    arguments = ["classic", "-n", "4", "-w", "1", "--compare-set", "opening_threshold=40"]
    code, out, err = run(*arguments, "--bots", "random,greedy", "--duplicate", "--report", str(page))
    assert code == 0, err
    assert "paired t-tests over the deals (same seeds)" in " ".join(out.split())
    assert "<p>Paired t-tests over deals played on the same seeds;" in page.read_text()
    code, out, err = run(*arguments)
    assert code == 0, err
    assert "paired t-tests over the games (same seeds)" in " ".join(out.split())


def test_a_figure_whose_pairs_all_moved_alike_is_said_to_take_the_sign_test() -> None:
    # Its p is the exact sign test's (t is infinite there), yet the terminal and the page said
    # "paired t-tests" of every figure; only --json named the test.
    from dataclasses import replace

    from kalooki_cli.html_report import comparison_report as comparison_page
    from kalooki_cli.simulate import comparison_report
    from rich.console import Console

    from kalooki.loader import load_variant
    from kalooki.simulation_comparison import Comparison, compare

    classic = load_variant("classic")
    played = compare(classic, classic.model_copy(update={"joker_penalty": 15}), ["greedy"] * 4, 3, workers=1)
    first, *rest = played.differences
    assert "sign" not in {item.test for item in played.differences}
    signed = Comparison(played.a, played.b, [replace(first, test="sign"), *rest])
    screen = io.StringIO()
    comparison_report(signed, Console(file=screen, width=200), ("A", "B"))
    said = f"(the exact sign test for {first.metric}: every pair moved by one amount)"
    assert f"paired t-tests over the games (same seeds) {said}, p-values adjusted" in screen.getvalue()
    assert f"played on the same seeds {said}; p-values" in comparison_page(signed, ("A", "B"))
    screen = io.StringIO()
    comparison_report(played, Console(file=screen, width=200), ("A", "B"))
    assert "sign test" not in screen.getvalue()


def test_a_figure_with_no_data_is_said_to_have_had_nothing_to_test(tmp_path: Path) -> None:
    # Every hand stopped at 3 turns: nobody went out, so "points left per loser" has no data on either
    # side. It read 0.00 against 0.00, p 1.0000, "paired t" in --json, among the figures tested.
    page = tmp_path / "r.html"
    arguments = ["classic", "-n", "6", "-w", "1", "--max-turns", "3", "--max-hands", "2"]
    arguments += ["--compare-set", "opening_threshold=10"]
    code, out, err = run(*arguments, "--report", str(page))
    assert code == 0, err
    (row,) = [line.split() for line in out.splitlines() if line.strip().startswith("points left per loser")]
    assert row == ["points", "left", "per", "loser", "-", "-", "-", "-", "-"]
    text = " ".join(out.split())
    assert " 1 of 1 figures tested differ: paired t-tests" in text
    assert "Nothing to test for points left per loser: no data on one side or both." in text
    said = "under 0.05. Nothing to test for points left per loser: no data on one side or both. No difference"
    assert said in page.read_text()
    code, out, err = run(*arguments, "--json")
    assert code == 0, err
    (loser,) = [item for item in json.loads(out)["differences"] if item["key"] == "points_per_loser"]
    assert (loser["test"], loser["no_data"], loser["significant"]) == ("none", ["a", "b"], False)


def test_one_game_with_a_figure_of_no_data_says_nothing_was_tested() -> None:
    # One game: no figure could be tested, yet the line named only "points left per loser" (no data) as
    # untested, as though the others, their p-values dashes too, had been.
    arguments = ["classic", "-n", "1", "-w", "1", "--max-turns", "3", "--max-hands", "2"]
    code, out, err = run(*arguments, "--compare-set", "opening_threshold=10")
    assert code == 0, err
    (row,) = [line.split() for line in out.splitlines() if line.strip().startswith("points left per loser")]
    assert row[-2:] == ["-", "-"]
    text = " ".join(out.split())
    assert "Nothing was tested: a paired test needs two games or more." in text
    assert "Nothing to test for" not in text
    assert " figures tested differ" not in text


def test_cli_hands_won_say_of_how_many_hands_where_players_drop_out(tmp_path: Path) -> None:
    # In kalooki-40 a player over the goal is out: each seat's hands won are of the hands it played,
    # which differ from seat to seat, so the rates add up to more than 100%. The table said neither.
    page = tmp_path / "r.html"
    code, out, err = run("kalooki-40", "-n", "6", "-w", "1", "--seed", "1", "--report", str(page))
    assert code == 0, err
    code, data_out, err = run("kalooki-40", "-n", "6", "-w", "1", "--seed", "1", "--json")
    assert code == 0, err
    rates = json.loads(data_out)["seat_hand_wins"]
    played = [rate["trials"] for rate in rates]
    assert len(set(played)) > 1
    assert sum(rate["rate"] for rate in rates) > 1
    lines = out.splitlines()
    assert lines[2].split() == ["hands"]
    assert lines[3].split() == [
        "seat",
        "bot",
        "played",
        "hands",
        "won",
        "[95%",
        "CI]",
        "games",
        "won",
        "[95%",
        "CI]",
    ]
    rows = [line.split() for line in lines if line.split()[:1] in (["1"], ["2"], ["3"], ["4"])]
    assert [(row[0], int(row[2]), row[3]) for row in rows] == [
        (str(seat + 1), played[seat], f"{100 * rate['rate']:.1f}%") for seat, rate in enumerate(rates)
    ]
    assert (
        " ".join(out.split("\n\n")[2].split())
        == "Hands won are of the hands each seat played: a player out of a game plays none of its later "
        "hands, so the rates may add up to more than 100%."
    )
    text = page.read_text()
    assert [
        f"seat {seat + 1} (greedy): hands won, of {count} played" in text for seat, count in enumerate(played)
    ] == [True] * 4
    # Where every seat plays every hand, the table is as before.
    code, out, err = run("classic", "-n", "2", "-w", "1", "--seed", "1")
    assert code == 0, err
    assert "hands played" not in out
    assert "Hands won are of" not in out


def test_the_bars_rate_is_of_the_games_played_not_of_the_time_counting_them() -> None:
    # The bar stays up while the figures are counted (a sweep's tests, a comparison's): its games/s
    # sank all that while, as if the last games had been slow.
    from kalooki_cli.simulate import GamesPerSecond
    from rich.progress import Progress

    now = [0.0]
    bar = Progress(get_time=lambda: now[0])
    task_id = bar.add_task("simulate", total=100)
    column = GamesPerSecond()
    now[0] = 1.0
    bar.update(task_id, completed=40)
    assert column.render(bar.tasks[0]).plain == "40.0 games/s"
    now[0] = 2.0
    bar.update(task_id, completed=100)
    now[0] = 10.0
    assert column.render(bar.tasks[0]).plain == "50.0 games/s"
    # Before the first game, no rate at all rather than a huge or a divided-by-zero one.
    fresh = Progress(get_time=lambda: now[0])
    fresh.add_task("simulate", total=100)
    assert column.render(fresh.tasks[0]).plain == "0.0 games/s"


def test_a_comparison_of_scoring_rules_says_their_points_are_no_measure_of_each_other(tmp_path: Path) -> None:
    # Penalty points against winner_collects' were marked 'differs' as if lower meant the same in both.
    page = tmp_path / "r.html"
    args = ["classic", "-n", "2", "-w", "1", "--compare-set", "scoring=winner_collects"]
    code, out, err = run(*args, "--report", str(page))
    assert code == 0, err
    note = (
        "A scores penalty (the lowest total wins), B winner_collects (the highest total wins): the points "
        "of a hand and the final score spread count different things in each; compare the games won."
    )
    assert note in " ".join(out.split())
    assert f'<p class="note">{note}</p>' in page.read_text()
    assert "is better" not in out  # which way is better differs between the two
    code, out, err = run("classic", "-n", "2", "-w", "1", "--compare-set", "goal_score=200")
    assert code == 0, err
    assert "A scores" not in out


def test_the_figures_that_count_unlike_scores_are_said_but_not_tested() -> None:
    # The note said the points count different things, and the t-tests marked them 'differs' all the same.
    args = ["classic", "-n", "30", "-w", "1", "--compare-set", "scoring=winner_collects", "--json"]
    code, out, err = run(*args)
    assert code == 0, err
    tests = {item["key"]: item for item in json.loads(out)["differences"]}
    for key in ("score_spread", "bot_score_per_hand.greedy"):
        assert (tests[key]["test"], tests[key]["p_value"], tests[key]["significant"]) == ("unlike", 1, False)
    assert tests["turns_per_hand"]["test"] == "paired t"
    code, out, err = run(*args[:-1])
    assert code == 0, err
    said = (
        "Not tested: final score spread, greedy: score per hand (A and B score differently, so their points "
        "count different things)."
    )
    assert said in " ".join(out.split())


def test_a_change_that_rounds_to_nothing_is_not_shown_as_a_fall() -> None:
    # "hands ending in Kalooki 0.40% 0.40% -0.00%": a difference of -0.00001 read as a fall.
    from kalooki_cli.narrow import difference_texts

    from kalooki.simulation_comparison import Difference

    tiny = Difference("hands ending in Kalooki", "rate", 0.004, 0.004, -1e-9, 0.0, 1.0)
    assert difference_texts(tiny) == ["0.40%", "0.40%", "+0.00%"]
    fall = Difference("turns per hand", "mean", 31.0, 28.0, -3.0, 0.0, 1.0)
    assert difference_texts(fall) == ["31.00", "28.00", "-3.00"]


def test_a_change_two_decimals_round_to_nothing_is_shown_with_more() -> None:
    # "reshuffles per hand 0.00 0.00 +0.00 p 0.2093": a p-value of a difference the table did not show.
    from kalooki_cli.narrow import difference_texts

    from kalooki.simulation_comparison import Difference

    mean = Difference("reshuffles per hand", "mean", 0.0012, 0.0031, 0.0019, 1.3, 0.2093)
    assert difference_texts(mean) == ["0.0012", "0.0031", "+0.0019"]
    rate = Difference("hands ending in Kalooki", "rate", 0.004, 0.00399, -0.00001, 0.0, 1.0)
    assert difference_texts(rate) == ["0.4000%", "0.3990%", "-0.0010%"]
    none = Difference("hands abandoned", "rate", 0.0, 0.0, 0.0, 0.0, 1.0, test="same")
    assert difference_texts(none) == ["0.00%", "0.00%", "+0.00%"]


def test_an_adjusted_p_just_under_the_line_is_not_shown_on_it() -> None:
    # "0.0500 differs" beside "'differs' when adjusted p < 0.05": four places rounded 0.04996 up to it.
    from kalooki_cli.narrow import p_texts

    from kalooki.simulation_comparison import Difference

    under = Difference("turns per hand", "mean", 30.0, 31.0, 1.0, 2.0, 0.0301, adjusted_p=0.049962)
    assert under.significant
    assert p_texts(under) == ["0.0301", "0.04996"]
    assert p_texts(replace(under, adjusted_p=0.0499999999)) == ["0.0301", "<0.05"]
    assert p_texts(replace(under, adjusted_p=0.05004)) == ["0.0301", "0.0500"]
    assert p_texts(replace(under, adjusted_p=0.04994)) == ["0.0301", "0.0499"]


def test_the_report_says_which_way_a_score_per_hand_is_better() -> None:
    # The figure alone left a family to guess that under penalty scoring a lower score wins.
    code, out, err = run("classic", "-n", "2", "-w", "1")
    assert code == 0, err
    said = " ".join(out.split())
    assert "A score per hand is the points a seat took in it: under penalty scoring, lower is better." in said
    code, out, err = run("classic", "-n", "2", "-w", "1", "--set", "scoring=winner_collects")
    assert code == 0, err
    said = " ".join(out.split())
    assert (
        "A score per hand is what a seat won (or paid) in it: under winner_collects, higher is better."
        in said
    )


def test_a_comparison_whose_games_the_hand_cap_stopped_says_so(tmp_path: Path) -> None:
    # Every game of B stopped at --max-hands: hands per game and games won were marked 'differs' by the
    # cap, and neither the table nor the page said a game had been stopped.
    page = tmp_path / "r.html"
    args = ["classic", "-n", "3", "-w", "1", "--compare-set", "goal_score=5000", "--max-hands", "12"]
    code, out, err = run(*args, "--report", str(page))
    assert code == 0, err
    said = (
        "Games stopped at --max-hands 12 before the goal ended them: 3 of 3 in B. Their hands per game, "
        "games won and final score spread count where the cap stopped them, not the rules' goal; a "
        "larger --max-hands plays them out."
    )
    assert said in " ".join(out.split())
    assert f'<p class="note">{html.escape(said)}</p>' in page.read_text()
    code, out, err = run("classic", "-n", "3", "-w", "1", "--compare-set", "goal_score=200")
    assert code == 0, err
    assert "Games stopped" not in out


def test_a_lone_runs_page_says_how_many_games_the_hand_cap_stopped(tmp_path: Path) -> None:
    # The terminal's figures counted them; the page, sent round the table, did not.
    page = tmp_path / "r.html"
    args = ["classic", "-n", "2", "-w", "1", "--set", "goal_score=5000", "--max-hands", "2"]
    code, _, err = run(*args, "--report", str(page))
    assert code == 0, err
    assert '<p class="note">Games stopped at --max-hands 2 before the goal ended them: 2 of 2. ' in (
        page.read_text()
    )


def test_a_comparison_says_a_rates_change_is_in_percentage_points(tmp_path: Path) -> None:
    # "hands ending in Kalooki 1.72% 0.39% -1.33%": read as a share of A's 1.72%, a fall of three
    # quarters looked a trifle, and nothing said which it was.
    page = tmp_path / "r.html"
    code, out, err = run(
        "classic", "-n", "2", "-w", "1", "--compare-set", "goal_score=200", "--report", str(page)
    )
    assert code == 0, err
    said = (
        "B - A is B's figure less A's; for a % it is in percentage points: 20% to 15% reads -5.00%, not -25%."
    )
    assert said in " ".join(out.split())
    assert f'<p class="note">{html.escape(said)}</p>' in page.read_text()


def test_each_tested_difference_gives_its_95_percent_interval(tmp_path: Path) -> None:
    # Only a p-value said how sure a change was; an unmarked figure over 30 games ("seat 1: games won
    # -4.50%") read as no change whatever range the games left open.
    page = tmp_path / "r.html"
    args = ["classic", "-n", "30", "-w", "1", "--compare-set", "opening_threshold=40"]
    code, out, err = run(*args, "--json")
    assert code == 0, err
    items = {item["key"]: item for item in json.loads(out)["differences"]}
    turns = items["turns_per_hand"]
    assert turns["test"] == "paired t"
    low, high = turns["ci95"]
    assert low < turns["difference"] < high
    # The t interval: the difference over the statistic is its standard error, t(29) 2.045 of them each way.
    error = turns["difference"] / turns["statistic"]
    assert (low, high) == pytest.approx(
        (turns["difference"] - 2.04523 * error, turns["difference"] + 2.04523 * error), rel=1e-3
    )
    assert (items["abandoned"]["test"], items["abandoned"]["ci95"]) == ("same", None)
    code, out, err = run(*args, "--report", str(page))
    assert code == 0, err
    assert (
        "Each change's 95% interval, how large it may be: --report FILE.html or --json (ci95)."
        in " ".join(out.split())
    )
    text = page.read_text()
    assert "<th>95% interval</th>" in text
    assert f'<td class="num">{low:+.2f} to {high:+.2f}</td>' in text


SCORE_DIRECTIONS = [
    ("penalty", "A score per hand is the points a seat took in it: under penalty scoring, lower is better."),
    (
        "winner_collects",
        "A score per hand is what a seat won (or paid) in it: under winner_collects, higher is better.",
    ),
]
"""Each scoring and the words that say which way a score per hand is better under it (sweeps read it too)."""


@pytest.mark.parametrize(("scoring", "direction"), SCORE_DIRECTIONS)
def test_a_comparison_of_like_scoring_says_which_way_a_score_is_better(
    tmp_path: Path, scoring: str, direction: str
) -> None:
    # A single run's report said it; a comparison's "greedy: score per hand" row did not, so +5 under
    # winner_collects read as worse, as it would under penalty.
    page = tmp_path / "r.html"
    both = ["--set", f"scoring={scoring}", "--compare-set", f"scoring={scoring}"]
    code, out, err = run(
        "classic", "-n", "2", "-w", "1", *both, "--compare-set", "goal_score=200", "--report", str(page)
    )
    assert code == 0, err
    assert direction in " ".join(out.split())
    assert f'<p class="note">{direction}</p>' in page.read_text()
    assert "A scores" not in out


def test_a_lone_runs_page_gives_every_figure_the_terminal_gives(tmp_path: Path) -> None:
    # The page gave each seat's hands won and seven figures: no games won, nothing per bot (the point of
    # a --duplicate page), no score per hand and which way it is better, no reshuffles, abandoned hands
    # or players who opened, though "every mean has its interval in --report".
    page = tmp_path / "r.html"
    args = ["kaluki-51", "-n", "4", "-w", "1", "--seed", "11", "--bots", "expert,greedy,expert,greedy"]
    code, _, err = run(*args, "--report", str(page))
    assert code == 0, err
    text = page.read_text()
    rows = dict(re.findall(r"<tr><td>([^<]*)</td><td[^>]*>([^<]*)</td></tr>", text))
    assert {name: value for name, value in rows.items() if "hands won" not in name} == {
        "seat 1 (expert): games won": "50.0% [15.0 to 85.0]",
        "seat 2 (greedy): games won": "0.0% [0.0 to 49.0]",
        "seat 3 (expert): games won": "0.0% [0.0 to 49.0]",
        "seat 4 (greedy): games won": "50.0% [15.0 to 85.0]",
        "expert in all its seats: games won": "25.0% [7.1 to 59.1]",
        "greedy in all its seats: games won": "25.0% [7.1 to 59.1]",
        "turns per hand": "34.83 [28.76 to 40.90]",
        "hands per game": "3.00 [1.16 to 4.84]",
        "hands ending in Kalooki": "8.3% [1.5 to 35.4]",
        "hands the stock ran out": "0.0% [0.0 to 24.2]",
        "reshuffles per hand": "0.00 [0.00 to 0.00]",
        "hands abandoned": "0.0% [0.0 to 24.2]",
        "players who opened": "75.0% [61.2 to 85.1]",
        "opening turn (own turns)": "3.75 [1.85 to 5.65]",
        "points left per loser": "50.94 [25.10 to 76.79]",
        "final score spread": "357.50 [262.79 to 452.21]",
        "expert: score per hand": "34.46 [-30.37 to 99.29]",
        "greedy: score per hand": "38.83 [-24.19 to 101.86]",
    }
    assert rows["expert in all its seats: hands won"] == "25.0% [12.0 to 44.9]"
    assert rows["seat 4 (greedy): hands won"] == "33.3% [13.8 to 60.9]"
    direction = (
        "A score per hand is what a seat won (or paid) in it: under winner_collects, higher is better."
    )
    assert f'<p class="note">{direction}</p>' in text


def test_a_p_value_too_small_for_four_places_reads_under_them_not_zero(tmp_path: Path) -> None:
    # Twenty games that all went from one hand to two take the exact sign test, p = 2 / 2**20: the table
    # read "0.0000", a p of nothing, which no test gives.
    page = tmp_path / "r.html"
    args = ["classic", "--set", "goal_score=1", "--compare-set", "goal_score=5000", "--max-hands", "2"]
    result = runner.invoke(
        app, ["simulate", *args, "-n", "20", "-w", "1", "--report", str(page)], env={"COLUMNS": "120"}
    )
    assert result.exit_code == 0, result.output
    (row,) = [line.split() for line in result.stdout.splitlines() if line.startswith(" hands per game")]
    assert row[3:] == ["1.00", "2.00", "+1.00", "<0.0001", "<0.0001", "differs"]
    assert '<td>hands per game</td><td class="num">1.00</td>' in page.read_text()
    assert '<td class="num">&lt;0.0001</td><td>yes</td>' in page.read_text()
