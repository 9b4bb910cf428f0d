"""A peer's malformed message, each field of each client message wrong, on a live table: refused with
``bad_message`` in one line naming the field and what it must be, and the table unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("websockets")

from kalooki_net.protocol import PROTOCOL_VERSION, host_message_problem
from net_helpers import Player, hosted, new_table


def refused(player: Player, message: Any, code: str) -> dict[str, Any]:
    player.websocket.send(json.dumps(message))
    reply = player.until("error")
    assert reply["code"] == code, reply
    return reply


BOTH = "name and token do not go together: a name takes a new seat, a token your own back"
BLANK = "say: text: shows nothing: it is only spaces, blank fillers or invisible characters"
NOT_A_CHARACTER = "which is not a character (U+D800 to U+DFFF are halves of UTF-16 pairs)"

BAD_FIELDS = [
    ({"protocol": "1"}, "join: protocol: expected a whole number, got '1': "
     "in quotes it is text; remove the quotes"),
    ({"protocol": True}, "join: protocol: expected a whole number, got the boolean true"),
    ({"code": 5}, "join: code: expected text, got 5 (put it in quotes to make it text)"),
    ({"code": "C" * 33}, "join: code: must be at most 32 characters long"),
    ({"token": "t" * 65}, "join: token: must be at most 64 characters long"),
    ({"coach": "yes"}, "join: coach: expected true or false, got 'yes'"),
    ({"nmae": "eve"}, "join: unknown field 'nmae'; did you mean 'name'?"),
    # It was answered seat_in_use, or took the token's seat as if the name were not there.
    ({"token": "t" * 43}, f"join: {BOTH}"),
    ({"type": "move"}, "move: move: is required"),
    ({"type": "move", "move": 7}, "move: move: expected text, got 7 (put it in quotes to make it text)"),
    ({"type": "move", "move": ""}, "move: move: must not be empty"),
    ({"type": "move", "move": "d" * 401}, "move: move: must be at most 400 characters long"),
    ({"type": "move", "move": "ds", "seat": 16}, "move: seat: must be at most 15, got 16"),
    ({"type": "move", "move": "ds", "seat": "\x1b[2J"},
     "move: seat: expected a whole number, got '\\x1b[2J'"),
    ({"type": "move", "move": "ds", "extra": True}, "move: unknown field 'extra'; its fields are move, seat"),
    ({"type": "undo", "seat": -1}, "undo: seat: must be at least 0, got -1"),
    ({"type": "undo", "sea": 1}, "undo: unknown field 'sea'; did you mean 'seat'?"),
    ({"type": "say"}, "say: text: is required"),
    ({"type": "say", "text": ["hi"]}, "say: text: expected text, got a list"),
    ({"type": "say", "text": "h" * 301}, "say: text: must be at most 300 characters long"),
    # Said to every seat ("[table] hinter:    " on the host's terminal): refused as an empty line is.
    *[({"type": "say", "text": text}, BLANK) for text in ("   ", "\n\n\n", "\u200b", "\u3164", "\u0301")],
    # A lone surrogate, sent as JSON's escape (json.dumps writes it so): text that is no Unicode, spelt out.
    ({"type": "say", "text": "hi \ud800"}, f"say: text: not valid text: it holds U+D800, {NOT_A_CHARACTER}"),
    ({"type": "say", "text": "x", "\ud800": 1}, "say: unknown field '\\ud800'; its field is text"),
    ({"type": "move", "move": "\udfff"}, f"move: move: not valid text: it holds U+DFFF, {NOT_A_CHARACTER}"),
    ({"type": "ready", "seat": "ten"},
     "ready: seat: expected a whole number, got 'ten': write numbers in digits (ten is 10)"),
    ({"type": "ready", "when": 1}, "ready: unknown field 'when'; its field is seat"),
    ({"type": "start", "seat": 0}, "start: unknown field 'seat'; it has no field but its type"),
    ({"type": "hint", "seat": 1.0}, "hint: seat: expected a whole number, got 1.0"),
    ({"type": "rules", "what": "all"}, "rules: unknown field 'what'; it has no field but its type"),
    ({"type": "leave", "now": True}, "leave: unknown field 'now'; it has no field but its type"),
]  # fmt: skip
"""A field of each client message wrong, and the line the peer gets: the project's words, not pydantic's
("Input should be a valid integer"); a control character the peer sent comes back spelt out."""


def test_a_malformed_message_is_refused_in_one_line_naming_the_field() -> None:
    with hosted(new_table(seed=9)) as host:
        ann = Player(host.uri)
        ann.join(host.table.code, name="ann")
        before = host.call(host.table.lobby)
        join = {"type": "join", "protocol": PROTOCOL_VERSION, "code": host.table.code, "name": "eve"}
        for fields, line in BAD_FIELDS:
            reply = refused(ann, fields if "type" in fields else {**join, **fields}, "bad_message")
            assert reply == {"type": "error", "code": "bad_message", "message": line}
        # Before joining too: a stranger's malformed join is worded so, and costs no guess at the code.
        eve = Player(host.uri)
        reply = refused(eve, {**join, "coach": 1}, "bad_message")
        assert reply["message"] == "join: coach: expected true or false, got 1"
        # A seat's token with a name: which of the two counts is anyone's guess (it was seat_in_use).
        reply = refused(Player(host.uri), {**join, "token": ann.token}, "bad_message")
        assert reply["message"] == f"join: {BOTH}"
        assert host.call(host.table.lobby) == before
        eve.join(host.table.code, name="eve")
        assert eve.seat == 1


def test_a_key_given_twice_is_refused_not_read_as_its_last() -> None:
    """`"name": "x", "name": "y"` joined as y: a message means what every reader of it reads."""
    with hosted(new_table(seed=9)) as host:
        before = host.call(host.table.lobby)
        eve = Player(host.uri)
        text = f'{{"type": "join", "protocol": {PROTOCOL_VERSION}, "code": "{host.table.code}", '
        eve.websocket.send(text + '"name": "x", "name": "y"}')
        reply = eve.until("error")
        assert reply == {
            "type": "error",
            "code": "bad_json",
            "message": 'not JSON: the key "name" appears twice in one object',
        }
        assert host.call(host.table.lobby) == before


TYPES = "join, move, undo, say, ready, start, hint, rules, leave"
BAD_TYPES = [
    ({"type": None}, f"type: expected one of {TYPES}, got nothing (null)"),
    ({"type": ["join"]}, f"type: expected one of {TYPES}, got a list"),
    ({"type": {"join": 1}}, f"type: expected one of {TYPES}, got a mapping"),
    ({"type": True}, f"type: expected one of {TYPES}, got true"),
    ({"type": 1}, f"type: expected one of {TYPES}, got 1"),
    ({"type": "jion"}, f"type: expected one of {TYPES}, got 'jion' (did you mean 'join'?)"),
    ({"type": "x\x1b"}, f"type: expected one of {TYPES}, got 'x\\x1b'"),
    ({"text": "hi"}, f"type: is required; the types are {TYPES}"),
    ({"type": "say", "text": "hi", "k" * 3000: 1}, f"say: unknown field '{'k' * 79}…'; its field is text"),
]
"""A message's type wrong, and the line the peer gets: said as JSON's values are said elsewhere, not as
Python writes them ("unknown message type None", "['join']"), and never a whole key of kilobytes back."""


def test_a_wrong_type_is_said_in_the_protocols_terms() -> None:
    with hosted(new_table(seed=9)) as host:
        ann = Player(host.uri)
        ann.join(host.table.code, name="ann")
        for message, line in BAD_TYPES:
            reply = refused(ann, message, "bad_message")
            assert reply == {"type": "error", "code": "bad_message", "message": line}


def test_a_message_from_the_table_that_kalooki_join_cannot_read_is_said_in_the_protocols_terms() -> None:
    # It was pydantic's: "Input tag 'None' found using 'type' does not match any of the expected tags: ...".
    types = "welcome, lobby, state, said, presence, error, closing, suggestion, rulebook"
    said = {"type": "said", "seat": 1, "name": "bob", "text": "hi"}
    assert [
        host_message_problem(message)
        for message in (
            {"type": None},
            {**said, "seat": None},
            {**said, "name": True},
            {**said, "when": 1},
            [said],
        )
    ] == [
        f"type: expected one of {types}, got nothing (null)",
        "said: seat: expected a whole number, got nothing (null)",
        "said: name: expected text, got true (put it in quotes to make it text)",
        "said: unknown field 'when'; its fields are seat, name, text",
        "a message is a JSON object with a 'type'",
    ]


def test_a_word_too_long_to_be_a_misspelling_is_not_read_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # A type or a field name of 60,000 letters took 50 ms to refuse, spent looking for the type or field it
    # was a misspelling of: 30 such messages a second, from a connection that needs no code, held every
    # player's moves and talk up (a second and more with four such connections).
    import difflib

    read: list[int] = []
    close_matches = difflib.get_close_matches

    def recorded(word: str, *args: Any, **kwargs: Any) -> list[str]:
        read.append(len(word))
        return close_matches(word, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", recorded)
    with hosted(new_table(seed=9)) as host:
        peer = Player(host.uri)
        long_type = refused(peer, {"type": "j" * 60_000}, "bad_message")["message"]
        assert long_type.startswith("type: expected one of join, move, undo, say,")
        # Another connection: one may send 60,000 characters only once in a few seconds.
        long_field = refused(Player(host.uri), {"type": "undo", "s" * 60_000: 1}, "bad_message")["message"]
        assert long_field.startswith("undo: unknown field 'sss")
        assert long_field.endswith("; its field is seat")
        # A misspelling is still found.
        assert refused(peer, {"type": "udno"}, "bad_message")["message"].endswith("(did you mean 'undo'?)")
    assert read  # the misspelling, looked up
    assert max(read) < 100
