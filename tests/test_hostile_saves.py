"""Saves edited with their checksum recomputed: each is refused in one line, before anything is written.

A save's checksum is a plain SHA-256, so it catches damage, not an edit: these saves pass it, and
the state checks (:mod:`kalooki.statecheck`) are what refuse them.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import new_game, play
from test_joker_layers import ANN_AND_BOB, BUILT_ONTO_ANNS_RUN, kaluki

from kalooki.bots import make_bot
from kalooki.driver import ask_bot, play_hand, play_turn
from kalooki.engine import Game, StateFormatError
from kalooki.savegame import (
    SaveFormatError,
    Session,
    load_save,
    rng_states,
    save_checksum,
    save_document,
    seat_rng,
)
from kalooki.variant import Variant

Edit = Callable[[dict[str, Any]], None]


def saved_document(turns: int = 7) -> dict[str, Any]:
    """A real save of a three-player game some turns in: the human (seat 0) is played by the greedy bot."""
    game = Game(Variant(), ["ann", "bob", "cid"], seed=5)
    rngs = {seat: seat_rng(game.seed, seat) for seat in (1, 2)}
    bots = {seat: make_bot("greedy", rngs[seat]) for seat in (1, 2)}
    human = make_bot("greedy", random.Random(0))
    for _ in range(turns):
        play_turn(game, bots.get(game.current, human))
    session = Session(human_seat=0, bots={1: "greedy", 2: "greedy"}, bot_rngs=rng_states(rngs))
    return save_document(game, session)


def edited(edit: Edit, turns: int = 7) -> str:
    """The save text after ``edit``, with its checksum recomputed as someone editing it would."""
    document = saved_document(turns)
    edit(document)
    document["checksum"] = save_checksum(document["session"], document["game"])
    return json.dumps(document)


def refusal(text: str | bytes) -> str:
    with pytest.raises(SaveFormatError) as caught:
        load_save(text)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


def bot_in_play_with_hand_in_stock(document: dict[str, Any]) -> None:
    game = document["game"]
    game["current"], game["phase"] = 1, "play"
    game["turn"]["drew"] = "stock"
    game["stock"] += game["hands"][1]
    game["hands"][1] = []


def set_game(key: str, value: Any) -> Edit:
    def edit(document: dict[str, Any]) -> None:
        document["game"][key] = value

    return edit


def negative_rng(document: dict[str, Any]) -> None:
    document["game"]["rng"][1][0] = -5


def negative_bot_rng(document: dict[str, Any]) -> None:
    document["session"]["bot_rngs"]["1"][1][3] = -1


def infinite_total(document: dict[str, Any]) -> None:
    document["game"]["totals"][0] = float("inf")


def infinite_card(document: dict[str, Any]) -> None:
    document["game"]["hands"][0][0] = float("inf")


def game_over_with_winner_99(document: dict[str, Any]) -> None:
    document["game"]["phase"] = "game_over"
    document["game"]["winners"] = [99]


def everyone_eliminated(document: dict[str, Any]) -> None:
    document["game"]["eliminated"] = [True, True, True]


def empty_stock_in_draw(document: dict[str, Any]) -> None:
    game = document["game"]
    game["phase"], game["turn"]["drew"], game["undo"] = "draw", None, None
    game["discard_pile"] = game["stock"] + game["discard_pile"]
    game["stock"] = []
    game["variant"]["discard_draw"] = "never"


def bad_variant(document: dict[str, Any]) -> None:
    document["game"]["variant"]["decks"] = "many"
    document["game"]["variant"]["jokers"] = 99


def float_seat(document: dict[str, Any]) -> None:
    document["game"]["current"] = 1.5


def total_not_from_scores(document: dict[str, Any]) -> None:
    document["game"]["totals"][1] = 40


def unknown_bot(document: dict[str, Any]) -> None:
    document["session"]["bots"]["1"] = "nobody"


def escape_in_bot_name(document: dict[str, Any]) -> None:
    document["session"]["bots"]["1"] = "\x1b[2Jgreedy"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (negative_rng, "random state holds a number that is not a 32-bit word"),
        (negative_bot_rng, "a bot's random state holds a number that is not a 32-bit word"),
        (infinite_total, "not valid JSON (Infinity is not a number JSON allows)"),
        (infinite_card, "not valid JSON (Infinity is not a number JSON allows)"),
        (
            game_over_with_winner_99,
            "winners[0]: 99 is not at the table: this 3-player game's seats are 0 to 2",
        ),
        (bot_in_play_with_hand_in_stock, "seat 2 (bob) holds 0 cards, which play cannot lead to"),
        (everyone_eliminated, "a player is eliminated, but the variant has no elimination"),
        (
            set_game("first_seat", 99),
            "first_seat: 99 is not at the table: this 3-player game's seats are 0 to 2",
        ),
        (
            set_game("first_seat", 5),
            "first_seat: 5 is not at the table: this 3-player game's seats are 0 to 2",
        ),
        (empty_stock_in_draw, "the player to move has no card to draw"),
        (
            bad_variant,
            "the saved game's rules are invalid: variant.decks: expected a whole number, got 'many'",
        ),
        (float_seat, "current: expected a whole number, got"),
        (total_not_from_scores, "the total of seat 2 (bob) is not the sum of their scores"),
        (set_game("winners", [1]), "the game has winners, but it is not over"),
        (set_game("hand_number", 3), "it is hand 3, but 0 hands have results"),
        (unknown_bot, "there is no bot called 'nobody'"),
        (escape_in_bot_name, "its session is invalid (a bot name holds a control character)"),
    ],
)
def test_an_edited_save_is_refused_in_one_line(edit: Edit, message: str) -> None:
    assert message in refusal(edited(edit))


def test_an_edited_save_that_stays_reachable_still_loads() -> None:
    """The checks refuse what play cannot produce, not every edit: a renamed player is still a game."""

    def rename(document: dict[str, Any]) -> None:
        document["game"]["players"][2] = "cyd"

    assert load_save(edited(rename)).game.players == ["ann", "bob", "cyd"]


def test_a_deal_in_the_wrong_places_is_refused() -> None:
    def stock_card_into_a_hand(document: dict[str, Any]) -> None:
        game = document["game"]
        game["hands"][2].append(game["stock"].pop())

    assert "seat 3 (cid) holds 14 cards" in refusal(edited(stock_card_into_a_hand))


def test_an_undo_snapshot_that_makes_cards_is_refused() -> None:
    document = saved_document(turns=0)
    game = Game.from_json(document["game"])
    game.apply(ask_bot(make_bot("greedy", random.Random(0)), game))  # the draw
    data = game.to_json()
    data["undo"]["hand"] = data["undo"]["hand"] + [52, 52]
    document["game"] = data
    document["checksum"] = save_checksum(document["session"], data)
    assert "undo snapshot does not hold the same cards" in refusal(json.dumps(document))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "kalooki-save", "version": ' + "9" * 5000 + "}", "a number of 5000 digits"),
        ("[" * 100_000, "nested too deeply"),
        ('{"format": "kalooki-save", "version": 1e400}', "1e400 is too large a number"),
        ('{"format": "kalooki-save", "version": NaN}', "NaN is not a number JSON allows"),
        (
            '{"format": "kalooki-save", "version": 1, "version": 2}',
            'the key "version" appears twice in one object',
        ),
        # Half a UTF-16 pair, escaped or as its UTF-8 bytes (which the parser reads too): hashing the save
        # for its checksum raised UnicodeEncodeError, a traceback at kalooki resume.
        (
            '{"format": "kalooki-save", "version": 1, "checksum": "", '
            '"session": {"a": "\\ud800"}, "game": {}}',
            "the save is damaged: not valid text: it holds U+D800, which is not a character "
            "(U+D800 to U+DFFF are halves of UTF-16 pairs)",
        ),
        (
            b'{"format": "kalooki-save", "version": 1, "checksum": "", '
            b'"session": {}, "game": {"\xed\xb0\x80": 1}}',
            "the save is damaged: not valid text: it holds U+DC00, which is not a character",
        ),
    ],
)
def test_json_a_parser_would_choke_on_is_refused(text: str | bytes, message: str) -> None:
    assert message in refusal(text)


# ----------------------------------------------------------------------------- the command


def kalooki(*args: str, home: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "KALOOKI_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "kalooki", *args],
        capture_output=True,
        text=True,
        input="",
        env=environment,
        timeout=timeout,
        check=False,
    )


def test_resume_refuses_a_crafted_save_without_rewriting_it(tmp_path: Path) -> None:
    """The save that crashed the greedy bot was autosaved before the crash: now nothing is written."""
    path = tmp_path / "crafted.kalooki-save.json"
    path.write_text(edited(bot_in_play_with_hand_in_stock))
    before = path.read_bytes(), path.stat().st_mtime_ns
    result = kalooki("resume", str(path), home=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"{path}: the saved game is not one play can reach: "
        "seat 2 (bob) holds 0 cards, which play cannot lead to (1 to 14)"
    ]
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert sorted(item.name for item in tmp_path.iterdir()) == [path.name]


def test_resume_refuses_half_a_utf16_pair_in_one_line(tmp_path: Path) -> None:
    """A player's name edited to JSON's "\\ud800" ended kalooki resume in a UnicodeEncodeError traceback."""
    document = json.loads(edited(lambda document: None))
    document["game"]["players"][1] = "bob\ud800"
    path = tmp_path / "edited.kalooki-save.json"
    path.write_text(json.dumps(document))  # escaped, as json.dumps writes it
    before = path.read_bytes(), path.stat().st_mtime_ns
    result = kalooki("resume", str(path), home=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{path}: the save is damaged: not valid text: it holds U+D800, which is not a character "
        "(U+D800 to U+DFFF are halves of UTF-16 pairs)"
    ]
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def opened_without_a_meld(document: dict[str, Any]) -> None:
    """The first player who has not opened marked opened: their first meld would skip the 51 points."""
    game = document["game"]
    game["opened"][game["opened"].index(False)] = True


def after_the_draw(change: Edit) -> Edit:
    """The save one draw later (bob, the greedy bot, to play), then ``change``."""

    def edit(document: dict[str, Any]) -> None:
        game = Game.from_json(document["game"])
        game.apply(ask_bot(make_bot("greedy", random.Random(0)), game))
        document["game"] = game.to_json()
        change(document)

    return edit


def opened_after_the_turn_began(document: dict[str, Any]) -> None:
    """bob, who opened in an earlier turn, recorded as not opened when his turn began: going out in it
    would be going Kalooki, and cost each of the others the bonus."""
    document["game"]["turn"]["opened_before"] = False


def undo_not_opened_before(document: dict[str, Any]) -> None:
    """The undo snapshot's record of bob's turn says he had not opened when it began: taking back his
    melds would make going out in the turn Kalooki."""
    document["game"]["undo"]["turn"]["opened_before"] = False


def drawn_card_in_another_hand(document: dict[str, Any]) -> None:
    """The card recorded as drawn is one of ann's: shown marked as new in a hand that does not hold it."""
    document["game"]["turn"]["drawn_card"] = document["game"]["hands"][0][0]


