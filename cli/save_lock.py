"""One game, one process: a save open in a kalooki is refused to a second one.

Two processes playing one save would each write over the other's (a game forked, moves lost),
and both would append to its log, which then never replays again. Each game holds an advisory
lock (``flock``) for as long as it is played; the OS lets it go when the process dies, so a
game that was killed is never left locked.

A save is written by replacing its file, so a lock on the save itself would not outlive the
first write: the lock is on a companion file, ``.NAME.lock`` beside it, which no listing of
saves shows and which goes when the game stops (one a game killed outright left, locked by no one,
goes at ``kalooki saves --clean``: :func:`remove_if_stale`). Only a lock's own file is used there: a
link, a folder or a second name of another file in its place stops the game, as cutting and writing
it, or removing it, would reach a file that is not the lock's. A game's log is held the same way, by
``.NAME.lock`` beside it, for as long as a game writes it: two copies of one save name one log; and a
sweep's ``--out`` folder, by its manifest's, for as long as the sweep writes its cells.
Without ``fcntl`` (Windows) nothing is locked, as the seat-token store does.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks, games are not kept apart
    fcntl = None  # type: ignore[assignment]

from kalooki.errors import KalookiError
from kalooki.text import escape_controls

_held: dict[str, int] = {}
"""The companion files this process holds locked, by path, with their open descriptor."""


class SaveInUse(KalookiError):
    """The save is open in another kalooki process."""


class LogInUse(KalookiError):
    """The log is being written by another kalooki process."""


class LockRefused(KalookiError):
    """Something other than a lock's own file stands where the lock goes: the game is not played."""


def lock_place(save: Path) -> Path:
    """The companion file locked for ``save`` (or a log): beside the file it names, a link followed."""
    real = Path(os.path.realpath(save.expanduser()))
    return real.parent / f".{real.name}.lock"


def hold(save: Path) -> None:
    """Lock ``save`` for this process (again: nothing); SaveInUse when another process holds it.

    A folder that does not exist yet holds no other game: there is nothing to lock, and the save
    itself says what is wrong with it when it is written.
    """
    from .saves import saves_dir

    folder = lock_place(save).parent
    if folder == Path(os.path.realpath(saves_dir())):
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
    _take(
        save,
        "while it is played",
        lambda shown, holder: SaveInUse(
            f"{shown}: this game is open in another kalooki{holder}; finish or quit it there first"
        ),
    )


def hold_log(log: Path) -> None:
    """Lock the log at ``log`` for this process (again: nothing); LogInUse when another process writes it.

    The save's lock does not cover its log: two copies of one save name the same log, and both
    resumed would append to it, forking it. A new game's log is held from before it is written
    (its folder must exist, as ``--log`` says), a resumed game's from before it is read.
    """
    _take(
        log,
        "while a game writes it",
        lambda shown, holder: LogInUse(
            f"{shown}: this log is being written by another kalooki{holder}; finish or quit that game first"
        ),
    )


class SweepInUse(KalookiError):
    """A sweep's --out folder is being written by another kalooki process."""


def hold_sweep(folder: Path, manifest: Path) -> None:
    """Lock the sweep folder ``folder`` (by its ``manifest``'s companion file) for this process; SweepInUse
    when another process writes it: two sweeps of other options each took the folder for theirs, both
    reported, and left its manifest and cells from different sweeps."""
    _take(
        manifest,
        "while a sweep writes its folder",
        lambda _shown, holder: SweepInUse(
            f"{escape_controls(str(folder))}: another kalooki sweep is writing this folder{holder}; "
            "wait for it to end, or give another --out folder"
        ),
    )


