"""The JSON Schema: current, well formed, and agreeing with pydantic on every file.

JSON Schema cannot express three kinds of check, so for those files the verdicts differ on
purpose (the fixture's name says which kind it is):

* ``yaml-*``: YAML-level rejections (anchors, duplicate keys, tabs, ...) happen before
  either validator sees any data;
* ``cross-*``: rules that involve several knobs (``cross_field_problems``);
* ``extends-*``: whether a base file exists, is valid and is free of cycles (an unknown
  built-in name the schema does refuse: ``extends`` is a built-in name or a path);
* ``text-*``: text that YAML 1.2 reads as a number or a boolean (``True``, ``1e3``); the
  loader refuses it, and so does an editor, which reads YAML 1.2 (tests/test_editor.py), but
  the data here is already text.

Every other file gets the same verdict from pydantic, from ``jsonschema`` and from the loader.
Whole-number floats (``40.0``) are integers for all three, as they are in JSON Schema.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from kalooki_cli.app import app
from pydantic import ValidationError
from typer.testing import CliRunner

from kalooki.bots import BUILTIN_BOTS
from kalooki.loader import (
    VariantError,
    builtin_variant_names,
    builtin_variant_path,
    load_variant,
    load_variant_text,
)
from kalooki.loader_refs import is_path_like
from kalooki.provenance import KEYS as PROVENANCE_KEYS
from kalooki.provenance import Sources
from kalooki.provenance import split as split_provenance
from kalooki.schema import (
    DRAFT_07,
    REGENERATE_COMMAND,
    SCHEMA_ID_PREFIX,
    SchemaError,
    check_schema,
    generate_schema,
    render_schema,
    schema_names,
    schema_path,
    write_schema,
)
from kalooki.script import load_script_text
from kalooki.variant import CLASSIC, DEFER_CROSS_FIELD, KNOB_NAMES, Variant
from kalooki.wholenumbers import integer_fields
from kalooki.yamlio import YamlError, load_yaml_file

FIXTURES = Path(__file__).parent / "fixtures" / "variants"
BUILTIN_FILES = [builtin_variant_path(name) for name in builtin_variant_names()]
ALL_FILES = [*BUILTIN_FILES, *sorted(FIXTURES.glob("good/*.yaml")), *sorted(FIXTURES.glob("bad/*.yaml"))]


@pytest.mark.parametrize("name", schema_names())
def test_checked_in_schema_is_current(name: str) -> None:
    result = CliRunner().invoke(app, ["schema", name, "--check"])
    assert result.exit_code == 0, (
        f"{result.stderr}\nThe checked-in schemas/{name}.schema.json is stale; regenerate it with: "
        f"{REGENERATE_COMMAND}"
    )
    assert check_schema(name) is None


def test_stale_schema_message_says_how_to_regenerate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "variant.schema.json").write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr("kalooki.schema.schemas_dir", lambda: tmp_path)
    problem = check_schema("variant")
    assert problem is not None
    assert "kalooki schema --write" in problem
    assert "make schema" in problem


def test_unknown_schema_name() -> None:
    with pytest.raises(SchemaError, match="unknown schema 'nope'"):
        generate_schema("nope")


def test_schema_is_draft_07_with_descriptions_enums_and_defaults() -> None:
    schema = generate_schema("variant")
    assert schema["$schema"] == DRAFT_07
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    assert schema["type"] == "object"
    properties = schema["properties"]
    assert set(properties) == {*Variant.model_fields, *PROVENANCE_KEYS}
    for name, knob in properties.items():
        assert knob["description"], name
    for name in KNOB_NAMES:
        assert properties[name]["default"] == getattr(CLASSIC, name), name
    assert properties["scoring"]["enum"] == ["penalty", "winner_collects"]
    assert "default" not in properties["name"], "a file's name defaults to its stem, not to 'classic'"
    assert render_schema("variant").endswith("}\n")
    assert schema_path("variant").name == "variant.schema.json"


def _patterned(node: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every object of ``node`` that has a ``pattern``, with where it is."""
    if isinstance(node, list):
        return [found for index, item in enumerate(node) for found in _patterned(item, f"{where}/{index}")]
    if not isinstance(node, dict):
        return []
    own = [(where or "/", node)] if isinstance(node.get("pattern"), str) else []
    return own + [found for key, value in node.items() for found in _patterned(value, f"{where}/{key}")]


@pytest.mark.parametrize("name", schema_names())
def test_every_pattern_says_what_is_wrong_in_words(name: str) -> None:
    # Without patternErrorMessage the YAML language server shows the regex itself.
    for where, node in _patterned(generate_schema(name)):
        assert node.get("patternErrorMessage"), f"{name} schema {where}: a pattern with no message"


def _kind(path: Path) -> str:
    return path.name.split("-")[0] if path.parent.name == "bad" else "good"


