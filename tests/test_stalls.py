"""A hand stopped at the turn limit is reported with why it never ended, in words."""

from __future__ import annotations

import json
from dataclasses import replace

from kalooki_cli.app import app
from rules_helpers import fixed_deal, play
from typer.testing import CliRunner

from kalooki.engine import Game
from kalooki.simulate import simulate
from kalooki.stalls import Stall, stall_of
from kalooki.variant import Variant

LABELS = ["P1 (greedy)", "P2 (expert)", "P3 (random)"]


DEAD = Stall(
    turns=1000,
    quiet_turns=948,
    reshuffles=12,
    seats=(0, 1),
    held=(1, 1),
    opened=(True, True),
    small=(True, True),
    places=0,
)
"""Two players left one card each on a table that takes none (as kalooki-40 used to end)."""


def test_two_players_left_one_card_each_on_a_table_that_takes_none() -> None:
    assert DEAD.describe(LABELS) == (
        "Nothing was laid in the last 948 of 1,000 turns; the stock was made anew from the discards"
        " 12 times. P1 (greedy) held 1 card, P2 (expert) 1 card. P1 (greedy) and P2 (expert) could go"
        " out only by building (too few cards for a new meld), and no place on the table could take a"
        " card still in play."
    )


def test_a_stall_with_places_left_and_a_player_who_never_opened() -> None:
    stall = replace(
        DEAD,
        quiet_turns=1000,
        reshuffles=1,
        seats=(0, 2),
        held=(13, 2),
        opened=(False, True),
        small=(False, True),
        places=1,
    )
    assert stall.describe(LABELS) == (
        "Nothing was laid in 1,000 turns; the stock was made anew from the discards once."
        " P1 (greedy) held 13 cards (not opened), P3 (random) 2 cards. P3 (random) could go out only"
        " by building (too few cards for a new meld), and the table had places for 1 more card."
    )
    busy = Stall(1000, 0, 0, (0, 1), (5, 6), (True, True), (False, False), 4)
    assert busy.describe(LABELS) == (
        "A card was laid on the last of 1,000 turns. P1 (greedy) held 5 cards, P2 (expert) 6 cards."
    )


def test_a_hand_capped_after_one_turn_reads_as_english() -> None:
    one = Stall(1, 1, 0, (0, 1), (13, 13), (False, False), (False, False), 0)
    assert one.describe(LABELS) == (
        "Nothing was laid in 1 turn. P1 (greedy) held 13 cards (not opened),"
        " P2 (expert) 13 cards (not opened)."
    )
    assert replace(one, quiet_turns=0).describe(LABELS).startswith("A card was laid on the only turn.")


def test_the_stall_of_a_hand_is_read_from_the_game() -> None:
    # ann lays three full sets (three cards at most) and keeps 9D; bob lays a run whose ends want
    # 4S and 8S, so the table has two places. The limit stops the hand after four turns.
    rules = Variant(hand_size=10, opening_threshold=0, set_maximum=3, jokers=0)
    hands = ["2C 2D 2H 3C 3D 3H 4C 4D 4H 9D", "5S 6S 7S KC KH QD JC 9C 7D 2S"]
    game = Game(rules, ["ann", "bob"], seed=3, deal=fixed_deal(hands, "TD", "KD 8C AH AS"), turn_limit=4)
    play(game, "draw stock", "meld 2C 2D 2H, 3C 3D 3H, 4C 4D 4H", "discard KD")
    play(game, "draw stock", "meld 5S 6S 7S", "discard 8C", "draw stock", "discard AH")
    play(game, "draw stock", "discard AS")
    assert game.results[-1].end == "turn_limit"
    stall = stall_of(game, quiet_turns=2, reshuffles=0)
    assert stall == replace(
        DEAD, turns=4, quiet_turns=2, reshuffles=0, held=(1, 7), small=(True, False), places=2
    )


def test_a_small_hand_that_may_end_its_turn_without_a_discard_is_not_said_to_go_out_only_by_building() -> (
    None
):
    # Under turn_discard: optional ann may keep her card and draw to a meld: "could go out only by
    # building (too few cards for a new meld)" named a cause that was not one.
    rules = Variant(hand_size=10, opening_threshold=0, set_maximum=3, jokers=0, turn_discard="optional")
    hands = ["2C 2D 2H 3C 3D 3H 4C 4D 4H 9D", "5S 6S 7S KC KH QD JC 9C 7D 2S"]
    game = Game(rules, ["ann", "bob"], seed=3, deal=fixed_deal(hands, "TD", "KD 8C AH AS"), turn_limit=4)
    play(game, "draw stock", "meld 2C 2D 2H, 3C 3D 3H, 4C 4D 4H", "discard KD")
    play(game, "draw stock", "meld 5S 6S 7S", "discard 8C", "draw stock", "discard AH")
    play(game, "draw stock", "discard AS")
    stall = stall_of(game, quiet_turns=2, reshuffles=0)
    assert (stall.held, stall.small) == ((1, 7), (False, False))
    assert "only by building" not in stall.describe(LABELS)


def test_simulate_says_why_each_hand_at_the_cap_never_ended() -> None:
    result = simulate(Variant(), ["greedy", "expert"], games=2, seed=1, workers=1, max_turns=6, max_hands=2)
    stalled = result.to_json()["abandoned_hands"]
    assert result.abandoned.successes == len(stalled) == 4
    assert [(hand["game"], hand["hand"]) for hand in stalled] == [(0, 1), (0, 2), (1, 1), (1, 2)]
    for hand in stalled:
        assert " 6 turns" in hand["why"]
        assert "P1 (greedy) held " in hand["why"]
        assert ", P2 (expert) " in hand["why"]


def test_the_report_prints_why() -> None:
    arguments = ["simulate", "classic", "-n", "1", "-w", "1", "--bots", "greedy,expert", "--max-turns", "6"]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "Hands stopped at the turn cap, and why:" in text
    assert "game 0, hand 1: " in text
    data = json.loads(CliRunner().invoke(app, [*arguments, "--json"]).stdout)
    assert data["abandoned_hands"][0]["game"] == 0
