"""The kalooki JSON files a command may be given by mistake: a saved game, a game log, a report.

A save and a log are JSON, which YAML reads too, so a variant command given one would report a
screen of unknown keys ("format: unknown key"), or a YAML error on a log's second line, or a
file too big: none says what the file is. Both name their format among their first keys, so a
peek at the first bytes tells them apart from anything else.

The reports ``--json`` writes (``kalooki simulate``, ``simulate --compare``, ``sweep``) and the files
of a ``sweep --out`` folder name no kalooki format; :func:`written_file` knows them by their top-level
keys, once the file is read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from kalooki import jsonio
from kalooki.safeio import FileReadError, peek_regular_file, read_regular_file
from kalooki.shell_words import shell_word

SAVE_FORMAT = "kalooki-save"
LOG_FORMAT = "kalooki-log"
PEEK_BYTES = 4096
MAX_SAVE_BYTES = 4 * 1024 * 1024
"""A real save is a few tens of kilobytes; anything far bigger is not one of ours."""

_FORMAT_KEY = re.compile(rb'\A\s*\{[^{}]*?"format"\s*:\s*"(kalooki-save|kalooki-log)"')
"""The ``format`` key among the first keys of the top object: a save's first, a log record's second."""


def json_file_format(path: str | Path) -> str | None:
    """``SAVE_FORMAT`` or ``LOG_FORMAT`` when the regular file at ``path`` opens as one does; else None."""
    head = peek_regular_file(path, PEEK_BYTES)  # a FIFO or a device is never peeked at: it may not end
    if head is None:
        return None
    found = _FORMAT_KEY.match(head.removeprefix(b"\xef\xbb\xbf"))
    return found.group(1).decode("ascii") if found else None


FileKind = Literal["save", "table", "log", "script", "variant"]
"""``table``: a hosted table's save, which ``kalooki resume`` refuses (it would play the people's seats
with bots); only ``kalooki host --resume`` reopens it."""

_KINDS: dict[FileKind, tuple[str, str, str]] = {
    "save": ("a saved game", "continue", "kalooki resume"),
    "table": ("a hosted table's save", "reopen", "kalooki host --resume"),
    "log": ("a game log", "replay", "kalooki replay"),
    "script": ("a game script", "run", "kalooki play"),
    "variant": ("a variant file", "play", "kalooki play"),
}
"""What each kind of file is called, what one does with it, and the command that does it."""


def use_it_with(verb: str, command: str) -> str:
    """The one wording of every hint at the command to use: ``run it with `kalooki play game.yaml```."""
    return f"{verb} it with `{command}`"


def another_kind(found: FileKind, wanted: FileKind, shown: str) -> str:
    """For a file of kind ``found`` given where a ``wanted`` was: what it is and the command that takes it."""
    name, verb, command = _KINDS[found]
    return f"this is {name}, not a {wanted}: {use_it_with(verb, f'{command} {shell_word(shown)}')}"


def another_kind_of_base(found: FileKind, shown: str, key: str) -> str:
    """For a file of kind ``found`` named where a variant is extended (``key``: ``extends``, or a game
    script's ``variant``): what it is, what ``key`` takes, and the command that takes the file."""
    name, verb, command = _KINDS[found]
    return (
        f"{shown} is {name}, not a variant file: {key} takes a built-in variant's name or a variant file; "
        + use_it_with(verb, f"{command} {shell_word(shown)}")
    )


def game_file_kind(path: str | Path) -> FileKind | None:
    """ "save", "table" or "log" for a file that is one (read by its format field), else None."""
    found = json_file_format(path)
    if found == SAVE_FORMAT:
        return "table" if hosted_save(path) else "save"
    return "log" if found == LOG_FORMAT else None


def hosted_save(path: str | Path) -> bool:
    """Whether the save at ``path`` is a hosted table's: ``kalooki host`` writes its seats in the session.

    ``kalooki host --resume`` reopens it for every person to rejoin; ``kalooki resume`` would play the
    other people's seats with bots and write the save back without its table, for good.
    """
    return hosted_session(saved_session(path))


def hosted_session(session: Mapping[str, Any]) -> bool:
    """Whether a save's ``session`` object, as written, is a hosted table's: it holds the table's seats."""
    return isinstance(session.get("table"), dict)


def saved_session(path: str | Path) -> dict[str, Any]:
    """The ``session`` object of the save in ``path`` as written, with what the library's
    :class:`~kalooki.savegame.Session` leaves out (a hosted table's seats, a hot-seat game's people);
    empty when there is none to read."""
    try:
        data = jsonio.loads(read_regular_file(path, MAX_SAVE_BYTES))
    except (FileReadError, jsonio.JsonInputError):
        return {}
    session = data.get("session") if isinstance(data, dict) else None
    return session if isinstance(session, dict) else {}


def holds(kind: FileKind, shown: str) -> str:
    """For a file of ``kind`` where a file is to be written: what it holds and the command that takes it,
    ``already holds a saved game (continue it with `kalooki resume x.json`)``."""
    name, verb, command = _KINDS[kind]
    return f"already holds {name} ({use_it_with(verb, f'{command} {shell_word(shown)}')})"


def already_holds(path: str | Path, shown: str) -> str | None:
    """For a save or a log where a file is to be written: :func:`holds` (None for any other file)."""
    kind = game_file_kind(path)
    return None if kind is None else holds(kind, shown)


def not_a_variant_message(path: str | Path, shown: str) -> str | None:
    """For a save or a log given as a variant: what it is and the command that takes it (None otherwise)."""
    kind = game_file_kind(path)
    return None if kind is None else another_kind(kind, "variant", shown)


_REPORT_KEYS = (
    (("rules", "games", "seat_hand_wins"), "kalooki simulate --json"),
    (("players", "hands", "totals", "game_over"), "kalooki play SCRIPT --json"),
    (("a", "b", "differences"), "kalooki simulate --compare ... --json"),
    (("grid", "baseline", "cells"), "kalooki sweep --json"),
)
"""Top-level keys each report has (and a variant never has), and the command that writes it."""


def a_report(command: str, wanted: str) -> str:
    """For a ``--json`` report given where a ``wanted`` file was: what it is (no command reads one back)."""
    return f"this is the report `{command}` writes, not a {wanted}; no command reads it back"


def report_command(data: Mapping[str, Any]) -> str | None:
    """The command whose ``--json`` report ``data`` is (None when it is none of them)."""
    for keys, command in _REPORT_KEYS:
        if all(key in data for key in keys):
            return command
    return None


_SWEEP_FILES = (
    (("format", "bots", "games", "max_turns", "cells"), "the record of a sweep"),
    (("knobs", "rules", "records"), "a cell of a sweep"),
)
"""Top-level keys each file of a ``kalooki sweep --out`` folder has (and a variant never has), and what
the file is: ``sweep.json``, what the sweep plays, and each of ``cells/``, a cell's played games."""


def is_script_data(data: object) -> bool:
    """Whether a loaded YAML document is a game script: a mapping with ``hands``, with a list of
    ``players``, or with a ``variant`` and no variant file's key (a ``--json`` report counts its ``hands``
    too, and is no script)."""
    if not isinstance(data, Mapping):
        return False
    # In any case: a script whose 'Players:' and 'Hands:' were capitalised was read as a variant, and told
    # "unknown key 'Players'; did you mean 'max_players'?" (a knob), not 'players'.
    keys = {key.lower(): key for key in data if isinstance(key, str)}
    return (
        "hands" in keys or isinstance(data.get(keys.get("players")), list) or _script_lacking_players(keys)
    ) and written_file(data, "script") is None


def _script_lacking_players(keys: Mapping[str, str]) -> bool:
    """A script's ``variant`` beside no variant file's key and a script's other key, or a near miss of one: a
    script whose ``players`` is misspelt (``player:``) or left out. Read as a variant, it was told "variant:
    unknown key 'variant'; did you mean 'extends'?" and "player: ... did you mean 'max_players'?". A
    variant file with ``variant:`` written for ``extends:`` holds a knob, a description or a knob's near
    miss (``opening_treshold``), and is read as one, its misspellings suggested."""
    # Imported here: the loader's keys module reads this one's kinds of file, and the scripts' module loads
    # variants through it.
    from kalooki.loader_keys import VARIANT_KEYS

    if "variant" not in keys or not VARIANT_KEYS.isdisjoint(keys):
        return False
    from kalooki.script import GameScript
    from kalooki.suggestions import suggest

    script_keys = GameScript.model_fields.keys()
    known = [*script_keys, *VARIANT_KEYS]
    return any(key != "variant" and suggest(key, known) in script_keys for key in keys)


def written_file(data: Mapping[str, Any], wanted: str) -> str | None:
    """For a file a command wrote (a ``--json`` report, a sweep folder's file) given where a ``wanted``
    file was: what it is, and what to give instead (None when it is none of them)."""
    command = report_command(data)
    if command is not None:
        return a_report(command, wanted)
    for keys, what in _SWEEP_FILES:
        if all(key in data for key in keys):
            if wanted == "variant":
                instead = "give the variant the sweep was run with (its name or file)"
            else:
                instead = "the sweep reads it back when run again with this --out folder"
            return f"this is {what} that `kalooki sweep --out` keeps in its folder, not a {wanted}: {instead}"
    return None
