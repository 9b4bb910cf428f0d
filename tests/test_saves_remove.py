"""``kalooki saves --remove N``: one saved game removed, finished or not, after asking; never one that
another kalooki plays now, nor a file that is not a listed save. Real processes, as a player types them.

Every game quit at its first turn is saved, and ``--clean`` removes only finished games: a player's
list filled with games they never meant to keep, and the only way out was removing files by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_save_lock import Terminal, files, kalooki

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no advisory locks on Windows")


def two_saved_games(folder: Path) -> list[tuple[str, str]]:
    """Two games quit at their first turn, one saved as ``mine.json`` in ``folder``: each game's two lines in
    ``kalooki saves`` (what it is, its file), ``mine.json``'s first."""
    for arguments in (["--seed", "1"], ["--seed", "2", "--save", "mine.json"]):
        played = kalooki(folder, "play", *arguments, "--fast", typed="quit\n")
        assert played.returncode == 0, played.stdout + played.stderr
    lines = kalooki(folder, "saves").stdout.splitlines()
    games = [(lines[index], lines[index + 1]) for index in (1, 3)]
    return sorted(games, key=lambda game: game[1].strip() != str(folder / "mine.json"))


def numbered(game: tuple[str, str], number: int) -> list[str]:
    """A game's lines as ``kalooki saves`` lists it as game ``number``."""
    return [f"{number}{game[0][1:]}", game[1]]


def test_remove_asks_then_removes_the_game_and_forgets_it(tmp_path: Path) -> None:
    mine, other = two_saved_games(tmp_path)
    number = mine[0][0]
    kept = kalooki(tmp_path, "saves", "--remove", number, typed="n\n")
    assert kept.returncode == 1
    assert kept.stdout.splitlines() == [
        *mine,
        f"Remove the save of game {number}? It cannot be continued after. [y/N]: n",
        "Nothing removed.",
    ]
    assert (tmp_path / "mine.json").exists()
    removed = kalooki(tmp_path, "saves", "--remove", number, typed="y\n")
    assert removed.returncode == 0, removed.stderr
    assert removed.stdout.splitlines()[-1] == f"Removed the save of game {number}."
    assert not (tmp_path / "mine.json").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["home"]  # no lock file left behind
    listed = kalooki(tmp_path, "saves").stdout.splitlines()
    assert listed[1:] == [*numbered(other, 1), "Continue one with: kalooki resume N (or kalooki resume FILE)"]
    quiet = kalooki(tmp_path, "saves", "--remove", other[1].strip(), "--yes")  # by its file, not asked
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout.splitlines() == [*numbered(other, 1), "Removed the save of game 1."]
    assert kalooki(tmp_path, "saves").stdout.startswith("No saved games in ")


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        ("3", "there is no saved game 3: 'kalooki saves' lists 2"),
        ("notes.txt", "notes.txt: not a saved game that 'kalooki saves' lists"),
        ("nowhere.json", "nowhere.json: not a saved game that 'kalooki saves' lists"),
    ],
)
def test_remove_of_what_is_not_a_listed_save_is_one_line_and_removes_nothing(
    tmp_path: Path, choice: str, said: str
) -> None:
    two_saved_games(tmp_path)
    (tmp_path / "notes.txt").write_text("not a game\n")
    before = files(tmp_path)
    result = kalooki(tmp_path, "saves", "--remove", choice, "--yes")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", f"{said}\n")
    assert files(tmp_path) == before


def test_a_game_open_in_another_kalooki_is_not_removed(tmp_path: Path) -> None:
    two_saved_games(tmp_path)
    playing = Terminal(tmp_path, "resume", "mine.json", "--fast")
    try:
        playing.until("draw> ")
        refused = kalooki(tmp_path, "saves", "--remove", "1", "--yes")
        assert refused.returncode == 1
        assert refused.stderr.splitlines() == [
            f"{tmp_path / 'mine.json'}: this game is open in another kalooki "
            f"(process {playing.process.pid}); finish or quit it there first"
        ]
        assert (tmp_path / "mine.json").exists()
    finally:
        assert playing.finish() == 0


def test_remove_with_clean_is_a_usage_error(tmp_path: Path) -> None:
    result = kalooki(tmp_path, "saves", "--remove", "1", "--clean")
    assert result.returncode == 2
    assert "--remove N removes one game, --clean the finished ones: give one" in result.stderr
