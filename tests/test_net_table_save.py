"""A hosted table's save read back: its table's part is checked as the host writes it, field by field."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from kalooki_cli.app import app
from kalooki_net.table import Table
from net_helpers import new_table
from typer.testing import CliRunner

from kalooki.savegame import SAVE_SUFFIX, SaveFormatError, save_checksum
from kalooki.variant import Variant

runner = CliRunner()


def edited_save(edit: Callable[[dict[str, Any]], None], *, host: bool = True) -> str:
    """A started three-seat table's save (ann's seat the host's, bob's a guest's, the third a bot's),
    its table edited by ``edit`` and its checksum recomputed, as anyone can."""
    table = new_table(seats=3)
    table.join("ann", host=host)
    table.join("bob")
    table.start()
    document = json.loads(table.save_text())
    edit(document["session"]["table"])
    document["checksum"] = save_checksum(document["session"], document["game"])
    return json.dumps(document)


def refusal(text: str) -> str:
    with pytest.raises(SaveFormatError) as refused:
        Table.resume(text.encode())
    return str(refused.value)


def set_seat(seat: int, field: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(table: dict[str, Any]) -> None:
        table["seats"][seat][field] = value

    return edit


def same_token(table: dict[str, Any]) -> None:
    table["seats"][1]["token"] = table["seats"][0]["token"]


def token_on_the_bot(table: dict[str, Any]) -> None:
    table["seats"][2]["token"] = "ab" * 32


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (set_seat(1, "host", True), "seat 2 is marked the host's: a host sits at seat 1, or none"),
        (same_token, "seat 2 holds the token of seat 1"),
        (token_on_the_bot, "seat 3 is a bot's and holds a player's token"),
        (set_seat(1, "kind", "bot"), "seat 2 is a bot's and holds a player's token"),
        (set_seat(1, "token", None), "seat 2 is a person's and holds no token to take it back with"),
    ],
)
def test_a_table_save_edited_to_seats_no_host_writes_is_refused(
    edit: Callable[[dict[str, Any]], None], said: str
) -> None:
    # Accepted, two host seats gave the terminal bob's seat (and a new token: bob's own was then answered
    # bad_token, and kalooki join threw it away); a token on a bot's seat let a player take the bot's.
    assert refusal(edited_save(edit)) == f"the table's save is damaged: {said}"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("yes", "seat 2's removed is 'yes', not true or false"),
        (True, "seat 2's removed is true on a person's seat: a removed player's seat is a bot's"),
    ],
)
def test_a_seat_marked_removed_as_no_host_writes_it_is_refused(value: object, said: str) -> None:
    # A seat's removed (a player the host removed, their seat a bot's) is read back as the host writes it.
    assert refusal(edited_save(set_seat(1, "removed", value))) == f"the table's save is damaged: {said}"


def test_a_table_save_keeps_who_the_host_removed_and_reads_as_before_without() -> None:
    table = new_table(seats=3)
    table.join("ann", host=True)
    table.join("bob")
    table.start()
    assert "removed" not in json.loads(table.save_text())["session"]["table"]["seats"][1]
    table.remove(1)
    seats = json.loads(table.save_text())["session"]["table"]["seats"]
    assert [seat.get("removed") for seat in seats] == [None, True, None]
    assert [seat.removed for seat in Table.resume(table.save_text().encode()).seats] == [False, True, False]


def test_a_watched_tables_save_with_a_host_is_refused() -> None:
    # With --watch the host has no seat: marked on bob's, the terminal took bob's seat.
    said = refusal(edited_save(set_seat(1, "host", True), host=False))
    assert said == "the table's save is damaged: seat 2 is marked the host's: a host sits at seat 1, or none"


def test_a_table_save_with_its_host_on_a_bot_seat_is_refused() -> None:
    def host_is_a_bot(table: dict[str, Any]) -> None:
        table["seats"][0].update(kind="bot", token=None)

    said = refusal(edited_save(host_is_a_bot))
    assert (
        said == "the table's save is damaged: seat 1 is a bot's and the host's: the host's seat is a person's"
    )


def test_host_resume_refuses_a_save_with_two_hosts_and_leaves_it_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / f"th{SAVE_SUFFIX}"
    path.write_text(edited_save(set_seat(1, "host", True)))
    before = path.read_bytes()
    result = runner.invoke(
        app, ["host", "--resume", str(path), "--no-log", "--bind", "127.0.0.1", "--port", "0"]
    )
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        f"{path}: the table's save is damaged: seat 2 is marked the host's: a host sits at seat 1, or none"
    ]
    assert path.read_bytes() == before


def set_table(field: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(table: dict[str, Any]) -> None:
        table[field] = value

    return edit


def drop_seat_field(table: dict[str, Any]) -> None:
    del table["seats"][1]["host"]


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (set_table("seed", "abc"), "table.seed is 'abc', not a whole number"),
        (set_table("seed", 4.7), "table.seed is 4.7, not a whole number"),
        (set_table("seed", True), "table.seed is True, not a whole number"),
        (set_table("wait_seconds", "x"), "table.wait_seconds is 'x', not a number of seconds"),
        (set_table("wait_seconds", False), "table.wait_seconds is False, not a number of seconds"),
        (set_table("code", 7), "table.code is 7, not a join code"),
        (set_table("seats", {}), "table.seats is {}, where its game has 3 players"),
        (set_table("seats", []), "table.seats is 0 seats, where its game has 3 players"),
        (drop_seat_field, "seat 2's host is missing"),
        (set_seat(1, "bot", 5), "seat 2's bot is 5, not a bot's name"),
    ],
)
def test_a_table_save_with_a_field_of_the_wrong_kind_is_named_by_its_field(
    edit: Callable[[dict[str, Any]], None], said: str
) -> None:
    # They were answered in Python's words as no hosted table's save ("invalid literal for int() with base
    # 10: 'abc'", "('host')"), for kalooki resume to send the user back; a seed of 4.7 or true was taken.
    assert refusal(edited_save(edit)) == f"the table's save is damaged: {said}"


def test_a_seat_that_is_no_object_is_named() -> None:
    def seat_is_a_number(table: dict[str, Any]) -> None:
        table["seats"][2] = 5

    assert refusal(edited_save(seat_is_a_number)) == "the table's save is damaged: seat 3 is 5, not a seat"


def test_host_resume_names_a_damaged_field_and_keeps_resume_for_a_game_of_ones_own(tmp_path: Path) -> None:
    path = tmp_path / f"th{SAVE_SUFFIX}"
    path.write_text(edited_save(set_table("seed", "abc")))
    before = path.read_bytes()
    arguments = ["host", "--resume", str(path), "--no-log", "--bind", "127.0.0.1", "--port", "0"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        f"{path}: the table's save is damaged: table.seed is 'abc', not a whole number"
    ]
    assert path.read_bytes() == before
    # A save with no table really is no hosted table's: kalooki resume plays it.
    document = json.loads(before)
    del document["session"]["table"]
    document["checksum"] = save_checksum(document["session"], document["game"])
    path.write_text(json.dumps(document))
    result = runner.invoke(app, arguments)
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        f"{path}: this save is not a hosted table's: resume it with kalooki resume"
    ]


def test_a_table_save_says_when_it_was_saved() -> None:
    # A hosted table's saves had saved_at "" (kalooki saves fell back on the file's time).
    table = new_table(seats=2)
    table.join("ann", host=True)
    table.join("bob")
    table.start()
    before = datetime.now(UTC).replace(microsecond=0)
    saved_at = json.loads(table.save_text())["session"]["saved_at"]
    assert before <= datetime.fromisoformat(saved_at) <= datetime.now(UTC)


def test_a_table_save_keeps_the_tokens_the_host_removed() -> None:
    # Not kept, a removed player's token was no seat's at the reopened table: told unknown, not removed.
    table = new_table(seats=3)
    table.join("ann", host=True)
    table.join("bob")
    table.start()
    assert "removed_tokens" not in json.loads(table.save_text())["session"]["table"]  # as saves from before
    removed = table.seats[1].token_hash
    table.remove(1)
    written = json.loads(table.save_text())["session"]["table"]["removed_tokens"]
    assert written == [{"token": removed, "in_game": True}]
    assert Table.resume(table.save_text().encode()).removed == {removed: True}


def removed_tokens(value: object) -> Callable[[dict[str, Any]], None]:
    def edit(table: dict[str, Any]) -> None:
        table["removed_tokens"] = value(table) if callable(value) else value

    return edit


DIGEST = "cd" * 32


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ({}, "table.removed_tokens is {}, not a list"),
        ([DIGEST], f"table.removed_tokens[0] is '{DIGEST}', not a removed token"),
        ([{"token": DIGEST}], "table.removed_tokens[0]'s in_game is missing"),
        (
            [{"token": "abc", "in_game": True}],
            "table.removed_tokens[0]'s token is 'abc', not a SHA-256 digest",
        ),
        ([{"token": DIGEST, "in_game": 1}], "table.removed_tokens[0]'s in_game is 1, not true or false"),
        (
            lambda table: [{"token": table["seats"][1]["token"], "in_game": True}],
            "table.removed_tokens[0] is a seat's token: a removed token takes no seat",
        ),
        ([{"token": DIGEST, "in_game": True}] * 2, "table.removed_tokens[1] is listed twice"),
    ],
)
def test_removed_tokens_no_host_writes_are_refused(value: object, said: str) -> None:
    assert refusal(edited_save(removed_tokens(value))) == f"the table's save is damaged: {said}"


@pytest.mark.parametrize("wait", [float("nan"), float("inf"), -1.0])
def test_a_table_waits_a_number_of_seconds(wait: float) -> None:
    # Its saves and welcomes carry the wait as JSON, which has no NaN or infinity.
    with pytest.raises(ValueError, match="give a number of seconds, 0 or more"):
        Table(Variant(), seats=2, bots=["greedy"], seed=1, wait_seconds=wait)


def test_a_table_save_with_a_wait_that_is_no_number_of_seconds_is_refused() -> None:
    table = new_table()
    table.start()
    document = json.loads(table.save_text())
    document["session"]["table"]["wait_seconds"] = "1e999"
    document["checksum"] = save_checksum(document["session"], document["game"])
    with pytest.raises(SaveFormatError, match=r"table.wait_seconds is '1e999', not a number of seconds"):
        Table.resume(json.dumps(document).encode())


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("kind", "admin", "seat 1's kind is 'admin', not human or bot"),
        ("name", "Ann", "seat 1's name is 'Ann', where its game's player is 'ann'"),
        ("token", 5, "seat 1's token is 5, not a SHA-256 digest"),
        ("host", "no", "seat 1's host is 'no', not true or false"),
        ("code", "AB\x1b[2J", "table.code is 'AB\\x1b[2J', not a join code"),
    ],
)
def test_a_table_save_edited_to_seats_its_game_does_not_have_is_refused(
    field: str, value: object, said: str
) -> None:
    # The checksum is anyone's to recompute: such a table opened, then a rejoin with a token of 5 ended in
    # a traceback on the host's terminal, and a seat of kind 'admin' made a lobby no client could read.
    table = new_table()
    table.join("ann")
    table.start()
    document = json.loads(table.save_text())
    edited = document["session"]["table"]
    (edited if field == "code" else edited["seats"][0])[field] = value
    document["checksum"] = save_checksum(document["session"], document["game"])
    with pytest.raises(SaveFormatError) as refused:
        Table.resume(json.dumps(document).encode())
    assert str(refused.value) == f"the table's save is damaged: {said}"
