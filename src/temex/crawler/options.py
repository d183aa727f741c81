"""Options of a crawl (the flags of ``temex crawl``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..site.defaults import DEFAULT_NEAR_DUP

__all__ = ["CrawlOptions"]


@dataclass
class CrawlOptions:
    """Knobs of ``temex crawl`` / :func:`temex.crawl`.

    Discovery: ``scope`` (URL prefix; default the start URL's scheme, host and
    folder), ``max_pages`` (pages fetched per run), ``max_depth`` (links from
    the start page; sitemap pages count as depth 1), ``sitemaps``.
    Politeness: ``concurrency`` (requests at a time), ``delay`` (seconds
    between request starts; robots.txt ``Crawl-delay`` wins when larger),
    ``respect_robots``, ``allow_private`` (else the address guard refuses
    private, loopback and link-local addresses), ``guard_allow`` (the guard's
    allow-list: ``"127.0.0.1:8000"`` lets a local site in and nothing else;
    :func:`temex.site.sources.netguard.parse_allow`), ``timeout``, ``max_bytes``.
    Processing: ``output_format`` (``markdown`` or ``text``),
    ``n_pages`` (pages compared with each template's key page),
    ``cluster_threshold``, ``dedupe`` and ``near_dup_resemblance`` (a page is
    recorded as a duplicate of an earlier written page when its main text is
    the same, or when the resemblance (Jaccard) of the two texts' word
    3-shingle multisets reaches this value, in (0, 1]; default
    :data:`temex.site.defaults.DEFAULT_NEAR_DUP`;
    :mod:`temex.crawler.dedupe`, docs/CRAWL.md), ``warc`` (keep
    the raw responses in ``OUTDIR/responses.warc.gz``), ``site_index``
    (the repeated-text evidence: ``sample``, the first ``index_pages`` pages
    in crawl order, as ``temex batch`` does; ``all`` pages; ``none``),
    ``comments`` (``False``: ``--no-comments``, comment threads left out of
    the main text), ``detector`` (``VoteDetector`` parameters).
    """

    scope: str | None = None
    max_pages: int = 1000
    max_depth: int | None = None
    sitemaps: bool = True
    concurrency: int = 4
    delay: float = 0.0
    respect_robots: bool = True
    allow_private: bool = False
    guard_allow: tuple[str, ...] = ()
    timeout: float = 20.0
    max_bytes: int = 5 * 1024 * 1024
    output_format: str = "markdown"
    n_pages: int = 4
    cluster_threshold: float = 0.5
    dedupe: bool = True
    near_dup_resemblance: float = DEFAULT_NEAR_DUP
    site_index: str = "sample"
    index_pages: int = 24
    warc: bool = False
    comments: bool = True
    detector: dict[str, Any] = field(default_factory=dict)
