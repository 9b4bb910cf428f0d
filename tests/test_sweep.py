"""``kalooki sweep``: grids checked like --set, same seeds per cell, paired tests with FDR control, resume."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kalooki_cli.app import app
from sweep_helpers import runner, stable, sweep
from typer.testing import CliRunner

from kalooki.executors import open_pool
from kalooki.figures import Figure, adjust_p_values, adjust_tests, difference, paired_test
from kalooki.grid import find_baseline, load_cells, parse_grid
from kalooki.loader import VariantError, load_variant
from kalooki.simulate import rotations, simulate
from kalooki.sweep import SweepSpec, record_from_json, record_to_json, run_sweep

KALOOKI = [str(Path(sys.executable).parent / "kalooki")]


# ---------------------------------------------------------------- the grid


def test_grid_errors_read_like_set_errors() -> None:
    with pytest.raises(VariantError) as grid_error:
        parse_grid(["foo=1,2", "run_minimum=3,four"])
    with pytest.raises(VariantError) as set_error:
        load_variant("classic", ["foo=1", "run_minimum=four"])
    assert str(grid_error.value).splitlines() == [
        "--grid:1:1: foo: unknown key 'foo'; `kalooki variants show classic` lists every knob",
        "--grid:2:15: run_minimum: expected a whole number, got 'four': write numbers in digits (four is 4)",
    ]
    # The same messages as --set's, only located at the --grid option and value.
    grid_messages = [line.split(": ", 1)[1] for line in str(grid_error.value).splitlines()]
    set_messages = [line.split(": ", 1)[1] for line in str(set_error.value).splitlines()]
    assert grid_messages == set_messages


def test_grid_values_no_meld_fits_in_are_refused() -> None:
    # The rule among knobs a --set value meets, said once, at the value, and not the opening as well.
    result = CliRunner().invoke(app, ["sweep", "classic", "--grid", "hand_size=1,26"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "--grid:1:11: hand_size: hand_size (1) leaves no meld to lay: with the card drawn a hand holds "
        "2 cards, one of them kept to discard, and a meld needs at least 3"
    ]


def test_grid_shape_errors() -> None:
    with pytest.raises(VariantError, match=r"--grid:1:1: expected KNOB=V1,V2"):
        parse_grid(["jokers"])
    with pytest.raises(VariantError, match=r"--grid:2:1: jokers: already swept by --grid option 1"):
        parse_grid(["jokers=2,4", "jokers=3"])
    with pytest.raises(VariantError, match=r"--grid:1:10: jokers: 2 is given twice"):
        parse_grid(["jokers=2,2"])
    # Cells that differ only in what the variant is called would play the same games.
    with pytest.raises(VariantError, match=r"--grid:2:1: description: description does not change play"):
        parse_grid(["jokers=2,4", "description=a,b"])
    with pytest.raises(VariantError, match=r"--grid:1:1: name: name does not change play: sweep a rule"):
        parse_grid(["name=a,b"])


def test_every_cell_is_checked_before_any_game() -> None:
    axes = parse_grid(["opening_threshold=30,40", "hand_size=13,26"])
    with pytest.raises(VariantError) as error:
        load_cells("classic", ["decks=1"], axes)
    # Reported once, at the grid value that breaks the rule, though two cells break it.
    assert str(error.value).splitlines() == [
        "--grid:2:14: hand_size: max_players * hand_size + 1 = 4 * 26 + 1 = 105 cards do not fit in the "
        "pack of decks * 52 + jokers = 1 * 52 + 2 = 54 (2 players fit: max_players: 2)"
    ]
    with pytest.raises(VariantError, match=r"--grid:1:1: jokers: also given with --set"):
        load_cells("classic", ["jokers=2"], parse_grid(["jokers=2,4"]))


def test_cells_and_baseline() -> None:
    axes = parse_grid(["opening_threshold=30,40", "run_minimum=3,4"])
    cells = load_cells("classic", ["jokers=4"], axes)
    assert [cell.knobs for cell in cells] == [
        {"opening_threshold": 30, "run_minimum": 3},
        {"opening_threshold": 30, "run_minimum": 4},
        {"opening_threshold": 40, "run_minimum": 3},
        {"opening_threshold": 40, "run_minimum": 4},
    ]
    assert all(cell.variant.jokers == 4 for cell in cells)
    assert cells[3].variant.run_minimum == 4
    assert find_baseline(None, axes, cells) == 0
    assert find_baseline("run_minimum=4,opening_threshold=40", axes, cells) == 3
    # Located at the value, as --grid locates its values: column 1 pointed at the knob, which was right.
    with pytest.raises(VariantError, match=r"--baseline:1:13: run_minimum: 5 is not in the grid \(3, 4\)"):
        find_baseline("run_minimum=5", axes, cells)
    with pytest.raises(VariantError, match=r"--baseline:1:35: run_minimum: 5 is not in the grid"):
        find_baseline("opening_threshold=40,run_minimum= 5", axes, cells)
    with pytest.raises(VariantError, match=r"--baseline:1:1: jokers: jokers is not swept"):
        find_baseline("jokers=4", axes, cells)
    # One knob an option, as --grid takes them: the last option used to replace the others.
    assert find_baseline(["run_minimum=4", "opening_threshold=40"], axes, cells) == 3
    with pytest.raises(
        VariantError, match=r"--baseline:2:1: run_minimum: already named by --baseline option 1"
    ):
        find_baseline(["run_minimum=4", "run_minimum=3"], axes, cells)


# ---------------------------------------------------------------- statistics


def test_paired_test_and_fdr_known_values() -> None:
    import numpy as np
    from scipy import stats

    a = (np.array([3.0, 5.0, 4.0, 6.0, 5.0]), np.ones(5))
    b = (np.array([4.0, 6.0, 6.0, 7.0, 5.0]), np.ones(5))
    test = paired_test(a, b)
    # With one unit per game the linearised ratio is the value itself: this is Student's paired t.
    expected = stats.ttest_rel(b[0], a[0])
    assert (test.a, test.b, test.difference) == pytest.approx((4.6, 5.6, 1.0))
    assert test.statistic == pytest.approx(float(expected.statistic))
    assert test.p_value == pytest.approx(float(expected.pvalue))
    assert paired_test(a, a).p_value == 1.0


@pytest.mark.parametrize(("pairs", "p_value"), [(2, 0.5), (3, 0.25), (10, 2 / 1024), (40, 2 / 2**40)])
def test_pairs_that_all_move_by_one_amount_get_the_sign_tests_p(pairs: int, p_value: float) -> None:
    """t is infinite when every game moves alike; two such games are no proof, forty are."""
    import numpy as np

    a = (np.arange(pairs, dtype=float), np.ones(pairs))
    b = (a[0] + 3.0, np.ones(pairs))
    test = paired_test(a, b)
    assert (test.difference, test.statistic) == (pytest.approx(3.0), math.inf)
    assert test.p_value == pytest.approx(p_value, rel=1e-9, abs=0)
    assert paired_test(b, a).statistic == -math.inf
    # The JSON names the test that gave the p-value: not t, which is infinite here.
    figure = Figure("turns_per_hand", "turns per hand", "mean")
    said = difference(figure, test, test.p_value).to_json()
    assert said["test"] == "sign"
    # To six significant figures: 2 / 2**40 was 0.0 at six places, which no reader could adjust again.
    assert (said["p_value"], said["adjusted_p"]) == (pytest.approx(p_value, rel=1e-5, abs=0),) * 2
    # Benjamini-Hochberg on a textbook set: p_(i) * m / i, made monotone from the top.
    assert adjust_p_values([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.0533333, 0.0533333, 0.5])


def test_a_figure_with_no_data_on_a_side_is_not_tested_nor_counted_among_the_tests() -> None:
    import numpy as np

    a = (np.array([3.0, 5.0, 4.0, 6.0, 5.0]), np.ones(5))
    nothing = (np.zeros(5), np.zeros(5))  # nobody opened, nobody went out: no denominator
    for test, missing in ((paired_test(a, nothing), ("b",)), (paired_test(nothing, nothing), ("a", "b"))):
        assert (test.test, test.no_data, test.p_value, test.tested) == ("none", missing, 1.0, False)
        assert difference(Figure("opening_turn", "opening turn", "mean"), test, 1.0).to_json()[
            "no_data"
        ] == list(missing)
    # One pair has no spread to test either.
    one = paired_test((np.array([3.0]), np.ones(1)), (np.array([4.0]), np.ones(1)))
    assert (one.test, one.no_data) == ("none", ())
    # The untested p of 1 is no test: counted as one, it raised every real test's adjusted p.
    b = (np.array([4.0, 6.0, 6.0, 7.0, 5.0]), np.ones(5))
    made = paired_test(a, b)
    assert adjust_tests([made, paired_test(a, nothing), made]) == pytest.approx(
        [*adjust_p_values([made.p_value] * 2)[:1], 1.0, adjust_p_values([made.p_value] * 2)[1]]
    )


def test_records_round_trip_through_json() -> None:
    result = simulate(load_variant("classic"), ["greedy", "random"], 3, seed=5, workers=1)
    for record in result.records:
        assert record_from_json(json.loads(json.dumps(record_to_json(record)))) == record


def test_hands_stopped_at_the_turn_cap_keep_why_through_json() -> None:
    """A resumed sweep reads its cells back: the stalls must come back, or its abandoned hands vanish."""
    result = simulate(
        load_variant("classic"), ["random", "random"], 1, seed=5, workers=1, max_turns=5, max_hands=3
    )
    stalls = [hand.stall for hand in result.records[0].hands]
    assert stalls
    assert all(stall is not None for stall in stalls)
    for record in result.records:
        assert record_from_json(json.loads(json.dumps(record_to_json(record)))) == record
    # A cell saved before stalls were kept: ten fields a hand, read back with no stall.
    older = record_to_json(result.records[0])
    older[2] = [hand[:10] for hand in older[2]]
    assert all(hand.stall is None for hand in record_from_json(older).hands)


# ---------------------------------------------------------------- running a sweep


def small_spec(games: int = 4, **settings: Any) -> SweepSpec:
    axes = parse_grid(["opening_threshold=0,51"])
    cells = load_cells("classic", [], axes)
    return SweepSpec("classic", (), tuple(axes), tuple(cells), 0, ("greedy",) * 4, games, 7, **settings)


def test_each_cell_is_the_simulation_of_its_variant_on_the_same_seeds() -> None:
    spec = small_spec()
    with open_pool(1) as pool:
        result = run_sweep(spec, pool)
    for cell in result.cells:
        alone = simulate(cell.cell.variant, spec.bots, spec.games, spec.seed, workers=1)
        assert cell.result == alone
        assert [record.seed for record in cell.result.records] == [record.seed for record in alone.records]
    assert result.cells[0].differences == ()
    tested = {item.key for item in result.cells[1].differences}
    assert {"turns_per_hand", "opening_turn", "seat_game_wins.1", "bot_score_per_hand.greedy"} <= tested


def test_each_cell_carries_its_own_time_and_workers() -> None:
    # Each cell's seconds, workers and games per second read 0, 1 and 0: only the sweep's were real.
    spec = small_spec(games=6)
    with open_pool(2) as pool:
        data = run_sweep(spec, pool).to_json()
    for cell in data["cells"]:
        assert cell["workers"] == data["workers"] == 2
        # Each cell is played within the sweep's time, and its speed is its own games over its own time.
        assert 0 < cell["seconds"] <= data["seconds"]
        assert cell["games_per_second"] == pytest.approx(cell["games"] / cell["seconds"], rel=0.01)


def test_same_results_for_any_worker_count() -> None:
    spec = small_spec()
    with open_pool(1) as pool:
        one = run_sweep(spec, pool).to_json()
    with open_pool(2) as pool:
        two = run_sweep(spec, pool).to_json()
    assert stable(one) == stable(two)


def test_cli_json_csv_and_significance(tmp_path: Path) -> None:
    csv_path = tmp_path / "cells.csv"
    code, out, err = sweep(
        "classic", "--grid", "opening_threshold=0,51", "-n", "6", "-w", "1", "--json", "--csv", str(csv_path)
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["correction"] == "Benjamini-Hochberg"
    assert data["grid"] == {"opening_threshold": [0, 51]}
    assert [cell["knobs"] for cell in data["cells"]] == [{"opening_threshold": 0}, {"opening_threshold": 51}]
    second = data["cells"][1]
    assert {"turns_per_hand", "seat_hand_wins", "bot_score_per_hand", "differences"} <= set(second)
    opening = next(item for item in second["differences"] if item["key"] == "opening_turn")
    assert opening["test"] == "paired t"
    assert opening["significant"] is (opening["adjusted_p"] < 0.05)
    assert opening["adjusted_p"] >= opening["p_value"]
    rows = csv_path.read_text().splitlines()
    assert len(rows) == 3
    assert rows[0].startswith("opening_threshold,baseline,games,hands,turns_per_hand,")


def test_cli_csv_says_how_many_hands_each_seats_hands_won_are_of(tmp_path: Path) -> None:
    # In kalooki-40 players drop out: the seats' hands won add up to more than 100%, and the CSV
    # carried no count to say why.
    csv_path = tmp_path / "cells.csv"
    code, out, err = sweep(
        "kalooki-40", "--grid", "jokers=2,4", "-n", "4", "-w", "1", "--json", "--csv", str(csv_path)
    )
    assert code == 0, err
    cells = json.loads(out)["cells"]
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
    header = csv_path.read_text().splitlines()[0].split(",")
    assert header[-4:] == [f"seat_hand_wins.{seat}:played" for seat in range(1, 5)]
    for row, cell in zip(rows, cells, strict=True):
        played = [int(row[f"seat_hand_wins.{seat}:played"]) for seat in range(1, 5)]
        assert played == [rate["trials"] for rate in cell["seat_hand_wins"]]
        assert len(set(played)) > 1


def test_cli_asks_for_yes() -> None:
    # Usage errors (exit 2), as other options' are: `kalooki sweep` alone exited 1.
    code, _, err = sweep("classic", "-n", "2")
    assert code == 2
    assert " ".join(err.split()).endswith(
        "Error: Invalid value for '--grid': none given: the sweep would be one cell, the variant as given "
        "(--grid KNOB=V1,V2 sweeps a knob); add --yes to run it anyway"
    )
    code, out, err = sweep("classic", "--grid", "run_minimum=4", "--grid", "jokers=2", "-n", "2")
    assert (code, out) == (2, "")
    assert " ".join(err.split()).endswith(
        "Error: Invalid value for '--grid': the grid is one cell (run_minimum=4, jokers=2), so nothing is "
        "compared: give a knob two values or more (--grid run_minimum=V1,V2), or add --yes to run it anyway"
    )
    values = ",".join(str(value) for value in range(52))
    code, _, err = sweep("classic", "--grid", f"opening_threshold={values}", "-n", "2")
    assert code == 2
    assert err.splitlines()[-1] == (
        "Error: Invalid value for '--grid': the grid has 52 cells (over 50): add --yes to play them all"
    )
    code, out, err = sweep("classic", "-n", "1", "-w", "1", "--yes", "--json")
    assert code == 0, err
    assert json.loads(out)["cells"][0]["knobs"] == {}


def test_the_help_of_yes_names_every_grid_that_asks_for_it() -> None:
    # The help said "a grid with no --grid or over 50 cells", while a grid of one cell asks for --yes too.
    code, out, _ = sweep("-h")
    assert code == 0
    assert "-y, --yes Run a grid with no --grid, of one cell, or of over 50 cells." in " ".join(out.split())


def test_the_help_of_games_says_its_most_is_of_all_the_cells() -> None:
    # "Games to play per cell, at most 1,000,000.", while --games 600000 over two cells was refused.
    code, out, _ = sweep("-h")
    assert code == 0
    assert "Games to play per cell, at most 1,000,000 in all the cells." in " ".join(out.split())


def test_a_count_a_cell_cannot_seat_is_a_usage_error_naming_the_cell() -> None:
    # Checked against the first cell alone, it named the base ("classic is for 2 to 3 players", which
    # seats 4), and a later cell that could not seat the table was refused once its games began, exit 1.
    code, _, err = sweep("classic", "--grid", "max_players=3,4", "--players", "4", "-n", "1")
    assert code == 2
    assert err.splitlines()[-1] == (
        "Error: Invalid value for '--players': classic with max_players=3 is for 2 to 3 players"
    )
    code, _, err = sweep("classic", "--grid", "max_players=4,3", "--players", "4", "-n", "1")
    assert code == 2
    assert " ".join(err.split()).endswith(
        "Error: Invalid value for '--players': 4 players, but classic with max_players=3 is for 2 to 3 "
        "players: every cell seats the same players"
    )


def test_cli_bad_grid_exits_before_playing(tmp_path: Path) -> None:
    code, _, err = sweep(
        "classic", "--grid", "opening_threshold=30,4O", "-n", "2", "--out", str(tmp_path / "run")
    )
    assert code == 1
    assert (
        err.strip() == "--grid:1:22: opening_threshold: expected a whole number, got '4O': "
        "write a whole number from 0 to 1000"
    )
    assert not (tmp_path / "run").exists()


def test_duplicate_deals() -> None:
    classic = load_variant("classic")
    result = simulate(classic, ["greedy", "random"], 4, seed=3, workers=1, duplicate=True)
    assert [(record.seed == result.records[0].seed, record.rotation) for record in result.records] == [
        (True, 0),
        (True, 1),
        (False, 0),
        (False, 1),
    ]
    # Each bot sat in each seat once per deal: its games are half the seats' games.
    assert result.bot_game_wins["greedy"].trials == 4
    assert result.to_json()["duplicate"] is True
    with pytest.raises(
        ValueError,
        match=r"duplicate deals are each played once per seat rotation: 5 games is not a multiple of the 2 "
        r"rotations of greedy, random \(try 4 or 6\)",
    ):
        simulate(classic, ["greedy", "random"], 5, workers=1, duplicate=True)
    # Turning greedy,random,greedy,random by two seats gives the same table: each deal is played twice, not
    # four times; with one bot in every seat, duplicate deals are ordinary games.
    alternating = simulate(classic, ["greedy", "random"] * 2, 4, seed=3, workers=1, duplicate=True)
    assert [record.rotation for record in alternating.records] == [0, 1, 0, 1]
    alone = simulate(classic, ["greedy"] * 4, 3, seed=3, workers=1, duplicate=True)
    assert [record.seed for record in alone.records] == [
        record.seed for record in simulate(classic, ["greedy"] * 4, 3, seed=3, workers=1).records
    ]


def test_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    code, _, err = sweep(
        "classic", "--grid", "jokers=2,4", "-n", "2", "--scheduler", f"tcp://127.0.0.1:{port}"
    )
    assert code == 1
    assert err.strip() == f"tcp://127.0.0.1:{port}: no Dask scheduler answered (Connection refused)"
    assert time.monotonic() - started < 60  # a sanity bound, not a speed test: the refusal is immediate


@pytest.mark.parametrize("command", ["sweep", "simulate"])
@pytest.mark.parametrize("address", ["foo", "tcp://127.0.0.1", "tcp://:8786", "127.0.0.1:port"])
def test_a_scheduler_address_of_no_such_shape_is_a_usage_error(command: str, address: str) -> None:
    extra = ["--grid", "jokers=2,4"] if command == "sweep" else []
    result = CliRunner().invoke(app, [command, "classic", *extra, "-n", "2", "--scheduler", address])
    assert result.exit_code == 2
    assert f"{address}: expected a scheduler address like tcp://HOST:PORT" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("greeting", "error"),
    [
        (
            None,  # accepts and says nothing: Dask's own client would wait for its handshake forever
            "no Dask scheduler answered within 3 s (something accepts connections there, "
            "but does not speak Dask's protocol)",
        ),
        (b"HTTP/1.0 400 Bad Request\r\n\r\n", "not a Dask scheduler (it does not speak Dask's protocol)"),
    ],
)
def test_a_port_that_is_not_a_scheduler_is_one_line(
    tmp_path: Path, greeting: bytes | None, error: str
) -> None:
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    port = server.getsockname()[1]
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            held.append(conn)  # kept open: a peer that hangs up is not what is tested here
            if greeting is not None:
                conn.sendall(greeting)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    address = f"tcp://127.0.0.1:{port}"
    try:
        done = subprocess.run(
            [*KALOOKI, "sweep", "classic", "--grid", "jokers=2,4", "-n", "2", "--scheduler", address],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "KALOOKI_HOME": str(tmp_path)},
        )
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()
    # One line, and nothing after it: no traceback from a half-made Dask client at exit.
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"{address}: {error}\n")
    assert held  # it did connect


def test_report_and_plot_files(tmp_path: Path) -> None:
    report, plot = tmp_path / "sweep.html", tmp_path / "sweep.png"
    code, _, err = sweep(
        "classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--report", str(report), "--plot", str(plot)
    )
    assert code == 0, err
    page = report.read_text()
    assert page.count("<svg") == 7
    # Nothing to fetch: no script, and every link (if any) points inside the page.
    assert "<script" not in page
    assert re.search(r'(src|href)\s*=\s*"(?!#)', page) is None
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Written atomically, yet with the mode any new file gets (not a temporary file's rw-------).
    umask = os.umask(0o022)
    os.umask(umask)
    assert report.stat().st_mode & 0o777 == plot.stat().st_mode & 0o777 == 0o666 & ~umask
    code, _, err = sweep("classic", "--grid", "jokers=2,4", "-n", "2", "--plot", str(tmp_path / "x.gif"))
    assert code == 2
    assert "give a file ending in .png or .svg" in err


def test_missing_matplotlib_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = sweep("classic", "--grid", "jokers=2,4", "-n", "2", "--report", str(tmp_path / "r.html"))
    assert code == 1
    assert err.strip() == "--report needs matplotlib: pip install 'kalooki[plot]'"
    assert not (tmp_path / "r.html").exists()


def test_duplicate_intervals_are_taken_over_deals() -> None:
    from kalooki.figures import figures_of, ratio_interval, unit_table

    bots = ["greedy", "random", "greedy", "random"]
    result = simulate(load_variant("classic"), bots, 8, seed=2, workers=1, duplicate=True)
    table = unit_table(result, figures_of(bots))
    assert len(table["turns_per_hand"][0]) == 4  # four deals, each at the two tables the rotations make
    assert result.bot_hand_wins["greedy"].interval == ratio_interval(table["bot_hand_wins.greedy"], "rate")
    assert result.turns_per_hand.interval == ratio_interval(table["turns_per_hand"], "mean")


def test_simulate_plot_svg(tmp_path: Path) -> None:
    plot = tmp_path / "seats.svg"
    result = runner.invoke(app, ["simulate", "classic", "-n", "2", "-w", "1", "--plot", str(plot)])
    assert result.exit_code == 0, result.stderr
    text = plot.read_text()
    assert text.lstrip().startswith("<?xml")
    assert "Hands won by seat (95% interval): classic" in text


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=40))
def test_adjusted_p_values_keep_the_order_and_never_shrink(p_values: list[float]) -> None:
    adjusted = adjust_p_values(p_values)
    assert all(a >= p - 1e-12 for a, p in zip(adjusted, p_values, strict=True))
    assert all(a <= 1.0 for a in adjusted)
    ranked = sorted(range(len(p_values)), key=lambda index: p_values[index])
    assert all(adjusted[i] <= adjusted[j] + 1e-12 for i, j in itertools.pairwise(ranked))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["greedy", "random", "expert"]), min_size=2, max_size=6))
def test_rotations_are_the_distinct_tables(bots: list[str]) -> None:
    count = rotations(bots)
    tables = {
        tuple(bots[(seat + shift) % len(bots)] for seat in range(len(bots))) for shift in range(len(bots))
    }
    assert count == len(tables)


def test_a_sweep_of_more_games_than_a_run_can_hold_is_refused_before_its_cells_are_made() -> None:
    # 101 x 100 x 100 cells of 1 game: over the cap before one of the million variants is built.
    grid = [f"goal_score={','.join(str(v) for v in range(100, 201))}"]
    grid += [
        f"ace_value={','.join(str(v) for v in range(100))}",
        f"kalooki_bonus={','.join(str(v) for v in range(100))}",
    ]
    code, out, err = sweep("classic", *(f"--grid={g}" for g in grid), "-n", "1", "--yes")
    assert (code, out) == (2, "")
    assert "--games 1 × 1,010,000 cells is 1,010,000 games: give at most 1,000,000 in all" in " ".join(
        err.split()
    )


def test_the_terminal_table_says_what_its_plus_or_minus_is() -> None:
    """Near 0% a Wilson interval is lopsided: the ± shown is its farther end, not a half-width."""
    code, out, err = sweep("classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1")
    assert code == 0, err
    assert "half-width" not in out
    assert "± the distance to the farther end of its 95% interval" in " ".join(out.split())


def test_a_sweep_of_a_seating_limit_says_why_every_cell_plays_the_same_games(tmp_path: Path) -> None:
    # Every cell seats the same players, so max_players=4,6 played the same games in both cells, and the
    # report said only that each figure was "the same in every pair of games".
    report = tmp_path / "limits.html"
    code, out, _ = sweep(
        "classic", "--grid", "max_players=4,6", "--bots", "random,greedy", "-n", "2", "--report", str(report)
    )
    assert code == 0
    # A command that runs for every count: one bot name fills any table (two names seat two alone),
    # max_players raised where the count is over the variant's.
    note = (
        "max_players changes no game here: it only says how many may sit down, and every cell seats the "
        "same 2 players. To see what the number of players does, run kalooki simulate classic "
        "--players N --set max_players=N once for each count N."
    )
    assert note in " ".join(out.split())
    assert note in report.read_text(encoding="utf-8")
    code, out, _ = sweep(
        "classic", "--set", "jokers=4", "--bots", "random", "--grid", "max_players=4,6", "-n", "1"
    )
    assert code == 0
    assert "run kalooki simulate classic --set jokers=4 --bots random --players N --set max_players=N" in (
        " ".join(out.split())
    )
    code, out, _ = sweep("classic", "--grid", "run_minimum=3,4", "-n", "1")
    assert code == 0
    assert "sit down" not in out
