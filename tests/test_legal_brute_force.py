"""The legal actions against brute force: every action ``apply`` accepts is listed, and nothing else.

At each position of seeded walks through small games, every action of a wide net is tried on a copy
of the game: both draws, a discard of every card code, each new meld alone and (before opening) every
combination of disjoint melds, every arrangement of up to four cards that could join each table meld
at either end, every swap of one or two cards. What the copies end up as must be exactly what the
listed actions lead to, and every listed action must be accepted. The net's melds come from
:func:`test_legal.exhaustive_candidate_melds`, held to the engine's own list there.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, permutations
from typing import Any

import pytest
from test_legal import exhaustive_candidate_melds

from kalooki.cards import JOKER, Card, make_card, rank_of, suit_of
from kalooki.engine import FixedDeal, Game, IllegalMoveError
from kalooki.legal import MAX_LISTED_LAYINGS
from kalooki.loader import builtin_variant_path, load_variant
from kalooki.melds import MeldKind
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Action, Build, Discard, Draw, Meld, Swap, meld_of
from kalooki.variant import Variant

BUILD_CARDS = 4
"""The most cards the net tries to add to one table meld in one build."""

WALK_ACTIONS = 24

KNOBS: dict[str, dict[str, Any]] = {
    "classic": {},
    "low-threshold": {"opening_threshold": 15},
    "books": {"set_suits": "may_repeat", "set_maximum": 5, "decks": 3, "opening_threshold": 20},
    "wrap": {"ace_in_runs": "wrap", "opening_threshold": 25},
    "meld-at-once": {"discard_draw": "meld_at_once", "opening_threshold": 20},
    "discard-optional": {"going_out": "discard_optional", "opening_threshold": 20},
    "meld-required": {"going_out": "meld_required", "opening_threshold": 20},
    "meld-required-at-once": {
        "going_out": "meld_required",
        "discard_draw": "meld_at_once",
        "opening_threshold": 0,
    },
    "free-jokers": {
        "joker_release_requires_opening": False,
        "set_joker_release": "any_missing_suit",
        "released_joker_must_be_melded": True,
    },
}


def _variant(name: str) -> Variant:
    classic = load_variant(builtin_variant_path("classic"))
    return classic.model_copy(update={"hand_size": 9, **KNOBS[name]})


def _outcome(game: Game) -> tuple[object, ...]:
    """What a game is after an action, in a form that ignores the order of equal things: the cards of
    a set in any order are the same set, and melds laid together in any order the same table."""
    state = game.to_json()
    table = sorted(
        (meld.kind, tuple(sorted(meld.cards)) if meld.kind == "set" else meld.cards, meld.owner)
        for meld in game.table
    )
    turn = {key: value for key, value in state["turn"].items() if key != "laid"}
    return (
        state["phase"],
        state["current"],
        tuple(tuple(sorted(hand)) for hand in state["hands"]),
        tuple(table),
        tuple(state["opened"]),
        tuple(state["discard_pile"]),
        len(state["stock"]),
        tuple(sorted(turn.items())),
    )


def _tried(game: Game, action: Action) -> tuple[object, ...] | None:
    """The outcome of ``action`` on a copy of ``game``, or None when the engine refuses it."""
    trial = Game.from_json(game.to_json())
    try:
        trial.apply(action)
    except IllegalMoveError:
        return None
    return _outcome(trial)


def _meld_combinations(groups: list[Group], hand: Counter[Card]) -> Iterator[Meld]:
    """Every non-empty combination of ``groups`` that the hand's cards can lay together (a meld twice
    where the hand holds its cards twice)."""

    def extend(start: int, chosen: list[Group]) -> Iterator[Meld]:
        if chosen:
            yield meld_of(tuple(cards for cards, _ in chosen), tuple(kind for _, kind in chosen))
        for index in range(start, len(groups)):
            need = Counter(groups[index][0])
            if all(hand[card] >= count for card, count in need.items()):
                hand.subtract(need)
                chosen.append(groups[index])
                yield from extend(index, chosen)
                chosen.pop()
                hand.update(need)

    yield from extend(0, [])


Group = tuple[tuple[Card, ...], MeldKind | None]
"""A group of the net's melds, and how the move says to read it."""


def _lone_runs(hand: list[Card], variant: Variant) -> list[Group]:
    """Every natural of the hand with jokers around it, each length up to a set's most cards, said to be a
    run (``JK 6H JK run``): what reads as a set without the word."""
    jokers = hand.count(JOKER)
    found: list[Group] = []
    for card in sorted(set(hand) - {JOKER}):
        for length in range(3, min(variant.set_maximum, jokers + 1) + 1):
            for place in range(length):
                found.append(((JOKER,) * place + (card,) + (JOKER,) * (length - place - 1), "run"))
    return found


