"""What every command module shares: turning domain errors into exit code 1, and the ``--set`` option.

A command body runs inside :func:`cli_errors`; a :class:`~kalooki.errors.KalookiError`
(bad variant, bad move, bad save file...) becomes its message on stderr, one line per
diagnostic, and exit status 1. Anything else is a bug and keeps its traceback. Usage
errors (unknown option, missing argument) are Typer's: exit status 2.

    @app.command()
    def play(variant: str = "classic", set_: SetOption = None) -> None:
        with cli_errors():
            rules = load_variant(variant, set_ or ())
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn, TypeVar

import typer

from kalooki.errors import KalookiError
from kalooki.file_kinds import already_holds
from kalooki.jsonio import MAX_DIGITS
from kalooki.loader import ResolvedVariant, load_variant, resolve_variant
from kalooki.loader_refs import VariantError
from kalooki.set_options import SetOptions, parse_set_options
from kalooki.statecheck import MAX_NAME
from kalooki.text import (
    BLANK_NAME,
    YOU_AT_A_TABLE,
    clipped,
    control_in_name,
    escape_controls,
    name_fault,
    not_utf8,
    reads_as_you,
    undecodable_byte,
)
from kalooki.variant import Variant
from kalooki.variant_changes import builtin_name_warning
from kalooki.yamlio import Diagnostic

from .completion import complete_knob


def typed_words(text: str | None) -> str | None:
    """A name typed on the command line, read as UTF-8 where the locale read its bytes as another code.

    With UTF-8 mode off under an ASCII locale (``LC_ALL=C PYTHONUTF8=0``), Python reads Élodie's bytes as
    undecodable ones (surrogate escapes) and the name was refused as "not UTF-8 text: byte 0xC3", though
    its bytes are UTF-8. A name is text, never a path, so it is read again from its bytes; bytes that are
    not UTF-8 stay as they were, for :func:`name_problem` to refuse."""
    if text is None or undecodable_byte(text) is None:
        return text
    try:
        return os.fsencode(text).decode("utf-8")
    except UnicodeError:
        return text


SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="Override one knob of the variant, e.g. --set opening_threshold=40 (repeatable).",
        show_default=False,
        autocompletion=complete_knob,
    ),
]
"""The shared ``--set KEY=VALUE`` option; pass its value (or ``()``) as ``overrides`` to ``load_variant``."""


NameOption = Annotated[
    str, typer.Option("--name", metavar="NAME", help="Your name at the table.", callback=typed_words)
]
"""``--name`` of one who sits at a table (play, host), read as :func:`typed_words` says."""

JoinNameOption = Annotated[
    str | None,
    typer.Option(
        "--name",
        metavar="NAME",
        help="Your name; rejoining, whose kept seat comes back (default: your login name; rejoining, "
        "the one seat kept for this table).",
        callback=typed_words,
    ),
]
"""``kalooki join --name``, read as :func:`typed_words` says."""


ChoiceT = TypeVar("ChoiceT", bound=StrEnum)


def choice(enum: type[ChoiceT]) -> Callable[[object], ChoiceT]:
    """A ``parser=`` for an option whose values are an enum's, with click's usual usage error.

    Typer already accepts an enum-typed option, but words a bad value as pydantic does
    ("Value error, 'xml' is not one of ..."); with this parser it reads
    ``Invalid value for '--format': 'xml' is not one of 'text', 'json'.`` (exit 2).

        output: Annotated[OutputFormat, typer.Option("--format", parser=choice(OutputFormat))]
    """

    def parse(value: object) -> ChoiceT:
        if isinstance(value, enum):
            return value
        try:
            return enum(str(value))
        except ValueError:
            options = ", ".join(repr(member.value) for member in enum)
            # Quoted as typed: the usage error spells its control characters (repr would write a
            # byte that is not UTF-8 as '\\udcff').
            raise typer.BadParameter(f"'{value}' is not one of {options}.") from None

    return parse


def integer(value: str) -> int:
    """A ``parser=`` for a whole-number option, refused in plain words: ``'abc' is not a valid integer``.

    Left to itself, Typer words it as pydantic does ("Input should be a valid integer, ...").
    ASCII digits only, as a variant file, a save and a log take them: ``int`` reads ``1_000`` and
    ``٣`` too, and a seed written ``1_000...`` is longer than its count of digits says.
    """
    try:
        if _WHOLE_NUMBER.fullmatch(str(value)) is None:
            raise ValueError(value)
        return int(value)
    except ValueError:
        raise typer.BadParameter(f"'{value}' is not a valid integer") from None


_WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]+\s*")


def seed_number(value: str) -> int:
    """A ``parser=`` for ``--seed``: a whole number of at most :data:`~kalooki.jsonio.MAX_DIGITS` digits.

    A save, a log and a sweep's saved cells hold the seed, and their reader refuses longer numbers:
    a game played on a longer seed could be neither resumed nor replayed.
    """
    number = str(value).strip().lstrip("+-")  # the option's default comes as an int
    if len(number) > MAX_DIGITS and number.isdigit():
        raise typer.BadParameter(f"a seed of {len(number):,} digits: give one of at most {MAX_DIGITS}")
    return integer(value)


def at_least(minimum: int, most: int | None = None) -> Callable[[str], int]:
    """A ``parser=`` for a whole number from ``minimum`` (up to ``most``), refused in plain words."""

    def parse(value: str) -> int:
        number = integer(value)
        if number < minimum:
            raise typer.BadParameter(f"{number} is too small: give {minimum} or more")
        if most is not None and number > most:
            raise typer.BadParameter(f"{number} is too large: give {most:,} or fewer")
        return number

    return parse


def seconds(value: str) -> float:
    """A ``parser=`` for a length of time in seconds: a number, 0 or more, refused in plain words.

    ``float`` alone takes ``nan``, ``inf`` and ``-1``; a table's save and messages carry the value
    as JSON, which has no NaN or infinity, and a save holding one could not be read back.
    """
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < 0:
        raise typer.BadParameter(f"'{value}' is not a number of seconds: give 0 or more, e.g. 0.5")
    return number


def named(value: str, what: str = "file") -> str:
    """A ``parser=`` for a path option (or argument) given as text (``--csv``, ``--report``): refused
    when empty, in the same words for every one of them (exit 2).

    Read as a path, ``''`` is ``.``, the current folder: a save or log was refused as a folder, a
    replay's log as a directory, and a sweep's ``--out ''`` scattered its cells in the current folder.
    """
    if not value:
        raise typer.BadParameter(f"give a {what} name, not an empty one")
    return value


def file_name(value: str) -> Path:
    """A ``parser=`` for a ``Path`` option or argument naming a file: :func:`named`."""
    return Path(named(value))


def folder_name(value: str) -> Path:
    """A ``parser=`` for a ``Path`` option or argument naming a folder: :func:`named`."""
    return Path(named(value, "folder"))


def port_number(value: str) -> int:
    """A ``parser=`` for a port to listen on: 0 (any free port) to 65535."""
    number = integer(value)
    if not 0 <= number <= 65535:
        raise typer.BadParameter(f"{number} is not a port: give 1 to 65535, or 0 for any free port")
    return number


def named_bots(bots: str | None, param_hint: str = "'--bots'") -> list[str] | None:
    """The bots ``--bots`` names, in order, or None when it is not given.

    An empty value is refused as an empty name between commas is: taken as not given, ``--bots ""``
    (a shell variable left unset) would play the default bots without a word.
    """
    if bots is None:
        return None
    if not bots.strip():
        raise typer.BadParameter(
            "give a bot name, not an empty value (greedy, or greedy,random)", param_hint=param_hint
        )
    kinds = [kind.strip() for kind in bots.split(",")]
    if any(not kind for kind in kinds):
        raise typer.BadParameter("name each bot, separated by commas (greedy,random)", param_hint=param_hint)
    return kinds


def refuse_unknown_bots(kinds: Sequence[str]) -> None:
    """Refuse ``--bots`` naming a bot there is none of, with the closest name: a usage error (exit 2)."""
    from kalooki.bots import bot_names, unknown_bot_message

    known = bot_names()
    for kind in kinds:
        if kind not in known:
            raise typer.BadParameter(unknown_bot_message(kind), param_hint="'--bots'")


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a player's name (one word of at most :data:`MAX_NAME` characters)."""
    fault = name_fault(name)
    if fault is None:
        return None
    if fault == "long":
        return f"a name is at most {MAX_NAME} characters, got {len(name)}"
    undecoded = undecodable_byte(name) if fault == "undecoded" else None
    if undecoded is not None:
        return f"'{escape_controls(name)}': {not_utf8(undecoded[1])}"
    if fault == "control":
        return control_in_name(name)
    return BLANK_NAME if fault == "unseen" else "a name is one word"


