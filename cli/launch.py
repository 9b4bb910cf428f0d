"""The ``kalooki`` console script: the command line is loaded inside a guard for Ctrl-C.

Loading it (Typer, rich and every command) takes a few tenths of a second, and a Ctrl-C in that
time would end in Python's traceback of whichever import it landed in: it ends the command quietly
with the status a shell gives an interrupted command, as a Ctrl-C anywhere later does.
"""

from __future__ import annotations


def main() -> None:
    try:
        from .plain_text import write_plainly

        # Before anything is written: an error about the command line needs it as much as a report.
        write_plainly()
        from .app import main as run
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    run()
