"""The layers of a variant: its file over its ``extends`` bases, then a mapping's overrides, then ``--set``.

:func:`resolve` reads a variant file and, depth first, the bases it names (found by
:mod:`kalooki.loader_refs`), each read once and checked for ``extends`` cycles. Each layer
records, knob by knob, the value, where it was set (:class:`Origin`) and how specific that
place is, so that a rule involving several knobs is reported at the one the author set last.
Every knob is validated on its own where it is written (:mod:`kalooki.loader_keys`); the rules
across knobs are checked once, on the merged variant. The public entry points are in :mod:`kalooki.loader`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from kalooki import provenance as provenance_keys
from kalooki.file_kinds import (
    FileKind,
    another_kind_of_base,
    game_file_kind,
    is_script_data,
    not_a_variant_message,
)
from kalooki.loader_keys import (
    field_problems,
    may_be_variant_text,
    not_a_variant,
    one_key_per_line,
    own_problems,
)
from kalooki.loader_keys import has_variant_keys as has_variant_keys  # cli.wrong_file asks it here
from kalooki.loader_origins import DEFAULT_ORIGIN, Origin, ResolvedVariant
from kalooki.loader_refs import BUILTIN_PREFIX, VariantError, base_key, locate_base, resolved
from kalooki.set_options import SetOptions
from kalooki.text import spell_bytes
from kalooki.validation import Nowhere
from kalooki.variant import DEFER_CROSS_FIELD, KNOB_NAMES, Variant
from kalooki.variant_checks import cross_field_problems
from kalooki.yamlio import (
    Diagnostic,
    KeyPath,
    Location,
    YamlDocument,
    YamlError,
    describe_value,
    load_yaml_file,
    sort_diagnostics,
    validation_diagnostics,
)

SCRIPT_HINT_KEYS = ("players", "hands")
"""Top-level keys of a game script: a variant file holding a list of ``players`` or any ``hands`` is one."""

_FILE_ONLY = ("name", "description")


# --------------------------------------------------------------------------- overrides


@dataclass(frozen=True)
class MappingOverrides:
    """Knob values given as a mapping inside another document, e.g. a game script's ``set:``: ``document``
    is the loaded file, ``path`` where the mapping is in it (diagnostics say ``set.opening_threshold``)."""

    document: YamlDocument
    path: KeyPath = ("set",)


# --------------------------------------------------------------------------- resolution


@dataclass
class _Layer:
    knobs: dict[str, Any] = field(default_factory=dict)
    origins: dict[str, Origin] = field(default_factory=dict)
    # When each knob was last set, so a cross-field error can point at the most specific source.
    order: dict[str, int] = field(default_factory=dict)
    provenance: dict[str, str] = field(default_factory=dict)
    source: str | None = None
    texts: list[str] = field(default_factory=list)
    not_played: list[str] = field(default_factory=list)

    def copy(self) -> _Layer:
        """A layer of the same values, whose lists and mappings are its own."""
        return _Layer(
            dict(self.knobs),
            dict(self.origins),
            dict(self.order),
            dict(self.provenance),
            self.source,
            list(self.texts),
            list(self.not_played),
        )

    def set_knob(self, knob: str, value: Any, origin: Origin, rank: int) -> None:
        """Set a knob; what a base said about an old value no longer applies, about the same value it does."""
        self._forget_if_changed(knob, value)
        self.knobs[knob] = value
        self.origins[knob] = origin
        self.order[knob] = rank

    def absorb(self, base: _Layer) -> None:
        """Take in a base's knobs over those of earlier bases, with what it quotes of its source."""
        for knob, value in base.knobs.items():
            self._forget_if_changed(knob, value)
        self.knobs.update(base.knobs)
        self.origins.update(base.origins)
        self.order.update(base.order)
        self.provenance.update(base.provenance)
        self.source = base.source or self.source
        self.texts += [text for text in base.texts if text not in self.texts]  # two bases, two texts
        self.not_played += [text for text in base.not_played if text not in self.not_played]

    def _forget_if_changed(self, knob: str, value: Any) -> None:
        # A file restating its base's value (`joker_penalty: 15` over kalooki-40) keeps the words that
        # value came from; a new value drops them.
        field_info = Variant.model_fields.get(knob)
        current = self.knobs.get(knob, field_info.default if field_info is not None else None)
        if type(value) is not type(current) or value != current:
            said = self.provenance.pop(knob, None)
            # Words given for several knobs speak of them together ("2 decks and 2 jokers, 106 cards"):
            # the others keep them (the source does state their values), with the knob changed named.
            for other in [other for other, words in self.provenance.items() if words == said]:
                self.provenance[other] = f"{said} (said with {knob}, which this variant changes)"

    def add_file(self, document: YamlDocument, rank: int, leave_out: frozenset[str] = frozenset()) -> None:
        """Set the file's own knobs over its bases', all at ``rank``, with what it says of its source;
        ``leave_out``: knobs in error, left at their bases' values (and what it says of its source)."""
        knobs, meta = provenance_keys.split(document.data)
        for knob, value in knobs.items():
            if knob in _FILE_ONLY or knob == "extends" or knob in leave_out:
                continue
            self.set_knob(knob, value, Origin.at(document.location((knob,))), rank)
        source = None if "source" in leave_out else meta.get("source")
        if source:  # another text: what the bases quoted from theirs does not say where these rules come from
            self.provenance.clear()
            self.texts = [source]
            self.not_played = []
        if "not_played" in meta and "not_played" not in leave_out:
            self.not_played = list(meta["not_played"])  # the file's own list for its text, whole
        self.provenance.update({} if "provenance" in leave_out else meta.get("provenance") or {})
        self.source = source or self.source


