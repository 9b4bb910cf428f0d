"""Options ``simulate`` and ``sweep`` share for where games run and what is drawn from them."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from kalooki.engine import MAX_TURN_LIMIT
from kalooki.errors import KalookiError
from kalooki.executors import default_workers, scheduler_endpoint
from kalooki.simulate import MAX_GAMES, duplicate_refusal

from .charts import Chart, require_matplotlib, save
from .common import at_least, counted, fail, named, print_error
from .completion import complete_bots
from .output import check_output_file
from .saves import write_atomically
from .stop_signals import STOPPING_SIGNALS, Terminated


def games_option(counted: str, most: str = "") -> Any:
    """The ``--games``/``-n`` option, its help saying what the games are ``counted`` by and what the
    most (MAX_GAMES) is ``most`` of: a sweep's is of all its cells together."""
    return typer.Option(
        "--games",
        "-n",
        parser=at_least(1, MAX_GAMES),
        help=f"Games to play {counted}, at most {MAX_GAMES:,}{most}.",
    )


PlayersOption = Annotated[
    int | None,
    typer.Option(
        "--players",
        parser=at_least(2),
        help="Seats at the table (default: the --bots count, else 4 or what the variant allows).",
    ),
]

BotsOption = Annotated[
    str | None,
    typer.Option(
        "--bots",
        metavar="BOT[,BOT...]",
        autocompletion=complete_bots,
        help="The bot in each seat, comma-separated (one name fills every seat). Default: greedy.",
    ),
]

JsonOption = Annotated[bool, typer.Option("--json", help="Print the results as JSON instead of tables.")]

MaxTurnsOption = Annotated[
    int,
    typer.Option(
        "--max-turns",
        parser=at_least(1, MAX_TURN_LIMIT),
        help="Turns after which a hand is abandoned and counted.",
    ),
]

MaxHandsOption = Annotated[
    int,
    typer.Option("--max-hands", parser=at_least(1), help="Hands after which a game is stopped and counted."),
]

DuplicateOption = Annotated[
    bool,
    typer.Option(
        "--duplicate",
        help="Play each deal once per seat rotation, so the luck of the cards cancels out of seat and bot "
        "comparisons (--games must be a multiple of the distinct rotations: 4 for four different bots).",
    ),
]


def check_duplicate_games(duplicate: bool, bots: Sequence[str], games: int) -> None:
    """A count of games the bots' rotations do not divide is a usage error of ``--games`` (exit 2)."""
    refusal = duplicate_refusal(bots, games, options=True) if duplicate else None
    if refusal is not None:
        raise typer.BadParameter(refusal, param_hint="'--games' / '-n'")


def scheduler_address(value: str) -> str:
    """A ``parser=`` for ``--scheduler``: an address of the wrong shape is a usage error (exit 2). Spaces
    pasted around it are dropped, as ``kalooki join`` drops them around a table's address."""
    value = value.strip()
    try:
        scheduler_endpoint(value)
    except KalookiError as error:
        raise typer.BadParameter(str(error)) from None
    return value


SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        parser=scheduler_address,
        help="Play on a Dask cluster (pip install 'kalooki[cluster]') instead of local processes.",
    ),
]
ReportOption = Annotated[
    str | None,
    typer.Option(
        "--report",
        parser=named,
        metavar="FILE.html",
        help="Write a self-contained HTML report with charts (needs pip install 'kalooki[plot]').",
    ),
]
PlotOption = Annotated[
    str | None,
    typer.Option(
        "--plot",
        parser=named,
        metavar="FILE.png|FILE.svg",
        help="Write the headline chart as PNG or SVG (needs pip install 'kalooki[plot]').",
    ),
]


def check_pictures(report: str | None, plot: str | None) -> None:
    """Refuse, before any game is played, a report or plot that could not be made or written."""
    if report is not None:
        if Path(report).suffix.lower() not in (".html", ".htm"):
            raise typer.BadParameter(
                f"{report}: the report is a web page: give a file ending in .html (or .htm)",
                param_hint="'--report'",
            )
        check_output_file(report, "--report")
        require_matplotlib("--report")
    if plot is not None:
        if Path(plot).suffix.lower() not in (".png", ".svg"):
            raise typer.BadParameter(f"{plot}: give a file ending in .png or .svg", param_hint="'--plot'")
        check_output_file(plot, "--plot")
        require_matplotlib("--plot")


def check_distinct_outputs(*outputs: tuple[str, str | Path | None]) -> None:
    """Refuse two options that name one file (``--csv x.html --report x.html``): the one written last
    would replace the other without a word, after the whole run. ``outputs``: (option, path) pairs."""
    seen: dict[Path, str] = {}
    for option, path in outputs:
        if path is None or str(path) in ("-", ""):
            continue
        try:
            where = Path(path).resolve()
        except (OSError, RuntimeError):
            continue  # a link that loops: the check of each output's kind says so, in its words
        if where in seen:
            raise typer.BadParameter(
                f"{path}: {seen[where]} writes there too: give each its own file", param_hint=f"'{option}'"
            )
        seen[where] = option


