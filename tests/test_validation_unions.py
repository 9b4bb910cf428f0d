"""A union field's errors as one author's mistake: pydantic tries each member and reports them all."""

from __future__ import annotations

from typing import Annotated

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kalooki.yamlio import load_yaml_text, sort_diagnostics, validation_diagnostics


class _Limit(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    at: int


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seats: int | list[Annotated[int, Field(ge=1)]] = 2
    limit: bool | _Limit = False


def _lines(text: str) -> list[str]:
    document = load_yaml_text(text, "t.yaml")
    with pytest.raises(ValidationError) as caught:
        _Table.model_validate(document.data)
    return [
        str(d)
        for d in sort_diagnostics(validation_diagnostics(caught.value, document.data, document, model=_Table))
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The member that takes the kind of value given speaks; the others are not also "expected ...".
        ("seats: [1, 0]\n", ["t.yaml:1:12: seats[1]: must be at least 1, got 0"]),
        ("limit: {at: x}\n", ["t.yaml:1:13: limit.at: expected a whole number, got 'x'"]),
        ("limit: {at: 1, by: 2}\n", ["t.yaml:1:16: limit.by: unknown key 'by'"]),
        # No member takes it: one line names what each would take.
        ("seats: x\n", ["t.yaml:1:8: seats: expected a whole number or a list, got 'x'"]),
        ("limit: 3\n", ["t.yaml:1:8: limit: expected true or false, or a mapping, got 3"]),
        (
            "seats: {a: 1}\nlimit: []\n",
            [
                "t.yaml:1:8: seats: expected a whole number or a list, got a mapping",
                "t.yaml:2:8: limit: expected true or false, or a mapping, got a list",
            ],
        ),
    ],
)
def test_a_union_tells_the_problem_of_the_member_the_value_is_written_for(
    text: str, expected: list[str]
) -> None:
    assert _lines(text) == expected
