"""Actions a player takes, and the move language that writes them as text.

The language is shared by game scripts, logs and the interactive prompt::

    draw stock | draw discard
    meld 7H 8H 9H, QS QD QC        (each comma-separated group is one new meld)
    meld JK 6H JK run              (a group may end with run or set: how to read it)
    build 2 TH JK [low|high]       (add cards to table meld 2)
    swap 3 5C                      (put 5C in place of a joker of table meld 3)
    discard KD
    end                            (end the turn without a discard, where the variant allows it)
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from typing import Literal, NamedTuple, cast

from kalooki import rules
from kalooki.cards import JOKER, Card, CardError, format_cards, parse_card, parse_cards
from kalooki.errors import KalookiError
from kalooki.melds import MeldKind, RunEnd
from kalooki.text import clipped, escape_controls
from kalooki.variant import Variant

DrawSource = Literal["stock", "discard"]


MAX_MELD_DIGITS = 30
"""The most digits a table meld's number is read with, as a seed's: no table holds more melds."""


class MoveSyntaxError(KalookiError):
    """Text that is not a command of the move language."""


class NotAMoveError(MoveSyntaxError):
    """Text that names no command of the move language at all: its message ends with the usage line."""


@dataclass(frozen=True, slots=True)
class Draw:
    source: DrawSource

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay one or more new melds in one action (an opening's melds are summed).

    ``kinds``: how the player said each group reads (``run`` or ``set``, None where nothing was said), or
    empty where no group says: a group of one natural card and jokers reads as a set when a set may hold
    that many cards, and ``run`` lays it as a run (``JK 6H JK run`` is 5-6-7). Empty, not all None, so
    that a Meld made without kinds equals and hashes as one read from text that names none.
    """

    groups: tuple[tuple[Card, ...], ...]
    kinds: tuple[MeldKind | None, ...] = ()

    def kind_of(self, index: int) -> MeldKind | None:
        """How group ``index`` is to be read: its kind, or None for the usual reading."""
        return kind_at(self.kinds, index)

    def __str__(self) -> str:
        return "meld " + ", ".join(
            format_cards(group) + (f" {kind}" if (kind := self.kind_of(index)) else "")
            for index, group in enumerate(self.groups)
        )


def _misses_an_end(word: str) -> bool:
    """Whether ``word``, the last of a build, is a near miss of ``low`` or ``high`` and no card."""
    if not get_close_matches(word.lower(), ("low", "high"), n=1, cutoff=0.6):
        return False
    try:
        parse_card(word)
    except CardError:
        return True
    return False


def kind_at(kinds: tuple[MeldKind | None, ...], index: int) -> MeldKind | None:
    """Meld ``index``'s reading in ``kinds`` (a :class:`Meld`'s, or a plan's, empty where none says):
    its kind, or None for the usual reading."""
    return kinds[index] if index < len(kinds) else None


def meld_of(groups: tuple[tuple[Card, ...], ...], kinds: tuple[MeldKind | None, ...] = ()) -> Meld:
    """``Meld(groups, kinds)`` with ``kinds`` left empty where it names no kind (see :class:`Meld`)."""
    return Meld(groups, kinds if any(kinds) else ())


@dataclass(frozen=True, slots=True)
class Build:
    """Add cards to the table meld numbered ``meld`` (from 1, in the order melds were laid)."""

    meld: int
    cards: tuple[Card, ...]
    end: RunEnd | None = None

    def __str__(self) -> str:
        text = f"build {self.meld} {format_cards(self.cards)}"
        return f"{text} {self.end}" if self.end else text


@dataclass(frozen=True, slots=True)
class Swap:
    """Put natural cards in place of jokers of table meld ``meld``; the freed jokers go to hand."""

    meld: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"swap {self.meld} {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card

    def __str__(self) -> str:
        return f"discard {format_cards([self.card])}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn without a discard (``turn_discard: optional``)."""

    def __str__(self) -> str:
        return "end"


Action = Draw | Meld | Build | Swap | Discard | EndTurn

DRAW_STOCK, DRAW_DISCARD = Draw("stock"), Draw("discard")
"""The two draws, made once: every draw phase lists them (actions are frozen, so one of each serves)."""

DISCARDS = tuple(Discard(code) for code in range(JOKER + 1))
"""``DISCARDS[card]``: the discard of each card code, made once, as the draws are (every turn ends in one)."""

END_TURN = EndTurn()
"""The one end of a turn without a discard (it has no parts)."""

ALIASES = {
    "ds": "draw stock",
    "dd": "draw discard",
    "m": "meld",
    "b": "build",
    "s": "swap",
    "d": "discard",
}


