"""The engine's card states: always what the hands' lists say, over random play, undo and refusals.

Each hand's :class:`~kalooki.cardstate.CardState` is kept current by the engine on every change, never
rebuilt from the list; these tests recompute it from the lists after every step and compare every
field, and check the value itself against its definition.
"""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_engine_properties import illegal_actions, tables

from kalooki.bots import GreedyBot
from kalooki.cards import JOKER, CardError
from kalooki.cardstate import EMPTY, KEY_BITS, CardState, ReadOnlyCardState, by_bytes, codes_of
from kalooki.driver import ask_bot
from kalooki.engine import Game, IllegalMoveError, candidate_melds
from kalooki.moves import Action, Build, Discard, Meld
from kalooki.variant import Variant

MAX_ACTIONS = 150

codes = st.integers(0, JOKER)


def fields(state: CardState) -> tuple[int, int, int, int, int]:
    return state.key, state.held, state.runs, state.suits, state.size


def assert_current(game: Game) -> None:
    assert len(game.hand_states) == len(game.hands)
    for seat, hand in enumerate(game.hands):
        assert fields(game.hand_states[seat]) == fields(CardState.of(hand)), f"seat {seat}: {hand}"
    if game.phase in ("draw", "play"):
        # The view's is a read-only copy, never the engine's own: a bot cannot change the hand through it.
        seen = game.view(game.current).hand_state
        assert type(seen) is ReadOnlyCardState
        assert fields(seen) == fields(game.hand_states[game.current])


@given(st.lists(codes, max_size=30))
def test_a_state_is_its_cards_counts_and_masks(cards: list[int]) -> None:
    state = CardState.of(cards)
    assert len(state) == len(cards)
    assert list(state) == sorted(cards)
    assert state.counts() == [cards.count(code) for code in range(JOKER + 1)]
    assert state.jokers == cards.count(JOKER)
    assert state.distinct() == sorted(set(cards))
    assert state.held == sum(1 << code for code in set(cards))
    for suit in range(4):
        positions = {index + 1 for index in range(13) if suit * 13 + index in cards}
        if 1 in positions:
            positions.add(14)
        assert state.run_mask(suit) == sum(1 << position for position in positions)
    for index in range(13):
        assert state.suit_mask(index) == sum(1 << suit for suit in range(4) if suit * 13 + index in cards)
    assert state.key == sum(cards.count(code) << (code * KEY_BITS) for code in range(JOKER + 1))


def test_a_state_is_made_from_any_iterable_and_refuses_a_negative_code() -> None:
    cards = [0, 12, 13, 40, JOKER, JOKER]
    assert fields(CardState.of(iter(cards))) == fields(CardState.of(cards))
    assert fields(CardState.of(card for card in cards)) == fields(CardState.of(tuple(cards)))
    # A negative code would read the tables from their end (-1 as the joker).
    with pytest.raises(
        CardError, match=r"^-1 is not a card code \(0-51 for standard cards, 52 for a joker\)$"
    ):
        CardState.of([5, -1])


@pytest.mark.parametrize(
    ("cards", "shown"),
    [
        ([5, 99], "99"),
        (["7H"], "'7H'"),
        ([1, 1.5], "1.5"),
        (["7H", 1], "'7H'"),
        # The first code that is no card is named: the ace of clubs (0) and a joker (52) before it are cards.
        ([0, JOKER, 53], "53"),
    ],
)
def test_a_state_of_what_is_no_card_code_names_it(cards: list[object], shown: str) -> None:
    # 99 was a bare IndexError, '7H' and 1.5 a TypeError; candidate_melds, which reads a hand so, alike.
    with pytest.raises(CardError) as caught:
        CardState.of(cards)  # type: ignore[arg-type]
    assert str(caught.value) == f"{shown} is not a card code (0-51 for standard cards, 52 for a joker)"
    with pytest.raises(CardError):
        candidate_melds(cards, Variant())  # type: ignore[arg-type]


def test_what_is_not_a_card_code_is_not_held_and_no_other_value_equals_a_state() -> None:
    state = CardState.of(range(JOKER + 1))
    assert all(code in state for code in range(JOKER + 1))
    for other in (-1, JOKER + 1, 64, "5", 5.0, None):
        assert other not in state
        assert state != other
    assert state != list(range(JOKER + 1))


def test_the_empty_state_and_a_state_from_its_fields() -> None:
    assert fields(EMPTY) == fields(CardState()) == fields(CardState.of([])) == (0, 0, 0, 0, 0)
    state = CardState.of([JOKER, 0, 0, 25, 51])
    assert fields(CardState(*fields(state))) == fields(state)
    assert repr(state) == "CardState.of([0, 0, 25, 51, 52])"


@example((1 << 56) - 1, 8)  # every byte full: the last entry of each byte's table
@given(st.integers(0, (1 << 56) - 1), st.integers(1, 8))
def test_a_mask_read_a_byte_at_a_time_is_its_bytes_items_in_order(mask: int, size: int) -> None:
    # by_bytes writes out the seven bytes of a mask of card codes: held to the loop over every byte.
    tables = tuple(
        tuple(tuple((place, bit) for bit in range(8) if byte >> bit & 1) for byte in range(256))
        for place in range(size)
    )
    mask &= (1 << 8 * size) - 1
    expected = [(place, bit) for place in range(size) for bit in range(8) if mask >> (8 * place + bit) & 1]
    assert by_bytes(mask, tables) == expected
    codes = mask & ((1 << (JOKER + 1)) - 1)
    assert codes_of(codes) == [code for code in range(JOKER + 1) if codes >> code & 1]


