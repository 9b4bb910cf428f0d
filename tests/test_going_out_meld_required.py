"""going_out: meld_required, where the last card must be melded or built and never discarded.

The Czech "500" text (``czech-500``) goes out by laying every card in melds. A discard that would
empty the hand is refused; a turn laid down to one card it cannot lay has no discard and must be
taken back. The solver and the bots never plan such a turn.
"""

from __future__ import annotations

import random

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play

from kalooki import rules, solver
from kalooki.bots import make_bot
from kalooki.cards import parse_card, parse_cards
from kalooki.driver import BotFaultWarning, play_game, play_turn
from kalooki.engine import FixedDeal, Game
from kalooki.loader import resolve_variant
from kalooki.moves import Build, Discard, Draw, Meld
from kalooki.variant import Variant
from kalooki.view import LegalView

KNOBS = {"hand_size": 4, "opening_threshold": 0, "going_out": "meld_required", "kalooki_bonus": 0}
LAST = (
    "you cannot discard your last card: in this variant you go out by melding it; "
    "lay it or take back with undo"
)


def down_to_one() -> Game:
    """ann opened with 6H 7H 8H and discarded down to 2S; she has drawn 9H and built it onto her run."""
    game = new_game(KNOBS, ["6H 7H 8H 2S", "2C 5D 9S KD"], stock="KS QD 9H")
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS", "draw stock", "discard QD", "draw stock")
    assert hand_text(game, 0) == ["2S", "9H"]
    play(game, "build 1 9H")
    return game


def test_the_last_card_may_not_be_discarded() -> None:
    game = down_to_one()
    assert hand_text(game, 0) == ["2S"]
    assert_illegal(game, "discard 2S", LAST)
    # 2S joins nothing: no discard, no laying; only taking the turn back is left.
    assert game.legal_actions() == []
    assert list(LegalView(game.view(0))) == []
    assert Discard(parse_card("2S")) not in LegalView(game.view(0))
    assert game.can_undo()
    game.undo_turn()
    assert hand_text(game, 0) == ["2S", "9H"]
    assert Discard(parse_card("2S")) in game.legal_actions()
    play(game, "discard 2S")
    assert hand_text(game, 0) == ["9H"]
    assert game.current == 1


def test_the_same_discard_goes_out_where_the_last_card_may_be_discarded() -> None:
    game = new_game(
        {**KNOBS, "going_out": "discard_optional"}, ["6H 7H 8H 2S", "2C 5D 9S KD"], stock="KS QD 9H"
    )
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS", "draw stock", "discard QD", "draw stock")
    play(game, "build 1 9H", "discard 2S")
    assert (game.phase, game.results[-1].winner) == ("hand_over", 0)


def test_going_out_by_a_meld() -> None:
    game = new_game(KNOBS, ["7H 8H 9H TH", "2C 5D 9S KD"], stock="JH KS")
    play(game, "draw stock")
    play(game, "meld 7H 8H 9H TH")
    assert hand_text(game, 0) == ["JH"]
    assert_illegal(game, "discard JH", LAST)
    assert game.legal_actions() == [Build(1, (parse_card("JH"),), "high")]
    events = play(game, "build 1 JH")
    assert events[-1]["type"] == "hand_end"
    assert game.discard_pile == [parse_card("2D")]
    assert (game.phase, game.results[-1].winner, game.results[-1].hand_points) == ("hand_over", 0, (0, 26))


def test_going_out_by_a_build() -> None:
    game = new_game(KNOBS, ["6H 7H 8H 9H", "2C 5D 9S KD"], stock="KS QD TH")
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS", "draw stock", "discard QD", "draw stock")
    assert hand_text(game, 0) == ["9H", "TH"]
    play(game, "build 1 9H TH")
    assert (game.phase, game.results[-1].winner) == ("hand_over", 0)


