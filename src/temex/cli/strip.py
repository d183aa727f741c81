"""``temex strip --template T PAGES...``: remove a saved site template from
pages the fit never saw, in linear time per page."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .common import (
    add_comments_argument,
    EXIT_FAILED,
    EXIT_OK,
    UsageError,
    add_force_argument,
    add_format_argument,
    is_stdio,
    load_page,
    output_exists,
    refuse_existing,
    say,
    write_output,
)

__all__ = ["STRIP_FORMATS", "add_parser", "cmd_strip"]

STRIP_FORMATS = ("content", "markdown", "annotated", "html", "template", "json")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    st: argparse.ArgumentParser = sub.add_parser("strip", help="strip a saved template from pages",
                        description="Remove a saved site template from pages the fit "
                                    "never saw, in linear time per page.")
    st.add_argument("pages", nargs="+", metavar="PAGE", help="HTML files; - reads one page from stdin")
    st.add_argument("--template", required=True, metavar="FILE", help="saved template JSON (- : stdin)")
    add_format_argument(st, STRIP_FORMATS, "output format (default: content)")
    add_comments_argument(st)
    st.add_argument("-o", "--output", metavar="OUT",
                    help="file (one page) or folder (several pages, or a path ending in /): "
                         "each page is written at its path relative to the pages' common "
                         "folder, with the format's suffix (a/index.html -> OUT/a/index.txt); "
                         "default or -: stdout")
    add_force_argument(st)

    st.set_defaults(func=cmd_strip)
    return st


_EXT = {"content": ".txt", "markdown": ".md", "annotated": ".html", "html": ".html",
        "template": ".html", "json": ".json"}


def output_names(pages: list[str], suffix: str) -> dict[str, Path]:
    """Output path (relative to the output folder) of every page: its path
    relative to the pages' deepest common folder, suffix replaced. Raises
    UsageError when two pages would be written to the same file."""
    dirs = [os.path.dirname(os.path.abspath(p)) for p in pages]
    base = os.path.commonpath(dirs) if dirs else "."
    names: dict[str, Path] = {}
    seen: dict[Path, str] = {}
    for p in pages:
        rel = Path(os.path.relpath(os.path.abspath(p), base)).with_suffix(suffix)
        if rel in seen:
            raise UsageError(f"{p} and {seen[rel]} would both be written to {rel}")
        seen[rel] = p
        names[p] = rel
    return names


def cmd_strip(args: argparse.Namespace) -> int:
    from ..content.extract import main_content
    from ..content.params import ContentParams
    from ..content.render import render
    from ..template.saved import SavedTemplate, strip

    if sum(is_stdio(p) for p in args.pages) > 1:
        raise UsageError("- (stdin) can be given once")
    if is_stdio(args.template):
        if any(is_stdio(p) for p in args.pages):
            raise UsageError("--template - and page - cannot both be read from stdin")
        import json

        from ..errors import ModelFormatError
        try:
            saved = SavedTemplate.from_dict(json.loads(sys.stdin.buffer.read()))
        except ValueError as e:
            raise ModelFormatError(f"stdin: not a saved template ({e})") from None
    else:
        saved = SavedTemplate.load(args.template)
    several = len(args.pages) > 1
    to_stdout = not args.output or is_stdio(args.output)
    outdir = None
    names: dict[str, Path] = {}
    if not to_stdout and (several or args.output.endswith(("/", os.sep))
                          or Path(args.output).is_dir()):
        outdir = Path(args.output)
        suffix = _EXT[args.format]
        names = output_names([p for p in args.pages if not is_stdio(p)], suffix)
        if any(is_stdio(p) for p in args.pages):
            if Path("stdin" + suffix) in names.values():
                raise UsageError(f"the page from stdin would overwrite stdin{suffix}")
            names["-"] = Path("stdin" + suffix)
    elif not to_stdout:
        refuse_existing(args.output, args.force)
    done = 0
    refused = 0
    for page in args.pages:
        exists = output_exists(outdir / names[page], args.force) if outdir else ""
        if exists:  # said and skipped before the work
            say(exists, "strip")
            refused += 1
            continue
        doc = load_page(page)
        if doc is None:
            continue
        done += 1
        if args.format in ("content", "markdown", "html"):
            # main content: template text mask + the saved site index (temex.content)
            main = main_content(saved, doc, ContentParams(comments=args.comments))
            text = {"content": main.text, "markdown": main.markdown,
                    "html": main.html}[args.format]() + "\n"
        else:
            text = render(strip(saved, doc), args.format)
        if outdir is not None:
            write_output(text, str(outdir / names[page]), args.force)
        elif not to_stdout:
            write_output(text, args.output, args.force)
        else:
            if several:
                sys.stdout.write(f"==> {page} <==\n")
            sys.stdout.write(text)
    if not done:
        say(f"{refused} output file(s) exist; nothing written (--force replaces them)"
            if refused else "no usable pages", "strip")
        return EXIT_FAILED
    if outdir is not None:
        say(f"{done} of {len(args.pages)} pages written under {outdir}/", "strip")
    if done < len(args.pages):
        say(f"{len(args.pages) - done} of {len(args.pages)} pages skipped"
            + (f" ({refused} whose output exists)" if refused else ""), "strip")
        return EXIT_FAILED
    return EXIT_OK
