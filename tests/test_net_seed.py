"""The shuffle seed a hosted table draws for itself: too many for a player to try them all.

The seed deals every hand and orders the stock. A player sees their own hand, the upcard and everyone's
name: trying seed after seed until one deals that hand, they know every other hand and the stock's order.
A table dealt from one of a million seeds was found so in two minutes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from net_helpers import TIMEOUT, Player
from test_net_host_process import start_host

OLD_SEEDS = 1_000_000
"""The seeds a table drew from before: each of them is tried in about a tenth of a millisecond."""


def test_a_table_without_a_seed_draws_one_no_player_can_find_by_trying(tmp_path: Path) -> None:
    host, uri, code = start_host(tmp_path, "--seats", "2")
    assert host.stdin is not None
    try:
        eve = Player(uri)
        eve.join(code, name="eve")
        host.stdin.write("start\n")
        host.stdin.flush()
        state = eve.until("state")
        assert len(state["view"]["hand"]) == 13
    finally:
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0
    (save,) = (tmp_path / "saves").glob("*.kalooki-save.json")
    seed = json.loads(save.read_text(encoding="utf-8"))["session"]["table"]["seed"]
    # One of 2**64: that a seed drawn so lies among the million a player could try is one chance in 10**13.
    assert seed >= OLD_SEEDS, seed
    # Nor is it told: no message to the player holds it.
    assert not [text for text in eve.received if str(seed) in text]


def test_a_table_refuses_a_seed_its_game_would_refuse_when_it_is_made() -> None:
    # Table(seed=10**40) was taken; once the last seat filled, Game refused the seed inside the connection
    # handler, the joining player's connection closed with an internal error and the game never started.
    from kalooki_net.table import Table

    from kalooki.gamestate import SetupError
    from kalooki.variant import Variant

    with pytest.raises(SetupError, match="a seed of 41 digits: give one of at most 30"):
        Table(Variant(), seats=2, bots=["greedy"], seed=10**40)
    assert Table(Variant(), seats=2, bots=["greedy"], seed=0).seed == 0
