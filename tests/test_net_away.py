"""A seat at a hosted table that drops, leaves or is away, and comes back: before the game, mid hand, between
hands, after a turn taken back (a real table on 127.0.0.1 with scripted clients, the ``net`` extra)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("websockets")

from kalooki_net.table import Table
from net_helpers import (
    Host,
    Player,
    hosted,
    new_table,
    play_moves,
    play_whole_game,
    seat_and_play_a_hand,
    seat_four,
)

from kalooki.cards import format_card


def test_a_player_who_drops_rejoins_their_seat_mid_hand() -> None:
    table = new_table(goal_score=51, seed=3)
    with hosted(table) as host:
        players = seat_four(host.uri, table.code)
        for player in players:
            player.until("state")
        play_moves(players, 6)
        dropper = players[1]
        assert dropper.view is not None
        hand_before = dropper.view["hand"]
        dropper.close()
        # The others play on until seat 1's turn; then the table waits for it (the wait is 30 s).
        others = [players[0], players[2], players[3]]
        while host.call(lambda: table.game.current) != 1:
            play_moves(others, 1)
        rejoined = Player(host.uri)
        assert rejoined.join(table.code, token=dropper.token)["seat"] == 1
        view = rejoined.until("state")["view"]
        assert view["hand_number"] == 1
        assert view["current"] == 1
        assert view["phase"] == "draw"
        assert view["hand"] == hand_before  # the seat back as it was left
        assert host.call(lambda: [format_card(card) for card in table.game.hands[1]]) == hand_before
        results = play_whole_game([players[0], rejoined, players[2], players[3]])
    assert table.game is not None
    assert table.game.game_over
    assert results[1]["totals"] == table.game.totals


@contextmanager
def ann_and_eve_in_the_lobby(told: list[str] | None = None) -> Iterator[tuple[Host, Table, Player, Player]]:
    """A table of four before its game, ann at seat 0 and eve at seat 1; ``told``: the host's lines."""
    table = new_table(seed=3)
    with hosted(table, on_change=told.append if told is not None else None) as host:
        ann, eve = Player(host.uri), Player(host.uri)
        ann.join(table.code, name="ann")
        eve.join(table.code, name="eve")
        yield host, table, ann, eve


def test_a_player_who_leaves_before_the_game_is_named_to_the_others() -> None:
    # Before the game a seat that is left is free again: the news must still say whose it was.
    told: list[str] = []
    with ann_and_eve_in_the_lobby(told) as (host, table, ann, eve):
        eve.send({"type": "leave"})
        left = ann.until("presence")
        while left["status"] != "left":
            left = ann.until("presence")
        assert (left["seat"], left["name"], left.get("free")) == (1, "eve", True)
        assert host.call(lambda: table.seats[1].kind) == "open"
    # The host's screen said "eve left" for a seat freed and for one kept for its token alike.
    assert "eve left the table." in told


def test_a_seat_dropped_before_the_game_waits_for_its_token_then_is_free() -> None:
    # A reload or a dropped network in the lobby freed the seat at once: the page's token was then no
    # seat's, and its player was sent back to the join form to sit down anew, if a seat was still open.
    told: list[str] = []
    with ann_and_eve_in_the_lobby(told) as (host, table, ann, eve):
        eve.close()
        left = ann.until("presence")
        while left["status"] != "left":
            left = ann.until("presence")
        assert "free" not in left  # dropped: the seat waits for its token
        assert "eve dropped out: the table waits for them." in told
        while host.call(lambda: table.seats[1].connected):
            time.sleep(0.02)
        assert host.call(lambda: (table.seats[1].kind, table.seats[1].name)) == ("human", "eve")
        back = Player(host.uri)
        assert back.join(table.code, token=eve.token)["seat"] == 1
        # Gone for longer than the table's wait: the seat is open again for someone else.
        host.call(lambda: setattr(table, "wait_seconds", 0.0))
        back.close()
        deadline = time.monotonic() + 10
        while host.call(lambda: table.seats[1].kind) != "open":
            assert time.monotonic() < deadline, "the dropped seat was never freed"
            time.sleep(0.02)
        lobby = ann.until("lobby")
        while lobby["seats"][1]["kind"] != "open":
            lobby = ann.until("lobby")
        # Said, as of a seat left on purpose: the lobby alone showed it, and no log or terminal said it.
        assert "eve left the table." in told


def test_the_hosts_own_seat_joins_and_a_player_who_dropped_is_back() -> None:
    def news_of(player: Player, seat: int) -> tuple[str, str]:
        message = player.until("presence")
        while message["seat"] != seat:
            message = player.until("presence")
        return message["name"], message["status"]

    table = new_table(seats=2, seed=3)
    _seat, host_token = table.join("ann", host=True)  # as kalooki host makes its own seat
    table.seats[0].connected = False
    with hosted(table) as host:
        bob = Player(host.uri)
        bob.join(table.code, name="bob")
        ann = Player(host.uri)
        ann.join(table.code, token=host_token)  # the table is full: the game starts
        assert news_of(bob, 0) == ("ann", "joined")
        bob.close()
        assert news_of(ann, 1) == ("bob", "left")
        Player(host.uri).join(table.code, token=bob.token)
        assert news_of(ann, 1) == ("bob", "back")


