"""The terminal screens of an interactive game, drawn with rich.

Everything here writes to a :class:`rich.console.Console` that the caller passes in, so
the same code draws in colour on a terminal, in plain text into a pipe (or with
``NO_COLOR``), and into a ``StringIO`` in tests. Screens are laid out for 80 columns;
rich wraps anything longer at the console's width. On a narrower terminal the players' rows, the
end of a hand and the score sheet take compact layouts (``compact.py``) rather than cut a number.
The end of a hand and of the game are drawn by ``scoresheet.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from kalooki import rules
from kalooki.cards import (
    JOKER,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    Card,
    card_symbol,
    format_card,
    is_red,
    make_card,
    sorted_hand,
    suit_of,
)
from kalooki.engine import Game
from kalooki.joker_layers import layers_of
from kalooki.melds import MeldError, MeldKind, RunEnd, TableMeld, jokers_held_for_good, make_meld
from kalooki.moves import kind_at
from kalooki.rulebook import scoring_line
from kalooki.turn import undo_takes_back
from kalooki.variant import Variant

from .narrow import natural_width
from .plain_text import STAND_INS
from .prompt_commands import COMMANDS as COMMANDS  # the help's rows, read here from before their module

RED = "bold red"
BLACK = "bold"
JOKER_STYLE = "bold black on yellow"
MARK = "underline"
DIM = "dim"
HELD = "closed"
"""Written after what a table joker stands for when no swap can ever take it: ``JK(9♥, closed)``."""


def plain_cards(console: Console) -> bool:
    """Whether to write suits as letters: a terminal that cannot encode ♣♦♥♠ would show garbage."""
    encoding = (console.encoding or "").lower().replace("-", "")
    return not encoding.startswith("utf")


# The game screen's few symbols, written as the stand-ins a stream that cannot encode them gets.
_ASCII = str.maketrans({symbol: STAND_INS[symbol] for symbol in "·▶•✗"})


def sentence_start(text: str) -> str:
    """``text`` with its first letter a capital and the rest as written: a line that opens with the
    table's own words ("Hand 2, dealt by ann"). A player's name is never changed:
    :meth:`Seating.sentence_subject`."""
    return text[:1].upper() + text[1:]


def glyphs(text: str, letters: bool) -> str:
    """``text`` with its few decorative symbols made ASCII for a terminal that cannot show them."""
    return text.translate(_ASCII) if letters else text


def card_label(card: Card, letters: bool = False) -> str:
    if letters:
        return "10" + SUIT_LETTERS[suit_of(card)] if card != JOKER and card % 13 == 9 else format_card(card)
    return card_symbol(card)


def card_style(card: Card) -> str:
    if card == JOKER:
        return JOKER_STYLE
    return RED if is_red(card) else BLACK


def card_text(card: Card, *, letters: bool = False, mark: bool = False) -> Text:
    style = card_style(card)
    return Text(card_label(card, letters), style=f"{style} {MARK}" if mark else style)


def cards_text(cards: Iterable[Card], *, letters: bool = False) -> Text:
    return Text(" ").join(card_text(card, letters=letters) for card in cards)


def joker_meaning(meld: TableMeld, index: int, variant: Variant, letters: bool = False) -> str:
    """What the joker at ``index`` stands for: a run's exact card, or a set's rank in the suits a card
    that frees it may be: those the set lacks, or, where ``variant`` lets suits repeat, every suit (the
    engine's swap takes any card of the rank there)."""
    stands = meld.stands_for(index)
    if stands != JOKER:
        return card_label(stands, letters)
    rank_card = card_label(make_card(meld.rank if meld.rank <= 13 else 1, 0), letters)[:-1]
    return rank_card + set_joker_suits(meld.missing_suits(), letters, variant)


def set_joker_suits(missing: Iterable[int], letters: bool, variant: Variant) -> str:
    """The suits a set's joker may stand for, as a note writes them: ``♣/♠``."""
    suits = missing if rules.suits_must_differ(variant) else range(4)
    symbols = SUIT_LETTERS if letters else SUIT_SYMBOLS
    return "/".join(symbols[suit] for suit in suits)


def joker_notes(
    meld: TableMeld,
    variant: Variant,
    *,
    letters: bool = False,
    layer_name: Callable[[int], str] | None = None,
    held: bool = True,
) -> list[str | None]:
    """For each of a table meld's cards, what a joker stands for (None for a natural card).

    With ``held``, a joker that can never be taken (a closed set, or a variant that forbids it) says
    so: ``9♥, closed``: the table's state, which a move's or a message's cards leave out. With
    ``layer_name``, a joker laid by another seat than the meld's owner (recorded only where joker_taker
    asks who laid it) names that seat: ``9♥, laid by bob``, as it decides who may take it.
    """
    held = held and jokers_held_for_good(meld, variant)
    layers = iter(layers_of(meld))
    notes: list[str | None] = []
    for index, card in enumerate(meld.cards):
        if card != JOKER:
            notes.append(None)
            continue
        note = joker_meaning(meld, index, variant, letters) + (f", {HELD}" if held else "")
        layer = next(layers)
        if layer_name is not None and layer != meld.owner:
            note += f", laid by {layer_name(layer)}"
        notes.append(note)
    return notes


def meld_text(
    meld: TableMeld,
    variant: Variant,
    *,
    letters: bool = False,
    layer_name: Callable[[int], str] | None = None,
    held: bool = True,
) -> Text:
    """A table meld's cards, each joker followed by its :func:`joker_notes`: ``7♥ 8♥ JK(9♥)``."""
    parts: list[Text] = []
    notes = joker_notes(meld, variant, letters=letters, layer_name=layer_name, held=held)
    for card, note in zip(meld.cards, notes, strict=True):
        text = card_text(card, letters=letters)
        if note is not None:
            text.append(f"({note})", style=DIM)
        parts.append(text)
    return Text(" ").join(parts)


def written_meld_text(
    cards: Sequence[Card], variant: Variant, *, letters: bool = False, kind: MeldKind | None = None
) -> Text:
    """A meld's cards as they were laid (``9S 9D JK``, read as ``kind`` says), drawn like a table meld."""
    try:
        return meld_text(make_meld(cards, variant, kind=kind), variant, letters=letters)
    except MeldError:
        return cards_text(cards, letters=letters)


# ---------------------------------------------------------------- who is who


def bot_label(kind: str) -> str:
    """A bot's seat as the screens call it: ``greedy bot``, where the kind alone, ``(greedy)``, told a
    newcomer nothing of a bot (a plug-in named ``smartbot`` stays ``smartbot``)."""
    return kind if kind.lower().endswith("bot") else f"{kind} bot"


@dataclass(frozen=True, slots=True)
class Seating:
    """How the screens name the players: the person at the keyboard is "you"."""

    players: tuple[str, ...]
    human: int
    """The seat of the person at the keyboard; :data:`NOBODY` where the screen is for everyone at it."""
    bots: Mapping[int, str]
    away: Mapping[int, str | None] = field(default_factory=dict)
    """At a table over the network, the seats whose player is away: the bot that plays for them now,
    or None while the table still waits for them."""

    def name(self, seat: int) -> str:
        return "you" if seat == self.human else self.players[seat]

    def label(self, seat: int) -> str:
        """A seat in a list of players: ``ann (you)``, ``bob (greedy bot)``; at a table over the network,
        ``cid (away)`` while the table waits for them, ``cid (away, greedy bot)`` once a bot plays for them.
        The browser page labels them alike."""
        if seat == self.human:
            name = self.players[seat]
            return "you" if name == "you" else f"{name} (you)"
        if seat in self.away:
            stand_in = self.away[seat]
            return f"{self.players[seat]} (away{f', {bot_label(stand_in)}' if stand_in else ''})"
        bot = self.bots.get(seat)
        return f"{self.players[seat]} ({bot_label(bot)})" if bot else self.players[seat]

    def subject(self, name: str) -> str:
        """An event's player name as the subject of a sentence."""
        return "you" if self.sees_draws(name) else name

    def sentence_subject(self, name: str) -> str:
        """:meth:`subject` opening a sentence: "You", or the name as written, never re-capitalised (élodie
        is not Élodie on one line and élodie on the next, and a name is checked for look-alikes as written).
        """
        return "You" if self.sees_draws(name) else name

    def sees_draws(self, name: str) -> bool:
        """Whether the screens name the cards this player draws from the stock: the person at the
        keyboard's own, and nobody else's (whatever a player's name, "you" included)."""
        return self.human != NOBODY and name == self.players[self.human]


NOBODY = -1
"""A :class:`Seating`'s ``human`` on a screen that several people at one terminal read together (the end
of a hot-seat hand): nobody on it is "you"."""


# ---------------------------------------------------------------- the main screen


@dataclass(frozen=True, slots=True)
class MeldPreview:
    """What the hand could lay now, as the solver sees it (shown under the hand, its cards underlined).

    ``builds`` hold table indexes from 0. ``opens`` says whether laying it reaches the
    opening threshold (always true for a player who has opened); ``needed`` is that threshold.
    """

    melds: tuple[tuple[Card, ...], ...]
    builds: tuple[tuple[int, tuple[Card, ...], RunEnd | None], ...]
    points: int
    opens: bool
    needed: int
    kinds: tuple[MeldKind | None, ...] = ()
    """Empty, or how each new meld reads (``run``: one natural and jokers laid as a run)."""

    @property
    def cards(self) -> list[Card]:
        laid = [card for meld in self.melds for card in meld]
        return laid + [card for _, cards, _ in self.builds for card in cards]


def hand_groups(
    hand: Sequence[Card], *, marked: Sequence[Card] = (), new: Card | None = None, letters: bool = False
) -> list[Text]:
    """The hand sorted by suit and rank, a text per suit, jokers last; ``marked`` cards underlined.

    ``new`` (the card just drawn) is followed by a ``*`` so it can be found even without colour.
    """
    to_mark = Counter(marked)
    new_left = 1 if new is not None else 0
    groups: list[Text] = []
    previous_suit: int | None = None
    for card in sorted_hand(hand):
        group = 4 if card == JOKER else suit_of(card)
        if group != previous_suit:
            groups.append(Text())
        else:
            groups[-1].append(" ")
        previous_suit = group
        mark = to_mark[card] > 0
        if mark:
            to_mark[card] -= 1
        groups[-1].append_text(card_text(card, letters=letters, mark=mark))
        if new_left and card == new:
            new_left = 0
            groups[-1].append("*", style="bold green")
    return groups


def hand_text(
    hand: Sequence[Card], *, marked: Sequence[Card] = (), new: Card | None = None, letters: bool = False
) -> Text:
    """The hand on one line: its :func:`hand_groups`, three spaces apart."""
    return Text("   ").join(hand_groups(hand, marked=marked, new=new, letters=letters))


def hand_lines(label: Text, groups: Sequence[Text], width: int) -> list[Text]:
    """``label`` and the hand's suits, three spaces apart, broken between suits where the line is full
    (never inside one: a suit split over two lines reads as two suits), each line after the first
    indented under the first card."""
    lines = [label.copy()]
    indent = " " * label.cell_len
    for number, group in enumerate(groups):
        line = lines[-1]
        if number and line.cell_len + 3 + group.cell_len > width:
            line = Text(indent)
            lines.append(line)
        elif number:
            line.append("   ")
        line.append_text(group)
    return lines


def preview_text(preview: MeldPreview, game: Game, letters: bool) -> Text:
    text = Text("You could lay: ", style="bold")
    pieces: list[Text] = []
    for index, meld in enumerate(preview.melds):
        kind = kind_at(preview.kinds, index)
        pieces.append(written_meld_text(meld, game.variant, letters=letters, kind=kind))
    for index, cards, _end in preview.builds:
        piece = cards_text(cards, letters=letters)
        piece.append(" on meld ")
        piece.append(str(index + 1), style="bold cyan")
        pieces.append(piece)
    text.append_text(Text(", ").join(pieces))
    text.append(f" = {preview.points} points")
    if preview.needed:
        verdict = "enough to open" if preview.opens else "not enough to open"
        text.append(f", {verdict} ({preview.needed})", style="green" if preview.opens else "yellow")
    return text


def table_grid(game: Game, seating: Seating, letters: bool) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="bold cyan", no_wrap=True)
    grid.add_column(no_wrap=True, max_width=10)
    grid.add_column(overflow="fold")
    for number, meld in enumerate(game.table, start=1):
        grid.add_row(
            str(number),
            seating.name(meld.owner),
            meld_text(meld, game.variant, letters=letters, layer_name=seating.name),
        )
    return grid


