"""A client's side of a table: the connection, and the seat tokens kept between runs.

:class:`TableConnection` uses ``websockets``' threading client, so a terminal program can
block on its keyboard while the library answers the host's pings; what the host sends
waits in :attr:`TableConnection.inbox` until the program takes it.

:class:`TokenStore` keeps each table's seat tokens in a small JSON file, one per host and
join code, in the folder the CLI gives it (next to the saves), so ``kalooki join`` with
the same address and code takes the same seat back after a drop or a host restart; each seat
under its player's name, for two people who share an account.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import re
import socket
import ssl
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; two joins at the same instant may lose one seat.
    fcntl = None  # type: ignore[assignment]

from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidMessage,
    InvalidStatus,
    InvalidURI,
)
from websockets.sync.client import ClientConnection, connect

from kalooki import jsonio
from kalooki.errors import KalookiError
from kalooki.safeio import FileReadError, read_regular_file
from kalooki.text import clipped, escape_controls, name_fault, name_key, reads_as_you, spell_surrogates

from .protocol import (
    MAX_HOST_MESSAGE_BYTES,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    encode,
    host_message_problem,
)
from .signals import signals_stay_with_main

DEFAULT_PORT = 8765
CONNECT_TIMEOUT = 10.0


def _unreachable(error: Exception) -> str:
    """Why a table could not be reached, in a player's words where the system's are errno's."""
    if isinstance(error, ConnectionRefusedError):
        return "nothing answers there; is the table open (kalooki host), and are the address and port right?"
    if isinstance(error, socket.gaierror):
        return f"no computer of that name is known ({error.strerror})"
    if isinstance(error, TimeoutError):
        return f"no answer within {CONNECT_TIMEOUT:g} s"
    if isinstance(error, InvalidHandshake):
        return _not_a_handshake(error)
    if isinstance(error, ssl.SSLError) and not isinstance(error, ssl.SSLCertVerificationError):
        # A table kalooki host serves speaks plain http: an https:// link to it reads OpenSSL's words alone.
        return (
            "it does not answer over TLS (https://); a table that kalooki host serves itself is "
            "reached with http:// or no scheme"
        )
    return str(error)


TABLE_REFUSALS = frozenset({400, 403, 503})
"""The HTTP statuses a kalooki table answers a join's request with, when it refuses it (its gate's)."""


def _not_a_handshake(error: InvalidHandshake) -> str:
    """Why what answered at the address opened no table's connection: the library's words ("did not
    receive a valid HTTP response") do not say that something else, not a table, may be listening."""
    if isinstance(error, InvalidStatus):
        status = error.response.status_code
        if status in TABLE_REFUSALS:
            said = escape_controls(clipped(error.response.body.decode("utf-8", "replace").strip()))
            return f"the connection was refused (HTTP {status}{': ' + said if said else ''})"
        return f"what answers there is not a kalooki table: it answered HTTP {status}"
    if isinstance(error, InvalidMessage):
        if isinstance(error.__cause__, EOFError):
            # A table over its connection cap closes a new one at once, as anything else may: both are said.
            return "it closed the connection unanswered (a kalooki table that is full does: try again later)"
        return "what answers there is not a kalooki table: its answer is not HTTP"
    return f"what answers there is not a kalooki table ({error})"  # an upgrade answered wrongly


def _spelled(value: Any) -> Any:
    """``value`` (a message from the table) with each lone surrogate in its texts spelled (``\\ud800``).

    JSON's escapes can put one in a string, and no terminal can print it: a name, a line said, a
    refusal or a closing reason holding one ended ``kalooki join`` with a UnicodeEncodeError.
    """
    if isinstance(value, str):
        return spell_surrogates(value)
    if isinstance(value, list):
        return [_spelled(item) for item in value]
    if isinstance(value, dict):
        return {_spelled(key): _spelled(item) for key, item in value.items()}
    return value


class TableConnectionError(KalookiError):
    """The table cannot be reached, refused us, or the connection was lost.

    ``code`` is the table's reason when it refused (the ``error`` message's code: ``bad_token``,
    ``seat_in_use``, ...); None when it never answered so.
    """

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


LOST = "the connection to the table was lost"
"""The reason of a connection closed with none given: the host's machine or the network went away."""


class Closed:
    """Put in the inbox when the connection ends."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


class Skipped:
    """Put in the inbox for a message from the table that is no message of the protocol (or no JSON)."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


LINK_SCHEMES = {"http": "ws", "https": "wss"}
"""The browser link a host prints, and the WebSocket its page opens: the same host and port."""


