"""Game scripts: golden runs with their exact JSON, script errors, logs and replay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import recorded_run

from kalooki.log import ReplayError, replay
from kalooki.script import ScriptError, load_script, load_script_text
from kalooki.script_run import run_script

GOLDEN = Path(__file__).parent / "golden" / "scripts"
UPDATE = os.environ.get("KALOOKI_UPDATE_GOLDEN") == "1"
SCRIPTS = sorted(GOLDEN.glob("*.yaml"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_golden_script_output(script: Path) -> None:
    run = run_script(load_script(script))
    produced = json.dumps(run.to_json(), indent=2, ensure_ascii=False) + "\n"
    expected_path = script.with_suffix(".json")
    if UPDATE:
        expected_path.write_text(produced, encoding="utf-8")
    assert expected_path.exists(), f"no golden output: run KALOOKI_UPDATE_GOLDEN=1 pytest {__file__}"
    assert produced == expected_path.read_text(encoding="utf-8"), (
        "the script's output changed; if the change is intended, regenerate with "
        f"KALOOKI_UPDATE_GOLDEN=1 pytest {Path(__file__).name}"
    )


def test_kalooki_opening_scores_every_loser_their_hand_plus_25() -> None:
    run = run_script(load_script(GOLDEN / "kalooki-opening.yaml"))
    (hand,) = run.hands
    assert hand.winner == "ann"
    assert hand.kalooki is True
    assert all(run.totals[name] == hand.hand_points[name] + 25 for name in ("bob", "cid", "dee"))
    assert run.totals["ann"] == 0


def test_illegal_move_is_reported_with_hand_move_player_and_reason() -> None:
    path = GOLDEN / "opening-too-low.yaml"
    run = run_script(load_script(path))
    assert run.error is not None
    # Where the script writes the move, as a script's problems are placed: line 13, the command's column.
    assert str(run.error) == (
        f"{path}:13:14: hand 1, move 2 (ann: meld 7H 7S 7D): your first meld is worth 21 points; "
        "this variant needs 51 (lay them all in one meld command, melds parted by commas: "
        "meld 7H 8H 9H, QS QD QC)"
    )
    assert run.to_json()["error"] == {
        "hand": 1,
        "move": 2,
        "player": "ann",
        "command": "meld 7H 7S 7D",
        "message": run.error.message,
    }


def test_bot_only_script_plays_to_game_over() -> None:
    run = run_script(load_script(GOLDEN / "bots-game.yaml"))
    assert run.game_over
    assert run.game_winner is not None
    assert all(hand.finished for hand in run.hands)


def test_move_by_a_player_out_of_turn_is_an_error() -> None:
    text = """
players: [ann, bob]
seed: 1
hands:
  - moves:
      - bob: draw stock
