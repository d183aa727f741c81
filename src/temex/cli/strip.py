"""``temex strip --template T PAGES...``: remove a saved site template from
pages the fit never saw, in linear time per page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .common import EXIT_FAILED, EXIT_OK, load_pages

__all__ = ["STRIP_FORMATS", "add_parser", "cmd_strip"]

STRIP_FORMATS = ("content", "markdown", "annotated", "html", "template", "json")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    st: argparse.ArgumentParser = sub.add_parser("strip", help="strip a saved template from pages",
                        description="Remove a saved site template from pages the fit "
                                    "never saw, in linear time per page.")
    st.add_argument("pages", nargs="+", metavar="PAGE", help="HTML files")
    st.add_argument("--template", required=True, metavar="FILE", help="saved template JSON")
    st.add_argument("-f", "--format", choices=STRIP_FORMATS, default="content",
                    help="output format (default: content)")
    st.add_argument("-o", "--output", metavar="OUT",
                    help="file (one page) or folder (several pages); default stdout")

    st.set_defaults(func=cmd_strip)
    return st


_EXT = {"content": ".txt", "markdown": ".md", "annotated": ".html", "html": ".html",
        "template": ".html", "json": ".json"}


def cmd_strip(args: argparse.Namespace) -> int:
    from ..content.extract import main_content
    from ..content.render import render
    from ..template.saved import SavedTemplate, strip

    saved = SavedTemplate.load(args.template)
    docs = load_pages(args.pages)
    if not docs:
        print("temex: no usable pages", file=sys.stderr)
        return EXIT_FAILED
    outdir = None
    if args.output and len(args.pages) > 1:
        outdir = Path(args.output)
        outdir.mkdir(parents=True, exist_ok=True)
    for doc in docs:
        if args.format in ("content", "markdown", "html"):
            # main content: template text mask + the saved site index (temex.content)
            main = main_content(saved, doc)
            text = {"content": main.text, "markdown": main.markdown,
                    "html": main.html}[args.format]() + "\n"
        else:
            text = render(strip(saved, doc), args.format)
        if outdir is not None:
            (outdir / (Path(doc.url).stem + _EXT[args.format])).write_text(text, "utf-8")
        elif args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            if len(docs) > 1:
                sys.stdout.write(f"==> {doc.url} <==\n")
            sys.stdout.write(text)
    return EXIT_OK if len(docs) == len(args.pages) else EXIT_FAILED
