"""``kalooki host``'s options, read and refused before the table opens (usage errors, exit 2), and the new
table they make."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Annotated

import typer

from kalooki.text import clipped, not_utf8, spell_bytes, undecodable_byte

from .common import load_game_variant, named_bots, refuse_unknown_bots
from .play import DEFAULT_BOT

if TYPE_CHECKING:
    from kalooki_net.forwarded import TrustedProxies
    from kalooki_net.table import Table

TrustProxyOption = Annotated[
    list[str] | None,
    typer.Option(
        "--trust-proxy",
        metavar="ADDR",
        help="A proxy (address or network) whose X-Forwarded-For or Forwarded header names each "
        "client, for holding off guessers at the code (repeatable).",
        show_default=False,
    ),
]
AllowHostOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        metavar="NAME",
        help="A name browsers reach the table by, besides its addresses and this machine's name "
        "(behind a proxy, the proxy's; .example.org: that domain and every name under it; repeatable).",
        show_default=False,
    ),
]


DEFAULT_BOT_PAUSE = 0.7
"""Seconds between the bots' turns at a hosted table (--bot-pause)."""
DEFAULT_BOT_TIME = 60.0
"""Seconds a bot's turn is waited for before safe moves play it (--bot-time): the server's own default,
``kalooki_net.bot_turns.BOT_TURN_SECONDS``, written here so that the help needs no network package."""
HOST_SEED_BITS = 64
"""A table's shuffle seed, when none is given, is drawn from 2**64: each player sees their own hand, and of
the million seeds a game at the terminal draws from, a player tried every one in two minutes and found the
one that dealt it, and with it every other hand and the stock's order."""


def given(ctx: typer.Context, parameter: str) -> bool:
    """Whether ``parameter`` was given (on the command line or through its environment variable), not left
    at its default: an option a resumed table does not take is refused only where it was written."""
    source = ctx.get_parameter_source(parameter)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def refuse_bytes(value: str, hint: str) -> None:
    """An address or a code holding a byte that is not UTF-8 cannot go on the network: a usage error,
    the byte named as a --set value's is (Python's encoder said "surrogates not allowed", or crashed)."""
    byte = undecodable_byte(value)
    if byte is not None:
        message = f"'{clipped(spell_bytes(value))}': {not_utf8(byte[1])}"
        raise typer.BadParameter(message, param_hint=hint)


def trusted_proxies(values: list[str]) -> TrustedProxies:
    """``--trust-proxy``'s addresses, a bad one refused before the table opens (a usage error)."""
    from kalooki_net.forwarded import TrustedProxies

    try:
        return TrustedProxies.parse(values)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="'--trust-proxy'") from None


def allowed_hosts(values: list[str]) -> tuple[str, ...]:
    """``--allow-host``'s names, a bad one refused before the table opens (a usage error)."""
    from kalooki_net.host_names import parse_allowed

    for value in values:
        refuse_bytes(value, "'--allow-host'")
    try:
        names: tuple[str, ...] = parse_allowed(values)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="'--allow-host'") from None
    return names


def own_seat_host(bind: str) -> str:
    """Where the host's own seat reaches its table, opened on ``bind``: IPv4's loopback where it listens
    on every address (``::`` takes IPv4 too, and is IPv4 alone on a machine without IPv6) or on that
    loopback, else the one address it listens on (a table opened on ::1, or on one network's address,
    is not reached at 127.0.0.1)."""
    if bind in ("0.0.0.0", "127.0.0.1", "", "::"):
        return "127.0.0.1"
    if bind == "::1":
        return "[::1]"
    return f"[{bind}]" if ":" in bind else bind


def make_table(
    target: str | None,
    overrides: list[str],
    *,
    seats: int | None,
    bots: str | None,
    seed: int | None,
    wait: float,
) -> Table:
    from kalooki_net.table import Table

    from kalooki.bots import check_bot
    from kalooki.rules import default_players, may_play, player_counts, seating_note

    variant = load_game_variant(target or "classic", overrides)
    kinds = named_bots(bots) or [DEFAULT_BOT]
    refuse_unknown_bots(kinds)
    for kind in kinds:
        # Made once here so that a plug-in written for choose(game) is refused before the table opens,
        # not when the game starts with players seated.
        check_bot(kind)
    count = seats if seats is not None else default_players(variant)
    if not may_play(variant, count):
        raise typer.BadParameter(
            f"{variant.name} is for {player_counts(variant)} players{seating_note(variant)}",
            param_hint="'--seats' / '--players'",
        )
    if len(kinds) > count:
        # The names go seat by seat: one past the last seat was left out without a word.
        raise typer.BadParameter(
            f"{len(kinds)} bots for {count} seats (--seats {count})", param_hint="'--bots'"
        )
    if wait < 0:
        raise typer.BadParameter("a wait is 0 seconds or more", param_hint="'--wait'")
    return Table(
        variant,
        seats=count,
        bots=kinds,
        seed=seed if seed is not None else secrets.randbits(HOST_SEED_BITS),
        variant_source=target or "classic",
        wait_seconds=wait,
    )
