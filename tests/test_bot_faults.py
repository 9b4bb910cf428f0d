"""A faulty plug-in bot slows a game down but never stops it: what it raises, or a choice that is no
action, is played safely instead and told once, in one line naming the bot and its seat."""

from __future__ import annotations

import linecache
import random
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.interactive import new_game
from net_helpers import BotSeat, hosted, play_moves
from typer.testing import CliRunner

from kalooki.bots import base, make_bot, register
from kalooki.cards import format_card
from kalooki.driver import BotFaults, BotFaultWarning, play_game, play_turn
from kalooki.engine import Game, IllegalMoveError
from kalooki.loader import load_variant
from kalooki.moves import Action, Discard, Draw
from kalooki.savegame import dump_save
from kalooki.simulate import simulate
from kalooki.simulation_comparison import compare
from kalooki.solver import solve
from kalooki.variant import Variant
from kalooki.view import LegalView, PlayerView


def at(choose: Callable[..., object]) -> str:
    """Where a fault says a ``choose`` of one line, the ``raise`` below its ``def``, raised."""
    return f"(at {Path(__file__).name}:{choose.__code__.co_firstlineno + 1})"


class Raises:
    name = "raises"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        raise ValueError("boom")


RAISES = (
    f"[bot raises, seat bob] choose raised ValueError: boom {at(Raises.choose)}; "
    "its moves are replaced by safe ones"
)


class GivesNone(Raises):
    name = "none"

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        return None  # type: ignore[return-value]  # the fault under test


class FailsToStart:
    name = "failing"

    def __init__(self, rng: random.Random) -> None:
        raise RuntimeError("no model file")

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        return Draw("stock")


class Honest(Raises):
    name = "honest"

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        return Draw("stock") if view.phase == "draw" else Discard(view.hand[-1])


@pytest.fixture(autouse=True)
def faulty_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(base, "_BROKEN", {})
    register("raises", Raises)
    register("none", GivesNone)
    register("failing", FailsToStart)


def first_discard(players: list[str], seed: int) -> str:
    """The card the first player draws from the stock in a classic game of ``players`` dealt by ``seed``."""
    game = Game(load_variant("classic"), players, seed=seed)
    game.apply(Draw("stock"))
    card = game.turn.drawn_card
    assert card is not None
    return format_card(card)


def test_a_bot_that_raises_or_gives_no_action_plays_safely_and_is_recorded_once() -> None:
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=3, turn_limit=30)
    told: list[str] = []
    faults = BotFaults(tell=lambda fault: told.append(str(fault)))
    play_game(
        game,
        [make_bot("greedy", random.Random(0)), Raises(random.Random(0)), GivesNone(random.Random(0))],
        faults=faults,
    )
    assert told == [
        RAISES,
        "[bot none, seat cid] choose returned None, not an action; its moves are replaced by safe ones",
    ]
    assert game.game_over or game.phase == "hand_over"


def test_a_fault_is_a_warning_where_the_caller_keeps_no_faults() -> None:
    # Called from Python without a BotFaults, play_game and simulate replaced a bot that raised on every
    # move in silence: the bot looked merely weak.
    game = Game(load_variant("classic"), ["ann", "bob", "cid"], seed=3, turn_limit=30)
    bots = [make_bot("greedy", random.Random(0)), Raises(random.Random(0)), GivesNone(random.Random(0))]
    with pytest.warns(BotFaultWarning) as caught:
        play_game(game, bots)
    # Located at the caller's line, not in the driver, which named no line of the caller's.
    where = {
        (warning.filename, linecache.getline(warning.filename, warning.lineno).strip()) for warning in caught
    }
    assert where == {(__file__, "play_game(game, bots)")}
    assert [str(warning.message) for warning in caught] == [
        RAISES,
        "[bot none, seat cid] choose returned None, not an action; its moves are replaced by safe ones",
    ]
    with pytest.warns(BotFaultWarning) as caught:
        result = simulate(load_variant("classic"), ["greedy", "raises"], 2, workers=1)
    said = RAISES.replace("seat bob", "seat P2")
    assert [str(fault) for fault in result.faults] == [str(warning.message) for warning in caught] == [said]
    # compare() replaced it in silence: told once, though both runs met it.
    forty = load_variant("kalooki-40")
    with pytest.warns(BotFaultWarning) as caught:
        comparison = compare(load_variant("classic"), forty, ["greedy", "raises"], 2, workers=1)
    assert [str(warning.message) for warning in caught] == [said]
    assert [str(fault) for fault in comparison.b.faults] == [said]


