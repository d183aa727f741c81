"""HttpSource: pages from the live web with asyncio + aiohttp.

Politeness and safety:

* a clear User-Agent (``temex/<version> (+template extraction)``);
* robots.txt obeyed by default (protego; RFC 9309: 4xx = no rules, 5xx or
  unreachable = everything disallowed), ``respect_robots=False`` disables it;
* at most ``concurrency`` requests at a time per host;
* connect / read / total timeouts; bodies streamed and abandoned at
  ``max_bytes`` (raw *and* decompressed, so a gzip or brotli bomb stops at the
  cap); decompression is done here (aiohttp's is off) with bounded output;
* redirects followed by hand: at most ``max_redirects``, loops detected, and
  each target checked by the address guard when ``allow_private=False``;
* only ``text/html`` and ``application/xhtml+xml`` accepted;
* an optional on-disk cache (:class:`~temex.site.sources.cache.DiskCache`) so a
  second run sends nothing over the network.

Every failure becomes a :class:`FetchResult` with a one-line ``error``.
"""

from __future__ import annotations

import asyncio
import os
import socket
import zlib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver
from protego import Protego
from yarl import URL

from .base import HTML_TYPES, FetchResult, PageSource, content_type
from .cache import DiskCache
from .netguard import (
    AddressRefused,
    Unresolvable,
    check_address,
    is_allowed,
    is_public_address,
)

try:  # optional: brotli ("br") content coding
    import brotli
except ImportError:  # pragma: no cover - depends on the environment
    brotli = None

__all__ = ["USER_AGENT", "HttpSource"]

try:
    _VERSION = version("temex")
except PackageNotFoundError:  # pragma: no cover
    _VERSION = "0"

#: User-Agent sent with every request.
USER_AGENT = f"temex/{_VERSION} (+template extraction)"
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
#: Response headers copied into :attr:`FetchResult.headers`.
_KEPT_HEADERS = ("ETag", "Last-Modified", "Content-Type", "Date")


class _Refused(Exception):
    """A page abandoned for a reason already phrased for the user."""


class _Decoder:
    """Incremental Content-Encoding decoder with a cap on its output."""

    def __init__(self, coding: str, cap: int) -> None:
        self.cap, self.total, self.coding = cap, 0, coding
        self.z: Any = None
        self.br: Any = None
        if coding in ("", "identity"):
            pass
        elif coding in ("gzip", "x-gzip"):
            self.z = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            self.z = None  # zlib-wrapped or raw: decided on the first byte
        elif coding == "br" and brotli is not None:
            self.br = brotli.Decompressor()
        else:
            raise _Refused(f"unsupported content encoding {coding!r}")

    def _grow(self, out: bytes) -> bytes:
        self.total += len(out)
        if self.total > self.cap:
            raise _Refused(f"decompression bomb (decompressed size over {self.cap} bytes)")
        return out

    def feed(self, data: bytes) -> bytes:
        if self.coding in ("", "identity"):
            return self._grow(data)
        left = self.cap - self.total + 1
        try:
            if self.br is not None:
                try:
                    out = self.br.process(data, output_buffer_limit=left)
                    while not self.br.can_accept_more_data():
                        out += self._grow(self.br.process(b"", output_buffer_limit=left))
                except TypeError:  # older brotli without output limits
                    out = self.br.process(data)
                return self._grow(out)
            if self.z is None:  # deflate: zlib header (0x78..) or raw stream
                wbits = zlib.MAX_WBITS if data[:1] and data[0] & 0x0F == 8 else -zlib.MAX_WBITS
                self.z = zlib.decompressobj(wbits)
            return self._grow(self.z.decompress(data, left))
        except (zlib.error, ValueError) as e:
            raise _Refused(f"bad {self.coding} data ({e})") from None
        except Exception as e:  # brotli.error
            if type(e).__name__ == "error":
                raise _Refused(f"bad {self.coding} data ({e})") from None
            raise

    def flush(self) -> bytes:
        if self.z is not None:
            return self._grow(self.z.flush())
        return b""


