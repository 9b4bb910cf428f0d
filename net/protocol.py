"""The table protocol: JSON messages over one WebSocket, versioned, with a JSON Schema.

Every message is one JSON object in one text frame, with a ``type``. The client's messages
are :data:`ClientMessage` (checked strictly: an unknown type, a missing or extra field, or a
field of the wrong type is refused); the host's are :data:`HostMessage`. ``docs/protocol.md``
describes the conversation; ``schemas/protocol.schema.json`` is generated from these models
(``kalooki schema --write``) and checked (``kalooki schema --check``).

Only pydantic is needed here, so the schema is generated without the ``net`` extra installed.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from kalooki import jsonio
from kalooki.statecheck import MAX_NAME
from kalooki.text import escape_controls, shows_nothing

from .message_faults import NOT_AN_OBJECT, field_problem, type_problem

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


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# ---------------------------------------------------------------- from a client


class Join(_Message):
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


class Move(_Message):
    """A move in the move language (``ds``, ``m 7H 8H 9H``, ``b 2 TH``, ``s 3 5C``, ``d KD``)."""

    type: Literal["move"]
    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)]
    seat: OptionalSeat = None


class Undo(_Message):
    """Take back this turn's melds, builds and swaps."""

    type: Literal["undo"]
    seat: OptionalSeat = None


class Say(_Message):
    """A line of chat to the whole table."""

    type: Literal["say"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_SAY)]


class Ready(_Message):
    """Between hands: ready for the next deal (it is dealt when every connected player is ready)."""

    type: Literal["ready"]
    seat: OptionalSeat = None


class Start(_Message):
    """The host's seat only: start now; bots take the empty seats."""

    type: Literal["start"]


class AskHint(_Message):
    """On your turn: what the greedy bot would play now (answered by a ``suggestion`` message)."""

    type: Literal["hint"]
    seat: OptionalSeat = None


class AskRules(_Message):
    """The variant's whole rulebook (answered by a ``rulebook`` message)."""

    type: Literal["rules"]


class Leave(_Message):
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


_CLIENT_MODELS: dict[str, type[_Message]] = {
    get_args(model.model_fields["type"].annotation)[0]: model for model in get_args(ClientMessages)
}


# ---------------------------------------------------------------- from the host


class SeatInfo(_Message):
    seat: Seat
    name: str | None = Field(description="None for a seat nobody has taken yet.")
    kind: Literal["human", "bot", "open"]
    bot: str | None = Field(description="The bot's kind: the seat's bot, or the stand-in for a human away.")
    connected: bool
    host: bool


class MoveCommand(_Message):
    """One command of the move language, as a refusal's usage line writes it (``meld CARDS[, CARDS ...]``)."""

    usage: str
    key: str = Field(description="Its short form (`ds`, `m`), typed as the command's first word.")


class Welcome(_Message):
    """You have a seat: keep ``token`` to rejoin it."""

    type: Literal["welcome"]
    protocol: int
    # A whole number, not a Seat: a welcome of -1, from a table that is not honest, is read and refused by
    # kalooki join in one line, not skipped as a message no table sends.
    seat: int = Field(
        description="Your seat, from 0. A welcome always gives one: no client joins to watch (a host's own "
        "--watch serves the table with no seat and no connection)."
    )
    name: str
    token: str
    host: bool = Field(description="Whether you may send start.")
    variant: dict[str, Any] = Field(
        description="The variant's every knob, as `kalooki variants show --json`."
    )
    variant_source: str = Field(
        description="The variant as the host named it: a built-in's name, or its file's name without folders."
    )
    commands: list[MoveCommand] | None = Field(
        default=None,
        description="Only for a connection that joined with coach: the move language's commands the table's "
        "rules allow, for a client without the engine to list them.",
    )


class Lobby(_Message):
    """Who sits where; sent on every change of seats or connections."""

    type: Literal["lobby"]
    started: bool
    seats: list[SeatInfo]
    wait_seconds: float = Field(description="How long a player who drops is waited for before a bot plays.")


