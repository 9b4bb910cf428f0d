"""Commands about variants: ``validate``, ``variants list|show|diff``, ``rules`` and ``schema``."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kalooki.loader import (
    SetOptions,
    VariantError,
    builtin_variant_names,
    load_variant,
    parse_set_options,
    resolve_variant,
    variant_differences,
    variant_to_yaml,
    yaml_scalar,
)
from kalooki.rulebook import render_rulebook
from kalooki.schema import check_schema, render_schema, schema_names, write_schema
from kalooki.variant import Variant
from kalooki.yamlio import Diagnostic

from .common import SetOption, cli_errors, fail, print_error

VariantArgument = Annotated[
    str, typer.Argument(metavar="NAME|PATH", help="A built-in variant name, or the path of a variant file.")
]


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def validate(
    paths: Annotated[
        list[str], typer.Argument(metavar="PATH", help="Variant files (or built-in names) to check.")
    ],
    set_: SetOption = None,
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--format", help="text: one line per file or error; json: machine-readable diagnostics."
        ),
    ] = OutputFormat.text,
) -> None:
    """Check variant files: exit 0 when all are valid, 1 when any is not.

    Each error is one line FILE:LINE:COL: KEY: message.
    """
    diagnostics: list[Diagnostic] = []
    files: list[dict[str, Any]] = []
    try:
        overrides: SetOptions | tuple[()] = parse_set_options(set_) if set_ else ()
    except VariantError as error:
        # Bad --set options would make every file report the same errors: report them once.
        diagnostics.extend(error.diagnostics)
    else:
        for path in paths:
            try:
                load_variant(path, overrides)
            except VariantError as error:
                files.append({"path": path, "valid": False})
                diagnostics.extend(error.diagnostics)
                if output is OutputFormat.text:
                    print_error(str(error))
            else:
                files.append({"path": path, "valid": True})
                if output is OutputFormat.text:
                    typer.echo(f"{path}: ok")
    if output is OutputFormat.json:
        report = {
            "valid": not diagnostics,
            "files": files,
            "diagnostics": [item.to_dict() for item in diagnostics],
        }
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
    elif diagnostics and not files:
        print_error("\n".join(str(item) for item in diagnostics))
    if diagnostics:
        raise typer.Exit(1)


def _headline(variant: Variant) -> dict[str, str]:
    if variant.scoring == "winner_collects":
        scoring = f"winner, to {variant.goal_score}"
    elif variant.elimination:
        scoring = f"penalty, out at {variant.goal_score}"
    else:
        scoring = f"penalty, to {variant.goal_score}"
    players = str(variant.min_players)
    if variant.max_players != variant.min_players:
        players += f"-{variant.max_players}"
    return {
        "players": players,
        "open": str(variant.opening_threshold),
        "runs": f"{variant.run_minimum}+",
        "joker": str(variant.joker_penalty),
        "scoring": scoring,
    }


def list_variants() -> None:
    """List the built-in variants with their headline knobs."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_lines=True)
    # The description goes under the name so that the table still fits an 80-column terminal.
    table.add_column("variant", ratio=1, min_width=22)
    columns = list(_headline(Variant()))
    for column in columns:
        table.add_column(column, no_wrap=True)
    with cli_errors():
        for name in builtin_variant_names():
            variant = load_variant(name)
            headline = _headline(variant)
            label = Text(name, style="bold")
            if variant.description:
                label.append("\n" + variant.description, style="dim")
            table.add_row(label, *(headline[column] for column in columns))
    Console().print(table)


def show(
    variant: VariantArgument,
    set_: SetOption = None,
    origin: Annotated[
        bool, typer.Option("--origin", help="Say which file or --set gave each value.")
    ] = False,
) -> None:
    """Print the fully resolved variant as YAML (every knob, bases merged)."""
    with cli_errors():
        resolved = resolve_variant(variant, set_ or ())
    typer.echo(variant_to_yaml(resolved.variant, resolved.origins if origin else None), nl=False)


def diff(
    first: Annotated[str, typer.Argument(metavar="A", help="A built-in variant name or a variant file.")],
    second: Annotated[str, typer.Argument(metavar="B", help="Another one.")],
) -> None:
    """Show the knobs on which two variants differ, side by side."""
    with cli_errors():
        left, right = load_variant(first), load_variant(second)
    differences = variant_differences(left, right)
    if not differences:
        typer.echo(f"{first} and {second} have the same rules")
        return
    table = Table()
    table.add_column("knob", style="bold", no_wrap=True)
    table.add_column(first)
    table.add_column(second)
    for knob, a, b in differences:
        table.add_row(knob, yaml_scalar(a), yaml_scalar(b))
    Console().print(table)


def rules(variant: VariantArgument, set_: SetOption = None) -> None:
    """Print the variant's rules as a Markdown rulebook."""
    with cli_errors():
        resolved = load_variant(variant, set_ or ())
    typer.echo(render_rulebook(resolved), nl=False)


def schema(
    name: Annotated[
        str | None,
        typer.Argument(
            help=f"Which schema: {', '.join(schema_names())}. Printing defaults to variant; --check and "
            "--write default to all of them.",
            show_default=False,
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Exit 1 if a checked-in schema is out of date with its model.")
    ] = False,
    write: Annotated[
        bool, typer.Option("--write", help="Rewrite the checked-in schema(s) (in a source checkout).")
    ] = False,
) -> None:
    """Print a JSON Schema (of variant files by default), or check or rewrite the checked-in copies."""
    if name is not None and name not in schema_names():
        raise typer.BadParameter(f"unknown schema '{name}'; choose from {', '.join(schema_names())}")
    if check and write:
        raise typer.BadParameter("give --check or --write, not both")
    names = [name] if name is not None else schema_names()
    with cli_errors():
        if check:
            problems = [problem for problem in map(check_schema, names) if problem]
            if problems:
                fail("\n".join(problems))
            for each in names:
                typer.echo(f"{each} schema: up to date")
        elif write:
            for each in names:
                typer.echo(f"wrote {write_schema(each)}")
        else:
            typer.echo(render_schema(name or "variant"), nl=False)


def register(app: typer.Typer) -> None:
    app.command()(validate)
    variants = typer.Typer(help="List, show and compare variants.", no_args_is_help=True)
    variants.command("list")(list_variants)
    variants.command()(show)
    variants.command()(diff)
    app.add_typer(variants, name="variants")
    app.command()(rules)
    app.command()(schema)
