"""Tables that fit an 80-column terminal: each column as wide as its longest value, headings wrapped.

rich sizes a column by its heading as much as by its values, and when the table is too wide it
squeezes columns in proportion, cutting numbers (``0.02…``) and words (``openin g``). A report
table here has short values under long, plain-word headings, so :func:`narrow_table` gives each
column the width of its longest value line (or longest heading word), lets the headings wrap at
their spaces, and caps the columns of words (figure names) so they wrap instead of widening.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kalooki.text import escape_controls

if TYPE_CHECKING:  # the play screens use this module too, and need not load the simulations
    from kalooki.simulation_comparison import Difference


class Column(NamedTuple):
    heading: str
    justify: Literal["left", "right"] = "right"
    cap: int | None = None
    """Widest the column may be: its words wrap at spaces beyond it (a longer word folds)."""
    padded: bool = False
    """The cells come padded to the column's width (:func:`marked_cells`): printed as they are, the
    heading justified as ``justify`` says."""


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
            if column.padded:
                heading = Text(column.heading, justify=column.justify)
                table.add_column(heading, justify="left", width=width, overflow="fold")
            else:
                table.add_column(column.heading, justify=column.justify, width=width, overflow="fold")
        for row in rows:
            table.add_row(*row)
        if natural_width(table) <= fit:
            break
    return table


def indented(text: str, width: int, first: str = "  ") -> str:
    """``text`` wrapped at its spaces, never inside a number, the lines after the first indented: a
    table's row told as a line where the table is too wide (a no-break space keeps two parts together)."""
    return textwrap.fill(
        text,
        width,
        initial_indent=first,
        subsequent_indent="  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def long_words_whole(text: str, width: int) -> str | None:
    """``text`` wrapped at its spaces to ``width`` cells, a word wider than that whole, on a line of its
    own or after the line's first word; None when no word is that wide, for rich to wrap as usual.

    rich folds a word wider than the console with hard line breaks, so a long path in a message
    could not be copied; printed with ``soft_wrap`` the terminal wraps it, and it copies as one.
    """
    lines = text.split("\n")
    if all(cell_len(word) <= width for line in lines for word in line.split(" ")):
        return None
    wrapped: list[str] = []
    for line in lines:
        words = line.lstrip(" ").split(" ")
        current = line[: len(line) - len(line.lstrip(" "))] + words[0]  # its indent kept
        for word in words[1:]:
            # A line's first word (a mark such as "✗") is never left alone: what follows it stays.
            if cell_len(current) + 1 + cell_len(word) > width and " " in current.strip(" "):
                wrapped.append(current)
                current = word
            else:
                current = f"{current} {word}"
        wrapped.append(current)
    return "\n".join(wrapped)


def print_then(console: Console, lead: str, tail: str, style: str = "") -> None:
    """``lead tail`` on one line if it fits ``console``; else ``tail`` (a path, a command) alone on the
    next, indented. A path or a command is never broken by rich, so it can be copied whole."""
    tail = escape_controls(tail)
    if len(lead) + 1 + len(tail) <= console.width:
        console.print(Text(f"{lead} {tail}", style=style))
        return
    console.print(Text(lead, style=style))
    console.print(Text(f"  {tail}", style=style), soft_wrap=True)


def marked_cells(column: Sequence[tuple[str, str]], width: int) -> list[str]:
    """A column's numbers, each with its mark after it ("0*", "75 out"), as cells of one width, at
    least ``width``, the numbers' last digits in line; a number "" is an empty cell.

    rich strips the trailing spaces of a right-justified cell, so "0*" over "20" put the 0 under
    the 2: these cells are padded whole, to be printed left-justified.
    """
    mark = max((len(sign) for _, sign in column), default=0)
    width = max(width, *(len(number) + mark for number, _ in column))
    return [f"{number:>{width - mark}}{sign:<{mark}}" if number else "" for number, sign in column]


def natural_width(table: Table) -> int:
    """How wide ``table`` is when nothing squeezes it."""
    # markup=False, as on the screens: a player's name in a cell, "[/]", is measured as the text it is.
    return Console(width=WIDEST, markup=False).measure(table).maximum


WIDEST: Final = 1000
"""A console wide enough to measure any of these tables at its natural width."""


def difference_texts(item: Difference) -> list[str]:
    """A difference's two values and the change (B - A, or cell - baseline) as tables print them."""
    scale, unit = (100.0, "%") if item.kind == "rate" else (1.0, "")
    places = decimal_places(scale * item.difference)
    a, b, change = (f"{scale * value:.{places}f}{unit}" for value in (item.a, item.b, item.difference))
    if item.no_data:
        # A figure of nothing (nobody opened, nobody went out) is no 0.00, and no change from one.
        a, b = ("-" if side in item.no_data else text for side, text in (("a", a), ("b", b)))
        return [a, b, "-"]
    if change.startswith("-") and change.strip("-0.%") == "":
        change = change[1:]  # a change that rounds to nothing is no fall: -0.00% read as one
    return [a, b, change if change.startswith("-") else f"+{change}"]


def interval_text(item: Difference) -> str:
    """The 95% interval of a difference as its change is shown ("-2.83 to -0.99", in percentage points
    for a rate), or "-" where no t-test gave one."""
    if item.interval is None:
        return "-"
    scale = 100.0 if item.kind == "rate" else 1.0
    # As many places as show each end: an end near 0 at the change's two read "-0.00".
    places = max(decimal_places(scale * value) for value in (item.difference, *item.interval))
    low, high = (f"{scale * end:+.{places}f}" for end in item.interval)
    return f"{low} to {high}"


def decimal_places(change: float) -> int:
    """Two, or as many more (up to six) as show two digits of a change that two would round to nothing:
    "0.00 0.00 +0.00" beside a p-value of 0.2093 showed no difference for the test to be about. A change
    that six would round to nothing too (a float's noise) keeps two."""
    size = abs(change)
    if not 0.5e-6 <= size < 0.005:
        return 2
    return min(6, 1 - math.floor(math.log10(size)))


def p_texts(item: Difference) -> list[str]:
    """A difference's p-value and adjusted p-value, or dashes where there was nothing to test."""
    if not item.tested:
        return ["-", "-"]
    return [p_text(item.p_value), p_text(item.adjusted_p)]


def p_text(value: float) -> str:
    """A p-value to four places, or "<0.0001" where four places would round it to "0.0000": a p of
    nothing, which no test gives (2 / 2**20 from twenty pairs that all moved alike). One under 0.05 that
    four places round up to it gets the places that keep it under (0.04996): "0.0500 differs" broke the
    rule the report states, that what is marked is under 0.05."""
    from kalooki.simulation_comparison import ALPHA  # here: the play screens need not load the simulations

    if value < 0.00005:
        return "<0.0001"
    places = 4
    while value < ALPHA <= float(f"{value:.{places}f}") and places < 7:
        places += 1
    text = f"{value:.{places}f}"
    return f"<{ALPHA}" if value < ALPHA <= float(text) else text
