"""Variant files: from a built-in name or a path to a validated :class:`~kalooki.variant.Variant`.

A variant file states only what differs from its base. The base is what ``extends``
names (a built-in name, a path relative to the file, or a list of them, later entries
winning), or the classic rules (the model's defaults) when there is none. On top of
the file come, in this order, overrides from a mapping in another document (a game
script's ``set:``) and ``--set KEY=VALUE`` options (:mod:`kalooki.set_options`).

``name`` and ``description`` describe one file and are not inherited: ``name`` defaults
to the file's stem and ``description`` to nothing. ``extends`` keeps the value the file
gave it, for information; the knobs are already merged.

Every problem is a :class:`~kalooki.yamlio.Diagnostic` at the key or value it is about,
and all of a file's problems are reported together (:class:`VariantError`). Rules that
involve several knobs (:func:`~kalooki.variant_checks.cross_field_problems`) are checked once
the knobs are merged, and only when every knob is valid on its own; each is reported at
the most specific place that set one of the knobs involved.

A reference is a path when it ends in ``.yaml``/``.yml`` or contains a ``/``; otherwise it
is a built-in name (from the command line, an existing file of that name is also accepted).
Diagnostics and origins name a built-in's file ``builtin:NAME``, not its installed path.

A file with top-level ``hands``, or a list of ``players``, is a game script given where a
variant was expected: it gets one diagnostic saying so (at 1:1) instead of an unknown-key
error for each of its keys. So does a ``--json`` report of ``kalooki simulate`` or ``sweep``, and
a JSON object none of whose keys is a variant's (or a near miss of one).

A resolved variant is written back as a YAML file by :mod:`kalooki.variant_writer`.

This module holds the entry points. Which file a reference names, and the built-in variants, are
in :mod:`kalooki.loader_refs`; the layers, with where each value came from, in
:mod:`kalooki.loader_layers`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from kalooki.loader_keys import one_key_per_line
from kalooki.loader_layers import SCRIPT_HINT_KEYS, MappingOverrides, resolve
from kalooki.loader_origins import DEFAULT_ORIGIN, Origin, ResolvedVariant
from kalooki.loader_refs import (
    BUILTIN_PREFIX,
    VARIANT_SUFFIXES,
    VariantError,
    builtin_display,
    builtin_variant_names,
    builtin_variant_path,
    locate_top,
)
from kalooki.set_options import SET_SOURCE, SetOptions, parse_set_options
from kalooki.text import clipped_repr
from kalooki.variant import Variant
from kalooki.yamlio import Diagnostic, Location, YamlDocument, YamlError, load_yaml_text, sort_diagnostics

__all__ = [
    "BUILTIN_PREFIX",
    "DEFAULT_ORIGIN",
    "KNOBS_SOURCE",
    "SCRIPT_HINT_KEYS",
    "VARIANT_SUFFIXES",
    "MappingOverrides",
    "Origin",
    "Overrides",
    "ResolvedVariant",
    "VariantError",
    "builtin_display",
    "builtin_variant_names",
    "builtin_variant_path",
    "load_variant",
    "load_variant_text",
    "resolve_variant",
]

Overrides = Sequence[str] | SetOptions | Mapping[str, Any]
"""Knobs set over a variant: ``--set`` options (``"KEY=VALUE"`` strings, one such string alone, or already
parsed), or a mapping of knob names to values (``{"goal_score": 200}``), checked as a game script's
``set:`` is."""

KNOBS_SOURCE = "overrides"
"""How diagnostics name a mapping of knobs, which has no file nor lines: ``overrides: goal_scor: unknown
key 'goal_scor'; did you mean 'goal_score'?``."""


def resolve_variant(
    name_or_path: str | Path,
    overrides: Overrides = (),
    base_dir: str | Path | None = None,
    *,
    mapping_overrides: MappingOverrides | None = None,
    reference: Location | None = None,
) -> ResolvedVariant:
    """Load a variant, recording where each value came from.

    ``name_or_path``: a built-in name or a path (relative to ``base_dir``, default the working
    directory). ``overrides``: ``--set`` options (``"KEY=VALUE"`` strings, one such string alone, or
    already parsed), or a mapping of knobs (``{"goal_score": 200}``; then no ``mapping_overrides``).
    ``mapping_overrides``: knobs from a mapping in another file, applied before the ``--set``
    options. ``reference``: where ``name_or_path`` was written (e.g. a game script's ``variant:``
    value), so an unknown name or a missing file is reported there.

    Raises :class:`VariantError` with every problem found.
    """
    problems: list[Diagnostic] = []
    if not isinstance(name_or_path, str | Path):  # None, a number or bytes was a bare TypeError
        said = f"a variant is given by a built-in name or a path, not {clipped_repr(name_or_path)}"
        raise VariantError([Diagnostic("", 0, 0, "", said)])
    _check_folder("", base_dir)
    if isinstance(overrides, Mapping):
        if mapping_overrides is not None:
            said = "give knobs as a mapping in overrides or in mapping_overrides, not both"
            raise VariantError([Diagnostic(KNOBS_SOURCE, 0, 0, "", said)])
        mapping_overrides = _knobs(overrides)
    set_options = None if isinstance(overrides, Mapping) else _set_options(overrides, problems)
    try:
        path, display = locate_top(name_or_path, base_dir, reference)
    except VariantError as error:
        raise VariantError(sort_diagnostics([*error.diagnostics, *problems])) from None
    return resolve(path, display, None, problems, set_options, mapping_overrides, named_at=reference)


def load_variant(
    name_or_path: str | Path,
    overrides: Overrides = (),
    base_dir: str | Path | None = None,
    *,
    mapping_overrides: MappingOverrides | None = None,
    reference: Location | None = None,
) -> Variant:
    """Load a built-in variant by name, or a variant file by path; see :func:`resolve_variant`."""
    return resolve_variant(
        name_or_path, overrides, base_dir, mapping_overrides=mapping_overrides, reference=reference
    ).variant


def load_variant_text(
    text: str | bytes,
    source: str = "<variant>",
    *,
    base_dir: str | Path | None = None,
    overrides: Overrides = (),
) -> Variant:
    """Load a variant from text, or UTF-8 bytes (for tests and tools), named in diagnostics by ``source``.

    The name defaults to ``source``'s stem; ``extends`` paths are relative to ``base_dir``
    (default: the working directory).
    """
    problems: list[Diagnostic] = []
    if not isinstance(text, str | bytes):  # None or a number was a bare TypeError
        said = f"a variant's text is a string or UTF-8 bytes, not {clipped_repr(text)}"
        raise VariantError([Diagnostic(str(source), 0, 0, "", said)])
    if not isinstance(source, str):  # None was a bare TypeError, from the path its name is read from
        said = f"source must be text, the name diagnostics give the variant, not {clipped_repr(source)}"
        raise VariantError([Diagnostic("", 0, 0, "", said)])
    _check_folder(source, base_dir)
    knobs, set_options = None, None
    if isinstance(overrides, Mapping):
        knobs = _knobs(overrides)
    else:
        set_options = _set_options(overrides, problems)
    recovered: Sequence[Diagnostic] = ()
    try:
        document = load_yaml_text(text, source)
    except YamlError as error:
        said = one_key_per_line(error.diagnostics)
        if error.document is None:
            raise VariantError(sort_diagnostics([*said, *problems])) from None
        # Read past its problems: its bases are followed and their problems said too.
        document, recovered = error.document, said
    directory = Path(base_dir) if base_dir is not None else Path.cwd()
    # A path that names no real file: bases resolve next to it, and it takes part in cycle checks.
    path = directory / (Path(source).stem + ".yaml")
    return resolve(path, source, document, problems, set_options, knobs, recovered=recovered).variant


def _check_folder(source: str, base_dir: object) -> None:
    """Refuse a ``base_dir`` that is no path (5 was a bare TypeError, where a base was looked for)."""
    if base_dir is not None and not isinstance(base_dir, str | PathLike):
        said = f"base_dir must be a folder's path, not {clipped_repr(base_dir)}"
        raise VariantError([Diagnostic(source, 0, 0, "", said)])


def _knobs(knobs: Mapping[str, Any]) -> MappingOverrides:
    """A mapping of knobs given in code, read as a game script's ``set:`` is (a dict was read as a list of
    ``--set`` options, one a key: ``expected KEY=VALUE (e.g. opening_threshold=40), got 'goal_score'``)."""
    return MappingOverrides(YamlDocument.of_data(KNOBS_SOURCE, dict(knobs)), ())


def _set_options(overrides: Sequence[str] | SetOptions, problems: list[Diagnostic]) -> SetOptions | None:
    """The ``--set`` options, parsed (None when there are none); what is wrong with them goes to ``problems``.

    They are checked before the files so that a bad option is reported with the files' problems.
    """
    if isinstance(overrides, SetOptions):
        return overrides
    if isinstance(overrides, str):
        # One option, as it reads: a string is also a sequence, and was taken letter by letter (a
        # diagnostic for each character of "goal_score=200").
        overrides = [overrides]
    if not overrides:
        return None
    # A number, bytes or a list holding what is no text was a bare TypeError or AttributeError.
    options = (
        list(overrides) if isinstance(overrides, Sequence) and not isinstance(overrides, bytes) else None
    )
    if options is None or not all(isinstance(option, str) for option in options):
        wrong = overrides if options is None else next(o for o in options if not isinstance(o, str))
        said = f"expected KEY=VALUE options or a mapping of knobs, got {clipped_repr(wrong)}"
        problems.append(Diagnostic(SET_SOURCE, 0, 0, "", said))
        return None
    try:
        return parse_set_options(options)
    except VariantError as error:
        problems.extend(error.diagnostics)
        return None