MAX_EXTENDS_DEPTH: Final = 32
"""The most files one chain of ``extends`` may pass through, the first included: each is read within
the last, and a chain of a thousand shared files would exhaust Python's recursion."""


def _cycle(chain: tuple[tuple[Path, str], ...], base_path: Path, base_display: str) -> str | None:
    """The cycle a file in ``chain`` closes by extending this base, as "a -> b -> a", or None."""
    resolved_chain = [path for path, _ in chain]
    target = resolved(base_path)  # once: resolving reads the file system
    if target not in resolved_chain:
        return None
    return " -> ".join([name for _, name in chain[resolved_chain.index(target) :]] + [base_display])


@dataclass
class _FileResult:
    layer: _Layer | None
    document: YamlDocument | None
    too_deep: bool = False
    """Its only fault is a chain too long: said once, where it goes too deep, not again by each file above."""
    sound_part: _Layer | None = None
    """For a file whose only faults are knobs of its own (its bases sound): its bases' knobs and its own
    sound ones, to check the rules that involve several knobs where none of them is in error."""
    faulty: frozenset[str] = frozenset()
    """The knobs of its own in error (with ``sound_part``)."""


class _Resolver:
    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.sources: list[str] = []
        self.done: dict[Path, _FileResult] = {}
        self.counter = 0

    def tick(self) -> int:
        self.counter += 1
        return self.counter

    def file(
        self,
        path: Path,
        display: str,
        chain: tuple[tuple[Path, str], ...],
        document: YamlDocument | None = None,
        base_of: Location | None = None,
        recovered: Sequence[Diagnostic] = (),
    ) -> _FileResult:
        """Resolve one file (``document`` when it is already loaded, e.g. from text).

        ``base_of``: where the ``extends`` that names this file is, for a file that cannot be read or is
        not a variant file at all (said there in one line, without echoing the file's content).
        ``recovered``: the YAML problems of a ``document`` read past them (a duplicate key, a bad
        number); its bases are still followed, so that their problems are said in the same run.
        """
        key = resolved(path)
        if key in self.done:
            return self.done[key]
        if document is None:
            document, recovered = self._read(path, display, base_of)
        if document is None or (
            base_of is not None and self._not_a_variant(path, document, display, base_of)
        ):
            self.done[key] = _FileResult(None, None)
            return self.done[key]
        chain = (*chain, (key, display))
        problems: list[Diagnostic] = []
        layer = _Layer()
        too_deep = False
        for reference, location in self._bases(document, problems):
            base = locate_base(reference, path, display, location, problems)
            if base is None:
                continue
            base_path, base_display = base
            cycle = _cycle(chain, base_path, base_display)
            if cycle is not None:
                problems.append(location.error(f"extends cycle: {cycle}"))
                continue
            if len(chain) >= MAX_EXTENDS_DEPTH:
                problems.append(
                    location.error(
                        f"more than {MAX_EXTENDS_DEPTH} files deep: {chain[0][1]} -> ... -> {base_display}; "
                        "merge some of them"
                    )
                )
                too_deep = True
                continue
            result = self.file(base_path, base_display, chain, base_of=location)
            if result.layer is not None:
                layer.absorb(result.layer)
            elif result.document is not None and not result.too_deep:
                # Say why another file's errors are listed: this file extends it.
                problems.append(location.error(f"the base {base_display} is not valid (see its errors)"))
        own = own_problems(document)
        # A file read past YAML problems is no source of knobs, even sound-looking ones.
        sound_bases = not problems and not recovered
        if recovered:
            # A problem at the very place of a YAML one is its consequence (an alias read as null).
            places = {(item.path, item.line, item.column) for item in recovered}
            own = [*recovered, *(item for item in own if (item.path, item.line, item.column) not in places)]
        problems.extend(own)
        self.diagnostics.extend(problems)
        self.sources.append(display)
        if problems:
            faulty = _faulty_knobs(own) if sound_bases else None
            if faulty is None:
                self.done[key] = _FileResult(None, document, too_deep)
            else:
                layer.add_file(document, self.tick(), leave_out=faulty)
                self.done[key] = _FileResult(None, document, too_deep, layer, faulty)
        else:
            # One rank for the whole file: it is more specific than its bases, and within it no key is.
            layer.add_file(document, self.tick())
            self.done[key] = _FileResult(layer, document)
        return self.done[key]

    def _read(
        self, path: Path, display: str, base_of: Location | None
    ) -> tuple[YamlDocument | None, tuple[Diagnostic, ...]]:
        """The file's document and the YAML problems it was read past (a duplicate key, say), or None
        with its errors said (in one line, at ``base_of``, if unreadable)."""
        other = not_a_variant_message(path, display) if base_of is None else None
        if other is not None:  # a save or a log: what it is, not its keys or a YAML error
            self.diagnostics.append(Diagnostic(display, 1, 1, "", other))
            return None, ()
        try:
            return load_yaml_file(path, display=display), ()
        except YamlError as error:
            said = one_key_per_line(error.diagnostics)
            if error.document is not None:
                return error.document, tuple(said)
            unread = all(item.line == 0 for item in error.diagnostics)
            if unread and base_of is not None:
                reasons = "; ".join(item.message for item in error.diagnostics)
                self.diagnostics.append(base_of.error(f"cannot read the base {display}: {reasons}"))
            elif base_of is not None and (kind := game_file_kind(path)) is not None:  # a log is no YAML
                self.diagnostics.append(base_of.error(another_kind_of_base(kind, display, base_key(base_of))))
            elif base_of is not None and not may_be_variant_text(path):
                # YAML's syntax errors quote the lines they stop at: a base that is another kind of file
                # (a .yaml link to a password file, say) is named, its lines not echoed.
                not_yaml = "it is not YAML, and no line of it starts with a variant's key"
                self.diagnostics.append(base_of.error(f"{display} is not a variant file: {not_yaml}"))
            else:
                self.diagnostics.extend(said)
            return None, ()

    def _not_a_variant(self, path: Path, document: YamlDocument, display: str, base_of: Location) -> bool:
        """Whether a base is no variant file, said in one line at ``base_of``, its keys never echoed: a game
        script, a save or a log by what it is (looked for only then: a variant's base is read no more)."""
        script = is_script_data(document.data)
        if not script and not not_a_variant(document):
            return False
        kind: FileKind | None = "script" if script else game_file_kind(path)
        said = f"{display} is not a variant file: none of its keys is a variant's"
        if kind is not None:
            said = another_kind_of_base(kind, display, base_key(base_of))
        self.diagnostics.append(base_of.error(said))
        return True

    @staticmethod
    def _bases(document: YamlDocument, problems: list[Diagnostic]) -> list[tuple[str, Location]]:
        value = document.data.get("extends")
        if value is None:
            return []
        if isinstance(value, str):
            value_location = document.location(("extends",))
            if not value:
                problems.append(value_location.error("expected a variant name or path, got ''"))
                return []
            return [(value, value_location)]
        if not isinstance(value, list):
            problems.append(
                document.location(("extends",)).error(
                    f"expected a variant name or path, or a list of them, got {describe_value(value)}"
                )
            )
            return []
        bases: list[tuple[str, Location]] = []
        for index, item in enumerate(value):
            location = document.location(("extends", index))
            if isinstance(item, str) and item:
                bases.append((item, location))
            else:
                problems.append(
                    location.error(f"expected a variant name or path, got {describe_value(item)}")
                )
        return bases


