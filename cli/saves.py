"""Save files on disk: where they live, writing them atomically, finding and listing them.

The format itself is :mod:`kalooki.savegame`; this module only does the file handling.

One game has one save. A game saved elsewhere (``--save FILE`` or ``save FILE`` at the
prompt) is remembered in ``known-saves.json`` beside the saves folder, so ``kalooki resume``
and ``kalooki saves`` find it as they find the saves in the folder; when a game's save
moves, the old file is moved (renamed, atomically) rather than left behind as a second copy.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import stat
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kalooki import jsonio
from kalooki.errors import KalookiError
from kalooki.file_kinds import MAX_SAVE_BYTES, game_file_kind, use_it_with
from kalooki.jsonio import JsonInputError
from kalooki.safeio import FileReadError, read_regular_file, replace_whole
from kalooki.savegame import SAVE_SUFFIX, LoadedSave, SaveFormatError, load_save
from kalooki.shell_words import shell_word
from kalooki.text import escape_controls

from . import save_lock
from .wrong_file import what_it_is

HOME_VARIABLE = "KALOOKI_HOME"
"""Keeps kalooki's files (saves in ``$KALOOKI_HOME/saves``) elsewhere; tests use a temporary folder."""


class SaveFileError(KalookiError):
    """A save file that cannot be read or written; ``reason`` is why, without the file's name."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


def data_home() -> Path:
    """kalooki's own folder: ``$KALOOKI_HOME``, else the platform's place for user data."""
    override = os.environ.get(HOME_VARIABLE)
    if override:
        return Path(override).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "kalooki"


def saves_dir() -> Path:
    return data_home() / "saves"


def new_save_path(seed: int | None, now: datetime | None = None) -> Path:
    """A fresh file name in the saves folder, held for this game: the start time and the seed, so saves
    sort by date.

    Two games started in the same second with the same seed (two terminals, a script) took one name,
    and the second was refused as "open in another kalooki": a name another game holds, or has
    written, is passed over for the next. The lock is let go where the caller's
    :func:`~save_lock.holding` block ends.

    A file where the folder goes (``KALOOKI_HOME`` a file), or a folder that cannot be made or takes no
    new file (read-only, not the user's), is a :class:`SaveFileError`, before any game is dealt: every
    save of it would fail, and the game would go on unsaved from its first move.
    """
    from . import save_lock

    blocked = file_in_the_way(saves_dir()) or unwritable_folder(saves_dir())
    if blocked is not None:
        raise SaveFileError(f"{blocked}: give --save FILE to save the game elsewhere")
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = saves_dir() / f"{stamp}-seed{seed}{SAVE_SUFFIX}"
    counter = 2
    while True:
        if not path.exists():
            with contextlib.suppress(save_lock.SaveInUse):
                save_lock.hold(path)
                # Written and let go by another game between the look and the lock: not fresh.
                if not path.exists():
                    return path
                save_lock.release(path)
        path = saves_dir() / f"{stamp}-seed{seed}-{counter}{SAVE_SUFFIX}"
        counter += 1


STALE_TEMPORARY_SECONDS = 60
"""A temporary file of an autosave older than this was left by a write that was killed: it is removed."""


def temporaries(path: Path) -> list[Path]:
    """The temporary files :func:`write_atomically` makes beside ``path`` (a link followed)."""
    real = Path(os.path.realpath(path))
    return list(real.parent.glob(f".{glob.escape(real.name)}.*.tmp"))


def remove_stale_temporaries(places: list[Path]) -> list[Path]:
    """Remove the temporary files in ``places`` (written by :func:`write_atomically`) that are older
    than :data:`STALE_TEMPORARY_SECONDS`: a write killed outright left them, and one still being
    written is younger. The ones removed."""
    cutoff = time.time() - STALE_TEMPORARY_SECONDS
    removed = []
    for stale in places:
        with contextlib.suppress(OSError):
            if stale.stat().st_mtime < cutoff:
                stale.unlink()
                removed.append(stale)
    return removed


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path``: a crash or Ctrl-C leaves the old file or the new one, never half of one.

    A temporary file left by an earlier write of the same file that was killed (``kill -9``, a power
    cut) is removed after this write succeeds. A symbolic link is followed (the file it names is
    replaced, the link stays), and what is not a plain file (``/dev/null``, a FIFO, a terminal) is
    written to as it is: replacing it would put a plain file in its place, in ``/dev`` as root.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            return
    except FileNotFoundError:
        pass  # a new file, or a link to one that does not exist yet
    path = Path(os.path.realpath(path))
    replace_whole(path, text)
    remove_stale_temporaries(temporaries(path))


def write_save(path: Path, text: str) -> None:
    """Write a save; only the saves folder itself is created when missing (any other folder must exist)."""
    if not path.parent.is_dir():
        if path.parent != saves_dir():
            reason = f"the folder {path.parent} does not exist"
            raise SaveFileError(escape_controls(f"{path}: cannot save the game: {reason}"), reason)
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_atomically(path, text)
    except OSError as error:
        reason = error.strerror or str(error)
        raise SaveFileError(escape_controls(f"{path}: cannot save the game: {reason}"), reason) from None
    # A save outside the saves folder is noted in the index once written, not before: a note read by
    # another game before its file was there looked like a save removed, and was dropped (eight games
    # started together kept two of eight).
    if (known_saves_file(), path) not in _NOTED:
        remember_save(path)
        _NOTED.add((known_saves_file(), path))


_NOTED: set[tuple[Path, Path]] = set()
"""The saves this process has noted in the index (with the index's place): noted once, at its first write."""


def refuse_other_file(path: Path, own: Path | None = None, resume_with: str = "kalooki resume") -> None:
    """Refuse to save a game to ``path`` when another file is there (``own``: the game's save so far).

    A save is written whole over its file: given a variant file, a log or another game's save,
    it would destroy it without a word. ``resume_with`` is the command that continues a save found there.
    """
    if not path.exists() and not path.is_symlink():
        return  # a FIFO, a device or a link is not written over either: only a place where nothing is
    with contextlib.suppress(OSError):
        if own is not None and path.samefile(own):
            return
    shown = escape_controls(str(path))
    if path.is_dir():
        raise SaveFileError(f"{shown}: is a folder; give a file name")  # as --save says
    kind = game_file_kind(path)
    if kind in ("save", "table"):
        from . import save_lock

        if save_lock.open_elsewhere(path):  # the command to continue it would be refused as well
            raise SaveFileError(f"{shown}: holds a game open in another kalooki now; give a new file")
        if kind == "table":
            resume_with = "kalooki host --resume"
        continue_it = use_it_with("continue", f"{resume_with} {shell_word(str(path))}")
        raise SaveFileError(f"{shown}: already holds a saved game ({continue_it}); give a new file")
    raise SaveFileError(f"{shown}: already exists, and a save would write over it; give a new file")


def read_save(path: Path) -> LoadedSave:
    """Load a save file; every problem is a :class:`KalookiError` that names the file."""
    shown = escape_controls(str(path))
    try:
        data = read_regular_file(path, MAX_SAVE_BYTES)
    except FileReadError as error:
        reason = "no such save file" if str(error) == "no such file" else str(error)
        raise SaveFileError(f"{shown}: {reason}") from None
    try:
        return load_save(data)
    except SaveFormatError as error:
        other = what_it_is(path, "save")  # a log, a script or a variant given by mistake: not "damaged"
        raise SaveFormatError(f"{shown}: {escape_controls(other or str(error))}") from None


def known_saves_file() -> Path:
    return data_home() / "known-saves.json"


MAX_KNOWN_BYTES = 1 << 20
"""The most ``known-saves.json`` is read to: thousands of saves' names."""


def _known_paths() -> list[Path]:
    """The saves kept outside the saves folder that kalooki was told about, but those gone for good.

    One whose folder is there without it was removed or moved, and is forgotten; one whose folder is
    not there may be on a drive unplugged for now, and is kept for when it is back.
    """
    return _not_gone(_indexed())


def _not_gone(names: list[str]) -> list[Path]:
    """The places of ``names`` but those gone for good (see :func:`_known_paths`)."""
    return [Path(name) for name in names if _a_file(name) or not _a_file(name, folder=True)]


def _indexed() -> list[str]:
    """Every place the index names (once each), there or not."""
    # Only an index of files named elsewhere: one damaged by hand is read as none, as one not there is.
    try:
        data = jsonio.loads(read_regular_file(known_saves_file(), MAX_KNOWN_BYTES))
    except (FileReadError, JsonInputError):
        return []
    entries = data.get("saves") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return []
    return list(dict.fromkeys(entry for entry in entries if isinstance(entry, str) and _a_place(entry)))


def _a_place(name: str) -> bool:
    """Whether ``name`` is one the index writes: a whole path (remember_save's), no longer than a path."""
    return os.path.isabs(name) and len(name) <= MAX_PATH and "\0" not in name


MAX_PATH = 4096
"""The longest path Linux takes."""


def _a_file(name: str, *, folder: bool = False) -> bool:
    """Whether ``name`` names a file (with ``folder``, whether its folder is there): False for a name
    no file could have (too long, say)."""
    try:
        return os.path.isdir(os.path.dirname(name)) if folder else os.path.isfile(name)
    except (OSError, ValueError):
        return False


def _write_known(paths: list[Path]) -> None:
    document = {"saves": sorted({str(path) for path in paths})}
    # kalooki's own folder is made on first use; only a folder the user names must exist already.
    known_saves_file().parent.mkdir(parents=True, exist_ok=True)
    write_atomically(known_saves_file(), json.dumps(document, indent=1) + "\n")


def remember_save(path: Path) -> None:
    """Note a save outside the saves folder, so ``kalooki resume`` and ``kalooki saves`` find it.

    Best effort: a save that cannot be noted is still a save, resumed by its file name.
    """
    path = _noted(path)
    if path.parent in (saves_dir().absolute(), saves_dir().resolve()):
        return
    with _index_turn():
        known = _known_paths()
        if path in map(_noted, known):
            return
        with contextlib.suppress(OSError):
            _write_known([*known, path])


def _index_turn() -> contextlib.AbstractContextManager[None]:
    """The index is read, changed and written whole: games saving at once (eight started together kept
    two of their eight entries) each wait their turn."""
    with contextlib.suppress(OSError):
        known_saves_file().parent.mkdir(parents=True, exist_ok=True)
    return save_lock.waiting_turn(known_saves_file().with_name(".known-saves.lock"))


def _noted(path: Path) -> Path:
    """``path`` as the index notes it: its folder whole and as the system finds it, so without the ``..`` of
    ``save ../games/x`` (listed as typed, and a second spelling of the file noted again). The folder is
    resolved, not tidied as text: through a linked folder, ``games/../x`` is beside the folder linked to."""
    whole = path.expanduser().absolute()
    try:
        return whole.parent.resolve() / whole.name
    except (OSError, RuntimeError):  # a loop of links: noted as given
        return whole


def forget_save(*paths: Path) -> None:
    """Take ``paths`` out of the index of saves kept elsewhere, reading and writing it once for them all
    (``saves --clean`` forgets every finished game at once: one at a time, a thousand took minutes)."""
    gone = {_noted(path) for path in paths}
    with _index_turn():
        names = _indexed()
        # One noted as typed counts too. Written whenever it names more: the saves gone for good go with
        # those forgotten (saves --clean removes the files first, and the index kept naming them).
        kept = [entry for entry in _not_gone(names) if _noted(entry) not in gone]
        if len(kept) < len(names):
            with contextlib.suppress(OSError):
                _write_known(kept)


def move_save(old: Path, new: Path, text: str) -> None:
    """Make ``new`` the game's one save, holding ``text``; the save at ``old`` goes.

    The old file is renamed onto the new name first (atomic on one file system), then
    overwritten with the current state, so at no moment are there two saves of the game;
    across file systems the new file is written and only then is the old one removed.
    """
    moved = False
    if old != new and old.exists():
        try:
            os.replace(old, new)
            moved = True
        except OSError:
            pass  # another file system, or no such folder: write the new file, then remove the old one
    try:
        write_save(new, text)
    except SaveFileError:
        if moved:
            with contextlib.suppress(OSError):
                os.replace(new, old)  # put it back: the game stays where it was
        raise
    if old != new:
        old.unlink(missing_ok=True)
    forget_save(old)
    remember_save(new)


def file_in_the_way(folder: Path, kept: str = "its saves") -> str | None:
    """Where a file stands in the place of ``folder`` or a folder above it (``KALOOKI_HOME`` a file): said
    so in one line, naming what kalooki keeps there (``kept``); None when the folder is there, or can be
    made."""
    try:
        place = next((place for place in (folder, *folder.parents) if place.exists()), None)
    except OSError as error:  # a name too long for the system (KALOOKI_HOME of 300 letters)
        return f"{escape_controls(str(folder))}: kalooki cannot keep {kept} there: {error.strerror}"
    if place is not None and not place.is_dir():
        return f"{escape_controls(str(place))}: is a file, where kalooki keeps {kept} in a folder"
    return None


def unwritable_folder(folder: Path, kept: str = "its saves") -> str | None:
    """Where ``folder`` cannot be made, or takes no new file: said in one line naming what kalooki keeps
    there (``kept``); None once it is there and writable. Its mode cannot say so (root writes anywhere,
    a read-only mount refuses everyone): a file is made in it and dropped."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return f"{escape_controls(str(folder))}: kalooki cannot keep {kept} there: {error.strerror or error}"
    return None


def save_paths() -> list[Path]:
    """The save files in the saves folder and the ones remembered elsewhere."""
    folder = saves_dir()
    # A file where the folder goes (or any folder above it): "no saved games" hid why none could be saved.
    blocked = file_in_the_way(folder)
    if blocked is not None:
        raise SaveFileError(blocked)
    paths = sorted(folder.glob(f"*{SAVE_SUFFIX}")) if folder.is_dir() else []
    # Each file once, however it is named (the same folder through a link, say).
    seen = {os.path.realpath(path) for path in paths}
    for path in _known_paths():
        real = os.path.realpath(path)
        if real not in seen and _a_file(str(path)):
            seen.add(real)
            paths.append(path)
    return paths


@dataclass(frozen=True, slots=True)
class SaveEntry:
    """One save on disk, as ``kalooki saves`` lists it: ``save`` is None when it cannot be read."""

    path: Path
    modified: float
    save: LoadedSave | None
    problem: str = ""
    hosted: bool = False
    """A hosted table's save (:attr:`~kalooki.savegame.LoadedSave.hosted`)."""

    @property
    def finished(self) -> bool:
        return self.save is not None and self.save.game.game_over


def all_saves() -> list[SaveEntry]:
    """Every save kalooki knows of: unfinished games first, then finished ones, then unreadable ones;
    the most recently played first within each."""
    entries: list[SaveEntry] = []
    for path in save_paths():
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        try:
            save = read_save(path)
            entries.append(SaveEntry(path, modified, save, hosted=save.hosted))
        except KalookiError as error:
            entries.append(SaveEntry(path, modified, None, str(error).removeprefix(f"{path}: ")))
    return sorted(entries, key=lambda entry: (entry.save is None, entry.finished, -entry.modified))


def find_save(choice: str, entries: list[SaveEntry] | None = None) -> Path:
    """``kalooki resume N`` (the Nth game of ``kalooki saves``) or ``kalooki resume FILE``; ``entries``:
    the saves as :func:`all_saves` listed them already, not read again."""
    path = Path(choice).expanduser()
    if choice.isdigit() and not path.exists():
        entries = all_saves() if entries is None else entries
        number = int(choice)
        if not 1 <= number <= len(entries):
            raise SaveFileError(
                f"there is no saved game {number}: 'kalooki saves' lists {len(entries)}"
                if entries
                else f"there is no saved game {number}: there are no saved games"
            )
        return entries[number - 1].path
    # os.path, not Path: False rather than OSError for a name too long for the system (reading it says so)
    if not os.path.exists(path) and not os.path.islink(path) and path.name == choice:
        listed = saves_dir() / choice  # a name as 'kalooki saves' shows it, typed from another folder
        if listed.exists():
            return listed
    return path


@dataclass(frozen=True)
class Latest:
    """The save ``kalooki resume`` with no argument picks, and the newer ones it passed over: those another
    kalooki has open, each with that process, and those that cannot be resumed, each with why; newest
    first."""

    path: Path
    open_elsewhere: tuple[tuple[Path, save_lock.Holder], ...] = ()
    damaged: tuple[tuple[Path, str], ...] = ()


def latest_save() -> Latest:
    """The most recently written save of a game that is not over, in the saves folder or remembered;
    a hosted table's is passed over (``kalooki host --resume`` reopens it), and so are a game open in another
    kalooki and a save that cannot be read (each said by :func:`~kalooki_cli.saves_commands.passed_over`)."""
    shown = escape_controls(str(saves_dir()))  # a newline in KALOOKI_HOME stays on the message's line
    # A link to a file that is gone has no time: passed over, as `kalooki saves` passes it over.
    written = {path: time for path in save_paths() if (time := _written(path)) is not None}
    candidates = sorted(written, key=lambda path: written[path], reverse=True)
    if not candidates:
        raise SaveFileError(f"there are no saved games in {shown}: start one with 'kalooki play'")
    tables = 0
    elsewhere: list[tuple[Path, save_lock.Holder]] = []
    damaged: list[tuple[Path, SaveFileError | SaveFormatError]] = []
    for path in candidates:
        # A game open in another terminal is not the one to resume here (resuming it is refused).
        holder = save_lock.holder_elsewhere(path)
        if holder is not None:
            elsewhere.append((path, holder))
            continue
        # The newest save is the one to resume; a finished game's save is only a record, so look past it.
        # A damaged one (or a file that is no save) is looked past too, and said on the game's screen with
        # why (passed_over), so no game is silently passed over: stopping at it left the player to find
        # an older game's number in 'kalooki saves' to go on at all.
        try:
            save = read_save(path)
        except (SaveFileError, SaveFormatError) as error:
            damaged.append((path, error))
            continue
        if not save.game.game_over:
            if not save.hosted:
                said = tuple((each, str(error).removeprefix(f"{each}: ")) for each, error in damaged)
                return Latest(path, tuple(elsewhere), said)
            tables += 1
    if elsewhere:
        some = "one is" if len(elsewhere) == 1 else f"{len(elsewhere)} are"
        hosted = ", and hosted tables reopen with 'kalooki host --resume FILE'" if tables else ""
        raise SaveFileError(
            f"no game in {shown} is left to resume here: {some} open in another kalooki (finish or quit it "
            f"there){hosted}; or start a new game with 'kalooki play'"
        )
    if damaged:  # nothing else to resume: why the newest of them cannot be
        newest = damaged[0][1]
        raise type(newest)(f"{newest} (no other game here can be resumed)") from None
    if tables:
        raise SaveFileError(
            f"the unfinished games in {shown} are hosted tables: reopen one with 'kalooki host "
            "--resume FILE' ('kalooki saves' lists them), or start a new game with 'kalooki play'"
        )
    raise SaveFileError(f"every saved game in {shown} is over: start a new one with 'kalooki play'")


def _written(path: Path) -> float | None:
    """When ``path`` was last written; None where it cannot be read (a link to nothing)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def refuse_hosted_table(path: Path, loaded: LoadedSave) -> None:
    """Refuse to resume a hosted table's save (``loaded`` from ``path``) at the terminal: say how to reopen
    it instead."""
    if loaded.hosted:
        shown = escape_controls(str(path))
        raise SaveFileError(
            f"{shown}: this is a hosted table's save, for the players to join again; reopen the table with: "
            f"kalooki host --resume {shell_word(str(path))}"
        )
