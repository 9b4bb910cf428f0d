"""Events told in words: the account of a script or a log, and the table's line per player's turn.

Both are visitors of one walk (:class:`kalooki.events.EventVisitor`): :class:`Sentences` names every
player and tells every event on its own; :class:`TableTelling` says "you" to the person at the
terminal, names only their own card drawn from the stock, and joins a player's actions into one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from kalooki.cards import Card, card_symbol
from kalooki.engine import Event, Game
from kalooki.events import (
    BuildEvent,
    DealEvent,
    DiscardEvent,
    DrawEvent,
    EliminatedEvent,
    EndTurnEvent,
    EventVisitor,
    GameEndEvent,
    GameEvent,
    HandEndEvent,
    MeldEvent,
    PlayEvent,
    ReleaseEvent,
    ReshuffleEvent,
    StockOutEvent,
    as_event,
    events_from_json,
)
from kalooki.melds import MeldKind
from kalooki.variant import Variant

from .render import DIM, Seating, card_text, cards_text, written_meld_text
from .table_notation import built_event_cards, meld_plain


def symbols(cards: Sequence[Card]) -> str:
    """Cards as people read them (``10♥ JK``)."""
    return " ".join(card_symbol(card) for card in cards)


def melded(cards: Sequence[Card], variant: Variant | None, kind: MeldKind | None = None) -> str:
    return symbols(cards) if variant is None else meld_plain(cards, variant, kind)


def meld_kinds(event: MeldEvent) -> tuple[MeldKind | None, ...]:
    """How each meld of ``event`` reads: as its move said, else as written."""
    return event.read_as or (None,) * len(event.melds)


def built(event: BuildEvent, variant: Variant | None) -> str:
    if variant is None:
        return symbols(event.cards)
    return built_event_cards(event.cards, event.result, variant, end=event.end).plain


_NO_WINNER = {
    "stock_exhausted": "the stock ran out",
    "blocked": "the player to draw had no card to draw",
    "turn_limit": "the turn limit was reached: nobody scores",
}


def describe_event(
    event: GameEvent | Mapping[str, Any], *, reveal: bool = True, variant: Variant | None = None
) -> str:
    """One line for an event (typed, or in its JSON form).

    ``reveal=False`` hides what only the acting player saw: the card drawn from the stock.
    With ``variant``, a joker in a meld says what it stands for, as the table does: ``JK(6♥)``.
    """
    return Sentences(reveal, variant).visit(as_event(event))


class Sentences(EventVisitor[str]):
    """Each event as a sentence of its own, the players named: the account of a script or a log."""

    def __init__(self, reveal: bool = True, variant: Variant | None = None) -> None:
        self.reveal = reveal
        self.variant = variant

    def deal(self, event: DealEvent) -> str:
        face_up = "no card" if event.discard is None else card_symbol(event.discard)
        dealer = "" if event.dealer is None else f" by {event.dealer}"
        cut = ""
        if event.drawn_for_dealer:
            cut = f"each draws a card for the deal ({_draws(event.drawn_for_dealer)}); "
            for again in event.drawn_again:
                cut += f"{_names(list(again))} draw again ({_draws(again)}); "
        first = f"{event.first} plays first"
        return f"hand {event.hand}: {cut}cards dealt{dealer}, {first}, {face_up} face up"

    def draw(self, event: DrawEvent) -> str:
        if event.card is not None and event.source == "discard":
            return f"{event.player} takes {card_symbol(event.card)} from the discard pile"
        if self.reveal and event.card is not None:
            return f"{event.player} draws {card_symbol(event.card)} from the stock"
        return f"{event.player} draws from the stock"

    def meld(self, event: MeldEvent) -> str:
        groups = ", ".join(
            melded(group, self.variant, kind)
            for group, kind in zip(event.melds, meld_kinds(event), strict=False)
        )
        numbers = ", ".join(str(number) for number in event.numbers)
        return f"{event.player} melds {groups} ({event.points} points; table {numbers})"

    def build(self, event: BuildEvent) -> str:
        result = melded(event.result, self.variant)
        return f"{event.player} builds {built(event, self.variant)} on meld {event.meld}: {result}"

    def release(self, event: ReleaseEvent) -> str:
        jokers = "a joker" if event.jokers == 1 else f"{event.jokers} jokers"
        return f"{event.player} puts {symbols(event.cards)} on meld {event.meld} and takes {jokers}"

    def discard(self, event: DiscardEvent) -> str:
        return f"{event.player} discards {card_symbol(event.card)}"

    def end_turn(self, event: EndTurnEvent) -> str:
        return f"{event.player} ends the turn without a discard"

    def reshuffle(self, event: ReshuffleEvent) -> str:
        return f"the stock ran out: {_reshuffled(event)} is shuffled into a new stock"

    def stock_out(self, event: StockOutEvent) -> str:
        return "the stock ran out: the hand ends after this turn"

    def hand_end(self, event: HandEndEvent) -> str:
        if event.winner is None:
            why = _NO_WINNER.get(event.end, "abandoned")
            return f"hand {event.hand} ends without a winner ({why})"
        how = "goes Kalooki" if event.kalooki else "goes out"
        return f"{event.winner} {how}: hand {event.hand} is over"

    def eliminated(self, event: EliminatedEvent) -> str:
        return f"{event.player} reaches the limit and is out"

    def game_end(self, event: GameEndEvent) -> str:
        winners = event.winners
        return f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} the game"


# ---------------------------------------------------------------- at the table


_VERBS = {
    "draws": "draw",
    "melds": "meld",
    "builds": "build",
    "takes": "take",
    "discards": "discard",
    "ends": "end",
}


def table_lines(
    events: Sequence[Event], game: Game, seating: Seating, *, letters: bool = False, worded: bool = False
) -> list[Text]:
    """Readable lines for a run of events: one line for each player's actions, in order.

    Cards drawn from the stock are named only for the human; everything else in the
    events is public. ``worded``: a new meld's number as words ("as meld 2"), not the terminal's "[2]"
    (the browser's log, read by players who never met the bracket).
    """
    lines: list[Text] = []
    actor: str | None = None
    clauses: list[Text] = []

    def flush() -> None:
        if actor is not None and clauses:
            line = Text(seating.sentence_subject(actor) + " ", style="bold")
            line.append_text(Text(", ").join(clauses))
            line.append(".")
            lines.append(line)
        clauses.clear()

    told = TableTelling(game, seating, letters, worded)
    for event in events_from_json(events):
        said = told.visit(event)
        if isinstance(said, tuple):
            player, clause = said
            if player != actor:
                flush()
                actor = player
            clauses.append(clause)
        elif said is not None:
            flush()
            lines.append(said)
    flush()
    return lines


def join_and(pieces: Sequence[Text]) -> Text:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(pieces) <= 1:
        return Text().join(pieces)
    return Text(", ").join(pieces[:-1]) + Text(" and ") + pieces[-1]


def _draws(drawn: Mapping[str, Card]) -> str:
    """The cards players drew for the deal: "ann 9♠, bob 6♦"."""
    return ", ".join(f"{name} {card_symbol(card)}" for name, card in drawn.items())


def _names(names: Sequence[str]) -> str:
    """ "ann and dee", "ann, bob and dee"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _reshuffled(event: ReshuffleEvent) -> str:
    """What of the discard pile a reshuffle takes: under reshuffle_keep_top its top card stays face up."""
    return "the discard pile but its top card" if event.rule == "reshuffle_keep_top" else "the discard pile"


def _verb(word: str, you: bool) -> str:
    return _VERBS[word] if you else word


class TableTelling(EventVisitor["tuple[str, Text] | Text | None"]):
    """The events as the table tells them: a player's action as a clause of their line ("you" for the
    human, whose card drawn from the stock alone is named), the stock's news as a line of its own; the
    deal and the ends of hands and games have screens of their own and say nothing here."""

    def __init__(self, game: Game, seating: Seating, letters: bool, worded: bool = False) -> None:
        self.variant = game.variant
        self.seating = seating
        self.letters = letters
        self.worded = worded

    def _you(self, event: PlayEvent) -> bool:
        """Whether the sentence's subject is "you" (its verbs then read "draw", not "draws")."""
        return self.seating.subject(event.player) == "you"

    def deal(self, event: DealEvent) -> None:
        return None

    def draw(self, event: DrawEvent) -> tuple[str, Text]:
        you = self._you(event)
        # Hidden unless the screen is this player's own: a player named "you" in a game watched back
        # is the subject "you", but the watcher never held their cards.
        if event.card is None or (event.source == "stock" and not self.seating.sees_draws(event.player)):
            return event.player, Text(_verb("draws", you) + " from the stock")
        taken = event.source == "discard"
        text = Text(_verb("takes" if taken else "draws", you) + " ")
        text.append_text(card_text(event.card, letters=self.letters))
        return event.player, text.append(" from the discard pile" if taken else " from the stock")

    def meld(self, event: MeldEvent) -> tuple[str, Text]:
        text = Text(_verb("melds", self._you(event)) + " ")
        pieces = []
        for number, cards, kind in zip(event.numbers, event.melds, meld_kinds(event), strict=False):
            piece = written_meld_text(cards, self.variant, letters=self.letters, kind=kind)
            piece.append(f" as meld {number}" if self.worded else f" [{number}]", style="cyan")
            pieces.append(piece)
        text.append_text(join_and(pieces))
        return event.player, text.append(f" ({event.points} points)", style=DIM)

    def build(self, event: BuildEvent) -> tuple[str, Text]:
        text = Text(_verb("builds", self._you(event)) + " ")
        text.append_text(built_event_cards(event.cards, event.result, self.variant, self.letters, event.end))
        return event.player, text.append(f" onto meld {event.meld}")

    def release(self, event: ReleaseEvent) -> tuple[str, Text]:
        text = Text(_verb("takes", self._you(event)) + f" a joker from meld {event.meld}, putting ")
        text.append_text(cards_text(event.cards, letters=self.letters))
        return event.player, text.append(" in its place")

    def discard(self, event: DiscardEvent) -> tuple[str, Text]:
        text = Text(_verb("discards", self._you(event)) + " ")
        return event.player, text.append_text(card_text(event.card, letters=self.letters))

    def end_turn(self, event: EndTurnEvent) -> tuple[str, Text]:
        return event.player, Text(_verb("ends", self._you(event)) + " the turn without a discard")

    def reshuffle(self, event: ReshuffleEvent) -> Text:
        return Text(f"{_reshuffled(event).capitalize()} is shuffled to make a new stock.", style="italic")

    def stock_out(self, event: StockOutEvent) -> Text:
        return Text("The stock is empty: the hand ends with this turn.", style="italic")

    def hand_end(self, event: HandEndEvent) -> None:
        return None

    def eliminated(self, event: EliminatedEvent) -> None:
        return None

    def game_end(self, event: GameEndEvent) -> None:
        return None
