"""Bots made, games played, scripts run and logs replayed from Python: what is no bot, no game, no random
source, no script or no log is refused at the call, naming the argument, and nothing is played."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from kalooki.bots import BotFailedError, GreedyBot, make_bot
from kalooki.driver import BotFaults, BotSeatError, play_game, play_hand, play_turn
from kalooki.engine import Game, SetupError
from kalooki.errors import KalookiError
from kalooki.loader import load_variant
from kalooki.log import ReplayError, header_record, replay
from kalooki.moves import Draw
from kalooki.script import ScriptError, load_script, load_script_text
from kalooki.script_run import run_script


def _game() -> Game:
    return Game(load_variant("classic"), ["ann", "bob"], seed=1)


def _bot() -> GreedyBot:
    return GreedyBot(random.Random(1))


@pytest.mark.parametrize("rng", [1.5, None, 7, "x"])
def test_make_bot_refuses_what_is_no_random_source(rng: object) -> None:
    # The bot was made, and the random bot faulted on its first choice ('float' object has no attribute
    # 'choice'): every move of its game was a fallback, told only as a warning.
    with pytest.raises(BotFailedError) as caught:
        make_bot("random", rng)  # type: ignore[arg-type]
    said = f"make_bot: rng must be a random.Random (random.Random(seed) makes one), not {rng!r}"
    assert str(caught.value) == said


@pytest.mark.parametrize(
    ("bot", "said"),
    [
        (None, "is given None, not a bot: kalooki.bots.make_bot(name, random.Random(seed)) makes one"),
        (
            "greedy",
            "is given the name 'greedy', not a bot: kalooki.bots.make_bot('greedy', random.Random(seed)) "
            "makes one",
        ),
        (
            GreedyBot,
            "is given the class GreedyBot, not a bot: make one first, GreedyBot(random.Random(seed))",
        ),
        (5, "is given an int, which has no choose(view, legal) to call"),
    ],
)
@pytest.mark.parametrize("drawn", [False, True])
def test_play_turn_refuses_what_is_no_bot_and_plays_nothing(bot: object, said: str, drawn: bool) -> None:
    # Each was a fault at every move, each move replaced by the fallback's, and the turn played.
    game = _game()
    if drawn:
        game.apply(Draw("stock"))
    before = game.to_json()
    with pytest.raises(BotSeatError) as caught:
        play_turn(game, bot)  # type: ignore[arg-type]
    assert str(caught.value) == f"play_turn: seat 0 (ann) {said}"
    assert game.to_json() == before


@pytest.mark.parametrize(
    ("call", "error", "said"),
    [
        # An AttributeError: 'NoneType' object has no attribute 'current'.
        (
            lambda game: play_turn(None, _bot()),
            SetupError,
            "play_turn: None is not a game: kalooki.engine.Game makes one",
        ),  # type: ignore[arg-type]
        # Taken, and an AttributeError ('int' object has no attribute 'record') at the bot's first fault.
        (
            lambda game: play_turn(game, _bot(), faults=5),  # type: ignore[arg-type]
            SetupError,
            "play_turn: faults must be a BotFaults (kalooki.driver.BotFaults()), not 5",
        ),
        (
            lambda game: play_game(game, [_bot(), _bot()], faults="x"),  # type: ignore[arg-type]
            SetupError,
            "play_game: faults must be a BotFaults (kalooki.driver.BotFaults()), not 'x'",
        ),
        # A bare TypeError ('NoneType' object is not iterable).
        (
            lambda game: play_game(game, None),  # type: ignore[arg-type]
            BotSeatError,
            "play_game: give the bots as a list, one a seat, or a mapping of seats, not None",
        ),
        (
            lambda game: play_hand(game, None),  # type: ignore[arg-type]
            BotSeatError,
            "play_hand: give the bots as a list, one a seat, or a mapping of seats, not None",
        ),
        # Read letter by letter: "seat 0 (ann) is given the name 'g'".
        (
            lambda game: play_game(game, "greedy"),  # type: ignore[arg-type]
            BotSeatError,
            "play_game: give the bots as a list, one a seat, or a mapping of seats, not 'greedy'",
        ),
    ],
)
def test_the_driver_refuses_games_faults_and_bots_of_the_wrong_kind(
    call: Callable[[Game], object], error: type[KalookiError], said: str
) -> None:
    game = _game()
    before = game.to_json()
    with pytest.raises(error) as caught:
        call(game)
    assert str(caught.value) == said
    assert game.to_json() == before


def test_a_bot_and_faults_of_the_right_kind_still_play() -> None:
    game = _game()
    faults = BotFaults()
    assert play_turn(game, _bot(), faults)
    assert game.current == 1
    assert not faults.found


@pytest.mark.parametrize(
    ("call", "said"),
    [
        # Bare TypeErrors: open's (path should be string, ...), len's (object of type 'NoneType' has no len).
        (lambda: load_script(None), "a script is given by its path, not None"),  # type: ignore[arg-type]
        (
            lambda: load_script_text(None),  # type: ignore[arg-type]
            "<script>: a script's text is a string or UTF-8 bytes, not None",
        ),
        (
            lambda: load_script_text("players: [a, b]\n", base_dir=None),  # type: ignore[arg-type]
            "<script>: base_dir must be a folder's path, not None",
        ),
        # AttributeError: 'str' object has no attribute 'variant'.
        (
            lambda: run_script("players: [a, b]\n"),  # type: ignore[arg-type]
            "run_script plays a LoadedScript (load_script gives one), not 'players: [a, b]\\n'",
        ),
        # TypeError: 'int' object is not callable, once the first events came.
        (
            lambda: run_script(load_script_text("players: [a, b]\n"), on_events=5),  # type: ignore[arg-type]
            "on_events must be a function of (game, events), not 5",
        ),
    ],
)
def test_scripts_given_what_they_cannot_read_or_run_say_so(call: Callable[[], object], said: str) -> None:
    with pytest.raises(ScriptError) as caught:
        call()
    assert str(caught.value) == said


def test_replay_given_lines_of_text_or_no_records_says_to_read_them() -> None:
    # replay(open(path)) gives it lines of text: an AttributeError ('str' object has no attribute 'get');
    # None a TypeError ('NoneType' object is not iterable), on_events=5 one at the first step confirmed.
    records = [header_record(_game())]
    refused = [
        (
            lambda: replay(['{"type": "game"}\n']),
            "record 1: a record is read from its line by json.loads, not ",
        ),
        (lambda: replay([*records, 5]), "record 2: a record is read from its line by json.loads, not 5"),
        (lambda: replay(None), "replay reads a log's records, each json.loads of a line, not None"),
        (lambda: replay(records, on_events=5), "on_events must be a function of (game, events), not 5"),
    ]
    for call, said in refused:
        with pytest.raises(ReplayError) as caught:
            call()  # type: ignore[no-untyped-call]
        assert str(caught.value).startswith(said)
