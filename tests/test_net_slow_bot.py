"""A bot that takes its time at a hosted table holds no one up: its turn is played off the server's loop,
so the table answers pings, talk and a player coming back meanwhile, and a turn the game has moved past
(the seat's player back, who played it themselves) is not taken."""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

import asyncio
import random
import threading
import time
from collections.abc import Iterator

from kalooki_net.table import Table
from net_helpers import Host, Player, hosted

from kalooki.bots import GreedyBot, base, register
from kalooki.cards import JOKER, card_points, format_card
from kalooki.loader import load_variant
from kalooki.moves import Action
from kalooki.view import LegalView, PlayerView

THINKING = threading.Event()
"""Set by the slow bot once it is asked for a choice."""
GO = threading.Event()
"""Until set, the slow bot waits (at most a while) before it chooses, as a long search would."""


class Slowpoke:
    name = "slowpoke"

    def __init__(self, rng: random.Random) -> None:
        self.greedy = GreedyBot(rng)

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        THINKING.set()
        GO.wait(15)
        return self.greedy.choose(view, legal)


@pytest.fixture(autouse=True)
def slowpoke(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # The registry as it was after the test: a bot left in it is listed by every later refusal of a name.
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    register("slowpoke", Slowpoke)
    GO.set()
    THINKING.clear()
    yield
    GO.set()


def table(wait_seconds: float) -> Table:
    variant = load_variant("classic")
    return Table(variant, seats=2, bots=["slowpoke"], seed=5, wait_seconds=wait_seconds)


def ann_to_draw(host: Host, hosted_table: Table) -> Player:
    """Ann, alone at the table with the slow bot, at the start of her turn; the bot then waits to be told."""
    ann = Player(host.uri, timeout=5.0)
    ann.join(hosted_table.code, name="ann")
    host.call(host.server.start_game)
    ann.until("state")
    while not (ann.my_turn() and ann.view is not None and ann.view["phase"] == "draw"):
        if ann.my_turn():
            ann.send({"type": "move", "move": ann.next_move()})
        ann.until("state")
    GO.clear()
    THINKING.clear()
    return ann


def test_the_table_answers_while_a_bot_thinks() -> None:
    hosted_table = table(30.0)
    with hosted(hosted_table) as host:
        ann = ann_to_draw(host, hosted_table)
        while ann.my_turn():  # once her turn ends, the bot's begins
            ann.send({"type": "move", "move": ann.next_move()})
            ann.until("state")
        assert THINKING.wait(5)
        turn = hosted_table.require_game().turn_number
        # The bot is thinking: the table still answers a ping, and what she says.
        assert ann.websocket.ping().wait(3)
        ann.send({"type": "say", "text": "take your time"})
        said = ann.until("said")
        assert (said["name"], said["text"]) == ("ann", "take your time")
        assert hosted_table.require_game().current == 1
        GO.set()
        # Its turn then stands, as the bot played it: the next state tells it, ending in its discard.
        state = ann.until("state")
        assert state["events"][0]["type"] == "draw"
        assert state["events"][-1] == {"type": "discard", "player": "bob", "card": "9H"}
        assert state["view"]["turn_number"] == turn + 1


def test_a_player_back_while_the_bot_plays_their_turn_plays_it_themselves() -> None:
    hosted_table = table(0.0)  # a bot plays for her the moment she is away
    with hosted(hosted_table) as host:
        ann = ann_to_draw(host, hosted_table)
        game = hosted_table.require_game()
        turn, hand = game.turn_number, len(game.hands[0])
        rng_before = hosted_table.rngs[0].getstate()
        ann.close()
        assert THINKING.wait(5)  # her stand-in thinks about her draw
        back = Player(host.uri, timeout=5.0)
        assert back.join(hosted_table.code, token=ann.token)["seat"] == 0
        back.until("state")
        back.send({"type": "move", "move": "ds"})
        drawn = back.until("state")
        assert [event["type"] for event in drawn["events"]] == ["draw"]
        GO.set()
        bot_done(host)
        # The stand-in's turn, played on a copy meanwhile, is not taken: her hand is one card up.
        game = hosted_table.require_game()
        assert (game.current, game.phase, game.turn_number) == (0, "play", turn)
        assert len(game.hands[0]) == hand + 1
        assert hosted_table.rngs[0].getstate() == rng_before
        back.send({"type": "say", "text": "still mine"})
        assert back.until("said")["text"] == "still mine"  # and nothing of the bot's was told her
        assert back.view is not None
        assert len(back.view["hand"]) == hand + 1


def test_a_player_back_while_her_late_stand_in_thinks_is_not_played_for_when_it_runs_out() -> None:
    # Safe moves played the turn of a stand-in that ran out of time even where its player, back meanwhile,
    # had drawn: her turn was ended for her with a discard she never chose.
    hosted_table = table(0.0)
    with hosted(hosted_table, bot_seconds=1.0) as host:
        ann = ann_to_draw(host, hosted_table)
        hand = len(hosted_table.require_game().hands[0])
        ann.close()
        assert THINKING.wait(5)
        back = Player(host.uri, timeout=5.0)
        assert back.join(hosted_table.code, token=ann.token)["seat"] == 0
        back.until("state")
        back.send({"type": "move", "move": "ds"})
        back.until("state")
        time.sleep(1.5)  # the stand-in's second runs out
        game = hosted_table.require_game()
        assert (game.current, game.phase, len(game.hands[0])) == (0, "play", hand + 1)
        GO.set()
        bot_done(host)


def bot_done(host: Host) -> None:
    """Wait for the bot's thread to end, and for the loop to have heard so."""
    for _ in range(100):
        if not any(thread.name == "kalooki-bot-turn" for thread in threading.enumerate()):
            break
        time.sleep(0.05)
    host.call(lambda: None)
    host.call(lambda: None)


def test_a_turn_the_bot_finishes_once_the_table_has_closed_is_not_taken() -> None:
    # The host had said the game was saved, with the command that reopens it: a turn taken after that would
    # change the save (and write the log) behind the host's back, as the host's program exits.
    hosted_table = table(30.0)
    with hosted(hosted_table) as host:
        ann = ann_to_draw(host, hosted_table)
        while ann.my_turn():
            ann.send({"type": "move", "move": ann.next_move()})
            ann.until("state")
        assert THINKING.wait(5)
        before = hosted_table.require_game().to_json()
        asyncio.run_coroutine_threadsafe(host.server.close("the host stopped"), host.loop).result(5)
        assert ann.until("closing")["reason"] == "the host stopped"
        GO.set()
        bot_done(host)
        assert hosted_table.require_game().to_json() == before


def test_a_bot_that_does_not_answer_in_time_has_its_turn_played_by_safe_moves() -> None:
    # A bot that never answered held the game for ever: the table answered, but no one could play on.
    hosted_table = table(30.0)
    with hosted(hosted_table, bot_seconds=1.0) as host:
        ann = ann_to_draw(host, hosted_table)
        game = hosted_table.require_game()
        rng_before = hosted_table.rngs[1].getstate()
        while ann.my_turn():
            ann.send({"type": "move", "move": ann.next_move()})
            ann.until("state")
        assert THINKING.wait(5)
        # After its second, the bot's turn is drawn from the stock and its costliest card discarded.
        held = [*game.hands[1], game.stock[-1]]
        most = max(card_points(card, 11, 25) for card in held if card != JOKER)
        costliest = {
            format_card(card) for card in held if card != JOKER and card_points(card, 11, 25) == most
        }
        state = ann.until("state")
        draw, discard = state["events"]
        assert draw == {"type": "draw", "player": "bob", "source": "stock"}
        assert (discard["type"], discard["player"]) == ("discard", "bob")
        assert discard["card"] in costliest
        assert state["view"]["current"] == 0
        assert str(hosted_table.bot_faults.found[0]) == (
            "[bot slowpoke, seat bob] took more than 1 s over a turn (kalooki host --bot-time); "
            "its moves are replaced by safe ones"
        )
        # While it still thinks, its next turn is played so too, without asking it again.
        THINKING.clear()
        while ann.my_turn():
            ann.send({"type": "move", "move": ann.next_move()})
            ann.until("state")
        state = ann.until("state")
        assert [event["type"] for event in state["events"]] == ["draw", "discard"]
        assert not THINKING.is_set()
        # Once it answers, what it chose is not taken, its random state is as before, and it plays again.
        moved = hosted_table.require_game().to_json()
        GO.set()
        bot_done(host)
        assert hosted_table.require_game().to_json() == moved
        assert hosted_table.rngs[1].getstate() == rng_before
        assert len(hosted_table.bot_faults.found) == 1


def test_the_command_s_default_wait_for_a_bot_is_the_table_s() -> None:
    # Written twice so that kalooki host -h needs no network package: held equal here.
    from kalooki_cli.host_options import DEFAULT_BOT_TIME
    from kalooki_net.bot_turns import BOT_TURN_SECONDS

    assert DEFAULT_BOT_TIME == BOT_TURN_SECONDS
