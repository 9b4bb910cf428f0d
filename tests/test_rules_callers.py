"""Rules that several parts of the code need, each decided once in kalooki.rules: every caller's verdict.

Taking the discard (discard_draw, meld_at_once) is asked by the engine's draw, its legal actions and a
bot's LegalView; what a seat sees of a drawn card by the engine's views and the network host's seat
views and events; whether the discard pile comes back as a stock (stock_exhausted) by the engine and
the bots' count of cards gone for the hand. Each scenario below is played on a real game, and every
caller must give the one expected verdict.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from kalooki_net.view import WATCHER, seat_events, seat_view
from rules_helpers import new_game, play

from kalooki import rules
from kalooki.bots import endgame
from kalooki.cards import format_card, parse_card, parse_cards
from kalooki.engine import Game, IllegalMoveError, SetupError
from kalooki.events import DrawEvent, ReshuffleEvent, StockOutEvent
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Draw
from kalooki.rulebook import render_rulebook
from kalooki.script import ScriptError, load_script_text
from kalooki.simulate import SimulationError, check_setup
from kalooki.variant import Variant
from kalooki.view import LegalView

# ---------------------------------------------------------------- taking the discard

RULES = ("always", "never", "after_opening", "before_opening", "meld_at_once")

# ann opens on her first turn with three sets (7s, 8s, 9s: 72 points) and keeps 4C 6C QC 3S. A 9C
# joins her sets (on the upcard) or her table set (later); a KH fits nothing she holds or the table.
ANN = "7H 7S 7D 8H 8S 8D 9H 9S 9D 2C 4C 6C QC"
BOB = "2S 4S 6S 8C TC QS KS 2H 4H 6H TD QD KD"


def _first_turn(rule: str, upcard: str | None) -> Game:
    """ann, not opened, about to draw; the pile holds only ``upcard`` (None: no upcard, an empty pile)."""
    knobs: dict[str, Any] = {"discard_draw": rule}
    if upcard is None:
        knobs["upcard"] = False
    return new_game(knobs, [ANN, BOB], discard=upcard, stock="3S 5S 3H 5H")


def _second_turn(rule: str, bobs_discard: str) -> Game:
    """ann, opened (her three sets on the table), about to draw; bob has just discarded ``bobs_discard``."""
    bob = BOB.replace("TC", bobs_discard)
    game = new_game({"discard_draw": rule}, [ANN, bob], discard="JH", stock="3S 5S 3H 5H")
    play(game, "draw stock", "meld 7H 7S 7D, 8H 8S 8D, 9H 9S 9D", "discard 2C", "draw stock")
    play(game, f"discard {bobs_discard}")
    assert (game.current, game.phase, game.opened[0], game.discard_pile[-1]) == (
        0,
        "draw",
        True,
        parse_card(bobs_discard),
    )
    return game


SCENARIOS = {
    "not opened, a card the hand can lay": lambda rule: _first_turn(rule, "9C"),
    "not opened, a card the hand cannot lay": lambda rule: _first_turn(rule, "KH"),
    "opened, a card the hand can lay": lambda rule: _second_turn(rule, "9C"),
    "opened, a card the hand cannot lay": lambda rule: _second_turn(rule, "KH"),
    "an empty pile": lambda rule: _first_turn(rule, None),
}
# Whether ann may take the discard, scenario by scenario (in the order above), under each rule.
MAY_TAKE = {
    "always": (True, True, True, True, False),
    "never": (False, False, False, False, False),
    "after_opening": (False, False, True, True, False),
    "before_opening": (True, True, False, False, False),
    "meld_at_once": (True, False, True, False, False),
}
REFUSALS = {
    "never": "this variant never lets a player take the discard: draw stock",
    "after_opening": "only a player who has opened may take the discard: draw stock",
    "before_opening": "a player who has opened may not take the discard: draw stock",
}


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_every_caller_gives_the_one_verdict_on_taking_the_discard(rule: str, scenario: str) -> None:
    game = SCENARIOS[scenario](rule)
    allowed = MAY_TAKE[rule][list(SCENARIOS).index(scenario)]
    draws = [DRAW_STOCK, DRAW_DISCARD] if allowed else [DRAW_STOCK]
    top = game.discard_pile[-1] if game.discard_pile else None
    laid: list[int] = []

    def layable(card: int) -> bool:
        laid.append(card)
        return game._card_usable(card)

    assert rules.may_draw_discard(game.variant, game.opened[0], top, layable) is allowed
    assert game._discard_draw_allowed() is allowed
    assert game.legal_actions() == draws
    assert list(game.iter_legal_actions()) == draws
    legal = LegalView(game.view(0))
    assert legal.listed() == draws
    assert list(legal) == draws
    assert (Draw("discard") in legal) is allowed
    assert Draw("stock") in legal
    # Only meld_at_once asks whether the hand could lay the card, and only of a card it may take.
    asked = rule == "meld_at_once" and top is not None
    assert laid == ([top] if asked else [])
    if allowed:
        game.check(Draw("discard"))
        return
    with pytest.raises(IllegalMoveError) as refused:
        game.check(Draw("discard"))
    if rule in REFUSALS and not rules.may_take_discard(game.variant, game.opened[0]):
        # The rule comes before the pile's emptiness: an empty pile would say "later, perhaps".
        assert str(refused.value) == REFUSALS[rule]
    elif top is None:
        assert str(refused.value) == "the discard pile is empty: draw stock"
    elif rule == "meld_at_once":
        card = "9C" if "9C" in scenario else "KH"
        assert (
            str(refused.value)
            == f"you may take {card} only to lay it this turn, and you could not: draw stock"
        )
    else:
        assert str(refused.value) == REFUSALS[rule]


def test_the_draws_read_from_a_view_ask_the_hand_only_under_meld_at_once() -> None:
    """A LegalView answers the draw from the view alone: the stand-in game is built only for meld_at_once."""
    for rule in RULES:
        legal = LegalView(_first_turn(rule, "KH").view(0))
        legal.listed()
        assert (legal._stand_in is not None) is (rule == "meld_at_once"), rule


@pytest.mark.parametrize("rule", RULES)
def test_a_player_who_may_take_nothing_but_an_empty_stock_is_blocked(rule: str) -> None:
    """With no stock left, ann's turn is blocked exactly when she may not take the discard."""
    knobs: dict[str, Any] = {"discard_draw": rule, "stock_exhausted": "end_hand", "hand_size": 5}
    game = new_game(knobs, ["7H 7S 7D 2C 4C", "2S 4S 6S 8S TS"], discard="KH", stock="3S")
    game.stock = []  # the stock ran out before anyone drew: only the discard is left to draw
    events = game._start_turn()
    blocked = not MAY_TAKE[rule][1]  # not opened, a card the hand cannot lay
    assert (game.phase == "hand_over") is blocked
    assert [event.kind for event in events] == (["hand_end"] if blocked else [])