def after_the_hand(change: Edit) -> Edit:
    """The save once greedy bots have played the hand out, then ``change``."""

    def edit(document: dict[str, Any]) -> None:
        game = Game.from_json(document["game"])
        play_hand(game, {seat: make_bot("greedy", random.Random(seat)) for seat in range(3)})
        document["game"] = game.to_json()
        change(document)

    return edit


def penalties_wiped(document: dict[str, Any]) -> None:
    """Every score of hand 1 and every total made 0."""
    document["game"]["results"][0]["scores"] = [0, 0, 0]
    document["game"]["totals"] = [0, 0, 0]


def rival_eliminated(document: dict[str, Any]) -> None:
    """Elimination switched on and cid put out under the goal: the next hand would be dealt without him."""
    document["game"]["variant"]["elimination"] = True
    document["game"]["eliminated"][2] = True


def melds_left_unopened(document: dict[str, Any]) -> None:
    """Between hands, every player marked as not opened, their melds still on the table: the table a
    hosted game shows until the next deal (the browser's players' rows) would say nobody had opened."""
    document["game"]["opened"] = [False, False, False]


UNREACHABLE = "the saved game is not one play can reach"


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (opened_without_a_meld, "seat 3 (cid) has opened, but no meld on the table is theirs"),
        (
            after_the_draw(drawn_card_in_another_hand),
            "the card drawn this turn (8H) is neither in the hand nor on the table",
        ),
        (after_the_hand(penalties_wiped), "hand 1's scores are not what its hand points make"),
        (after_the_hand(melds_left_unopened), "a meld on the table belongs to a player who has not opened"),
        (
            after_the_hand(rival_eliminated),
            "seat 3 (cid) is out of the game, but their total (24) has not reached the goal (150)",
        ),
        (
            after_the_draw(undo_not_opened_before),
            "the turn's undo snapshot records another draw, card owed or start of the turn than the turn",
        ),
        (
            opened_after_the_turn_began,
            "seat 2 (bob) has opened, but the turn records that they had not when it began",
        ),
    ],
)
def test_resume_refuses_a_state_play_cannot_reach_in_one_line(edit: Edit, said: str, tmp_path: Path) -> None:
    path = tmp_path / "edited.kalooki-save.json"
    path.write_text(edited(edit))
    before = path.read_bytes()
    result = kalooki("resume", str(path), home=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"{path}: {UNREACHABLE}: {said}"]
    assert path.read_bytes() == before


