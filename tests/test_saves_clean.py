"""``kalooki saves --clean``: it asks before removing the finished games in the saves folder, keeps those
saved elsewhere, and takes the stale locks and half-written copies killed saves left."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.saves import all_saves, remember_save
from test_saves import home_in, play, saved_game
from typer.testing import CliRunner

from kalooki.savegame import SAVE_SUFFIX

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return home_in(tmp_path, monkeypatch)


def test_saves_clean_asks_again_after_an_answer_that_is_neither(home: Path) -> None:
    folder = home / "saves"
    saved_game(folder / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    result = runner.invoke(app, ["saves", "--clean"], input="x\nyes\n")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == ["Answer y to remove, or n (or Enter) to keep."]
    assert result.stdout.count("Remove the save of this finished game? [y/N]: ") == 2
    assert "Removed 1 finished game." in result.stdout
    assert not (folder / f"done{SAVE_SUFFIX}").exists()
    saved_game(folder / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    result = runner.invoke(app, ["saves", "--clean"], input="\n")
    assert (result.exit_code, result.stdout.splitlines()[-1]) == (1, "Nothing removed.")


def test_ctrl_c_at_the_question_of_saves_clean_is_told_as_an_interrupt(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It printed "...[y/N]: ^CNo save removed." on the question's line and exited 1, as a "no".
    saved_game(home / "saves" / f"done{SAVE_SUFFIX}", finished=True, seed=1)

    def interrupted() -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    result = runner.invoke(app, ["saves", "--clean"])
    assert result.exit_code == 130
    assert result.stdout.splitlines()[-2:] == [
        "Remove the save of this finished game? [y/N]: ",
        "Interrupted: nothing removed.",
    ]
    assert (home / "saves" / f"done{SAVE_SUFFIX}").exists()


def test_saves_clean_asks_about_several_games_in_the_plural(home: Path) -> None:
    folder = home / "saves"
    for seed in (1, 2):
        saved_game(folder / f"done{seed}{SAVE_SUFFIX}", finished=True, seed=seed)
    result = runner.invoke(app, ["saves", "--clean"], input="n\n")
    assert "Remove the saves of these 2 finished games? [y/N]" in result.output


def test_saves_clean_asks_before_removing_finished_games(home: Path) -> None:
    folder = home / "saves"
    saved_game(folder / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    saved_game(folder / f"open{SAVE_SUFFIX}", finished=False, seed=2)
    result = runner.invoke(app, ["saves", "--clean"], input="n\n")
    assert result.exit_code == 1
    assert "Remove the save of this finished game? [y/N]" in result.output
    assert "Nothing removed." in result.output
    assert (folder / f"done{SAVE_SUFFIX}").exists()
    result = runner.invoke(app, ["saves", "--clean"], input="y\n")
    assert result.exit_code == 0
    assert "Removed 1 finished game." in result.output
    assert [entry.path.name for entry in all_saves()] == [f"open{SAVE_SUFFIX}"]
    assert "No finished games to remove." in play("saves", "--clean")


def games_here_and_elsewhere(folder: Path, mine: Path, name: str, here: str, *, finished: bool) -> Path:
    """A game saved as ``name`` in the folder ``mine`` (``--save``, noted in the index) and one saved as
    ``here`` in the saves ``folder``; the first's path."""
    elsewhere = mine / f"{name}{SAVE_SUFFIX}"
    mine.mkdir()
    saved_game(elsewhere, finished=finished, seed=2)
    remember_save(elsewhere)
    saved_game(folder / f"{here}{SAVE_SUFFIX}", finished=finished, seed=3)
    return elsewhere


def test_saves_clean_keeps_finished_games_saved_outside_the_saves_folder(home: Path, tmp_path: Path) -> None:
    # A finished game saved with --save where its player chose ("The finished game stays in ...") went with
    # the folder's clutter: a record meant to be kept, removed by a command that tidies.
    folder = home / "saves"
    kept = games_here_and_elsewhere(folder, tmp_path / "mine", "final", "done", finished=True)
    os.utime(kept, (1_000_000, 1_000_000))  # listed second: the folder's game is newer
    result = runner.invoke(app, ["saves", "--clean", "--yes"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert said.startswith(
        "Kept finished game 2: it is saved outside the saves folder, where chosen; remove one with: "
        "kalooki saves --remove N"
    )
    assert said.endswith("Removed 1 finished game.")
    assert kept.exists()
    assert not (folder / f"done{SAVE_SUFFIX}").exists()
    result = runner.invoke(app, ["saves", "--clean"])
    assert " ".join(result.output.split()) == (
        "Kept finished game 1: it is saved outside the saves folder, where chosen; remove one with: "
        "kalooki saves --remove N No finished games to remove."
    )


def test_saves_clean_removes_a_stale_lock_even_when_no_save_is(home: Path) -> None:
    """The companion file a killed game left (held by no process: tests/test_save_lock.py has a real one),
    beside a finished game's save and beside a save removed since: both go, asked about or not."""
    folder = home / "saves"
    saved_game(folder / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    for name in (f"done{SAVE_SUFFIX}", f"gone{SAVE_SUFFIX}"):
        (folder / f".{name}.lock").write_text("12345\n")
    result = runner.invoke(app, ["saves", "--clean"], input="n\n")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == (
        "Removed 2 lock files games killed outright left beside their saves: "
        f".done{SAVE_SUFFIX}.lock, .gone{SAVE_SUFFIX}.lock"
    )
    assert lines[-1] == "No save removed."
    assert sorted(path.name for path in folder.iterdir()) == [f"done{SAVE_SUFFIX}"]


def test_saves_clean_removes_the_half_written_copies_killed_saves_left(home: Path, tmp_path: Path) -> None:
    """A save killed mid-write (kill -9) leaves its temporary copy; a game never saved again kept it
    for good. ``--clean`` removes the old ones, beside a save elsewhere and in the saves folder (its
    save gone since), and keeps a young one: a game may be writing it now."""
    folder = home / "saves"
    elsewhere = games_here_and_elsewhere(folder, tmp_path / "mine", "open", "open", finished=False)
    old = [elsewhere.parent / f".open{SAVE_SUFFIX}.k2j4.tmp", folder / f".gone{SAVE_SUFFIX}.x8q1.tmp"]
    young = folder / f".open{SAVE_SUFFIX}.a1b2.tmp"
    for path in [*old, young]:
        path.write_text('{"format": "kalooki-save"')
    for path in old:
        os.utime(path, (1_000_000_000, 1_000_000_000))
    result = runner.invoke(app, ["saves", "--clean"])
    assert result.exit_code == 0, result.output
    # Read as one line: the console wraps a long path (a deep temporary folder) onto the next.
    said = " ".join(result.output.split())
    assert said == (
        f"Removed 2 half-written copies saves killed outright left: .gone{SAVE_SUFFIX}.x8q1.tmp, {old[0]} "
        "No finished games to remove."
    )
    assert not any(path.exists() for path in old)
    assert young.exists()
    assert elsewhere.exists()
    assert (folder / f"open{SAVE_SUFFIX}").exists()
