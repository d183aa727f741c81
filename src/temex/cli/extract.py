"""``temex extract TARGET``: the template of one key page, and its outputs.

TARGET is a local HTML file (candidate pages from ``--pages`` or
``--pages-dir``, chosen by the offline pool rule of :mod:`temex.site.pool`)
or an http(s) URL: then the one URL runner (:func:`temex.site.runner.extract_url`)
explores the site, with or without ``--render``, honouring every exploration
flag. ``-i FILE`` runs it on every URL of a list (trafilatura's ``-i``): a
result per URL, the failures listed at the end, exit 4 when some failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..content.formats import FORMATS
from .candidates import add_explore_arguments, check_target, is_url, url_limits, url_options
from .common import (
    DEFAULT_CS_SIZE,
    EXIT_FAILED,
    EXIT_INCOMPLETE,
    EXIT_OK,
    EXIT_PARTIAL,
    UsageError,
    add_comments_argument,
    add_force_argument,
    add_format_argument,
    add_method_arguments,
    extract_options,
    is_stdio,
    os_reason,
    output_exists,
    refuse_existing,
    require,
    say,
    write_output,
)

if TYPE_CHECKING:
    from ..site.runner import UrlResult
    from ..template.model import TemplateModel

__all__ = ["add_parser", "cmd_extract", "read_url_list"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    ex: argparse.ArgumentParser = sub.add_parser(
        "extract", help="extract the template of a key page",
        description="Extract the template of TARGET: a URL (the site is "
                    "explored for pages sharing its template) or a local "
                    "HTML file (compared with --pages or --pages-dir; alone, its "
                    "page-level main content), or - for one read from stdin; "
                    "or every URL of a list (-i FILE).")
    ex.add_argument("target", nargs="?",
                    help="key page: http(s) URL, local HTML file, or - (stdin)")
    ex.add_argument("-u", dest="u_target", metavar="URL",
                    help="the key page's URL (trafilatura's -u: the same as giving it as TARGET)")
    ex.add_argument("-i", "--input-file", metavar="FILE",
                    help="extract every URL of FILE (- : stdin) instead of TARGET: one URL a "
                         "line, blank lines and lines starting with # skipped; one result per "
                         "URL (-o DIR: a file each), the failures listed at the end (exit 4 "
                         "when some failed)")
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
    add_format_argument(out, FORMATS, "output format (default: content, the main text; "
                                      "annotated: the key page's HTML with template_node "
                                      "classes)")
    add_comments_argument(out)
    out.add_argument("--front-matter", "--with-metadata", dest="front_matter",
                     action="store_true",
                     help="with -f content or markdown: the page's metadata (title, authors, "
                          "date, site name, language, canonical URL, description) first as "
                          "YAML front matter")
    out.add_argument("-o", "--output", metavar="OUT",
                     help="write here instead of stdout (- : stdout); with -i, a folder")
    add_force_argument(out)
    ex.set_defaults(func=cmd_extract)
    return ex


def _output(model: TemplateModel, fmt: str, front_matter: bool, comments: bool = True) -> str:
    """``render(model, fmt)``; with ``front_matter`` (markdown), the key
    page's metadata first (nothing taken from its template); ``comments``:
    ``--no-comments`` leaves comment threads out of the main content."""
    from ..content.params import ContentParams
    from ..content.render import render

    text = render(model, fmt, ContentParams(comments=comments))
    if front_matter and fmt in FRONT_MATTER_FORMATS:
        from ..content.metadata import front_matter as yaml_head
        from ..content.metadata import page_metadata

        text = yaml_head(page_metadata(model.key, model.template), model.key.url) + text
    return text


#: The formats --front-matter (--with-metadata) writes the metadata ahead of;
#: json carries it always (its ``metadata``), so the flag changes nothing there.
FRONT_MATTER_FORMATS = ("content", "markdown")


def cmd_extract(args: argparse.Namespace) -> int:
    if args.front_matter and args.format not in (*FRONT_MATTER_FORMATS, "json"):
        raise UsageError(f"--front-matter (--with-metadata) is for -f content or markdown "
                         f"(-f json has the metadata always), not -f {args.format}")
    if args.u_target is not None:
        if args.target is not None:
            raise UsageError(f"-u {args.u_target} and TARGET {args.target}: give the key page "
                             "once")
        args.target = args.u_target
    if args.input_file is not None:
        if args.target is not None or args.pages or args.pages_dir or args.url:
            raise UsageError("-i FILE lists the URLs to extract: give no TARGET, --pages, "
                             "--pages-dir or --url with it")
        return _extract_list(args)
    if args.target is None:
        raise UsageError("give a TARGET (URL, file or -) or a list of URLs with -i FILE")
    check_target(args.target)
    refuse_existing(args.output, args.force)
    if args.url and not is_stdio(args.target):
        raise UsageError("--url is the address of a page read from stdin: give TARGET -")
    from ..api import extract_files

    if is_url(args.target):
        if args.pages or args.pages_dir:
            raise UsageError("--pages and --pages-dir are for a local key page; "
                             "a URL's candidates are found by exploring its site")
        return _extract_url(args)
    options = extract_options(args)
    key_path = args.target
    if is_stdio(args.target):
        key_path = _stdin_key(args)
    model = extract_files(key_path, pages=args.pages, pages_dir=args.pages_dir,
                          options=options, follow_stubs=not is_stdio(args.target))
    if is_stdio(args.target):
        model.key.url = args.url or "<stdin>"
    if model.extra.get("redirect_stubs") and not args.quiet:
        say(f"{args.target}: a redirect stub; its meta refresh followed to {model.key.url}",
            "extract")
    for e in model.errors:
        say(f"skipped {e['page']}: {e['error']}")
    if model.fallback:
        say(f"page-level fallback: {model.fallback}", "extract")
    write_output(_output(model, args.format, args.front_matter, args.comments), args.output,
                 args.force)
    asked = args.n_pages
    if args.pages_dir and asked and len(model.pages) < asked and not model.fallback:
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


def _run_url(args: argparse.Namespace, url: str, line: Any) -> UrlResult:
    """Explore and fit ``url`` through the URL runner with the command's flags;
    when no page shares its template, the page-level fallback (said on
    stderr)."""
    from ..site.runner import NoTemplateFound, extract_url

    detector = extract_options(args)
    n = args.n_pages or DEFAULT_CS_SIZE
    opts = url_options(args, url, n, detector)
    limits = url_limits(args, opts)

    def progress(ev: dict[str, Any]) -> None:
        if line is not None and ev.get("type") == "page":
            line(str(ev["url"]), str(ev["status"]), int(ev["loads"]), int(ev["max_loads"]))

    try:
        return extract_url(opts, limits, progress)
    except NoTemplateFound as e:
        from ..content.fallback import page_level_result

        result = page_level_result(e, opts)
        say(f"{url}: page-level fallback: {result.model.fallback}", "extract")
        return result


def _extract_url(args: argparse.Namespace) -> int:
    """Explore, fit and write ``args.format`` through the URL runner."""
    from .candidates import ProgressLine

    if args.render:
        require("playwright", "render", "--render")
    line = ProgressLine("extract", quiet=args.quiet, every=0.0 if args.progress else None)
    try:
        result = _run_url(args, args.target, line)
    finally:
        if line is not None:
            line.done()
    ex = result.exploration
    if ex.redirect_stubs and not args.quiet:
        say(f"{args.target}: a redirect stub; its meta refresh followed to {ex.key.url}",
            "extract")
    for err in ex.errors:
        say(f"skipped {err.page}: {err.error}")
    write_output(_output(result.model, args.format, args.front_matter, args.comments), args.output,
                 args.force)
    if not ex.complete and args.n_pages and not result.model.fallback:
        say(f"asked for {ex.n} pages sharing the template, found {len(ex.cs)} within "
            f"{ex.loads} loads; the template was fitted on {len(result.model.pages)} "
            "(raise --max-loads; exit 3)", "extract")
        return EXIT_INCOMPLETE
    return EXIT_OK


#: File suffix of each format (``-i FILE -o DIR``: one file per URL).
_SUFFIX = {"content": ".txt", "markdown": ".md", "html": ".html", "annotated": ".html",
           "template": ".html", "json": ".json"}


def read_url_list(path: str) -> list[str]:
    """The URLs of a list file (``-`` : stdin): one a line, surrounding
    spaces dropped, blank lines and ``#`` comment lines skipped (the format of
    trafilatura's ``-i``)."""
    from .common import read_input

    try:
        data = read_input(path) if is_stdio(path) else Path(path).read_bytes()
    except OSError as e:
        raise UsageError(f"-i {path}: cannot read ({os_reason(e)})") from None
    text = data.decode("utf-8", errors="replace")
    return [ln.strip() for ln in text.splitlines()
            if ln.strip() and not ln.strip().startswith("#")]


