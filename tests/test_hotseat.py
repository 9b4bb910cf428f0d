"""Hot-seat: two people at one terminal, a pass screen between their turns, and resume seating both."""

from __future__ import annotations

import io
import json
import random
import re
import shlex
from datetime import UTC, datetime
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.hotseat import HotSeatGame, hotseat_session, saved_humans
from kalooki_cli.interactive import scripted_input, seat_names, suggest_turn
from kalooki_cli.play import resume_game
from kalooki_cli.render import COMMANDS
from kalooki_cli.saves import read_save, write_save
from rich.console import Console
from typer.testing import CliRunner

from kalooki.bots import make_bot
from kalooki.bots.base import SEAT_NAMES, names_for_bots
from kalooki.cards import format_card, parse_cards
from kalooki.driver import play_hand
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.moves import format_move


def test_two_people_take_turns_behind_a_pass_screen_and_resume_together(tmp_path: Path) -> None:
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=12)
    ann_discard = format_card(game.hands[0][0])
    bob_discard = format_card(game.hands[1][0])
    session = hotseat_session(game, [0, 1], {2: "greedy"}, "classic")
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    save = tmp_path / "hot.kalooki-save.json"
    lines = ["", "ds", f"d {ann_discard}", "", "ds", f"d {bob_discard}", "", "quit"]
    loop = HotSeatGame(
        game,
        session,
        [0, 1],
        console=console,
        read_line=scripted_input(lines, console),
        save_path=save,
        write_save=write_save,
    )
    assert loop.run() == 0
    text = out.getvalue()
    title = text.index("Kalooki · classic")
    # Under the title, the one line that says who plays: no "You against" for one of the two people.
    assert text.index("At this terminal: ann, bob, against cid (greedy bot).") > title
    assert "You against" not in text
    assert text.count("Pass to ann — press Enter") == 2  # before each of ann's turns
    assert text.count("Pass to bob — press Enter") == 1
    start = text.index("Pass to bob")
    after_pass = text[start : text.index("Pass to ann", start)]
    assert "▶ bob (you)" in after_pass
    assert "ann (you)" not in after_pass
    # The erase took the lines of ann's turn: bob reads them after the pass screen, her card from the
    # stock unnamed; ann reads bob's and the bot's turns, not her own.
    # bob has had no turn yet: what he reads came before it, not since his last (there was none).
    assert after_pass.index("Before your first turn:") < after_pass.index("▶ bob (you)")
    assert "Since your last turn:" not in after_pass
    assert "ann draws from the stock, discards " in after_pass
    assert "ann draws from the stock, discards" in after_pass.splitlines()[3]
    again = text[text.index("Pass to ann", start) :]
    told = again[again.index("Since your last turn:") : again.index("▶ ann (you)")].splitlines()
    drawn = [line.split(",")[0] for line in told[1:-1]]
    assert drawn == ["bob draws from the stock", "cid draws from the stock"]
    # The save is kalooki play's, with the people's seats: resume seats them both again.
    assert saved_humans(save, read_save(save)) == [0, 1]
    loaded = read_save(save)
    assert loaded.session.human_seat == 0
    assert loaded.session.bots == {1: "greedy", 2: "greedy"}
    assert loaded.game.hands[0] != game.hands[0] or loaded.game.turn_number == game.turn_number


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


def test_names_that_look_like_markup_are_shown_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rich would read "[/]" as a closing tag (an error) and "[red]eve" as "eve" in red.
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    arguments = ["play", "--humans", "[/],[red]eve,:joker:", "--seed", "1", "--fast"]
    result = CliRunner().invoke(app, arguments, input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "At this terminal: [/], [red]eve, :joker:." in result.output
    assert "Hand 1: [/] plays first" in result.output


def test_melds_taken_back_are_not_told_to_the_next_person() -> None:
    variant = load_variant("classic", ["opening_threshold=0"])
    game = Game(variant, ["ann", "bob"], seed=12)
    game.set_hand(0, parse_cards("AD AC AH 5S 9C"))
    session = hotseat_session(game, [0, 1], {}, "classic")
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    lines = ["", "ds", "m AD AC AH", "undo", "d 9C", "", "quit"]
    read_line = scripted_input(lines, console)
    loop = HotSeatGame(game, session, [0, 1], console=console, read_line=read_line, save_path=None)
    assert loop.run() == 0
    text = out.getvalue()
    assert "You meld A♦ A♣ A♥ [1]" in text  # ann saw her meld, then took it back
    told = text[text.index("Pass to bob") :]
    told = told[told.index("Before your first turn:") : told.index("▶ bob (you)")]
    assert told.splitlines()[1:-1] == ["ann draws from the stock, discards 9♣."]


def test_no_bot_shares_a_persons_name_in_another_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "Bob" at the keyboard beside a bot "bob": a reader of "bob melds ..." takes them for one player.
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    result = CliRunner().invoke(
        app,
        ["play", "--humans", "Bob,ann", "--bots", "greedy,random", "--seed", "1", "--fast"],
        input="quit\ny\n",
    )
    assert result.exit_code == 0, result.output
    assert "At this terminal: Bob, ann, against" in result.output
    (save,) = (tmp_path / "saves").iterdir()
    assert read_save(save).game.players == ["Bob", "ann", "cid", "dee"]
    assert seat_names("Cid", 4) == ["Cid", "bob", "dee", "eve"]
    assert names_for_bots(["BOB", "bot1", *SEAT_NAMES[1:]], 3) == ["bot2", "bot3", "bot4"]


def test_a_hot_seat_deal_says_the_command_that_deals_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A game against bots told its seed and command; a hot-seat game, dealt at random, told neither.
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    first = CliRunner().invoke(
        app, ["play", "--humans", "ann,bob", "--bots", "random", "--fast"], input="quit\ny\n"
    )
    assert first.exit_code == 0, first.output
    said = " ".join(first.output.split())
    found = re.search(r"Seed (\d+): deal the same cards again with (kalooki play .*? --seed \1)", said)
    assert found is not None, first.output
    words = shlex.split(found.group(2))
    assert words[2:] == ["--bots", "random", "--humans", "ann,bob", "--seed", found.group(1)]
    (save,) = (tmp_path / "saves").iterdir()
    save.rename(tmp_path / "first.json")
    again = CliRunner().invoke(app, [*words[1:], "--fast"], input="quit\ny\n")
    assert again.exit_code == 0, again.output
    (second,) = (tmp_path / "saves").iterdir()
    assert read_save(second).game.hands == read_save(tmp_path / "first.json").game.hands


@pytest.mark.parametrize(
    ("humans", "said"),
    [
        ("ann,ａｎｎ", "give each person a different name"),
        ("𝚊𝚗𝚗,ann", "give each person a different name"),
        ("ｙｏｕ,bob", "'you' is what the screens call a player"),
    ],
)
def test_two_people_whose_names_show_alike_are_refused(humans: str, said: str) -> None:
    # ann and ａｎｎ (fullwidth letters) sat side by side: a hosted table refused the second as the first's
    # name, the hot-seat table took both, and its screens showed two players called ann.
    result = CliRunner().invoke(app, ["play", "--humans", humans, "--seed", "1", "--fast"], input="quit\ny\n")
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())
    assert "Hand 1" not in result.output


