"""``--help`` that a person reads: metavars (``KEY=VALUE``, ``NAME``), never Python types (``<list[str]>``).

Typer writes each argument's Python type after its name (``PATH <list[str]>``) and braces
round a required one in the usage line (``{PATH}...``). :class:`PlainCommand` writes them as
click does (``PATH...``); every command of the app uses it (see :func:`use_plain_help`).
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.models import DefaultPlaceholder

from kalooki.shell_words import shell_word
from kalooki.text import escape_controls

# Typer ships its own copy of click (or depends on click, in older releases): the click
# objects are used here only through their documented attributes, so they are typed Any.
Parameter = Any

_TYPE = re.compile(r" <([^>]*)>$")


def _argument_name(param: Parameter) -> str:
    name = param.metavar or (param.name or "").upper()
    return f"{name}..." if param.nargs != 1 else name


def _option_names(param: Parameter, written: str) -> str:
    """``--format <text|json>`` becomes ``--format [text|json]``; a bare type becomes the option's name."""
    match = _TYPE.search(written)
    if match is None:
        return written
    shown = match.group(1)
    if "|" in shown:
        label = f"[{shown}]"
    elif shown in ("int", "float"):
        label = "N"
    else:
        label = (param.name or "value").upper()
    return written[: match.start()] + " " + label


def _variant_argument(command: Any, ctx: Any) -> Parameter | None:
    """The command's positional argument for a variant (``VARIANT|PATH``, ``NAME|PATH``), if any."""
    for param in command.get_params(ctx):
        metavar = param.metavar or ""
        if param.param_type_name == "argument" and ("VARIANT" in metavar or "PATH" in metavar):
            return param
    return None


def _given_after(args: list[str], option: str) -> str | None:
    """The value written after ``option`` (``--variant ours.yaml`` or ``--variant=ours.yaml``), if any."""
    for index, arg in enumerate(args):
        if arg.startswith(f"{option}="):
            return arg.split("=", 1)[1] or None
        if arg == option and index + 1 < len(args) and not args[index + 1].startswith("-"):
            return args[index + 1]
    return None


def _spaced_key_value(command: Any, ctx: Any, args: list[str], extra: str) -> str | None:
    """``--set jokers 4`` (a space for the ``=``), which click told only "Got unexpected extra argument
    (4)": how to write it, for the first option taking ``KEY=VALUE`` given a key alone and then a word
    that click found extra (``extra``: the words it names, between spaces)."""
    takes_key_value = {
        name for param in command.get_params(ctx) if "=" in str(param.metavar or "") for name in param.opts
    }
    extras = set(extra.split(" "))
    for index, arg in enumerate(args[:-2]):
        key, value = args[index + 1], args[index + 2]
        if arg in takes_key_value and "=" not in key and value in extras and not value.startswith("-"):
            return escape_controls(f"write {arg} {key}={value}")
    return None


CLICK_ERROR: type[Exception] = next(
    kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException"
)
"""The class of every error click shows as ``Error: ...`` with exit 2 (usage) or 1: the click inside
Typer's own release, or the click package older Typer releases use."""

NO_ARGS_IS_HELP: type[Exception] | None = getattr(
    sys.modules[CLICK_ERROR.__module__], "NoArgsIsHelpError", None
)
"""What that click raises for a group run with no command (its message is the group's help); None in
releases before 8.2, which printed the help themselves."""


@contextmanager
def _spelled_usage_errors() -> Iterator[None]:
    """Click's usage errors quote what was typed (``No such option: --x``, ``'abc' is not a valid
    integer``): each control character and byte that was not UTF-8 in them is spelled out, as every
    other message of kalooki's does, so an escape sequence typed or pasted into an argument reaches
    the terminal as text (``\\x1b[2J``), not as a command that clears the screen, and a byte 0xFF
    shows as ``\\xff``, not as Python's ``\\udcff``."""
    try:
        yield
    except CLICK_ERROR as error:
        # `kalooki` alone: the "error" is the group's whole help, kalooki's own lines, not what was typed.
        if NO_ARGS_IS_HELP is None or not isinstance(error, NO_ARGS_IS_HELP):
            error.message = escape_controls(error.message)  # type: ignore[attr-defined]
        raise


