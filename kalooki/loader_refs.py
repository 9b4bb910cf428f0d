"""Variant references: the built-in variants, and which file a name or a path given for a variant names.

:mod:`kalooki.loader` says how a reference is read (a path, or a built-in name) and finds the file
asked for with :func:`locate_top`; :mod:`kalooki.loader_layers` finds each ``extends`` entry's with
:func:`locate_base`. A file named from inside another file must be a regular ``.yaml``/``.yml``
file: a variant file is shared between people, so naming a base must not be a way to read any
other file.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

from kalooki.resources import variants_dir
from kalooki.safeio import unusable_name
from kalooki.text import clipped, not_utf8, spell_bytes, undecodable_byte
from kalooki.yamlio import Diagnostic, Location, YamlError, suggest

BUILTIN_PREFIX = "builtin:"
"""The FILE part of a diagnostic or an origin in a built-in variant is ``builtin:NAME``."""

VARIANT_SUFFIXES = (".yaml", ".yml")


class VariantError(YamlError):
    """A variant that cannot be loaded; ``diagnostics`` holds every problem found."""


PATH_ECHO_LIMIT = 300
"""How much of a base's path a refusal quotes: any path a person writes, not a 60,000-character one."""


def builtin_variant_names() -> list[str]:
    """The built-in variants, classic first and the others in alphabetical order."""
    names = sorted(path.stem for path in variants_dir().glob("*.yaml"))
    return sorted(names, key=lambda name: (name != "classic", name))


def builtin_variant_path(name: str) -> Path:
    """The file of a built-in variant; raises :class:`VariantError` for an unknown name."""
    found = _builtin(name)
    if found is None:
        raise VariantError([Location(name).error(unknown_variant_message(name))])
    return found[0]


def _builtin(name: str) -> tuple[Path, str] | None:
    """A built-in variant's file and its display name, or None when ``name`` names none."""
    if name in builtin_variant_names():
        return variants_dir() / f"{name}.yaml", builtin_display(name)
    return None


def unknown_variant_message(name: str, folder: Path | None = None) -> str:
    """Says that ``name`` is no built-in variant, with the closest one and the list of them.

    Where ``folder`` (where a path in its place would be read from) holds ``NAME.yaml`` or
    ``NAME.yml``, that file is the one suggested: ``kalooki play friday`` meant the friday.yaml
    just written.
    """
    byte = undecodable_byte(name)
    if byte is not None:  # said as a --set option holding such a byte is
        return f"unknown variant '{clipped(spell_bytes(name))}': {not_utf8(byte[1])}"
    names = builtin_variant_names()
    message = f"unknown variant '{clipped(name)}'"
    close = suggest(name, names)
    if folder is not None and name:
        close = next(
            (f"{name}{suffix}" for suffix in VARIANT_SUFFIXES if _is_file(folder / f"{name}{suffix}")),
            close,
        )
    if close:
        message += f" (did you mean '{close}'?)"
    return f"{message}; the built-in variants are {', '.join(names)}, or give the path of a .yaml file"


def builtin_file_hint(reference: str) -> str:
    """For a missing ``classic.yaml`` named without a folder: that the built-in is named without .yaml;
    for a missing ``clasic.yaml``, the built-in its name is a misspelling of. A folder is no built-in's,
    save ``variants/`` (where the project keeps them, as the README's link to one shows)."""
    path = Path(reference.replace(os.sep, "/"))
    names = builtin_variant_names()
    if path.suffix.lower() not in VARIANT_SUFFIXES:
        return ""
    if path.parent.as_posix() == "variants" and path.stem in names:
        return f" (the built-in variant is named {path.stem}, without variants/ and {path.suffix})"
    if path.parent.as_posix() != ".":
        return ""
    if path.stem in names:
        return f" (the built-in variant is named {path.stem}, without {path.suffix})"
    close = suggest(path.stem, names)
    return f" (did you mean the built-in variant '{close}', named without {path.suffix}?)" if close else ""


