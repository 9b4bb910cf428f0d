"""JSON Schemas generated from the models, and the check that the checked-in copies are current.

Editors read ``schemas/<name>.schema.json`` (the YAML language server through the
``# yaml-language-server: $schema=...`` modeline, or a setting that maps file names to it;
see docs/editors.md), so each is labelled draft-07, the draft that server supports, has an
``$id``, and carries every field's name (``title``, what hover shows), description, enum and
default; a knob's description ends with the values it takes when hover would not list them (a
number's bounds, a boolean's two values: ``Values: 0-1000.``, as ``kalooki new`` words it).
``extends`` completes to the built-in variants and is refused when it is neither one nor a path;
a game script's cards and moves carry the patterns of :mod:`kalooki.textpatterns`.

JSON Schema cannot express everything the loader checks: rules that involve several
fields (:func:`kalooki.variant_checks.cross_field_problems`), an ``extends`` path being a real,
valid file and free of cycles, and the YAML-level rules (no anchors, duplicate keys, tabs,
YAML 1.1 spellings such as ``0x2`` that an editor reads as numbers, ...).
A file the schema accepts can still be rejected by ``kalooki validate``; the reverse
never happens for a single file (the tests check both verdicts on every fixture).

Schemas are registered by name in :data:`SCHEMA_GENERATORS`; adding one is one line
there (e.g. ``"game-script": "kalooki.script:game_script_schema"``).
"""

from __future__ import annotations

import importlib
import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from kalooki.errors import KalookiError
from kalooki.knob_reference import values_note
from kalooki.loader import builtin_variant_names
from kalooki.loader_refs import PATH_PATTERN
from kalooki.provenance import Sources
from kalooki.resources import schemas_dir
from kalooki.safeio import replace_whole
from kalooki.variant import KNOB_NAMES, Variant

DRAFT_07 = "http://json-schema.org/draft-07/schema#"

SCHEMA_ID_PREFIX = "urn:kalooki:schema:"
"""A schema's ``$id`` is this followed by its name (``urn:kalooki:schema:variant``)."""

SCHEMA_GENERATORS: dict[str, str] = {
    "variant": "kalooki.schema:variant_schema",
    "game-script": "kalooki.script:game_script_schema",
    "protocol": "kalooki_net.protocol:protocol_schema",
}
"""Schema name -> ``"module:function"`` returning the schema as a dict (imported only when asked for)."""

REGENERATE_COMMAND = "kalooki schema --write  (or: make schema)"


class SchemaError(KalookiError):
    """An unknown schema name, or a schema that cannot be written where it is."""


def variant_schema() -> dict[str, Any]:
    """The JSON Schema of a variant file."""
    schema = Variant.model_json_schema(mode="validation")
    properties = schema["properties"]
    # The model's default name is classic's, but a file's name defaults to its stem.
    properties["name"].pop("default", None)
    properties["extends"] = _extends_schema(properties["extends"])
    for knob in KNOB_NAMES:
        # Hover shows a knob's description, and lists an enum's values ("Allowed Values") but not a
        # number's bounds or a boolean's two values: those are said in words, as `kalooki new` says them.
        if "enum" not in properties[knob] and (note := values_note(knob)):
            properties[knob]["description"] += " " + note
    # Where the rules come from: described by their own model, checked by the loader like knobs.
    properties.update(Sources.model_json_schema(mode="validation")["properties"])
    # Not the editor's 'Expected "provenance"' (its title) for a list or a text: its keys are refused in
    # their own words (propertyNames), which this does not replace.
    properties["provenance"]["errorMessage"] = "expected a mapping: a knob a line, with its source's words"
    properties["not_played"]["errorMessage"] = "expected a list: a text a line, what the source has and why"
    return labelled("variant", schema)


def _extends_schema(generated: dict[str, Any]) -> dict[str, Any]:
    """A built-in name or a path, or a list of them: so the names complete and a misspelt one is flagged.

    One pattern rather than an ``anyOf`` of an enum and a pattern: the YAML language server's hover
    shows an ``anyOf``'s branches as ``extends || extends``. The names complete from ``examples``.
    """
    reference = variant_reference()
    names = builtin_variant_names()
    return {
        "type": ["string", "array", "null"],
        **reference,
        # The names complete in a list too (extends: [kalooki-40, ...]), each item from its own examples.
        "items": {"type": "string", **reference, "description": generated["description"], "examples": names},
        "default": generated.get("default"),
        "description": generated["description"],
        "examples": names,
    }


SCRIPT_VARIANT_FILE = "|[.][Yy](?:[Aa][Mm]|[Mm])[Ll]$"
"""A game script's ``variant`` also reads a file beside it named ``.YAML`` or ``.Yml`` (``extends`` reads
only the lowercase endings as a path)."""