def table_uri(address: str) -> str:
    """``HOST[:PORT]``, a ``ws://`` URI or the browser link its host prints, as a WebSocket URI; the port
    defaults to 8765 (a link's, as in a browser, to its scheme's)."""
    address = address.strip()  # pasted with a space: not a computer's name
    scheme, colons, _ = address.partition("://")
    if colons and scheme.lower() in ("ws", "wss"):
        return address
    if colons and scheme.lower() in LINK_SCHEMES:
        return _link_uri(address, LINK_SCHEMES[scheme.lower()])
    if colons and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", scheme):
        raise TableConnectionError(
            f"'{address}' is not a table's address: give HOST[:PORT], or the http:// link its host prints"
        )
    if address.startswith("["):  # [::1]:8765
        host, _, rest = address[1:].partition("]")
        port = rest.removeprefix(":")
    elif address.count(":") == 1:
        host, _, port = address.partition(":")
    else:  # a name, an IPv4 address, or a bare IPv6 address
        host, port = address, ""
    if not host or (port and not (port.isdigit() and 0 < int(port) < 65536)):
        raise TableConnectionError(f"'{address}' is not HOST or HOST:PORT (a port is 1 to 65535)")
    if ":" in host:
        host = f"[{host}]"
    return f"ws://{host}:{port or DEFAULT_PORT}/"


def _link_uri(link: str, scheme: str) -> str:
    """The WebSocket URI of the page at ``link``: what its page opens (``net/web/connection.js``)."""
    try:
        parts = urlsplit(link)
        parts.port  # noqa: B018 -- a port out of range or not a number is refused here, not when reached
    except ValueError:
        parts = None
    if parts is None or not parts.hostname:
        raise TableConnectionError(f"'{link}' is not a table's link: give http://HOST[:PORT]/?code=CODE")
    return f"{scheme}://{parts.netloc.rpartition('@')[2]}/"


def link_code(address: str) -> str | None:
    """The join code in the browser link a host prints (``?code=CODE``); None in any other address."""
    address = address.strip()
    scheme, colons, _ = address.partition("://")
    if not colons or scheme.lower() not in LINK_SCHEMES:
        return None
    codes = parse_qs(urlsplit(address).query).get("code")
    return codes[-1].strip() if codes else None


def default_name() -> str | None:
    """Your login name, when it makes a name at the table (as the table reads names: ``anne-marie`` and
    ``first.last`` do); else None, for the player to give one. (It was "you", which every table refuses.)"""
    import getpass

    try:
        login = getpass.getuser()
    except (OSError, KeyError):
        return None
    return login if name_fault(login) is None and not reads_as_you(login) else None


def join_code(address: str, given: str | None) -> str:
    """The join code: ``given`` (``--code``), or the one in the link pasted as the address; both only
    when they are the same (a table reads a code in any case)."""
    linked = link_code(address)
    if given is not None and not given.strip():
        # Sent, it was one of the address's wrong tries at the code (ten hold its joins off a while).
        raise TableConnectionError("give the table's join code, not an empty one")
    if given is not None and linked is not None and given.strip().upper() != linked.upper():
        raise TableConnectionError(f"the link's code is {linked}, not {given}: give one of them")
    if given is None and not linked:
        raise TableConnectionError(
            "give the table's join code (--code CODE), or paste the link its host prints"
        )
    return given if given is not None else str(linked)


