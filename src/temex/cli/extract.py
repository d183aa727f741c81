"""``temex extract TARGET``: the template of one key page, and its outputs.

TARGET is a local HTML file (candidate pages from ``--pages`` or
``--pages-dir``, chosen by the offline pool rule of :mod:`temex.site.pool`)
or an http(s) URL: then the one URL runner (:func:`temex.site.runner.extract_url`)
explores the site, with or without ``--render``, honouring every exploration
flag.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..content.formats import FORMATS
from .candidates import add_explore_arguments, is_url, url_limits, url_options
from .common import (
    DEFAULT_CS_SIZE,
    EXIT_FAILED,
    EXIT_OK,
    add_method_arguments,
    extract_options,
    write_output,
)

__all__ = ["add_parser", "cmd_extract"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    ex: argparse.ArgumentParser = sub.add_parser(
        "extract", help="extract the template of a key page",
        description="Extract the template of TARGET: a URL (the site is "
                    "explored for pages sharing its template) or a local "
                    "HTML file (with --pages or --pages-dir).")
    ex.add_argument("target", help="key page: http(s) URL or local HTML file")
    src = ex.add_argument_group("candidate pages")
    src.add_argument("--pages", nargs="+", default=[], metavar="FILE",
                     help="pages of the same site to compare with")
    src.add_argument("--pages-dir", metavar="DIR",
                     help="folder (local mirror) to choose candidate pages from")
    add_method_arguments(ex)
    add_explore_arguments(ex, cs_size=False)
    g = ex.add_argument_group("URL targets (rendering and address guard)")
    g.add_argument("--render", action="store_true",
                   help="load pages through headless Chromium so JavaScript-built pages "
                        "have their real DOM (needs playwright and /usr/bin/chromium)")
    g.add_argument("--no-private", action="store_true",
                   help="refuse private/loopback/link-local addresses, as the server does")
    out = ex.add_argument_group("output")
    out.add_argument("-f", "--format", choices=FORMATS, default="annotated",
                     help="output format (default: annotated)")
    out.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    ex.set_defaults(func=cmd_extract)
    return ex


def cmd_extract(args: argparse.Namespace) -> int:
    from ..api import extract_files
    from ..content.render import render

    if is_url(args.target):
        return _extract_url(args)
    model = extract_files(args.target, pages=args.pages, pages_dir=args.pages_dir,
                          options=extract_options(args))
    for e in model.errors:
        print(f"temex: skipped {e['page']}: {e['error']}", file=sys.stderr)
    if not model.pages:
        print("temex: no usable candidate pages (give --pages or --pages-dir)",
              file=sys.stderr)
        return EXIT_FAILED
    write_output(render(model, args.format), args.output)
    return EXIT_OK


def _extract_url(args: argparse.Namespace) -> int:
    """Explore, fit and write ``args.format`` through the URL runner."""
    from ..content.render import render
    from ..site.runner import NoTemplateFound, extract_url
    from .candidates import ProgressLine

    detector = extract_options(args)
    n = args.n_pages or DEFAULT_CS_SIZE
    opts = url_options(args, args.target, n, detector)
    limits = url_limits(args, opts)
    line = ProgressLine() if args.progress or sys.stderr.isatty() else None

    def progress(ev: dict[str, Any]) -> None:
        if line is not None and ev.get("type") == "page":
            line(str(ev["url"]), str(ev["status"]), int(ev["loads"]), int(ev["max_loads"]))

    try:
        result = extract_url(opts, limits, progress)
    except NoTemplateFound as e:
        print(f"temex: {e}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        if line is not None:
            line.done()
    for err in result.exploration.errors:
        print(f"temex: skipped {err.page}: {err.error}", file=sys.stderr)
    write_output(render(result.model, args.format), args.output)
    return EXIT_OK
