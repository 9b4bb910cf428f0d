"""The client's check of a state's events (kalooki_net.table_state.events_problem): every event an honest
table sends passes; an event that names a player, a meld or cards the table does not have, or a field of
the wrong type, is refused in one line that names it, never another exception."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("websockets")

from kalooki_net.table_state import events_problem
from kalooki_net.view import seat_events, seat_view

from kalooki.bots import make_bot
from kalooki.driver import ask_bot
from kalooki.engine import Event, Game
from kalooki.loader import load_variant
from kalooki.variant import Variant

VARIANT: Variant = load_variant("classic", ["goal_score=60"])


@cache
def honest_states() -> tuple[str, ...]:
    """Each state's events and view (as JSON) a table sends each seat over a short three-player game."""
    game = Game(VARIANT, ["ann", "bob", "cid"], seed=11)
    bot = make_bot("greedy", random.Random(11))
    states: list[str] = []

    def told(events: list[Event]) -> None:
        for seat in range(3):
            seen = [event.to_json() for event in seat_events(events, game, seat)]
            states.append(json.dumps({"events": seen, "view": seat_view(game, seat)}))

    told(list(game.opening_events))
    for _ in range(3000):
        if game.phase == "game_over":
            break
        told(game.next_hand() if game.phase == "hand_over" else game.apply(ask_bot(bot, game), game.current))
    return tuple(states)


def test_every_event_an_honest_table_sends_adds_up() -> None:
    states = [json.loads(text) for text in honest_states()]
    kinds = {event["type"] for state in states for event in state["events"]}
    assert {"deal", "draw", "meld", "discard", "hand_end", "game_end"} <= kinds
    for state in states:
        assert events_problem(state["events"], state["view"], VARIANT) is None, state["events"]


def a_state_with(kind: str) -> dict[str, Any]:
    state: dict[str, Any] = next(
        json.loads(text)
        for text in honest_states()
        if kind in (e["type"] for e in json.loads(text)["events"])
    )
    return state


def problem_of(state: dict[str, Any]) -> str | None:
    return events_problem(state["events"], state["view"], VARIANT)


def index_of(state: dict[str, Any], kind: str) -> int:
    return next(index for index, event in enumerate(state["events"]) if event["type"] == kind)


CHANGES = [
    ("meld", "numbers", [9], "meld 9 is not on the table (it holds"),
    ("meld", "melds", ["3S 9D KH"], "melds[0]: "),
    ("meld", "player", "zed", "player: 'zed' is not a player at the table"),
    ("meld", "points", "12", 'points: expected a whole number, got "12"'),
    ("discard", "card", "ZZ", "'ZZ' is not a card"),
    ("discard", "type", "teleport", "unknown event type 'teleport'"),
    ("hand_end", "winner", "zed", "winner: 'zed' is not a player at the table"),
    ("hand_end", "totals", {}, "totals: no total for"),
    ("hand_end", "kalooki", "no", 'kalooki: expected true or false, got "no"'),
    ("game_end", "winners", "ann", 'winners: expected a list of texts, got "ann"'),
    ("deal", "drawn_for_dealer", [1], "drawn_for_dealer: expected an object of texts by player, got [1]"),
]


@pytest.mark.parametrize(("kind", "field", "value", "said"), CHANGES, ids=[f"{c[0]}.{c[1]}" for c in CHANGES])
def test_an_event_that_does_not_add_up_is_named_with_what_is_wrong(
    kind: str, field: str, value: object, said: str
) -> None:
    state = copy.deepcopy(a_state_with(kind))
    index = index_of(state, kind)
    event = state["events"][index]
    if field == "melds":  # the first of the melds laid: the numbers still fit
        event["melds"][0] = value[0]  # type: ignore[index]
    else:
        event[field] = value
    problem = problem_of(state)
    assert problem is not None
    assert problem.startswith(f"events[{index}] ("), problem
    assert said in problem, problem


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(["", "ann", "zed", "7H", "JK", "run"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["ann", "bob", "x"]), inner),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_event_changed_at_random_adds_up_or_is_named_never_another_exception(data: st.DataObject) -> None:
    states = honest_states()
    state = json.loads(states[data.draw(st.integers(0, len(states) - 1))])
    if not state["events"]:
        return
    index = data.draw(st.integers(0, len(state["events"]) - 1))
    event = state["events"][index]
    field = data.draw(st.sampled_from(sorted(event)))
    event[field] = data.draw(JSON)
    problem = problem_of(state)  # no exception
    assert problem is None or problem.startswith(f"events[{index}]"), problem
