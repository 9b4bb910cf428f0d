"""What is wrong with a message a peer sent, in the protocol's own words.

Both ends quote what the other sent back to it: the table in its ``bad_message`` refusals, ``kalooki
join`` when the table sends what it cannot read. A value is quoted as ``kalooki validate`` quotes a
file's (``got nothing (null)``, ``got true``, ``got a list``, ``got 'jion'``), never as Python writes it
(``None``, ``True``, ``['join']``), which is no word of JSON: the peer is told what it sent in the terms
it sent it in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from kalooki.suggestions import suggest, suggest_value
from kalooki.text import clipped, spell_surrogates
from kalooki.validation import value_problem
from kalooki.yamlscalars import describe_value

NOT_AN_OBJECT = "a message is a JSON object with a 'type'"


def type_problem(data: Mapping[str, Any], types: Sequence[str]) -> str | None:
    """What is wrong with ``data``'s ``type``, one of ``types``; None when it is one of them.

    ``type: expected one of join, move, ..., got nothing (null)``, as for any other field whose value
    is one of a few words (with a "did you mean" for a word close to one)."""
    if "type" not in data:
        return f"type: is required; the types are {', '.join(types)}"
    kind = data["type"]
    if isinstance(kind, str) and kind in types:
        return None
    problem = f"type: expected one of {', '.join(types)}, got {describe_value(kind)}"
    close = suggest_value(kind, types) if isinstance(kind, str) else None
    return problem if close is None else f"{problem} (did you mean '{close}'?)"


def field_problem(kind: str, error: Mapping[str, Any], models: Mapping[str, type[BaseModel]]) -> str:
    """One fault of a message of type ``kind`` (one of ``models``), ``KIND: FIELD: what it must be``, in
    the words `kalooki validate` and a resumed save use for the same fault ("expected a whole number,
    got '1'"), not pydantic's; an unknown field with the field meant, or the fields the message has."""
    where = ".".join(str(part) for part in error["loc"][1:]) or "message"
    if error["type"] == "string_unicode" and not error["loc"][1:]:
        # A key that is not text (a lone surrogate, from a JSON escape): no field is named so.
        where = spell_surrogates(str(error["input"]))
    elif error["type"] != "extra_forbidden":
        return f"{kind}: {where}: {value_problem(error)}"
    fields = [name for name in models[kind].model_fields if name != "type"]
    close = suggest(where, fields)
    unknown = f"{kind}: unknown field '{clipped(where)}'"  # a key of 60,000 characters is not sent back whole
    if close is not None:
        return f"{unknown}; did you mean '{close}'?"
    if not fields:
        return f"{unknown}; it has no field but its type"
    has = f"its fields are {', '.join(fields)}" if len(fields) > 1 else f"its field is {fields[0]}"
    return f"{unknown}; {has}"
