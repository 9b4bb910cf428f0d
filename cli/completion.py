"""Shell completion of the values a person types most: built-in variant names, ``--set`` knobs, bots'
names and the saved games ``kalooki resume`` takes.

Typer installs the completion script (``kalooki --install-completion``); these functions are
the ``autocompletion=`` callbacks of the arguments and options that take them. When one offers
nothing, the shell completes file names.
"""

from __future__ import annotations

import re
from typing import Final

from rich.cells import cell_len, set_cell_size

from kalooki.bots.base import bot_names_unloaded
from kalooki.errors import KalookiError
from kalooki.knob_reference import knob_choices
from kalooki.loader import builtin_variant_names
from kalooki.variant import KNOB_NAMES

_WORD: Final = re.compile(r"[A-Za-z0-9._+-]+")
"""A word offered as it is: the shells insert a completion unquoted, so a save or bot name with a space,
a quote or a shell character is left to the shell's own file names (or to typing)."""

_HELP_UNSAFE: Final = re.compile(r"[^\w ·,:.()'-]")
"""Characters kept out of a completion's help. Typer hands the help to rich, which reads ``[...]`` as markup
(a player named ``[/x]`` raised at TAB), and to zsh, which evaluates it with a backslash left as it is
(a player named ``\\$(cmd)`` ran cmd): a save's players are anyone who joined a hosted table."""

HELP_WIDTH: Final = 70
"""The longest help shown: fish takes every line of Typer's rendering, wrapped at the terminal's width
(80 columns when piped), as a candidate of its own."""


def complete_variant(incomplete: str) -> list[str]:
    """The built-in variants that start with what was typed (with none, the shell completes file names)."""
    return [name for name in builtin_variant_names() if name.startswith(incomplete)]


def complete_knob(incomplete: str) -> list[str]:
    """``KEY=`` for the knobs that start with what was typed; after the ``=``, the knob's values."""
    key, equals, value = incomplete.partition("=")
    if not equals:
        return [f"{name}=" for name in KNOB_NAMES if name.startswith(key)]
    if key not in KNOB_NAMES:
        return []
    return [f"{key}={choice}" for choice in knob_choices(key) if choice.startswith(value)]


def complete_bots(incomplete: str) -> list[str]:
    """``--bots``: the bots (plug-ins too) whose names start with what was typed after the last comma,
    each after the names typed before it (``greedy,ra`` gives ``greedy,random``)."""
    typed, comma, last = incomplete.rpartition(",")
    # The plug-ins' names only: importing each on every TAB would make a slow or noisy one slow the shell.
    names = [name for name in bot_names_unloaded() if _WORD.fullmatch(name)]
    return [f"{typed}{comma}{name}" for name in names if name.startswith(last)]


def completion_help(text: str) -> str:
    """``text`` as a completion's help: one line of letters, digits and plain punctuation, at most
    :data:`HELP_WIDTH` columns (a wide letter takes two)."""
    safe = _HELP_UNSAFE.sub("?", " ".join(text.split()))
    return safe if cell_len(safe) <= HELP_WIDTH else set_cell_size(safe, HELP_WIDTH - 1) + "…"


def complete_saved_game(incomplete: str) -> list[tuple[str, str]]:
    """``kalooki resume``: the saved games' numbers as ``kalooki saves`` lists them, each with its line
    there as help, and the names of the saves in the saves folder (``resume`` takes them from any folder);
    nothing (so the shell completes file names) when none starts with what was typed, or the saves cannot
    be listed. It reads no more than ``kalooki saves`` does."""
    from .saves import SaveEntry, all_saves, saves_dir
    from .saves_commands import describe, shown_path

    try:
        entries = all_saves()
        folder = saves_dir()
        offered: list[tuple[str, SaveEntry]] = []
        if incomplete.isdigit() or not incomplete:
            offered = [(str(number), entry) for number, entry in enumerate(entries, start=1)]
        if incomplete:  # named only once something is typed: alone, the numbers stand for them
            # A save elsewhere is shown by its whole path, which the shell's own file names complete.
            offered += [
                (entry.path.name, entry)
                for entry in entries
                if shown_path(entry.path, folder) == entry.path.name and _WORD.fullmatch(entry.path.name)
            ]
        return [
            (word, completion_help(describe(entry))) for word, entry in offered if word.startswith(incomplete)
        ]
    except (KalookiError, OSError):  # a completion never ends in a traceback
        return []
