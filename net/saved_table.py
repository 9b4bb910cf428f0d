"""A hosted table's part of its save, written (:func:`save_text`) and read back (:func:`read_table`): each
field checked for its kind and range, as a host writes it, before a table is made from it.

The checksum catches damage, not edits (anyone can recompute it): a field of the wrong kind was once
coerced (a seed of ``4.7`` or ``true`` taken as a number) or answered in Python's words (``invalid
literal for int()``), and the save then called no hosted table's at all, for ``kalooki resume`` to
send the user back to ``kalooki host --resume``. Only a save with no table is that; any other fault is
named by its field.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from kalooki.jsonio import is_whole_number
from kalooki.savegame import SaveFormatError, Session, rng_states, save_checksum, save_document
from kalooki.text import clipped

from .protocol import CODE_LENGTH

if TYPE_CHECKING:
    from .table import Table

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Join codes avoid 0/O and 1/I, which are misread when a code is read out across a room."""
TOKEN_DIGEST = re.compile("[0-9a-f]{64}")
"""A seat's token as its save keeps it: the SHA-256 of the token, in hex."""
SEAT_FIELDS = ("kind", "bot", "name", "token", "host")
REMOVED_FIELDS = ("token", "in_game")
"""The fields of each of a save's ``removed_tokens``: the digest of a token the host removed, and whether the
game had started then (each is told so when it comes back to the reopened table)."""
DAMAGED = "the table's save is damaged"


def is_a_wait(seconds: object) -> bool:
    """Whether ``seconds`` may be a table's wait: it goes into the save and every welcome, as JSON,
    which has no NaN or infinity."""
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):  # true is 1 to Python, not to JSON
        return False
    return math.isfinite(seconds) and seconds >= 0


def is_a_code(code: object) -> bool:
    return (
        isinstance(code, str)
        and len(code) == CODE_LENGTH
        and all(character in CODE_ALPHABET for character in code)
    )


@dataclass(frozen=True, slots=True)
class SavedSeat:
    kind: Literal["human", "bot"]
    bot: str
    name: str
    token: str | None
    host: bool
    removed: bool = False
    """A bot's seat whose player the host removed (written only then: a save from before reads the same)."""


@dataclass(frozen=True, slots=True)
class SavedTable:
    code: str
    wait_seconds: float
    seed: int
    seats: list[SavedSeat]
    removed_tokens: dict[str, bool]
    """The digests of the tokens the host removed, each with whether the game had started then (written only
    when there is one: a save from before reads as one with none, its removed players told by name)."""


def shown(value: object) -> str:
    return clipped(repr(value))


def _seat_problem(index: int, data: Any, player: str) -> str | None:
    """What makes ``data`` no seat ``index`` of a save's table whose game calls it ``player``; None when it
    is one.

    A seat's token that is no digest, or a name that is not the game's, would fail only once a player
    rejoins (a traceback on the host's terminal, or a lobby its clients cannot read). A game under way
    has no open seats.
    """
    if not isinstance(data, dict):
        return f"seat {index + 1} is {shown(data)}, not a seat"
    missing = next((field for field in SEAT_FIELDS if field not in data), None)
    if missing is not None:
        return f"seat {index + 1}'s {missing} is missing"
    problem = _field_problem(data, player)
    return None if problem is None else f"seat {index + 1}'s {problem}"


def _field_problem(data: dict[str, Any], player: str) -> str | None:
    kind, name, token, host, bot = data["kind"], data["name"], data["token"], data["host"], data["bot"]
    if kind not in ("human", "bot"):
        return f"kind is {shown(kind)}, not human or bot"
    if name != player:
        return f"name is {shown(name)}, where its game's player is {player!r}"
    if not (token is None or (isinstance(token, str) and TOKEN_DIGEST.fullmatch(token))):
        return f"token is {shown(token)}, not a SHA-256 digest"
    if not isinstance(host, bool):
        return f"host is {shown(host)}, not true or false"
    if not isinstance(bot, str):
        return f"bot is {shown(bot)}, not a bot's name"
    removed = data.get("removed", False)
    if not isinstance(removed, bool):
        return f"removed is {shown(removed)}, not true or false"
    if removed and kind != "bot":
        return "removed is true on a person's seat: a removed player's seat is a bot's"
    return None


def _seats_problem(seats: Sequence[SavedSeat]) -> str | None:
    """What makes ``seats``, each a seat a host writes, no table a host writes; None when they are one.

    ``kalooki host`` seats its own player first, before anyone can join, and a watching host has no seat:
    edited to another seat, the flag gave the terminal a guest's seat (with a new token, so the guest's
    own was answered ``bad_token`` and thrown away). Nor does a host write one token twice, or a token
    on a bot's seat (which its holder would then play).
    """
    held: dict[str, int] = {}
    for index, seat in enumerate(seats):
        if seat.host and index > 0:
            return f"seat {index + 1} is marked the host's: a host sits at seat 1, or none"
        if seat.kind == "bot" and seat.host:
            return f"seat {index + 1} is a bot's and the host's: the host's seat is a person's"
        if seat.kind == "bot" and seat.token is not None:
            return f"seat {index + 1} is a bot's and holds a player's token"
        if seat.kind == "human" and seat.token is None:
            return f"seat {index + 1} is a person's and holds no token to take it back with"
        if seat.token is not None:
            if seat.token in held:
                return f"seat {index + 1} holds the token of seat {held[seat.token] + 1}"
            held[seat.token] = index
    return None


