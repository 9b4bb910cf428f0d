"""A table that cannot listen says where and why in one form for every bind: an IPv6 address in
brackets, the empty bind as every address, and the system's words for the reason, not asyncio's; a port
in use says what to do next."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")

KALOOKI = Path(sys.executable).with_name("kalooki")
IN_USE = os.strerror(errno.EADDRINUSE)
# What to do next, said after the reason.
NEXT = "another program listens there (another table?); give another --port, or --port 0 for a free one"


@pytest.mark.parametrize(
    ("host", "where"),
    [
        ("::", "[::]:8765"),
        ("", "every address, port 8765"),
        ("0.0.0.0", "0.0.0.0:8765"),
        ("::1", "[::1]:8765"),
    ],
)
def test_where_is_worded_once_for_every_bind(host: str, where: str) -> None:
    from kalooki_net.listening import bind_failure

    # As asyncio raises it for a bind by host name, and as a socket bound here raises it.
    worded = OSError(errno.EADDRINUSE, f"error while attempting to bind on address ('{host}', 8765): in use")
    for error in (worded, OSError(errno.EADDRINUSE, IN_USE)):
        assert bind_failure(host, 8765, error) == f"cannot open the table on {where}: {IN_USE}: {NEXT}"


def test_a_host_name_not_found_keeps_its_own_reason() -> None:
    from kalooki_net.listening import bind_failure

    error = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert (
        bind_failure("nowhere.invalid", 1, error)
        == "cannot open the table on nowhere.invalid:1: Name or service not known"
    )


@pytest.mark.parametrize(("family", "host"), [(socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")])
def test_a_port_in_use_is_told_where_on_one_line(family: socket.AddressFamily, host: str) -> None:
    try:
        taken = socket.socket(family, socket.SOCK_STREAM)
        taken.bind((host, 0))
    except OSError as error:  # no IPv6 loopback here
        pytest.skip(f"cannot bind {host}: {error}")
    with taken:
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [str(KALOOKI), "host", "--bind", host, "--port", str(port)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
    where = f"[{host}]:{port}" if family == socket.AF_INET6 else f"{host}:{port}"
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines()[-1] == f"cannot open the table on {where}: {IN_USE}: {NEXT}"