class Command(NamedTuple):
    """One command of the move language: as a usage line writes it, and the key a prompt takes for it."""

    usage: str
    key: str


COMMANDS = (
    Command("draw stock", "ds"),
    Command("draw discard", "dd"),
    Command("meld CARDS[, CARDS ...]", "m"),
    Command("build N CARDS [low|high]", "b"),
    Command("swap N CARDS", "s"),
    Command("discard CARD", "d"),
    Command("end", "end"),
)


def offered_commands(variant: Variant) -> tuple[Command, ...]:
    """The commands the variant allows at some turn, for the help and hints a player reads.

    No ``draw discard`` under discard_draw: never, no ``swap`` where no joker is ever freed, and
    ``end`` only under turn_discard: optional: a player shown a move tries it, and a move the rules
    always refuse is no help.
    """
    refused = {
        "dd": not rules.may_ever_take_discard(variant),
        "s": not rules.may_ever_swap(variant),
        "end": not rules.may_end_without_discard(variant),
    }
    return tuple(command for command in COMMANDS if not refused.get(command.key, False))


def usage_line(commands: tuple[Command, ...] = COMMANDS) -> str:
    """The line that ends the refusal of a text that is no move: ``commands: draw stock | ...``."""
    return "commands: " + " | ".join(command.usage for command in commands)


USAGE = usage_line()
"""Every command, as a game script, a log or a move pattern may write it whatever the variant."""


def parse_move(text: str, usage: str = USAGE) -> Action:
    """Read one command of the move language, or raise :class:`MoveSyntaxError` saying what is wrong.

    ``usage`` ends the message for a move that is none: at a table, the commands its variant allows.
    """
    if not isinstance(text, str):  # None or an action was a bare AttributeError
        shown = clipped(escape_controls(repr(text)), 60)
        raise NotAMoveError(f"{shown} is not a move: a move is written as text, e.g. draw stock")
    words = text.strip().split(None, 1)
    if not words:
        raise NotAMoveError(f"an empty move: {usage}")
    verb = words[0].lower()
    rest = words[1].strip() if len(words) > 1 else ""
    # Messages quote the move as typed, cut short: a pasted page is not shown back whole.
    quoted = clipped(text.strip())
    if verb == "d" and not rest:
        # Alone, d was taken for draw (at the draw prompt): it is said to be discard, in no phase's words.
        raise MoveSyntaxError(f"'{quoted}': d is discard: name the card (d KD)")
    expanded = ALIASES.get(verb)
    if expanded is not None:
        verb, _, prefix = expanded.partition(" ")
        if prefix and rest:  # "ds stock" reads "draw stock stock"
            raise MoveSyntaxError(f"'{quoted}': {words[0]} is {expanded} and takes nothing after it")
        rest = f"{prefix} {rest}".strip()
    try:
        return _parse_verb(verb, rest, quoted, usage)
    except CardError as error:
        raise MoveSyntaxError(f"'{quoted}': {error}") from None


