"""Behind a trusted proxy, wrong join codes count against the client the proxy names, not the proxy.

The addresses in the forwarding headers are what the test client writes there: nothing is contacted.
They are the loopback's own (127.0.0.0/8, and ::1's /64, ``::/64``) or its neighbours in the IPv6
space, so that the count can be told apart per client and per /64.
"""

from __future__ import annotations

import contextlib
import ipaddress
import itertools
import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

import kalooki_net.admission as admission_module
from kalooki_net.admission import MAX_PER_ADDRESS, MAX_WRONG_TRIES, Admission, counted_address
from kalooki_net.forwarded import MAX_HOPS, TrustedProxies, forwarded_for, lockout_address, parse_node
from kalooki_net.protocol import PROTOCOL_VERSION
from net_helpers import TIMEOUT, hosted, ipv6_loopback, new_table, says_reopen
from websockets.exceptions import InvalidStatus, WebSocketException
from websockets.sync.client import connect

KALOOKI = Path(sys.executable).with_name("kalooki")
HELD_OFF = "too many wrong join codes or seat tokens from your address: try again in 10 minutes"


def trusting(*values: str) -> TrustedProxies:
    return TrustedProxies.parse(values)


LOOPBACK = trusting("127.0.0.1")

_MAPPED = ipaddress.IPv6Address(bytes(10) + b"\xff\xff" + ipaddress.IPv4Address("127.0.0.1").packed)
EVERY_ADDRESS = (
    "127.0.0.1/0",
    "::1/0",
    str(ipaddress.ip_network("127.0.0.1/0", strict=False)),
    str(ipaddress.ip_network("::1/0", strict=False)),
    f"{_MAPPED}/96",
)
"""Networks that hold every address (every IPv4 one; every IPv6 one; every IPv4 one written as IPv6),
built from the loopback's: each is '*' under another name."""


def client(xff: list[str] | None = None, forwarded: list[str] | None = None, peer: str = "127.0.0.1") -> str:
    return LOOPBACK.client_address(peer, xff or [], forwarded or [])


# ------------------------------------------------------------ the headers, read


@pytest.mark.parametrize(
    ("node", "address"),
    [
        ("127.0.0.2", "127.0.0.2"),
        ("  127.0.0.2 ", "127.0.0.2"),
        ("127.0.0.2:4711", "127.0.0.2"),
        ("::2", "::2"),
        ("[::2]", "::2"),
        ("[::2]:4711", "::2"),
        ("::ffff:127.0.0.2", "127.0.0.2"),  # IPv4 written as IPv6 is IPv4
        ("[::ffff:127.0.0.2]:80", "127.0.0.2"),
        ("fe80::2%eth0", "fe80::2%eth0"),
    ],
)
def test_an_entry_names_its_address_without_its_port(node: str, address: str) -> None:
    parsed = parse_node(node)
    assert parsed is not None
    assert str(parsed) == address


@pytest.mark.parametrize(
    "node",
    [
        "", " ", "unknown", "_hidden", "_127.0.0.2", "localhost", "127.0.0.2.", "127.0.0", "127.1",
        # 127.0.0.1 in hex, in octal, as one number
        "0x7f.0.0.1", ".".join(["0177", "0", "0", "1"]), "2130706433",
        "127.000.000.002", "١٢٧.0.0.2", "１２７.0.0.2",
        "127.0.0.2:", "127.0.0.2:port", "127.0.0.2:123456", "127.0.0.2:80:80", ":80", "[127.0.0.2]",
        "[127.0.0.2]:80", "[::2", "::2]", "[::2]:", "[::2]80", "[[::2]]", "[::2]:80:80",
        "2:80:80:80:80:80:80:80:80",
        "127.0.0.2\x00", "127.0.0.2\n", "127.0.0.2 127.0.0.3", "1" * 10_000, "[" + "0:" * 40 + "2]",
        "\u202e" + "127.0.0.2"[::-1],  # shown right to left, it reads 127.0.0.2
    ],
)  # fmt: skip
def test_an_entry_that_names_no_address_is_none(node: str) -> None:
    assert parse_node(node) is None


