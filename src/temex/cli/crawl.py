"""``temex crawl URL -o OUTDIR``: a whole site to clean Markdown, its template
removed once per template (:mod:`temex.crawler`, docs/CRAWL.md)."""

from __future__ import annotations

import argparse
from typing import Any

from ..site.defaults import DEFAULT_NEAR_DUP
from .common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PARTIAL,
    add_comments_argument,
    add_guard_arguments,
    add_quiet_arguments,
    guard_settings,
    say,
)

__all__ = ["add_parser", "cmd_crawl"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    c: argparse.ArgumentParser = sub.add_parser(
        "crawl", help="crawl a site to clean Markdown, templates removed",
        description="Discover a site's pages politely (robots.txt, Crawl-delay, sitemaps, a "
                    "URL scope), group them by template, fit each template once and write "
                    "every page's main content as Markdown. Resumable: run it again on the "
                    "same OUTDIR to resume a killed crawl or to re-crawl with conditional "
                    "requests.")
    c.add_argument("url", metavar="URL", help="start page")
    c.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output folder")
    g = c.add_argument_group("discovery")
    g.add_argument("--scope", metavar="PREFIX",
                   help="URL prefix pages must start with (default: the start URL's host "
                        "and folder)")
    g.add_argument("--max-pages", type=int, default=1000,
                   help="pages fetched per run (default 1000)")
    g.add_argument("--depth", type=int, default=None, metavar="N",
                   help="follow links at most N steps from the start page (default: no limit)")
    g.add_argument("--no-sitemaps", action="store_true",
                   help="do not read robots.txt Sitemap lines and /sitemap.xml")
    g = c.add_argument_group("politeness and limits")
    g.add_argument("--concurrency", type=int, default=4,
                   help="requests at a time (default 4)")
    g.add_argument("--delay", type=float, default=0.0,
                   help="seconds between request starts (default 0; robots.txt Crawl-delay "
                        "wins when larger)")
    g.add_argument("--ignore-robots", action="store_true",
                   help="do not obey robots.txt (only for sites you run)")
    add_guard_arguments(g, "the crawl")
    g.add_argument("--timeout", type=float, default=20.0, help="seconds per page (default 20)")
    g.add_argument("--max-bytes", type=int, default=5 * 1024 * 1024,
                   help="largest page in bytes (default 5 MiB)")
    g = c.add_argument_group("output")
    g.add_argument("--format", choices=("markdown", "text"), default="markdown",
                   help="one .md (default) or .txt file per page")
    g.add_argument("--warc", action="store_true",
                   help="also keep the raw responses in OUTDIR/responses.warc.gz")
    g.add_argument("--no-dedupe", action="store_true",
                   help="write every page, duplicates too")
    g.add_argument("--near-dup", type=float, default=DEFAULT_NEAR_DUP, metavar="R",
                   help="record a page as a duplicate of an earlier one when its main text is "
                        "the same or the resemblance (Jaccard) of their word 3-shingles is at "
                        "least R, in (0, 1] (default %(default)s)")
    add_comments_argument(g)
    g.add_argument("-n", "--n-pages", type=int, default=4,
                   help="pages compared with each template's key page (default 4)")
    g.add_argument("--cluster-threshold", type=float, default=0.5,
                   help="structure similarity to join a template cluster (default 0.5)")
    g.add_argument("--site-index", choices=("sample", "all", "none"), default="sample",
                   help="repeated-text evidence from the first 24 pages (default, as temex "
                        "batch), from every page, or none")
    add_quiet_arguments(c)
    c.set_defaults(func=cmd_crawl)
    return c


def cmd_crawl(args: argparse.Namespace) -> int:
    from ..crawler import CrawlOptions, run_crawl

    allow_private, guard_allow = guard_settings(args)
    opts = CrawlOptions(scope=args.scope, max_pages=args.max_pages, max_depth=args.depth,
                        sitemaps=not args.no_sitemaps, concurrency=args.concurrency,
                        delay=args.delay, respect_robots=not args.ignore_robots,
                        allow_private=allow_private, guard_allow=guard_allow, timeout=args.timeout,
                        max_bytes=args.max_bytes, output_format=args.format,
                        warc=args.warc, dedupe=not args.no_dedupe,
                        near_dup_resemblance=args.near_dup, n_pages=args.n_pages,
                        cluster_threshold=args.cluster_threshold,
                        site_index=args.site_index, comments=args.comments)
    _, summary = run_crawl(args.url, args.output, opts, progress=not args.quiet)
    if not summary["usable"]:  # said even with --quiet
        first = next((n for n in summary.get("first_errors", [])), "")
        say(f"no page could be had from {summary['start']}"
            + (f" ({first})" if first else ""), "crawl")
        return EXIT_FAILED
    if summary.get("failed"):  # said even with -q: done, with failures
        if not args.quiet_errors:
            say(f"done with failures: {summary['failed']} of {summary['pages']} pages failed "
                f"(reasons in {args.output}/index.jsonl); exit 4", "crawl")
        return EXIT_PARTIAL
    return EXIT_OK
