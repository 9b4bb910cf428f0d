"""A game stopped between writing its log and its save (``kill -9``, a machine switched off, a full disk)
leaves the log one move past the save, or its last line cut off: ``kalooki resume`` cuts the log back to
the save, says so in one line, and goes on writing it. A log further past, or another game's, is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_resume_log import discard, play, records

from kalooki.log import replay
from kalooki.savegame import SAVE_SUFFIX

SAVE, LOG = Path(f"g{SAVE_SUFFIX}"), Path("game.jsonl")
PAST = (
    "game.jsonl went on 1 move past the save (the game stopped between the two writes): cut back to the save"
)
CUT_OFF = "game.jsonl ended in a line cut off (the game stopped while writing it): cut back to the save"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "home"


def stopped_between_the_writes(past: int | None = 1) -> bytes:
    """A game whose log holds ``past`` lines past its save (None: the discard, and the bot's turn after
    it), as a kill after the log's write leaves it; the log."""
    play("play", "--seed", "5", "--players", "2", "--save", str(SAVE), "--log", str(LOG), typed="ds\n")
    shutil.copy(SAVE, "before.json")
    saved = len(LOG.read_bytes().splitlines())
    play("resume", str(SAVE), typed=discard(SAVE))
    shutil.copy("before.json", SAVE)  # the save of the move was never written
    lines = LOG.read_bytes().splitlines(keepends=True)
    LOG.write_bytes(b"".join(lines if past is None else lines[: saved + past]))
    return LOG.read_bytes()


def test_a_log_one_move_past_its_save_is_cut_back_and_goes_on(home: Path) -> None:
    whole = stopped_between_the_writes()
    said = play("resume", str(SAVE), typed=discard(SAVE) + "quit\n")
    assert PAST in said
    logged = records(LOG)
    assert replay(logged).ends == "in hand 1, turn 3 (you to draw)"
    # Played again from the save, the same discard: the log is what it was, and goes on.
    assert LOG.read_bytes().startswith(whole)
    assert len(logged) > len(whole.splitlines())
    assert PAST not in play("resume", str(SAVE), typed="quit\n")


def test_a_log_whose_last_line_is_cut_off_is_cut_back_and_goes_on(home: Path) -> None:
    play("play", "--seed", "5", "--players", "2", "--save", str(SAVE), "--log", str(LOG), typed="ds\n")
    whole = LOG.read_bytes()
    with LOG.open("ab") as stream:
        stream.write(b'{"type":"discard","player":"you","ca')
    said = play("resume", str(SAVE), typed="quit\n")
    assert CUT_OFF in said
    assert LOG.read_bytes() == whole


def test_a_log_more_than_a_move_past_its_save_is_still_refused(home: Path) -> None:
    stopped_between_the_writes(None)
    before = LOG.read_bytes()
    said = play("resume", str(SAVE), typed="quit\n", code=1)
    assert said.startswith("game.jsonl: this log goes on past the save (it stops in hand 1, turn 3")
    assert LOG.read_bytes() == before
