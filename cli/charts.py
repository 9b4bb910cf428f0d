"""Charts of simulations and sweeps, drawn with matplotlib (the optional ``plot`` extra).

Each chart function returns a :class:`Chart`: a title and a matplotlib figure, with axis
labels that give units, a legend, and the variant names. :func:`svg_text` and :func:`save`
turn one into an SVG string (for the HTML report) or a PNG/SVG file (for ``--plot``).
Figures are made with :class:`matplotlib.figure.Figure` directly, never pyplot, so nothing is
global and no window opens.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from kalooki.errors import KalookiError
from kalooki.simulation_comparison import ALPHA
from kalooki.sweep import SweepResult, figure_has_data, figure_interval, figure_value
from kalooki.variant_writer import yaml_scalar

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from kalooki.simulation_stats import SimulationResult

PLOT_HINT: Final = "pip install 'kalooki[plot]'"

_RING: Final[dict[str, Any]] = {
    "marker": "o",
    "markersize": 13,
    "markerfacecolor": "none",
    "linestyle": "none",
}
"""How a cell that differs from the baseline is ringed (colour given each time: it must not use the cycle)."""

SWEEP_FIGURES: Final = (
    ("turns_per_hand", "turns per hand", "turns (all players)"),
    ("hands_per_game", "hands per game", "hands"),
    ("seat_game_wins.1", "seat 1: games won", "games won (%)"),
    ("kalooki", "hands ending in Kalooki", "hands (%)"),
    ("opening_turn", "opening turn", "own turns"),
    ("points_per_loser", "points left per loser", "points"),
    ("score_spread", "final score spread", "points (max - min)"),
)
"""The sweep charts: a figure's key, its name, and its axis label with units."""


class PlotUnavailableError(KalookiError):
    """matplotlib is not installed."""


def require_matplotlib(option: str) -> None:
    """Raise in one line, before any game is played, when charts cannot be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailableError(f"{option} needs matplotlib: {PLOT_HINT}") from None


@dataclass(frozen=True)
class Chart:
    name: str
    title: str
    figure: Figure


LEGEND_WIDTH = 48
"""Characters a legend's line holds: a longer entry (a sweep's variant named by a long path) made the
legend wider than the plot, and the constrained layout squeezed the plot to a sliver beside it."""


def _lines(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` characters, each broken after a space, a ``/`` or a ``-``
    where it can be, so that a path reads by its folders (textwrap broke ``house-rules`` as
    ``hous``/``e-rules``), and only a longer run of other characters cut where it must."""
    lines: list[str] = []
    line = ""
    for piece in re.findall(r"[^\s/-]*[\s/-]*", text):
        while len(line) + len(piece) > width:
            if line:
                lines.append(line.rstrip())
                line = ""
            else:
                lines.append(piece[:width])
                piece = piece[width:]
        line += piece
    return "\n".join([*lines, line.rstrip()])


def _entry(label: str) -> str:
    """A legend entry in lines of at most :data:`LEGEND_WIDTH` characters."""
    return _lines(label, LEGEND_WIDTH)


def _figure(title: str, wide: bool = False) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8.0 if wide else 6.4, 4.0), layout="constrained")
    axes = figure.add_subplot()
    axes.set_title(_lines(title, 64))
    axes.grid(True, alpha=0.3)
    return figure, axes


def svg_text(chart: Chart) -> str:
    """The chart as an SVG document (fonts as paths, so it looks the same on any machine)."""
    out = io.StringIO()
    chart.figure.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg") :]  # the XML prolog and DOCTYPE cannot stand inside HTML


def save(chart: Chart, path: Path) -> None:
    """Write the chart to ``path``, PNG or SVG by its suffix."""
    chart.figure.savefig(path, format=path.suffix.lstrip(".").lower(), metadata={"Date": None}, dpi=150)


def _error_bars(value: float, interval: tuple[float, float], scale: float) -> tuple[float, float]:
    return (max(0.0, scale * (value - interval[0])), max(0.0, scale * (interval[1] - value)))


# ---------------------------------------------------------------- one or two simulations


def _plain_text() -> AbstractContextManager[None]:
    """While charts are made, their texts are plain: matplotlib reads text between two ``$`` as a
    formula (mathtext), so a variant named ``a$\\x$b`` stopped the chart in a ParseFatalException."""
    import matplotlib

    return matplotlib.rc_context({"text.parse_math": False})


def simulation_charts(results: Sequence[SimulationResult], labels: Sequence[str]) -> list[Chart]:
    """Win rate by seat (and by bot), then how long hands and games last, then how scores end."""
    names = " vs ".join(labels)
    with _plain_text():
        charts = [_seat_wins(results, labels, names)]
        if len(set(results[0].bots)) > 1:
            charts.append(_bot_wins(results, labels, names))
        charts.append(
            _ecdf(results, labels, "turns", f"Turns per hand: {names}", "turns in the hand (all players)")
        )
        charts.append(_ecdf(results, labels, "hands", f"Hands per game: {names}", "hands in the game"))
        charts.append(
            _ecdf(results, labels, "loser_points", f"Points left per loser: {names}", "points in hand")
        )
        charts.append(_ecdf(results, labels, "spread", f"Final score spread: {names}", "points (max - min)"))
    return charts


