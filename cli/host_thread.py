"""The table's server for ``kalooki host``: its asyncio loop in a background thread.

The host's own keyboard stays on the main thread (the lobby's ``start>`` prompt, or the play
screen); this thread serves the seats and tells the lobby what happens at the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text

from kalooki.errors import KalookiError
from kalooki.text import escape_controls

from .host_options import DEFAULT_BOT_TIME

if TYPE_CHECKING:
    from kalooki_net.forwarded import TrustedProxies
    from kalooki_net.server import TableServer
    from kalooki_net.table import Table
    from rich.console import Console

LOBBY_PROMPT = "start> "
NET_MISSING = (
    "kalooki host and join need the net extra: pip install 'kalooki[net]' (in a clone: pip install '.[net]')"
)


class NetUnavailable(KalookiError):
    pass


def require_net() -> None:
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise NetUnavailable(NET_MISSING) from None


class HostThread:
    """The table's server on its own asyncio loop, in a background thread."""

    def __init__(
        self, table: Table, bind: str, port: int, bot_pause: float, console: Console, *, watch: bool,
        trusted: TrustedProxies | None = None, allowed: tuple[str, ...] = (),
        bot_time: float = DEFAULT_BOT_TIME,
    ) -> None:  # fmt: skip
        self.table = table
        self.trusted = trusted
        self.allowed = allowed
        """The names besides its addresses and this machine's that browsers may reach the table by."""
        self.console = console
        self.watch = watch
        self.prompt_shown: str | None = None
        """The prompt the host's keyboard waits at (start> in the lobby, or table> when only watching):
        lines told go below it, and a game that starts at start> needs an Enter to show."""
        self.screen = threading.Lock()
        """Held while the prompt is shown or a line is told: the two threads share one terminal, and a
        line told between the prompt's being set and its being printed would land after it on its line."""
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.failure: BaseException | None = None
        self.server: TableServer | None = None
        self.closed = False
        self.bind, self.port, self.bot_pause = bind, port, bot_pause
        self.bot_time = bot_time
        self.thread = threading.Thread(target=self._run, daemon=True, name="kalooki-host")

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._serve())
        except BaseException as error:  # reported by start() in the main thread
            self.failure = error
            self.ready.set()

    async def _serve(self) -> None:
        from kalooki_net.host_names import AllowedHosts
        from kalooki_net.server import TableServer

        from .host_watch import told_to_watcher
        from .web_coach import WebCoach

        def tell(line: str) -> None:
            with self.screen:
                tell_below_prompt(line)

        def tell_below_prompt(line: str) -> None:
            # A host at its own table sees the game on the play screen; the lines are for the lobby.
            prompt = self.prompt_shown
            if line == "The game starts." and prompt == LOBBY_PROMPT:
                line = "The game starts: press Enter to sit down."
            # The end of the game is the play screen's to tell, after the last move: this thread tells it
            # as that move is made, before the host's own seat has shown it.
            if self.watch:
                line = told_to_watcher(self.table, line)
            if self.watch or self.table.game is None or line.startswith("The game starts"):
                if prompt:
                    self.console.print()  # off the prompt's line
                # A line may quote what a player said: its control characters are spelled out.
                self.console.print(Text(f"[table] {escape_controls(line)}", style="dim"))
                if prompt and (self.watch or self.table.game is None):
                    # The prompt again below it, where the next line is typed.
                    self.console.print(Text(prompt, style="bold"), end="")

        def tell_anyway(text: Text) -> None:
            with self.screen:
                if self.prompt_shown:
                    self.console.print()
                self.console.print(text, soft_wrap=True)
                if self.prompt_shown:
                    self.console.print(Text(self.prompt_shown, style="bold"), end="")

        def tell_failure(message: str) -> None:
            # Said whoever's screen it is, the host's own seat too: a table that is not saved (or logged)
            # cannot be reopened (or replayed), and nothing else would say so.
            tell_anyway(Text(f"✗ {escape_controls(message)}", style="bold red"))

        def tell_bot_fault(line: str) -> None:
            # Said on the host's own seat too, as kalooki play says it on its game screen: the host seated the
            # plug-in, and a table line is otherwise for the lobby and for watching only.
            tell_anyway(Text(f"[table] {escape_controls(line)}", style="bold"))

        def tell_save_failure(reason: str) -> None:
            tell_failure(f"could not save to {self.table.save_path}: {reason}; the game goes on")

        self.table.on_save_failure = tell_save_failure
        self.table.on_log_failure = tell_failure
        self.server = TableServer(
            self.table, bot_pause=self.bot_pause, on_change=tell, advisor=WebCoach(),
            trusted_proxies=self.trusted, allowed_hosts=AllowedHosts(self.allowed, bind=self.bind),
            bot_seconds=self.bot_time, on_bot_fault=tell_bot_fault,
        )  # fmt: skip
        await self.server.start(self.bind, self.port)
        self.port = self.server.port
        self.ready.set()
        await self.server.drive()
        await asyncio.sleep(3600 * 24)  # keep serving the final state until the host stops

    def ask(self, prompt: str, read_line: Callable[[str], str]) -> str:
        """The host's next line, typed at ``prompt``, with the lines told meanwhile kept off its line."""
        with self.screen:
            self.prompt_shown = prompt
            self.console.print(Text(prompt, style="bold"), end="")  # as console.input shows it
        try:
            return read_line("")
        finally:
            with self.screen:
                self.prompt_shown = None

    def start(self) -> int:
        from kalooki_net.signals import signals_stay_with_main

        # The host's thread, and those its loop starts, leave Ctrl-C and SIGTERM to the main thread's prompts.
        with signals_stay_with_main():
            self.thread.start()
        self.ready.wait()
        if self.failure is not None:
            from kalooki_net.listening import bind_failure

            raise NetUnavailable(bind_failure(self.bind, self.port, self.failure))
        return self.port

    def call(self, function_name: str) -> None:
        """Run the server's ``function_name`` on its loop; a refusal (the game started meanwhile) is told."""
        from kalooki_net.table import TableError

        server = self.server
        assert server is not None

        def run() -> None:
            try:
                getattr(server, function_name)()
            except TableError as error:
                server.on_change(str(error))

        self.loop.call_soon_threadsafe(run)

    def act_on_seat(self, command: str, name: str) -> str:
        """``drop`` the connection of the player called ``name`` (``TableServer.drop``), or ``remove`` them
        for good (``TableServer.remove``): the line saying so; with no name, whom to name."""
        from .host_watch import WHOM, WHOM_BEFORE_THE_GAME

        server = self.server
        assert server is not None
        if not name:
            return (WHOM if server.table.game is not None else WHOM_BEFORE_THE_GAME)[command]
        act = server.remove if command == "remove" else server.drop

        async def run() -> str:
            return str(act(name))

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=5)

    def stop(self) -> None:
        """Tell every seat the table closes, and close it (once: the host's own seat may have asked first)."""
        if self.server is not None and self.loop.is_running() and not self.closed:
            self.closed = True
            future = asyncio.run_coroutine_threadsafe(self.server.close("the host stopped"), self.loop)
            # Closing is best effort: the save is already on disk.
            with contextlib.suppress(Exception):
                future.result(timeout=5)