@pytest.mark.parametrize(
    ("rule", "ever"),
    [
        ("always", True),
        ("never", False),
        ("after_opening", True),
        ("before_opening", True),
        ("meld_at_once", True),
    ],
)
def test_whether_the_top_discard_may_ever_be_taken(rule: str, ever: bool) -> None:
    assert rules.may_ever_take_discard(Variant(discard_draw=rule)) is ever


# ---------------------------------------------------------------- the discard pile as the next stock


@pytest.mark.parametrize(
    ("stock_exhausted", "discard_draw", "gone"),
    [
        ("reshuffle_all", "always", ""),
        ("reshuffle_keep_top", "never", ""),
        ("end_hand", "always", "4C 5C"),  # the top (6C) may still be taken
        ("end_hand", "meld_at_once", "4C 5C"),
        ("end_hand", "never", "4C 5C 6C"),  # nobody may take the top: it is gone too
    ],
)
def test_the_cards_gone_for_the_hand(stock_exhausted: str, discard_draw: str, gone: str) -> None:
    variant = Variant(stock_exhausted=stock_exhausted, discard_draw=discard_draw)
    assert rules.reshuffles_discards(variant) is (stock_exhausted != "end_hand")
    assert endgame.used_up([], parse_cards("4C 5C 6C"), variant) == Counter(parse_cards(gone))


@pytest.mark.parametrize("stock_exhausted", ["reshuffle_all", "reshuffle_keep_top", "end_hand"])
def test_the_engine_ends_the_hand_or_reshuffles_as_the_rule_says(stock_exhausted: str) -> None:
    game = new_game(
        {"stock_exhausted": stock_exhausted, "hand_size": 5},
        ["7H 7S 7D 2C 4C", "2S 4S 6S 8S TS"],
        discard="KH",
        stock="3S 5S",
    )
    game.stock = game.stock[-2:]  # two cards left: bob's draw empties the stock
    play(game, "draw stock", "discard 3S")
    events = [event for event in game.apply(Draw("stock")) if not isinstance(event, DrawEvent)]
    if stock_exhausted == "end_hand":
        assert events == [StockOutEvent("end_hand")]
        assert game.stock_ran_out
    else:
        assert [type(event) for event in events] == [ReshuffleEvent]
        assert not game.stock_ran_out
        assert len(game.discard_pile) == (1 if stock_exhausted == "reshuffle_keep_top" else 0)


# ---------------------------------------------------------------- what a seat sees of a drawn card


