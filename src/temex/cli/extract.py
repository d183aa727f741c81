"""``temex extract TARGET``: the template of one key page, and its outputs.

TARGET is a local HTML file (candidate pages from ``--pages`` or
``--pages-dir``, chosen by the offline pool rule of :mod:`temex.site.pool`)
or an http(s) URL: then the one URL runner (:func:`temex.site.runner.extract_url`)
explores the site, with or without ``--render``, honouring every exploration
flag.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..content.formats import FORMATS
from .candidates import add_explore_arguments, check_target, is_url, url_limits, url_options
from .common import (
    DEFAULT_CS_SIZE,
    EXIT_FAILED,
    EXIT_INCOMPLETE,
    EXIT_OK,
    UsageError,
    add_method_arguments,
    extract_options,
    is_stdio,
    require,
    say,
    write_output,
)

__all__ = ["add_parser", "cmd_extract"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    ex: argparse.ArgumentParser = sub.add_parser(
        "extract", help="extract the template of a key page",
        description="Extract the template of TARGET: a URL (the site is "
                    "explored for pages sharing its template) or a local "
                    "HTML file, or - for one read from stdin (with --pages or --pages-dir).")
    ex.add_argument("target", help="key page: http(s) URL, local HTML file, or - (stdin)")
    ex.add_argument("--url", metavar="URL",
                    help="with TARGET -: the page's own address (kept in the json report; "
                         "its relative links are then resolved from the --pages-dir root)")
    src = ex.add_argument_group("candidate pages")
    src.add_argument("--pages", nargs="+", default=[], metavar="FILE",
                     help="pages of the same site to compare with")
    src.add_argument("--pages-dir", metavar="DIR",
                     help="folder (local mirror) to choose candidate pages from")
    add_method_arguments(ex)
    add_explore_arguments(ex, cs_size=False)
    g = ex.add_argument_group("URL targets (rendering)")
    g.add_argument("--render", action="store_true",
                   help="load pages through headless Chromium so JavaScript-built pages "
                        "have their real DOM (needs playwright and /usr/bin/chromium)")
    # old flag: the guard it asked for is now the default (accepted for one more release)
    g.add_argument("--no-private", action="store_true", help=argparse.SUPPRESS)
    out = ex.add_argument_group("output")
    out.add_argument("-f", "--format", choices=FORMATS, default="content",
                     help="output format (default: content, the main text; annotated: the "
                          "key page's HTML with template_node classes)")
    out.add_argument("-o", "--output", metavar="OUT",
                     help="write here instead of stdout (- : stdout)")
    ex.set_defaults(func=cmd_extract)
    return ex


def cmd_extract(args: argparse.Namespace) -> int:
    check_target(args.target)
    if args.url and not is_stdio(args.target):
        raise UsageError("--url is the address of a page read from stdin: give TARGET -")
    from ..api import extract_files
    from ..content.render import render

    if is_url(args.target):
        if args.pages or args.pages_dir:
            raise UsageError("--pages and --pages-dir are for a local key page; "
                             "a URL's candidates are found by exploring its site")
        return _extract_url(args)
    if not args.pages and not args.pages_dir:
        raise UsageError("a local key page needs candidate pages: give --pages FILE... "
                         "or --pages-dir DIR")
    options = extract_options(args)
    key_path = args.target
    if is_stdio(args.target):
        key_path = _stdin_key(args)
    model = extract_files(key_path, pages=args.pages, pages_dir=args.pages_dir,
                          options=options)
    if is_stdio(args.target):
        model.key.url = args.url or "<stdin>"
    for e in model.errors:
        say(f"skipped {e['page']}: {e['error']}")
    if not model.pages:
        where = f"in {args.pages_dir}" if args.pages_dir else "among --pages"
        say(f"no usable candidate pages {where} (other pages of the site with a body, "
            "readable HTML)", "extract")
        return EXIT_FAILED
    write_output(render(model, args.format), args.output)
    asked = args.n_pages
    if args.pages_dir and asked and len(model.pages) < asked:
        say(f"asked for {asked} candidate pages, {len(model.pages)} usable found in "
            f"{args.pages_dir}; the template was fitted on {len(model.pages)} (exit 3)",
            "extract")
        return EXIT_INCOMPLETE
    return EXIT_OK


def _stdin_key(args: argparse.Namespace) -> str:
    """Write the key page read from stdin to a private temporary file and
    return its path (the local-file path reads a file)."""
    import atexit
    import os
    import tempfile

    from .common import read_input

    data = read_input("-")
    fd, path = tempfile.mkstemp(prefix="temex-stdin-", suffix=".html")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    def remove() -> None:
        if os.path.exists(path):
            os.unlink(path)

    atexit.register(remove)
    return path


def _extract_url(args: argparse.Namespace) -> int:
    """Explore, fit and write ``args.format`` through the URL runner."""
    from ..content.render import render
    from ..site.runner import NoTemplateFound, extract_url
    from .candidates import ProgressLine

    if args.render:
        require("playwright", "render", "--render")
    detector = extract_options(args)
    n = args.n_pages or DEFAULT_CS_SIZE
    opts = url_options(args, args.target, n, detector)
    limits = url_limits(args, opts)
    line = ProgressLine("extract", quiet=args.quiet, every=0.0 if args.progress else None)

    def progress(ev: dict[str, Any]) -> None:
        if line is not None and ev.get("type") == "page":
            line(str(ev["url"]), str(ev["status"]), int(ev["loads"]), int(ev["max_loads"]))

    try:
        result = extract_url(opts, limits, progress)
    except NoTemplateFound as e:
        say(str(e))
        return EXIT_FAILED
    finally:
        if line is not None:
            line.done()
    for err in result.exploration.errors:
        say(f"skipped {err.page}: {err.error}")
    write_output(render(result.model, args.format), args.output)
    ex = result.exploration
    if not ex.complete and args.n_pages:
        say(f"asked for {ex.n} pages sharing the template, found {len(ex.cs)} within "
            f"{ex.loads} loads; the template was fitted on {len(result.model.pages)} "
            "(raise --max-loads; exit 3)", "extract")
        return EXIT_INCOMPLETE
    return EXIT_OK
