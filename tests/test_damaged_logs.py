"""Logs damaged by hand (a field taken out or added, two logs joined into one file): the replay says where
and how, in words that read as the log's."""

from __future__ import annotations

from test_hostile_logs import bot_log, first, refused


def test_a_field_one_record_lacks_is_said_to_be_nothing_not_quoted() -> None:
    # It said 'the log says "(nothing)"', as if the log held that text.
    records = bot_log()
    index = first(records, "draw")
    del records[index]["card"]
    card = bot_log()[index]["card"]
    assert refused(records) == (
        f'record {index + 1} (draw): card: the log says nothing, the engine produced "{card}"'
    )
    records = bot_log()
    records[index]["note"] = "mine"
    assert (
        refused(records)
        == f'record {index + 1} (draw): note: the log says "mine", the engine produced nothing'
    )


def test_two_logs_joined_into_one_file_are_said_to_be() -> None:
    # As `cat old.jsonl >> game.jsonl` makes them; said "a 'game' record where an action or deal was ...".
    records = bot_log(turns=2)
    assert refused(records + bot_log()) == (
        f"record {len(records) + 1}: a second 'game' record, the start of another game: a log holds one game "
        "(two logs joined into one file?)"
    )
