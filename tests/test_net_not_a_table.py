"""`kalooki join` at a port where something that is no kalooki table answers: said so, in one line."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from kalooki_cli.app import app
from net_helpers import TIMEOUT
from typer.testing import CliRunner


@contextmanager
def answering(reply: bytes) -> Iterator[int]:
    """A port on 127.0.0.1 where something that is no table reads each request and sends ``reply``."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(TIMEOUT)

    def answer() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = server.accept()
                with connection:
                    connection.recv(65536)
                    connection.sendall(reply)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (b"SSH-2.0-OpenSSH_9.0\r\n", "what answers there is not a kalooki table: its answer is not HTTP"),
        (
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot here\n",
            "what answers there is not a kalooki table: it answered HTTP 404",
        ),
        (
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 31\r\n\r\nToo many connections from you.\n",
            "the connection was refused (HTTP 503: Too many connections from you.)",
        ),
        (b"", "it closed the connection unanswered (a kalooki table that is full does: try again later)"),
    ],
    ids=["not HTTP", "HTTP 404", "a table's refusal", "closed"],
)
def test_what_answers_at_a_port_that_is_no_table_is_said_to_be_none(reply: bytes, said: str) -> None:
    # Each said the library's words: "did not receive a valid HTTP response" of a server that is no table.
    with answering(reply) as port:
        result = CliRunner().invoke(app, ["join", f"127.0.0.1:{port}", "--code", "ABC123"])
    assert result.exit_code == 1, result.output
    assert result.output.strip() == f"cannot reach the table at ws://127.0.0.1:{port}/: {said}"
