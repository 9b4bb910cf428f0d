"""Where the table listens: one socket for both families when it is to listen on every address.

asyncio opens ``::`` as IPv6 only (it sets ``IPV6_V6ONLY``), so a table opened with ``--bind ::`` was
unreachable at 127.0.0.1 and at the machine's IPv4 address, the one its join line prints; and ``""``
opened a socket per family, each on its own port when the port was 0 (any free one).
"""

from __future__ import annotations

import errno
import os
import socket

EVERY_ADDRESS = ("::", "")
"""The binds that mean every address of both families."""

PORT_IN_USE_ADVICE = (
    "another program listens there (another table?); give another --port, or --port 0 for a free one"
)
"""What a host whose port is taken does next."""

NO_IPV6 = (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EPROTONOSUPPORT, errno.ENOPROTOOPT)


def every_address_socket(port: int) -> socket.socket | None:
    """A socket bound to ``port`` on every IPv6 and IPv4 address, or None where this machine has no
    IPv6 or no dual-stack sockets: the table then listens on IPv4's every address (``0.0.0.0``), the
    family the join line's address is in. A port in use, or not allowed, is raised as binding it is."""
    if not socket.has_ipv6:
        return None
    try:
        listener = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    except OSError:
        return None
    try:
        listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio's own sockets
        listener.bind(("::", port))
    except OSError as error:
        listener.close()
        if error.errno in NO_IPV6:
            return None
        raise
    return listener


def everywhere_v4(host: str) -> str:
    """``host`` as asyncio is to bind it where no dual-stack socket could be had: every address becomes
    IPv4's, whose address the join line prints."""
    return "0.0.0.0" if host in EVERY_ADDRESS else host


def listening_place(host: str, port: int) -> str:
    """Where a table listens, as a message names it: ``host:port``, an IPv6 address in brackets
    (``[::]:8765``, as a URL writes it: its colons would run into the port's), and the empty bind as
    every address."""
    if host == "":
        return f"every address, port {port}"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def bind_failure(host: str, port: int, error: BaseException) -> str:
    """Why the table could not listen at ``host`` and ``port``, worded the same for every bind: asyncio
    words its own failure (``error while attempting to bind on address ('0.0.0.0', 8765): address already
    in use``), a socket bound here has the system's words; both carry the same errno."""
    if isinstance(error, OSError) and error.errno and not isinstance(error, socket.gaierror):
        reason = os.strerror(error.errno)
    else:  # a host name not found has its own numbers, which os.strerror does not know
        reason = getattr(error, "strerror", None) or str(error)
    failure = f"cannot open the table on {listening_place(host, port)}: {reason}"
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        # Most often a table already open there (this host's own, in another window): the message names
        # the way out, since the host who met it only ever typed the default port.
        return f"{failure}: {PORT_IN_USE_ADVICE}"
    return failure
