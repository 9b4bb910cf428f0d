"""Simulation: determinism across workers, comparisons, and ``kalooki simulate`` (the statistics on fixed
records: ``tests/test_simulation_stats.py``)."""

from __future__ import annotations

import csv
import gc
import io
import json
import pickle
import re
import subprocess
import sys
from pathlib import Path
from unittest.mock import patch

import pytest
from kalooki_cli.app import app
from test_simulation_stats import RECORDS
from typer.testing import CliRunner

from kalooki.executors import open_pool
from kalooki.loader import load_variant
from kalooki.simulate import (
    _PLANS_HERE,
    CHUNK_MOST,
    CSV_FIELDS,
    MAX_GAMES,
    GamePlan,
    SimulationError,
    compare,
    game_rows,
    game_seed,
    long_lived_left_out,
    play_chunk,
    rows_to_csv,
    simulate,
)
from kalooki.simulation_comparison import Difference
from kalooki.simulation_stats import Rate, summarise

runner = CliRunner()
CLASSIC = load_variant("classic")


# ---------------------------------------------------------------- determinism


def test_same_seed_same_result_whatever_the_workers() -> None:
    one = simulate(CLASSIC, ["greedy", "random", "expert", "greedy"], games=4, seed=9, workers=1)
    two = simulate(CLASSIC, ["greedy", "random", "expert", "greedy"], games=4, seed=9, workers=2)
    assert one == two  # timing and worker count are left out of the comparison
    assert one.to_json() | {"seconds": 0, "workers": 0, "games_per_second": 0} == two.to_json() | {
        "seconds": 0,
        "workers": 0,
        "games_per_second": 0,
    }
    assert [record.seed for record in one.records] == [game_seed(9, index) for index in range(4)]


