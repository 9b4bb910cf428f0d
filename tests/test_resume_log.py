"""A save remembers its game's log: ``kalooki resume`` without ``--log`` goes on writing it, refuses to
play past a log that is gone or changed, and ``--no-log`` plays on without it, deliberately."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.saves import read_save
from typer.testing import CliRunner

from kalooki.cards import format_card
from kalooki.log import replay
from kalooki.savegame import SAVE_SUFFIX

runner = CliRunner()
KALOOKI = Path(sys.executable).with_name("kalooki")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "home"


def play(*arguments: str, typed: str = "", code: int = 0) -> str:
    result = runner.invoke(app, list(arguments), input=typed)
    assert result.exit_code == code, result.output
    return " ".join(result.output.split())


def discard(save: Path) -> str:
    return f"d {format_card(read_save(save).game.hands[0][0])}\n"


def records(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_resume_without_log_goes_on_writing_the_games_log(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Resumed without --log, a move was played that no log held: the hint dropped --log, and the
    # log could never be continued again ("it is the log of another game").
    save = Path(f"g{SAVE_SUFFIX}")
    play("play", "--seed", "5", "--players", "2", "--save", str(save), "--log", "game.jsonl", typed="ds\n")
    output = play("resume", str(save), "--fast", typed=discard(save))
    assert "Its log goes on, as before, in game.jsonl" in output
    # The save names its log: the line needs no --log, which given as typed was not found elsewhere.
    assert output.endswith(f"Continue it with: kalooki resume {save}")
    output = play("resume", str(save), "--log", "game.jsonl", typed="ds\n")
    assert "Its log goes on, as before, in game.jsonl" in output
    logged = records(Path("game.jsonl"))
    assert [record["type"] for record in logged if record.get("player") == "you"] == [
        "draw",
        "discard",
        "draw",
    ]
    assert replay(logged).ends == "in hand 1, turn 3 (you to play)"
    # From another folder the save still finds its log, named as it is from there.
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    output = play("resume", str(tmp_path / save), typed="")
    assert f"Its log goes on, as before, in {tmp_path / 'game.jsonl'}" in output
    assert output.endswith(f"Continue it with: kalooki resume {tmp_path / save}")
    monkeypatch.chdir(tmp_path)
    # A game saved in the saves folder is named whole in the line; its log is the save's to name.
    output = play("play", "--seed", "8", "--players", "2", "--log", "new.jsonl", typed="quit\n")
    hint = output.split("Continue it with: ")[1].splitlines()[0]
    assert hint.startswith(f"kalooki resume {home / 'saves'}")
    assert "--log" not in hint
    # A game played without --log records no log, and resumes without one as a save from before did.
    plain = Path(f"p{SAVE_SUFFIX}")
    play("play", "--seed", "6", "--players", "2", "--save", str(plain), typed="ds\n")
    session = json.loads(plain.read_text())["session"]
    assert not {"log", "log_left"} & set(session)
    assert "log goes on" not in play("resume", str(plain), typed=discard(plain))


def test_a_hot_seat_game_goes_on_writing_its_log(home: Path) -> None:
    save = Path(f"h{SAVE_SUFFIX}")
    play(
        "play",
        "--humans",
        "ann,bob",
        "--seed",
        "3",
        "--fast",
        "--save",
        str(save),
        "--log",
        "h.jsonl",
        typed="\nds\n",
    )
    card = format_card(read_save(save).game.hands[0][0])
    output = play("resume", str(save), "--fast", typed=f"\nd {card}\n")
    assert "Its log goes on, as before, in h.jsonl" in output
    logged = records(Path("h.jsonl"))
    assert [record["type"] for record in logged if record.get("player") == "ann"] == ["draw", "discard"]
    replay(logged)


def test_a_log_that_is_gone_or_changed_stops_the_resume(home: Path) -> None:
    save = Path(f"g{SAVE_SUFFIX}")
    play("play", "--seed", "5", "--players", "2", "--save", str(save), "--log", "game.jsonl", typed="ds\n")
    before = save.read_text()
    Path("game.jsonl").rename("moved.jsonl")
    said = play("resume", str(save), typed=discard(save), code=1)
    assert said == (
        "game.jsonl: this game's log is not there; it was written up to the save: give its new place "
        "with --log FILE.jsonl, or play on without a log with --no-log"
    )
    Path("game.jsonl").write_text(Path("moved.jsonl").read_text() + '{"type":"draw"}\n')
    said = play("resume", str(save), typed=discard(save), code=1)
    assert said.startswith("game.jsonl: cannot continue this log: record ")
    assert said.endswith("; to play on without it, resume with --no-log")
    assert save.read_text() == before
    # Its new place is given: the log goes on there, and the save records it.
    output = play("resume", str(save), "--log", "moved.jsonl", typed=discard(save))
    assert output.endswith("Continue it with: kalooki resume g.kalooki-save.json")
    assert json.loads(save.read_text())["session"]["log"] == str(Path("moved.jsonl").absolute())


def test_no_log_plays_on_without_the_log_and_its_refusal_says_so(home: Path) -> None:
    save = Path(f"g{SAVE_SUFFIX}")
    play("play", "--seed", "5", "--players", "2", "--save", str(save), "--log", "game.jsonl", typed="ds\n")
    said = play("resume", str(save), "--log", "game.jsonl", "--no-log", code=2)
    assert "give --log FILE.jsonl or --no-log, not both" in said
    output = play("resume", str(save), "--no-log", typed=discard(save))
    assert "log goes on" not in output
    assert output.endswith(f"Continue it with: kalooki resume {save}")
    logged = Path("game.jsonl").read_text()
    said = play("resume", str(save), "--log", "game.jsonl", code=1)
    assert said == (
        "game.jsonl: this log stops in hand 1, turn 1 (you to play), where the game went on without it "
        "(resumed with --no-log, or the log could not be written): the moves since are in no log, so it "
        "cannot be continued"
    )
    assert Path("game.jsonl").read_text() == logged
    # Without --log it plays on unlogged, as it was left.
    assert "log goes on" not in play("resume", str(save), typed="ds\n")
    assert Path("game.jsonl").read_text() == logged


def test_a_log_the_save_cannot_name_is_asked_for_not_dropped(home: Path) -> None:
    # A log named with a tab: the save could not record it, and a resume without --log played on
    # unlogged without a word; its hint quoted the tab as 'g\tx.jsonl', which bash reads as backslash-t.
    save, log = Path("c.json"), Path("g\tx.jsonl")
    result = runner.invoke(
        app, ["play", "--seed", "3", "--fast", "--save", str(save), "--log", str(log)], input="ds\n"
    )
    assert result.exit_code == 0, result.output
    hint = result.output.split("Continue it with: ")[1].splitlines()[0]
    assert hint == "kalooki resume c.json --log $'g\\tx.jsonl'"
    pasted = subprocess.run(
        ["bash", "-c", f"printf '%s\\0' {hint}"], capture_output=True, text=True, check=True
    )
    assert pasted.stdout.split("\0")[:-1] == ["kalooki", "resume", "c.json", "--log", str(log)]
    assert json.loads(save.read_text())["session"]["log_unnamed"] is True
    before, logged = save.read_text(), log.read_text()
    said = play("resume", str(save), typed=discard(save), code=1)
    assert said == (
        "c.json: this game is logged to a file whose name a save cannot hold (a control character): "
        "give the log with --log FILE.jsonl, or play on without it with --no-log"
    )
    assert (save.read_text(), log.read_text()) == (before, logged)
    # Given with --log, the log goes on, and the save still knows it is logged.
    output = play("resume", str(save), "--log", str(log), typed=discard(save))
    assert "kalooki resume c.json --log $'g\\tx.jsonl'" in output
    assert json.loads(save.read_text())["session"]["log_unnamed"] is True
    assert replay(records(log)).ends == "in hand 1, turn 5 (you to draw)"
    # --no-log plays on without it, and the save no longer asks for it.
    play("resume", str(save), "--no-log", typed="")
    assert "log_unnamed" not in json.loads(save.read_text())["session"]


def kalooki(folder: Path, *arguments: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    """``kalooki ARGUMENTS`` run in ``folder`` as a terminal runs it, its own home in that folder."""
    return subprocess.run(
        [str(KALOOKI), *arguments],
        cwd=folder,
        env={**os.environ, "KALOOKI_HOME": str(folder / "home"), "COLUMNS": "200"},
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_log_that_goes_on_past_the_save_is_not_continued(tmp_path: Path) -> None:
    # Only the last record carrying a state was compared with the save: a record after it (here one
    # added by hand) went unchecked, the resume wrote after it, and the log never replayed again
    # ("record 5: does not reproduce").
    played = kalooki(
        tmp_path, "play", "--seed", "5", "--fast", "--save", "s.json", "--log", "g.jsonl", typed="ds\n"
    )
    assert played.returncode == 0, played.stderr
    log = tmp_path / "g.jsonl"
    whole = log.read_text()
    with log.open("a") as stream:
        stream.write('{"type":"discard","player":"you","card":"2C"}\n')
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    past = (
        "g.jsonl: this log goes on past the save (it stops in hand 1, turn 2 (bob to draw)): the moves "
        "played from the save would not replay after it; give a log that ends where the save does with "
        "--log FILE.jsonl, or play on without one with --no-log"
    )
    for given in ([], ["--log", "g.jsonl"]):
        resumed = kalooki(tmp_path, "resume", "s.json", "--fast", *given, typed="d 3D\nquit\n")
        assert (resumed.returncode, resumed.stderr.splitlines()) == (1, [past])
        assert {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()} == before
    # Cut back to the save, the log goes on, and replays to the end.
    log.write_text(whole)
    resumed = kalooki(tmp_path, "resume", "s.json", "--fast", typed="d 3D\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    replayed = kalooki(tmp_path, "replay", "g.jsonl")
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "the log stops in hand 1, turn 5 (you to draw)" in replayed.stdout


@pytest.mark.parametrize("typed", ["quit\n", "", "hint\nquit\n"], ids=["quit", "end of input", "a hint"])
def test_a_save_resumed_and_left_without_a_move_is_not_rewritten(home: Path, typed: str) -> None:
    # It was saved again on opening and on leaving: its time of last play moved to now, and the saves
    # list, newest first, numbered the games anew (resume 2 then opened the other game).
    save = Path(f"g{SAVE_SUFFIX}")
    play("play", "--seed", "5", "--players", "2", "--save", str(save), typed="ds\n")
    before, written = save.read_bytes(), save.stat().st_mtime_ns  # the time saved is to the second
    play("resume", str(save), "--fast", typed=typed)
    assert (save.read_bytes(), save.stat().st_mtime_ns) == (before, written)
    turn = read_save(save).game.turn_number
    play("resume", str(save), "--fast", typed=discard(save))
    assert read_save(save).game.turn_number > turn  # a move is saved, as before
