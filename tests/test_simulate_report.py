"""``kalooki simulate``'s files and lines about a comparison or duplicate deals: the CSV's bots, the
report's setting out, what the paired tests pair."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

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