def test_the_command_prints_the_same_results_with_one_or_two_workers() -> None:
    # 48 games give the two workers chunks of six games down to one, so chunks, their order of
    # arrival and the merge are all exercised; only the timing fields may differ.
    def simulate_json(workers: int) -> dict[str, object]:
        command = [
            sys.executable,
            "-m",
            "kalooki",
            "simulate",
            "classic",
            "--games",
            "48",
            "--max-hands",
            "2",
        ]
        done = subprocess.run(
            [*command, "--seed", "3", "--workers", str(workers), "--json"],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        data: dict[str, object] = json.loads(done.stdout)
        assert data.pop("workers") == workers
        for timing in ("seconds", "games_per_second"):
            data.pop(timing)
        return data

    assert simulate_json(1) == simulate_json(2)


@pytest.mark.parametrize(("games", "workers"), [(1, 2), (48, 2), (300, 2), (1000, 8), (7, 3)])
def test_chunks_cover_every_game_once_and_shrink_to_one_at_the_end(games: int, workers: int) -> None:
    plan = GamePlan(CLASSIC, ("greedy",) * 4, games, seed=5)
    chunks = plan.chunks(workers)
    assert [job for chunk in chunks for job in chunk] == plan.jobs()
    sizes = [len(chunk) for chunk in chunks]
    assert sizes == sorted(sizes, reverse=True)
    assert max(sizes) <= CHUNK_MOST
    # A quarter of each worker's share of what is left: the last few chunks are single games.
    assert sizes[-1] == 1
    assert sizes.count(1) >= min(games, workers * 2)
    if games >= workers * 4 * CHUNK_MOST:
        assert sizes[0] == CHUNK_MOST


def test_a_worker_plays_equal_plans_with_the_first_it_received() -> None:
    plan = GamePlan(CLASSIC, ("greedy",) * 4, 2, seed=5, max_hands=1)
    first, second = (pickle.loads(pickle.dumps(plan)) for _ in range(2))
    assert first == second
    assert first.variant is not second.variant
    _PLANS_HERE.clear()
    assert play_chunk(first, plan.jobs()[:1]) + play_chunk(second, plan.jobs()[1:]) == plan.play(plan.jobs())
    assert _PLANS_HERE[plan] is first


def test_a_plan_plays_with_the_objects_alive_before_it_left_out_of_collection() -> None:
    plan = GamePlan(CLASSIC, ("random",) * 4, 1, seed=5, max_hands=1)
    seen: list[int] = []

    def play_game(*args: object) -> str:
        seen.append(gc.get_freeze_count())
        return "played"

    # Python 3.12 starts with static objects of its own frozen: as with a caller's, nothing changes.
    started = gc.get_freeze_count()
    with patch("kalooki.simulate.play_game", play_game):
        assert plan.play(plan.jobs()) == ["played"]
    if started:
        assert seen == [started]
        assert gc.get_freeze_count() == started
        return
    # Frozen while the games were played, and put back after.
    assert seen[0] > 0
    assert gc.get_freeze_count() == 0
    # Frozen by the caller already: theirs to undo.
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with long_lived_left_out():
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_game_seeds_are_fixed_numbers() -> None:
    # Derived with blake2b, not hash(): the same on every machine and Python, so results can be quoted.
    # The numbers are the 8-byte blake2b digests of "kalooki-simulate:<master>:<index>", big-endian.
    assert game_seed(0, 0) == 14828858991968585890
    assert game_seed(0, 1) == 12490124970438885603
    assert game_seed(12345, 678) == 7625029091012422642
    assert len({game_seed(seed, index) for seed in range(3) for index in range(100)}) == 300
    assert 0 <= game_seed(12345, 678) < 2**64


# ---------------------------------------------------------------- guards and comparisons


def test_turn_and_hand_caps_are_counted() -> None:
    result = simulate(CLASSIC, ["greedy"] * 4, games=2, seed=1, workers=1, max_turns=6, max_hands=3)
    assert result.hands == 6
    assert result.abandoned == Rate(6, 6)
    assert result.unfinished_games == 2
    assert result.ends == {"abandoned": 6}


def test_setup_errors() -> None:
    with pytest.raises(SimulationError, match="exactly 4 players"):
        simulate(load_variant("kaluki-51"), ["greedy"] * 3, games=1, workers=1)
    with pytest.raises(SimulationError, match="at least 1"):
        simulate(CLASSIC, ["greedy"] * 4, games=0)


def test_compare_a_variant_with_itself_finds_no_difference() -> None:
    comparison = compare(CLASSIC, CLASSIC, ["greedy"] * 4, games=3, seed=2, workers=1)
    assert comparison.a == comparison.b
    assert all(difference.difference == 0 for difference in comparison.differences)
    assert not any(difference.significant for difference in comparison.differences)
    data = comparison.to_json()
    assert data["alpha"] == 0.05
    # Every pair alike: no difference to test (it read "paired t", p 1, and counted in the family).
    assert {entry["test"] for entry in data["differences"]} == {"same"}
    assert data["correction"] == "Benjamini-Hochberg"


def test_figures_the_same_in_every_pair_stay_out_of_the_false_discovery_family() -> None:
    # Hands abandoned, none in either run, counted as a test of p 1 made every real test's adjusted
    # p larger: in a sweep, turns per hand went unmarked at 0.056 that the tests made put at 0.045.
    from scipy.stats import false_discovery_control

    easier = load_variant("classic", ["opening_threshold=30"])
    comparison = compare(CLASSIC, easier, ["greedy"] * 4, games=6, seed=3, workers=1)
    by_test: dict[str, list[Difference]] = {}
    for item in comparison.differences:
        by_test.setdefault(item.test, []).append(item)
    assert {"paired t", "same"} <= set(by_test)
    assert all(item.a == item.b and item.adjusted_p == 1.0 and not item.tested for item in by_test["same"])
    made = [item for item in comparison.differences if item.tested]
    expected = false_discovery_control([item.p_value for item in made], method="bh")
    assert [item.adjusted_p for item in made] == pytest.approx(list(expected))


def test_compare_sees_a_lower_opening_threshold() -> None:
    easy = load_variant("classic", ["opening_threshold=0"])
    comparison = compare(CLASSIC, easy, ["greedy"] * 4, games=6, seed=3, workers=1)
    by_name = {difference.metric: difference for difference in comparison.differences}
    opening = by_name["opening turn"]
    assert opening.b < opening.a
    assert opening.significant


# ---------------------------------------------------------------- the command


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_json() -> None:
    code, out, err = run("classic", "--games", "3", "--workers", "1", "--seed", "4", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 3
    assert data["bots"] == ["greedy"] * 4
    assert data["variant"] == "classic"
    assert set(data["bot_hand_wins"]["greedy"]) == {"successes", "trials", "rate", "ci95"}
    for key in (
        "turns_per_hand",
        "hands_per_game",
        "kalooki",
        "stock_ran_out",
        "opening_turn",
        "score_spread",
    ):
        assert key in data
    library = simulate(CLASSIC, ["greedy"] * 4, games=3, seed=4, workers=1).to_json()
    assert data["bot_hand_wins"] == library["bot_hand_wins"]


def test_cli_csv_rows(tmp_path: Path) -> None:
    target = tmp_path / "games.csv"
    code, out, err = run("classic", "-n", "3", "-w", "1", "--bots", "greedy,random", "--csv", str(target))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert len(rows) == 3
    assert list(rows[0]) == [*CSV_FIELDS, "total_1", "total_2", "bots"]
    assert [row["game"] for row in rows] == ["0", "1", "2"]
    assert [row["bots"] for row in rows] == ["greedy random"] * 3
    assert "hands won" in out  # the report still goes to the terminal


def test_cli_csv_rows_of_a_comparison_say_which_run(tmp_path: Path) -> None:
    """With --compare-set both runs are "classic", games 0 and 1: only the run column tells them apart."""
    target = tmp_path / "games.csv"
    code, _, err = run(
        "classic", "-n", "2", "-w", "1", "--compare-set", "opening_threshold=40", "--csv", str(target)
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert list(rows[0]) == [*CSV_FIELDS, "total_1", "total_2", "total_3", "total_4", "bots", "run"]
    assert [(row["variant"], row["game"], row["run"]) for row in rows] == [
        ("classic", "0", "A"),
        ("classic", "1", "A"),
        ("classic", "0", "B"),
        ("classic", "1", "B"),
    ]


def test_cli_a_file_carrying_a_builtin_s_name_is_told_apart_by_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # name: classic with 4 jokers against classic read "A = classic, B = classic".
    monkeypatch.chdir(tmp_path)
    Path("ours.yaml").write_text("name: classic\njokers: 4\n", encoding="utf-8")
    code, out, err = run("classic", "-n", "2", "-w", "1", "--compare", "ours.yaml")
    assert code == 0, err
    assert out.startswith("A = classic, B = classic (ours.yaml): 2 games each")
    code, out, err = run("ours.yaml", "-n", "2", "-w", "1", "--compare", "classic")
    assert out.startswith("A = classic (ours.yaml), B = classic: 2 games each")


def test_cli_report_and_compare_set() -> None:
    code, out, err = run("classic", "-n", "2", "-w", "1", "--compare-set", "opening_threshold=40")
    assert code == 0, err
    assert "A = classic, B = classic with opening_threshold=40" in out
    assert "these bots play" in out
    assert "hands won  [95% CI]" not in out  # the full reports wait for --verbose
    assert "add --verbose" in out
    assert out.splitlines()[-1] == "What each figure counts: kalooki simulate --help."
    code, verbose, err = run(
        "classic", "-n", "2", "-w", "1", "--compare-set", "opening_threshold=40", "--verbose"
    )
    assert code == 0, err
    # The differences come first, then both full reports.
    assert verbose.index("adj. p") < verbose.index("hands won  [95% CI]")
    assert verbose.count("hands won  [95% CI]") == 2
    assert "went out" in verbose
    assert "went_out" not in verbose
    code, out, err = run("classic", "-n", "2", "-w", "1", "--compare", "kalooki-40", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["a"]["variant"], data["b"]["variant"]) == ("classic", "kalooki-40")


def test_cli_report_lines_up_the_figures_values() -> None:
    code, out, err = run("classic", "-n", "4", "-w", "1")
    assert code == 0, err
    lines = out.splitlines()
    figures = lines[next(i for i, line in enumerate(lines) if line.split()[:1] == ["figure"]) + 2 :]
    # The values end in one column, each spread beside: "31.58   (sd 12.42, n 130)", "0.8%   [ 0.1- 4.2]".
    cells = [re.split(r" {2,}", line.strip()) for line in figures]
    value_ends = {
        len(line[: line.index(cell[-1])].rstrip())
        for line, cell in zip(figures, cells, strict=True)
        if cell[-1][:1] in ("(", "[")
    }
    assert len(value_ends) == 1, "\n".join(figures)
    hand_ends = next(line for line in figures if line.strip().startswith("hand ends"))
    assert hand_ends.index("went out") > value_ends.pop()


def test_cli_seat_rows_of_duplicate_deals_name_no_one_bot(tmp_path: Path) -> None:
    # Each deal is played once per rotation: every bot sat in every seat, and the bots' own rows say who won.
    page = tmp_path / "r.html"
    code, out, err = run(
        "classic", "-n", "2", "-w", "1", "--bots", "random,greedy", "--duplicate", "--report", str(page)
    )
    assert code == 0, err
    seat_rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert [row[:3] for row in seat_rows] == [["1", "bots", "rotated"], ["2", "bots", "rotated"]]
    assert [line.split()[:2] for line in out.splitlines() if line.split()[:1] == ["all"]] == [
        ["all", "greedy"],
        ["all", "random"],
    ]
    assert "seat 1 (bots rotated): hands won" in page.read_text()
    assert err.splitlines() == [f"{page}: report written"]
    code, out, err = run("classic", "-n", "1", "-w", "1", "--bots", "random,greedy")
    assert code == 0, err
    assert [line.split()[:2] for line in out.splitlines() if line.split()[:1] in (["1"], ["2"])] == [
        ["1", "random"],
        ["2", "greedy"],
    ]


def test_cli_errors() -> None:
    code, _, err = run("classic", "-n", "2", "--bots", "grandmaster")
    assert code == 2
    assert "there is no bot called 'grandmaster'" in err
    code, _, err = run("classic", "-n", "2", "--bots", "greedy,random", "--players", "3")
    assert code == 2
    assert err.splitlines()[-1] == (
        "Error: Invalid value for '--players': --players 3 but --bots names 2 bots: give one bot per seat, "
        "or one for all"
    )
    code, _, err = run("classic", "--games", "0")
    assert code == 2
    code, _, err = run("no-such-variant", "-n", "2")
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    # Player counts the variant cannot seat: usage errors, as kalooki play and host give (exit 1 here before).
    code, out, err = run("classic", "--players", "9", "-n", "1", "-w", "1")
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == "Error: Invalid value for '--players': classic is for 2 to 4 players"
    code, _, err = run("kaluki-51", "-n", "2", "--bots", "greedy,random")
    assert code == 2
    assert err.splitlines()[-1] == (
        "Error: Invalid value for '--bots': 2 bots make 2 players, but kaluki-51 is for exactly 4 players"
    )


def test_rows_to_csv_round_trip() -> None:
    result = summarise(CLASSIC, ["greedy", "random", "greedy"], seed=7, records=RECORDS)
    rows = game_rows(result)
    parsed = list(csv.DictReader(io.StringIO(rows_to_csv(rows))))
    assert [row["winners"] for row in parsed] == ["1", "1"]
    assert [row["kalookis"] for row in parsed] == ["1", "0"]
    assert [row["total_3"] for row in parsed] == ["50", "65"]


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/x.csv", "the folder {tmp}/missing does not exist"),
        (".", "is a folder; give a file name"),
    ],
)
def test_cli_csv_path_is_checked_before_any_game(tmp_path: Path, where: str, message: str) -> None:
    target = tmp_path / where
    result = runner.invoke(app, ["simulate", "--games", "1", "--csv", str(target)])
    assert result.exit_code == 1
    assert message.format(tmp=tmp_path) in result.output
    assert "Traceback" not in result.output
    # Nothing was played: the check comes before the first game.
    assert "hands won" not in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--games", "0"], "Invalid value for '--games' / '-n': 0 is too small: give 1 or more"),
        (["--seed", "abc"], "Invalid value for '--seed': 'abc' is not a valid integer"),
        (["--workers", "x"], "Invalid value for '--workers' / '-w': 'x' is not a valid integer"),
        (
            ["-v"],
            "Invalid value for '--verbose': adds both full reports to a comparison: give --compare or "
            "--compare-set (a single run's report is shown in full already)",
        ),
        (
            ["--report", "r.txt"],
            "Invalid value for '--report': r.txt: the report is a web page: "
            "give a file ending in .html (or .htm)",
        ),
        (
            ["--duplicate", "-n", "5", "--bots", "greedy,random"],
            "Invalid value for '--games' / '-n': --duplicate plays each deal once per seat rotation: "
            "--games 5 is not a multiple of the 2 rotations of greedy, random (try 4 or 6)",
        ),
    ],
)
def test_cli_number_options_are_refused_in_plain_words(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", *arguments])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Input should be" not in result.output


def test_cli_a_bad_compare_set_is_reported_at_that_option() -> None:
    code, out, err = run("classic", "-n", "1", "-w", "1", "--set", "jokers=3", "--compare-set", "jokers=lots")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "--compare-set:1:8: jokers: expected a whole number, got 'lots': write a whole number from 0 to 8"
    ]