def set_session(key: str, value: Any) -> Edit:
    def edit(document: dict[str, Any]) -> None:
        document["session"][key] = value

    return edit


DAMAGED = "the saved game is damaged"
SEATS = "this 3-player game's seats are 0 to 2"


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        # Not pydantic's "Input should be less than 8": the field, and the seats this game has.
        (set_game("current", 7), f"{DAMAGED}: current: 7 is not at the table: {SEATS}"),
        (set_game("hand_number", 0), f"{DAMAGED}: hand_number: must be at least 1, got 0"),
        (
            set_game("current", "1"),
            f"{DAMAGED}: current: expected a whole number, got '1': in quotes it is text; remove the quotes",
        ),
        (
            set_session("human_seat", 3),
            f"the save is damaged: its session is invalid (human_seat: 3 is not at the table: {SEATS})",
        ),
    ],
)
def test_resume_words_a_field_out_of_range_for_this_game(edit: Edit, said: str, tmp_path: Path) -> None:
    path = tmp_path / "edited.kalooki-save.json"
    path.write_text(edited(edit))
    result = kalooki("resume", str(path), home=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"{path}: {said}"]


@pytest.mark.parametrize("command", ["resume", "replay"])
def test_dev_zero_is_refused_not_read(command: str, tmp_path: Path) -> None:
    result = kalooki(command, "/dev/zero", home=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == "/dev/zero: is a device, not a regular file"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("resume", "{fifo}"), "{fifo}: is a pipe (FIFO), not a regular file"),
        (("replay", "{fifo}"), "{fifo}: is a pipe (FIFO), not a regular file"),
        (("validate", "{fifo}"), "{fifo}: is a pipe (FIFO), not a regular file"),
        (("play", "{fifo}", "--players", "2"), "{fifo}: is a pipe (FIFO), not a regular file"),
    ],
)
def test_a_fifo_is_refused_without_blocking(args: tuple[str, ...], expected: str, tmp_path: Path) -> None:
    fifo = tmp_path / "rules.yaml"
    os.mkfifo(fifo)
    result = kalooki(*(arg.format(fifo=fifo) for arg in args), home=tmp_path, timeout=30)
    assert result.returncode == 1
    assert expected.format(fifo=fifo) in result.stderr.splitlines()


