"""The screens laid out to fit a small terminal: the melds on a short one, the scores on a narrow one.

The table's melds fit a short terminal (80×24) with the other players' turns still in view.

Before the screen comes up, the other players' turns are told one line each; at 80×24 a
table of ten melds in one column pushed those lines off the top. When the screen would not
leave room for them, the melds go in two columns, numbered down the first and then the second,
so ``build 7`` still finds meld 7 where the eye expects it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from kalooki.engine import Game

from .narrow import Column, marked_cells, narrow_table, natural_width
from .render import Seating, meld_text, table_grid

SCREEN_LINES = 14
"""The screen's lines besides the melds and the players: rule, scoring, headings, hand, hints, prompt."""
REPORT_LINES = 2
"""Room kept for each other player's turn report (one line, sometimes wrapped to two)."""
MIN_TWO_COLUMN_WIDTH = 70


def needs_two_columns(console: Console, game: Game) -> bool:
    players = len(game.players)
    wanted = SCREEN_LINES + players + len(game.table) + REPORT_LINES * (players - 1)
    return len(game.table) > 4 and wanted > console.height and console.width >= MIN_TWO_COLUMN_WIDTH


def fitted_table(console: Console, game: Game, seating: Seating, letters: bool) -> Table:
    """The table's melds in one column, or in two when one would push the turn reports off the screen."""
    if not needs_two_columns(console, game):
        return table_grid(game, seating, letters)
    grid = Table.grid(padding=(0, 1))
    for _ in range(2):
        grid.add_column(justify="right", style="bold cyan", no_wrap=True)
        grid.add_column(no_wrap=True, max_width=10)
        grid.add_column(overflow="fold", ratio=1)
    melds = list(enumerate(game.table, start=1))
    rows = (len(melds) + 1) // 2
    for row in range(rows):
        cells: list[str | Text] = []
        for index in (row, row + rows):
            if index < len(melds):
                number, meld = melds[index]
                cells += [
                    str(number),
                    seating.name(meld.owner),
                    meld_text(meld, game.variant, letters=letters, layer_name=seating.name),
                ]
            else:
                cells += ["", "", ""]
        grid.add_row(*cells)
    return grid


def print_narrow_hand_end(console: Console, rows: Sequence[tuple[str, Text, Sequence[str]]]) -> None:
    """The end of a hand on a narrow terminal: the numbers in a table, each player's cards left below it.

    ``rows``: each player's label, cards left and numbers (points, this hand, total).
    """
    body = [[label, *numbers] for label, _, numbers in rows]
    numbers = [Column("points"), Column("this hand"), Column("total")]
    table = narrow_table([Column("player", "left"), *numbers], body, fit=console.width)
    if natural_width(table) > console.width:  # the labels wrap at their spaces, to leave the numbers whole
        longest_word = max(len(word) for label, _, _ in rows for word in label.split())
        table = narrow_table([Column("player", "left", cap=longest_word), *numbers], body, fit=console.width)
    console.print(table)
    console.print(Text("Cards left", style="bold"))
    # A grid, so that cards wrapped onto a second line stand under the first card, not under the name.
    cards = Table.grid(padding=(0, 1))
    cards.add_column(no_wrap=True)
    cards.add_column()
    for label, left, _ in rows:
        cards.add_row(f"{label}:", left)
    console.print(cards)


def narrow_totals(
    hands: Sequence[str],
    labels: Sequence[str],
    names: Sequence[str],
    columns: Sequence[Sequence[tuple[str, str]]],
    fit: int,
    mark: str = "…",
) -> RenderableType:
    """The score sheet on a narrow terminal: each column as wide as its numbers, the players' labels
    wrapped at their spaces over them, or where even that is too wide, their names alone, cut short
    where they must be (``Jose…``, ``mark`` the cut's sign) and told whole below; where cutting leaves two
    alike (Josephine and Josephina both ``Jo…``), the columns are numbered, each number told whole below.

    ``columns``: each player's (score, mark) per hand and the total, as :func:`~.narrow.marked_cells`
    reads them."""

    def sheet(headings: Sequence[str]) -> Table:
        # Padded to the longest word of the heading, which is as wide as the column gets.
        cells = [
            marked_cells(column, max((len(word) for word in heading.split()), default=1))
            for heading, column in zip(headings, columns, strict=True)
        ]
        rows = [[hand, *row] for hand, *row in zip(hands, *cells, strict=True)]
        return narrow_table(
            [Column("hand"), *(Column(heading, padded=True) for heading in headings)], rows, fit=fit
        )

    table = sheet(labels)
    if natural_width(table) <= fit:
        return table
    table = sheet(names)
    if natural_width(table) <= fit:
        return table
    # Names too long for the width even alone (six players at 40 columns): rich would break them over
    # lines and push the totals onto a second row, losing whose total is whose. They are cut to fit,
    # each cut one told whole under the sheet.
    for cap in range(max(len(name) for name in names) - 1, len(mark), -1):
        cut = [name if len(name) <= cap else name[: cap - len(mark)] + mark for name in names]
        table = sheet(cut)
        if natural_width(table) <= fit:
            break
    else:
        cut = []  # no cut fits: numbers may
    if not cut or len(set(cut)) < len(cut):
        # Cut names alike say nothing of whose total is whose, and a shorter cut only makes more alike.
        cut = [str(column) for column in range(1, len(names) + 1)]
        table = sheet(cut)
        if natural_width(table) > fit:
            return sheet(names)  # the numbers alone are too wide: cutting the names would only lose them
    key = [f"{short} is {name}" for short, name in zip(cut, names, strict=True) if short != name]
    return Group(table, Text("  " + ", ".join(key), style="dim"))


__all__ = ["fitted_table", "narrow_totals", "needs_two_columns", "print_narrow_hand_end"]
