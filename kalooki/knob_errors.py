"""Knobs given to ``Variant(...)`` in code that make no variant, refused in the loader's words.

``load_variant("classic", {"jokers": "x"})`` says ``overrides: jokers: expected a whole number, got 'x':
write a whole number from 0 to 8``; ``Variant(jokers="x")`` said pydantic's four lines (``Input should
be a valid integer [type=int_type, ...]`` and a web address). Loaded only to word a refusal: a variant
made without fault never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from pydantic import ValidationError
from pydantic_core import InitErrorDetails

from kalooki.diagnostics import Diagnostic, cap_diagnostics
from kalooki.loader_refs import VariantError
from kalooki.validation import validation_diagnostics
from kalooki.variant import DEFER_CROSS_FIELD, Variant
from kalooki.variant_checks import cross_field_problems
from kalooki.yamlio import YamlDocument

SOURCE = "Variant"
"""What each line of a :class:`KnobError` starts with, as the loader's start with ``overrides``."""


class KnobError(VariantError, ValidationError):
    """Keywords ``Variant(...)`` cannot make a variant of.

    A :class:`~kalooki.loader_refs.VariantError`: ``diagnostics`` and its lines are the loader's for the
    same knobs, one a problem (``Variant: jokers: expected a whole number, got 'x': ...``). Still a pydantic
    ``ValidationError``, as ``Variant(...)`` raised before: ``errors()`` as pydantic gives them.
    """

    def __init__(self, *arguments: object) -> None:
        # Made by pydantic (from_exception_data), with a ValidationError's arguments: knob_error says it.
        self.diagnostics: tuple[Diagnostic, ...] = ()
        self.document = None

    def __repr__(self) -> str:
        return f"KnobError({str(self)!r})"  # not pydantic's lines, input and web address and all

    def __reduce__(self) -> tuple[Any, ...]:
        # Sent from a worker process: pydantic's own remakes it without its lines.
        return _made_again, (self.title, self.errors(), self.diagnostics)


def knob_error(error: ValidationError, knobs: Mapping[str, Any]) -> KnobError:
    """``error``, which ``Variant(**knobs)`` raised, as a :class:`KnobError`."""
    # Pydantic's errors as it reads them back (their msg and url are worked out again, as at first).
    refused = KnobError.from_exception_data(error.title, cast("list[InitErrorDetails]", error.errors()))
    refused.diagnostics = cap_diagnostics(_problems(error, dict(knobs)))
    return refused


def _made_again(title: str, errors: list[Any], diagnostics: tuple[Diagnostic, ...]) -> KnobError:
    made = KnobError.from_exception_data(title, errors)
    made.diagnostics = diagnostics
    return made


def _problems(error: ValidationError, knobs: dict[str, Any]) -> list[Diagnostic]:
    """Each knob's fault; with none, each rule among several knobs that they break, at the first such knob
    given (the model says which rule without a knob: its check is of the whole variant)."""
    if any(item["loc"] for item in error.errors(include_url=False)):
        return validation_diagnostics(error, knobs, YamlDocument.of_data(SOURCE, knobs), model=Variant)
    variant = Variant.model_validate(knobs, context={DEFER_CROSS_FIELD: True})
    return [
        Diagnostic(SOURCE, 0, 0, next((knob for knob in involved if knob in knobs), named), message)
        for named, message, involved, _ in cross_field_problems(variant)
    ]
