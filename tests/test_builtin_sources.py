"""The built-in variants play as their texts say: scenario games under czech-500, kaluki-51 and kalooki-40."""

from __future__ import annotations

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text

from kalooki.cards import parse_cards
from kalooki.engine import Game
from kalooki.loader import load_variant, resolve_variant
from kalooki.moves import DRAW_STOCK, END_TURN, Discard

CZECH = load_variant("czech-500")
BOB = "AC 2D 3H 4S 5D 6D 8C 9H JS QC KC TH 6C"  # 94 points


def czech_game(ann: str, stock: str = "") -> Game:
    return new_game(CZECH, [ann, BOB], discard=None, stock=stock)  # no upcard: the pile starts empty


def test_czech_a_first_meld_needs_no_points() -> None:
    game = czech_game("7H 7S 7D 2C 4D 6H 8S TC QD KH 3S 5C 9D", stock="JH")
    assert game.discard_pile == []
    play(game, "draw stock", "meld 7H 7S 7D")  # classic: "worth 21 points; this variant needs 51"
    assert table_text(game) == ["7H 7S 7D"]


def test_czech_going_out_with_every_card_melded_and_no_kalooki_bonus() -> None:
    game = czech_game("7H 7S 7D 2C 3C 4C 8S 9S TS JD QD KD AD", stock="TD")
    play(game, "draw stock", "meld 7H 7S 7D, 2C 3C 4C, 8S 9S TS, TD JD QD KD AD")
    result = game.results[-1]
    assert (result.winner, result.end, result.kalooki) == (0, "went_out", True)
    assert result.scores == (94, 0)  # ann collects bob's 94; going out at once takes nothing from him


def test_czech_a_player_goes_out_by_melding_never_on_a_discard() -> None:
    # The text's going out lays every card in melds: "odloží všechny karty ve spojení".
    assert "never by discarding it" in resolve_variant("czech-500").provenance["going_out"]
    game = czech_game("7H 7S 7D 2C 3C 4C 8S 9S TS JD QD KD AD", stock="5H")
    play(game, "draw stock", "meld 7H 7S 7D, 2C 3C 4C, 8S 9S TS, JD QD KD AD")
    assert_illegal(
        game,
        "discard 5H",
        "you cannot discard your last card: in this variant you go out by melding it; "
        "lay it, or keep it and end the turn (end)",
    )
    # The discard is optional on every turn ("má možnost odhodit jednu kartu"): the 5H is kept.
    assert game.legal_actions() == [END_TURN]
    play(game, "end")
    assert (hand_text(game, 0), game.current, game.phase) == (["5H"], 1, "draw")
    assert load_variant("czech-300").going_out == "meld_required"


def test_czech_the_discard_is_optional_on_every_turn() -> None:
    assert "má možnost odhodit jednu kartu" in resolve_variant("czech-500").provenance["turn_discard"]
    assert load_variant("czech-300").turn_discard == "optional"
    game = czech_game("7H 7S 7D 2C 4D 6H 8S TC QD KH 3S 5C 9D", stock="JH")
    play(game, "draw stock")
    assert game.legal_actions()[-1] == END_TURN
    play(game, "end")
    assert (len(game.hands[0]), game.discard_pile, game.current) == (14, [], 1)


def test_czech_books_repeat_suits() -> None:
    game = czech_game("7H 7H 7D 2C 4D 6H 8S TC QD KH 3S 5C 9D", stock="JH")
    play(game, "draw stock", "meld 7H 7H 7D")
    assert table_text(game) == ["7H 7H 7D"]


def test_czech_a_discard_is_never_picked_up_again() -> None:
    # One pack and two jokers, 26 cards each, leave a stock of 2: when it runs out the hand ends;
    # the pile is never reshuffled.
    variant = load_variant("czech-500", ["decks=1", "jokers=2", "hand_size=26", "max_players=2"])
    game = Game(variant, ["ann", "bob"], seed=1)
    play(game, "draw stock")
    game.apply(Discard(game.hands[0][-1]))
    assert_illegal(game, "draw discard", "this variant never lets a player take the discard: draw stock")
    events = play(game, "draw stock")
    assert events[-1] == {"type": "stock_out", "rule": "end_hand"}
    events = game.apply(Discard(game.hands[1][-1]))
    assert events[-1]["type"] == "hand_end"
    assert (events[-1]["end"], events[-1]["winner"]) == ("stock_exhausted", None)
    assert game.results[-1].scores == (0, 0)


