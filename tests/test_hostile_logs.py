"""Logs that crashed ``kalooki replay``: each is refused with one line naming the record."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from kalooki_cli.app import app
from rules_helpers import recorded_run
from typer.testing import CliRunner

from kalooki.bots import make_bot
from kalooki.driver import play_turn
from kalooki.engine import Game
from kalooki.events import EventFormatError, event_from_json
from kalooki.log import GameRecorder, ReplayError, replay
from kalooki.script import load_script
from kalooki.variant import Variant

runner = CliRunner()


def bot_log(turns: int = 12, **game_options: Any) -> list[dict[str, Any]]:
    """The records of a short game between two greedy bots, as a log file holds them."""
    game = Game(Variant(), ["ann", "bob"], seed=3, **game_options)
    recorder = GameRecorder(game)
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(2)]
    for _ in range(turns):
        if game.phase not in ("draw", "play"):
            break
        recorder.record(game, play_turn(game, bots[game.current]))
    return json.loads(json.dumps(recorder.records))  # type: ignore[no-any-return]


def first(records: list[dict[str, Any]], kind: str) -> int:
    return next(index for index, record in enumerate(records) if record["type"] == kind)


def refused(records: Iterable[dict[str, Any]]) -> str:
    with pytest.raises(ReplayError) as caught:
        replay(records)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_the_unedited_log_replays() -> None:
    assert replay(bot_log()).actions > 0


def ended_hand_log() -> list[dict[str, Any]]:
    """A log of ann going out in the first hand (of four players: ann, bob, cid, dee)."""
    script = Path(__file__).parent / "golden" / "scripts" / "kalooki-opening.yaml"
    records = recorded_run(load_script(script))[1]
    assert records[-1]["type"] == "hand_end"
    return records


def test_an_action_after_the_hand_ended_names_the_records_player() -> None:
    # It said "ann's draw is refused": ann, who went out, not cid, whom the record names.
    records = [*ended_hand_log(), {"type": "draw", "player": "cid", "source": "stock"}]
    assert refused(records) == (
        f"record {len(records)}: does not reproduce: cid's draw is refused: hand 1 is over"
    )


@pytest.mark.parametrize(("player", "shown"), [("zed", '"zed"'), (17, "17"), ("\x1b[2J", '"\\u001b[2J"')])
def test_an_action_of_a_player_not_at_the_table_says_so(player: object, shown: str) -> None:
    # It said "ann's discard is refused: hand 1 is over" of a record naming zed, who is not playing.
    records = [*ended_hand_log(), {"type": "discard", "player": player, "card": "QD"}]
    assert refused(records) == (
        f"record {len(records)}: does not reproduce: the record's player {shown} is not at this table "
        "(its players are ann, bob, cid, dee)"
    )


def test_a_refused_action_out_of_turn_names_the_logs_player_and_the_turns() -> None:
    records = bot_log()
    index = first(records, "discard")
    records[index]["player"] = "bob" if records[index]["player"] == "ann" else "ann"
    records[index]["card"] = "not a card"
    turn = "ann" if records[index]["player"] == "bob" else "bob"
    assert refused(records[: index + 1]) == (
        f'record {index + 1} (discard): player: the log says "{records[index]["player"]}", '
        f'the engine produced "{turn}"'
    )


def test_a_null_card_is_refused() -> None:
    records = bot_log()
    index = first(records, "discard")
    records[index]["card"] = None
    reason = "None is not a card: a card is written as text, e.g. 7H or JK"
    assert refused(records) == f"record {index + 1}: does not reproduce: {reason}"


def test_a_deal_whose_hands_are_a_list_is_refused() -> None:
    records = bot_log()
    records[1]["hands"] = [["7H"]]
    assert refused(records).startswith("record 2: the log's game and first deal cannot start a game (")


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        # Python's own words came out: "dictionary update sequence element #0 has length 1; 2 is required".
        ("drawn_again", [["x"]], "the deal's drawn_again must be an object of cards by player"),
        (
            "drawn_again",
            "x",
            "the deal's drawn_again must be a list of rounds, each an object of cards by player",
        ),
        (
            "drawn_again",
            [{"zed": "5S"}],
            "the deal's drawn_again names 'zed', who is not one of the log's players",
        ),
        ("drawn_for_dealer", [1], "the deal's drawn_for_dealer must be an object of cards by player"),
    ],
)
def test_a_draw_for_the_dealer_of_the_wrong_shape_is_refused(field: str, value: object, said: str) -> None:
    records = bot_log()
    records[1][field] = value
    assert refused(records).startswith(f"record 2: the log's game and first deal cannot start a game ({said}")


def test_a_meld_number_that_is_not_a_number_is_refused() -> None:
    records = bot_log()
    index = first(records, "discard")
    records[index] = {"type": "build", "player": "ann", "meld": 1e300, "cards": "7H"}
    assert refused(records) == (
        f"record {index + 1}: does not reproduce: a meld number must be a whole number, not 1e+300"
    )


def test_a_draw_from_nowhere_is_refused() -> None:
    records = bot_log()
    index = first(records, "draw")
    records[index]["source"] = "sleeve"
    assert "'sleeve' is not a place to draw from" in refused(records)


def test_a_player_name_with_an_escape_code_is_refused() -> None:
    records = bot_log()
    records[0]["players"][0] = "ann\x1b]0;PWNED\x07"
    records[1]["hands"]["ann\x1b]0;PWNED\x07"] = records[1]["hands"].pop("ann")
    assert "holds a control character (\\x1b)" in refused(records)


def test_rules_that_do_not_validate_are_one_line() -> None:
    records = bot_log()
    records[0]["variant"]["decks"] = 99
    records[0]["variant"]["jokers"] = -1
    assert (
        refused(records)
        == "record 1: the log's rules are invalid: variant.decks: must be from 1 to 4, got 99"
    )


@pytest.mark.parametrize(
    ("knob", "value", "said"),
    [
        # `kalooki validate` words each of these mistakes in a variant file the same way.
        ("jokers", "x", "variant.jokers: expected a whole number, got 'x': write a whole number from 0 to 8"),
        ("upcard", "maybe", "variant.upcard: expected true or false, got 'maybe'"),
        ("jokerz", 2, "variant.jokerz: unknown key 'jokerz'; did you mean 'jokers'?"),
    ],
)
def test_rules_are_refused_in_the_words_validate_uses(knob: str, value: object, said: str) -> None:
    records = bot_log()
    records[0]["variant"][knob] = value
    assert refused(records) == f"record 1: the log's rules are invalid: {said}"


def test_a_header_without_rules_says_they_are_missing() -> None:
    records = bot_log()
    del records[0]["variant"]
    assert refused(records) == "record 1: the log's rules are missing: the 'game' record has no 'variant'"


def test_a_deal_to_a_player_the_header_lacks_names_them() -> None:
    records = bot_log()
    records[0]["players"] = ["ann", "cid"]
    assert refused(records) == (
        "record 2: the log's game and first deal cannot start a game "
        "(the deal has a hand for 'bob', who is not one of the log's players: ann, cid)"
    )


def test_a_dealer_the_header_lacks_is_named() -> None:
    records = bot_log()
    records[1]["dealer"] = "dee"
    assert refused(records) == (
        "record 2: the log's game and first deal cannot start a game "
        "(the deal's dealer is 'dee', who is not one of the log's players: ann, bob)"
    )


def test_a_turn_limit_in_the_header_replays_a_hand_stopped_by_it() -> None:
    records = bot_log(turns=10, turn_limit=4)
    assert records[0]["turn_limit"] == 4
    assert any(record["type"] == "hand_end" and record["end"] == "turn_limit" for record in records)
    assert replay(records).ends == "between hands"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"type": "build", "meld": 1e400}', "holds what kalooki does not read: 1e400 is too large a number"),
        (
            '{"type": "discard", "card": ' + "7" * 5000 + "}",
            "holds what kalooki does not read: a number of 5000 digits (at most 30 are accepted)",
        ),
        ("[" * 100_000, "holds what kalooki does not read: nested too deeply"),
        ('{"card": NaN}', "not JSON: NaN is not a number JSON allows"),
        # Python kept the last of the two, so an edit read one way to the replay and another to a reader.
        # Valid JSON all four but NaN: what kalooki refuses to read, not "not JSON".
        (
            '{"type": "discard", "card": 3, "card": 4}',
            'holds what kalooki does not read: the key "card" appears twice in one object',
        ),
    ],
)
def test_json_the_parser_would_choke_on_is_refused(line: str, message: str, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    records = bot_log(turns=2)
    log.write_text("\n".join([*(json.dumps(record) for record in records), line]) + "\n")
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    assert result.stderr == f"{log}:{len(records) + 1}: {message}\n"


def test_an_escape_code_in_a_log_never_reaches_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    records = bot_log(turns=2)
    records[3]["card"] = "\x1b[2J"
    log.write_text("\n".join(json.dumps(record) for record in records) + "\n")
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr
    assert "'\\x1b[2J' is not a card" in result.stderr


def test_a_log_saved_with_a_byte_order_mark_and_windows_line_ends_replays(tmp_path: Path) -> None:
    # What an editor on Windows makes of a log that was opened and saved again.
    log = tmp_path / "game.jsonl"
    records = bot_log(turns=2)
    lines = "".join(json.dumps(record) + "\r\n" for record in records)
    log.write_bytes(b"\xef\xbb\xbf" + lines.encode())
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{log}: ok: {len(records)} records, ")


def test_a_log_cut_inside_a_string_says_so_without_a_dangling_at(tmp_path: Path) -> None:
    # Python words it "Unterminated string starting at" and adds the place, which is given apart.
    log = tmp_path / "game.jsonl"
    records = bot_log(turns=2)
    lines = [json.dumps(record) for record in records]
    column = lines[-1].index('"type": "') + len('"type": "')  # the value's opening quote, from 1
    log.write_text("\n".join([*lines[:-1], lines[-1][: column + 2]]) + "\n")
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    assert result.stderr == f"{log}:{len(records)}:{column}: not JSON: Unterminated string\n"


def write_cut_off(log: Path, records: list[dict[str, Any]], short_by: int) -> None:
    """The log as a game stopped while writing it leaves it: the last line cut off, no line end."""
    text = "".join(json.dumps(record) + "\n" for record in records)
    log.write_text(text[: -1 - short_by])


@pytest.mark.parametrize("between_moves", [False, True])
def test_a_log_cut_off_in_its_last_record_replays_its_whole_moves_and_says_so(
    between_moves: bool, tmp_path: Path
) -> None:
    log = tmp_path / "cut.jsonl"
    records = bot_log()
    if between_moves:  # the cut record opens a move: every record before it replays
        records.append({"type": "draw", "player": "ann", "source": "stock", "card": "7H"})
    write_cut_off(log, records, 10)
    moves = max(index for index, record in enumerate(records[:-1]) if "state" in record) + 1
    stops = "" if between_moves else f"; the replay stops at record {moves}, where the last whole move ends"
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    # It said "ok:" on standard output and the cut-off on standard error: success and failure at once.
    assert result.stdout.startswith(f"{log}: partial, its last record cut off: {moves} records, ")
    assert result.stderr == (
        f"{log}:{len(records)}: the last record is cut off (the game was stopped while writing it); "
        f"the {len(records) - 1} records before it are whole{stops}\n"
    )


def test_a_log_that_stops_between_a_discard_and_the_hand_end_it_led_to_says_so(tmp_path: Path) -> None:
    # It said "the log ends, but the engine produced hand_end", which read as the engine disagreeing.
    records = bot_log(turns=200)
    end = first(records, "hand_end")
    assert records[end - 1]["type"] == "discard"
    log = tmp_path / "stops.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in records[:end]))
    result = runner.invoke(app, ["replay", str(log)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{log}: record {end + 1}: the log stops partway through what record {end} (discard) led to: its "
        "hand_end record is missing (the game was stopped while writing it)\n"
    )


def test_a_log_cut_off_in_its_first_deal_says_so_alone(tmp_path: Path) -> None:
    log = tmp_path / "cut.jsonl"
    write_cut_off(log, bot_log()[:2], 100)
    result = runner.invoke(app, ["replay", str(log)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{log}:2: the last record is cut off (the game was stopped while writing it); "
        "the record before it is whole\n"
    )


def test_a_cut_off_log_further_on_than_the_game_is_not_continued(tmp_path: Path) -> None:
    # Its cut-off line is dropped (test_resume_log_cut), but what stands before it still goes past the game.
    from kalooki_cli.continue_log import continue_log

    log = tmp_path / "cut.jsonl"
    records = bot_log()
    write_cut_off(log, records, 40)
    before = log.read_bytes()
    with pytest.raises(ReplayError, match=r"this log goes on past the save"):
        continue_log(Game(Variant(), ["ann", "bob"], seed=3), log)
    assert log.read_bytes() == before


def test_a_record_twice_of_the_player_named_you_reads_as_english() -> None:
    # The terminal names its player "you": a draw recorded twice read "you has drawn already".
    game = Game(Variant(), ["you", "bob"], seed=3)
    recorder = GameRecorder(game)
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(2)]
    recorder.record(game, play_turn(game, bots[game.current]))
    records = json.loads(json.dumps(recorder.records))
    index = first(records, "draw")
    assert records[index]["player"] == "you"
    records.insert(index + 1, records[index])
    assert refused(records) == (
        f"record {index + 2}: does not reproduce: the player 'you' has drawn already this turn: "
        "meld, build, swap or discard"
    )


def test_a_refusal_worded_to_the_player_says_whose_record_it_was() -> None:
    # "you have no KH in your hand to discard" read as said to whoever replayed the log.
    records = bot_log()
    index = first(records, "discard")
    player = records[index]["player"]
    messages = []
    for card in ("KH", "QS", "2C", "9D", "5H", "7S"):
        records[index]["card"] = card
        messages.append(refused(records))
    expected = f"record {index + 1}: does not reproduce: {player}'s discard is refused: you have no "
    assert any(message.startswith(expected) for message in messages), messages


def hands_log(hands: int = 2) -> list[dict[str, Any]]:
    """The records of a game between two greedy bots over ``hands`` hands, each hand's deal after the last."""
    game = Game(Variant(), ["ann", "bob"], seed=3)
    recorder = GameRecorder(game)
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(2)]
    while len(game.results) < hands and not game.game_over:
        if game.phase == "hand_over":
            recorder.record(game, game.next_hand())
        recorder.record(game, play_turn(game, bots[game.current]))
    return json.loads(json.dumps(recorder.records))  # type: ignore[no-any-return]


