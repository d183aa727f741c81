"""Address guard: refuse URLs that resolve to internal addresses (SSRF).

A program that fetches URLs chosen by others must not be steered into the
machine's own network: loopback, private ranges (RFC 1918, unique-local
IPv6 ``fc00::/7``), link-local (``169.254/16``, which holds the cloud
metadata service 169.254.169.254, and ``fe80::/10``), unspecified
(``0.0.0.0``, ``::``), multicast and reserved addresses are refused, and so is
an IPv6 address that carries a refused IPv4 one (IPv4-mapped, 6to4, Teredo,
NAT64). The guard is on by default in every command that fetches (``temex
extract URL``, ``candidates``, ``crawl``, ``serve``) and in :func:`temex.explore`
and :func:`temex.crawl`. :class:`~temex.site.sources.http.HttpSource` and
:class:`~temex.site.sources.browser.BrowserSource` (``allow_private=False``)
apply it to the first URL and to every redirect target *before* connecting,
and again in the resolver, so the address connected to is one that was checked
(no DNS rebinding between check and connect).

Two ways to lift it, both explicit:

* ``allow_private=True`` (``--allow-private``): every non-public address;
* an allow-list (``guard_allow``, ``--allow-host HOST[:PORT]``): only these
  addresses, networks or names, on one port when a port is given
  (:func:`parse_allow`). ``--allow-host 127.0.0.1:8000`` lets a test reach its
  own server and nothing else: a redirect from there to ``10.0.0.1`` or to
  another loopback port is still refused.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from ...errors import PageLoadError

__all__ = ["LIFT_HINT", "METADATA_ADDRESSES", "AddressRefused", "AllowRule", "BadAllowEntry",
           "Unresolvable", "UrlRefused", "check_address", "check_url", "default_port",
           "embedded_ipv4", "is_allowed", "is_public_address", "parse_allow"]

#: Cloud metadata endpoints (also covered by the link-local / ULA rules).
METADATA_ADDRESSES = frozenset({"169.254.169.254", "fd00:ec2::254", "100.100.100.200"})

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(PageLoadError):
    """A host that resolves to an address the guard refuses."""


class Unresolvable(AddressRefused):
    """A host name with no address (said as ``cannot resolve HOST``)."""


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


class BadAllowEntry(ValueError):
    """An allow-list entry that is no address, network or resolvable name."""


@dataclass(frozen=True)
class AllowRule:
    """One allowed network, on one port or (``port`` None) on every port."""

    network: ipaddress.IPv4Network | ipaddress.IPv6Network
    port: int | None = None

    def permits(self, a: IPAddress, port: int | None) -> bool:
        if a.version != self.network.version or a not in self.network:
            return False
        return self.port is None or port == self.port


def _parse_port(text: str, entry: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise BadAllowEntry(f"{entry!r}: {text!r} is not a port (1-65535)")
    return int(text)


@lru_cache(maxsize=256)
def parse_allow(entry: str) -> tuple[AllowRule, ...]:
    """The rules of one allow-list entry: ``HOST[:PORT]``.

    HOST is an IP address (``127.0.0.1``, ``::1``; IPv6 with a port in
    brackets: ``[::1]:8000``), a network (``10.0.0.0/8``, ``fc00::/7``) or a
    host name (``localhost``), resolved once, here, to every address it has.
    With ``:PORT`` only that port is allowed.

    Raises :class:`BadAllowEntry` (a ValueError) with a one-line reason.
    Cost: one DNS lookup for a name (cached per process).
    """
    e = entry.strip()
    port: int | None = None
    if e.startswith("["):
        host, closed, rest = e[1:].partition("]")
        if not closed or (rest and not rest.startswith(":")):
            raise BadAllowEntry(f"{entry!r}: write an IPv6 address with a port as [ADDRESS]:PORT")
        if rest:
            port = _parse_port(rest[1:], entry)
    elif e.count(":") == 1:  # IPv4 or a name, with a port
        host, _, p = e.partition(":")
        port = _parse_port(p, entry)
    else:  # IPv4, a name, or IPv6 without a port (several colons)
        host = e
    if not host:
        raise BadAllowEntry(f"{entry!r}: no host")
    try:
        return (AllowRule(ipaddress.ip_network(host, strict=False), port),)
    except ValueError:
        pass
    if "/" in host or not all(c.isalnum() or c in ".-_" for c in host):
        raise BadAllowEntry(f"{entry!r}: not an address, a network or a host name")
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise BadAllowEntry(f"{entry!r}: cannot resolve {host} ({err})") from None
    nets = dict.fromkeys(ipaddress.ip_network(str(i[4][0]).split("%")[0]) for i in infos)
    return tuple(AllowRule(n, port) for n in nets)


def is_allowed(a: str | IPAddress, allow: Iterable[str], port: int | None = None) -> bool:
    """True when an entry of the allow-list ``allow`` (:func:`parse_allow`)
    permits address ``a`` on ``port`` (None: the port is not known, so only
    entries without a port match)."""
    addr = ipaddress.ip_address(a) if isinstance(a, str) else a
    return any(rule.permits(addr, port) for entry in allow for rule in parse_allow(entry))


def default_port(scheme: str) -> int | None:
    """The port a URL of ``scheme`` connects to when it names none."""
    return {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(scheme.lower())


def check_address(host: str, allow: Iterable[str] = (), *,
                  resolve: bool = True, port: int | None = None) -> list[str]:
    """Resolve ``host`` and refuse it unless every address is public.

    Parameters
    ----------
    host : str
        Host name or IP literal (IPv6 with or without brackets).
    allow : iterable of str
        Entries accepted even though they are not public (:func:`parse_allow`:
        ``"127.0.0.1"``, ``"127.0.0.1:8000"``, ``"10.0.0.0/8"``, ``"localhost"``):
        an explicit allow-list, e.g. for a local test site.
    resolve : bool
        Resolve names with DNS (``getaddrinfo``). When False, only IP literals
        are checked and names are refused.
    port : int, optional
        The port that will be connected to (entries with a port match only it).

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
    literal = True
    try:
        addrs = [ipaddress.ip_address(h)]
    except ValueError:
        literal = False
        if not resolve:
            raise AddressRefused(f"{host}: names are not resolved here") from None
        try:
            infos = socket.getaddrinfo(h, None, type=socket.SOCK_STREAM)
        except socket.gaierror as e:
            raise Unresolvable(f"cannot resolve {host} "
                               f"({(e.strerror or str(e)).lower()})") from None
        except UnicodeError as e:
            raise Unresolvable(f"cannot resolve {host} ({e})") from None
        addrs = [ipaddress.ip_address(str(i[4][0]).split("%")[0]) for i in infos]
        if not addrs:
            raise Unresolvable(f"cannot resolve {host} (no address)")
    for a in addrs:
        if not is_public_address(a) and not is_allowed(a, allow, port):
            said = f"{host} is" if literal else f"{host} resolves to {a},"
            raise AddressRefused(f"{said} not a public address")
    return [str(a) for a in addrs]


class UrlRefused(PageLoadError):
    """A URL the server will not fetch (bad form or refused address)."""


#: What the refusal of an address says about lifting it.
LIFT_HINT = ("only public addresses are fetched; --allow-host HOST[:PORT] allows one local "
             "site, --allow-private every private address")


def check_url(url: str, allow_private: bool = False, allow: Iterable[str] = (),
              *, max_length: int = 2048) -> str:
    """Validate a URL to fetch; returns it stripped.

    Refuses non-http(s) schemes, credentials in the URL, over-long URLs and —
    unless ``allow_private`` — hosts resolving to any non-public address not
    on the allow-list ``allow`` (:func:`check_address`, after DNS resolution,
    with the URL's port). Nothing is connected to. Raises :class:`UrlRefused`
    with a one-line reason.
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
    if not allow_private:
        try:
            check_address(parts.hostname, allow, port=port or default_port(parts.scheme))
        except Unresolvable as e:
            raise UrlRefused(str(e)) from None
        except AddressRefused as e:
            raise UrlRefused(f"refused: {e} ({LIFT_HINT})") from None
    return url
