"""``kalooki sweep``: simulate every combination of knob values on the same seeds, and compare."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from pathlib import Path
from typing import Annotated, Final

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kalooki.executors import WORKER_STOPPED, WorkerLost, open_pool
from kalooki.figures import FDR_METHOD
from kalooki.grid import Cell, cell_count, find_baseline, knob_text, load_cells, parse_grid
from kalooki.loader import load_variant
from kalooki.rules import default_players, may_play, player_counts, seating_note
from kalooki.simulate import (
    DEFAULT_MAX_HANDS,
    DEFAULT_MAX_TURNS,
    MAX_GAMES,
    GameFailure,
    GameRecord,
    rows_to_csv,
)
from kalooki.sweep import (
    CellResult,
    PlayedCell,
    SweepResult,
    SweepSpec,
    figure_has_data,
    figure_interval,
    figure_value,
    run_sweep,
    sweep_rows,
)

from . import save_lock
from .common import (
    SetOption,
    at_least,
    cli_errors,
    counted,
    fail,
    folder_name,
    named,
    named_bots,
    seed_number,
)
from .html_report import (
    BOTS_NOTE,
    bots_text,
    paired_units,
    seating_limit_note,
    stopped_at_hand_cap,
    sweep_direction_note,
    unlike_in_some_cells,
    untested,
    untested_in_every_cell,
)
from .narrow import Column, difference_texts, indented, narrow_table, natural_width, p_text
from .output import check_output_file, check_output_folder, report_console, writes_to_terminal
from .plain_text import as_written
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
from .simulate import (
    GamesPerSecond,
    end_bar,
    figures_help,
    parse_bots,
    plug_ins_print_to_stderr,
    tell_bot_faults,
    write_csv,
)
from .sweep_store import SweepStore

MAX_CELLS: Final = 50
"""More cells than this is probably a typo in a grid: the sweep asks for --yes first."""

HELP = """Simulate every combination of knob values on the same seeds, and compare each with a baseline.

\b
  kalooki sweep classic --grid opening_threshold=30,40,51 --grid run_minimum=3,4 -n 2000
  kalooki sweep classic --grid jokers=2,4 --out sweep-jokers --report jokers.html