def test_cli_a_knob_set_twice_is_refused_before_any_game() -> None:
    # It used to play with the last value, without a word about the first.
    code, out, err = run(
        "classic", "-n", "1", "-w", "1", "--set", "goal_score=150", "--set", "goal_score=300"
    )
    assert (code, out) == (1, "")
    assert err.splitlines() == ["--set:2:1: goal_score: already given by --set option 1: give its value once"]


def test_cli_the_problems_of_both_variants_are_reported_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("typo.yaml").write_text("extends: classic\njokerz: 4\n")
    Path("bad.yaml").write_text("extends: classic\nhand_size: x\n")
    code, out, err = run("typo.yaml", "--compare", "bad.yaml", "-n", "1", "-w", "1")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "typo.yaml:2:1: jokerz: unknown key 'jokerz'; did you mean 'jokers'?",
        "bad.yaml:2:12: hand_size: expected a whole number, got 'x': write a whole number from 1 to 26",
    ]
    # One file compared with itself changed: its problems once.
    code, out, err = run("bad.yaml", "--compare-set", "opening_threshold=40", "-n", "1", "-w", "1")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "bad.yaml:2:12: hand_size: expected a whole number, got 'x': write a whole number from 1 to 26"
    ]
    code, out, err = run("classic", "-n", "1", "-w", "1", "--set", "jokers=y", "--compare-set", "jokers=x")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "--set:1:8: jokers: expected a whole number, got 'y': write a whole number from 0 to 8",
        "--compare-set:1:8: jokers: expected a whole number, got 'x': write a whole number from 0 to 8",
    ]


