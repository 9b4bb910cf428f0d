"""The save-file format of an interactive game: the game's exact state plus the session around it.

Pure: this module turns a game and its session into JSON text and back; the CLI does the
file handling (atomic writes, the saves folder). A save is one JSON object::

    {"format": "kalooki-save", "version": 1, "checksum": "<sha256>",
     "session": {...}, "game": {... Game.to_json() ...}}

The checksum covers the session and the game, so a file that was cut short, edited by
hand or damaged on disk is refused as a whole rather than resumed in a state the engine
never produced. Loading either returns everything or raises :class:`SaveFormatError`.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from kalooki import jsonio
from kalooki.bots import is_bot_name
from kalooki.engine import Game, StateFormatError
from kalooki.errors import KalookiError
from kalooki.file_kinds import MAX_SAVE_BYTES, SAVE_FORMAT, hosted_session
from kalooki.statecheck import rng_state_problem
from kalooki.text import clipped, escape_controls, has_controls, lone_surrogate
from kalooki.turncheck import not_a_seat

SAVE_VERSION = 1
SAVE_SUFFIX = ".kalooki-save.json"

RngState = tuple[int, tuple[int, ...], float | None]


class SaveFormatError(KalookiError):
    """A save file that cannot be resumed: not a save, a newer format, or damaged."""


@dataclass(slots=True)
class Session:
    """Who sits where in an interactive game, beyond what the engine's state records.

    ``bots`` maps each computer seat to its bot's registry name; ``bot_rngs`` holds the
    state of each bot's random generator, so a resumed game's bots choose exactly as
    they would have. ``variant_source`` is what the player typed (a name or a path), for
    display only: the variant itself is inside the game state.

    ``log`` is the game's log (``--log``), an absolute path, written up to this save, so
    ``kalooki resume`` goes on writing it; ``log_left`` is a log the game went on without
    (resumed with ``--no-log``), so a later ``resume --log`` of it can say why it cannot go on.
    ``log_unnamed``: the game is logged to a file whose name a save cannot hold (a control character,
    a byte that is not UTF-8), so ``log`` is empty and a resume must be given the log (or ``--no-log``).
    They are written only when set: a save of an unlogged game reads as before they existed.
    """

    human_seat: int
    bots: dict[int, str]
    bot_rngs: dict[int, RngState] = field(default_factory=dict)
    variant_source: str = "classic"
    saved_at: str = ""
    log: str = ""
    log_left: str = ""
    log_unnamed: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "human_seat": self.human_seat,
            "bots": {str(seat): name for seat, name in sorted(self.bots.items())},
            "bot_rngs": {
                str(seat): rng_state_to_json(state) for seat, state in sorted(self.bot_rngs.items())
            },
            "variant_source": self.variant_source,
            "saved_at": self.saved_at,
        }
        data.update({key: value for key, value in (("log", self.log), ("log_left", self.log_left)) if value})
        if self.log_unnamed:
            data["log_unnamed"] = True
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Session:
        bots = data["bots"]
        rngs = data["bot_rngs"]
        if not isinstance(bots, Mapping) or not isinstance(rngs, Mapping):
            raise TypeError("bots and bot_rngs must be objects")
        human_seat = data["human_seat"]
        if not jsonio.is_whole_number(human_seat):
            raise TypeError("human_seat must be an integer")
        return Session(
            human_seat=human_seat,
            bots={_seat(key): _text(name, "a bot name") for key, name in bots.items()},
            bot_rngs={_seat(key): rng_state_from_json(state) for key, state in rngs.items()},
            variant_source=_text(data.get("variant_source", ""), "variant_source"),
            saved_at=_text(data.get("saved_at", ""), "saved_at"),
            log=_log_place(data.get("log", ""), "log"),
            log_left=_log_place(data.get("log_left", ""), "log_left"),
            log_unnamed=_flag(data.get("log_unnamed", False), "log_unnamed"),
        )

    def check_against(self, game: Game) -> None:
        """Every seat is the human's or a bot's, exactly once."""
        seats = set(range(len(game.players)))
        if self.human_seat not in seats:
            raise ValueError(f"human_seat: {not_a_seat(self.human_seat, len(seats))}")
        if set(self.bots) != seats - {self.human_seat}:
            raise ValueError("the bots' seats do not match the table")
        for name in self.bots.values():
            if not is_bot_name(name):
                raise ValueError(f"there is no bot called '{clipped(escape_controls(name))}'")
        if not set(self.bot_rngs) <= set(self.bots):
            raise ValueError("a bot's random state belongs to no bot")


def _seat(key: object) -> int:
    if not isinstance(key, str) or not key.isdigit() or len(key) > 1:
        raise TypeError(f"seat {clipped(repr(key))} is not a seat number")
    return int(key)


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be true or false")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be text")
    if has_controls(value):
        raise ValueError(f"{what} holds a control character")
    return value


MAX_LOG_PLACE = 4096
"""The longest log path a save holds (Linux's PATH_MAX): a longer one names no file a system opens."""


def _log_place(value: object, what: str) -> str:
    """A log's place as a save records it: absolute (as the game wrote it, on this system or another), so
    a resume from another folder finds that very file and never one beside the person resuming."""
    place = _text(value, what)
    if place and not (PurePosixPath(place).is_absolute() or PureWindowsPath(place).is_absolute()):
        raise ValueError(f"{what} is not an absolute path")
    if len(place) > MAX_LOG_PLACE:
        raise ValueError(f"{what} is over {MAX_LOG_PLACE} characters")
    return place


def rng_state_to_json(state: RngState) -> list[Any]:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def rng_state_from_json(data: object) -> RngState:
    problem = rng_state_problem(data)
    if problem is not None:
        raise ValueError(f"a bot's random state {problem}")
    assert isinstance(data, list)
    version, internal, gauss = data
    state: RngState = (version, tuple(internal), gauss)
    random.Random().setstate(state)
    return state


def _canonical(document: Mapping[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def save_checksum(session: Mapping[str, Any], game: Mapping[str, Any]) -> str:
    """The SHA-256 of the session and the game as canonical JSON: any change to either is caught."""
    text = _canonical({"session": session, "game": game})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def save_document(game: Game, session: Session) -> dict[str, Any]:
    """The save as JSON-ready data."""
    session.check_against(game)
    session_data = session.to_json()
    game_data = game.to_json()
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "checksum": save_checksum(session_data, game_data),
        "session": session_data,
        "game": game_data,
    }


def dump_save(game: Game, session: Session) -> str:
    """The save as the text of a file."""
    return json.dumps(save_document(game, session), ensure_ascii=False, separators=(",", ":")) + "\n"


@dataclass(frozen=True, slots=True)
class LoadedSave:
    game: Game
    session: Session
    written_session: Mapping[str, Any] = field(default_factory=dict)
    """The ``session`` object as the file holds it, with what :class:`Session` leaves out (a hosted table's
    seats, a hot-seat game's people): read from the one load, not from the file again."""

    @property
    def hosted(self) -> bool:
        """Whether this is a hosted table's save (:func:`~kalooki.file_kinds.hosted_session`)."""
        return hosted_session(self.written_session)


def load_save(text: str | bytes) -> LoadedSave:
    """Read a save written by :func:`dump_save`; raise :class:`SaveFormatError` if it cannot be resumed."""
    if len(text) > MAX_SAVE_BYTES:
        raise SaveFormatError(f"this is not a kalooki save: it is over {MAX_SAVE_BYTES // (1024 * 1024)} MiB")
    try:
        data = jsonio.loads(text)
    except jsonio.JsonInputError as error:
        raise SaveFormatError(f"the save is damaged: {_unreadable(error)}") from None
    return load_save_document(data)


def _unreadable(error: jsonio.JsonInputError) -> str:
    """Why a save's text does not parse, in a reader's words rather than the parser's ("Expecting ','
    delimiter" of a file that merely ends early; "not valid JSON" of a number that is valid, only long)."""
    if error.damage == "empty":
        return "the file is empty"
    if error.damage == "cut off":
        return "it is cut off (the file ends partway through)"
    if error.damage == "too much":
        return f"it holds what kalooki does not read: {error.reason}"
    return f"it is not valid JSON ({error})"


def load_save_document(data: object) -> LoadedSave:
    """Validate a parsed save document and rebuild its game and session (all or nothing)."""
    if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
        raise SaveFormatError("this is not a kalooki save file")
    version = data.get("version")
    if not jsonio.is_whole_number(version):
        raise SaveFormatError(f"the save is damaged: its format version is {clipped(json.dumps(version))}")
    if version > SAVE_VERSION:
        raise SaveFormatError(
            f"the save was written by a newer kalooki (save format {version}; this kalooki reads "
            f"format {SAVE_VERSION}): upgrade kalooki to resume it"
        )
    if version < SAVE_VERSION:
        raise SaveFormatError(f"the save has format {version}, which this kalooki no longer reads")
    session_data, game_data = data.get("session"), data.get("game")
    if not isinstance(session_data, Mapping) or not isinstance(game_data, Mapping):
        raise SaveFormatError("the save is damaged: it lacks its session or its game")
    try:
        checksum = save_checksum(session_data, game_data)
    except UnicodeEncodeError as error:
        # JSON's escape "\\ud800" reads as half of a UTF-16 pair, which the checksum's UTF-8 cannot hold.
        half = str(error.object[error.start : error.end])
        raise SaveFormatError(f"the save is damaged: {lone_surrogate(half) or 'not valid text'}") from None
    if data.get("checksum") != checksum:
        raise SaveFormatError("the save is damaged: its checksum does not match its contents")
    try:
        game = Game.from_json(game_data)
    except StateFormatError as error:
        # Its message says what is wrong with "the saved game" already; a refusal says it cannot be resumed.
        raise SaveFormatError(str(error)) from None
    try:
        session = Session.from_json(session_data)
        session.check_against(game)
    except KeyError as error:
        raise SaveFormatError(f"the save is damaged: its session lacks {error}") from None
    except (TypeError, ValueError) as error:
        raise SaveFormatError(f"the save is damaged: its session is invalid ({error})") from None
    return LoadedSave(game=game, session=session, written_session=session_data)


def seat_rng(seed: int | None, seat: int) -> random.Random:
    """A bot's own random generator, derived from the game's seed so a seeded game replays exactly."""
    return random.Random(f"kalooki-bot:{seed}:{seat}")


def rng_states(rngs: Mapping[int, random.Random]) -> dict[int, RngState]:
    return {seat: rng.getstate() for seat, rng in rngs.items()}


def restore_rngs(states: Mapping[int, RngState], seats: Sequence[int]) -> dict[int, random.Random]:
    """Generators for ``seats`` in the saved states (a seat without one gets a fresh generator)."""
    rngs: dict[int, random.Random] = {}
    for seat in seats:
        rng = random.Random()
        state = states.get(seat)
        if state is not None:
            rng.setstate(state)
        rngs[seat] = rng
    return rngs
