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
