"""``kalooki replay LOG --show``, and replay given a file that is not a log."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from kalooki_cli.app import app
from test_commands import kalooki, needs_script
from typer.testing import CliRunner

from kalooki.savegame import SAVE_SUFFIX

SCRIPTS = Path(__file__).parent / "golden" / "scripts"


@pytest.fixture
def bots_log(tmp_path: Path) -> Path:
    """The log of a whole game of two hands, every seat a bot."""
    log = tmp_path / "bots.jsonl"
    result = CliRunner().invoke(app, ["play", str(SCRIPTS / "bots-game.yaml"), "--log", str(log)])
    assert result.exit_code == 0, result.output
    return log


@needs_script
def test_show_into_a_pipe_plays_the_whole_game_at_once(bots_log: Path) -> None:
    result = kalooki("replay", str(bots_log), "--show")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for hand in (1, 2):
        assert f"Hand {hand}: " in out
        assert f"Hand {hand} is over" in out
    assert "Enter" not in out  # nothing to step through in a pipe
    assert "ann draws from the stock" in out
    assert " from the stock." not in out.replace("draws from the stock", "")  # no stock card is named
    assert "Game over" in out
    # The table's words ("ann wins the game!"), not the script's narration ("ann wins the game").
    assert not re.search(r"wins the game(?!!)", out)
    assert out.rstrip().splitlines()[-1].startswith(f"{bots_log}: ok: ")


def test_show_tells_each_turn_in_one_line_as_the_table_does(bots_log: Path) -> None:
    # Each action had a line of its own ("Ann draws from the stock." then "Ann discards 7♠."), where the
    # table, and --show's help, tell a turn in one line.
    out = CliRunner().invoke(app, ["replay", str(bots_log), "--show"], env={"COLUMNS": "200"}).output
    lines = out.splitlines()
    first = next(index for index, line in enumerate(lines) if line.lstrip("─ ").startswith("Hand 1: "))
    turns = lines[first + 1 : first + 5]
    assert [line.split()[0] for line in turns] == ["ann", "bob", "cid", "dee"]
    for line in turns:
        assert re.fullmatch(
            r"\w+ (draws from the stock|takes \S+ from the discard pile), .*discards \S+\.", line
        ), line
    assert not any(line.endswith(" from the stock.") for line in lines)


def test_show_hides_the_stock_draws_of_a_player_named_you(tmp_path: Path) -> None:
    # "you" is the name a person keeps by default; watched back, their stock draws were named as if
    # the watcher held their cards, while everyone else's stayed hidden.
    script = tmp_path / "you-game.yaml"
    script.write_text((SCRIPTS / "bots-game.yaml").read_text().replace("name: ann", "name: you"))
    log = tmp_path / "you.jsonl"
    assert CliRunner().invoke(app, ["play", str(script), "--log", str(log)]).exit_code == 0
    out = CliRunner().invoke(app, ["replay", str(log), "--show"], env={"COLUMNS": "200"}).output
    assert "you draw from the stock, discard 2♥." in out.splitlines()  # the name as written
    # No stock card is named, the person's or anyone's.
    assert not re.search(r"draws? \S+ from the stock", out)


def test_show_tells_the_moves_of_a_turn_the_log_stops_in(bots_log: Path) -> None:
    lines = bots_log.read_text().splitlines(keepends=True)
    draws = [index for index, line in enumerate(lines) if line.startswith('{"type":"draw"')]
    bots_log.write_text("".join(lines[: draws[1] + 1]))  # the second player's draw, and no more
    out = CliRunner().invoke(app, ["replay", str(bots_log), "--show"], env={"COLUMNS": "200"}).output
    assert out.splitlines()[1:3] == [
        "ann draws from the stock, discards 2♥.",
        "bob takes 2♥ from the discard pile.",
    ]


@needs_script
def test_show_on_a_terminal_steps_hand_by_hand(bots_log: Path, tmp_path: Path) -> None:
    from test_play_pty import Terminal, environment

    terminal = Terminal(["replay", str(bots_log), "--show"], environment(tmp_path))
    try:
        terminal.read_until(r"Hand 1 is over[\s\S]*Enter: the next hand, q: stop")
        assert "Hand 2: " not in terminal.output
        terminal.type("q\r")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    assert "Hand 2: " not in terminal.output


@needs_script
@pytest.mark.parametrize(("key", "status"), [("\x04", 0), ("\x03", 130)], ids=["ctrl-d", "ctrl-c"])
def test_show_ends_its_line_on_ctrl_d_or_ctrl_c(
    bots_log: Path, tmp_path: Path, key: str, status: int
) -> None:
    from test_play_pty import Terminal, environment

    terminal = Terminal(["replay", str(bots_log), "--show"], environment(tmp_path))
    try:
        terminal.read_until(r"Enter: the next hand, q: stop ")
        if key == "\x03":
            terminal.interrupt()
        else:
            terminal.type(key)
        # Ctrl-C exits with the shell's status for it, as a game does.
        assert terminal.wait() == status
    finally:
        terminal.kill()
    # The shell's prompt comes on a line of its own (the terminal echoes Ctrl-C as ^C).
    # Without the prompt's style, which may come marked for readline or not, as it reached the pty.
    shown = re.sub(r"[\x01\x02]|\x1b\[[0-9;]*m", "", terminal.output)
    assert re.search(r"q: stop (\^C)?\n\Z", shown), shown[-100:]


@needs_script
def test_show_on_a_terminal_stops_after_the_last_hand_of_a_log_without_asking(
    bots_log: Path, tmp_path: Path
) -> None:
    from test_play_pty import Terminal, environment

    # The log of a game stopped between its first and second hands.
    lines = bots_log.read_text().splitlines(keepends=True)
    second_deal = [index for index, line in enumerate(lines) if line.startswith('{"type":"deal"')][1]
    bots_log.write_text("".join(lines[:second_deal]))
    terminal = Terminal(["replay", str(bots_log), "--show"], environment(tmp_path))
    try:
        terminal.read_until(r"Hand 1 is over[\s\S]*: ok: .*the log stops between hands")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    assert "Enter: the next hand" not in terminal.output


def test_replay_says_what_a_file_that_is_not_a_log_is(tmp_path: Path) -> None:
    runner = CliRunner()
    script = tmp_path / "game.yaml"
    shutil.copy(SCRIPTS / "kalooki-opening.yaml", script)
    result = runner.invoke(app, ["replay", str(script)])
    assert result.exit_code == 1
    assert f"this is a game script, not a log: run it with `kalooki play {script}`" in result.output
    variant = tmp_path / "friday.yaml"
    variant.write_text("extends: classic\njokers: 4\n")
    result = runner.invoke(app, ["replay", str(variant)])
    assert f"this is a variant file, not a log: play it with `kalooki play {variant}`" in result.output
    save = tmp_path / f"g{SAVE_SUFFIX}"
    save.write_text('{"format":"kalooki-save","version":1}')
    result = runner.invoke(app, ["replay", str(save)])
    assert f"this is a saved game, not a log: continue it with `kalooki resume {save}`" in result.output
    report = tmp_path / "result.json"
    report.write_text(json.dumps({"rules": {}, "games": 2, "seat_hand_wins": []}, indent=2))
    for command in ("replay", "resume"):
        result = runner.invoke(app, [command, str(report)])
        wanted = "log" if command == "replay" else "save"
        assert result.exit_code == 1
        said = f"this is the report `kalooki simulate --json` writes, not a {wanted}"
        assert f"{said}; no command reads it back" in result.output
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    result = runner.invoke(app, ["replay", str(other)])
    assert result.exit_code == 1
    assert f"{other}:1:1: not JSON" in result.output


def test_validate_replay_and_resume_hint_at_the_command_in_one_wording(tmp_path: Path) -> None:
    script = tmp_path / "game.yaml"
    shutil.copy(SCRIPTS / "kalooki-opening.yaml", script)
    for command, wanted in (("validate", "variant"), ("replay", "log"), ("resume", "save")):
        result = CliRunner().invoke(app, [command, str(script)])
        assert result.exit_code == 1
        assert f"this is a game script, not a {wanted}: run it with `kalooki play {script}`" in result.output
