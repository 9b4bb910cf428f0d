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


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000, '{"seats": [{"token": 5}]}', "not json", '{"token": "t", "seat": NaN}', "\udcff"],
    ids=["deep", "wrong-types", "not-json", "nan", "not-utf8"],
)
def test_a_damaged_token_file_keeps_no_seat_and_is_written_anew(tmp_path: Path, text: str) -> None:
    store = TokenStore(tmp_path)
    path = store.path(TABLE, CODE)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert store.seats(TABLE, CODE) == []
    store.keep(TABLE, CODE, "t1", 1, "ann")
    assert [(seat.name, seat.seat, seat.token) for seat in store.seats(TABLE, CODE)] == [("ann", 1, "t1")]


def test_a_token_file_that_is_a_folder_keeps_no_seat(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.path(TABLE, CODE).mkdir()
    assert store.seats(TABLE, CODE) == []
