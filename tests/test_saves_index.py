"""The index of saves kept outside the saves folder, and ``kalooki resume`` picking the newest save."""

from __future__ import annotations

import fcntl
import json
import os
import re
import threading
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.save_lock import lock_place
from kalooki_cli.saves import data_home, forget_save, known_saves_file, remember_save, write_save
from test_saves import saved_game
from typer.testing import CliRunner

from kalooki.savegame import SAVE_SUFFIX

runner = CliRunner()


@pytest.fixture
def home() -> Path:
    """kalooki's own folder, which the suite gives each test (conftest's ``own_home``)."""
    return data_home()


def indexed(home: Path) -> list[str]:
    saves: list[str] = json.loads((home / "known-saves.json").read_text())["saves"]
    return saves


def test_a_save_is_noted_once_written_and_not_before(home: Path, tmp_path: Path) -> None:
    # Games noted their saves before writing them: a note another game read before the file was there
    # looked like a save removed, and was dropped (eight games started together kept two of eight).
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    write_save(first, "{}")
    assert indexed(home) == [str(first)]
    write_save(second, "{}")
    write_save(first, "{}")  # noted once
    assert indexed(home) == [str(first), str(second)]
    first.unlink()
    forget_save(second)  # a save forgotten takes those gone for good with it
    assert not (home / "known-saves.json").read_text().count("a.json")


def test_games_noting_their_saves_at_once_wait_their_turn(home: Path, tmp_path: Path) -> None:
    write_save(tmp_path / "a.json", "{}")
    (tmp_path / "b.json").write_text("{}")
    lock = known_saves_file().with_name(".known-saves.lock")
    held = os.open(lock, os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)  # another game in the middle of reading and writing the index
    noting = threading.Thread(target=remember_save, args=(tmp_path / "b.json",))
    noting.start()
    noting.join(0.5)
    assert noting.is_alive()
    assert indexed(home) == [str(tmp_path / "a.json")]
    os.close(held)
    noting.join()
    assert indexed(home) == [str(tmp_path / "a.json"), str(tmp_path / "b.json")]