class Meld(_Message):
    kind: Literal["set", "run"]
    cards: list[str]
    owner: int
    rank: int
    suit: int
    joker_layers: list[int] = Field(
        default_factory=list,
        description=(
            "The seat that laid each joker, in the order they lie, where one was not laid by the owner "
            "(joker_taker: anyone_but_layer); absent, the owner laid them all."
        ),
    )


class TurnInfo(_Message):
    drew: Literal["stock", "discard"] | None
    drawn_card: str | None = Field(description="Only for the player who drew it, or when drawn from discard.")
    opened_before: bool
    built: bool
    must_use_card: str | None
    must_use_limit: int = Field(
        description=(
            "How many copies of must_use_card the hand may keep: only for the player whose turn it is"
            " (0 for the others, as it tells how many the hand held)."
        )
    )
    jokers_owed: int
    laid: list[int] = Field(
        default_factory=list, description="Table indexes (from 0) of the melds laid this turn."
    )


class View(_Message):
    """What one seat may see. Other hands are counts; the stock is a count."""

    seat: int
    players: list[str]
    hand_number: int
    first_seat: int
    turn_number: int
    current: int
    phase: Literal["draw", "play", "hand_over", "game_over"]
    hand: list[str]
    hand_counts: list[int]
    table: list[Meld]
    discard_pile: list[str]
    stock_count: int
    stock_ran_out: bool
    opened: list[bool]
    totals: list[int]
    eliminated: list[bool]
    turn: TurnInfo
    can_undo: bool
    can_end_turn: bool = Field(
        default=False,
        description=(
            "You may end your turn now without a discard (the end move). Sent only where the variant's "
            "turn_discard is optional."
        ),
    )
    results: list[dict[str, Any]]
    winners: list[int]
    revealed: list[list[str]] | None = Field(description="Everyone's cards left, once the hand is over.")


class Preview(_Message):
    """What your hand could lay now, as the terminal's "You could lay" line says it."""

    text: str = Field(description="The line as the terminal writes it.")
    cards: list[str] = Field(description="The hand's cards it lays (the terminal underlines them).")
    moves: list[str] = Field(description="The same as moves to send, in order.")
    points: int
    opens: bool
    needed: int = Field(description="The opening threshold, or 0 once opened.")


class Screen(_Message):
    """One of the terminal's end screens: whole, and its sentences alone (for a client that draws tables)."""

    text: str = Field(description="The screen as the terminal prints it, tables included (60 columns).")
    lines: list[str] = Field(description="Its sentences, without the heading rule and the tables.")


class Coach(_Message):
    """The table's own words for a seat's state, for clients without the engine (``join`` with ``coach``)."""

    title: str = Field(description="The screen's title: variant, hand, dealer and turn.")
    scoring: str
    log: list[str] = Field(description="The events as the terminal tells them, one line per player's turn.")
    status: list[str] = Field(description="Whose turn it is and what your turn still needs.")
    jokers: list[list[str | None]] = Field(
        description="For each table meld, what each of its jokers stands for (None for other cards)."
    )
    preview: Preview | None = Field(description="On your turn: what your hand could lay now.")
    hand_end: Screen | None = Field(
        description="At the end of a hand: who went out (Kalooki, or why not), the cards left, the scores."
    )
    game_end: Screen | None = Field(description="At the end of the game: the winner and every hand's scores.")


class State(_Message):
    """The game after a change, with the engine's events that led to it (as this seat may see them)."""

    type: Literal["state"]
    view: View
    events: list[dict[str, Any]]
    stand_ins: dict[str, str] = Field(description="Seats (as strings) whose player is away: the bot playing.")
    coach: Coach | None = Field(
        default=None, description="Only for a connection that joined with coach: the table's own words."
    )
    taken_back: int | None = Field(
        default=None,
        description="After an undo: the seat whose turn's melds, builds and swaps were taken back (its hand "
        "and the table are as after its draw). The melds' events were sent before; no events undo them.",
    )
    ready: list[int] | None = Field(
        default=None,
        description="Between hands only: the seats whose players have said they are ready for the next hand "
        "(a player who drops and comes back stays ready).",
    )
    waiting_for: list[int] | None = Field(
        default=None,
        description="Between hands only: the seats the next deal waits for (players connected and still in "
        "the game who have not said ready). A state with no events tells every seat when this changes.",
    )


