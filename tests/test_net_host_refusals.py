"""``kalooki host``'s refusals before a table opens: options out of range, files that are no save, and
the save and log it never writes over (each a real process or the command in this one)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

pytest.importorskip("websockets")


KALOOKI = Path(sys.executable).with_name("kalooki")
GOLDEN_SCRIPTS = Path(__file__).parent / "golden" / "scripts"


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--port", "99999"], "99999 is not a port: give 1 to 65535, or 0 for any free port"),
        (["--port", "-1"], "-1 is not a port"),
        (["--wait", "nan"], "'nan' is not a number of seconds: give 0 or more"),
        (["--wait", "inf"], "'inf' is not a number of seconds"),
        (["--bot-pause", "-0.5"], "'-0.5' is not a number of seconds"),
        (
            ["--bot-time", "0"],
            "Invalid value for '--bot-time': a bot's turn is waited for more than 0 seconds",
        ),
        # Refused before the seats: taken as not given, it opened a table of the default bots.
        (["--bots", "", "--seats", "9"], "Invalid value for '--bots': give a bot name, not an empty value"),
        # More names than seats: the last was left out without a word, where kalooki play refuses it.
        (
            ["--seats", "3", "--bots", "greedy,random,expert,greedy"],
            "Invalid value for '--bots': 4 bots for 3 seats (--seats 3)",
        ),
        (
            ["--bots", "greedy,random,expert,greedy,expert"],
            "Invalid value for '--bots': 5 bots for 4 seats (--seats 4)",
        ),
        # The option as typed, whichever name: --players blamed a --seats nobody typed.
        (["--players", "9"], "Invalid value for '--seats' / '--players': classic is for 2 to 4 players"),
    ],
)
def test_a_host_option_out_of_range_is_a_usage_error(option: list[str], said: str) -> None:
    # A NaN wait was written into the save as JSON's non-number NaN: the save could not be resumed.
    result = CliRunner().invoke(app, ["host", "--bind", "127.0.0.1", *option])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.split())


def host_resume(path: Path) -> subprocess.CompletedProcess[str]:
    """``kalooki host --resume PATH`` on a free local port, which is expected to refuse the file."""
    return subprocess.run(
        [str(KALOOKI), "host", "--resume", str(path), "--bind", "127.0.0.1", "--port", "0"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
    )  # fmt: skip


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_host_resume_refuses_a_fifo_and_a_device_by_name(tmp_path: Path) -> None:
    # They were read whole, with no cap: a FIFO with no writer held the command for ever, and
    # /dev/zero filled the memory. The timeout only keeps a regression from hanging the suite.
    fifo = tmp_path / "table.json"
    os.mkfifo(fifo)
    for path, said in ((fifo, "is a pipe (FIFO)"), (Path("/dev/zero"), "is a device")):
        result = host_resume(path)
        assert result.returncode == 1, result.stderr
        assert result.stderr.strip() == f"{path}: cannot read the save: {said}, not a regular file"


def test_host_resume_names_a_log_a_script_or_a_variant_given_for_a_save(tmp_path: Path) -> None:
    # Each was called a damaged save ("the save is damaged: it is not valid JSON"); kalooki resume names them.
    # The variant is one to host: it was "play it with `kalooki play ...`", at a table opened to friends.
    log = tmp_path / "game.jsonl"
    log.write_text('{"type": "header", "format": "kalooki-log", "version": 1}\n{"type": "deal"}\n')
    script = tmp_path / "game.yaml"
    script.write_text((GOLDEN_SCRIPTS / "bots-game.yaml").read_text())
    variant = tmp_path / "friday.yaml"
    variant.write_text("jokers: 4\n")
    for path, said in (
        (log, f"this is a game log, not a save: replay it with `kalooki replay {log}`"),
        (script, f"this is a game script, not a save: run it with `kalooki play {script}`"),
        (variant, f"this is a variant file, not a save: host it with `kalooki host {variant}`"),
    ):
        before = path.read_bytes()
        result = host_resume(path)
        assert result.returncode == 1, result.stderr
        assert result.stderr.strip() == f"{path}: {said}"
        assert path.read_bytes() == before


def test_host_save_never_writes_over_another_file(tmp_path: Path) -> None:
    # The table's first save replaced whatever --save named: a variant file, a log, another game.
    def host_saving_to(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(KALOOKI), "host", "--save", str(path), "--bind", "127.0.0.1", "--port", "0", "--watch"],
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
        )  # fmt: skip

    friday = tmp_path / "friday.yaml"
    friday.write_text("jokers: 4\n")
    result = host_saving_to(friday)
    assert result.returncode == 1, result.stderr
    over = "already exists, and a save would write over it; give a new file"
    assert result.stderr.strip() == f"{friday}: {over}"
    assert friday.read_text() == "jokers: 4\n"
    table = tmp_path / "table.json"
    table.write_text('{"format":"kalooki-save","version":1}')
    result = host_saving_to(table)
    assert result.returncode == 1, result.stderr
    assert f"(continue it with `kalooki host --resume {table}`); give a new file" in result.stderr


def test_host_log_never_writes_over_a_file_that_holds_something(tmp_path: Path) -> None:
    # The table opened, and its first hand's log replaced the file: a saved game, or the log of an
    # earlier table (whose moves are in it only). kalooki play --log refused it already.
    save = tmp_path / "game.kalooki-save.json"
    save.write_text('{"format": "kalooki-save", "version": 1}')
    log = tmp_path / "friday.jsonl"
    log.write_text('{"type": "game", "format": "kalooki-log", "version": 1}\n')
    for path in (save, log):
        before = path.read_bytes()
        result = subprocess.run(
            [str(KALOOKI), "host", "--log", str(path), "--bind", "127.0.0.1", "--port", "0", "--watch"],
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
        )  # fmt: skip
        assert result.returncode == 1, result.stdout
        assert result.stderr == f"{path}: already exists, and the log would write over it; give a new file\n"
        assert path.read_bytes() == before
