"""Cards in what the table says to a person: ``10♠`` and ``JK(7♠)``, as the screen draws them.

The engine words its refusals in the script notation (``TS``, ``JK``), which scripts, JSON and
logs keep. At the table the same sentence is rewritten here: each card as the screen writes it,
and a meld's joker followed by what it stands for. A hint's commands are written the same way
and can still be typed back as they are: the move language reads ``10♠``, and a joker written
``JK(7♠)`` (what follows ``JK`` in brackets is a note, as on the table).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from kalooki.cards import JOKER, Card, parse_cards
from kalooki.engine import Game
from kalooki.melds import MeldError, MeldKind, RunEnd, TableMeld, build, make_meld
from kalooki.moves import Action, Build, Discard, Meld, Swap, format_move
from kalooki.variant import Variant

from .render import card_label, card_text, cards_text, joker_meaning, meld_text

_CARD = r"(?:[2-9TJQKA][CDHS]|JK)"
# A card in brackets is rewritten too ("does (8H)"), but for what follows a joker: ``JK(7♠)``.
_CARDS = re.compile(rf"(?<!\w)(?<!JK\(){_CARD}(?: {_CARD})*(?!\w)")


def _written(cards: str, variant: Variant, letters: bool) -> str:
    """A run of cards from a message: a meld holding a joker says what the joker stands for."""
    return _written_cards(parse_cards(cards), variant, letters)


def _written_cards(
    parsed: Sequence[Card], variant: Variant, letters: bool, kind: MeldKind | None = None
) -> str:
    if JOKER in parsed and len(parsed) >= 3:
        try:
            return meld_text(
                make_meld(parsed, variant, kind=kind), variant, letters=letters, held=False
            ).plain
        except MeldError:
            pass
    return " ".join(card_label(card, letters) for card in parsed)


_DRAWN_MARK = re.compile(r"(?<=[^\s,*])\*(?=[\s,]|$)")
"""A ``*`` right after a card: how the hand marks the card just drawn (``9♥*``). A ``*`` alone is a joker."""


def without_drawn_marks(line: str) -> str:
    """``line`` with the drawn card's mark taken off its cards, so that a card copied from the hand reads."""
    return _DRAWN_MARK.sub("", line)


def table_sentence(message: str, variant: Variant, letters: bool = False) -> str:
    """``message`` with its cards written as the table writes them."""
    return _CARDS.sub(lambda match: _written(match.group(0), variant, letters), message)


def move_text(action: Action, game: Game, letters: bool = False, style: str = "") -> Text:
    """A command as the table writes its cards: ``meld 8♣ 9♣ 10♣``, ``build 2 JK(9♥)``.

    ``style`` is for the command's words (the cards keep their colours).
    """
    variant = game.variant
    if isinstance(action, Meld):
        text = Text("meld ", style=style)
        groups = []
        for index, group in enumerate(action.groups):
            kind = action.kind_of(index)
            try:
                written = meld_text(
                    make_meld(group, variant, kind=kind), variant, letters=letters, held=False
                )
            except MeldError:
                written = cards_text(group, letters=letters)
            # The word is part of the command: a hint's line is typed back as it is.
            groups.append(written.append(f" {kind}", style=style) if kind else written)
        return text.append_text(Text(", ").join(groups))
    if isinstance(action, Build):
        text = Text(f"build {action.meld} ", style=style).append_text(_built_cards(action, game, letters))
        return text.append(f" {action.end}", style=style) if action.end else text
    if isinstance(action, Swap):
        return Text(f"swap {action.meld} ", style=style).append_text(
            cards_text(action.cards, letters=letters)
        )
    if isinstance(action, Discard):
        return Text("discard ", style=style).append_text(card_text(action.card, letters=letters))
    return Text(format_move(action), style=style)


def _built_cards(action: Build, game: Game, letters: bool) -> Text:
    """The cards of a build, each joker followed by what it will stand for on that meld."""
    if JOKER not in action.cards or not 1 <= action.meld <= len(game.table):
        return cards_text(action.cards, letters=letters)
    before = game.table[action.meld - 1]
    try:
        after = build(before, action.cards, game.variant, action.end)
    except MeldError:
        return cards_text(action.cards, letters=letters)
    return annotated_cards(action.cards, before, after, game.variant, letters)


