"""A closed standard input (``kalooki play <&-``) reads as an empty one, as ``</dev/null`` does; so does one
open for writing only (``nohup`` gives one, "ignoring input")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kalooki_cli.app import app
from typer.testing import CliRunner

KALOOKI = Path(sys.executable).with_name("kalooki")
SCRIPTS = Path(__file__).parent / "golden" / "scripts"
CLOSED = 'exec "$0" "$@" <&-'
"""A shell line that runs its arguments with standard input closed."""


WRITE_ONLY = 'exec "$0" "$@" 0>/dev/null'
"""A shell line that runs its arguments with standard input a file open for writing alone."""


def closed(*arguments: str, shell_line: str = CLOSED) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "COLUMNS": "100"}
    return subprocess.run(
        ["/bin/sh", "-c", shell_line, str(KALOOKI), *arguments],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )


def test_play_resume_and_hot_seat_end_as_at_the_end_of_input() -> None:
    for arguments in (["play"], ["resume", "1"], ["play", "--humans", "ann,bob"]):
        result = closed(*arguments)
        assert "Traceback" not in result.stderr
        assert (result.returncode, result.stderr) == (0, "")
        assert "End of input: the game is saved in" in result.stdout


def test_host_closes_its_table() -> None:
    result = closed("host", "--port", "0", "--bind", "127.0.0.1")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.endswith("End of input: the table is closed.\n")


def test_a_standard_input_that_cannot_be_read_is_the_end_of_input_too(tmp_path: Path) -> None:
    # nohup's: each prompt died in "OSError: [Errno 9] Bad file descriptor", its traceback in nohup.out.
    with_home = f"export KALOOKI_HOME={tmp_path}; {WRITE_ONLY}"
    result = closed("play", "--seed", "4", shell_line=with_home)
    assert (result.returncode, result.stderr) == (0, "")
    assert "End of input: the game is saved in" in result.stdout
    result = closed("host", "--port", "0", "--bind", "127.0.0.1", shell_line=with_home)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.endswith("End of input: the table is closed.\n")


def test_replay_show_on_a_terminal(tmp_path: Path) -> None:
    from test_play_pty import Terminal, environment

    log = tmp_path / "bots.jsonl"
    result = CliRunner().invoke(app, ["play", str(SCRIPTS / "bots-game.yaml"), "--log", str(log)])
    assert result.exit_code == 0, result.output
    arguments = ["-c", CLOSED, str(KALOOKI), "replay", str(log), "--show"]
    terminal = Terminal(arguments, environment(tmp_path), program=Path("/bin/sh"))
    try:
        # No one to press Enter: the whole game is shown at once, as into a pipe.
        terminal.read_until(r"Hand 2 is over[\s\S]*: ok: .*the game is over")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    assert "Traceback" not in terminal.output
