"""Commands that work only in one's own turn (hint, undo), typed when it is not one's turn: refused by name,
never as words there are none of.

At a hosted table they read "'hint' is not a command (did you mean 'hint'?)", though help on the same
screen listed both; the same at a terminal's pauses (``tests/test_net_join_pty.py`` types them at a table).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from kalooki_cli.hotseat import HotSeatGame, hotseat_session
from kalooki_cli.interactive import new_game, scripted_input
from rich.console import Console
from test_interactive import error_lines, fixed_game, hint_player, run

from kalooki.cards import format_card
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.savegame import SAVE_SUFFIX
from kalooki.variant import Variant

KALOOKI = Path(sys.executable).with_name("kalooki")
BETWEEN_HANDS = "press Enter to deal the next hand, or type score, save, rules, help or quit"


def saved_between_hands(path: Path) -> None:
    """A game against bots played by its hints until its first hand is over, saved at Press Enter to deal."""
    game, session = new_game(Variant(), "you", ["greedy", "greedy", "greedy"], seed=5)
    hinting = hint_player([game], 10_000)

    def until_the_hand_ends(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            raise EOFError
        return hinting(prompt)

    run(game, until_the_hand_ends, save_path=path, session=session)
    assert game.phase == "hand_over"


def resumed_typing(path: Path, typed: str) -> subprocess.CompletedProcess[str]:
    """``kalooki resume PATH`` run with ``typed`` as its keyboard, lines wide and without colour."""
    return subprocess.run(
        [str(KALOOKI), "resume", str(path)],
        input=typed,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )


def hot_seat_after_anns_turn(lines: list[str]) -> str:
    """A hot-seat game of ann and bob: ann passed to, she draws and discards, then ``lines`` are typed at
    bob's pass screen; what the terminal showed."""
    game = Game(load_variant("classic"), ["ann", "bob"], seed=8)
    session = hotseat_session(game, [0, 1], {}, "classic")
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    typed = ["", "ds", f"d {format_card(game.hands[0][0])}", *lines]
    loop = HotSeatGame(
        game, session, [0, 1], console=console, read_line=scripted_input(typed, console), save_path=None
    )
    assert loop.run() == 0
    return out.getvalue()


def test_hint_and_undo_between_hands_say_they_work_on_your_turn(tmp_path: Path) -> None:
    path = tmp_path / f"g{SAVE_SUFFIX}"
    saved_between_hands(path)
    result = resumed_typing(path, "hint\nHINT\nundo\nu\nzz\nquit\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert error_lines(result.stdout.replace("quit): ", "quit):\n")) == [
        f"✗ hint works on your turn: {BETWEEN_HANDS}",
        f"✗ hint works on your turn: {BETWEEN_HANDS}",
        f"✗ undo works on your turn: {BETWEEN_HANDS}",
        f"✗ u works on your turn: {BETWEEN_HANDS}",
        f"✗ {BETWEEN_HANDS}",  # a word that is no command: the pause's own refusal, as before
    ]


def test_hint_at_the_hot_seat_pass_screen_says_it_works_on_your_turn() -> None:
    game = Game(load_variant("classic"), ["ann", "bob"], seed=8)
    session = hotseat_session(game, [0, 1], {}, "classic")
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    lines = ["", "ds", f"d {format_card(game.hands[0][0])}", "hint", "undo", "quit"]
    loop = HotSeatGame(
        game, session, [0, 1], console=console, read_line=scripted_input(lines, console), save_path=None
    )
    assert loop.run() == 0
    refusal = "press Enter when bob has the keyboard, or type score, save, rules, help or quit"
    refused = [line.rstrip() for line in out.getvalue().splitlines() if line.startswith("✗ ")]
    assert refused == [f"✗ hint works on your turn: {refusal}", f"✗ undo works on your turn: {refusal}"]


