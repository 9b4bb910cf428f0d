"""The report ``kalooki simulate`` prints: the seats' wins, then what the games looked like.

Each table is printed when it fits the terminal; on one too narrow for it, its rows are told a line
each, as the comparison's and the sweep's are, every number and interval whole.
"""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kalooki.figures import figures_of
from kalooki.simulation_stats import Mean, Rate, SimulationResult
from kalooki.stalls import stalled_hands

from .charts import hands_played_differ, seated_bot
from .common import counted
from .narrow import Column, indented, narrow_table, natural_width

FIGURE_NAME_WIDTH = len("hands the stock ran out")
"""Where the figures' names wrap on a terminal too narrow for them on one line, as the comparison's do."""


def run_labels(a: tuple[str, str, list[str]], b: tuple[str, str, list[str]] | None) -> tuple[str, str]:
    """How the report names runs A and B, each given as (variant name, the variant as given, --set options):
    the name, with the options; B's is empty without a comparison. Two names alike, without options, are
    told apart by the files given where they differ from the names: a file carrying a built-in's name
    (name: classic, jokers: 4) against the built-in read "A = classic, B = classic"."""
    runs = [a] if b is None else [a, b]

    def label(name: str, given: str, options: list[str], apart: bool) -> str:
        named = f"{name} ({given})" if apart and given != name else name
        return " with ".join([named, ", ".join(options)]) if options else named

    labels = [label(*run, apart=False) for run in runs]
    if b is not None and labels[0] == labels[1]:
        labels = [label(*run, apart=True) for run in runs]
    return labels[0], labels[1] if b is not None else ""


def rate_text(rate: Rate, percent: bool = True, between: str = "  ") -> str:
    """A rate and its interval, ``between`` them (a line break where a table has no room for both)."""
    low, high = rate.interval
    if percent:
        return f"{100 * rate.rate:5.1f}%{between}[{100 * low:4.1f}-{100 * high:4.1f}]"
    return f"{rate.rate:.4f}{between}[{low:.4f}-{high:.4f}]"


def seats_table(result: SimulationResult, between: str) -> Table:
    """Hands and games won by each seat (and by each bot over its seats), rates ``between`` intervals."""
    # Where players drop out of a game, a seat's hands won are of the hands it played, which differ
    # from seat to seat: the counts are shown, or the rates would seem to add up to more than 100%.
    played = hands_played_differ(result)
    seats = Table(box=box.SIMPLE_HEAD)
    seats.add_column("seat", justify="right")
    seats.add_column("bot")
    if played:
        seats.add_column("hands\nplayed", justify="right")
    for won in ("hands won", "games won"):
        # Where each interval goes under its rate, the heading's goes under its name: not cut at "[95%".
        seats.add_column(
            f"{won}{between}[95% CI]" if between == "\n" else f"{won}  [95% CI]", justify="right"
        )

    for seat, bot, hands, games in seat_rows(result):
        counts = [f"{hands.trials:,}"] if played else []
        seats.add_row(
            seat,
            bot,
            *counts,
            rate_text(hands, between=between),
            rate_text(games, between=between),
            style="bold" if seat == "all" else "",
        )
    return seats


def seat_rows(result: SimulationResult) -> list[tuple[str, str, Rate, Rate]]:
    """Each seat (its number, its bot) with its hands and games won; then, where the bots differ, each
    bot over every seat it sat in (``all``)."""
    rows = [
        (str(seat + 1), seated_bot(result, seat), result.seat_hand_wins[seat], result.seat_game_wins[seat])
        for seat in range(len(result.bots))
    ]
    if len(set(result.bots)) > 1:
        rows += [
            ("all", name, result.bot_hand_wins[name], result.bot_game_wins[name])
            for name in sorted(result.bot_hand_wins)
        ]
    return rows


def print_stacked_seats(result: SimulationResult, console: Console) -> None:
    """The seats on a terminal too narrow for their table even with each interval under its rate (the
    intervals broke in their brackets, "[" over " 0.0-100.0]"): a seat a line, every interval whole."""
    console.print("Hands and games won, each with its 95% interval:")
    played = hands_played_differ(result)
    for seat, bot, hands, games in seat_rows(result):
        # As the sweep tells its cells: who, in bold, then their figures indented below.
        who = f"{bot} in all its seats" if seat == "all" else f"seat {seat}: {bot}"
        console.print(who, markup=False, style="bold")
        counts = [f"hands played {hands.trials:,}"] if played else []
        figures = [*counts, f"hands won {_whole_rate(hands)}", f"games won {_whole_rate(games)}"]
        # Each figure whole on a line: the lines break between figures only.
        whole = (figure.replace(" ", "\N{NO-BREAK SPACE}") for figure in figures)
        console.print(indented(", ".join(whole), console.width), markup=False, soft_wrap=True)


def whole_figure(value: Mean | Rate) -> str:
    """A figure with its interval or spread as one unbreakable piece of a line (no-break spaces): a
    narrow line breaks before it, never inside its brackets ("(sd 12.43, n" over "68)")."""
    if isinstance(value, Rate):
        return _whole_rate(value)
    if not value.n:
        return "-"
    nbsp = "\N{NO-BREAK SPACE}"
    return f"{value.mean:.2f}{nbsp}(sd{nbsp}{value.sd:.2f},{nbsp}n{nbsp}{value.n:,})"


