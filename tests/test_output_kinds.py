"""Output paths that are no file to write a run's results in (a FIFO, a device, a symbolic link to a
missing file) are refused in one line before any game is played, exit 1, nothing written: a FIFO held
``simulate --csv`` for ever after its last game, ``kalooki new --force`` for ever at once, and ``new``
wrote a link's missing target wherever it pointed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

KALOOKI = Path(sys.executable).with_name("kalooki")
pytestmark = [
    pytest.mark.skipif(not KALOOKI.exists(), reason="needs the installed console script"),
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX file kind"),
]
SWEEP = ["sweep", "classic", "--grid", "jokers=2,4", "-n", "1", "-w", "1"]
SIMULATE = ["simulate", "classic", "-n", "1", "-w", "1"]
FIFO = "is a pipe (FIFO), not a regular file"


def kalooki(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        # The bound only turns a hang into a failure: the refusals come before any game.
        return subprocess.run(
            [str(KALOOKI), *args], cwd=folder, capture_output=True, text=True, timeout=60, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"kalooki {' '.join(args)} did not end")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([*SIMULATE, "--csv", "out.csv"], f"out.csv: {FIFO}; --csv - writes to standard output"),
        ([*SIMULATE, "--report", "out.html"], f"out.html: {FIFO}"),
        ([*SIMULATE, "--compare-set", "jokers=4", "--plot", "out.png"], f"out.png: {FIFO}"),
        ([*SWEEP, "--csv", "out.csv"], f"out.csv: {FIFO}; --csv - writes to standard output"),
        ([*SWEEP, "--report", "out.html"], f"out.html: {FIFO}"),
        ([*SWEEP, "--out", "out.dir"], "out.dir: is a pipe (FIFO), not a folder"),
        (["new", "out.yaml", "--force"], f"out.yaml: {FIFO}"),
    ],
)
def test_a_fifo_is_refused_before_any_game(args: list[str], said: str, tmp_path: Path) -> None:
    fifo = next(arg for arg in args if arg.startswith("out."))
    os.mkfifo(tmp_path / fifo)
    result = kalooki(tmp_path, *args)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", said + "\n")
    assert [path.name for path in tmp_path.iterdir()] == [fifo]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([*SWEEP, "--out", "/dev/full"], "/dev/full: is a device, not a folder"),
        (
            [*SIMULATE, "--csv", "/dev/full"],
            "/dev/full: is a device, not a regular file; --csv - writes to standard output",
        ),
    ],
)
def test_a_device_is_refused_before_any_game(args: list[str], said: str, tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    result = kalooki(tmp_path, *args)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", said + "\n")


@pytest.mark.parametrize(
    "args",
    [
        ["new", "link.yaml"],
        ["new", "link.yaml", "--force"],
        [*SIMULATE, "--csv", "link.yaml"],
        [*SWEEP, "--out", "link.yaml"],
    ],
)
def test_a_link_to_a_missing_file_is_refused_and_nothing_written(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "link.yaml").symlink_to(tmp_path / "gone" / "rules.yaml")
    (tmp_path / "gone").mkdir()
    result = kalooki(tmp_path, *args)
    target = tmp_path / "gone" / "rules.yaml"
    said = f"link.yaml: is a symbolic link to {target}, which does not exist: give a new name"
    if "--csv" in args:
        said += "; --csv - writes to standard output"
    assert (result.returncode, result.stdout, result.stderr) == (1, "", said + "\n")
    assert list((tmp_path / "gone").iterdir()) == []


def test_dev_null_and_a_pipe_the_command_was_given_take_the_output(tmp_path: Path) -> None:
    # They were refused with the FIFOs and devices that hang or fail: /dev/null throws the rows away,
    # and a pipe the shell made for this command (--csv >(wc -l), /dev/stdout piped on) has its reader.
    thrown = kalooki(tmp_path, *SIMULATE, "--csv", os.devnull)
    assert thrown.returncode == 0, thrown.stderr
    read, write = os.pipe()
    try:
        given = subprocess.run(
            [str(KALOOKI), *SIMULATE, "--csv", f"/dev/fd/{write}"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            pass_fds=(write,),
            check=False,
        )
        os.close(write)
        rows = os.read(read, 100_000).decode()
    finally:
        os.close(read)
    assert given.returncode == 0, given.stderr
    assert rows.startswith("variant,game,seed,")


def test_a_link_that_loops_is_refused_as_an_output_and_as_a_games_log(tmp_path: Path) -> None:
    # simulate --csv through a looping link stopped with a traceback (the check that two options name
    # one file resolved it first); a game's --log through a link to nothing wrote at its target.
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    looped = kalooki(tmp_path, *SIMULATE, "--csv", "loop1")
    assert (looped.returncode, looped.stderr) == (
        1,
        "loop1: is a symbolic link that leads round in a loop; --csv - writes to standard output\n",
    )
    (tmp_path / "log.jsonl").symlink_to("gone.jsonl")
    script = Path(__file__).parent / "golden" / "scripts" / "kalooki-opening.yaml"
    logged = kalooki(tmp_path, "play", str(script), "--log", "log.jsonl")
    assert (logged.returncode, logged.stderr) == (
        1,
        "log.jsonl: is a symbolic link to gone.jsonl, which does not exist: give a new name\n",
    )
    assert not (tmp_path / "gone.jsonl").exists()
