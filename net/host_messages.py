"""The host's messages to a client (:data:`HostMessage`): what each carries, and how a client checks one it
reads (:func:`host_message_problem`). ``docs/protocol.md`` says when each is sent.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import Field, TypeAdapter, ValidationError

from .message_faults import NOT_AN_OBJECT, field_problem, type_problem
from .protocol_base import ErrorCode, ProtocolMessage, Seat


class SeatInfo(ProtocolMessage):
    seat: Seat
    name: str | None = Field(description="None for a seat nobody has taken yet.")
    kind: Literal["human", "bot", "open"]
    bot: str | None = Field(description="The bot's kind: the seat's bot, or the stand-in for a human away.")
    connected: bool
    host: bool


class MoveCommand(ProtocolMessage):
    """One command of the move language, as a refusal's usage line writes it (``meld CARDS[, CARDS ...]``)."""

    usage: str
    key: str = Field(description="Its short form (`ds`, `m`), typed as the command's first word.")


class Welcome(ProtocolMessage):
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


class Lobby(ProtocolMessage):
    """Who sits where; sent on every change of seats or connections."""

    type: Literal["lobby"]
    started: bool
    seats: list[SeatInfo]
    wait_seconds: float = Field(description="How long a player who drops is waited for before a bot plays.")


class Meld(ProtocolMessage):
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


class TurnInfo(ProtocolMessage):
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


class View(ProtocolMessage):
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


class Preview(ProtocolMessage):
    """What your hand could lay now, as the terminal's "You could lay" line says it."""

    text: str = Field(description="The line as the terminal writes it.")
    cards: list[str] = Field(description="The hand's cards it lays (the terminal underlines them).")
    moves: list[str] = Field(description="The same as moves to send, in order.")
    points: int
    opens: bool
    needed: int = Field(description="The opening threshold, or 0 once opened.")


class Screen(ProtocolMessage):
    """One of the terminal's end screens: whole, and its sentences alone (for a client that draws tables)."""

    text: str = Field(description="The screen as the terminal prints it, tables included (60 columns).")
    lines: list[str] = Field(description="Its sentences, without the heading rule and the tables.")


class Coach(ProtocolMessage):
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


class State(ProtocolMessage):
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


class Suggestion(ProtocolMessage):
    """The answer to ``hint``: what the greedy bot would play now; each move can be sent back as it is."""

    type: Literal["suggestion"]
    moves: list[str]
    notes: list[str] = Field(description="A note for each move (empty when there is none).")
    summary: str | None = Field(description="The points it lays and whether that opens, or why you cannot.")


class Rulebook(ProtocolMessage):
    """The answer to ``rules``: the variant's rulebook, as ``kalooki rules`` writes it."""

    type: Literal["rulebook"]
    markdown: str
    html: str = Field(description="The same as an HTML fragment, every text from the variant escaped.")


class Said(ProtocolMessage):
    type: Literal["said"]
    seat: int
    name: str
    text: str


class Presence(ProtocolMessage):
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


class Error(ProtocolMessage):
    """A refusal: nothing changed."""

    type: Literal["error"]
    code: ErrorCode
    message: str
    commands: list[MoveCommand] | None = Field(
        default=None,
        description="Only for a text that is no move (illegal_move): the commands the table's rules allow, "
        "which the message ends with.",
    )


class Closing(ProtocolMessage):
    """The host is closing the table (the game stays saved)."""

    type: Literal["closing"]
    reason: str


HostMessage = Annotated[
    Welcome | Lobby | State | Said | Presence | Error | Closing | Suggestion | Rulebook,
    Field(discriminator="type"),
]


_host_adapter: TypeAdapter[Any] = TypeAdapter(HostMessage)
_HOST_MODELS: dict[str, type[ProtocolMessage]] = {
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


__all__ = [
    "HOST_TYPES",
    "PRESENCE_WORDS",
    "Closing",
    "Coach",
    "Error",
    "HostMessage",
    "Lobby",
    "Meld",
    "MoveCommand",
    "Presence",
    "Preview",
    "Rulebook",
    "Said",
    "Screen",
    "SeatInfo",
    "State",
    "Suggestion",
    "TurnInfo",
    "View",
    "Welcome",
    "host_message_problem",
    "presence_line",
]
