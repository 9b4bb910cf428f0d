"""The table protocol: JSON messages over one WebSocket, versioned, with a JSON Schema.

Every message is one JSON object in one text frame, with a ``type``. The client's messages
are :data:`ClientMessage` (checked strictly: an unknown type, a missing or extra field, or a
field of the wrong type is refused); the host's are :data:`HostMessage`, in :mod:`.host_messages`, and
what all share (the version, the limits, the error codes) is in :mod:`.protocol_base`; every name is
imported from here, as before they were apart. ``docs/protocol.md``
describes the conversation; ``schemas/protocol.schema.json`` is generated from these models
(``kalooki schema --write``) and checked (``kalooki schema --check``).

Only pydantic is needed here, so the schema is generated without the ``net`` extra installed.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, TypeAdapter, ValidationError

from kalooki import jsonio
from kalooki.statecheck import MAX_NAME
from kalooki.text import escape_controls, shows_nothing

from .host_messages import (
    HOST_TYPES,
    PRESENCE_WORDS,
    Closing,
    Coach,
    Error,
    HostMessage,
    Lobby,
    Meld,
    MoveCommand,
    Presence,
    Preview,
    Rulebook,
    Said,
    Screen,
    SeatInfo,
    State,
    Suggestion,
    TurnInfo,
    View,
    Welcome,
    host_message_problem,
    presence_line,
)
from .message_faults import NOT_AN_OBJECT, field_problem, type_problem
from .protocol_base import (
    BLANK_SAY,
    CODE_LENGTH,
    MAX_HOST_MESSAGE_BYTES,
    MAX_MESSAGE_BYTES,
    MAX_MOVE,
    MAX_SAY,
    NAME_RULE,
    PROTOCOL_VERSION,
    REMOVED_BY_THE_HOST,
    TOKEN_BYTES,
    ErrorCode,
    OptionalSeat,
    ProtocolMessage,
    Seat,
)

# ---------------------------------------------------------------- from a client


class Join(ProtocolMessage):
    """Take a seat: with the join code and a name, or (rejoining) with the code and the seat's token."""

    type: Literal["join"]
    protocol: int = Field(description="The protocol version the client speaks.")
    code: Annotated[str, Field(max_length=32, description="The table's join code.")]
    name: Annotated[
        str | None, Field(default=None, max_length=MAX_NAME, description="Your name (a new seat).")
    ] = None
    token: Annotated[
        str | None,
        Field(default=None, max_length=64, description="The token given for your seat (rejoining)."),
    ] = None
    coach: Annotated[
        bool,
        Field(
            default=False,
            description=(
                "Ask for the table's own words with every state (the `coach` field): what a client "
                "without the rules engine, such as the browser page, shows."
            ),
        ),
    ] = False


class Move(ProtocolMessage):
    """A move in the move language (``ds``, ``m 7H 8H 9H``, ``b 2 TH``, ``s 3 5C``, ``d KD``)."""

    type: Literal["move"]
    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)]
    seat: OptionalSeat = None


class Undo(ProtocolMessage):
    """Take back this turn's melds, builds and swaps."""

    type: Literal["undo"]
    seat: OptionalSeat = None


class Say(ProtocolMessage):
    """A line of chat to the whole table."""

    type: Literal["say"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_SAY)]


class Ready(ProtocolMessage):
    """Between hands: ready for the next deal (it is dealt when every connected player is ready)."""

    type: Literal["ready"]
    seat: OptionalSeat = None


class Start(ProtocolMessage):
    """The host's seat only: start now; bots take the empty seats."""

    type: Literal["start"]


class AskHint(ProtocolMessage):
    """On your turn: what the greedy bot would play now (answered by a ``suggestion`` message)."""

    type: Literal["hint"]
    seat: OptionalSeat = None


class AskRules(ProtocolMessage):
    """The variant's whole rulebook (answered by a ``rulebook`` message)."""

    type: Literal["rules"]


class Leave(ProtocolMessage):
    """Leave the table: before the game the seat is free again at once; during it, as a dropped connection."""

    type: Literal["leave"]


ClientMessages = Join | Move | Undo | Say | Ready | Start | AskHint | AskRules | Leave
ClientMessage = Annotated[ClientMessages, Field(discriminator="type")]
CLIENT_TYPES = ("join", "move", "undo", "say", "ready", "start", "hint", "rules", "leave")
_client_adapter: TypeAdapter[ClientMessages] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A client message the host cannot read; ``code`` is the error code sent back."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


