"""``KALOOKI_HOME`` a file, or a place that takes no folder: a new game with nowhere to be saved is
refused before it is dealt, in the words ``kalooki saves`` uses, unless ``--save FILE`` puts it
elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

runner = CliRunner()


NEW_GAMES = pytest.mark.parametrize(
    "arguments",
    [
        ["play", "--seed", "5", "--players", "2"],
        ["play", "--humans", "ann,bob", "--seed", "5"],
        ["host", "--port", "0"],
    ],
    ids=["play", "hot seat", "host"],
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "homefile"
    home.write_text("x\n")
    monkeypatch.setenv("KALOOKI_HOME", str(home))
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.chdir(tmp_path)
    return home


@NEW_GAMES
def test_a_new_game_with_its_home_a_file_is_refused_before_the_deal(home: Path, arguments: list[str]) -> None:
    # It was dealt, said it was saved after every move to .../homefile/saves/..., then that every save
    # failed: 'Not a directory; the game goes on'.
    if arguments[0] == "host":
        pytest.importorskip("websockets")
    result = runner.invoke(app, arguments, input="quit\n")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{home}: is a file, where kalooki keeps its saves in a folder: give --save FILE to save the game "
        "elsewhere\n"
    )


# /proc takes no new folder, whoever asks (root included, for whom no folder mode is read-only).
needs_proc = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")


@needs_proc
@NEW_GAMES
def test_a_new_game_whose_saves_folder_cannot_be_made_is_refused_before_the_deal(
    home: Path, monkeypatch: pytest.MonkeyPatch, arguments: list[str]
) -> None:
    # It was dealt and played, then said at the end that the game could not be saved.
    if arguments[0] == "host":
        pytest.importorskip("websockets")
    monkeypatch.setenv("KALOOKI_HOME", "/proc/kalooki-home")
    result = runner.invoke(app, arguments, input="quit\n")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "/proc/kalooki-home/saves: kalooki cannot keep its saves there: No such file or directory: "
        "give --save FILE to save the game elsewhere\n"
    )


def test_a_game_saved_elsewhere_is_played(home: Path) -> None:
    result = runner.invoke(app, ["play", "--seed", "5", "--players", "2", "--save", "g.json"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert Path("g.json").is_file()
