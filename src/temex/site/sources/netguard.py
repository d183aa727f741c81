"""Address guard: refuse URLs that resolve to internal addresses (SSRF).

A server that fetches URLs chosen by its users must not be steered into the
machine's own network: loopback, private ranges (RFC 1918, unique-local
IPv6), link-local (which holds the cloud metadata service 169.254.169.254),
unspecified, multicast and reserved addresses are refused. The check is applied
by :class:`~temex.site.sources.http.HttpSource` (``allow_private=False``) to the first
URL and to every redirect target *before* connecting, and again by its
resolver, so the address connected to is one that was checked (no DNS
rebinding between check and connect).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from ...errors import PageLoadError

__all__ = ["METADATA_ADDRESSES", "AddressRefused", "UrlRefused", "check_address", "check_url",
           "embedded_ipv4", "is_public_address"]

#: Cloud metadata endpoints (also covered by the link-local / ULA rules).
METADATA_ADDRESSES = frozenset({"169.254.169.254", "fd00:ec2::254", "100.100.100.200"})

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(PageLoadError):
    """A host that resolves to an address the guard refuses."""


#: IPv6 prefixes that carry an IPv4 address in their last 32 bits: NAT64
#: (RFC 6052 well-known and RFC 8215 local-use prefixes), IPv4-compatible
#: (deprecated ``::a.b.c.d``) and IPv4-translated (``::ffff:0:a.b.c.d``).
_EMBEDS_V4_LOW32 = tuple(ipaddress.ip_network(n) for n in (
    "64:ff9b::/96", "64:ff9b:1::/48", "::/96", "::ffff:0:0:0/96"))


def embedded_ipv4(a: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """IPv4 addresses an IPv6 address leads to: IPv4-mapped, 6to4
    (``2002:AABB:CCDD::``), Teredo (server and client), NAT64 and
    IPv4-compatible/translated forms. A packet to such an address reaches the
    IPv4 host, so the guard checks that host too."""
    out: list[ipaddress.IPv4Address] = []
    if a.ipv4_mapped is not None:
        out.append(a.ipv4_mapped)
    if a.sixtofour is not None:
        out.append(a.sixtofour)
    if a.teredo is not None:
        out.extend(a.teredo)
    if any(a in net for net in _EMBEDS_V4_LOW32):
        out.append(ipaddress.IPv4Address(int(a) & 0xFFFFFFFF))
    return out


def is_public_address(ip: str | IPAddress) -> bool:
    """True when ``ip`` is a globally routable unicast address (for IPv6, and
    every IPv4 address embedded in it: 6to4, Teredo, NAT64, mapped)."""
    a = ipaddress.ip_address(ip) if isinstance(ip, str) else ip
    if isinstance(a, ipaddress.IPv6Address):
        v4 = embedded_ipv4(a)
        if a.ipv4_mapped is not None:
            a = a.ipv4_mapped
        if any(not is_public_address(e) for e in v4):
            return False
    if str(a) in METADATA_ADDRESSES:
        return False
    return not (a.is_private or a.is_loopback or a.is_link_local or a.is_unspecified
                or a.is_multicast or a.is_reserved or not a.is_global)


def _allowed(a: IPAddress, allow: Iterable[str]) -> bool:
    for entry in allow:
        net = ipaddress.ip_network(entry, strict=False)
        if a.version == net.version and a in net:
            return True
    return False


def check_address(host: str, allow: Iterable[str] = (), *,
                  resolve: bool = True) -> list[str]:
    """Resolve ``host`` and refuse it unless every address is public.

    Parameters
    ----------
    host : str
        Host name or IP literal (IPv6 with or without brackets).
    allow : iterable of str
        Addresses or networks (``"127.0.0.1"``, ``"10.0.0.0/8"``) accepted even
        though they are not public: an explicit allow-list, e.g. for tests.
    resolve : bool
        Resolve names with DNS (``getaddrinfo``). When False, only IP literals
        are checked and names are refused.

    Returns
    -------
    list of str
        The checked addresses (connect only to these).

    Raises
    ------
    AddressRefused
        When the host does not resolve, or any address it resolves to is
        loopback/private/link-local/metadata/unspecified/multicast/reserved.

    Cost: one DNS lookup (blocking; call it in a thread from async code).
    """
    h = host.strip().strip("[]").rstrip(".").lower()
    if not h:
        raise AddressRefused("empty host")
    allow = tuple(allow)
    try:
        addrs = [ipaddress.ip_address(h)]
    except ValueError:
        if not resolve:
            raise AddressRefused(f"{host}: names are not resolved here") from None
        try:
            infos = socket.getaddrinfo(h, None, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as e:
            raise AddressRefused(f"{host}: cannot resolve ({e})") from None
        addrs = [ipaddress.ip_address(str(i[4][0]).split("%")[0]) for i in infos]
        if not addrs:
            raise AddressRefused(f"{host}: no address")
    for a in addrs:
        if not is_public_address(a) and not _allowed(a, allow):
            raise AddressRefused(f"{host}: refused non-public address {a}")
    return [str(a) for a in addrs]


class UrlRefused(PageLoadError):
    """A URL the server will not fetch (bad form or refused address)."""


def check_url(url: str, allow_private: bool = False, allow: tuple[str, ...] = (),
              *, max_length: int = 2048) -> str:
    """Validate a URL a user asks the server to fetch; returns it stripped.

    Refuses non-http(s) schemes, credentials in the URL, over-long URLs and —
    unless ``allow_private`` — hosts resolving to any non-public address
    (:func:`temex.site.sources.netguard.check_address`, after DNS resolution).
    Nothing is connected to. Raises :class:`UrlRefused` with a one-line reason.
    """
    url = (url or "").strip()
    if not url:
        raise UrlRefused("no URL given")
    if len(url) > max_length:
        raise UrlRefused(f"URL longer than {max_length} characters")
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError on a bad port
    except ValueError as e:
        raise UrlRefused(f"bad URL ({e})") from None
    if parts.scheme not in ("http", "https"):
        raise UrlRefused(f"only http and https URLs can be fetched (got {parts.scheme!r})")
    if not parts.hostname:
        raise UrlRefused("the URL has no host")
    if parts.username or parts.password:
        raise UrlRefused("URLs with credentials are not accepted")
    del port
    if not allow_private:
        try:
            check_address(parts.hostname, allow)
        except AddressRefused as e:
            raise UrlRefused(f"refused: {e} (only public addresses are fetched; "
                             "temex serve --allow-private lifts this for local use)") from None
    return url
