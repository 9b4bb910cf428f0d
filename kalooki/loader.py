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
involve several knobs (:func:`~kalooki.variant.cross_field_problems`) are checked once
the knobs are merged, and only when every knob is valid on its own; each is reported at
the most specific place that set one of the knobs involved.

A reference is a path when it ends in ``.yaml``/``.yml`` or contains a ``/``; otherwise it
is a built-in name (from the command line, an existing file of that name is also accepted).
Diagnostics and origins name a built-in's file ``builtin:NAME``, not its installed path.

A file with top-level ``hands``, or a list of ``players``, is a game script given where a
variant was expected: it gets one diagnostic saying so (at 1:1) instead of an unknown-key
error for each of its keys.

A resolved variant is written back as a YAML file by :mod:`kalooki.variant_writer`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from kalooki import provenance as provenance_keys
from kalooki.resources import variants_dir
from kalooki.set_options import SetOptions, parse_set_options
from kalooki.variant import CROSS_FIELD_INVOLVES, DEFER_CROSS_FIELD, KNOB_NAMES, Variant, cross_field_problems
from kalooki.yamlio import (
    Diagnostic,
    KeyPath,
    Location,
    YamlDocument,
    YamlError,
    describe_value,
    format_key_path,
    load_yaml_file,
    load_yaml_text,
    merge_recovered,
    sort_diagnostics,
    suggest,
    text_lookalikes,
    validation_diagnostics,
)

__all__ = [
    "MappingOverrides",
    "Origin",
    "ResolvedVariant",
    "VariantError",
    "builtin_display",
    "builtin_variant_names",
    "builtin_variant_path",
    "load_variant",
    "load_variant_text",
    "resolve_variant",
]

BUILTIN_PREFIX = "builtin:"
"""The FILE part of a diagnostic or an origin in a built-in variant is ``builtin:NAME``."""

SCRIPT_HINT_KEYS = ("players", "hands")
"""Top-level keys of a game script: a variant file holding a list of ``players`` or any ``hands`` is one."""

_FILE_ONLY = ("name", "description")
_ORIGIN_KINDS = Literal["default", "file", "set", "stem"]


class VariantError(YamlError):
    """A variant that cannot be loaded; ``diagnostics`` holds every problem found."""


# --------------------------------------------------------------------------- built-ins and references


def builtin_variant_names() -> list[str]:
    """The built-in variants, classic first and the others in alphabetical order."""
    names = sorted(path.stem for path in variants_dir().glob("*.yaml"))
    return sorted(names, key=lambda name: (name != "classic", name))


def builtin_variant_path(name: str) -> Path:
    """The file of a built-in variant; raises :class:`VariantError` for an unknown name."""
    if name in builtin_variant_names():
        return variants_dir() / f"{name}.yaml"
    raise VariantError([Location(name).error(_unknown_variant_message(name))])


def _unknown_variant_message(name: str) -> str:
    names = builtin_variant_names()
    message = f"unknown variant '{name}'"
    close = suggest(name, names)
    if close:
        message += f" (did you mean '{close}'?)"
    return f"{message}; the built-in variants are {', '.join(names)}, or give the path of a .yaml file"


def _is_path_like(reference: str) -> bool:
    return "/" in reference or os.sep in reference or reference.endswith((".yaml", ".yml"))


def builtin_display(name: str) -> str:
    """How diagnostics and origins name a built-in variant's file: ``builtin:classic``.

    Not its path, which for an installed copy is a long way into site-packages.
    """
    return f"{BUILTIN_PREFIX}{name}"


# --------------------------------------------------------------------------- origins and results


@dataclass(frozen=True)
class Origin:
    """Where a value of a resolved variant came from."""

    kind: _ORIGIN_KINDS
    source: str = ""
    line: int = 0
    column: int = 0
    text: str = ""
    """For a ``--set``: the option as given."""

    def __str__(self) -> str:
        if self.kind == "default":
            return "classic default"
        if self.kind == "set":
            return f"{self.source} {self.text}"
        if self.kind == "stem":
            return f"the name of {self.source}"
        return f"{self.source}:{self.line}:{self.column}"

    @staticmethod
    def at(location: Location, kind: _ORIGIN_KINDS = "file", text: str = "") -> Origin:
        return Origin(kind, location.source, location.line, location.column, text)


DEFAULT_ORIGIN = Origin("default")


