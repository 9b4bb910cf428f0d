"""kalooki called from Python: what a call cannot use is refused at the call, in the library's words."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from pydantic import ValidationError

from kalooki.engine import Game, NoSeatError, NotYourTurnError, SetupError, StateFormatError
from kalooki.errors import KalookiError
from kalooki.executors import ExecutorError
from kalooki.knob_errors import KnobError
from kalooki.loader import VariantError, load_variant, load_variant_text, resolve_variant
from kalooki.moves import Draw, NotAMoveError, parse_move
from kalooki.simulate import MAX_GAMES, SimulationError, compare, simulate
from kalooki.solver import SolverError, best_opening, can_open, solve
from kalooki.variant import Variant
from kalooki.view import LegalView, NotAViewError


@pytest.mark.parametrize(
    ("seed", "said"),
    [(True, "True (bool)"), ("x", "'x' (str)"), (1.5, "1.5 (float)")],
)
def test_a_seed_that_could_not_be_saved_is_refused_when_the_game_is_made(seed: object, said: str) -> None:
    # It was taken, and the save it made was refused when read back ("seed: expected a whole number").
    with pytest.raises(SetupError) as caught:
        Game(load_variant("classic"), ["a", "b"], seed=seed)  # type: ignore[arg-type]
    assert str(caught.value) == f"the seed must be a whole number or None, not {said}"


@pytest.mark.parametrize(
    ("limit", "said"),
    [(1.5, "1.5 (float)"), (True, "True (bool)"), (None, "None (NoneType)"), ("10", "'10' (str)")],
)
def test_a_turn_limit_that_could_not_be_saved_is_refused_when_the_game_is_made(
    limit: object, said: str
) -> None:
    # 1.5 or True was taken, and the save it made was refused when read back ("turn_limit: expected a
    # whole number"); None or "10" failed as a bare TypeError.
    with pytest.raises(SetupError) as caught:
        Game(load_variant("classic"), ["a", "b"], seed=1, turn_limit=limit)  # type: ignore[arg-type]
    assert str(caught.value) == f"the turn limit must be a whole number, not {said}"


@pytest.mark.parametrize(
    ("limit", "said"), [(0, "0"), (-3, "-3"), (10**12 + 1, "1000000000001"), (10**40, "1" + "0" * 40)]
)
def test_a_turn_limit_out_of_range_is_refused_when_the_game_is_made(limit: int, said: str) -> None:
    # Over 10^12, the game was made and played, and its save was refused when read back.
    with pytest.raises(SetupError) as caught:
        Game(load_variant("classic"), ["a", "b"], seed=1, turn_limit=limit)
    assert str(caught.value) == f"the turn limit must be 1 to 1,000,000,000,000, not {said}"


def test_the_largest_turn_limit_saves_and_reads_back() -> None:
    game = Game(load_variant("classic"), ["a", "b"], seed=1, turn_limit=10**12)
    assert Game.from_json(game.to_json()).turn_limit == 10**12


def test_a_seed_that_is_a_whole_number_of_another_type_is_kept_as_an_int() -> None:
    class Seed(int):
        pass

    class Indexed:  # numpy's int64 is one: random.Random refused it with a bare TypeError
        def __index__(self) -> int:
            return 5

    variant = load_variant("classic")
    for seed in (Seed(5), Indexed()):
        game = Game(variant, ["a", "b"], seed=seed)  # type: ignore[arg-type]
        assert type(game.seed) is int
        assert game.seed == 5
        again = Game.from_json(json.loads(json.dumps(game.to_json())))
        assert again.to_json() == Game(variant, ["a", "b"], seed=5).to_json()


@pytest.mark.parametrize(
    ("limits", "said"),
    [
        ({"max_hands": 0}, "max_hands must be a whole number, at least 1, not 0"),
        ({"max_hands": 2.5}, "max_hands must be a whole number, at least 1, not 2.5"),
        ({"max_turns": -1}, "max_turns must be a whole number, at least 1, not -1"),
        # The engine refused it from the first game, in a worker, as 'the turn limit must be ...'.
        ({"max_turns": 10**12 + 1}, "max_turns must be at most 1,000,000,000,000, not 1,000,000,000,001"),
    ],
)
def test_simulate_refuses_limits_that_play_nothing(limits: dict[str, object], said: str) -> None:
    # max_hands=0 played no hand of any game and returned the games as played, unfinished.
    with pytest.raises(SimulationError) as caught:
        simulate(load_variant("classic"), ["greedy", "random"], 2, workers=1, **limits)  # type: ignore[arg-type]
    assert str(caught.value) == said


def test_simulate_speaks_the_library_words_and_refuses_a_string_of_bots() -> None:
    # It named the command line's flags (--games must be at least 1), and took "greedy,random" for 13 bots.
    classic = load_variant("classic")
    refused = [
        ((["greedy"], 0), "games must be at least 1, not 0"),
        ((["greedy"], MAX_GAMES + 1), "1,000,001 games: a run plays at most 1,000,000 games"),
        (
            ("greedy,random", 2),
            "bots: give a list of bot names, one a seat (['greedy', 'random']), not 'greedy,random'",
        ),
        ((["greedy", 3], 2), "bots: a bot is given by its name, a string, not 3"),
        (
            (["greedy", "random"], 5),
            "duplicate deals are each played once per seat rotation: 5 games is not a multiple of the 2 "
            "rotations of greedy, random (try 4 or 6)",
        ),
    ]
    for (bots, games), said in refused:
        with pytest.raises(SimulationError) as caught:
            simulate(classic, bots, games, workers=1, duplicate=games == 5)  # type: ignore[arg-type]
        assert str(caught.value) == said
        with pytest.raises(SimulationError) as caught:
            compare(classic, classic, bots, games, workers=1, duplicate=games == 5)  # type: ignore[arg-type]
        assert str(caught.value) == said


def test_simulate_refuses_counts_and_seeds_that_are_no_whole_numbers() -> None:
    # games="2" or 1.5 and workers="2" were bare TypeErrors; seed="x" or 1.5 was hashed, reported as the seed.
    classic = load_variant("classic")
    refused: list[tuple[dict[str, object], type[Exception], str]] = [
        ({"games": "2"}, SimulationError, "games must be a whole number, at least 1, not '2'"),
        ({"games": 1.5}, SimulationError, "games must be a whole number, at least 1, not 1.5"),
        ({"seed": "x"}, SimulationError, "seed must be a whole number, not 'x'"),
        ({"seed": 1.5}, SimulationError, "seed must be a whole number, not 1.5"),
        ({"workers": "2"}, ExecutorError, "workers must be a whole number, at least 1, not '2'"),
    ]
    for given, error, said in refused:
        arguments: dict[str, Any] = {"games": 1, "seed": 0, "workers": 1, **given}
        for run in (simulate, partial(compare, classic)):  # compare's b is classic too
            with pytest.raises(error) as caught:
                run(classic, ["greedy", "random"], **arguments)
            assert str(caught.value) == said


@pytest.mark.parametrize(
    ("given", "error", "said"),
    [
        # "no" was taken as true, and the games were played as duplicate deals.
        ({"duplicate": "no"}, SimulationError, "duplicate must be True or False, not 'no'"),
        ({"duplicate": None}, SimulationError, "duplicate must be True or False, not None"),
        # A bare TypeError ('NoneType' object is not iterable).
        (
            {"bots": None},
            SimulationError,
            "bots: give a list of bot names, one a seat (['greedy', 'random']), not None",
        ),
        # The command line's option was named: --workers must be at least 1.
        ({"workers": 0}, ExecutorError, "workers must be at least 1, not 0"),
        # An AttributeError ('int' object has no attribute 'executor') once the games were sent.
        ({"pool": 5}, ExecutorError, "pool must be a Pool (kalooki.executors.open_pool opens one), not 5"),
    ],
)
def test_simulate_refuses_flags_pools_and_bots_of_the_wrong_kind(
    given: dict[str, object], error: type[Exception], said: str
) -> None:
    classic = load_variant("classic")
    arguments: dict[str, Any] = {"bots": ["greedy", "random"], "games": 2, "workers": 1, **given}
    for run in (simulate, partial(compare, classic)):
        with pytest.raises(error) as caught:
            run(classic, **arguments)
        assert str(caught.value) == said


def test_simulate_refuses_a_progress_that_cannot_be_called_before_a_game_is_played() -> None:
    # progress=5 was a TypeError ('int' object is not callable) once the first game had been played.
    classic = load_variant("classic")
    said = "progress must be a function of (games done, games in all), not 5"
    for run in (simulate, partial(compare, classic)):
        with pytest.raises(SimulationError) as caught:
            run(classic, ["greedy", "random"], 2, 1, workers=1, progress=5)
        assert str(caught.value) == said


def test_load_variant_takes_one_set_option_given_alone() -> None:
    # A string is a sequence too: it was read letter by letter, fourteen diagnostics for "goal_score=200".
    assert load_variant("classic", "goal_score=200").goal_score == 200
    assert load_variant("classic", "goal_score=200") == load_variant("classic", ["goal_score=200"])
    with pytest.raises(VariantError) as caught:
        load_variant("classic", "goal_score")
    assert [str(problem) for problem in caught.value.diagnostics] == [
        "--set:1:1: expected KEY=VALUE (e.g. opening_threshold=40), got 'goal_score'"
    ]


def test_load_variant_takes_knobs_as_a_mapping() -> None:
    # A dict was read as a list of --set options, one a key: "expected KEY=VALUE ..., got 'goal_score'".
    rules = load_variant("kalooki-40", {"goal_score": 200, "jokers": 4})
    assert (rules.name, rules.goal_score, rules.jokers) == ("kalooki-40", 200, 4)
    assert rules == load_variant("kalooki-40", ["goal_score=200", "jokers=4"])
    assert load_variant_text("goal_score: 300\n", overrides={"jokers": 4}).jokers == 4
    assert str(resolve_variant("classic", {"goal_score": 200}).origins["goal_score"]) == "overrides"


@pytest.mark.parametrize(
    ("knobs", "said"),
    [
        ({"goal_scor": 200}, ["overrides: goal_scor: unknown key 'goal_scor'; did you mean 'goal_score'?"]),
        (
            {"goal_score": "x"},
            [
                "overrides: goal_score: expected a whole number, got 'x': "
                "write a whole number from 1 to 1000000"
            ],
        ),
        ({"extends": "classic"}, ["overrides: extends: a variant's bases cannot be changed here"]),
    ],
)
def test_a_mapping_of_knobs_is_checked_as_a_scripts_set_is(knobs: dict[str, object], said: list[str]) -> None:
    for load in (partial(load_variant, "classic"), partial(load_variant_text, "jokers: 4\n", "v.yaml")):
        with pytest.raises(VariantError) as caught:
            load(overrides=knobs)
        assert [str(problem) for problem in caught.value.diagnostics] == said


@pytest.mark.parametrize(
    "knobs",
    [
        {"jokers": "x"},
        {"jokerz": 2},
        {"jokers": 99},
        {"jokers": True},
        {"scoring": "Penalty"},
        {"goal_score": 10**30},
        {"min_players": 5, "max_players": 3},
        {"hand_size": 3, "opening_threshold": 200},
        {"decks": "x", "jokers": "y"},
    ],
)
def test_variant_made_in_code_refuses_its_knobs_in_the_loaders_words(knobs: dict[str, object]) -> None:
    # It raised pydantic's lines ("Input should be a valid integer [type=int_type, input_value='x', ...]"
    # and a web address), naming no rule broken among several knobs.
    with pytest.raises(VariantError) as loaded:
        load_variant("classic", knobs)
    with pytest.raises(KnobError) as caught:
        Variant(**knobs)  # type: ignore[arg-type]
    said = [str(problem).replace("overrides: ", "Variant: ", 1) for problem in loaded.value.diagnostics]
    assert str(caught.value).splitlines() == [str(problem) for problem in caught.value.diagnostics] == said
    assert isinstance(caught.value, KalookiError)
    again = pickle.loads(pickle.dumps(caught.value))  # as a worker process sends it back
    assert (type(again), str(again)) == (KnobError, str(caught.value))


def test_variant_made_in_code_still_raises_pydantics_error() -> None:
    # Callers that caught pydantic's ValidationError and read its errors() are served as before.
    with pytest.raises(ValidationError) as caught:
        Variant(jokers="x")  # type: ignore[arg-type]
    assert [(item["type"], item["loc"]) for item in caught.value.errors()] == [("int_type", ("jokers",))]
    assert repr(caught.value) == (
        "KnobError(\"Variant: jokers: expected a whole number, got 'x': write a whole number from 0 to 8\")"
    )
    with pytest.raises(KnobError) as crossed:
        Variant(min_players=5, max_players=3)
    assert crossed.value.errors()[0]["msg"].startswith(
        "Value error, min_players (5) is more than max_players"
    )
    assert Variant(jokers=2.0) == Variant(jokers=2)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: load_variant(None), "a variant is given by a built-in name or a path, not None"),  # type: ignore[arg-type]
        (lambda: load_variant(b"classic"), "a variant is given by a built-in name or a path, not b'classic'"),  # type: ignore[arg-type]
        (lambda: load_variant_text(None), "<variant>: a variant's text is a string or UTF-8 bytes, not None"),  # type: ignore[arg-type]
        # Bare TypeErrors (expected str, bytes or os.PathLike object); base_dir where a base was looked for.
        (
            lambda: load_variant("classic", base_dir=5),  # type: ignore[arg-type]
            "base_dir must be a folder's path, not 5",
        ),
        (
            lambda: load_variant_text("extends: ./b.yaml\n", base_dir=5),  # type: ignore[arg-type]
            "<variant>: base_dir must be a folder's path, not 5",
        ),
        (
            lambda: load_variant_text("jokers: 4\n", None),  # type: ignore[arg-type]
            "source must be text, the name diagnostics give the variant, not None",
        ),
        (
            lambda: load_variant("classic", 5),
            "--set: expected KEY=VALUE options or a mapping of knobs, got 5",
        ),  # type: ignore[arg-type]
        (
            lambda: load_variant("classic", ["jokers=4", 4]),
            "--set: expected KEY=VALUE options or a mapping of knobs, got 4",
        ),  # type: ignore[list-item]
    ],
)
def test_the_loader_refuses_arguments_of_the_wrong_kind_naming_them(
    call: Callable[[], object], said: str
) -> None:
    # Each was a bare TypeError or AttributeError ('int' object has no attribute 'partition').
    with pytest.raises(VariantError) as caught:
        call()
    assert [str(problem) for problem in caught.value.diagnostics] == [said]


def test_solve_says_what_it_cannot_work_with_as_its_docstring_promises() -> None:
    # A card given as "7H" was a bare TypeError, the variant's name for the variant an AttributeError.
    classic = load_variant("classic")
    refused = [
        (["7H"], classic, "the hand holds '7H': cards are given by their codes, whole numbers"),
        (
            [0, 1, 2],
            "kalooki-40",
            "the variant must be a Variant (kalooki.loader.load_variant gives one), not",
        ),
        ([1.5], classic, "the hand holds 1.5: cards are given by their codes"),
        (None, classic, "the hand must be a sequence of card codes, not None"),
        # Read once, by the hand's reading: were it checked before, its codes would be used up by then.
        ((card for card in (0, 1, 2)), classic, "the hand must be a sequence of card codes, not <generator"),
    ]
    for hand, variant, said in refused:
        with pytest.raises(SolverError) as caught:
            solve(hand, variant)  # type: ignore[arg-type]
        assert str(caught.value).startswith(said)
    # The same for a player not opened: the quick path is one comparison for both bools.
    with pytest.raises(SolverError) as caught:
        solve((card for card in (0, 1, 2)), classic, opened=False)  # type: ignore[arg-type]
    assert str(caught.value).startswith("the hand must be a sequence of card codes, not <generator")


@pytest.mark.parametrize("call", [best_opening, can_open])
def test_the_opening_search_says_what_it_cannot_work_with_as_solve_does(call: Callable[..., object]) -> None:
    # A card 2.5 (it passes the range check) was a bare KeyError, '7H' and 1.0 a bare TypeError.
    classic = load_variant("classic")
    refused = [
        ([2.5, 1, 2], classic, "the hand holds 2.5: cards are given by their codes, whole numbers"),
        (["7H", 1, 2], classic, "the hand holds '7H': cards are given by their codes"),
        ([1.0, 2, 3], classic, "the hand holds 1.0: cards are given by their codes"),
        ([0, 1, 2], "kalooki-40", "the variant must be a Variant (kalooki.loader.load_variant gives one)"),
        (None, classic, "the hand must be a sequence of card codes, not None"),
        ([60, 1, 2], classic, "60 is not a card code (0-51 for standard cards, 52 for a joker)"),
    ]
    for hand, variant, said in refused:
        with pytest.raises(SolverError) as caught:
            call(hand, variant)
        assert str(caught.value).startswith(said)


@pytest.mark.parametrize("call", [solve, best_opening, can_open])
def test_a_keep_that_is_no_whole_number_is_refused_naming_it(call: Callable[..., object]) -> None:
    # keep="1" was a bare TypeError, keep=1.5 an AttributeError, keep=True taken for one card, and keep=False
    # and keep=0.0 for none.
    classic = load_variant("classic")
    refused = (("1", "'1'"), (1.5, "1.5"), (None, "None"), (True, "True"), (False, "False"), (0.0, "0.0"))
    for keep, shown in refused:
        with pytest.raises(SolverError) as caught:
            call([0, 1, 2, 13, 26, 39], classic, keep=keep)
        assert str(caught.value) == f"keep must be a whole number of cards, not {shown}"


def test_a_bool_in_the_hand_is_read_as_the_int_it_is() -> None:
    # Refusing it costs a look at every card's type on every call, on the timed path: True is card 1 (2C).
    assert solve([True, 2, 3], load_variant("classic")) == solve([1, 2, 3], load_variant("classic"))


def test_a_bool_in_must_include_is_no_card_code() -> None:
    with pytest.raises(SolverError) as caught:
        solve([1, 2, 3, 4], load_variant("classic"), must_include=[True])
    assert str(caught.value).startswith("must_include holds True: cards are given by their codes")


@pytest.mark.parametrize(("opened", "shown"), [("no", "'no'"), (None, "None"), (0, "0"), ([], "[]")])
@pytest.mark.parametrize("hand", [[0, 1, 2, 13, 26, 39], [0, 5, 9]])
def test_an_opened_that_is_no_bool_is_refused_naming_it(opened: object, shown: str, hand: list[int]) -> None:
    # "no" was taken as true, None, 0 and [] as false: the plan of an opened player, or of one not opened.
    with pytest.raises(SolverError) as caught:
        solve(hand, load_variant("classic"), opened=opened)  # type: ignore[arg-type]
    assert str(caught.value) == f"opened must be True or False, not {shown}"


@pytest.mark.parametrize("call", [solve, best_opening])
def test_must_include_names_the_card_it_refuses(call: Callable[..., object]) -> None:
    # Each was "must_include names a card the hand does not hold", naming none (text: letter by letter).
    classic = load_variant("classic")
    hand = [0, 1, 2, 13, 26, 39]
    refused = [
        ([51], "must_include names KS, a card the hand does not hold"),
        ([99], "must_include names 99, a card the hand does not hold"),
        ("AC", "must_include must be a sequence of card codes, not 'AC'"),
        (["AC"], "must_include holds 'AC': cards are given by their codes, whole numbers"),
    ]
    for must_include, said in refused:
        with pytest.raises(SolverError) as caught:
            call(hand, classic, must_include=must_include)
        assert str(caught.value).startswith(said)


@pytest.mark.parametrize(("players", "shown"), [("ann", "'ann'"), ("ab", "'ab'"), (None, "None"), (3, "3")])
def test_players_given_as_one_string_or_no_list_are_refused(players: object, shown: str) -> None:
    # "ann" was read letter by letter (two players called 'n'), "ab" as players a and b, None: TypeError.
    with pytest.raises(SetupError) as caught:
        Game(load_variant("classic"), players, seed=1)  # type: ignore[arg-type]
    assert str(caught.value) == f"players: give a list of names, one a seat (['ann', 'bob']), not {shown}"


@pytest.mark.parametrize(("name", "shown"), [(1, "1"), (None, "None"), ("  ", "'  '")])
def test_a_player_name_that_is_no_text_is_quoted(name: object, shown: str) -> None:
    # "a player's name must be text that is not blank", quoting nothing: which of the names was it?
    with pytest.raises(SetupError) as caught:
        Game(load_variant("classic"), ["ann", name], seed=1)  # type: ignore[list-item]
    assert str(caught.value) == f"a player's name must be text that is not blank, not {shown}"


def test_legal_view_and_from_json_given_the_game_or_no_view_say_what_they_take() -> None:
    # LegalView(game) or LegalView(None) was a bare AttributeError ('Game' object has no attribute 'seat');
    # from_json(game) said "this is not a saved kalooki game".
    game = Game(load_variant("classic"), ["ann", "bob"], seed=1)
    for given, shown in ((game, "a Game"), (None, "None"), ("ann", "'ann'")):
        with pytest.raises(NotAViewError) as caught:
            LegalView(given)  # type: ignore[arg-type]
        assert (
            str(caught.value)
            == f"LegalView is made from a PlayerView (game.view(seat) gives one), not {shown}"
        )
    with pytest.raises(StateFormatError) as refused:
        Game.from_json(game)  # type: ignore[arg-type]
    assert str(refused.value) == "from_json reads a game's state, not the game: give it game.to_json()"


@pytest.mark.parametrize(
    ("text", "shown"), [(None, "None"), (5, "5"), (Draw("stock"), "Draw(source='stock')")]
)
def test_parse_move_refuses_what_is_no_text_naming_it(text: object, shown: str) -> None:
    with pytest.raises(
        NotAMoveError
    ) as caught:  # an AttributeError ('NoneType' object has no attribute 'strip')
        parse_move(text)  # type: ignore[arg-type]
    assert str(caught.value) == f"{shown} is not a move: a move is written as text, e.g. draw stock"


def test_the_legal_actions_of_a_player_not_to_move_are_refused_as_not_their_turn() -> None:
    # A bare ValueError, no KalookiError.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=1)
    with pytest.raises(NotYourTurnError) as caught:
        LegalView(game.view(1))
    assert (
        str(caught.value) == "seat 1 (bob) is not the current player, ann: only their view has legal actions"
    )


def test_from_json_given_the_text_of_a_state_says_to_read_it_first() -> None:
    # It said "this is not a saved kalooki game" of the very text json.dumps(game.to_json()) writes.
    text = json.dumps(Game(load_variant("classic"), ["ann", "bob"], seed=1).to_json())
    for given in (text, text.encode()):
        with pytest.raises(StateFormatError) as caught:
            Game.from_json(given)  # type: ignore[arg-type]
        assert str(caught.value).startswith("from_json reads the state as data, not as text (")
        assert str(caught.value).endswith("): give it json.loads(text)")
    assert Game.from_json(json.loads(text)).to_json() == json.loads(text)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        # Each a bare TypeError: 'int' object is not iterable; place only once a field was found damaged.
        ({"stand_ins": 5}, "stand_ins must be seats, whole numbers from 0, not 5"),
        ({"stand_ins": None}, "stand_ins must be seats, whole numbers from 0, not None"),
        ({"stand_ins": ["a"]}, "stand_ins must be seats, whole numbers from 0, not ['a']"),
        ({"stand_ins": [True]}, "stand_ins must be seats, whole numbers from 0, not [True]"),
        # Taken, and no seat's hand was read as a stand-in.
        ({"stand_ins": [9]}, "stand_ins [9] name a seat the game has not"),
        ({"place": None}, "place must be text, not None"),
    ],
)
def test_from_json_refuses_a_place_or_stand_ins_of_the_wrong_kind(
    arguments: dict[str, Any], said: str
) -> None:
    state = Game(load_variant("classic"), ["ann", "bob"], seed=1).to_json()
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(state, **arguments)
    assert str(caught.value) == f"from_json: {said}"
    assert Game.from_json(state, place="view", stand_ins=[1]).to_json() == state


def test_a_seat_the_table_has_not_is_refused_by_view_and_apply() -> None:
    # view(5) was a bare IndexError, view(-1) the last seat's hand labelled seat -1; apply(seat="x") a
    # TypeError, apply(seat=False) taken for seat 0.
    game = Game(load_variant("classic"), ["ann", "bob"], seed=1)
    before = game.to_json()
    for seat, shown in ((2, "2"), (-1, "-1"), (True, "True"), ("0", "'0'"), (1.0, "1.0")):
        # True was seat 1's view; '0' and 1.0 a bare TypeError.
        with pytest.raises(NoSeatError) as caught:
            game.view(seat)  # type: ignore[arg-type]
        assert str(caught.value) == f"view: there is no seat {shown} at this table"
    for seat, shown in ((2, "2"), ("x", "'x'"), (False, "False"), (True, "True")):
        with pytest.raises(NotYourTurnError) as refused:
            game.apply(Draw("stock"), seat=seat)  # type: ignore[arg-type]
        assert str(refused.value) == f"there is no seat {shown} at this table"
    assert game.to_json() == before
    assert game.view(1).seat == 1
    game.apply(Draw("stock"), seat=0)


@pytest.mark.parametrize("call", [solve, best_opening])
def test_the_solver_says_what_is_wrong_with_a_table_it_is_given(call: Callable[..., object]) -> None:
    # A card, None or a string for the table's melds was a bare AttributeError or TypeError.
    classic = load_variant("classic")
    hand = [0, 1, 2, 13, 26, 39]
    refused = [
        ([5], "the table holds 5: its melds are TableMeld objects (a game's table holds them)"),
        ([None], "the table holds None: its melds are TableMeld objects"),
        ("3H 4H 5H", "the table must be a sequence of melds, not '3H 4H 5H'"),
        (None, "the table must be a sequence of melds, not None"),
    ]
    for table, said in refused:
        with pytest.raises(SolverError) as caught:
            call(hand, classic, table=table)
        assert str(caught.value).startswith(said)


@pytest.mark.parametrize("given", ["kalooki-40", None])
def test_a_game_or_a_simulation_given_a_variants_name_says_to_load_it(given: object) -> None:
    # Both failed deep inside: AttributeError: 'str' object has no attribute 'min_players'.
    said = f"the variant must be a Variant (kalooki.loader.load_variant gives one), not {given!r}"
    with pytest.raises(SetupError) as caught:
        Game(given, ["ann", "bob"], seed=1)  # type: ignore[arg-type]
    assert str(caught.value) == said
    with pytest.raises(SimulationError) as refused:
        simulate(given, ["greedy", "greedy"], 2, 1)  # type: ignore[arg-type]
    assert str(refused.value) == said