def test_a_turn_laid_down_to_one_card_cannot_take_a_discard_it_must_lay() -> None:
    # meld_at_once: bob's 9H would lay only by leaving ann one card, 2S, that nothing takes.
    knobs = {**KNOBS, "discard_draw": "meld_at_once"}
    game = new_game(knobs, ["6H 7H 8H 2S", "2C 5D 9S 9H"], stock="KS QD")
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS", "draw stock", "discard 9H")
    assert hand_text(game, 0) == ["2S"]
    assert game.legal_actions() == [Draw("stock")]
    # Where the last card may be discarded, the same 9H may be taken.
    game = new_game({**knobs, "going_out": "discard_optional"}, ["6H 7H 8H 2S", "2C 5D 9S 9H"], stock="KS QD")
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS", "draw stock", "discard 9H")
    assert Draw("discard") in game.legal_actions()


def test_the_driver_takes_back_a_turn_laid_into_the_dead_end() -> None:
    class BuildsThenDiscards:
        """Builds 9H, then tries to discard its last card."""

        def choose(self, view: object, legal: LegalView) -> object:
            game_view = legal.view
            if game_view.phase == "draw":
                return Draw("stock")
            if parse_card("9H") in game_view.hand:
                return Build(1, (parse_card("9H"),), "high")
            return Discard(game_view.hand[0])

    game = new_game(KNOBS, ["6H 7H 8H 2S", "2C 5D 9S KD"], stock="KS QD 9H")
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS", "draw stock", "discard QD")
    with pytest.warns(BotFaultWarning, match="you cannot discard your last card"):  # a plug-in's fault
        events = play_turn(game, BuildsThenDiscards())  # type: ignore[arg-type]
    assert [event["type"] for event in events] == ["draw", "discard"]
    assert events[-1]["card"] == "9H"  # the build taken back; the costliest card goes
    assert hand_text(game, 0) == ["2S"]


def test_no_plan_leaves_the_one_card_nobody_may_discard() -> None:
    variant = Variant(**KNOBS)
    optional = Variant(**{**KNOBS, "going_out": "discard_optional"})
    hand = parse_cards("7H 8H 9H 2S")
    assert solver.solve(hand, optional).remaining == (parse_card("2S"),)
    # Keeping all four beats leaving 2S, which nobody may discard.
    assert solver.solve(hand, variant).remaining == tuple(sorted(hand))
    assert solver.best_opening(hand, optional) is not None
    assert solver.best_opening(hand, variant) is None
    # Laying all is kept, and a hand that can leave two does.
    assert solver.solve(parse_cards("7H 8H 9H TH"), variant).remaining == ()
    assert len(solver.solve(parse_cards("7H 8H 9H 2S 3C"), variant).remaining) == 2
    with pytest.raises(solver.Unsolvable):
        solver.solve(hand, variant, must_include=parse_cards("7H"))
    assert rules.keep(variant) == 0
    assert [rules.may_leave(variant, cards) for cards in range(4)] == [True, False, True, True]
    assert [rules.may_leave(optional, cards) for cards in range(4)] == [True, True, True, True]
    required = Variant(going_out="discard_required")
    assert [rules.may_leave(required, cards) for cards in range(4)] == [False, True, True, True]


@pytest.mark.parametrize("bots", ["greedy", "expert", "random"])
def test_bots_do_not_lay_down_to_the_dead_end(bots: str) -> None:
    # 7H 8H 9H TH would leave 2S, which nothing takes; 7H 8H 9H leaves TH 2S, and TH builds next turn.
    game = new_game(KNOBS, ["7H 8H 9H TH", "2C 5D 9S KD"], stock="2S")
    play(game, "draw stock")
    melds = set()
    for seed in range(8):
        bot = make_bot(bots, random.Random(seed))
        action = bot.choose(game.view(0), LegalView(game.view(0)))
        assert isinstance(action, Meld | Discard)
        if isinstance(action, Meld):
            melds.add(action)
    assert Meld((tuple(parse_cards("7H 8H 9H TH")),)) not in melds
    assert melds <= {Meld((tuple(parse_cards("7H 8H 9H")),)), Meld((tuple(parse_cards("8H 9H TH")),))}
    assert melds


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("czech-500", 1), ("czech-500", 2), ("classic", 1), ("kalooki-40", 1)],
)
@pytest.mark.parametrize("bots", [("random", "greedy"), ("expert", "greedy", "random")])
def test_bots_finish_games_where_the_last_card_must_be_melded(
    variant: str, seed: int, bots: tuple[str, ...]
) -> None:
    rules_ = resolve_variant(variant).variant.model_copy(update={"going_out": "meld_required"})
    game = Game(rules_, [f"P{seat}" for seat in range(len(bots))], seed=seed, turn_limit=1000)
    players = [make_bot(name, random.Random(seed * 10 + seat)) for seat, name in enumerate(bots)]
    play_game(game, players)
    assert game.game_over
    assert all(result.end == "went_out" or result.end == "stock_exhausted" for result in game.results)
    # Every hand that went out ended on a meld or build: the last card was never discarded.
    assert any(result.end == "went_out" for result in game.results)