# --------------------------------------------------------------------------- the merged variant


def resolve(
    path: Path,
    display: str,
    document: YamlDocument | None,
    problems: list[Diagnostic],
    set_options: SetOptions | None,
    mapping_overrides: MappingOverrides | None,
    named_at: Location | None = None,
    recovered: Sequence[Diagnostic] = (),
) -> ResolvedVariant:
    """The variant in ``path`` (``document`` when already loaded) over its bases, then the overrides.

    ``display`` names the file in diagnostics; ``problems`` are those found before (in the ``--set``
    options), reported with the files'. ``named_at``: where another file (a game script's ``variant:``)
    names this one; like an ``extends`` base, a file that is no variant is then said there in one line,
    its keys never echoed; ``recovered``: the YAML problems ``document`` was read past. Raises
    :class:`VariantError` with every problem found.
    """
    resolver = _Resolver()
    top = resolver.file(path, display, (), document, base_of=named_at, recovered=recovered)
    problems = [*resolver.diagnostics, *problems]

    layer = _Layer()
    known = top.layer if top.layer is not None else top.sound_part
    if known is not None:
        layer = known.copy()
    # A name's byte that is not UTF-8 is spelled out: the name is text, shown and saved.
    file_only: dict[str, Any] = {"name": spell_bytes(path.stem)}
    file_only_origins: dict[str, Origin] = {"name": Origin("stem", display)}
    if top.document is not None:
        for key in _FILE_ONLY:
            if key in top.document.data and key not in top.faulty:
                file_only[key] = top.document.data[key]
                file_only_origins[key] = Origin.at(top.document.location((key,)))

    if mapping_overrides is not None:
        problems.extend(_apply_mapping(mapping_overrides, layer, file_only, file_only_origins, resolver))
    if set_options is not None:
        rank = resolver.tick()
        for key, value in set_options.values.items():
            origin = Origin.at(set_options.location((key,)), "set", set_options.option_text(key))
            if key in _FILE_ONLY:
                file_only[key] = value
                file_only_origins[key] = origin
            else:
                layer.set_knob(key, value, origin, rank)

    if problems or top.layer is None:
        if top.layer is None and top.sound_part is not None and len(problems) == len(resolver.diagnostics):
            # Only the file's own knobs are at fault: the rules among its sound knobs are checked too,
            # so one run of validate says every mistake it can (a compiler's way).
            partial, origins = _merged(top, file_only, layer, file_only_origins, display)
            problems.extend(_cross_field_diagnostics(partial, layer, origins, display, skip=top.faulty))
        raise VariantError(sort_diagnostics(problems))

    variant, origins = _merged(top, file_only, layer, file_only_origins, display)
    cross = _cross_field_diagnostics(variant, layer, origins, display)
    if cross:
        raise VariantError(sort_diagnostics(cross))
    quoted = (dict(layer.provenance), layer.source, tuple(layer.texts), tuple(layer.not_played))
    return ResolvedVariant(variant, origins, tuple(resolver.sources), *quoted)


