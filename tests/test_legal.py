"""The legal actions: the pruned candidate generator against the exhaustive one, and perft-style counts.

Perft counts (after python-chess's ``examples/perft``) pin ``len(game.legal_actions())`` at every
position of seeded walks through each built-in variant, in both phases of a turn: a legal action that
stops being listed fails here, not only an illegal one that starts to be. A deliberate change to what
is legal is recorded again with::

    KALOOKI_UPDATE_PERFT=1 pytest tests/test_legal.py
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import new_game, play

from kalooki.candidates import _Memo, _runs_of, _suit_runs, candidate_melds, near_meld_cards
from kalooki.cards import JOKER, Card, full_pack, make_card, parse_card, parse_cards
from kalooki.cardstate import CardState
from kalooki.engine import FixedDeal, Game
from kalooki.loader import builtin_variant_names, builtin_variant_path, load_variant
from kalooki.melds import make_meld, run_span_ok
from kalooki.moves import Discard, Draw, Meld
from kalooki.variant import Variant

PERFT = Path(__file__).parent / "golden" / "perft.json"
UPDATE = os.environ.get("KALOOKI_UPDATE_PERFT") == "1"
HOW_TO_RECORD = "KALOOKI_UPDATE_PERFT=1 pytest tests/test_legal.py"

WALK_ACTIONS = 60
"""Each walk takes this many actions, chosen at random (by seed): a meld, build or swap when there is one
(so the walk opens, builds and frees jokers), else a draw or a discard."""


def exhaustive_candidate_melds(hand: Sequence[Card], variant: Variant) -> list[tuple[Card, ...]]:
    """Every suit, low card, length and placement of the jokers tried, none skipped: a joker fills each
    missing card, and jokers left over stand for cards held."""
    counts = Counter(hand)
    jokers = counts[JOKER]
    found: list[tuple[Card, ...]] = []
    for rank in range(1, 14):
        suits = [suit for suit in range(4) if counts[make_card(rank, suit)]]
        if variant.set_suits == "may_repeat":
            suits = [suit for suit in suits for _ in range(counts[make_card(rank, suit)])]
        capacity = variant.set_maximum
        for size in range(1, min(len(suits), capacity) + 1):
            for chosen in dict.fromkeys(combinations(suits, size)):
                set_cards = tuple(make_card(rank, suit) for suit in chosen)
                for extra in range(max(0, 3 - size), min(jokers, capacity - size) + 1):
                    found.append(set_cards + (JOKER,) * extra)
    lows = range(1, 14) if variant.ace_in_runs == "wrap" else range(1, 13)
    for suit in range(4):
        for low in lows:
            for length in range(variant.run_minimum, 14):
                if not run_span_ok(low, length, variant):
                    continue
                group: list[Card] = []
                missing = 0
                for index in range(length):
                    rank = low + index
                    rank = rank if rank <= 14 else (rank - 1) % 13 + 1
                    card = make_card(1 if rank == 14 else rank, suit)
                    if counts[card]:
                        group.append(card)
                    else:
                        missing += 1
                        group.append(JOKER)
                if missing > jokers:
                    continue
                # Every placement of the jokers left over onto cards held: fewest first.
                held = [index for index, card in enumerate(group) if card != JOKER]
                for extra in range(min(jokers - missing, len(held)) + 1):
                    naturals = len(held) - extra
                    if naturals == 0 or (naturals == 1 and length <= variant.set_maximum):
                        break
                    for chosen in combinations(held, extra):
                        found.append(
                            tuple(JOKER if index in chosen else card for index, card in enumerate(group))
                        )
    return found


def _builtin(name: str) -> Variant:
    return load_variant(builtin_variant_path(name))


@st.composite
def variants_and_hands(draw: st.DrawFn) -> tuple[Variant, list[Card]]:
    """A variant with any run frame and set shape, and a hand drawn from its pack."""
    set_suits = draw(st.sampled_from(["distinct", "may_repeat"]))
    decks, jokers = draw(st.integers(1, 3)), draw(st.integers(0, 6))
    # A set of suits that may repeat holds at most every card of its rank and every joker.
    largest_set = 4 if set_suits == "distinct" else min(8, 4 * decks + jokers)
    variant = Variant(
        max_players=2,
        hand_size=10,
        decks=decks,
        jokers=jokers,
        ace_in_runs=draw(st.sampled_from(["high_or_low", "high", "low", "wrap"])),
        run_minimum=draw(st.integers(3, 6)),
        set_suits=set_suits,
        set_maximum=draw(st.integers(3, largest_set)),
    )
    pack = list(full_pack(variant.decks, variant.jokers).elements())
    hand = draw(st.lists(st.sampled_from(pack), min_size=0, max_size=21))
    counts = Counter(hand)
    # A hand holds no more copies of a card than the pack.
    return variant, [card for card in counts for _ in range(min(counts[card], pack.count(card)))]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(case=variants_and_hands())
def test_the_pruned_generator_lists_exactly_what_the_exhaustive_one_does(
    case: tuple[Variant, list[Card]],
) -> None:
    variant, hand = case
    assert candidate_melds(hand, variant) == exhaustive_candidate_melds(hand, variant)


@pytest.mark.parametrize("set_suits", ["distinct", "may_repeat"])
@pytest.mark.parametrize("ace_in_runs", ["high_or_low", "wrap"])
def test_near_meld_cards_are_the_cards_of_the_candidate_melds_with_two_naturals(
    set_suits: str, ace_in_runs: str
) -> None:
    rng = random.Random(set_suits + ace_in_runs)
    for decks, jokers, set_maximum in [
        (1, 0, 4),
        (2, 2, 4),
        (2, 4, 3),
        (3, 6, 4 if set_suits == "distinct" else 6),
    ]:
        variant = Variant(
            max_players=2,
            hand_size=10,
            decks=decks,
            jokers=jokers,
            ace_in_runs=ace_in_runs,
            set_suits=set_suits,
            set_maximum=set_maximum,
        )
        pack = list(full_pack(decks, jokers).elements())
        for _ in range(150):
            hand = rng.sample(pack, rng.randint(8, 21))
            expected = 0
            for group in candidate_melds(hand, variant):
                if len(group) - group.count(JOKER) >= 2:
                    for card in group:
                        expected |= 1 << card
            state = CardState.of(hand)
            assert near_meld_cards(state, variant) == expected, hand
            # One more joker, held or only counted, gives the same cards.
            assert near_meld_cards(state, variant, extra_jokers=1) == near_meld_cards(
                state.add(JOKER), variant
            )


@pytest.mark.parametrize("suit", range(4))
def test_a_set_of_one_suits_copies_is_a_candidate_where_suits_may_repeat(suit: int) -> None:
    variant = Variant(decks=3, set_suits="may_repeat", set_maximum=6)
    seven = make_card(7, suit)
    assert candidate_melds([seven] * 3, variant) == [(seven,) * 3]
    assert near_meld_cards(CardState.of([seven] * 2), variant, extra_jokers=1) == 1 << seven | 1 << JOKER


@pytest.mark.parametrize("suit", range(4))
def test_near_meld_cards_of_a_whole_suit(suit: int) -> None:
    # Every rank of one suit: the last entry of each suit's remembered list (all 13 ranks held).
    variant = Variant(ace_in_runs="wrap", jokers=2)
    hand = [make_card(rank, suit) for rank in range(1, 14)]
    assert near_meld_cards(CardState.of(hand), variant) == sum(1 << card for card in hand)
    assert (
        near_meld_cards(CardState.of(hand), variant, extra_jokers=1)
        == sum(1 << card for card in hand) | 1 << JOKER
    )


@pytest.mark.parametrize("ace_in_runs", ["high_or_low", "high", "low", "wrap"])
@pytest.mark.parametrize("run_minimum", [3, 4])
def test_a_suits_runs_are_the_clubs_runs_moved_to_that_suit(ace_in_runs: str, run_minimum: int) -> None:
    # candidate_melds reads a suit's runs from the clubs' of the same positions and jokers (moved by
    # the suit): each must be what the suit's own frames give.
    variant = Variant(decks=2, jokers=3, ace_in_runs=ace_in_runs, run_minimum=run_minimum)
    rng = random.Random(ace_in_runs + str(run_minimum))
    memo = _Memo(books=False)
    for mask in rng.sample(range(1 << 15), 300):
        positions = mask & 0x7FFE  # positions 1 to 14
        for jokers in range(4):
            for suit in (3, 1, 0, 2):
                key = suit | positions << 2 | jokers << 18
                assert _runs_of(memo, key, variant) == _suit_runs(suit, positions, jokers, variant)
    assert any(group for groups in memo.runs.values() for group in groups)


def test_a_joker_may_stand_for_a_card_the_hand_holds() -> None:
    # TH JH JK, the joker as QH (30), beside QH KH AH (31) opens at 61; with the joker as 9H it is 60.
    variant = Variant(opening_threshold=61)
    hand = parse_cards("TH JH QH KH AH JK 2C 7S 4D 9C 3S 8D 5C")
    assert tuple(parse_cards("TH JH JK")) in candidate_melds(hand, variant)
    game = Game(variant, ["P1", "P2"], seed=1, deal=FixedDeal(hands={0: hand}))
    game.apply(Draw("stock"))
    opening = Meld((tuple(parse_cards("TH JH JK")), tuple(parse_cards("QH KH AH"))))
    assert opening in game.legal_actions()
    game.apply(opening)
    assert game.opened[0]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(case=variants_and_hands())
def test_every_candidate_is_a_meld_the_rules_accept(case: tuple[Variant, list[Card]]) -> None:
    variant, hand = case
    for group in candidate_melds(hand, variant):
        make_meld(group, variant)


@pytest.mark.parametrize("name", builtin_variant_names())
def test_the_pruned_generator_agrees_on_seeded_hands_of_each_built_in_variant(name: str) -> None:
    variant = _builtin(name)
    pack = list(full_pack(variant.decks, variant.jokers).elements())
    rng = random.Random(name)
    for _ in range(150):
        size = rng.randint(variant.hand_size, variant.hand_size + 8)
        hand = rng.sample(pack, size)
        assert candidate_melds(hand, variant) == exhaustive_candidate_melds(hand, variant), hand


def _players(variant: Variant) -> list[str]:
    count = 2 if variant.min_players <= 2 else variant.min_players
    return [f"P{seat + 1}" for seat in range(count)]


RICH_HANDS = {
    "runs": "JK 7H 8H 9H TH JH QH KH 3S 4S 5S 6S 7S 9D TD JD",
    "sets": "JK KH KS KD KC QH QS QD JH JS JC 5H 6H 7H 9C 9D",
}
"""Dealt to the first seat (cut to the variant's hand size) in the fixed deals: hands that open in many
ways, then build and swap, so the counts reach the big positions as well as the plain ones."""

DEALS = [*(str(seed) for seed in range(4)), *RICH_HANDS]
"""The deals walked under each variant: seeded shuffles, and the fixed rich hands."""


def perft_walk(name: str, deal: str) -> list[list[object]]:
    """``[phase, len(legal_actions())]`` at each position of a walk over legal actions from ``deal``.

    The walk's choice is made among the actions sorted by their text, so it does not depend on
    the order the generator lists them in.
    """
    variant = _builtin(name)
    players = _players(variant)
    if deal in RICH_HANDS:
        seed = len(deal)
        hands = {0: parse_cards(RICH_HANDS[deal])[: variant.hand_size]}
        game = Game(variant, players, seed=seed, deal=FixedDeal(hands=hands))
    else:
        seed = int(deal)
        game = Game(variant, players, seed=seed)
    rng = random.Random(seed)
    counts: list[list[object]] = []
    for _ in range(WALK_ACTIONS):
        if game.phase == "hand_over":
            game.next_hand()
        if game.phase not in ("draw", "play"):
            break
        actions = game.legal_actions()
        counts.append([game.phase, len(actions)])
        if not actions:
            # Laid down to a last card that may be neither laid nor discarded (meld_required): take it back.
            game.undo_turn()
            continue
        layings = [action for action in actions if not isinstance(action, Draw | Discard)]
        game.apply(rng.choice(sorted(layings or actions, key=str)))
    return counts


def _perft_cases() -> list[tuple[str, str]]:
    return [(name, deal) for name in builtin_variant_names() for deal in DEALS]


_RECORDED: dict[str, list[list[object]]] = {}


@pytest.mark.parametrize(("name", "deal"), _perft_cases())
def test_perft_counts_of_fixed_deals(name: str, deal: str) -> None:
    key = f"{name}/{deal}"
    counts = perft_walk(name, deal)
    if UPDATE:
        _RECORDED[key] = counts
        recorded = json.loads(PERFT.read_text()) if PERFT.exists() else {}
        keys = {f"{case}/{number}" for case, number in _perft_cases()}
        kept = {case: value for case, value in {**recorded, **_RECORDED}.items() if case in keys}
        PERFT.write_text(
            "{\n"
            + ",\n".join(f"  {json.dumps(case)}: {json.dumps(kept[case])}" for case in sorted(kept))
            + "\n}\n"
        )
        return
    pinned = json.loads(PERFT.read_text()).get(key) if PERFT.exists() else None
    assert pinned is not None, f"no perft counts recorded for {key}: record them with {HOW_TO_RECORD}"
    assert counts == pinned, (
        f"the number of legal actions changed along the walk {key}. "
        f"If what is legal changed on purpose, record the counts again with {HOW_TO_RECORD}"
    )


def test_perft_walks_reach_both_phases_and_melds() -> None:
    """The walks are worth pinning: they see draws and plays, and positions with many actions."""
    if not PERFT.exists():
        pytest.skip(f"no perft counts yet: {HOW_TO_RECORD}")
    walks = json.loads(PERFT.read_text())
    phases = {phase for walk in walks.values() for phase, _ in walk}
    assert phases == {"draw", "play"}
    assert max(count for walk in walks.values() for _, count in walk) > 100


def test_check_changes_nothing_and_leaves_held_lists_alone_even_through_a_reshuffle() -> None:
    """check() tries the action between two restores of one snapshot: the state, the random generator
    (a draw that empties the stock reshuffles the discard pile) and the lists a caller holds."""
    game = Game(_builtin("classic"), ["Ann", "Bob"], seed=3)
    while len(game.stock) > 1 or len(game.discard_pile) < 3 or game.phase != "draw":
        game.apply(Draw("stock") if game.phase == "draw" else Discard(game.hands[game.current][0]))
        if game.phase not in ("draw", "play"):
            pytest.fail("the hand ended before the stock ran down")
    before = game.to_json()
    hand, table, pile = game.hands[game.current], game.table, game.discard_pile
    held = (list(hand), list(table), list(pile))
    for action in game.legal_actions():
        game.check(action)
        assert game.to_json() == before
    game.check(Draw("stock"))  # empties the stock: the trial reshuffles
    assert game.to_json() == before
    assert (hand, table, pile) == held
    game.apply(Draw("stock"))
    after_draw = game.to_json()
    for action in game.legal_actions():
        game.check(action)
        assert game.to_json() == after_draw


def _going_out(players: int, **knobs: object) -> Game:
    """Seat 0 on play with only 2S left after melding: discarding it goes out and ends the hand."""
    hands = ["7H 8H 9H TH", "KC QC 4D 5S", "KD QD 8D 9S"][:players]
    game = new_game({"hand_size": 4, "opening_threshold": 0, **knobs}, hands, stock="2S")
    play(game, "draw stock", "meld 7H 8H 9H TH")
    return game


@pytest.mark.parametrize(
    ("players", "knobs"),
    [(2, {"goal_score": 1}), (3, {"goal_score": 1, "elimination": True}), (2, {})],
    ids=["the game ends", "players are eliminated", "the hand ends"],
)
def test_check_puts_back_what_the_end_of_a_hand_changes(players: int, knobs: dict[str, object]) -> None:
    """Going out scores the hand, may end the game or eliminate players, and leaves nothing to take back:
    a trial of it puts all of that back, and the list of hands a caller holds keeps its very lists."""
    game = _going_out(players, **knobs)
    before = game.to_json()
    assert before["undo"] is not None
    hands = game.hands
    held = list(hands)
    game.check(Discard(parse_card("2S")))
    assert game.to_json() == before
    assert all(now is then for now, then in zip(hands, held, strict=True))
    game.apply(Discard(parse_card("2S")))
    after = game.to_json()
    assert after["results"]
    assert after["totals"] != before["totals"]
    assert after["undo"] is None
    if "goal_score" in knobs:
        assert game.phase == "game_over"
        assert after["winners"] == [0]
    if knobs.get("elimination"):
        assert after["eliminated"] == [False, True, True]


def _last_stock_card(stock_exhausted: str) -> Game:
    """Seat 0 to draw, with one card left in the stock and the rest in the discard pile."""
    game = Game(Variant(stock_exhausted=stock_exhausted), ["Ann", "Bob"], seed=4)
    game.discard_pile = game.stock[:-1] + game.discard_pile
    game.stock = game.stock[-1:]
    return game


def test_check_puts_back_a_stock_that_ran_out() -> None:
    game = _last_stock_card("end_hand")
    before = game.to_json()
    game.check(Draw("stock"))
    assert game.to_json() == before
    game.apply(Draw("stock"))
    assert game.stock_ran_out


def test_check_puts_back_the_reshuffle_a_replayed_log_forces() -> None:
    """A log's replay sets the stock its next reshuffle makes: a trial draw must not use it up."""
    game = _last_stock_card("reshuffle_all")
    forced = sorted(game.discard_pile)
    game.forced_reshuffles = [list(forced)]
    game.check(Draw("stock"))
    assert game.forced_reshuffles == [forced]
    game.apply(Draw("stock"))
    assert game.stock == forced
    assert game.forced_reshuffles == []
