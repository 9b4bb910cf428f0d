"""Property tests: random seeded games under random valid variants, played with random legal actions.

After every action: no card is lost or duplicated, the state round-trips through JSON exactly and the
restored game continues identically, and every hand's scores follow the variant's scoring rule. Random
illegal actions are rejected and leave the state exactly as it was.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kalooki.bots import GreedyBot
from kalooki.cards import JOKER, card_points, full_pack
from kalooki.driver import ask_bot
from kalooki.engine import Game, HandResult, IllegalMoveError, NotYourTurnError, TurnState
from kalooki.joker_layers import layers_of
from kalooki.melds import TableMeld
from kalooki.moves import Action, Build, Discard, Draw, Meld, Swap
from kalooki.variant import Variant

MAX_ACTIONS = 120
LAYS_PER_TURN = 5
NAMES = ["ann", "bob", "cid", "dee"]


@st.composite
def variants(draw: st.DrawFn) -> Variant:
    # "all": one pack dealt out to four players but for a few cards: the stock soon runs out.
    size = draw(st.sampled_from([3, 4, 5, 6, 7, 9, 13, "all"]))
    decks = 1 if size == "all" else draw(st.integers(1, 3))
    jokers = draw(st.sampled_from([0, 2, 4, 8]))
    pack = decks * 52 + jokers
    max_players = 4 if size == "all" else draw(st.integers(2, 4))
    min_players = draw(st.integers(2, max_players))
    # Small hands end sooner, so more hands, Kalookis and game ends fit in an example.
    hand_size = (
        min(13, (pack - 1) // max_players) if size == "all" else min(int(size), (pack - 1) // max_players)
    )
    ace_value = draw(st.sampled_from([1, 11, 15]))
    going_out = draw(st.sampled_from(["discard_required", "discard_optional"]))
    reachable = (hand_size + (going_out == "discard_optional")) * max(10, ace_value)
    threshold = draw(st.sampled_from([0, 21, 40, 51]))
    scoring = draw(st.sampled_from(["penalty", "winner_collects"]))
    return Variant(
        decks=decks,
        jokers=jokers,
        hand_size=hand_size,
        min_players=min_players,
        max_players=max_players,
        play_direction=draw(st.sampled_from(["clockwise", "counter_clockwise"])),
        ace_value=ace_value,
        joker_penalty=draw(st.sampled_from([15, 25, 50])),
        run_minimum=draw(st.integers(3, 5)),
        ace_in_runs=draw(st.sampled_from(["high_or_low", "high", "low", "wrap"])),
        opening_threshold=threshold if threshold <= reachable else 0,
        discard_draw=draw(
            st.sampled_from(["always", "never", "after_opening", "before_opening", "meld_at_once"])
        ),
        set_joker_release=draw(
            st.sampled_from(["three_card_set", "all_missing_suits", "any_missing_suit", "never"])
        ),
        run_joker_release=draw(st.sampled_from(["exact_card", "never"])),
        joker_taker=draw(st.sampled_from(["anyone", "other_players", "anyone_but_layer"])),
        joker_release_requires_opening=draw(st.booleans()),
        released_joker_must_be_melded=draw(st.booleans()),
        going_out=going_out,
        kalooki_bonus=draw(st.sampled_from([0, 25])),
        kalooki_allows_building=draw(st.booleans()),
        scoring=scoring,
        goal_score=draw(st.sampled_from([30, 80, 150])),
        elimination=scoring == "penalty" and draw(st.booleans()),
        stock_exhausted=draw(st.sampled_from(["reshuffle_all", "reshuffle_keep_top", "end_hand"])),
    )


@st.composite
def tables(draw: st.DrawFn) -> tuple[Variant, list[str]]:
    variant = draw(variants())
    count = draw(st.integers(variant.min_players, variant.max_players))
    return variant, NAMES[:count]


@st.composite
def layered_tables(draw: st.DrawFn) -> tuple[Variant, list[str]]:
    """Tables with jokers where who laid a joker decides who may take it (kaluki-51's reading)."""
    variant, players = draw(tables())
    jokers = max(variant.jokers, 2)
    return variant.model_copy(update={"joker_taker": "anyone_but_layer", "jokers": jokers}), players


# ---------------------------------------------------------------- checks


def state(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def check_pack(game: Game) -> None:
    assert game.cards_everywhere() == full_pack(game.variant.decks, game.variant.jokers)


def round_trip(game: Game) -> Game:
    clone = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert clone.to_json() == game.to_json()
    return clone


def check_result(game: Game, result: HandResult, totals_before: list[int]) -> None:
    variant = game.variant
    change = [after - before for after, before in zip(game.totals, totals_before, strict=True)]
    assert change == list(result.scores)
    for seat in range(len(game.players)):
        if seat not in result.seats:
            assert (result.scores[seat], result.hand_points[seat]) == (0, 0)
            continue
        # The hands are still as they were when the hand ended.
        value = sum(card_points(card, variant.ace_value, variant.joker_penalty) for card in game.hands[seat])
        assert result.hand_points[seat] == value
    if result.winner is None:
        assert result.end in ("stock_exhausted", "blocked", "abandoned")
        assert not result.kalooki
        assert result.scores == (0,) * len(game.players)
        return
    assert result.end == "went_out"
    assert game.hands[result.winner] == []
    assert result.hand_points[result.winner] == 0
    losers = [seat for seat in result.seats if seat != result.winner]
    bonus = variant.kalooki_bonus if result.kalooki else 0
    if variant.scoring == "penalty":
        assert result.scores[result.winner] == 0
        for seat in losers:
            assert result.scores[seat] == result.hand_points[seat] + bonus
    else:
        assert result.scores[result.winner] == sum(result.hand_points[seat] for seat in losers)
        for seat in losers:
            assert result.scores[seat] == -bonus


def check_game_end(game: Game) -> None:
    variant = game.variant
    goal = variant.goal_score
    playing = [seat for seat in range(len(game.players)) if not game.eliminated[seat]]
    if variant.scoring == "winner_collects":
        reached = [seat for seat in playing if game.totals[seat] >= goal]
        if game.phase == "game_over":
            best = max(game.totals[seat] for seat in reached)
            assert game.winners == [seat for seat in reached if game.totals[seat] == best]
        else:
            assert reached == []
        return
    if variant.elimination:
        assert all(game.totals[seat] >= goal for seat in range(len(game.players)) if game.eliminated[seat])
        assert all(game.totals[seat] < goal for seat in playing)
        if game.phase == "game_over":
            assert game.winners == playing
            assert len(playing) == 1
        else:
            assert len(playing) >= 2
        return
    assert not any(game.eliminated)
    if game.phase == "game_over":
        assert any(game.totals[seat] >= goal for seat in playing)
        best = min(game.totals)
        assert game.winners == [seat for seat in playing if game.totals[seat] == best]
    else:
        assert all(game.totals[seat] < goal for seat in playing)


def check_layers(game: Game, table: list[TableMeld], action: Action, seat: int) -> None:
    """Who laid each joker follows the play: a build lays its jokers for the builder (for the owner where
    joker_taker does not ask), and a swap frees only jokers joker_taker lets the mover take."""
    if not isinstance(action, (Build, Swap)):
        return
    before, after = table[action.meld - 1], game.table[action.meld - 1]
    taker = game.variant.joker_taker
    if isinstance(action, Build):
        layer = seat if taker == "anyone_but_layer" else before.owner
        added = Counter({layer: action.cards.count(JOKER)})
        assert Counter(layers_of(after)) == Counter(layers_of(before)) + added
        return
    freed = Counter(layers_of(before)) - Counter(layers_of(after))
    assert sum(freed.values()) == before.jokers - after.jokers
    if taker == "anyone_but_layer":
        assert seat not in freed
    elif taker == "other_players":
        assert before.owner != seat


# ---------------------------------------------------------------- illegal actions


def illegal_actions(game: Game, rng: random.Random) -> list[tuple[Action, int | None]]:
    """Actions (with the seat that plays them) that the rules must refuse now."""
    hand = Counter(game.hands[game.current])
    missing = [card for card in [*range(52), JOKER] if hand[card] == 0]
    found: list[tuple[Action, int | None]] = []
    if missing:
        found.append((Discard(rng.choice(missing)), None))
        absent = rng.choice(missing)
        found.append((Meld(((absent, absent, absent),)), None))
    others = [seat for seat in range(len(game.players)) if seat != game.current and not game.eliminated[seat]]
    if others:
        found.append((Draw("stock"), rng.choice(others)))
    held = sorted(hand.elements())
    if game.phase == "draw":
        if held:
            found.append((Discard(rng.choice(held)), None))
            found.append((Meld((tuple(held[:3]),)), None))
        if not game.stock:
            found.append((Draw("stock"), None))
    else:
        found.append((Draw("stock"), None))
        found.append((Draw("discard"), None))
        if game.table:
            found.append((Build(len(game.table) + 1, (held[0],)), None))
            if not game.opened[game.current] and held:
                found.append((Build(rng.randint(1, len(game.table)), (rng.choice(held),)), None))
            if game.variant.joker_release_requires_opening and not game.opened[game.current] and held:
                found.append((Swap(rng.randint(1, len(game.table)), (rng.choice(held),)), None))
        if len(held) >= 2:
            # Two cards are never a meld.
            found.append((Meld((tuple(held[:2]),)), None))
    return found


def check_rejections(game: Game, rng: random.Random) -> None:
    before = state(game)
    for action, seat in illegal_actions(game, rng):
        try:
            game.apply(action, seat)
        except IllegalMoveError as error:
            refusal: IllegalMoveError | None = error
        else:  # pragma: no cover - a failure message
            raise AssertionError(f"{action} was accepted for seat {seat} in {before}")
        assert refusal is not None
        assert str(refusal)
        assert seat is None or isinstance(refusal, NotYourTurnError)
        assert state(game) == before


def check_some_legal_actions(game: Game, actions: list[Action], rng: random.Random) -> None:
    """Every action listed as legal passes the engine's own check, which changes nothing."""
    before = state(game)
    for action in rng.sample(actions, min(3, len(actions))):
        game.check(action)
        assert state(game) == before


# ---------------------------------------------------------------- playing


def choose(
    game: Game, actions: list[Action], lays_this_turn: int, rng: random.Random, bot: GreedyBot, greedy: float
) -> Action:
    if rng.random() < greedy:
        # The greedy bot's choice, when the rules accept it: games then reach their ends.
        choice = ask_bot(bot, game)
        try:
            game.check(choice)
        except IllegalMoveError:
            pass
        else:
            return choice
    if game.phase == "draw":
        return rng.choice(actions)
    lays = [action for action in actions if not isinstance(action, Discard)]
    discards = [action for action in actions if isinstance(action, Discard)]
    if lays and (not discards or (lays_this_turn < LAYS_PER_TURN and rng.random() < 0.85)):
        # Take jokers when the rules allow (it exercises the release rules), and lay many cards: hands end.
        swaps = [action for action in lays if isinstance(action, Swap)]
        if swaps and rng.random() < 0.6:
            return rng.choice(swaps)
        # Jokers built onto another player's meld: who laid a joker then differs from the meld's owner.
        onto = [
            action
            for action in lays
            if isinstance(action, Build)
            and JOKER in action.cards
            and game.table[action.meld - 1].owner != game.current
        ]
        if onto and rng.random() < 0.6:
            return rng.choice(onto)
        melds = [action for action in lays if isinstance(action, Meld)]
        if melds and rng.random() < 0.7:
            return max(melds, key=lambda meld: (sum(map(len, meld.groups)), rng.random()))
        return rng.choice(lays)
    return rng.choice(discards)


def play_game(
    variant: Variant, players: list[str], seed: int, choices: int, with_illegal: bool, greedy: float = 0.0
) -> Game:
    rng = random.Random(choices)
    bot = GreedyBot(random.Random(choices + 1))
    game = Game(variant, players, seed=seed)
    check_pack(game)
    lays_this_turn = 0
    after_draw: dict[str, Any] | None = None
    for _ in range(MAX_ACTIONS):
        if game.phase == "game_over":
            break
        clone = round_trip(game)
        check_game_end(game)
        if game.phase == "hand_over":
            events = game.next_hand()
            assert clone.next_hand() == events
            assert clone.to_json() == game.to_json()
            check_pack(game)
            continue
        actions = game.legal_actions()
        if rng.random() < 0.15:
            assert clone.legal_actions() == actions
        if with_illegal:
            check_rejections(game, rng)
            check_some_legal_actions(game, actions, rng)
        # A turn can paint itself into a corner: a card owed (meld_at_once, released_joker_must_be_melded)
        # that the melds laid since can no longer take. Taking the turn back is then the only way on.
        stuck = not actions
        if stuck:
            assert game.phase == "play"
            assert game.can_undo()
            assert game.owed_cards()
        if (
            game.phase == "play"
            and game.can_undo()
            and (stuck or rng.random() < 0.05)
            and after_draw is not None
        ):
            game.undo_turn()
            clone.undo_turn()
            now = game.to_json()
            for key in ("hands", "table", "opened", "stock", "discard_pile"):
                assert now[key] == after_draw[key]
            assert clone.to_json() == now
            continue
        action = choose(game, actions, lays_this_turn, rng, bot, greedy)
        totals = list(game.totals)
        results = len(game.results)
        table, mover = list(game.table), game.current
        events = game.apply(action)
        assert clone.apply(action) == events
        assert clone.to_json() == game.to_json()
        check_pack(game)
        check_layers(game, table, action, mover)
        if isinstance(action, Draw):
            lays_this_turn = 0
            after_draw = game.to_json()
        elif not isinstance(action, Discard):
            lays_this_turn += 1
        if len(game.results) > results:
            assert len(game.results) == results + 1
            check_result(game, game.results[-1], totals)
            assert game.phase in ("hand_over", "game_over")
    check_game_end(game)
    assert sum(result.scores[seat] for result in game.results for seat in range(len(players))) == sum(
        game.totals
    )
    return game


SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


@SETTINGS
@given(
    table=tables(),
    seed=st.integers(0, 2**32 - 1),
    choices=st.integers(0, 2**32 - 1),
    greedy=st.sampled_from([0.0, 0.6, 0.95]),
)
def test_random_games_keep_every_card_and_score_by_the_rules(
    table: tuple[Variant, list[str]], seed: int, choices: int, greedy: float
) -> None:
    variant, players = table
    play_game(variant, players, seed, choices, with_illegal=False, greedy=greedy)


@SETTINGS
@given(
    table=st.one_of(tables(), layered_tables()),
    seed=st.integers(0, 2**32 - 1),
    choices=st.integers(0, 2**32 - 1),
)
def test_random_games_reject_illegal_actions_without_a_trace(
    table: tuple[Variant, list[str]], seed: int, choices: int
) -> None:
    variant, players = table
    play_game(variant, players, seed, choices, with_illegal=True)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_seed_reproduces_the_deal(seed: int) -> None:
    first = Game(Variant(), NAMES, seed=seed)
    second = Game(Variant(), NAMES, seed=seed)
    assert first.to_json() == second.to_json()
    check_pack(first)


def test_a_turn_copy_holds_every_field_and_a_list_of_its_own() -> None:
    # Every field differs from its default and from the other fields of its type: a field left out or
    # copied into the wrong place makes the copy unequal (or unreadable).
    turn = TurnState("discard", 7, True, True, 9, 2, 1, [0, 3])
    copy = turn.copy()
    assert copy == turn
    copy.laid.append(5)
    assert turn.laid == [0, 3]


def test_a_turn_started_is_the_dataclass_default_turn() -> None:
    for opened in (False, True):
        started = TurnState.start(opened)
        assert started == TurnState(opened_before=opened)
        assert started.laid is not TurnState.start(opened).laid
