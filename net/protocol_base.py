"""What every message of the table protocol shares: its version, the limits on sizes, the error codes,
and the model each message is (:mod:`kalooki_net.protocol` reads and writes them; the host's own
messages are in :mod:`kalooki_net.host_messages`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from kalooki.statecheck import MAX_NAME

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 64 * 1024
"""The largest message the host reads; a bigger one closes that client's connection (code 1009)."""
MAX_HOST_MESSAGE_BYTES = 16 * 1024 * 1024
"""The largest message ``kalooki join`` reads from a table: hundreds of times a whole game's state, and
a bound on what a table that is not honest can make a player's machine hold."""

NAME_RULE = f"a name is one word of at most {MAX_NAME} characters"
"""Why a name is refused (``bad_name``), by the table or, for a name too long to read, by the parser."""
MAX_SAY = 300
BLANK_SAY = "say: text: shows nothing: it is only spaces, blank fillers or invisible characters"
"""Why a line of chat that shows nothing is refused (``bad_message``, as an empty one)."""
MAX_MOVE = 400
CODE_LENGTH = 6
TOKEN_BYTES = 24

REMOVED_BY_THE_HOST = "removed by the host"
"""The reason of the close (code 1000) that ends the connection of a player the host removed for good
(``remove NAME``): a client tells it from a lost connection by it, and does not offer to rejoin."""

ErrorCode = Literal[
    "bad_json",
    "bad_message",
    "protocol_version",
    "not_joined",
    "already_joined",
    "bad_code",
    "bad_token",
    "seat_in_use",
    "table_full",
    "bad_name",
    "name_taken",
    "started",
    "not_started",
    "not_host",
    "wrong_seat",
    "not_your_turn",
    "illegal_move",
    "rate_limited",
    "not_offered",
    "too_many_tries",
    "dropped",
    "removed",
]
"""Why the host refused a message. Refusals never change the game. ``dropped`` refuses none: the host
dropped the connection, which closes next (the seat waits for its token, as after any drop). ``removed``:
the host removed the player for good (their seat freed before the game, played by its bot in it); sent
before the connection closes, and to a join with that player's token (or, once the game has started, their
name)."""

Seat = Annotated[int, Field(ge=0, le=15, description="A seat number, from 0.")]
OptionalSeat = Annotated[
    int | None,
    Field(
        default=None,
        ge=0,
        le=15,
        description="The seat this message acts for; if given, it must be the sender's own seat.",
    ),
]


class ProtocolMessage(BaseModel):
    """What every message is: strict (no extra field, no coercion), and never changed once read."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


__all__ = [
    "BLANK_SAY",
    "CODE_LENGTH",
    "MAX_HOST_MESSAGE_BYTES",
    "MAX_MESSAGE_BYTES",
    "MAX_MOVE",
    "MAX_SAY",
    "NAME_RULE",
    "PROTOCOL_VERSION",
    "REMOVED_BY_THE_HOST",
    "TOKEN_BYTES",
    "ErrorCode",
    "OptionalSeat",
    "ProtocolMessage",
    "Seat",
]