@dataclass(frozen=True)
class ResolvedVariant:
    """A loaded variant, with the origin of each of its values and the files that were read."""

    variant: Variant
    origins: Mapping[str, Origin]
    """Field name -> where its value was set; every field of the model is present."""
    sources: tuple[str, ...]
    """The files read, each base before the file that extends it."""
    provenance: Mapping[str, str] = field(default_factory=dict)
    """Knob -> where its value comes from in the rule text (see :mod:`kalooki.provenance`)."""
    source: str | None = None
    """The rule text the variant follows, as its most specific file names it."""

    def set_at(self) -> dict[str, str]:
        """Where each knob without provenance was set, for those not at classic's default."""
        return {
            knob: str(origin)
            for knob, origin in self.origins.items()
            if knob in KNOB_NAMES and knob not in self.provenance and origin.kind != "default"
        }


# --------------------------------------------------------------------------- overrides


@dataclass(frozen=True)
class MappingOverrides:
    """Knob values given as a mapping inside another document, e.g. a game script's ``set:``.

    ``document`` is the loaded file and ``path`` where the mapping is in it; diagnostics
    point into that file, keyed by the full path (``set.opening_threshold``).
    """

    document: YamlDocument
    path: KeyPath = ("set",)


# --------------------------------------------------------------------------- resolution


@dataclass
class _Layer:
    knobs: dict[str, Any] = field(default_factory=dict)
    origins: dict[str, Origin] = field(default_factory=dict)
    # When each knob was last set, so a cross-field error can point at the most specific source.
    order: dict[str, int] = field(default_factory=dict)
    provenance: dict[str, str] = field(default_factory=dict)
    source: str | None = None

    def set_knob(self, knob: str, value: Any, origin: Origin, rank: int) -> None:
        """Set a knob; what a base said about its old value no longer applies."""
        self.knobs[knob] = value
        self.origins[knob] = origin
        self.order[knob] = rank
        self.provenance.pop(knob, None)


@dataclass
class _FileResult:
    layer: _Layer | None
    document: YamlDocument | None


