"""Saving a game at the terminal after every move: atomically, saying a failure once, never stopping play."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING

from kalooki.engine import Game
from kalooki.errors import KalookiError
from kalooki.savegame import Session, dump_save, rng_states
from kalooki.text import clipped, escape_controls

from . import save_lock
from .saves import refuse_other_file

QUOTES = ("'", '"')


def typed_file_name(argument: str) -> str | None:
    """The file named after ``save``, None for none. Read as the shell reads it where it starts with a
    quote: the game tells how to continue with the name quoted for the shell, and that is what gets
    copied back (``save ''`` wrote a file called ``''``). Otherwise as typed, spaces and all."""
    if not argument:
        return None
    if not argument.startswith(QUOTES):
        return argument
    try:
        words = shlex.split(argument)
    except ValueError as error:  # "No closing quotation"
        raise KalookiError(f"save {clipped(escape_controls(argument))}: {str(error).lower()}") from None
    if len(words) != 1 or not words[0]:
        raise KalookiError(
            f"save {clipped(escape_controls(argument))}: give one file name, "
            "e.g. save 'my game.kalooki-save.json'"
        )
    return words[0]


class Autosave:
    """The saving half of the game at the terminal: the ``save`` command and the save after every move."""

    game: Game
    session: Session
    rngs: dict[int, Random]
    save_path: Path | None
    save_failure: str | None
    """Why the last save failed (None when it worked): said once, until a save works again."""
    _write_save: Callable[[Path, str], None] | None
    _move_save: Callable[[Path, Path, str], None] | None
    unchanged_save: str | None = None
    """The save as it was read, when resumed, while nothing in it has changed since: saving it again
    would only move its time of last play, and the saves list's numbers with it."""

    if TYPE_CHECKING:  # provided by the game at the terminal this is mixed into

        def error(self, message: str) -> None: ...

        def say_then(self, lead: str, tail: str, style: str = "") -> None: ...

    def save_command(self, argument: str) -> None:
        """Save now; to a new file, the autosaves go there too, but only once it has been written."""
        try:
            name = typed_file_name(argument)
        except KalookiError as error:
            self.error(str(error))
            return
        path = Path(name).expanduser() if name is not None else self.save_path
        if path is None or self._write_save is None:
            self.error("this game is not being saved: give a file, e.g. save mygame.kalooki-save.json")
            return
        # The game's lock goes with it to a new file: another kalooki may not open that save either.
        moving = self.save_path is not None and save_lock.lock_place(path) != save_lock.lock_place(
            self.save_path
        )
        try:
            refuse_other_file(path, own=self.save_path)
            if moving:
                save_lock.hold(path)
            if path != self.save_path and self.save_path is not None and self._move_save is not None:
                self._move_save(self.save_path, path, self.save_text())
            else:
                self.write_save(path)
        except (KalookiError, OSError) as error:
            if moving:
                save_lock.release(path)
            still = ""
            if self.save_path is not None and path != self.save_path:
                still = f"; the game is still saved to {self.save_path}"
            self.error(f"{error}{still}")
            return
        moved = path != self.save_path
        if moving and self.save_path is not None:
            save_lock.release(self.save_path)
        self.save_path = path
        self.save_failure = None
        if moved:
            self.say_then("Saved; from now on the game is saved after every move to", str(path))
        else:
            self.say_then("Saved to", str(path))

    def save(self) -> bool:
        """Save after a move; False if that failed, which is said (once) but never stops the game."""
        if self.save_path is None or self._write_save is None:
            return True
        if self.unchanged_save is not None:
            self.session.bot_rngs = rng_states(self.rngs)
            if dump_save(self.game, self.session) == self.unchanged_save:
                return True
            self.unchanged_save = None
        try:
            self.write_save(self.save_path)
        except (KalookiError, OSError) as error:
            reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or str(error)
            if reason != self.save_failure:
                self.error(f"could not save to {self.save_path}: {reason}; the game goes on")
            self.save_failure = reason
            return False
        self.save_failure = None
        return True

    def write_save(self, path: Path) -> None:
        assert self._write_save is not None
        self._write_save(path, self.save_text())

    def save_text(self) -> str:
        self.session.bot_rngs = rng_states(self.rngs)
        self.session.saved_at = saved_now()
        return dump_save(self.game, self.session)


def saved_now() -> str:
    """A session's ``saved_at`` for a save written now: what ``kalooki saves`` lists as last played."""
    return datetime.now(UTC).isoformat(timespec="seconds")
