"""Hostile play: variants that validate but could never finish, the shared turn limit, bad actions,
escape codes typed at the prompt, and save files on disk."""

from __future__ import annotations

import io
import json
import os
import random
import re
import time
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.interactive import InteractiveGame, scripted_input
from kalooki_cli.saves import SaveFileError, write_save
from kalooki_cli.scoresheet import render_hand_end
from rich.console import Console
from test_interactive import packed
from typer.testing import CliRunner

from kalooki.bots import make_bot
from kalooki.cards import parse_cards
from kalooki.driver import play_hand
from kalooki.engine import MAX_LISTED_LAYINGS, FixedDeal, Game, IllegalMoveError, SetupError
from kalooki.loader import VariantError, load_variant_text
from kalooki.melds import MeldKind
from kalooki.moves import Action, Build, Discard, Draw, Meld, Swap
from kalooki.savegame import Session, seat_rng
from kalooki.script import load_script
from kalooki.script_run import run_script
from kalooki.statecheck import check_action_parts
from kalooki.variant import CLASSIC, Variant

runner = CliRunner()


# ----------------------------------------------------------------------------- variants that never finished


def test_the_66_byte_variant_that_ate_gigabytes_is_refused() -> None:
    text = "decks: 4\njokers: 8\nhand_size: 100\nmax_players: 2\nopening_threshold: 0\n"
    with pytest.raises(VariantError) as caught:
        load_variant_text(text, "huge.yaml")
    assert str(caught.value) == "huge.yaml:3:12: hand_size: must be from 1 to 26, got 100"


BIGGEST = Variant(decks=4, jokers=8, hand_size=26, max_players=2, opening_threshold=0)
JOKER_HAND = [52] * 8 + parse_cards("AC 2C 3C 4C 5C 6C 7D 8D 9D TD JD QD KH KS KC 2H 2S 2D")


def game_with_every_joker() -> Game:
    """The largest hand the rules allow, holding all eight jokers, at threshold 0: millions of openings."""
    game = Game(BIGGEST, ["ann", "bob"], seed=3, deal=FixedDeal(hands={0: JOKER_HAND}))
    game.apply(Draw("stock"))
    return game