def near_file_hint(reference: str, folder: Path) -> str:
    """For a reference to no variant file: the one beside it that was likely meant, as the reference would
    be written to name it (`` (did you mean './friday.yaml'?)``); else ``""``.

    A path written without its ending (``./friday``, as a built-in is named), with the other ending
    (``friday.yml`` for ``friday.yaml``), or in another case than the file's (``Friday.yaml``).
    """
    written = Path(reference)
    if not written.name:
        return ""
    base = f"{written.stem}" if written.suffix.lower() in VARIANT_SUFFIXES else written.name
    try:
        names = {entry.name for entry in (folder / written).parent.iterdir() if entry.is_file()}
    except (OSError, ValueError):  # no such folder, or a name no system's files hold
        return ""
    wanted = {f"{base}{suffix}".lower() for suffix in VARIANT_SUFFIXES}
    found = sorted(name for name in names if name.lower() in wanted and name != written.name)
    if not found:
        return ""
    meant = reference[: len(reference) - len(written.name)] + found[0]
    return f" (did you mean '{clipped(meant, PATH_ECHO_LIMIT)}'?)"


def _any_case(suffix: str) -> str:
    return "".join(
        f"[{letter.lower()}{letter.upper()}]" if letter.isalpha() else re.escape(letter) for letter in suffix
    )


PATH_PATTERN = "/|" + "|".join(f"{_any_case(suffix)}$" for suffix in VARIANT_SUFFIXES)
"""What makes a reference a path rather than a built-in name (:func:`is_path_like`), as the JSON Schema
writes it: a slash, or an ending of :data:`VARIANT_SUFFIXES` in any case (``family.YAML`` is a file, as
a game script's ``variant:`` reads it: no built-in name has a dot)."""


def is_path_like(reference: str) -> bool:
    """A reference that is read as a path, not as a built-in name (the schema's :data:`PATH_PATTERN`)."""
    # A backslash parts folders only on a system whose separator it is, Windows: the schema, one file for
    # every system, says what every system reads, so a backslash alone makes no path there.
    return "/" in reference or os.sep in reference or reference.lower().endswith(VARIANT_SUFFIXES)


def builtin_display(name: str) -> str:
    """How diagnostics and origins name a built-in variant's file: ``builtin:classic``.

    Not its path, which for an installed copy is a long way into site-packages.
    """
    return f"{BUILTIN_PREFIX}{name}"


def resolved(path: Path) -> Path:
    """``path.resolve()``, or ``path`` made absolute where no file ends it (a loop of symbolic links,
    which ``resolve`` raises RuntimeError for, or a name no file system can hold): reading it then says
    why in one line."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # ValueError: a NUL, or half a UTF-16 pair, in the name
        return path.absolute()


SUFFIX_REFUSAL = "a base variant file must end in .yaml or .yml"


def base_file_refusal(target: Path) -> str | None:
    """Why ``extends`` may not read ``target`` (None when it may): only regular ``.yaml``/``.yml`` files.

    A variant file is shared between people, so its ``extends`` must not be a way to read (and have
    echoed) any file the user can read, nor to hang on a FIFO or a device.
    """
    if target.suffix.lower() not in VARIANT_SUFFIXES:
        return SUFFIX_REFUSAL
    try:
        mode = target.stat().st_mode
    except ValueError as error:  # a NUL character, or half a UTF-16 pair: no system's file names hold them
        return unusable_name(target, error)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "is a symbolic link that leads round in a loop"
        return "no such file"
    if stat.S_ISDIR(mode):
        return "is a directory, not a variant file"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    return None


def locate_base(
    reference: str, parent: Path, parent_display: str, location: Location, problems: list[Diagnostic]
) -> tuple[Path, str] | None:
    """The file an ``extends`` entry of ``parent`` names and its display name, or None with a problem."""
    if is_path_like(reference):
        target, display = _beside(reference, parent, parent_display)
        refusal = base_file_refusal(target)
        if refusal is not None:
            hint = builtin_file_hint(reference) if refusal == "no such file" else ""
            if refusal in ("no such file", SUFFIX_REFUSAL):
                hint = hint or near_file_hint(reference, parent.parent)
            problems.append(location.error(f"{refusal}: {clipped(display, PATH_ECHO_LIMIT)}{hint}"))
            return None
        return target, display
    found = _builtin(reference)
    if found is None:
        said = (
            _items_run_together(reference)
            or _a_file_of_another_suffix(reference, parent, parent_display, location)
            or unknown_variant_message(reference, parent.parent)
        )
        problems.append(location.error(said))
    return found


def _beside(reference: str, parent: Path, parent_display: str) -> tuple[Path, str]:
    """The file ``reference`` names relative to the variant file ``parent``, and its display name."""
    return parent.parent / reference, os.path.normpath(
        os.path.join(os.path.dirname(parent_display), reference)
    )


def base_key(location: Location) -> str:
    """The key that names a base at ``location``: ``extends`` (``extends[1]`` in a list), or a game
    script's ``variant``."""
    return location.key.partition("[")[0] or "extends"