@dataclass(frozen=True, slots=True)
class PlayerRow:
    pointer: str
    label: str
    style: str
    cards: int | None
    """``None`` for a player out of the game."""
    opened: bool
    total: int


def players_grid(game: Game, seating: Seating, letters: bool = False, width: int = 80) -> Table:
    """Each player's cards, whether they have opened and their total; headed columns when ``width`` is narrow.

    The wide rows say ``13 cards  not opened  total 40``. Where they do not fit, the words go
    to a heading row over bare numbers, and names wrap at their spaces: a number is never cut.
    """
    playing = game.phase in ("draw", "play")
    rows = []
    for offset in range(len(game.players)):
        seat = (seating.human + offset) % len(game.players)
        now = playing and seat == game.current
        count = None if game.eliminated[seat] else len(game.hands[seat])
        pointer = glyphs("▶ ", letters) if now else "  "
        style = "bold" if now else ""
        label = seating.label(seat)
        rows.append(PlayerRow(pointer, label, style, count, game.opened[seat], game.totals[seat]))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True)
    # The numbers padded to one width, so the word "total" lines up over totals of 8 and 53.
    digits = max(len(str(row.total)) for row in rows)
    for row in rows:
        name = Text(row.pointer + row.label, style=row.style)
        if row.cards is None:
            grid.add_row(name, "", Text("out", style="red"), str(row.total))
            continue
        said = Text("opened", style="green") if row.opened else Text("not opened", style=DIM)
        plural = "s" if row.cards != 1 else ""
        grid.add_row(name, f"{row.cards} card{plural}", said, f"total {row.total:>{digits}}")
    return grid if natural_width(grid) <= width else headed_players_grid(rows)


