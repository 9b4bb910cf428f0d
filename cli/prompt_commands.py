"""The play prompt's commands beside the moves, as its help lists them, and which work only in one's turn.

:data:`HELP_ROWS` is the one list: the help (:func:`kalooki_cli.help_screen.render_help`), the help at a pause
(:func:`pause_commands`) and the prompt's refusal of a command there (:data:`IN_TURN_WORDS`, read by
:meth:`kalooki_cli.prompt_dispatch.PromptCommands.command`) are all read from it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from difflib import get_close_matches

from kalooki.cards import RANK_LETTERS
from kalooki.moves import ALIASES, offered_commands
from kalooki.moves import COMMANDS as MOVE_COMMANDS
from kalooki.rulebook import move_rules
from kalooki.rulebook_jokers import joker_rules
from kalooki.rules import SMALLEST_MELD, may_ever_swap, may_ever_take_discard, run_frame
from kalooki.text import clipped
from kalooki.turn import laid_this_turn
from kalooki.variant import Variant


def typed_by(usage: str) -> tuple[str, ...]:
    """The words that type a help row's command, each alternative's first: ``undo | u`` is undo or u."""
    return tuple(alternative.split()[0] for alternative in usage.split(" | "))


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
        return typed_by(self.usage)


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
        "add cards to table meld N: build 2 TH JK (a joker goes on a run's high end unless low is given)",
        in_turn=True,
        jokerless="add cards to table meld N: build 2 TH",
    ),
    HelpRow(
        "swap N CARDS | s",
        "put the card a joker of meld N stands for in its place; the joker is yours (help swap: what frees "
        "one in this variant)",
        in_turn=True,
    ),
    HelpRow("discard CARD | d", "discard a card and end your turn: d KD", in_turn=True),
    HelpRow("undo | u", "take back this turn's melds, builds and swaps (before you discard)", in_turn=True),
    HelpRow("hint", "what the greedy bot would play now, and what it scores", in_turn=True),
    HelpRow("look | l | table | show", "draw the table again (so does Enter on an empty line)", in_turn=True),
    HelpRow("score | scores | totals", "the totals and every hand's scores"),
    HelpRow("rules | rulebook", "the whole rulebook of this variant"),
    HelpRow("save [FILE]", "save now; with FILE, the game moves there and is saved there from now on"),
    HelpRow("help [COMMAND] | h | ?", "this list; with a command, its rows and its rules here: help meld"),
    HelpRow("quit | q | exit", "stop; the game stays saved for kalooki resume"),
)
"""The one list of the play screen's commands: the help's rows, the help at a pause and the words the
prompt refuses there (:data:`IN_TURN_WORDS`) are all read from it, so they cannot disagree."""

COMMANDS: tuple[tuple[str, str], ...] = tuple((row.usage, row.meaning) for row in HELP_ROWS)
"""The help's rows as (usage, meaning)."""

JOKERLESS = {row.meaning: row.jokerless for row in HELP_ROWS if row.jokerless}
"""Each meaning whose example holds a joker, and the meaning the help gives where the pack has none."""

MELD_ROW = HELP_ROWS[2]
"""The meld's row, whose example run is as long as the shortest run of the variant (:func:`meld_meaning`)."""

UNDO_ROW = HELP_ROWS[6]
"""The undo's row, which names swaps only where the variant has them (:func:`undo_meaning`)."""


def meld_meaning(variant: Variant) -> str:
    """The meld row's meaning in ``variant``: where runs are of four or more, its example run is that long
    (``meld 7H 8H 9H TH``), and there is no example of a joker's run, which would need three jokers;
    where the pack has none, no JK either."""
    if variant.run_minimum == SMALLEST_MELD:
        return MELD_ROW.meaning if variant.jokers else MELD_ROW.jokerless
    starts = run_frame(variant).window_starts()
    low = 7 if 7 in starts else starts[-1]
    # Rank 14 is the ace above the king.
    run = " ".join(f"{RANK_LETTERS[(rank - 1) % 13]}H" for rank in range(low, low + variant.run_minimum))
    return MELD_ROW.jokerless.replace("7H 8H 9H", run).replace(" (runs", f" (runs of {variant.run_minimum}+,")


