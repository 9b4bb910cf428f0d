"""The ``kalooki`` command: a Typer app that each command module adds its commands to.

A command module is a file in ``cli/`` with a ``register(app: typer.Typer) -> None``
function. Adding one is one line in :data:`COMMAND_MODULES`. Modules are imported
when the app is built, so ``import kalooki`` never pulls in the CLI.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import Annotated

import typer

from kalooki import __version__

from .help_format import use_plain_help

COMMAND_MODULES: tuple[str, ...] = (
    "variant_commands",  # validate, variants list/show/diff, rules, schema
    "new_variant",  # new
    "play",  # play, resume
    "saves_commands",  # saves
    "replay_commands",  # replay
    "simulate",  # simulate
    "net_commands",  # host, join
    "sweep",  # sweep
)
"""Modules of this package (``cli/<name>.py``) whose ``register(app)`` adds their commands, in help order."""


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="kalooki",
        help="Kalooki, the rummy game: house rules as YAML variant files, validated, explained and played.",
        no_args_is_help=True,
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    app.callback()(_main_options)
    for name in COMMAND_MODULES:
        module = importlib.import_module(f".{name}", __package__)
        module.register(app)
    use_plain_help(app)
    return app


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"kalooki {__version__}")
        raise typer.Exit()


def _main_options(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_print_version, is_eager=True),
    ] = False,
) -> None:
    """Kalooki, the rummy game: house rules as YAML variant files, validated, explained and played."""


app = build_app()


OUTPUT_FULL: frozenset[int] = frozenset(
    {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG, errno.EIO}
)
"""What writing standard output can meet that is no fault of kalooki's: a full disk or quota, a file
over its size limit, a device error. (A closed pipe, EPIPE, is Click's to handle: exit 1 quietly.)"""


def main() -> None:
    from .output import whole_writes

    whole_writes()
    try:
        app(prog_name="kalooki")
    except OSError as error:
        # Files the commands write turn their errors into their own lines: what reaches here is
        # standard output (``kalooki rules > /full/disk/rules.md``).
        if error.errno not in OUTPUT_FULL:
            raise
        # What is still buffered would fail again when Python flushes it at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        typer.echo(f"kalooki: cannot write the output: {error.strerror or error}", err=True)
        raise SystemExit(1) from None