def _pydantic_field_verdict(data: dict[str, Any]) -> bool:
    knobs, sources = split_provenance(data)
    try:
        Variant.model_validate(knobs, context={DEFER_CROSS_FIELD: True})
        Sources.model_validate(sources)
    except ValidationError:
        return False
    return True


def _loader_verdict(path: Path) -> bool:
    try:
        load_variant(path)
    except VariantError:
        return False
    return True


def _unknown_base_name(path: Path) -> bool:
    """An ``extends-*`` fixture whose problem is a name no built-in variant has (the schema says so too)."""
    return "unknown variant" in path.with_suffix(".expected").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_pydantic_jsonschema_and_loader_agree(path: Path) -> None:
    kind = _kind(path)
    try:
        data = load_yaml_file(path).data
    except YamlError:
        assert kind == "yaml", "only yaml-* fixtures may fail before validation"
        return
    assert kind != "yaml", "a yaml-* fixture must fail in the YAML loader"
    validator = jsonschema.Draft7Validator(generate_schema("variant"))
    schema_ok = validator.is_valid(data)
    # Knob by knob, the schema is the model's; which names `extends` may give, only the loader knows.
    own = {key: value for key, value in data.items() if key != "extends"}
    assert validator.is_valid(own) == _pydantic_field_verdict(own), [
        error.message for error in validator.iter_errors(own)
    ]
    loader_ok = _loader_verdict(path)
    if kind == "extends" and _unknown_base_name(path):
        assert not schema_ok
        assert not loader_ok
    elif kind in ("cross", "extends", "text"):
        # The documented checks JSON Schema cannot express: each file is fine knob by knob.
        assert schema_ok, [error.message for error in validator.iter_errors(data)]
        assert not loader_ok
    elif kind == "good":
        assert schema_ok, [error.message for error in validator.iter_errors(data)]
        assert loader_ok
    else:
        assert not schema_ok
        assert not loader_ok


INTEGER_KNOBS = sorted(integer_fields(Variant))


def test_integer_knobs_are_found_from_the_model() -> None:
    assert "opening_threshold" in INTEGER_KNOBS
    assert "goal_score" in INTEGER_KNOBS
    assert "elimination" not in INTEGER_KNOBS, "a boolean is not an integer knob"
    schema_integers = {
        name
        for name, knob in generate_schema("variant")["properties"].items()
        if knob.get("type") in ("integer", ["integer", "null"])
    }
    assert set(INTEGER_KNOBS) == schema_integers


@pytest.mark.parametrize("knob", INTEGER_KNOBS)
def test_whole_number_floats_are_integers_everywhere(knob: str, tmp_path: Path) -> None:
    default = getattr(CLASSIC, knob)
    whole = float(10 if default is None else default)  # a knob off by default (null) takes a number too
    validator = jsonschema.Draft7Validator(generate_schema("variant"))
    assert validator.is_valid({knob: whole})
    assert _pydantic_field_verdict({knob: whole})
    # In a file, as a --set option and in a game script's set:, kept as the integer it is.
    path = tmp_path / "rules.yaml"
    path.write_text(f"{knob}: {whole!r}\n", encoding="utf-8")
    from_file = getattr(load_variant(path), knob)
    assert from_file == whole
    assert type(from_file) is int
    from_option = getattr(load_variant("classic", [f"{knob}={whole!r}"]), knob)
    assert type(from_option) is int
    script = load_script_text(f"set: {{{knob}: {whole!r}}}\nplayers: [ann, bob]\n", base_dir=tmp_path)
    assert type(getattr(script.variant, knob)) is int


@pytest.mark.parametrize("knob", INTEGER_KNOBS)
def test_fractions_are_refused_everywhere(knob: str) -> None:
    default = getattr(CLASSIC, knob)
    fraction = (10 if default is None else default) + 0.5
    assert not jsonschema.Draft7Validator(generate_schema("variant")).is_valid({knob: fraction})
    assert not _pydantic_field_verdict({knob: fraction})
    with pytest.raises(VariantError, match=f"{knob}: expected a whole number, got {fraction}"):
        load_variant_text(f"{knob}: {fraction}\n", "v.yaml")
    with pytest.raises(VariantError, match="expected a whole number"):
        load_variant("classic", [f"{knob}={fraction}"])


def test_whole_number_float_seed_in_a_game_script(tmp_path: Path) -> None:
    script = load_script_text("players: [ann, bob]\nseed: 7.0\n", base_dir=tmp_path)
    assert script.seed == 7
    assert type(script.seed) is int


