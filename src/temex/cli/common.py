"""What the sub-commands share: exit codes, the detector flags and writing an
output to a file or stdout."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..site.defaults import DEFAULT_N as DEFAULT_CS_SIZE
from ..template.defaults import DEFAULT_EQUALITY, DEFAULT_N_PAGES, DEFAULT_REGION, EQUALITIES

if TYPE_CHECKING:
    from ..page.dom import Document
    from ..template.detectors import ExtractOptions

__all__ = ["DEFAULT_CS_SIZE", "EXIT_FAILED", "EXIT_INCOMPLETE", "EXIT_OK", "EXIT_USAGE", "add_method_arguments",
           "extract_options", "load_pages", "write_output"]

#: Exit codes of every command: success, the work failed (one-line reason on
#: stderr), bad usage (argparse), fewer CS pages than asked for (candidates).
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INCOMPLETE = 0, 1, 2, 3


def add_method_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("extraction")
    g.add_argument("--method", choices=["vote", "intersect", "rtdm", "chunks"], default="vote",
                   help="vote: TeMex majority vote (default); intersect: ETDM paper Alg. 2; "
                        "rtdm: RTDM-TD (Vieira et al.); chunks: text-chunk document frequency")
    g.add_argument("--equality", choices=sorted(EQUALITIES), default=DEFAULT_EQUALITY,
                   help=f"node equality relation (default: {DEFAULT_EQUALITY})")
    g.add_argument("--threshold", type=float, default=0.5,
                   help="vote: a node is template when more than this share of the "
                        "pages map it (default 0.5: a strict majority)")
    g.add_argument("-n", "--n-pages", type=int, default=None, metavar="N",
                   help=f"candidate pages to compare (default {DEFAULT_N_PAGES} from a "
                        f"folder; {DEFAULT_CS_SIZE} for a URL, the complete subdigraph size)")
    g.add_argument("--no-evidence", action="store_true",
                   help="count every mapped node as template (the papers' behaviour)")
    g.add_argument("--region", type=float, default=DEFAULT_REGION,
                   help=f"content-region coverage in (0, 1] (default {DEFAULT_REGION})")
    g.add_argument("--no-region", action="store_true", help="turn the content-region rule off")
    g.add_argument("--region-threshold", type=float, default=0.67,
                   help="vote inside the content region: more than this share of the pages "
                        "(default 0.67)")


def extract_options(args: argparse.Namespace) -> ExtractOptions:
    from ..template.detectors import ExtractOptions

    return ExtractOptions(method=args.method, equality=args.equality,
                          threshold=args.threshold,
                          n_pages=args.n_pages if args.n_pages else DEFAULT_N_PAGES,
                          evidence=not args.no_evidence,
                          region=None if args.no_region else args.region,
                          region_threshold=args.region_threshold)


def write_output(text: str, output: str | None) -> None:
    """Write ``text`` to the file ``output`` (folders made), or to stdout."""
    if output:
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def load_pages(paths: list[str]) -> list[Document]:
    """Read and parse page files; a page that cannot be used is reported on
    stderr and skipped."""
    from ..errors import ParseError
    from ..page.dom import parse
    from ..page.files import read_page, unusable

    docs = []
    for p in paths:
        try:
            doc = parse(read_page(p), url=p)
        except (OSError, ParseError) as e:
            print(f"temex: skipped {p}: {e}", file=sys.stderr)
            continue
        reason = unusable(doc)
        if reason:
            print(f"temex: skipped {p}: {reason}", file=sys.stderr)
            continue
        docs.append(doc)
    return docs