def _take(path: Path, during: str, in_use: Callable[[str, str], KalookiError]) -> None:
    """Lock the companion file of ``path``; ``in_use(path, " (process N)")`` when another process holds it.

    ``during``: while what the lock is kept, for the refusal of a file in its place that is not its own.
    """
    place = lock_place(path)
    if fcntl is None or str(place) in _held:
        return
    shown = escape_controls(str(path))
    named, kept = _as_named(path, place), f"the lock of {shown} {during}"
    while True:
        handle = _open(place, named, kept)
        if handle is None:
            return  # no such folder, or one that cannot be written: the file cannot be written either
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(handle)
            os.close(handle)
            raise in_use(shown, holder) from None
        # The file may have been removed by the game that held it, between our open and our lock:
        # a lock on a file no longer there keeps no one out, so take the one that is there now.
        if _is_there(place, handle):
            break
        os.close(handle)
    with contextlib.suppress(OSError):
        os.ftruncate(handle, 0)
        os.write(handle, f"{os.getpid()}\n".encode())
    _held[str(place)] = handle


def _as_named(save: Path, place: Path) -> Path:
    """``place`` as the player would name it: beside ``save`` as they gave it, unless that is a link."""
    given = save.expanduser()
    if not given.name:
        return place
    beside = given.with_name(f".{given.name}.lock")
    return beside if Path(os.path.realpath(given.parent)) / beside.name == place else place


def _open(place: Path, named: Path, kept: str) -> int | None:
    """The companion file at ``place``, opened (made if missing); None where none can be made.

    Anything but a lock's own file there (a link, a folder, a FIFO, a second name of another file)
    is refused, never opened through: the lock file is cut and written, and removed at the end.
    """
    try:
        _refuse_unless_own(named, os.lstat(place), kept)
    except FileNotFoundError:
        pass
    except OSError:
        return None
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        handle = os.open(place, flags, 0o600)
    except OSError as error:
        # Put there since it was looked at: a link (not followed), a folder, a socket.
        refused = _REFUSED_OPENS.get(error.errno or 0)
        if refused is not None:
            raise _refusal(named, refused, kept) from None
        return None
    try:
        _refuse_unless_own(named, os.fstat(handle), kept)
    except LockRefused:
        os.close(handle)
        raise
    return handle


_REFUSED_OPENS = {
    errno.ELOOP: "a symbolic link",
    errno.EMLINK: "a symbolic link",  # FreeBSD's answer to O_NOFOLLOW on a link
    errno.EISDIR: "a folder",
    errno.ENXIO: "not a regular file",
    errno.EOPNOTSUPP: "not a regular file",
}
"""What stands where the lock goes, by the error opening it gives."""


def _refuse_unless_own(place: Path, seen: os.stat_result, kept: str) -> None:
    if stat.S_ISLNK(seen.st_mode):
        raise _refusal(place, "a symbolic link", kept)
    if stat.S_ISDIR(seen.st_mode):
        raise _refusal(place, "a folder", kept)
    if not stat.S_ISREG(seen.st_mode):
        raise _refusal(place, "not a regular file", kept)
    if seen.st_nlink != 1:
        raise _refusal(place, "a second name of another file (a hard link)", kept)


def _refusal(place: Path, what: str, kept: str) -> LockRefused:
    lock = escape_controls(str(place))
    return LockRefused(f"{lock}: is {what}, where kalooki keeps {kept}; remove it, then try again")


def _is_there(place: str | Path, handle: int) -> bool:
    """Whether the file open as ``handle`` is still the one at ``place`` (not removed, not replaced)."""
    try:
        there, held = os.lstat(place), os.fstat(handle)
    except OSError:
        return False
    return (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino)


def release(save: Path) -> None:
    """Let ``save`` go (not held: nothing); its companion file goes with the lock."""
    _let_go(str(lock_place(save)))


def _let_go(place: str) -> None:
    """Unlock the companion file at ``place`` if this process holds it, and remove it."""
    handle = _held.pop(place, None)
    if handle is None:
        return
    # Before the lock goes, so that a game that opens it after takes a new file; and only our own: a
    # file put in its place since (a link, another file) is left where it is.
    if _is_there(place, handle):
        with contextlib.suppress(OSError):
            os.unlink(place)
    os.close(handle)


