"""``kalooki sweep --out``: a folder of played cells, resumed, grown, refused when it holds another
sweep or a damaged cell; outputs that would overwrite each other refused before any game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctrl_c import takes_ctrl_c
from kalooki_cli.app import app
from sweep_helpers import runner, stable, sweep

KALOOKI = [str(Path(sys.executable).parent / "kalooki")]


def test_out_refuses_a_different_sweep(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    code, _, err = sweep("classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--out", str(folder))
    assert code == 0, err
    assert sorted(path.name for path in (folder / "cells").iterdir()) == ["cell-000.json", "cell-001.json"]
    code, _, err = sweep("classic", "--grid", "jokers=2,4", "-n", "3", "-w", "1", "--out", str(folder))
    assert code == 1
    assert err.strip().endswith(
        "holds a different sweep (games 2 there, 3 here); give another --out folder, or remove this one"
    )


def test_out_keeps_the_cells_played_when_the_grid_grows(tmp_path: Path) -> None:
    # A value more for a knob was refused ("2 cells there, 3 here"): every cell was to be played again.
    folder = tmp_path / "run"
    common = ["classic", "-n", "2", "-w", "1", "--json"]
    code, out, err = sweep(*common, "--grid", "jokers=2,4", "--out", str(folder))
    assert code == 0, err
    first = {cell["knobs"]["jokers"]: cell for cell in json.loads(out)["cells"]}
    grown = [*common, "--grid", "jokers=2,3,4"]
    code, out, err = sweep(*grown, "--out", str(folder))
    assert code == 0, err
    resumed = json.loads(out)
    assert resumed["resumed_cells"] == 2
    # A cell read back keeps the time and workers of the run that played it (it said 0 s, 0 games/s);
    # jokers=3 is played by this run.
    timing = [(cell["knobs"]["jokers"], cell["workers"], cell["seconds"] > 0) for cell in resumed["cells"]]
    assert timing == [(2, 1, True), (3, 1, True), (4, 1, True)]
    for cell in (resumed["cells"][0], resumed["cells"][2]):
        before = first[cell["knobs"]["jokers"]]
        assert (cell["seconds"], cell["games_per_second"]) == (before["seconds"], before["games_per_second"])
    # jokers=4 moved from the second cell to the third: its games are those it plays there.
    code, whole, err = sweep(*grown)
    assert code == 0, err
    assert stable(resumed) == stable(json.loads(whole))
    cells = sorted((folder / "cells").glob("cell-*.json"))
    assert [json.loads(path.read_text())["knobs"] for path in cells] == [
        {"jokers": 2},
        {"jokers": 3},
        {"jokers": 4},
    ]
    # A knob more: the cells of its value in the variant (opening_threshold 51) are the ones played.
    code, out, err = sweep(*grown, "--grid", "opening_threshold=40,51", "--out", str(folder))
    assert code == 0, err
    assert json.loads(out)["resumed_cells"] == 3


def test_out_refuses_to_drop_played_cells_or_read_another_cells_games(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    args = ["classic", "-n", "2", "-w", "1", "--out", str(folder)]
    assert sweep(*args, "--grid", "jokers=2,3,4")[0] == 0
    before = {path.name: path.read_bytes() for path in (folder / "cells").iterdir()}
    code, out, err = sweep(*args, "--grid", "jokers=3,4")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{folder}: holds played cells this sweep leaves out (jokers=2); give their values in --grid too "
        "(with the same variant and --set), or give another --out folder"
    ]
    assert {path.name: path.read_bytes() for path in (folder / "cells").iterdir()} == before
    # Another variant under the same grid is another sweep, said as before.
    code, out, err = sweep(*args, "--grid", "jokers=2,3,4", "--set", "opening_threshold=40")
    assert err.strip() == (
        f"{folder}: holds a different sweep (opening_threshold 51 there, 40 here); "
        "give another --out folder, or remove this one"
    )
    # A cell's file under another cell's number is refused, not read as that cell's games.
    (folder / "cells" / "cell-001.json").write_bytes(before["cell-000.json"])
    code, out, err = sweep(*args, "--grid", "jokers=2,3,4")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{folder / 'cells' / 'cell-001.json'}: holds the games of another cell{AGAIN}"
    ]


def test_interrupted_sweep_resumes_with_identical_results(tmp_path: Path) -> None:
    """A real process stopped by Ctrl-C after its first cell, run again: the same JSON as one go."""
    args = ["sweep", "classic", "--grid", "opening_threshold=0,40,51", "-n", "4", "-w", "1", "--json"]
    whole = subprocess.run([*KALOOKI, *args], capture_output=True, text=True, check=True)
    folder = tmp_path / "run"
    process = subprocess.Popen(
        takes_ctrl_c([*KALOOKI, *args, "--out", str(folder)]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = folder / "cells" / "cell-000.json"
    deadline = time.monotonic() + 120
    while not first.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    saved = sorted(path.name for path in (folder / "cells").glob("cell-*.json"))
    assert "cell-000.json" in saved
    if len(saved) < 3:  # stopped mid-sweep, as intended (a fast machine may have finished first)
        assert process.returncode == 130
        assert err.strip() == (
            f"interrupted: {len(saved)} of 3 cells saved in {folder}; run the same command again to resume"
        )
    again = subprocess.run(
        [*KALOOKI, *args, "--out", str(folder)], capture_output=True, text=True, check=True
    )
    resumed = json.loads(again.stdout)
    assert resumed["resumed_cells"] >= 1
    assert stable(resumed) == stable(json.loads(whole.stdout))


def test_out_must_be_a_folder_and_workers_exclude_a_scheduler(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    code, _, err = sweep("classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--out", str(a_file))
    assert code == 1
    assert err.strip() == f"{a_file}: is a file; --out needs a folder"
    code, _, err = sweep("classic", "--grid", "jokers=2,4", "-w", "2", "--scheduler", "tcp://127.0.0.1:8786")
    assert code == 2
    assert "--workers is for local processes" in err


AGAIN = "; remove it and run the same command again to play that cell again"
"""What a damaged cell's line says to do (the sweep's own file is the folder's identity: no such line)."""