def _whole_rate(rate: Rate) -> str:
    """A rate and its interval kept on one line (a no-break space between them, none inside)."""
    low, high = rate.interval
    return f"{100 * rate.rate:.1f}%\N{NO-BREAK SPACE}[{100 * low:.1f}-{100 * high:.1f}]"


def figure_cells(value: Mean | Rate) -> tuple[str, str]:
    """A figure of the report as two cells, its value and its spread, so the values line up in a column."""
    if isinstance(value, Rate):
        low, high = value.interval
        return f"{100 * value.rate:.1f}%", f"[{100 * low:4.1f}-{100 * high:4.1f}]"
    if not value.n:
        return "-", ""
    return f"{value.mean:.2f}", f"(sd {value.sd:.2f}, n {value.n:,})"


def report(result: SimulationResult, console: Console, label: str | None = None) -> None:
    """The readable report: who won, then what the games looked like."""
    title = (
        f"{label or result.variant}: {counted(result.games, 'game')}, {counted(result.hands, 'hand')}, "
        f"seed {result.seed}, "
        f"{result.workers} worker{'s' if result.workers != 1 else ''}, "
        f"{result.seconds:.1f} s ({result.games_per_second:,.1f} games/s)"
    )
    console.print(title, markup=False)  # the variant's name is the file's: '[/]' is no markup
    seats = seats_table(result, "  ")
    if natural_width(seats) > console.width:
        seats = seats_table(result, "\n")  # each interval under its rate, not broken in its brackets
    if natural_width(seats) <= console.width:
        console.print(seats)
    else:
        print_stacked_seats(result, console)
    if hands_played_differ(result):
        console.print(
            "Hands won are of the hands each seat played: a player out of a game plays none of its later "
            "hands, so the rates may add up to more than 100%."
        )
    figures = Table(box=box.SIMPLE_HEAD)
    figures.add_column("figure")
    figures.add_column("value", justify="right")
    figures.add_column("")
    # The figures by their names in the comparison and in --help; the seats' are in the table above.
    named = [figure for figure in figures_of(result.bots) if "." not in figure.key]
    rows: list[tuple[str, tuple[str, str]]] = [
        *((figure.label, figure_cells(getattr(result, figure.key))) for figure in named),
        ("games stopped unfinished (hand cap)", (f"{result.unfinished_games:,}", "")),
        # Words, not a number: beside the numbers, where they widen no column of values.
        (
            "hand ends",
            ("", ", ".join(f"{end.replace('_', ' ')} {count:,}" for end, count in result.ends.items())),
        ),
    ]
    for name, mean in sorted(result.bot_score_per_hand.items()):
        rows.append((f"{name}: score per hand", figure_cells(mean)))
    for label, (value, spread) in rows:
        figures.add_row(label, value, spread)
    # Narrower, the figures' names wrap at their spaces, as the comparison's do, and the numbers keep
    # their room; narrower still, a figure a line (the table folded its spreads, "(sd 12.43, n" over "68)").
    wrapped = narrow_table(
        [Column("figure", "left", cap=FIGURE_NAME_WIDTH), Column("value"), Column("", "left")],
        [[label, value, spread] for label, (value, spread) in rows],
    )
    if natural_width(figures) <= console.width:
        console.print(figures)
    elif natural_width(wrapped) <= console.width:
        console.print(wrapped)
    else:
        whole = {figure.label: whole_figure(getattr(result, figure.key)) for figure in named}
        whole |= {
            f"{name}: score per hand": whole_figure(mean) for name, mean in result.bot_score_per_hand.items()
        }
        for label, (value, spread) in rows:
            line = f"{label}: " + whole.get(label, value or spread)
            console.print(indented(line, console.width, first=""), markup=False, soft_wrap=True)
    if result.bot_score_per_hand:
        console.print(score_direction(result.rules.get("scoring")))
    stalls(result, console)


def score_direction(scoring: object) -> str:
    """Which way a score per hand is better, which the figure alone does not say."""
    if scoring == "penalty":
        return "A score per hand is the points a seat took in it: under penalty scoring, lower is better."
    return "A score per hand is what a seat won (or paid) in it: under winner_collects, higher is better."


SHOWN_STALLS = 10
"""Hands stopped at the turn cap whose reasons the report prints (``--json`` lists them all)."""


def stalls(result: SimulationResult, console: Console) -> None:
    """Why each hand stopped at the turn cap never ended, in words (games numbered as in --csv)."""
    stalled = stalled_hands(result.records, result.bots)
    if not stalled:
        return
    console.print("Hands stopped at the turn cap, and why:")
    for hand in stalled[:SHOWN_STALLS]:
        console.print(Text(f"  game {hand.game}, hand {hand.hand}: {hand.why}"))
    if len(stalled) > SHOWN_STALLS:
        console.print(f"  and {len(stalled) - SHOWN_STALLS:,} more (--json lists them all)")