def layers_edited(players: int, place: Callable[[dict[str, Any]], dict[str, Any]], layers: list[int]) -> str:
    """Why a save is refused whose meld ``place`` finds (in the game's state) records ``layers`` as who
    laid its jokers: ann's 5H 6H 7H 8H, onto which bob has built his joker in his turn, kaluki-51 read by
    who laid each joker (cid, a third player, has not opened), ann dealt to first."""
    hands = [*ANN_AND_BOB, "KS KH 2D 3D 4D 6S 7S"][:players]
    game = new_game(kaluki(first_dealer="seat_order"), hands, discard=None, stock="2S 3S 4S 5S")
    play(game, *BUILT_ONTO_ANNS_RUN)
    data = game.to_json()
    place(data)["joker_layers"] = layers
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    return str(caught.value).removeprefix("the saved game is not one play can reach: ")


def test_a_joker_laid_by_a_player_who_has_not_opened_is_refused() -> None:
    assert layers_edited(3, lambda data: data["table"][0], [2]) == (
        "a joker on the table was laid by a player who has not opened"
    )


def test_the_undo_snapshots_joker_layers_are_held_to_its_jokers() -> None:
    # The turn began before bob's build: ann's run held no joker then.
    assert layers_edited(2, lambda data: data["undo"]["table"][0], [1]) == (
        "the turn's undo snapshot: a meld's joker layers do not match its jokers"
    )