def test_czech_the_first_turn_refuses_the_discard_for_the_rule_not_the_empty_pile() -> None:
    # No upcard: the pile is empty, but an empty pile would suggest the discard could be taken later.
    game = czech_game("7H 7S 7D 2C 4D 6H 8S TC QD KH 3S 5C 9D", stock="JH")
    assert game.discard_pile == []
    assert game.legal_actions() == [DRAW_STOCK]
    assert_illegal(game, "draw discard", "this variant never lets a player take the discard: draw stock")
    assert game.legal_actions() == [DRAW_STOCK]


def test_czech_a_move_before_the_draw_is_told_to_draw_stock_alone() -> None:
    game = czech_game("7H 7S 7D 2C 4D 6H 8S TC QD KH 3S 5C 9D", stock="JH")
    assert_illegal(game, "meld 7H 7S 7D", "ann must draw first: draw stock")
    play(game, "draw stock", "discard 2C")
    assert_illegal(game, "end", "bob must draw first: draw stock")  # the 2C lies on the pile


def test_czech_a_joker_stays_the_card_it_was_laid_as() -> None:
    game = czech_game("5H JK 7H 6H 9C 9D 2C 4D 6S TC QD KH 3S", stock="JH")
    play(game, "draw stock", "meld 5H JK 7H")
    assert_illegal(game, "swap 1 6H", "in this variant a joker in a run stays there for good")


def test_kaluki_51_draws_for_the_first_dealer_and_passes_the_deal_counter_clockwise() -> None:
    game = Game(load_variant("kaluki-51"), ["ann", "bob", "cid", "dee"], seed=4)
    deal = game.opening_events[0]
    drawn = deal["drawn_for_dealer"]
    order = "23456789TJQKA"
    assert deal["dealer"] == max(drawn, key=lambda name: order.index(drawn[name][0]))
    dealer = game.players.index(deal["dealer"])
    assert deal["first"] == game.players[(dealer + 1) % 4]  # the player on the dealer's left
    assert deal["discard"] is None
    game.abandon_hand()
    deal = game.next_hand()[0]
    assert deal["dealer"] == game.players[(dealer - 1) % 4]  # the deal moves counter-clockwise
    assert deal["first"] == game.players[dealer]


KALUKI_51_HANDS = [
    "9H TH JH JK 2C 4D 6S 8C 3S 5C 7D 9S 2D",
    "AC 2H 3D 4S 5D 6D 8D 9D JS QC KC TC 6C",
    "AD 2S 3C 4H 5H 6H 8S 9C JC QD KD TD 7C",
    "AS 3H 4C 5S 7H 7S 8H QS KS TS JD QH KH",
]
"""ann (seat 0, first to play once the deal is by seat order) holds 9H TH JH and a joker."""


@pytest.mark.parametrize(("value", "points"), [("penalty", 54), ("represented", 39)])
def test_kaluki_51_counts_a_joker_in_the_first_meld_as_25(value: str, points: int) -> None:
    # The guide lists "Joker = 25 points" among the values "used to add up each players first Meld"
    # (docs/rule-sources.md): 9H TH JH + a joker as QH is 9 + 10 + 10 + 25 = 54 and opens; counted as
    # the QH it stands for (opening_joker_value: represented, the online room's rule) it is 39.
    rules = load_variant("kaluki-51").model_copy(update={"first_dealer": "seat_order"})
    assert rules.opening_joker_value == "penalty"
    rules = rules.model_copy(update={"opening_joker_value": value})
    game = new_game(rules, KALUKI_51_HANDS, discard=None, stock="AH")
    play(game, "draw stock")
    if value == "represented":
        message = (
            f"your first meld is worth {points} points; this variant needs 51"
            " (lay them all in one meld command, melds parted by commas: meld 7H 8H 9H, QS QD QC)"
        )
        assert_illegal(game, "meld 9H TH JH JK", message)
        return
    (event,) = play(game, "meld 9H TH JH JK")
    assert event["points"] == points
    assert table_text(game) == ["9H TH JH JK"]


def test_kaluki_51_lets_the_meld_owner_not_the_builder_take_a_joker_built_onto_another_meld() -> None:
    # "another player may steal the Joker" is read as another than the player who laid it
    # (docs/rule-sources.md): bob's joker built onto ann's run is not his to take back with 8S, and ann's.
    said = resolve_variant("kaluki-51").provenance["joker_taker"]
    assert "any player but the one who laid the joker" in said
    rules = load_variant(
        "kaluki-51", ["opening_threshold=0", "hand_size=6", "min_players=2", "run_minimum=3"]
    )
    game = new_game(rules, ["5S 6S 7S 8S QH 2C", "KD KC KH JK 8S 3H"], discard=None, stock="4D 9D 5H 4H")
    play(game, "draw stock", "meld 5S 6S 7S", "discard 4D")
    play(game, "draw stock", "meld KD KC KH", "build 1 JK")
    message = (
        "in this variant only another player may take a joker you laid: you laid every joker of 5S 6S 7S JK"
    )
    assert_illegal(game, "swap 1 8S", message)
    play(game, "discard 9D", "draw stock", "swap 1 8S")
    assert table_text(game) == ["5S 6S 7S 8S", "KD KC KH"]
    assert sorted(game.hands[0]) == sorted(parse_cards("QH 2C 5H JK"))