Each --grid KNOB=V1,V2,... is one axis; the cells are every combination. Every cell plays
the same game seeds; each figure of each cell is compared with the baseline cell (--baseline,
default the first) by a paired t-test over games, and the p-values of the whole sweep are
adjusted together (Benjamini-Hochberg) so only differences that survive are marked.
With --out DIR each finished cell is saved as it completes; run the same command again after
Ctrl-C, a crash or a lost worker and it picks up where it stopped, with identical results.
"""

GridOption = Annotated[
    list[str] | None,
    typer.Option(
        "--grid",
        metavar="KNOB=V1,V2,...",
        help="A knob and the values to sweep it over (repeatable: the cells are every combination).",
        show_default=False,
    ),
]


@contextmanager
def sweep_bar(enabled: bool) -> Iterator[Progress | None]:
    """One bar for the whole sweep on stderr when it is a terminal: cells done, games/s, time left."""
    console = Console(stderr=True)
    if not enabled or not writes_to_terminal(console):
        yield None
        return
    bar = Progress(
        TextColumn("sweeping"),
        BarColumn(),
        TextColumn("{task.fields[cells]} cells"),
        GamesPerSecond(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with bar:
        yield bar


def interrupted_message(store: SweepStore | None, cells: int, why: str = "interrupted") -> str:
    """What a sweep cut short says (``why`` first: interrupted, or a worker lost) and what it kept."""
    if store is None:
        return f"{why}: nothing was saved (give --out DIR to keep finished cells and resume)"
    saved = sum(store.cell_path(index).exists() for index in range(cells))
    return f"{why}: {saved} of {cells} cells saved in {store.folder}; run the same command again to resume"


def print_sweep(result: SweepResult, console: Console) -> None:
    spec = result.spec
    console.print(
        f"{spec.variant}: {len(spec.cells)} cells × {counted(spec.games, 'game')} on the same seeds "
        f"(seed {spec.seed}), bots {bots_text(spec.bots)}{', duplicate deals' if spec.duplicate else ''}; "
        f"{result.workers} worker{'s' if result.workers != 1 else ''} ({result.where}), "
        f"{result.seconds:.1f} s"
        + (f", {counted(result.resumed, 'cell')} read back from --out" if result.resumed else ""),
        markup=False,  # the variant as typed: a file named '[red]x.yaml' is no colour
    )
    console.print(BOTS_NOTE)
    console.print(
        "Each figure over ± the distance to the farther end of its 95% interval (percentage points "
        "for a %, as is a change from the baseline); * marks a significant difference from the baseline, "
        "and the last column counts a cell's."
    )
    # As the console writes it: rich measures ± as one column, and +/- written for it pushed the cells out.
    table = sweep_table(result, as_written("±", console.encoding))
    if natural_width(table) <= console.width:
        console.print(table)
    else:
        print_stacked_cells(result, console)
    significant = result.significant
    console.print(
        f"baseline: {spec.cells[spec.baseline].label}. {len(significant)} of {result.tests} "
        f"differences from it are significant after {FDR_METHOD} false-discovery control at 5%"
        + (":" if significant else ".")
    )
    if significant:
        differences = significant_table(result)
        if natural_width(differences) <= console.width:
            console.print(differences)
        else:
            print_stacked_significant(result, console)
    items = untested_in_every_cell(cell.differences for cell in result.cells)
    if not_tested := untested(items, paired_units(spec.duplicate), "the cells and the baseline"):
        console.print(not_tested)
    if unlike := unlike_in_some_cells(((cell.cell.label, cell.differences) for cell in result.cells), items):
        console.print(unlike, markup=False)  # a cell's label holds its knob values as typed
    if stopped := stopped_at_hand_cap([(cell.cell.label, cell.result) for cell in result.cells]):
        console.print(stopped, markup=False)  # a cell's label holds its knob values as typed
    if direction := sweep_direction_note(result):
        console.print(direction)  # as simulate --compare says it, beside the scores it explains
    if seating := seating_limit_note(result):
        console.print(seating, markup=False)  # the variant as typed


HEADLINE: Final = (
    ("turns_per_hand", "turns per hand", False),
    ("hands_per_game", "hands per game", False),
    ("seat_game_wins.1", "seat 1 games won", True),
    ("kalooki", "Kalooki hands", True),
    ("opening_turn", "opening turn", False),
)
"""The figures the terminal table shows per cell (key, heading, shown as a percentage)."""


def _headline(cell: CellResult, plus_minus: str = "±") -> list[tuple[str, str]]:
    """Each headline figure of a cell: its value (``*`` first when it differs) and ``plus_minus`` its
    interval."""
    marks = {item.key for item in cell.differences if item.significant}
    figures = []
    for key, _, percent in HEADLINE:
        if not figure_has_data(cell.result, key):
            # A figure of nothing (nobody opened) is no 0.00 ±0.00: a dash, as the comparison shows it.
            figures.append(("-", ""))
            continue
        value, (low, high) = figure_value(cell.result, key), figure_interval(cell.result, key)
        half = max(value - low, high - value)
        scale, unit, digits = (100.0, "%", 1) if percent else (1.0, "", 2)
        mark = "*" if key in marks else ""
        figures.append((f"{mark}{scale * value:.{digits}f}{unit}", f"{plus_minus}{scale * half:.{digits}f}"))
    return figures


def _marks(cell: CellResult, spec: SweepSpec) -> str:
    return (
        "baseline" if cell.cell.index == spec.baseline else str(sum(i.significant for i in cell.differences))
    )


def sweep_table(result: SweepResult, plus_minus: str = "±") -> Table:
    """One row per cell: its knob values, each headline figure over its interval, its marks."""
    spec = result.spec
    rows: list[list[str]] = []
    for cell in result.cells:
        row = _knob_values(cell.cell, spec)
        for value, interval in _headline(cell, plus_minus):
            # The value over its interval: two short lines rather than one wide one, digits aligned.
            if not interval:
                row.append(value)  # no data: no interval to put under it
                continue
            row.append(f"{value}\n{interval}" + (" " if value.endswith("%") else ""))  # under the digits
        row.append(_marks(cell, spec))
        rows.append(row)
    columns = [*_knob_columns(spec), *(Column(heading) for _, heading, _ in HEADLINE), Column("sig. diffs")]
    return narrow_table(columns, rows)


def print_stacked_cells(result: SweepResult, console: Console) -> None:
    """The cells on a terminal too narrow for their table (three knobs, long values): each cell on a
    line of its own, its figures below, every number whole (the table folded "32.54" into "32.5" over "4")."""
    spec = result.spec
    for cell in result.cells:
        marks = _marks(cell, spec)
        said = "baseline" if marks == "baseline" else f"{marks} significant"
        console.print(f"{cell.cell.label}: {said}", markup=False, style="bold")
        figures = [
            f"{heading} {value}\N{NO-BREAK SPACE}{interval}" if interval else f"{heading} {value}"
            for (_, heading, _), (value, interval) in zip(
                HEADLINE, _headline(cell, as_written("±", console.encoding)), strict=True
            )
        ]
        console.print(indented(", ".join(figures), console.width), markup=False, soft_wrap=True)


def print_stacked_significant(result: SweepResult, console: Console) -> None:
    """The differences that survive, one a line, when their table is too wide for the terminal."""
    for cell, item in result.significant:
        baseline, value, change = difference_texts(item)
        line = f"{cell.cell.label}: {item.metric} {baseline} → {value} ({change}), "
        line += f"adj. p {p_text(item.adjusted_p)}"
        console.print(indented(line, console.width, first=""), markup=False, soft_wrap=True)


def _knob_columns(spec: SweepSpec) -> list[Column]:
    """A column per swept knob, headed by its name in words so a long one wraps, never cut."""
    return [Column(axis.knob.replace("_", " ")) for axis in spec.axes]


def _shared_players(cells: list[Cell]) -> int:
    """The table no option sized, for every cell: the first cell's default, or the most below it that
    all of them seat; the first's default where none does (the check of each cell names one that cannot)."""
    first = default_players(cells[0].variant)
    for count in range(first, cells[0].variant.min_players - 1, -1):
        if all(may_play(cell.variant, count) for cell in cells):
            return count
    return first