def test_no_more_processes_start_than_there_are_games() -> None:
    with open_pool(64, most=3) as pool:
        assert pool.workers == 3
    code, out, err = run("classic", "-n", "1", "-w", "64", "--json")
    assert code == 0, err
    assert json.loads(out)["workers"] == 1


@pytest.mark.parametrize("games", [str(MAX_GAMES + 1), "99999999999", "1000000000000000000000"])
def test_cli_more_games_than_a_run_can_hold_is_a_usage_error(games: str) -> None:
    result = runner.invoke(app, ["simulate", "--games", games])
    assert result.exit_code == 2
    assert (
        f"Invalid value for '--games' / '-n': {games} is too large: give {MAX_GAMES:,} or fewer"
        in " ".join(result.output.split())
    )


def test_the_library_refuses_more_games_than_a_run_can_hold() -> None:
    with pytest.raises(SimulationError, match="at most 1,000,000 games"):
        simulate(CLASSIC, ["greedy"] * 4, games=MAX_GAMES + 1, workers=1)


def test_cli_a_b_that_cannot_seat_the_table_is_named_as_b() -> None:
    code, out, err = run("classic", "-n", "1", "-w", "1", "--compare-set", "max_players=3")
    assert (code, out) == (1, "")
    # With the tables both seat, and the option that asks for one: the refusal left them to be worked out.
    assert err.splitlines() == [
        "B (classic with max_players=3) is for 2 to 3 players, not the 4 seats of A: "
        "both seat 2 to 3 players (--players 3)"
    ]
    code, out, err = run(
        "classic", "-n", "1", "-w", "1", "--compare-set", "min_players=5", "--compare-set", "max_players=6"
    )
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "B (classic with min_players=5, max_players=6) is for 5 to 6 players, not the 4 seats of A, "
        "nor any table A seats"
    ]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["--set", "run_minimum=4", "--compare-set", "run_minimum=4", "--compare-set", "jokers=2"],
            "B (classic with run_minimum=4, jokers=2) has the same rules as A (classic with run_minimum=4): "
            "run_minimum is already 4, jokers is already 2 in A, so there is nothing to compare",
        ),
        (
            ["--compare", "classic", "--json"],
            "B (classic) has the same rules as A (classic): there is nothing to compare",
        ),
    ],
)
def test_cli_a_comparison_of_the_same_rules_is_not_played(args: list[str], said: str) -> None:
    with patch("kalooki_cli.simulate.compare") as compare:
        code, out, err = run("classic", "-n", "2", "-w", "1", *args)
    assert (code, out) == (1, "")
    assert err.splitlines() == [said]
    compare.assert_not_called()


def test_cli_a_comparison_names_the_knobs_it_compares(tmp_path: Path) -> None:
    ours = tmp_path / "ours.yaml"
    ours.write_text(
        "opening_threshold: 40\njoker_penalty: 15\ndiscard_draw: meld_at_once\n", encoding="utf-8"
    )
    code, out, err = run("classic", "-n", "1", "-w", "1", "--compare", str(ours))
    assert (code, err) == (0, "")
    assert out.splitlines()[1:5] == [
        "B's rules differ from A's in:",
        "  joker_penalty      25 → 15",
        "  opening_threshold  51 → 40",
        "  discard_draw       always → meld_at_once",
    ]
