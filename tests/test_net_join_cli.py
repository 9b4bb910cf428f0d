"""``kalooki join`` as a real process at a live table: the play screen, hint, refusals, say and quit."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from kalooki_cli.app import app
from kalooki_cli.remote import TableClosed
from kalooki_cli.table_notation import table_sentence
from typer.testing import CliRunner

pytest.importorskip("websockets")

from kalooki_net.client import LOST
from net_helpers import TIMEOUT, Host, Player, Terminal, bot_plays_until_the_hand_ends, hosted, new_table

from kalooki.cards import format_card
from kalooki.engine import Game

KALOOKI = Path(sys.executable).with_name("kalooki")
GOLDEN_SCRIPTS = Path(__file__).parent / "golden" / "scripts"


def test_join_plays_a_turn_on_the_play_screen_and_rejoins_with_the_kept_token(tmp_path: Path) -> None:
    table = new_table(seats=2, seed=31)
    # The deal the table will make once both have joined: the bot at seat 0, the person at seat 1.
    dealt = Game(table.variant, ["p0", "ann"], seed=table.seed).hands[1]
    card = format_card(dealt[0])
    absent = next(code for code in ("2H", "3H", "4H", "5H") if code not in {format_card(c) for c in dealt})
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "80", "NO_COLOR": "1"}
    with hosted(table) as host:
        bot = Player(host.uri)
        bot.join(table.code, name="p0")
        address = f"127.0.0.1:{host.server.port}"
        keys = f"hint\nds\nzz\nundo\nd {absent}\nd ZZ\nd {card}\nsay good luck\nscore\nquit\n"
        played = threading.Thread(target=bot.play_until_over, daemon=True)
        played.start()
        join = subprocess.run(
            [str(KALOOKI), "join", address, "--code", table.code, "--name", "ann"],
            input=keys,
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        out = join.stdout
        assert join.returncode == 0, join.stderr
        assert "You sit at seat 2 as ann." in out
        assert "Your hand (13):" in out
        assert re.search(r"\np0 (draws|takes) ", out), out  # the other player's turn, told as a bot's turn is
        assert "Hint (what the greedy bot would play):" in out
        assert "✗ 'zz' is not a command" in out
        # Refused by the host, worded as kalooki play words them: cards as the table writes them.
        flat = " ".join(out.split())  # the lines as they read, however they wrapped
        assert "✗ there is nothing to take back: undo takes back this turn's melds, builds and swaps" in flat
        assert f"✗ you have no {table_sentence(absent, table.variant)} in your hand to discard" in flat
        assert "✗ 'd ZZ': 'ZZ' is not a card: write a rank (A 2-9 T J Q K, or 10) and a suit" in flat
        assert "e.g. 7H, TC, 10C, QS, or JK for a joker" in flat  # how to type a card, in letters
        assert "You discard" in out
        assert "you: good luck" in out
        assert f"kalooki join {address} --code {table.code}" in out  # how to come back
        said = [message for message in bot.received if '"said"' in message]
        assert any("good luck" in message for message in said)
        # The same command takes the same seat back: the token was kept in the data folder.
        tokens = list((tmp_path / "tables").glob("*.json"))
        assert len(tokens) == 1
        again = subprocess.run(
            [str(KALOOKI), "join", address, "--code", table.code],
            input="quit\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert "You sit at seat 2 as ann." in again.stdout, again.stdout + again.stderr
        assert "Waiting for the game" not in again.stdout  # it has started: the table, not a lobby
        assert "Your hand (" in again.stdout
    assert TIMEOUT > 0


@contextmanager
def ann_beside_p0(home: Path, **knobs: Any) -> Iterator[Callable[[str], str]]:
    """A table of two (the classic rules, or with ``knobs``), p0 (a scripted bot, first to play) seated:
    ann's ``kalooki join`` with its input."""
    table = new_table(seats=2, seed=31, **knobs)
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1"}
    with hosted(table) as host:
        bot = Player(host.uri)
        bot.join(table.code, name="p0")
        threading.Thread(target=bot.play_until_over, daemon=True).start()
        command = [str(KALOOKI), "join", f"127.0.0.1:{host.server.port}", "--code", table.code]

        def join(keys: str) -> str:
            done = subprocess.run(
                [*command, "--name", "ann"], input=keys, capture_output=True, text=True, env=env, timeout=60
            )
            assert done.returncode == 0, done.stderr
            return done.stdout

        yield join


