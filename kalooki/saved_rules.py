"""A variant's knobs as kalooki itself wrote them: in a save, a log's header, a table's welcome.

Such rules are read as the kalooki that wrote them played them. The checks that a value "can never be
reached" (an opening no first meld reaches, a set larger than the pack can make, a hand with no
meld to lay) help someone writing a variant, and each came in after the save and log formats: a game
an earlier kalooki dealt under such rules was refused by the next one, and could then never be
finished, replayed or rejoined. The game plays as it did: they are left to variant files and ``--set``.

Rules holding a knob this kalooki does not know were written by a newer one, which is said as such
rather than as a misspelt key (but in a log, which has no checksum, a key like a knob's name).
"""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import ValidationError

from kalooki.errors import KalookiError
from kalooki.text import clipped, escape_controls
from kalooki.validation import rules_problem
from kalooki.variant import KNOB_NAMES, SAVED_RULES, Variant


class SavedRulesError(KalookiError):
    """Rules a save, a log or a table holds that this kalooki cannot play: the message says why."""


def read_saved_rules(
    rules: Any, whose: str, *, upgrade: str, invalid: str = "are invalid", editable: bool = False
) -> Variant:
    """The variant ``rules`` (as a save, log or welcome holds them) describe.

    ``whose`` names them in a refusal ("the saved game's rules"), followed by ``invalid`` and the
    fault; ``upgrade`` ends the refusal of rules from a newer kalooki ("upgrade kalooki to load it").
    ``editable``: the file has no checksum (a log), so a key like a knob's name (``jokerz``) may be a
    hand's mistake, said as `kalooki validate` says it. Raises SavedRulesError.
    """
    try:
        return Variant.model_validate(rules, strict=False, context={SAVED_RULES: True})
    except ValidationError as error:
        raise SavedRulesError(_refusal(error, rules, whose, invalid, upgrade, editable)) from None


def _refusal(
    error: ValidationError, rules: Any, whose: str, invalid: str, upgrade: str, editable: bool
) -> str:
    unknown = [
        str(problem["loc"][0])
        for problem in error.errors()
        if problem["type"] == "extra_forbidden" and len(problem["loc"]) == 1
    ]
    # Where no one edits the file (a save is checksummed, a welcome is the host's), not read as a
    # misspelling however close to a knob's name: a newer knob may be named like one (run_maximum).
    if unknown and editable:
        unknown = [key for key in unknown if not difflib.get_close_matches(key, KNOB_NAMES, n=1, cutoff=0.8)]
    if unknown:
        knob = clipped(escape_controls(unknown[0]))
        return (
            f"{whose} use '{knob}', a knob this kalooki does not know: a newer kalooki wrote them; {upgrade}"
        )
    return f"{whose} {invalid}: {rules_problem(error, rules)}"
