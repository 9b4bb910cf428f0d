"""Whole-number floats (``40.0``, ``1.0e+3``) read as the integers they are, wherever a model takes one.

JSON Schema counts ``40.0`` as an integer, and so does every editor and checker built on it
(the YAML language server, ajv, check-jsonschema); JavaScript cannot even tell ``40.0`` from
``40``. So that ``kalooki validate`` gives the verdict an editor shows, the models accept a
whole-number float for an integer field and keep it as that integer; ``40.5`` is still refused.
The fields are found from each model's annotations, so a new integer knob needs nothing here.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any

from pydantic import BaseModel


@cache
def integer_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields of ``model`` that take an integer (alone or in a union, e.g. ``int | None``)."""
    names: set[str] = set()
    for name, info in model.model_fields.items():
        annotation = info.annotation
        union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
        members = typing.get_args(annotation) if union else (annotation,)
        if int in members:
            names.add(name)
    return frozenset(names)


def whole_floats_as_integers(model: type[BaseModel], data: Any) -> Any:
    """``data`` with each whole-number float in an integer field of ``model`` turned into an ``int``.

    For a ``mode="before"`` model validator; anything but a mapping is returned as it is.
    """
    if not isinstance(data, dict):
        return data
    fields = integer_fields(model)
    return {
        key: int(value) if key in fields and isinstance(value, float) and value.is_integer() else value
        for key, value in data.items()
    }
