"""``--report FILE.html``: one self-contained page a designer can send to their table.

Everything is inside the file: the charts as inline SVG, the styles in a ``<style>`` element,
no script, no font, no link to anything. It opens from a USB stick with no network.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Final

from kalooki import __version__
from kalooki.figures import figures_of
from kalooki.grid import knob_text
from kalooki.shell_words import shell_word
from kalooki.simulation_comparison import SAME, UNLIKE, Comparison, Difference
from kalooki.simulation_stats import Rate, SimulationResult
from kalooki.sweep import SweepResult, figure_interval, figure_value
from kalooki.variant_writer import yaml_scalar

from .charts import Chart, hands_played_differ, seated_bot, simulation_charts, svg_text, sweep_charts
from .narrow import difference_texts, interval_text, p_texts
from .simulation_report import score_direction

BOTS_NOTE: Final = (
    "Every figure describes how these bots play the rules, not how people would: "
    "a bot's habits can hide or exaggerate what a rule change does at a real table."
)

_WINS: Final = {"penalty": "the lowest total wins", "winner_collects": "the highest total wins"}


CHANGE_UNITS: Final = (
    "B - A is B's figure less A's; for a % it is in percentage points: 20% to 15% reads -5.00%, not -25%."
)
"""Read as a share of A's figure, the change of a small rate ("-1.33%" of 1.72%) looks a trifle: it is
three quarters of it."""


INTERVAL_NOTE: Final = (
    "A difference's 95% interval is how far the paired t-test puts B - A, figure by figure, before the "
    "adjustment for the many figures: one that leaves out 0 may still be unmarked."
)


def scoring_note(changes: Sequence[tuple[str, object, object]]) -> str | None:
    """Where A and B score the other way round, that their scores are no measure of each other (None
    where they score alike): a difference in points says how the count changed, not who is better off."""
    for knob, old, new in changes:
        if knob == "scoring":
            return (
                f"A scores {old} ({_WINS[str(old)]}), B {new} ({_WINS[str(new)]}): the points of a hand "
                "and the final score spread count different things in each; compare the games won."
            )
    return None


def direction_note(comparison: Comparison, changes: Sequence[tuple[str, object, object]]) -> str | None:
    """Where A and B score alike, which way a score per hand is better, which its B - A alone does not say
    (None where they score the other way round, :func:`scoring_note`'s case, or no bot's score is shown)."""
    if scoring_note(changes) or not comparison.a.bot_score_per_hand:
        return None
    return score_direction(comparison.a.rules.get("scoring"))


def sweep_direction_note(result: SweepResult) -> str | None:
    """Where a sweep marks a score per hand as differing from the baseline, which way it is better (None
    where none is marked). A cell marked so scores as the baseline does: the scores of one that scores
    otherwise are not tested."""
    for cell, item in result.significant:
        if item.key.startswith("bot_score_per_hand."):
            return score_direction(cell.result.rules.get("scoring"))
    return None


SEATING_LIMITS: Final = ("min_players", "max_players")
"""Knobs that say how many may sit down, and so change no game of a sweep, whose cells all seat the same
players (the shared seating of cli.sweep)."""


def seating_limit_note(result: SweepResult) -> str | None:
    """Why a sweep of ``max_players`` (or ``min_players``) finds every cell alike, and how to see what the
    number of players does; None where no such knob is swept."""
    spec = result.spec
    limits = [axis.knob for axis in spec.axes if axis.knob in SEATING_LIMITS]
    if not limits:
        return None
    swept = " and ".join(limits)
    verb, says = ("change", "they only say") if len(limits) > 1 else ("changes", "it only says")
    kinds = set(spec.bots)
    # One name fills every seat, whatever the count; a list of names is for as many seats as it names.
    bots = (
        "" if kinds == {"greedy"} else f" --bots {shell_word(next(iter(kinds)))}" if len(kinds) == 1 else ""
    )
    sets = "".join(f" --set {shell_word(option)}" for option in spec.overrides)
    return (
        f"{swept} {verb} no game here: {says} how many may sit down, and every cell seats the same "
        f"{len(spec.bots)} players. To see what the number of players does, run kalooki simulate "
        f"{shell_word(spec.variant)}{sets}{bots} --players N --set max_players=N once for each count N."
    )


_STYLE: Final = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222;
       padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: left; }
td.num { text-align: right; }
tr.significant td { font-weight: bold; }
figure.chart { margin: 1.5rem 0; } figure.chart svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.85rem; color: #555; }
p.note { background: #f5f5f0; padding: 0.5rem 0.8rem; border-left: 3px solid #aa8; }
"""