@contextlib.contextmanager
def holding(save: Path | None = None) -> Iterator[None]:
    """Hold ``save`` for the game played in this block; every save held in it is let go at its end.

    The game may move to another save (``save FILE``), or hold its save only once it knows which
    (a hosted table, :func:`hold` in the block): those are let go too.
    """
    before = set(_held)
    if save is not None:
        hold(save)
    try:
        yield
    finally:
        for place in set(_held) - before:
            _let_go(place)


@contextlib.contextmanager
def waiting_turn(place: Path) -> Iterator[None]:
    """Wait for, and hold for this block, the lock on ``place`` (made if need be): for a file read, changed
    and written whole by games that may run at once (the index of saves kept elsewhere). Best effort: where
    ``place`` cannot be opened, the block runs unlocked, as its own write would fail too."""
    handle = None
    if fcntl is not None:
        with contextlib.suppress(OSError):
            handle = os.open(place, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            fcntl.flock(handle, fcntl.LOCK_EX)
    try:
        yield
    finally:
        if handle is not None:
            os.close(handle)


def open_elsewhere(save: Path) -> bool:
    """Whether another process plays ``save`` now (holds its lock): ``kalooki resume`` with no name looks
    past it, and ``kalooki saves`` says so."""
    return holder_elsewhere(save) is not None


class Holder(NamedTuple):
    """Another process that holds a save's lock: its number, None where the lock file does not say it."""

    pid: int | None


def holder_elsewhere(save: Path) -> Holder | None:
    """The other process that plays ``save`` now; None when none does. Asked with a shared lock let go at
    once, which a game holding the file's lock refuses."""
    place = lock_place(save)
    if fcntl is None or str(place) in _held:
        return None
    with _lock_file(place) as handle:
        if handle is None:
            return None
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return Holder(_holder_pid(handle))
        return None


def remove_if_stale(place: Path) -> bool:
    """Remove the companion file at ``place`` if no process holds its lock (whether it was removed).

    A game killed outright (SIGKILL, a power cut) leaves its companion file, locked by no one. One a
    live game holds stays, and so does anything at ``place`` that is not a regular file (a link is not
    followed, a FIFO not waited on).
    """
    if fcntl is None:
        return False
    with _lock_file(place) as handle:
        if handle is None:
            return False
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # Removed while locked, as a game lets its own go: a game that opened it meanwhile finds, once
            # it has the lock, that the file is gone, and takes a new one (see hold).
            if os.stat(place, follow_symlinks=False).st_ino != os.fstat(handle).st_ino:
                return False
            os.unlink(place)
            return True
        except OSError:  # held by a live game, or gone already
            return False


@contextlib.contextmanager
def _lock_file(place: Path) -> Iterator[int | None]:
    """The companion file at ``place`` opened to be looked at, closed after the block; None where it is
    not there or is not a regular file (a link is not followed, a FIFO not waited on)."""
    try:
        handle = os.open(place, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        yield None
        return
    try:
        yield handle if stat.S_ISREG(os.fstat(handle).st_mode) else None
    finally:
        os.close(handle)


def _holder(handle: int) -> str:
    pid = _holder_pid(handle)
    return "" if pid is None else f" (process {pid})"


def _holder_pid(handle: int) -> int | None:
    """The process number a lock file holds (each game writes its own there), None where it holds none."""
    with contextlib.suppress(OSError, ValueError):
        return int(os.read(handle, 32).decode("ascii").strip())
    return None


__all__ = [
    "Holder",
    "LockRefused",
    "LogInUse",
    "SaveInUse",
    "hold",
    "hold_log",
    "holder_elsewhere",
    "holding",
    "lock_place",
    "open_elsewhere",
    "release",
    "remove_if_stale",
]
