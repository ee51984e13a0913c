"""Who is calling from where: the client address that per-address limits count.

The address is the connection's peer (`context.peer()`), unless that peer is a proxy the operator
trusts (FLOTILLA_TRUSTED_PROXIES, CIDRs). Then one rule: only the header the trusted proxies write
(FLOTILLA_FORWARDED_HEADER: `x-forwarded-for`, the default, or RFC 7239 `forwarded`'s `for=`) is
read, every line of it in order, and the address is the right-most hop in it that is not itself a
trusted proxy (a malformed or obfuscated hop ends the walk: nothing left of it is trusted). The
other header is never read, so a client's own `forwarded` (or `x-forwarded-for`) cannot pick its
address wherever it sits; a client's own copy of the read header sits left of what the proxies
appended, so it counts only when every hop right of it is a trusted proxy. A header from any other
peer is ignored. IPv6 addresses count per /64 (what one subscriber gets), IPv4 addresses one by one.

A call the browser bridge (gateway/browser.py) forwards comes from this gateway's own loopback
channel: its connection is the browser's, which the bridge names in the `flotilla-bridge-peer`
metadata together with this gateway's random bridge key (a header without the key is ignored).
"""

from __future__ import annotations

import hmac
import ipaddress
import re
from collections.abc import Iterable, Sequence
from typing import Any

import grpc

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
IPV6_PREFIX = 64
BRIDGE_HEADER = "flotilla-bridge-peer"  # "<bridge key> <browser host:port>", set by gateway/browser.py
XFF, FORWARDED = "x-forwarded-for", "forwarded"
FORWARDED_HEADERS = (XFF, FORWARDED)  # the values of FLOTILLA_FORWARDED_HEADER
_FORWARDED_FOR = re.compile(r'(?:^|;)\s*for\s*=\s*"?\[?([^\]";,]+)', re.IGNORECASE)


def trusted_networks(text: str) -> tuple[Network, ...]:
    """FLOTILLA_TRUSTED_PROXIES parsed: comma-separated addresses or CIDRs; ValueError when malformed."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip())


def forwarded_header(text: str) -> str:
    """FLOTILLA_FORWARDED_HEADER checked: the one header trusted proxies write; ValueError otherwise."""
    name = text.strip().lower()
    if name not in FORWARDED_HEADERS:
        msg = f"FLOTILLA_FORWARDED_HEADER must be one of {', '.join(FORWARDED_HEADERS)}, not {text[:40]!r}"
        raise ValueError(msg)
    return name


def peer_ip(peer: str) -> Address | None:
    """The IP of a grpc peer string (`ipv4:1.2.3.4:5`, `ipv6:[::1]:5`); None for others (unix sockets)."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        host = rest.rpartition(":")[0]
    elif kind == "ipv6":
        host = rest.rpartition(":")[0].strip("[]")
    else:
        return None
    try:
        return ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return None


def _parse(text: str) -> Address | None:
    text = text.strip().strip('"')
    if text.startswith("["):  # [v6]:port
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # v4:port
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def forwarded_hops(metadata: Iterable[tuple[str, Any]], header: str = XFF) -> list[Address | None]:
    """The addresses of `header` (every line, in order; None for a malformed or obfuscated hop)."""
    hops: list[Address | None] = []
    for key, value in metadata:
        if key != header:
            continue
        text = value if isinstance(value, str) else value.decode(errors="replace")
        if header == FORWARDED:
            hops += [_parse(element) for element in _forwarded_for(text)]
        else:
            hops += [_parse(part) for part in text.split(",")]
    return hops


def _forwarded_for(text: str) -> list[str]:
    """The `for=` of each element of a `forwarded` value ("" for an element without one)."""
    found = []
    for element in text.split(","):
        match = _FORWARDED_FOR.search(element)
        found.append(match.group(1) if match else "")
    return found


def subject(address: Address) -> str:
    """The per-address limits' subject: the IPv4 address, or the IPv6 address's /64."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


def bridged_peer(context: grpc.aio.ServicerContext[Any, Any], key: str | None) -> str | None:
    """The browser connection (`host:port`, v6 hosts in brackets) of a call the browser bridge
    forwarded with this gateway's bridge `key`; None for any other call."""
    if key is None:
        return None
    metadata: Any = context.invocation_metadata() or ()
    for name, value in metadata:
        if name == BRIDGE_HEADER:
            given, _, peer = str(value).partition(" ")
            return peer if hmac.compare_digest(given.encode(), key.encode()) else None
    return None


def client_address(
    context: grpc.aio.ServicerContext[Any, Any],
    trusted: Sequence[Network],
    bridge_key: str | None = None,
    header: str = XFF,
) -> str:
    """The subject of the calling client's address (see the module docstring)."""
    browser = bridged_peer(context, bridge_key)
    peer = (context.peer() or "") if browser is None else f"browser:{browser}"
    ip = peer_ip(peer) if browser is None else _parse(browser)
    if ip is None:
        return peer
    if trusted and any(ip in net for net in trusted):
        metadata: Any = context.invocation_metadata() or ()
        for hop in reversed(forwarded_hops(metadata, header)):
            if hop is None:
                break  # a malformed hop: trust nothing before it
            ip = hop
            if not any(hop in net for net in trusted):
                break
    return subject(ip)