def _page(title: str, body: Sequence[str]) -> str:
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(title)}</title>",
            f"<style>{_STYLE}</style>",
            "</head>",
            "<body>",
            f"<h1>{html.escape(title)}</h1>",
            f'<p class="note">{html.escape(BOTS_NOTE)}</p>',
            *body,
            f"<footer><p>Made by kalooki {html.escape(__version__)}.</p></footer>",
            "</body>",
            "</html>",
            "",
        ]
    )


def _charts(charts: Sequence[Chart]) -> list[str]:
    parts = ["<h2>Charts</h2>"]
    for chart in charts:
        parts.append(
            f'<figure class="chart" data-chart="{html.escape(chart.name)}">{svg_text(chart)}'
            f"<figcaption>{html.escape(chart.title)}</figcaption></figure>"
        )
    return parts


def _table(header: Sequence[str], rows: Sequence[tuple[Sequence[str], bool]]) -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    marked_row = '<tr class="significant">'
    body = "".join(
        (marked_row if marked else "<tr>") + "".join(_cell(cell) for cell in cells) + "</tr>"
        for cells, marked in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(text: str) -> str:
    """Numbers line up on the right, words on the left."""
    numeric = text[:2].lstrip("+-<")[:1].isdigit()
    return f'<td class="num">{html.escape(text)}</td>' if numeric else f"<td>{html.escape(text)}</td>"


def paired_units(duplicate: bool) -> str:
    """What the paired tests pair: games, or with duplicate deals whole deals (never a deal's copies)."""
    return "deals" if duplicate else "games"


def sign_tested(differences: Iterable[Difference]) -> str:
    """What follows "paired t-tests" where some figure's pairs all moved by one amount: its p is the
    exact sign test's (t is infinite there), and the report says which figures, or "" where none."""
    figures = list(dict.fromkeys(item.metric for item in differences if item.test == "sign"))
    if not figures:
        return ""
    return f" (the exact sign test for {', '.join(figures)}: every pair moved by one amount)"


def _notes(sentences: Iterable[str | None]) -> list[str]:
    """Each sentence given as a note paragraph, escaped (none for an empty one)."""
    return [f'<p class="note">{html.escape(sentence)}</p>' for sentence in sentences if sentence]


def _also(sentence: str) -> str:
    """A sentence after another in a paragraph, escaped (nothing where there is none)."""
    return f" {html.escape(sentence)}" if sentence else ""


def untested_in_every_cell(cells: Iterable[Iterable[Difference]]) -> list[Difference]:
    """The differences of the figures that no cell of a sweep could test, one each: a figure untested in
    some cells shows dashes there, and a line for the whole sweep named it as though none had tested it
    (one cell that changed nothing made every figure "the same in every pair")."""
    by_figure: dict[str, list[Difference]] = {}
    for differences in cells:
        for item in differences:
            by_figure.setdefault(item.metric, []).append(item)
    return [items[0] for items in by_figure.values() if not any(item.tested for item in items)]


def unlike_in_some_cells(
    cells: Iterable[tuple[str, Iterable[Difference]]], already: Iterable[Difference]
) -> str:
    """A sentence naming the figures that count scores, left untested in the cells (each ``(label,
    differences)``) that score otherwise than the baseline, or "": the line for what no cell tested
    (``already``) names them only where every cell scores otherwise, and a sweep of scoring and another
    knob left them silent, as if tested and found alike."""
    named = {item.metric for item in already}
    labels: list[str] = []
    figures: dict[str, None] = {}
    for label, differences in cells:
        unlike = [item.metric for item in differences if item.test == UNLIKE and item.metric not in named]
        if unlike:
            labels.append(label)
            figures.update(dict.fromkeys(unlike))
    if not labels:
        return ""
    return (
        f"Not tested in the cells that score otherwise than the baseline ({'; '.join(labels)}): "
        f"{', '.join(figures)}, whose points count different things there."
    )


def untested(differences: Iterable[Difference], units: str, sides: str = "A and B") -> str:
    """A sentence naming the figures that had nothing to test (their p of 1 would read as a test's that
    found nothing), or "" where every figure was tested. ``sides``: the runs compared, as the report
    names them."""
    items = [item for item in differences if not item.tested]
    alike = [item for item in items if item.test == SAME]
    unlike = [item for item in items if item.test == UNLIKE]
    items = [item for item in items if item.test not in (SAME, UNLIKE)]
    # A figure with data left untested had fewer than two pairs, as every figure then had: naming only
    # those without data would say the others were tested.
    if any(not item.no_data for item in items):
        return f"Nothing was tested: a paired test needs two {units} or more."
    sentences = []
    if unlike:
        figures = list(dict.fromkeys(item.metric for item in unlike))
        sentences.append(
            f"Not tested: {', '.join(figures)} ({sides} score differently, so their points count "
            "different things)."
        )
    if items:
        figures = list(dict.fromkeys(item.metric for item in items))
        sentences.append(f"Nothing to test for {', '.join(figures)}: no data on one side or both.")
    if alike:
        figures = list(dict.fromkeys(item.metric for item in alike))
        sentences.append(
            f"No difference to test for {', '.join(figures)}: the same in every pair of {units}."
        )
    return " ".join(sentences)


def stopped_at_hand_cap(runs: Sequence[tuple[str, SimulationResult]]) -> str:
    """A sentence naming the runs (A, B, a sweep's cells; "" for a lone run) whose games --max-hands
    stopped before the goal ended them, or "" where none was stopped.

    Such games end where the cap does: their hands per game, games won and score spread measure the
    cap, not the rules, and a comparison marked them "differs" with nothing to say why.
    """
    stopped = [(label, result) for label, result in runs if result.unfinished_games]
    if not stopped:
        return ""
    counts = ", ".join(
        f"{result.unfinished_games:,} of {result.games:,}" + (f" in {label}" if label else "")
        for label, result in stopped
    )
    return (
        f"Games stopped at --max-hands {stopped[0][1].max_hands:,} before the goal ended them: {counts}. "
        "Their hands per game, games won and final score spread count where the cap stopped them, not "
        "the rules' goal; a larger --max-hands plays them out."
    )


def bots_text(bots: Sequence[str]) -> str:
    """``4 × greedy`` for a table of one bot, else the bots in seat order."""
    return f"{len(bots)} × {bots[0]}" if len(set(bots)) == 1 else ", ".join(bots)


def _setup(result: SimulationResult, b: SimulationResult | None = None) -> str:
    dealt = "duplicate deals (each deal once per seat rotation)" if result.duplicate else "one game per deal"
    # Each variant plays its own number of hands on the same games: A's alone would pass for both.
    played = (
        f"{result.games:,} games ({result.hands:,} hands)"
        if b is None
        else f"{result.games:,} games each on the same seeds (A {result.hands:,} hands, B {b.hands:,})"
    )
    return (
        f"<p>{played}, seed {result.seed}, bots "
        f"{html.escape(bots_text(result.bots))}, {dealt}. Intervals are 95%.</p>"
    )


def _rule_changes(changes: Sequence[tuple[str, object, object]]) -> list[str]:
    """The knobs on which B's rules differ from A's, as the terminal lists them: what the figures measure."""
    if not changes:
        return []
    rows = [([knob, yaml_scalar(old), yaml_scalar(new)], False) for knob, old, new in changes]
    return ["<h2>B's rules differ from A's in</h2>", _table(["knob", "A", "B"], rows)]


def _figures_table(result: SimulationResult) -> str:
    """Every figure the terminal's report gives, each with its 95% interval: the seats' hands and games won
    (and each bot's over its seats, where the bots differ), then what the games looked like."""
    rows: list[tuple[list[str], bool]] = []
    # Seats out of a game play none of its later hands: each one's rate is of the hands it played.
    played = hands_played_differ(result)
    for seat, rate in enumerate(result.seat_hand_wins):
        of = f", of {rate.trials:,} played" if played else ""
        rows.append(([f"seat {seat + 1} ({seated_bot(result, seat)}): hands won{of}", _rate(rate)], False))
    for seat, rate in enumerate(result.seat_game_wins):
        rows.append(([f"seat {seat + 1} ({seated_bot(result, seat)}): games won", _rate(rate)], False))
    if len(set(result.bots)) > 1:
        for name in sorted(result.bot_hand_wins):
            rows.append(([f"{name} in all its seats: hands won", _rate(result.bot_hand_wins[name])], False))
            rows.append(([f"{name} in all its seats: games won", _rate(result.bot_game_wins[name])], False))
    # The others in the terminal's order and by its names (the opening turn counted in own turns).
    figures = [
        (figure.label + (" (own turns)" if figure.key == "opening_turn" else ""), getattr(result, figure.key))
        for figure in figures_of(result.bots)
        if "." not in figure.key
    ]
    figures += [(f"{name}: score per hand", mean) for name, mean in sorted(result.bot_score_per_hand.items())]
    for name, value in figures:
        if isinstance(value, Rate):
            rows.append(([name, _rate(value)], False))
            continue
        low, high = value.interval
        # A mean of nothing (nobody opened, nobody went out) is no figure: 0.00 [0.00 to 0.00] reads as one.
        shown = f"{value.mean:.2f} [{low:.2f} to {high:.2f}]" if value.n else "no data"
        rows.append(([name, shown], False))
    return _table(["figure", "value [95% interval]"], rows)


def _rate(rate: Rate) -> str:
    low, high = rate.interval
    return _pct(rate.rate, low, high)


def _pct(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:.1f}% [{100 * low:.1f} to {100 * high:.1f}]"


def simulation_report(result: SimulationResult, label: str) -> str:
    body = [_setup(result), *_notes([stopped_at_hand_cap([("", result)])]), "<h2>Figures</h2>"]
    body.append(_figures_table(result))
    if result.bot_score_per_hand:
        body += _notes([score_direction(result.rules.get("scoring"))])
    body += _charts(simulation_charts([result], [label]))
    return _page(f"Kalooki simulation: {label}", body)


def _difference_rows(differences: Sequence[Difference]) -> list[tuple[list[str], bool]]:
    rows = []
    for item in differences:
        rows.append(
            (
                [
                    item.metric,
                    *difference_texts(item),
                    interval_text(item),
                    p_texts(item)[1],
                    "yes" if item.significant else "",
                ],
                item.significant,
            )
        )
    return rows


def comparison_report(
    comparison: Comparison, labels: tuple[str, str], changes: Sequence[tuple[str, object, object]] = ()
) -> str:
    """``changes``: the knobs on which B's rules differ from A's (knob, A's value, B's value)."""
    header = [
        "figure",
        f"A: {labels[0]}",
        f"B: {labels[1]}",
        "B - A",
        "95% interval",
        "adjusted p",
        "differs",
    ]
    body = [
        _setup(comparison.a, comparison.b),
        *_rule_changes(changes),
        *_notes(
            [
                scoring_note(changes) or direction_note(comparison, changes),
                stopped_at_hand_cap([("A", comparison.a), ("B", comparison.b)]),
            ]
        ),
        "<h2>Differences (B minus A)</h2>",
        *_notes([CHANGE_UNITS]),
        f"<p>Paired t-tests over {paired_units(comparison.a.duplicate)} played on the same seeds"
        f"{html.escape(sign_tested(comparison.differences))}; "
        "p-values adjusted together (Benjamini-Hochberg), a difference is marked when its adjusted p is "
        f"under 0.05.{_also(untested(comparison.differences, paired_units(comparison.a.duplicate)))}"
        f"{_also(INTERVAL_NOTE)}</p>",
        _table(header, _difference_rows(comparison.differences)),
    ]
    body += _charts(simulation_charts([comparison.a, comparison.b], list(labels)))
    return _page(f"Kalooki comparison: {labels[0]} vs {labels[1]}", body)


def sweep_report(result: SweepResult) -> str:
    spec = result.spec
    knobs = [axis.knob for axis in spec.axes]
    header = [*knobs, "turns per hand", "hands per game", "seat 1 games won", "significant differences"]
    rows = []
    for cell in result.cells:
        marks = sum(item.significant for item in cell.differences)
        turns = figure_value(cell.result, "turns_per_hand")
        low, high = figure_interval(cell.result, "turns_per_hand")
        # With its interval, as the terminal's ± and the JSON's ci95 give it: how sure "games are shorter" is.
        hands = figure_value(cell.result, "hands_per_game")
        hands_low, hands_high = figure_interval(cell.result, "hands_per_game")
        seat = cell.result.seat_game_wins[0]
        seat_low, seat_high = seat.interval
        values = [knob_text(cell.cell.knobs[knob]) for knob in knobs]
        rows.append(
            (
                [
                    *values,
                    f"{turns:.2f} [{low:.2f} to {high:.2f}]",
                    f"{hands:.2f} [{hands_low:.2f} to {hands_high:.2f}]",
                    _pct(seat.rate, seat_low, seat_high),
                    "baseline" if cell.cell.index == spec.baseline else str(marks),
                ],
                False,
            )
        )
    significant = [
        ([cell.cell.label, *row[0]], True)
        for cell, item in result.significant
        for row in _difference_rows([item])
    ]
    variant = spec.variant + (f" with {', '.join(spec.overrides)}" if spec.overrides else "")
    tested = [item for cell in result.cells for item in cell.differences]
    everywhere = untested_in_every_cell(cell.differences for cell in result.cells)
    nowhere = untested(everywhere, paired_units(spec.duplicate), "the cells and the baseline")
    some = unlike_in_some_cells(((cell.cell.label, cell.differences) for cell in result.cells), everywhere)
    body = [
        f"<p>{len(spec.cells)} cells × {spec.games:,} games, seed {spec.seed}, bots "
        f"{html.escape(bots_text(spec.bots))}; baseline {html.escape(spec.cells[spec.baseline].label)}. "
        f"{result.tests} differences tested "
        f"(paired t over {paired_units(spec.duplicate)} on the same seeds"
        f"{html.escape(sign_tested(tested))}), "
        f"{len(significant)} significant after Benjamini-Hochberg false-discovery control at 5%."
        f"{_also(nowhere)}{_also(some)}"
        "</p>",
        *_notes(
            [
                stopped_at_hand_cap([(cell.cell.label, cell.result) for cell in result.cells]),
                sweep_direction_note(result),
                seating_limit_note(result),
            ]
        ),
        "<h2>Cells</h2>",
        _table(header, rows),
        "<h2>Differences from the baseline that survive false-discovery control</h2>",
        _table(
            ["cell", "figure", "baseline", "cell", "difference", "95% interval", "adjusted p", "differs"],
            significant,
        )
        if significant
        else "<p>None.</p>",
    ]
    body += _charts(sweep_charts(result))
    return _page(f"Kalooki sweep: {variant}", body)
