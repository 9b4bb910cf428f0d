"""Game scripts that expect a move refused (``refused:`` beside it): the run goes on past the refusal,
and a move played, or refused in other words, stops it where the script writes it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.script import ScriptError, game_script_schema, load_script_text
from kalooki.script_run import run_script

DEAL = """\
players: [ann, bob]
seed: 3
hands:
  - deal:
      ann: [7H, 7S, 7D, 2C, 3C, 4C, 9H, TH, JH, QS, KS, AD, 5D]
      bob: [2H, 3H, 4H, 5S, 6S, 7C, 8C, 9C, TC, JD, QD, KD, AH]
      discard: 6D
      stock: [8D, 4S]
    moves:
"""
PLAYED = "      - ann: draw stock\n      - ann: discard 5D\n      - bob: draw stock\n"
WITH_REFUSALS = (
    "      - ann: discard 5D\n"
    "        refused: true\n"
    "      - ann: draw stock\n"
    "      - ann: meld 7H 7S 7D\n"
    "        refused: WORTH 21 points;   this variant\n"  # any case, any spacing
    "      - ann: discard 5D\n"
    "      - bob: draw stock\n"
)


def test_moves_refused_as_expected_change_nothing_and_the_run_goes_on() -> None:
    run = run_script(load_script_text(DEAL + WITH_REFUSALS))
    assert run.error is None
    # The same game as the script without the refused moves: the same events, the same hands left.
    plain = run_script(load_script_text(DEAL + PLAYED))
    assert run.events == plain.events
    assert run.hands[0].hand_points == plain.hands[0].hand_points == {"ann": 98, "bob": 99}
    assert run.to_json()["refused"] == [
        {
            "hand": 1,
            "move": 1,
            "player": "ann",
            "command": "discard 5D",
            "message": "ann must draw first: draw stock or draw discard",
        },
        {
            "hand": 1,
            "move": 3,
            "player": "ann",
            "command": "meld 7H 7S 7D",
            "message": "your first meld is worth 21 points; this variant needs 51 (lay them all in one meld "
            "command, melds parted by commas: meld 7H 8H 9H, QS QD QC)",
        },
    ]
    assert [move.after for move in run.refused] == [1, 2]  # after the deal; after ann's draw
    assert "refused" not in plain.to_json()  # a script that expects none: its JSON as it was


def test_a_move_refused_in_other_words_stops_the_run_at_its_place() -> None:
    run = run_script(load_script_text(DEAL + "      - ann: discard 5D\n        refused: worth 21\n"))
    assert str(run.error) == (
        "<script>:10:14: hand 1, move 1 (ann: discard 5D): refused, but not as the script expects "
        "('worth 21' is not in it): ann must draw first: draw stock or draw discard"
    )
    assert run.refused == []


def test_a_move_played_where_the_script_expects_a_refusal_stops_the_run() -> None:
    run = run_script(load_script_text(DEAL + "      - ann: draw stock\n        refused: needs 51\n"))
    assert str(run.error) == (
        "<script>:10:14: hand 1, move 1 (ann: draw stock): the script expects this move refused "
        "('needs 51'), but it was played"
    )
    run = run_script(load_script_text(DEAL + "      - ann: draw stock\n        refused: true\n"))
    assert run.error is not None
    assert run.error.message == "the script expects this move refused, but it was played"
    # false: the move is played, as without the key
    assert (
        run_script(load_script_text(DEAL + "      - ann: draw stock\n        refused: false\n")).error is None
    )


def test_a_refused_of_the_wrong_kind_or_place_is_told_at_its_place() -> None:
    moves = (
        "      - refused: true\n"
        "      - ann: ds\n        refused: 5\n"
        "      - ann: ds\n        refused: yes\n"
        "      - ann: ds\n        refused: ''\n"
        "      - ann: ds\n        bob: ds\n        refused: true\n"
    )
    with pytest.raises(ScriptError) as caught:
        load_script_text(DEAL + moves)
    assert str(caught.value).splitlines() == [
        "<script>:10:9: hands[0].moves[0].refused: 'refused' goes beside the move it is about, in the same "
        "entry (- ann: meld 7H 7S 7D, then 'refused: true' under 'ann' on the next line)",
        "<script>:12:18: hands[0].moves[1].refused: expected true, or words the refusal must hold "
        "(refused: worth 21 points), got 5",
        "<script>:14:18: hands[0].moves[2].refused: 'yes' is text here: write true (lowercase, no quotes) "
        "for any refusal",
        "<script>:16:18: hands[0].moves[3].refused: expected true, or words the refusal must hold "
        "(refused: worth 21 points), got empty text",
        "<script>:17:9: hands[0].moves[4]: a move is one player's name and their command (ann: draw stock), "
        "this one holds 3: write each move on its own '- ' line",
    ]


def test_a_player_named_refused_still_has_moves_of_their_own() -> None:
    script = "players: [refused, bob]\nseed: 3\nhands:\n  - moves:\n      - refused: draw stock\n"
    run = run_script(load_script_text(script))
    assert run.error is None
    assert run.events[-1]["player"] == "refused"


def test_the_account_tells_each_refusal_where_it_was_tried(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(DEAL + WITH_REFUSALS, encoding="utf-8")
    result = CliRunner().invoke(app, ["play", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1:6] == [
        "hand 1: cards dealt by bob, ann plays first, 6♦ face up",
        "ann tries 'discard 5D': refused, as the script expects: ann must draw first: "
        "draw stock or draw discard",
        "ann draws 8♦ from the stock",
        "ann tries 'meld 7H 7S 7D': refused, as the script expects: your first meld is worth 21 points; "
        "this variant needs 51 (lay them all in one meld command, melds parted by commas: "
        "meld 7H 8H 9H, QS QD QC)",
        "ann discards 5♦",
    ]
    played = json.loads(CliRunner().invoke(app, ["play", str(path), "--json"]).output)
    assert [move["move"] for move in played["refused"]] == [1, 3]


def test_the_json_schema_takes_refused_beside_one_move_only() -> None:
    schema = game_script_schema()
    jsonschema.validate(yaml.safe_load(DEAL + WITH_REFUSALS), schema)
    for wrong in (
        "      - ann: ds\n        refused: 5\n",
        "      - ann: ds\n        bob: ds\n        refused: true\n",
        '      - ann: ds\n        refused: "Yes"\n',  # text meant as true, as the loader tells
        '      - ann: ds\n        refused: "  "\n',
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(yaml.safe_load(DEAL + wrong), schema)


def test_words_pasted_at_length_are_clipped_in_the_refusal() -> None:
    words = "y" * 5000
    run = run_script(load_script_text(DEAL + f"      - ann: discard 5D\n        refused: {words}\n"))
    assert run.error is not None
    assert run.error.message == (
        f"refused, but not as the script expects ('{'y' * 79}…' is not in it): "
        "ann must draw first: draw stock or draw discard"
    )


def test_true_in_quotes_a_list_or_nothing_is_told_in_the_loaders_words() -> None:
    # '"true"' was told "only lowercase true and false are booleans", though it was lowercase; a list and
    # nothing were shown as Python writes them, ['a', 'b'] and None.
    moves = (
        '      - ann: ds\n        refused: "true"\n'
        "      - ann: ds\n        refused: no\n"
        "      - ann: ds\n        refused:\n"
        "      - ann: ds\n        refused: [a, b]\n"
    )
    with pytest.raises(ScriptError) as caught:
        load_script_text(DEAL + moves)
    wanted = "expected true, or words the refusal must hold (refused: worth 21 points), got"
    assert str(caught.value).splitlines() == [
        "<script>:11:18: hands[0].moves[0].refused: 'true' is text here: write true (lowercase, no quotes) "
        "for any refusal",
        "<script>:13:18: hands[0].moves[1].refused: 'no' is text here: write false (lowercase, no quotes), "
        "or leave the key out",
        f"<script>:15:9: hands[0].moves[2].refused: {wanted} nothing (null)",
        f"<script>:17:18: hands[0].moves[3].refused: {wanted} a list",
    ]


def test_a_move_after_the_hand_or_the_game_ended_may_be_expected_refused() -> None:
    # The refusal's words were there ("hand 1 is already over"), but the run stopped all the same: the
    # script itself refuses a move once the hand is over, before the engine sees it.
    from test_scripts import GAME_OVER_IN_HAND_1

    hand_over = GAME_OVER_IN_HAND_1.replace(", goal_score: 1", "")
    run = run_script(
        load_script_text(hand_over + "      - bob: draw stock\n        refused: hand 1 is already over\n")
    )
    assert run.error is None
    assert [(move.player, move.message) for move in run.refused] == [("bob", "hand 1 is already over")]
    later = (
        "  - moves:\n      - bob: draw stock\n        refused: the game is already over\n      - ann: ds\n"
    )
    run = run_script(load_script_text(GAME_OVER_IN_HAND_1 + later))
    assert [move.message for move in run.refused] == ["the game is already over: it ended with hand 1"]
    assert str(run.error) == (  # the next move, not expected refused, stops the run as before
        "<script>:16:14: hand 2, move 2 (ann: ds): the game is already over: it ended with hand 1"
    )