def test_a_record_left_out_is_named_by_its_type_not_by_a_field_of_the_next() -> None:
    # It said "record 66 (hand_end): dealer: the log says "ann", the engine produced "(nothing)"" of a deal.
    records = hands_log()
    end = first(records, "hand_end")
    assert records[end + 1]["type"] == "deal"
    del records[end]
    assert refused(records) == f"record {end + 1}: the log has a deal where the game produced hand_end"


def test_a_record_of_another_type_is_named_with_its_article() -> None:
    records = hands_log()
    end = first(records, "hand_end")
    records[end]["type"] = "end_turn"
    assert refused(records) == f"record {end + 1}: the log has an end_turn where the game produced hand_end"
    del records[end]["type"]
    assert refused(records) == (
        f"record {end + 1}: the log has a record with no type where the game produced hand_end"
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        # Python's == took each of these for what the engine produced, and the replay said ok.
        (("scores", "bob"), 2.0, "scores.bob: must be a whole number, not 2.0"),
        (("totals", "ann"), False, "totals.ann: must be a whole number, not false"),
        (("kalooki",), 0, "kalooki: must be true or false, not 0"),
        (("hand",), 1.0, "hand: must be a whole number, not 1.0"),
    ],
)
def test_a_number_written_as_another_kind_of_value_is_refused(
    field: tuple[str, ...], value: object, message: str
) -> None:
    records = hands_log()
    end = first(records, "hand_end")
    assert records[end]["scores"] == {"ann": 0, "bob": 2}
    place = records[end]
    for key in field[:-1]:
        place = place[key]
    place[field[-1]] = value
    assert refused(records) == f"record {end + 1} (hand_end): {message}"


