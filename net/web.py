"""The browser page: a few static files served by the table itself, on the WebSocket's own port.

``kalooki host`` answers plain HTTP requests (those without ``Upgrade: websocket``) from
:meth:`HttpGate.process_request <kalooki_net.http_gate.HttpGate.process_request>`, which calls
:func:`page_response`. The files live in ``net/web/`` and ship in the wheel: plain HTML, CSS
and JavaScript modules, no build step, nothing fetched from anywhere else.

Every answer carries a strict Content-Security-Policy (scripts, styles and connections from
this host only, no inline script, no frames), ``nosniff``, and ``Referrer-Policy: no-referrer``
(the join link holds the table's code; it must not leak to another site).
"""

from __future__ import annotations

import http
import re
from functools import cache
from importlib import resources
from urllib.parse import urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Response

PAGES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/table.js": ("table.js", "text/javascript; charset=utf-8"),
    "/cards.js": ("cards.js", "text/javascript; charset=utf-8"),
    "/sheets.js": ("sheets.js", "text/javascript; charset=utf-8"),
    "/kept.js": ("kept.js", "text/javascript; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/picks.js": ("picks.js", "text/javascript; charset=utf-8"),
    "/handend.js": ("handend.js", "text/javascript; charset=utf-8"),
    "/page.js": ("page.js", "text/javascript; charset=utf-8"),
    "/connection.js": ("connection.js", "text/javascript; charset=utf-8"),
    "/game.js": ("game.js", "text/javascript; charset=utf-8"),
    "/moves.js": ("moves.js", "text/javascript; charset=utf-8"),
    "/table.css": ("table.css", "text/css; charset=utf-8"),
}
"""Every path the page is made of, and what it is; any other path is 404."""

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The policy of every answer. ``'self'`` covers the page's WebSocket in browsers that follow CSP
level 3; :func:`content_security_policy` also names the table's ``ws://`` address for the others."""
HOST = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
"""A ``Host`` header that is a name or an address and a port, and nothing else."""
SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cache-Control", "no-cache"),
)


@cache
def page_file(name: str) -> bytes:
    return (resources.files(__package__) / "web" / name).read_bytes()


def page_weight() -> int:
    """The bytes of every file of the page, as served (uncompressed)."""
    return sum(len(page_file(name)) for name, _ in set(PAGES.values()))


def content_security_policy(host: str | None) -> str:
    """The policy, with the page's own WebSocket address named when the ``Host`` header is a clean one."""
    if host is None or not HOST.fullmatch(host):
        return CONTENT_SECURITY_POLICY
    return CONTENT_SECURITY_POLICY.replace(
        "connect-src 'self'", f"connect-src 'self' ws://{host} wss://{host}"
    )


def _response(status: http.HTTPStatus, content_type: str, body: bytes, host: str | None = None) -> Response:
    headers = Headers(SECURITY_HEADERS)
    headers["Content-Security-Policy"] = content_security_policy(host)
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    return Response(status.value, status.phrase, headers, body)


def bad_request(reason: str) -> Response:
    """A ``400`` for a request the table cannot read (``reason`` says what to send instead)."""
    return _response(http.HTTPStatus.BAD_REQUEST, "text/plain; charset=utf-8", f"{reason}\n".encode())


def requested_path(target: str) -> str | None:
    """The path of a request's target, without its query; None for a target that is no URL at all.

    ``GET //[ HTTP/1.1`` (a target that reads as an address in brackets never closed) made ``urlsplit``
    raise: answered 500, with a traceback on the host's terminal over its prompt, for each such request.
    """
    try:
        return urlsplit(target).path
    except ValueError:
        return None


def page_response(path: str, method: str = "GET", host: str | None = None) -> Response:
    """The answer to a plain HTTP request (the query string is the page's own business).

    Only ``GET`` reads the page (``HEAD`` too, without the body); nothing here takes a request body.
    """
    if method not in ("GET", "HEAD"):
        response = _response(
            http.HTTPStatus.METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", b"Only GET is answered here.\n"
        )
        response.headers["Allow"] = "GET, HEAD"
        return response
    found = PAGES.get(requested_path(path) or "")
    if found is None:
        response = _response(http.HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"Not found.\n", host)
    else:
        name, content_type = found
        response = _response(http.HTTPStatus.OK, content_type, page_file(name), host)
    if method == "HEAD":
        response = Response(response.status_code, response.reason_phrase, response.headers, b"")
    return response


__all__ = [
    "CONTENT_SECURITY_POLICY",
    "PAGES",
    "bad_request",
    "content_security_policy",
    "page_response",
    "page_weight",
]
