"""A table on the host: the seats, who may act for which, and the one game they all play.

No sockets here: :class:`Table` is called by the server (``kalooki_net.server``) with what a
connection asked for, answers or raises :class:`TableError` (which changes nothing), and
says which seats must hear about a change. The game is the library's :class:`Game`; moves
are checked by the engine, bots play through :func:`kalooki.driver.play_turn`.

Seats are the join code's business: a new seat needs the code and a name; a seat is taken
back with the code and the seat's token. Only a SHA-256 of each token is kept (and saved).

The save (written and read in :mod:`.saved_table`) is the ``kalooki-save`` format of ``kalooki
play``: the first person's seat is the save's ``human_seat`` and every other seat has the bot that
stands in for it, so ``kalooki resume`` can also play it alone. The table's own facts (the code, who
is a person, the token digests) ride in the session object under ``table``, covered by the checksum.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from kalooki.bots import Bot, make_bot, names_for_bots
from kalooki.driver import BotFaults, play_turn
from kalooki.engine import Event, Game, IllegalMoveError, nothing_to_take_back
from kalooki.errors import KalookiError
from kalooki.gamestate import seed_to_keep
from kalooki.moves import (
    Discard,
    Draw,
    EndTurn,
    MoveSyntaxError,
    NotAMoveError,
    offered_commands,
    parse_move,
    usage_line,
)
from kalooki.savegame import (
    LoadedSave,
    load_save,
    restore_rngs,
    seat_rng,
)
from kalooki.text import (
    BLANK_NAME,
    YOU_AT_A_TABLE,
    control_in_name,
    name_clash,
    name_fault,
    name_key,
    reads_as_you,
)
from kalooki.variant import Variant

from .protocol import CODE_LENGTH, NAME_RULE, TOKEN_BYTES, ErrorCode
from .saved_table import CODE_ALPHABET, is_a_wait, read_table
from .saved_table import save_text as table_save_text

DEFAULT_WAIT = 60.0


class TableError(KalookiError):
    """A refused request: ``code`` is the protocol's error code. Nothing changed."""

    def __init__(self, code: ErrorCode, message: str, commands: list[dict[str, str]] | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.commands = commands
        """For a text that is no move: the commands the table's rules allow (:meth:`Table.commands`)."""


class LogSink(Protocol):
    """Where ``--log`` records go (the CLI's ``TurnLogWriter``)."""

    def hold(self, game: Game, events: Sequence[Event]) -> None: ...
    def write(self, game: Game, events: Sequence[Event]) -> None: ...
    def undo(self) -> None: ...
    def flush(self) -> None: ...

    @property
    def failure(self) -> str | None:
        """Why the log could not be written, which stops it (None while it is written)."""


HAND_OVER = "the hand is over: the next is dealt when everyone is ready"
"""A move between hands: no one is playing (the current seat is the last hand's, which ended)."""


def removed_in_the_game(name: str | None = None) -> str:
    """The refusal of a player the host removed once the game had started, who comes back: by their seat's
    token (``name`` None: it is surely them) or by their name. They could not tell it from a latecomer's
    "the game has started", which says its players rejoin: they tried again and again."""
    who, whose = ("you", "your") if name is None else (name, f"{name}'s")
    return (
        f"the host removed {who} from this table: a bot plays {whose} seat to the end of this game, and no "
        "one new can sit down or watch it; ask the host if you want to play at their next table"
    )


REMOVED = removed_in_the_game()
STARTED = (
    "the game has started: no one new can sit down or watch it (its players rejoin from where they joined); "
    "ask the host if you want to play at their next table"
)
"""A new name once the game has started."""
REMOVED_BEFORE_THE_GAME = (
    "the host removed you from this table before the game started: that seat is yours no more; "
    "ask the host before you join again"
)
"""A token of a player the host removed before the game: the seat was freed, and a new name may take one."""


def game_over_said(game: Game) -> str:
    """The game is over, and who won it: a move or a ready after the game is refused so."""
    winners = ", ".join(game.players[seat] for seat in game.winners) or "nobody"
    return f"the game is over: {winners} won"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class SeatState:
    kind: Literal["human", "bot", "open"]
    bot: str
    """The seat's bot, or the bot that plays for a person while they are away."""
    name: str | None = None
    token_hash: str | None = None
    host: bool = False
    connected: bool = False
    away_since: float | None = None
    ready: bool = False
    removed: bool = False
    """A bot's seat whose player the host removed in the game: a join by that name is told so (saved)."""

    def info(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "name": self.name,
            "kind": self.kind,
            "bot": self.bot if self.kind != "open" else None,
            "connected": self.connected,
            "host": self.host,
        }


class Table:
    """The seats and the game of one hosted table."""

    def __init__(
        self,
        variant: Variant,
        *,
        seats: int,
        bots: Sequence[str],
        seed: int,
        code: str | None = None,
        variant_source: str = "classic",
        wait_seconds: float = DEFAULT_WAIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not is_a_wait(wait_seconds):
            raise ValueError(f"wait_seconds is {wait_seconds}: give a number of seconds, 0 or more")
        self.variant = variant
        self.variant_source = variant_source
        self.seed = seed_to_keep(seed) or seed  # Game's refusal now, not a failed handler once the seats fill
        self.code = code or new_code()
        self.wait_seconds = wait_seconds
        self.clock = clock
        self.seats = [SeatState(kind="open", bot=bots[index % len(bots)]) for index in range(seats)]
        self.game: Game | None = None
        self.bots: dict[int, Bot] = {}
        self.bot_faults = BotFaults()
        """The bots that raised or chose what is no action (played safely instead), once each: the
        server tells them on the host's terminal."""
        self.rngs: dict[int, Any] = {}
        self.removed: dict[str, bool] = {}
        """The token digests of the players the host removed, each with whether the game had started: each
        is told so when it comes back, at a reopened table too (saved as the table's ``removed_tokens``)."""
        self.save_path: Path | None = None
        self.write_save: Callable[[Path, str], None] | None = None
        self.save_failure: str | None = None
        self.on_save_failure: Callable[[str], None] | None = None
        """Told each new reason a save fails for: the host's terminal says it, once, as a game there does."""
        self.on_log_failure: Callable[[str], None] = lambda message: None
        """Told that the log stopped (the message says where and why): the host's terminal says it."""
        self.log: LogSink | None = None
        self.log_factory: Callable[[Game], LogSink] | None = None
        self.log_place = ""
        """The log as the save records it (:attr:`Session.log`), so the reopened table goes on writing it."""
        self.log_left = ""
        """A log the game went on without (:attr:`Session.log_left`)."""
        self.log_unnamed = False
        """Logged to a file the save cannot name (:attr:`Session.log_unnamed`)."""

    # ------------------------------------------------------------ seats

    def check_code(self, code: str) -> None:
        if not hmac.compare_digest(code.strip().upper().encode(), self.code.encode()):
            raise TableError("bad_code", "that is not this table's join code")

    def join(self, name: str, *, host: bool = False) -> tuple[int, str]:
        """A new person at the first open seat; their seat and the token to rejoin it."""
        name = name.strip()
        fault = name_fault(name)
        if fault is not None:
            # The table says one rule for every fault but a blank filler and a control character, which the
            # rule does not name: a name of 10 characters told it is "at most 20" would not know what to mend.
            if fault == "control":
                raise TableError("bad_name", control_in_name(name))
            raise TableError("bad_name", BLANK_NAME if fault == "unseen" else NAME_RULE)
        if reads_as_you(name):
            # Each screen calls its own player "you": a player so named would read as the one watching it.
            raise TableError("bad_name", YOU_AT_A_TABLE)
        if self.game is not None:
            removed = {name_key(seat.name): seat.name for seat in self.seats if seat.removed and seat.name}
            if name_key(name) in removed:
                raise TableError("removed", removed_in_the_game(removed[name_key(name)]))
            # Said to a latecomer, who has never seen a token: the players keep theirs where they joined. What
            # they may do is said too (they asked whether they could watch, or wait for a seat).
            raise TableError("started", STARTED)
        seated = {name_key(seat.name): seat.name for seat in self.seats if seat.name is not None}
        if name_key(name) in seated:
            # Ann and ann would be told apart by their case alone, on every player's screen, Cyrillic аnn and
            # ann not at all. The name said is the one seated: "already called Ann" when no one is would
            # puzzle the player who typed it, as "already called ann" would one whose keyboard typed аnn
            # without them knowing: the letter that reads as another is named.
            seated_name = seated[name_key(name)]
            taken = f"someone at the table is already called {seated_name}{name_clash(name, seated_name)}"
            raise TableError("name_taken", taken)
        open_seats = [index for index, seat in enumerate(self.seats) if seat.kind == "open"]
        if not open_seats:
            raise TableError("table_full", "every seat is taken")
        index = open_seats[0]
        token = secrets.token_urlsafe(TOKEN_BYTES)
        seat = self.seats[index]
        seat.kind, seat.name, seat.token_hash, seat.host = "human", name, token_digest(token), host
        seat.connected, seat.away_since = True, None
        return index, token

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token ``token`` is (connected or not), None when it is no seat's."""
        digest = token_digest(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return index
        return None

    def rejoin(self, token: str) -> int:
        index = self.seat_of_token(token)
        if index is None:
            digest = token_digest(token)
            if digest in self.removed:
                raise TableError("removed", REMOVED if self.removed[digest] else REMOVED_BEFORE_THE_GAME)
            raise TableError("bad_token", "that token is no seat's at this table")
        seat = self.seats[index]
        if seat.connected:
            # Numbered from 1 in words, as every screen numbers the seats (a seat field is the index).
            raise TableError("seat_in_use", f"seat {index + 1} ({seat.name}) is connected already")
        seat.connected, seat.away_since = True, None
        return index

    def claim(self, index: int) -> str:
        """A new token for a seat (the host's own, when a table is resumed): the old one stops working."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.seats[index].token_hash = token_digest(token)
        return token

    def remove(self, index: int) -> None:
        """The host removes a guest for good: their token takes the seat no more. Before the game the seat is
        free again; in it, the seat's bot plays it to the end (a player who rejoined and did nothing held the
        table up for good, which dropping their connection could not end)."""
        seat = self.seats[index]
        if seat.token_hash is not None:
            self.removed[seat.token_hash] = self.game is not None
        if self.game is None:
            self.seats[index] = SeatState(kind="open", bot=seat.bot)
        else:
            self.seats[index] = SeatState(kind="bot", bot=seat.bot, name=seat.name, removed=True)
        self.save()

    def leave(self, index: int, *, for_good: bool = False) -> bool:
        """A seat's connection is gone: ``for_good``, its player said they leave; else it dropped.
        True when the seat is free again (left for good before the game)."""
        seat = self.seats[index]
        seat.connected = False
        # A player who said ready stays ready: back after a reload, they are not asked again.
        if self.game is None and not seat.host and for_good:
            # Before the game, a seat that is left is free again.
            self.seats[index] = SeatState(kind="open", bot=seat.bot)
            return True
        # A reload or a dropped network: the seat waits for its token, in the lobby as in the game.
        seat.away_since = self.clock()
        return False

    def _dropped_before_the_game(self) -> dict[int, float]:
        """Before the game: the guests' seats whose connection dropped, each with when it did."""
        if self.game is not None:
            return {}
        return {
            index: seat.away_since
            for index, seat in enumerate(self.seats)
            if seat.kind == "human" and not seat.host and not seat.connected and seat.away_since is not None
        }

    def lobby_seat_free_in(self) -> float | None:
        """Seconds until a seat dropped before the game is free again (0: now); None if none waits."""
        dropped = self._dropped_before_the_game().values()
        return min((max(0.0, since + self.wait_seconds - self.clock()) for since in dropped), default=None)

    def free_lobby_seats(self) -> list[tuple[int, str]]:
        """Before the game, the seats whose player has been away longer than the wait are open again:
        each seat freed, with the name of the player who had it."""
        freed: list[tuple[int, str]] = []
        for index, since in self._dropped_before_the_game().items():
            if self.clock() - since >= self.wait_seconds:
                freed.append((index, self.seats[index].name or "?"))
                self.seats[index] = SeatState(kind="open", bot=self.seats[index].bot)
        return freed

    def stand_in(self, index: int) -> bool:
        """Whether a bot plays this seat now: a bot's seat, or a person away longer than the wait."""
        seat = self.seats[index]
        if seat.kind != "human":
            return True
        return (
            not seat.connected
            and seat.away_since is not None
            and self.clock() - seat.away_since >= self.wait_seconds
        )

    def lobby(self) -> dict[str, Any]:
        return {
            "type": "lobby",
            "started": self.game is not None,
            "seats": [seat.info(index) for index, seat in enumerate(self.seats)],
            "wait_seconds": self.wait_seconds,
        }

    def humans(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.kind == "human"]

    # ------------------------------------------------------------ the game

    def start(self) -> list[Event]:
        if self.game is not None:
            raise TableError("started", "the game has started")
        open_seats = sum(seat.kind == "open" for seat in self.seats)
        spare = iter(names_for_bots([seat.name for seat in self.seats if seat.name], open_seats))
        for seat in self.seats:
            if seat.kind == "open":
                seat.kind, seat.name = "bot", next(spare)
        players = [seat.name or "" for seat in self.seats]
        self.game = Game(self.variant, players, seed=self.seed)
        self._make_bots({})
        if self.log_factory is not None:
            self.log = self.log_factory(self.game)
        self.check_log()
        self.save()
        return list(self.game.opening_events)

    def _make_bots(self, states: dict[int, Any]) -> None:
        seats = range(len(self.seats))
        fresh = {seat: seat_rng(self.seed, seat).getstate() for seat in seats if seat not in states}
        self.rngs = restore_rngs({**fresh, **states}, list(seats))
        self.bots = {seat: make_bot(self.seats[seat].bot, self.rngs[seat]) for seat in seats}

    def require_game(self) -> Game:
        if self.game is None:
            raise TableError("not_started", "the game has not started yet")
        return self.game

    def require_turn(self, index: int, other_turn: str | None = None) -> Game:
        """The game, if it is seat ``index``'s turn; else refused, saying whose it is (``other_turn``, when
        another seat's) or why no one's: between hands and after the game no one is playing."""
        game = self.require_game()
        if game.game_over:
            raise TableError("not_your_turn", game_over_said(game))
        if game.phase == "hand_over":
            raise TableError("not_your_turn", HAND_OVER)
        if game.current != index:
            raise TableError("not_your_turn", other_turn or f"it is not your turn: {game.player} is playing")
        return game

    def move(self, index: int, text: str) -> list[Event]:
        # Read before whose turn it is: text that is no move is said so at any time, not answered with
        # whose turn it is, as if it would do once the turn came.
        try:
            # A move that is none is answered with the commands this table's rules allow, not every one.
            action = parse_move(text, usage_line(offered_commands(self.require_game().variant)))
        except NotAMoveError as error:
            # Also as a list: a client with commands of its own (the page's move box) adds them to it.
            raise TableError("illegal_move", str(error), self.commands()) from None
        except MoveSyntaxError as error:
            raise TableError("illegal_move", str(error)) from None
        game = self.require_turn(index)
        try:
            events = game.apply(action, index)
        except KalookiError as error:
            # The reply goes to the player who tried the move: a refusal about them is worded to them.
            message = error.to_player if isinstance(error, IllegalMoveError) else str(error)
            raise TableError("illegal_move", message) from None
        if self.log is not None:
            if isinstance(action, Draw):
                self.log.write(game, events)
            else:
                self.log.hold(game, events)
        if isinstance(action, Discard | EndTurn) and self.log is not None:
            self.log.flush()
        self.check_log()
        self.save()
        return events

    def commands(self) -> list[dict[str, str]]:
        """The move language's commands this table's rules allow, as a refusal's usage line writes them."""
        return [{"usage": command.usage, "key": command.key} for command in offered_commands(self.variant)]

    def undo(self, index: int) -> None:
        game = self.require_game()
        if game.current != index:
            # Nothing of this seat's: not its turn.
            raise TableError("illegal_move", nothing_to_take_back(game.variant))
        try:
            game.undo_turn()
        except IllegalMoveError as error:
            raise TableError("illegal_move", str(error)) from None
        if self.log is not None:
            self.log.undo()
        self.save()

    def bot_turn(self) -> list[Event]:
        """The current seat's whole turn by its bot (or stand-in)."""
        game = self.require_game()
        events = play_turn(game, self.bots[game.current], self.bot_faults)
        self.take_turn(game, events)
        return events

    def take_turn(self, game: Game, events: list[Event]) -> None:
        """A bot's turn played (on ``game``, the table's own or the copy it was played on, which becomes
        the table's): logged and saved."""
        self.game = game
        if self.log is not None:
            self.log.write(game, events)
        self.check_log()
        self.save()

    def ready(self, index: int) -> list[Event]:
        """A player is ready for the next hand; the deal's events once every connected person is."""
        game = self.require_game()
        if game.game_over:
            raise TableError("illegal_move", game_over_said(game))
        if game.phase != "hand_over":
            raise TableError("illegal_move", "the hand is still being played")
        self.seats[index].ready = True
        return self.deal_if_ready()

    def waiting_for_ready(self) -> list[int]:
        """The seats the next deal waits for: connected people still in the game who have not said ready.

        With none of them connected (a table just resumed, everyone's connection lost), all of them: the
        next hand is not dealt to an empty room, for the bots to play while its players come back.
        """
        game = self.require_game()
        people = [
            index
            for index, seat in enumerate(self.seats)
            if seat.kind == "human" and not game.eliminated[index]
        ]
        present = [index for index in people if self.seats[index].connected]
        if not present:
            return people
        return [index for index in present if not self.seats[index].ready]

    def readiness(self) -> tuple[list[int], list[int]] | None:
        """Between hands: the seats that said ready, and the seats the next deal waits for; None in a hand."""
        game = self.require_game()
        if game.phase != "hand_over":
            return None
        ready = [index for index, seat in enumerate(self.seats) if seat.kind == "human" and seat.ready]
        return ready, self.waiting_for_ready()

    def deal_if_ready(self) -> list[Event]:
        game = self.require_game()
        if game.phase != "hand_over":
            return []
        if self.waiting_for_ready():
            return []
        for seat in self.seats:
            seat.ready = False
        events = game.next_hand()
        if self.log is not None:
            self.log.write(game, events)
        self.check_log()
        self.save()
        return events

    # ------------------------------------------------------------ saving

    def save_text(self) -> str:
        """The table's save, as ``kalooki host --resume`` reads it back (:func:`.saved_table.save_text`)."""
        return table_save_text(self)

    def check_log(self) -> None:
        """A log that could not be written stops: told once (as a failed save is), and the save then
        records it as a log the game went on without, so a reopened table neither looks for it nor
        refuses it as another game's."""
        if self.log is None or self.log.failure is None:
            return
        self.on_log_failure(f"{self.log.failure}; the game goes on, no longer logged")
        self.log_left, self.log_place, self.log_unnamed = self.log_place or self.log_left, "", False
        self.log = None

    def save(self) -> None:
        """Save after every change; a failure is remembered (and shown by the host) but never stops play."""
        if self.game is None or self.save_path is None or self.write_save is None:
            return
        try:
            self.write_save(self.save_path, self.save_text())
        except (KalookiError, OSError) as error:
            reason = getattr(error, "reason", None) or str(error)
            if reason != self.save_failure and self.on_save_failure is not None:
                self.on_save_failure(reason)
            self.save_failure = reason
            return
        self.save_failure = None

    @classmethod
    def resume(cls, text: bytes, *, wait_seconds: float | None = None) -> Table:
        """A table from a save written by :meth:`save_text`; every person must rejoin with their token."""
        loaded: LoadedSave = load_save(text)
        saved = read_table(loaded.written_session, loaded.game.players)
        table = cls(
            loaded.game.variant,
            seats=len(saved.seats),
            bots=[seat.bot for seat in saved.seats],
            seed=saved.seed,
            code=saved.code,
            variant_source=loaded.session.variant_source,
            wait_seconds=saved.wait_seconds if wait_seconds is None else wait_seconds,
        )
        for state, seat in zip(table.seats, saved.seats, strict=True):
            state.kind, state.name, state.token_hash, state.host = seat.kind, seat.name, seat.token, seat.host
            state.removed = seat.removed
            if state.kind == "human":
                state.away_since = table.clock()
        table.removed = dict(saved.removed_tokens)
        table.game = loaded.game
        table.log_place, table.log_left = loaded.session.log, loaded.session.log_left
        table.log_unnamed = loaded.session.log_unnamed
        table._make_bots(dict(loaded.session.bot_rngs))
        return table


__all__ = [
    "DEFAULT_WAIT",
    "HAND_OVER",
    "LogSink",
    "SeatState",
    "Table",
    "TableError",
    "game_over_said",
    "new_code",
    "token_digest",
]