def refuse_bad_name(name: str) -> None:
    """A usage error at ``--name`` where :func:`name_problem` finds one: play, host and join say it alike,
    before any game or table is started or asked."""
    problem = name_problem(name)
    if problem is not None:
        raise typer.BadParameter(problem, param_hint="'--name'")


def refuse_seat_name(name: str) -> None:
    """:func:`refuse_bad_name` for a seat at a hosted table (host, join), which also refuses a name reading
    as ``you``: the table would, after the host had opened it or the join had reached it (exit 1, and no
    word of --name), where every other fault of --name is a usage error said at once."""
    refuse_bad_name(name)
    if reads_as_you(name):
        raise typer.BadParameter(YOU_AT_A_TABLE, param_hint="'--name'")


def check_output_path(
    path: Path | str, option: str | None = None, *, game_file: bool = False, variant_file: bool = False
) -> None:
    """Refuse a file to write that cannot be written, before any work is done (exit 1, one line).

    ``option`` names where the path was given, for a message about an empty one. ``game_file``: the
    file is a log or a save, whose own rules say what it may replace; ``variant_file``: a variant
    (``kalooki new``), whose ``--force`` says whether it may replace one. Any other output (a CSV, a
    report) never replaces a saved game, a log, a variant or a game script.
    """
    if str(path) == "-" and not game_file:  # standard output; a log or a save named - is a file
        return
    if not str(path):
        fail(f"{option or 'the file'}: give a file name, not an empty one")
    target = Path(path)
    try:
        folder, no_parent = target.is_dir(), not target.parent.is_dir()
        special = target.exists() and not target.is_file()
    except OSError as error:  # a name too long for the system (ENAMETOOLONG)
        fail(f"{clipped(str(path))}: cannot write a file so named: {error.strerror or error}")
    if folder:
        fail(f"{path}: is a folder; give a file name")
    if no_parent:
        fail(f"{path}: the folder {target.parent} does not exist")
    if special:
        return  # /dev/null, a FIFO: written as it is, whatever its folder allows
    held = None if game_file else already_holds(target, str(path))
    if held is None and not (game_file or variant_file):
        from .wrong_file import yaml_already_there

        held = yaml_already_there(target, str(path))  # `--csv club.yaml` replaced the house rules
    if held is not None:  # `--csv game.json` replaced a game in play, or a log, without a word
        fail(f"{path}: {held}; give a new file")
    # A file is written beside its target and renamed: the folder must take a new file. Its
    # mode cannot say so (root writes anywhere, a read-only mount refuses everyone): try it.
    try:
        with tempfile.TemporaryFile(dir=target.parent):
            pass
    except OSError as error:
        fail(f"{path}: cannot write a file in {target.parent}: {error.strerror or error}")


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun``, plural unless it is one: "1 game", "2,000 games"."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def load_game_variant(target: str, overrides: Sequence[str]) -> Variant:
    """The variant a game is played under (:func:`kalooki.loader.load_variant`). A file that carries a
    built-in's name with rules of its own is warned of on stderr, as ``validate`` warns of it: its game's
    saves, logs and screens call it by the built-in's name."""
    resolved = resolve_variant(target, overrides)
    warn_of_builtin_name(resolved)
    return resolved.variant


