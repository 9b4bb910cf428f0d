"""One natural card and jokers laid as a run by saying so: ``meld JK 6H JK run`` is 5-6-7.

As written such a group is a set wherever a set may hold that many cards; the word ``run`` after its
cards lays it as a run, which is then built on as a run and frees its jokers by their exact cards.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.hints import meld_preview, suggest_turn
from kalooki_cli.table_notation import move_text
from kalooki_cli.web_coach import preview_moves
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text
from solver_reference import agree

from kalooki.cards import JOKER, parse_cards
from kalooki.engine import Game
from kalooki.events import MeldEvent, event_from_json
from kalooki.log import action_from_event
from kalooki.moves import Meld, MoveSyntaxError, parse_move
from kalooki.solver import best_opening, solve
from kalooki.variant import Variant

ANN = "QH QS QD KH KS KD 6H JK JK 8H 3D 4C 9S"
BOB = "2C 3C 5D 7S 9C TC JD QC 4S 5S 8D TS AS"


def _groups(*texts: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(parse_cards(text)) for text in texts)


def _opened_with_sixes(reading: str) -> Game:
    game = new_game({}, [ANN, BOB], discard="6C", stock="7H TD JC KC")
    play(game, "draw stock", f"meld QH QS QD, KH KS KD, JK 6H JK{reading}")
    return game


def test_a_lone_six_laid_as_a_run_takes_the_eight_and_gives_its_joker_for_the_seven() -> None:
    game = _opened_with_sixes(" run")
    run = game.table[2]
    assert (run.kind, run.rank, run.suit) == ("run", 5, parse_cards("6H")[0] // 13)
    assert run.worth(game.variant) == 5 + 6 + 7
    built = play(game, "build 3 8H")
    assert built[0]["result"] == "JK 6H JK 8H"
    freed = play(game, "swap 3 7H")
    assert (freed[0]["jokers"], table_text(game)[2]) == (1, "JK 6H 7H 8H")
    assert hand_text(game, 0) == sorted(["3D", "4C", "9S", "JK"])
    # Without the word the same cards are a set of sixes, as they always were.
    sixes = _opened_with_sixes("")
    assert sixes.table[2].kind == "set"
    assert_illegal(sixes, "build 3 8H", "8H does not fit a set of 6s: the ranks differ")


@pytest.mark.parametrize(
    ("written", "low", "stands_for"),
    [("5H JK JK", 5, "6H 7H"), ("JK 5H JK", 4, "4H 6H"), ("JK JK 5H", 3, "3H 4H"), ("JK JK AH", 12, "QH KH")],
)
def test_a_lone_run_is_read_low_to_high_as_written(written: str, low: int, stands_for: str) -> None:
    game = new_game({"opening_threshold": 0, "hand_size": 5}, [f"{written} 2C 9D", "3C 5D 9S QD KC"])
    play(game, "draw stock", f"meld {written} run")
    run = game.table[0]
    jokers = [index for index, card in enumerate(run.cards) if card == JOKER]
    assert (run.kind, run.rank) == ("run", low)
    assert [run.stands_for(index) for index in jokers] == parse_cards(stands_for)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("meld 5H 9C JK run", "5H 9C JK is not a run: a run's cards are all of one suit"),
        ("meld 5H 5C JK run", "5H 5C JK is not a run: a run's cards are all of one suit"),
        ("meld 5H 6H JK set", "5H 6H JK is not a set: the ranks differ"),
        (
            "meld JK JK 2H run",
            "JK JK 2H is not a run: a joker cannot stand below the ace: no card ranks lower",
        ),
    ],
)
def test_a_reading_the_cards_cannot_take_is_refused_in_one_line(move: str, message: str) -> None:
    game = new_game(
        {"opening_threshold": 0, "hand_size": 7}, ["5H 5C 6H 9C 2H JK JK", "3C 5D 9S QD KC 4S 8D"]
    )
    play(game, "draw discard")
    assert_illegal(game, move, message)


def test_the_word_reads_back_as_it_was_written() -> None:
    move = parse_move("m 5H JK JK RUN, QS QD QC")
    assert move == Meld(_groups("5H JK JK", "QS QD QC"), ("run", None))
    assert str(move) == "meld 5H JK JK run, QS QD QC"
    assert parse_move(str(move)) == move
    assert str(parse_move("meld 7S 7D JK set")) == "meld 7S 7D JK set"
    # Without a word a meld is what it always was: equal, hashed and written as before.
    plain = parse_move("meld 5H JK JK, QS QD QC")
    assert plain == Meld(_groups("5H JK JK", "QS QD QC"))
    assert plain.kinds == ()
    assert hash(plain) == hash(Meld(_groups("5H JK JK", "QS QD QC")))
    assert str(plain) == "meld 5H JK JK, QS QD QC"
    with pytest.raises(MoveSyntaxError, match="run"):
        parse_move("meld run")


def test_the_meld_event_carries_the_reading_and_plays_back_as_the_move() -> None:
    game = new_game({}, [ANN, BOB], discard="6C", stock="7H")
    play(game, "draw stock")
    (event,) = game.apply(parse_move("meld QH QS QD, KH KS KD, JK 6H JK run"))
    assert isinstance(event, MeldEvent)
    data = event.to_json()
    assert (data["read_as"], data["points"]) == ([None, None, "run"], 30 + 30 + 5 + 6 + 7)
    assert event_from_json(data) == event
    assert action_from_event(data) == parse_move("meld QH QS QD, KH KS KD, JK 6H JK run")
    # A meld that named no reading writes no read_as: logs read as they did.
    other = new_game({}, [ANN, BOB], discard="6C", stock="7H")
    play(other, "draw stock")
    assert "read_as" not in other.apply(parse_move("meld QH QS QD, KH KS KD"))[0].to_json()


def test_the_legal_actions_list_the_run_reading() -> None:
    game = new_game({}, [ANN, BOB], discard="6C", stock="7H TD")
    play(game, "draw stock")
    opening = Meld(_groups("QD QH QS", "KD KH KS", "JK 6H JK"), (None, None, "run"))
    assert opening in game.iter_legal_actions()
    play(game, "meld QH QS QD, KH KS KD")
    listed = game.legal_actions()
    for written in ("6H JK JK", "JK 6H JK", "JK JK 6H", "8H JK JK", "JK 8H JK", "JK JK 8H"):
        assert Meld(_groups(written), ("run",)) in listed
    # A hand of one joker has no such group: nothing is listed with a reading.
    single = new_game({"opening_threshold": 0, "hand_size": 5}, ["6H JK 8H 3D 4C", "3C 5D 9S QD KC"])
    play(single, "draw stock")
    assert not any(isinstance(action, Meld) and action.kinds for action in single.legal_actions())


@pytest.mark.parametrize("objective", ["points", "cards", "value_left"])
@pytest.mark.parametrize("hand", ["2H JK JK", "2H JK JK 5C", "2H 3H JK JK KS", "2H 2C JK JK 9D"])
def test_the_solver_agrees_with_brute_force_where_a_lone_run_is_worth_more(hand: str, objective: str) -> None:
    for opened in (True, False):
        for keep in (0, 1):
            agree(parse_cards(hand), Variant(opening_threshold=9), objective, opened=opened, keep=keep)  # type: ignore[arg-type]


def test_the_solver_lays_two_jokers_with_a_two_as_a_run_where_it_is_worth_more() -> None:
    rules = Variant(opening_threshold=9)
    plan = solve(parse_cards("2H JK JK"), rules, objective="points")
    # The set of twos is worth 6, 2-3-4 9, and A-2-3 (the ace low, at eleven) 16.
    assert (plan.melds, plan.kinds, plan.points) == (_groups("JK 2H JK"), ("run",), 11 + 2 + 3)
    # A run opens at 9 where the set of twos does not; the opening's move says "run".
    opening = best_opening(parse_cards("2H JK JK"), rules)
    assert opening is not None
    assert Meld(opening.melds, opening.kinds) == parse_move("meld JK 2H JK run")
    low = solve(parse_cards("2H JK JK"), Variant(ace_in_runs="high"), objective="points")
    assert (low.melds, low.kinds, low.points) == (_groups("2H JK JK"), ("run",), 2 + 3 + 4)


def test_a_script_lays_the_run_and_its_log_replays(tmp_path: Path) -> None:
    script = tmp_path / "lone.yaml"
    script.write_text(
        "variant: classic\nplayers: [ann, bob]\nseed: 1\nhands:\n  - deal:\n"
        "      ann: [QH, QS, QD, KH, KS, KD, 6H, JK, JK, 8H, 3D, 4C, 9S]\n"
        "      discard: 6C\n      stock: [7H, TD, JC, KC]\n    moves:\n"
        "      - ann: draw stock\n      - ann: meld QH QS QD, KH KS KD, JK 6H JK run\n"
        "      - ann: build 3 8H\n      - ann: swap 3 7H\n",
        encoding="utf-8",
    )
    log = tmp_path / "lone.jsonl"
    kalooki = [sys.executable, "-m", "kalooki"]
    played = subprocess.run(
        [*kalooki, "play", str(script), "--log", str(log)], capture_output=True, text=True
    )
    assert played.returncode == 0, played.stderr
    melds = [json.loads(line) for line in log.read_text().splitlines() if '"type":"meld"' in line]
    assert melds[0]["read_as"] == [None, None, "run"]
    replayed = subprocess.run([*kalooki, "replay", str(log)], capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr
    assert ": ok: " in replayed.stdout


def test_a_hint_that_lays_a_lone_run_says_run_and_reads_back_as_typed() -> None:
    game = new_game({}, [ANN, BOB], discard="6C", stock="7H")
    play(game, "draw stock")
    meld = suggest_turn(game).actions[0]
    # 9S JK JK is worth 27 as nines, 29 as 9-10-J: the greedy bot's plan lays the run.
    assert meld == parse_move("meld QD QH QS, KD KH KS, 6H 7H 8H, 9S JK JK run")
    line = move_text(meld, game).plain
    assert line.endswith(" run")
    assert parse_move(line) == meld
    preview = meld_preview(game, 0)
    assert preview is not None
    assert preview_moves(preview.melds, preview.builds, preview.kinds) == [
        "m QD QH QS, KD KH KS, 6H 7H 8H, 9S JK JK run"
    ]