class _Resolver:
    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.sources: list[str] = []
        self.done: dict[Path, _FileResult] = {}
        self.counter = 0

    def tick(self) -> int:
        self.counter += 1
        return self.counter

    def file(
        self,
        path: Path,
        display: str,
        chain: tuple[tuple[Path, str], ...],
        document: YamlDocument | None = None,
        base_of: Location | None = None,
    ) -> _FileResult:
        """Resolve one file (``document`` when it is already loaded, e.g. from text).

        ``base_of``: where the ``extends`` that names this file is, for a file that cannot be read or is
        not a variant file at all (said there in one line, without echoing the file's content).
        """
        key = path.resolve()
        if key in self.done:
            return self.done[key]
        if document is None:
            try:
                document = load_yaml_file(path, display=display)
            except YamlError as error:
                unread = (
                    base_of is not None
                    and error.document is None
                    and all(item.line == 0 for item in error.diagnostics)
                )
                if unread and base_of is not None:
                    reasons = "; ".join(item.message for item in error.diagnostics)
                    self.diagnostics.append(base_of.error(f"cannot read the base {display}: {reasons}"))
                else:
                    self.diagnostics.extend(merge_recovered(error, _own_problems))
                result = _FileResult(None, None)
                self.done[key] = result
                return result
        if base_of is not None and _not_a_variant(document):
            self.diagnostics.append(
                base_of.error(f"{display} is not a variant file: none of its keys is a variant's")
            )
            result = _FileResult(None, None)
            self.done[key] = result
            return result
        chain = (*chain, (key, display))
        problems: list[Diagnostic] = []
        layer = _Layer()
        for reference, location in self._bases(document, problems):
            base = self._locate_base(reference, path, display, location, problems)
            if base is None:
                continue
            base_path, base_display = base
            cycle = [name for resolved, name in chain if resolved == base_path.resolve()]
            if cycle:
                start = [resolved for resolved, _ in chain].index(base_path.resolve())
                names = [name for _, name in chain[start:]] + [base_display]
                problems.append(location.error(f"extends cycle: {' -> '.join(names)}"))
                continue
            result = self.file(base_path, base_display, chain, base_of=location)
            if result.layer is None:
                if result.document is not None:
                    # Say why another file's errors are listed: this file extends it.
                    problems.append(location.error(f"the base {base_display} is not valid (see its errors)"))
                continue
            layer.knobs.update(result.layer.knobs)
            layer.origins.update(result.layer.origins)
            layer.order.update(result.layer.order)
            for knob in result.layer.knobs:
                layer.provenance.pop(knob, None)
            layer.provenance.update(result.layer.provenance)
            layer.source = result.layer.source or layer.source
        problems.extend(_own_problems(document))
        self.diagnostics.extend(problems)
        self.sources.append(display)
        if problems:
            result = _FileResult(None, document)
        else:
            # One rank for the whole file: it is more specific than its bases, and within it no key is.
            rank = self.tick()
            knobs, meta = provenance_keys.split(document.data)
            for knob, value in knobs.items():
                if knob in _FILE_ONLY or knob == "extends":
                    continue
                layer.set_knob(knob, value, Origin.at(document.location((knob,))), rank)
            if meta.get("source"):
                # Another text: what the bases quoted from theirs does not say where these rules come from.
                layer.provenance.clear()
            layer.provenance.update(meta.get("provenance") or {})
            layer.source = meta.get("source") or layer.source
            result = _FileResult(layer, document)
        self.done[key] = result
        return result

    @staticmethod
    def _bases(document: YamlDocument, problems: list[Diagnostic]) -> list[tuple[str, Location]]:
        if "extends" not in document.data:
            return []
        value = document.data["extends"]
        if value is None:
            return []
        if isinstance(value, str):
            value_location = document.location(("extends",))
            if not value:
                problems.append(value_location.error("expected a variant name or path, got ''"))
                return []
            return [(value, value_location)]
        if not isinstance(value, list):
            problems.append(
                document.location(("extends",)).error(
                    f"expected a variant name or path, or a list of them, got {describe_value(value)}"
                )
            )
            return []
        bases: list[tuple[str, Location]] = []
        for index, item in enumerate(value):
            location = document.location(("extends", index))
            if isinstance(item, str) and item:
                bases.append((item, location))
            else:
                problems.append(
                    location.error(f"expected a variant name or path, got {describe_value(item)}")
                )
        return bases

    @staticmethod
    def _locate_base(
        reference: str, parent: Path, parent_display: str, location: Location, problems: list[Diagnostic]
    ) -> tuple[Path, str] | None:
        if _is_path_like(reference):
            target = parent.parent / reference
            display = os.path.normpath(os.path.join(os.path.dirname(parent_display), reference))
            refusal = _base_file_refusal(target)
            if refusal is not None:
                problems.append(location.error(f"{refusal}: {display}"))
                return None
            return target, display
        if reference in builtin_variant_names():
            return variants_dir() / f"{reference}.yaml", builtin_display(reference)
        problems.append(location.error(_unknown_variant_message(reference)))
        return None


VARIANT_SUFFIXES = (".yaml", ".yml")


def _base_file_refusal(target: Path) -> str | None:
    """Why ``extends`` may not read ``target`` (None when it may): only regular ``.yaml``/``.yml`` files.

    A variant file is shared between people, so its ``extends`` must not be a way to read (and have
    echoed) any file the user can read, nor to hang on a FIFO or a device.
    """
    if target.suffix.lower() not in VARIANT_SUFFIXES:
        return "a base variant file must end in .yaml or .yml"
    try:
        mode = target.stat().st_mode
    except OSError:
        return "no such file"
    if stat.S_ISDIR(mode):
        return "is a directory, not a variant file"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    return None


def _not_a_variant(document: YamlDocument) -> bool:
    """A base file with keys but none of a variant's: another kind of YAML file, whose keys are not echoed."""
    data = document.data
    return bool(data) and not any(key in Variant.model_fields for key in data)


def _own_problems(document: YamlDocument) -> list[Diagnostic]:
    """The problems of a file's own keys, each on its own (bases and cross-field rules aside)."""
    data = document.data
    if "hands" in data or isinstance(data.get("players"), list):
        # Not a variant with many unknown keys: one line that says what to do instead.
        message = f"this is a game script, not a variant: run it with `kalooki play {document.source}`"
        return [Diagnostic(document.source, 1, 1, "", message)]
    own, _ = provenance_keys.split({key: value for key, value in data.items() if key != "extends"})
    problems = [*_field_problems(own, document, ()), *provenance_keys.problems(document)]
    # `extends: True` is already an unknown variant, reported with the bases.
    lookalikes = [item for item in text_lookalikes(document, problems) if not item.key.startswith("extends")]
    return problems + lookalikes


