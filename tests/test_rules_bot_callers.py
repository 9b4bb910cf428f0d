"""The rules the bots ask kalooki.rules too, each pinned across every caller and knob value.

Whether first melds open (opening_threshold) is asked by the engine's meld, its legal actions, the
bots' count checks (:mod:`kalooki.bots.quick`), the greedy and random bots and the solver; whether a
bot may take the discard before it has searched for a way to lay it, by the greedy bot's draw; where
a run may lie (ace_in_runs, run_minimum), by the count check of the cards a new meld could hold.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rules_helpers import new_game, play
from test_rules_callers import MAY_TAKE, RULES, SCENARIOS

from kalooki import rules, solver
from kalooki.bots import opening_search, quick
from kalooki.bots.greedy import GreedyBot, discard_allowed
from kalooki.bots.random_bot import RandomBot
from kalooki.candidates import candidate_melds
from kalooki.cards import JOKER, full_pack, parse_cards
from kalooki.cardstate import CardState
from kalooki.engine import IllegalMoveError
from kalooki.loader import load_variant
from kalooki.moves import Meld
from kalooki.variant import Variant
from kalooki.view import LegalView

# ---------------------------------------------------------------- whether first melds open

# ann's only meld is her set (7s: 21 points; aces: 3 times ace_value); nothing else of hers, nor the
# 8C she draws, joins a meld. A set of aces where an ace is worth 0 is a meld worth nothing.
LOOSE = "2C 5C 9C QC 3D JD 4H TH KS 6S"
BOB = "2S 4S 6H 8D TC QS KD 2H 5H 9S JC 3C 4D"
OPENINGS = [("7H 7S 7D", {}, 21, threshold) for threshold in (0, 1, 20, 21, 22, 51)] + [
    ("AH AS AD", {"ace_value": 0}, 0, threshold) for threshold in (0, 1)
]


@pytest.mark.parametrize(("meld", "knobs", "points", "threshold"), OPENINGS)
def test_every_caller_gives_the_one_verdict_on_opening(
    meld: str, knobs: dict[str, Any], points: int, threshold: int
) -> None:
    variant = Variant(opening_threshold=threshold, **knobs)
    game = new_game(variant, [f"{meld} {LOOSE}", BOB], stock="8C")
    play(game, "draw stock")
    opens = points >= threshold
    assert rules.opening_points(variant) == threshold
    assert rules.opens(variant, points) is opens
    assert rules.opens(variant, threshold)
    assert not rules.opens(variant, threshold - 1)
    hand, state, keep = game.hands[0], game.hand_states[0], rules.keep(variant)
    cards = sorted(parse_cards(meld))

    # The engine: its legal actions and its check of the meld.
    melds = [action for action in game.legal_actions() if isinstance(action, Meld)]
    assert [sorted(group) for action in melds for group in action.groups] == ([cards] if opens else [])
    if opens:
        game.check(Meld((tuple(cards),)))
    else:
        with pytest.raises(IllegalMoveError) as refused:
            game.check(Meld((tuple(cards),)))
        assert str(refused.value) == (
            f"your first meld is worth {points} points; this variant needs {threshold} "
            "(lay them all in one meld command, melds parted by commas: meld 7H 8H 9H, QS QD QC)"
        )
    # The count checks: the hand's meldable cards are the meld's, so the bound is its points exactly.
    assert quick.opening_bound(state, quick.meldable(state, variant), variant) == points
    assert quick.may_open(state, variant) is opens
    assert quick.may_open(hand, variant) is opens
    found = opening_search.best_opening(hand, variant, keep)
    assert found is not None
    assert ([sorted(group) for group in found[0]], found[1]) == (([cards], points) if opens else ([], 0))
    # The solver, and the bots.
    plan = solver.best_opening(hand, variant, keep=keep)
    assert (plan is not None and [sorted(group) for group in plan.melds] == [cards]) is opens
    view = game.view(0)
    greedy = GreedyBot(random.Random(1))
    assert greedy.may_open(hand, variant) is opens
    assert greedy.short_of_opening(view, hand, variant) is (not opens)
    for bot in (GreedyBot(random.Random(1)), RandomBot(random.Random(1))):
        action = bot.choose(view, LegalView(view))
        assert isinstance(action, Meld) is opens, bot.name
        if opens:
            assert [sorted(group) for group in action.groups] == [cards]


def test_a_player_who_has_opened_is_never_short_of_an_opening() -> None:
    game = new_game(Variant(opening_threshold=51), [f"7H 7S 7D {LOOSE}", BOB], stock="8C")
    game.opened[0] = True
    play(game, "draw stock")
    assert not GreedyBot(random.Random(1)).short_of_opening(game.view(0), game.hands[0], game.variant)


# ---------------------------------------------------------------- the greedy bot's draw


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_the_greedy_draw_asks_the_discard_rule_leaving_laying_to_its_own_search(
    rule: str, scenario: str
) -> None:
    """discard_allowed is rules.may_draw_discard with no layable test: under meld_at_once it allows a
    card the hand cannot lay (the bot then takes it only when its own search lays it)."""
    game = SCENARIOS[scenario](rule)
    position = list(SCENARIOS).index(scenario)
    top = game.discard_pile[-1] if game.discard_pile else None
    unchecked = top is not None and rules.may_take_discard(game.variant, game.opened[0])
    assert rules.may_draw_discard(game.variant, game.opened[0], top, None) is unchecked
    assert discard_allowed(game.view(0)) is unchecked
    # The same as the engine's verdict except a card meld_at_once would still ask about.
    assert unchecked is (MAY_TAKE[rule][position] or (rule == "meld_at_once" and top is not None))


# ---------------------------------------------------------------- where a run may lie


FRAMES = [(ace, minimum) for ace in ("high_or_low", "high", "low", "wrap") for minimum in (3, 4, 5)]


def test_the_cards_a_new_meld_could_hold_are_the_engines_under_every_run_frame() -> None:
    """quick.meldable against the engine's candidate melds, joker-free hands (where it is exact).

    The frames take turns on each hand, so an answer remembered for one frame would show under another.
    """
    rng = random.Random(5)
    pack = [card for card, count in full_pack(2, 0).items() for _ in range(count) if card != JOKER]
    variants = [Variant(ace_in_runs=ace, run_minimum=minimum) for ace, minimum in FRAMES]
    # Runs through an ace, high and low, that each frame reads differently; then random hands.
    hands = [parse_cards("QH KH AH 2H 3H 4H 9C"), parse_cards("KS AS 2S 3S 5D 6D 7D 8D")]
    hands += [rng.sample(pack, 13) for _ in range(60)]
    for hand in hands:
        state = CardState.of(hand)
        for variant in variants:
            engine = 0
            for group in candidate_melds(state, variant):
                for card in group:
                    engine |= 1 << card
            assert quick.meldable(state, variant) == engine, (variant.ace_in_runs, variant.run_minimum)


def test_the_cards_a_new_meld_could_hold_count_repeated_suits_where_sets_may_repeat() -> None:
    """Under ``set_suits: may_repeat`` a set may hold one suit twice (7H 7H 7S): quick.meldable counts it.

    Joker-free hands from two packs, against the engine's candidate melds, with the distinct-suit
    rule beside it so a mask remembered for one would show under the other.
    """
    rng = random.Random(8)
    pack = [card for card, count in full_pack(2, 0).items() for _ in range(count) if card != JOKER]
    repeat, distinct = load_variant("czech-500"), load_variant("classic")
    assert not rules.suits_must_differ(repeat)
    assert rules.suits_must_differ(distinct)
    hands = [parse_cards("7H 7H 7S 9C KD"), parse_cards("7H 7H 7S 7C 2D")]
    hands += [rng.sample(pack, 13) for _ in range(80)]
    for hand in hands:
        state = CardState.of(hand)
        for variant in (repeat, distinct):
            engine = 0
            for group in candidate_melds(state, variant):
                for card in group:
                    engine |= 1 << card
            assert quick.meldable(state, variant) == engine, (variant.name, hand)
    first = CardState.of(hands[0])
    assert quick.meldable(first, repeat) == sum(1 << card for card in parse_cards("7H 7S"))
    assert quick.meldable(first, distinct) == 0


def test_variants_with_one_run_frame_share_what_the_count_check_remembers() -> None:
    a = Variant(ace_in_runs="high", run_minimum=4)
    b = Variant(ace_in_runs="high", run_minimum=4, opening_threshold=40)
    assert quick._coverage(rules.run_frame(a)) is quick._coverage(rules.run_frame(b))
    for other in (Variant(ace_in_runs="low", run_minimum=4), Variant(ace_in_runs="high", run_minimum=3)):
        assert quick._coverage(rules.run_frame(other)) is not quick._coverage(rules.run_frame(a))