class MisusesTheSolver(Raises):
    name = "misuse"

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        raise ValueError(solve(view.hand, view.variant, objective="most"))  # type: ignore[arg-type]


def test_a_fault_raised_says_the_line_of_the_bot_it_came_from() -> None:
    # One line with no traceback, "choose raised KeyError: 3", left a bot's author nothing to go on; what
    # kalooki's solver raises at the bot's bad call is the bot's line, not the solver's.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3, turn_limit=30)
    faults = BotFaults()
    play_turn(game, MisusesTheSolver(random.Random(0)), faults)
    assert [fault.problem for fault in faults.found] == [
        "choose raised SolverError: unknown objective 'most': use one of points, cards, value_left "
        + at(MisusesTheSolver.choose)
    ]


class Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class GivesUnprintable(Raises):
    name = "unprintable"

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        return Unprintable()  # type: ignore[return-value]  # the fault under test


def test_a_choice_that_cannot_be_shown_is_told_by_its_kind_and_the_game_goes_on() -> None:
    # The engine's refusal called its repr, which raised: the game stopped with that traceback.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3)
    faults = BotFaults()
    play_turn(game, GivesUnprintable(random.Random(0)), faults)
    assert [fault.problem for fault in faults.found] == ["choose returned a Unprintable, not an action"]
    assert game.current == 1


class RaisesRefusal(Raises):
    """Raises the engine's own refusal, as a bot that tries moves on a copy of the game may let out."""

    name = "refused"

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        raise IllegalMoveError("not your turn")


def test_a_bot_that_raises_an_illegal_move_error_of_its_own_is_a_fault_not_an_illegal_choice() -> None:
    # It was taken for the engine refusing the bot's choice, which a bot may make and is not told.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3, turn_limit=30)
    told: list[str] = []
    faults = BotFaults(tell=lambda fault: told.append(str(fault)))
    play_game(game, [make_bot("greedy", random.Random(0)), RaisesRefusal(random.Random(0))], faults=faults)
    assert told == [
        "[bot refused, seat bob] choose raised IllegalMoveError: not your turn"
        f" {at(RaisesRefusal.choose)}; its moves are replaced by safe ones"
    ]


class Exits(Raises):
    """Calls itself what it inherits: "raises"."""

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        raise SystemExit(3)


def test_a_bot_is_named_as_it_was_chosen_and_its_sys_exit_is_a_fault() -> None:
    # The line named the class's inherited name ("[bot raises, ...]") for the bot chosen as "exits",
    # which the table shows; and a bot calling sys.exit() ended the whole game without a word.
    register("exits", Exits)
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3, turn_limit=30)
    told: list[str] = []
    play_game(
        game,
        [make_bot("greedy", random.Random(0)), make_bot("exits", random.Random(0))],
        faults=BotFaults(tell=lambda fault: told.append(str(fault))),
    )
    said = f"[bot exits, seat bob] choose raised SystemExit: 3 {at(Exits.choose)}"
    assert told == [f"{said}; its moves are replaced by safe ones"]
    assert game.game_over or game.phase == "hand_over"


def test_the_engine_refuses_what_is_no_action_by_saying_what_it_got() -> None:
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3)
    for given, said in ((None, "None"), ("draw stock", "'draw stock'")):
        with pytest.raises(IllegalMoveError) as caught:
            game.apply(given)  # type: ignore[arg-type]
        assert str(caught.value) == f"not an action: {said}"
    with pytest.warns(BotFaultWarning):  # no faults asked for: played safely all the same, and warned of
        events = play_turn(game, GivesNone(random.Random(0)))
    assert [event["type"] for event in events] == ["draw", "discard"]