def _removed_tokens_problem(removed: Any, seats: Sequence[SavedSeat]) -> str | None:
    """What makes ``removed`` no ``removed_tokens`` a host writes beside ``seats``; None when it is one: a
    list of the digests of tokens no seat holds (a removed token takes no seat again), each once."""
    if not isinstance(removed, list):
        return f"table.removed_tokens is {shown(removed)}, not a list"
    held = {seat.token for seat in seats if seat.token is not None}
    seen: set[str] = set()
    for index, entry in enumerate(removed):
        where = f"table.removed_tokens[{index}]"  # counted from 0, as a path in JSON is
        if not isinstance(entry, dict):
            return f"{where} is {shown(entry)}, not a removed token"
        missing = next((field for field in REMOVED_FIELDS if field not in entry), None)
        if missing is not None:
            return f"{where}'s {missing} is missing"
        token, in_game = entry["token"], entry["in_game"]
        if not (isinstance(token, str) and TOKEN_DIGEST.fullmatch(token)):
            return f"{where}'s token is {shown(token)}, not a SHA-256 digest"
        if not isinstance(in_game, bool):
            return f"{where}'s in_game is {shown(in_game)}, not true or false"
        if token in held:
            return f"{where} is a seat's token: a removed token takes no seat"
        if token in seen:
            return f"{where} is listed twice"
        seen.add(token)
    return None


def _fields_problem(extra: Mapping[str, Any], players: int) -> str | None:
    """What is wrong with the table's own fields (not its seats'), None when nothing is."""
    missing = next((field for field in ("code", "wait_seconds", "seed", "seats") if field not in extra), None)
    if missing is not None:
        return f"table.{missing} is missing"
    if not is_a_code(extra["code"]):
        return f"table.code is {shown(extra['code'])}, not a join code"
    if not is_a_wait(extra["wait_seconds"]):
        return f"table.wait_seconds is {shown(extra['wait_seconds'])}, not a number of seconds"
    if not is_whole_number(extra["seed"]):
        return f"table.seed is {shown(extra['seed'])}, not a whole number"
    seats = extra["seats"]
    if not isinstance(seats, list) or len(seats) != players:
        held = f"{len(seats)} seats" if isinstance(seats, list) else shown(seats)
        return f"table.seats is {held}, where its game has {players} players"
    return None


def read_table(session: Mapping[str, Any], players: Sequence[str]) -> SavedTable:
    """The table a save's ``session`` object (as written) holds, for a game of ``players``.

    Raises :class:`SaveFormatError` in one line: a save with no table is no hosted table's (``kalooki
    resume`` plays it), any other fault is named by its field.
    """
    extra = session.get("table")
    if not isinstance(extra, dict):
        raise SaveFormatError("this save is not a hosted table's: resume it with kalooki resume")
    problem = _fields_problem(extra, len(players))
    if problem is not None:
        raise SaveFormatError(f"{DAMAGED}: {problem}")
    for index, (data, player) in enumerate(zip(extra["seats"], players, strict=True)):
        problem = _seat_problem(index, data, player)
        if problem is not None:
            raise SaveFormatError(f"{DAMAGED}: {problem}")
    seats = [
        SavedSeat(**{field: data[field] for field in SEAT_FIELDS}, removed=data.get("removed", False))
        for data in extra["seats"]
    ]
    if (problem := _seats_problem(seats)) is not None:
        raise SaveFormatError(f"{DAMAGED}: {problem}")
    removed = extra.get("removed_tokens", [])
    if (problem := _removed_tokens_problem(removed, seats)) is not None:
        raise SaveFormatError(f"{DAMAGED}: {problem}")
    removed_tokens = {entry["token"]: entry["in_game"] for entry in removed}
    return SavedTable(extra["code"], float(extra["wait_seconds"]), extra["seed"], seats, removed_tokens)


def _session(table: Table) -> Session:
    """The save's session as ``kalooki play`` writes it: the first person's seat is the save's player and
    every other seat has the bot that stands in for it, so ``kalooki resume`` can also play it alone."""
    people = table.humans()
    first = people[0] if people else 0
    return Session(
        human_seat=first,
        bots={seat: state.bot for seat, state in enumerate(table.seats) if seat != first},
        bot_rngs={seat: state for seat, state in rng_states(table.rngs).items() if seat != first},
        variant_source=table.variant_source,
        log=table.log_place,
        log_left=table.log_left,
        log_unnamed=table.log_unnamed,
        # What kalooki saves lists as last played (a moment the library's saves leave to their writer).
        saved_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def save_text(table: Table) -> str:
    """The save of ``table``'s game, with the table's own facts (its code, wait, seed and seats, each
    seat's token as its digest, and the digests of the tokens the host removed) in the session's ``table``,
    under the checksum, for :func:`read_table`."""
    document = save_document(table.require_game(), _session(table))
    document["session"]["table"] = {
        "code": table.code,
        "wait_seconds": table.wait_seconds,
        "seed": table.seed,
        "seats": [
            {
                "kind": seat.kind,
                "bot": seat.bot,
                "name": seat.name,
                "token": seat.token_hash,
                "host": seat.host,
                **({"removed": True} if seat.removed else {}),
            }
            for seat in table.seats
        ],
        # Without them a removed player's browser or kalooki join, holding the token still, was told at the
        # reopened table that its seat was no longer known: only a join by name said the host removed them.
        **(
            {
                "removed_tokens": [
                    {"token": token, "in_game": in_game} for token, in_game in table.removed.items()
                ]
            }
            if table.removed
            else {}
        ),
    }
    document["checksum"] = save_checksum(document["session"], document["game"])
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


__all__ = [
    "CODE_ALPHABET",
    "TOKEN_DIGEST",
    "SavedSeat",
    "SavedTable",
    "is_a_code",
    "is_a_wait",
    "read_table",
    "save_text",
]
