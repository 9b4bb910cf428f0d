"""``kalooki simulate``: play many bot games of a variant, or of two variants, and report what happened."""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from kalooki.bots import BotProtocolError, UnknownBotError, check_bot
from kalooki.driver import BotFaultWarning
from kalooki.executors import Pool, open_pool
from kalooki.figures import figures_of
from kalooki.loader_refs import is_path_like
from kalooki.rules import default_players, may_play, most_players, player_counts, seating_note
from kalooki.simulate import (
    DEFAULT_MAX_HANDS,
    DEFAULT_MAX_TURNS,
    GameFailure,
    GameRecord,
    game_rows,
    rows_to_csv,
    simulate,
)
from kalooki.simulation_comparison import Comparison, compare
from kalooki.simulation_stats import SimulationResult
from kalooki.variant import KNOB_NAMES, Variant
from kalooki.variant_writer import variant_differences, yaml_scalar

from .common import (
    SetOption,
    at_least,
    cli_errors,
    counted,
    fail,
    load_each,
    named,
    named_bots,
    seed_number,
)
from .completion import complete_knob, complete_variant
from .html_report import (
    BOTS_NOTE,
    CHANGE_UNITS,
    direction_note,
    paired_units,
    scoring_note,
    sign_tested,
    stopped_at_hand_cap,
    untested,
)
from .narrow import Column, difference_texts, narrow_table, natural_width, p_texts
from .output import check_output_file, report_console, writes_to_terminal
from .run_options import (
    BotsOption,
    DuplicateOption,
    JsonOption,
    MaxHandsOption,
    MaxTurnsOption,
    PlayersOption,
    PlotOption,
    ReportOption,
    SchedulerOption,
    check_distinct_outputs,
    check_duplicate_games,
    check_pictures,
    check_pool_options,
    fail_interrupted,
    games_option,
    local_workers,
    sigterm_stops_games,
    write_pictures,
)
from .saves import write_atomically
from .simulation_report import report, run_labels

HELP = """Play many games between bots and report win rates, hand lengths, Kalooki and stock-out rates.

Every seat gets a bot (--bots, default greedy in every seat). The same --seed gives the same
numbers whatever --workers is. Rates come with 95% Wilson intervals (with --duplicate,
intervals over deals).

To see what a rule change does, compare two variants on the same seeds:

\b
  kalooki simulate classic --compare kalooki-40
  kalooki simulate classic --compare-set opening_threshold=40
  kalooki simulate a.yaml --set jokers=4 --compare b.yaml --compare-set jokers=4

--set changes the first variant (A) only, --compare-set the second (B); without --compare, B
is A's variant again (A's --set not carried over: give a knob both share to both options).
The differences (B minus A) come first, each with a paired t-test over games (same seeds);
p-values are adjusted together (Benjamini-Hochberg) and only what survives is marked.
--verbose adds both full reports.

With --duplicate each deal is played once per seat rotation; --report FILE.html writes a
self-contained page with charts, --plot FILE.png|svg one chart; --scheduler tcp://HOST:PORT
plays on a Dask cluster.
"""


def figures_help() -> str:
    """What each figure of the reports counts, for the end of --help: one line for every seat (N) and
    every bot (BOT)."""
    lines = [
        f"  {figure.label}: {figure.meaning}".replace("seat 1", "seat N")
        for figure in figures_of(("BOT", "other"))
        if not figure.key.endswith((".2", ".other"))
    ]
    return "What each figure counts:\n\n\b\n" + "\n".join(lines) + "\n"


class GamesPerSecond(ProgressColumn):
    """Games finished per second of wall time so far (until the last game: the bar stays up while the
    figures are counted, and the rate is not to sink then)."""

    def render(self, task: Task) -> Text:
        elapsed = (task.finished_time if task.finished else task.elapsed) or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.1f} games/s")