def test_a_bot_plays_for_a_player_away_longer_than_the_wait() -> None:
    table = new_table(goal_score=51, seed=4)
    table.wait_seconds = 0.0
    with hosted(table) as host:
        players = seat_four(host.uri, table.code)
        token = players[2].token
        players[2].close()
        others = play_whole_game([players[0], players[1], players[3]])
        assert table.game is not None
        assert table.game.game_over
        assert all(view["phase"] == "game_over" for view in others.values())
        back = Player(host.uri)
        assert back.join(table.code, token=token)["seat"] == 2
        assert back.until("state")["view"]["phase"] == "game_over"


def heard_until_said(player: Player) -> list[dict[str, Any]]:
    """What ``player`` receives up to and with the next line said at the table."""
    heard = [player.receive()]
    while heard[-1]["type"] != "said":
        heard.append(player.receive())
    return heard


def test_between_hands_every_seat_is_told_who_is_ready_and_a_seat_reloaded_stays_ready() -> None:
    table = new_table(seats=3, seed=3, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        p0, p1, p2 = seat_and_play_a_hand(host.uri, table.code, seats=3)
        hand_over = json.loads(p2.received[-1])
        assert (hand_over["view"]["phase"], hand_over["ready"], hand_over["waiting_for"]) == (
            "hand_over",
            [],
            [0, 1, 2],
        )
        p0.send({"type": "ready"})
        p1.send({"type": "ready"})
        p1.send({"type": "ready"})  # again: nothing changes, nothing is sent
        p1.send({"type": "say", "text": "ready"})
        for player in (p0, p2):
            told = [message for message in heard_until_said(player) if message["type"] == "state"]
            assert [(state["events"], state["ready"], state["waiting_for"]) for state in told] == [
                ([], [0], [1, 2]),
                ([], [0, 1], [2]),
            ]
        p1.close()  # a reload: the seat drops, and is back with its token
        back = Player(host.uri)
        assert back.join(table.code, token=p1.token)["seat"] == 1
        state = back.until("state")
        assert (state["view"]["phase"], state["ready"], state["waiting_for"]) == ("hand_over", [0, 1], [2])
        back.send({"type": "say", "text": "back"})
        heard = [message["type"] for message in heard_until_said(p0)]
        assert "state" not in heard  # gone and back ready: whom the deal waits for never changed
        assert heard.count("presence") == 2
        p2.send({"type": "ready"})  # the last one: the deal, and no one is ready for the next
        for player in (p0, back, p2):
            dealt = player.until("state")
            assert dealt["view"]["hand_number"] == 2
            assert "ready" not in dealt
            assert "waiting_for" not in dealt
            player.close()


@pytest.mark.parametrize(("gone_after", "told"), [(0, ["draw", "discard"]), (1, ["discard"])])
def test_a_player_back_is_not_told_a_turn_taken_back_as_played(gone_after: int, told: list[str]) -> None:
    # bob, away, was sent "ann melds A♦ A♣ JK" under "While you were away": ann had taken it back.
    # He drops before ann's turn, or after her draw.
    table = new_table(seats=2, seed=10, hand_size=7, opening_threshold=0)  # ann is dealt AD AC JK, first
    with hosted(table) as host:
        ann, bob = Player(host.uri), Player(host.uri)
        ann.join(table.code, name="ann")
        bob.join(table.code, name="bob")
        assert ann.until("state")["view"]["current"] == ann.seat
        for index, move in enumerate(("ds", "m AD AC JK")):
            if index == gone_after:
                bob.close()
                while ann.until("presence")["status"] != "left":
                    pass
            ann.send({"type": "move", "move": move})
            ann.until("state")
        ann.send({"type": "undo"})
        ann.until("state")
        ann.send({"type": "move", "move": "d JH"})
        ann.until("state")
        back = Player(host.uri)
        back.join(table.code, token=bob.token)
        assert [event["type"] for event in back.until("state")["events"]] == told


def test_a_player_back_is_told_the_reshuffle_of_a_draw_whose_turn_was_taken_back() -> None:
    # ann's draw takes the stock's last card and the discard pile becomes the stock; she melds and takes it
    # back. The undo took the reshuffle from what bob, away, was told, though it stood: the table is as
    # after the draw, and the draw's own events with it.
    table = new_table(
        seats=2, seed=10, decks=1, jokers=2, hand_size=26, max_players=2, opening_threshold=0
    )  # one card in the stock
    with hosted(table) as host:
        ann, bob = Player(host.uri), Player(host.uri)
        ann.join(table.code, name="ann")
        bob.join(table.code, name="bob")
        assert ann.until("state")["view"]["current"] == ann.seat
        bob.close()
        while ann.until("presence")["status"] != "left":
            pass
        ann.send({"type": "move", "move": "ds"})
        assert [event["type"] for event in ann.until("state")["events"]] == ["draw", "reshuffle"]
        meld = ann.next_move()
        assert meld.startswith("meld ")
        ann.send({"type": "move", "move": meld})
        ann.until("state")
        ann.send({"type": "undo"})
        assert ann.until("state")["view"]["stock_count"] == 1  # the reshuffle stands
        ann.send({"type": "move", "move": f"d {ann.view['hand'][0]}"})
        ann.until("state")
        back = Player(host.uri)
        back.join(table.code, token=bob.token)
        assert [event["type"] for event in back.until("state")["events"]] == ["draw", "reshuffle", "discard"]
        back.close()
        ann.close()
