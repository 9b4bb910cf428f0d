"""Hot-seat: two people at one terminal, taking turns against bots or each other: who plays, the names
shown, the end of a hand told to everyone, a person out of the game (the pass screen between their
turns: test_hotseat_pass_screen.py; saved and resumed: test_hotseat_resume.py)."""

from __future__ import annotations

import io
import random
import re
import shlex
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.hotseat import HotSeatGame, hotseat_session, saved_humans
from kalooki_cli.interactive import scripted_input, seat_names, suggest_turn
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