def _parse_verb(verb: str, rest: str, text: str, usage: str) -> Action:
    if verb == "draw":
        source = rest.lower()
        if source not in ("stock", "discard"):
            first = source.split()[:1]
            if first in (["stock"], ["discard"]):
                raise MoveSyntaxError(f"'{text}': write draw {first[0]} alone, with nothing after it")
            # "draw from stock", "draw the discard": the pile is named, only not where the move has it.
            named = [pile for pile in ("stock", "discard") if pile in source.split()]
            if len(named) == 1:
                raise MoveSyntaxError(f"'{text}': write draw {named[0]} ({SHORT_FORMS[f'draw {named[0]}']})")
            raise MoveSyntaxError(f"'{text}': write draw stock or draw discard (ds or dd)")
        return Draw(cast("DrawSource", source))
    if verb == "meld":
        parting = _meld_parting(rest)
        if parting is not None:
            raise MoveSyntaxError(
                f"'{text}': '{parting}' is no card: melds are parted by commas (meld 7H 8H 9H, QS QD QC)"
            )
        read = [_group_reading(group) for group in rest.split(",")]
        groups = tuple(tuple(parse_cards(written)) for written, _ in read)
        if not rest:
            raise MoveSyntaxError(
                f"'{text}': write each meld's cards, melds separated by commas (meld 7H 8H 9H)"
            )
        if any(not group for group in groups):
            # "m JS QS KS AS," or ",,": the commas are there, a group between them is not.
            empty = next(index for index, group in enumerate(groups) if not group) + 1
            raise MoveSyntaxError(
                f"'{text}': meld group {empty} of {len(groups)} holds no cards: "
                "write a comma only between two melds (meld 7H 8H 9H, QS QD QC)"
            )
        lone = next((index for index, group in enumerate(groups) if len(group) == 1), None)
        if len(groups) > 1 and lone is not None:
            # "m QC,QH,QS": commas between the cards of one meld made melds of one card each, and the
            # refusal named the first as too short, never the commas.
            raise MoveSyntaxError(
                f"'{text}': meld group {lone + 1} of {len(groups)} holds one card: a comma starts a new"
                " meld, so write one meld's cards with spaces (meld QC QH QS)"
            )
        return meld_of(groups, tuple(kind for _, kind in read))
    if verb in ("build", "swap"):
        words = rest.split()
        marked = words[0].strip("[]()#:.") if words else ""
        bare = marked.lstrip("0")
        if (
            len(words) >= 2
            and marked != words[0]
            and bare.isascii()
            and bare.isdigit()
            and len(bare) <= MAX_MELD_DIGITS
        ):
            # "b [3] KS": the number as the table tells a meld laid ("K♣ K♦ K♥ [3]").
            again = escape_controls(clipped(" ".join([verb, bare, *words[1:]])))
            raise MoveSyntaxError(f"'{text}': write the table meld's number alone: {again}")
        # ASCII digits only: isdigit() alone also takes '²', which int() cannot read.
        if len(words) < 2 or not (words[0].isascii() and words[0].isdigit()):
            example = "build 2 TH" if verb == "build" else "swap 2 5C"
            raise MoveSyntaxError(f"'{text}': write the table meld's number, then the cards ({example})")
        if len(words[0].lstrip("0")) > MAX_MELD_DIGITS:
            # int() refuses a number of over 4,300 digits with a ValueError, which is no move's refusal.
            raise MoveSyntaxError(f"'{text}': no table has that many melds")
        number = int(words[0])
        if number < 1:
            raise MoveSyntaxError(f"'{text}': table melds are numbered from 1")
        end: RunEnd | None = None
        if verb == "build" and words[-1].lower() in ("low", "high"):
            end = "low" if words[-1].lower() == "low" else "high"
            words = words[:-1]
        elif verb == "build" and len(words) > 2 and _misses_an_end(words[-1]):
            # "b 1 5H lo" was refused as "'lo' is not a card", which says nothing of the word meant.
            word = escape_controls(words[-1])
            said = f"'{word}' is no card: for the end of the run it goes on, write low or high"
            raise MoveSyntaxError(f"'{text}': {said} (build 2 TH JK low)")
        cards = tuple(parse_cards(" ".join(words[1:])))
        if not cards:
            raise MoveSyntaxError(f"'{text}': name the cards")
        if verb == "swap":
            return Swap(number, cards)
        return Build(number, cards, end)
    if verb == "end":
        # "end turn" reads as it is meant; anything else after "end" is a mistake worth naming.
        if rest.lower() not in ("", "turn"):
            raise MoveSyntaxError(f"'{text}': end takes nothing after it (end)")
        return END_TURN
    if verb == "discard":
        discarded = parse_cards(rest)
        if not discarded:
            raise MoveSyntaxError(f"'{text}': name the card to discard (discard KD)")
        if len(discarded) != 1:
            raise MoveSyntaxError(f"'{text}': discard exactly one card (discard KD)")
        return Discard(discarded[0])
    raise NotAMoveError(f"'{text}' is not a move: {usage}")


PARTINGS = ("and", "&", "+", ";", "/", "|")
"""What a player may part melds with instead of a comma, as the table tells melds laid ("[1] and ...")."""


def _meld_parting(rest: str) -> str | None:
    """The first word of a meld move, or the ``;`` ending one, that parts melds where a comma should."""
    for word in rest.split():
        if word.lower() in PARTINGS:
            return word
        if word.endswith(";"):
            return ";"
    return None


def _group_reading(group: str) -> tuple[str, MeldKind | None]:
    """A meld group's cards and the kind its last word names (``5H JK JK run``), if it names one."""
    words = group.rsplit(None, 1)
    if len(words) == 2:
        word = words[1].lower()
        if word == "run":
            return words[0], "run"
        if word == "set":
            return words[0], "set"
    return group, None


SHORT_FORMS = {expansion: alias for alias, expansion in ALIASES.items()}
"""Each verb's short form, as a player types it: ``meld`` is ``m``, ``draw stock`` is ``ds``."""


def format_move(action: Action, *, short: bool = False) -> str:
    """The action in the move language; ``short``: with its verb's short form, as a player types it
    (``m JK 6H JK run``, ``b 2 TH low``, ``ds``)."""
    text = str(action)
    if short:
        for verb, alias in SHORT_FORMS.items():
            if text == verb or text.startswith(f"{verb} "):
                return alias + text[len(verb) :]
    return text