def test_a_log_version_written_as_a_fraction_is_refused() -> None:
    records = bot_log()
    records[0]["version"] = 1.0
    assert refused(records) == "record 1: log version 1.0; this kalooki reads 1"
    # In JSON's words, as the log writes the value, not Python's (True, '1').
    records[0]["version"] = True
    assert refused(records) == "record 1: log version true; this kalooki reads 1"
    records[0]["version"] = "1"
    assert refused(records) == 'record 1: log version "1"; this kalooki reads 1'


@pytest.mark.parametrize(
    ("name", "lookalike"),
    [("ANN", ""), ("\u0430nn", ": its U+0430 CYRILLIC SMALL LETTER A reads as a")],
)
def test_players_whose_names_read_alike_are_refused_as_a_script_refuses_them(
    name: str, lookalike: str
) -> None:
    # 'ann' and 'ANN' replayed ok, and --show told both players' turns as Ann's.
    text = json.dumps(bot_log()).replace('"bob"', json.dumps(name))
    records = [{key: value for key, value in record.items() if key != "state"} for record in json.loads(text)]
    assert records[0]["players"] == ["ann", name]
    assert refused(records) == (
        f"record 1: the log's player '{name}' reads as seat 1's 'ann' on the screens{lookalike}; "
        "give each player a different name"
    )