def parse_client_message(text: str | bytes) -> ClientMessages:
    """Read one client message, or raise :class:`ProtocolError` saying what is wrong with it."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_message", "send messages as text frames of JSON, not binary frames")
    try:
        # The library's strict reader: a message nested 30,000 deep fits in 64 KiB and would make
        # json.loads raise RecursionError, which is no ValueError and would drop the connection.
        data = jsonio.loads(text)
    except jsonio.JsonInputError as error:
        raise ProtocolError("bad_json", f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", NOT_AN_OBJECT)
    problem = type_problem(data, CLIENT_TYPES)
    if problem is not None:
        raise ProtocolError("bad_message", escape_controls(problem))
    kind = data["type"]
    try:
        message = _client_adapter.validate_python(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        if kind == "join" and first["loc"][1:] == ("name",) and first["type"] == "string_too_long":
            raise ProtocolError("bad_name", NAME_RULE) from None  # as the table words any other bad name
        raise ProtocolError(
            "bad_message", escape_controls(field_problem(kind, first, _CLIENT_MODELS))
        ) from None
    if isinstance(message, Say) and shows_nothing(message.text):
        # As an empty one: "[table] ann: " on the host's terminal, a blank line on every screen, says nothing.
        raise ProtocolError("bad_message", BLANK_SAY)
    if isinstance(message, Join) and message.name is not None and message.token is not None:
        # Which of the two the table should go by is anyone's guess: a seat in use was answered seat_in_use.
        raise ProtocolError(
            "bad_message",
            "join: name and token do not go together: a name takes a new seat, a token your own back",
        )
    return message


_CLIENT_MODELS: dict[str, type[ProtocolMessage]] = {
    get_args(model.model_fields["type"].annotation)[0]: model for model in get_args(ClientMessages)
}


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every message, both ways (``kalooki schema protocol``)."""
    schema = TypeAdapter(
        Annotated[
            Join
            | Move
            | Undo
            | Say
            | Ready
            | Start
            | AskHint
            | AskRules
            | Leave
            | Welcome
            | Lobby
            | State
            | Said
            | Presence
            | Error
            | Closing
            | Suggestion
            | Rulebook,
            Field(discriminator="type"),
        ]
    ).json_schema(mode="validation")
    from kalooki.schema import labelled

    # Titled and given an $id as the variant and game-script schemas are, for the same editors and tools.
    return labelled("protocol", {
        "title": f"kalooki table protocol, version {PROTOCOL_VERSION}",
        "description": (
            f"One JSON object per WebSocket text frame, at most {MAX_MESSAGE_BYTES} bytes from a client. "
            f"Client messages: {', '.join(CLIENT_TYPES)}. "
            "Host messages: welcome, lobby, state, said, presence, error, closing, suggestion, rulebook."
        ),
        **schema,
    })  # fmt: skip


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error(code: ErrorCode, message: str, commands: list[dict[str, str]] | None = None) -> dict[str, Any]:
    refusal: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if commands is not None:
        refusal["commands"] = commands
    return refusal


__all__ = [
    "BLANK_SAY",
    "CLIENT_TYPES",
    "CODE_LENGTH",
    "HOST_TYPES",
    "MAX_HOST_MESSAGE_BYTES",
    "MAX_MESSAGE_BYTES",
    "MAX_MOVE",
    "MAX_SAY",
    "NAME_RULE",
    "PRESENCE_WORDS",
    "PROTOCOL_VERSION",
    "REMOVED_BY_THE_HOST",
    "TOKEN_BYTES",
    "AskHint",
    "AskRules",
    "ClientMessage",
    "ClientMessages",
    "Closing",
    "Coach",
    "Error",
    "ErrorCode",
    "HostMessage",
    "Join",
    "Leave",
    "Lobby",
    "Meld",
    "Move",
    "MoveCommand",
    "OptionalSeat",
    "Presence",
    "Preview",
    "ProtocolError",
    "ProtocolMessage",
    "Ready",
    "Rulebook",
    "Said",
    "Say",
    "Screen",
    "Seat",
    "SeatInfo",
    "Start",
    "State",
    "Suggestion",
    "TurnInfo",
    "Undo",
    "View",
    "Welcome",
    "encode",
    "error",
    "host_message_problem",
    "parse_client_message",
    "presence_line",
    "protocol_schema",
]
