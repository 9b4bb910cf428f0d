"""Saves whose record of the turn under way was edited (checksum recomputed) are refused in one line.

The record says what the turn did: whether its player had opened when it began, the melds it laid,
whether it built on the table. Going out is judged Kalooki from it, so an edit could turn a plain going
out into a Kalooki that costs every other player the bonus. Each game here is played to a point, saved,
edited as a person editing the file would, and loaded back (or resumed by ``kalooki resume``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import new_game, play
from test_hostile_saves import kalooki

from kalooki.engine import Game, StateFormatError
from kalooki.savegame import Session, save_checksum, save_document

Edit = Callable[[dict[str, Any]], None]

SIX = {"hand_size": 6, "opening_threshold": 0}
UNREACHABLE = "the saved game is not one play can reach: "


def ann_opened_then_drew() -> Game:
    """ann opens with 7H 8H 9H and discards KS; bob draws and discards; ann draws 6C: she can lay
    4C 5C 6C and discard 2S to go out, in a turn that began with her meld on the table (not Kalooki)."""
    game = new_game(SIX, ["7H 8H 9H 4C 5C 2S", "2C 3D 4D 8S KH QS"], stock="KS QD 6C")
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS", "draw stock", "discard QD", "draw stock")
    return game


def loaded(game: Game, edit: Edit) -> Game:
    """``game`` saved, its state edited, and loaded again."""
    state = json.loads(json.dumps(game.to_json()))
    edit(state)
    return Game.from_json(state)


def began_unopened(state: dict[str, Any]) -> None:
    """The turn, and the undo snapshot's record of it, say ann had not opened when it began."""
    state["turn"]["opened_before"] = False
    state["undo"]["turn"]["opened_before"] = False


def opening_laid_this_turn(state: dict[str, Any]) -> None:
    """As :func:`began_unopened`, and the turn names ann's opening meld (laid two turns ago) as its own."""
    began_unopened(state)
    state["turn"]["laid"] = [0]


def without_undo(state: dict[str, Any]) -> None:
    """As :func:`began_unopened`, with the undo snapshot, which says otherwise, taken out."""
    began_unopened(state)
    state["undo"] = None


def laid_earlier_meld(state: dict[str, Any]) -> None:
    """The turn names ann's opening meld as laid in it, and she had opened when it began."""
    state["turn"]["laid"] = [0]


def test_an_unedited_turn_goes_out_without_kalooki() -> None:
    game = loaded(ann_opened_then_drew(), lambda state: None)
    play(game, "meld 4C 5C 6C", "discard 2S")
    assert game.results[-1].winner == 0
    assert game.results[-1].kalooki is False


TURN_EDITS = [
    (opening_laid_this_turn, "the melds the turn laid are not the ones put on the table since its draw"),
    (laid_earlier_meld, "the melds the turn laid are not the ones put on the table since its draw"),
    (
        began_unopened,
        "the turn's undo snapshot, taken after the draw, and the turn disagree on whether seat 1 (ann) "
        "had opened when it began",
    ),
    (
        without_undo,
        "the turn records that seat 1 (ann) had not opened when it began, "
        "but melds of theirs on the table were laid before it",
    ),
]


@pytest.mark.parametrize(("edit", "message"), TURN_EDITS, ids=[edit.__name__ for edit, _ in TURN_EDITS])
def test_a_turn_recorded_as_laying_what_an_earlier_turn_laid_is_refused(edit: Edit, message: str) -> None:
    """Loaded, ann's going out with 4C 5C 6C would be Kalooki (each edit but the second makes it so)."""
    with pytest.raises(StateFormatError) as caught:
        loaded(ann_opened_then_drew(), edit)
    assert str(caught.value) == UNREACHABLE + message


def saved_text(game: Game, edit: Edit) -> str:
    """The save of ``game`` (ann at the terminal, bob a bot) after ``edit``, its checksum recomputed."""
    document = save_document(game, Session(human_seat=0, bots={1: "greedy"}))
    edit(document["game"])
    document["checksum"] = save_checksum(document["session"], document["game"])
    return json.dumps(document)


@pytest.mark.parametrize(("edit", "message"), TURN_EDITS[:1], ids=["opening_laid_this_turn"])
def test_resume_refuses_an_edited_turn_record_naming_the_file(
    edit: Edit, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "edited.kalooki-save.json"
    path.write_text(saved_text(ann_opened_then_drew(), edit))
    before = path.read_bytes()
    result = kalooki("resume", str(path), home=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"{path}: the save cannot be resumed: {UNREACHABLE}{message}"]
    assert path.read_bytes() == before
