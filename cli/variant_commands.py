"""Commands about variants: ``validate``, ``variants list|show|diff``, ``rules`` and ``schema``."""

from __future__ import annotations

import json
import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console, Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from kalooki.loader import (
    VariantError,
    builtin_variant_names,
    load_variant,
    load_variant_text,
    resolve_variant,
)
from kalooki.provenance import render_provenance
from kalooki.rulebook import render_rulebook
from kalooki.safeio import FileTooBigError, read_capped
from kalooki.schema import check_schema, render_schema, schema_names, write_schema
from kalooki.set_options import SetOptions, parse_set_options
from kalooki.shell_words import shell_word
from kalooki.text import escape_controls
from kalooki.variant import Variant
from kalooki.variant_changes import builtin_name_warning
from kalooki.variant_writer import variant_differences, variant_to_yaml, yaml_scalar
from kalooki.yamlio import MAX_BYTES, Diagnostic

from .common import SetOption, choice, cli_errors, fail, load_each, print_error, warn_of_builtin_name
from .completion import complete_knob, complete_variant
from .help_format import PlainGroup
from .narrow import natural_width
from .output import report_console, writes_to_terminal
from .pager import page

VariantArgument = Annotated[
    str,
    typer.Argument(
        metavar="NAME|PATH",
        help="A built-in variant name, or the path of a variant file.",
        autocompletion=complete_variant,
    ),
]


STANDARD_INPUT = "-"
"""validate's name for standard input, as other tools take it."""
STANDARD_INPUT_NAME = "<stdin>"
STDIN_FILENO = 0  # not sys.stdin.fileno(): sys.stdin is None when kalooki starts with it closed


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def validate(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH",
            help="Variant files (or built-in names) to check; - reads one from standard input.",
            autocompletion=complete_variant,
        ),
    ],
    set_: SetOption = None,
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            parser=choice(OutputFormat),
            help="text: one line per file or error; json: machine-readable diagnostics.",
        ),
    ] = OutputFormat.text,
) -> None:
    """Check variant files: exit 0 when all are valid, 1 when any is not.

    Each error is one line FILE:LINE:COL: KEY: message. With bad --set options, their errors
    are reported once and every file is still checked on its own (and none is ok).
    """
    text = output is OutputFormat.text
    diagnostics: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    files: list[dict[str, Any]] = []
    overrides: SetOptions | tuple[()] = ()
    try:
        overrides = parse_set_options(set_) if set_ else ()
    except VariantError as error:
        # Bad --set options would make every file report the same errors: report them once.
        diagnostics.extend(error.diagnostics)
        if text:
            print_error(str(error))
    bad_options = bool(diagnostics)
    for path in paths:
        # Standard input is named as its diagnostics name it, so the report's files and errors match.
        shown = escape_controls(STANDARD_INPUT_NAME if path == STANDARD_INPUT else path)
        try:
            if path == STANDARD_INPUT:
                _load_standard_input(overrides)
            elif (warning := builtin_name_warning(resolve_variant(path, overrides))) is not None:
                warnings.append(warning)
                if text:
                    print_error(str(warning))
        except VariantError as error:
            files.append({"path": shown, "valid": False})
            diagnostics.extend(error.diagnostics)
            if text:
                print_error(str(error))
        else:
            files.append({"path": shown, "valid": not bad_options})
            if text and not bad_options:
                typer.echo(f"{shown}: ok")  # escaped: a file's name may hold an escape sequence
    if not text:
        report = {
            "valid": not diagnostics,
            "files": files,
            "diagnostics": [item.to_dict() for item in diagnostics],
            "warnings": [item.to_dict() for item in warnings],
        }
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
    if diagnostics:
        raise typer.Exit(1)


