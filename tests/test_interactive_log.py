"""The game log written as an interactive game is played (``kalooki play --log``): what was undone is
left out, every action carries the state after it, one compact line a record, and it replays."""

from __future__ import annotations

import json
from pathlib import Path

from kalooki_cli.app import app
from kalooki_cli.turn_log import TurnLogWriter
from test_interactive import error_lines, fixed_game, run
from typer.testing import CliRunner

from kalooki.log import replay


def test_the_log_leaves_out_what_was_undone_and_replays(tmp_path: Path) -> None:
    game = fixed_game()
    log = tmp_path / "game.jsonl"
    writer = TurnLogWriter(game, log)
    lines = ["ds", "m 7H 8H 9H TH, QS QD QC", "undo", "m 7H 8H 9H TH, QS QD QC", "d KD", "ds", "d 2C"]
    code, _, _ = run(game, lines, log=writer)
    assert code == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [record["type"] for record in records if record.get("player") == "you"] == [
        "draw",
        "meld",
        "discard",
        "draw",
        "discard",
    ]
    summary = replay(records)
    assert summary.actions >= 4


def test_the_log_has_a_state_on_each_action_and_is_compact(tmp_path: Path) -> None:
    game = fixed_game(hand="7H 8H 9H TH QS QD QC 6H 5H 5D 6S KD 3S")
    log = tmp_path / "game.jsonl"
    lines = ["ds", "m 7H 8H 9H TH, QS QD QC", "b 1 6H", "b 1 5H", "d KD", "ds", "d 3S"]
    code, transcript, _ = run(game, lines, log=TurnLogWriter(game, log))
    assert code == 0
    assert error_lines(transcript) == []
    text = log.read_text()
    records = [json.loads(line) for line in text.splitlines()]
    assert text.splitlines() == [json.dumps(record, separators=(",", ":")) for record in records]
    yours = [record for record in records if record.get("player") == "you"]
    assert [record["type"] for record in yours] == [
        "draw",
        "meld",
        "build",
        "build",
        "discard",
        "draw",
        "discard",
    ]
    assert all("state" in record for record in yours)  # each engine call's last event: here each action
    result = CliRunner().invoke(app, ["replay", str(log)])
    assert result.exit_code == 0, result.output