def test_resume_passes_over_a_link_to_nothing_in_the_saves_folder(home: Path) -> None:
    (home / "saves").mkdir(parents=True)
    (home / "saves" / f"x{SAVE_SUFFIX}").symlink_to(home / "nothing")
    result = runner.invoke(app, ["resume"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"there are no saved games in {home / 'saves'}: start one with 'kalooki play'" in result.output


def test_resume_says_why_a_damaged_save_cannot_be_resumed_when_no_other_can(home: Path) -> None:
    (home / "saves" / f"dir{SAVE_SUFFIX}").mkdir(parents=True)
    result = runner.invoke(app, ["resume"])
    assert result.exit_code == 1
    assert " ".join(result.output.split()) == (
        f"{home / 'saves' / f'dir{SAVE_SUFFIX}'}: is a directory, not a file "
        "(no other game here can be resumed)"
    )


def test_resume_looks_past_damaged_newer_saves_and_says_so(home: Path) -> None:
    # It stopped at the newest save, damaged, though 'kalooki saves' listed an older game to resume: the
    # player had to find its number there to go on at all.
    folder = home / "saves"
    folder.mkdir(parents=True)
    older, cut, stranger = (folder / f"{name}{SAVE_SUFFIX}" for name in ("older", "cut", "stranger"))
    saved_game(older, finished=False, seed=2)
    saved_game(cut, finished=False, seed=3)
    cut.write_text(cut.read_text()[:300])  # a disk that filled, a copy cut short
    os.utime(older, (1_000_000, 1_000_000))
    result = runner.invoke(app, ["resume"], input="quit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert said.startswith(
        f"The latest save, cut{SAVE_SUFFIX}, cannot be resumed (the save is damaged: it is cut off (the file "
        "ends partway through)): resuming game 1, the latest that can be."
    )
    assert f"the game is saved in {older}" in said
    stranger.write_text("not a save at all")  # newer still: both are named, their reasons left to the list
    result = runner.invoke(app, ["resume"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert " ".join(result.output.split()).startswith(
        f"The latest saves, stranger{SAVE_SUFFIX} and cut{SAVE_SUFFIX}, cannot be resumed ('kalooki saves' "
        "says why): resuming game 1, the latest that can be."
    )
    stranger.unlink()
    newest = folder / f"newest{SAVE_SUFFIX}"
    saved_game(newest, finished=False, seed=4)
    held = os.open(lock_place(newest), os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)  # another kalooki plays the newest: said first, as the latest
    try:
        result = runner.invoke(app, ["resume"], input="quit\n")
    finally:
        os.close(held)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert re.match(
        r"Game 1 \(the latest\) is open in another kalooki now( \(process \d+\))?, and a newer save, "
        rf"cut{re.escape(SAVE_SUFFIX)}, cannot be resumed \(the save is damaged: .*\): resuming game 2, "
        "the latest that can be[.]",
        said,
    ), said


def test_resume_looks_past_a_game_open_in_another_kalooki(home: Path) -> None:
    # The newest game was open in another terminal: resume picked it and was refused, the game stopped
    # a moment ago reachable only by its file or number.
    folder = home / "saves"
    folder.mkdir(parents=True)
    older, newer = folder / f"older{SAVE_SUFFIX}", folder / f"newer{SAVE_SUFFIX}"
    saved_game(older, finished=False, seed=2)
    saved_game(newer, finished=False, seed=3)
    os.utime(older, (1_000_000, 1_000_000))
    held = os.open(lock_place(newer), os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)  # another kalooki plays it
    try:
        listed = " ".join(runner.invoke(app, ["saves"]).output.split())
        assert "1 classic · you, bob · hand 1, turn 1 · open in another kalooki now · last played" in listed
        assert listed.count("open in another kalooki") == 1
        result = runner.invoke(app, ["resume"], input="quit\n")
        assert result.exit_code == 0, result.output
        assert f"the game is saved in {older}" in " ".join(result.output.split())
        other = os.open(lock_place(older), os.O_RDWR | os.O_CREAT)
        fcntl.flock(other, fcntl.LOCK_EX)
        result = runner.invoke(app, ["resume"])
        os.close(other)
        assert result.exit_code == 1
        assert " ".join(result.output.split()) == (
            f"no game in {folder} is left to resume here: 2 are open in another kalooki (finish or quit it "
            "there); or start a new game with 'kalooki play'"
        )
    finally:
        os.close(held)


@pytest.mark.parametrize("where", ["saves", ""])
def test_a_file_where_the_saves_folder_goes_is_said(home: Path, where: str) -> None:
    # `kalooki saves` said "No saved games" (exit 0) and resume "there are no saved games": neither why.
    place = home / where if where else home
    place.parent.mkdir(parents=True, exist_ok=True)
    if place.is_dir():
        place.rmdir()
    place.write_text("not a folder\n")
    for command in (["saves"], ["resume"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1
        assert (
            " ".join(result.output.split())
            == f"{place}: is a file, where kalooki keeps its saves in a folder"
        )


def test_saves_remove_takes_a_finished_game_out_of_the_index_and_clean_keeps_it(
    home: Path, tmp_path: Path
) -> None:
    # --clean removed the files and left the index naming them (hidden when read, but never written
    # again). A finished game saved outside the saves folder is now kept by --clean, and --remove N
    # removes it and its line in the index.
    for name in ("a", "b"):
        saved_game(tmp_path / f"{name}.json", finished=True, seed=3)
    assert len(indexed(home)) == 2
    result = runner.invoke(app, ["saves", "--clean", "--yes"])
    assert result.exit_code == 0, result.output
    assert len(indexed(home)) == 2
    result = runner.invoke(app, ["saves", "--remove", str(tmp_path / "a.json"), "--yes"])
    assert result.exit_code == 0, result.output
    assert indexed(home) == [str(tmp_path / "b.json")]


def test_a_file_anywhere_above_the_saves_folder_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("not a folder\n")
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "file" / "deeper"))
    result = runner.invoke(app, ["saves"])
    assert result.exit_code == 1
    assert (
        " ".join(result.output.split())
        == f"{tmp_path / 'file'}: is a file, where kalooki keeps its saves in a folder"
    )


def test_resume_says_which_newer_games_it_passed_over_because_another_kalooki_has_them(
    tmp_path: Path,
) -> None:
    # With the latest game open in another terminal, `kalooki resume` quietly resumed an older one: the
    # player read "Resuming your game against bob" and nothing of the game passed over, nor why.
    from test_save_lock import Terminal, kalooki

    older = kalooki(tmp_path, "play", "--seed", "1", "--fast", typed="quit\n")
    assert older.returncode == 0, older.stdout + older.stderr
    playing = [Terminal(tmp_path, "play", "--seed", "12345", "--fast")]
    try:
        playing[0].until("draw> ")  # saved, and held by the game as its player thinks
        resumed = kalooki(tmp_path, "resume", typed="quit\n")
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        lines = resumed.stdout.splitlines()
        pid = playing[0].process.pid
        assert lines[0] == (
            f"Game 1 (the latest) is open in another kalooki now (process {pid}): "
            "resuming game 2, the latest not in use."
        )
        assert "-seed1." in resumed.stdout.split("Continue it with:")[1]  # the game of seed 1 was resumed
        playing.append(Terminal(tmp_path, "play", "--seed", "777", "--fast"))
        playing[1].until("draw> ")
        resumed = kalooki(tmp_path, "resume", typed="quit\n")
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        pids = [terminal.process.pid for terminal in reversed(playing)]  # the newest first, as saves lists
        assert resumed.stdout.splitlines()[0] == (
            "Games 1 and 2 (the latest) are open in another kalooki now "
            f"(processes {pids[0]} and {pids[1]}): resuming game 3, the latest not in use."
        )
        # Resumed by its number, or with nothing passed over, nothing more is said.
        quiet = kalooki(tmp_path, "resume", "3", typed="quit\n")
        assert quiet.stdout.startswith("─"), quiet.stdout
    finally:
        for terminal in playing:
            terminal.finish()
    alone = kalooki(tmp_path, "resume", typed="quit\n")
    assert alone.returncode == 0
    assert "open in another kalooki" not in alone.stdout


def test_resume_names_no_hosted_table_or_finished_game_as_one_it_passed_over(home: Path) -> None:
    # resume never picks a hosted table or a finished game, open elsewhere or not: named as "the latest"
    # passed over, they read as the game the player would have got.
    from kalooki_cli.save_lock import Holder
    from kalooki_cli.saves import Latest
    from kalooki_cli.saves_commands import passed_over
    from net_helpers import new_table

    folder = home / "saves"
    folder.mkdir(parents=True)
    older, newer = folder / f"older{SAVE_SUFFIX}", folder / f"newer{SAVE_SUFFIX}"
    finished, hosted = folder / f"done{SAVE_SUFFIX}", folder / f"table{SAVE_SUFFIX}"
    saved_game(older, finished=False, seed=1)
    saved_game(finished, finished=True, seed=2)
    table = new_table(seats=2)
    table.join("ann", host=True)
    table.start()
    hosted.write_text(table.save_text(), encoding="utf-8")
    saved_game(newer, finished=False, seed=3)
    os.utime(older, (1_000_000, 1_000_000))  # the oldest of the games in play
    others = ((hosted, Holder(41)), (finished, Holder(42)))
    assert passed_over(Latest(older, others)) is None
    said = passed_over(Latest(older, ((newer, Holder(43)), *others)))
    assert said == (
        "Game 1 (the latest) is open in another kalooki now (process 43): "
        "resuming game 3, the latest not in use."
    )