def _list_destination(out: Path, url: str, suffix: str) -> Path:
    """``OUT/HOST[_PORT]/PATH.suffix`` of one URL (the crawl's file names)."""
    from yarl import URL

    from ..crawler.urls import output_path

    u = URL(url)
    host = (u.host or "host") + (f"_{u.port}" if u.explicit_port else "")
    return out / host.replace(":", "_") / output_path(url, suffix)


def _extract_list(args: argparse.Namespace) -> int:
    """``extract -i FILE``: every URL in turn, a result each, the failures
    listed at the end; exit 0 all done, 4 some failed, 1 none done."""
    from ..errors import TemexError
    from ..site.runner import NoTemplateFound

    if args.render:
        require("playwright", "render", "--render")
    urls = read_url_list(args.input_file)
    if not urls:
        say(f"-i {args.input_file}: no URLs in it (one a line; # starts a comment)")
        return EXIT_FAILED
    out_dir = Path(args.output) if args.output and not is_stdio(args.output) else None
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"-o {args.output}: with -i, -o is a folder (one file per URL)")
    failed: list[tuple[str, str]] = []
    written: dict[Path, str] = {}
    for k, url in enumerate(urls, 1):
        if not args.quiet:
            say(f"[{k}/{len(urls)}] {url}")
        if not is_url(url):
            failed.append((url, "not an http:// or https:// URL"))
            continue
        dest = _list_destination(out_dir, url, _SUFFIX[args.format]) if out_dir else None
        exists = output_exists(dest, args.force) if dest and dest not in written else ""
        if exists:  # before any request
            failed.append((url, exists))
            continue
        try:
            result = _run_url(args, url, None)
        except (NoTemplateFound, TemexError, OSError, TimeoutError) as e:
            why = str(e) or type(e).__name__
            failed.append((url, why.removeprefix(f"{url}: ")))
            continue
        text = _output(result.model, args.format, args.front_matter, args.comments)
        if dest is None:
            if len(urls) > 1:
                sys.stdout.write(f"==> {url} <==\n")
            write_output(text, None)
            continue
        if dest in written:
            failed.append((url, f"its output {dest} is that of {written[dest]} already "
                                "(not overwritten)"))
            continue
        try:
            write_output(text, str(dest), args.force)
        except OSError as e:
            failed.append((url, f"{dest}: cannot write ({os_reason(e)})"))
            continue
        written[dest] = url
    for url, why in failed:  # the list of failures, at the end, even with -q
        say(f"failed: {url}: {why}")
    done = len(urls) - len(failed)
    if failed or not args.quiet:
        where = f" -> {out_dir}" if out_dir is not None else ""
        say(f"{done} of {len(urls)} URLs done, {len(failed)} failed{where}")
    if not failed:
        return EXIT_OK
    return EXIT_PARTIAL if done else EXIT_FAILED