def _field_problems(data: dict[str, Any], locator: Any, prefix: KeyPath) -> list[Diagnostic]:
    try:
        Variant.model_validate(data, context={DEFER_CROSS_FIELD: True})
    except ValidationError as error:
        return validation_diagnostics(error, data, locator, prefix=prefix, model=Variant)
    return []


def _locate_top(
    name_or_path: str | Path, base_dir: str | Path | None, reference: Location | None
) -> tuple[Path, str]:
    where = reference if reference is not None else Location(str(name_or_path))
    if isinstance(name_or_path, Path) or _is_path_like(name_or_path):
        given = str(name_or_path)
        path = Path(base_dir) / given if base_dir is not None else Path(given)
        display = os.path.normpath(os.path.join(str(base_dir), given)) if base_dir is not None else given
        # A variant named inside another file (a game script's ``variant:``) is held to extends' rules.
        refusal = _base_file_refusal(path) if reference is not None else None
        if refusal is not None:
            raise VariantError([where.error(f"{refusal}: {display}")])
        return path, display
    if name_or_path in builtin_variant_names():
        return variants_dir() / f"{name_or_path}.yaml", builtin_display(name_or_path)
    local = Path(base_dir) / name_or_path if base_dir is not None else Path(name_or_path)
    if local.is_file():
        return local, str(local)
    raise VariantError([where.error(_unknown_variant_message(name_or_path))])


def resolve_variant(
    name_or_path: str | Path,
    overrides: Sequence[str] | SetOptions = (),
    base_dir: str | Path | None = None,
    *,
    mapping_overrides: MappingOverrides | None = None,
    reference: Location | None = None,
) -> ResolvedVariant:
    """Load a variant, recording where each value came from.

    ``name_or_path``: a built-in name or a path (relative to ``base_dir``, default the working
    directory). ``overrides``: ``--set`` options (``"KEY=VALUE"`` strings or already parsed).
    ``mapping_overrides``: knobs from a mapping in another file, applied before the ``--set``
    options. ``reference``: where ``name_or_path`` was written (e.g. a game script's ``variant:``
    value), so an unknown name or a missing file is reported there.

    Raises :class:`VariantError` with every problem found.
    """
    problems: list[Diagnostic] = []
    set_options: SetOptions | None = None
    if isinstance(overrides, SetOptions):
        set_options = overrides
    elif overrides:
        try:
            set_options = parse_set_options(list(overrides))
        except VariantError as error:
            problems.extend(error.diagnostics)

    try:
        path, display = _locate_top(name_or_path, base_dir, reference)
    except VariantError as error:
        raise VariantError(sort_diagnostics([*error.diagnostics, *problems])) from None
    return _resolve(path, display, None, problems, set_options, mapping_overrides)


def _resolve(
    path: Path,
    display: str,
    document: YamlDocument | None,
    problems: list[Diagnostic],
    set_options: SetOptions | None,
    mapping_overrides: MappingOverrides | None,
) -> ResolvedVariant:
    resolver = _Resolver()
    top = resolver.file(path, display, (), document)
    problems = [*resolver.diagnostics, *problems]

    layer = _Layer()
    if top.layer is not None:
        layer = _Layer(
            dict(top.layer.knobs),
            dict(top.layer.origins),
            dict(top.layer.order),
            dict(top.layer.provenance),
            top.layer.source,
        )
    file_only: dict[str, Any] = {"name": path.stem}
    file_only_origins: dict[str, Origin] = {"name": Origin("stem", display)}
    if top.document is not None:
        for key in _FILE_ONLY:
            if key in top.document.data:
                file_only[key] = top.document.data[key]
                file_only_origins[key] = Origin.at(top.document.location((key,)))

    if mapping_overrides is not None:
        problems.extend(_apply_mapping(mapping_overrides, layer, file_only, file_only_origins, resolver))
    if set_options is not None:
        rank = resolver.tick()
        for key, value in set_options.values.items():
            origin = Origin.at(set_options.location((key,)), "set", set_options.option_text(key))
            if key in _FILE_ONLY:
                file_only[key] = value
                file_only_origins[key] = origin
            else:
                layer.set_knob(key, value, origin, rank)

    if problems or top.layer is None:
        raise VariantError(sort_diagnostics(problems))

    extends = top.document.data.get("extends") if top.document is not None else None
    data = {**file_only, **layer.knobs, "extends": extends}
    try:
        variant = Variant.model_validate(data, context={DEFER_CROSS_FIELD: True})
    except ValidationError as error:  # pragma: no cover - every part was validated where it was written
        raise VariantError(validation_diagnostics(error, data, _Nowhere(display), model=Variant)) from None
    origins = dict.fromkeys(Variant.model_fields, DEFAULT_ORIGIN)
    origins.update(layer.origins)
    origins.update(file_only_origins)
    if top.document is not None and "extends" in top.document.data:
        origins["extends"] = Origin.at(top.document.location(("extends",)))

    cross = _cross_field_diagnostics(variant, layer, origins, display, set_options)
    if cross:
        raise VariantError(sort_diagnostics(cross))
    return ResolvedVariant(variant, origins, tuple(resolver.sources), dict(layer.provenance), layer.source)