def _apply_mapping(
    overrides: MappingOverrides,
    layer: _Layer,
    file_only: dict[str, Any],
    file_only_origins: dict[str, Origin],
    resolver: _Resolver,
) -> list[Diagnostic]:
    document, path = overrides.document, tuple(overrides.path)
    try:
        mapping = document.value(path)
    except KeyError:
        return []
    if mapping is None:
        return []
    if not isinstance(mapping, dict):
        return [
            document.location(path).error(
                f"expected a mapping of knob names to values, got {describe_value(mapping)}"
            )
        ]
    problems: list[Diagnostic] = []
    if "extends" in mapping:
        problems.append(
            document.key_location((*path, "extends")).error("a variant's bases cannot be changed here")
        )
        mapping = {key: value for key, value in mapping.items() if key != "extends"}
    problems.extend(field_problems(mapping, document, path, overriding=True))
    if problems:
        return problems
    rank = resolver.tick()
    for key, value in mapping.items():
        origin = Origin.at(document.location((*path, key)))
        if key in _FILE_ONLY:
            file_only[key] = value
            file_only_origins[key] = origin
        else:
            layer.set_knob(key, value, origin, rank)
    return []


def _faulty_knobs(problems: Sequence[Diagnostic]) -> frozenset[str] | None:
    """The keys that ``problems`` (a file's own) are about, left out of the rules among several knobs;
    None when one is about no key of the file's knobs. An unknown key is left out with the knob it is
    taken for (a typo: that knob is at its base's value, which may mislead); one that is taken for no
    knob (``colour``) hides nothing."""
    faulty: set[str] = set()
    for problem in problems:
        knob = re.split(r"[.\[]", problem.key, maxsplit=1)[0]
        if knob == problem.key and problem.message.startswith("unknown key "):
            if problem.meant == "extends":
                return None  # its bases were never read: every rule would be checked on the wrong ones
            faulty.update([knob, problem.meant] if problem.meant else [knob])
        elif knob in KNOB_NAMES or knob in _FILE_ONLY or knob in provenance_keys.KEYS:
            faulty.add(knob)  # what the file says of its source sets no knob: it hides no rule
        else:
            return None
    return frozenset(faulty)