def test_legal_actions_are_bounded_at_the_largest_hand() -> None:
    """Every combination of melds is an opening at threshold 0: legal_actions lists a bounded number."""
    game = game_with_every_joker()
    actions = game.legal_actions()
    layings = [action for action in actions if isinstance(action, Meld)]
    discards = {action.card for action in actions if isinstance(action, Discard)}
    assert len(layings) == MAX_LISTED_LAYINGS
    assert discards == set(game.hands[0])
    assert all(game.check(action) is None for action in layings[:: MAX_LISTED_LAYINGS // 10])


def test_iter_legal_actions_still_yields_past_the_listed_bound() -> None:
    game = game_with_every_joker()
    melds = (action for action in game.iter_legal_actions() if isinstance(action, Meld))
    assert sum(1 for _ in zip(range(MAX_LISTED_LAYINGS + 1), melds, strict=False)) == MAX_LISTED_LAYINGS + 1


# ----------------------------------------------------------------------------- the turn limit


def test_a_hand_nobody_can_finish_stops_at_the_turn_limit_and_says_so() -> None:
    variant = CLASSIC.model_copy(update={"opening_threshold": 1000, "discard_draw": "never"})
    game = Game(variant, ["ann", "bob"], seed=1, turn_limit=40)
    events = play_hand(game, {seat: make_bot("greedy", random.Random(seat)) for seat in range(2)})
    end = events[-1]
    assert (end["type"], end["end"], end["winner"]) == ("hand_end", "turn_limit", None)
    assert game.results[-1].turns == 40
    assert game.totals == [0, 0]
    out = Console(file=io.StringIO(), width=100, color_system=None)
    render_hand_end(out, game, _seating(game), end, [])
    assert "The hand reached the turn limit (40 turns) without a winner: nobody scores." in _text(out)


def test_a_bot_only_script_that_cannot_open_ends_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "never.yaml"
    path.write_text(
        "variant: classic\nset: {opening_threshold: 140, discard_draw: never}\n"
        "players: [{name: ann, bot: greedy}, {name: bob, bot: greedy}]\nseed: 1\n"
    )
    run = run_script(load_script(path))
    assert [hand.end for hand in run.hands] == ["turn_limit"]
    assert run.to_json()["hands"][0]["end"] == "turn_limit"
    assert not run.game_over
    result = runner.invoke(app, ["play", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "hand 1 ends without a winner (the turn limit was reached: nobody scores)" in result.stdout
    assert (
        "The game is stopped: hand 1 reached the turn limit (1000 turns) without a winner." in result.stdout
    )


def test_the_turn_limit_travels_with_a_save() -> None:
    game = Game(CLASSIC, ["ann", "bob"], seed=1, turn_limit=77)
    assert Game.from_json(game.to_json()).turn_limit == 77
    state = game.to_json()
    del state["turn_limit"]  # a save from before the limit was saved
    assert Game.from_json(state).turn_limit == 1000
    # ... in a hand that had already run past it (ann's turn, as she began it): it still loads.
    state["turn_number"] = 1235
    assert Game.from_json(state).turn_limit == 1235


# ----------------------------------------------------------------------------- actions that are not actions


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Discard(56), "56 is not a card code (0 to 52)"),
        (Discard(-1), "-1 is not a card code (0 to 52)"),
        (Meld(((0, 1, 99),)), "99 is not a card code (0 to 52)"),
        (Build(1, (3,), "middle"), "'middle' is not an end of a run: low or high"),  # type: ignore[arg-type]
        (Discard(53), "53 is not a card code (0 to 52)"),
        (Discard(True), "True is not a card code (0 to 52)"),
        (Swap(1, (3, "4")), "'4' is not a card code (0 to 52)"),  # type: ignore[arg-type]
        (Build(True, (3,), "low"), "True is not a meld number"),
        (Swap("1", (3,)), "'1' is not a meld number"),  # type: ignore[arg-type]
        # A plug-in bot's Meld of one group, not a tuple of groups: a TypeError out of the parts check.
        (Meld((0, 1, 2)), "(0, 1, 2) is not a list of melds, each a list of card codes"),  # type: ignore[arg-type]
        (Meld(((0, 1, 2), 3)), "((0, 1, 2), 3) is not a list of melds, each a list of card codes"),  # type: ignore[arg-type]
        (Build(1, 3), "3 is not a list of card codes"),  # type: ignore[arg-type]
        (
            Meld(((0, 1, 2), ())),
            "a meld of no cards: each meld of a meld move holds its cards (meld 7H 8H 9H, QS QD QC)",
        ),
        (Swap(1, None), "None is not a list of card codes"),  # type: ignore[arg-type]
    ],
)
def test_an_action_naming_no_card_is_an_illegal_move(
    action: Discard | Meld | Build | Swap, message: str
) -> None:
    game = Game(CLASSIC, ["ann", "bob"], seed=1)
    game.apply(Draw("stock"))
    before = game.to_json()
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        game.apply(action)
    assert game.to_json() == before


@pytest.mark.parametrize(
    "action",
    [
        Draw("stock"),
        Draw("discard"),
        Discard(0),
        Discard(52),
        Meld(((0, 1, 2), (52,))),
        Build(2, (3,), None),
        Build(1, (0, 52), "low"),
        Swap(1, (3,)),
    ],
    ids=str,
)
def test_an_action_made_of_what_it_claims_passes_the_parts_check(action: Action) -> None:
    """Draws and discards of the right types skip this check in play: asked directly, it passes them too."""
    check_action_parts(action)


@pytest.mark.parametrize(
    ("kinds", "message"),
    [
        (("run", "set"), "('run', 'set') is not a reading of each meld: set, run or None, one a meld"),
        (("pair",), "('pair',) is not a reading of each meld: set, run or None, one a meld"),
        (["run"], "['run'] is not a reading of each meld: a tuple of set, run or None, one a meld"),
        # Each reading is one, but a list: the message said None was no reading.
        ([None], "[None] is not a reading of each meld: a tuple of set, run or None, one a meld"),
    ],
    ids=str,
)
def test_a_meld_read_other_than_set_run_or_none_one_a_meld_is_an_illegal_move(
    kinds: object, message: str
) -> None:
    """A meld's readings built in code or read from a log: a tuple, one for each group, each set, run or
    None."""
    with pytest.raises(IllegalMoveError) as caught:
        check_action_parts(Meld(((0, 1, 2),), kinds=kinds))  # type: ignore[arg-type]
    assert str(caught.value) == message


@pytest.mark.parametrize("kinds", [(), ("run",), (None,), ("set",)], ids=str)
def test_a_meld_read_as_its_groups_say_passes_the_parts_check(kinds: tuple[MeldKind | None, ...]) -> None:
    check_action_parts(Meld(((0, 1, 2),), kinds=kinds))


def test_a_meld_of_no_melds_opens_nobody() -> None:
    # It was taken where any meld opens: ann was marked opened with no meld on the table.
    game = Game(CLASSIC.model_copy(update={"opening_threshold": 0}), ["ann", "bob"], seed=1)
    game.apply(Draw("stock"))
    before = game.to_json()
    with pytest.raises(IllegalMoveError, match=r"^a meld move lays at least one meld: meld 7H 8H 9H$"):
        game.apply(Meld(()))
    assert game.to_json() == before
    assert game.opened == [False, False]


def test_a_draw_from_nowhere_is_an_illegal_move() -> None:
    game = Game(CLASSIC, ["ann", "bob"], seed=1)
    with pytest.raises(IllegalMoveError, match="'sleeve' is not a place to draw from"):
        game.apply(Draw("sleeve"))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["ann\x1b[2J", "bob\n", "\x07", ""])