class _Nowhere:
    """A locator for values whose place is unknown: the top of the file."""

    def __init__(self, source: str) -> None:
        self.source = source

    def location(self, path: Sequence[str | int], key: str | None = None) -> Location:
        return Location(self.source, 1, 1, format_key_path(path) if key is None else key)

    key_location = location

    def scalar_text(self, path: Sequence[str | int]) -> str | None:
        return None


def _apply_mapping(
    overrides: MappingOverrides,
    layer: _Layer,
    file_only: dict[str, Any],
    file_only_origins: dict[str, Origin],
    resolver: _Resolver,
) -> list[Diagnostic]:
    document, path = overrides.document, tuple(overrides.path)
    try:
        mapping = document.value(path)
    except KeyError:
        return []
    if mapping is None:
        return []
    if not isinstance(mapping, dict):
        return [
            document.location(path).error(
                f"expected a mapping of knob names to values, got {describe_value(mapping)}"
            )
        ]
    problems: list[Diagnostic] = []
    if "extends" in mapping:
        problems.append(
            document.key_location((*path, "extends")).error("a variant's bases cannot be changed here")
        )
        mapping = {key: value for key, value in mapping.items() if key != "extends"}
    problems.extend(_field_problems(mapping, document, path))
    if problems:
        return problems
    rank = resolver.tick()
    for key, value in mapping.items():
        origin = Origin.at(document.location((*path, key)))
        if key in _FILE_ONLY:
            file_only[key] = value
            file_only_origins[key] = origin
        else:
            layer.set_knob(key, value, origin, rank)
    return []


def _cross_field_diagnostics(
    variant: Variant,
    layer: _Layer,
    origins: Mapping[str, Origin],
    display: str,
    set_options: SetOptions | None,
) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for named, message in cross_field_problems(variant):
        involved = CROSS_FIELD_INVOLVES.get(named, (named,))
        # Point at a knob the most specific source set (the one the author just wrote); within one
        # source, at the knob the rule is named after, else the first involved.
        best = max(layer.order.get(knob, -1) for knob in involved)
        chosen = next(knob for knob in involved if layer.order.get(knob, -1) == best)
        origin = origins.get(chosen, DEFAULT_ORIGIN)
        if origin.kind == "default":
            diagnostics.append(Diagnostic(display, 1, 1, named, message))
        else:
            diagnostics.append(Diagnostic(origin.source, origin.line, origin.column, chosen, message))
    return diagnostics


def load_variant(
    name_or_path: str | Path,
    overrides: Sequence[str] | SetOptions = (),
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
    text: str,
    source: str = "<variant>",
    *,
    base_dir: str | Path | None = None,
    overrides: Sequence[str] = (),
) -> Variant:
    """Load a variant from text (for tests and tools), named in diagnostics by ``source``.

    The name defaults to ``source``'s stem; ``extends`` paths are relative to ``base_dir``
    (default: the working directory).
    """
    problems: list[Diagnostic] = []
    set_options = None
    if overrides:
        try:
            set_options = parse_set_options(list(overrides))
        except VariantError as error:
            problems.extend(error.diagnostics)
    try:
        document = load_yaml_text(text, source)
    except YamlError as error:
        raise VariantError(sort_diagnostics([*merge_recovered(error, _own_problems), *problems])) from None
    directory = Path(base_dir) if base_dir is not None else Path.cwd()
    # A path that names no real file: bases resolve next to it, and it takes part in cycle checks.
    path = directory / (Path(source).stem + ".yaml")
    return _resolve(path, source, document, problems, set_options, None).variant
