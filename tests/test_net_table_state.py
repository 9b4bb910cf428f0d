"""A table that is not honest sends ``kalooki join`` a state that does not add up: the join ends in one
line naming the field and what is wrong with it (exit 1), whether it is the first state or a later one,
never with a traceback, and never in the words of a damaged save or of a card mistyped at the prompt."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from net_helpers import Mutation, a_real_welcome_and_state, join_a_table_that_sends, view_of, welcome_of

NOT_CONSISTENT = "the table sent a state that does not add up"


@pytest.fixture(scope="module")
def real_messages() -> list[dict[str, Any]]:
    """A real table's welcome and first state for bob (seat 1 of 2; ann, at seat 0, is to draw)."""
    return a_real_welcome_and_state()


def state_of(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return next(message for message in messages if message["type"] == "state")


CHANGES: list[tuple[Mutation, str]] = [
    # Each crashed kalooki join with a traceback (IndexError at shadow_game).
    (lambda sent: view_of(sent)["hand_counts"].append(13), "view.hand_counts holds 3 entries for 2 players"),
    (lambda sent: view_of(sent)["players"].pop(), "view.players holds 1 entry: a table has 2 to 8 players"),
    (
        lambda sent: view_of(sent).update(can_undo=True, current=9),
        "view.current: 9 is not at the table: this 2-player table's seats are 0 to 1",
    ),
    (
        lambda sent: state_of(sent)["stand_ins"].update(ann="greedy"),
        "stand_ins: 'ann' is not a seat at the table",
    ),
    # Each was blamed on a save ("the saved game is damaged: ...") or on what was typed.
    (
        lambda sent: view_of(sent).update(current=5),
        "view.current: 5 is not at the table: this 2-player table's seats are 0 to 1",
    ),
    (lambda sent: view_of(sent).update(hand=["ZZ"]), "view.hand[0]: 'ZZ' is not a card"),
    (
        lambda sent: view_of(sent).update(totals=[0, 7]),
        "the total of seat 2 (bob) is not the sum of their scores",
    ),
    # ann would have built and freed jokers with no meld of her own, her opening never laid.
    (
        lambda sent: view_of(sent).update(opened=[True, False]),
        "seat 1 (ann) has opened, but no meld on the table is theirs",
    ),
    (
        lambda sent: view_of(sent)["turn"].update(drawn_card="QS"),
        "the player to move has drawn already, but the game waits for a draw",
    ),
    (
        lambda sent: view_of(sent)["turn"].update(built=True),
        "the turn has laid melds or built on the table before it has drawn",
    ),
    # The screen would have shown stand-in cards as bob's hand.
    (lambda sent: view_of(sent).update(seat=0), "view.seat is 0, but welcome.seat is 1"),
]


def join_ends_in_one_line(sent: list[dict[str, Any]], line: str) -> str:
    """``kalooki join`` at a table that sends ``sent`` ends with ``line`` on stderr, exit 1: its stdout."""
    result = join_a_table_that_sends(sent)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert result.stderr == f"{line}\n"
    assert result.returncode == 1
    return result.stdout


@pytest.mark.parametrize(("change", "said"), CHANGES, ids=[said for _, said in CHANGES])
def test_a_first_state_that_does_not_add_up_ends_the_join_in_one_line(
    real_messages: list[dict[str, Any]], change: Mutation, said: str
) -> None:
    sent = copy.deepcopy(real_messages)
    change(sent)
    join_ends_in_one_line(sent, f"{NOT_CONSISTENT}: {said}")


def test_a_later_state_that_does_not_add_up_ends_the_join_in_one_line(
    real_messages: list[dict[str, Any]],
) -> None:
    # The first state is the table's own; the next is the same as the proxy of the review changed it.
    later = copy.deepcopy(state_of(real_messages))
    later["view"]["hand_counts"].append(13)
    shown = join_ends_in_one_line(
        [*real_messages, later], f"{NOT_CONSISTENT}: view.hand_counts holds 3 entries for 2 players"
    )
    assert "Your hand" in shown  # the first state was played on


def test_a_welcome_that_seats_the_player_as_a_watcher_is_refused_before_the_seat_is_kept(
    real_messages: list[dict[str, Any]],
) -> None:
    # kalooki join said 'You sit at seat 0 as bob.', kept the seat -1 for a rejoin, then 'the table
    # seated you at seat 0, which its game does not have'.
    sent = copy.deepcopy(real_messages)
    welcome_of(sent).update(seat=-1)
    said = (
        "the table sent a welcome that does not add up: "
        "welcome.seat is -1, but you asked for a seat (seats are numbered from 0)"
    )
    assert join_ends_in_one_line(sent, said) == ""


def kept_tokens() -> list[Path]:
    """The token files this account keeps (the tests' KALOOKI_HOME)."""
    return list((Path(os.environ["KALOOKI_HOME"]) / "tables").glob("*.json"))


def join_leaves_in_one_line(sent: list[dict[str, Any]], line: str) -> None:
    """``kalooki join`` at a table that sends ``sent`` ends with ``line``, exit 1, after sending leave."""
    heard: list[dict[str, Any]] = []
    result = join_a_table_that_sends(sent, heard)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert result.stderr == f"{line}\n"
    assert result.returncode == 1
    assert heard == [{"type": "leave"}]


def test_a_refused_watchers_welcome_leaves_the_seat_it_gave(real_messages: list[dict[str, Any]]) -> None:
    # The join sent nothing: the table kept that seat waiting, as for a player who dropped.
    sent = copy.deepcopy(real_messages)
    welcome_of(sent).update(seat=-1)
    said = "welcome.seat is -1, but you asked for a seat (seats are numbered from 0)"
    join_leaves_in_one_line(sent, f"the table sent a welcome that does not add up: {said}")
    assert not kept_tokens()


def test_a_view_for_another_seat_is_refused_leaving_the_seat_and_keeping_no_token(
    real_messages: list[dict[str, Any]],
) -> None:
    # The join sent nothing, and kept the token of the seat it refused for the next join.
    sent = copy.deepcopy(real_messages)
    view_of(sent).update(seat=0)
    join_leaves_in_one_line(sent, f"{NOT_CONSISTENT}: view.seat is 0, but welcome.seat is 1")
    assert not kept_tokens()


def test_a_later_state_refused_leaves_the_seat_and_keeps_it_to_rejoin(
    real_messages: list[dict[str, Any]],
) -> None:
    later = copy.deepcopy(state_of(real_messages))
    later["view"]["hand_counts"].append(13)
    join_leaves_in_one_line(
        [*real_messages, later], f"{NOT_CONSISTENT}: view.hand_counts holds 3 entries for 2 players"
    )
    assert len(kept_tokens()) == 1  # the game is under way: the seat comes back with kalooki join


EVENT_NOT_CONSISTENT = "the table sent an event that does not add up"
HAND_END = {"type": "hand_end", "hand": 1, "end": "out", "winner": "ann", "kalooki": False}
EVENTS: list[tuple[dict[str, Any], str]] = [
    # Each crashed kalooki join with a traceback (KeyError at the end of the hand's scoresheet).
    (
        {**HAND_END, "hand_points": {"zed": 3}, "scores": {"zed": 3}, "totals": {"zed": 3}},
        "events[0] (hand_end): hand_points: 'zed' is not a player at the table",
    ),
    (
        {**HAND_END, "hand_points": {"ann": 0, "bob": 3}, "scores": {}, "totals": {}},
        "events[0] (hand_end): totals: no total for 'ann', who has hand_points",
    ),
    # Each was told as though it had happened ('Zed draws from the stock.', 'Ann melds 3♠ 9♦ K♥ [9]').
    (
        {"type": "draw", "player": "zed", "source": "stock"},
        "events[0] (draw): player: 'zed' is not a player at the table",
    ),
    (
        {"type": "meld", "player": "ann", "melds": ["3S 4S 5S"], "numbers": [9], "points": 12},
        "events[0] (meld): meld 9 is not on the table (it holds 0)",
    ),
    (
        {"type": "build", "player": "ann", "meld": 9, "cards": "3S", "end": "high", "result": "KH 2D"},
        "events[0] (build): meld 9 is not on the table (it holds 0)",
    ),
    (
        {**HAND_END, "kalooki": "no", "hand_points": {}, "scores": {}, "totals": {}},
        'events[0] (hand_end): kalooki: expected true or false, got "no"',
    ),
    # Each was told in Python's or a log's words ("a 'meld' event that cannot be read: 'int' object ...").
    (
        {"type": "meld", "player": "ann", "melds": 5, "numbers": [1], "points": 9},
        "events[0] (meld): melds: expected a list of texts, got 5",
    ),
    ({"type": "teleport", "player": "ann"}, "events[0] (teleport): unknown event type 'teleport'"),
]


@pytest.mark.parametrize(("event", "said"), EVENTS, ids=[said for _, said in EVENTS])
def test_a_later_state_whose_events_do_not_add_up_ends_the_join_in_one_line_and_leaves_the_seat(
    real_messages: list[dict[str, Any]], event: dict[str, Any], said: str
) -> None:
    later = copy.deepcopy(state_of(real_messages))
    later["events"] = [event]
    join_leaves_in_one_line([*real_messages, later], f"{EVENT_NOT_CONSISTENT}: {said}")


def test_a_first_state_whose_events_do_not_add_up_is_refused_and_its_seat_is_not_kept(
    real_messages: list[dict[str, Any]],
) -> None:
    sent = copy.deepcopy(real_messages)
    state_of(sent)["events"].append({"type": "discard", "player": "ann", "card": "ZZ"})
    said = (
        "events[1] (discard): 'ZZ' is not a card: write a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), "
    )
    join_leaves_in_one_line(sent, f"{EVENT_NOT_CONSISTENT}: {said}e.g. 7H, TC, 10C, QS, or JK for a joker")
    assert not kept_tokens()


def test_texts_from_the_table_with_a_lone_surrogate_are_spelled_out(
    real_messages: list[dict[str, Any]],
) -> None:
    # Each ended kalooki join with a UnicodeEncodeError traceback: JSON's \ud800 is no character a
    # terminal can print.
    sent = copy.deepcopy(real_messages)
    sent.insert(2, {"type": "said", "seat": 0, "name": "ann", "text": "hi \ud800"})
    sent.append({"type": "presence", "seat": 0, "name": "ann\udfff", "status": "back"})
    sent.append({"type": "error", "code": "illegal_move", "message": "no \ud800"})
    sent.append({"type": "closing", "reason": "bye \ud800"})
    result = join_a_table_that_sends(sent)
    assert result.stderr == ""
    assert result.returncode == 1  # the table closed
    lines = result.stdout.splitlines()
    for line in (
        "ann: hi \\ud800",
        "ann\\udfff is back.",
        "✗ no \\ud800",
        "The table is closed: bye \\ud800.",
    ):
        assert line in lines
