"""Hot-seat games saved and resumed: the save seats both people again, and the game goes on where it
stopped (after a draw, between hands, at a first turn), the keyboard passed again; a save edited to
other people's seats is refused."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.hotseat import HotSeatGame, hotseat_session
from kalooki_cli.interactive import scripted_input, suggest_turn
from kalooki_cli.play import resume_game
from kalooki_cli.saves import read_save, write_save
from rich.console import Console
from typer.testing import CliRunner

from kalooki.cards import format_card
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.moves import format_move


def hot_seat_save(folder: Path, players: list[str], typed: list[str]) -> Path:
    """The save of a hot-seat game (seed 4) of ann and bob at the keyboard, any others greedy bots,
    after the lines ``typed``."""
    game = Game(load_variant("classic"), players, seed=4)
    session = hotseat_session(game, [0, 1], dict.fromkeys(range(2, len(players)), "greedy"), "classic")
    save = folder / "hot.kalooki-save.json"
    console = Console(file=io.StringIO(), width=80)
    HotSeatGame(
        game, session, [0, 1], console=console, read_line=scripted_input(typed), save_path=save,
        write_save=write_save,
    ).run()  # fmt: skip
    return save


def test_a_hot_seat_save_says_when_it_was_saved(tmp_path: Path) -> None:
    # Hot-seat saves had saved_at "" (kalooki saves fell back on the file's time).
    before = datetime.now(UTC).replace(microsecond=0)
    save = hot_seat_save(tmp_path, ["ann", "bob"], ["", "ds", "quit"])
    saved_at = json.loads(save.read_text(encoding="utf-8"))["session"]["saved_at"]
    assert before <= datetime.fromisoformat(saved_at) <= datetime.now(UTC)


def test_resume_of_a_hot_seat_save_passes_the_keyboard_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = hot_seat_save(tmp_path, ["ann", "bob"], ["", "quit"])
    monkeypatch.setattr("sys.stdin", io.StringIO("\nquit\n"))
    assert resume_game(str(save), fast=True) == 0
    shown = capsys.readouterr().out
    assert "Pass to ann — press Enter" in shown
    assert "Resuming the game. At this terminal: ann, bob (hand 1, turn 1)." in shown
    assert "Resuming your game" not in shown  # both are "you", in turn


def test_save_file_moves_a_hot_seat_game_there_and_saves_and_resume_find_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # save FILE copied the game: the first save stayed in the saves folder, FILE was listed nowhere, and
    # resume opened the stale copy (as did a game started with --save FILE, never listed).
    home = tmp_path / "home"
    monkeypatch.setenv("KALOOKI_HOME", str(home))
    friday, saturday = tmp_path / "friday.json", tmp_path / "saturday.json"
    runner = CliRunner()
    arguments = ["play", "--humans", "ann,bob", "--seed", "4", "--fast"]
    result = runner.invoke(app, arguments, input=f"save {friday}\n\nquit\ny\n")
    assert result.exit_code == 0, result.output
    assert friday.is_file()
    assert not list((home / "saves").glob("*"))  # the game moved: nothing left behind
    result = runner.invoke(app, [*arguments, "--save", str(saturday)], input="quit\ny\n")
    assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["saves"]).output
    assert str(friday) in listed
    assert str(saturday) in listed


def test_a_hot_seat_game_resumed_after_a_draw_marks_the_card_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A game against bots resumed after the draw marks the card drawn (9♣*); a hot-seat one lost it.
    save = hot_seat_save(tmp_path, ["ann", "bob"], ["", "ds", "quit"])
    assert read_save(save).game.turn.drawn_card is not None
    monkeypatch.setattr("sys.stdin", io.StringIO("\nquit\n"))
    assert resume_game(str(save), fast=True) == 0
    hands = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Your hand (14)")]
    assert hands, "no hand shown"
    assert "*" in hands[-1]


def test_a_resumed_hot_seat_game_heads_a_first_turn_as_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Resumed before bob's first turn, the pass screen told him "Since your last turn:".
    save = hot_seat_save(tmp_path, ["ann", "bob", "cid"], ["", "ds", "quit"])
    hand = read_save(save).game.hands[0]
    discard = format_card(next(card for card in hand if card != 52))
    monkeypatch.setattr("sys.stdin", io.StringIO(f"\nd {discard}\n\nds\nquit\n"))
    assert resume_game(str(save), fast=True) == 0
    shown = capsys.readouterr().out
    bob = shown[shown.index("Pass to bob") :]
    assert "Before your first turn:" in bob
    assert "Since your last turn:" not in bob


def test_a_hot_seat_game_resumed_between_hands_shows_how_the_hand_ended_to_everyone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Stopped at "Press Enter to deal hand 2", kalooki resume showed only the score sheet.
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=8)
    session = hotseat_session(game, [0, 1], {2: "greedy"}, "classic")
    save = tmp_path / "hs.json"

    def the_hint_until_the_hand_ends(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            raise EOFError
        return format_move(suggest_turn(game).actions[0]) if prompt else ""  # Enter at each pass screen

    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    HotSeatGame(
        game, session, [0, 1], console=console, read_line=the_hint_until_the_hand_ends, save_path=save,
        write_save=write_save,
    ).run()  # fmt: skip
    assert game.phase == "hand_over"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert resume_game(str(save), fast=True) == 0
    lines = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    start = lines.index("Type help for the commands, hint for a suggestion, quit to stop.") + 1
    shown = [
        "──────────────────────────────── Hand 1 is over ────────────────────────────────",
        "bob went out.",
        "Not Kalooki: bob had melded in an earlier turn; Kalooki is the whole hand laid",
        "in one turn, nothing laid before.",
        "",
        " player             cards left   points   this hand   total",
        " ──────────────────────────────────────────────────────────",
        " ann                7♣ 7♦            14         +14      14",
        " bob                -                 0           0       0",
        " cid (greedy bot)   4♣                4          +4       4",
        "",
    ]
    prompt = "Press Enter to deal hand 2 (or score, save, rules, help, quit): "
    assert lines[start : start + len(shown)] == shown
    assert lines[start + len(shown)].startswith(prompt)
    played = [line.rstrip() for line in out.getvalue().splitlines()]
    end = played.index(shown[0])
    assert played[end : end + len(shown)] == shown  # as everyone read it before the stop


@pytest.mark.parametrize("humans", [[0, 9], [1, 2], [0, 0], [0, -1], [0, True], [1, 0], "ann,bob", [0]])
def test_a_save_whose_peoples_seats_were_edited_is_refused(tmp_path: Path, humans: object) -> None:
    # [0, 9] and [1, 2] ended the resume in an IndexError; [0, 0] and [0, True] were resumed as they were.
    import json

    from kalooki.savegame import save_checksum

    game = Game(load_variant("classic"), ["ann", "bob"], seed=4)
    save = tmp_path / "hot.kalooki-save.json"
    HotSeatGame(
        game, hotseat_session(game, [0, 1], {}, "classic"), [0, 1], console=Console(file=io.StringIO()),
        read_line=scripted_input(["", "quit"]), save_path=save, write_save=write_save,
    ).run()  # fmt: skip
    document = json.loads(save.read_text(encoding="utf-8"))
    document["session"]["humans"] = humans
    document["checksum"] = save_checksum(document["session"], document["game"])
    save.write_text(json.dumps(document), encoding="utf-8")
    before = save.read_bytes()
    result = CliRunner().invoke(app, ["resume", str(save)], input="\nquit\n")
    assert result.exit_code == 1
    shown = json.dumps(humans)
    assert result.stderr.splitlines() == [
        f"{save}: the save is damaged: its session is invalid (the people's seats {shown} are not two or "
        "more seats of this 2-player table, each once, the first the player's)"
    ]
    assert save.read_bytes() == before


def resumed_with_a_discard(
    save: Path, seat: int, then: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """What the terminal shows resuming ``save`` (drawn already), the seat on turn discarding a card that is
    not a joker, then the lines ``then``."""
    hand = read_save(save).game.hands[seat]
    discard = format_card(next(card for card in hand if card != 52))
    monkeypatch.setattr("sys.stdin", io.StringIO(f"\nd {discard}\n\n{then}"))
    assert resume_game(str(save), fast=True) == 0
    return capsys.readouterr().out


def test_a_resumed_hot_seat_game_tells_the_draw_made_before_it_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ann drew and the game stopped; resumed, she discarded, and bob was told only "ann discards ...":
    # a turn with no draw. What came before the resume is in no save: the recap says where it starts.
    save = hot_seat_save(tmp_path, ["ann", "bob"], ["", "ds", "quit"])
    bob = resumed_with_a_discard(save, 0, "ds\nquit\n", monkeypatch, capsys).split("Pass to bob")[-1]
    told = bob[bob.index("Before your first turn:") : bob.index("Your hand")]
    assert "ann draws from the stock, discards " in told
    ann = resumed_with_a_discard(save, 1, "quit\n", monkeypatch, capsys).split("Pass to ann")[-1]
    told = ann[ann.index("Since the game was resumed:") : ann.index("Your hand")]
    assert "bob draws from the stock, discards " in told
    assert "Since your last turn:" not in ann