def headed_players_grid(rows: Sequence[PlayerRow]) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True)
    grid.add_row("", "", *(Text(heading, style=DIM) for heading in ("cards", "opened", "total")))
    for row in rows:
        pointer, name = Text(row.pointer.strip(), style=row.style), Text(row.label, style=row.style)
        if row.cards is None:
            grid.add_row(pointer, name, "", Text("out", style="red"), str(row.total))
        else:
            said = Text("yes", style="green") if row.opened else Text("no", style=DIM)
            grid.add_row(pointer, name, str(row.cards), said, str(row.total))
    return grid


def screen_title(game: Game, seating: Seating, letters: bool, width: int) -> list[Rule | Text]:
    """The screen's rule, its title shortened to fit ``width``; the hand and turn go under it, never cut."""
    where = f"hand {game.hand_number}, dealt by {seating.name(game.dealer)} · turn {game.turn_number}"
    for title in (f"Kalooki · {game.variant.name} · {where}", f"{game.variant.name} · {where}"):
        if cell_len(title) + RULE_ENDS <= width:
            return [Rule(glyphs(title, letters), style="cyan")]
    return [Rule(game.variant.name, style="cyan"), Text(glyphs(sentence_start(where), letters))]


RULE_ENDS = 4
"""What a rule keeps around its title: a line and a space each side."""


