"""Text from outside (files, saves, logs, a player's keyboard) made safe to show.

A terminal obeys control characters: an escape sequence in a variant's name can retitle the
window or clear the screen, a newline inside a quoted value turns one diagnostic into two (or
into a fake ``ok`` line), and a right-to-left override makes the rest of a line read backwards.
Names and descriptions refuse them; every other value a message echoes goes through
:func:`escape_controls`, which spells them as Python does (``\\n``, ``\\x1b``), so what is shown
is one line of plain characters.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Final, Literal

from kalooki.lookalikes import skeleton

CONTROL_RANGES: Final = ((0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x2029), (0x202A, 0x202E), (0x2066, 0x2069))
"""C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional
embeddings, overrides and isolates, each range by its first and last code: one of the last in a
variant's name turns the rest of the line round, so a message can be made to read as something else
(the marks U+200E and U+200F, which set a direction without reordering anything, stay allowed)."""


SPACE_RANGES: Final = (
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)
"""The spaces that are no control character: with the controls, exactly what ``str.isspace`` holds, so
a pattern built from them judges a blank text as ``str.strip`` does (JSON Schema's ``\\s`` would take
U+FEFF as well)."""


def _ranges_class(ranges: tuple[tuple[int, int], ...], spell: Callable[[int], str]) -> str:
    return "".join(
        spell(first) if last == first else f"{spell(first)}{'-' if last > first + 1 else ''}{spell(last)}"
        for first, last in ranges
    )


def control_class(spell: Callable[[int], str], *, line_breaks: bool = False) -> str:
    """The inside of a regular expression's character class matching :data:`CONTROL_RANGES`, each
    code written by ``spell``: Python's patterns and JSON Schema's write them differently.
    ``line_breaks``: the line feed is left out of the class (a text of several lines may hold it)."""
    ranges: tuple[tuple[int, int], ...] = CONTROL_RANGES
    if line_breaks:
        ranges = ((0x00, 0x09), (0x0B, 0x1F), *CONTROL_RANGES[1:])
    return _ranges_class(ranges, spell)


def space_class(spell: Callable[[int], str]) -> str:
    """The inside of a character class matching :data:`SPACE_RANGES` (see :func:`control_class`)."""
    return _ranges_class(SPACE_RANGES, spell)


def _python_escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


CONTROL_CHARACTERS: Final = re.compile(f"[{control_class(_python_escape)}]")
"""A character of :data:`CONTROL_RANGES`."""

_SPELLED: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

ECHO_LIMIT: Final = 80
"""The most characters of someone's input that a message shows back (see :func:`clipped`)."""


def _spell(match: re.Match[str]) -> str:
    character = match.group()
    spelled = _SPELLED.get(character)
    if spelled is not None:
        return spelled
    return _python_escape(ord(character))


def escape_controls(text: str) -> str:
    """``text`` with every control character spelled out: ``"a\\x1b[2Jb"`` for ``a<ESC>[2Jb``, and
    every byte of a command line's argument that was not UTF-8 too (:func:`spell_bytes`)."""
    return spell_bytes(CONTROL_CHARACTERS.sub(_spell, text))


SHOWN_FORMATS: Final = frozenset("\u200c\u200d")
"""The invisible characters :func:`escape_unseen` leaves as they are: the joiners, part of an emoji (a
family, a flag) or of a word in Persian or Hindi."""


def escape_unseen(text: str) -> str:
    """:func:`escape_controls`, and every other character that shows nothing spelled out too (a zero-width
    space, a byte-order mark, a soft hyphen): text typed and quoted back, ``'\\ufeffds' is not a
    command``, where the two would otherwise read alike."""
    return "".join(
        _python_escape(ord(char))
        if unicodedata.category(char) == "Cf" and char not in SHOWN_FORMATS
        else char
        for char in escape_controls(text)
    )


def has_controls(text: str) -> bool:
    return CONTROL_CHARACTERS.search(text) is not None


def first_control(text: str) -> str | None:
    """The first control character of ``text``, spelled out (None when there is none)."""
    match = CONTROL_CHARACTERS.search(text)
    return None if match is None else _spell(match)


def safe_repr(value: object) -> str:
    """``repr(value)``, or ``a Thing`` where that raises: a plug-in bot's object whose ``__repr__`` failed
    stopped the game with its traceback, where its choice is to be told as no action and play go on."""
    try:
        return repr(value)
    except Exception:  # a plug-in's __repr__ may raise anything
        return f"a {type(value).__name__}"