"""
    run = run_script(load_script_text(text))
    assert run.error is not None
    assert run.error.message == "it is ann's turn, not bob's"
    assert (run.error.hand, run.error.move) == (1, 1)
    assert str(run.error) == "<script>:6:14: hand 1, move 1 (bob: draw stock): it is ann's turn, not bob's"


@pytest.mark.parametrize(
    ("ann", "players"),
    [("ann", "the players it plays (ann)"), ("{name: ann, bot: random}", "no one (every seat is a bot's)")],
)
def test_a_move_given_to_a_bots_seat_says_a_bot_plays_it(ann: str, players: str) -> None:
    # Tried after the bot's own turn, it was refused as "it is ann's turn, not bob's", which says not why.
    text = f"players: [{ann}, {{name: bob, bot: greedy}}]\nhands:\n  - moves:\n      - bob: draw stock\n"
    run = run_script(load_script_text(text))
    assert run.error is not None
    assert str(run.error) == (
        "<script>:4:14: hand 1, move 1 (bob: draw stock): bob's seat is played by a bot, which takes its own "
        f"turns: the script gives moves to {players}"
    )


BAD_SCRIPTS = [
    (
        "players: [ann, bob]\nhands:\n  - deal:\n"
        "      ann: [7H, 7H, 7H, 2C, 3C, 4C, 9H, TH, JH, QS, KS, AD, 5D]\n",
        "<script>:4:21: hands[0].deal.ann[2]: the deal uses 7H 3 times; the pack holds 2",
    ),
    (
        "players: [ann, bob]\nhands:\n  - moves:\n      - ann: meld 7X 8H 9H\n",
        "<script>:4:14: hands[0].moves[0].ann: 'meld 7X 8H 9H': '7X' is not a card: write a rank "
        "(A 2-9 T J Q K, or 10) and a suit (C D H S), e.g. 7H, TC, 10C, QS, or JK for a joker",
    ),
    (
        "players: [ann, bob]\nhands:\n  - moves:\n      - anne: draw stock\n",
        "<script>:4:9: hands[0].moves[0].anne: 'anne' is not a player; did you mean 'ann'?",
    ),
    (
        "players: [ann, {name: bob, bot: greddy}]\n",
        "<script>:1:33: players[1].bot: unknown bot 'greddy'; did you mean 'greedy'?",
    ),
    (
        "players: [ann, bob]\nseeds: 4\n",
        "<script>:2:1: seeds: unknown key 'seeds'; did you mean 'seed'?",
    ),
    (
        "players: [ann, bob]\nhands:\n  - deal:\n      ann: [7H, 8H]\n",
        "<script>:4:12: hands[0].deal.ann: ann is dealt 2 cards; the variant 'classic' deals 13",
    ),
    (
        "players: [ann, bob]\nset: {opening_threshold: yes}\n",
        None,
    ),
    ("players: [ann, ann]\n", "<script>:1:16: players[1]: 'ann' is already seat 1"),
    (  # the engine refused these names only as it dealt, and said so of a hands[0].deal with no place
        'players: [ann, "\\x1b[31m"]\n',
        "<script>:1:16: players[1]: the player's name '\\x1b[31m' holds a control character (\\x1b)",
    ),
    (  # the cap the terminal, a hosted table and a save hold names to
        "players: [ann, bbbbbbbbbbbbbbbbbbbbb]\n",
        "<script>:1:16: players[1]: a player's name is at most 20 characters: 'bbbbbbbbbbbbbbbbbbbb…' has 21",
    ),
    (
        'players: [ann, {name: "  "}]\n',
        "<script>:1:23: players[1].name: a player's name must be text that is not blank, not '  '",
    ),
    (  # its log could not be replayed: the log reader takes numbers of at most 30 digits
        "players: [ann, bob]\nseed: 1000000000000000000000000000000\n",
        f"<script>:2:7: seed: must be at most {'9' * 30}, got 1{'0' * 30}",
    ),
    ("variant: clasic\nplayers: [ann, bob]\n", None),
    (  # one name to a reader of the screens, as --humans and a hosted table refuse
        "players: [ann, {name: ANN, bot: greedy}]\n",
        "<script>:1:23: players[1].name: 'ANN' reads as seat 1's 'ann' on the screens; "
        "give each player a different name",
    ),
    (  # the deal was measured against classic (13 cards) once the variant failed to load
        "variant: kalooki-40\nset: {hand_size: 14, goal_score: 0}\nplayers: [ann, bob]\nhands:\n"
        "  - deal:\n      ann: [2H, 3H, 4H, 5H, 9S, 9D, 9C, KH, KS, KD, 6C, 7C, 8C, 8D]\n",
        "<script>:2:34: set.goal_score: must be from 1 to 1000000, got 0",
    ),
    (  # past 4,300 digits Python's int() raises ValueError, which once ended kalooki play in a traceback
        f"players: [ann, bob]\nhands:\n  - moves:\n      - ann: build {'9' * 5000} TH\n",
        f"<script>:4:14: hands[0].moves[0].ann: 'build {'9' * 73}…': no table has that many melds",
    ),
]


@pytest.mark.parametrize(("text", "expected"), BAD_SCRIPTS)
def test_malformed_script_gives_positioned_errors(text: str, expected: str | None) -> None:
    with pytest.raises(ScriptError) as caught:
        load_script_text(text)
    lines = str(caught.value).splitlines()
    assert lines
    assert all(line.startswith("<script>:") for line in lines), lines
    if expected is not None:
        assert lines == [expected]


def test_a_deal_is_still_read_for_its_cards_when_the_variant_is_refused() -> None:
    text = "set: {goal_score: 0}\nplayers: [ann, bob]\nhands:\n  - deal:\n      ann: [2H, ZZ]\n"
    with pytest.raises(ScriptError) as caught:
        load_script_text(text)
    first, second = str(caught.value).splitlines()
    assert first == "<script>:1:19: set.goal_score: must be from 1 to 1000000, got 0"
    assert second.startswith("<script>:5:17: hands[0].deal.ann[1]: 'ZZ' is not a card")


UPCARD_REFUSED = "this variant turns up no card at the deal: leave out the discard"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "players: [ann, bob]\nset: {upcard: false}\nhands:\n  - deal:\n      discard: 7H\n",
            f"<script>:5:7: hands[0].deal: {UPCARD_REFUSED}",
        ),
        (  # a later hand's deal, refused once the bots have played the first hand out
            "players: [{name: ann, bot: greedy}, {name: bob, bot: greedy}]\nset: {upcard: false}\nseed: 1\n"
            "hands:\n  - moves: []\n  - deal: {discard: 7H}\n",
            f"<script>:6:11: hands[1].deal: {UPCARD_REFUSED}",
        ),
    ],
)
def test_a_deal_refused_only_as_it_is_dealt_is_placed_at_that_deal(text: str, expected: str) -> None:
    script = load_script_text(text)
    with pytest.raises(ScriptError) as caught:
        run_script(script)
    assert str(caught.value).splitlines() == [expected]


def play_in_a_process(folder: Path, script: str) -> subprocess.CompletedProcess[str]:
    """The installed ``kalooki play s.yaml``, run in ``folder`` on a script of that text."""
    (folder / "s.yaml").write_text(script, encoding="utf-8")
    kalooki = Path(sys.executable).with_name("kalooki")
    return subprocess.run(
        [str(kalooki), "play", "s.yaml"], capture_output=True, text=True, cwd=folder, timeout=60, check=False
    )


def test_play_places_a_bad_player_name_in_a_real_process(tmp_path: Path) -> None:
    result = play_in_a_process(tmp_path, 'players: [a, "\\x1b[31m"]\n')
    assert result.returncode == 1
    assert (
        result.stderr
        == "s.yaml:1:14: players[1]: the player's name '\\x1b[31m' holds a control character (\\x1b)\n"
    )


def test_a_script_without_a_seed_is_given_one_that_deals_the_same_cards_again(tmp_path: Path) -> None:
    # Its cards were shuffled at random and no seed was shown (the log said "seed": null): a run
    # whose move failed on a card not dealt could not be played again.
    unseeded = "players: [ann, {name: bob, bot: random}]\nhands:\n  - moves:\n      - ann: draw stock\n"
    first = play_in_a_process(tmp_path, unseeded)
    assert first.returncode == 0, first.stderr
    header, said, *account = first.stdout.splitlines()
    assert header == "classic: ann, bob"
    seed = int(said.split(":")[0].removeprefix("Seed "))
    assert said == f"Seed {seed}: the script gives none (add `seed: {seed}` for the same cards)."
    again = play_in_a_process(tmp_path, unseeded.replace("hands:", f"seed: {seed}\nhands:"))
    assert again.stdout.splitlines() == [header, *account]
    assert "draws" in account[1]  # the account of the cards dealt and drawn is there to compare
    (tmp_path / "s.yaml").write_text(unseeded, encoding="utf-8")
    played = json.loads(subprocess.run(
        [str(Path(sys.executable).with_name("kalooki")), "play", "s.yaml", "--json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60, check=True,
    ).stdout)  # fmt: skip
    assert isinstance(played["seed"], int)  # the seed chosen for this run, in the JSON too


GAME_OVER_IN_HAND_1 = """\
set: {opening_threshold: 0, hand_size: 4, goal_score: 1}
players: [ann, bob]
hands:
  - deal:
      ann: [2H, 3H, 4H, 5H]
      bob: [9C, 8D, KS, QS]
      discard: 7C
      stock: [9S, 2C]
    moves:
      - ann: draw stock
      - ann: meld 2H 3H 4H 5H
      - ann: discard 9S
