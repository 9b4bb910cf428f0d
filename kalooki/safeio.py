"""Reading a file a user names, safely: regular files only, never more than a cap.

``open()`` on a FIFO waits for a writer for ever, and ``/dev/zero`` or ``/dev/urandom``
never end: a tool that reads a path from its command line (or from an ``extends`` key
in a shared file) must look at what the path is before reading, and must stop reading
at its size cap rather than check the size afterwards.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from kalooki.errors import KalookiError
from kalooki.text import SURROGATE_HALVES

CHUNK = 64 * 1024

NUL_IN_NAME = "a file name cannot hold a NUL character"

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
"""How a file is opened to be read: without blocking, so a FIFO or a device cannot hold the call."""


def unusable_name(path: str | Path, error: ValueError) -> str:
    """Why the system refused the name ``path`` with ``error`` before looking for a file: a NUL character
    (``embedded null byte``), or half of a UTF-16 pair, which no file name holds (a UnicodeEncodeError)."""
    if isinstance(error, UnicodeEncodeError):
        return f"a file name cannot hold U+{ord(str(path)[error.start]):04X}: {SURROGATE_HALVES}"
    return NUL_IN_NAME


class FileReadError(KalookiError):
    """A file that cannot be read; the message says why, without the file's name (callers add it)."""


class FileTooBigError(FileReadError):
    """A file over the cap; ``size`` is its size when known (a file growing as it is read is not)."""

    def __init__(self, message: str, size: int | None) -> None:
        super().__init__(message)
        self.size = size


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def kind_problem(mode: int) -> str | None:
    """Why a file of ``mode`` (``os.stat``'s) is not one to write whole, or None for a regular file."""
    return None if stat.S_ISREG(mode) else _kind(mode)


def describe_size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size // (1024 * 1024)} MiB"
    if size >= 1024:
        return f"{size // 1024} KiB"
    return f"{size} bytes"


def read_regular_file(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of the regular file at ``path``; :class:`FileReadError` for anything else or anything bigger.

    The file is opened without blocking (a FIFO cannot hold the call), checked to be a regular
    file (symbolic links followed) before a byte is read, and read at most ``max_bytes + 1``
    bytes, so a file that grows while it is read is refused too.
    """
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except OSError as error:
        raise FileReadError(_refusal(path, error)) from None
    except ValueError as error:  # os.open's "embedded null byte", or half a UTF-16 pair
        raise FileReadError(unusable_name(path, error)) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise FileReadError(_kind(info.st_mode))
        if info.st_size > max_bytes:
            raise FileTooBigError(_too_big(info.st_size, max_bytes), info.st_size)
        return read_capped(descriptor, max_bytes)
    except OSError as error:
        raise FileReadError(_reason(error)) from None
    finally:
        os.close(descriptor)


def peek_regular_file(path: str | Path, count: int) -> bytes | None:
    """Up to ``count`` bytes from the start of the regular file at ``path``, or None where it is none or
    cannot be read. Opened without blocking, as :func:`read_regular_file` opens: a file that passes
    ``Path.is_file()`` may still hold the read for ever (``/proc/kmsg``, or a FIFO put in its place
    after the look), and a look at what a file is must never be what hangs the command."""
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        chunks: list[bytes] = []
        total = 0
        while total < count:
            chunk = os.read(descriptor, count - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    except OSError:  # EAGAIN from a file with nothing to give yet, EIO, ...
        return None
    finally:
        os.close(descriptor)


def read_capped(descriptor: int, max_bytes: int) -> bytes:
    """What ``descriptor`` gives until its end, reading at most ``max_bytes + 1`` bytes: a stream longer
    than the cap raises :class:`FileTooBigError` without being read to its end (it may have none)."""
    chunks: list[bytes] = []
    total = 0
    while total <= max_bytes:
        chunk = os.read(descriptor, min(CHUNK, max_bytes + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > max_bytes:
        raise FileTooBigError(_too_big(total, max_bytes, at_least=True), None)
    return b"".join(chunks)


def _too_big(size: int, max_bytes: int, at_least: bool = False) -> str:
    found, most = describe_size(size), describe_size(max_bytes)
    # Sizes are told in whole units, rounded down: a file one byte over 4 MiB is "over 4 MiB", not "4 MiB".
    if at_least or found == most:
        found = f"over {most}"
    return f"the file is {found}; at most {most} are accepted"


def _refusal(path: str | Path, error: OSError) -> str:
    """Why ``path`` could not be opened; a socket cannot be opened at all (ENXIO): its kind is named."""
    if error.errno == errno.ENXIO:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return _reason(error)
        if not stat.S_ISREG(mode):
            return _kind(mode)
    return _reason(error)


def _reason(error: OSError) -> str:
    if error.errno == errno.ENOENT:
        return "no such file"
    if error.errno == errno.EISDIR:
        return "is a directory, not a file"
    if error.errno == errno.ELOOP:  # as an output file's check says it (cli.output)
        return "is a symbolic link that leads round in a loop"
    return f"cannot read the file: {error.strerror or error}"


def plain_mode(path: Path) -> int:
    """The file's own mode when it exists, else what the umask leaves of rw-rw-rw- (as ``open`` gives)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def replace_whole(path: Path, text: str) -> None:
    """Put ``text`` at ``path`` (a plain file, or none yet) by writing a temporary file beside it and
    renaming it over: a full disk, a crash or Ctrl-C leaves the old file or the new one, never an empty
    or half-written one. The temporary file is ``.NAME.XXXX.tmp``; a write that fails removes it."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp makes the file private (rw-------): give it the mode a plain write would have.
        os.fchmod(handle, plain_mode(path))
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
