"""Whose address a connection counts as, for the wrong tries at the join code: behind a proxy, its client's.

Behind a TLS proxy every connection comes from the proxy, so one guesser would hold off the joins of
everyone. The host may name the proxies it trusts (``kalooki host --trust-proxy``, as uvicorn's
``--forwarded-allow-ips``): a connection from one of them counts as the client its request names, in
``X-Forwarded-For`` or, when there is none, ``Forwarded`` (RFC 7239). Each proxy appends the address it
was reached from, so the list is read from the right, past the trusted proxies, and the first other
address is the client: what a client wrote itself is further left, never read. A header that names no
address there (garbage, ``unknown``, an obfuscated ``_name``) counts the connection as the proxy's own.
A connection from anyone else counts as its own address, whatever its headers say.

The count itself is by :func:`lockout_address`: an IPv4 address as itself, IPv6 by its /64, which a
single home or server is given whole and may pick an address from for each try.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

IPAddress: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork: TypeAlias = ipaddress.IPv4Network | ipaddress.IPv6Network

MAX_HOPS = 16
"""Entries read from the right of a forwarding header, at most: more trusted proxies than this in a row
count the connection as the proxy's own (a header a megabyte long is not read through)."""
MAX_NODE = 64
"""Characters in one entry, at most: the longest address with a scope and a port is well under it."""
IPV6_PREFIX = 64
"""The IPv6 network a wrong try counts against: a /64 is what one home or server is given."""

_PORT = re.compile(r"[0-9]{1,5}")
_BRACKETED = re.compile(r"\[([^\[\]]+)\](?::([^:]*))?")


def parse_node(text: str) -> IPAddress | None:
    """The address one entry of a forwarding header names, without its port; None when it names none.

    Accepted: ``192.0.2.1``, ``192.0.2.1:4711``, ``2001:db8::1``, ``[2001:db8::1]``, ``[2001:db8::1]:4711``.
    Anything else (``unknown``, ``_hidden``, a hostname, ``0x7f.1``, digits in another script) is None.
    An IPv4 address written as IPv6 (``::ffff:192.0.2.1``) is the IPv4 address, as the system gives it.
    """
    node = text.strip(" \t")  # the optional white space of HTTP lists
    if not node or len(node) > MAX_NODE or not node.isascii():
        return None
    host = node
    bracketed = _BRACKETED.fullmatch(node)
    if bracketed is not None:
        host, port = bracketed.group(1), bracketed.group(2)
        if port is not None and not _PORT.fullmatch(port):
            return None
        if ":" not in host:  # brackets are for IPv6 only
            return None
    elif node.count(":") == 1:  # IPv4 with a port; IPv6 has two colons at least
        host, port = node.split(":")
        if not _PORT.fullmatch(port):
            return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def lockout_address(address: str) -> str:
    """What the wrong tries of ``address`` count against: an IPv4 address itself, an IPv6 address's /64.

    ``address`` as it is when it names no IP address (a test's label).
    """
    parsed = parse_node(address)
    if parsed is None:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        plain = ipaddress.IPv6Address(parsed.packed)  # without a scope (%eth0): the network is the same
        return str(ipaddress.IPv6Network((plain, IPV6_PREFIX), strict=False))
    return str(parsed)


def forwarded_for(element: str) -> str | None:
    """The ``for`` value of one element of a ``Forwarded`` header (``for=192.0.2.1;proto=https``), unquoted;
    None when the element has none, or more than one, or is not a list of ``name=value`` pairs."""
    found: list[str] = []
    for pair in element.split(";"):
        name, equals, value = pair.strip().partition("=")
        if not equals or not name:
            return None
        if name.strip().lower() == "for":
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            found.append(value)
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The proxies whose forwarding headers are believed: addresses and networks (none: nobody's)."""

    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(cls, values: Iterable[str]) -> TrustedProxies:
        """From addresses and networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``, several joined by commas).

        Raises ValueError naming the first value that is neither.
        """
        networks: list[IPNetwork] = []
        for value in values:
            for item in value.split(","):
                text = item.strip()
                if text.startswith("[") and text.endswith("]"):
                    text = text[1:-1]
                if text == "*":
                    # uvicorn's word for every peer: here every client could say it is someone else.
                    raise ValueError(
                        "'*' would believe every client about who it is: name the proxy's address"
                    )
                try:
                    if not text.isascii() or "%" in text:
                        raise ValueError(text)
                    network = ipaddress.ip_network(text, strict=False)
                except ValueError:
                    raise ValueError(
                        f"{item.strip()!r} is not an IP address or network: give the proxy's address, "
                        "e.g. 127.0.0.1, ::1 or 10.0.0.0/8"
                    ) from None
                mapped = getattr(network.network_address, "ipv4_mapped", None)
                if mapped is not None and network.prefixlen >= 96:
                    # The system gives an IPv4 peer of a dual-stack socket as IPv4 (parse_node): so is this.
                    network = ipaddress.ip_network(f"{mapped}/{network.prefixlen - 96}")
                if network.prefixlen == 0:
                    # 0.0.0.0/0 or ::/0 holds every address of its kind: it is '*' written as a network.
                    raise ValueError(
                        f"{item.strip()!r} holds every address, so it would believe every client about "
                        "who it is: name the proxy's address"
                    )
                networks.append(network)
        return cls(tuple(networks))

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __str__(self) -> str:
        """As ``--trust-proxy`` takes them: ``127.0.0.1,10.0.0.0/8`` (an address without its /32)."""
        return ",".join(
            str(network.network_address) if network.prefixlen == network.max_prefixlen else str(network)
            for network in self.networks
        )

    def trusts(self, address: IPAddress) -> bool:
        return any(address.version == network.version and address in network for network in self.networks)

    def is_proxy(self, peer: str) -> bool:
        """Whether ``peer`` (a connection's own address) is a trusted proxy's."""
        address = parse_node(peer) if self.networks else None
        return address is not None and self.trusts(address)

    def client_address(self, peer: str, x_forwarded_for: Sequence[str], forwarded: Sequence[str]) -> str:
        """The address a connection from ``peer`` counts as, given its request's forwarding headers (each
        header's values in the order sent): ``peer`` unless it is a trusted proxy that names its client."""
        proxy = parse_node(peer)
        if proxy is None or not self.trusts(proxy):
            return peer  # anyone may send the headers: only a trusted proxy's are read
        if x_forwarded_for:
            # A header sent several times is one list, in order (RFC 9110, 5.3).
            entries = ",".join(x_forwarded_for).rsplit(",", MAX_HOPS)
            nodes = [parse_node(entry) for entry in reversed(entries[-MAX_HOPS:])]
        elif forwarded:
            entries = ",".join(forwarded).rsplit(",", MAX_HOPS)
            nodes = [parse_node(forwarded_for(entry) or "") for entry in reversed(entries[-MAX_HOPS:])]
        else:
            return str(proxy)
        for node in nodes:
            if node is None:
                return str(proxy)  # who came before cannot be told: the proxy's own address
            if not self.trusts(node):
                return str(node)
        # Every address is a trusted proxy's: the left-most sent it, unless the list went on past it.
        return str(nodes[-1]) if len(entries) <= MAX_HOPS else str(proxy)


__all__ = ["MAX_HOPS", "TrustedProxies", "forwarded_for", "lockout_address", "parse_node"]
