"""``kalooki new FILE.yaml [--extends BASE]``: a starter variant file to edit rather than type from memory.

The file is generated from the variant model: the schema modeline (so an editor completes
and checks it), ``extends``, and the knobs house rules change most (those the built-in
variants change, most changed first) commented out, each with its meaning, its values and
the base's value. Nothing in it is written by hand, so it cannot fall behind the model.
"""

from __future__ import annotations

import os
import textwrap
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from kalooki.knob_reference import knob_choices, more_note, values_note
from kalooki.loader import VARIANT_SUFFIXES, builtin_variant_names, load_variant
from kalooki.loader_refs import base_file_refusal, is_path_like
from kalooki.resources import schemas_dir
from kalooki.rules import suits_must_differ
from kalooki.shell_words import shell_join, shell_word
from kalooki.variant import KNOB_NAMES, Variant
from kalooki.variant_writer import variant_differences

from .common import cli_errors, fail, file_name
from .completion import complete_variant
from .output import check_output_file
from .saves import write_atomically

WIDTH = 92
SHOWN = 8
"""How many knobs the starter file offers: the ones house rules change most."""
TABLES_ARGUE_ABOUT = ("opening_threshold", "joker_penalty", "kalooki_bonus", "run_minimum", "goal_score")
"""The house rules the README opens with (51 or 40 to open, a joker 25 or 15, Kalooki +25 or -25, runs of
three or four, the goal): a starter offers each, whether or not the built-ins change it most."""


def most_changed_knobs() -> list[str]:
    """The knobs the built-in variants set differently from classic most often, the most changed first,
    then the house rules the README opens with that are not among them."""
    classic = Variant()
    counts: Counter[str] = Counter()
    for name in builtin_variant_names():
        counts.update(knob for knob, _, _ in variant_differences(classic, load_variant(name)))
    order = {knob: index for index, knob in enumerate(KNOB_NAMES)}
    shown = sorted(counts, key=lambda knob: (-counts[knob], order[knob]))[:SHOWN]
    return [*shown, *(knob for knob in TABLES_ARGUE_ABOUT if knob not in shown)]


def yaml_value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


NO_BREAK = "\x00"
"""Stands for a space the comment's wrap must not break at (put back after it)."""


def comment(text: str, indent: str = "# ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent)


def starter_variant(path: Path, base: str) -> str:
    """The text of a new variant file at ``path`` that extends ``base``."""
    schema = schemas_dir().absolute() / "variant.schema.json"
    folder = path.parent.absolute()
    # In the checkout, a path that moves with it; elsewhere a file URI, since the editor reads the modeline
    # up to the first space (an installed copy under "Ann Smith" or "My Projects" has one).
    where = schema.as_uri()
    if folder.is_relative_to(schemas_dir().absolute().parent):
        where = Path(os.path.relpath(schema, folder)).as_posix()
    resolved = load_variant(base)
    # The name as a shell takes it ('my rules.yaml'), its spaces kept from the wrap so it pastes whole.
    name = shell_word(path.name).replace(" ", NO_BREAK)
    lines = [
        f"# yaml-language-server: $schema={where}",
        "#",
        *(
            line.replace(NO_BREAK, " ")
            for line in comment(
                f"House rules on top of {base}. A variant file states only what differs from its base: "
                "uncomment a knob and change its value; every other rule stays the base's. Check the file "
                f"with `kalooki validate {name}` and read it back with `kalooki rules {name}`."
            )
        ),
        "",
        "description: My house rules",
        f"extends: {extends_reference(base, folder)}",
        "",
    ]
    shown = most_changed_knobs()
    for knob in shown:
        lines += comment(knob_comment(knob, resolved))
        lines.append(f"# {knob}: {yaml_value(getattr(resolved, knob))}")
        lines.append("")
    others = [knob for knob in KNOB_NAMES if knob not in shown]
    if others:
        lines += comment(
            f"Also: {', '.join(others)}. Every knob and its value here: kalooki variants show {base}."
        )
    return "\n".join(lines).rstrip() + "\n"


def knob_comment(knob: str, base: Variant) -> str:
    """A knob's meaning and values as they apply to ``base``. The model's description of set_joker_release
    speaks of missing suits, which a set has none of where its suits may repeat: there the reference's
    note for that case stands in for it."""
    meaning = Variant.model_fields[knob].description or ""
    if knob == "set_joker_release" and not suits_must_differ(base):
        frees = meaning.split(":", 1)[0]
        return f"{frees}: {', '.join(knob_choices(knob))}. {more_note(knob)}"
    return " ".join(filter(None, (meaning, values_note(knob))))


def names_a_file(base: str) -> bool:
    """Whether ``--extends`` names a file, as the command line reads it: a path, or a file there that no
    built-in is called (a built-in's name is read first)."""
    return is_path_like(base) or (base not in builtin_variant_names() and Path(base).is_file())


def extends_reference(base: str, folder: Path) -> str:
    """How the new file in ``folder`` names ``base``: a built-in by its name, a file by its path from
    ``folder`` (extends reads a path from the file's own folder; ``base`` was given from the current one)."""
    if not names_a_file(base):
        return base
    # The file ends in .yaml or .yml (--extends refuses any other), so extends reads its path as one.
    target = Path(base).absolute()
    try:
        return Path(os.path.relpath(target, folder)).as_posix()
    except ValueError:  # another drive (Windows): no relative path leads there
        return target.as_posix()


def new(
    file: Annotated[
        Path, typer.Argument(parser=file_name, metavar="FILE.yaml", help="The variant file to write.")
    ],
    extends: Annotated[
        str,
        typer.Option(
            "--extends",
            metavar="NAME|PATH",
            help="The variant it starts from.",
            autocompletion=complete_variant,
        ),
    ] = "classic",
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
) -> None:
    """Write a starter variant file: the common knobs commented out, with their meaning and value."""
    if file.suffix.lower() not in VARIANT_SUFFIXES:  # as the loader reads them: X.YAML is one too
        raise typer.BadParameter("a variant file's name ends in .yaml (or .yml)", param_hint="'FILE.yaml'")
    check_output_file(file, "FILE.yaml", variant_file=True)
    if names_a_file(extends) and Path(extends).suffix.lower() not in VARIANT_SUFFIXES:
        # The command line reads any file as a variant; the new file's extends reads only .yaml files.
        raise typer.BadParameter(
            f"{base_file_refusal(Path(extends))}: {extends} (a copy named .yaml is one)",
            param_hint="'--extends'",
        )
    if names_a_file(extends) and os.path.realpath(extends) == os.path.realpath(file):
        # Written, it would name itself as its base: every command reading it then refuses the cycle.
        raise typer.BadParameter(
            f"{extends} is the file being written: a variant extends another one, or a built-in",
            param_hint="'--extends'",
        )
    if file.exists() and not force:
        fail(f"{file}: already exists; choose another name, or overwrite it with --force")
    with cli_errors():
        text = starter_variant(file, extends)
    try:
        write_atomically(file, text)
    except OSError as error:
        fail(f"{file}: cannot write the variant file: {error.strerror or error}")
    typer.echo(f"{file}: written; edit it, then: {shell_join(['kalooki', 'validate', str(file)])}")


def register(app: typer.Typer) -> None:
    app.command("new", short_help="Write a starter variant file, its common knobs explained.")(new)