def _merged(
    top: _FileResult,
    file_only: Mapping[str, Any],
    layer: _Layer,
    file_only_origins: Mapping[str, Origin],
    display: str,
) -> tuple[Variant, dict[str, Origin]]:
    """The variant of ``top`` over its bases and the overrides (``layer``), its rules among several knobs
    not checked yet, and where each value came from."""
    extends = top.document.data.get("extends") if top.document is not None else None
    data = {**file_only, **layer.knobs, "extends": extends}
    try:
        variant = Variant.model_validate(data, context={DEFER_CROSS_FIELD: True})
    except ValidationError as error:  # pragma: no cover - every part was validated where it was written
        raise VariantError(validation_diagnostics(error, data, Nowhere(display), model=Variant)) from None
    origins = dict.fromkeys(Variant.model_fields, DEFAULT_ORIGIN)
    origins.update(layer.origins)
    origins.update(file_only_origins)
    if top.document is not None and "extends" in top.document.data:
        origins["extends"] = Origin.at(top.document.location(("extends",)))
    return variant, origins


def _cross_field_diagnostics(
    variant: Variant,
    layer: _Layer,
    origins: Mapping[str, Origin],
    display: str,
    skip: frozenset[str] = frozenset(),
) -> list[Diagnostic]:
    """Each rule among several knobs that ``variant`` breaks, at the knob to change; not those that
    involve a knob in ``skip`` (in error itself: the rule is checked once it is mended)."""
    diagnostics: list[Diagnostic] = []
    for named, message, involved, _ in cross_field_problems(variant):
        if skip.intersection(involved):
            continue
        # Point at a knob the most specific source set (the one the author just wrote); within one
        # source, at the knob the rule is named after, else the first involved.
        best = max(layer.order.get(knob, -1) for knob in involved)
        chosen = next(knob for knob in involved if layer.order.get(knob, -1) == best)
        origin = origins.get(chosen, DEFAULT_ORIGIN)
        extends = origins.get("extends")
        sources = {
            origins[knob].source for knob in involved if knob in origins and origins[knob].kind == "file"
        }
        if origin.kind == "default":
            diagnostics.append(Diagnostic(display, 1, 1, named, message))
        elif extends is not None and origin.kind == "file" and display not in sources and len(sources) > 1:
            # Two bases, each valid alone, clash only where this file puts them together: said at its
            # extends, naming both (said at one base, that file read as wrong, and `validate` passed it).
            message += _from_a_base(variant, origins, extends, message, involved, display)
            diagnostics.append(Diagnostic(extends.source, extends.line, extends.column, "extends", message))
        else:
            others = [knob for knob in involved if knob != chosen]
            message += _from_a_base(variant, origins, origin, message, others, display)
            diagnostics.append(Diagnostic(origin.source, origin.line, origin.column, chosen, message))
    return diagnostics


