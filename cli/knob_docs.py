"""``python -m kalooki.rulebook``: check (exit 1 when stale), rewrite or print the knob reference table of
``docs/variants.md`` (``make docs``). The table is the library's (:mod:`kalooki.knob_reference`); reading
and writing the file and speaking to the terminal are a command's, so they live here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kalooki.knob_reference import knob_reference_markdown, update_readme
from kalooki.safeio import replace_whole

PROG = "python -m kalooki.rulebook"
"""The command's name, as the Makefile, the docs and the table's own marker give it."""


def main(argv: Sequence[str] | None = None) -> int:
    """Check (exit 1 when stale), rewrite or print the knob table of a README."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check-readme", metavar="README", type=Path, help="exit 1 if the knob table is stale")
    mode.add_argument("--write-readme", metavar="README", type=Path, help="rewrite the knob table in place")
    mode.add_argument("--print", action="store_true", help="print the knob table")
    args = parser.parse_args(argv)
    if args.print:
        sys.stdout.write(knob_reference_markdown())
        return 0
    path: Path = args.check_readme or args.write_readme
    try:
        text = path.read_text(encoding="utf-8")
        fresh = update_readme(text)
    except OSError as error:
        print(f"{path}: {error.strerror or error}", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    if args.write_readme:
        try:  # whole or not at all: a README cut short by a full disk would be committed as it is
            replace_whole(path.resolve(), fresh)
        except OSError as error:
            print(f"{path}: {error.strerror or error}", file=sys.stderr)
            return 1
        return 0
    if fresh != text:
        command = f"{PROG} --write-readme {path}"
        print(f"{path}: the knob reference is stale; regenerate it with: {command}", file=sys.stderr)
        return 1
    return 0