@pytest.mark.parametrize(("bob_hand", "total", "out"), [("9C 8C 4D", 150, False), ("9C 8C 5H", 151, True)])
def test_kalooki_40_puts_out_a_player_over_150_not_one_at_it(bob_hand: str, total: int, out: bool) -> None:
    # kalooki.co.uk plays "up to a 150 penalty point limit", a player over it out (goal_score: 151).
    # ann goes Kalooki: bob adds his hand, 125 or 126, and the bonus of 25.
    hands = ["7H 8H 9H TH JH QH KH 2C 2D 2S 5C 5D 3C", "AC AD AH AS KC KD KH KS QC QD " + bob_hand]
    game = new_game(load_variant("kalooki-40"), hands, discard=None, stock="5S")
    play(game, "draw stock", "meld 7H 8H 9H TH JH QH KH, 2C 2D 2S, 5C 5D 5S", "discard 3C")
    assert game.results[-1].kalooki
    assert game.totals == [0, total]
    assert game.eliminated == [False, out]
    assert game.phase == ("game_over" if out else "hand_over")


def test_kalooki_40_refuses_a_low_ace_in_a_build_or_a_meld_naming_its_ace_rule() -> None:
    # kalooki.co.uk: an ace is high only in a run (Q-K-A). A build or a meld refused for the ace's place says
    # so; it said only "does not fit either end of the run 2C 3C 4C", or "no card ranks lower" of a joker
    # below the two, as though the rule were the cards'.
    high_only = "in this variant an ace may only sit above the king (Q-K-A)"
    hands = ["2C 3C 4C KC KD KS KH AC JK 5C 8D 9S QD", "QH KH AH 9H 5S 6S 7S 4D 2H 3H 6H 9C 9D"]
    game = new_game(load_variant("kalooki-40"), hands, discard=None, stock="QC 2D")
    play(game, "draw stock")
    assert_illegal(
        game, "meld JK 2C 3C", f"JK 2C 3C is not a run: a joker cannot stand below the two: {high_only}"
    )
    play(game, "meld 2C 3C 4C, KC KD KS KH")
    assert_illegal(game, "build 1 AC", f"AC does not fit either end of the run 2C 3C 4C: {high_only}")
    assert_illegal(game, "build 1 JK low", f"JK does not fit the low end of the run 2C 3C 4C: {high_only}")
    assert_illegal(game, "build 1 AC 5C", "AC 5C does not fit either end of the run 2C 3C 4C")
    play(game, "meld QC JK AC")  # Q-K-A, the ace above the king
    assert table_text(game) == ["2C 3C 4C", "KC KD KS KH", "QC JK AC"]


def test_classic_quotes_the_japanese_edition_as_written() -> None:
    # The quote was folded across two lines of the YAML block in the middle of the Japanese sentence, and
    # a fold reads as a space: kalooki rules classic quoted it with a space after "場合は、" the text lacks.
    said = resolve_variant("classic").provenance["set_joker_release"]
    assert "場合は、足りないカードを出しても" in said
    assert "、 " not in said


def test_kalooki_40_credits_keeping_the_top_discard_where_it_is_stated() -> None:
    # What is seen of kalooki.co.uk's rules does not say what happens when the stock runs out; the table of
    # the sources credits reshuffle_keep_top to several rooms, and a "Kalooki 40 Rules" page states it. The
    # provenance credited the site, and the rulebook printed it as the site's word.
    said = resolve_variant("kalooki-40").provenance["stock_exhausted"]
    assert said.startswith("not stated in the kalooki.co.uk rules")
    assert "ludopoli.us" in said
    assert load_variant("kalooki-40").stock_exhausted == "reshuffle_keep_top"


def test_kaluki_51_says_its_dealer_draw_reads_the_ace_and_ties_itself() -> None:
    # The rulebook says the ace ranks high and tied players draw again; the guide says only that the highest
    # card deals, and the provenance quoted it as though it said the rest.
    said = resolve_variant("kaluki-51").provenance["first_dealer"]
    assert said.startswith(
        '"players will each draw one card, and the highest card determines the first dealer."'
    )
    assert "The guide says neither how an ace ranks nor what a tie does" in said
