"""The client's check of a table's view (kalooki_net.table_state): every view an honest table sends is
rebuilt into a game; a view changed in any way is either still one play can reach, or refused with one
line that says so (a TableStateError), never another exception."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("websockets")

from kalooki_net.table_state import DOES_NOT_ADD_UP, TableStateError
from kalooki_net.view import WATCHER, seat_view, shadow_game

from kalooki.bots import make_bot
from kalooki.driver import ask_bot
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.variant import Variant

VARIANT: Variant = load_variant("classic", ["goal_score=60"])


@cache
def honest_views() -> tuple[str, ...]:
    """Views (as JSON) a table sends at every step of a short two-player game, for each seat and a watcher."""
    game = Game(VARIANT, ["ann", "bob"], seed=7)
    bot = make_bot("greedy", random.Random(7))
    views: list[str] = []
    for _ in range(2000):
        views.extend(json.dumps(seat_view(game, seat)) for seat in (0, 1, WATCHER))
        if game.phase == "game_over":
            break
        if game.phase == "hand_over":
            game.next_hand()
        else:
            game.apply(ask_bot(bot, game), game.current)
    return tuple(views)


def test_every_view_an_honest_table_sends_is_rebuilt_with_the_counts_it_shows() -> None:
    views = [json.loads(text) for text in honest_views()]
    assert {view["phase"] for view in views} == {"draw", "play", "hand_over", "game_over"}
    assert any(view["table"] for view in views)
    assert any(view["can_undo"] for view in views)
    for view in views:
        game = shadow_game(view, VARIANT)
        assert [len(hand) for hand in game.hands] == view["hand_counts"]
        assert len(game.stock) == view["stock_count"]


def a_view_in_play() -> dict[str, Any]:
    """bob's view of a turn after melds were laid: the table, the discard pile and the hands hold cards."""
    for text in honest_views():
        view: dict[str, Any] = json.loads(text)
        if view["seat"] == 1 and view["phase"] == "play" and len(view["table"]) >= 2:
            return view
    raise AssertionError("no meld was laid")


Change = Callable[[dict[str, Any]], None]


def other_kind(meld: dict[str, Any]) -> str:
    return "set" if meld["kind"] == "run" else "run"


CHANGES: list[tuple[Change, str]] = [
    (lambda view: view["hand_counts"].append(13), "view.hand_counts holds 3 entries for 2 players"),
    (lambda view: view["opened"].pop(), "view.opened holds 1 entry for 2 players"),
    (lambda view: view.update(revealed=[[]]), "view.revealed holds 1 entry for 2 players"),
    (lambda view: view.update(seat=2), "view.seat: 2 is not at the table: this 2-player table"),
    (lambda view: view.update(first_seat=-1), "view.first_seat: -1 is not at the table: this 2-player"),
    (lambda view: view["discard_pile"].insert(0, "1X"), "view.discard_pile[0]: '1X' is not a card"),
    (lambda view: view["turn"].update(drawn_card="\ud800"), "view.turn.drawn_card: '\\ud800' is not a"),
    (lambda view: view["table"][0].update(kind=other_kind(view["table"][0])), "view.table[0]: "),
    (lambda view: view["turn"].update(laid=[0, 0]), "view.turn.laid: [0, 0] are not each a meld"),
    (lambda view: view["hand_counts"].__setitem__(0, -2), "view.hand_counts[0]: -2 is no number of cards"),
    (lambda view: view["hand_counts"].__setitem__(0, 200), "view.hand_counts: the hands not shown hold 200"),
    (lambda view: view["hand_counts"].__setitem__(1, 99), "view.hand_counts[1] is 99, but view.hand holds"),
    (lambda view: view["hand"].extend(["JK"] * 5), "view: it shows JK "),
    (lambda view: view.update(stock_count=view["stock_count"] + 1), "view.stock_count is "),
    (lambda view: view.update(turn_number=-1), "view.turn_number: must be at least 0, got -1"),
    (lambda view: view.update(winners=[0]), "the game has winners, but it is not over"),
    (lambda view: view.update(players=["ann", "ann"]), "two players have the same name"),
    (lambda view: view.update(hand_number="2"), "view.hand_number: expected a whole number, got '2'"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "said"), CHANGES, ids=[said.rstrip(": ") for _, said in CHANGES])
def test_a_view_that_does_not_add_up_is_refused_naming_what_is_wrong(change: Change, said: str) -> None:
    view = a_view_in_play()
    change(view)
    with pytest.raises(TableStateError) as refused:
        shadow_game(view, VARIANT)
    assert str(refused.value).startswith(f"{DOES_NOT_ADD_UP}: {said}")


def json_values() -> st.SearchStrategy[Any]:
    leaves = st.none() | st.booleans() | st.integers(-(10**15), 10**15) | st.text(max_size=4)
    leaves |= st.sampled_from(
        ["AS", "JK", "7H", "TC", "ZZ", "draw", "hand_over", "set", "run", -1, 0, 1, 2, 13]
    )
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


def change_somewhere(data: st.DataObject, view: dict[str, Any]) -> None:
    """Replace, add or take away one value at a place in ``view`` drawn at random."""
    node: Any = view
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and data.draw(st.booleans()):
            node = child
            continue
        action = data.draw(st.sampled_from(["replace", "grow", "shrink"]))
        if action == "grow" and isinstance(child, list):
            child.append(data.draw(json_values()) if not child else copy.deepcopy(child[0]))
        elif action == "shrink" and isinstance(child, list) and child:
            child.pop(data.draw(st.integers(0, len(child) - 1)))
        else:
            node[key] = data.draw(json_values())
        return


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(index=st.integers(min_value=0), changes=st.integers(1, 3), data=st.data())
def test_a_view_changed_at_random_is_a_game_or_one_line_saying_it_does_not_add_up(
    index: int, changes: int, data: st.DataObject
) -> None:
    views = honest_views()
    view = json.loads(views[index % len(views)])
    for _ in range(changes):
        change_somewhere(data, view)
    try:
        game = shadow_game(view, VARIANT)
    except TableStateError as error:
        refusal = str(error)
    else:
        assert [len(hand) for hand in game.hands] == view["hand_counts"]
        return
    assert refusal.startswith(f"{DOES_NOT_ADD_UP}: ")
    assert "\n" not in refusal
    assert "saved game" not in refusal
    refusal.encode("utf-8")  # no lone surrogate: the line reaches a terminal
