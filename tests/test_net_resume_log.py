"""A hosted table's save remembers its log: ``kalooki host --resume`` goes on writing it, as
``kalooki resume`` does a terminal game's, and refuses to open past a log that is gone."""

from __future__ import annotations

import json
import os
import queue
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from net_helpers import TIMEOUT, Player, play_moves
from test_net_host_process import KALOOKI, start_host, two_players_in_a_game

from kalooki.log import replay


def actions(log: Path) -> int:
    return replay([json.loads(line) for line in log.read_text().splitlines()]).actions


def test_a_reopened_table_goes_on_writing_its_log(tmp_path: Path) -> None:
    # Reopened, the table wrote no more of its log, and --log with --resume was refused: the rest of
    # the game was in no log.
    save, log = tmp_path / "table.kalooki-save.json", tmp_path / "table.jsonl"
    host, uri, code = start_host(
        tmp_path, "--seats", "2", "--seed", "21", "--save", str(save), "--log", str(log)
    )
    try:
        players = two_players_in_a_game(uri, code)
        play_moves(players, 5)
        tokens = [player.token for player in players]
    finally:
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0
    before = actions(log)
    heard: queue.Queue[str] = queue.Queue()
    host, uri, code = start_host(tmp_path, "--resume", str(save), heard=heard)
    try:
        while not heard.get(timeout=TIMEOUT).startswith("The game is saved after every move"):
            pass
        after = heard.get(timeout=TIMEOUT)
        if after == f"  {save}":  # the save's path, too long for the line, on a line of its own
            after = heard.get(timeout=TIMEOUT)
        assert after == f"Its log goes on, as before, in {log}"
        rejoined = [Player(uri), Player(uri)]
        for player, token in zip(rejoined, tokens, strict=True):
            player.join(code, token=token)
            player.until("state")
        play_moves(rejoined, 4)
    finally:
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0
    assert actions(log) == before + 4
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "300"}
    moved = tmp_path / "mo\tved.jsonl"  # a tab in its name is spelled on the screen, as elsewhere
    log.rename(moved)
    arguments = [str(KALOOKI), "host", "--resume", str(save), "--watch", "--bind", "127.0.0.1", "--port", "0"]
    done = subprocess.run(arguments, input="", capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert done.returncode == 1
    assert done.stderr == (
        f"{log}: this game's log is not there; it was written up to the save: give its new place "
        "with --log FILE.jsonl, or play on without a log with --no-log\n"
    )
    done = subprocess.run(
        [*arguments, "--log", str(moved)],
        input="",
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    assert f"Its log goes on, as before, in {tmp_path / 'mo'}\\tved.jsonl" in done.stdout