def seated_bot(result: SimulationResult, seat: int) -> str:
    """Who played ``seat``: its bot, or "bots rotated" where duplicate deals moved every bot through it."""
    return "bots rotated" if result.duplicate and len(set(result.bots)) > 1 else result.bots[seat]


def hands_played_differ(result: SimulationResult) -> bool:
    """Whether some seat played fewer hands than were dealt (it was out of its game, e.g. in kalooki-40):
    then each seat's hands won, of the hands it played, add up to more than 100%."""
    return any(rate.trials != result.hands for rate in result.seat_hand_wins)


def _seat_wins(results: Sequence[SimulationResult], labels: Sequence[str], names: str) -> Chart:
    title = f"Hands won by seat (95% interval): {names}"
    figure, axes = _figure(title)
    width = 0.8 / len(results)
    for offset, (result, label) in enumerate(zip(results, labels, strict=True)):
        seats = range(len(result.bots))
        values = [100 * rate.rate for rate in result.seat_hand_wins]
        errors = [_error_bars(rate.rate, rate.interval, 100) for rate in result.seat_hand_wins]
        axes.bar(
            [seat + 1 + (offset - (len(results) - 1) / 2) * width for seat in seats],
            values,
            width,
            yerr=list(zip(*errors, strict=True)),
            capsize=4,
            label=_entry(label),
        )
    axes.set_xlabel("seat (1 plays first in the first hand)")
    axes.set_ylabel("hands won (% of hands played)")
    # The chart is sent on its own (--plot): at a table of different bots, "seat 1 wins half the
    # hands" is the bot's strength, not the seat's, so each seat names who sat there.
    first = results[0]
    seat_labels = [
        str(seat + 1) if len(set(first.bots)) == 1 else f"{seat + 1}\n{seated_bot(first, seat)}"
        for seat in range(len(first.bots))
    ]
    axes.set_xticks(range(1, len(first.bots) + 1), seat_labels)
    _legend_below(axes, 0.0 if len(set(first.bots)) == 1 else 0.07)
    return Chart("seat-wins", title, figure)


def _bot_wins(results: Sequence[SimulationResult], labels: Sequence[str], names: str) -> Chart:
    title = f"Hands won by bot, all seats (95% interval): {names}"
    figure, axes = _figure(title)
    bots = sorted(results[0].bot_hand_wins)
    width = 0.8 / len(results)
    for offset, (result, label) in enumerate(zip(results, labels, strict=True)):
        rates = [result.bot_hand_wins[name] for name in bots]
        errors = [_error_bars(rate.rate, rate.interval, 100) for rate in rates]
        axes.bar(
            [index + (offset - (len(results) - 1) / 2) * width for index in range(len(bots))],
            [100 * rate.rate for rate in rates],
            width,
            yerr=list(zip(*errors, strict=True)),
            capsize=4,
            label=_entry(label),
        )
    axes.set_xticks(range(len(bots)), bots)
    axes.set_xlabel("bot")
    axes.set_ylabel("hands won (% of hands played)")
    _legend_below(axes)
    return Chart("bot-wins", title, figure)


def _legend_below(axes: Axes, lower: float = 0.0) -> None:
    """Bars fill the plot: their legend goes underneath rather than over them (``lower``: below
    labels of two lines, in axes heights)."""
    axes.legend(title="variant", loc="upper center", bbox_to_anchor=(0.5, -0.18 - lower), ncols=2)


def _samples(result: SimulationResult, what: str) -> list[float]:
    records = result.records
    if what == "turns":
        return [hand.turns for record in records for hand in record.hands]
    if what == "hands":
        return [len(record.hands) for record in records]
    if what == "spread":
        return [max(record.totals) - min(record.totals) for record in records]
    return [
        hand.hand_points[seat]
        for record in records
        for hand in record.hands
        if hand.winner is not None and hand.end == "went_out"
        for seat in hand.seats
        if seat != hand.winner
    ]


def _ecdf(
    results: Sequence[SimulationResult], labels: Sequence[str], what: str, title: str, x_label: str
) -> Chart:
    # An ECDF is a share of each variant's own total, so variants with different numbers of
    # hands or games compare honestly.
    figure, axes = _figure(title)
    for result, label in zip(results, labels, strict=True):
        values = sorted(_samples(result, what))
        if values:
            shares = [100 * (index + 1) / len(values) for index in range(len(values))]
            axes.step(values, shares, where="post", label=_entry(f"{label} (n = {len(values):,})"))
        else:
            # Nothing to draw (no hand went out): the legend still names the variant, and says so.
            axes.plot([], [], label=_entry(f"{label} (no data)"))
    axes.set_xlabel(x_label)
    axes.set_ylabel("share at or below (%)")
    axes.set_ylim(0, 100)
    axes.legend(title="variant")
    return Chart(f"ecdf-{what}", title, figure)


