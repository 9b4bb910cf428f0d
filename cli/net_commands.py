"""``kalooki host`` and ``kalooki join``: a table over the network (the ``net`` extra).

Thin commands: the table, the server and the connection are :mod:`kalooki_net`; the screen
is :mod:`kalooki_cli.remote` (before the game, :mod:`kalooki_cli.lobby`). The host runs its
server on an asyncio loop in a background thread and, unless ``--watch``, sits at its own
table through the same client as everyone.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from kalooki.errors import KalookiError
from kalooki.shell_words import shell_join
from kalooki.text import MAX_NAME, escape_controls

from . import host_options, save_lock
from .common import (
    JoinNameOption,
    NameOption,
    SetOption,
    check_output_path,
    cli_errors,
    file_name,
    integer,
    port_number,
    print_error,
    refuse_seat_name,
    seconds,
    seed_number,
)
from .completion import complete_bots, complete_saved_game
from .host_options import (
    DEFAULT_BOT_PAUSE,
    DEFAULT_BOT_TIME,
    AllowHostOption,
    TrustProxyOption,
    allowed_hosts,
    given,
    make_table,
    refuse_bytes,
    trusted_proxies,
)
from .host_thread import LOBBY_PROMPT, HostThread, require_net
from .host_watch import DROP_HELP, closed_at_prompt, seat_command, watch_table
from .narrow import print_then
from .output import at_terminal
from .play import console_reader, make_console
from .stop_signals import stopped_by, stopped_status, stops_as_ctrl_c
from .turn_log import refuse_a_written_log, refuse_one_file

if TYPE_CHECKING:
    from kalooki_net.forwarded import TrustedProxies
    from kalooki_net.table import Table
    from rich.console import Console

    from .continue_log import ContinuedLog
    from .interactive import ReadLine


def local_address() -> str | None:
    """This machine's address on its local network, as friends at the table would reach it.

    Connecting a UDP socket sends nothing: it only asks the system which interface it would use.
    """
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
        if not address.startswith("0."):
            return address
    return None


def tokens_dir() -> Path:
    from .saves import data_home

    return data_home() / "tables"


def host(
    ctx: typer.Context,
    target: Annotated[
        str | None,
        typer.Argument(metavar="VARIANT|PATH", help="A built-in variant (default classic) or a file."),
    ] = None,
    set_: SetOption = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats",
            "--players",  # kalooki play's word for it: a host typing it is understood
            parser=integer,
            metavar="N",
            help="Seats at the table (default 4, or what the variant allows).",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="BOT,BOT,...",
            help="The bots for seats nobody takes.",
            autocompletion=complete_bots,
        ),
    ] = None,
    name: NameOption = "host",
    watch: Annotated[bool, typer.Option("--watch", help="Only serve the table; do not play.")] = False,
    seed: Annotated[
        int | None, typer.Option("--seed", parser=seed_number, metavar="N", help="Shuffle seed.")
    ] = None,
    bind: Annotated[str, typer.Option("--bind", metavar="ADDR", help="Address to listen on.")] = "0.0.0.0",
    port: Annotated[
        int, typer.Option("--port", parser=port_number, metavar="P", help="Port (0: any free).")
    ] = 8765,
    wait: Annotated[
        float,
        typer.Option(
            "--wait",
            parser=seconds,
            metavar="SECONDS",
            help="How long a player who drops is waited for before a bot plays.",
        ),
    ] = 60.0,
    bot_pause: Annotated[
        float,
        typer.Option("--bot-pause", parser=seconds, metavar="SECONDS", help="Pause between bots' turns."),
    ] = DEFAULT_BOT_PAUSE,
    bot_time: Annotated[
        float,
        typer.Option(
            "--bot-time",
            parser=seconds,
            metavar="SECONDS",
            help="How long a bot's turn is waited for before safe moves play it (a plug-in that hangs).",
        ),
    ] = DEFAULT_BOT_TIME,
    save: Annotated[
        Path | None, typer.Option("--save", parser=file_name, metavar="FILE", help="Where to save the game.")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            parser=file_name,
            metavar="FILE|N",
            help="Reopen a hosted table from its save (a file, or game N of kalooki saves).",
            autocompletion=complete_saved_game,
        ),
    ] = None,
    log: Annotated[
        Path | None,
        typer.Option(
            "--log",
            parser=file_name,
            metavar="FILE.jsonl",
            help="Write every event for kalooki replay (with --resume: go on writing it from this file; "
            "by default, the log its save records).",
        ),
    ] = None,
    no_log: Annotated[
        bool, typer.Option("--no-log", help="With --resume: play on without the game's log.")
    ] = False,
    trust_proxy: TrustProxyOption = None,
    allow_host: AllowHostOption = None,
) -> None:
    """Open a table on the network: friends join with kalooki join; bots take the empty seats."""
    if resume is not None and (target or set_ or seats or bots is not None or seed is not None):
        raise typer.BadParameter("a resumed table keeps its rules, seats and seed", param_hint="'--resume'")
    if resume is not None and given(ctx, "name"):
        # It was passed over in silence: each seat, the host's too, is taken back as it was named.
        raise typer.BadParameter(
            "a resumed table keeps its players' names, its host's too", param_hint="'--name'"
        )
    if bot_time <= 0:  # every bot's turn, kalooki's own too, would be played by safe moves at once
        raise typer.BadParameter("a bot's turn is waited for more than 0 seconds", param_hint="'--bot-time'")
    if no_log and resume is None:
        raise typer.BadParameter("a new table writes a log only with --log", param_hint="'--no-log'")
    from .continue_log import refuse_both

    refuse_both(log, no_log)
    refuse_bytes(bind, "'--bind'")
    # Said before a table opens only to refuse its host; watching or reopening, no seat takes the name.
    if not watch and resume is None:
        refuse_seat_name(name.strip())
    refuse_one_file(log, save)
    if log is not None and resume is None:
        check_output_path(log, game_file=True)
    with (
        cli_errors(),
        stops_as_ctrl_c(),
        save_lock.holding(),
    ):  # the table's save, held once run_host knows it
        require_net()
        if log is not None and resume is None:  # held from the start: the table writes it once it deals
            save_lock.hold_log(log)
            refuse_a_written_log(log)  # the table's moves are in that log only, as a terminal game's are
        trusted = trusted_proxies(trust_proxy or [])
        allowed = allowed_hosts(allow_host or [])
        code = run_host(
            target, set_ or [], seats=seats, bots=bots, name=name, watch=watch, seed=seed, bind=bind,
            port=port, wait=wait, bot_pause=bot_pause, bot_time=bot_time, save=save, resume=resume, log=log,
            trusted=trusted, allowed=allowed, no_log=no_log, wait_given=resume is None or given(ctx, "wait"),
        )  # fmt: skip
    raise typer.Exit(code)


def run_host(
    target: str | None,
    overrides: list[str],
    *,
    seats: int | None,
    bots: str | None,
    name: str,
    watch: bool,
    seed: int | None,
    bind: str,
    port: int,
    wait: float,
    bot_pause: float,
    save: Path | None,
    resume: Path | None,
    log: Path | None,
    trusted: TrustedProxies | None = None,
    allowed: tuple[str, ...] = (),
    no_log: bool = False,
    wait_given: bool = True,
    bot_time: float = DEFAULT_BOT_TIME,
) -> int:
    """``wait_given``: --wait was given (a resumed table otherwise keeps its save's)."""
    from .host_resume import reopened_table, tell_continued_log
    from .interactive import TurnLogWriter
    from .saves import find_save, new_save_path, refuse_other_file, write_save
    from .turn_log import recorded_place

    console = make_console()
    continued: ContinuedLog | None = None
    if resume is not None:
        resume = find_save(str(resume))  # N of 'kalooki saves', or a name it lists, as resume takes
        table, continued = reopened_table(resume, log, no_log=no_log, wait=wait if wait_given else None)
        save_path = save.expanduser() if save is not None else resume
    else:
        table = make_table(target, overrides, seats=seats, bots=bots, seed=seed, wait=wait)
        save_path = save.expanduser() if save is not None else new_save_path(table.seed)
        if log is not None:
            table.log_factory = lambda game: TurnLogWriter(game, log)
            table.log_place, table.log_unnamed = recorded_place(log), not recorded_place(log)
    if save is not None:  # first: a file holding a game open elsewhere is said as play says it
        own = resume.expanduser() if resume is not None else None
        refuse_other_file(save_path, own=own, resume_with="kalooki host --resume")
    save_lock.hold(save_path)
    table.save_path, table.write_save = save_path, write_save
    token: str | None = None
    host_seat: int | None = None
    if not watch:
        if resume is not None:
            hosts = [index for index, seat in enumerate(table.seats) if seat.host]
            if hosts:
                host_seat = hosts[0]
                token = table.claim(host_seat)
        else:
            host_seat, token = table.join(name, host=True)
        if host_seat is not None:
            table.seats[host_seat].connected = False
            table.seats[host_seat].away_since = None
    server = HostThread(
        table,
        bind,
        port,
        bot_pause,
        console,
        bot_time=bot_time,
        watch=token is None,
        trusted=trusted,
        allowed=allowed,
    )
    actual = server.start()
    everywhere = bind in ("0.0.0.0", "::", "")
    shown = (local_address() or "localhost") if everywhere else bind
    if ":" in shown:
        shown = f"[{shown}]"
    join = f"  kalooki join {shown}:{actual} --code {table.code}"
    if table.game is None:
        console.print(Text("Your table is open. Friends join with:", style="bold"))
        join += " --name NAME"
    else:  # no one new sits at a game under way: its players take their seats back by their kept tokens
        console.print(Text("Your table is open again. Everyone rejoins their seat with:", style="bold"))
    console.print(Text(join, style="bold cyan"), soft_wrap=True)
    console.print(Text("Or in a browser, on a phone or a laptop:", style="bold"))
    console.print(Text(f"  http://{shown}:{actual}/?code={table.code}", style="bold cyan"), soft_wrap=True)
    if everywhere:
        console.print(Text("  (from another network, use the address it knows this machine by)", style="dim"))
    # As kalooki play says it: a path too long for the line has a line of its own, whole, not broken mid-name.
    print_then(console, "The game is saved after every move to", str(save_path), "dim")
    if continued is not None:
        tell_continued_log(console, continued)
    try:
        # The same address as now: a table opened on the loopback only is not reopened on every address.
        where = [] if bind == "0.0.0.0" else ["--bind", bind]  # 0.0.0.0: the default
        # Behind the same proxy: reopened without it, every player would count as the proxy again.
        where += ["--trust-proxy", str(trusted)] if trusted else []
        where += ["--allow-host", ",".join(allowed)] if allowed else []
        where += ["--bot-pause", f"{bot_pause:g}"] if bot_pause != DEFAULT_BOT_PAUSE else []  # not saved
        where += ["--bot-time", f"{bot_time:g}"] if bot_time != DEFAULT_BOT_TIME else []  # nor this
        log_path = continued.path if continued is not None else log  # one the save cannot name: given again
        where += ["--log", str(log_path)] if table.log_unnamed and log_path is not None else []
        reopen = ["kalooki", "host", "--resume", str(save_path), *where, "--port", str(actual)]
        if token is None or host_seat is None:
            return _unless_unsaved(
                table, watch_table(server, console, shell_join([*reopen, "--watch"])), console
            )
        local = f"{host_options.own_seat_host(bind)}:{actual}"
        return _unless_unsaved(table, play_at_own_table(server, local, token, console, shell_join(reopen)))
    finally:
        server.stop()
        if table.log is not None:  # melds still held: the reopened table holds them again (ContinuedLog)
            table.log.flush()


def _unless_unsaved(table: Table, status: int, console: Console | None = None) -> int:
    """The host's exit status: 1 where the table's last save failed and its game is not over (it cannot be
    reopened), as a game at the terminal stopped unsaved. ``console``: where to say so (a watching host;
    the host's own seat has said it on leaving)."""
    if table.save_failure is None or table.save_path is None:
        return status
    if console is not None:
        where = escape_controls(str(table.save_path))
        failure = escape_controls(table.save_failure)
        console.print(
            Text(f"The table could not be saved to {where} ({failure}).", style="bold"), soft_wrap=True
        )
    return status if table.game is not None and table.game.game_over else status or 1


LOBBY_HELP = (
    "Type start to begin now (bots take the empty seats), say TEXT to talk to the table, "
    f"{DROP_HELP}, or quit to close it."
)
"""The host's prompt in the lobby: start, say, drop, quit, or wait for the seats to fill."""


def play_at_own_table(server: HostThread, address: str, token: str, console: Console, reopen: str) -> int:
    from kalooki_net.client import TableConnection, table_uri

    from .lobby import said_in_lobby, say_refusal
    from .remote import RemoteGame

    connection = TableConnection(table_uri(address))
    welcome = connection.join(server.table.code, token=token)
    read_line = console_reader(console)
    typed_as_it_started = ""
    if server.table.game is None:
        console.print(
            Text(
                "Type start to begin now (bots take the empty seats), or wait for the seats to fill; "
                "say TEXT talks to the table, drop NAME drops a player's connection, remove NAME removes "
                "them for good, quit closes the table.",
                style="dim",
            )
        )
        while server.table.game is None:
            try:
                line = server.ask(LOBBY_PROMPT, read_line).strip()
            except EOFError:
                closed_at_prompt(server, console, "End of input", reopen, tell_failure=True)
                return 0
            except KeyboardInterrupt as stop:
                closed_at_prompt(server, console, stopped_by(stop), reopen, tell_failure=True)
                return stopped_status(stop)
            if server.table.game is not None:
                # The last seat was taken while the prompt waited: the line was typed for the game.
                typed_as_it_started = line
            elif line.lower() == "start":
                connection.send({"type": "start"})
                break
            elif line.lower() in ("quit", "exit", "q"):
                console.print(Text("The table is closed.", style="bold"))
                return 0
            elif said := said_in_lobby(line):
                # Told back to every seat, the host's own lobby lines included ("[table] ann: ...").
                if (refused := say_refusal(said)) is not None:
                    console.print(refused)
                else:
                    connection.send({"type": "say", "text": said})
            elif (command := seat_command(line)) is not None:
                # As at the --watch prompt and in the game: a guest who joined and left the keyboard
                # would otherwise keep the seat from a bot until the host closed the table.
                console.print(Text(server.act_on_seat(*command), style="dim"), soft_wrap=True)
            elif line:
                console.print(Text(LOBBY_HELP, style="dim"))
    keyboard = at_terminal(console)
    if typed_as_it_started and not keyboard:
        # Piped input is read only when a prompt asks: the line answers the game's first prompt.
        read_line = answered_first(typed_as_it_started, read_line, console)
    game = RemoteGame(
        connection,
        welcome,
        console=console,
        read_line=read_line,
        resume_command=reopen,
        close_table=server.stop,
        act_on_seat=server.act_on_seat,
        saved_to=server.table.save_path,
        table_save_failure=lambda: server.table.save_failure,
    )
    if keyboard:
        if typed_as_it_started:
            game.typed.append({"type": "_line", "text": typed_as_it_started})
        game.start_keyboard()
    return game.run()


def answered_first(line: str, read_line: ReadLine, console: Console) -> ReadLine:
    """``read_line``, but its first prompt is answered with ``line``, read before the prompt came."""
    early = [line]

    def read(prompt: str) -> str:
        if not early:
            return read_line(prompt)
        console.print(Text(prompt, style="bold"), end="")  # as console.input shows it, the answer unechoed
        return early.pop()

    return read


def join(
    address: Annotated[
        str,
        typer.Argument(
            metavar="HOST[:PORT]",
            help="The table's address (port 8765 by default), or the browser link its host prints.",
        ),
    ],
    code: Annotated[
        str | None,
        typer.Option("--code", metavar="CODE", help="The table's join code (a link's, when not given)."),
    ] = None,
    name: JoinNameOption = None,
) -> None:
    """Sit at a table someone opened with kalooki host (or take your seat back)."""
    with cli_errors():
        require_net()
    from kalooki_net.client import TableConnectionError, join_code, table_uri

    refuse_bytes(address, "'HOST[:PORT]'")
    refuse_bytes(code or "", "'--code'")
    if name is not None and not name.strip():  # not the login name in its place: a name left out of a script
        raise typer.BadParameter("give a name, not an empty one", param_hint="'--name'")
    if name is not None:  # said here, before the table is even asked
        refuse_seat_name(name.strip())
    address = address.strip()  # pasted with a space: the rejoin command shows it without
    try:
        table_uri(address)
    except TableConnectionError as error:  # a mistyped argument: a usage error, as --port abc is
        raise typer.BadParameter(str(error), param_hint="'HOST[:PORT]'") from None
    try:
        code = join_code(address, code)
    except TableConnectionError as error:
        raise typer.BadParameter(str(error), param_hint="'--code'") from None
    with cli_errors(), stops_as_ctrl_c():
        result = run_join(address, code, name)
    raise typer.Exit(result)


def login_name() -> str:
    """The name a new seat is asked for under when ``--name`` is not given: the login name, where the table
    would take it; else a usage error, before the table is asked."""
    from kalooki_net.client import default_name

    login: str | None = default_name()
    if login is None:
        raise typer.BadParameter(
            f"your login name is no name at a table (one word of at most {MAX_NAME} characters that show, "
            "not 'you'): give yours",
            param_hint="'--name'",
        )
    return login


def run_join(address: str, code: str, name: str | None) -> int:
    from kalooki_net.client import TableConnection, TableConnectionError, table_uri

    from .join_tokens import kept_seat, refusal, token_store
    from .remote import EXIT_LOST, LeftLobby, RemoteGame, TableClosed, read_keyboard

    uri = table_uri(address)
    store = token_store(tokens_dir())  # a token it cannot keep is said, and the game goes on
    seats, damaged = store.read(uri, code)
    if damaged is not None:
        # It is written anew once a seat is taken: said, not replaced in silence.
        where = store.path(uri, code)  # its control characters spelled by print_error, as the reason's
        print_error(
            f"{where}: the seats kept for this table cannot be read ({damaged}): a new seat is asked for"
        )
    kept = kept_seat(seats, name)
    new_name = None if kept else name or login_name()  # a login that is no name: said before asking
    connection = TableConnection(uri)
    try:
        welcome = connection.join(code, token=kept.token) if kept else connection.join(code, name=new_name)
    except TableConnectionError as error:
        if kept is not None and error.code == "removed":
            store.forget(uri, code, kept.token)  # the host removed this player: the token takes no seat again
        if kept is None or error.code != "bad_token":
            # Held by another connection, held off, lost on the way: the seat is still this player's.
            raise refusal(error, kept, seats) from None
        # The table knows no such seat (a new table with the same address and code, or a seat left
        # before the game): only now is its token thrown away, and a new seat asked for.
        store.forget(uri, code, kept.token)
        connection = TableConnection(uri)
        try:
            welcome = connection.join(code, name=name or kept.name or login_name())
        except TableConnectionError as again:
            # The host removed them, which the table's words say: there is no earlier table to speak of.
            if again.code == "removed":
                raise refusal(again, None, []) from None
            # Else the player reads only that the game has started, as though their seat were there.
            raise TableConnectionError(
                f"this table knows no seat of {escape_controls(kept.name)}'s (the one this account kept "
                f"was at an earlier table here), and {again}",
                code=again.code,
            ) from None
    store.keep(uri, code, str(welcome["token"]), int(welcome["seat"]), str(welcome["name"]))
    console = make_console()
    seated = f"You sit at seat {int(welcome['seat']) + 1} as {escape_controls(str(welcome['name']))}."
    console.print(Text(seated, style="bold"))
    # By name: another person on this account may keep a seat at the same table.
    rejoin = shell_join(["kalooki", "join", address, "--code", code, "--name", str(welcome["name"])])
    keyboard = at_terminal(console)
    if keyboard:  # from now: say and quit work while the table waits for the game
        read_keyboard(connection)
    try:
        game = RemoteGame(
            connection,
            welcome,
            console=console,
            read_line=console_reader(console),
            rejoin_command=rejoin,
            prompt_in_lobby=keyboard,
        )
    except TableClosed as closed:  # before the game: a closed table's seats are gone with it
        console.print(Text(closed.sentence(), style="bold"))
        if closed.removed:
            store.forget(uri, code, str(welcome["token"]))
        if closed.lost:  # the seat waits for its token a while (--wait), as after a reload: said how
            console.print(Text(f"Rejoin your seat with: {rejoin}", style="bold"), soft_wrap=True)
        return EXIT_LOST
    except (LeftLobby, KeyboardInterrupt) as leaving:  # quit, the end of input, Ctrl-C, SIGTERM, SIGHUP
        connection.leave()  # a dropped seat would be kept for its player a while
        if isinstance(leaving, KeyboardInterrupt):
            said = f"\n{stopped_by(leaving)}: you left the table before the game started."
            console.print(Text(said, style="bold"))
            return stopped_status(leaving)
        console.print(Text("You left the table before the game started.", style="bold"))
        return 0
    except KalookiError:
        # What the table sent after the welcome is refused (its rules, its first state): the seat it gave is
        # left, so the table does not wait for it, and a new seat's token is not kept for the next join (a
        # seat kept from before stays: its game may be under way, the refusal a proxy's doing).
        connection.leave()
        if kept is None or kept.token != welcome["token"]:
            store.forget(uri, code, str(welcome["token"]))
        raise
    if keyboard:
        game.start_keyboard(reading=True)
    try:
        status = game.run()
    except KalookiError:
        connection.leave()  # a later state refused: the seat is left as quit leaves it, and kept to rejoin
        raise
    if game.removed:
        store.forget(uri, code, str(welcome["token"]))
    return status


def register(app: typer.Typer) -> None:
    app.command("host", short_help="Open a table on the network for friends; bots fill the rest.")(host)
    app.command("join", short_help="Sit at a table someone opened with kalooki host.")(join)


__all__ = ["host", "join", "register", "run_host", "run_join"]