@pytest.mark.parametrize(
    ("seat", "drawer", "source", "in_play", "seen"),
    [
        (0, 0, "stock", True, True),
        (1, 0, "stock", True, False),
        (0, 0, "stock", False, False),
        (1, 0, "discard", True, True),
        (1, 0, "discard", False, True),
        (WATCHER, 0, "stock", True, False),
        (WATCHER, 0, "discard", True, True),
        (0, 0, None, True, True),  # nothing drawn yet: nothing to hide
    ],
)
def test_who_sees_a_drawn_card(seat: int, drawer: int, source: str | None, in_play: bool, seen: bool) -> None:
    assert rules.sees_drawn_card(seat, drawer, source, in_play) is seen


@pytest.mark.parametrize("source", ["stock", "discard"])
@pytest.mark.parametrize("ended", [False, True])
def test_the_engine_and_the_host_show_a_drawn_card_to_the_same_seats(source: str, ended: bool) -> None:
    game = new_game({}, [ANN, BOB], discard="9C", stock="3S 5S")
    events = game.apply(Draw(source))  # type: ignore[arg-type]
    card = parse_card("3S" if source == "stock" else "9C")
    if ended:
        game.abandon_hand()
    for seat in (0, 1, WATCHER):
        seen = source == "discard" or (seat == 0 and not ended)
        assert rules.sees_drawn_card(seat, 0, source, not ended) is seen
        shown = card if seen else None
        if seat != WATCHER:
            assert game.view(seat).turn.drawn_card == shown, seat
        assert seat_view(game, seat)["turn"]["drawn_card"] == (None if shown is None else format_card(card))
        # A draw event is seen as it happened, during the hand: its drawer sees the card.
        (event,) = seat_events(events, game, seat)
        assert isinstance(event, DrawEvent)
        assert event.card == (card if source == "discard" or seat == 0 else None), seat


# ------------------------------------------------ how many may play (min_players, max_players)


@pytest.mark.parametrize(("least", "most"), [(2, 4), (4, 4), (3, 6)])
def test_every_caller_seats_the_players_the_variant_allows(least: int, most: int) -> None:
    """The engine, a script and a simulation refuse the same counts, in the same words."""
    variant = Variant(min_players=least, max_players=most)
    words = f"exactly {least}" if least == most else f"{least} to {most}"
    assert rules.player_counts(variant) == words
    for count in range(1, 9):
        allowed = least <= count <= most
        assert rules.may_play(variant, count) is allowed, count
        names = [f"p{seat}" for seat in range(count)]
        if allowed:
            Game(variant, names, seed=1)
            check_setup(variant, ["random"] * count, 1)
            continue
        with pytest.raises(SetupError) as refused:
            Game(variant, names, seed=1)
        plural = "" if count == 1 else "s"  # "1 players" read wrong
        assert str(refused.value) == f"{count} player{plural}: this variant is for {words}"
        with pytest.raises(SimulationError) as stopped:
            check_setup(variant, ["random"] * count, 1)
        assert str(stopped.value) == f"{count} bot{plural}: {variant.name} is for {words} players"


def test_no_caller_seats_a_table_that_would_be_dealt_the_whole_pack() -> None:
    # One pack, no jokers, no upcard: four hands of 13 are the whole pack, leaving no stock, so every
    # hand ended at its deal (blocked) and a game of bots dealt hand after hand. Three still have a stock.
    variant = Variant(decks=1, jokers=0, upcard=False)
    note = " (4 players would be dealt the whole pack, leaving no stock)"
    assert (rules.most_players(variant), rules.player_counts(variant), rules.seating_note(variant)) == (
        3,
        "2 to 3",
        note,
    )
    Game(variant, ["a", "b", "c"], seed=1)
    with pytest.raises(SetupError) as refused:
        Game(variant, ["a", "b", "c", "d"], seed=1)
    assert str(refused.value) == f"4 players: this variant is for 2 to 3{note}"
    with pytest.raises(SimulationError) as stopped:
        check_setup(variant, ["random"] * 4, 1)
    assert str(stopped.value) == f"4 bots: {variant.name} is for 2 to 3 players{note}"
    assert "From 2 to 3 players can play. (4 would be dealt the whole pack, leaving no stock.)" in (
        render_rulebook(variant)
    )


@pytest.mark.parametrize(
    ("name", "count", "words"), [("classic", 5, "2 to 4"), ("kaluki-51", 3, "exactly 4")]
)
def test_a_script_for_a_table_the_variant_refuses_says_how_many_may_play(
    name: str, count: int, words: str
) -> None:
    seats = "".join(f"  - {{name: p{seat}, bot: random}}\n" for seat in range(count))
    with pytest.raises(ScriptError) as refused:
        load_script_text(f"variant: {name}\nplayers:\n{seats}seed: 1\n")
    assert f"{count} players: the variant '{name}' is for {words}" in str(refused.value)
