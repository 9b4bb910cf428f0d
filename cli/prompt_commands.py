"""The play prompt's commands beside the moves, as its help lists them, and which work only in one's turn.

:data:`HELP_ROWS` is the one list: the help (:func:`kalooki_cli.render.render_help`), the help at a pause
(:func:`pause_commands`) and the prompt's refusal of a command there (:data:`IN_TURN_WORDS`, read by
:meth:`kalooki_cli.interactive.InteractiveGame.command`) are all read from it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HelpRow:
    """One row of the play screen's help; ``in_turn``: the command works only in one's own turn, so a pause
    between turns or hands (a hot-seat pass screen) refuses it and its help leaves it out."""

    usage: str
    meaning: str
    in_turn: bool = False
    jokerless: str = ""
    """The meaning where the pack has no jokers, when its example holds one."""

    @property
    def words(self) -> tuple[str, ...]:
        """The words that type it, each alternative's first: ``undo | u`` is undo or u."""
        return tuple(usage.split()[0] for usage in self.usage.split(" | "))


HELP_ROWS = (
    HelpRow("draw stock | ds", "draw the top card of the stock", in_turn=True),
    HelpRow("draw discard | dd", "take the top card of the discard pile", in_turn=True),
    HelpRow(
        "meld CARDS[, CARDS] | m",
        "lay new melds: meld 7H 8H 9H, QS QD QC (runs low to high; JK 6H JK run: 5-6-7, not a set of sixes)",
        in_turn=True,
        jokerless="lay new melds: meld 7H 8H 9H, QS QD QC (runs low to high)",
    ),
    HelpRow(
        "build N CARDS [low|high] | b",
        "add cards to table meld N: build 2 TH JK",
        in_turn=True,
        jokerless="add cards to table meld N: build 2 TH",
    ),
    HelpRow(
        "swap N CARDS | s",
        "put the card a joker of meld N stands for in its place; the joker is yours",
        in_turn=True,
    ),
    HelpRow("discard CARD | d", "discard a card and end your turn: d KD", in_turn=True),
    HelpRow("undo | u", "take back this turn's melds, builds and swaps (before you discard)", in_turn=True),
    HelpRow("hint", "what the greedy bot would play now, and what it scores", in_turn=True),
    HelpRow("look | l | table | show", "draw the table again (so does Enter on an empty line)", in_turn=True),
    HelpRow("score | scores | totals", "the totals and every hand's scores"),
    HelpRow("rules | rulebook", "the whole rulebook of this variant"),
    HelpRow("save [FILE]", "save now; with FILE, the game moves there and is saved there from now on"),
    HelpRow("help | h | ?", "this list"),
    HelpRow("quit | q | exit", "stop; the game stays saved for kalooki resume"),
)
"""The one list of the play screen's commands: the help's rows, the help at a pause and the words the
prompt refuses there (:data:`IN_TURN_WORDS`) are all read from it, so they cannot disagree."""

COMMANDS: tuple[tuple[str, str], ...] = tuple((row.usage, row.meaning) for row in HELP_ROWS)
"""The help's rows as (usage, meaning)."""

JOKERLESS = {row.meaning: row.jokerless for row in HELP_ROWS if row.jokerless}
"""Each meaning whose example holds a joker, and the meaning the help gives where the pack has none."""

IN_TURN_WORDS = frozenset(word for row in HELP_ROWS if row.in_turn for word in row.words)
"""Every word of the commands that work only in one's own turn: a pause refuses each of them."""


def pause_commands() -> tuple[tuple[str, str], ...]:
    """The help's rows that work at a pause between turns or hands (a hot-seat pass screen): listed
    there, the moves were each refused ("press Enter when bob has the keyboard, or type ...")."""
    return tuple((row.usage, row.meaning) for row in HELP_ROWS if not row.in_turn)


def word_with_a_mark(word: str, words: Collection[str]) -> list[str]:
    """``d:`` as ``d``, ``ds.`` as ``ds``: one of ``words`` typed with a mark after it, as a verb is written
    before what it takes ("d: KD"); else empty. A near-miss ratio cannot tell a short verb so."""
    bare = word.rstrip(":.,;!?").lower()
    return [bare] if bare != word.lower() and bare in words else []


__all__ = [
    "COMMANDS",
    "HELP_ROWS",
    "IN_TURN_WORDS",
    "JOKERLESS",
    "HelpRow",
    "pause_commands",
    "word_with_a_mark",
]