def _load_standard_input(overrides: SetOptions | tuple[()]) -> None:
    """Load the variant on standard input (``-``), named ``<stdin>``; its ``extends`` paths are relative
    to the working directory. Read straight from the descriptor, so a closed input is said, not raised."""
    try:
        raw = read_capped(STDIN_FILENO, MAX_BYTES)
    except OSError as error:
        problem = f"cannot read standard input: {error.strerror or error}"
        raise VariantError([Diagnostic(STANDARD_INPUT_NAME, 0, 0, "", problem)]) from None
    except FileTooBigError as error:
        raise VariantError([Diagnostic(STANDARD_INPUT_NAME, 1, 1, "", str(error))]) from None
    load_variant_text(raw, STANDARD_INPUT_NAME, overrides=overrides)


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
    columns = ["variant", *_headline(Variant())]
    rows: list[tuple[dict[str, str], str]] = []
    with cli_errors():
        for name in builtin_variant_names():
            variant = load_variant(name)
            rows.append(({"variant": name, **_headline(variant)}, variant.description))
    # Rich tables cannot span columns, so each row is a grid of the name and the headline knobs
    # (the same widths in every row and in the header) over the description at full width: that
    # fits an 80-column terminal without squeezing the description into the name's column.
    widths = {column: max(len(column), *(len(cells[column]) for cells, _ in rows)) for column in columns}

    def line(cells: list[Text]) -> Table:
        grid = Table.grid(padding=(0, 2))
        for column in columns:
            grid.add_column(width=widths[column], no_wrap=True)
        grid.add_row(*cells)
        return grid

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_lines=True)
    table.add_column(line([Text(column, style="bold") for column in columns]))
    for cells, description in rows:
        first = line([Text(cells[column], style="bold" if column == "variant" else "") for column in columns])
        table.add_row(
            Group(first, Padding(Text(description, style="dim"), (0, 0, 0, 2))) if description else first
        )
    console = report_console()
    # The names and headline knobs need their widths, the gaps between them and the table's padding.
    if sum(widths.values()) + 2 * (len(columns) - 1) + 2 <= console.width:
        console.print(table)
        return
    # Squeezed, the columns cut the names to "house-ru…": each variant is then its name on a line of
    # its own, its headline knobs and its description below it, wrapped.
    for cells, description in rows:
        console.print(Text(cells["variant"], style="bold"))
        knobs = " · ".join(f"{column} {cells[column]}" for column in columns[1:-1])
        console.print(Padding(Text(knobs), (0, 0, 0, 2)))
        console.print(Padding(Text(f"scoring: {cells['scoring']}"), (0, 0, 0, 2)))
        if description:
            console.print(Padding(Text(description, style="dim"), (0, 0, 0, 2)))


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
    first: Annotated[
        str,
        typer.Argument(
            metavar="A", help="A built-in variant name or a variant file.", autocompletion=complete_variant
        ),
    ],
    second: Annotated[str, typer.Argument(metavar="B", help="Another one.", autocompletion=complete_variant)],
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="KEY=VALUE",
            help="Override one knob of B, e.g. --set jokers=4 (repeatable); "
            "'kalooki variants diff classic classic --set jokers=4' shows what the change does.",
            show_default=False,
            autocompletion=complete_knob,
        ),
    ] = None,
    set_a: Annotated[
        list[str] | None,
        typer.Option(
            "--set-a",
            metavar="KEY=VALUE",
            help="Override one knob of A (repeatable).",
            show_default=False,
            autocompletion=complete_knob,
        ),
    ] = None,
) -> None:
    """Show the knobs on which two variants differ, side by side (A, then B)."""
    with cli_errors():
        left, right = load_each(((first, set_a, "--set-a"), (second, set_, "--set")))
    # Names as typed, which may be files' names with escape sequences: spelled out, as in a diagnostic.
    # Each with the knobs set on it, not the option that set them: "classic (jokers=3)".
    label_a, label_b = escape_controls(set_label(first, set_a)), escape_controls(set_label(second, set_))
    differences = variant_differences(left, right)
    if not differences:
        typer.echo(f"{label_a} and {label_b} have the same rules")
        return
    table = Table()
    table.add_column("knob", style="bold", no_wrap=True)
    # As Text: a header's string is read as markup, and '--set description=[/]' stopped the table.
    table.add_column(Text(label_a))
    table.add_column(Text(label_b))
    for knob, a, b in differences:
        table.add_row(knob, Text(yaml_scalar(a)), Text(yaml_scalar(b)))
    console = report_console()
    if natural_width(table) <= console.width:
        console.print(table)
        return
    # Squeezed, the columns cut the values ("resh…" beside "reshu…"): a line a knob instead, whole.
    console.print(Text(f"{label_a} → {label_b}", style="bold"))
    for knob, a, b in differences:
        line = Text.assemble((knob, "bold"), f": {yaml_scalar(a)} → {yaml_scalar(b)}")
        console.print(Padding(line, (0, 0, 0, 2)))


def set_label(name: str, options: list[str] | None) -> str:
    """A variant's name as typed, with the knobs set on it for a diff, if any: ``classic (jokers=3)``."""
    return f"{name} ({', '.join(options)})" if options else name


def rules(
    variant: Annotated[
        str,
        typer.Argument(
            metavar="NAME|PATH",
            help="A built-in variant name, or the path of a variant file (default classic, as for play).",
            autocompletion=complete_variant,
            show_default=False,
        ),
    ] = "classic",
    set_: SetOption = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the Markdown source even on a terminal.")
    ] = False,
    no_sources: Annotated[
        bool,
        typer.Option(
            "--no-sources",
            help="Leave out where each rule comes from (the last section): the rules alone, to print.",
        ),
    ] = False,
    no_pager: Annotated[
        bool,
        typer.Option(
            "--no-pager",
            help="Print it all at once on a terminal too (so does KALOOKI_PAGER=cat or PAGER=cat): "
            "a rulebook longer than the terminal is high is otherwise shown through $PAGER or less.",
        ),
    ] = False,
) -> None:
    """Print the variant's rules as a rulebook: formatted on a terminal, Markdown into a pipe or file.

    kalooki rules kalooki-40 > rules.md writes the Markdown source; so does --markdown. On a terminal a
    rulebook longer than the screen is shown through a pager ($KALOOKI_PAGER, $PAGER or less).
    """
    with cli_errors():
        resolved = resolve_variant(variant, set_ or ())
    warn_of_builtin_name(resolved)  # the rulebook is headed with the built-in's name
    text = render_rulebook(resolved.variant)
    if not no_sources:
        # A blank line between the rulebook's last list and the next heading, as between its own sections.
        text = (
            text.rstrip("\n")
            + "\n\n"
            + render_provenance(
                resolved.variant,
                resolved.provenance,
                resolved.texts or resolved.source,
                resolved.set_at(),
                resolved.not_played,
            )
        )
    console = Console(highlight=False)
    if markdown or not writes_to_terminal(console):
        typer.echo(text, nl=False)
        return
    from rich.markdown import Markdown  # slow to import: only when it is shown

    # Its texts from the file are escaped (markdown_literal): no link of theirs becomes a hyperlink, whose
    # address the terminal would hide; and none of the rulebook's own is drawn as one either.
    rulebook = Markdown(text, hyperlinks=False)
    if no_pager or not page(console, rulebook):
        console.print(rulebook)


