"""The strict YAML loader's helpers for the validators: YAML 1.1 and 1.2 hints, scalar text, spelling
suggestions, and pydantic's errors as positioned plain sentences (the loader itself in test_yamlio.py)."""

from __future__ import annotations

import datetime
from typing import Annotated

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kalooki.yamlio import (
    Diagnostic,
    Location,
    YamlError,
    load_yaml_text,
    parse_scalar_text,
    sort_diagnostics,
    suggest,
    text_lookalikes,
    validation_diagnostics,
    yaml11_hint,
)


def test_yaml11_hints() -> None:
    assert yaml11_hint("0250", "integer") == (
        "a leading zero is not allowed (YAML 1.1 reads 0250 as octal 168); write 250"
    )
    assert yaml11_hint("0x1F", "integer") == "write numbers in decimal (0x1F is 31)"
    assert yaml11_hint("1:30", "integer") == "1:30 is not a number here (YAML 1.1 reads it as base 60)"
    assert yaml11_hint("1_000", "integer") == "write 1000 without underscores"
    assert yaml11_hint("yes", "boolean") == "only lowercase true and false are booleans: write true"
    assert yaml11_hint("On", "boolean") == "only lowercase true and false are booleans: write true"
    assert yaml11_hint("no", "boolean") == "only lowercase true and false are booleans: write false"
    assert yaml11_hint("False", "boolean") == "only lowercase true and false are booleans: write false"
    assert yaml11_hint("N", "boolean") == "only lowercase true and false are booleans: write false"
    assert yaml11_hint("many", "integer") == ""
    assert yaml11_hint("000", "integer") == ""


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        # What YAML 1.2, and so an editor, reads as a number: the editor shows no error, so validate says why.
        ("0o17", "write numbers in decimal (0o17 is 15)"),
        ("1e3", "write numbers in full (1e3 is 1000)"),
        ("2E+2", "write numbers in full (2E+2 is 200)"),
        ("-1e3", "write numbers in full (-1e3 is -1000)"),
        ("1e-3", "write numbers in full (1e-3 is 0.001)"),
        ("1e999", ""),  # infinite: no number to suggest
        ("1e20", ""),  # no whole number a knob takes: the range says the rest
    ],
)
def test_yaml12_number_hints(text: str, hint: str) -> None:
    assert yaml11_hint(text, "integer") == hint


def test_parse_scalar_text() -> None:
    assert parse_scalar_text("40") == 40
    assert parse_scalar_text(" true ") is True
    assert parse_scalar_text("yes") == "yes"
    assert parse_scalar_text("'40'") == "40"
    assert parse_scalar_text('"a: b"') == "a: b"
    assert parse_scalar_text("a: b") == "a: b"
    assert parse_scalar_text("") is None
    with pytest.raises(ValueError, match="tab"):
        parse_scalar_text("a\tb")
    for text in ("'a' 'b'", "'a': b"):
        with pytest.raises(
            ValueError, match=r"^text after the closing quote: put all of the value inside"
        ) as caught:
            parse_scalar_text(text)
        assert str(caught.value).endswith("the quotes")


def test_suggest() -> None:
    keys = ["opening_threshold", "goal_score", "decks"]
    assert suggest("openng_threshold", keys) == "opening_threshold"
    assert suggest("Decks", keys) == "decks"
    assert suggest("goal-score", keys) == "goal_score"
    assert suggest("zzz", keys) is None


class _Seat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str
    age: int = 0


