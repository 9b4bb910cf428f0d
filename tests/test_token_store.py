"""The seat tokens ``kalooki join`` keeps on disk, changed by several processes at once."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from kalooki_net.client import TokenStore

TABLE = "ws://127.0.0.1:8765"
CODE = "7KQ2MX"
TIMES = 150


def _keep_often(folder: str, name: str, seat: int, start: multiprocessing.synchronize.Barrier) -> None:
    store = TokenStore(Path(folder))
    start.wait(timeout=60)
    for time in range(TIMES):
        store.keep(TABLE, CODE, f"{name}-{time}", seat, name)


def test_people_joining_from_one_account_at_the_same_instant_each_keep_their_seat(tmp_path: Path) -> None:
    # Each keep reads the file, changes it and writes it whole: without a lock, one process writes back
    # a list it read before another's seat was added, and that seat is lost.
    names = ["ann", "bob", "cid", "dee"]
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(len(names))
    workers = [
        context.Process(target=_keep_often, args=(str(tmp_path), name, seat, start))
        for seat, name in enumerate(names)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    kept = TokenStore(tmp_path).seats(TABLE, CODE)
    assert sorted((seat.name, seat.seat, seat.token) for seat in kept) == [
        (name, seat, f"{name}-{TIMES - 1}") for seat, name in enumerate(names)
    ]


NO_TOKEN = "it holds no seat's token as a table gives it"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[" * 100_000, "not JSON: nested too deeply"),
        ('{"seats": [{"token": 5}]}', NO_TOKEN),
        ("not json", "not JSON: line 1 column 1: Expecting value"),
        ('{"token": "t", "seat": NaN}', "not JSON: NaN is not a number JSON allows"),
        ("\udcff", "not JSON: not UTF-8 text (byte 1)"),
        (" " * 3_000_000, "the file is 2 MiB; at most 1 MiB are accepted"),
        ('{"token": "' + "t" * 100_000 + '"}', NO_TOKEN),  # sent as it was, the table closed the join (1009)
        ('{"seats": [7, {"token": "' + "t" * 70 + '", "seat": 1}]}', NO_TOKEN),
    ],
    ids=["deep", "wrong-types", "not-json", "nan", "not-utf8", "3-MB", "100-KB-token", "no-seat-a-seat"],
)
def test_a_damaged_token_file_keeps_no_seat_says_why_and_is_written_anew(
    tmp_path: Path, text: str, said: str
) -> None:
    store = TokenStore(tmp_path)
    path = store.path(TABLE, CODE)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert store.read(TABLE, CODE) == ([], said)
    assert store.seats(TABLE, CODE) == []
    store.keep(TABLE, CODE, "t1", 1, "ann")
    assert [(seat.name, seat.seat, seat.token) for seat in store.seats(TABLE, CODE)] == [("ann", 1, "t1")]


def test_an_entry_no_table_gives_costs_the_other_seats_nothing(tmp_path: Path) -> None:
    # Read as damaged whole, a file with one token edited to 70 characters lost ann's and bob's seats
    # when the next join kept dee's.
    store = TokenStore(tmp_path)
    store.keep(TABLE, CODE, "t-ann", 1, "ann")
    store.keep(TABLE, CODE, "t-bob", 2, "bob")
    path = store.path(TABLE, CODE)
    path.write_text(
        path.read_text().replace('"seats": [', '"seats": [{"token": "' + "t" * 70 + '", "seat": 3}, ')
    )
    assert "t" * 70 in path.read_text()
    seats, damaged = store.read(TABLE, CODE)
    assert ([(seat.name, seat.token) for seat in seats], damaged) == (
        [("bob", "t-bob"), ("ann", "t-ann")],
        None,
    )
    store.keep(TABLE, CODE, "t-dee", 3, "dee")
    assert [seat.name for seat in store.seats(TABLE, CODE)] == ["dee", "bob", "ann"]


def test_a_token_file_that_is_a_folder_keeps_no_seat(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.path(TABLE, CODE).mkdir()
    assert store.read(TABLE, CODE) == ([], "is a directory, not a file")


def test_a_token_file_that_is_a_link_to_a_device_is_not_read(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.path(TABLE, CODE).symlink_to("/dev/zero")
    assert store.read(TABLE, CODE) == ([], "is a device, not a regular file")


def test_no_token_file_is_no_damage(tmp_path: Path) -> None:
    assert TokenStore(tmp_path).read(TABLE, CODE) == ([], None)
