"""A save must agree with its deals: who dealt, who plays first, the cards dealt and turned up, the stock's
end and the players' names are the variant's and the game's entry points' to decide.

Each edit here makes a game no play reaches (refused naming what and where), or one at the edge of what
play reaches (taken); the command-line cases are saves edited by hand with the checksum recomputed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import play
from test_reachable_checks import (
    Edit,
    both,
    in_draw,
    in_play,
    refusal,
    setting,
)

from kalooki.engine import Game
from kalooki.savegame import Session, rng_states, save_checksum, save_document, seat_rng
from kalooki.statecheck import check_reachable
from kalooki.variant import Variant

REFUSED: list[tuple[str, Callable[[], Game], Edit, str]] = [
    (
        "stock out under reshuffle",
        in_play,
        setting("stock_ran_out", True),
        "the stock is marked run out, which stock_exhausted: reshuffle_all never does "
        "(it reshuffles the discard pile)",
    ),
    (
        "stock out with cards",
        lambda: in_play(stock_exhausted="end_hand"),
        setting("stock_ran_out", True),
        "the stock is marked run out, but it holds 92 cards",
    ),
    (
        "stock out before the draw",
        lambda: in_draw(stock_exhausted="end_hand"),
        both(setting("stock", []), setting("stock_ran_out", True)),
        "the stock is marked run out, but the hand waits for another draw",
    ),
]


@pytest.mark.parametrize(
    ("build", "edit", "message"), [case[1:] for case in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_a_game_its_deals_do_not_lead_to_is_refused_naming_why(
    build: Callable[[], Game], edit: Edit, message: str
) -> None:
    assert refusal(build, edit) == message


TAKEN: list[tuple[str, Callable[[], Game], Edit]] = [
    (
        "the draw that empties the stock",
        lambda: in_play(stock_exhausted="end_hand"),
        both(setting("stock", []), setting("stock_ran_out", True)),
    ),
]


@pytest.mark.parametrize(("build", "edit"), [case[1:] for case in TAKEN], ids=[c[0] for c in TAKEN])
def test_a_game_its_deals_lead_to_is_taken(build: Callable[[], Game], edit: Edit) -> None:
    game = build()
    edit(game)
    check_reachable(game)


# ----------------------------------------------------------------------------- the command


def saved_at_the_first_draw() -> dict[str, Any]:
    """A two-player save at hand 1, turn 1: you (seat 0) have drawn from the stock; the table is empty."""
    game = Game(Variant(), ["you", "bob"], seed=5)
    play(game, "draw stock")
    rngs = {1: seat_rng(game.seed, 1)}
    session = Session(human_seat=0, bots={1: "greedy"}, bot_rngs=rng_states(rngs))
    return save_document(game, session)


def edited(edit: Callable[[dict[str, Any]], None]) -> str:
    document = saved_at_the_first_draw()
    edit(document["game"])
    document["checksum"] = save_checksum(document["session"], document["game"])
    return json.dumps(document)


def put(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda game: game.__setitem__(key, value)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        pytest.param(
            put("stock_ran_out", True),
            "the stock is marked run out, which stock_exhausted: reshuffle_all never does "
            "(it reshuffles the discard pile)",
            id="stock out",
        ),
    ],
)
def test_resume_refuses_a_save_its_deal_does_not_lead_to(
    edit: Callable[[dict[str, Any]], None], said: str, tmp_path: Path
) -> None:
    path = tmp_path / "edited.kalooki-save.json"
    path.write_text(edited(edit))
    before = path.read_bytes()
    ran = subprocess.run(
        [sys.executable, "-m", "kalooki", "resume", str(path), "--no-log", "--fast"],
        capture_output=True,
        text=True,
        input="",
        env={**os.environ, "KALOOKI_HOME": str(tmp_path), "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )
    assert ran.returncode == 1
    assert ran.stderr.splitlines() == [f"{path}: the saved game is not one play can reach: {said}"]
    assert ran.stdout == ""
    assert path.read_bytes() == before