def _a_file_of_another_suffix(
    reference: str, parent: Path, parent_display: str, location: Location
) -> str | None:
    """For ``extends: save.json`` where the file is there: a name without .yaml or .yml is read as a
    built-in's, so the file was never looked at; what it is (a save, a log) or what a base file is named."""
    from kalooki.file_kinds import another_kind_of_base, game_file_kind  # it reads files: loaded when needed

    target, display = _beside(reference, parent, parent_display)
    if not _is_file(target):
        return None
    kind = game_file_kind(target)
    if kind is not None:
        return another_kind_of_base(kind, display, base_key(location))
    return f"{SUFFIX_REFUSAL}: {clipped(reference)} (a name without one is read as a built-in variant's)"


def _items_run_together(reference: str) -> str | None:
    """For ``classic - kalooki-40``: two bases YAML read as one name, most often the second's ``- ``
    indented deeper than the first's (the closest built-in to the whole, the second, would drop the first)."""
    if " - " not in reference:
        return None
    parts = ", ".join(f"'{clipped(part)}'" for part in reference.split(" - "))
    return (
        f"unknown variant '{clipped(reference)}': it reads as one name of {parts}; to extend each, "
        "write them as a list, each base on a line of its own with its '- ' in the same column"
    )


def locate_top(
    name_or_path: str | Path, base_dir: str | Path | None, reference: Location | None
) -> tuple[Path, str]:
    """The file of the variant asked for and its display name; raises :class:`VariantError`.

    ``reference``: where ``name_or_path`` was written, if in a file (see ``resolve_variant``).
    """
    where = reference if reference is not None else Location(spell_bytes(str(name_or_path)))
    if isinstance(name_or_path, Path) or is_path_like(name_or_path):
        given = str(name_or_path)
        path = Path(base_dir) / given if base_dir is not None else Path(given)
        display = os.path.normpath(os.path.join(str(base_dir), given)) if base_dir is not None else given
        display = spell_bytes(display)
        # A variant named inside another file (a game script's ``variant:``) is held to extends' rules.
        refusal = base_file_refusal(path) if reference is not None else None
        # `classic.yaml` for the built-in classic: a missing file, then, says how the built-in is named.
        hint = builtin_file_hint(given) if refusal in (None, "no such file") and not _exists(path) else ""
        if not hint and refusal in (None, "no such file", SUFFIX_REFUSAL) and not _exists(path):
            hint = near_file_hint(given, Path(base_dir) if base_dir is not None else Path())
        if refusal is not None:
            raise VariantError([where.error(f"{refusal}: {clipped(display, PATH_ECHO_LIMIT)}{hint}")])
        if hint:
            raise VariantError([where.error(f"no such file{hint}")])
        return path, display
    found = _builtin(name_or_path)
    if found is not None:
        return found
    local = Path(base_dir) / name_or_path if base_dir is not None else Path(name_or_path)
    # An existing directory (`sub`, `.`) is what was meant, not a misspelt built-in: reading it says so
    # (an empty name is not `.`).
    if _is_file(local) or (name_or_path and _is_dir(local)):
        # Named inside another file, a file without a slash (`notes.txt`) is held to extends' rules too.
        refusal = base_file_refusal(local) if reference is not None else None
        if refusal is not None:
            raise VariantError(
                [where.error(f"{refusal}: {clipped(spell_bytes(name_or_path), PATH_ECHO_LIMIT)}")]
            )
        return local, spell_bytes(str(local))
    if Path(name_or_path).suffix:  # no built-in name has a dot: `rules.json` is a file, not a misspelt name
        if reference is not None:
            raise VariantError(
                [where.error(f"no such file: {clipped(spell_bytes(name_or_path), PATH_ECHO_LIMIT)}")]
            )
        return local, spell_bytes(str(local))
    # A name that is no file is echoed clipped: a pasted page is one line still.
    where = reference if reference is not None else Location(clipped(spell_bytes(name_or_path)))
    raise VariantError([where.error(unknown_variant_message(name_or_path, local.parent))])


def _is_file(path: Path) -> bool:
    return _is(path, Path.is_file)


def _is_dir(path: Path) -> bool:
    return _is(path, Path.is_dir)


def _exists(path: Path) -> bool:
    return _is(path, Path.exists)


def _is(path: Path, test: Callable[[Path], bool]) -> bool:
    try:
        return test(path)
    except (OSError, ValueError):  # a name too long for the system (ENAMETOOLONG), or with a NUL, is no file
        return False
