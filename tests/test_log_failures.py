"""A game's ``--log`` that cannot be written in mid-game (a full disk, deleted, replaced): said once, in one
line naming the log, and the game goes on without it, as it does when a save fails; never a traceback."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from kalooki_cli import turn_log
from kalooki_cli.turn_log import TurnLogWriter
from test_interactive import fixed_game, run

from kalooki.savegame import load_save

MOVES = ["ds", "d KD", "ds", "d 2C"]


def failures(transcript: str) -> list[str]:
    return [line for line in transcript.splitlines() if line.startswith("✗ ")]


def disk_full_after(writes: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's ``writes`` first writes go through; every one after fails as on a full disk."""
    real = os.write
    done = [0]

    def write(descriptor: int, data: bytes | memoryview) -> int:
        done[0] += 1
        if done[0] > writes:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(descriptor, data)

    monkeypatch.setattr(turn_log.os, "write", write)


def after_first_move(change: Callable[[], None]) -> Callable[[str], str]:
    """A player who types MOVES, ``change`` done to the log after the first of them."""
    lines = iter(MOVES)
    typed = [0]

    def read_line(prompt: str) -> str:
        typed[0] += 1
        if typed[0] == 2:
            change()
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    return read_line


def test_a_full_disk_in_mid_game_is_said_once_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = fixed_game()
    log, save = tmp_path / "game.jsonl", tmp_path / "game.kalooki-save.json"
    writer = TurnLogWriter(game, log)
    disk_full_after(0, monkeypatch)
    code, transcript, _ = run(game, MOVES, save_path=save, log=writer, width=400)
    assert code == 0
    assert failures(transcript) == [
        f"✗ {log}: cannot write the log: No space left on device; the game goes on, no longer logged"
    ]
    assert [json.loads(line)["type"] for line in log.read_text().splitlines()] == ["game", "deal"]
    # The save says the game went on without its log: a resume neither looks for it nor calls it another's.
    session = load_save(save.read_bytes()).session
    assert (session.log, session.log_left) == ("", str(log.absolute()))
    assert game.turn_number > 1  # the moves were played


def test_a_log_deleted_in_mid_game_is_not_made_again(tmp_path: Path) -> None:
    game = fixed_game()
    log = tmp_path / "game.jsonl"
    writer = TurnLogWriter(game, log)
    code, transcript, _ = run(game, after_first_move(log.unlink), log=writer, width=400)
    assert code == 0
    assert failures(transcript) == [
        f"✗ {log}: the log is gone (deleted, or its folder was); it is not made again; "
        "the game goes on, no longer logged"
    ]
    assert not log.exists()


def test_a_log_replaced_in_mid_game_is_not_written_into(tmp_path: Path) -> None:
    game = fixed_game()
    log = tmp_path / "game.jsonl"
    writer = TurnLogWriter(game, log)

    def replace() -> None:
        log.unlink()
        log.write_text("someone else's\n")

    code, transcript, _ = run(game, after_first_move(replace), log=writer, width=400)
    assert code == 0
    assert failures(transcript) == [
        f"✗ {log}: the log was replaced by another file; it is not written into; "
        "the game goes on, no longer logged"
    ]
    assert log.read_text() == "someone else's\n"


def test_a_log_become_a_folder_is_said_so(tmp_path: Path) -> None:
    game = fixed_game()
    log = tmp_path / "game.jsonl"
    writer = TurnLogWriter(game, log)

    def folder() -> None:
        log.unlink()
        log.mkdir()

    code, transcript, _ = run(game, after_first_move(folder), log=writer, width=400)
    assert code == 0
    assert failures(transcript) == [
        f"✗ {log}: cannot write the log: Is a directory; the game goes on, no longer logged"
    ]


def test_a_hosted_table_whose_log_fails_tells_the_host_and_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("websockets")
    from kalooki_cli.saves import write_save
    from net_helpers import new_table

    table = new_table(seats=2)
    log, save = tmp_path / "table.jsonl", tmp_path / "table.kalooki-save.json"
    told: list[str] = []
    table.save_path, table.write_save = save, write_save
    table.log_factory = lambda game: TurnLogWriter(game, log)
    table.log_place = str(log.absolute())
    table.on_log_failure = told.append
    table.join("ann", host=True)
    table.start()
    disk_full_after(0, monkeypatch)
    table.move(table.require_game().current, "ds")
    assert told == [
        f"{log}: cannot write the log: No space left on device; the game goes on, no longer logged"
    ]
    assert table.log is None
    session = load_save(save.read_bytes()).session
    assert (session.log, session.log_left) == ("", str(log.absolute()))
