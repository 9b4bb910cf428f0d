"""meld_at_once with four packs and eight jokers: the draw decision and the checks of a turn that owes.

Whether a player who has not opened may take the discard asks whether some opening keeps a card to
free a table joker with; whether a laying leaves what the turn owes payable asks whether some joker
swap leads on. Both were searches that ran for minutes on big hands. These pin their answers on such
hands, and on small ones against a brute force over every opening.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from rules_helpers import assert_illegal, new_game, play

from kalooki import legal
from kalooki.cards import format_cards, full_pack, parse_cards
from kalooki.engine import Game
from kalooki.loader import builtin_variant_path, load_variant
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Build, Meld, Swap
from kalooki.snapshot import trial
from kalooki.variant import Variant


def _variant(name: str, **knobs: Any) -> Variant:
    return load_variant(builtin_variant_path(name)).model_copy(update=knobs)


BIG = _variant(
    "classic",
    decks=4,
    jokers=8,
    hand_size=26,
    opening_threshold=200,
    discard_draw="meld_at_once",
    set_suits="may_repeat",
    set_maximum=8,
    set_joker_release="any_missing_suit",
)
BOB = "5H 6H JK 8H 9D JK JD QD KH KS KD KC AH AS AD AC QH QS QC TH TS TC 5S TS 8S 2C"
BOB_MELDS = "meld 5H 6H JK 8H, 9D JK JD QD, KH KS KD KC, AH AS AD AC, QH QS QC, TH TS TC"


@pytest.mark.parametrize(
    "ann",
    [
        "JK JK JK JK JK JH KC 8D 9C 8C 3D 9S 4C 2C 9C QH TC 6D 9D 2C 8S 3H 5S 2S TD AC",
        "JK JK JK JK JK JK KC 8D 9C 8C 3D 9S 4C 2C 9C QH TC 6D 9D 2C 8S 3H 5S 2S TD AC",
    ],
)
def test_a_discard_no_opening_keeping_a_swap_card_could_lay_is_refused(ann: str) -> None:
    # ann can open, and holds 7H to free bob's joker, but no opening of hers leaves 7H (the cards
    # that open are the ones that free it): 5S can be laid no way. With five jokers this took half a
    # minute to decide, with six longer than anyone waits.
    game = new_game(BIG, [ann, BOB], discard="2C", stock="6C 5D")
    play(game, "draw stock", "discard 6C", "draw stock", BOB_MELDS, "discard 5S")
    assert game.legal_actions() == [DRAW_STOCK]
    assert_illegal(
        game, "draw discard", "you may take 5S only to lay it this turn, and you could not: draw stock"
    )


# ---------------------------------------------------------------- small hands, every opening tried

ANN = "5H JK 7H KH JK KD QH QS JK"


def _small(seed: int) -> Game:
    """ann opens with three melds holding a joker each and discards; bob, who has not opened, draws."""
    rng = random.Random(seed)
    variant = _variant(
        "kalooki-40",
        discard_draw="meld_at_once",
        decks=2,
        jokers=4,
        opening_threshold=rng.choice([15, 30, 40, 51]),
        released_joker_must_be_melded=rng.random() < 0.5,
    )
    pool = list((full_pack(2, 4) - Counter(parse_cards(ANN))).elements())
    rng.shuffle(pool)
    size = variant.hand_size
    bob, rest = pool[:size], pool[size:]
    ann = [*parse_cards(ANN), *rest[: size - 10], rest[size - 9]]
    game = new_game(
        variant, [format_cards(ann), format_cards(bob)], discard=None, stock=format_cards(rest[-3:])
    )
    play(
        game,
        "draw stock",
        "meld 5H JK 7H, KH JK KD, QH QS JK",
        f"discard {format_cards(rest[size - 9 : size - 8])}",
    )
    return game


def _some_opening_accepted(game: Game) -> bool:
    """Having taken the discard, whether the engine accepts any opening at all: one accepted leaves the
    card payable (by melds and builds, or a swap that leads on), and before opening nothing else lays."""
    with trial(game):
        game._as_if_taken(game.discard_pile[-1])
        return any(isinstance(action, Meld) for action in game.iter_legal_actions())


SMALL_SEEDS = range(60)


def test_small_hands_may_take_the_discard_exactly_where_some_opening_leads_on() -> None:
    outcomes: Counter[tuple[bool, bool]] = Counter()
    for seed in SMALL_SEEDS:
        game = _small(seed)
        top = game.discard_pile[-1]
        allowed = DRAW_DISCARD in game.legal_actions()
        assert allowed == _some_opening_accepted(game), f"seed {seed}"
        # Whether melds alone lay it, or only a joker swap after an opening does.
        plain = game._can_lay((top,), game.table, hand=[*game.hands[game.current], top])
        outcomes[allowed, plain] += 1
    # Every case is met: refused, laid by melds, and laid only through a swap after opening.
    assert outcomes[False, False], outcomes
    assert outcomes[True, True], outcomes
    assert outcomes[True, False], outcomes


@pytest.mark.parametrize("seed", [31, 67])
def test_past_the_bound_the_solvers_opening_is_of_the_hand_less_the_swap_card(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With no step and no opening in the bound, each swap card's search gives the solver's opening of
    # the hand less the card taken and that one: the opening of the hand with it would lay the swap card.
    monkeypatch.setattr(legal, "MAX_OPENING_STEPS", 0)
    game = _small(seed)
    assert game.legal_actions() == [DRAW_STOCK, DRAW_DISCARD]


# ---------------------------------------------------------------- a turn owing a card and a freed joker

HAS_FREED = {
    "decks": 4,
    "jokers": 8,
    "hand_size": 26,
    "opening_threshold": 0,
    "discard_draw": "meld_at_once",
    "set_suits": "may_repeat",
    "set_maximum": 8,
    "set_joker_release": "any_missing_suit",
    "released_joker_must_be_melded": True,
    "name": "big",
}


def test_a_turn_owing_the_discard_and_a_freed_joker_lists_its_layings() -> None:
    # ann took 8H and freed a joker with 7H: she owes both. Building three jokers onto the table leaves
    # her none to meld the freed one, swap after swap; every other laying leaves both payable.
    game = new_game(
        HAS_FREED,
        [
            "JK JK JK JK 2D 7D 8D 8C 6D 2S 7S 4C 3H 2S 3C 4D 2H 9S 7D 2C QH 4D TS 7H 2C 5D",
            "5H 6H JK 8H 9D JK JD QD KH KS KD JK AH AS AD JK QH QS QC TH TS TC TC 8H AC 9D",
        ],
        discard="2C",
        stock="TC 5C 8D",
    )
    play(game, "ds", "d 5D", "ds", "m 5H 6H JK 8H, 9D JK JD QD, KH KS KD JK, AH AS AD JK, QH QS QC, TH TS TC")
    play(game, "d TC", "ds", "meld 2C JK JK", "discard 2C", "ds", "d 8H", "dd", "swap 1 7H")
    assert game.owed_cards() == tuple(parse_cards("8H JK"))
    kinds = Counter(type(action) for action in game.legal_actions())
    assert kinds == {Meld: 352, Build: 89, Swap: 6}
    assert_illegal(
        game,
        "build 1 JK JK JK high",
        "a freed joker must go into a new meld this turn, not onto a meld on the table",
    )
    play(game, "meld 8C 8D 8H JK")
    assert game.owed_cards() == ()


def test_a_draw_the_engine_takes_on_opening_then_swapping_leaves_a_game_that_saves_and_resumes() -> None:
    # bob takes ann's KS to lay it by opening, then freeing her joker with 8H: the draw was taken, and the
    # autosave's check refused the game it left ('the turn owes what its hand can no longer lay'), asking
    # only for a swap at once, which bob, not yet opened, could not make.
    knobs = {
        "discard_draw": "meld_at_once",
        "opening_threshold": 15,
        "released_joker_must_be_melded": True,
        "hand_size": 7,
    }
    game = new_game(knobs, ["QH QS QC 6H 7H JK 5D", "KH 8H 4C 5C 6C 9S 2D"], discard="3D", stock="KS TC 4D")
    play(game, "draw stock", "meld QH QS QC, 6H 7H JK", "discard KS", "draw discard")
    resumed = Game.from_json(game.to_json())
    play(resumed, "meld 4C 5C 6C", "swap 2 8H", "meld KH KS JK", "discard 9S")
    assert (resumed.hands[1], resumed.turn_number) == (parse_cards("2D"), 3)
