"""What the table's port answers over plain HTTP, before any WebSocket: the page, or a refusal.

Every request goes through :meth:`HttpGate.process_request`. A plain request (no upgrade) gets the
browser page (:mod:`kalooki_net.web`). An upgrade whose ``Origin`` is another site's is refused (403),
so a web page elsewhere cannot open a connection to the table from a visitor's browser; clients that
send no ``Origin`` (``kalooki join``) are let in. A browser's request (the page, or an upgrade with an
``Origin``) for a name the table does not go by is refused too (403): a page elsewhere could otherwise
rename its own site to the table's address (DNS rebinding, :mod:`kalooki_net.host_names`).
"""

from __future__ import annotations

import http
from collections.abc import Callable
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from .admission import CountedConnection
from .host_names import AllowedHosts, header_name, is_host_name
from .web import bad_request, page_response

TOLD_NAMES = 8
"""Names a browser was refused for that the host's terminal is told of: a flood of names is not."""

ONE_VALUE_HEADERS = ("Host", "Upgrade", "Origin")
"""The headers the table reads to answer a request, each of which a request may send once."""


def origin_site(origin: str) -> str | None:
    """The ``host:port`` an ``Origin`` header names; None when it names no site (``null``, not a URL)."""
    try:
        return urlsplit(origin).netloc or None
    except ValueError:  # "http://[::1", an unclosed IPv6 address
        return None


class HttpGate:
    """The table's answers to HTTP requests; ``tell`` says a line on the host's terminal."""

    def __init__(self, allowed_hosts: AllowedHosts, tell: Callable[[str], None]) -> None:
        self.allowed_hosts = allowed_hosts
        """The names a browser may ask for the table by (its addresses and this machine's, by default)."""
        self.refused_names: set[str] = set()
        """The names a browser was refused for, told on the host's terminal (:data:`TOLD_NAMES` at most)."""
        self.tell = tell

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Let WebSocket upgrades through (from this site or from a non-browser client); serve the page."""
        if isinstance(connection, CountedConnection) and not connection.admit_client():
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "Too many connections from you.\n")
        headers: Headers = request.headers
        repeated = next((name for name in ONE_VALUE_HEADERS if len(headers.get_all(name)) > 1), None)
        if repeated is not None:
            # Which of two Hosts or Origins counts is anyone's guess: the request is refused, not guessed at.
            return bad_request(f"Send one {repeated} header, not {len(headers.get_all(repeated))}.")
        host = headers.get("Host")
        upgrade = headers.get("Upgrade", "").lower() == "websocket"
        if (not upgrade or "Origin" in headers) and (host is None or not self.allowed_hosts.allows(host)):
            # A missing or empty Host is no host[:port] either: every browser sends the name it asked by,
            # and a request that hides it is not served the page as if it had named the table.
            if host is None:
                return connection.respond(
                    http.HTTPStatus.FORBIDDEN, "This table does not answer a request with no Host header.\n"
                )
            return self.refuse_name(connection, header_name(host) or "")
        if not upgrade:
            # websockets keeps the method of requests it reads (17+); an older one reads only GETs.
            return page_response(request.path, getattr(request, "method", "GET"), host)
        origin = headers.get("Origin")
        if origin is not None and (host is None or origin_site(origin) != host):
            return connection.respond(
                http.HTTPStatus.FORBIDDEN, "Connections from other sites are refused.\n"
            )
        return None

    def refuse_name(self, connection: ServerConnection, name: str) -> Response:
        """Refuse a browser's request for a name the table does not go by (:mod:`kalooki_net.host_names`),
        saying on the host's terminal, the first few times, how to allow it if players use it."""
        valid = is_host_name(name)
        if valid and name not in self.refused_names and len(self.refused_names) < TOLD_NAMES:
            self.refused_names.add(name)
            self.tell(
                f"A browser asked for this table as {name}, a name it does not answer to: if players reach "
                f"it by that name, open the table again with --allow-host {name}"
            )
        allow = f": its host may allow it with kalooki host --allow-host {name}" if valid else ""
        shown = name if valid else "in the request's Host header"
        return connection.respond(
            http.HTTPStatus.FORBIDDEN, f"This table does not answer to the name {shown}{allow}.\n"
        )