def clipped(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, the last an ellipsis where it was longer.

    A message that quotes what was typed stays one line when a whole page was pasted.
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


REPR_LIMIT: Final = 60
"""The most characters of a value's ``repr`` an error message quotes: room left on the line for what
the message says of it."""


def clipped_repr(value: object) -> str:
    """``repr(value)`` cut to :data:`REPR_LIMIT` characters, for an error message that names a value
    of the wrong kind (a whole list passed for a card stays one line)."""
    return clipped(writable_repr(value), REPR_LIMIT)


def writable_repr(value: object) -> str:
    """``repr(value)``, but for a whole number Python will not write out (over 4,300 digits, a ValueError
    out of the message that names it), said to be one."""
    if too_long_to_write(value):
        return "a number of over 4,000 digits"
    return repr(value)


def too_long_to_write(value: object) -> bool:
    """Whether ``value`` is a whole number of over 4,000 digits, which may be one Python will not write out
    (over 4,300: a ValueError out of the message that names it)."""
    return isinstance(value, int) and value.bit_length() > 14_000


def unlike_ascii(key: str) -> str:
    """For a key with a character no key name has (every one is plain ASCII), that character named:
    a look-alike letter (Cyrillic 'о') or an invisible one (a zero-width space) reads as the key meant."""
    odd = next((char for char in key if not (char.isascii() and char.isprintable())), None)
    if odd is None:
        return ""
    name = unicodedata.name(odd, "a character with no name")
    return f" (it holds U+{ord(odd):04X} {name}; key names are plain ASCII)"


def name_key(name: str) -> str:
    """A player's name as the screens show it: in any case, and in any of Unicode's ways of writing the
    same letters (𝚊𝚗𝚗 in monospace letters shows as ann on a terminal). Two names of one key would read
    as one player. A variation selector picks how the character before it is drawn (❤ or its emoji ❤️)
    and changes no letter: 'ann' with one after it shows as ann, so it is left out of the key. So are
    the accents of Latin, Greek and Cyrillic letters (ạnn, or José beside Jose, in a lobby's small
    type), and a look-alike letter reads as the one it is drawn as (аnn with a Cyrillic а is ann): see
    :mod:`kalooki.lookalikes`. Every name check compares by this key: a hosted table's seats, hot-seat
    people, a script's players, the bots' names beside them, the seats a join keeps."""
    letters = skeleton(VARIATION_SELECTORS.sub("", unicodedata.normalize("NFKC", name)))
    # Again once folded: a capital left as it was (Cyrillic У) folds to a look-alike (у, read as y); and
    # folded once more, as a small Cherokee letter folds to its capital (ꭺ to Ꭺ), read as a Latin capital.
    return skeleton(letters.casefold()).casefold()


def name_lookalike(name: str, whose: str = "this name's") -> str:
    """For a name refused as reading as another one, what in it reads as another letter, to add to the
    refusal (': this name's U+0430 CYRILLIC SMALL LETTER A reads as a'); empty where the names differ
    only in case or in Unicode's ways of writing the same letters, which the player can see."""
    letters = VARIATION_SELECTORS.sub("", name)
    for index, character in enumerate(letters):
        before, through = name_key(letters[:index]), name_key(letters[: index + 1])
        if not through.startswith(before):
            continue  # joined with the letter before it (Hangul's jamo): read together, not alone
        read = through[len(before) :]
        if read == unicodedata.normalize("NFD", unicodedata.normalize("NFKC", character).casefold()):
            continue
        described = f"U+{ord(character):04X} {unicodedata.name(character, 'a character with no name')}"
        return f": {whose} {described} " + (
            f"reads as {read}" if read else "is a mark that tells no names apart"
        )
    return ""


def name_clash(name: str, seated: str) -> str:
    """For ``name`` refused as reading as ``seated``, why, to add to the refusal: the same name in other code
    points (ä as a and a combining diaeresis) is said so; names that differ in case or in Unicode's ways of
    writing the same letters add nothing, which the player can see; else the letter that reads as another
    (:func:`name_lookalike`), in the name typed or the one seated."""
    if name != seated and unicodedata.normalize("NFC", name) == unicodedata.normalize("NFC", seated):
        # Not the mark: "U+0308 COMBINING DIAERESIS is a mark that tells no names apart" named a character
        # the player's keyboard wrote for them, as if it made the name another one.
        return ": the same name, written with other code points"
    if _caseless(name) == _caseless(seated):
        return ""  # Ä beside ä was told its U+00C4 read as a: the names differ in case alone
    return name_lookalike(name) or name_lookalike(seated, "that name's")


def _caseless(name: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


BLANK_CHARACTERS: Final = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0\U00016fe4\U0001d159")
"""Characters Python counts printable that show as nothing (the Hangul fillers, the blank braille
pattern, the grapheme joiner, the Khitan filler, the musical null notehead): 'ann' and 'ann' with one
of these after it would be two names that look one. The other invisible characters (format characters
such as the zero-width joiner, spaces) are not printable, so refused already; variation selectors, and
marks with no letter to sit on, are left out of a name's key (:func:`name_key`)."""

BLANK_NAME: Final = "a name is written in characters that show: no blank fillers"
SCREENS_YOU: Final = "you"
"""What each screen calls its own player: a seat's name at a hosted table may not read as it."""
YOU_AT_A_TABLE: Final = "'you' is what the screens call each player: choose another name"
"""The refusal of a seat's name that reads as ``you`` at a hosted table, where each screen calls its own
player so: by the table, and by ``kalooki host`` and ``kalooki join`` before it is opened or asked."""


def reads_as_you(name: str) -> bool:
    """Whether ``name`` reads as :data:`SCREENS_YOU` on a screen (``You``, ``ｙｏｕ``...)."""
    return name_key(name) == SCREENS_YOU


def control_in_name(name: str) -> str:
    """The refusal of a name holding a control character (an escape sequence would colour or retitle every
    screen it is shown on), worded alike by ``kalooki play``, ``kalooki join`` and a table."""
    # Every character that does not print is spelled out, the marks and joiners escape_unseen leaves
    # too: 'ann' for ann and a left-to-right mark read as a refusal of a name with nothing wrong in it.
    shown = "".join(
        character if character.isprintable() else _python_escape(ord(character))
        for character in escape_controls(name)
    )
    return f"a name holds no control characters, got '{shown}'"


def shows_blank(name: str) -> bool:
    """Whether ``name`` holds a character that shows as nothing, or is nothing but variation selectors."""
    return any(character in BLANK_CHARACTERS for character in name) or shows_nothing(name)


def shows_nothing(text: str) -> bool:
    """Whether nothing of ``text`` shows: it is only spaces and line breaks, blank fillers, invisible format
    characters (the zero-width space), and variation selectors or marks with no letter to sit on.

    A name is refused for less (:func:`shows_blank`); a line of chat may hold a filler among what shows.
    A control character is not nothing: it is shown spelled out (:func:`escape_controls`).
    """
    shown = (
        character
        for character in unicodedata.normalize("NFKC", text)  # U+3164 is U+1160 so, both fillers
        if not character.isspace()
        and character not in BLANK_CHARACTERS
        and unicodedata.category(character) != "Cf"
    )
    return not name_key("".join(shown))


MAX_NAME: Final = 20
"""The longest name a player may take: at the terminal, at a hosted table, in a script, a log or a save."""

NameFault = Literal["blank", "spaced", "long", "undecoded", "control", "unseen"]
"""What is wrong with a player's name: each place that refuses one words it its own way."""


def name_fault(name: str, *, one_word: bool = True) -> NameFault | None:
    """What is wrong with ``name`` as a player's name, by the one rule every place holds names to.

    A name a person takes, at the terminal or at a hosted table (``one_word``), is one word of at most
    :data:`MAX_NAME` printable characters that all show. A name a script, a save or a program gives the
    library need only be one line of text, not blank, with no control character, of at most
    :data:`MAX_NAME` characters: scripts and saves written with "Ann Smith" in them still read.
    """
    if one_word:
        if not name or any(character.isspace() for character in name):
            return "spaced"
    elif not name.strip():
        return "blank"
    if len(name) > MAX_NAME:
        return "long"
    if one_word:
        # A byte of the command line that is not UTF-8 is not a control character: it is said apart.
        if undecodable_byte(name) is not None:
            return "undecoded"
        if not name.isprintable():
            return "control"
        # "ann" beside "ann" and a grapheme joiner: two names that look one.
        return "unseen" if shows_blank(name) else None
    return "control" if first_control(name) is not None else None


VARIATION_SELECTORS: Final = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
"""The Mongolian free variation selectors, the variation selectors and their supplement."""


_UNICODE_ESCAPE: Final = re.compile(r"\\(?:\\|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))")
"""A ``\\uXXXX`` or ``\\UXXXXXXXX`` escape of YAML's double quotes (an escaped backslash is skipped
whole, so that ``\\\\ud800`` is a backslash and the letters ``ud800``)."""

SURROGATE_HALVES: Final = "U+D800 to U+DFFF are halves of UTF-16 pairs"


def escape_naming_no_character(text: str) -> tuple[int, str] | None:
    """The first ``\\u`` or ``\\U`` escape of double-quoted ``text`` that names no character, as
    where it starts and what to say: a surrogate (``\\ud800``, half of a UTF-16 pair, as JSON writes
    a character past U+FFFF) or a code past U+10FFFF. Files and ``--set`` say it alike."""
    for match in _UNICODE_ESCAPE.finditer(text):
        digits = match.group(1) or match.group(2)
        if digits is None:
            continue
        code, written = int(digits, 16), match.group()
        if 0xD800 <= code <= 0xDFFF:
            return (
                match.start(),
                f"{written} is not a character: {SURROGATE_HALVES}; write the character itself",
            )
        if code > 0x10FFFF:
            return match.start(), f"{written} is not a character: the last one is U+10FFFF"
    return None


HALF_PAIR: Final = re.compile("[\ud800-\udfff]")
"""Half of a UTF-16 pair: JSON's ``"\\ud800"`` or leniently decoded text holds one; UTF-8 cannot."""


def lone_surrogate(text: str) -> str | None:
    """For text holding half of a UTF-16 pair (JSON's ``"\\ud800"`` reads as one), what to say."""
    half = HALF_PAIR.search(text)
    if half is None:
        return None
    return (
        f"not valid text: it holds U+{ord(half.group()):04X}, which is not a character ({SURROGATE_HALVES})"
    )


def spell_surrogates(text: str) -> str:
    """``text`` with each lone surrogate spelled as Python writes it (``\\ud800``): JSON's escapes can
    put one in a string, and no UTF-8 text (a message sent back, a terminal) can hold it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def undecodable_byte(text: str) -> tuple[int, int] | None:
    """Where command-line ``text`` held a byte that is not UTF-8, and the byte: Python reads such an
    argument with each of those bytes as a code of U+DC80 to U+DCFF ("surrogateescape")."""
    for index, char in enumerate(text):
        if 0xDC80 <= ord(char) <= 0xDCFF:
            return index, ord(char) - 0xDC00
    return None


def not_utf8(byte: int) -> str:
    """The words for text refused for a byte that is not UTF-8 (a file, ``--set``, a name on the command
    line): ``not UTF-8 text: byte 0xFF``."""
    return f"not UTF-8 text: byte 0x{byte:02X}"


_UNDECODED: Final = re.compile("[\udc80-\udcff]")


def spell_bytes(text: str) -> str:
    """Command-line ``text`` with each byte that was not UTF-8 (see :func:`undecodable_byte`) spelled
    ``\\xff``: a file's name may hold such bytes on Linux, and messages show it so, not as ``\\udcff``. Any
    other half of a UTF-16 pair (a name given in code) is spelled ``\\ud800``: no terminal can show it."""
    spelled = _UNDECODED.sub(lambda match: f"\\x{ord(match.group()) - 0xDC00:02x}", text)
    return spell_surrogates(spelled)


ASCII_PUNCTUATION: Final = r"!-/:-@\[-`{-~"
"""The characters a backslash escapes in Markdown (CommonMark's ASCII punctuation), as ranges."""

_MARKDOWN_INLINE: Final = re.compile(
    rf"\\(?=[{ASCII_PUNCTUATION}]|$)"  # a backslash that would escape what follows, or break the line
    r"|[*`~<|#]"  # emphasis, code, strikethrough, autolinks and HTML, table cells, heading marks
    r"|(?<![^\W_])_|_(?![^\W_])"  # an underscore at a word's edge (inside one, as in goal_score, it is inert)
    r"|\](?=[(\[:])"  # a link's text closing on its address or label, a definition's label
    r"|&(?=#?[0-9A-Za-z]+;)",  # a character reference (&amp;)
    re.MULTILINE,
)
_MARKDOWN_BLOCK: Final = re.compile(r"^(?:[-+=>]|\d{1,9}(?=[.)]))", re.MULTILINE)
"""What opens a line as a list item, a quote or a heading's underline (a number only before its dot)."""


def _escape_block_mark(match: re.Match[str]) -> str:
    mark = match.group()
    return mark + "\\" if mark[0].isdigit() else "\\" + mark


def markdown_literal(text: str, *, opens_line: bool = False) -> str:
    """``text`` (a variant's name, a rule source's words) written into a Markdown document so that it
    shows as the characters it holds: a ``[link](address)`` in it stays those characters, its address
    in view, and a line of it that starts ``# `` or ``- `` heads or lists nothing.

    Only what Markdown would take for markup is escaped (a lone ``[10]`` is left as it is), so text
    with none reads as it was written. ``opens_line``: the text starts a line of the document (else its
    first line goes after other words, where ``- `` lists nothing). Its blank lines, which would end the
    paragraph or list item it is in, are dropped, and the spaces that start a line, which make code.
    """
    lines = "\n".join(line.lstrip(" \t") for line in text.split("\n") if line.strip())
    escaped = _MARKDOWN_INLINE.sub(r"\\\g<0>", lines)
    if opens_line:
        return _MARKDOWN_BLOCK.sub(_escape_block_mark, escaped)
    first, newline, rest = escaped.partition("\n")
    return first + newline + _MARKDOWN_BLOCK.sub(_escape_block_mark, rest)
