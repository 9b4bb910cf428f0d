"""``--help`` that a person reads: metavars (``KEY=VALUE``, ``NAME``), never Python types (``<list[str]>``).

Typer writes each argument's Python type after its name (``PATH <list[str]>``) and braces
round a required one in the usage line (``{PATH}...``). :class:`PlainCommand` writes them as
click does (``PATH...``); every command of the app uses it (see :func:`use_plain_help`).
"""

from __future__ import annotations

import re
from typing import Any

import typer
from typer.core import TyperCommand

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


class PlainCommand(TyperCommand):
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        given = list(args)
        try:
            return super().parse_args(ctx, args)
        except Exception as error:
            # `kalooki play --variant ours.yaml`: the variant is an argument, and saying so beats
            # "No such option".
            argument = _variant_argument(self, ctx)
            if getattr(error, "option_name", None) == "--variant" and argument is not None:
                value = _given_after(given, "--variant") or argument.metavar
                example = f"{ctx.command_path} {value}"
                error.message = f"No such option: --variant: the variant is the first argument ({example})"  # type: ignore[attr-defined]
            raise

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
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name != "argument":
                pieces.extend(param.get_usage_pieces(ctx))
                continue
            name = _argument_name(param)
            pieces.append(name if param.required else f"[{name}]")
        return pieces


def use_plain_help(app: typer.Typer) -> None:
    """Give every command of ``app`` (and of its sub-apps) the plain help."""
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):
            command.cls = PlainCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            use_plain_help(group.typer_instance)