NARROWEST_HELP = 20
"""The fewest columns help is wrapped to: at fewer, lines of a word or two would read worse than
the terminal's own wrapping."""


CONTEXT: Any = TyperCommand.context_class
"""The click Context class of Typer's click (see :data:`Parameter`)."""


class PlainContext(CONTEXT):  # type: ignore[misc]
    """Help wrapped at the terminal's width where it is under 50 columns.

    click wraps help to at least 50 columns whatever the terminal's width, and a 40-column terminal
    then broke the lines again wherever they reached its edge, inside words (``b`` / ``ots``)."""

    def make_formatter(self) -> Any:
        formatter = super().make_formatter()
        columns = shutil.get_terminal_size().columns
        # A width set (the context's, or click's FORCED_WIDTH, as its test runner sets) is kept.
        forced = getattr(sys.modules[type(formatter).__module__], "FORCED_WIDTH", None)
        if self.terminal_width is None and forced is None and columns - 2 < formatter.width:
            formatter.width = max(columns - 2, NARROWEST_HELP)
        return formatter


class PlainCommand(TyperCommand):
    context_class = PlainContext

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        given = list(args)
        try:
            with _spelled_usage_errors():
                return super().parse_args(ctx, args)
        except Exception as error:
            # `kalooki play --variant ours.yaml`: the variant is an argument, and saying so beats
            # "No such option".
            argument = _variant_argument(self, ctx)
            if getattr(error, "option_name", None) == "--variant" and argument is not None:
                value = _given_after(given, "--variant")
                shown = argument.metavar if value is None else shell_word(value)
                example = f"{escape_controls(ctx.command_path)} {shown}"
                error.message = f"No such option: --variant: the variant is the first argument ({example})"  # type: ignore[attr-defined]
            said = str(getattr(error, "message", ""))
            extra = re.fullmatch(r"Got unexpected extra argument\S* \((.*)\)", said, re.DOTALL)
            spaced = extra and _spaced_key_value(self, ctx, given, extra.group(1))
            if spaced:
                error.message += f": {spaced}"  # type: ignore[attr-defined]
            raise

    def invoke(self, ctx: Any) -> Any:
        # A command's own checks raise usage errors too (``--bots`` naming no bot).
        with _spelled_usage_errors():
            return super().invoke(ctx)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            names, text = record
            if param.param_type_name == "argument":
                arguments.append((_argument_name(param), text))
            else:
                options.append((_option_names(param, names), text))
        # click's names column is up to 30 wide; on a narrow terminal that left a word or two a line
        # for the help beside it: a longer name goes on a line of its own, its help under it.
        widest = 30 if formatter.width >= 48 else formatter.width // 3
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments, col_max=widest)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options, col_max=widest)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name != "argument":
                pieces.extend(param.get_usage_pieces(ctx))
                continue
            name = _argument_name(param)
            pieces.append(name if param.required else f"[{name}]")
        return pieces


class PlainGroup(TyperGroup):
    """A group whose own usage errors (``No such command 'x'``) are spelled as :class:`PlainCommand`'s."""

    context_class = PlainContext

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        with _spelled_usage_errors():
            return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if escape_controls(name) != name and self.get_command(ctx, name) is None:
            # click quotes the name with repr(), which writes a byte 0xFF as '\\udcff'.
            ctx.fail(f"No such command '{escape_controls(name)}'.")
        with _spelled_usage_errors():
            return super().resolve_command(ctx, args)


def use_plain_help(app: typer.Typer) -> None:
    """Give ``app``, every command of it and its sub-apps the plain help and spelled usage errors."""
    if isinstance(app.info.cls, DefaultPlaceholder) or app.info.cls in (None, TyperGroup):
        app.info.cls = PlainGroup
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):
            command.cls = PlainCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            use_plain_help(group.typer_instance)
