"""FORCE_COLOR asks for colour into a pipe or a file; it does not make them a terminal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

KALOOKI = Path(sys.executable).with_name("kalooki")


def kalooki(*arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "NO_COLOR")}
    environment.update({"COLUMNS": "100", **env})
    return subprocess.run(
        [str(KALOOKI), *arguments], capture_output=True, text=True, env=environment, timeout=120
    )


@pytest.mark.parametrize("env", [{"FORCE_COLOR": "1"}, {"FORCE_COLOR": "1", "NO_COLOR": "1"}])
def test_rules_into_a_pipe_are_markdown(env: dict[str, str]) -> None:
    markdown = kalooki("rules", "classic").stdout
    assert markdown.startswith("# classic\n\n")
    assert kalooki("rules", "classic", **env).stdout == markdown


def test_no_progress_bar_into_a_pipe_and_no_trailing_spaces() -> None:
    result = kalooki("simulate", "classic", "--games", "4", FORCE_COLOR="1")
    assert (result.returncode, result.stderr) == (0, "")
    assert [line for line in result.stdout.splitlines() if line.endswith(" ")] == []


def test_the_hot_seat_pass_screen_clears_nothing_in_a_pipe() -> None:
    keys = "\nds\nd 2C\n\nquit\n"
    plain = subprocess.run(
        [str(KALOOKI), "play", "--humans", "van,ann", "--seed", "5"],
        input=keys,
        capture_output=True,
        text=True,
        env={key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "NO_COLOR")},
        timeout=120,
    )
    forced = subprocess.run(
        [str(KALOOKI), "play", "--humans", "van,ann", "--seed", "5"],
        input=keys,
        capture_output=True,
        text=True,
        env={**os.environ, "FORCE_COLOR": "1"},
        timeout=120,
    )
    assert forced.stdout.count("Pass to ") == plain.stdout.count("Pass to ") == 2
    # No screen clear, no scrollback erase: the pipe gets the blank lines a file gets instead.
    assert "\x1b[2J" not in forced.stdout
    assert "\x1b[3J" not in forced.stdout


class _Keyboard(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("asked", ["pause between bots", "line editing", "keyboard at the table"])
def test_a_forced_colour_pipe_is_no_terminal_with_a_keyboard(
    asked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kalooki_cli.line_editing import _editing
    from kalooki_cli.output import at_terminal
    from kalooki_cli.play import terminal_pause

    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", _Keyboard())
    console = Console(file=io.StringIO())
    assert console.is_terminal  # as rich has it under FORCE_COLOR
    if asked == "pause between bots":
        assert terminal_pause(console, fast=False) is None
    elif asked == "line editing":
        assert _editing(console) is False
    else:
        assert at_terminal(console) is False
