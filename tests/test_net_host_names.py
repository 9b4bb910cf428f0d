"""The names a browser may reach a table by: a page elsewhere renamed to the table's address (DNS
rebinding) is refused, as a page elsewhere is by its ``Origin``; ``kalooki join`` is let in by any name.

A real table on 127.0.0.1 is asked over raw HTTP with the ``Host`` header each case sends, as a
browser would send it after a page's name was made to point at the table.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from kalooki_net.host_names import AllowedHosts, host_name, parse_allowed
from net_helpers import TIMEOUT, hosted, new_table
from websockets.sync.client import connect

KALOOKI = Path(sys.executable).with_name("kalooki")
UPGRADE = (
    "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
)


def answer(port: int, host: str | None, *headers: str) -> str:
    """The table's whole answer to a GET of its page sent with ``Host: host`` (None: no Host header at
    all) and ``headers``."""
    sent = [] if host is None else [f"Host: {host}"]
    request = "\r\n".join(["GET / HTTP/1.1", *sent, *headers]) + "\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(request.encode())
        received = b""
        # A refusal or the page is sent whole and the connection closed; an upgrade stays open.
        while not (b"\r\n\r\n" in received and b" 101 " in received[:20]):
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    return received.decode(errors="replace")


def status(port: int, host: str | None, *headers: str) -> str:
    return answer(port, host, *headers).split("\r\n")[0]


def test_a_host_header_is_read_as_browsers_send_it() -> None:
    assert host_name("Table.Example.org.:8765") == "table.example.org"
    assert host_name("[::1]:8765") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert parse_allowed(["table.example.org", ".Example.NET,kalooki.lan"]) == (
        "table.example.org",
        ".example.net",
        "kalooki.lan",
    )
    allowed = AllowedHosts(["table.example.org", ".example.net"])  # addresses without a --bind
    for name in (
        "127.0.0.1:1",
        "[::1]:1",
        "[::ffff:127.0.0.1]",
        "localhost:1",
        "a.localhost",
        "table.example.org:1",
    ):
        assert allowed.allows(name), name
    for name in ("example.net", "www.example.net:443", f"{socket.gethostname()}:1"):
        assert allowed.allows(name), name
    for name in (
        "evil.example",
        "table.example.org.evil",
        "localhost.evil",
        "notexample.net",
        "127-0-0-1.nip.io",  # a name that spells an address is a name
        # No host[:port] at all (a browser never sends one): each was read as the address before its colon.
        "127.0.0.1:1@evil.com",
        "127.0.0.1:x",
        "127.0.0.1:1:2",
        "[::1]x",
        "[evil.com]:1",
        "::1",
        "evil@127.0.0.1",
        ":8765",
    ):
        assert not allowed.allows(name), name


@pytest.mark.parametrize("value", ["*", "two words", "-lead.example", "a..b", "x" * 254, "*.example.org"])
def test_a_name_that_is_no_host_name_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match=r"host name|'\*'|write \.example\.org for that domain"):
        parse_allowed([value])


def test_the_machines_own_names_are_its_whole_name_its_first_part_and_that_under_local(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A Mac's name is anne-mac.local: its bare name was refused, and anne-mac.local.local allowed.
    monkeypatch.setattr(socket, "gethostname", lambda: "Anne-Mac.local")
    assert AllowedHosts().names == {"localhost", "anne-mac.local", "anne-mac"}
    monkeypatch.setattr(socket, "gethostname", lambda: "my_pc")  # Windows names may hold underscores
    assert AllowedHosts().allows("my_pc:8765")
    assert AllowedHosts().allows("my_pc.local")
    assert parse_allowed(["table_1.lan"]) == ("table_1.lan",)


def test_a_browser_asking_by_another_name_is_refused_and_the_host_told_once() -> None:
    heard: list[str] = []
    with hosted(new_table(seats=2), on_change=heard.append) as host:
        port = host.server.port
        rebound = f"rebound.example:{port}"
        origin = f"Origin: http://{rebound}"
        # The page, and an upgrade whose Origin agrees with its Host: both from the renamed site.
        assert status(port, rebound) == "HTTP/1.1 403 Forbidden"
        refused = answer(port, rebound, UPGRADE, origin)
        assert refused.startswith("HTTP/1.1 403 Forbidden")
        assert refused.endswith(
            "This table does not answer to the name rebound.example: its host may allow it with "
            "kalooki host --allow-host rebound.example.\n"
        )
        # A name no host could allow is not echoed back, nor told; nor a header that is no host[:port]
        # (127.0.0.1:1@evil.com was served the page).
        for header in (f"bad!name.example:{port}", "127.0.0.1:1@evil.com"):
            refused = answer(port, header)
            assert refused.startswith("HTTP/1.1 403 Forbidden"), header
            assert refused.endswith("This table does not answer to the name in the request's Host header.\n")
        assert [line for line in heard if "--allow-host" in line] == [
            "A browser asked for this table as rebound.example, a name it does not answer to: if players "
            "reach it by that name, open the table again with --allow-host rebound.example"
        ]
        # Its own addresses and localhost are served; a client with no Origin is no page elsewhere's.
        assert status(port, f"127.0.0.1:{port}") == "HTTP/1.1 200 OK"
        assert status(port, f"localhost:{port}") == "HTTP/1.1 200 OK"
        assert status(port, rebound, UPGRADE) == "HTTP/1.1 101 Switching Protocols"
        own = f"Origin: http://localhost:{port}"
        assert status(port, f"localhost:{port}", UPGRADE, own) == "HTTP/1.1 101 Switching Protocols"


def test_a_name_the_host_allows_is_served() -> None:
    allowed = AllowedHosts(parse_allowed(["table.example.org"]))
    with hosted(new_table(seats=2), allowed_hosts=allowed) as host:
        port = host.server.port
        name = f"table.example.org:{port}"
        assert status(port, name) == "HTTP/1.1 200 OK"
        origin = f"Origin: http://{name}"
        assert status(port, name, UPGRADE, origin) == "HTTP/1.1 101 Switching Protocols"
        with connect(host.uri, open_timeout=TIMEOUT):  # kalooki join's way, unchanged
            pass


def run_host(home: Path, *arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1"}
    command = [str(KALOOKI), "host", "--bind", "127.0.0.1", "--port", "0", "--bot-pause", "0", *arguments]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, timeout=TIMEOUT * 3)


@pytest.mark.parametrize("value", ["*", "evil example", "a..b"])
def test_allow_host_with_no_host_name_is_a_usage_error(tmp_path: Path, value: str) -> None:
    done = run_host(tmp_path, "--watch", "--allow-host", "table.example.org", "--allow-host", value)
    assert done.returncode == 2
    error = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(error) == 1, done.stderr
    assert error[0].startswith("Error: Invalid value for '--allow-host': "), error
    assert "…" not in error[0] or len(value) > 60, error  # the message whole: only a long name is clipped
    assert done.stdout == ""  # no table opened


def test_a_host_is_told_how_to_reopen_its_table_by_the_same_names(tmp_path: Path) -> None:
    arguments = ["--seats", "2", "--save", str(tmp_path / "t.json"), "--allow-host", "Table.example.org"]
    done = run_host(tmp_path, *arguments, "--allow-host", ".example.net", stdin="start\nquit\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "--allow-host table.example.org,.example.net --bot-pause 0 --port " in done.stdout


def test_a_request_whose_host_is_missing_empty_or_of_no_port_gets_no_page() -> None:
    # Each was served the page: a request with no Host, or an empty one, was let by unread, and a port
    # of five digits was read as one whatever its value.
    allowed = AllowedHosts()
    for name in ("localhost:65535", "127.0.0.1:1", "[::1]:65535"):
        assert allowed.allows(name), name
    for name in (
        "",
        " ",
        "localhost:99999",
        "localhost:65536",
        "localhost:0",
        "127.0.0.1:00000",
        "[::1]:70000",
    ):
        assert not allowed.allows(name), name
    with hosted(new_table(seats=2)) as host:
        port = host.server.port
        no_host = answer(port, None)
        assert no_host.startswith("HTTP/1.1 403 Forbidden")
        assert no_host.endswith("This table does not answer a request with no Host header.\n")
        for header in ("", "localhost:99999", "[::1]:70000", "localhost:0"):
            refused = answer(port, header)
            assert refused.startswith("HTTP/1.1 403 Forbidden"), header
            assert refused.endswith("This table does not answer to the name in the request's Host header.\n")
        origin = f"Origin: http://localhost:{port}"
        assert status(port, None, UPGRADE, origin) == "HTTP/1.1 403 Forbidden"
        # The page by its own name, and a client that sends no Origin (kalooki join), as before.
        assert status(port, f"localhost:{port}") == "HTTP/1.1 200 OK"
        assert status(port, f"localhost:{port}", UPGRADE, origin) == "HTTP/1.1 101 Switching Protocols"
        with connect(host.uri, open_timeout=TIMEOUT):
            pass
