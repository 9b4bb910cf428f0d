"""The table's melds laid out to fit a short terminal (80×24) with the other players' turns still in view.

Before the screen comes up, the other players' turns are told one line each; at 80×24 a
table of ten melds in one column pushed those lines off the top. When the screen would not
leave room for them, the melds go in two columns, numbered down the first and then the second,
so ``build 7`` still finds meld 7 where the eye expects it.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kalooki.engine import Game

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
                    meld_text(meld, letters=letters, variant=game.variant),
                ]
            else:
                cells += ["", "", ""]
        grid.add_row(*cells)
    return grid


__all__ = ["fitted_table", "needs_two_columns"]
