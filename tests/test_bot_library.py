"""kalooki used as a library, by a developer writing a bot: what it refuses, and in which words."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from kalooki_cli.app import app
from test_bots import Cautious
from typer.testing import CliRunner

from kalooki.bots import BotFailedError, BotNameError, GreedyBot, UnknownBotError, base, make_bot, register
from kalooki.driver import BotFaults, BotSeatError, play_game, play_hand
from kalooki.engine import Game, SetupError
from kalooki.loader import load_variant
from kalooki.moves import Action, Discard, Draw
from kalooki.simulate import DEFAULT_MAX_HANDS
from kalooki.text import escape_controls
from kalooki.view import LegalView, PlayerView


class NoChoose:
    name = "nochoose"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(base, "_BROKEN", {})


def test_a_bot_with_no_choose_is_refused_in_one_line_not_a_traceback() -> None:
    # It was an AttributeError from the protocol check, a traceback in every command.
    register("nochoose", NoChoose)  # type: ignore[arg-type]  # the fault under test
    register("fortytwo", lambda rng: 42)  # type: ignore[arg-type,return-value]
    said = (
        "the bot 'nochoose' could not be made: its factory gave a NoChoose, "
        "which has no choose(view, legal) to call (see docs/bots.md)"
    )
    with pytest.raises(BotFailedError) as caught:
        make_bot("nochoose", random.Random(0))
    assert str(caught.value) == said
    with pytest.raises(BotFailedError) as caught:
        make_bot("fortytwo", random.Random(0))
    assert "its factory gave an int, which has no choose(view, legal)" in str(caught.value)
    result = CliRunner().invoke(app, ["simulate", "-n", "2", "-w", "1", "--bots", "nochoose,greedy"])
    assert (result.exit_code, result.stderr) == (1, said + "\n")
    result = CliRunner().invoke(app, ["play", "--players", "2", "--bots", "nochoose"], input="quit\n")
    assert (result.exit_code, result.stderr, result.stdout) == (1, said + "\n", "")


def test_play_game_stops_a_game_no_one_can_win_after_max_hands() -> None:
    # Bots that never win a hand played on for ever (3,510 hands in 20 seconds, totals [0, 0]).
    game = Game(load_variant("classic"), ["ann", "bob"], seed=1, turn_limit=40)
    bots = [Cautious(random.Random(1)), Cautious(random.Random(2))]
    play_game(game, bots, max_hands=3)
    assert (game.game_over, game.phase, len(game.results), game.totals) == (False, "hand_over", 3, [0, 0])
    assert {result.end for result in game.results} == {"turn_limit"}
    play_game(game, bots)  # the default, as a simulation's: 200 hands more
    assert (game.game_over, len(game.results)) == (False, 3 + DEFAULT_MAX_HANDS)


class Refused:
    """Draws from nowhere and discards what is no card: well-formed actions the rules refuse."""

    name = "refused"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        return Draw("nowhere") if view.phase == "draw" else Discard(999)


def test_a_bot_whose_moves_the_rules_refuse_is_told_once_as_a_fault() -> None:
    # Its moves were all replaced, and nothing said so: a simulation exited 0 with no line at all.
    register("refused", Refused)
    said = (
        "[bot refused, seat P2] choose returned Draw(source='nowhere'), an illegal move: 'nowhere' is not"
        " a place to draw from: stock or discard; its moves are replaced by safe ones"
    )
    result = CliRunner().invoke(app, ["simulate", "-n", "2", "-w", "1", "--bots", "greedy,refused"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [said]
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3, turn_limit=30)
    faults = BotFaults()
    play_game(game, [Refused(random.Random(0)), make_bot("greedy", random.Random(0))], faults=faults)
    assert [str(fault) for fault in faults.found] == [said.replace("seat P2", "seat ann")]


@pytest.mark.parametrize("name", ["", "a,b", "x y\n", " greedy"])
def test_register_refuses_a_name_no_list_of_bots_could_choose(name: str) -> None:
    with pytest.raises(BotNameError) as caught:
        register(name, Cautious)
    assert str(caught.value) == (
        f"register: {escape_controls(repr(name))} cannot be a bot's name: bots are chosen by a list such as "
        "greedy,random, so a name is one word of printable characters without commas"
    )
    assert name not in base.bot_names()


def test_register_leaves_a_built_in_bot_its_name() -> None:
    # It replaced it: make_bot("greedy") gave the plug-in, which docs/bots.md says never happens.
    with pytest.raises(BotNameError) as caught:
        register("greedy", Cautious)
    assert str(caught.value) == (
        "register: 'greedy' is the name of a built-in bot, which keeps it: give yours another name"
    )
    assert type(make_bot("greedy", random.Random(0))) is GreedyBot
    # Nor one that reads as it: Greedy was taken beside greedy.
    with pytest.raises(BotNameError) as caught:
        register("Greedy", Cautious)
    assert str(caught.value) == (
        "register: 'Greedy' reads as the built-in bot 'greedy', which keeps it: give yours another name"
    )
    assert "Greedy" not in base.bot_names()
    register("greedy", GreedyBot)  # the built-in itself again: nothing changes
    register("cautious", Cautious)
    register("cautious", Refused)  # a plug-in's own name may be registered again
    assert type(make_bot("cautious", random.Random(0))) is Refused


@pytest.mark.parametrize(("factory", "shown"), [(None, "None"), (5, "5"), ("greedy", "'greedy'")])
def test_register_refuses_a_factory_that_cannot_be_called(factory: object, shown: str) -> None:
    # None was taken, and make_bot then said the name was no bot's ("did you mean 'nobot'?" of 'nobot').
    with pytest.raises(BotFailedError) as caught:
        register("nobot", factory)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"register: the bot 'nobot' cannot be made from {shown}: give a bot class, "
        "or a function that makes a bot from a random.Random"
    )
    assert "nobot" not in base.bot_names()


def test_make_bot_refuses_a_name_that_is_no_string_naming_it() -> None:
    # A number was a bare AttributeError ('int' object has no attribute 'lower').
    with pytest.raises(UnknownBotError) as caught:
        make_bot(5, random.Random(0))  # type: ignore[arg-type]
    assert str(caught.value) == "there is no bot called 5: a bot is chosen by its name, a string"


class Chatty(Cautious):
    """Prints as it is made and as it plays, as a plug-in may."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        print("model loaded")

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        print("thinking")
        return super().choose(view, legal)


