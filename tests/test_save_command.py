"""The save command at the game's prompt: saving now, moving the game's save to another file, and the
names it is given (a folder, a name quoted as the shell quotes it)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from kalooki_cli.saves import read_save
from test_interactive import error_lines, fixed_game, flowing, packed, run, state

from kalooki.savegame import SAVE_SUFFIX


def test_quit_and_save_to_another_file(tmp_path: Path) -> None:
    game = fixed_game()
    first = tmp_path / f"a{SAVE_SUFFIX}"
    second = tmp_path / f"b{SAVE_SUFFIX}"
    code, transcript, loop = run(game, ["ds", f"save {second}", "d KD", "quit"], save_path=first)
    assert code == 0
    assert f"Saved; from now on the game is saved after every move to {second}" in flowing(transcript)
    assert loop.save_path == second
    assert state(read_save(second).game) == state(game)
    assert read_save(first).game.phase == "play"  # left behind when the saves moved


def test_save_to_a_folder_says_it_is_one(tmp_path: Path) -> None:
    # It said "already exists, and a save would write over it", as for a file.
    game = fixed_game()
    first = tmp_path / f"a{SAVE_SUFFIX}"
    (tmp_path / "games").mkdir()
    code, transcript, loop = run(game, ["ds", f"save {tmp_path / 'games'}", "quit"], save_path=first)
    assert code == 0
    said = f"✗ {tmp_path / 'games'}: is a folder; give a file name"
    assert packed(error_lines(transcript)[0]).startswith(packed(said))
    assert loop.save_path == first


def test_save_reads_a_quoted_name_as_the_shell_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The game tells how to continue with the save's name quoted for the shell, and that is what a
    # player copies back: "save ''" wrote a file called '' in the working folder.
    monkeypatch.chdir(tmp_path)
    game = fixed_game()
    first = tmp_path / f"a{SAVE_SUFFIX}"
    spaced = tmp_path / f"my game{SAVE_SUFFIX}"
    typed = ["save ''", 'save "a" "b"', "save 'unclosed", f"save {shlex.quote(str(spaced))}", "quit"]
    code, transcript, loop = run(game, typed, save_path=first, width=300)
    assert code == 0
    assert error_lines(transcript) == [
        "✗ save '': give one file name, e.g. save 'my game.kalooki-save.json'",
        '✗ save "a" "b": give one file name, e.g. save \'my game.kalooki-save.json\'',
        "✗ save 'unclosed: no closing quotation",
    ]
    assert loop.save_path == spaced
    assert state(read_save(spaced).game) == state(game)
    assert sorted(path.name for path in tmp_path.iterdir() if not path.name.startswith(".")) == [
        f"a{SAVE_SUFFIX}",
        f"my game{SAVE_SUFFIX}",
    ]
    # Unquoted, a name is still read as typed, spaces and all.
    code, transcript, loop = run(game, [f"save {tmp_path / 'two words'}.json", "quit"], save_path=spaced)
    assert loop.save_path == tmp_path / "two words.json"


def test_a_path_wider_than_the_console_is_printed_whole(tmp_path: Path) -> None:
    # rich folded it with hard line breaks ('.../games-folder-with-a-lo' / 'ng-name: is a folder'), so
    # it could not be copied; now it is one line, for the terminal to wrap, and the words around it
    # wrap at the console's width.
    game = fixed_game()
    folder = tmp_path / ("games-folder-with-a-long-name-" * 3)
    folder.mkdir()
    code, transcript, _ = run(game, ["ds", f"save {folder}", "quit"], save_path=tmp_path / "a.json", width=60)
    assert code == 0
    lines = transcript.splitlines()
    start = lines.index(f"✗ {folder}:")
    assert lines[start + 1 : start + 4] == [
        "is a folder; give a file name; the game is still saved to",
        f"{tmp_path / 'a.json'}",
        "play> quit",
    ]