def test_a_stock_written_as_a_list_is_named_as_one_not_echoed_card_by_card() -> None:
    # It printed the whole Python list: "(['QD', '9S', ...] is not a list of cards: ...".
    records = bot_log()
    records[1]["stock"] = records[1]["stock"].split()
    assert refused(records) == (
        f"record 2: the log's game and first deal cannot start a game (a list of {len(records[1]['stock'])} "
        'items is not a list of cards: cards are written as text, e.g. "7H 8H JK")'
    )


def test_a_log_is_read_no_further_than_its_first_bad_record() -> None:
    # Every record was read into a list first: a header and six million lines of {} took 28 s and 930 MB.
    read = []

    def records() -> Iterator[dict[str, Any]]:
        yield bot_log(turns=0)[0]
        for number in range(2, 1002):
            read.append(number)
            yield {}

    assert refused(records()) == "record 2: the log must continue with the first hand's deal"
    assert read == [2]


def test_replay_stops_the_file_at_its_first_bad_record_before_reading_on(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(json.dumps(bot_log(turns=0)[0]) + "\n{}\nnot JSON\n")
    result = runner.invoke(app, ["replay", str(log)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"{log}: record 2: the log must continue with the first hand's deal\n"


def test_a_log_from_a_newer_kalooki_is_said_to_be_one() -> None:
    # "log version 2; this kalooki reads 1" left the reader to work out what to do, where a save says it.
    records = bot_log()
    records[0]["version"] = 2
    assert refused(records) == (
        "record 1: the log was written by a newer kalooki (log version 2; this kalooki reads 1): "
        "upgrade kalooki to read it"
    )


MOST = "1,000,000,000,000"  # the most a save holds: a log's game over it could never be saved


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("turn_limit", 0, f"record 1: the log's turn limit is 0: it must be a whole number, 1 to {MOST}"),
        ("turn_limit", -1, f"record 1: the log's turn limit is -1: it must be a whole number, 1 to {MOST}"),
        ("turn_limit", 5.5, f"record 1: the log's turn limit is 5.5: it must be a whole number, 1 to {MOST}"),
        (
            "turn_limit",
            None,
            f"record 1: the log's turn limit is null: it must be a whole number, 1 to {MOST}",
        ),
        (
            "turn_limit",
            10**12 + 1,
            f"record 1: the log's turn limit is 1000000000001: it must be a whole number, 1 to {MOST}",
        ),
        ("seed", "7", 'record 1: the log\'s seed is "7": it must be a whole number (or null, for none)'),
        ("seed", True, "record 1: the log's seed is true: it must be a whole number (or null, for none)"),
    ],
)
def test_a_header_seed_or_turn_limit_is_refused_by_name_and_value(
    field: str, value: object, said: str
) -> None:
    # Both were "the log's seed or turn limit is not a whole number", for a turn limit of 0 as well.
    records = bot_log()
    records[0][field] = value
    assert refused(records) == said


@pytest.mark.parametrize(
    ("melds", "shown"),
    [
        (None, "null"),
        (True, "true"),
        (3, "3"),
        ("7H 8H 9H", '"7H 8H 9H"'),
        ({"7H 8H 9H": 1}, '{"7H 8H 9H": 1}'),
    ],
)
def test_melds_that_are_not_a_list_are_refused_in_words(melds: object, shown: str) -> None:
    # Said as Python's "'NoneType' object is not iterable"; a text, letter by letter ("'7' is not a card").
    reason = f'melds must be a list of melds, each its cards as text (["7H 8H 9H", "QS QD QC"]), not {shown}'
    records = bot_log()
    index = first(records, "discard")
    records[index] = {"type": "meld", "player": "ann", "melds": melds, "numbers": [1], "points": 24}
    assert refused(records) == f"record {index + 1}: does not reproduce: {reason}"
    with pytest.raises(EventFormatError) as caught:
        event_from_json(records[index])
    assert str(caught.value) == f"a 'meld' event that cannot be read: {reason}"


def test_a_bad_record_after_blank_lines_is_led_by_its_line(tmp_path: Path) -> None:
    # Blank lines are passed over, so "record 4" was on line 6: an editor opened at line 4 showed another.
    log = tmp_path / "game.jsonl"
    records = bot_log(turns=4)
    index = first(records, "discard")
    records[index]["card"] = "5X"
    lines = [json.dumps(record) for record in records]
    log.write_text("\n".join([*lines[:index], "", "", *lines[index:]]) + "\n")
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"{log}:{index + 3}: record {index + 1}: does not reproduce: '5X' is not a card"
    )
    log.write_text("\n".join(lines) + "\n")  # without them, the record is on its own line, as before
    assert runner.invoke(app, ["replay", str(log)]).stderr.startswith(f"{log}: record {index + 1}: does not")


@pytest.mark.parametrize("damage", ["first line cut away", "first two lines swapped", "emptied"])
def test_a_log_without_its_game_record_first_says_how_it_is_damaged(damage: str) -> None:
    # Each was said to be "not a kalooki game log (the first line must be the 'game' record)".
    records = bot_log(turns=2)
    if damage == "first line cut away":
        records = records[1:]
    elif damage == "first two lines swapped":
        records[:2] = records[1::-1]
    else:
        records = []
    begins = "a log begins with its 'game' record (the rules and the players)"
    assert refused(records) == (
        f"the log is empty: {begins}"
        if not records
        else f"record 1: a deal record, where {begins}: its first lines are missing or out of order"
    )


def test_a_log_cut_off_in_its_first_record_is_said_to_be_cut_off_not_empty(tmp_path: Path) -> None:
    # It was said to be "the log is empty: a log begins with its 'game' record", of a file that held it, cut.
    log = tmp_path / "cut.jsonl"
    write_cut_off(log, bot_log()[:1], 100)
    assert log.stat().st_size > 0
    result = runner.invoke(app, ["replay", str(log)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{log}:1: the last record is cut off (the game was stopped while writing it); "
        "there is no whole record before it\n"
    )
