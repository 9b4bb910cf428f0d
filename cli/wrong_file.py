"""What a file given to the wrong command is, and the command that takes it.

``kalooki replay`` wants a log and ``kalooki resume`` a save; given a game script, a variant,
or the other of the two, each says what the file is rather than call it damaged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from kalooki import jsonio
from kalooki.file_kinds import another_kind, game_file_kind, holds, use_it_with, written_file
from kalooki.loader import VARIANT_SUFFIXES
from kalooki.safeio import FileReadError, read_regular_file
from kalooki.shell_words import shell_word
from kalooki.yamlio import YamlDocument, YamlError, load_yaml_file

REPORT_BYTES = 64 * 1024 * 1024
"""The most of a file read to see whether it is a whole ``--json`` report (a big sweep's is megabytes)."""


def what_it_is(path: Path, wanted: Literal["log", "save"], *, hosting: bool = False) -> str | None:
    """For a file not of the ``wanted`` kind: what it is, and the command that uses it (None if unknown).

    ``hosting``: the file was given to ``kalooki host --resume``, so a variant is one to host, not to play.
    """
    from .play import is_script

    kind = game_file_kind(path)
    if kind is not None:
        # A hosted table's save given to resume is refused by resume itself, saying how to reopen it.
        same = kind == wanted or (kind == "table" and wanted == "save")
        return None if same else another_kind(kind, wanted, str(path))
    written = _written_file(path, wanted)
    if written is not None:
        return written
    if is_script(str(path)):
        log_too = " (add --log FILE.jsonl to write its log)" if wanted == "log" else ""
        return another_kind("script", wanted, str(path)) + log_too
    if not _is_a_variant(path):
        return None
    if hosting:
        host_it = use_it_with("host", f"kalooki host {shell_word(str(path))}")
        return f"this is a variant file, not a {wanted}: {host_it}"
    return another_kind("variant", wanted, str(path))


def yaml_already_there(path: Path, shown: str) -> str | None:
    """For a YAML file where a CSV or a report is to be written: what it holds (None: no such file).

    Only kalooki's own inputs end in .yaml (variants, game scripts), and a house-rules file half
    edited may not parse as a variant at all: none of them is an earlier run's output to replace.
    """
    from .play import is_script

    try:
        if path.suffix.lower() not in VARIANT_SUFFIXES or not path.is_file():
            return None
    except OSError:  # a name too long for the system is no file
        return None
    if is_script(str(path)):
        return holds("script", shown)
    if _is_a_variant(path):
        return holds("variant", shown)
    return "already holds YAML, the kind of file kalooki reads (variants, game scripts)"


def _is_a_variant(path: Path) -> bool:
    """A YAML file with a variant's keys, valid or not: one with a mistake in it is no damaged save or log."""
    from kalooki.loader_layers import has_variant_keys

    document: YamlDocument | None
    try:
        document = load_yaml_file(path)
    except YamlError as error:
        document = error.document  # loaded past a mistake it could step over (a duplicate key)
    return document is not None and has_variant_keys(document)


def _written_file(path: Path, wanted: str) -> str | None:
    """What the whole file is when a command wrote it, a report or a sweep folder's file (None: not one,
    or not readable)."""
    try:
        data = jsonio.loads(read_regular_file(path, REPORT_BYTES))
    except (FileReadError, jsonio.JsonInputError):
        return None
    return written_file(data, wanted) if isinstance(data, dict) else None
