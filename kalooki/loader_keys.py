"""A variant file's own keys, each checked on its own: knobs, ``source``, ``provenance`` and ``not_played``.

Bases and the rules among several knobs are :mod:`kalooki.loader_layers`'; this module also tells a
file that is no variant at all (a game script, a report, another program's JSON) from one with mistakes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from kalooki import provenance as provenance_keys
from kalooki.diagnostics import MAX_DIAGNOSTICS
from kalooki.file_kinds import another_kind, is_script_data, written_file
from kalooki.safeio import FileReadError, read_regular_file
from kalooki.set_options import not_a_base
from kalooki.variant import DEFER_CROSS_FIELD, KNOB_NAMES, Variant
from kalooki.yamlio import (
    MAX_BYTES,
    Diagnostic,
    KeyPath,
    YamlDocument,
    suggest,
    text_lookalikes,
    validation_diagnostics,
)

VARIANT_KEYS = frozenset({*Variant.model_fields, "extends", *provenance_keys.KEYS})


def _other_kind(document: YamlDocument) -> str | None:
    """What a file that is clearly not a variant is (None when it may be one): a script, a report, other.

    Other: a JSON object (a file a program wrote) none of whose keys is a variant's or a near miss of
    one. A hand-written file's keys are more likely a variant author's mistakes, each worth its line.
    """
    data, source = document.data, document.source
    written = written_file(data, "variant")
    if written is not None:  # before scripts: a simulate report counts its "hands" too
        return written
    if is_script_data(data):
        return another_kind("script", "variant", source)
    keys = [str(key) for key in data]
    if (
        not keys
        or not document.top_in_braces
        or any(key in VARIANT_KEYS or suggest(key, VARIANT_KEYS) for key in keys)
    ):
        return None
    shown = ", ".join(keys[:3]) + (", ..." if len(keys) > 3 else "")
    return f"this is a JSON object none of whose keys ({shown}) is a variant's: not a variant file"


_KEY_AT_LINE_START: Final = re.compile(
    r"(?:^|[{,])[ \t]*[\"']?(?:" + "|".join(sorted(VARIANT_KEYS)) + r")[\"']?[ \t]*:", re.MULTILINE
)
"""A variant's key where a line (or a flow mapping's entry) begins: ``jokers:``, ``{"name": ...``."""


def may_be_variant_text(path: Path) -> bool:
    """Whether a file that is not YAML may be a variant with a syntax mistake: one of its lines begins
    with a variant's key. A file that cannot be read again is given the benefit of the doubt."""
    try:
        text = read_regular_file(path, MAX_BYTES).decode("utf-8", "replace")
    except FileReadError:
        return True
    return _KEY_AT_LINE_START.search(text) is not None


def not_a_variant(document: YamlDocument) -> bool:
    """A base file with keys but none of a variant's: another kind of YAML file, whose keys are not echoed."""
    return bool(document.data) and not has_variant_keys(document)


def has_variant_keys(document: YamlDocument) -> bool:
    """Whether any key of the document is a variant's: a variant file, if not a valid one."""
    return isinstance(document.data, dict) and any(key in Variant.model_fields for key in document.data)


def own_problems(document: YamlDocument) -> list[Diagnostic]:
    """The problems of a file's own keys, each on its own (bases and cross-field rules aside)."""
    data = document.data
    # Not a variant with many unknown keys: one line that says what the file is instead.
    other = _other_kind(document)
    if other is not None:
        return [Diagnostic(document.source, 1, 1, "", other)]
    own, _ = provenance_keys.split({key: value for key, value in data.items() if key != "extends"})
    problems: list[Diagnostic] = []
    unknown = 0
    for item in field_problems(own, document, ()):
        unknown += item.message.startswith("unknown key ")
        # They come in the file's order: past as many as are shown, none is, and needs no hint worked out.
        problems.append(_knobs_nested(item, own) if unknown <= MAX_DIAGNOSTICS else item)
    problems += provenance_keys.problems(document)
    # `extends: True` is already an unknown variant, reported with the bases.
    lookalikes = [item for item in text_lookalikes(document, problems) if not item.key.startswith("extends")]
    return problems + lookalikes


def _knobs_nested(problem: Diagnostic, data: dict[str, Any]) -> Diagnostic:
    """``problem``, where it is an unknown key holding knobs (a game script's ``set:``, a ``rules:``
    heading), saying that a variant file gives its knobs at the top level: it was offered the knobs
    whose names share a word with the heading (``set:``'s were set_suits, set_maximum ...). A misspelt
    ``source``, ``provenance`` or ``not_played`` (``provenence:``, knobs and all) is told its spelling."""
    held = data.get(problem.key)
    if not problem.message.startswith("unknown key "):
        return problem
    unknown, key = problem.message.partition(";")[0], problem.key
    close = suggest(key, provenance_keys.KEYS)  # the knobs' model has none of these keys to offer
    # A knob may be offered already, but a key of these spelt closer is the one meant (not_playd was
    # offered min_players).
    if close and (not problem.meant or _likeness(key, close) > _likeness(key, problem.meant)):
        return replace(problem, message=f"{unknown}; did you mean '{close}'?", meant=close)
    if "did you mean" in problem.message:
        return problem
    if not isinstance(held, dict) or not any(name in VARIANT_KEYS and name != "extends" for name in held):
        return problem
    fix = f"delete the line {key}: and unindent the lines below it"
    return replace(
        problem, message=f"{unknown}; a variant file gives its knobs at the top level, not under {key}: {fix}"
    )


def _likeness(word: str, other: str) -> float:
    return difflib.SequenceMatcher(None, word, other).ratio()


def field_problems(
    data: dict[str, Any], locator: Any, prefix: KeyPath, *, overriding: bool = False
) -> list[Diagnostic]:
    """The problems of ``data``'s knobs, each on its own; ``overriding``: ``data`` changes a variant
    given (a script's ``set:``, a mapping of overrides), so an unknown key is not taken for ``extends``."""
    try:
        Variant.model_validate(data, context={DEFER_CROSS_FIELD: True})
    except ValidationError as error:
        problems = validation_diagnostics(error, data, locator, prefix=prefix, model=Variant)
        if not overriding:
            return problems
        changer = f"{prefix[-1]}:" if prefix else "the mapping"
        return [not_a_base(item, changer) for item in problems]
    return []


_QUOTE_IT: Final = re.compile(r"(.*: )put the value in quotes: (\w+): (?:\"(.*)\"|'(.*)')$")
"""The YAML reader's hint for a colon and a space inside a value (:mod:`kalooki.yamlsyntax`)."""
_NEXT_KEY: Final = re.compile(r"(\S.*?)\s+([^\s:]+):(?: +(.*))?$")
"""A value that is a value and then another key (``40  jokers: 2``)."""


def one_key_per_line(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` with the hint to quote a knob's value that runs into another key (a line feed
    forgotten: ``opening_threshold: 40  jokers: 2``) made one to write each key on its own line: every
    knob's value is a number, a boolean or a word, and "40  jokers: 2" in quotes is none of them."""
    mended: list[Diagnostic] = []
    for item in diagnostics:
        hint = _QUOTE_IT.match(item.message)
        value = hint[3] if hint and hint[3] is not None else hint[4].replace("''", "'") if hint else ""
        found = _NEXT_KEY.match(value) if hint and hint[2] in KNOB_NAMES else None
        if hint is None or found is None:
            mended.append(item)
            continue
        then = f"{found[2]}: {found[3]}" if found[3] else f"{found[2]}:"
        message = f"{hint[1]}write one key per line: {hint[2]}: {found[1]}, then {then} on a line of its own"
        mended.append(replace(item, message=message))
    return mended