def variant_reference(*, any_case: bool = False) -> dict[str, str]:
    """The pattern a reference to a variant from inside a file matches (``extends``; a game script's
    ``variant``, ``any_case``), and what the editor says of one that does not: a built-in name, or a path."""
    names = builtin_variant_names()
    pattern = "^(?:" + "|".join(_literal(name) for name in names) + ")$|" + PATH_PATTERN
    if any_case:
        pattern += SCRIPT_VARIANT_FILE
    message = (
        f"unknown variant: the built-in variants are {', '.join(names)}, or give the path of a .yaml file"
    )
    return {"pattern": pattern, "patternErrorMessage": message}


def _literal(text: str) -> str:
    # Not re.escape: it also escapes "-", which ECMAScript's unicode mode refuses outside a class.
    return re.sub(r"([.^$*+?()[\]{}|\\/])", r"\\\1", text)


def labelled(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its draft and ``$id``, and every property titled with its key (what hover shows).

    The titles pydantic derives ("Opening Threshold") give way to the key. An ``anyOf`` of a simple
    type and null (pydantic's ``str | None``) becomes one ``type`` list: the YAML language server's
    hover shows each branch of an ``anyOf`` (``bot || bot``), and a branch's own title if it had one.
    """

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, dict):
            return
        _merge_nullable(node)
        for value in node.values():
            walk(value)
        for key, value in node.get("properties", {}).items():
            value["title"] = key

    body = {key: value for key, value in schema.items() if key not in ("title", "description")}
    walk(body)
    head: dict[str, Any] = {key: schema[key] for key in ("title", "description") if key in schema}
    return {"$schema": DRAFT_07, "$id": SCHEMA_ID_PREFIX + name, **head, **body}


def _merge_nullable(node: dict[str, Any]) -> None:
    """``{"anyOf": [{"type": "string", ...}, {"type": "null"}]}`` -> ``{"type": ["string", "null"], ...}``.

    The same values: the other keywords of the first branch (``minLength``, ``pattern``) apply only
    to values of its type. Not for an enum or a reference, which would refuse null.
    """
    branches = node.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2 or {"type": "null"} not in branches:
        return
    (other,) = [branch for branch in branches if branch != {"type": "null"}]
    if not isinstance(other.get("type"), str) or {"enum", "const", "$ref"} & set(other):
        return
    # The property's own keywords (its description, its default) win over the branch's.
    own = {key: value for key, value in node.items() if key != "anyOf"}
    node.clear()
    node.update({**other, **own, "type": [other["type"], "null"]})


def schema_names() -> list[str]:
    return list(SCHEMA_GENERATORS)


def generate_schema(name: str = "variant") -> dict[str, Any]:
    """The schema called ``name``, freshly generated from its model."""
    try:
        target = SCHEMA_GENERATORS[name]
    except KeyError:
        raise SchemaError(f"unknown schema '{name}'; the schemas are {', '.join(schema_names())}") from None
    module_name, _, function_name = target.partition(":")
    function = cast(
        Callable[[], dict[str, Any]], getattr(importlib.import_module(module_name), function_name)
    )
    return function()


def render_schema(name: str = "variant") -> str:
    """The schema as the checked-in file holds it: JSON indented by 2, ending in a newline."""
    return json.dumps(generate_schema(name), indent=2, ensure_ascii=False) + "\n"


def schema_path(name: str = "variant") -> Path:
    return schemas_dir() / f"{name}.schema.json"


def check_schema(name: str = "variant", directory: Path | None = None) -> str | None:
    """``None`` when the checked-in schema (or the copy in ``directory``, which ``kalooki schema --write DIR``
    wrote) matches the model; otherwise what is wrong and how to fix it."""
    path = schema_path(name) if directory is None else directory / f"{name}.schema.json"
    command = (
        REGENERATE_COMMAND if directory is None else f"kalooki schema --write {shlex.quote(str(directory))}"
    )
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return f"{path} is missing; generate it with: {command}"
    except OSError as error:
        return f"cannot read {path}: {error.strerror or error}"
    if current != render_schema(name):
        return f"{path} is out of date with the model; regenerate it with: {command}"
    return None


def write_schema(name: str = "variant", directory: Path | None = None) -> Path:
    """Write the schema: into ``directory`` (made if missing), or over the checked-in copy.

    The checked-in copy is rewritten only in a source checkout (an installed package is not edited).
    A directory is where an editor setting can point (see docs/editors.md).
    """
    if directory is None:
        directory = schemas_dir()
        if not (directory.parent / "pyproject.toml").is_file():
            raise SchemaError(
                f"{directory} is not in a source checkout; run this from the kalooki repository, "
                "or give a folder to write the schemas into (kalooki schema --write DIR)"
            )
        path = schema_path(name)
    else:
        path = directory / f"{name}.schema.json"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        # Whole or not at all: an editor reads whatever is there, and a file a full disk left empty
        # would be taken for the schema.
        replace_whole(path.resolve(), render_schema(name))  # a link to the schema stays a link
    except OSError as error:
        raise SchemaError(f"cannot write {path}: {error.strerror or error}") from None
    return path
