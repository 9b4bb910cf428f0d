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


def opening_laid_without_undo(state: dict[str, Any]) -> None:
    """As :func:`opening_laid_this_turn`, with the undo snapshot, which says otherwise, taken out: ann's
    meld is the only one on the table, and the last, so the record alone could claim it."""
    opening_laid_this_turn(state)
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
    (without_undo, "the player to move has drawn, but the turn's undo snapshot is missing"),
    (opening_laid_without_undo, "the player to move has drawn, but the turn's undo snapshot is missing"),
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
    assert result.stderr.splitlines() == [f"{path}: {UNREACHABLE}{message}"]
    assert path.read_bytes() == before


FOUR = {"hand_size": 4, "opening_threshold": 0}


def ann_melds_after_bob_opened(*moves: str) -> Game:
    """bob opens with 8C 9C TC; ann, who has not opened, draws 6C and melds 4C 5C 6C, then ``moves``.
    Going out with 2S is then Kalooki if 7C went on her own meld, not if it went on bob's (building on the
    table: kalooki_allows_building is false)."""
    game = new_game(FOUR, ["4C 5C 7C 2S", "8C 9C TC 3D"], stock="KS QD 6C")
    play(game, "draw stock", "discard KS", "draw stock", "meld 8C 9C TC", "discard QD")
    play(game, "draw stock", "meld 4C 5C 6C", *moves)
    return game


def ann_built() -> Game:
    return ann_melds_after_bob_opened("build 1 7C")


def not_built(state: dict[str, Any]) -> None:
    state["turn"]["built"] = False


def built(state: dict[str, Any]) -> None:
    state["turn"]["built"] = True


def built_before_the_lay(state: dict[str, Any]) -> None:
    """The undo snapshot's record says the turn had built before its first meld: undo would put that back."""
    state["undo"]["turn"]["built"] = True


def test_unedited_builds_decide_kalooki() -> None:
    game = loaded(ann_built(), lambda state: None)
    play(game, "discard 2S")
    assert (game.results[-1].winner, game.results[-1].kalooki) == (0, False)
    game = loaded(ann_melds_after_bob_opened(), lambda state: None)
    play(game, "build 2 7C", "discard 2S")
    assert (game.results[-1].winner, game.results[-1].kalooki) == (0, True)


BUILT_EDITS = [
    (
        ann_built,
        not_built,
        "the turn has built on a meld that was on the table when it drew, but records that it has not",
    ),
    (
        ann_melds_after_bob_opened,
        built,
        "the turn records building on the table, but no meld that was there when it drew has changed",
    ),
    (
        ann_opened_then_drew,
        built,
        "the turn records building on the table, but no meld that was there when it drew has changed",
    ),
    (
        ann_melds_after_bob_opened,
        built_before_the_lay,
        "the turn's undo snapshot records building on the table before anything was laid",
    ),
]


@pytest.mark.parametrize(
    ("game", "edit", "message"), BUILT_EDITS, ids=[edit.__name__ for _, edit, _ in BUILT_EDITS]
)
def test_a_turn_recorded_as_building_or_not_against_the_table_is_refused(
    game: Callable[[], Game], edit: Edit, message: str
) -> None:
    """Loaded, the first would go out Kalooki having built on bob's meld; the others would go out without
    it, having built only on ann's own (after an undo, for the last)."""
    with pytest.raises(StateFormatError) as caught:
        loaded(game(), edit)
    assert str(caught.value) == UNREACHABLE + message


def ann_out_after_opening() -> Game:
    """ann goes out with 4C 5C 6C and 2S in a turn that began with her meld on the table: not Kalooki."""
    game = ann_opened_then_drew()
    play(game, "meld 4C 5C 6C", "discard 2S")
    return game


def ann_out_having_built() -> Game:
    """ann, unopened, melds 4C 5C 6C, builds 7C onto bob's run and goes out: not Kalooki (she built)."""
    game = ann_built()
    play(game, "discard 2S")
    return game


def turn_field(name: str, value: object) -> Edit:
    return lambda state: state["turn"].__setitem__(name, value)


ENDED_EDITS = [
    (
        ann_out_after_opening,
        turn_field("opened_before", False),
        "the turn records that seat 1 (ann) had not opened when it began, "
        "but melds of theirs on the table were laid before it",
    ),
    (
        ann_out_having_built,
        turn_field("opened_before", True),
        "the turn records that seat 1 (ann) had opened when it began, "
        "but every meld of theirs on the table was laid in it",
    ),
    (
        ann_out_having_built,
        turn_field("built", False),
        "hand 1 was not Kalooki, but the record of the turn it was won in says otherwise",
    ),
    (
        ann_out_after_opening,
        turn_field("laid", [0]),
        "the melds the turn laid are not the ones put on the table since its draw",
    ),
    (
        ann_out_after_opening,
        lambda state: state.__setitem__("current", 1),
        "hand 1 was won by going out, but the turn it ended in is seat 2 (bob)'s, not its winner's",
    ),
]


@pytest.mark.parametrize(
    ("game", "edit", "message"),
    ENDED_EDITS,
    ids=["not opened before", "opened before", "not built", "laid", "current"],
)
def test_the_record_of_the_turn_a_hand_was_won_in_is_held_to_its_result(
    game: Callable[[], Game], edit: Edit, message: str
) -> None:
    """Between hands the record words why going out was not Kalooki: edited, the first two would give the
    other reason (built, had melded before), the third none."""
    assert loaded(game(), lambda state: None).results[-1].kalooki is False
    with pytest.raises(StateFormatError) as caught:
        loaded(game(), edit)
    assert str(caught.value) == UNREACHABLE + message