def warn_of_builtin_name(resolved: ResolvedVariant) -> None:
    """Validate's warning, on stderr, for a variant file named as a built-in with rules of its own."""
    if (warning := builtin_name_warning(resolved)) is not None:
        print_error(str(warning))


def print_error(message: str) -> None:
    """Write a message to stderr as it is (no markup, so ``[brackets]`` in messages survive).

    Each line is shown with its control characters spelled out: a message may quote a file, a save or
    what was typed, and none of that may reach the terminal as a command.
    """
    for line in message.split("\n"):
        typer.echo(escape_controls(line), err=True)


def fail(message: str, code: int = 1) -> NoReturn:
    """Stop the command with ``message`` on stderr."""
    print_error(message)
    raise typer.Exit(code)


@contextmanager
def cli_errors() -> Iterator[None]:
    """Turn a :class:`KalookiError` raised in the block into its lines on stderr and exit status 1."""
    try:
        yield
    except KalookiError as error:
        fail(str(error))


def load_each(wanted: Sequence[tuple[str, Sequence[str] | None, str]]) -> list[Variant]:
    """Each variant of ``wanted`` (its name or path, its ``--set``-style options and that option's name),
    loaded; raises one :class:`VariantError` with the problems of every one, so that a command given two
    variants says all that is wrong with both at once (the file of one with a bad option is still read)."""
    problems: list[Diagnostic] = []
    loaded: list[Variant] = []
    for reference, options, source in wanted:
        overrides: SetOptions | tuple[()] = ()
        try:
            overrides = parse_set_options(options, source) if options else ()
        except VariantError as error:
            problems.extend(error.diagnostics)
        try:
            loaded.append(load_variant(reference, overrides))
        except VariantError as error:
            problems.extend(error.diagnostics)
    if problems:
        # Both may be one file (`bad.yaml --compare-set ...`): its problems are said once.
        raise VariantError(list(dict.fromkeys(problems)))
    return loaded