def _cell_rules(cell: Cell) -> str:
    """A cell's rules in a sentence: the variant and its grid values (`classic with max_players=3`)."""
    return cell.variant.name if not cell.knobs else f"{cell.variant.name} with {cell.label}"


def _knob_values(cell: Cell, spec: SweepSpec) -> list[str]:
    values = (cell.knobs[axis.knob] for axis in spec.axes)
    return [
        ",".join(map(knob_text, value)) if isinstance(value, list) else knob_text(value) for value in values
    ]


def significant_table(result: SweepResult) -> Table:
    """The differences that survive the false-discovery control: cell, figure, baseline -> cell."""
    rows: list[list[str]] = []
    for cell, item in result.significant:
        values = _knob_values(cell.cell, result.spec)
        rows.append([*values, item.metric, *difference_texts(item), p_text(item.adjusted_p)])
    columns = [
        *_knob_columns(result.spec),
        Column("figure", "left", cap=FIGURE_NAME_WIDTH),
        Column("baseline"),
        Column("cell"),
        Column("change"),
        Column("adj. p"),
    ]
    return narrow_table(columns, rows)


FIGURE_NAME_WIDTH: Final = 14
"""Figure names wrap at this width (``points left`` / ``per loser``) so the numbers keep their room."""


def sweep_command(
    variant: Annotated[
        str, typer.Argument(metavar="VARIANT|PATH", help="A built-in variant name or a variant file.")
    ] = "classic",
    grid: GridOption = None,
    set_: SetOption = None,
    games: Annotated[int, games_option("per cell", " in all the cells")] = 1000,
    players: PlayersOption = None,
    bots: BotsOption = None,
    seed: Annotated[
        int, typer.Option("--seed", parser=seed_number, help="Master seed, shared by every cell.")
    ] = 0,
    baseline: Annotated[
        list[str] | None,
        typer.Option(
            "--baseline",
            metavar="KNOB=V,...",
            help="The cell to compare with (default: the first); repeatable, one knob per option.",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            parser=at_least(1),
            help="Local processes to use (default and most: one a core).",
        ),
    ] = None,
    scheduler: SchedulerOption = None,
    as_json: JsonOption = False,
    csv_path: Annotated[
        str | None,
        typer.Option(
            "--csv", parser=named, metavar="FILE", help="Write one CSV row per cell to FILE ('-': stdout)."
        ),
    ] = None,
    report: ReportOption = None,
    plot: PlotOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            parser=folder_name,
            metavar="DIR",
            help="Save each finished cell in DIR; run again to resume.",
        ),
    ] = None,
    duplicate: DuplicateOption = False,
    yes: Annotated[
        bool,
        typer.Option(
            "--yes", "-y", help=f"Run a grid with no --grid, of one cell, or of over {MAX_CELLS} cells."
        ),
    ] = False,
    max_turns: MaxTurnsOption = DEFAULT_MAX_TURNS,
    max_hands: MaxHandsOption = DEFAULT_MAX_HANDS,
) -> None:
    if as_json and csv_path == "-":
        raise typer.BadParameter(
            "--json and --csv - both write to stdout: give --csv a file", param_hint="'--csv'"
        )
    check_pool_options(workers, scheduler)
    check_distinct_outputs(("--csv", csv_path), ("--report", report), ("--plot", plot), ("--out", out))
    if csv_path is not None:
        check_output_file(csv_path, "--csv")
    if out is not None:
        check_output_folder(out)
    with cli_errors():
        check_pictures(report, plot)
        axes = parse_grid(grid or [])
        load_variant(
            variant, set_ or ()
        )  # the variant and --set on their own first, as simulate reports them
        count = cell_count(axes)
        # What the command line asks for, before anything is played: usage errors (exit 2), as elsewhere.
        if not axes and not yes:
            raise typer.BadParameter(
                "none given: the sweep would be one cell, the variant as given (--grid KNOB=V1,V2 sweeps a "
                "knob); add --yes to run it anyway",
                param_hint="'--grid'",
            )
        if axes and count == 1 and not yes:
            # One value a knob (`--grid run_minimum=4`) is one cell, compared with nothing.
            only = ", ".join(f"{axis.knob}={axis.texts[0]}" for axis in axes)
            raise typer.BadParameter(
                f"the grid is one cell ({only}), so nothing is compared: give a knob two values or more "
                f"(--grid {axes[0].knob}=V1,V2), or add --yes to run it anyway",
                param_hint="'--grid'",
            )
        if count > MAX_CELLS and not yes:
            raise typer.BadParameter(
                f"the grid has {count} cells (over {MAX_CELLS}): add --yes to play them all",
                param_hint="'--grid'",
            )
        if games * count > MAX_GAMES:
            raise typer.BadParameter(
                f"--games {games:,} × {count:,} cells is {games * count:,} games: "
                f"give at most {MAX_GAMES:,} in all",
                param_hint="'--games'",
            )
        cells = load_cells(variant, set_ or (), axes)
        default = _shared_players(cells)
        seats = tuple(
            parse_bots(bots, players, cells[0].variant, described=_cell_rules(cells[0]), default=default)
        )
        for cell in cells:
            # Every cell plays the same seats: one that cannot seat them was refused once its games began.
            if not may_play(cell.variant, len(seats)):
                several = len(named_bots(bots) or ()) > 1
                raise typer.BadParameter(
                    f"{len(seats)} players, but {_cell_rules(cell)} is for {player_counts(cell.variant)} "
                    f"players{seating_note(cell.variant)}: every cell seats the same players"
                    + ("" if players is not None or several else ", and no count seats them all"),
                    param_hint="'--players'"
                    if players is not None
                    else "'--bots'"
                    if several
                    else "'--grid'",
                )
        check_duplicate_games(duplicate, seats, games)
        spec = SweepSpec(
            variant,
            tuple(set_ or ()),
            tuple(axes),
            tuple(cells),
            find_baseline(baseline, axes, cells),
            seats,
            games,
            seed,
            duplicate,
            max_turns,
            max_hands,
        )
        with plug_ins_print_to_stderr():  # checking a bot makes one
            for cell in spec.cells:
                spec.plan(cell).check()
        with save_lock.holding(), ExitStack() as reached:  # --out, held until its last cell is saved
            # A cluster is reached before --out is made: a scheduler that did not answer left a sweep's
            # folder, which then refused another sweep's options though it held no game.
            cluster = reached.enter_context(open_pool(None, scheduler)) if scheduler is not None else None
            store = SweepStore(out, spec) if out is not None else None
            with plug_ins_print_to_stderr():  # the cells read back have a game played again
                done = store.open() if store is not None else {}
            # Cells read back from --out are not played again: the processes, the bar, its speed and
            # its time left count only the games this run plays (each such cell keeps its own time).
            to_play = games * (len(cells) - len(done))
            with (
                sigterm_stops_games() as stop_if_signalled,
                plug_ins_print_to_stderr(),
                nullcontext(cluster)
                if cluster is not None
                else open_pool(local_workers(workers, to_play), most=to_play) as pool,
                sweep_bar(enabled=True) as bar,
            ):
                task = bar.add_task("sweep", total=to_play, cells="") if bar is not None else None

                def advance(games_done: int, total: int, cells_done: int, cells_total: int) -> None:
                    stop_if_signalled()
                    if bar is not None and task is not None:
                        bar.update(
                            task,
                            completed=games_done - (total - to_play),
                            cells=f"{cells_done}/{cells_total}",
                        )

                # The games this run plays, for their bots' faults (a cell read back from --out keeps none).
                played: list[GameRecord] = []

                def cell_played(cell: Cell, games_of_cell: PlayedCell) -> None:
                    played.extend(games_of_cell.records)
                    if store is not None:
                        store.save(cell, games_of_cell)

                try:
                    result = run_sweep(spec, pool, done=done, on_cell=cell_played, progress=advance)
                    stop_if_signalled()  # swallowed after the last game's progress: still a stop
                except GameFailure as failure:
                    # The message names the base variant, which every cell shares: the cell says which rules.
                    failed = next((cell for cell in cells if cell.variant == failure.variant), None)
                    end_bar(bar)
                    fail(f"cell {failed.label}: {failure}" if failed is not None else str(failure))
                except KeyboardInterrupt as stop:
                    end_bar(bar)
                    fail_interrupted(interrupted_message(store, len(cells)), stop)
                except WorkerLost:  # the cells finished are kept in --out, as on Ctrl-C
                    end_bar(bar)
                    fail(interrupted_message(store, len(cells), WORKER_STOPPED))
    tell_bot_faults(played)
    rows = sweep_rows(result)
    try:
        if csv_path == "-":
            write_csv(csv_path, rows_to_csv(rows))  # the rows are the output: no table beside them
        elif as_json:
            typer.echo(json.dumps(result.to_json(), indent=2))
        else:
            print_sweep(result, report_console(highlight=False))
    finally:
        # Written even when the tables could not be (`| head` closed the pipe): the sweep is not lost.
        if csv_path is not None and csv_path != "-":
            write_csv(csv_path, rows_to_csv(rows))
        # With --csv - too: the page and the chart were left unwritten, without a word.
        if report is not None or plot is not None:
            from .charts import sweep_charts
            from .html_report import sweep_report

            page = sweep_report(result) if report else None
            write_pictures(report, page, plot, sweep_charts(result)[0] if plot else None)


sweep_command.__doc__ = HELP


def register(app: typer.Typer) -> None:
    summary = "Simulate every combination of knob values against a baseline."
    app.command("sweep", help=HELP + "\n" + figures_help(), short_help=summary)(sweep_command)


__all__ = ["register", "sweep_command"]
