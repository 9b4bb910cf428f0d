"""The words a page shows for whose turn it is, kept true when that player leaves or comes back during their
turn (a real table on 127.0.0.1, its clients joined as the page joins: with ``coach``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytest.importorskip("websockets")

from kalooki_cli.web_coach import WebCoach
from kalooki_net.protocol import PROTOCOL_VERSION
from kalooki_net.table import Table
from net_helpers import Host, Player, hosted, new_table


@contextmanager
def two_pages() -> Iterator[tuple[Table, Host, Player, Player, str]]:
    """A hosted two-seat table with a page joined at each seat, both dealt: the table, its host, the page
    whose turn it is, the other page, and the name of the player whose turn it is."""
    table = new_table(seats=2, seed=10, hand_size=7, opening_threshold=0)
    with hosted(table, advisor=WebCoach()) as host:
        first, second = Player(host.uri), Player(host.uri)
        first.join(table.code, name="ann", coach=True)
        second.join(table.code, name="bob", coach=True)
        first.until("state")
        second.until("state")
        playing, other = (first, second) if table.require_game().current == first.seat else (second, first)
        yield table, host, playing, other, "ann" if playing is first else "bob"


def test_a_page_is_told_when_the_player_whose_turn_it_is_goes_and_comes_back() -> None:
    # The page's status went on saying "bob is playing." once bob had gone, and, after a table reopened
    # while he was away, "bob is away: the table waits for them" while he was back and playing.
    with two_pages() as (table, host, playing, watching, name):
        playing.close()
        assert watching.until("presence")["status"] == "left"
        away = watching.until("state")
        assert away["events"] == []
        assert away["coach"]["status"] == [
            f"{name} is away: the table waits for them, then a bot plays for them."
        ]
        back = Player(host.uri)
        back.send({"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "token": playing.token})
        back.until("welcome")
        assert watching.until("presence")["status"] == "back"
        assert watching.until("state")["coach"]["status"] == [f"{name} is playing."]
        back.close()
        watching.close()


def test_no_state_is_sent_for_a_player_who_goes_when_it_is_not_their_turn() -> None:
    # Only the status of the turn's player changes: the others' pages are not redrawn for nothing.
    with two_pages() as (_table, _host, playing, waiting, _name):
        waiting.close()
        assert playing.until("presence")["status"] == "left"
        playing.send({"type": "say", "text": "still here"})
        kinds = [playing.receive()["type"]]
        while kinds[-1] != "said":
            kinds.append(playing.receive()["type"])
        assert "state" not in kinds, kinds  # from the presence to what was said: the lobby alone
        playing.close()