class _MainTakesSignals(ClientConnection):
    """websockets' connection, its threads (the socket's reader, the keepalive) started with SIGINT,
    SIGTERM and SIGHUP blocked, so Ctrl-C goes to the main thread (:mod:`kalooki_net.signals`). Only the
    starts are blocked: a Ctrl-C while the address is reached or the handshake waits stops it at once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with signals_stay_with_main():
            super().__init__(*args, **kwargs)

    def start_keepalive(self) -> None:
        with signals_stay_with_main():
            super().start_keepalive()


class TableConnection:
    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.inbox: queue.Queue[dict[str, Any] | Closed | Skipped] = queue.Queue()
        self.unreadable: str | None = None
        """What was wrong with the last message from the table that was no message of the protocol."""
        self.exits = ExitStack()
        try:
            self.websocket: ClientConnection = self.exits.enter_context(
                connect(
                    uri,
                    open_timeout=CONNECT_TIMEOUT,
                    max_size=MAX_HOST_MESSAGE_BYTES,
                    compression=None,
                    create_connection=_MainTakesSignals,
                )
            )
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as error:
            raise TableConnectionError(f"cannot reach the table at {uri}: {_unreachable(error)}") from None
        except ValueError as error:  # an address that is not one (urllib's check of the host)
            raise TableConnectionError(f"'{uri}' is not a table's address: {error}") from None
        with signals_stay_with_main():
            self.reader = threading.Thread(target=self._read, daemon=True, name="kalooki-table-reader")
            self.reader.start()

    def _read(self) -> None:
        try:
            for text in self.websocket:
                try:
                    # Strictly: json.loads raises RecursionError on deep nesting, which would end this thread.
                    message = jsonio.loads(text)
                    problem = host_message_problem(message)
                except jsonio.JsonInputError as error:
                    problem = f"not JSON: {error}"
                if problem is None:
                    self.inbox.put(_spelled(message))
                else:  # skipped; said if the join then waits in vain (Skipped)
                    self.unreadable = problem
                    self.inbox.put(Skipped(problem))
        except ConnectionClosed:
            pass
        reason = self.websocket.close_reason or LOST
        self.inbox.put(Closed(reason))

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.websocket.send(encode(message))
        except ConnectionClosed:
            raise TableConnectionError(LOST) from None

    def receive(self, timeout: float | None = None) -> dict[str, Any] | Closed | Skipped:
        return self.inbox.get(timeout=timeout)

    def join(self, code: str, *, name: str | None = None, token: str | None = None) -> dict[str, Any]:
        """Send a join and wait for the welcome; the refusal's message as a TableConnectionError."""
        self.send({"type": "join", "protocol": PROTOCOL_VERSION, "code": code, "name": name, "token": token})
        while True:
            try:
                message = self.receive(CONNECT_TIMEOUT * 3)
            except queue.Empty:  # something listens there, but it is no table, or a table that hangs
                waited = f"{CONNECT_TIMEOUT * 3:g} seconds"
                raise TableConnectionError(
                    f"the table did not answer within {waited}{self._unreadable_note()}"
                ) from None
            if isinstance(message, Skipped):
                continue  # named if no welcome comes (_unreadable_note)
            if isinstance(message, Closed):
                raise TableConnectionError(
                    f"the table closed the connection: {message.reason}{self._unreadable_note()}"
                )
            if message.get("type") == "welcome":
                if message["seat"] < 0:  # -1 is no table's (no join asks to watch): one not honest
                    self.leave()  # else the table would keep that seat waiting, as for a player who dropped
                    raise TableConnectionError(
                        "the table sent a welcome that does not add up: welcome.seat is "
                        f"{message['seat']}, but you asked for a seat (seats are numbered from 0)"
                    )
                return message
            if message.get("type") == "error":
                raise TableConnectionError(
                    f"the table refused to seat you: {message.get('message')}", code=str(message.get("code"))
                )

    def leave(self) -> None:
        """Leave the table (the protocol's ``leave``), if the connection still works; then close it."""
        with contextlib.suppress(
            TableConnectionError
        ):  # gone already: a dropped seat is freed after the wait
            self.send({"type": "leave"})
        self.close()

    def _unreadable_note(self) -> str:
        return f" (it sent a message kalooki cannot read: {self.unreadable})" if self.unreadable else ""

    def close(self) -> None:
        self.exits.close()


@dataclass(frozen=True)
class KeptSeat:
    """A seat taken at a table from this account: its number (from 0), its player's name, its token."""

    seat: int
    name: str
    token: str


KEPT_TOKEN = re.compile("[A-Za-z0-9_-]{1,64}")
"""A seat's token as a table gives it (``secrets.token_urlsafe``), and at most as long as a join may send."""


def _kept_seat(entry: object) -> KeptSeat | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("token"), str):
        return None
    if not KEPT_TOKEN.fullmatch(entry["token"]):
        return None  # sent as it is, 100 KB of it closed the connection (1009): no table gave it
    seat, name = entry.get("seat"), entry.get("name")
    seat = seat if jsonio.is_whole_number(seat) else -1
    return KeptSeat(seat, name if isinstance(name, str) else "", entry["token"])


MAX_TOKEN_FILE_BYTES = 1024 * 1024
"""Most bytes a token file is read to: a seat is about a hundred, and an account keeps a few."""


UNKEPT = "the game goes on here, but once it has started, a seat dropped cannot be taken back"
"""What a seat whose token is not kept costs: only a token takes a seat back in a game under way."""