"""


def test_a_hand_written_after_the_game_ended_is_refused_not_dropped() -> None:
    """A goal reached sooner than the writer thought left the later hands unplayed without a word."""
    run = run_script(load_script_text(GAME_OVER_IN_HAND_1 + "  - moves:\n      - bob: draw stock\n"))
    assert run.game_over
    assert [hand.number for hand in run.hands] == [1]
    assert str(run.error) == (
        "<script>:14:14: hand 2, move 1 (bob: draw stock): the game is already over: it ended with hand 1"
    )
    # Past an empty hand too; and a hand of a deal alone is told at its deal, beside the game played.
    run = run_script(load_script_text(GAME_OVER_IN_HAND_1 + "  - {}\n  - moves:\n      - ann: draw stock\n"))
    assert str(run.error).endswith(
        "hand 3, move 1 (ann: draw stock): the game is already over: it ended with hand 1"
    )
    run = run_script(load_script_text(GAME_OVER_IN_HAND_1 + "  - deal:\n      ann: [2H, 3H, 4H, 5H]\n"))
    assert [hand.number for hand in run.hands] == [1]
    assert str(run.error) == (
        "<script>:14:7: hand 2, its deal: the game is already over: it ended with hand 1, "
        "so this deal is never dealt"
    )
    assert run.error is not None
    assert run.error.to_json() == {
        "hand": 2,
        "move": 0,
        "player": "",
        "command": "deal",
        "message": "the game is already over: it ended with hand 1, so this deal is never dealt",
    }
    assert run_script(load_script_text(GAME_OVER_IN_HAND_1)).error is None
    assert run_script(load_script_text(GAME_OVER_IN_HAND_1 + "  - {}\n")).error is None


def script_errors(text: str) -> list[str]:
    with pytest.raises(ScriptError) as caught:
        load_script_text(text)
    return str(caught.value).splitlines()


def test_size_errors_are_plain_sentences() -> None:
    assert script_errors("players: [ann]\n") == ["<script>:1:10: players: expected at least 2 items, got 1"]


def test_a_move_of_the_wrong_shape_is_told_what_a_move_is() -> None:
    # Two moves under one '-' (the second indented as the first's) were told "expected at most 1 item, got 2",
    # and a move without its colon "expected a mapping, got 'ann draw stock'", neither saying what a move is.
    moves = "players: [ann, bob]\nhands:\n  - moves:\n      - {}\n      - ann: draw stock\n        bob: ds\n"
    a_move = "a move is one player's name and their command (ann: draw stock)"
    assert script_errors(moves + "      - ann draw stock\n") == [
        f"<script>:4:9: hands[0].moves[0]: {a_move}, this one is empty",
        f"<script>:5:9: hands[0].moves[1]: {a_move}, this one holds 2: write each move on its own '- ' line",
        f"<script>:7:9: hands[0].moves[2]: expected a mapping, got 'ann draw stock': {a_move}, "
        "a colon after the name",
    ]


def test_moves_indented_under_the_deal_are_told_where_they_go() -> None:
    # Said only "'moves' is not a player (the players are ann, bob)", as a name of the deal's.
    deal = "players: [ann, bob]\nhands:\n  - deal:\n      discard: 5H\n      moves:\n        - ann: ds\n"
    assert script_errors(deal) == [
        "<script>:5:7: hands[0].deal.moves: 'moves' is not a player (the players are ann, bob): "
        "a hand's moves go beside its deal, not in it (write 'moves:' as far in as 'deal:')"
    ]


def test_the_variant_is_checked_even_when_the_rest_of_the_script_is_not_valid() -> None:
    assert script_errors("variant: nosuch\nplayers: [ann]\nseeds: 3\nset: {jokers: x}\n") == [
        "<script>:1:10: variant: unknown variant 'nosuch'; the built-in variants are classic, czech-300, "
        "czech-500, house-rules, kalooki-40, kaluki-51, romanian, or give the path of a .yaml file",
        "<script>:2:10: players: expected at least 2 items, got 1",
        "<script>:3:1: seeds: unknown key 'seeds'; did you mean 'seed'?",
    ]
    assert script_errors("players: [ann]\nset: {jokers: x}\n") == [
        "<script>:1:10: players: expected at least 2 items, got 1",
        "<script>:2:15: set.jokers: expected a whole number, got 'x': write a whole number from 0 to 8",
    ]
    # A variant: or set: of the wrong kind is reported once, by the script's own check.
    assert script_errors("variant: 5\nset: 3\nplayers: [ann, bob]\n") == [
        "<script>:1:10: variant: expected text, got 5 (put it in quotes to make it text)",
        "<script>:2:6: set: expected a mapping, got 3",
    ]


def test_a_number_of_players_set_in_a_script_says_the_players_list_seats_them() -> None:
    """Offered a knob alone (max_players), which would not seat three, the writer was left to guess."""
    assert script_errors("players: [ann, bob]\nset: {players: 3, seats: 3}\n") == [
        "<script>:2:7: set.players: unknown key 'players'; did you mean 'max_players'? "
        "(a script seats one player for each entry of its players: list)",
        "<script>:2:19: set.seats: unknown key 'seats'; `kalooki variants show classic` lists every knob "
        "(a script seats one player for each entry of its players: list)",
    ]


@pytest.mark.parametrize(
    ("player", "expected"),
    [
        # A mapping seat is allowed: only its own problem is told, not also "expected text, got a mapping".
        (
            "{name: b, bot: 5}",
            "1:29: players[1].bot: expected text, got 5 (put it in quotes to make it text)",
        ),
        ("{name: b, extra: 1}", "1:24: players[1].extra: unknown key 'extra'"),
        ("{name: b, bots: x}", "1:24: players[1].bots: unknown key 'bots'; did you mean 'bot'?"),
        ("{bot: greedy}", "1:14: players[1].name: is required"),
        # A name that is text is not also "expected a mapping, got ''".
        ("''", "1:14: players[1]: must not be empty"),
        # Neither text nor a mapping: one line says both are taken.
        ("5", "1:14: players[1]: expected text or a mapping, got 5 (put it in quotes to make it text)"),
        ("[b]", "1:14: players[1]: expected text or a mapping, got a list"),
    ],
)
def test_a_player_is_told_only_the_problem_of_the_form_it_is_written_in(player: str, expected: str) -> None:
    assert script_errors(f"players: [a, {player}]\n") == [f"<script>:{expected}"]


def test_play_tells_a_mapping_seat_only_its_own_problem_in_a_real_process(tmp_path: Path) -> None:
    result = play_in_a_process(tmp_path, "players: [a, {name: b, bot: 5}]\n")
    assert result.returncode == 1
    assert (
        result.stderr
        == "s.yaml:1:29: players[1].bot: expected text, got 5 (put it in quotes to make it text)\n"
    )


def test_an_anchor_does_not_hide_the_other_errors_of_a_script() -> None:
    assert script_errors("players: &p [ann, bob]\nseeds: 3\n") == [
        "<script>:1:10: anchor &p is not allowed: anchors and aliases are not supported",
        "<script>:2:1: seeds: unknown key 'seeds'; did you mean 'seed'?",
    ]


def _record(script: Path) -> list[dict[str, Any]]:
    return recorded_run(load_script(script))[1]


def test_log_replays_exactly() -> None:
    records = _record(GOLDEN / "bots-game.yaml")
    summary = replay(records)
    assert summary.game_over
    assert summary.records == len(records)
    assert summary.actions == sum(
        1 for r in records if r["type"] in ("draw", "meld", "build", "release", "discard")
    )


def test_replay_names_the_first_record_that_does_not_reproduce() -> None:
    records = _record(GOLDEN / "build-and-swap.yaml")
    index = next(i for i, r in enumerate(records) if r["type"] == "discard" and r["card"] == "TD")
    records[index]["card"] = "JD"
    # bob holds a JD too, so the edited discard is legal: the state it leads to gives it away.
    with pytest.raises(ReplayError, match=rf"^record {index + 1}: the state after this event does not match"):
        replay(records)


def test_replay_names_the_field_that_differs() -> None:
    records = _record(GOLDEN / "kalooki-opening.yaml")
    index = next(i for i, r in enumerate(records) if r["type"] == "hand_end")
    records[index]["scores"]["bob"] += 5  # type: ignore[index, operator]
    with pytest.raises(ReplayError) as caught:
        replay(records)
    assert str(caught.value) == (
        f"record {index + 1} (hand_end): scores.bob: the log says 110, the engine produced 105"
    )


@pytest.mark.parametrize("hand", [1, 2])
def test_replay_says_a_deals_cards_were_moved(hand: int) -> None:
    # Each deal is dealt as its record says, so two of its cards swapped were told only that "the state
    # after this event does not match the log's".
    records = _record(GOLDEN / "bots-game.yaml")
    index = next(i for i, r in enumerate(records) if r["type"] == "deal" and r["hand"] == hand)
    first, second, *rest = records[index]["hands"]["bob"].split()
    records[index]["hands"]["bob"] = " ".join([second, first, *rest])
    with pytest.raises(ReplayError) as caught:
        replay(records)
    first = " or the game's first record" if hand == 1 else ""
    assert str(caught.value) == (
        f"record {index + 1} (deal): the state it deals does not match the log's checksum: a card in it was "
        "changed, moved or swapped since the log was written (the order of each hand and of the stock "
        f"counts), or its checksum{first} was"
    )


def _rename_bob(records: list[dict[str, Any]]) -> None:
    """bob called bobby in the first record and the first deal, wherever the deal names him."""
    for index in (0, 1):
        records[index] = json.loads(json.dumps(records[index]).replace('"bob"', '"bobby"'))


@pytest.mark.parametrize(
    "edit",
    [
        lambda records: records[0]["variant"].update(joker_penalty=30),
        _rename_bob,
        lambda records: records[1].update(state="0" * 16),
    ],
    ids=["rules", "players", "checksum"],
)
def test_replay_of_a_first_deal_as_its_seed_deals_it_blames_the_first_record_not_the_cards(
    edit: Callable[[list[dict[str, Any]]], None],
) -> None:
    # The cards untouched, a log whose rules were edited was told a card of its deal was changed, moved or
    # swapped. What the seed deals shows they were not.
    records = _record(GOLDEN / "bots-game.yaml")
    assert records[0]["seed"] == 2026
    assert records[1]["type"] == "deal"
    edit(records)
    with pytest.raises(ReplayError) as caught:
        replay(records)
    assert str(caught.value) == (
        "record 2 (deal): the state it deals does not match the log's checksum, and its cards are those the "
        "log's seed deals: the game's first record (its rules or players) or the deal's checksum was changed "
        "since the log was written"
    )


def test_replay_detects_a_tampered_state_digest() -> None:
    records = _record(GOLDEN / "kalooki-opening.yaml")
    index = max(i for i, r in enumerate(records) if "state" in r)
    records[index]["state"] = "0" * 16
    with pytest.raises(ReplayError, match=rf"^record {index + 1}: the state after this event"):
        replay(records)


def test_replay_rejects_a_file_that_is_not_a_log() -> None:
    with pytest.raises(ReplayError, match=r"^record 1: not a kalooki game log"):
        replay([{"type": "hello"}])  # a log's record without the 'game' before it: test_hostile_logs


def test_checked_in_game_script_schema_is_current() -> None:
    from kalooki.schema import check_schema

    problem = check_schema("game-script")
    assert problem is None, problem


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_golden_scripts_validate_against_the_json_schema(script: Path) -> None:
    import jsonschema
    import yaml

    from kalooki.script import game_script_schema

    jsonschema.validate(yaml.safe_load(script.read_text(encoding="utf-8")), game_script_schema())


@pytest.mark.parametrize(
    "text",
    [
        "players: [ann, bob]\nseeds: 4\n",
        "players: [ann]\n",
        "players: [ann, bob]\nset: {opening_treshold: 40}\n",
        "players: [ann, bob]\nhands:\n  - moves:\n      - {ann: draw stock, bob: draw stock}\n",
        "players: [ann, {name: bob, robot: greedy}]\n",
    ],
)
def test_schema_and_loader_both_reject(text: str) -> None:
    import jsonschema
    import yaml

    from kalooki.script import game_script_schema

    with pytest.raises(ScriptError):
        load_script_text(text)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(text), game_script_schema())


def test_play_refuses_a_log_path_it_cannot_write_before_playing(tmp_path: Path) -> None:
    from kalooki_cli.app import app
    from typer.testing import CliRunner

    target = tmp_path / "missing" / "game.jsonl"
    result = CliRunner().invoke(app, ["play", str(GOLDEN / "kalooki-opening.yaml"), "--log", str(target)])
    assert result.exit_code == 1
    assert f"{target}: the folder {target.parent} does not exist" in result.output
    assert "Traceback" not in result.output
    assert not target.parent.exists()


ELIMINATED_CID = """\
variant: kalooki-40
players: [ann, bob, cid]
seed: 1
hands:
  - deal:
      ann: [2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, TC, 2D, 3D, 4D, 5D]
      bob: [2S, 3S, 4H, 6D, 7S, 8H, 9D, JS, QH, 5S, 6H, 7D, 8S]
      cid: [JK, JK, AS, AH, AD, AC, AS, AH, AD, AC, KS, KH, KD]
      stock: [QS]
    moves:
      - ann: draw stock
      - ann: meld 2C 3C 4C 5C 6C 7C 8C 9C TC, 2D 3D 4D 5D
      - ann: discard QS
