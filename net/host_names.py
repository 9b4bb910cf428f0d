"""The names a browser may reach the table by: the guard against DNS rebinding.

A web page elsewhere cannot open a connection to the table from a visitor's browser: its ``Origin``
is another site's (:mod:`kalooki_net.server`). Unless that page's own name is made to point at the
table's address after it loaded (DNS rebinding): its requests then reach the table as same-site ones,
``Origin`` and ``Host`` alike naming the page's site. So a browser's request (the page, or an upgrade
that sends an ``Origin``) is answered only when its ``Host`` is a name the table goes by: an IP address,
``localhost`` or a name under ``.localhost``, this machine's own name (whole, its first part alone,
and that part under ``.local``, as a network's mDNS gives it), the address the table was told to
listen on, and the names the host allows (``kalooki host --allow-host``: behind a proxy, the name
players reach it by), as Vite's ``server.allowedHosts`` and Django's ``ALLOWED_HOSTS`` do. Clients
that send no ``Origin`` (``kalooki join``) are no browser page's, and are let in by whatever name
they were given.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable

from kalooki.text import clipped

_LABEL = r"(?!-)[a-z0-9_-]{1,63}(?<!-)"
_NAME = re.compile(rf"\.?{_LABEL}(?:\.{_LABEL})*")
"""A host name (letters, digits, hyphens and, as Windows names have them, underscores in dot-separated
labels), a leading dot for a whole domain."""
MAX_HOST_NAME = 253
"""The longest host name DNS has."""
MAX_PORT = 65535


def host_name(header: str) -> str:
    """The name (or address) a ``Host`` header gives, without its port, in lower case: ``example.org``
    for ``Example.org.:8765``, ``::1`` for ``[::1]:8765``."""
    host = header.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    host = host.rpartition(":")[0] if host.count(":") == 1 else host
    return host.rstrip(".") if host not in (".", "") else host


_HOST_HEADER = re.compile(r"(?:\[[0-9a-fA-F:.]+\]|[^:\[\]]+)(?::[0-9]{1,5})?")
"""A ``Host`` header as a browser writes it: a name or an address, an IPv6 address in brackets, and a port."""


def header_name(header: str) -> str | None:
    """The name (or address) a ``Host`` header gives when it is a ``host[:port]`` as browsers send one;
    None for anything else. ``127.0.0.1:1@evil.com`` was read as ``127.0.0.1`` (the part before its last
    colon), and the page was served to whatever sent it."""
    text = header.strip()
    if _HOST_HEADER.fullmatch(text) is None:
        return None
    port = text.rpartition("]")[2] if text.startswith("[") else text
    if ":" in port and not 1 <= int(port.rpartition(":")[2]) <= MAX_PORT:
        return None  # localhost:99999 was served the page: no browser reaches a port TCP has not
    name = host_name(text)
    if text.startswith("["):
        return name if ":" in name and is_address(name) else None
    return name if is_host_name(name) or is_address(name) else None


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def is_host_name(name: str) -> bool:
    """Whether ``name`` is a host name a host could allow (and a terminal show as it is)."""
    return len(name) <= MAX_HOST_NAME and _NAME.fullmatch(name) is not None and not name.startswith(".")


def parse_allowed(values: Iterable[str]) -> tuple[str, ...]:
    """``--allow-host``'s names, each a host name (``table.example.org``) or a domain and every name
    under it (``.example.org``, that name too); several may be joined by commas. Raises ValueError
    naming a bad one."""
    names: list[str] = []
    for value in values:
        for part in value.split(","):
            name = part.strip().lower().rstrip(".")
            if name.startswith("*.") and is_host_name(name[2:]):
                raise ValueError(
                    f"'{clipped(part.strip())}': write {name[1:]} for that domain and every name under it"
                )
            if name == "*":
                raise ValueError(
                    "'*' would let any page reach the table through a renamed address: name the hosts "
                    "players use (a leading dot allows a domain and every name under it: .example.org)"
                )
            if len(name) > MAX_HOST_NAME or not is_host_name(name.removeprefix(".")):
                raise ValueError(
                    f"'{clipped(part.strip())}' is not a host name (letters, digits, hyphens and dots)"
                )
            names.append(name)
    return tuple(dict.fromkeys(names))


class AllowedHosts:
    """Which ``Host`` a browser's request may name: see the module's text."""

    def __init__(self, names: Iterable[str] = (), *, bind: str = "") -> None:
        own = socket.gethostname().lower().rstrip(".")
        short = own.split(".")[0]  # a Mac's is anne-mac.local; a server's may be its whole DNS name
        self.names = frozenset(
            name for name in ("localhost", own, short, f"{short}.local", host_name(bind), *names) if name
        )
        self.domains = tuple(name for name in self.names if name.startswith("."))

    def allows(self, header: str) -> bool:
        name = header_name(header)
        if name is None:
            return False
        return (
            name in self.names
            or name.endswith(".localhost")
            or any(name.endswith(domain) or name == domain[1:] for domain in self.domains)
            or is_address(name)
        )