def local_workers(workers: int | None, games: int) -> int | None:
    """The processes to play ``games`` with for ``--workers``: at most one a core this process may use.

    The games are pure Python, one core's work each at a time: a process more than the cores only
    waits its turn, with its memory (``-n 16 -w 16`` forked 16 processes on 2 cores). The results are
    the same whatever the count, so it is capped, with a note on stderr, rather than refused: a
    script written on a bigger machine still runs."""
    cores = default_workers()
    if workers is None or min(workers, games) <= cores:
        return workers
    print_error(
        f"--workers {workers}: this machine gives kalooki {counted(cores, 'core')}, so {cores} "
        f"process{'' if cores == 1 else 'es'} play (the results are the same whatever --workers is)"
    )
    return cores


def check_pool_options(workers: int | None, scheduler: str | None) -> None:
    if workers is not None and scheduler is not None:
        raise typer.BadParameter(
            "--workers is for local processes: a Dask cluster has the workers it has",
            param_hint="'--workers'",
        )


def write_pictures(
    report: str | None, report_html: str | None, plot: str | None, chart: Chart | None
) -> None:
    """Write the report and the plot (each already checked); a failure is one line, exit 1.

    Each file written is said on stderr (stdout may be the JSON or CSV a program reads)."""
    if report is not None and report_html is not None:
        try:
            write_atomically(Path(report), report_html)
        except OSError as error:
            fail(f"{report}: cannot write the report: {error.strerror or error}")
        print_error(f"{report}: report written")
    if plot is not None and chart is not None:
        try:
            save(chart, Path(plot))
        except OSError as error:
            fail(f"{plot}: cannot write the chart: {error.strerror or error}")
        print_error(f"{plot}: chart written")


@contextmanager
def sigterm_stops_games() -> Iterator[Callable[[], None]]:
    """While the block plays games, SIGTERM (``timeout``, a CI job cancelled, systemd) or SIGHUP stops them
    as Ctrl-C does. Left to its default, it ended this process alone, and its worker processes, each
    blocked reading a pipe that no one would ever write again, lived on for ever.

    Yields ``check``, for the block to call as each game ends: it raises again a stop (any of these
    signals, or Ctrl-C) that Python swallowed. A handler raises wherever Python is between two steps,
    and some steps print what is raised as "Exception ignored" and go on: a fork's hooks (the pool
    forks its workers as the first games are sent), an object's finalizer. The command played its
    100,000 games on, the signal lost (ignored from then on), under that traceback; the stop is now
    noted before it is raised, and the traceback of one noted is not printed."""
    if threading.current_thread() is not threading.main_thread():
        # Signal handlers belong to the main thread: a caller's own thread keeps the default.
        yield lambda: None
        return
    noted: list[KeyboardInterrupt] = []

    def stop(signum: int, frame: object) -> None:
        # Once: a second signal while the processes are being stopped is not to cut that short.
        for each in STOPPING_SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        noted.append(Terminated(signum))
        raise noted[-1]

    def interrupt(signum: int, frame: object) -> None:
        noted.append(KeyboardInterrupt())
        raise noted[-1]

    def check() -> None:
        if noted:
            raise noted[-1]

    def report_unraisable(unraisable: Any) -> None:
        if not any(unraisable.exc_value is each for each in noted):
            previous_hook(unraisable)

    previous = {each: signal.signal(each, stop) for each in STOPPING_SIGNALS}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # an ignored Ctrl-C stays ignored
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, interrupt)
    previous_hook, sys.unraisablehook = sys.unraisablehook, report_unraisable
    try:
        yield check
    finally:
        if sys.unraisablehook is report_unraisable:  # not replaced since (fail_interrupted quiets it all)
            sys.unraisablehook = previous_hook
        for each, handler in previous.items():
            signal.signal(each, handler)


def fail_interrupted(message: str, stop: KeyboardInterrupt | None = None) -> NoReturn:
    """Stop a command that Ctrl-C cut short: ``message`` on stderr, exit 130, and nothing after it; cut
    short by SIGTERM (:class:`Terminated`), ``message`` says so in its first word's place, exit 143.

    The worker processes have been stopped; tearing their pool down, Python 3.11's process pool can
    meet its own closed pipes from its threads or at exit, and print that. The command is ending on
    the user's word: those lines would only bury the one that says how far it got."""
    sys.unraisablehook = _say_nothing
    threading.excepthook = _say_nothing
    if isinstance(stop, Terminated):
        said = "hung up (SIGHUP)" if stop.signum != signal.SIGTERM else "terminated (SIGTERM)"
        fail(said + message.removeprefix("interrupted"), 128 + stop.signum)
    fail(message, 130)


def _say_nothing(_: object) -> None:
    return None
