"""``temex content DIR -o OUTDIR``: main content of every page of a folder.

For every ``NAME.html`` in DIR writes ``OUTDIR/NAME.txt`` (one block per
line; ``-f markdown|html|json`` for other formats). The other pages of DIR
are the site-level evidence (:mod:`temex.content.folder`). A page that cannot be
parsed yields an empty file and its reason in ``OUTDIR/report.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..content.extract import Content

__all__ = ["add_parser", "run_content"]

_EXT = {"text": ".txt", "markdown": ".md", "html": ".html", "json": ".json"}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``content`` command on an argparse subparsers object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "content", help="main content of every page of a folder",
        description="Write OUTDIR/NAME.txt with the main content of every NAME.html "
                    "in DIR, using the other pages of DIR as the site's evidence.")
    p.add_argument("dir", help="folder of HTML pages of one site")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output folder")
    p.add_argument("-f", "--format", choices=sorted(_EXT), default="text",
                   help="output format (default: text, one block per line)")
    p.add_argument("--etdm", type=int, default=0, metavar="K",
                   help="also fit the ETDM template of each page against its K most "
                        "similar pages (slower; default 0: repeated-text evidence only)")
    p.set_defaults(func=run_content)
    return p


def _render(c: Content, fmt: str) -> str:
    if fmt == "markdown":
        return c.markdown()
    if fmt == "html":
        return c.html()
    if fmt == "json":
        return json.dumps(c.report(), indent=2, ensure_ascii=False)
    return c.text()


def run_content(args: argparse.Namespace) -> int:
    """Run ``temex content``; returns the exit code (0 ok, 1 failed)."""
    src, out = Path(args.dir), Path(args.output)
    if not src.is_dir():
        print(f"temex content: {src}: not a folder", file=sys.stderr)
        return 1
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"temex content: {out}: cannot create ({e.strerror or e})", file=sys.stderr)
        return 1
    from ..content.folder import extract_folder

    res = extract_folder(src, etdm=args.etdm)
    if not res.contents:
        print(f"temex content: {src}: no HTML files", file=sys.stderr)
        return 1
    report: dict[str, Any] = {"folder": str(src), "timings": res.timings, "pages": {}}
    for name, c in res.contents.items():
        text = _render(c, args.format)
        (out / (Path(name).stem + _EXT[args.format])).write_text(
            text + ("\n" if text else ""), encoding="utf-8")
        report["pages"][name] = {"empty": not c.chosen, "reason": c.reason,
                                 "kept_blocks": len(c.chosen)}
    (out / "report.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    empty = sum(1 for c in res.contents.values() if not c.chosen)
    print(f"temex content: {len(res.contents)} pages, {empty} empty, fit "
          f"{res.timings['fit']:.2f}s, apply {1000 * res.timings['apply_per_page']:.1f} ms/page",
          file=sys.stderr)
    return 0
