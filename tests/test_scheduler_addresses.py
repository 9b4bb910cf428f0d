"""``--scheduler`` addresses: one that cannot be an address is a usage error naming what is wrong (exit 2),
a scheme Dask does not speak is refused as such, and nothing listening is said so whatever the scheme."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

pytest.importorskip("distributed", reason="the cluster extra is not installed")


def run(command: str, address: str) -> tuple[int, str]:
    extra = ["--grid", "jokers=2,4"] if command == "sweep" else []
    result = CliRunner().invoke(app, [command, "classic", *extra, "-n", "2", "--scheduler", address])
    return result.exit_code, result.output


def free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:  # a port nobody listens on once it is closed
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("command", ["simulate", "sweep"])
@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("tcp://127.0.0.1:99999", "port 99999 is out of range: a port is 1 to 65535"),
        ("tcp://127.0.0.1:0", "port 0 is out of range: a port is 1 to 65535"),
        ("tcp://[::1", "the host's brackets do not close: an IPv6 address is [::1]:PORT"),
        ("tcp://::1:8786", "an IPv6 address goes in brackets: [::1]:8786"),
        (
            "http://127.0.0.1:1",
            "Dask does not speak http://: give tcp://HOST:PORT (or tls://, ws://, wss://, ucx://)",
        ),
        ("inproc://127.0.0.1/1/1", "an in-process address names no scheduler here: give tcp://HOST:PORT"),
    ],
)
def test_an_address_that_cannot_be_one_is_a_usage_error(command: str, address: str, said: str) -> None:
    code, output = run(command, address)
    assert code == 2
    assert f"{address}: {said}" in " ".join(output.replace("│", " ").split())
    assert "Traceback" not in output


@pytest.mark.parametrize("scheme", ["tcp", "tls", "ws", "wss"])
@pytest.mark.parametrize("host", ["127.0.0.1", "[::1]"])
def test_nothing_listening_is_said_so_whatever_the_scheme(scheme: str, host: str) -> None:
    try:
        port = free_port(host.strip("[]"))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    address = f"{scheme}://{host}:{port}"
    code, output = run("simulate", address)
    assert code == 1
    assert output.strip() == f"{address}: no Dask scheduler answered (Connection refused)"


def test_spaces_pasted_around_an_address_are_dropped() -> None:
    # " tcp://..." was read as the scheme " tcp": "Dask does not speak  tcp://".
    port = free_port("127.0.0.1")
    code, output = run("simulate", f"  tcp://127.0.0.1:{port} ")
    assert (code, output.strip()) == (
        1,
        f"tcp://127.0.0.1:{port}: no Dask scheduler answered (Connection refused)",
    )


def test_a_sweep_makes_no_out_folder_for_a_scheduler_that_does_not_answer(tmp_path: Path) -> None:
    # The folder was made first, and then held a sweep of no game that refused any other sweep's options.
    port = free_port("127.0.0.1")
    lab = tmp_path / "lab"
    address = f"tcp://127.0.0.1:{port}"
    result = CliRunner().invoke(
        app,
        ["sweep", "classic", "--grid", "jokers=2,4", "-n", "2", "--scheduler", address, "--out", str(lab)],
    )
    assert (result.exit_code, result.output.strip()) == (
        1,
        f"{address}: no Dask scheduler answered (Connection refused)",
    )
    assert not lab.exists()