class Suggestion(_Message):
    """The answer to ``hint``: what the greedy bot would play now; each move can be sent back as it is."""

    type: Literal["suggestion"]
    moves: list[str]
    notes: list[str] = Field(description="A note for each move (empty when there is none).")
    summary: str | None = Field(description="The points it lays and whether that opens, or why you cannot.")


class Rulebook(_Message):
    """The answer to ``rules``: the variant's rulebook, as ``kalooki rules`` writes it."""

    type: Literal["rulebook"]
    markdown: str
    html: str = Field(description="The same as an HTML fragment, every text from the variant escaped.")


class Said(_Message):
    type: Literal["said"]
    seat: int
    name: str
    text: str


class Presence(_Message):
    type: Literal["presence"]
    seat: int
    name: str
    status: Literal["joined", "left", "back", "bot_playing"] = Field(
        description=(
            "joined; left: the connection dropped and the seat waits for its token, or (with free) the "
            "player left; back; bot_playing: away longer than the wait, a bot plays the seat."
        )
    )
    free: bool | None = Field(
        default=None,
        description="With left: the player left on purpose before the game, or dropped before it and was not "
        "back within the wait, and the seat is free again; or left once the game was over, when nobody waits "
        "for them.",
    )


PRESENCE_WORDS = {
    "joined": "joined the table",
    "left": "dropped out: the table waits for them",
    "back": "is back",
    "bot_playing": "is away: a bot plays for them until they are back",
}
"""What each :class:`Presence` status says after the player's name (the page has the same words)."""


def presence_line(name: str, status: str, *, free: bool = False) -> str:
    """``ann dropped out: the table waits for them.``: a presence message as a sentence."""
    if status == "left" and free:
        return f"{name} left the table."
    return f"{name} {PRESENCE_WORDS.get(status, status)}."


class Error(_Message):
    """A refusal: nothing changed."""

    type: Literal["error"]
    code: ErrorCode
    message: str
    commands: list[MoveCommand] | None = Field(
        default=None,
        description="Only for a text that is no move (illegal_move): the commands the table's rules allow, "
        "which the message ends with.",
    )


class Closing(_Message):
    """The host is closing the table (the game stays saved)."""

    type: Literal["closing"]
    reason: str


HostMessage = Annotated[
    Welcome | Lobby | State | Said | Presence | Error | Closing | Suggestion | Rulebook,
    Field(discriminator="type"),
]


_host_adapter: TypeAdapter[Any] = TypeAdapter(HostMessage)
_HOST_MODELS: dict[str, type[_Message]] = {
    get_args(model.model_fields["type"].annotation)[0]: model for model in get_args(get_args(HostMessage)[0])
}
HOST_TYPES = tuple(_HOST_MODELS)


def host_message_problem(message: Any) -> str | None:
    """What makes ``message`` (read from a table) no host message of this protocol; None when it is one.

    A client reads only what fits: a table that is not kalooki's, or not honest, cannot make it
    index a list out of range or read a field that is not there.
    """
    if not isinstance(message, dict):
        return NOT_AN_OBJECT
    problem = type_problem(message, HOST_TYPES)
    if problem is not None:
        return problem
    try:
        _host_adapter.validate_python(message)
    except ValidationError as error:
        # In the words the table refuses a client's message with, not pydantic's ("Input tag 'None'
        # found using 'type' does not match any of the expected tags").
        return field_problem(message["type"], error.errors(include_url=False)[0], _HOST_MODELS)
    return None


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
    "MAX_HOST_MESSAGE_BYTES",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "AskHint",
    "AskRules",
    "ClientMessage",
    "ClientMessages",
    "Join",
    "Leave",
    "Move",
    "MoveCommand",
    "ProtocolError",
    "Ready",
    "Say",
    "Start",
    "Undo",
    "encode",
    "error",
    "host_message_problem",
    "parse_client_message",
    "protocol_schema",
]
