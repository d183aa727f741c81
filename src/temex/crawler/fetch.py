"""The fetching half of ``temex crawl``: a polite breadth-first walk of the
site from the SQLite frontier (:mod:`temex.crawler.state`).

Per page: the address guard, robots.txt, the size/time/type limits of
:class:`~temex.site.sources.http.HttpSource`; at most ``concurrency``
requests at a time and request starts ``delay`` seconds apart (robots.txt
``Crawl-delay`` when larger); a conditional request when the page has an
``ETag`` or ``Last-Modified`` from an earlier generation. A body is stored
under ``OUTDIR/raw/`` by its hash before its row is committed, with the
in-scope links it holds (``<meta name=robots content=nofollow>`` is obeyed).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any

from ..errors import ParseError
from ..page.dom import Document, parse
from ..page.files import refresh_href
from ..site.links import get_links
from ..site.sources.base import FetchResult
from ..site.sources.http import HttpSource
from .options import CrawlOptions
from .sitemaps import sitemap_urls
from .state import CrawlState, PageRow
from .urls import canonical, in_scope, is_resource, url_key
from .warc import WarcWriter

__all__ = ["CrawlSource", "FetchStats", "body_path", "crawl_frontier", "page_links",
           "refresh_target"]


class CrawlSource(HttpSource):
    """An :class:`HttpSource` that sends conditional requests for pages
    whose validators (``ETag``, ``Last-Modified``) it was given."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.validators: dict[str, dict[str, str]] = {}
        self.n_requests = 0
        self.n_not_modified = 0

    def request_headers(self, url: str) -> dict[str, str] | None:
        self.n_requests += 1
        return self.validators.get(url)


@dataclass
class FetchStats:
    fetched: int = 0
    not_modified: int = 0
    changed: int = 0
    errors: int = 0
    skipped: int = 0
    sitemap_urls: int = 0
    crawl_delay: float | None = None
    delay: float = 0.0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def body_path(raw: Path, digest: str) -> Path:
    return raw / digest[:2] / (digest + ".html")


def _store(raw: Path, body: bytes) -> str:
    digest = blake2b(body, digest_size=16).hexdigest()
    p = body_path(raw, digest)
    if not p.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(body)
        os.replace(tmp, p)
    return digest


def _nofollow(doc: Document) -> bool:
    for i in range(doc.body if doc.body >= 0 else len(doc)):
        if doc.tag[i] == "meta":
            a = dict(doc.attrs[i])
            if a.get("name", "").lower() in ("robots", "temex") and \
                    "nofollow" in a.get("content", "").lower():
                return True
    return False


def refresh_target(doc: Document) -> str | None:
    """The canonical URL a ``<meta http-equiv=refresh content="0; URL=...">``
    sends the reader to, or None (a redirect stub's target is a page of the
    site: the crawl follows it as a link)."""
    href = refresh_href(doc)
    return canonical(href, doc.url) if href else None


def page_links(doc: Document, scope: str) -> list[str]:
    """Canonical in-scope page links of ``doc``, in document order (a
    meta refresh target first)."""
    if _nofollow(doc):
        return []
    out: dict[str, None] = {}
    target = refresh_target(doc)
    if target and in_scope(target, scope) and not is_resource(target):
        out[target] = None
    for link in get_links(doc, same_site_only=False):
        u = canonical(link.url)
        if u and in_scope(u, scope) and not is_resource(u):
            out.setdefault(u, None)
    return list(out)


