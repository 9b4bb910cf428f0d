"""What ``kalooki host`` answers a plain HTTP request for a target that is no page: ``404``, and nothing on
the host's terminal."""

from __future__ import annotations

import queue
import socket
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from net_helpers import TIMEOUT
from test_net_host_process import start_host


def answer(port: int, target: bytes) -> bytes:
    """The status line the table answers ``GET target`` with, asked by its own address."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as connection:
        connection.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        told = b""
        while b"\r\n" not in told and (chunk := connection.recv(4096)):
            told += chunk
    return told.split(b"\r\n", 1)[0]


@pytest.mark.parametrize("target", [b"//[", b"//a]", b"http://[x]/", b"//[::1"])
def test_a_target_that_is_no_url_is_not_found_and_the_host_says_nothing(
    tmp_path: Path, target: bytes
) -> None:
    # Read as an address in brackets never closed (or no address), it made the URL parser raise: answered
    # 500, with a traceback printed over the host's prompt, for each request anyone sent.
    heard: queue.Queue[str] = queue.Queue()
    host, uri, _code = start_host(tmp_path, "--seats", "2", heard=heard)
    port = int(uri.rsplit(":", 1)[1].rstrip("/"))
    try:
        found, page = answer(port, target), answer(port, b"/")
    finally:
        assert host.stdin is not None
        host.stdin.close()
        closed = host.wait(TIMEOUT)
    assert (found, page, closed) == (b"HTTP/1.1 404 Not Found", b"HTTP/1.1 200 OK", 0)
    printed = list(heard.queue)
    assert not [line for line in printed if "Traceback" in line or "Error" in line], printed