def annotated_cards(
    added: Sequence[Card], before: TableMeld | None, after: TableMeld, variant: Variant, letters: bool
) -> Text:
    """Cards added to a meld (``before`` it, ``after`` it), each joker followed by what it stands for."""
    had: Counter[str] = Counter()
    if before is not None:
        had.update(
            joker_meaning(before, index, variant, letters)
            for index, card in enumerate(before.cards)
            if card == JOKER
        )
    meanings: list[str] = []
    for index, card in enumerate(after.cards):
        if card == JOKER:
            meaning = joker_meaning(after, index, variant, letters)
            if had[meaning]:
                had[meaning] -= 1
            else:
                meanings.append(meaning)
    pieces = []
    for card in added:
        piece = card_text(card, letters=letters)
        if card == JOKER and meanings:
            piece.append(f"({meanings.pop(0)})", style="dim")
        pieces.append(piece)
    return Text(" ").join(pieces)


def built_event_cards(
    added: Sequence[Card],
    result: Sequence[Card],
    variant: Variant,
    letters: bool = False,
    end: str | None = None,
) -> Text:
    """A build event's cards (a joker, onto the meld ``result`` at ``end``), each joker with what it
    stands for: where the event leaves that open, the joker alone."""
    if JOKER not in added:
        return cards_text(added, letters=letters)
    try:
        after = make_meld(result, variant)
    except MeldError:
        return cards_text(added, letters=letters)
    readings = {
        told.plain: told
        for told in (
            annotated_cards(added, before, after, variant, letters)
            for before in melds_before(added, result, after, variant, end)
        )
    }
    if not readings:  # built onto no meld that reads: every joker of the result is new
        return annotated_cards(added, None, after, variant, letters)
    # JK onto JK J♥ Q♥ K♥ JK: the 10♥ on J-Q-K-A, or the ace on 10-J-Q-K, the same cards either way.
    return next(iter(readings.values())) if len(readings) == 1 else cards_text(added, letters=letters)


def melds_before(
    added: Sequence[Card], result: Sequence[Card], after: TableMeld, variant: Variant, end: str | None
) -> list[TableMeld]:
    """Each meld ``added`` may have been built onto, making ``after`` (``result``'s cards): a build goes
    on one end of a run (``end``, else the engine tries high, then low) and on the end of a set's cards,
    and building it again there must make ``result``."""
    count, cards = len(added), tuple(result)
    run = after.kind == "run"
    given: RunEnd | None = "high" if end == "high" else "low" if end == "low" else None
    found = []
    for side in ([given] if given else ["high", "low"]) if run else ["high"]:
        at_side, kept = (cards[-count:], cards[:-count]) if side == "high" else (cards[:count], cards[count:])
        if at_side != tuple(added):
            continue
        try:
            # A run built on was a run before, if a lone one (JK 6H JK laid as a run).
            before = make_meld(kept, variant, kind="run" if run else None)
            if build(before, added, variant, given if run else None).cards == cards:
                found.append(before)
        except MeldError:
            continue
    return found


def meld_plain(cards: Sequence[Card], variant: Variant, kind: MeldKind | None = None) -> str:
    """A meld's cards (``5H JK 7H``, read as ``kind`` says) as the table writes them (``5♥ JK(6♥) 7♥``)."""
    return _written_cards(cards, variant, False, kind)


def melds_run_together(action: Action, refusal: str, game: Game, letters: bool = False) -> str:
    """What to add to ``refusal`` of a meld written without its commas: ``meld 7H 8H 9H QS QD QC``.

    When the refusal is that one group is no meld, and the group falls into two or more melds as
    written, the player most likely meant those: the line says so, with the move to type.
    """
    if not isinstance(action, Meld) or len(action.groups) != 1:
        return ""
    (group,) = action.groups
    try:
        make_meld(group, game.variant, kind=action.kind_of(0))
    except MeldError as why:
        if str(why) not in refusal:
            return ""
    else:
        return ""
    groups = _melds_in_order(group, game.variant)
    if groups is None or len(groups) < 2:
        return ""
    written = move_text(Meld(groups=groups), game, letters).plain
    return f"; to lay {len(groups)} melds, put a comma between them: {written}"


def _melds_in_order(cards: tuple[Card, ...], variant: Variant) -> tuple[tuple[Card, ...], ...] | None:
    """``cards`` cut, in the order written, into melds of three or more cards; None when they cannot be."""
    if not cards:
        return ()
    for end in range(3, len(cards) + 1):
        try:
            make_meld(cards[:end], variant)
        except MeldError:
            continue
        rest = _melds_in_order(cards[end:], variant)
        if rest is not None:
            return (cards[:end], *rest)
    return None