# ---------------------------------------------------------------- sweeps


def sweep_charts(result: SweepResult) -> list[Chart]:
    """Each headline figure against the first knob swept, a line per combination of the others."""
    with _plain_text():
        return [_sweep_chart(result, key, name, unit) for key, name, unit in SWEEP_FIGURES]


def _sweep_chart(result: SweepResult, key: str, name: str, unit: str) -> Chart:
    spec = result.spec
    axes_ = spec.axes
    variant = spec.variant + (f" with {', '.join(spec.overrides)}" if spec.overrides else "")
    title = f"{name} (95% interval): {variant}"
    figure, axes = _figure(title, wide=True)
    scale = 100.0 if unit.endswith("(%)") else 1.0
    first = axes_[0] if axes_ else None
    # A line joins the cells that differ in the first knob alone: one line per combination of the
    # others. Grouped by the second knob only, a third knob's cells shared a line, which zig-zagged
    # between them at each value of the first with nothing to tell them apart.
    others = axes_[1:]
    groups: dict[str, list[Any]] = {}
    for cell in result.cells:
        group = ", ".join(f"{axis.knob} = {yaml_scalar(cell.cell.knobs[axis.knob])}" for axis in others)
        groups.setdefault(group, []).append(cell)
    gaps = False
    # Lines of equal values (cells a knob changes nothing in: no Kalooki hand whatever its bonus) lay one
    # under another, two in the legend and one to see: each line stands a little aside, as grouped error
    # bars do, the middle of them at the cell's value.
    aside = _aside(first, len(groups))
    for number, (group, cells) in enumerate(groups.items()):
        xs = [cell.cell.knobs[first.knob] if first else 0 for cell in cells]
        shift = (number - (len(groups) - 1) / 2) * aside
        positions = [position + shift for position in _positions(first, xs)]
        # A figure of nothing (nobody opened, no hand went out) is no point at all, not a point at 0,
        # which would read as measured: NaN leaves a gap in the line, as the table writes a dash.
        measured = [figure_has_data(cell.result, key) for cell in cells]
        gaps = gaps or not all(measured)
        values = [
            scale * figure_value(cell.result, key) if has else math.nan
            for cell, has in zip(cells, measured, strict=True)
        ]
        errors = [
            _error_bars(figure_value(cell.result, key), figure_interval(cell.result, key), scale)
            if has
            else (0.0, 0.0)
            for cell, has in zip(cells, measured, strict=True)
        ]
        label = group or variant
        line = axes.errorbar(
            positions,
            values,
            yerr=list(zip(*errors, strict=True)),
            capsize=4,
            marker="o",
            label=_entry(label),
        )
        colour = line[0].get_color()
        for position, value, cell in zip(positions, values, cells, strict=True):
            test = next((item for item in cell.differences if item.key == key), None)
            if math.isnan(value):
                continue
            if cell.cell.index == spec.baseline:
                axes.plot(position, value, marker="*", markersize=16, color=colour, linestyle="none")
            elif test is not None and test.significant:
                axes.plot(position, value, color="black", **_RING)
    axes.plot([], [], marker="*", markersize=12, color="grey", linestyle="none", label="baseline")
    axes.plot([], [], color="black", label=f"differs from baseline (FDR {100 * ALPHA:g}%)", **_RING)
    if gaps:
        axes.plot([], [], linestyle="none", label="no point: no data in that cell")
    if first is not None:
        axes.set_xticks(_positions(first, list(first.values)), list(first.texts))
        axes.set_xlabel(first.knob)
    axes.set_ylabel(unit)
    axes.legend(fontsize="small")
    return Chart(f"sweep-{key}", title, figure)


def _aside(axis: Any, lines: int) -> float:
    """How far apart :func:`_sweep_chart` sets its ``lines`` lines: a twentieth of the narrowest gap between
    two values of the first knob each, at most a sixth of it in all (0 for one line)."""
    if lines < 2:
        return 0.0
    ticks = sorted(set(_positions(axis, list(axis.values)))) if axis is not None else [0.0]
    gap = min((b - a for a, b in pairwise(ticks)), default=1.0)
    return min(gap / 20, gap / 6 / (lines - 1))


def _positions(axis: Any, values: Sequence[Any]) -> list[float]:
    """Numbers stand at their value; anything else (words, true/false) at its place in the grid."""
    if axis is None:
        return [0.0 for _ in values]
    if all(isinstance(value, int | float) and not isinstance(value, bool) for value in axis.values):
        return [float(value) for value in values]
    return [float(axis.values.index(value)) for value in values]