@pytest.mark.parametrize(
    ("version", "shown"),
    [(True, "true"), (1.0, "1.0"), ("1", '"1"'), (None, "null"), ("x" * 5000, '"' + "x" * 78 + "…")],
)
def test_a_format_version_that_is_no_number_is_shown_as_json_on_one_short_line(
    version: object, shown: str
) -> None:
    # It was Python's spelling ("its format version is True"), and a version of a page was quoted whole.
    document = saved_document()
    document["version"] = version
    assert refusal(json.dumps(document)) == f"the save is damaged: its format version is {shown}"


def _long_bot_seat(document: dict[str, Any]) -> None:
    document["session"]["bots"] = {"x" * 5000: "greedy", "2": "greedy"}


def _long_bot_name(document: dict[str, Any]) -> None:
    document["session"]["bots"]["1"] = "x" * 5000


def _long_game_version(document: dict[str, Any]) -> None:
    document["game"]["version"] = "x" * 5000


def _long_knob(document: dict[str, Any]) -> None:
    document["game"]["variant"]["x" * 5000] = 1


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (_long_bot_seat, "the save is damaged: its session is invalid (seat '{x}… is not a seat number)"),
        (_long_bot_name, "the save is damaged: its session is invalid (there is no bot called '{x}x…')"),
        (_long_game_version, "the saved game has format version '{x}…; this kalooki reads version 1"),
        (
            _long_knob,
            "the saved game's rules use '{x}x…', a knob this kalooki does not know: a newer kalooki wrote "
            "them; upgrade kalooki to load it",
        ),
    ],
)
def test_a_value_of_a_page_in_a_save_is_quoted_clipped(edit: Edit, said: str) -> None:
    # Each was quoted whole: a refusal of one line of 5,000 characters.
    assert refusal(edited(edit)) == said.format(x="x" * 78)  # each clipped to 80 characters, the last '…'


@pytest.mark.parametrize(
    ("log", "said"),
    [
        ("game.jsonl", "log is not an absolute path"),
        ("/" + "a" * 5000, "log is over 4096 characters"),
    ],
)
@pytest.mark.parametrize("key", ["log", "log_left"])
def test_a_log_place_no_game_writes_is_refused(key: str, log: str, said: str) -> None:
    # A relative log would be looked for (and written) beside whoever resumes; a huge one was echoed whole.
    def edit(document: dict[str, Any]) -> None:
        document["session"][key] = log

    message = refusal(edited(edit))
    assert message == f"the save is damaged: its session is invalid ({said.replace('log', key, 1)})"


@pytest.mark.parametrize("log", ["/home/ann/game.jsonl", "C:\\Users\\ann\\game.jsonl"])
def test_a_log_place_written_on_any_system_is_read(log: str) -> None:
    def edit(document: dict[str, Any]) -> None:
        document["session"]["log"] = log

    assert load_save(edited(edit)).session.log == log
