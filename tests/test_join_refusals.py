"""A join the table refuses for a mistake its player can mend (a name taken, a wrong code) says, after
the table's words, what to type next; it exits 1 and keeps no seat."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from net_helpers import Player, hosted, new_table

KALOOKI = Path(sys.executable).with_name("kalooki")


def refused_join(tmp_path: Path, address: str, code: str, name: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path / "home"), "COLUMNS": "300", "NO_COLOR": "1"}
    return subprocess.run(
        [str(KALOOKI), "join", address, "--code", code, "--name", name],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_a_name_taken_and_a_wrong_code_say_what_to_type_next(tmp_path: Path) -> None:
    table = new_table(seats=3, seed=31)
    with hosted(table) as host:
        seated = Player(host.uri)
        seated.join(table.code, name="bob")
        address = f"127.0.0.1:{host.server.port}"
        taken = refused_join(tmp_path, address, table.code, "bob")
        wrong = refused_join(tmp_path, address, "WRONG9" if table.code != "WRONG9" else "WRONG8", "cid")
    assert taken.returncode == 1, taken.stderr
    assert taken.stderr.splitlines()[-1] == (
        "the table refused to seat you: someone at the table is already called bob; "
        "join again with another --name"
    )
    assert wrong.returncode == 1, wrong.stderr
    assert wrong.stderr.splitlines()[-1] == (
        "the table refused to seat you: that is not this table's join code; check the code the host's "
        "screen shows (--code), or the address, if that is another table"
    )
    assert not (tmp_path / "home" / "tables").exists() or not any((tmp_path / "home" / "tables").iterdir())