@given(st.lists(codes, max_size=20), st.lists(codes, max_size=20), st.randoms(use_true_random=False))
def test_adding_and_removing_cards_matches_a_state_built_from_the_list(
    start: list[int], more: list[int], rng: random.Random
) -> None:
    state = CardState.of(start).add_all(more)
    cards = start + more
    assert fields(state) == fields(CardState.of(cards))
    assert state == CardState.of(list(reversed(cards)))
    assert hash(state) == hash(CardState.of(sorted(cards)))
    rng.shuffle(cards)
    for card in cards[: len(cards) // 2]:
        state = state.remove(card)
        assert card in CardState.of(cards)
        assert state.count(card) == cards.count(card) - 1
        cards.remove(card)
        assert fields(state) == fields(CardState.of(cards))
    absent = [code for code in range(JOKER + 1) if code not in cards]
    if absent:
        assert absent[0] not in state
        try:
            state.remove(absent[0])
        except ValueError:
            pass
        else:  # pragma: no cover - a failure message
            raise AssertionError(f"{absent[0]} removed from {state!r}")


def _copies(counts: dict[int, int]) -> list[int]:
    return [code for code, count in counts.items() for _ in range(count)]


counted_hands = st.one_of(
    # Up to 8 copies of a code (four packs of jokers), and every count even (its low bit clear).
    st.dictionaries(codes, st.integers(1, 8), max_size=12).map(_copies),
    st.dictionaries(codes, st.sampled_from([2, 4, 6, 8]), max_size=12).map(_copies),
)


@example([5, 5], [])
@example([JOKER] * 8, [JOKER] * 7)
@example([0, 0, 0], [0])
@given(counted_hands, counted_hands)
def test_excess_is_the_codes_held_more_often_here_than_there(here: list[int], there: list[int]) -> None:
    expected = sum(1 << code for code in set(here) if here.count(code) > there.count(code))
    assert CardState.of(here).excess(CardState.of(there)) == expected


def removed_one_by_one(state: CardState, cards: list[int]) -> CardState | None:
    """``state`` less ``cards`` through :meth:`CardState.remove`, or None where it refuses one."""
    try:
        for card in cards:
            state = state.remove(card)
    except ValueError:
        return None
    return state


@given(st.lists(codes, max_size=20), st.lists(codes, max_size=8), st.randoms(use_true_random=False))
def test_removing_several_cards_at_once_is_removing_them_one_by_one(
    start: list[int], extra: list[int], rng: random.Random
) -> None:
    state = CardState.of(start)
    taken = rng.sample(start, rng.randint(0, len(start))) + extra
    one_by_one = removed_one_by_one(state, taken)
    try:
        at_once: CardState | None = state.remove_all(taken)
    except ValueError:
        at_once = None
    if one_by_one is None:
        assert at_once is None, f"{taken} removed from {state!r}"
    else:
        assert at_once is not None
        assert fields(at_once) == fields(one_by_one)
        rest = list(start)
        for card in taken:
            rest.remove(card)
        assert fields(at_once) == fields(CardState.of(rest))


def refused_layings(game: Game, rng: random.Random) -> list[Action]:
    """Meld and build attempts straight from the hand's candidates, many of which the rules refuse."""
    hand = game.hands[game.current]
    groups = candidate_melds(hand, game.variant)
    attempts: list[Action] = [Meld((group,)) for group in rng.sample(groups, min(3, len(groups)))]
    if game.table and hand:
        attempts.append(Build(rng.randint(1, len(game.table)), (rng.choice(hand),)))
    return attempts


def play(variant: Variant, players: list[str], seed: int, choices: int) -> None:
    rng = random.Random(choices)
    bot = GreedyBot(random.Random(choices + 1))
    game = Game(variant, players, seed=seed)
    assert_current(game)
    for _ in range(MAX_ACTIONS):
        if game.phase == "game_over":
            break
        if game.phase == "hand_over":
            game.next_hand()
            assert_current(game)
            continue
        for action, seat in illegal_actions(game, rng):
            with contextlib.suppress(IllegalMoveError):
                game.apply(action, seat)
            assert_current(game)
        if game.phase == "play":
            for action in refused_layings(game, rng):
                game_json = game.to_json()
                try:
                    game.check(action)
                except IllegalMoveError:
                    assert game.to_json() == game_json
                assert_current(game)
        if game.phase == "play" and game.can_undo() and rng.random() < 0.2:
            game.undo_turn()
            assert_current(game)
            continue
        if rng.random() < 0.1:
            game = Game.from_json(json.loads(json.dumps(game.to_json())))
            assert_current(game)
        actions = game.legal_actions()
        if not actions:
            game.undo_turn()
            assert_current(game)
            continue
        choice = ask_bot(bot, game) if rng.random() < 0.5 else rng.choice(actions)
        lays = [action for action in actions if not isinstance(action, Discard)]
        if lays and rng.random() < 0.6:
            choice = rng.choice(lays)
        try:
            game.apply(choice)
        except IllegalMoveError:
            game.apply(rng.choice(actions))
        assert_current(game)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(tables(), st.integers(0, 2**16), st.integers(0, 2**16))
def test_the_engine_keeps_every_hands_state_current(
    table: tuple[Variant, list[str]], seed: int, choices: int
) -> None:
    variant, players = table
    play(variant, players, seed, choices)
