"""``--set KEY=VALUE`` options: each value read as a YAML scalar and checked on its own, before any
variant file is read.

:func:`~kalooki.loader.resolve_variant` applies them on top of a variant's files; a bad option is
reported at ``--set:N:COL`` (N is which option), together with the file's own problems.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from kalooki.loader_refs import VariantError
from kalooki.provenance import KEYS as PROVENANCE_KEYS
from kalooki.text import not_utf8, undecodable_byte, unlike_ascii
from kalooki.variant import DEFER_CROSS_FIELD, KNOB_NAMES, Variant
from kalooki.yamlio import (
    Diagnostic,
    Location,
    format_key_path,
    parse_scalar_text,
    sort_diagnostics,
    validation_diagnostics,
)
from kalooki.yamlscalars import ValueTextError

__all__ = ["SET_SOURCE", "SetOptions", "parse_set_options"]

SET_SOURCE = "--set"
"""The FILE part of a diagnostic about a ``--set`` option (its LINE is which option, 1 for the first)."""


@dataclass(frozen=True)
class SetOptions:
    """Parsed ``--set KEY=VALUE`` options; also a :class:`~kalooki.yamlio.Locator` for their diagnostics."""

    options: tuple[str, ...]
    values: dict[str, Any]
    _where: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _plain: dict[str, str] = field(default_factory=dict, repr=False)
    source: str = SET_SOURCE
    """The option's name, the FILE part of its diagnostics (``--set``, or e.g. ``--set-a``)."""

    def location(self, path: Sequence[str | int], key: str | None = None) -> Location:
        name = str(path[0]) if path else ""
        line, column = self._where.get(name, (1, 1))
        return Location(self.source, line, column, format_key_path(path) if key is None else key)

    def key_location(self, path: Sequence[str | int], key: str | None = None) -> Location:
        name = str(path[0]) if path else ""
        line, _ = self._where.get(name, (1, 1))
        return Location(self.source, line, 1, format_key_path(path) if key is None else key)

    def scalar_text(self, path: Sequence[str | int]) -> str | None:
        return self._plain.get(str(path[0])) if len(path) == 1 else None

    def option_text(self, name: str) -> str:
        line, _ = self._where[name]
        return self.options[line - 1]


def parse_set_options(options: Sequence[str], source: str = SET_SOURCE) -> SetOptions:
    """Read ``KEY=VALUE`` options (values are YAML scalars) and check each value on its own.

    Raises :class:`VariantError` listing every bad option, e.g.
    ``--set:2:19: opening_threshold: expected a whole number, got 'yes'`` (LINE is which
    option, COL the character in ``KEY=VALUE``). A key given twice is refused, as ``--baseline`` and
    ``--grid`` refuse a knob named twice: which of two values was meant cannot be known.
    ``source`` is the option's name as diagnostics show it.
    """
    problems: list[Diagnostic] = []
    values: dict[str, Any] = {}
    where: dict[str, tuple[int, int]] = {}
    plain: dict[str, str] = {}
    first: dict[str, int] = {}
    for index, option in enumerate(options, start=1):
        key, equals, text = option.partition("=")
        key = key.strip()
        byte = undecodable_byte(option)
        if byte is not None:  # said as a file holding it is, at the byte
            named = key if equals and byte[0] > len(option) - len(text) - 1 else ""
            problems.append(Diagnostic(source, index, byte[0] + 1, named, not_utf8(byte[1])))
            continue
        if not equals or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", key):
            problems.append(
                Diagnostic(
                    source,
                    index,
                    1,
                    "",
                    f"expected KEY=VALUE (e.g. opening_threshold=40), got {option!r}"
                    + (unlike_ascii(key) if equals else ""),
                )
            )
            continue
        column = len(option) - len(text) + 1
        # Several knobs in one option, as some tools take them (opening_threshold=40,jokers=4): said so, not
        # "expected a whole number, got '40,jokers=4'".
        joined = re.search(r",\s*([A-Za-z_][A-Za-z0-9_-]*)\s*=", text)
        if joined is not None and joined.group(1) in KNOB_NAMES and key in KNOB_NAMES:
            parts = [f"{key}={text[: joined.start()].strip()}"]
            parts += [part.strip() for part in text[joined.start() + 1 :].split(",") if part.strip()]
            each = " ".join(f"{source} {part}" for part in parts)
            problems.append(
                Diagnostic(
                    source, index, column + joined.start(), key, f"give each knob its own {source}: {each}"
                )
            )
            continue
        if key == "extends":
            problems.append(
                Diagnostic(source, index, 1, key, f"a variant's bases cannot be changed with {source}")
            )
            continue
        if key in first:
            message = f"already given by {source} option {first[key]}: give its value once"
            problems.append(Diagnostic(source, index, 1, key, message))
            continue
        first[key] = index
        try:
            values[key] = parse_scalar_text(text)
        except ValueTextError as error:
            problems.append(Diagnostic(source, index, column + error.offset, key, str(error)))
            continue
        where[key] = (index, column)
        stripped = text.strip()
        if stripped[:1] not in ("'", '"'):
            plain[key] = stripped
    parsed = SetOptions(tuple(options), values, where, plain, source)
    try:
        Variant.model_validate(values, context={DEFER_CROSS_FIELD: True})
    except ValidationError as error:
        problems.extend(
            head_count_noted(not_a_base(item, source), AT_THE_TABLE)
            for item in validation_diagnostics(error, values, parsed, model=Variant)
        )
    if problems:
        raise VariantError(sort_diagnostics(problems))
    return parsed


def not_a_base(problem: Diagnostic, source: str) -> Diagnostic:
    """``problem``, where it takes an unknown key for ``extends`` (``variant=kalooki-40``, ``extend=...``),
    saying what ``source`` changes instead: bases cannot be changed there, so "did you mean" misleads.
    Where the key is one that says where rules come from (``source``, ``provenance``, ``not_played``), it
    says they are written in a variant file (``not_played`` was offered min_players). ``source`` names
    what gives the knobs (``--set``, a script's ``set:``)."""
    unknown = problem.message.partition(";")[0]
    if problem.key.rpartition(".")[2] in PROVENANCE_KEYS and problem.message.startswith("unknown key "):
        return replace(
            problem,
            message=f"{unknown}; {source} changes the rules' knobs: where they come from is written in a "
            "variant file (source, provenance, not_played)",
            meant="",
        )
    if problem.meant != "extends":
        return problem
    return replace(
        problem, message=f"{unknown}; {source} changes the knobs of the variant given, not which it is"
    )


_HEAD_COUNTS = frozenset({"players", "player", "num_players", "number_of_players", "player_count", "seats"})
"""Keys that ask for how many play: no knob (min_players and max_players bound it), but an option."""

AT_THE_TABLE = (
    "the number of players at the table is the --players option of kalooki play, host, simulate and sweep"
)
"""Where the number of players is set on the command line (``--set players=3`` asks for it)."""


def head_count_noted(problem: Diagnostic, note: str, prefix: str = "") -> Diagnostic:
    """``problem``, and where it is an unknown key ``PREFIX + word`` asking for the number of players,
    ``note`` in brackets after it: `--set players=3` is offered min_players, which would not seat three."""
    key = problem.key.lower()
    if not key.startswith(prefix) or key[len(prefix) :] not in _HEAD_COUNTS:
        return problem
    if not problem.message.startswith("unknown key "):
        return problem
    return replace(problem, message=f"{problem.message} ({note})")