def test_a_player_name_must_be_one_printable_line(name: str) -> None:
    with pytest.raises(SetupError):
        Game(CLASSIC, [name, "cid"], seed=1)


# ----------------------------------------------------------------------------- the terminal


def _seating(game: Game):  # type: ignore[no-untyped-def]
    from kalooki_cli.render import Seating

    return Seating(tuple(game.players), 0, dict.fromkeys(range(1, len(game.players)), "greedy"))


def _text(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return " ".join(file.getvalue().split())


def _interactive(game: Game, lines: list[str], save_path: Path | None = None) -> tuple[str, InteractiveGame]:
    out = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
    seats = range(1, len(game.players))
    session = Session(
        human_seat=0,
        bots=dict.fromkeys(seats, "greedy"),
        bot_rngs={s: seat_rng(1, s).getstate() for s in seats},
    )
    loop = InteractiveGame(
        game,
        session,
        console=out,
        read_line=scripted_input(lines),
        save_path=save_path,
        write_save=write_save,
    )
    loop.run()
    file = out.file
    assert isinstance(file, io.StringIO)
    return file.getvalue(), loop


@pytest.mark.parametrize("typed", ["\x1b]0;PWNED\x07\x1b[2J", "d \x1b[31mKD", "m 7H 8H \x1b[2J"])
def test_escape_codes_typed_at_the_prompt_are_not_echoed(typed: str) -> None:
    transcript, _ = _interactive(Game(CLASSIC, ["you", "bob"], seed=1), ["ds", typed])
    assert "\x1b" not in transcript
    assert "\x07" not in transcript
    assert "\\x1b" in transcript


# ----------------------------------------------------------------------------- save files on disk


def test_a_temporary_file_left_by_a_killed_autosave_is_removed_by_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "game.kalooki-save.json"
    stale = tmp_path / f".{path.name}.abc123.tmp"
    stale.write_text("half a save")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = tmp_path / f".{path.name}.def456.tmp"
    fresh.write_text("being written by another process right now")
    write_save(path, "{}")
    assert sorted(item.name for item in tmp_path.iterdir()) == sorted([path.name, fresh.name])


def test_write_save_refuses_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "game.kalooki-save.json"
    with pytest.raises(SaveFileError, match=r"the folder .* does not exist"):
        write_save(path, "{}")
    assert not (tmp_path / "no").exists()


def test_play_save_refuses_a_missing_folder_before_playing(tmp_path: Path) -> None:
    target = tmp_path / "nonexistent" / "dir" / "game.json"
    result = runner.invoke(app, ["play", "--save", str(target), "--seed", "1"], input="quit\n")
    assert result.exit_code == 1
    assert result.stderr == f"{target}: the folder {target.parent} does not exist\n"
    assert not target.parent.exists()


def test_the_save_command_refuses_a_missing_folder_and_keeps_saving_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "game.kalooki-save.json"
    elsewhere = tmp_path / "nope" / "other.json"
    transcript, loop = _interactive(Game(CLASSIC, ["you", "bob"], seed=1), [f"save {elsewhere}"], path)
    said = f"the folder {elsewhere.parent} does not exist; the game is still saved to {path}"
    assert packed(said) in packed(transcript)
    assert loop.save_path == path
    assert path.is_file()
    assert not elsewhere.parent.exists()
    assert json.loads(path.read_text())["format"] == "kalooki-save"