class _GuardResolver(AbstractResolver):
    """DNS resolver that drops refused addresses, so the address connected to
    is one the guard accepted (no DNS rebinding between check and connect).
    ``inner`` is the resolver asked (aiohttp's default one)."""

    def __init__(self, allow: tuple[str, ...], inner: AbstractResolver | None = None) -> None:
        self._inner = inner or DefaultResolver()
        self._allow = allow

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        res = await self._inner.resolve(host, port, family)
        ok = [r for r in res if is_public_address(r["host"])
              or is_allowed(r["host"], self._allow, r["port"] or port or None)]
        if not ok:  # an OSError, as aiohttp expects of a resolver; said as a refusal
            said = f"{host} resolves to {res[0]['host']}," if res else f"{host}:"
            raise AddressRefused(f"{said} not a public address")
        return ok

    async def close(self) -> None:
        await self._inner.close()


class HttpSource(PageSource):
    """Fetch pages over HTTP(S).

    Parameters
    ----------
    timeout, connect_timeout, read_timeout : float
        Seconds: whole request (per redirect hop), connection set-up, and
        longest wait for the next chunk of the body.
    max_bytes : int
        Largest body accepted, compressed or decompressed.
    max_redirects : int
        Redirects followed per page.
    concurrency : int
        Simultaneous requests per host.
    respect_robots : bool
        Obey robots.txt (default).
    cache_dir : path, optional
        Folder of the on-disk cache (created if needed).
    allow_private : bool
        When False, refuse URLs and redirect targets whose host resolves to a
        non-public address (:func:`~temex.site.sources.netguard.check_address`).
    guard_allow : iterable of str
        Addresses/networks the guard accepts anyway (an explicit allow-list).
    user_agent : str
        Sent with every request.

    Cost: one request per hop plus one robots.txt per origin and run (cached).
    """

    def __init__(self, *, timeout: float = 20.0, connect_timeout: float = 5.0,
                 read_timeout: float = 10.0, max_bytes: int = 5 * 1024 * 1024,
                 max_redirects: int = 5, concurrency: int = 4,
                 respect_robots: bool = True, cache_dir: str | Path | None = None,
                 allow_private: bool = True, guard_allow: tuple[str, ...] | list[str] = (),
                 user_agent: str = USER_AGENT) -> None:
        super().__init__()
        self.timeout = aiohttp.ClientTimeout(total=timeout, connect=connect_timeout,
                                             sock_read=read_timeout)
        self.max_bytes = max_bytes
        self.max_redirects = max_redirects
        self.concurrency = max(1, concurrency)
        self.respect_robots = respect_robots
        self.cache = DiskCache(cache_dir) if cache_dir else None
        self.allow_private = allow_private
        self.guard_allow = tuple(guard_allow)
        self.user_agent = user_agent
        self.n_robots = 0
        self._robots: dict[str, Protego | None | str] = {}
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._host_sem: dict[str, asyncio.Semaphore] = {}
        self._robots_lock: dict[str, asyncio.Lock] = {}

    # -- session -------------------------------------------------------------
    def _get_session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        if self._session is None or self._session.closed or self._loop is not loop:
            resolver = None if self.allow_private else _GuardResolver(self.guard_allow)
            conn = aiohttp.TCPConnector(limit=4 * self.concurrency,
                                        limit_per_host=self.concurrency, resolver=resolver)
            self._session = aiohttp.ClientSession(
                connector=conn, timeout=self.timeout, auto_decompress=False,
                headers={"User-Agent": self.user_agent,
                         "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
                         "Accept-Encoding": "gzip, deflate" + (", br" if brotli else "")})
            self._loop = loop
            self._host_sem, self._robots_lock = {}, {}
        return self._session

    async def aclose(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    # -- fetching ------------------------------------------------------------
    async def _fetch(self, url: str) -> FetchResult:
        return await self._get(url, page=True)

    @staticmethod
    def _http_url(url: str) -> URL | FetchResult:
        """``url`` parsed, or the error result of a URL that cannot be fetched."""
        try:
            u = URL(url)
        except ValueError as e:
            return FetchResult(url, url, error=f"bad URL ({e})")
        if u.scheme not in ("http", "https") or not u.host:
            return FetchResult(url, url, error=f"unsupported URL {url!r}")
        return u

    async def _get(self, url: str, *, page: bool) -> FetchResult:
        u = self._http_url(url)
        if isinstance(u, FetchResult):
            return u
        if page and not self.allow_private:  # before robots.txt: nothing is sent
            try:
                await asyncio.to_thread(check_address, u.host or "", self.guard_allow,
                                        port=u.port)
            except AddressRefused as e:
                return FetchResult(url, url, error=_refusal(e))
        if page and self.respect_robots:
            refusal = await self._robots_refusal(u)
            if refusal:
                return FetchResult(url, url, error=refusal)
        if self.cache is not None:
            hit = self.cache.get(url)
            if hit is not None:
                return hit
        res = await self._get_network(url, page=page)
        if self.cache is not None and res.status and (res.ok or (res.error or "").startswith("HTTP")):
            self.cache.put(res)
        if res.ok and page:
            self.n_network += 1
        return res

    async def _get_network(self, url: str, *, page: bool, cap: int = 0) -> FetchResult:
        current, seen, redirects = url, {url}, []
        cap = cap or (self.max_bytes if page else 512 * 1024)
        try:
            for _ in range(self.max_redirects + 1):
                u = URL(current)
                if u.scheme not in ("http", "https") or not u.host:
                    raise _Refused(f"redirect to unsupported URL {current!r}")
                if not self.allow_private:
                    try:
                        await asyncio.to_thread(check_address, u.host, self.guard_allow,
                                                port=u.port)
                    except AddressRefused as e:
                        raise _Refused(_refusal(e)) from None
                session = self._get_session()
                sem = self._host_sem.setdefault(u.host, asyncio.Semaphore(self.concurrency))
                extra = self.request_headers(url) if current == url else None
                async with sem, session.get(u, allow_redirects=False, headers=extra) as resp:
                    if resp.status in _REDIRECTS:
                        loc = resp.headers.get("Location")
                        if not loc:
                            raise _Refused(f"HTTP {resp.status} without Location")
                        nxt = str(u.join(URL(loc)).with_fragment(None))
                        if nxt in seen:
                            raise _Refused(f"redirect loop ({current} -> {nxt})")
                        seen.add(nxt)
                        redirects.append(nxt)
                        current = nxt
                        continue
                    mime, charset = content_type(resp.headers.get("Content-Type"))
                    if resp.status >= 400:
                        return FetchResult(url, current, status=resp.status, media_type=mime,
                                           error=f"HTTP {resp.status} {resp.reason or ''}".strip(),
                                           redirects=redirects)
                    if page and mime and mime not in HTML_TYPES:
                        raise _Refused(f"not HTML (content type {mime})")
                    length = resp.content_length
                    if length is not None and length > cap:
                        raise _Refused(f"too large (Content-Length {length} > {cap} bytes)")
                    body = await self._read_body(resp, cap)
                    kept = {h: resp.headers[h] for h in _KEPT_HEADERS if h in resp.headers}
                    return FetchResult(url, current, status=resp.status, body=body,
                                       charset=charset, media_type=mime or "text/html",
                                       redirects=redirects, headers=kept)
            raise _Refused(f"too many redirects (more than {self.max_redirects})")
        except _Refused as e:
            return FetchResult(url, current, error=str(e), redirects=redirects)
        except (asyncio.TimeoutError, aiohttp.ServerTimeoutError) as e:
            kind = "connect" if isinstance(e, aiohttp.ConnectionTimeoutError) else "read"
            if type(e) is asyncio.TimeoutError:
                kind = "total"
            return FetchResult(url, current, error=f"timeout ({kind})", redirects=redirects)
        except aiohttp.ClientConnectorError as e:
            err = e.os_error
            if isinstance(err, AddressRefused):  # the guard's resolver
                return FetchResult(url, current, error=f"refused: {err}", redirects=redirects)
            if isinstance(err, socket.gaierror):  # DNS: the name does not resolve
                return FetchResult(url, current, error=f"cannot resolve {e.host} "
                                   f"({(err.strerror or str(err)).lower()})", redirects=redirects)
            # asyncio's "Connect call failed ('127.0.0.1', 9)": say the errno's meaning
            why = os.strerror(err.errno).lower() if err.errno and err.errno > 0 \
                else _first_line(err)
            return FetchResult(url, current, error=f"cannot connect to {e.host}:{e.port} "
                               f"({why})", redirects=redirects)
        except aiohttp.ServerDisconnectedError:
            return FetchResult(url, current, error="server disconnected", redirects=redirects)
        except aiohttp.ClientPayloadError as e:
            return FetchResult(url, current, error=f"incomplete body ({_first_line(e)})",
                               redirects=redirects)
        except (aiohttp.ClientOSError, ConnectionError) as e:
            reason = "connection reset" if isinstance(e, ConnectionResetError) or \
                getattr(e, "errno", None) == 104 else _first_line(e)
            return FetchResult(url, current, error=reason, redirects=redirects)
        except aiohttp.ClientError as e:
            return FetchResult(url, current, error=f"HTTP client error ({_first_line(e)})",
                               redirects=redirects)

    def request_headers(self, url: str) -> dict[str, str] | None:
        """Extra headers for the first request of ``url`` (none here; a crawler
        overrides it to send conditional requests: ``If-None-Match``,
        ``If-Modified-Since``; a 304 answer is a result with status 304 and
        an empty body)."""
        return None

    async def get_resource(self, url: str, max_bytes: int = 512 * 1024) -> FetchResult:
        """Fetch a non-page resource (a sitemap): any media type, at most
        ``max_bytes``, the address guard on every hop, robots.txt obeyed; not
        counted as a page load, never cached."""
        u = self._http_url(url)
        if isinstance(u, FetchResult):
            return u
        if self.respect_robots:
            refusal = await self._robots_refusal(u)
            if refusal:
                return FetchResult(url, url, error=refusal)
        return await self._get_network(url, page=False, cap=max_bytes)

    async def robots(self, url: str) -> Protego | None:
        """The robots.txt rules of ``url``'s origin (loaded once per run), or
        None when there are none or they are not obeyed; for ``Crawl-delay``
        and ``Sitemap`` lines."""
        if not self.respect_robots:
            return None
        try:
            u = URL(url)
        except ValueError:
            return None
        if u.scheme not in ("http", "https") or not u.host:
            return None
        await self._robots_refusal(u)
        rules = self._robots.get(str(u.origin()))
        return rules if isinstance(rules, Protego) else None

    async def _read_body(self, resp: aiohttp.ClientResponse, cap: int) -> bytes:
        coding = resp.headers.get("Content-Encoding", "").strip().lower()
        dec = _Decoder(coding, cap)
        out = bytearray()
        raw = 0
        async for chunk in resp.content.iter_chunked(64 * 1024):
            raw += len(chunk)
            if raw > cap:
                raise _Refused(f"too large (body over {cap} bytes)")
            out += dec.feed(chunk)
        out += dec.flush()
        return bytes(out)

    # -- robots.txt ------------------------------------------------------------
    async def robots_refusal(self, url: str) -> str | None:
        """None when robots.txt allows ``url`` (or the URL cannot be checked),
        else the reason; used by other sources that fetch pages themselves."""
        u = self._http_url(url)
        return None if isinstance(u, FetchResult) else await self._robots_refusal(u)

    async def _robots_refusal(self, u: URL) -> str | None:
        """None when robots.txt allows ``u``, else the reason."""
        origin = str(u.origin())
        lock = self._robots_lock.setdefault(origin, asyncio.Lock())
        async with lock:
            if origin not in self._robots:
                self._robots[origin] = await self._load_robots(origin)
        rules = self._robots[origin]
        if rules is None:
            return None
        if isinstance(rules, str):
            if not rules.startswith("HTTP "):  # the host itself cannot be reached
                return rules
            # robots.txt answered 5xx: RFC 9309 says assume disallow
            return f"robots.txt unreachable ({rules}), so not fetched"
        if rules.can_fetch(str(u), self.user_agent):
            return None
        return "robots.txt disallows this URL"

    async def _load_robots(self, origin: str) -> Protego | None | str:
        self.n_robots += 1
        res = await self._get(origin + "/robots.txt", page=False)
        if res.ok:
            text = res.body.decode("utf-8", errors="replace")
            try:
                return Protego.parse(text)
            except Exception:  # noqa: BLE001 - unparsable rules: treat as none
                return None
        if res.status and 400 <= res.status < 500:
            return None
        return res.error or "unreachable"


def _refusal(e: AddressRefused) -> str:
    """The error of a URL the guard stopped: a refusal, or a name without
    an address said as such."""
    return str(e) if isinstance(e, Unresolvable) else f"refused: {e}"


def _first_line(e: BaseException) -> str:
    s = str(e) or type(e).__name__
    return s.splitlines()[0]