def test_help_at_a_hosted_table_lists_say_and_what_quit_does_there(tmp_path: Path) -> None:
    # help listed kalooki play's commands: "save [FILE]" (the host saves), "quit: the game stays saved
    # for kalooki resume" (nothing is saved here), and not "say TEXT", the one way to talk.
    with ann_beside_p0(tmp_path) as join:
        out = join("help\nquit\n")
    rows = {" ".join(line.split()) for line in out.splitlines()}
    assert "say TEXT talk to the table, during the others' turns too" in rows
    leave = "leave the table: it waits for you, then a bot plays your seat until you join again"
    assert f"quit | q | exit {leave}" in rows
    assert "save" not in out[out.index("Commands") : out.index("Cards:")]
    assert "kalooki resume" not in out


def test_rejoining_after_the_draw_marks_the_card_drawn_as_before(tmp_path: Path) -> None:
    # Rejoined mid-turn, the hand showed the drawn card unmarked: which card had just come was lost.
    with ann_beside_p0(tmp_path) as join:
        drew = join("ds\nquit\n")
        marked = [line for line in drew.splitlines() if line.startswith("Your hand (14):")]
        assert marked, drew
        again = join("quit\n")
    hands = [line for line in again.splitlines() if line.startswith("Your hand (")]
    assert hands == [marked[-1]]  # the same hand, the same card marked *
    assert "*" in hands[0]


def ann_at_a_terminal_beside_p0_and_p1(host: Host, tmp_path: Path) -> tuple[list[Player], Terminal]:
    """p0 and p1, clients of the protocol, seated; then ann at ``kalooki join``, pressing Enter to go on."""
    bots = [Player(host.uri) for _ in range(2)]
    for index, bot in enumerate(bots):
        bot.join(host.table.code, name=f"p{index}")
    return bots, Terminal(f"127.0.0.1:{host.server.port}", host.table.code, tmp_path, "ann", ready=True)


