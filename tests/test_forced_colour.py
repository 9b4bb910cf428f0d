"""FORCE_COLOR asks for colour into a pipe or a file; it does not make them a terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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