def render_screen(
    console: Console,
    game: Game,
    seating: Seating,
    *,
    preview: MeldPreview | None = None,
    drawn: Card | None = None,
) -> None:
    """The whole table as the human sees it, ending with what their turn still needs."""
    letters = plain_cards(console)
    variant = game.variant
    for line in screen_title(game, seating, letters, console.width):
        console.print(line)
    console.print(players_grid(game, seating, letters, console.width))
    console.print(Text(f"Scoring: {scoring_line(variant)}.", style=DIM))
    if game.table:
        console.print(Text("Table", style="bold"))
        from .compact import fitted_table  # here: compact builds on this module

        console.print(fitted_table(console, game, seating, letters))
    else:
        console.print(Text("Table: no melds yet", style="bold"))
    top = Text("Discard pile: ", style="bold")
    if game.discard_pile:
        top.append_text(card_text(game.discard_pile[-1], letters=letters))
        top.append(f" ({len(game.discard_pile)} card{'s' if len(game.discard_pile) != 1 else ''})", style=DIM)
    else:
        top.append("empty", style=DIM)
    top.append("    Stock: ", style="bold")
    stock = len(game.stock)
    top.append(f"{stock} card{'s' if stock != 1 else ''}")
    console.print(top)
    if game.eliminated[seating.human]:
        # Watching the others play on: no hand to show ("Your hand (0):" read as a hand emptied by going out).
        console.print(Text("You are out of the game: watching the others play on.", style="bold"))
        for status in turn_status(game, seating, letters=letters):
            console.print(status)
        return
    hand = game.hands[seating.human]
    label = Text(f"Your hand ({len(hand)}): ", style="bold")
    groups = hand_groups(hand, marked=preview.cards if preview else (), new=drawn, letters=letters)
    for line in hand_lines(label, groups, console.width):
        console.print(line)
    if preview is not None and (preview.melds or preview.builds):
        console.print(preview_text(preview, game, letters))
    for status in turn_status(game, seating, letters=letters):
        console.print(status)


