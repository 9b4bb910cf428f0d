"""A game of a simulation that the engine cannot play on stops the run loudly, naming the game.

The bots' faults are the driver's to catch (a refused move is replaced by a safe one); what reaches the
run is the engine's own failure, such as a turn with no legal action. That ended a whole run with the
bare 'P1 has no legal action': now the message says which variant, game, deal seed, hand and turn,
and the command leads with the variant's file, so the game can be played again and reported.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

import kalooki.simulate as simulation
from kalooki.driver import play_turn
from kalooki.engine import Game, IllegalMoveError
from kalooki.loader import load_variant
from kalooki.simulate import GameFailure, game_seed, simulate

SEED = 5
FAILING = game_seed(SEED, 1)
"""The deal seed of game 1 of a run with master seed 5: the game the engine fails in."""


def fail_in_game_1(monkeypatch: pytest.MonkeyPatch, error: Exception, threshold: int | None = None) -> None:
    """Make the engine fail on turn 3 of the first hand of game 1 (``error``), as if it had no legal action;
    ``threshold``: only in the variant of that opening threshold."""

    def failing(game: Game, *args: Any) -> Any:
        wanted = threshold is None or game.variant.opening_threshold == threshold
        if game.seed == FAILING and game.turn_number == 3 and wanted:
            raise error
        return play_turn(game, *args)

    monkeypatch.setattr(simulation, "play_turn", failing)


def test_the_failure_names_the_game_its_seed_hand_and_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    fail_in_game_1(monkeypatch, IllegalMoveError("bob has no legal action"))
    with pytest.raises(GameFailure) as caught:
        simulate(load_variant("classic"), ["random", "random"], 3, seed=SEED, workers=1)
    assert str(caught.value) == (
        f"classic, game 1 (deal seed {FAILING}), hand 1, turn 3: bob has no legal action"
        " (a fault of kalooki's engine)"
    )
    assert isinstance(caught.value.__cause__, IllegalMoveError)
    # Raised in a worker process, it comes back whole.
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (str(copy), copy.variant) == (str(caught.value), caught.value.variant)


def test_a_failure_that_is_no_kalooki_error_stays_itself_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    fail_in_game_1(monkeypatch, IndexError("list index out of range"))
    with pytest.raises(IndexError) as caught:
        simulate(load_variant("classic"), ["random", "random"], 3, seed=SEED, workers=1)
    assert caught.value.__notes__ == [f"in classic, game 1 (deal seed {FAILING}), hand 1, turn 3"]


def test_the_command_leads_with_the_variant_file_and_exits_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fail_in_game_1(monkeypatch, IllegalMoveError("bob has no legal action"))
    house = tmp_path / "house.yaml"
    house.write_text("opening_threshold: 40\n")
    arguments = ["simulate", str(house), "--games", "3", "--seed", str(SEED), "--workers", "1"]
    result = CliRunner().invoke(app, [*arguments, "--bots", "random,random"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{house}: house, game 1 (deal seed {FAILING}), hand 1, turn 3: bob has no legal action"
        " (a fault of kalooki's engine)"
    ]


def test_a_comparison_names_the_file_of_the_variant_that_failed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fail_in_game_1(monkeypatch, IllegalMoveError("bob has no legal action"), threshold=51)
    house, other = tmp_path / "house.yaml", tmp_path / "other.yaml"
    house.write_text("opening_threshold: 40\n")
    other.write_text("opening_threshold: 51\n")
    arguments = ["simulate", str(house), "--compare", str(other), "--games", "3", "--seed", str(SEED)]
    result = CliRunner().invoke(app, [*arguments, "--workers", "1", "--bots", "random,random"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{other}: other, game 1 (deal seed {FAILING}), hand 1, turn 3: bob has no legal action"
        " (a fault of kalooki's engine)"
    ]


def test_a_sweep_names_the_cell_whose_game_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    # The message named the base variant, which every cell shares: no word of which cell's rules failed.
    fail_in_game_1(monkeypatch, IllegalMoveError("bob has no legal action"), threshold=40)
    args = ["sweep", "classic", "--grid", "opening_threshold=51,40", "-n", "3", "-w", "1"]
    args += ["--seed", str(SEED)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"cell opening_threshold=40: classic, game 1 (deal seed {FAILING}), hand 1, turn 3:"
        " bob has no legal action (a fault of kalooki's engine)\n"
    )
