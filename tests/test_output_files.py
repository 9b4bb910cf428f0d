"""Files the commands write (``--csv``, ``--report``, ``kalooki new``) and standard output: a path
that cannot be written is refused in one line before any work, and what is not a plain file
(a device, a FIFO, a symbolic link) is written through, never replaced."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kalooki_cli.saves import write_atomically


def test_a_fifo_is_written_through_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "rows.csv"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomically(fifo, "seed,hands\n1,3\n")
        assert stat.S_ISFIFO(fifo.lstat().st_mode)
        assert os.read(reader, 1000) == b"seed,hands\n1,3\n"
    finally:
        os.close(reader)
    assert [path.name for path in tmp_path.iterdir()] == ["rows.csv"]


def test_a_symbolic_link_stays_a_link_to_the_file_it_names(tmp_path: Path) -> None:
    target = tmp_path / "kept" / "games.csv"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "games.csv"
    link.symlink_to(target)
    write_atomically(link, "new\n")
    assert link.is_symlink()
    assert target.read_text() == "new\n"
    assert sorted(path.name for path in target.parent.iterdir()) == ["games.csv"]
