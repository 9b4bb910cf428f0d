"""What a variant played with changed knobs changes of the built-in whose name and description it keeps.

A built-in's name and description describe its own knobs ("40 to open"). A game started with ``--set``
(or a script's ``set:``) keeps them, so the rulebook headed "40 to open" above rules with no minimum. A
variant's name and description are one file's and never inherited, so a variant carrying a built-in's
name and its very description was read from that built-in (or a copy of it): the knobs that differ are
the changes, and the rulebook says them under the description. A variant of its own words is not
compared: nothing says what its description was written for.
"""

from __future__ import annotations

from functools import lru_cache

from kalooki.loader_refs import builtin_variant_names
from kalooki.variant import KNOB_NAMES, Variant

__all__ = ["changes_from_builtin", "changes_note"]


@lru_cache(maxsize=16)
def _builtin(name: str) -> Variant:
    from kalooki.loader import load_variant  # the loader reads files; the rulebook needs it only here

    return load_variant(name)


def changes_from_builtin(variant: Variant) -> list[tuple[str, object, object]]:
    """Each knob (name, value here, the built-in's) where ``variant`` differs from the built-in whose name
    and description it carries; empty where it carries none's, or changes nothing."""
    if not variant.description or variant.name not in builtin_variant_names():
        return []
    builtin = _builtin(variant.name)
    if builtin.description != variant.description:
        return []
    return [
        (knob, getattr(variant, knob), getattr(builtin, knob))
        for knob in KNOB_NAMES
        if getattr(variant, knob) != getattr(builtin, knob)
    ]


def _written(value: object) -> str:
    """A knob's value as a variant file writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def changes_note(variant: Variant) -> str:
    """One sentence naming the changes (:func:`changes_from_builtin`), or ``""``."""
    changes = changes_from_builtin(variant)
    if not changes:
        return ""
    name = variant.name
    said = ", ".join(f"{knob} {_written(here)} ({name}: {_written(there)})" for knob, here, there in changes)
    # "differs from", not "changes": a game saved before its built-in was redefined differs as well,
    # though no one changed a knob.
    return f"This game differs from {name}, which the line above describes: {said}."
