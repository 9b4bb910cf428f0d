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
from typing import TYPE_CHECKING

from kalooki.diagnostics import Diagnostic
from kalooki.loader_refs import builtin_display, builtin_variant_names
from kalooki.variant import KNOB_NAMES, Variant

if TYPE_CHECKING:
    from kalooki.loader_origins import ResolvedVariant

__all__ = ["builtin_name_warning", "changes_from_builtin", "changes_note"]

NAMED_CHANGES = 3
"""How many of the knobs that differ a warning names before it counts the rest."""


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


def builtin_name_warning(resolved: ResolvedVariant) -> Diagnostic | None:
    """A warning, at its ``name``, for a variant file that carries a built-in's name (by its ``name:``
    line, or by its file's) and whose rules are not that built-in's; else None.

    Saves, game logs, the saves list and ``simulate`` reports name a game's rules by the variant's
    name: such a file's games would all read as the built-in's. Not an error: ``kalooki variants show
    classic > ours.yaml``, then a changed knob, is how many a file begins, and it played before.
    Knobs a ``--set`` changed are left out, as a built-in changed that way keeps its name by design.
    """
    variant = resolved.variant
    name, origin = variant.name, resolved.origins["name"]
    if name not in builtin_variant_names() or origin.source == builtin_display(name):
        return None
    builtin = _builtin(name)
    changes = [
        f"{knob} ({_written(getattr(variant, knob))}, not {_written(getattr(builtin, knob))})"
        for knob in KNOB_NAMES
        if getattr(variant, knob) != getattr(builtin, knob) and resolved.origins[knob].kind != "set"
    ]
    if not changes:
        return None
    said = ", ".join(changes[:NAMED_CHANGES])
    if len(changes) > NAMED_CHANGES:
        said += (
            f" and {len(changes) - NAMED_CHANGES} more knob{'s' if len(changes) > NAMED_CHANGES + 1 else ''}"
        )
    if origin.kind == "stem":
        whose, fix = f"'{name}', the file's name,", "add a line 'name: ...' with a name of their own"
    else:
        whose, fix = f"'{name}'", "give them a name of their own"
    return Diagnostic(
        origin.source,
        max(origin.line, 1),
        max(origin.column, 1),
        "name",
        f"warning: {whose} is a built-in variant's name, but these rules differ from it in {said}: saves, "
        f"game logs and simulate reports would call them {name}; {fix}",
    )