def test_the_client_is_the_right_most_address_no_trusted_proxy_wrote() -> None:
    # Each proxy appends who reached it: what the client sent itself is to the left, and never read.
    assert client(["127.0.0.2"]) == "127.0.0.2"
    assert client(["127.0.0.9, 127.0.0.2"]) == "127.0.0.2"
    assert client(["garbage, \x00, 127.0.0.2"]) == "127.0.0.2"
    assert client(["127.0.0.9", "127.0.0.2"]) == "127.0.0.2"  # sent twice: one list, in order
    assert client(["127.0.0.2:5555"]) == "127.0.0.2"
    # A chain of trusted proxies is read through; when all of it is trusted, the left-most sent it.
    chain = trusting("127.0.0.1", "127.0.1.0/24")
    assert chain.client_address("127.0.0.1", ["127.0.0.2, 127.0.1.5, 127.0.1.6"], []) == "127.0.0.2"
    assert chain.client_address("127.0.0.1", ["127.0.1.7, 127.0.1.5"], []) == "127.0.1.7"


def test_a_trusted_proxy_that_names_no_client_counts_as_itself() -> None:
    for header in ["", " ", ",", "unknown", "_hidden", "127.0.0.2, garbage", "127.0.0.2,", "1.2.3", "\u00e9"]:
        assert client([header]) == "127.0.0.1", header
    assert client() == "127.0.0.1"
    # Through a dual-stack socket the proxy's own address comes as IPv6: still the proxy, as IPv4.
    assert client(["unknown"], peer="::ffff:127.0.0.1") == "127.0.0.1"
    assert client(["127.0.0.2"], peer="::ffff:127.0.0.1") == "127.0.0.2"


def test_a_huge_header_is_read_from_its_right_end_only() -> None:
    many = ", ".join(f"127.0.{n // 250}.{n % 250 + 2}" for n in range(20_000))
    assert client([many]) == "127.0.79.251"
    assert client(["x" * 1_000_000 + ", 127.0.0.2"]) == "127.0.0.2"
    # More trusted proxies in a row than are read: who sent the request cannot be told.
    trusted_hops = ", ".join(["127.0.0.1"] * (MAX_HOPS + 1))
    assert client([trusted_hops]) == "127.0.0.1"
    assert client(["127.0.0.2, " + ", ".join(["127.0.0.1"] * (MAX_HOPS - 1))]) == "127.0.0.2"
    assert client(["127.0.0.2, " + trusted_hops]) == "127.0.0.1"


def test_a_header_from_a_peer_not_trusted_is_ignored() -> None:
    # A guesser that writes a new X-Forwarded-For for each try still counts as its own address.
    assert client(["127.0.0.2"], peer="127.0.0.3") == "127.0.0.3"
    assert client(forwarded=["for=127.0.0.2"], peer="127.0.0.3") == "127.0.0.3"
    assert TrustedProxies().client_address("127.0.0.1", ["127.0.0.2"], []) == "127.0.0.1"
    assert not TrustedProxies()


@pytest.mark.parametrize(
    ("header", "address"),
    [
        ("for=127.0.0.2", "127.0.0.2"),
        ("For=127.0.0.2;proto=https;by=127.0.0.1", "127.0.0.2"),
        ("proto=https; for=127.0.0.2", "127.0.0.2"),
        ('for="[::2]:4711"', "::2"),
        ('for="127.0.0.2:4711"', "127.0.0.2"),
        ('for="\\127.0.0.2"', "127.0.0.2"),  # a quoted pair is the character itself
        ("for=127.0.0.9, for=127.0.0.2", "127.0.0.2"),
        ('for="junk, more junk", for=127.0.0.2', "127.0.0.2"),
        ("for=unknown", "127.0.0.1"),
        ("for=_hidden", "127.0.0.1"),
        ("for=127.0.0.2, for=unknown", "127.0.0.1"),
        ("proto=https", "127.0.0.1"),
        ("for=127.0.0.2;for=127.0.0.3", "127.0.0.1"),
        ("for", "127.0.0.1"),
        ("=127.0.0.2", "127.0.0.1"),
        ('for="[::2]:4711', "127.0.0.1"),
        ("for=[::2]", "::2"),
        ("", "127.0.0.1"),
    ],
)
def test_a_forwarded_header_names_the_client_in_its_last_for(header: str, address: str) -> None:
    assert client(forwarded=[header]) == address


def test_x_forwarded_for_is_read_before_forwarded() -> None:
    # As uvicorn and the common proxies: a proxy that writes only Forwarded removes X-Forwarded-For.
    assert client(["127.0.0.2"], ["for=127.0.0.3"]) == "127.0.0.2"
    assert forwarded_for("by=127.0.0.1") is None


