"""The SSRF guard: which network addresses the fetch tool may connect to.

A model chooses the URLs that ``web_fetch`` opens, and a web page chooses where its redirects go,
so by default webtap refuses every address that is not on the public internet: loopback,
private, link-local (the cloud metadata service at 169.254.169.254 included), multicast,
reserved and unspecified, IPv4 and IPv6, and IPv6 forms that carry an IPv4 address (mapped,
compatible, 6to4, Teredo, NAT64) are judged by the address they carry.

The guard is applied twice per hop: :meth:`Guard.check_host` refuses an address written in the
URL itself (in any spelling ``inet_aton`` accepts: ``2130706433``, ``0x7f.1``, ``0177.0.0.1``,
``127.1``) before anything is sent, and the connection layer (``webtap.net``) resolves a name
with the system resolver, checks every address it returns, and connects only to an address it
checked, so DNS rebinding cannot slip a private address in between check and use.

``WEBTAP_ALLOW_PRIVATE_NETWORKS=1`` turns the guard off; ``WEBTAP_ALLOW_NETWORKS`` lists
networks (``10.1.0.0/16,127.0.0.1``) to allow while keeping it on for everything else.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import NamedTuple

from webtap.errors import ConfigError, URLNotAllowed, clip
from webtap.settings import ALLOW_NETWORKS, ALLOW_PRIVATE_NETWORKS

__all__ = [
    "AddressRefused",
    "Guard",
    "IPAddress",
    "IPNetwork",
    "describe",
    "parse_ip_literal",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_HINT = f"set {ALLOW_PRIVATE_NETWORKS.name}=1 to allow private networks"

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network
_THIS_NETWORK = _V4("0.0.0.0/8")
_SHARED = _V4("100.64.0.0/10")
_RFC1918 = (_V4("10.0.0.0/8"), _V4("172.16.0.0/12"), _V4("192.168.0.0/16"))
_BROADCAST = ipaddress.IPv4Address("255.255.255.255")
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
_MAPPED = _V6("::ffff:0:0/96")
_COMPATIBLE = _V6("::/96")
_NAT64 = (_V6("64:ff9b::/96"),)
_SIX_TO_FOUR = _V6("2002::/16")
_TEREDO = _V6("2001::/32")
_UNIQUE_LOCAL = _V6("fc00::/7")
_SITE_LOCAL = _V6("fec0::/10")

# Hosts that inet_aton may read as an IPv4 address: digits, dots and hex.
_NUMERIC_HOST = re.compile(r"[0-9a-fA-FxX.]+")


class AddressRefused(URLNotAllowed):
    """The guard refused ``host`` because of ``reason``; the fetch names the URL."""

    def __init__(self, host: str, reason: str) -> None:
        super().__init__(f"{reason} ({_HINT})")
        self.host = host
        self.reason = reason

    def for_url(self, url: str) -> URLNotAllowed:
        """The error to show: which URL was refused, why, and how to allow it."""
        return URLNotAllowed(f"Refusing to fetch {clip(url)}: {self.reason} ({_HINT})")


def describe(ip: IPAddress) -> str | None:
    """Why ``ip`` is not on the public internet ("a loopback address"), or ``None`` if it is."""
    if isinstance(ip, ipaddress.IPv6Address):
        return _describe_v6(ip)
    return _describe_v4(ip)


def _describe_v4(ip: ipaddress.IPv4Address) -> str | None:
    if ip.is_unspecified:
        return "an unspecified address"
    if ip in _THIS_NETWORK:
        return "a reserved address ('this network', 0.0.0.0/8)"
    if ip.is_loopback:
        return "a loopback address"
    if ip in _METADATA:
        return "the cloud metadata service's link-local address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_multicast:
        return "a multicast address"
    if any(ip in net for net in _RFC1918):
        return "a private address"
    if ip in _SHARED:
        return "a private address (carrier-grade NAT, 100.64.0.0/10)"
    if ip == _BROADCAST:
        return "a broadcast address"
    if ip.is_reserved:
        return "a reserved address"
    if ip.is_private or not ip.is_global:
        return "a special-purpose (non-public) address"
    return None


def _embedded_v4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries, for the forms that route to it."""
    if ip in _MAPPED:
        return ip.ipv4_mapped
    if ip in _COMPATIBLE and int(ip) > 1:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if any(ip in net for net in _NAT64):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _SIX_TO_FOUR:
        return ip.sixtofour
    if ip in _TEREDO and ip.teredo is not None:
        return ip.teredo[1]
    return None


