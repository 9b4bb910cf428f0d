"""Hot-seat: the pass screen between two people's turns, which erases the hand just played (from the
scrollback too) but keeps the introduction, waits for Enter, and takes only the commands its help lists."""

from __future__ import annotations

import io
from pathlib import Path

from kalooki_cli.hotseat import HotSeatGame, hotseat_session
from kalooki_cli.interactive import scripted_input
from kalooki_cli.render import COMMANDS
from kalooki_cli.saves import read_save, write_save
from rich.console import Console

from kalooki.cards import format_card
from kalooki.engine import Game
from kalooki.loader import load_variant


class TerminalFile(io.StringIO):
    """What a terminal is sent: a file that is a terminal (FORCE_COLOR alone does not make one)."""

    def isatty(self) -> bool:
        return True


def terminal_transcript(resume_note: str | None = None) -> str:
    """What a terminal is sent when ann plays a turn and passes the keyboard to bob, who quits."""
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=12)
    session = hotseat_session(game, [0, 1], {2: "greedy"}, "classic")
    out = TerminalFile()
    console = Console(file=out, width=80, force_terminal=True, color_system=None, highlight=False)
    lines = ["", "ds", f"d {format_card(game.hands[0][0])}", "", "quit"]
    read_line = scripted_input(lines, console)
    loop = HotSeatGame(game, session, [0, 1], console=console, read_line=read_line, save_path=None)
    loop.resume_note = resume_note
    assert loop.run() == 0
    return out.getvalue()


def test_the_pass_screen_erases_the_last_hand_from_the_scrollback_too() -> None:
    text = terminal_transcript()
    start = text.rindex("Your hand", 0, text.index("Pass to bob"))  # ann's hand, the last before bob's turn
    between = text[start : text.index("Pass to bob")]
    assert "\x1b[2J" in between  # the screen,
    assert "\x1b[3J" in between  # and the lines scrolled off it


def test_the_pass_screen_erases_the_hand_but_keeps_the_introduction() -> None:
    text = terminal_transcript()
    for passed in ("Pass to ann", "Pass to bob"):
        before = text[: text.index(passed)]
        # What the terminal still holds, on the screen and above it, once the last erase is done.
        kept = before[before.rindex("\x1b[3J") :]
        assert "At this terminal: ann, bob, against cid (greedy bot)." in kept
        assert "Type help for the commands, hint for a suggestion, quit to stop." in kept
        assert "Your hand" not in kept
    assert "Your hand" in text[text.index("Pass to ann") : text.index("Pass to bob")]


def test_the_pass_screen_keeps_why_resume_took_this_game() -> None:
    # kalooki resume's note of the newer games it passed over was printed before the game, and the first
    # pass screen's erase took it away with the scrollback: it is part of the introduction now.
    note = "Game 1 (the latest) is open in another kalooki now: resuming game 2."
    text = terminal_transcript(note)
    assert text.index(note) < text.index("At this terminal: ann, bob")
    for passed in ("Pass to ann", "Pass to bob"):
        before = text[: text.index(passed)]
        assert note in before[before.rindex("\x1b[3J") :]
    assert note not in terminal_transcript()


def test_a_line_typed_at_the_pass_screen_is_not_taken_for_enter(tmp_path: Path) -> None:
    # Ann typed quit at "Pass to bob": the line was thrown away as if it were Enter, and bob's whole hand
    # came up in front of her. Only Enter passes the keyboard; quit, score and the like work as at the prompt.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=8)
    session = hotseat_session(game, [0, 1], {}, "classic")
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    save = tmp_path / "hs2.json"
    lines = ["", "ds", f"d {format_card(game.hands[0][0])}", "ds", "score", "quit"]
    loop = HotSeatGame(
        game, session, [0, 1], console=console, read_line=scripted_input(lines, console), save_path=save,
        write_save=write_save,
    )  # fmt: skip
    assert loop.run() == 0
    text = out.getvalue()
    passed = [line.rstrip() for line in text[text.index("Pass to bob") :].splitlines()]
    assert passed == [
        "Pass to bob — press Enter (or score, save, rules, help, quit)",
        "ds",
        "✗ press Enter when bob has the keyboard, or type score, save, rules, help or quit",
        "score",
        "",
        "  hand   ann   bob",
        " ─────────────────",
        " total     0     0",
        "",
        "Scoring: losers add their cards' value; the game ends at 150; lowest total wins.",
        "Pass to bob — press Enter (or score, save, rules, help, quit)",
        "quit",
        f"Stopped: the game is saved in {save}",
        f"Continue it with: kalooki resume {save}",
    ]
    # Bob's turn never began: resumed, the keyboard is passed to him again.
    loaded = read_save(save).game
    assert (loaded.current, loaded.phase, loaded.turn_number) == (1, "draw", 2)