def test_the_end_of_a_hand_is_told_to_everyone_at_the_terminal_not_to_who_played_last() -> None:
    # It said "You went out." with "bob (you)" in the scores, and once resumed the same screen showed
    # "ann (you)": both people read it.
    variant = load_variant("classic", ["opening_threshold=0"])
    game = Game(variant, ["ann", "bob"], seed=12)
    game.set_hand(1, parse_cards("7H 8H 9H"))
    ann_discard, bob_draw = format_card(game.hands[0][0]), format_card(game.stock[-2])
    session = hotseat_session(game, [0, 1], {}, "classic")
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    lines = ["", "ds", f"d {ann_discard}", "", "ds", "m 7H 8H 9H", f"d {bob_draw}", "quit"]
    loop = HotSeatGame(
        game, session, [0, 1], console=console, read_line=scripted_input(lines, console), save_path=None
    )
    assert loop.run() == 0
    text = out.getvalue()
    end = text[text.index("Hand 1 is over") :]
    assert "bob went out" in end
    assert "You went out" not in end
    assert "(you)" not in end


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


def test_one_person_out_of_the_game_is_not_offered_to_skip_the_others_turns() -> None:
    # Bob went out of the game while ann played on: he was asked "You are out of the game. Press Enter to
    # watch the rest, or type skip ...", and skip stopped the game with a traceback (KeyError) at ann's turn.
    game = Game(load_variant("kalooki-40", ["goal_score=60"]), ["ann", "bob", "cid", "dee"], seed=4)
    session = hotseat_session(game, [0, 1], {2: "greedy", 3: "greedy"}, "kalooki-40")
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)

    def the_hint_and_skip(prompt: str) -> str:
        line = "skip" if prompt.startswith("You are out") else ""  # Enter at the pass screen and the deal
        if prompt.endswith("> "):
            line = format_move(suggest_turn(game).actions[0])
        console.print(prompt + line)
        return line

    loop = HotSeatGame(game, session, [0, 1], console=console, read_line=the_hint_and_skip, save_path=None)
    assert loop.run() == 0
    assert game.game_over
    text = out.getvalue()
    # Each out with their total, at the limit of 60.
    bob_out, ann_out = (
        text.index(re.findall(rf"{who} is out with \d+ \(out at 60\)\.", text)[0]) for who in ("bob", "ann")
    )
    assert "You are out of the game" not in text
    # ann played on to the end, the last in the game at the keyboard (no pass screen); bob had no turn again.
    assert "▶ ann (you)" in text[bob_out:ann_out]
    assert "Pass to ann" not in text[bob_out:ann_out]
    assert "Pass to bob" not in text[bob_out:]


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


def test_the_last_person_still_in_plays_on_without_a_pass_screen(tmp_path: Path) -> None:
    """Once bob is out at the goal (kalooki-40 eliminates), ann is the only one left to play at the
    keyboard: a "Pass to ann — press Enter" screen before each of her turns hid her hand from nobody."""
    game = Game(load_variant("kalooki-40", {"goal_score": 20}), ["ann", "bob", "cid", "dee"], seed=5)
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(4)]
    for _ in range(2):
        if game.phase == "hand_over":
            game.next_hand()
        play_hand(game, bots)
    assert game.eliminated == [False, True, False, False]  # bob out, the game going on
    session = hotseat_session(game, [0, 1], {2: "greedy", 3: "greedy"}, "kalooki-40")
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    lines = ["", "ds", "quit"]
    loop = HotSeatGame(
        game,
        session,
        [0, 1],
        console=console,
        read_line=scripted_input(lines, console),
        save_path=tmp_path / "hot.kalooki-save.json",
        write_save=write_save,
    )
    assert loop.run() == 0
    text = out.getvalue()
    assert "▶ ann (you)" in text
    assert "Pass to" not in text
    assert "You draw " in text  # her turn played on at once
