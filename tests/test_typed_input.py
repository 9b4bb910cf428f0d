"""Moves as they arrive: a byte-order mark before piped moves, characters that show nothing in one, a
word typed out of its phase."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_interactive import error_lines, fixed_game, run

from kalooki.text import escape_unseen

KALOOKI = Path(sys.executable).with_name("kalooki")


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("\ufeffds", "\\ufeffds"),
        ("d\u200bs", "d\\u200bs"),
        ("d\u00ads", "d\\xads"),
        ("d\u2060s", "d\\u2060s"),
    ],
)
def test_an_unseen_character_in_a_move_is_shown_spelled_out(typed: str, shown: str) -> None:
    code, transcript, _ = run(fixed_game(), [typed], width=200)
    assert code == 0
    [error] = error_lines(transcript)
    assert error.startswith(f"✗ '{shown}' is not a command (did you mean 'ds'?)")


def test_joiners_inside_an_emoji_stay() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert escape_unseen(f"{family} \x1b[2J") == f"{family} \\x1b[2J"


def test_a_byte_order_mark_before_piped_moves_is_skipped() -> None:
    result = subprocess.run(
        [str(KALOOKI), "play", "--seed", "3"],
        input="\ufeffds\nquit\n".encode(),
        capture_output=True,
        env={**os.environ, "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"},
        timeout=60,
    )
    out = result.stdout.decode()
    assert result.returncode == 0
    assert "not a command" not in out
    assert "draw> You draw " in out


def test_draw_alone_once_drawn_is_told_the_card_is_drawn_already() -> None:
    # It was told "write draw stock or draw discard (ds or dd)", and ds was then refused.
    game = fixed_game()
    _, transcript, _ = run(game, ["draw", "ds", "draw", "Draw "], width=200)
    assert error_lines(transcript) == [
        "✗ 'draw': write draw stock or draw discard (ds or dd)",
        *["✗ you have drawn already this turn: meld, build, swap or discard"] * 2,
    ]
    assert game.phase == "play"