def test_a_new_hand_is_shown_when_it_is_dealt_not_at_this_seats_turn(tmp_path: Path) -> None:
    # Once ready, a seat that does not play first saw "Waiting for the others to be ready..." and
    # nothing of the new hand until its own turn came, however long the others took.
    table = new_table(seats=3, seed=3, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        bots, terminal = ann_at_a_terminal_beside_p0_and_p1(host, tmp_path)
        for bot in bots:
            threading.Thread(target=bot.play_until_over, daemon=True).start()
        deadline = time.monotonic() + 120
        while "hand 2, dealt by p0 · turn 2 " not in terminal.text():  # ann's own turn, after p1's
            assert time.monotonic() < deadline, terminal.text()[-2000:]
            time.sleep(0.1)
        out = terminal.quit()
    second = out[out.index("Hand 1 is over") :]
    dealt = second.index("hand 2, dealt by p0 · turn 1 ")  # before p1, who plays first, has played
    p1_plays = re.compile(r"\np1 (draws|takes) ").search(second, dealt)
    assert p1_plays is not None, second
    assert second.index("Your hand (7):", dealt) < p1_plays.start()


@contextmanager
def ann_ready_after_a_hand(tmp_path: Path) -> Iterator[tuple[Host, list[Player], Terminal]]:
    """A table of three with short hands: ann at ``kalooki join`` has played hand 1 and said ready; p0
    and p1, who played it beside her, have not."""
    table = new_table(seats=3, seed=3, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        bots, terminal = ann_at_a_terminal_beside_p0_and_p1(host, tmp_path)
        robots = [threading.Thread(target=bot_plays_until_the_hand_ends, args=(bot,)) for bot in bots]
        for robot in robots:
            robot.start()
        shows(terminal, "Waiting for p0 and p1 to be ready...")
        for robot in robots:
            robot.join(TIMEOUT)
        yield host, bots, terminal
        for bot in bots:
            bot.close()


def shows(terminal: Terminal, pattern: str, seconds: float = 120) -> None:
    """Wait until ``terminal`` has shown ``pattern`` (a regular expression)."""
    deadline = time.monotonic() + seconds
    while not re.search(pattern, terminal.text()):
        assert time.monotonic() < deadline, terminal.text()[-2000:]
        time.sleep(0.05)


def stopped(terminal: Terminal) -> str:
    """Everything ``terminal`` showed, once it is stopped: piped, the program reads its input at its
    prompts only, so a terminal waiting for the table is stopped rather than told to quit."""
    terminal.stop.set()
    terminal.process.kill()
    terminal.process.wait(TIMEOUT)
    return terminal.text()


def test_once_ready_the_terminal_names_whom_the_next_hand_waits_for(tmp_path: Path) -> None:
    # It said "Waiting for the others to be ready..." and never who they were.
    with ann_ready_after_a_hand(tmp_path) as (_host, bots, terminal):
        bots[0].send({"type": "ready"})
        shows(terminal, r"Waiting for p1 to be ready\.\.\.")
        bots[1].send({"type": "ready"})
        shows(terminal, "hand 2, dealt by p0")
        out = stopped(terminal)  # p1 plays first
    waited = out[out.index("Hand 1 is over") : out.index("hand 2, dealt by p0")]
    assert re.findall(r"Waiting for .*? to be ready\.\.\.", waited) == [
        "Waiting for p0 and p1 to be ready...",
        "Waiting for p1 to be ready...",
    ]


def test_a_player_back_between_hands_who_was_ready_is_not_asked_again(tmp_path: Path) -> None:
    # Back at the table after saying ready, the terminal asked "Press Enter to deal hand 2" again (now "Press
    # Enter when you are ready for hand 2").
    with ann_ready_after_a_hand(tmp_path) as (host, _bots, terminal):
        stopped(terminal)  # the connection drops: the seat stays ready
        back = Terminal(f"127.0.0.1:{host.server.port}", host.table.code, tmp_path, "ann")  # the kept token
        shows(back, r"Waiting for .* to be ready|Press Enter when", seconds=60)
        out = stopped(back)
    assert "You sit at seat 3 with" in out, out
    assert "Press Enter when" not in out
    assert "Hand 1 is over" in out  # the result, as it was left
    # Who went out, as a player who stayed read it: the rejoined screen had the totals alone.
    back_screen = out[out.index("You sit at seat 3 with") :]
    assert re.search(r"\n(You|p0|p1) went out", back_screen), back_screen
    assert "cards left" in back_screen
    assert "Waiting for p0 and p1 to be ready..." in out


def test_a_player_back_after_the_next_deal_gets_no_heading_over_nothing(tmp_path: Path) -> None:
    # Back once hand 2 was dealt and nobody had played in it, the terminal said "While you were away:"
    # over no line at all (a deal has no line of its own: the table's screen shows it).
    with ann_ready_after_a_hand(tmp_path) as (host, bots, terminal):
        stopped(terminal)  # the connection drops: the seat stays ready
        for bot in bots:
            bot.send({"type": "ready"})
        for bot in bots:
            bot.until("state")  # hand 2 is dealt
        back = Terminal(f"127.0.0.1:{host.server.port}", host.table.code, tmp_path, "ann")  # the kept token
        shows(back, r"hand 2, dealt by p0", seconds=60)
        out = stopped(back)
    assert "You sit at seat 3 with" in out, out
    assert "While you were away" not in out, out


def test_between_hands_at_a_hosted_table_the_prompt_offers_say_not_save(tmp_path: Path) -> None:
    # "Press Enter to deal hand 2 (or score, save, quit)": save, typed, answered that the host saves.
    table = new_table(seats=3, seed=3, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        bots = [Player(host.uri) for _ in range(2)]
        for index, bot in enumerate(bots):
            bot.join(host.table.code, name=f"p{index}")
        # ann plays the hand at her prompts, then reads the result and types at the next one herself.
        terminal = Terminal(f"127.0.0.1:{host.server.port}", host.table.code, tmp_path, "ann")
        for bot in bots:
            threading.Thread(target=bot_plays_until_the_hand_ends, args=(bot,), daemon=True).start()
        shows(terminal, r"Press Enter when you are ready for hand 2 \(.*\): $")
        assert terminal.process.stdin is not None
        terminal.process.stdin.write(b"save\nsay well played\nzz\nds\n")
        terminal.process.stdin.flush()
        shows(terminal, "✗ moves wait")
        out = stopped(terminal)
        for bot in bots:
            bot.close()
    after = out[out.index("Hand 1 is over") :]
    # Piped, what is typed is not shown.
    prompt = "Press Enter when you are ready for hand 2 (or score, say TEXT, rules, help, quit): "
    assert f"{prompt}✗ the host saves the game after every move" in after
    assert f"{prompt}you: well played" in after
    refusal = (
        "✗ press Enter when you are ready for the next hand, or type score, say TEXT, rules, help or quit"
    )
    assert f"{prompt}{refusal}" in after
    # A move, which help lists here too, read the same refusal: it says the moves wait for the deal.
    assert (
        f"{prompt}✗ moves wait for the deal: press Enter when you are ready for the next hand, or type score"
        in after
    )


def test_the_terminal_names_the_player_whose_turn_begins(tmp_path: Path) -> None:
    # After "You discard 7♠." nothing said p0 was playing now: a person who took their time left the
    # screen telling the turn before, where the browser's status line said whose turn it was.
    table = new_table(seats=3, seed=3, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        bots, terminal = ann_at_a_terminal_beside_p0_and_p1(host, tmp_path)
        for bot in bots:
            threading.Thread(target=bot_plays_until_the_hand_ends, args=(bot,), daemon=True).start()
        shows(terminal, r"p1 discards \S+\.\n", seconds=60)
        # p0's move after ann's discard, told after the line that names him (the whole screen is searched:
        # "p0 draws" alone would match his first turn).
        shows(terminal, r"You discard \S+\.\n(.*\n)*p0 (draws|takes) ")
        out = stopped(terminal)
        for bot in bots:
            bot.close()
    assert re.search(r"You discard \S+\.\np0 is playing\.\np0 (draws|takes) ", out), out[-3000:]
    assert re.search(r"\np0 discards \S+\.\np1 is playing\.\np1 ", out), out[-3000:]
    assert "ann is playing" not in out


def test_the_terminal_says_a_player_away_is_waited_for_then_played_for_not_that_they_play(
    tmp_path: Path,
) -> None:
    # p1 had dropped out, and the terminal said "p1 is playing." at his turn, while the table waited for him.
    table = new_table(seats=3, seed=3, hand_size=7, opening_threshold=0)  # p0, p1, then ann
    with hosted(table) as host:
        (p0, p1), terminal = ann_at_a_terminal_beside_p0_and_p1(host, tmp_path)
        p1.until("state")
        p1.close()
        shows(terminal, r"p1 dropped out: the table waits for them\.")
        threading.Thread(target=bot_plays_until_the_hand_ends, args=(p0,), daemon=True).start()
        shows(
            terminal,
            r"p0 discards \S+\.\np1 is away: the table waits for them, then a bot plays for them\.\n",
        )

        def no_more_waiting() -> None:
            host.table.wait_seconds = 0.0
            host.server.changed.set()

        host.call(no_more_waiting)
        shows(terminal, r"p1 is away: a bot plays for them until they are back\.\np1 ")
        shows(terminal, r"You discard \S+\.\n(.*\n)*p1 (draws|takes) ")  # his next turn, by the bot too
        out = stopped(terminal)
        p0.close()
    assert "p1 is playing" not in out[out.index("p1 dropped out") :], out[-3000:]
    # The rows of players said "p1" alone, as if he were at the table, while a bot played his turns.
    assert re.search(r"\n  p1 \(away, greedy bot\) +\d+ cards", out), out[-3000:]


def play_a_turn(player: Player) -> None:
    """``player``'s turn, once it comes: moves until it has passed."""
    while not player.my_turn():
        player.until("state")
    while player.my_turn():
        player.send({"type": "move", "move": player.next_move()})
        player.until("state")


def test_a_player_back_is_told_what_happened_while_away(tmp_path: Path) -> None:
    # Back at the table, ann's hand and the table had changed with nothing to say how: a bot had played her
    # turn (the others had heard "ann is away: a bot plays for them"), and p0 had played his.
    table = new_table(seats=2, seed=31)
    table.wait_seconds = 0.0  # a player who drops is played by the bot at once
    with hosted(table) as host:
        p0 = Player(host.uri)
        p0.join(table.code, name="p0")
        address = f"127.0.0.1:{host.server.port}"
        terminal = Terminal(address, table.code, tmp_path, "ann")
        play_a_turn(p0)
        shows(terminal, r"You discard \S+\.")
        stopped(terminal)  # the connection drops
        play_a_turn(p0)
        play_a_turn(p0)  # ann's turn came between, played by the bot
        back = Terminal(address, table.code, tmp_path, "ann")  # the kept token
        shows(back, r"While you were away \(a bot played your turns\):\n")
        shows(back, r"p0 is playing\.")
        out = stopped(back)
        p0.close()
    start = out.index("While you were away")
    away = out[start : out.index("───", start)]
    assert re.search(r"\np0 (draws|takes) ", away), out
    assert re.search(r"\nYou (draw|take) [^\n]*, discard ", away), out


def test_a_table_closed_while_its_players_wait_for_the_game_is_one_line_not_a_traceback(
    tmp_path: Path,
) -> None:
    table = new_table(seats=3, seed=31)
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "200", "NO_COLOR": "1"}
    with hosted(table) as host:
        join = subprocess.Popen(
            [str(KALOOKI), "join", f"127.0.0.1:{host.server.port}", "--code", table.code, "--name", "ann"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        assert join.stdout is not None
        assert join.stdout.readline() == "You sit at seat 1 as ann.\n"
        assert join.stdout.readline() == "Waiting for the game...\n"
    out, err = join.communicate(timeout=60)  # the host has closed the table ("the test is over")
    assert (join.returncode, out, err) == (1, "The table is closed: the test is over.\n", "")


def test_a_connection_lost_while_waiting_for_the_game_says_how_to_take_the_seat_back(tmp_path: Path) -> None:
    # It said only "The connection to the table was lost.", where the seat waits for its token (--wait)
    # and in a game the same line is followed by the command that takes it back.
    table = new_table(seats=3, seed=31)
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "200", "NO_COLOR": "1"}
    with hosted(table) as host:
        address = f"127.0.0.1:{host.server.port}"
        join = subprocess.Popen(
            [str(KALOOKI), "join", address, "--code", table.code, "--name", "ann"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        assert join.stdout is not None
        assert join.stdout.readline() == "You sit at seat 1 as ann.\n"
        assert join.stdout.readline() == "Waiting for the game...\n"
        # The network gone: the connection ends with no word from the table.
        host.call(lambda: [client.websocket.transport.abort() for client in host.server.clients])
        out, err = join.communicate(timeout=60)
        assert table.seats[0].name == "ann"  # kept for her token
    rejoin = f"kalooki join {address} --code {table.code} --name ann"
    assert (join.returncode, out, err) == (
        1, f"The connection to the table was lost.\nRejoin your seat with: {rejoin}\n", ""
    )  # fmt: skip


def test_a_player_at_a_table_its_host_closes_is_told_it_can_come_back_only_if_reopened(
    tmp_path: Path,
) -> None:
    # "Rejoin your seat with: ..." read as if the seat waited, when the table was gone until its host
    # opened it again.
    table = new_table(seats=2, seed=21)
    with hosted(table) as host:
        bot = Player(host.uri)
        bot.join(table.code, name="p0")
        address = f"127.0.0.1:{host.server.port}"
        terminal = Terminal(address, table.code, tmp_path, "ann")
        deadline = time.monotonic() + TIMEOUT
        while "p0 is playing" not in terminal.text():
            assert time.monotonic() < deadline, terminal.text()
            time.sleep(0.05)
        asyncio.run_coroutine_threadsafe(host.server.close("the host stopped"), host.loop).result(TIMEOUT)
        out = terminal.quit()
    lines = out.splitlines()
    ending = lines.index("The table is closed: the host stopped.")
    again = "If the host opens the table again, rejoin with:"
    rejoin = f"{again} kalooki join {address} --code {table.code} --name ann"
    assert lines[ending + 1 :] == [rejoin]
    assert terminal.process.returncode == 1


def test_a_lost_connection_is_worded_apart_from_a_closed_table() -> None:
    assert TableClosed("the host stopped").sentence() == "The table is closed: the host stopped."
    lost = TableClosed("keepalive ping timeout", lost=True)
    assert lost.sentence() == "The connection to the table was lost: keepalive ping timeout."
    assert TableClosed(LOST, lost=True).sentence() == "The connection to the table was lost."


@pytest.mark.parametrize("address", ["127.0.0.1:abc", "127.0.0.1:99999", ":8765"])
def test_an_address_that_is_none_is_a_usage_error(address: str) -> None:
    result = CliRunner().invoke(app, ["join", address, "--code", "ABC123"])
    assert result.exit_code == 2, result.output
    assert "is not HOST or HOST:PORT" in result.output


@pytest.mark.parametrize("name", ["", " "])
def test_an_empty_name_is_a_usage_error(name: str) -> None:
    # --name "" (a name left out of a script's variable) sat the player down under their login name.
    result = CliRunner().invoke(app, ["join", "127.0.0.1:1", "--code", "ABC123", "--name", name])
    assert result.exit_code == 2, result.output
    assert (
        result.stderr.splitlines()[-1] == "Error: Invalid value for '--name': give a name, not an empty one"
    )


def test_a_table_that_is_not_there_is_an_error_of_its_own() -> None:
    result = CliRunner().invoke(app, ["join", "127.0.0.1:1", "--code", "ABC123"])
    assert result.exit_code == 1, result.output
    # In a player's words, not "[Errno 111] Connection refused".
    assert result.output.strip() == (
        "cannot reach the table at ws://127.0.0.1:1/: nothing answers there; is the table open "
        "(kalooki host), and are the address and port right?"
    )


def test_join_tells_another_players_undo(tmp_path: Path) -> None:
    """ann melds, then takes it back: bob's screen told the meld as laid, so it says it was taken back."""
    table = new_table(seats=2, seed=10, hand_size=7, opening_threshold=0)  # ann is dealt AD AC JK, first
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "100", "NO_COLOR": "1"}
    with hosted(table) as host:
        ann = Player(host.uri)
        ann.join(table.code, name="ann")
        address = f"127.0.0.1:{host.server.port}"
        with subprocess.Popen(
            [str(KALOOKI), "join", address, "--code", table.code, "--name", "bob"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        ) as bob:
            assert bob.stdin is not None
            try:
                while host.call(lambda: host.server.by_seat.get(1)) is None:
                    time.sleep(0.05)
                ann.send({"type": "start"})
                assert ann.until("state")["view"]["current"] == ann.seat
                for message in ({"type": "move", "move": "ds"}, {"type": "move", "move": "m AD AC JK"}):
                    ann.send(message)
                    ann.until("state")
                ann.send({"type": "undo"})
                state = ann.until("state")
                assert state["taken_back"] == ann.seat
                # Then ann discards: bob's turn comes, where he quits.
                ann.send({"type": "move", "move": f"d {state['view']['hand'][0]}"})
                out, _ = bob.communicate("quit\n", timeout=60)
            finally:
                bob.kill()
    flat = " ".join(out.split())
    assert "ann melds A♦ A♣ JK" in flat, out
    assert "ann takes back this turn's melds: the table is as it was after the draw." in flat, out