def schema(
    name: Annotated[
        str | None,
        typer.Argument(
            help=f"Which schema: {', '.join(schema_names())}. Printing defaults to variant; --check and "
            "--write default to all of them.",
            show_default=False,
        ),
    ] = None,
    directory: Annotated[
        Path | None,
        typer.Argument(
            metavar="DIR",
            help="With --write: the folder to write the schemas into (made if missing), for an editor "
            "setting to point at; `kalooki schema --write DIR` writes all of them. With --check: the folder "
            "whose copies to check (after upgrading kalooki).",
            show_default=False,
        ),
    ] = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Exit 1 if a checked-in schema (or DIR's copy) is out of date with its model."
        ),
    ] = False,
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="Rewrite the checked-in schema(s) (in a source checkout), or write them into DIR.",
        ),
    ] = False,
) -> None:
    """Print a JSON Schema (of variant files by default), check or rewrite the checked-in copies, or write
    them into a folder for an editor."""
    if (write or check) and directory is None and name is not None and name not in schema_names():
        # `kalooki schema --write DIR` (or --check DIR): the one argument is the folder.
        if not name:
            raise typer.BadParameter("give a folder name, not an empty one", param_hint="DIR")
        if check and not Path(name).exists():  # a misspelt schema's name as likely as a folder's
            raise typer.BadParameter(
                f"unknown schema '{name}', and no folder of that name; choose from "
                f"{', '.join(schema_names())}, or give the folder that kalooki schema --write DIR "
                "wrote them into"
            )
        directory = Path(name)
        name = None
    if name is not None and name not in schema_names():
        raise typer.BadParameter(f"unknown schema '{name}'; choose from {', '.join(schema_names())}")
    if check and write:
        raise typer.BadParameter("give --check or --write, not both")
    if directory is not None and not (write or check):
        raise typer.BadParameter("a folder goes with --write (kalooki schema --write DIR)")
    if directory is not None and os.path.exists(directory) and not directory.is_dir():
        fail(f"{directory}: is a file; {'--write' if write else '--check'} needs a folder")
    names = [name] if name is not None else schema_names()
    with cli_errors():
        if check:
            problems = [problem for problem in (check_schema(each, directory) for each in names) if problem]
            if problems:
                fail("\n".join(map(escape_controls, problems)))
            where = "" if directory is None else f" in {directory}"
            for each in names:
                typer.echo(escape_controls(f"{each} schema{where}: up to date"))
        elif write:
            for each in names:
                typer.echo(escape_controls(f"wrote {write_schema(each, directory)}"))  # DIR as typed
        else:
            typer.echo(render_schema(name or "variant"), nl=False)


def _variants_alone(context: typer.Context) -> None:
    """``kalooki variants`` with no command: the list."""
    # `kalooki variants` with no command is what a newcomer types to see the variants: list them.
    if context.invoked_subcommand is None:
        list_variants()


class _VariantsGroup(PlainGroup):
    """``kalooki variants classic`` (or ``friday.yaml``) was told only "No such command 'classic'.": a
    variant where the command goes is told the command that shows it."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if (
            not ctx.resilient_parsing
            and self.get_command(ctx, name) is None
            and (name in builtin_variant_names() or name.lower().endswith((".yaml", ".yml")))
        ):
            # Quoted as every message quotes a name, control characters spelt out; the command to type
            # spells the name as bash reads it back (the quoted one's "\x1b" read back as four letters).
            shown = escape_controls(name)
            ctx.fail(
                f"No such command '{shown}': to see that variant, kalooki variants show {shell_word(name)}"
            )
        return super().resolve_command(ctx, args)


def register(app: typer.Typer) -> None:
    app.command(short_help="Check variant files; every error as FILE:LINE:COL.")(validate)
    variants = typer.Typer(
        cls=_VariantsGroup, help="List, show and compare variants (alone: list the built-in ones)."
    )
    variants.callback(invoke_without_command=True)(_variants_alone)
    variants.command("list")(list_variants)
    variants.command()(show)
    variants.command(short_help="Show the knobs on which two variants differ, side by side.")(diff)
    app.add_typer(variants, name="variants")
    app.command(short_help="Print a variant's rulebook (Markdown into a pipe or file).")(rules)
    app.command(short_help="Print, check or write the JSON Schemas for editors.")(schema)
