"""``temex candidates URL`` and the exploration flags it shares with
``temex extract URL``.

* :func:`add_explore_arguments`: options of exploring a live site;
* :func:`url_options` / :func:`url_limits`: those flags as the URL runner's
  :class:`~temex.site.runner.UrlOptions` and :class:`~temex.site.runner.Limits`;
* :func:`run_candidates`: print the pages sharing the template.

Progress of the page loads goes to stderr (:class:`temex.cli.progress.Progress`:
a bar on a terminal, plain lines otherwise, nothing with ``-q``). Failures of the key page raise
:class:`~temex.errors.PageLoadError`; the caller turns that into a one-line
message and exit status 1. The network stack is imported only when a URL is
explored.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import PageLoadError, ParameterError
from ..site.defaults import DEFAULT_MAX_LOADS, DEFAULT_N, ORDERS
from .common import (
    EXIT_FAILED,
    EXIT_INCOMPLETE,
    EXIT_OK,
    UsageError,
    add_guard_arguments,
    at_least,
    guard_settings,
    positive_float,
    positive_int,
    say,
)

if TYPE_CHECKING:
    from ..site.explore import Exploration
    from ..site.runner import Limits, UrlOptions
    from ..template.detectors import ExtractOptions

__all__ = [
    "ProgressLine",
    "add_explore_arguments",
    "add_parser",
    "check_target",
    "explore_from_args",
    "is_url",
    "run_candidates",
    "url_limits",
    "url_options",
]


def is_url(target: str) -> bool:
    """True when ``target`` should be explored over HTTP."""
    return target.lower().startswith(("http://", "https://"))


_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):(//)?")
_MISTYPED = re.compile(r"^https?(//|:/?(?!/))", re.IGNORECASE)
_HOST_PORT = re.compile(r"^[\w.-]+:\d+(/|$)")


def check_target(target: str, url_only: bool = False) -> None:
    """Refuse (UsageError, exit 2) a target that looks like a URL but is not
    an http(s) one, instead of reading it as a file name: ``ftp://…``,
    ``http//…``, ``http:/…``, ``host:port/path``. A file that exists is
    always a file."""
    if is_url(target) or target == "-":
        return
    if not url_only and os.path.exists(target):
        return
    if _MISTYPED.match(target):
        raise UsageError(f"{target}: not a valid URL (did you mean "
                         f"{target.split('/')[0].rstrip(':')}://…?); temex reads http:// "
                         "and https:// URLs, or local files")
    m = _SCHEME.match(target)
    if m and m.group(2):
        raise UsageError(f"{target}: {m.group(1)}:// URLs are not supported; temex reads "
                         "http:// and https:// URLs, or local files")
    if _HOST_PORT.match(target):
        raise UsageError(f"{target}: looks like host:port/path, not a URL nor a file; "
                         f"add the scheme: http://{target}")
    if url_only:
        raise UsageError(f"{target}: not an http:// or https:// URL")


def add_explore_arguments(parser: argparse.ArgumentParser, cs_size: bool = True) -> None:
    """Add the exploration options to ``parser`` (no positional argument).
    With ``cs_size=False`` the caller provides ``args.cs_size`` itself."""
    g = parser.add_argument_group("exploring a live site (TARGET is a URL)")
    if cs_size:
        g.add_argument("-n", "--n-pages", type=positive_int, default=DEFAULT_N, metavar="N",
                       help=f"pages sharing the template to find (default {DEFAULT_N})")
        g.add_argument("--cs-size", type=positive_int, dest="n_pages", help=argparse.SUPPRESS)
    g.add_argument("--max-loads", type=at_least(2), default=None, metavar="K",
                   help="most pages to load, key page included; at least 2 (default N+1: "
                        f"{DEFAULT_MAX_LOADS} with the default -n, chosen leaving one site out "
                        "in bench/eval/bench_explore.py)")
    g.add_argument("--same-host", action="store_true",
                   help="follow links to the key page's host only (default: same site)")
    g.add_argument("--ignore-robots", action="store_true",
                   help="do not obey robots.txt (only for sites you run)")
    # the old spelling, accepted for one more release
    g.add_argument("--no-robots", dest="ignore_robots", action="store_true",
                   help=argparse.SUPPRESS)
    g.add_argument("--cache", metavar="DIR", help="on-disk page cache (reused by later runs)")
    g.add_argument("--timeout", type=positive_float, default=20.0, metavar="SEC",
                   help="seconds per request (default 20)")
    g.add_argument("--concurrency", type=positive_int, default=4, metavar="C",
                   help="simultaneous requests per host (default 4)")
    g.add_argument("--max-bytes", type=positive_int, default=5 * 1024 * 1024, metavar="BYTES",
                   help="largest page read, raw and decompressed; a larger page is an error "
                        "(default 5 MiB, as temex crawl)")
    g.add_argument("--order", choices=ORDERS, default="menu",
                   help="link exploration order (default: menu)")
    add_guard_arguments(g)
    g.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    g.add_argument("--progress", action="store_true",
                   help="when stderr is not a terminal, a line per page load (default: "
                        "a line every few seconds)")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``candidates URL`` on an ``add_subparsers()`` object."""
    p: argparse.ArgumentParser = subparsers.add_parser("candidates", help="find pages sharing a URL's template",
                              description="Find pages of the site that share the template "
                                          "of the page at URL (complete subdigraph search).")
    p.add_argument("url", metavar="URL")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_explore_arguments(p)
    p.set_defaults(func=run_candidates)
    return p