class _Pacer:
    """Request starts at least ``delay`` seconds apart."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.lock = asyncio.Lock()
        self.next = 0.0

    async def wait(self) -> None:
        if self.delay <= 0:
            return
        async with self.lock:
            loop = asyncio.get_running_loop()
            pause = self.next - loop.time()
            if pause > 0:
                await asyncio.sleep(pause)
            self.next = loop.time() + self.delay


async def crawl_frontier(state: CrawlState, start: str, scope: str, opts: CrawlOptions,
                         source: CrawlSource, raw: Path, warc: WarcWriter | None = None,
                         progress: Callable[[FetchStats, int], None] | None = None
                         ) -> FetchStats:
    """Fetch queued pages until the frontier is empty or ``max_pages`` pages
    were fetched in this generation."""
    t0 = time.perf_counter()
    stats = FetchStats()
    rules = await source.robots(start)
    if rules is not None:
        try:
            cd = rules.crawl_delay(source.user_agent)
        except Exception:  # noqa: BLE001 - malformed value
            cd = None
        stats.crawl_delay = float(cd) if cd is not None else None
    stats.delay = max(opts.delay, stats.crawl_delay or 0.0)
    pacer = _Pacer(stats.delay)
    gen = state.gen
    if opts.sitemaps and state.get_meta("sitemaps_gen") != gen:
        listed = list(rules.sitemaps) if rules is not None else []
        urls, errs = await sitemap_urls(source, start, listed)
        stats.notes.extend(errs)
        found = []
        for u in urls:
            c = canonical(u)
            if c and in_scope(c, scope) and not is_resource(c):
                found.append((url_key(c), c, 1, "sitemap"))
        if opts.max_depth is None or opts.max_depth >= 1:
            state.add(found)
        stats.sitemap_urls = len(found)
        state.set_meta("sitemaps_gen", gen)

    inflight: dict[asyncio.Task[FetchResult], PageRow] = {}

    async def fetch(row: PageRow) -> FetchResult:
        await pacer.wait()
        return await source.get(row["url"])

    def finish(row: PageRow, res: FetchResult) -> None:
        fields: dict[str, Any] = {"final_url": res.final_url or row["url"], "status": res.status}
        if res.status == 304:  # the stored answer stands
            fields = {}
        links: list[tuple[str, str, int, str]] = []
        alias = None
        if not res.ok and res.status == 0 and (res.error or "").startswith("robots.txt"):
            fields.update(state="skipped", error=res.error, changed=0)  # nothing was sent
            stats.skipped += 1
        elif not res.ok:
            fields.update(state="error", error=res.error, changed=1)
            stats.errors += 1
        elif res.status == 304:
            fields.update(state="done", error=None, changed=0)
            stats.not_modified += 1
        else:
            final = canonical(res.final_url or row["url"]) or row["url"]
            if not in_scope(final, scope):
                fields.update(state="error", error=f"redirected out of scope to {final}",
                              changed=1)
                stats.errors += 1
            else:
                digest = _store(raw, res.body)
                changed = digest != row["body_hash"]
                fields.update(state="done", error=None, body_hash=digest, charset=res.charset,
                              media_type=res.media_type, changed=int(changed),
                              etag=res.headers.get("ETag"),
                              last_modified=res.headers.get("Last-Modified"))
                stats.changed += changed
                if url_key(final) != row["key"]:
                    alias = (url_key(final), final, row["depth"])
                if warc is not None and changed:
                    warc.response(res)
                depth = row["depth"] + 1
                if changed and (opts.max_depth is None or depth <= opts.max_depth):
                    try:
                        doc = parse(res.body, url=final, declared_encoding=res.charset)
                        links = [(url_key(u), u, depth, "link") for u in page_links(doc, scope)]
                    except (ParseError, ValueError) as e:
                        stats.notes.append(f"{row['url']}: links not read ({e})")
        stats.fetched += fields.get("state") != "skipped"
        state.record(row["id"], fields, links, alias)

    try:
        while True:
            budget = opts.max_pages - state.n_fetched() - len(inflight)
            room = min(max(1, opts.concurrency) - len(inflight), budget)
            if room > 0:
                busy = {r["id"] for r in inflight.values()}
                for row in state.next_queued(room, opts.max_depth, busy):
                    if row["etag"] or row["last_modified"]:
                        v = {}
                        if row["etag"]:
                            v["If-None-Match"] = row["etag"]
                        if row["last_modified"]:
                            v["If-Modified-Since"] = row["last_modified"]
                        source.validators[row["url"]] = v
                    inflight[asyncio.ensure_future(fetch(row))] = row
            if not inflight:
                break
            done, _ = await asyncio.wait(inflight, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                row = inflight.pop(task)
                finish(row, task.result())
                if progress is not None:
                    progress(stats, state.n_queued(opts.max_depth))
    finally:
        for task in inflight:
            task.cancel()
        if inflight:
            await asyncio.gather(*inflight, return_exceptions=True)
    stats.seconds = time.perf_counter() - t0
    return stats


def print_progress(stats: FetchStats, queued: int) -> None:
    """One status line on stderr (rewritten in place on a terminal)."""
    line = (f"temex crawl: {stats.fetched} fetched ({stats.not_modified} not modified, "
            f"{stats.errors} errors), {queued} queued")
    if sys.stderr.isatty():
        print("\r" + line, end="", file=sys.stderr, flush=True)
    elif stats.fetched % 25 == 0:
        print(line, file=sys.stderr, flush=True)
