"""Tables written where the console cannot write every symbol (``LC_ALL=C``) stay in line: rich
measured ± as one column, and the +/- written in its place took three, pushing that row's cells out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

KALOOKI = Path(sys.executable).with_name("kalooki")


def test_the_sweep_table_in_ascii_keeps_its_columns_in_line() -> None:
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "LANG"))}
    environment.update(LC_ALL="C", PYTHONUTF8="0", PYTHONIOENCODING="", COLUMNS="100")
    arguments = ["sweep", "--grid", "opening_threshold=40,51", "-n", "20", "--workers", "1"]
    result = subprocess.run(
        [str(KALOOKI), *arguments], capture_output=True, text=True, env=environment, timeout=120
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    first = next(index for index, line in enumerate(lines) if line.startswith("+"))
    last = next(index for index in range(first + 1, len(lines)) if lines[index].startswith("+"))
    table = lines[first : last + 1]
    assert any("+/-" in line for line in table), "\n".join(table)
    assert len({len(line) for line in table}) == 1, "\n".join(table)