@contextmanager
def progress_bar(total: int, enabled: bool) -> Iterator[Progress | None]:
    """A progress bar on stderr when it is a terminal (nothing at all otherwise)."""
    console = Console(stderr=True)
    if not enabled or not writes_to_terminal(console):
        yield None
        return
    bar = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerSecond(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with bar:
        yield bar


def end_bar(bar: Progress | None) -> None:
    """Take the bar off the screen before a message that stops the command: written under the live
    bar, it ran on from the bar's last column. (Leaving the bar's block stops it again, which is nothing.)"""
    if bar is not None:
        bar.stop()


def plug_ins_print_to_stderr() -> AbstractContextManager[object]:
    """Send what is printed while bots play (a plug-in's own prints) to stderr: on stdout it was mixed
    into a report written there (``--json``, ``--csv -``), which no longer parsed. Worker processes
    started inside inherit it."""
    return redirect_stdout(sys.stderr)


def parse_bots(
    bots: str | None,
    players: int | None,
    variant: Variant,
    described: str | None = None,
    default: int | None = None,
) -> list[str]:
    """The bot of each seat: a comma-separated list, or one name for every seat (``--players`` of them,
    else ``default``, else the variant's default table).

    A count the variant cannot seat is a usage error of the option that made it, as ``kalooki play``
    gives; ``described`` names the variant there (a sweep's cell), else its name does."""
    names = named_bots(bots, param_hint="'--bots'") or ["greedy"]
    for name in sorted(set(names)):
        try:
            with plug_ins_print_to_stderr():  # a plug-in's __init__ runs
                check_bot(name)
        except UnknownBotError as error:
            raise typer.BadParameter(str(error), param_hint="'--bots'") from None
        except BotProtocolError as error:
            fail(str(error))
    what = described or variant.name
    if players is not None and not may_play(variant, players):
        raise typer.BadParameter(
            f"{what} is for {player_counts(variant)} players{seating_note(variant)}", param_hint="'--players'"
        )
    if len(names) == 1:
        if players is not None:
            count = players
        else:
            count = default if default is not None else default_players(variant)
        return names * count
    if players is not None and players != len(names):
        raise typer.BadParameter(
            f"--players {players} but --bots names {len(names)} bots: give one bot per seat, or one for all",
            param_hint="'--players'",
        )
    if not may_play(variant, len(names)):
        # Five bots named: the run refused them later, exit 1, where play calls it a usage error.
        raise typer.BadParameter(
            f"{len(names)} bots make {len(names)} players, "
            f"but {what} is for {player_counts(variant)} players{seating_note(variant)}",
            param_hint="'--bots'",
        )
    return names


def comparison_report(
    comparison: Comparison,
    console: Console,
    labels: tuple[str, str],
    changes: Sequence[tuple[str, object, object]] = (),
) -> None:
    """The differences first, in plain words, marked only where they survive the many tests made.

    ``changes`` are the knobs on which B's rules differ from A's (knob, A's value, B's value).
    """
    a = comparison.a
    dealt = ", duplicate deals" if a.duplicate else ""
    console.print(
        f"A = {labels[0]}, B = {labels[1]}: {counted(a.games, 'game')} each on the same seeds "
        f"(seed {a.seed}{dealt}).",
        markup=False,  # the variants' names are their files'
    )
    if changes:
        # Two files name their rules but not how they differ: the figures below are these changes'.
        console.print("B's rules differ from A's in:")
        width = max(len(knob) for knob, _, _ in changes)
        for knob, old, new in changes:
            console.print(f"  {knob:<{width}}  {yaml_scalar(old)} → {yaml_scalar(new)}", markup=False)
        if note := scoring_note(changes):
            console.print(note)
    console.print(BOTS_NOTE)
    console.print(CHANGE_UNITS)
    rows = []
    for difference in comparison.differences:
        rows.append(
            [
                difference.metric,
                *difference_texts(difference),
                *p_texts(difference),
                "differs" if difference.significant else "",
            ]
        )
    # Figure names up to "hands the stock ran out" on one line; a long bot name wraps. Where that is a
    # little too wide (a change shown to more places, "-0.000019", widens three columns), the longest
    # names wrap, as few as will do, rather than every figure going to lines of its own: 81 columns did.
    for cap in range(len("hands the stock ran out"), len("hands ending") - 1, -1):
        figure = Column("figure", "left", cap=cap)
        table = narrow_table([figure, *map(Column, ["A", "B", "B - A", "p", "adj. p", ""])], rows)
        if natural_width(table) <= console.width:
            console.print(table)
            break
    else:
        print_stacked_differences(console, rows)
    marked = sum(difference.significant for difference in comparison.differences)
    tested = sum(difference.tested for difference in comparison.differences)
    units = paired_units(comparison.a.duplicate)
    figures = "figures" if tested == len(comparison.differences) else "figures tested"
    if tested:
        console.print(
            f"{marked} of {tested} {figures} differ: paired t-tests over the {units} (same seeds)"
            f"{sign_tested(comparison.differences)}, p-values adjusted together "
            "(Benjamini-Hochberg), 'differs' when adjusted p < 0.05."
        )
        # The table has no room for them at 80 columns; how far B - A may be goes with whether it is there.
        console.print("Each change's 95% interval, how large it may be: --report FILE.html or --json (ci95).")
    if not_tested := untested(comparison.differences, units):
        console.print(not_tested)
    if stopped := stopped_at_hand_cap([("A", comparison.a), ("B", comparison.b)]):
        console.print(stopped)
    if direction := direction_note(comparison, changes):
        console.print(direction)  # beside the scores it explains


def print_stacked_differences(console: Console, rows: Sequence[Sequence[str]]) -> None:
    """The differences on a terminal too narrow for their table: each figure on a line of its own, its
    numbers on the lines below, every number whole (the table would fold them: "29." over "86")."""
    for figure, a, b, change, p_value, adjusted, mark in rows:
        console.print(Text(figure + (f": {mark}" if mark else ""), style="bold" if mark else ""))
        console.print(f"  A {a}, B {b}, B - A {change}", markup=False)
        tests = f"p {p_value}, adjusted p {adjusted}" if p_value != "-" else "nothing to test"
        console.print(f"  {tests}", markup=False, style="dim")


def write_csv(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        write_atomically(Path(path), text)
    except OSError as error:
        fail(f"{path}: cannot write the CSV: {error.strerror or error}")


@contextmanager
def _faults_not_warned() -> Iterator[None]:
    """The bots' faults are told once a run by tell_bot_faults, in the command's words, not as warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BotFaultWarning)
        yield


@dataclass(frozen=True)
class RunOptions:
    """The options a single run and a comparison share."""

    max_turns: int
    max_hands: int
    duplicate: bool
    pool: Pool
    progress: Callable[[int, int], None]

    def simulate(self, rules: Variant, seats: list[str], games: int, seed: int) -> SimulationResult:
        with _faults_not_warned():
            return simulate(
                rules,
                seats,
                games,
                seed,
                max_turns=self.max_turns,
                max_hands=self.max_hands,
                duplicate=self.duplicate,
                pool=self.pool,
                progress=self.progress,
            )

    def compare(self, a: Variant, b: Variant, seats: list[str], games: int, seed: int) -> Comparison:
        with _faults_not_warned():
            return compare(
                a,
                b,
                seats,
                games,
                seed,
                max_turns=self.max_turns,
                max_hands=self.max_hands,
                duplicate=self.duplicate,
                pool=self.pool,
                progress=self.progress,
            )


def simulate_command(
    variant: Annotated[
        str,
        typer.Argument(
            metavar="VARIANT|PATH",
            help="A built-in variant name or a variant file (A).",
            autocompletion=complete_variant,
        ),
    ] = "classic",
    set_: SetOption = None,
    games: Annotated[int, games_option("(per variant)")] = 1000,
    players: PlayersOption = None,
    bots: BotsOption = None,
    seed: Annotated[
        int, typer.Option("--seed", parser=seed_number, help="Master seed; each game's seed derives from it.")
    ] = 0,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-w", parser=at_least(1), help="Processes to use (default and most: one a core)."
        ),
    ] = None,
    as_json: JsonOption = False,
    csv_path: Annotated[
        str | None,
        typer.Option(
            "--csv", parser=named, metavar="FILE", help="Write one CSV row per game to FILE ('-' for stdout)."
        ),
    ] = None,
    compare_with: Annotated[
        str | None,
        typer.Option(
            "--compare",
            metavar="VARIANT|PATH",
            help="A second variant (B) to play on the same seeds.",
            autocompletion=complete_variant,
        ),
    ] = None,
    compare_set: Annotated[
        list[str] | None,
        typer.Option(
            "--compare-set",
            metavar="KEY=VALUE",
            help="Override a knob of B (repeatable); without --compare, B is A with these changes.",
            show_default=False,
            autocompletion=complete_knob,
        ),
    ] = None,
    max_turns: MaxTurnsOption = DEFAULT_MAX_TURNS,
    max_hands: MaxHandsOption = DEFAULT_MAX_HANDS,
    duplicate: DuplicateOption = False,
    scheduler: SchedulerOption = None,
    report_path: ReportOption = None,
    plot_path: PlotOption = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="With --compare: both full reports after the differences.")
    ] = False,
) -> None:
    if as_json and csv_path == "-":
        raise typer.BadParameter(
            "--json and --csv - both write to stdout: give --csv a file", param_hint="'--csv'"
        )
    check_pool_options(workers, scheduler)
    check_distinct_outputs(("--csv", csv_path), ("--report", report_path), ("--plot", plot_path))
    if verbose and compare_with is None and not compare_set:
        raise typer.BadParameter(
            "adds both full reports to a comparison: give --compare or --compare-set "
            "(a single run's report is shown in full already)",
            param_hint="'--verbose'",
        )
    if csv_path is not None:
        # Checked before any game is played, so a long run is not wasted on a path that cannot be written.
        check_output_file(csv_path, "--csv")
    with cli_errors():
        check_pictures(report_path, plot_path)
        wanted = [(variant, set_, "--set")]
        if compare_with is not None or compare_set:
            wanted.append((compare_with or variant, compare_set, "--compare-set"))
        rules_a, *compared = load_each(wanted)
        rules_b = compared[0] if compared else None
    seats = parse_bots(bots, players, rules_a)
    check_duplicate_games(duplicate, seats, games)
    if rules_b is not None and not may_play(rules_b, len(seats)):
        changes = f" with {', '.join(compare_set)}" if compare_set else ""
        # The tables both seat, with the --players that asks for one: the refusal left it to be worked out.
        both = [n for n in range(rules_a.min_players, most_players(rules_a) + 1) if may_play(rules_b, n)]
        to = f" to {both[-1]}" if len(both) > 1 else ""
        way = (
            f": both seat {both[0]}{to} players (--players {both[-1]})" if both else ", nor any table A seats"
        )
        fail(
            f"B ({rules_b.name}{changes}) is for {player_counts(rules_b)} players{seating_note(rules_b)}, "
            f"not the {len(seats)} seats of A{way}"
        )
    rule_changes = variant_differences(rules_a, rules_b) if rules_b is not None else []
    if rules_b is not None and not rule_changes:
        fail(_same_rules(rules_a, rules_b, set_ or [], compare_set or []))
    console = report_console(highlight=False)
    total_games = games * (2 if rules_b else 1)
    with (
        cli_errors(),
        sigterm_stops_games() as stop_if_signalled,
        plug_ins_print_to_stderr(),
        open_pool(local_workers(workers, total_games), scheduler, most=total_games) as pool,
        progress_bar(total_games, enabled=True) as bar,
    ):
        task = bar.add_task("simulate", total=total_games) if bar is not None else None
        played = [0]

        def advance(done: int, total: int) -> None:
            stop_if_signalled()
            played[0] = done
            if bar is not None and task is not None:
                bar.update(task, completed=done)

        options = RunOptions(max_turns, max_hands, duplicate, pool, advance)
        try:
            if rules_b is None:
                result = options.simulate(rules_a, seats, games, seed)
                comparison = None
            else:
                comparison = options.compare(rules_a, rules_b, seats, games, seed)
                result = comparison.a
            stop_if_signalled()  # swallowed after the last game's progress: still a stop
        except GameFailure as failure:
            # Which file: B's where it is B's rules that failed (they differ from A's, or B was refused).
            failed_b = rules_b is not None and failure.variant == rules_b
            end_bar(bar)
            fail(_failure_text(failure, (compare_with or variant) if failed_b else variant))
        except KeyboardInterrupt as stop:
            end_bar(bar)
            fail_interrupted(
                f"interrupted after {played[0]:,} of {counted(total_games, 'game')}"
                f"{f' ({games:,} a variant)' if rules_b else ''}: nothing is reported, "
                "as a simulation's figures need all its games",
                stop,
            )
    tell_bot_faults(result.records if comparison is None else [*result.records, *comparison.b.records])
    rows = game_rows(result)
    if comparison is not None:
        # With --compare-set both runs carry A's variant name and the same game numbers: a last
        # column says which run each row is from.
        rows = [row | {"run": "A"} for row in rows] + [row | {"run": "B"} for row in game_rows(comparison.b)]
    labels = run_labels(
        (result.variant, variant, set_ or []),
        None if comparison is None else (comparison.b.variant, compare_with or variant, compare_set or []),
    )
    try:
        if csv_path == "-":
            write_csv(csv_path, rows_to_csv(rows))  # the rows are the output: no table beside them
        elif as_json:
            if comparison is None:
                data = result.to_json() | {"overrides": list(set_ or [])}
            else:
                data = comparison.to_json()
                data["a"]["overrides"] = list(set_ or [])
                data["b"]["overrides"] = list(compare_set or [])
            typer.echo(json.dumps(data, indent=2))
        elif comparison is None:
            report(result, console)
        else:
            comparison_report(comparison, console, labels, rule_changes)
            if verbose:
                report(comparison.a, console, labels[0])
                report(comparison.b, console, labels[1])
            else:
                console.print("Both full reports: add --verbose.")
            console.print("What each figure counts: kalooki simulate --help.")
    finally:
        # The files come last: should writing one fail, the report has been shown already. They are
        # written even when the report could not be (`| head` closed the pipe): the run is not lost.
        if csv_path is not None and csv_path != "-":
            write_csv(csv_path, rows_to_csv(rows))
        # With --csv - too: the page and the chart were left unwritten, without a word.
        if report_path is not None or plot_path is not None:
            write_simulation_pictures(result, comparison, labels, report_path, plot_path, rule_changes)


def _failure_text(failure: GameFailure, reference: str) -> str:
    """An engine failure in one game, led by the variant's file where it was given as one."""
    return f"{reference}: {failure}" if is_path_like(reference) else str(failure)


def tell_bot_faults(records: Iterable[GameRecord]) -> None:
    """On stderr, each faulty bot's first fault in the run (its moves were replaced by safe ones)."""
    told: set[str] = set()
    for record in records:
        for fault in record.faults:
            if fault.bot not in told:
                told.add(fault.bot)
                typer.echo(str(fault), err=True)


def _same_rules(a: Variant, b: Variant, set_a: list[str], set_b: list[str]) -> str:
    """Why two variants with the same rules are not compared: the games could only find no difference."""
    label_a, label_b = run_labels((a.name, a.name, set_a), (b.name, b.name, set_b))
    knobs = dict.fromkeys(option.split("=", 1)[0].strip() for option in set_b)
    already = [f"{knob} is already {yaml_scalar(getattr(a, knob))}" for knob in knobs if knob in KNOB_NAMES]
    because = f"{', '.join(already)} in A, so " if already else ""
    return f"B ({label_b}) has the same rules as A ({label_a}): {because}there is nothing to compare"


def write_simulation_pictures(
    result: SimulationResult,
    comparison: Comparison | None,
    labels: tuple[str, str],
    report_path: str | None,
    plot_path: str | None,
    rule_changes: Sequence[tuple[str, object, object]] = (),
) -> None:
    from . import html_report
    from .charts import simulation_charts

    if comparison is None:
        page = html_report.simulation_report(result, labels[0]) if report_path else None
        chart = simulation_charts([result], [labels[0]])[0] if plot_path else None
    else:
        page = html_report.comparison_report(comparison, labels, rule_changes) if report_path else None
        chart = simulation_charts([comparison.a, comparison.b], list(labels))[0] if plot_path else None
    write_pictures(report_path, page, plot_path, chart)


simulate_command.__doc__ = HELP


def register(app: typer.Typer) -> None:
    summary = "Play many games between bots and report win rates and more."
    app.command("simulate", help=HELP + "\n" + figures_help(), short_help=summary)(simulate_command)


__all__ = ["register", "simulate_command"]