class ProgressLine:
    """``progress`` callback of an exploration: page loads against
    ``--max-loads`` (:class:`~temex.cli.progress.Progress`)."""

    def __init__(self, command: str = "candidates", quiet: bool = False,
                 stream: TextIO | None = None, every: float | None = None) -> None:
        from .progress import Progress

        self.bar = Progress(None, command, "loads", quiet=quiet, stream=stream, every=every)

    def __call__(self, url: str, status: str, loads: int, max_loads: int) -> None:
        if self.bar.total != max_loads:
            self.bar.set_total(max_loads)
        self.bar.set_description(f"{status[:20]} {url}")
        self.bar.update(loads)

    def done(self) -> None:
        self.bar.close()


def url_options(args: argparse.Namespace, url: str, n: int,
                detector: ExtractOptions | None = None) -> UrlOptions:
    """The exploration flags as options of the URL runner. Raises
    ParameterError for values out of range."""
    from ..site.runner import UrlOptions

    # the budget follows -n: the key page and n more (DEFAULT_MAX_LOADS = DEFAULT_N + 1)
    max_loads = args.max_loads if args.max_loads is not None else n + 1
    for name, value in (("n", n), ("max_loads", max_loads),
                        ("concurrency", args.concurrency)):
        if value < 1:
            raise ParameterError(name.replace("_", "-"), "a positive int", value)
    if args.timeout <= 0:
        raise ParameterError("timeout", "a positive number", args.timeout)
    o = UrlOptions(url=url, n=n, max_loads=max_loads,
                   render=getattr(args, "render", False), order=args.order,
                   same_host=args.same_host, robots=not args.ignore_robots, cache=args.cache,
                   concurrency=args.concurrency, detector=detector)
    if detector is not None:
        o.method, o.equality, o.threshold = detector.method, detector.equality, detector.threshold
    return o


def url_limits(args: argparse.Namespace, opts: UrlOptions) -> Limits:
    """Caps of a command-line run: the user's own values (the server's
    defaults are for strangers' URLs)."""
    from ..site.runner import Limits

    allow_private, guard_allow = guard_settings(args)
    return Limits(allow_private=allow_private, guard_allow=guard_allow,
                  max_loads=opts.max_loads, max_n=opts.n, job_timeout=600.0,
                  page_timeout=args.timeout,
                  max_bytes=args.max_bytes)


def explore_from_args(args: argparse.Namespace) -> Exploration:
    """Explore ``args.url`` with the options of :func:`add_explore_arguments`
    (the URL runner's page source). Raises PageLoadError when the key page
    cannot be loaded, ParameterError for invalid options."""
    from ..site.explore import explore
    from ..site.runner import make_source
    from ..site.sources.netguard import check_url

    check_target(args.url, url_only=True)
    opts = url_options(args, args.url, args.n_pages)
    limits = url_limits(args, opts)
    # the guard, as in every command that fetches: before anything is sent
    check_url(opts.url, limits.allow_private, limits.guard_allow)
    source = make_source(opts, limits)
    progress = ProgressLine(getattr(args, "command", None) or "candidates",
                            quiet=getattr(args, "quiet", False),
                            every=0.0 if args.progress else None)
    try:
        return explore(opts.url, n=opts.n, max_loads=opts.max_loads, source=source,
                       same_host=opts.same_host, order=opts.order,
                       concurrency=opts.concurrency, progress=progress)
    finally:
        progress.done()


def run_candidates(args: argparse.Namespace) -> int:
    """``temex candidates URL``: print the CS pages, their mutual links and the
    load count. Returns the exit status (0 found, 1 key page failed or bad
    options, 3 fewer pages than asked for)."""
    try:
        ex = explore_from_args(args)
    except (PageLoadError, ParameterError) as e:
        say(str(e), "candidates")
        return EXIT_FAILED
    if getattr(args, "json", False):
        out = ex.summary()
        out["mutual_links"] = ex.mutual_edges()
        print(json.dumps(out, indent=2))
    else:
        print(f"key page: {ex.key.url}")
        state = "complete" if ex.complete else f"incomplete (asked for {ex.n})"
        print(f"pages sharing its template: {len(ex.cs)} ({state})")
        for u in ex.cs:
            print(f"  {u}")
        if ex.set_aside:  # found, not compared (site.pool.near_best)
            print("set aside:")
            for u, why in ex.set_aside.items():
                print(f"  {u}: {why}")
        print("mutual links:")
        for a, b in ex.mutual_edges():
            print(f"  {a} <-> {b}")
        print(f"loads: {ex.loads} (requests {ex.requests}, cache hits {ex.cache_hits})")
        for err in ex.errors:
            print(f"  skipped {err.page}: {err.error}")
    return EXIT_OK if ex.complete else EXIT_INCOMPLETE
