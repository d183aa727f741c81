"""The page-source interface: where explored pages come from.

A :class:`PageSource` turns a URL into a :class:`FetchResult`. Implementations
(``HttpSource`` for the live web, ``MirrorSource`` for a folder on disk) never
raise for a page that cannot be had: the result carries a one-line ``error``
instead, so an exploration goes on with the other pages.

Counters: ``n_loads`` counts pages obtained (a usable HTML body, from the
network, the disk cache or the mirror), ``n_network`` the bodies fetched over
the network, ``n_cache_hits`` those read from the cache, ``n_errors`` failures.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["HTML_TYPES", "FetchResult", "PageSource", "SyncSource", "content_type"]

#: Media types accepted as pages (HTML and XHTML).
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})

T = TypeVar("T")


def content_type(header: str | None) -> tuple[str, str | None]:
    """Split a ``Content-Type`` header into ``(media type, charset or None)``."""
    if not header:
        return "", None
    parts = [p.strip() for p in header.split(";")]
    mime = parts[0].lower()
    charset = None
    for p in parts[1:]:
        k, _, v = p.partition("=")
        if k.strip().lower() == "charset" and v.strip():
            charset = v.strip().strip("\"'")
    return mime, charset


@dataclass
class FetchResult:
    """What a source returns for one URL.

    Attributes
    ----------
    url : str
        The URL asked for.
    final_url : str
        Where the body came from after redirects (== ``url`` without any).
    status : int
        HTTP status (200 for mirror files; 0 when no response was received).
    body : bytes
        The (decompressed) HTML; empty on error.
    charset : str or None
        Charset declared by the transport (``Content-Type``), for
        :func:`temex.page.dom.parse`'s ``declared_encoding``.
    media_type : str
        Media type of the body (``text/html``...).
    error : str or None
        One-line reason when the page could not be had (``None`` = success).
    from_cache : bool
        True when the body was read from the on-disk cache.
    elapsed : float
        Seconds spent.
    redirects : list of str
        The redirect targets followed, in order.
    headers : dict
        Response headers a crawler keeps (``ETag``, ``Last-Modified``,
        ``Content-Type``, ``Date``); status 304 answers a conditional request.
    """

    url: str
    final_url: str = ""
    status: int = 0
    body: bytes = b""
    charset: str | None = None
    media_type: str = ""
    error: str | None = None
    from_cache: bool = False
    elapsed: float = 0.0
    redirects: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None


class PageSource:
    """Interface of page sources. Subclasses implement :meth:`_fetch`.

    :meth:`get` is the public entry: it times the call, turns any unexpected
    exception into an error result (a source never raises for a page) and keeps
    the counters. Sources are async context managers; :meth:`aclose` releases
    network resources but keeps counters and caches, so a source can be reused
    by a later run (even on another event loop).
    """

    def __init__(self) -> None:
        self.n_loads = 0
        self.n_network = 0
        self.n_cache_hits = 0
        self.n_errors = 0

    async def _fetch(self, url: str) -> FetchResult:  # pragma: no cover - abstract
        raise NotImplementedError

    async def get(self, url: str) -> FetchResult:
        """Obtain ``url``; never raises (except for cancellation).

        Cost: one request (or file read) per redirect hop; see the subclass.
        """
        t0 = time.perf_counter()
        try:
            res = await self._fetch(url)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - a page failure must not end the run
            res = FetchResult(url, url, error=f"{type(e).__name__}: {e}".splitlines()[0])
        res.elapsed = time.perf_counter() - t0
        if res.ok:
            self.n_loads += 1
            if res.from_cache:
                self.n_cache_hits += 1
        else:
            self.n_errors += 1
        return res

    async def aclose(self) -> None:
        """Release connections (no-op for offline sources)."""

    async def __aenter__(self) -> PageSource:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class SyncSource:
    """Blocking wrapper: ``SyncSource(src).get(url)`` runs the source on a
    private event loop (for scripts and a CLI without asyncio)."""

    def __init__(self, source: PageSource) -> None:
        self.source = source
        self._loop = asyncio.new_event_loop()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self._loop.run_until_complete(coro)

    def get(self, url: str) -> FetchResult:
        return self.run(self.source.get(url))

    def close(self) -> None:
        if not self._loop.is_closed():
            self._loop.run_until_complete(self.source.aclose())
            self._loop.close()

    def __enter__(self) -> SyncSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