def _describe_v6(ip: ipaddress.IPv6Address) -> str | None:
    if ip.is_unspecified:
        return "an unspecified address"
    if ip.is_loopback:
        return "a loopback address"
    inner = _embedded_v4(ip)
    if inner is not None:
        reason = _describe_v4(inner)
        return None if reason is None else f"an IPv6 form of {inner}, {reason}"
    if ip in _METADATA:
        return "the cloud metadata service's private address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_multicast:
        return "a multicast address"
    if ip in _UNIQUE_LOCAL:
        return "a private address (unique local)"
    if ip in _SITE_LOCAL:
        return "a private address (site-local)"
    if ip.is_reserved:
        return "a reserved address"
    if ip.is_private or not ip.is_global:
        return "a special-purpose (non-public) address"
    return None


def parse_ip_literal(host: str) -> IPAddress | None:
    """The address a URL's host spells, in any form the system resolver accepts, or ``None``.

    ``2130706433``, ``0x7f.1``, ``0177.0.0.1`` and ``127.1`` all mean 127.0.0.1 to
    ``getaddrinfo`` (it uses ``inet_aton``), so they mean it here too.
    """
    host = host.strip("[]").rstrip(".")
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return None
    if not host or not _NUMERIC_HOST.fullmatch(host):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def _same(text: str, ip: IPAddress) -> bool:
    """Whether ``text`` is a standard spelling of ``ip`` (so saying "means" adds nothing)."""
    try:
        return ipaddress.ip_address(text.split("%", 1)[0]) == ip
    except ValueError:
        return False


def _network(text: str) -> IPNetwork:
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ConfigError(
            f"{ALLOW_NETWORKS.name} has {text.strip()!r}, which is not a network: "
            "use addresses or CIDR networks separated by commas (10.1.0.0/16,127.0.0.1)"
        ) from None


class Guard(NamedTuple):
    """The policy: refuse non-public addresses unless allowed wholesale or by network."""

    allow_private: bool = False
    allowed_networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def from_env(cls) -> Guard:
        """The policy the environment asks for (see the module docstring)."""
        allow = ALLOW_PRIVATE_NETWORKS.get()
        raw = ALLOW_NETWORKS.get() or ""
        networks = tuple(_network(part) for part in raw.split(",") if part.strip())
        return cls(allow_private=allow, allowed_networks=networks)

    def refusal(self, ip: IPAddress) -> str | None:
        """Why connecting to ``ip`` is refused, or ``None`` when it is allowed."""
        if self.allow_private:
            return None
        inner = _embedded_v4(ip) if isinstance(ip, ipaddress.IPv6Address) else None
        for net in self.allowed_networks:
            if ip in net or (inner is not None and inner in net):
                return None
        return describe(ip)

    def check_host(self, host: str) -> None:
        """Refuse a URL host that spells a refused address; names are left to the resolver."""
        ip = parse_ip_literal(host)
        if ip is None:
            return
        reason = self.refusal(ip)
        if reason is not None:
            shown = host.strip("[]")
            said = f"{shown} is {reason}" if _same(shown, ip) else f"{shown} is {ip}, {reason}"
            raise AddressRefused(host, said)

    def check_resolved(self, host: str, addresses: list[IPAddress]) -> None:
        """Refuse ``host`` if any address it resolved to is refused (all are checked)."""
        for ip in addresses:
            reason = self.refusal(ip)
            if reason is None:
                continue
            if parse_ip_literal(host) is not None:
                self.check_host(host)
            raise AddressRefused(host, f"{host} resolves to {ip}, {reason}")
