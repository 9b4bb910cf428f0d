"""Bots see only what their seat may see: the view, the legal actions worked out from it, nothing else."""

from __future__ import annotations

import copy
import dataclasses
import gc
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from rules_helpers import new_game, play

from kalooki import rules
from kalooki import view as view_module
from kalooki.bots import BotProtocolError, base, make_bot, register
from kalooki.cards import parse_card
from kalooki.driver import ask_bot, play_turn
from kalooki.engine import Game, IllegalMoveError
from kalooki.loader import load_variant
from kalooki.moves import Action, Discard, Draw
from kalooki.view import LegalView, PlayerView, stand_in


def reachable(*roots: object, limit: int = 200_000) -> Iterator[object]:
    """Every object reachable from ``roots`` by references (attributes, items, closures...)."""
    seen: set[int] = set()
    todo = list(roots)
    while todo and len(seen) < limit:
        item = todo.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        yield item
        todo.extend(gc.get_referents(item))


def game_in_play(variant: str, seed: int, turns: int) -> Game:
    game = Game(load_variant(variant), ["ann", "bob", "cid"], seed=seed)
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(3)]
    for _ in range(turns):
        if game.phase not in ("draw", "play"):
            break
        play_turn(game, bots[game.current])
    return game


def hidden_shuffled(game: Game, rng: random.Random) -> Game:
    """The same game for the current player, with the cards they cannot see dealt differently."""
    other = Game.from_json(game.to_json())
    seats = [seat for seat in range(len(other.players)) if seat != other.current]
    pool = [card for seat in seats for card in other.hands[seat]] + other.stock
    rng.shuffle(pool)
    for seat in seats:
        size = len(other.hands[seat])
        other.hands[seat], pool = pool[:size], pool[size:]
    other.stock = pool
    other.rng = random.Random(rng.random())
    return other


@pytest.mark.parametrize("variant", ["classic", "kalooki-40", "house-rules"])
def test_the_view_and_its_legal_actions_lead_to_no_hidden_card(variant: str) -> None:
    game = game_in_play(variant, seed=5, turns=7)
    view = game.view(game.current)
    legal = LegalView(view)
    assert list(legal)  # the stand-in game is built: walk it too
    secrets = {id(game), id(game.rng), id(game.stock), *(id(hand) for hand in game.hands)}
    assert not any(id(item) in secrets for item in reachable(view, legal))
    others = [seat for seat in range(3) if seat != game.current]
    real_hidden = (tuple(game.stock), *(tuple(game.hands[seat]) for seat in others))
    shown = stand_in(view)
    assert (tuple(shown.stock), *(tuple(shown.hands[seat]) for seat in others)) != real_hidden
    assert [len(shown.hands[seat]) for seat in range(3)] == list(view.hand_counts)
    assert len(shown.stock) == view.stock_count


@pytest.mark.parametrize("seed", range(3))
def test_legal_actions_from_the_view_are_the_games(seed: int) -> None:
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=seed)
    bots = [make_bot("random", random.Random(seat)) for seat in range(3)]
    for _ in range(40):
        if game.phase not in ("draw", "play"):
            break
        legal = LegalView(game.view(game.current))
        assert legal.listed() == game.legal_actions()
        assert legal.swaps() == game.legal_swaps()
        assert all(action in legal for action in game.legal_actions())
        assert Discard(99) not in legal
        game.apply(ask_bot(bots[game.current], game))


@pytest.mark.parametrize("rule", ["always", "never", "after_opening", "before_opening", "meld_at_once"])
def test_the_draws_read_from_the_view_are_the_games_under_every_discard_rule(rule: str) -> None:
    # LegalView lists the draws from the view itself (meld_at_once asks its stand-in game).
    game = Game(load_variant("classic", [f"discard_draw={rule}", "opening_threshold=0"]), ["a", "b"], seed=3)
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(2)]
    draws = 0
    for _ in range(300):
        if game.phase == "game_over":
            break
        if game.phase == "hand_over":
            game.next_hand()
        legal = LegalView(game.view(game.current))
        if game.phase == "draw":
            draws += 1
            assert legal.listed() == game.legal_actions()
            assert list(legal) == list(game.iter_legal_actions())
            assert legal.swaps() == []
            if rule != "meld_at_once":  # read from the view: a bot's draw builds no stand-in game
                assert legal._stand_in is None
        game.apply(ask_bot(bots[game.current], game))
    assert draws > 20


