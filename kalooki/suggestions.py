"""Did-you-mean: the known word a misspelt one (a key, a knob's value, a bot's name) most likely means.

Every suggestion the loader, the scripts, the saves and the network host make comes from here, so a word
is suggested alike wherever it is mistyped.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

from kalooki.knob_words import VALUE_SYNONYMS


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelt ``word``, if any is close enough."""
    options = list(candidates)
    lowered = {option.lower(): option for option in options}
    if word.lower() in lowered:
        return lowered[word.lower()]
    if 3 * len(word) > 7 * max(map(len, options), default=0):
        # No spelling this much longer than every candidate is close (difflib's own first test, at its cutoff
        # of 0.6): said so here, before difflib reads the word, which a peer's 64 KiB took 50 ms to.
        return None
    matches = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not matches:
        matches = difflib.get_close_matches(word.lower().replace("-", "_"), options, n=1, cutoff=0.6)
    return matches[0] if matches else None


_NEGATIONS = frozenset({"not", "no", "non", "never", "without"})
"""Words that turn a value into its opposite: ``discard_not_required`` is not ``discard_required``."""


def _squashed(word: str) -> str:
    return re.sub(r"[\s_-]+", "", word.lower())


def suggest_value(word: str, options: Sequence[str]) -> str | None:
    """The allowed value a wrong ``word`` probably means: a synonym's value, else a close spelling
    that does not say the opposite.

    A word that is an option with something in front (``antclockwise``, ``unclockwise``) or with a
    negating word (``not``) the option lacks gets no spelling suggestion: it likely means another
    thing, often the opposite.
    """
    squashed = _squashed(word)
    for option in options:
        if squashed in {_squashed(other) for other in (option, *VALUE_SYNONYMS.get(option, ()))}:
            return option
    close = suggest(word, options)
    if close is None:
        return _begun(squashed, options)
    words = set(re.split(r"[\s_-]+", word.lower())) - set(close.split("_"))
    if squashed.endswith(_squashed(close)) or words & _NEGATIONS:
        return None
    return close


def _begun(squashed: str, options: Sequence[str]) -> str | None:
    """The one option that begins with the (squashed) word, as ``winner`` begins ``winner_collects``:
    too far from the whole for a close spelling, but a value's first word is no other's. Of three
    letters or more, so that a stray letter is not taken for a value."""
    begun = [option for option in options if _squashed(option).startswith(squashed)]
    return begun[0] if len(squashed) >= 3 and len(begun) == 1 else None