def test_the_count_is_by_ipv4_address_and_ipv6_64() -> None:
    assert lockout_address("127.0.0.2") == "127.0.0.2"
    assert lockout_address("::ffff:127.0.0.2") == "127.0.0.2"
    assert lockout_address("::1") == "::/64"
    assert lockout_address("::2") == lockout_address("::ffff:ffff:ffff:ffff") == "::/64"
    assert lockout_address("0:0:0:1::2") == "0:0:0:1::/64"
    assert lockout_address("fe80::2%eth0") == "fe80::/64"
    assert lockout_address("guesser-1") == "guesser-1"  # no address: a label, as it is


def test_the_open_connections_of_an_ipv6_host_count_by_its_64() -> None:
    # Counted by its raw address, one IPv6 host (which may send from any address of its /64) held every
    # connection the table had, 256, and no one else could join or take a seat back.
    admission = Admission()
    admitted = sum(admission.admit(counted_address(f"2001:db8:1:2::{n:x}")) for n in range(1, 400))
    assert admitted == MAX_PER_ADDRESS
    assert admission.admit(counted_address("2001:db8:1:3::1"))  # the next /64 is someone else
    assert admission.admit(counted_address("127.0.0.7"))
    assert counted_address("::ffff:127.0.0.7") == counted_address("127.0.0.7") == "127.0.0.7"
    # A trusted proxy counts by its own address, and its clients one by one (admit_client).
    assert counted_address("2001:db8:1:2::9", proxy=True) == "2001:db8:1:2::9"


