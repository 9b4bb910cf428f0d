"""The save-file format: exact round trips, and refusals that never half-load."""

from __future__ import annotations

import json
import random

import pytest

from kalooki.bots import make_bot
from kalooki.driver import play_turn
from kalooki.engine import Game
from kalooki.savegame import (
    SAVE_FORMAT,
    SAVE_VERSION,
    SaveFormatError,
    Session,
    dump_save,
    load_save,
    restore_rngs,
    rng_states,
    save_checksum,
    save_document,
    seat_rng,
)
from kalooki.variant import Variant


def game_and_session(turns: int = 6) -> tuple[Game, Session]:
    game = Game(Variant(), ["ann", "bob", "cid"], seed=99)
    rngs = {seat: seat_rng(game.seed, seat) for seat in (1, 2)}
    bots = {seat: make_bot("random", rngs[seat]) for seat in (1, 2)}
    human = make_bot("greedy", random.Random(0))
    for _ in range(turns):
        play_turn(game, bots.get(game.current, human))
    return game, Session(human_seat=0, bots={1: "random", 2: "random"}, bot_rngs=rng_states(rngs))


def test_a_save_round_trips_exactly() -> None:
    game, session = game_and_session()
    loaded = load_save(dump_save(game, session))
    assert loaded.game.to_json() == game.to_json()
    assert loaded.session == session


def test_restored_bots_choose_as_the_originals_would() -> None:
    """The bots' random generators are part of the save, so a resumed game's bots play the same."""
    game, session = game_and_session()
    loaded = load_save(dump_save(game, session))
    originals = restore_rngs(session.bot_rngs, [1, 2])
    copies = restore_rngs(loaded.session.bot_rngs, [1, 2])
    assert [originals[1].random() for _ in range(5)] == [copies[1].random() for _ in range(5)]


def tamper(text: str, change: str) -> str:
    data = json.loads(text)
    if change == "newer":
        data["version"] = SAVE_VERSION + 1
    elif change == "older":
        data["version"] = 0
    elif change == "format":
        data["format"] = "something-else"
    elif change == "hand":
        data["game"]["hands"][0][0] = (data["game"]["hands"][0][0] + 1) % 52
    elif change == "no-game":
        del data["game"]
    elif change == "string-version":
        data["version"] = "1"
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            "newer",
            f"the save was written by a newer kalooki (save format {SAVE_VERSION + 1}; this kalooki reads",
        ),
        ("older", "the save has format 0, which this kalooki no longer reads"),
        ("format", "this is not a kalooki save file"),
        ("hand", "the save is damaged: its checksum does not match its contents"),
        ("no-game", "the save is damaged: it lacks its session or its game"),
        ("string-version", 'the save is damaged: its format version is "1"'),
    ],
)
def test_a_save_that_cannot_be_resumed_is_refused(change: str, message: str) -> None:
    game, session = game_and_session()
    with pytest.raises(SaveFormatError) as caught:
        load_save(tamper(dump_save(game, session), change))
    assert message in str(caught.value)


@pytest.mark.parametrize("cut", [1, 100, 3000, -2])
def test_a_truncated_save_is_refused_as_cut_off(cut: int) -> None:
    # It was "it is not valid JSON (line 1 column 3001: Expecting ',' delimiter)": the parser's words.
    game, session = game_and_session()
    text = dump_save(game, session)
    with pytest.raises(SaveFormatError) as caught:
        load_save(text[:cut])
    assert str(caught.value) == "the save is damaged: it is cut off (the file ends partway through)"


@pytest.mark.parametrize("text", ["", " \n", b""])
def test_an_empty_save_is_said_to_be_empty(text: str | bytes) -> None:
    # It was "it is not valid JSON (line 1 column 1: Expecting value)".
    with pytest.raises(SaveFormatError) as caught:
        load_save(text)
    assert str(caught.value) == "the save is damaged: the file is empty"


def test_a_save_holding_a_number_too_long_is_not_called_invalid_json() -> None:
    # It was "it is not valid JSON (a number of 31 digits ...)", of a file that is valid JSON.
    game, session = game_and_session()
    document = save_document(game, session)
    document["game"]["hand_number"] = 10**30
    document["checksum"] = save_checksum(document["session"], document["game"])
    with pytest.raises(SaveFormatError) as caught:
        load_save(json.dumps(document))
    assert str(caught.value) == (
        "the save is damaged: it holds what kalooki does not read: "
        "a number of 31 digits (at most 30 are accepted)"
    )


def test_a_save_that_is_not_json_where_it_stops_is_still_called_so() -> None:
    game, session = game_and_session()
    text = dump_save(game, session)
    with pytest.raises(SaveFormatError) as caught:
        load_save(text.replace(",", ",]", 1))
    column = text.index(",") + 2
    assert str(caught.value) == (
        f"the save is damaged: it is not valid JSON (line 1 column {column}: "
        "Expecting property name enclosed in double quotes)"
    )


def test_a_game_state_the_engine_refuses_is_refused_with_its_reason() -> None:
    game, session = game_and_session()
    document = save_document(game, session)
    document["game"]["version"] = 99
    # Keep the checksum right, so the engine's own check is the one that speaks.
    document["checksum"] = save_checksum(document["session"], document["game"])
    with pytest.raises(SaveFormatError, match="the saved game has format version 99"):
        load_save(json.dumps(document))


def test_a_session_that_does_not_match_the_table_is_refused() -> None:
    game, _ = game_and_session()
    with pytest.raises(ValueError, match="the bots' seats do not match the table"):
        save_document(game, Session(human_seat=0, bots={1: "random"}))


def test_not_json_at_all() -> None:
    with pytest.raises(SaveFormatError, match="this is not a kalooki save file"):
        load_save('{"format": "x"}')
    with pytest.raises(SaveFormatError, match="not valid JSON"):
        load_save(b"\xff\xfe")
    assert SAVE_FORMAT == "kalooki-save"
