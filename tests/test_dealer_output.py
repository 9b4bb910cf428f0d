"""The dealer of each hand in a script's JSON and table, and logs and saves from before it was recorded."""

from __future__ import annotations

from typing import Any

from kalooki_cli.script_commands import show_run
from rich.console import Console
from rules_helpers import recorded_run

from kalooki.engine import Game
from kalooki.log import replay
from kalooki.script import load_script_text
from kalooki.variant import Variant

SCRIPT = """
variant: classic
set: {deal_direction: counter_clockwise, goal_score: 150}
players:
  - {name: ann, bot: greedy}
  - {name: bob, bot: greedy}
  - {name: cid, bot: greedy}
  - {name: dee, bot: greedy}
seed: 3
"""


def recorded(text: str) -> tuple[Any, list[dict[str, Any]]]:
    return recorded_run(load_script_text(text, "deal.yaml"))


def test_json_and_table_show_each_hands_dealer() -> None:
    run, _ = recorded(SCRIPT)
    dealers = [hand["dealer"] for hand in run.to_json()["hands"]]
    # dee deals first (seat order); the deal passes counter-clockwise: to the previous player listed.
    cycle = ["dee", "cid", "bob", "ann"]
    assert len(dealers) >= 2
    assert dealers == [cycle[index % 4] for index in range(len(dealers))]
    console = Console(record=True, width=120, color_system=None)
    show_run(run, console)
    rows = [line.split("│") for line in console.export_text().splitlines() if line.startswith("│")]
    assert [(row[1].strip(), row[2].strip()) for row in rows[:2]] == [("1", "dee"), ("2", "cid")]


def test_logs_replay_with_the_dealer_and_without_an_upcard() -> None:
    text = SCRIPT.replace("deal_direction: counter_clockwise", "first_dealer: high_card, upcard: false")
    _, records = recorded(text)
    deal = records[1]
    assert deal["discard"] is None
    assert set(deal["drawn_for_dealer"]) == {"ann", "bob", "cid", "dee"}
    records[0]["seed"] = None  # the dealer and the cards drawn for it come from the log itself
    assert replay(records).game_over


def test_logs_from_before_the_dealer_was_recorded_still_replay() -> None:
    _, records = recorded(SCRIPT.replace("deal_direction: counter_clockwise, ", ""))
    for record in records:
        if record["type"] == "deal":
            del record["dealer"]
    assert replay(records).game_over


def test_saves_from_before_the_dealer_was_recorded_still_load() -> None:
    game = Game(Variant(play_direction="counter_clockwise"), ["ann", "bob", "cid"], seed=1)
    game.abandon_hand()
    game.next_hand()
    state = game.to_json()
    assert state["dealer"] == game.dealer == 0  # ann deals hand 2; cid plays first
    del state["dealer"]
    del state["turn"]["laid"]
    for result in state["results"]:
        del result["dealer"]
    restored = Game.from_json(state)
    assert restored.dealer == 0
    assert restored.results[0].dealer is None
    assert restored.current == 2