def whose_turn(seat: int, seating: Seating) -> str:
    """Another seat's turn: its player is playing, or is away (the table waits, or a bot plays for them)."""
    name = seating.name(seat)
    if seat not in seating.away:
        return f"{name} is playing."
    if seating.away[seat] is None:
        return f"{name} is away: the table waits for them, then a bot plays for them."
    return f"{name} is away: a bot plays for them until they are back."


def turn_status(game: Game, seating: Seating, *, letters: bool = False) -> list[Text]:
    """Whose turn it is and what the turn still needs."""
    if game.phase not in ("draw", "play"):
        return []
    if game.current != seating.human:
        return [Text(whose_turn(game.current, seating), style="bold")]
    variant = game.variant
    seat = seating.human
    lines: list[Text] = []
    if game.phase == "draw":
        text = Text("Your turn: draw a card: ", style="bold")
        text.append("ds", style="bold cyan")
        text.append(" (draw stock)")
        if game.discard_pile and any(getattr(a, "source", None) == "discard" for a in game.legal_actions()):
            text.append(" or ")
            text.append("dd", style="bold cyan")
            text.append(" (draw discard: ")
            text.append_text(card_text(game.discard_pile[-1], letters=letters))
            text.append(")")
        lines.append(text)
    else:
        laying = "meld, build or swap" if rules.may_ever_swap(variant) else "meld or build"
        text = Text(f"Your turn: {laying} if you can, then ", style="bold")
        text.append("discard", style="bold cyan")
        if rules.may_end_without_discard(variant):
            text.append(" a card (d CARD) or ")
            text.append("end", style="bold cyan")
            text.append(" the turn without one.")
        else:
            text.append(" a card (d CARD).")
        lines.append(text)
        turn = game.turn
        if (
            turn.must_use_card is not None
            and game.hands[seat].count(turn.must_use_card) > turn.must_use_limit
        ):
            lines.append(
                Text(
                    f"You took {card_label(turn.must_use_card, letters)} from the discard pile: "
                    "meld or build it before you discard.",
                    style="yellow",
                )
            )
        if turn.jokers_owed:
            lines.append(
                Text("The joker you freed must go into a new meld before you discard.", style="yellow")
            )
        if len(game.hands[seat]) == 1 and not rules.discards_last_card(variant):
            refusal = rules.last_discard_refusal(variant)
            lines.append(Text(f"{refusal[0].upper()}{refusal[1:]}.", style="yellow"))
        if game.can_undo():
            lines.append(Text(f"({undo_takes_back(variant)})", style=DIM))
    if not game.opened[seat] and variant.opening_threshold:
        lines.append(
            Text(
                # Not "(m A, B)": a newcomer reads A as the ace. No example cards either: the
                # line goes to the browser's coach too, where only cards the seat sees may appear.
                f"Not opened yet: your first melds must make {variant.opening_threshold} together, "
                "in one meld command.",
                style=DIM,
            )
        )
    return lines