@pytest.mark.parametrize(
    ("name", "text", "where_and_why"),
    [
        (
            "cells/cell-000.json",
            "[" * 100_000,
            f": holds what kalooki does not read: nested too deeply{AGAIN}",
        ),
        (
            "cells/cell-001.json",
            '{"knobs": {',
            f":1:12: not JSON: Expecting property name enclosed in double quotes{AGAIN}",
        ),
        ("sweep.json", "garbage", ":1:1: not JSON: Expecting value"),
    ],
)
def test_out_names_a_damaged_file_in_one_line_and_leaves_it(
    tmp_path: Path, name: str, text: str, where_and_why: str
) -> None:
    folder = tmp_path / "run"
    args = ["classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--out", str(folder)]
    assert sweep(*args)[0] == 0
    (folder / name).write_text(text)
    code, out, err = sweep(*args)
    assert (code, out) == (1, "")
    assert err.splitlines() == [f"{folder / name}{where_and_why}"]
    assert (folder / name).read_text() == text


def test_out_refuses_a_cell_that_is_not_a_file(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    args = ["classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--out", str(folder)]
    assert sweep(*args)[0] == 0
    cell = folder / "cells" / "cell-001.json"
    cell.unlink()
    os.mkfifo(cell)
    code, out, err = sweep(*args)
    assert (code, out) == (1, "")
    assert err.splitlines() == [f"{cell}: is a pipe (FIFO), not a regular file{AGAIN}"]


def test_two_outputs_on_one_path_are_refused_before_any_game(tmp_path: Path) -> None:
    # The sweep was played, its --out folder made at the CSV's path, and then the CSV could not be
    # written ("Is a directory"); simulate's --report replaced its --csv without a word.
    same = tmp_path / "lab.csv"
    code, out, err = sweep(
        "classic", "--grid", "jokers=2,4", "-n", "2", "--csv", str(same), "--out", str(same)
    )
    assert (code, out) == (2, "")
    assert f"Invalid value for '--out': {same}: --csv writes there too: give each its own file" in " ".join(
        err.split()
    )
    assert not same.exists()
    page = tmp_path / "lab.html"
    result = runner.invoke(
        app, ["simulate", "-n", "1", "--csv", str(page), "--report", str(tmp_path / "." / "lab.html")]
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert "Invalid value for '--report'" in result.stderr
    assert "--csv writes there too: give each its own file" in " ".join(result.stderr.split())
    assert not page.exists()


def test_an_out_folder_in_a_folder_that_does_not_exist_is_refused_as_a_csv_is(tmp_path: Path) -> None:
    # It was made, with every folder above it, where a --csv or a --report there was refused.
    lab = tmp_path / "labs" / "friday"
    code, out, err = sweep("classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--out", str(lab))
    assert (code, out) == (1, "")
    assert err.splitlines() == [f"{lab}: the folder {lab.parent} does not exist"]
    assert not lab.parent.exists()


def test_a_turn_limit_no_game_takes_is_refused_before_the_out_folder_is_made(tmp_path: Path) -> None:
    # It was refused by the first game, after --out was made: 'the turn limit must be 1 to
    # 1,000,000,000,000, not 9999999999999', exit 1, an option not named and a folder left behind.
    lab = tmp_path / "lab"
    code, out, err = sweep(
        "classic", "--grid", "jokers=2,4", "-n", "2", "--max-turns", "9999999999999", "--out", str(lab)
    )
    assert (code, out) == (2, "")
    said = "Invalid value for '--max-turns': 9999999999999 is too large: give 1,000,000,000,000 or fewer"
    assert said in " ".join(err.split())
    assert not lab.exists()
    result = runner.invoke(app, ["simulate", "-n", "1", "--max-turns", "9999999999999"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert said in " ".join(result.stderr.split())


def test_a_cell_saved_without_its_time_is_read_back_and_one_with_a_wrong_time_refused(tmp_path: Path) -> None:
    # Cells saved before they kept their seconds and workers still resume, as not known: 0 and 0.
    folder = tmp_path / "run"
    args = ["classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--json", "--out", str(folder)]
    code, out, err = sweep(*args)
    assert code == 0, err
    path = folder / "cells" / "cell-000.json"
    data = json.loads(path.read_text())
    assert data["workers"] == 1
    assert data["seconds"] > 0
    old = {key: value for key, value in data.items() if key not in ("seconds", "workers")}
    path.write_text(json.dumps(old))
    code, again, err = sweep(*args)
    assert code == 0, err
    timing = [
        (cell["workers"], cell["seconds"], cell["games_per_second"]) for cell in json.loads(again)["cells"]
    ]
    assert timing[0] == (0, 0.0, 0.0)
    assert stable(json.loads(again)) == stable(json.loads(out))
    for wrong in (
        {"seconds": -1},
        {"seconds": "1.5"},
        {"seconds": True},
        {"workers": 1.5},
    ):
        path.write_text(json.dumps({**old, **wrong}))
        code, again, err = sweep(*args)
        assert (code, again) == (1, "")
        assert err.splitlines() == [
            f"{path}: not a saved sweep cell; "
            "remove it and run the same command again to play that cell again"
        ]


def test_a_sweep_saved_before_a_knob_existed_resumes(tmp_path: Path) -> None:
    # A folder written before turn_discard existed names no such rule in its manifest or cells: at its
    # default the knob is left out, as saves and logs leave it, so the sweep resumes with its cells.
    folder = tmp_path / "run"
    args = ["classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--json", "--out", str(folder)]
    code, out, err = sweep(*args)
    assert code == 0, err
    files = [folder / "sweep.json", *sorted((folder / "cells").iterdir())]
    saved = [path.read_text() for path in files]
    assert not any('"turn_discard"' in text for text in saved)
    code, again, err = sweep(*args)
    assert code == 0, err
    assert [path.read_text() for path in files] == saved  # read back, not played and written again
    assert stable(json.loads(again)) == stable(json.loads(out))


def test_out_refuses_cells_a_kalooki_that_plays_otherwise_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing in the folder says which kalooki played it: a later one whose bots choose otherwise read its
    # cells back and set its own new cells against them, as if one program had played them all.
    import kalooki.simulate

    folder = tmp_path / "run"
    common = ["classic", "-n", "2", "-w", "1", "--bots", "random,random", "--out", str(folder)]
    code, _, err = sweep(*common, "--grid", "jokers=2,4")
    assert code == 0, err
    code, _, err = sweep(*common, "--grid", "jokers=2,4")  # the same kalooki: read back
    assert code == 0, err
    seeded = kalooki.simulate.derive_seed
    # Bots that draw their random numbers otherwise: another kalooki, as far as the games go.
    monkeypatch.setattr(kalooki.simulate, "derive_seed", lambda *parts: seeded("another kalooki", *parts))
    cell = folder / "cells" / "cell-000.json"
    refusal = (
        f"{cell}: its games were played by a kalooki that plays them differently (its first hand, played "
        "again here, goes another way): its cells beside this one's would not be results of one program; "
        "give another --out folder"
    )
    # Resumed as it was, or grown (jokers=2 keeping its number, or to be moved to cell 1: the file named
    # is the one that holds it now).
    for grid in ("jokers=2,4", "jokers=2,3,4", "jokers=0,2,4"):
        code, _, err = sweep(*common, "--grid", grid)
        assert (code, err.strip()) == (1, refusal)
        assert sorted(path.name for path in (folder / "cells").iterdir()) == [
            "cell-000.json",
            "cell-001.json",
        ]


def test_out_of_a_newer_kalooki_is_said_to_be_one_and_not_to_be_removed(tmp_path: Path) -> None:
    # "holds a different sweep (format 2 there, 1 here); ... or remove this one" advised deleting the
    # results of a newer kalooki.
    folder = tmp_path / "run"
    common = ["classic", "--grid", "jokers=2,4", "-n", "2", "-w", "1", "--out", str(folder)]
    code, _, err = sweep(*common)
    assert code == 0, err
    manifest = json.loads((folder / "sweep.json").read_text())
    (folder / "sweep.json").write_text(json.dumps({**manifest, "format": 2}))
    code, _, err = sweep(*common)
    assert (code, err.strip()) == (
        1,
        f"{folder}: was written by a newer kalooki (sweep format 2; this kalooki reads 1): upgrade kalooki "
        "to resume it, or give another --out folder",
    )


def test_out_is_refused_to_a_second_sweep_while_one_writes_it(tmp_path: Path) -> None:
    # Two sweeps of other options started together each took the folder for theirs: both reported, and
    # the folder was left with one's manifest and the other's cells, refused on every run after.
    folder = tmp_path / "run"
    sweep_of_400 = [*KALOOKI, "sweep", "classic", "--grid", "jokers=2,4", "-n", "400", "-w", "1"]
    first = subprocess.Popen(
        takes_ctrl_c([*sweep_of_400, "--out", str(folder)]),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (folder / "sweep.json").exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.poll() is None, "the first sweep ended before the second started"
        second = subprocess.run(
            [
                *KALOOKI,
                "sweep",
                "classic",
                "--grid",
                "jokers=2,4",
                "-n",
                "3",
                "-w",
                "1",
                "--out",
                str(folder),
            ],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert (second.returncode, second.stderr.strip()) == (
            1,
            f"{folder}: another kalooki sweep is writing this folder (process {first.pid}); wait for it "
            "to end, or give another --out folder",
        )
        first.send_signal(signal.SIGINT)
        assert first.wait(60) == 130
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert json.loads((folder / "sweep.json").read_text())["games"] == 400
    assert sorted(path.name for path in folder.iterdir()) == ["cells", "sweep.json"]  # no lock left behind