def test_play_and_resume_go_on_past_a_bot_that_raises(tmp_path: Path) -> None:
    card = first_discard(["you", "bob"], 1)
    played = CliRunner().invoke(
        app,
        ["play", "--seed", "1", "--players", "2", "--fast", "--bots", "raises"],
        input=f"ds\nd {card}\nquit\n",
    )
    assert played.exit_code == 0, played.output
    assert " ".join(played.stdout.split()).count(RAISES) == 1
    assert "Traceback" not in played.output
    # A save made just before the bot's turn: resuming it plays that turn first.
    game, session = new_game(Variant(), "you", ["raises"], 1)
    game.apply(Draw("stock"))
    game.apply(Discard(game.turn.drawn_card or 0))
    save = tmp_path / "game.kalooki-save.json"
    save.write_text(dump_save(game, session), encoding="utf-8")
    resumed = CliRunner().invoke(app, ["resume", str(save)], input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert " ".join(resumed.stdout.split()).count(RAISES) == 1
    assert "bob draws from the stock" in resumed.stdout


def test_a_script_and_a_simulation_tell_the_fault_once_on_stderr(tmp_path: Path) -> None:
    card = first_discard(["ann", "bob"], 2)
    script = tmp_path / "game.yaml"
    script.write_text(
        "players: [ann, {name: bob, bot: raises}]\nseed: 2\n"
        f"hands:\n  - moves:\n      - ann: draw stock\n      - ann: discard {card}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["play", str(script)])
    assert (result.exit_code, result.stderr) == (0, RAISES + "\n"), result.output
    result = CliRunner().invoke(app, ["simulate", "-n", "2", "-w", "1", "--bots", "greedy,raises"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [RAISES.replace("seat bob", "seat P2")]
    compared = ["simulate", "-n", "2", "-w", "1", "--bots", "greedy,raises", "--compare", "kalooki-40"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = CliRunner().invoke(app, compared)
    assert result.exit_code == 0, result.output
    # Told in the command's words, not in Python's as well.
    assert [warning for warning in caught if warning.category is BotFaultWarning] == []
    assert result.stderr.count(RAISES.replace("seat bob", "seat P2")) == 1


def test_a_hosted_table_goes_on_past_a_bot_that_raises_and_tells_the_host() -> None:
    from kalooki_net.table import Table

    heard: list[str] = []
    table = Table(load_variant("classic"), seats=2, bots=["raises"], seed=5, wait_seconds=30.0)
    with hosted(table, on_change=heard.append) as host:
        ann = BotSeat(host.uri)
        ann.join(table.code, name="ann")
        host.call(host.server.start_game)
        ann.until("state")
        for _ in range(20):  # ann's turn, up to her discard: then the bot's turn comes
            if not ann.my_turn():
                break
            play_moves([ann], 1)
        for _ in range(5):  # frozen, the table sent nothing more, and this timed out
            if ann.my_turn():
                break
            ann.until("state")
        assert ann.view is not None
        assert (ann.view["turn_number"], ann.view["current"]) == (3, 0)
        assert heard.count(RAISES) == 1


def test_a_bot_that_cannot_be_made_is_refused_in_one_line_and_the_save_is_left(tmp_path: Path) -> None:
    said = "the bot 'failing' could not be made: RuntimeError: no model file\n"
    result = CliRunner().invoke(app, ["play", "--players", "2", "--bots", "failing"], input="quit\n")
    assert (result.exit_code, result.stderr, result.stdout) == (1, said, "")
    game, session = new_game(Variant(), "you", ["failing"], 1)
    save = tmp_path / "game.kalooki-save.json"
    save.write_text(dump_save(game, session), encoding="utf-8")
    before = save.read_bytes()
    result = CliRunner().invoke(app, ["resume", str(save)], input="quit\n")
    assert (result.exit_code, result.stderr, result.stdout) == (1, said, "")
    assert save.read_bytes() == before
    result = CliRunner().invoke(app, ["simulate", "-n", "1", "-w", "1", "--bots", "failing,greedy"])
    assert (result.exit_code, result.stderr) == (1, said)


NOTHING = None
"""What a plug-in's entry point may name by mistake: no bot class or function."""


def test_a_broken_plug_in_hides_no_other_and_is_named_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.metadata import EntryPoint

    def entry_points(group: str) -> list[EntryPoint]:
        return [
            EntryPoint("missing", "kalooki.cards:Nope", group),
            EntryPoint("honest", f"{__name__}:Honest", group),
            EntryPoint("greedy", "kalooki.cards:Nope", group),  # a built-in's name: the built-in keeps it
            EntryPoint("nothing", f"{__name__}:NOTHING", group),
        ]

    monkeypatch.setattr(base, "entry_points", entry_points)
    assert type(make_bot("honest", random.Random(0))) is Honest
    assert "missing" not in base.bot_names()
    missing = (
        "the plug-in bot 'missing' (kalooki.cards:Nope) could not be loaded: "
        "AttributeError: module 'kalooki.cards' has no attribute 'Nope'"
    )
    result = CliRunner().invoke(app, ["simulate", "-n", "1", "-w", "1", "--bots", "missing"])
    assert result.exit_code == 2
    assert missing in " ".join(result.stderr.split())
    result = CliRunner().invoke(app, ["simulate", "-n", "1", "-w", "1", "--bots", "nosuch"])
    assert result.exit_code == 2
    assert "there is no bot called 'nosuch'" in " ".join(result.stderr.split())
    with pytest.raises(base.UnknownBotError) as caught:
        make_bot("missing", random.Random(0))
    assert str(caught.value) == missing
    # Loaded as None, it was taken and then said to be no bot's, asking "did you mean 'nothing'?".
    with pytest.raises(base.UnknownBotError) as caught:
        make_bot("nothing", random.Random(0))
    assert str(caught.value) == (
        f"the plug-in bot 'nothing' ({__name__}:NOTHING) could not be loaded: "
        "it names None, no bot class or function"
    )


def test_a_bot_cannot_change_the_hand_through_its_view() -> None:
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3)
    view = game.view(0)
    held, key = game.hand_states[0].held, game.hand_states[0].key
    with pytest.raises(AttributeError):
        view.hand_state.held = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view.hand_state.key = 0  # type: ignore[misc]
    assert (game.hand_states[0].held, game.hand_states[0].key) == (held, key)


def test_only_kalooki_own_bots_are_given_the_engines_hand_state() -> None:
    # The copy that keeps a plug-in from changing the hand cost random play 6%; kalooki's own bots never
    # write to their view. A plug-in's subclass of one of them may, so it is given the copy.
    from kalooki.bots import GreedyBot
    from kalooki.driver import ask_bot

    seen: list[object] = []

    class Watching(GreedyBot):
        def choose(self, view: PlayerView, legal: LegalView) -> Action:
            seen.append(view.hand_state)
            return super().choose(view, legal)

    game = Game(load_variant("classic"), ["ann", "bob"], seed=3)
    ask_bot(Watching(random.Random(0)), game)
    assert seen[0] is not game.hand_states[0]
    with pytest.raises(AttributeError):
        seen[0].held = 0  # type: ignore[attr-defined]
    assert game.view(0, own_bot=True).hand_state is game.hand_states[0]


def test_kalooki_own_bots_on_turn_are_given_the_engines_turn_and_others_a_copy() -> None:
    # Copying the turn for every view of a simulated game cost about a seventh of the view; the player
    # on turn sees all of it, and kalooki's own bots never write to it.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3)
    assert game.view(0, own_bot=True).turn is game.turn
    assert game.view(0).turn is not game.turn
    assert game.view(1, own_bot=True).turn is not game.turn  # not on turn: a copy, with its hidden fields
    game.apply(Draw("stock"))
    shown = game.view(0)
    assert shown.turn is not game.turn
    assert shown.turn == game.turn
    assert game.view(0, own_bot=True).turn is game.turn
    assert game.view(1, own_bot=True).turn.drawn_card is None


def test_a_sweep_tells_the_fault_once_on_stderr(tmp_path: Path) -> None:
    # A sweep's games went on past the bot as a simulation's do, but nothing said that its moves were
    # replaced: the figures looked like a bot's own play.
    args = ["sweep", "--grid", "joker_penalty=15,25", "-n", "2", "-w", "1", "--bots", "greedy,raises"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [RAISES.replace("seat bob", "seat P2")]