@pytest.mark.parametrize("kind", ["random", "greedy", "expert"])
@pytest.mark.parametrize("variant", ["classic", "kalooki-40", "house-rules"])
def test_a_bot_chooses_the_same_whatever_the_cards_it_cannot_see(kind: str, variant: str) -> None:
    # The same bot (memory included) asked about the real game and about one whose other hands and
    # stock were dealt differently: a bot that peeked would, somewhere in a hand, choose differently.
    rng = random.Random(f"{kind}/{variant}")
    game = Game(load_variant(variant), ["ann", "bob", "cid"], seed=11)
    bots = [make_bot(kind, random.Random(seat)) for seat in range(3)]
    decisions = 0
    while game.phase in ("draw", "play") and decisions < 150:
        bot = bots[game.current]
        twin = copy.deepcopy(bot)
        action = ask_bot(bot, game)
        assert ask_bot(twin, hidden_shuffled(game, rng)) == action
        try:
            game.apply(action)
        except IllegalMoveError:
            play_turn(game, bot)  # the driver's fallback finishes a turn the bot cannot
        decisions += 1
    assert decisions > 20


def test_the_view_of_another_seat_hides_the_card_drawn_from_the_stock() -> None:
    game = Game(load_variant("classic"), ["ann", "bob"], seed=2)
    game.apply(Draw("stock"))
    drawn = game.turn.drawn_card
    assert drawn is not None
    assert game.view(game.current).turn.drawn_card == drawn
    assert game.view(1 - game.current).turn.drawn_card is None
    with pytest.raises(ValueError, match="is not the current player"):
        LegalView(game.view(1 - game.current))


def test_every_view_shows_the_drawn_card_as_the_rule_says() -> None:
    # The view shows the current player in play their own draw without asking the rule: held to the
    # rule (rules.sees_drawn_card) for every seat, before and after each action, and after the hand.
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=5)
    bots = [make_bot("random", random.Random(seat)) for seat in range(3)]
    seen = hidden = 0
    while True:
        turn = game.turn
        for seat in range(3):
            shown = game.view(seat).turn.drawn_card
            in_play = game.phase in ("draw", "play")
            if turn.drawn_card is not None and rules.sees_drawn_card(seat, game.current, turn.drew, in_play):
                assert shown == turn.drawn_card
                seen += 1
            else:
                assert shown is None
                hidden += turn.drawn_card is not None
        if game.phase not in ("draw", "play"):
            break
        try:
            game.apply(ask_bot(bots[game.current], game))
        except IllegalMoveError:
            play_turn(game, bots[game.current])
    assert seen
    assert hidden


def test_the_next_seat_is_the_first_one_still_playing() -> None:
    game = Game(load_variant("classic"), ["ann", "bob", "cid", "dee"], seed=1)
    for out in range(16):
        game.eliminated = [bool(out >> seat & 1) for seat in range(4)]
        for seat in range(4):
            for direction, step in (("clockwise", 1), ("counter_clockwise", -1)):
                ahead = [(seat + step * offset) % 4 for offset in range(1, 5)]
                expected = next((other for other in ahead if not game.eliminated[other]), seat)
                assert game.next_seat(seat, direction) == expected


class OldStyle:
    """A plug-in written for the protocol before views: ``choose(game)``."""

    name = "old"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Action:
        return Draw("stock")


class Peeking:
    """A plug-in that asks the view for what it does not carry."""

    name = "peeking"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        getattr(view, "hands")  # noqa: B009 - the point is that there is no such attribute
        return Draw("stock")


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))


@pytest.mark.usefixtures("isolated_registry")
def test_a_plug_in_with_the_old_protocol_is_refused_with_the_way_to_port_it() -> None:
    register("old", OldStyle)
    with pytest.raises(BotProtocolError) as caught:
        make_bot("old", random.Random(0))
    assert str(caught.value) == OLD_PROTOCOL


OLD_PROTOCOL = (
    "the bot 'old' has choose(game): bots now get choose(view, legal), what their seat may see "
    "and its legal actions (see docs/bots.md)"
)