def test_what_a_plug_in_prints_leaves_a_json_report_on_stdout_whole(tmp_path: Path) -> None:
    # Mixed into the report on stdout, it made the JSON unreadable. A sweep resumed from --out plays a
    # game of the cells it reads back again, to check they were played alike: printed there too.
    register("chatty", Chatty)
    resumed = ["sweep", "--grid", "joker_penalty=15,25", "--out", str(tmp_path / "lab")]
    for command in (["simulate"], ["sweep", "--grid", "joker_penalty=15,25"], resumed, resumed):
        args = [*command, "-n", "2", "-w", "1", "--bots", "greedy,chatty", "--json"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["bots"] == ["greedy", "chatty"]
        assert "model loaded" in result.stderr
        assert "thinking" in result.stderr


@pytest.mark.parametrize(
    ("limits", "said"),
    [
        ({"max_hands": "2"}, "max_hands must be a whole number, at least 1, or None, not '2'"),
        ({"max_hands": 0}, "max_hands must be a whole number, at least 1, or None, not 0"),
        ({"max_turns": -1}, "max_turns must be a whole number, at least 1, or None, not -1"),
        ({"max_turns": 1.5}, "max_turns must be a whole number, at least 1, or None, not 1.5"),
    ],
)
def test_play_game_refuses_limits_that_play_nothing_before_anything_is_played(
    limits: dict[str, object], said: str
) -> None:
    # "2" was a bare TypeError; max_hands=0 played nothing, max_turns=-1 abandoned every hand at once.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3)
    before = game.to_json()
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(2)]
    with pytest.raises(SetupError) as caught:
        play_game(game, bots, **limits)  # type: ignore[arg-type]
    assert str(caught.value) == f"play_game: {said}"
    assert game.to_json() == before
    with pytest.raises(SetupError) as caught:
        play_game(None, bots)  # type: ignore[arg-type]
    assert str(caught.value) == "play_game: None is not a game: kalooki.engine.Game makes one"