def at_the_pass_to_bob(tmp_path: Path, typed: list[str]) -> tuple[HotSeatGame, str]:
    """Ann's first turn (a draw and a discard), then ``typed`` at the screen that passes to bob: the game
    and what the terminal showed."""
    game = Game(load_variant("classic"), ["ann", "bob"], seed=8)
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    lines = ["", "ds", f"d {format_card(game.hands[0][0])}", *typed]
    loop = HotSeatGame(
        game, hotseat_session(game, [0, 1], {}, "classic"), [0, 1], console=console,
        read_line=scripted_input(lines, console), save_path=tmp_path / "hs.json", write_save=write_save,
    )  # fmt: skip
    assert loop.run() == 0
    return loop, out.getvalue()


def test_help_at_the_pass_screen_lists_the_commands_that_work_there(tmp_path: Path) -> None:
    # It listed the moves, undo, hint and look, each of which the pass screen then refused.
    _, text = at_the_pass_to_bob(tmp_path, ["help", "quit"])
    shown = text[text.index("Pass to bob") : text.index("Cards: ")].splitlines()
    assert [line.split("  ")[0] for line in shown] == [
        "Pass to bob — press Enter (or score, save, rules, help, quit)",
        "help",
        "Commands",
        "score | scores | totals",
        "rules | rulebook",
        "save [FILE]",
        "help [COMMAND] | h | ?",
        "quit | q | exit",
    ]


def test_the_pass_screen_takes_every_command_its_help_lists_and_refuses_every_other(tmp_path: Path) -> None:
    # The help at a pause and the pass screen's refusal were read from two lists: a command one of them
    # left out and the other took (or listed and then refused) sent a person back and forth.
    loop, text = at_the_pass_to_bob(tmp_path, ["help"])
    listed = [
        line.split("  ")[0] for line in text[text.index("Commands\n") : text.index("Cards: ")].splitlines()
    ]
    elsewhere = [usage for usage, _ in COMMANDS if usage not in listed[1:]]

    def words(usages: list[str]) -> list[str]:
        return [usage.split()[0] for row in usages for usage in row.split(" | ")]

    at_a_pause = [word for word in words(listed[1:]) if word not in ("quit", "q", "exit")]
    in_turn = words(elsewhere)
    assert {"score", "save", "help", "?", "rules"} <= set(at_a_pause)
    assert {"ds", "d", "meld"} <= set(in_turn)
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    lines = [*at_a_pause, *in_turn, "quit"]
    loop.console, loop.read_line = console, scripted_input(lines, console)
    assert loop.run() == 0
    shown = out.getvalue().splitlines()
    refusal = "press Enter when bob has the keyboard, or type score, save, rules, help or quit"
    # A move is refused as typed too soon; a command of the turn (hint, undo, look) as one of the turn.
    refused = [f"✗ {refusal}", *(f"✗ {word} works on your turn: {refusal}" for word in in_turn)]
    assert [shown[index - 1] for index, line in enumerate(shown) if line.rstrip() in refused] == in_turn
    assert f"✗ hint works on your turn: {refusal}" in shown


def test_the_first_pass_screen_of_a_new_hand_tells_nothing_of_the_hand_before(tmp_path: Path) -> None:
    # ann goes out in the first turn; bob's first pass screen of hand 2 told him "Ann draws from the
    # stock, melds ..., discards ...", the end of hand 1 everyone had just seen, as if it were hand 2's.
    from rules_helpers import fixed_deal

    deal = fixed_deal(["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"], stock="2C")
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=12, deal=deal)
    session = hotseat_session(game, [0, 1], {2: "greedy"}, "classic")
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    lines = ["", "ds", "m AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "d 2C", "", "", "quit"]
    loop = HotSeatGame(
        game, session, [0, 1], console=console, read_line=scripted_input(lines, console), save_path=None
    )
    assert loop.run() == 0
    text = out.getvalue()
    hand_two = text[text.index("Pass to bob") :]
    assert "ann draws" not in hand_two
    assert "Since your last turn:" not in hand_two