def test_a_table_counts_each_connection_of_an_ipv6_host_against_its_64(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The loopback has one IPv6 address: here each connection the table accepts is read as coming from
    # the next address of one /64, as a host given that /64 may send them.
    addresses = (f"2001:db8:1:2::{number:x}" for number in itertools.count(1))
    monkeypatch.setattr(admission_module, "peer_address", lambda peer: next(addresses))
    admission = Admission(per_address=3, total=64)
    table = new_table(seats=2, seed=9)
    with hosted(table, admission=admission) as host:
        with contextlib.ExitStack() as flood:
            for _ in range(3):
                flood.enter_context(connect(host.uri, open_timeout=TIMEOUT))
            # Closed as soon as made: the client sees a failed handshake or a closed connection.
            with pytest.raises((WebSocketException, OSError)):
                flood.enter_context(connect(host.uri, open_timeout=TIMEOUT))
            assert host.call(lambda: dict(admission.open)) == {"2001:db8:1:2::/64": 3}
        wait_for(lambda: host.call(lambda: admission.count) == 0)


def test_the_trusted_proxies_are_addresses_or_networks() -> None:
    trusted = trusting("127.0.0.1, ::1", "[::1]", "127.0.0.0/8", "::ffff:127.0.0.3", "127.0.1.1/24")
    assert str(trusted) == "127.0.0.1,::1,::1,127.0.0.0/8,127.0.0.3,127.0.1.0/24"
    assert trusting(str(trusted)) == trusted
    for bad, said in [
        ("*", "'*' would believe every client about who it is: name the proxy's address"),
        *(
            (every, f"'{every}' holds every address, so it would believe every client about who it is")
            for every in EVERY_ADDRESS
        ),
        ("localhost", "'localhost' is not an IP address or network"),
        ("", "'' is not an IP address or network"),
        ("127.0.0.1,", "'' is not an IP address or network"),
        ("127.0.0.1/33", "'127.0.0.1/33' is not an IP address or network"),
        ("::1%lo", "'::1%lo' is not an IP address or network"),
        ("１２７.0.0.1", "'１２７.0.0.1' is not an IP address or network"),
    ]:
        with pytest.raises(ValueError, match="^" + re.escape(said)):
            trusting(bad)


# ------------------------------------------------------------ a real table


def try_join(uri: str, code: str, name: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """One join on a new connection with the forwarding headers given; the table's answer to it."""
    with connect(uri, additional_headers=headers or {}, open_timeout=TIMEOUT, compression=None) as websocket:
        websocket.send(json.dumps({"type": "join", "protocol": PROTOCOL_VERSION, "code": code, "name": name}))
        while True:
            message: dict[str, Any] = json.loads(websocket.recv(timeout=TIMEOUT))
            if message["type"] in ("error", "welcome"):
                return message


def guess(uri: str, headers: dict[str, str] | None = None) -> None:
    for _ in range(MAX_WRONG_TRIES):
        assert try_join(uri, "WRONG1", "eve", headers)["code"] == "bad_code"


def xff(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def test_behind_a_trusted_proxy_one_guesser_is_held_off_and_the_others_join() -> None:
    heard: list[str] = []
    table = new_table(seats=4, seed=9)
    with hosted(table, trusted_proxies=LOOPBACK, on_change=heard.append) as host:
        # What a client writes itself is to the left of what the proxy appends: it changes nothing.
        guess(host.uri, xff("127.0.0.9, 127.0.0.2"))
        assert try_join(host.uri, table.code, "eve", xff("127.0.0.2"))["message"] == HELD_OFF
        assert try_join(host.uri, table.code, "eve", xff("127.0.0.10, 127.0.0.2"))["message"] == HELD_OFF
        assert heard == [f"{MAX_WRONG_TRIES} wrong join codes or seat tokens from 127.0.0.2: its joins are "
                         "held off for 10 minutes"]  # fmt: skip
        # Everyone else behind the proxy joins, as does a client its Forwarded header names.
        assert try_join(host.uri, table.code, "ann", xff("127.0.0.3"))["type"] == "welcome"
        assert try_join(host.uri, table.code, "bob", {"Forwarded": "for=127.0.0.4"})["type"] == "welcome"
        # A header that names no one counts as the proxy's own address.
        guess(host.uri, xff("unknown"))
        assert try_join(host.uri, table.code, "cid")["message"] == HELD_OFF
        proxy = f"{MAX_WRONG_TRIES} wrong join codes or seat tokens from 127.0.0.1: its joins are held off"
        assert f"{proxy} for 10 minutes" in heard


def test_a_guesser_that_is_not_the_proxy_cannot_forward_its_way_out() -> None:
    table = new_table(seats=2, seed=9)
    with hosted(table) as host:  # no proxy trusted (the default): the headers are anyone's to write
        for number in range(MAX_WRONG_TRIES):
            assert try_join(host.uri, "WRONG1", "eve", xff(f"127.0.0.{number + 2}"))["code"] == "bad_code"
        assert try_join(host.uri, table.code, "eve", xff("127.0.0.99"))["message"] == HELD_OFF
        assert try_join(host.uri, table.code, "eve", {"Forwarded": "for=127.0.0.99"})["message"] == HELD_OFF


def test_behind_a_trusted_proxy_the_connections_are_capped_by_client_not_for_everyone() -> None:
    # Every connection comes from the proxy: one client holding as many open as one address may (they
    # need not join for 30 seconds, and are opened again) closed everyone else's as soon as it was made.
    admission = Admission(per_address=2, total=64)
    table = new_table(seats=4, seed=9)
    with hosted(table, trusted_proxies=LOOPBACK, admission=admission) as host:
        with contextlib.ExitStack() as flood:
            for _ in range(2):
                flood.enter_context(
                    connect(host.uri, additional_headers=xff("127.0.0.2"), open_timeout=TIMEOUT)
                )
            with pytest.raises(InvalidStatus) as refused:
                flood.enter_context(
                    connect(host.uri, additional_headers=xff("127.0.0.2"), open_timeout=TIMEOUT)
                )
            assert refused.value.response.status_code == 503
            assert try_join(host.uri, table.code, "ann", xff("127.0.0.3"))["type"] == "welcome"
        # Closed, they no longer count: the client is let in again, and nothing is left counted.
        wait_for(lambda: host.call(lambda: admission.clients["127.0.0.2"]) == 0)
        assert try_join(host.uri, table.code, "bob", xff("127.0.0.2"))["type"] == "welcome"
        wait_for(lambda: host.call(lambda: (admission.count, dict(admission.clients))) == (0, {}))


def wait_for(condition: Any) -> None:
    """Until ``condition()`` holds: a closed connection is released on the host's loop, a moment later."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.01)


@pytest.fixture
def ipv6_table() -> Iterator[Any]:
    if not socket.has_ipv6 or not ipv6_loopback():
        pytest.skip("this machine has no IPv6 loopback (::1)")
    heard: list[str] = []
    table = new_table(seats=4, seed=9)
    with hosted(table, bind="::1", trusted_proxies=trusting("::1"), on_change=heard.append) as host:
        yield host, heard


def test_an_ipv6_guesser_is_held_off_by_its_64_whichever_address_it_takes(ipv6_table: Any) -> None:
    host, heard = ipv6_table
    code = host.table.code
    for number in range(MAX_WRONG_TRIES):
        # A fresh address from the same /64 for each try.
        assert try_join(host.uri, "WRONG1", "eve", xff(f"[::{number + 2:x}]:4711"))["code"] == "bad_code"
    assert try_join(host.uri, code, "eve", xff("::ffff:ffff:0:1"))["message"] == HELD_OFF
    assert heard == [f"{MAX_WRONG_TRIES} wrong join codes or seat tokens from ::/64: its joins are held off "
                     "for 10 minutes"]  # fmt: skip
    # The next /64 is someone else; an IPv4 client written as IPv6 counts as IPv4.
    assert try_join(host.uri, code, "ann", xff("0:0:0:1::2"))["type"] == "welcome"
    assert try_join(host.uri, code, "bob", {"Forwarded": 'for="[::ffff:127.0.0.2]"'})["type"] == "welcome"
    # The proxy itself (::1) connecting with no header is held off too: ::1 is in ::/64.
    assert try_join(host.uri, code, "cid")["message"] == HELD_OFF


# ------------------------------------------------------------ kalooki host


def run_host(home: Path, *arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1"}
    command = [str(KALOOKI), "host", "--bind", "127.0.0.1", "--port", "0", "--bot-pause", "0", *arguments]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, timeout=TIMEOUT * 3)


@pytest.mark.parametrize("value", ["nope", "*", "127.0.0.1,", "127.0.0.0/33", *EVERY_ADDRESS])
def test_a_proxy_that_is_no_address_is_a_usage_error(tmp_path: Path, value: str) -> None:
    done = run_host(tmp_path, "--watch", "--trust-proxy", "127.0.0.1", "--trust-proxy", value)
    assert done.returncode == 2
    error = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(error) == 1, done.stderr
    assert error[0].startswith(f"Error: Invalid value for '--trust-proxy': '{value.split(',')[-1]}' "), error
    assert done.stdout == ""  # no table opened
    assert not (tmp_path / "saves").exists()


def test_a_host_behind_a_proxy_logs_the_client_and_reopens_behind_it(tmp_path: Path) -> None:
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "200", "NO_COLOR": "1"}
    command = [str(KALOOKI), "host", "--watch", "--bind", "127.0.0.1", "--port", "0"]
    command += ["--trust-proxy", "127.0.0.1"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    # The one reader of the host's output until it ends: the test reads its lines from the queue.
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()], daemon=True)
    reader.start()
    try:
        join_line = re.compile(r"kalooki join 127\.0\.0\.1:(\d+) --code (\w+)")
        while not (found := join_line.search(lines.get(timeout=TIMEOUT))):
            pass
        uri, code = f"ws://127.0.0.1:{found.group(1)}/", found.group(2)
        guess(uri, xff("127.0.0.2"))
        while "held off" not in (line := lines.get(timeout=TIMEOUT)):
            pass
        said = (
            f"{MAX_WRONG_TRIES} wrong join codes or seat tokens from 127.0.0.2: its joins are held off for 10"
        )
        assert f"[table] {said} minutes" in line
        assert try_join(uri, code, "ann", xff("127.0.0.3"))["type"] == "welcome"
    finally:
        # Not communicate(): it would read the output beside the reader and close it under it.
        assert process.stdin is not None
        process.stdin.write("quit\n")
        process.stdin.close()
        try:
            process.wait(timeout=TIMEOUT)
        finally:
            process.kill()  # a no-op once it has quit
        reader.join(timeout=TIMEOUT)
    # A host at its own table is told how to reopen it: behind the same proxy.
    proxies = ["--trust-proxy", "127.0.0.1", "--trust-proxy", "::1"]
    arguments = ["--seats", "2", "--save", str(tmp_path / "t.json"), *proxies]
    done = run_host(tmp_path, *arguments, stdin="start\nquit\n")
    assert done.returncode == 0, done.stdout + done.stderr
    port = re.search(r"kalooki join 127\.0\.0\.1:(\d+)", done.stdout)
    assert port is not None, done.stdout
    where = "--bind 127.0.0.1 --trust-proxy 127.0.0.1,::1 --bot-pause 0"
    reopen = f"kalooki host --resume {tmp_path / 't.json'} {where} --port {port.group(1)}"
    assert says_reopen(done.stdout, reopen), done.stdout