class _Script(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    players: list[_Seat]
    rounds: int


def test_validation_diagnostics_for_nested_models() -> None:
    text = "players:\n  - name: ann\n    agee: 3\n  - name: 7\nrounds: yes\n"
    document = load_yaml_text(text, "s.yaml")
    with pytest.raises(ValidationError) as caught:
        _Script.model_validate(document.data)
    lines = [
        str(d)
        for d in sort_diagnostics(
            validation_diagnostics(caught.value, document.data, document, model=_Script)
        )
    ]
    assert lines == [
        "s.yaml:3:5: players[0].agee: unknown key 'agee'; did you mean 'age'?",
        "s.yaml:4:11: players[1].name: expected text, got 7 (put it in quotes to make it text)",
        "s.yaml:5:9: rounds: expected a whole number, got 'yes'",
    ]


def test_validation_diagnostics_for_a_missing_key_and_a_prefix() -> None:
    document = load_yaml_text("game:\n  players: []\n", "s.yaml")
    data = document.data["game"]
    with pytest.raises(ValidationError) as caught:
        _Script.model_validate(data)
    lines = [
        str(d) for d in validation_diagnostics(caught.value, data, document, prefix=("game",), model=_Script)
    ]
    assert lines == ["s.yaml:2:3: game.rounds: is required"]


class _Sizes(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    players: Annotated[list[str], Field(min_length=2, max_length=3)] = ["a", "b"]
    move: Annotated[dict[str, str], Field(min_length=1, max_length=1)] = {"a": "b"}
    name: Annotated[str, Field(min_length=1, max_length=5)] = "x"
    code: Annotated[str, Field(pattern="^[A-Z]+$")] = "X"


def _lines(text: str, model: type[BaseModel]) -> list[str]:
    document = load_yaml_text(text, "s.yaml")
    with pytest.raises(ValidationError) as caught:
        model.model_validate(document.data)
    diagnostics = validation_diagnostics(caught.value, document.data, document, model=model)
    return [str(d) for d in sort_diagnostics(diagnostics)]


def test_size_and_pattern_errors_are_plain_sentences() -> None:
    assert _lines("players: [ann]\nmove: {}\nname: ''\ncode: abc\n", _Sizes) == [
        "s.yaml:1:10: players: expected at least 2 items, got 1",
        "s.yaml:2:7: move: expected at least 1 item, got 0",
        "s.yaml:3:7: name: must not be empty",
        "s.yaml:4:7: code: must match the pattern ^[A-Z]+$",
    ]
    assert _lines("players: [a, b, c, d]\nmove: {a: x, b: y}\nname: toolong\n", _Sizes) == [
        "s.yaml:1:10: players: expected at most 3 items, got 4",
        "s.yaml:2:7: move: expected at most 1 item, got 2",
        "s.yaml:3:7: name: must be at most 5 characters long",
    ]


def test_other_pydantic_messages_read_as_sentences() -> None:
    class _Checked(BaseModel):
        model_config = ConfigDict(strict=True)
        value: int = 1
        day: datetime.date | None = None

        @field_validator("value")
        @classmethod
        def _odd(cls, value: int) -> int:
            if value % 2 == 0:
                raise ValueError("must be odd")
            return value

    assert _lines("value: 2\nday: monday\n", _Checked) == [
        "s.yaml:1:8: value: must be odd",
        "s.yaml:2:6: day: input should be a valid date",
    ]


def test_recoverable_errors_keep_the_data() -> None:
    with pytest.raises(YamlError) as caught:
        load_yaml_text("a: &x 1\nb: *x\nc: !!str 2\na: 4\nd: [x\n", "f.yaml")
    assert caught.value.document is None, "a syntax error leaves no data"
    with pytest.raises(YamlError) as caught:
        load_yaml_text("a: &x 1\nb: *x\nc: !!str 2\na: 4\n", "f.yaml")
    document = caught.value.document
    assert document is not None
    assert document.data == {"a": 1, "b": None, "c": 2}
    # The alias keeps its own place (where its error is), unlike an empty value.
    assert document.location(("b",)) == Location("f.yaml", 2, 4, "b")
    assert [d.line for d in caught.value.diagnostics] == [1, 2, 3, 4]


def test_messages_never_quote_a_large_input() -> None:
    text = "rounds: '" + "x" * 60000 + "'\nplayers: []\n"
    document = load_yaml_text(text, "s.yaml")
    with pytest.raises(ValidationError) as caught:
        _Script.model_validate(document.data)
    (diagnostic,) = validation_diagnostics(caught.value, document.data, document, model=_Script)
    assert len(str(diagnostic)) < 120


def test_text_that_yaml_1_2_reads_as_a_value_is_found() -> None:
    text = (
        "a: True\nb: 0x10\nc: 0250\nd: 1e3\ne: .inf\nf: -.Inf\ng: .NaN\nh: 0o17\n"
        "i: yes\nj: on\nk: 1:30\nl: 1_000\nm: '1e3'\nn: 7H\no: [FALSE, x]\np: 42\nq: 1.5\n"
    )
    document = load_yaml_text(text, "t.yaml")
    found = text_lookalikes(document)
    assert [(item.key, item.message.split(" is ")[1].split(" in ")[0]) for item in found] == [
        ("a", "a boolean"),
        ("b", "a number"),
        ("c", "a number"),
        ("d", "a number"),
        ("e", "a number"),
        ("f", "a number"),
        ("g", "a number"),
        ("h", "a number"),
        ("o[0]", "a boolean"),
    ]
    assert (
        str(found[0])
        == "t.yaml:1:4: a: True is a boolean in YAML 1.2 (and in editors): put it in quotes to make it text"
    )
    # A place already reported (a number expected there, say) is not reported twice.
    assert (
        text_lookalikes(document, [Diagnostic("t.yaml", 1, 4, "a", "expected a whole number")])[0].key == "b"
    )
