"""Where a variant's rules come from: a file's ``source``, its per-knob ``provenance`` and ``not_played``.

A variant file may name the rule text it follows and, for any knob, the words of that text the
value comes from (quoted, translated where needed, with the reader's reading of unclear
sentences)::

    source: 'the Czech "500" rummy rules'
    provenance:
      goal_score: '"Cílem je být prvním hráčem, který dosáhne alespoň 500 bodů" (to be the first to 500)'

What the text has that no knob expresses (a pool paid into each deal, knocking) is listed under
``not_played``, each in the text's words and why; it goes with ``source``: a file naming its own
source, or giving its own list, drops its bases'.

All three are checked like knobs (``provenance`` keys must be knob names; texts must not be empty) and
inherited like them: a knob's provenance comes from the file that set its value, and a file that
changes a knob without saying why drops what its base said about the old value. A knob nobody
gives provenance for is "not stated" in the source: it keeps classic's default, or its base's
value. ``kalooki rules`` lists every knob with its provenance, marking those the source does not
state. These describe the rules; they are not rules, so they are not part of
:class:`~kalooki.variant.Variant` (nor of saves and logs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from kalooki.text import escape_controls, first_control, markdown_literal
from kalooki.variant import KNOB_NAMES, PRINTABLE_LINES_SCHEMA, Variant, control_message
from kalooki.yamlio import Diagnostic, YamlDocument, suggest, validation_diagnostics

KEYS = ("source", "provenance", "not_played")
"""The top-level keys of a variant file that describe where its rules come from."""


def _printable_text(value: str) -> str:
    # kalooki rules prints it: an escape sequence could retitle the terminal or clear it, and a direction
    # override turn the rest of the line round (as in a variant's name and description). A quote may run
    # over lines (a YAML block, `|` or `>`): its line feeds stay.
    control = first_control(value.replace("\n", " "))
    if control is not None:
        raise ValueError(control_message(control, line_breaks=True))
    return value


Text = Annotated[
    str,
    Field(min_length=1, json_schema_extra=PRINTABLE_LINES_SCHEMA),
    AfterValidator(_printable_text),
]


class Sources(BaseModel):
    """The provenance keys of one variant file."""

    model_config = ConfigDict(extra="forbid", strict=True)

    source: Annotated[
        Text | None,
        Field(
            description=(
                "The rule text this variant follows, by its own name; inherited by variants that "
                "extend this one unless they name their own."
            ),
        ),
    ] = None
    provenance: Annotated[
        dict[str, Text],
        Field(
            json_schema_extra={"propertyNames": {"enum": list(KNOB_NAMES)}},
            description=(
                "For each knob, where its value comes from: the source's own words (quoted, translated "
                "where needed) and how an unclear sentence was read. `kalooki rules` shows them and "
                "marks every other knob as not stated in the source."
            ),
        ),
    ] = {}
    not_played: Annotated[
        list[Text],
        Field(
            description=(
                "What the rule text has that this variant does not play (a rule no knob expresses, such as a "
                "pool paid into each deal), each in the text's words and why; `kalooki rules` lists them. "
                "Inherited with the source: a variant naming its own source, or giving its own list, drops "
                "its bases'."
            ),
        ),
    ] = []


def split(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A file's keys as (everything else, the provenance keys)."""
    rest = {key: value for key, value in data.items() if key not in KEYS}
    meta = {key: value for key, value in data.items() if key in KEYS}
    return rest, meta


def problems(document: YamlDocument) -> list[Diagnostic]:
    """What is wrong with a file's ``source``, ``provenance`` and ``not_played``, each at its place."""
    _, meta = split(document.data)
    if not meta:
        return []
    found: list[Diagnostic] = []
    try:
        Sources.model_validate(meta)
    except ValidationError as error:
        found += validation_diagnostics(error, meta, document, model=Sources)
    given = meta.get("provenance")
    for knob in given if isinstance(given, dict) else ():
        if knob not in KNOB_NAMES:
            close = suggest(knob, KNOB_NAMES)
            hint = f"; did you mean '{close}'?" if close else ": provenance is given per knob"
            location = document.key_location(("provenance", knob))
            found.append(location.error(f"'{knob}' is not a knob{hint}"))
    return found


def render_provenance(
    variant: Variant,
    provenance: Mapping[str, str],
    source: str | Sequence[str] | None,
    set_at: Mapping[str, str],
    not_played: Sequence[str] = (),
) -> str:
    """The rulebook's last section: every knob's value and where it comes from, in Markdown.

    ``source``: the rule text, or the texts (a file over two bases, each quoting its own).
    ``set_at`` says where a knob without provenance was set, when not left at classic's default
    (``builtin:kalooki-40:12:1``, ``--set opening_threshold=40``). ``not_played``: what the source has
    that the variant does not play, listed after the knobs.
    """
    texts = [source] if isinstance(source, str) else list(source or ())
    # The file's words are shown as written, not as Markdown: a link or a '# ' line in them is text.
    named = [markdown_literal(text) for text in texts if text]
    words = {knob: markdown_literal(said) for knob, said in provenance.items()}
    # The source is named once, here: each line that is not its words says only that (a long title
    # repeated on every line the text is silent on buried the rules).
    if len(named) > 1:
        intro = f"Sources: {'; '.join(named)}. Rules marked *not stated* are in none of them"
    elif named:
        intro = f"Source: {named[0]}. Rules marked *not stated* are not in it"
    else:
        intro = "No source is named. Rules marked *not stated* are not in it"
    lines = ["## Where each rule comes from", "", f"{intro}: they keep the value shown.", ""]
    for knob in KNOB_NAMES:
        value = getattr(variant, knob)
        shown = "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
        said = words.get(knob)
        if said is not None and said.lower().startswith("not stated"):
            lines.append(f"- `{knob}: {shown}`: *{said}*")
        elif said is not None:
            lines.append(f"- `{knob}: {shown}`: {said}")
        elif knob in set_at:
            # The value is the file's or option's own: "not stated in" would read as the source being
            # silent on a rule it may well state otherwise (classic's jokers cost 25, ours 15).
            where = (", not from the sources" if len(named) > 1 else ", not from the source") if named else ""
            # A file's name is the file system's: spelled out, as in a diagnostic, not sent to the terminal.
            at = markdown_literal(escape_controls(set_at[knob]))
            lines.append(f"- `{knob}: {shown}`: set at {at}{where}")
        else:
            lines.append(f"- `{knob}: {shown}`: *not stated: classic's default*")
    if not_played:
        if named:
            sources = "the sources have" if len(named) > 1 else "the source has"
            heading = f"What {sources} that this variant does not play (no knob expresses it):"
        else:  # "No source is named", said above
            heading = "What this variant does not play (no knob expresses it):"
        lines += ["", heading, ""]
        lines += [f"- {markdown_literal(text)}" for text in not_played]
    lines.append("")
    return "\n".join(lines)