class TokenStore:
    """Seat tokens on disk, one file per table (host address and join code), readable only by you.

    A file keeps every seat taken at its table from this account, each under its player's name, so two
    people sharing an account each keep theirs (``seats``, the one kept last first). Its top-level
    ``seat``, ``name`` and ``token`` are the seat kept last: the whole file as kalooki wrote it before
    ``seats``, so such a file reads as that one seat, and an older kalooki still reads a newer file.
    """

    def __init__(self, folder: Path, tell: Callable[[str], None] | None = None) -> None:
        """``tell``: says why a token could not be kept (:meth:`keep`), where something can say it."""
        self.folder = folder
        self.tell = tell

    def path(self, uri: str, code: str) -> Path:
        key = hashlib.sha256(f"{uri}|{code.strip().upper()}".encode()).hexdigest()[:20]
        return self.folder / f"{key}.json"

    def seats(self, uri: str, code: str) -> list[KeptSeat]:
        return self.read(uri, code)[0]

    def read(self, uri: str, code: str) -> tuple[list[KeptSeat], str | None]:
        """The seats kept for a table, and what is wrong with its file when it is damaged.

        A damaged file (cut short, edited, 100,000 '[', a link to /dev/zero, no seat whose token a table
        gives) keeps no seat: the join asks for a new one, and says why (it was replaced in silence). An
        entry no table gives beside good ones is left out, and goes when the file is next written.
        The file is read as any untrusted file: a regular one, at most :data:`MAX_TOKEN_FILE_BYTES`.
        """
        path = self.path(uri, code)
        if not path.is_symlink() and not path.exists():
            return [], None
        try:
            data = jsonio.loads(read_regular_file(path, MAX_TOKEN_FILE_BYTES))
        except FileReadError as error:
            return [], str(error)
        except jsonio.JsonInputError as error:
            return [], f"not JSON: {error}"
        listed = data.get("seats") if isinstance(data, dict) else None
        entries = listed if isinstance(listed, list) else [data]
        seats = [seat for seat in map(_kept_seat, entries) if seat is not None]
        if not seats:
            return [], "it holds no seat's token as a table gives it"
        # One entry no table gives (edited, cut) does not cost the others: they are seats at the table.
        return seats, None

    def keep(self, uri: str, code: str, token: str, seat: int, name: str) -> str | None:
        """Keep a seat's token, in place of one kept before under the same name (or with the same token).

        None when it is kept; else why not, in one line (a full disk, a file where the folder goes): the
        seat is taken already, and its game goes on in this process, so that is said, not raised.
        """
        try:
            with self._locked():
                others = [
                    kept
                    for kept in self.seats(uri, code)
                    if kept.token != token and name_key(kept.name) != name_key(name)
                ]
                self._write(uri, code, [KeptSeat(seat, name, token), *others])
        except OSError as error:
            where = error.filename or self.folder
            problem = f"{where}: this seat's token cannot be kept ({error.strerror or error}); {UNKEPT}"
            if self.tell is not None:
                self.tell(problem)
            return problem
        return None

    def forget(self, uri: str, code: str, token: str) -> None:
        """Forget the seat whose token is ``token`` (the file goes with the last seat it keeps).

        A token that cannot be forgotten (the folder cannot be written) is left: the table refuses it at
        the next join (``bad_token``), and it is forgotten then.
        """
        with contextlib.suppress(OSError), self._locked():
            left = [kept for kept in self.seats(uri, code) if kept.token != token]
            if left:
                self._write(uri, code, left)
            else:
                self.path(uri, code).unlink(missing_ok=True)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        # keep and forget read the file, change it and write it whole: two `kalooki join`s from one
        # account at the same instant (two people, two terminals) would each write back what they read,
        # and one seat would be lost. An advisory lock on the folder makes each change wait its turn.
        if fcntl is None:
            yield
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        handle = os.open(self.folder / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield
        finally:
            os.close(handle)

    def _write(self, uri: str, code: str, seats: list[KeptSeat]) -> None:
        path = self.path(uri, code)
        path.parent.mkdir(parents=True, exist_ok=True)
        last = seats[0]
        data = {
            "table": uri,
            "seat": last.seat,
            "name": last.name,
            "token": last.token,
            "seats": [{"seat": kept.seat, "name": kept.name, "token": kept.token} for kept in seats],
        }
        # Whole or not at all: a file cut short would lose every seat it keeps. mkstemp's file is private.
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(json.dumps(data))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


__all__ = [
    "DEFAULT_PORT",
    "LOST",
    "MAX_MESSAGE_BYTES",
    "Closed",
    "KeptSeat",
    "Skipped",
    "TableConnection",
    "TableConnectionError",
    "TokenStore",
    "default_name",
    "join_code",
    "link_code",
    "table_uri",
]
