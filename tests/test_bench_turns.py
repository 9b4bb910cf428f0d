"""The turns bench: it plays the simulation's own games, and every turn is counted once, in its kind."""

from __future__ import annotations

from bench.turns_bench import KINDS, kind_of, profile
from kalooki.cards import parse_cards
from kalooki.events import DrawEvent, MeldEvent
from kalooki.loader import load_variant
from kalooki.simulate import simulate


def test_the_profile_plays_the_games_simulate_plays() -> None:
    classic = load_variant("classic")
    for bot in ("greedy", "random"):
        found = profile(classic, bot, 2, 3)
        played = simulate(classic, [bot] * 4, 2, 3, workers=1)
        assert found.hands == played.hands
        turns = sum(totals.turns for totals in found.kinds.values())
        assert turns == round(played.turns_per_hand.mean * played.turns_per_hand.n)
        assert set(found.kinds) == set(KINDS)
        for totals in found.kinds.values():
            assert totals.seconds >= totals.engine + totals.views >= 0


def test_a_turn_is_of_the_kind_its_events_and_its_start_say() -> None:
    drew = DrawEvent(player="P1", source="stock", card=None)
    melded = MeldEvent(player="P1", melds=(tuple(parse_cards("7H 8H 9H")),), numbers=(1,), points=24)
    assert kind_of(False, [drew]) == "unopened_nothing_laid"
    assert kind_of(False, [drew, melded]) == "unopened_laid"
    assert kind_of(True, [drew]) == "opened_nothing_laid"
    assert kind_of(True, [drew, melded]) == "opened_laid"
