"""JSON Schemas generated from the models, and the check that the checked-in copies are current.

Editors read ``schemas/<name>.schema.json`` (the YAML language server through the
``# yaml-language-server: $schema=...`` modeline), so each is labelled draft-07, the
draft that server supports, and carries every field's description, enum and default.

JSON Schema cannot express everything the loader checks: rules that involve several
fields (:func:`kalooki.variant.cross_field_problems`), ``extends`` being a real variant
and free of cycles, and the YAML-level rules (no anchors, duplicate keys, tabs, ...).
A file the schema accepts can still be rejected by ``kalooki validate``; the reverse
never happens for a single file (the tests check both verdicts on every fixture).

Schemas are registered by name in :data:`SCHEMA_GENERATORS`; adding one is one line
there (e.g. ``"game-script": "kalooki.script:game_script_schema"``).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from kalooki.errors import KalookiError
from kalooki.provenance import Sources
from kalooki.resources import schemas_dir
from kalooki.variant import Variant

DRAFT_07 = "http://json-schema.org/draft-07/schema#"

SCHEMA_GENERATORS: dict[str, str] = {
    "variant": "kalooki.schema:variant_schema",
    "game-script": "kalooki.script:game_script_schema",
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
    # Where the rules come from: described by their own model, checked by the loader like knobs.
    sources = Sources.model_json_schema(mode="validation")["properties"]
    properties.update(sources)
    for knob in properties.values():
        # The titles pydantic derives ("Opening Threshold") repeat the key and add nothing in an editor.
        knob.pop("title", None)
    return {"$schema": DRAFT_07, **schema}


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


def check_schema(name: str = "variant") -> str | None:
    """``None`` when the checked-in schema matches the model; otherwise what is wrong and how to fix it."""
    path = schema_path(name)
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return f"{path} is missing; generate it with: {REGENERATE_COMMAND}"
    if current != render_schema(name):
        return f"{path} is out of date with the model; regenerate it with: {REGENERATE_COMMAND}"
    return None


def write_schema(name: str = "variant") -> Path:
    """Rewrite the checked-in schema; only in a source checkout (an installed package is not edited)."""
    directory = schemas_dir()
    if not (directory.parent / "pyproject.toml").is_file():
        raise SchemaError(f"{directory} is not in a source checkout; run this from the kalooki repository")
    path = schema_path(name)
    path.write_text(render_schema(name), encoding="utf-8")
    return path