def test_play_hand_refuses_a_seat_without_a_bot_or_a_limit_as_play_game_does() -> None:
    # A seat without a bot was a bare KeyError at its first turn; max_turns="5" a bare TypeError.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=3)
    before = game.to_json()
    greedy = make_bot("greedy", random.Random(0))
    refused: list[tuple[Any, Any, type[Exception], str]] = [
        (
            {0: greedy},
            None,
            BotSeatError,
            "seat 1 (bob) has no bot: give one bot a seat (2 seats, 1 bots given)",
        ),
        ([greedy, greedy], "5", SetupError, "max_turns must be a whole number, at least 1, or None, not '5'"),
        ([greedy, greedy], 0, SetupError, "max_turns must be a whole number, at least 1, or None, not 0"),
    ]
    for bots, max_turns, error, said in refused:
        with pytest.raises(error) as caught:
            play_hand(game, bots, max_turns)
        assert str(caught.value) == f"play_hand: {said}"
    assert game.to_json() == before
    play_hand(
        game, [greedy, make_bot("greedy", random.Random(1))]
    )  # a list, one bot a seat, as play_game takes
    assert game.phase in ("hand_over", "game_over")


@pytest.mark.parametrize(
    ("seats", "said"),
    [
        ("two", "play_game: seat 2 (cid) has no bot: give one bot a seat (4 seats, 2 bots given)"),
        (
            "class",
            "play_game: seat 0 (ann) is given the class Cautious, not a bot: "
            "make one first, Cautious(random.Random(seed))",
        ),
        (
            "name",
            "play_game: seat 1 (bob) is given the name 'greedy', not a bot: "
            "kalooki.bots.make_bot('greedy', random.Random(seed)) makes one",
        ),
        ("int", "play_game: seat 3 (dee) is given an int, which has no choose(view, legal) to call"),
    ],
    ids=["two", "class", "name", "int"],
)
def test_play_game_refuses_a_seat_without_a_bot_before_anything_is_played(seats: str, said: str) -> None:
    # Two bots for four seats stopped at the third seat's turn with KeyError: 2; a bot's class (choose
    # wanting the bot as well) raised on every call, and the whole game was played by fallbacks in silence.
    game = Game(load_variant("classic"), ["ann", "bob", "cid", "dee"], seed=3)
    before = game.to_json()
    bots: list[object] = [Cautious(random.Random(seat)) for seat in range(4)]
    if seats == "two":
        del bots[2:]
    else:
        bots[{"class": 0, "name": 1, "int": 3}[seats]] = {"class": Cautious, "name": "greedy", "int": 42}[
            seats
        ]
    with pytest.raises(BotSeatError) as caught:
        play_game(game, bots)  # type: ignore[arg-type]  # the fault under test
    assert str(caught.value) == said
    assert isinstance(caught.value, TypeError)
    assert game.to_json() == before


def test_the_solver_bot_in_the_docs_plays_legal_moves_and_wins_hands() -> None:
    # docs/bots.md's second example: every move it makes is one the rules take (no fault recorded), and
    # its openings and lays win it hands against greedy.
    text = (Path(__file__).parent.parent / "docs" / "bots.md").read_text(encoding="utf-8")
    source = text.split("```python\n")[2].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(compile(source, "docs/bots.md", "exec"), namespace)
    planner = namespace["PlannerBot"]
    faults: list[object] = []
    won = 0
    for seed in range(4):
        game = Game(load_variant("classic"), ["ann", "bob"], seed=seed)
        bots = [planner(random.Random(seed)), GreedyBot(random.Random(seed))]  # type: ignore[operator]
        events = play_game(game, bots, faults=BotFaults(found=faults))  # type: ignore[arg-type]
        won += sum(event["type"] == "hand_end" and event["winner"] == "ann" for event in events)
    assert faults == []
    assert won > 0
