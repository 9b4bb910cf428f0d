"""Shell completion of the values a person types most: built-in variant names and ``--set`` knobs.

Typer installs the completion script (``kalooki --install-completion``); these functions are
the ``autocompletion=`` callbacks of the arguments and options that take a variant or a knob.
"""

from __future__ import annotations

from kalooki.knob_reference import knob_choices
from kalooki.loader import builtin_variant_names
from kalooki.variant import KNOB_NAMES


def complete_variant(incomplete: str) -> list[str]:
    """The built-in variants that start with what was typed (with none, the shell completes file names)."""
    return [name for name in builtin_variant_names() if name.startswith(incomplete)]


def complete_knob(incomplete: str) -> list[str]:
    """``KEY=`` for the knobs that start with what was typed; after the ``=``, the knob's values."""
    key, equals, value = incomplete.partition("=")
    if not equals:
        return [f"{name}=" for name in KNOB_NAMES if name.startswith(key)]
    if key not in KNOB_NAMES:
        return []
    return [f"{key}={choice}" for choice in knob_choices(key) if choice.startswith(value)]