@pytest.mark.usefixtures("isolated_registry")
def test_every_command_that_seats_bots_refuses_the_old_protocol_in_one_line(tmp_path: Path) -> None:
    from kalooki_cli.app import app
    from kalooki_cli.net_commands import make_table
    from typer.testing import CliRunner

    register("old", OldStyle)
    commands = (["simulate", "-n", "2", "-w", "1"], ["sweep", "--grid", "jokers=2,3", "-n", "2", "-w", "1"])
    for command in commands:
        result = CliRunner().invoke(app, [*command, "--bots", "old,greedy"])
        assert (result.exit_code, result.stderr, result.stdout) == (1, OLD_PROTOCOL + "\n", ""), command
    script = tmp_path / "game.yaml"
    script.write_text("players: [ann, {name: bob, bot: old}]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["play", str(script)])
    assert (result.exit_code, result.stderr) == (1, f"{script}:1:33: players[1].bot: {OLD_PROTOCOL}\n")
    # The host checks its bots before it opens the table, not when the game starts.
    with pytest.raises(BotProtocolError) as caught:
        make_table(None, [], seats=None, bots="old", seed=1, wait=60)
    assert str(caught.value) == OLD_PROTOCOL


@pytest.mark.usefixtures("isolated_registry")
def test_a_view_has_no_other_hands_to_read() -> None:
    register("peeking", Peeking)
    game = Game(load_variant("classic"), ["ann", "bob"], seed=1)
    with pytest.raises(AttributeError):
        ask_bot(make_bot("peeking", random.Random(0)), game)
    with pytest.raises(AttributeError):
        object.__setattr__(game.view(0), "hands", [])  # slots: nothing can be hung on a view either


@pytest.mark.usefixtures("isolated_registry")
def test_the_bot_in_the_docs_plays_as_written() -> None:
    text = (Path(__file__).parent.parent / "docs" / "bots.md").read_text(encoding="utf-8")
    source = text.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(compile(source, "docs/bots.md", "exec"), namespace)
    register("cautious", namespace["CautiousBot"])  # type: ignore[arg-type]
    game = Game(load_variant("classic"), ["ann", "bob"], seed=4)
    events = play_turn(game, make_bot("cautious", random.Random(0)))
    drawn, thrown = events[0], events[-1]
    assert (drawn["type"], drawn["source"], thrown["type"]) == ("draw", "stock", "discard")
    assert thrown["card"] == drawn["card"]
    assert game.current == 1


def test_a_view_made_by_the_engine_is_the_frozen_dataclass_the_fields_make() -> None:
    # Game.view fills a ViewDraft's slots one by one: they must be the fields, and the view must have
    # every one of them set (a slot left unset raises when read).
    parameters = [field.name for field in dataclasses.fields(PlayerView)]
    assert view_module.ViewDraft.__slots__ == PlayerView.__slots__ == tuple(parameters)
    game = game_in_play("classic", 4, 9)
    view = game.view(game.current)
    assert type(view) is PlayerView
    assert view == PlayerView(*(getattr(view, name) for name in parameters))
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]


def test_the_top_of_the_discard_pile_is_its_last_card_in_every_view() -> None:
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=3)
    bots = [make_bot("random", random.Random(seat)) for seat in range(3)]
    deep = 0
    while game.phase in ("draw", "play") and deep < 5:
        pile = game.discard_pile
        deep += len(pile) > 1
        for seat in range(3):
            assert game.view(seat).discard_top == (pile[-1] if pile else None)
        play_turn(game, bots[game.current])
    assert deep
    game.discard_pile = []
    assert game.view(0).discard_top is None


@pytest.mark.parametrize("knobs", [{}, {"goal_score": 1}], ids=["the hand ends", "the game ends"])
def test_the_view_finds_legal_a_discard_that_ends_the_hand(knobs: dict[str, object]) -> None:
    """Trying a discard that goes out on the stand-in game scores the hand there (its number, its
    dealer): the stand-in must carry what the end of a hand reads."""
    game = new_game(
        {"hand_size": 4, "opening_threshold": 0, **knobs}, ["7H 8H 9H TH", "KC QC 4D 5S"], stock="2S"
    )
    play(game, "draw stock", "meld 7H 8H 9H TH")
    going_out = Discard(parse_card("2S"))
    assert game._is_legal(going_out)
    assert going_out in LegalView(game.view(0))
    assert going_out in LegalView(game.view(0)).listed()


def test_a_stand_in_is_made_afresh_for_each_try_and_trying_changes_nothing_else() -> None:
    # docs/bots.md: make one stand-in for each try; what is tried on it leaves the view, the next stand-in
    # and the real game as they were.
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=4)
    game.apply(Draw("stock"))
    real = game.to_json()
    view = game.view(0)
    fresh = stand_in(view).to_json()
    tried = stand_in(view)
    tried.apply(Discard(view.hand[0]))
    assert tried.current == 1
    assert stand_in(view).to_json() == fresh
    assert (game.to_json(), game.view(0)) == (real, view)
    assert Discard(view.hand[0]) in LegalView(view)


def test_a_view_lists_the_seats_still_playing() -> None:
    # cid's 62 points of hand 1 put him out (elimination at 60): in hand 2 a bot's view counts ann and bob.
    from test_reachable_checks import cid_out

    game = cid_out()
    assert game.eliminated == [False, False, True]
    assert game.view(game.current).seats == [0, 1]