def test_at_the_terminal_the_last_card_is_refused_and_the_way_on_said() -> None:
    from test_interactive import error_lines, flowing, run

    deal = FixedDeal(
        hands={0: parse_cards("6H 7H 8H 2S")}, discard=parse_card("3C"), stock_top=parse_cards("9H")
    )
    game = Game(Variant(**KNOBS), ["you", "bob"], seed=42, deal=deal)
    code, transcript, _ = run(game, ["ds", "m 6H 7H 8H 9H", "d 2S", "undo", "d 2S"])
    assert code == 0
    assert error_lines(transcript) == [f"✗ {LAST}"]
    said = f"{LAST[0].upper()}{LAST[1:]}."
    assert flowing(transcript).count(said) == 1  # on the screen laid down to 2S, not after the undo
    assert "You discard 2♠." in transcript
    assert "You could lay: 7♥ 8♥ 9♥ = 24 points" in transcript  # not the run of four that leaves 2S
    assert (sorted(game.hands[0]), game.current, game.phase) == (parse_cards("6H 7H 8H 9H"), 0, "draw")


def test_a_turn_that_owes_a_card_may_not_lay_down_to_the_dead_end() -> None:
    # Taking back a turn keeps the discard it took under meld_at_once: its dead end is refused instead.
    knobs = {**KNOBS, "hand_size": 5, "discard_draw": "meld_at_once"}
    game = new_game(knobs, ["6H 7H 8H TH 2S", "2C 5D 9S 9H KD"], stock="KS QD")
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS", "draw stock", "discard 9H", "draw discard")
    assert hand_text(game, 0) == ["2S", "9H", "TH"]
    assert_illegal(
        game,
        "build 1 9H TH",
        "that would leave you 2S, which you could neither lay nor discard: "
        "in this variant you go out by melding your last card",
    )
    high = parse_cards("9H TH")
    assert Build(1, (high[0],), "high") in game.legal_actions()
    assert Build(1, tuple(high), "high") not in game.legal_actions()
    assert Build(1, tuple(high), "high") not in list(LegalView(game.view(0)).layings())
    play(game, "build 1 9H")
    # The 9H is laid and nothing is owed now, yet taking back would owe it again: TH alone is refused too.
    assert game.owed_cards() == ()
    assert_illegal(
        game,
        "build 1 TH",
        "that would leave you 2S, which you could neither lay nor discard: "
        "in this variant you go out by melding your last card",
    )
    assert Build(1, (high[1],), "high") not in game.legal_actions()
    assert Build(1, (high[1],), "high") not in list(LegalView(game.view(0)).layings())
    play(game, "discard 2S")
    assert hand_text(game, 0) == ["TH"]


@pytest.mark.parametrize(
    ("going_out", "took_discard", "jokers_owed", "guarded"),
    [
        ("meld_required", False, 0, False),  # owing nothing: taken back to its draw, a discard is legal
        ("meld_required", True, 0, True),
        ("meld_required", False, 1, True),  # one freed joker owed is enough
        ("meld_required", False, 2, True),
        ("discard_optional", True, 1, False),  # the last card may be discarded: no dead end to guard
        ("discard_required", True, 1, False),
    ],
)
def test_which_turns_guard_the_last_card(
    going_out: str, took_discard: bool, jokers_owed: int, guarded: bool
) -> None:
    variant = Variant.model_validate({**KNOBS, "going_out": going_out})
    assert rules.guards_last_card(variant, took_discard, jokers_owed) is guarded
