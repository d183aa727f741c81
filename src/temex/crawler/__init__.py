"""``temex crawl URL``: a whole site to clean Markdown, its template removed
once per template (docs/CRAWL.md).

Two halves: :mod:`~temex.crawler.fetch` walks the site politely from a
SQLite frontier (:mod:`~temex.crawler.state`) and stores every body under
``OUTDIR/raw/``; :mod:`~temex.crawler.process` groups the pages by template,
fits each template once and strips every page to its main content.

Layout of OUTDIR::

    crawl.sqlite            frontier, page states, validators (resume, re-crawl)
    raw/xx/<hash>.html      fetched bodies by content hash
    pages/<url path>.md     one file per page (front matter + Markdown)
    index.jsonl             one row per page (url, status, title, metadata,
                            template cluster, content hash, duplicate_of and
                            duplicate_proof, stats, error)
    templates/cK.template.json   the fitted templates (temex strip can use them)
    responses.warc.gz       (--warc) the raw responses
    summary.json            the last run's counts
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..errors import ParameterError, TemexError
from ..site.sources.netguard import check_url
from .fetch import CrawlSource, FetchStats, crawl_frontier, print_progress
from .options import CrawlOptions
from .process import PageResult, process_pages
from .report import finished_line
from .state import CrawlState
from .urls import canonical, default_scope, url_key
from .warc import WarcWriter

__all__ = ["CrawlOptions", "PageResult", "crawl", "run_crawl"]


def _prepare(url: str, outdir: Path, opts: CrawlOptions) -> tuple[CrawlState, str, str, str]:
    start = canonical(url)
    if start is None:
        raise ParameterError("url", "an http(s) URL", url)
    if not 0 < opts.near_dup_resemblance <= 1:  # NaN too
        raise ParameterError("near_dup_resemblance", "a resemblance in (0, 1]",
                             opts.near_dup_resemblance)
    if not opts.allow_private:  # said before OUTDIR is made; every later hop is checked too
        check_url(start, False, opts.guard_allow)
    scope = canonical(opts.scope) if opts.scope else default_scope(start)
    if scope is None:
        raise ParameterError("scope", "an http(s) URL prefix", opts.scope)
    if not (start.startswith(scope) or url_key(start) == url_key(scope)):
        raise ParameterError("scope", f"a URL prefix of the start URL {start}", scope)
    outdir.mkdir(parents=True, exist_ok=True)
    state = CrawlState(outdir / "crawl.sqlite")
    old = state.get_meta("start")
    if old is not None and old != start:
        state.close()
        raise TemexError(f"{outdir} holds a crawl of {old}; use another folder")
    mode = "new"
    if old is None:
        state.set_meta("start", start)
        state.set_meta("gen", 0)
    elif state.get_meta("finished_gen") == state.gen:
        state.new_generation()
        mode = "recrawl"
    else:
        mode = "resume"
    state.set_meta("scope", scope)
    state.add([(url_key(start), start, 0, "start")])
    return state, start, scope, mode


def run_crawl(url: str, outdir: str | Path, options: CrawlOptions | None = None,
              progress: bool = True) -> tuple[list[PageResult], dict[str, Any]]:
    """Crawl ``url`` into ``outdir``; returns the page results and the summary
    (also written to ``OUTDIR/summary.json``). A folder holding an unfinished
    crawl of the same start URL is resumed; a finished one is re-crawled
    with conditional requests."""
    opts = options or CrawlOptions()
    out = Path(outdir)
    t0 = time.perf_counter()
    state, start, scope, mode = _prepare(url, out, opts)
    source = CrawlSource(timeout=opts.timeout, max_bytes=opts.max_bytes,
                         concurrency=max(1, opts.concurrency),
                         respect_robots=opts.respect_robots, allow_private=opts.allow_private,
                         guard_allow=tuple(opts.guard_allow))
    warc = WarcWriter(out / "responses.warc.gz") if opts.warc else None
    try:
        if progress:
            what = {"new": "crawl of", "resume": "resuming the crawl of",
                    "recrawl": "re-crawl of"}[mode]
            print(f"temex crawl: {what} {start} (scope {scope})", file=sys.stderr)

        async def go() -> FetchStats:
            try:
                return await crawl_frontier(state, start, scope, opts, source, out / "raw", warc,
                                            print_progress if progress else None)
            finally:
                await source.aclose()

        fstats = asyncio.run(go())
        if progress and sys.stderr.isatty():
            print(file=sys.stderr)
        t1 = time.perf_counter()
        results, counts = process_pages(state, out, opts)
        state.set_meta("finished_gen", state.gen)
        summary = {"start": start, "scope": scope, "mode": mode, "generation": state.gen,
                   "fetched": fstats.fetched, "requests": source.n_requests,
                   "robots_requests": source.n_robots,
                   "not_modified": fstats.not_modified, "changed": fstats.changed,
                   "fetch_errors": fstats.errors, "robots_skipped": fstats.skipped, "sitemap_urls": fstats.sitemap_urls,
                   "crawl_delay": fstats.crawl_delay, "delay": fstats.delay,
                   "queued_left": state.n_queued(opts.max_depth), **counts,
                   "first_errors": [f"{r.url}: {r.error}" for r in results if r.error][:10],
                   "fetch_seconds": round(fstats.seconds, 3),
                   "process_seconds": round(time.perf_counter() - t1, 3),
                   "seconds": round(time.perf_counter() - t0, 3),
                   "notes": fstats.notes[:50], "options": asdict(opts)}
        (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
        if progress:
            print(finished_line(summary, str(out)), file=sys.stderr)
        return results, summary
    finally:
        state.close()


def crawl(url: str, outdir: str | Path | None = None, **options: Any) -> Iterator[PageResult]:
    """Crawl a site and yield one :class:`PageResult` per page (its ``text``
    and ``markdown`` filled in), in crawl order. Keyword arguments are the
    fields of :class:`CrawlOptions` (``max_pages``, ``max_depth``,
    ``scope``, ``allow_private``...). Without ``outdir`` the state and
    files go to a temporary folder removed at the end."""
    progress = bool(options.pop("progress", False))
    opts = CrawlOptions(**options)
    if outdir is None:
        with tempfile.TemporaryDirectory(prefix="temex-crawl-") as tmp:
            results, _ = run_crawl(url, tmp, opts, progress)
            yield from results
        return
    results, _ = run_crawl(url, outdir, opts, progress)
    yield from results