_WAY_OUT: Final[dict[str, Any]] = {
    "elimination": False,
    "scoring": "penalty",
    "ace_in_runs": "high_or_low",
    "set_suits": "may_repeat",
}
"""For a knob of a rule among two, the value that keeps the rule whatever the other knob's."""


def _from_a_base(
    variant: Variant,
    origins: Mapping[str, Origin],
    at: Origin,
    message: str,
    others: Sequence[str],
    display: str,
) -> str:
    """Which base (of ``display``, the file asked for) set the values a rule's ``message`` names, for
    those not set where the rule is said (``at``), and a value that mends the rule there: the author may
    not know a base set them. A rule said at a ``--set`` names the file asked for too."""
    notes = ""
    # One way out is offered, for a rule among two knobs: the other's, or, said at an extends (both from
    # bases), the first's that has one.
    mendable = [knob for knob in others if knob in _WAY_OUT]
    among_two = len(others) == 1 or (at.kind == "file" and at.source == display and len(others) == 2)
    mend = mendable[0] if mendable and among_two else None
    for knob in others:
        origin = origins.get(knob, DEFAULT_ORIGIN)
        # The file asked for is the author's own, but not where a --set's rule is said: it is named then.
        own = (at.source,) if at.kind == "set" else (at.source, display)
        if origin.kind != "file" or origin.source in own or not re.search(rf"\b{knob}\b", message):
            continue
        where = origin.source.removeprefix(BUILTIN_PREFIX)
        notes += f"; {knob}: {_scalar(getattr(variant, knob))} comes from {where}"
        if knob == mend:
            fix = _scalar(_WAY_OUT[knob])
            # The option that set the rule's other knob (--compare-set for B); a sweep's is --set, not --grid.
            option = "--set" if at.source == "--grid" else at.source
            notes += (
                f" (or add {option} {knob}={fix})" if at.kind == "set" else f" (or write {knob}: {fix} here)"
            )
    return notes


def _scalar(value: Any) -> str:
    """A knob's value as a variant file writes it."""
    return "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