def test_a_word_typed_is_never_suggested_back_as_what_was_meant() -> None:
    # The suggestion for a near miss: 'hint' typed where it is not taken is no near miss of 'hint'.
    code, _, loop = run(fixed_game(players=2), [])
    assert code == 0
    out = io.StringIO()
    loop.console = Console(file=out, width=200, color_system=None, highlight=False)
    for typed in ("hint", "HINT", "Undo now"):
        loop.not_a_command(typed)
    loop.not_a_command("hnit")  # a near miss is still told what it missed
    assert error_lines(out.getvalue()) == [
        "✗ 'hint' is not a command: type help for the list (moves: ds dd m b s d)",
        "✗ 'HINT' is not a command: type help for the list (moves: ds dd m b s d)",
        "✗ 'Undo now' is not a command: type help for the list (moves: ds dd m b s d)",
        "✗ 'hnit' is not a command (did you mean 'hint'?): type help for the list (moves: ds dd m b s d)",
    ]


def test_a_near_miss_of_a_command_at_a_pause_is_told_what_it_missed() -> None:
    # 'scroe' at the pass screen (or between hands) read only "press Enter when bob has the keyboard, or
    # type score, ...", where the turn's prompt said "did you mean 'score'?": now the pause does too.
    text = hot_seat_after_anns_turn(["scroe", "sve friday.json", "Rulse", "zz", "quit"])
    refusal = "press Enter when bob has the keyboard, or type score, save, rules, help or quit"
    refused = [line.rstrip() for line in text.splitlines() if line.startswith("✗ ")]
    assert refused == [
        f"✗ 'scroe' is not a command (did you mean 'score'?): {refusal}",
        f"✗ 'sve friday.json' is not a command (did you mean 'save friday.json'?): {refusal}",
        f"✗ 'Rulse' is not a command (did you mean 'rules'?): {refusal}",
        f"✗ {refusal}",  # no command near: the pause's own refusal
    ]


def test_the_pauses_name_the_commands_that_work_there_and_each_named_works(tmp_path: Path) -> None:
    # "Press Enter to deal hand 2 (or score, save, quit)" and "Pass to bob — press Enter" left out rules and
    # help, which work there: a newcomer between hands did not know the rulebook was a word away.
    path = tmp_path / f"g{SAVE_SUFFIX}"
    saved_between_hands(path)
    named = ["score", "save", "rules", "help", "quit"]
    result = resumed_typing(path, "\n".join(named[:-1]) + "\nquit\n")
    assert result.returncode == 0, result.stdout + result.stderr
    prompt = "Press Enter to deal hand 2 (or score, save, rules, help, quit): "
    assert result.stdout.count(prompt) == len(named)  # asked again after each, none refused
    assert error_lines(result.stdout.replace("quit): ", "quit):\n")) == []

    text = hot_seat_after_anns_turn(["score", "rules", "help", "quit"])
    assert text.count("Pass to bob — press Enter (or score, save, rules, help, quit)") == 4
    assert not [line for line in text.splitlines() if line.startswith("✗ ")]


def test_a_move_typed_between_hands_is_told_that_moves_wait_for_the_deal(tmp_path: Path) -> None:
    # A move there read only "press Enter to deal the next hand, ...", as a mistyped word does: a newcomer
    # did not know why it was refused, nor that the next hand's deal would take it.
    path = tmp_path / f"g{SAVE_SUFFIX}"
    saved_between_hands(path)
    result = resumed_typing(path, "ds\nm 7H 8H 9H\nDiscard KD\nzz\nquit\n")
    assert result.returncode == 0, result.stdout + result.stderr
    moves_wait = f"✗ moves wait for the deal: {BETWEEN_HANDS}"
    assert error_lines(result.stdout.replace("quit): ", "quit):\n")) == [
        moves_wait,
        moves_wait,
        moves_wait,
        f"✗ {BETWEEN_HANDS}",  # no move: the pause's own refusal, as before
    ]
