"""Pydantic's validation errors as positioned, plain messages, and the checks that go with them.

:func:`validation_diagnostics` turns each error of a :class:`pydantic.ValidationError` into a
:class:`~kalooki.diagnostics.Diagnostic` at the key or value it is about, worded for the author of
the file ("expected a whole number, got 'ten'"), with a YAML 1.1 hint, a spelling suggestion or the
number meant (:mod:`kalooki.numberwords`: ``ten`` is 10) where one helps. A union (a player written
as text or as ``{name, bot}``) is told by the member that takes the kind of value written, or in one
line naming what each takes ("expected text or a mapping, got 5"). :func:`text_lookalikes`
flags plain text that an editor (YAML 1.2) would read as a boolean or a number.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from annotated_types import Ge, Le
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from kalooki.diagnostics import (
    MAX_DIAGNOSTICS,
    Diagnostic,
    KeyPath,
    Location,
    YamlError,
    format_key_path,
    sort_diagnostics,
    value_at,
)
from kalooki.knob_words import KNOB_IN_PLAYERS_WORDS, boolean_word_hint
from kalooki.numberwords import number_hint
from kalooki.suggestions import suggest, suggest_value
from kalooki.text import escape_controls, lone_surrogate, unlike_ascii
from kalooki.variant import Variant
from kalooki.yamlscalars import (
    YAML12_BOOL,
    YAML12_NUMBER,
    describe_value,
    resolve_plain_scalar,
    yaml11_hint,
)

if TYPE_CHECKING:
    from kalooki.yamlio import YamlDocument


class Locator(Protocol):
    """Anything that can say where a value is: a :class:`YamlDocument`, or the ``--set`` options."""

    def location(self, path: Sequence[str | int], key: str | None = None) -> Location: ...

    def key_location(self, path: Sequence[str | int], key: str | None = None) -> Location: ...

    def scalar_text(self, path: Sequence[str | int]) -> str | None: ...


class Nowhere:
    """A locator for values whose place is unknown: the top of the file."""

    def __init__(self, source: str) -> None:
        self.source = source

    def location(self, path: Sequence[str | int], key: str | None = None) -> Location:
        return Location(self.source, 1, 1, format_key_path(path) if key is None else key)

    key_location = location

    def scalar_text(self, path: Sequence[str | int]) -> str | None:
        return None


def _inner_model(annotation: Any) -> Any:
    """What an annotation holds, looked through Optional / list[...] / dict[str, ...] to the model in it."""
    while typing.get_origin(annotation) is not None:
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        models = [arg for arg in args if isinstance(arg, type) and issubclass(arg, BaseModel)]
        annotation = models[0] if models else (args[-1] if args else None)
    return annotation


def _field_at(model: type[BaseModel] | None, loc: Sequence[str | int]) -> FieldInfo | None:
    """The field of the (nested) model that holds the value at ``loc``."""
    current: Any = model
    info = None
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        info = current.model_fields.get(part)
        if info is None:
            return None
        current = _inner_model(info.annotation)
    return info


def _fields_at(model: type[BaseModel] | None, loc: Sequence[str | int]) -> list[str]:
    """The field names of the (nested) model that holds the value at ``loc``."""
    current: Any = model
    if loc:
        info = _field_at(model, loc)
        current = None if info is None else _inner_model(info.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _span_at(model: type[BaseModel] | None, loc: Sequence[str | int]) -> str:
    """The whole numbers the field at ``loc`` takes (``0 to 8``), where it has both bounds; else ``""``."""
    info = _field_at(model, loc)
    metadata = [] if info is None else info.metadata
    low = next((item.ge for item in metadata if isinstance(item, Ge) and isinstance(item.ge, int)), None)
    high = next((item.le for item in metadata if isinstance(item, Le) and isinstance(item.le, int)), None)
    if not isinstance(low, int) or not isinstance(high, int) or max(abs(low), abs(high)) > MOST_SPOKEN:
        return ""
    nullable = info is not None and type(None) in typing.get_args(info.annotation)
    return f"{low} to {high}, or null" if nullable else f"{low} to {high}"  # ace_low_value: none meant null


MOST_SPOKEN = 10**6
"""The largest bound a range is told with: a seed's thirty nines say nothing a player can use."""


def _unquoted_kind(text: str) -> str:
    try:
        value = resolve_plain_scalar(text)
    except ValueError:
        return ""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return ""