def undo_meaning(variant: Variant, end_offered: bool) -> str:
    """The undo row's meaning in ``variant``: swaps taken back only where a joker may ever be taken (czech-500
    has none to take back), and the turn ended by ``end`` as well as by a discard where it may be."""
    until = "before you discard or end your turn" if end_offered else "before you discard"
    return f"take back {laid_this_turn(variant)} ({until})"


IN_TURN_WORDS = frozenset(word for row in HELP_ROWS if row.in_turn for word in row.words)
"""Every word of the commands that work only in one's own turn: a pause refuses each of them."""

PAUSE_WORDS = tuple(word for row in HELP_ROWS if not row.in_turn for word in row.words if len(word) > 2)
"""The commands written out that work at a pause: a near miss of one there is told which it missed."""


def pause_refusal(line: str, instead: str, turn_commands: Collection[str]) -> str:
    """The refusal of ``line`` at a pause, saying to do ``instead``: a command of ``turn_commands`` (hint,
    undo) is said to work in one's turn, a near miss of one that works there (scroe, rulse) is told which,
    as the turn's prompt tells one; any other line is told ``instead`` alone."""
    typed = line.strip()
    word = typed.split()[0]
    if word.lower() in turn_commands:
        return f"{word.lower()} works on your turn: {instead}"
    close = get_close_matches(word.lower(), PAUSE_WORDS, n=1, cutoff=0.75) if len(word) > 2 else []
    if not close or close[0] == word.lower():
        return instead
    meant = clipped(close[0] + typed[len(word) :])
    return f"'{clipped(typed)}' is not a command (did you mean '{meant}'?): {instead}"


def pause_commands() -> tuple[tuple[str, str], ...]:
    """The help's rows that work at a pause between turns or hands (a hot-seat pass screen): listed
    there, the moves were each refused ("press Enter when bob has the keyboard, or type ...")."""
    return tuple((row.usage, row.meaning) for row in HELP_ROWS if not row.in_turn)


END_COMMAND = ("end", "end your turn without a discard (this variant's discard is optional)")
"""The help's row for ending a turn without a discard, listed only where the variant allows it."""


def help_rows(
    variant: Variant, commands: tuple[tuple[str, str], ...], topic: str = ""
) -> Iterator[tuple[str, str]]:
    """The help's rows of ``commands`` as ``variant`` offers them: no row for a move it refuses, examples
    without JK where the pack has no jokers, ``end`` where a turn may end without a discard. With a
    ``topic`` (``help meld``: a word that types a command, ``m`` as well), only the rows it types."""
    keys = {offered.key for offered in offered_commands(variant)}
    refused = {move.key for move in MOVE_COMMANDS} - keys
    words = topic.split()
    asked = words[0].lower() if words else ""
    for command, meaning in commands:
        if command.rsplit(" | ", 1)[-1] in refused:  # a move's row ends on its key: "swap N CARDS | s"
            continue
        if not variant.jokers:  # an example holding JK, where the pack has none, reads as a card to have
            meaning = JOKERLESS.get(meaning, meaning)
        if command == MELD_ROW.usage:  # a run of the variant's shortest: 7H 8H 9H is no run of four
            meaning = meld_meaning(variant)
        if command == UNDO_ROW.usage:
            meaning = undo_meaning(variant, "end" in keys)
        if not asked or asked in typed_by(command):
            yield command, meaning
        if command.startswith("discard") and "end" in keys and asked in ("", "end"):
            yield END_COMMAND


SWAP_WORDS = ("swap", "s")
"""What types the swap move, whose help topic gives the variant's rules for taking a joker."""

HEADINGS = {
    "draw": "Drawing",
    "meld": "Melding",
    "build": "Building",
    "discard": "Discarding and going out",
    "end": "Ending a turn and going out",
}
"""What the heading above a move's key rules (:func:`kalooki.rulebook.move_rules`) calls it; ``end``'s
are discard's."""


