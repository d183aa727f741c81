"""``temex content DIR -o OUTDIR``: main content of every page of a folder.

For every ``PATH.html`` under DIR (subfolders included) writes
``OUTDIR/PATH.txt`` (one block per line; ``-f markdown|html|json`` for other
formats). Every page of DIR is the site-level evidence
(:mod:`temex.content.folder`). A page that cannot be parsed yields an empty
file and its reason in ``OUTDIR/report.json``; the counts of pages read, done
(content found), empty and skipped go to stderr. ``DIR`` may be ``-``: one
page from stdin (its own evidence only); ``-o -`` (or no ``-o``) writes to
stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PARTIAL,
    add_comments_argument,
    add_force_argument,
    add_format_argument,
    is_stdio,
    output_exists,
    read_input,
    say,
    write_output,
)

if TYPE_CHECKING:
    from ..content.extract import Content

__all__ = ["add_parser", "run_content"]

_EXT = {"content": ".txt", "markdown": ".md", "html": ".html", "json": ".json"}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``content`` command on an argparse subparsers object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "content", help="main content of every page of a folder",
        description="Write OUTDIR/PATH.txt with the main content of every PATH.html "
                    "under DIR (subfolders included), using every page of DIR as the "
                    "site's evidence. A FILE, or - (stdin), is one page alone.")
    p.add_argument("dir", metavar="DIR", help="folder of HTML pages of one site, one HTML "
                                             "file, or - (stdin)")
    p.add_argument("-o", "--output", metavar="OUTDIR",
                   help="output folder (default or -: stdout, one ==> PATH <== header "
                        "per page when there are several)")
    add_force_argument(p)
    add_format_argument(p, tuple(_EXT), "output format (default: content, one block per line)")
    p.add_argument("--front-matter", "--with-metadata", dest="front_matter", action="store_true",
                   help="with -f content or markdown: the page's metadata (title, authors, "
                        "date, site name, language, canonical URL, description) first as YAML "
                        "front matter")
    add_comments_argument(p)
    p.add_argument("--etdm", type=int, default=0, metavar="K",
                   help="also fit the ETDM template of each page against its K most "
                        "similar pages (slower; default 0: repeated-text evidence only)")
    p.add_argument("--no-mapping", dest="mapping", action="store_false",
                   help="folder: decide each page from the folder's repeated text and the "
                        "page alone, without mapping it with the pages the offline pool rule "
                        "chooses for it (several times faster, less accurate)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary on stderr (skipped pages are still said)")
    p.set_defaults(func=run_content)
    return p


def _render(c: Content, fmt: str, front_matter: bool = False) -> str:
    if fmt == "markdown":
        return c.markdown(front_matter=front_matter)
    if fmt == "html":
        return c.html()
    if fmt == "json":
        return json.dumps(c.report(), indent=2, ensure_ascii=False)
    return c.text(front_matter=front_matter)


def _one_page(data: bytes, url: str, name: str, args: argparse.Namespace) -> int:
    """Main content of one page (stdin or a file): the page alone, no site."""
    from ..content.extract import extract_content
    from ..page.dom import parse
    from ..template.site_index import SiteIndex

    doc = parse(data, url=url)
    if doc.body < 0:
        say(f"{name}: the page has no body", "content")
        return EXIT_FAILED
    from dataclasses import replace

    from ..content.extract import ContentParams

    params = replace(ContentParams(), comments=args.comments)
    text = _render(extract_content(doc, SiteIndex([doc]), params=params), args.format,
                   args.front_matter)
    body = text + ("\n" if text else "")
    if not args.output or is_stdio(args.output):
        sys.stdout.write(body)
        return EXIT_OK
    dest = Path(args.output) / Path(name).with_suffix(_EXT[args.format]).name
    try:
        if _write_new(body, dest, args.force):
            return EXIT_FAILED
    except OSError as e:
        say(f"{dest}: cannot write ({e.strerror or e})", "content")
        return EXIT_FAILED
    return EXIT_OK


def _write_new(text: str, dest: Path, force: bool) -> int:
    """Write ``dest`` unless it exists (said on stderr, 1 returned; with
    ``force`` it is replaced); 0 when written."""
    refused = output_exists(dest, force)
    if refused:
        say(refused, "content")
        return 1
    write_output(text, str(dest), force)
    return 0


def run_content(args: argparse.Namespace) -> int:
    """Run ``temex content``; returns the exit code (0 ok, 1 failed)."""
    if args.etdm < 0:
        from .common import UsageError
        raise UsageError(f"--etdm {args.etdm}: give 0 (off) or a positive number of pages")
    if is_stdio(args.dir):
        return _one_page(read_input("-"), "<stdin>", "stdin", args)
    src = Path(args.dir)
    if src.is_file():  # one page, no site behind it
        try:
            data = src.read_bytes()
        except OSError as e:
            say(f"{src}: cannot read ({e.strerror or e})", "content")
            return EXIT_FAILED
        return _one_page(data, args.dir, src.name, args)  # the path as given
    to_stdout = not args.output or is_stdio(args.output)
    if not src.is_dir():
        say(f"{src}: no such folder or file", "content")
        return EXIT_FAILED
    out = Path(args.output) if not to_stdout else None
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            say(f"{out}: cannot create ({e.strerror or e})", "content")
            return EXIT_FAILED
    from dataclasses import replace
    from itertools import chain

    from ..content.extract import ContentParams
    from ..content.folder import iter_folder
    from .progress import Progress

    report: dict[str, Any] = {"folder": str(src), "timings": {}, "pages": {}}
    errors: dict[str, str] = {}
    refused = empty = 0
    with Progress(None, "content", "pages", quiet=args.quiet) as bar:
        state = {"stage": ""}

        def tick(stage: str, k: int, total: int) -> None:
            if stage != state["stage"]:
                state["stage"] = stage
                bar.stage(stage, total)
            bar.update(k)

        # one page at a time, written as soon as its content is had (a
        # folder's pages are never all in memory); the first two tell
        # whether stdout needs a header per page
        pages = iter_folder(src, replace(ContentParams(), comments=args.comments),
                            etdm=args.etdm, recursive=True, progress=tick,
                            timings=report["timings"], errors=errors, mapping=args.mapping)
        head = [p for p in (next(pages, None), next(pages, None)) if p is not None]
        several = len(head) > 1
        for name, c in chain(head, pages):
            text = _render(c, args.format, args.front_matter)
            body = text + ("\n" if text else "")
            if out is None:
                if several:
                    sys.stdout.write(f"==> {name} <==\n")
                sys.stdout.write(body)
            else:
                refused += _write_new(body, out / Path(name).with_suffix(_EXT[args.format]),
                                      args.force)
            report["pages"][name] = {"empty": not c.chosen, "reason": c.reason,
                                     "kept_blocks": len(c.chosen)}
            empty += not c.chosen and name not in errors
    if not report["pages"]:
        say(f"{src}: no HTML files (.html, .htm, .xhtml, .shtml) in it or its subfolders",
            "content")
        return EXIT_FAILED
    if out is not None:
        refused += _write_new(json.dumps(report, indent=2), out / "report.json", args.force)
    skipped = len(errors)
    read = len(report["pages"])
    done = read - skipped - empty
    if refused:  # even with -q: what was not written is never silent
        say(f"{refused} output file(s) exist and were not overwritten (--force replaces "
            "them; exit 4)", "content")
    if args.quiet and not skipped:
        return EXIT_PARTIAL if refused else EXIT_OK
    say(f"{read} pages read, {done} done, {empty} with no main "
        f"content, {skipped} skipped (unreadable; reasons in "
        f"{'report.json' if out is not None else 'the json format'}); fit "
        f"{report['timings']['fit']:.2f}s, apply {1000 * report['timings']['apply_per_page']:.1f} "
        "ms/page",
        "content")
    return EXIT_PARTIAL if refused else EXIT_OK