def _words_with_commas(text: str) -> bool:
    """``ann, bob`` or ``7H,8H``: words (no space inside one) between commas."""
    pieces = [piece.strip() for piece in text.split(",")]
    return len(pieces) > 1 and all(piece and " " not in piece for piece in pieces)


def _message(
    error: Mapping[str, Any], found: bool, value: Any, plain_text: str | None, span: str = ""
) -> str:
    """``error`` worded for the author; ``span``: the whole numbers its field takes (``0 to 8``), if known."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    got = f", got {describe_value(value)}" if found else ""
    left_empty = value is None and found and plain_text == ""  # `description:` with nothing after it

    def with_hint(base: str, expected: str) -> str:
        hint = ""
        if plain_text is not None:
            hint = yaml11_hint(plain_text, expected)
        if not hint and expected in ("integer", "number") and isinstance(value, str):
            hint = number_hint(value)
        if not hint and expected == "boolean" and plain_text is not None:
            hint = boolean_word_hint(plain_text)
        if not hint and left_empty:
            hint = "give it a value, or leave the key out"
        if not hint and plain_text is None and isinstance(value, str):
            kind = _unquoted_kind(value)
            if kind == expected or (expected == "number" and kind == "integer"):
                hint = "in quotes it is text; remove the quotes"
        if not hint and span and expected == "integer" and found:
            # A word (many, lots) or a list where a count goes: what to write is the numbers it may be.
            hint = f"write {'one' if isinstance(value, list | dict) else 'a'} whole number from {span}"
        return f"{base}: {hint}" if hint else base

    if kind in ("int_type", "int_parsing", "int_from_float"):
        if isinstance(value, bool):
            return f"expected a whole number, got the boolean {describe_value(value)}"
        return with_hint(f"expected a whole number{got}", "integer")
    if kind in ("float_type", "float_parsing"):
        return with_hint(f"expected a number{got}", "number")
    if kind in ("bool_type", "bool_parsing"):
        return with_hint(f"expected true or false{got}", "boolean")
    if kind == "string_unicode":
        return (lone_surrogate(value) if isinstance(value, str) else None) or "not valid text"
    if kind in ("string_type", "str_type"):
        # A written null (NULL, ~) was probably meant as text; leaving the value out was not.
        quotable = isinstance(value, bool | int | float) or (value is None and bool(plain_text))
        suffix = " (put it in quotes to make it text)" if quotable else ""
        if left_empty:
            suffix = ": give it a value, or leave the key out"
        return f"expected text{got}{suffix}"
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        options = re.findall(r"'([^']*)'", expected)
        text = f"expected one of {', '.join(options)}{got}" if options else f"expected {expected}{got}"
        if left_empty:
            text += ": give it one, or leave the key out"
        if isinstance(value, str) and options:
            close = suggest_value(value, options)
            if close:
                text += f" (did you mean '{close}'?)"
        return text
    if kind in ("greater_than_equal", "less_than_equal") and span:
        return f"must be from {span}{got}"  # both ends: -1 jokers was told only "at least 0"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}{got}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}{got}"
    if kind == "greater_than":
        return f"must be more than {ctx.get('gt')}{got}"
    if kind == "less_than":
        return f"must be less than {ctx.get('lt')}{got}"
    if kind == "string_too_short":
        if ctx.get("min_length", 1) == 1:
            return "must not be empty"
        return f"must be at least {ctx.get('min_length')} characters long"
    if kind == "string_too_long":
        return f"must be at most {ctx.get('max_length')} characters long"
    if kind in ("too_short", "too_long"):
        bound = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        size = len(value) if found and isinstance(value, list | dict) else ctx.get("actual_length")
        text = f"expected at {'least' if kind == 'too_short' else 'most'} {_items(bound)}"
        return f"{text}, got {size}" if isinstance(size, int) else text
    if kind == "string_pattern_mismatch":
        return f"must match the pattern {ctx.get('pattern')}"
    if kind == "multiple_of":
        return f"must be a multiple of {ctx.get('multiple_of')}{got}"
    if kind == "finite_number":
        return f"must be a finite number{got}"
    if kind == "int_parsing_size":
        return "the number is too large"
    if kind == "none_required":
        return f"must be empty (null){got}"
    if kind == "enum":
        options = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        return f"expected one of {', '.join(options)}{got}" if options else f"not an accepted value{got}"
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind in ("list_type", "tuple_type"):
        # `players: ann, bob` is one piece of text to YAML: brackets make it the list it was meant as. Words
        # only: `not_played: knocking, which the text allows` may be one sentence, which brackets would
        # split in two, and a script's moves (`ann draw stock, ...`) are mappings: a line an item says it.
        if plain_text is not None and "," in plain_text:
            if not _words_with_commas(plain_text):
                return f"expected a list{got}: write each item on a line of its own below, after '- '"
            shown = f"[{plain_text}]" if len(plain_text) <= 60 else "[A, B, ...]"
            return f"expected a list{got}: write it in brackets, {shown}"
        return f"expected a list{got}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected a mapping{got}"
    if kind in ("value_error", "assertion_error"):
        return str(ctx.get("error", error["msg"]))
    return _plain_pydantic_message(str(error["msg"]))


def value_problem(error: Mapping[str, Any]) -> str:
    """One error of ``ValidationError.errors()`` (with its input) worded as a variant file's would be.

    For documents that are JSON, not YAML (a save's game state): there is no source text to hint from.
    """
    return _message(error, "input" in error, error.get("input"), None)


def _items(count: object) -> str:
    return f"{count} item" if count == 1 else f"{count} items"


def _plain_pydantic_message(message: str) -> str:
    """A pydantic message this module has no sentence for, without its "Value error, " style prefix."""
    message = re.sub(r"^(?:Value|Assertion) error, ", "", message)
    return message[:1].lower() + message[1:] if message[1:2].islower() else message


def validation_diagnostics(
    error: ValidationError,
    data: Any,
    locator: Locator,
    *,
    prefix: Sequence[str | int] = (),
    model: type[BaseModel] | None = None,
    key_label: Callable[[KeyPath], str] | None = None,
) -> list[Diagnostic]:
    """Turn a pydantic error into positioned diagnostics that quote at most a few characters of input.

    ``data`` is what was validated, found at ``prefix`` in the ``locator``'s input. ``model`` (the class
    validated) lets an unknown key get a "did you mean" from the valid keys at its level. ``key_label``
    names a path in messages (default: :func:`format_key_path` of the full path).
    """
    diagnostics: list[Diagnostic] = []
    # include_input=False: the input can be huge, and str(ValidationError) would serialise all of it.
    errors = [_Placed(item, data) for item in error.errors(include_input=False, include_url=False)]
    unknown: dict[KeyPath, int] = {}  # by the mapping they are in, where they come in the file's order
    for placed in _without_unmatched_members(errors):
        item, path = placed.item, placed.path
        full: KeyPath = (*prefix, *path)
        label = key_label(full) if key_label is not None else format_key_path(full)
        found, value = value_at(data, path)
        if item["type"] == "extra_forbidden":
            name = str(path[-1]) if path else ""
            message = f"unknown key '{name}'{unlike_ascii(name)}"
            within = unknown[tuple(path[:-1])] = unknown.get(tuple(path[:-1]), 0) + 1
            if within > MAX_DIAGNOSTICS:  # past the cut, unseen: 4,000 keys' hints took 3 s
                diagnostics.append(locator.key_location(full, label).error(message))
                continue
            fields = _fields_at(model, path[:-1])
            close = (
                _field_within(name, fields) or _knob_in_players_words(name, fields) or suggest(name, fields)
            )
            if close:
                message += f"; did you mean '{close}'?"
            else:
                message += _keys_about(name, fields, "knob" if model is Variant and not path[:-1] else "key")
            diagnostics.append(locator.key_location(full, label).error(message, meant=close or ""))
            continue
        if item["type"] == "missing":
            parent = full[:-1]
            diagnostics.append(locator.location(parent, label).error(_message(item, False, None, None)))
            continue
        message = _message(item, found, value, locator.scalar_text(full), _span_at(model, path))
        if item["type"] == "less_than_equal" and path and path[-1] in TOO_MANY_MEANT and value >= 10:
            message += f" ({TOO_MANY_MEANT[str(path[-1])]})"
        elif item["type"] == "greater_than_equal" and path and path[-1] in BELOW_ZERO_MEANT:
            message += f" ({BELOW_ZERO_MEANT[str(path[-1])]})"
        diagnostics.append(locator.location(full, label).error(_or_also(message, item, placed.also)))
    return diagnostics


TOO_MANY_MEANT = {"jokers": "the jokers in the pack: what a joker costs in hand is joker_penalty"}
"""For a knob given a two-digit number, more than it allows, the knob a player likely meant ("jokers are 15
here": jokers: 15); 9 jokers is more likely one too many."""

BELOW_ZERO_MEANT = {
    "kalooki_bonus": "the points each other player is charged: under scoring: winner_collects they are taken "
    "from their scores, so '-25 to each loser' is kalooki_bonus: 25 there"
}
"""For a knob given a negative number, the way to write what a player likely meant (rooms say "-25 to each
loser" for going Kalooki under winner collects)."""

_KIND_NOUNS: dict[str, str] = {
    "string_type": "text",
    "str_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}
"""The errors that say a value is of another kind than a type takes, and what that type takes."""


class _Placed:
    """One pydantic error, with the path of its value in the data and the union member it is about."""

    def __init__(self, item: Any, data: Any) -> None:
        self.item = item
        loc = tuple(item["loc"])
        # Union members show up in the location as type names: keep only the parts that are in the data
        # (and the name of a missing key, which by definition is not).
        self.path: list[str | int] = []
        self.member: tuple[KeyPath, str] | None = None
        """Where the (outermost) union is in the data, and which of its members this error is about."""
        self.also: list[str] = []
        """What the union's other members take, when none takes this kind of value."""
        current = data
        for index, part in enumerate(loc):
            found, child = value_at(current, [part])
            if found:
                self.path.append(part)
                current = child
            elif item["type"] == "missing" and index == len(loc) - 1:
                self.path.append(part)
            elif isinstance(part, str) and self.member is None:  # a member is named, never numbered
                self.member = (tuple(self.path), part)

    def wrong_kind_at(self, where: KeyPath) -> bool:
        return tuple(self.path) == where and self.item["type"] in _KIND_NOUNS


def _without_unmatched_members(errors: list[_Placed]) -> list[_Placed]:
    """The errors of a union's members that take the kind of value given, not of every member.

    Pydantic tries each member of a union (text or ``{name, bot}`` for a player) and reports them all:
    a mapping with a wrong ``bot`` is also "expected text, got a mapping", which is not the problem.
    Where no member takes the kind of value given, one error says what each would take.
    """
    members: dict[KeyPath, dict[str, list[_Placed]]] = {}
    for placed in errors:
        if placed.member is not None:
            where, name = placed.member
            members.setdefault(where, {}).setdefault(name, []).append(placed)
    dropped: set[int] = set()
    for where, by_member in members.items():
        if len(by_member) < 2:
            continue
        unmatched = [
            name for name, items in by_member.items() if all(item.wrong_kind_at(where) for item in items)
        ]
        if len(unmatched) < len(by_member):
            dropped.update(id(item) for name in unmatched for item in by_member[name])
            continue
        first, *others = (items[0] for items in by_member.values())
        first.also = [_KIND_NOUNS[other.item["type"]] for other in others]
        dropped.update(id(item) for items in by_member.values() for item in items if item is not first)
    return [placed for placed in errors if id(placed) not in dropped]


def _or_also(message: str, item: Mapping[str, Any], also: Sequence[str]) -> str:
    """``expected text, got 5`` as ``expected text or a mapping, got 5`` when a mapping is taken too."""
    said = f"expected {_KIND_NOUNS.get(item['type'])}"
    nouns = [said.removeprefix("expected ")]
    nouns += [noun for noun in dict.fromkeys(also) if noun not in nouns]
    if len(nouns) < 2 or not message.startswith(said):
        return message
    # "true or false, or a mapping": a comma keeps one choice's own "or" apart from the choices'.
    last = ", or " if any(" or " in noun for noun in nouns) else " or "
    return f"expected {', '.join(nouns[:-1])}{last}{nouns[-1]}{message.removeprefix(said)}"


def _knob_in_players_words(name: str, fields: Sequence[str]) -> str | None:
    words = _singular_words(name)
    for knob, phrases in KNOB_IN_PLAYERS_WORDS.items():
        if (
            knob in fields
            and knob != name
            and any(phrase <= words and (len(phrase) > 1 or phrase == words) for phrase in phrases)
        ):
            return knob
    return None


def _field_within(name: str, fields: Sequence[str]) -> str | None:
    """The longest field whose whole name is words of ``name``: ``jokers`` in ``jokers_per_pack``.

    Spelling alone would offer ``joker_penalty`` there, a different rule.
    """
    padded = f"_{re.sub(r'[^a-z0-9]+', '_', name.lower())}_"
    within = [field for field in fields if f"_{field}_" in padded and field != name]
    return max(within, key=len) if within else None


_WEAK_WORDS = frozenset(
    {
        "the",
        "and",
        "may",
        "can",
        "you",
        "only",
        "must",
        "take",
        "first",
        "draw",
        "out",
        "low",
        "high",
        "value",
    }
)
"""Words of a key too common to say what it is about (``first_meld`` is not about ``first_dealer``)."""


def _singular_words(name: str, shortest: int = 1) -> set[str]:
    """The words of a key of at least ``shortest`` letters, lower case and without a plural ``s``."""
    return {word.removesuffix("s") for word in re.split(r"[\W_]+", name.lower()) if len(word) >= shortest}


def _words(name: str) -> set[str]:
    """The words of a key that say what it is about (``take_discard_only`` -> discard)."""
    return _singular_words(name, shortest=3) - _WEAK_WORDS


def _keys_about(name: str, fields: Sequence[str], noun: str) -> str:
    """For a key with no near miss: the keys sharing a word with it, else where to find every knob.

    A player naming a rule in their own words (``discard_only_to_lay``) is shown the knobs that speak
    of it (``discard_draw``, ``turn_discard``), or, when none does, the command that lists them all.
    """
    words = _words(name)
    related = [field for field in fields if words & _words(field)]
    if related:
        shared = sorted(words & {word for field in related for word in _words(field)})
        plural = "s" if len(related) > 1 else ""
        return f"; the {noun}{plural} about {' and '.join(shared)}: {', '.join(related)}"
    if noun == "knob":
        return "; `kalooki variants show classic` lists every knob"
    return ""


def merge_recovered(
    error: YamlError, validate: Callable[[YamlDocument], list[Diagnostic]]
) -> list[Diagnostic]:
    """``error``'s diagnostics, plus what ``validate`` finds in the data it recovered (if any).

    A validation diagnostic at the very place of a YAML one is left out: it is a consequence
    (an alias read as null), not a second problem.
    """
    diagnostics = list(error.diagnostics)
    if error.document is not None:
        places = {(item.path, item.line, item.column) for item in diagnostics}
        diagnostics += [
            item for item in validate(error.document) if (item.path, item.line, item.column) not in places
        ]
    return sort_diagnostics(diagnostics)


def text_lookalikes(document: YamlDocument, reported: Iterable[Diagnostic] = ()) -> list[Diagnostic]:
    """Plain text values that YAML 1.2 reads as a boolean or a number (``True``, ``0x10``, ``1e3``, ``.inf``).

    This module reads them as text, but an editor (YAML 1.2) reads them as values and flags them
    where text is expected; so that both agree they are refused, with the fix: quote them. A value
    at the place of a diagnostic in ``reported`` (where a number was expected, say) is left out.
    """
    places = {(item.line, item.column) for item in reported if item.path == document.source}
    found: list[Diagnostic] = []
    for path, scalar in document._scalars.items():
        if not scalar.plain or not isinstance(value_at(document.data, path)[1], str):
            continue
        kind = "a boolean" if YAML12_BOOL.fullmatch(scalar.text) else None
        if kind is None and YAML12_NUMBER.fullmatch(scalar.text):
            kind = "a number"
        location = document.location(path)
        if kind is not None and (location.line, location.column) not in places:
            found.append(
                location.error(
                    f"{scalar.text} is {kind} in YAML 1.2 (and in editors): put it in quotes to make it text"
                )
            )
    return found


def iter_mapping(
    document: YamlDocument, path: Sequence[str | int] = ()
) -> Iterator[tuple[str, Any, Location]]:
    """The entries of the mapping at ``path``, in file order, with each value's location."""
    found, mapping = value_at(document.data, path)
    if not found or not isinstance(mapping, dict):
        return
    for key, value in mapping.items():
        yield key, value, document.location((*path, key))


def rules_problem(error: ValidationError, rules: Any) -> str:
    """The first fault of ``rules`` (a variant's knobs held in a save or a log, refused with ``error``) as
    one line, ``variant.KNOB: message``, worded as `kalooki validate` words the same mistake in a file."""
    problem = validation_diagnostics(error, rules, Nowhere(""), prefix=("variant",), model=Variant)[0]
    return escape_controls(f"{problem.key}: {problem.message}")