def topic_rules(variant: Variant, topic: str) -> tuple[str, list[str]]:
    """A heading and the rules of ``variant`` that the move ``topic`` names is played by, or none: the
    help's key rules of that move (``help dd`` in kalooki-40: the discard is taken only to be laid), and
    for ``help swap`` what frees a joker from a set and from a run, who may take one and what becomes of
    it, which differ from variant to variant (classic frees a set's joker for both its missing suits put
    in together, kaluki-51 for one card of a missing suit), where the row alone says only a run's."""
    words = topic.split()
    word = words[0].lower() if words else ""
    if word in SWAP_WORDS:
        if not may_ever_swap(variant):
            return "", []
        return f"Taking a joker from the table in {variant.name}", joker_rules(variant)
    verb = ALIASES.get(word, word).split()[0]  # ds is draw stock, whose rules are draw's
    if verb not in HEADINGS:
        return "", []
    return f"{HEADINGS[verb]} in {variant.name}", move_rules(variant)["discard" if verb == "end" else verb]


def topic_refusal(variant: Variant, commands: tuple[tuple[str, str], ...], topic: str) -> str | None:
    """Why ``help TOPIC`` has no rows to show, or None: a command the variant never allows is said to be
    none of its moves, and why (swap where no joker ever leaves the table); any other word is no command."""
    if any(help_rows(variant, commands, topic)):
        return None
    word = topic.split()[0].lower()
    if word in SWAP_WORDS:
        why = "a joker laid on the table stays there for good" if variant.jokers else "its pack has no jokers"
        return f"swap is no move in {variant.name}: {why}"
    # A move the variant never allows is a word of the move language all the same: "not a command here"
    # sent a player who read dd in another variant's help to look for a typing mistake.
    if word == "dd":
        return (
            f"dd (draw discard) is no move in {variant.name}: the discard pile may never be taken, draw stock"
        )
    if word == "end":
        return f"end is no move in {variant.name}: its discard is not optional (discard CARD ends your turn)"
    return f"'{clipped(topic)}' is not a command here: type help for the list"


def draw_once_drawn(line: str, phase: str, variant: Variant) -> str:
    """``draw`` alone typed once the turn has drawn, as a draw from the stock, which the game refuses
    saying the card is drawn already: the move language's own refusal ("write draw stock or draw discard
    (ds or dd)") sent the player to draw again, and only then was told they had. Where ``variant``'s discard
    pile is never taken (czech-500), ``draw`` alone is the one draw there is: that refusal offered a draw
    of the discard the game then refused too."""
    typed_draw = line.strip().lower() == "draw"
    only_stock = not may_ever_take_discard(variant)
    return "draw stock" if typed_draw and (phase == "play" or only_stock) else line


def word_with_a_mark(word: str, words: Collection[str]) -> list[str]:
    """``d:`` as ``d``, ``ds.`` as ``ds``: one of ``words`` typed with a mark after it, as a verb is written
    before what it takes ("d: KD"); else empty. A near-miss ratio cannot tell a short verb so."""
    bare = word.rstrip(":.,;!?").lower()
    return [bare] if bare != word.lower() and bare in words else []


def short_verbs_missed(word: str) -> list[str]:
    """The short verbs (ds, dd, m...) that ``word`` is one key too many of: ``dss`` is ``ds``, and ``dds``
    is ``ds`` or ``dd``. A near-miss ratio cannot tell these: every two-letter verb is close to every other.
    """
    typed = word.lower()
    if len(typed) == 2:  # a key pressed twice: mm is m (but mb is not a near miss of both)
        return [typed[0]] if typed[0] == typed[1] and typed[0] in ALIASES else []
    if len(typed) != 3:
        return []
    short = {typed[:index] + typed[index + 1 :] for index in range(3)}
    return sorted(verb for verb in short if verb in ALIASES)


__all__ = [
    "COMMANDS",
    "HELP_ROWS",
    "IN_TURN_WORDS",
    "JOKERLESS",
    "PAUSE_WORDS",
    "HelpRow",
    "help_rows",
    "pause_commands",
    "pause_refusal",
    "short_verbs_missed",
    "topic_refusal",
    "topic_rules",
    "typed_by",
    "undo_meaning",
    "word_with_a_mark",
]