"""
"""ann goes Kalooki at once: cid, left 148 points and the 25 Kalooki adds, is out (kalooki-40 eliminates at
151), so hand 2 is dealt by bob to ann and bob alone."""

OUT = "cid is out of the game (eliminated in hand 1)"


def test_a_deal_for_a_player_out_of_the_game_names_them_and_the_hand_that_put_them_out() -> None:
    # Once "seat 2 is not playing this hand": a seat numbered from 0, and no reason.
    deal = "  - deal:\n      cid: [2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, TC, 2D, 3D, 4D, 5D]\n"
    with pytest.raises(ScriptError) as caught:
        run_script(load_script_text(ELIMINATED_CID + deal))
    assert str(caught.value).splitlines() == [
        f"<script>:15:7: hands[1].deal: {OUT}: leave cid out of the deal"
    ]


def test_a_move_by_a_player_out_of_the_game_says_they_are_out() -> None:
    # Once only "it is bob's turn, not cid's", as though cid's turn would come.
    run = run_script(load_script_text(ELIMINATED_CID + "  - moves:\n      - cid: draw stock\n"))
    assert run.eliminated == ["cid"]
    assert str(run.error) == f"<script>:15:14: hand 2, move 1 (cid: draw stock): {OUT}: it is bob's turn"