def _arrangements(cards: list[Card], most: int) -> Iterator[tuple[Card, ...]]:
    """Every ordered choice of 1 to ``most`` of ``cards`` (copies counted once)."""
    for size in range(1, min(most, len(cards)) + 1):
        for chosen in dict.fromkeys(combinations(sorted(cards), size)):
            yield from dict.fromkeys(permutations(chosen))


def net(game: Game) -> Iterator[Action]:
    """The actions tried: a superset of the legal ones in the positions the walks reach."""
    if game.phase not in ("draw", "play"):
        yield from (DRAW_STOCK, *(Discard(card) for card in set(game.hands[game.current])))
        return
    if game.phase == "draw":
        yield from (DRAW_STOCK, DRAW_DISCARD)
        return
    hand = game.hands[game.current]
    yield from (Discard(card) for card in range(JOKER + 1))
    groups: list[Group] = [
        (group, None) for group in dict.fromkeys(exhaustive_candidate_melds(hand, game.variant))
    ]
    groups += _lone_runs(hand, game.variant)
    if game.opened[game.current]:
        yield from (meld_of((group,), (kind,)) for group, kind in groups)
    else:
        yield from _meld_combinations(groups, Counter(hand))
    for number, meld in enumerate(game.table, start=1):
        naturals = [card for card in meld.cards if card != JOKER]
        if meld.kind == "set":
            fits = [card for card in hand if card != JOKER and rank_of(card) == meld.rank]
        else:
            fits = [card for card in hand if card != JOKER and suit_of(card) == suit_of(naturals[0])]
        for cards in _arrangements(fits + [card for card in hand if card == JOKER], BUILD_CARDS):
            for end in (None, "low", "high"):
                yield Build(number, cards, end)
        if JOKER in meld.cards:
            yield from (Swap(number, cards) for cards in _arrangements(fits, 2))


def assert_listed_exactly(game: Game) -> None:
    listed = game.legal_actions()
    # Below the cap, the lazy listing is the same list.
    assert list(game.iter_legal_actions()) == listed
    assert sum(not isinstance(action, Draw | Discard) for action in listed) < MAX_LISTED_LAYINGS
    listed_outcomes = {}
    for action in listed:
        outcome = _tried(game, action)
        assert outcome is not None, f"{action} is listed but refused, in {game.to_json()}"
        listed_outcomes[outcome] = action
    for action in net(game):
        outcome = _tried(game, action)
        assert outcome is None or outcome in listed_outcomes, (
            f"{action} is accepted but nothing listed does the same, in {game.to_json()}"
        )


def _dense_hand(rng: random.Random, variant: Variant, jokers: int) -> list[Card]:
    """A hand of a few ranks of a few suits: melds that overlap, open and build."""
    ranks = rng.sample(range(1, 14), 4)
    suits = rng.sample(range(4), 3)
    pool = [make_card(rank, suit) for rank in ranks for suit in suits]
    return rng.sample(pool, variant.hand_size - jokers) + [JOKER] * jokers


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("knobs", list(KNOBS))
def test_the_legal_actions_are_exactly_what_apply_accepts(knobs: str, seed: int) -> None:
    variant = _variant(knobs)
    rng = random.Random(f"{knobs}/{seed}")
    # The first seat holds both jokers, or one, or none.
    hands = {0: _dense_hand(rng, variant, seed % 3), 1: _dense_hand(rng, variant, 0)}
    game = Game(variant, ["P1", "P2"], seed=seed, deal=FixedDeal(hands=hands))
    for _ in range(WALK_ACTIONS):
        assert_listed_exactly(game)
        if game.phase not in ("draw", "play"):
            # The hand is over: nothing is legal until the next deal.
            assert game.legal_actions() == []
            break
        actions = game.legal_actions()
        if not actions:
            # Laid down to one card nothing takes, where it may not be discarded (meld_required): the
            # turn is taken back, and then a discard is legal.
            assert game.variant.going_out == "meld_required"
            assert game.can_undo()
            game.undo_turn()
            assert any(isinstance(action, Discard) for action in game.legal_actions())
            continue
        layings = [action for action in actions if not isinstance(action, Draw | Discard)]
        game.apply(rng.choice(layings if layings and rng.random() < 0.7 else actions))
