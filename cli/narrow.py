"""Tables that fit an 80-column terminal: each column as wide as its longest value, headings wrapped.

rich sizes a column by its heading as much as by its values, and when the table is too wide it
squeezes columns in proportion, cutting numbers (``0.02…``) and words (``openin g``). A report
table here has short values under long, plain-word headings, so :func:`narrow_table` gives each
column the width of its longest value line (or longest heading word), lets the headings wrap at
their spaces, and caps the columns of words (figure names) so they wrap instead of widening.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

from rich import box
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:  # the play screens use this module too, and need not load the simulations
    from kalooki.simulation_comparison import Difference


class Column(NamedTuple):
    heading: str
    justify: Literal["left", "right"] = "right"
    cap: int | None = None
    """Widest the column may be: its words wrap at spaces beyond it (a longer word folds)."""


def narrow_table(columns: Sequence[Column], rows: Sequence[Sequence[str]], fit: int = 80) -> Table:
    """The table, with two spaces between columns, or one when two would make it wider than ``fit``."""
    widths = []
    for number, column in enumerate(columns):
        lines = [line for row in rows for line in row[number].splitlines()]
        words = [word for text in [column.heading, *lines] for word in text.split()]
        width = max([len(line) for line in lines] + [len(word) for word in words] + [1])
        widths.append(width if column.cap is None else min(width, column.cap))
    for gutter in (2, 1):
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, gutter - 1))
        for column, width in zip(columns, widths, strict=True):
            table.add_column(column.heading, justify=column.justify, width=width, overflow="fold")
        for row in rows:
            table.add_row(*row)
        if natural_width(table) <= fit:
            break
    return table


def natural_width(table: Table) -> int:
    """How wide ``table`` is when nothing squeezes it."""
    # markup=False, as on the screens: a player's name in a cell, "[/]", is measured as the text it is.
    return Console(width=WIDEST, markup=False).measure(table).maximum


WIDEST: Final = 1000
"""A console wide enough to measure any of these tables at its natural width."""


def difference_texts(item: Difference) -> list[str]:
    """A difference's two values and the change (B - A, or cell - baseline) as tables print them."""
    scale, unit = (100.0, "%") if item.kind == "rate" else (1.0, "")
    a, b, change = (f"{scale * value:.2f}{unit}" for value in (item.a, item.b, item.difference))
    return [a, b, change if change.startswith("-") else f"+{change}"]