def _properties(node: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every (key, property schema) pair anywhere in a schema."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            found.append((key, value))
        for value in node.values():
            found += _properties(value)
    elif isinstance(node, list):
        for value in node:
            found += _properties(value)
    return found


@pytest.mark.parametrize("name", schema_names())
def test_every_property_is_titled_with_its_key_and_the_schema_has_an_id(name: str) -> None:
    schema = generate_schema(name)
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["$id"] == f"{SCHEMA_ID_PREFIX}{name}"
    properties = _properties(schema)
    assert len(properties) > 20
    for key, knob in properties:
        assert knob["title"] == key


def test_extends_offers_and_checks_the_builtin_names() -> None:
    schema = generate_schema("variant")
    extends = schema["properties"]["extends"]
    assert extends["examples"] == builtin_variant_names()
    validator = jsonschema.Draft7Validator(schema)
    for good in ("classic", "../rules.yaml", "base.yml", "house/friday", None, [], ["classic", "x.yaml"]):
        assert validator.is_valid({"extends": good}), good
    for bad in ("clasic", "", ["classic", "kalooki40"], 3):
        assert not validator.is_valid({"extends": bad}), bad


def test_game_script_schema_offers_bots_and_variants_and_checks_cards_and_moves() -> None:
    schema = generate_schema("game-script")
    assert schema["properties"]["variant"]["examples"] == builtin_variant_names()
    assert schema["$defs"]["PlayerSeat"]["properties"]["bot"]["examples"] == list(BUILTIN_BOTS)
    validator = jsonschema.Draft7Validator(schema)
    script = {
        "players": [{"name": "ann", "bot": "my-plugin-bot"}, "bob"],
        "set": {"goal_score": 1.0e3},
        "hands": [
            {
                "deal": {"discard": "7H", "stock": ["JK", "10c", "Q♠"], "ann": ["AS", "2C"]},
                "moves": [{"ann": "draw stock"}, {"bob": "m 7H 8H 9H, QS QD QC"}, {"ann": "d KD"}],
            }
        ],
    }
    assert validator.is_valid(script), [error.message for error in validator.iter_errors(script)]
    hand = script["hands"][0]
    for where, bad in (("stock", ["ZZ"]), ("discard", "1C"), ("ann", ["AS", "JK", "XX"])):
        broken = {**script, "hands": [{**hand, "deal": {**hand["deal"], where: bad}}]}
        assert not validator.is_valid(broken), where
    broken = {**script, "hands": [{**hand, "moves": [{"ann": "fly away"}]}]}
    assert not validator.is_valid(broken)
    assert not validator.is_valid({**script, "set": {"goal_score": 150.5}})


def test_write_into_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "editor" / "schemas"
    result = CliRunner().invoke(app, ["schema", "--write", str(folder)])
    assert result.exit_code == 0, result.output
    for name in schema_names():
        written = folder / f"{name}.schema.json"
        assert f"wrote {written}" in result.output
        assert written.read_text(encoding="utf-8") == render_schema(name)
    one = tmp_path / "one"
    result = CliRunner().invoke(app, ["schema", "variant", "--write", str(one)])
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in one.iterdir()) == ["variant.schema.json"]


def test_a_folder_without_write_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["schema", "variant", str(tmp_path)])
    assert result.exit_code == 2
    assert "a folder goes with --write" in result.output


def test_a_folder_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(SchemaError, match="cannot write"):
        write_schema("variant", blocker / "schemas")
    result = CliRunner().invoke(app, ["schema", "--write", str(blocker / "schemas")])
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("name", "accepted"),
    [
        *(
            (f"a{character}b", False)
            for character in ["\x1b", "\x9b", "\u2028", "\u202a", "\u202e", "\u2066", "\u2069"]
        ),
        *((f"a{character}b", True) for character in ["\u200f", "\u05e9", "é"]),
        # A name of spaces titles the game with nothing.
        *((name, False) for name in [" ", "  ", "\u3000", "\u00a0 \u2009"]),
        *((name, True) for name in [" a ", "\ufeff", "a\u3000"]),
    ],
)
def test_the_schema_and_the_model_refuse_the_same_names(name: str, accepted: bool) -> None:
    # An editor marks the name as the loader will judge it: the schema's patterns are the validators'.
    validator = jsonschema.Draft7Validator(generate_schema("variant"))
    try:
        Variant(name=name)
        model_ok = True
    except ValidationError:
        model_ok = False
    assert validator.is_valid({"name": name}) == model_ok
    assert model_ok == accepted


REFERENCES = ["family.YAML", "family.yaml", "family.yml", "./family.YAML", "house/friday", "house\\friday"]


@pytest.mark.parametrize("reference", REFERENCES)
def test_the_schema_reads_an_extends_entry_as_a_path_where_the_loader_does(reference: str) -> None:
    if "\\" in reference and os.sep == "\\":
        pytest.skip("a backslash parts folders for the loader only where it is the separator")
    validator = jsonschema.Draft7Validator(generate_schema("variant"))
    assert validator.is_valid({"extends": reference}) == is_path_like(reference)
