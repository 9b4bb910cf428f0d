"""Positions where the bots used to play a hand for ever, and what they do there now.

Each was found in simulation: two bots throwing the same card back and forth, a hand too poor to
open throwing away every high card it drew, players laying down to one card on a table where
nothing could be built any more, taking a discard that had to be laid at once and left such a
hand, laying down to two cards while the other player could fill the sets' last places first,
keeping two cards that no draw could take out, and holding sets that could never go out on a
table with no place left.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rules_helpers import new_game, play

from kalooki.bots import ExpertBot, GreedyBot, RandomBot, endgame, make_bot
from kalooki.bots.greedy import strands
from kalooki.cards import parse_card, parse_cards, rank_of
from kalooki.driver import ask_bot, play_hand
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.melds import make_meld
from kalooki.moves import Discard, Draw, Meld, Swap
from kalooki.savegame import rng_state_from_json
from kalooki.simulate import derive_seed, game_seed

FIXTURES = Path(__file__).parent / "fixtures" / "endless"


def bot(kind: str) -> GreedyBot:
    return ExpertBot(random.Random(1)) if kind == "expert" else GreedyBot(random.Random(1))


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_a_bot_does_not_take_a_discard_it_would_throw_straight_back(kind: str) -> None:
    # ann holds 5D 5H: the 5S bob throws makes a set she cannot lay (she must keep a card to
    # discard), so taking it would end with throwing it back, and the stock is never drawn.
    rules = {"hand_size": 5, "opening_threshold": 0}
    game = new_game(rules, ["AC AD AH 5D 5H", "KC KD KH 8C 5S"], discard="2D", stock="9C 3S")
    play(game, "draw stock", "meld AC AD AH", "discard 9C", "draw stock", "meld KC KD KH", "discard 5S")
    assert game.opened == [True, True]
    assert game.discard_pile[-1] == parse_card("5S")
    assert ask_bot(bot(kind), game) == Draw("stock")


def test_a_discard_that_lays_down_is_still_taken() -> None:
    # ann keeps three cards after building AS and discarding: enough for a new meld.
    rules = {"hand_size": 7, "opening_threshold": 0}
    game = new_game(rules, ["AC AD AH 5D 5H 9S JD", "KC KD KH 8C AS 2C 4S"], discard="2D", stock="9C 3S")
    play(game, "draw stock", "meld AC AD AH", "discard 9C", "draw stock", "meld KC KD KH", "discard AS")
    assert ask_bot(bot("greedy"), game) == Draw("discard")  # AS builds onto the aces


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_a_hand_too_poor_to_open_keeps_the_high_cards_it_draws(kind: str) -> None:
    # Every meldable card together is worth 36 of the 51 needed: only more points can open it.
    low = "2C 2C 4C 2D 2D 3D 2H 3H 4H 2S 3S 3S 4S"
    game = new_game({}, [low, "5C 6C 7C 8D 9D TD JH QH KH 5S 6S 7S 8S"], discard="9H", stock="AC")
    player = bot(kind)
    assert ask_bot(player, game) == Draw("stock")
    play(game, "draw stock")
    action = ask_bot(player, game)
    assert isinstance(action, Discard)
    assert rank_of(action.card) == 2


def test_a_bot_holds_back_melds_that_would_leave_it_one_card_and_nowhere_to_build() -> None:
    # Laying the four queens leaves 9C and 8D, one after the discard, and a full set takes no card:
    # that hand could never go out. Kept, the queens go down with the card that goes out with them.
    rules = {"hand_size": 5, "opening_threshold": 0}
    game = new_game(rules, ["QC QD QH QS 9C", "2C 3C 4C 5C 6C"], stock="8D")
    play(game, "draw stock")
    player = bot("greedy")
    plan = player.laying_plan(game.view(0))
    assert plan is not None
    assert plan.melds
    assert strands(game.view(0), plan)
    assert ask_bot(player, game) == Discard(parse_card("9C"))


def test_a_bot_lays_the_same_melds_when_they_go_out_or_leave_room_to_build() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["QC QD QH QS", "2C 3C 4C 5C"], stock="9C")
    play(game, "draw stock")
    assert ask_bot(bot("greedy"), game) == Meld((tuple(parse_cards("QC QD QH QS")),))
    # A run of three has room at both ends: the hand can still build its last card there. (A set
    # of three's fourth suit would not do: bob holds four cards and may fill it first.)
    rules = {"hand_size": 4, "opening_threshold": 0}
    game = new_game(rules, ["5H 6H 7H 9C", "2C 3C 4C 5C"], stock="KS")
    play(game, "draw stock")
    assert ask_bot(bot("greedy"), game) == Meld((tuple(parse_cards("5H 6H 7H")),))
    game = new_game(rules, ["QC QD QH 9C", "2C 3C 4C 5C"], stock="KS")
    play(game, "draw stock")
    assert ask_bot(bot("greedy"), game) == Discard(parse_card("KS"))


@pytest.mark.parametrize("seed", range(5))
def test_random_does_not_lay_down_to_a_stranded_hand_either(seed: int) -> None:
    # 40 to open: only all four queens open, and they would leave one card with nowhere to build.
    rules = {"hand_size": 5, "opening_threshold": 40}
    game = new_game(rules, ["QC QD QH QS 9C", "2C 3C 4C 5C 6C"], stock="8D")
    play(game, "draw stock")
    assert isinstance(ask_bot(RandomBot(random.Random(seed)), game), Discard)
    # With a card more to keep, the same opening leaves a hand that can still go out.
    game = new_game({**rules, "hand_size": 7}, ["QC QD QH QS 9C 5H 2D", "2C 3C 4C 5C 6C 7C 8C"], stock="8D")
    play(game, "draw stock")
    assert isinstance(ask_bot(RandomBot(random.Random(seed)), game), Meld)


@pytest.mark.parametrize("going_out", ["discard_required", "discard_optional"])
def test_laying_down_to_the_last_discard_is_going_out_not_stranding(going_out: str) -> None:
    rules = {"hand_size": 4, "opening_threshold": 0, "going_out": going_out}
    game = new_game(rules, ["QC QD QH QS", "2C 3C 4C 5C"], stock="9C")
    play(game, "draw stock")
    assert ask_bot(bot("greedy"), game) == Meld((tuple(parse_cards("QC QD QH QS")),))
    play(game, "meld QC QD QH QS", "discard 9C")
    assert game.results[-1].winner == 0
    # Two cards left, one after the discard, and nowhere to build: stranded whatever going_out says.
    game = new_game({**rules, "hand_size": 5}, ["QC QD QH QS 9C", "2C 3C 4C 5C 6C"], stock="8D")
    play(game, "draw stock")
    assert isinstance(ask_bot(bot("greedy"), game), Discard)


# ---------------------------------------------------------------- a dead table

DEAD_RULES = {"hand_size": 13, "opening_threshold": 0, "set_maximum": 3, "jokers": 0}


def dead_table_game(second_ten: str) -> Game:
    """ann holds QC QD QS 9D after melding three full sets; bob has laid JH QH KH AH and two sets of tens.

    Sets hold three cards here, so the run's low end (TH: the ace ends it at the top) is the only
    open place. With ``second_ten`` "TH" both copies of TH lie in bob's sets, and no place on the
    table can ever be filled again. Bob keeps three cards, enough for a new meld.
    """
    hands = [
        "2C 2D 2H 3C 3D 3H 4C 4D 4H QC QD QS 9D",
        f"JH QH KH AH TH TC TD {second_ten} TS TC 3S 5S 7D",
    ]
    game = new_game(DEAD_RULES, hands, stock="KD 8C 7C")
    play(game, "draw stock", "meld 2C 2D 2H, 3C 3D 3H, 4C 4D 4H", "discard KD", "draw stock")
    play(game, f"meld JH QH KH AH, TH TC TD, {second_ten} TS TC", "discard 8C", "draw stock")
    return game


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_a_bot_does_not_lay_down_to_one_card_when_the_table_can_take_none(kind: str) -> None:
    # Laying the queens leaves one card after the discard: too few for a new meld, and the only
    # open place (TH below the run) wants a card whose two copies are both on the table already.
    game = dead_table_game("TH")
    action = ask_bot(bot(kind), game)
    assert isinstance(action, Discard)
    assert endgame.live_places(game.table, game.discard_pile, game.variant) == []


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_a_bot_lays_down_to_one_card_while_the_open_place_can_still_be_filled(kind: str) -> None:
    # Bob's second set is of the other tens' suits without hearts: one TH is still out there.
    game = dead_table_game("TD")
    assert endgame.live_places(game.table, game.discard_pile, game.variant) == [parse_card("TH")]
    assert ask_bot(bot(kind), game) == Meld((tuple(parse_cards("QC QD QS")),))


def test_places_to_fill_are_shared_with_the_other_small_hands() -> None:
    # One place (TH) is left to fill. With bob down to one card himself, it is his way out; ann
    # laying down to one card too would leave two hands that need building for one place.
    game = dead_table_game("TD")
    assert endgame.live_slots(game.table, game.discard_pile, game.variant) == 1
    left = parse_cards("9D 7C")
    assert not endgame.strands(left, game.table, game.discard_pile, game.variant, keep=1, others=[3])
    assert endgame.strands(left, game.table, game.discard_pile, game.variant, keep=1, others=[1])


def test_the_sets_last_places_do_not_count_while_another_player_could_fill_them() -> None:
    # QS and 9S are the only places left: a set's room only shrinks as others build on it.
    rules = {"hand_size": 7, "opening_threshold": 0, "jokers": 0}
    game = new_game(rules, ["QC QD QH 9C 9D 9H 4D", "2C 3C 4C 5C 6C 7C 8C"], stock="KD")
    play(game, "draw stock", "meld QC QD QH, 9C 9D 9H", "discard KD")
    table, pile, variant = list(game.table), game.discard_pile, game.variant
    assert endgame.set_slots(table, pile, variant) == endgame.live_slots(table, pile, variant) == 2
    left = parse_cards("4D 2H 3H")  # two cards after the discard: both must be built
    assert not endgame.strands(left, table, pile, variant, keep=1)
    assert endgame.strands(left, table, pile, variant, keep=1, contested=True)
    # A run's end, once filled, opens the next place along: 4S and 8S still count.
    table.append(make_meld(parse_cards("5S 6S 7S"), variant))
    assert endgame.set_slots(table, pile, variant) == 2
    assert endgame.live_slots(table, pile, variant) == 4
    assert not endgame.strands(left, table, pile, variant, keep=1, contested=True)


def meld_at_once_game(ann: str, bob: str) -> Game:
    """ann has laid AC AD AH, bob KC KD KH; bob throws QH, which ann may take only to lay at once.

    Sets hold three cards, so every set on the table is full. Taking QH means laying QC QD QH.
    """
    rules = {"hand_size": 5 + len(ann.split()), "opening_threshold": 0, "jokers": 0}
    rules |= {"set_maximum": 3, "discard_draw": "meld_at_once"}
    game = new_game(rules, [f"AC AD AH QC QD {ann}", f"KC KD KH QH {bob}"], stock="8C JC 5H")
    play(game, "draw stock", "meld AC AD AH", "discard 8C", "draw stock", "meld KC KD KH", "discard QH")
    return game


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_a_bot_does_not_take_a_discard_it_must_lay_when_laying_it_strands_the_hand(kind: str) -> None:
    # Laying QC QD QH leaves 9D 4S, one card after the discard, and no set on the table has room.
    game = meld_at_once_game("9D 4S", "7S 9H 2S")
    assert ask_bot(bot(kind), game) == Draw("stock")
    # With two cards more, the queens leave three after the discard, enough for a new meld.
    game = meld_at_once_game("9D 4S 2H 7C", "7S 9H 2S 3D 5C")
    assert ask_bot(bot(kind), game) == Draw("discard")


def replay(fixture: str) -> Game:
    """Play a saved hand to its end with the bots (and random states) it was saved with."""
    saved = json.loads((FIXTURES / fixture).read_text())
    game = Game.from_json(saved["game"])
    bots = {}
    for seat, name in enumerate(saved["bots"]):
        rng = random.Random()
        state = saved["bot_rngs"].get(str(seat))
        if state is not None:
            rng.setstate(rng_state_from_json(state))
        bots[seat] = make_bot(name, rng)
    play_hand(game, bots)
    return game


@pytest.mark.parametrize(
    ("fixture", "turns", "winner"),
    [
        # Both bots laid down to one card taking discards they had to lay (see the fixture's "about").
        # (78 turns, greedy going out, until the expert stopped keeping sets on a table of full
        # sets where only a run could take its hand out: it now goes out first.)
        ("kalooki-40-greedy-expert.json", 61, 1),
        # Greedy laid down to two cards on set places that random then filled. (89 turns until
        # random kept back the cards of its melds one card short; the scenario tests above pin
        # greedy's side.)
        ("classic-random-greedy.json", 31, 1),
    ],
)
def test_hands_that_reached_the_turn_limit_now_end(fixture: str, turns: int, winner: int) -> None:
    game = replay(fixture)
    result = game.results[-1]
    assert (result.end, result.turns, result.winner) == ("went_out", turns, winner)


def test_a_first_hand_that_reached_the_turn_limit_now_ends() -> None:
    # kalooki simulate classic --bots random,greedy --seed 1: game 2497's first hand, as simulate
    # deals and seats it, reached the limit with greedy holding two cards that no place would take.
    seed = game_seed(1, 2497)
    game = Game(load_variant("classic"), ["P1", "P2"], seed=seed)
    seated = enumerate(["random", "greedy"])
    bots = {seat: make_bot(name, random.Random(derive_seed(seed, "bot", seat))) for seat, name in seated}
    play_hand(game, bots)
    result = game.results[-1]
    # 64 turns until random kept back the cards of its melds one card short.
    assert (result.end, result.turns, result.winner) == ("went_out", 68, 1)


def test_an_expert_breaks_a_pair_of_one_card_that_no_draw_takes_out() -> None:
    # kalooki simulate kaluki-51 --bots random,expert,random,expert --seed 1: game 537's first
    # hand reached the limit with the table's one open place (2H below a heart run) and an expert
    # holding both 2H: a pair of one card is no set, and one 2H built leaves the other. It kept
    # them for 900 turns; the other expert, down to one card, waited for a 2H that never came.
    seed = game_seed(1, 537)
    # Found before kaluki-51 counted a joker 25 toward the opening: replayed under the rule it was found in.
    rules = load_variant("kaluki-51", ("opening_joker_value=represented",))
    game = Game(rules, [f"P{seat + 1}" for seat in range(4)], seed=seed)
    seated = enumerate(["random", "expert", "random", "expert"])
    bots = {seat: make_bot(name, random.Random(derive_seed(seed, "bot", seat))) for seat, name in seated}
    play_hand(game, bots)
    result = game.results[-1]
    # 142 turns, the first expert throwing a 2H away and the other building it, until random kept
    # back the cards of its melds one card short: the hand now ends before that position arises,
    # and test_an_expert_down_to_two_cards_keeps_two_that_a_draw_can_take_out pins the expert's side.
    assert (result.end, result.turns, result.winner) == ("went_out", 46, 3)


def test_an_expert_down_to_two_cards_keeps_two_that_a_draw_can_take_out() -> None:
    # ann has laid QH KH AH and the fives, and holds JH JH JC after drawing; bob's tens hold both
    # TH, so the run takes one JH and then nothing. JH JH goes out on no draw (one JH is left);
    # JH JC goes out on a JD or JS, a set of three. The scores alone keep the JH pair: bob could
    # build a JH.
    rules = {"hand_size": 8, "opening_threshold": 0, "going_out": "discard_optional", "jokers": 0}
    rules |= {"set_maximum": 3}
    game = new_game(rules, ["QH KH AH 5C 5D 5S JH JH", "TC TD TH TS TH TC 7D 8D"], stock="9S 2C JC")
    play(game, "draw stock", "meld QH KH AH, 5C 5D 5S", "discard 9S", "draw stock")
    play(game, "meld TC TD TH, TS TH TC", "discard 2C", "draw stock")
    expert = ExpertBot(random.Random(1))
    view = game.view(0)
    assert expert.outs_to_go_out(view, parse_cards("JH JH")) == 0
    assert expert.outs_to_go_out(view, parse_cards("JH JC")) == 4
    scores = expert.card_scores(view, view.hand)
    assert scores[parse_card("JH")] > scores[parse_card("JC")]
    assert ask_bot(expert, game) == Discard(parse_card("JH"))


@pytest.mark.parametrize("seed", range(3))
def test_random_does_not_free_a_joker_down_to_a_stranded_hand(seed: int) -> None:
    # Freeing bob's joker with AC AH leaves ann 4D 6D and the joker, two cards after the discard,
    # and the only place (a set's) is bob's to fill as much as hers: she discards instead.
    rules = {"hand_size": 6, "opening_threshold": 0}
    game = new_game(rules, ["KC KD KH 4D AC AH", "AD AS JK 7C 8D 2H"], stock="9S QS 6D")
    play(game, "draw stock", "meld KC KD KH", "discard 9S", "draw stock", "meld AD AS JK", "discard QS")
    play(game, "draw stock")
    assert Swap(2, tuple(parse_cards("AC AH"))) in game.legal_swaps()
    assert isinstance(ask_bot(RandomBot(random.Random(seed)), game), Discard)


@pytest.mark.parametrize(
    ("game_index", "turns", "winner"),
    [
        # Three seats held two cards and one three, nothing laid in the last 141 turns: two cards
        # and the draw go out only as a set of three, and random threw away its pairs two times
        # in three.
        (48, 37, 1),
        # Two seats never opened in 1,000 turns: random threw away the melds it gathered.
        (12, 66, 2),
    ],
)
def test_random_keeps_its_melds_and_the_cards_one_short_of_one(
    game_index: int, turns: int, winner: int
) -> None:
    # kalooki simulate kaluki-51 --bots random,random,random,random --seed 1: these first hands
    # reached the limit while random discarded any card at random. It now discards a card that
    # belongs to no meld it holds or could hold with one more card.
    seed = game_seed(1, game_index)
    game = Game(load_variant("kaluki-51"), [f"P{seat + 1}" for seat in range(4)], seed=seed)
    bots = {seat: make_bot("random", random.Random(derive_seed(seed, "bot", seat))) for seat in range(4)}
    play_hand(game, bots)
    result = game.results[-1]
    assert (result.end, result.turns, result.winner) == ("went_out", turns, winner)


def test_random_discards_a_card_that_is_in_no_meld_one_card_short() -> None:
    # 3C 3H waits for a 3D or 3S; the KS drawn is in no meld one card short, so random throws it.
    # (Two cards leave room for a meld only where the last card may be melded too.)
    rules = {"hand_size": 2, "opening_threshold": 0, "going_out": "discard_optional"}
    for seed in range(5):
        game = new_game(rules, ["3C 3H", "9C 5D"], stock="KS")
        play(game, "draw stock")
        assert ask_bot(RandomBot(random.Random(seed)), game) == Discard(parse_card("KS"))


# ---------------------------------------------------------------- only a run goes out


def full_sets_game(ann_keeps: str) -> Game:
    """ann and bob have each laid a full set of four (two packs): no place is left on the table.

    ann then holds ``ann_keeps`` and draws 3C.
    """
    size = 4 + len(ann_keeps.split())
    rules = {"hand_size": size, "opening_threshold": 0, "jokers": 0}
    bob = "KC KD KH KS 5H 9D 7C 8S 4H 6D"[: 3 * size - 1]  # the kings and cards that meld with nothing
    game = new_game(rules, [f"QC QD QH QS {ann_keeps}", bob], discard="9C", stock="TD JS 3C")
    play(game, "draw stock", "meld QC QD QH QS", "discard TD", "draw stock", "meld KC KD KH KS", "discard JS")
    play(game, "draw stock")
    return game


def test_an_expert_holding_only_sets_on_a_table_of_full_sets_keeps_run_cards() -> None:
    # Six cards after the draw, one to discard: going out lays five at once, and with nowhere to
    # build that is one meld of five, a run (a set holds four). The twos can never all go down, so
    # the expert throws a two and keeps 3C, which may start a run with 2C. Scored as sets, the twos
    # were kept and every run card thrown, and a hand of kalooki-40 (random against expert, seed 1,
    # game 259, hand 11) ran to the turn limit from this position.
    game = full_sets_game("2C 2C 2D 2D 2S")
    view = game.view(0)
    assert endgame.live_places(game.table, game.discard_pile, game.variant) == []
    assert endgame.only_a_run_goes_out(len(view.hand), 1, game.table, game.discard_pile, game.variant)
    action = ask_bot(bot("expert"), game)
    assert isinstance(action, Discard)
    assert rank_of(action.card) == 2


@pytest.mark.parametrize(
    ("cards", "keep", "only_a_run"),
    [(4, 1, False), (5, 1, False), (6, 1, True), (7, 1, False), (5, 0, True), (6, 0, False)],
)
def test_only_a_run_goes_out_between_a_set_and_two_melds(cards: int, keep: int, only_a_run: bool) -> None:
    # Cards laid at once: three or four are one set; five one meld too big for a set; six two melds.
    game = full_sets_game("2C 2C 2D 2D 2S")
    table, pile, variant = list(game.table), game.discard_pile, game.variant
    assert endgame.only_a_run_goes_out(cards, keep, table, pile, variant) is only_a_run
    # With a place to build on (the table run's ends), nothing is decided by new melds alone.
    table.append(make_meld(parse_cards("5S 6S 7S"), variant))
    assert not endgame.only_a_run_goes_out(cards, keep, table, pile, variant)


def test_sets_still_count_where_a_hand_could_go_out_with_them() -> None:
    # Seven cards after the draw lay six at once: two sets of three will do, and the twos go out.
    game = full_sets_game("2C 2C 2D 2D 2S 2H")
    view = game.view(0)
    assert not endgame.only_a_run_goes_out(len(view.hand), 1, game.table, game.discard_pile, game.variant)
    two_sets = (tuple(parse_cards("2C 2D 2H")), tuple(parse_cards("2C 2D 2S")))
    assert ask_bot(bot("expert"), game) == Meld(two_sets)
