"""``temex eval [SITE ...]``: node-level P/R/F1 against the gold of the shared
sites (:mod:`temex.evaluate`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, add_method_arguments, extract_options

__all__ = ["add_parser", "cmd_eval"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    ev: argparse.ArgumentParser = sub.add_parser(
        "eval", help="score extraction against the gold of shared sites",
        description="Node-level P/R/F1 (template and content) per site "
                    "and key page, offline candidates (temex.site.pool rule).")
    ev.add_argument("sites", nargs="*", metavar="SITE",
                    help="site folders (with site.json) or names of sites under --data; "
                         "default: every site under --data")
    ev.add_argument("--data", metavar="DIR",
                    help="folder of sites (default: $TEMEX_DATA/sites, else shared/data/sites "
                         "beside the repository or in a parent of the current folder)")
    add_method_arguments(ev)
    ev.add_argument("--errors", type=int, default=0, metavar="N",
                    help="after the table, list each key page's N largest mislabelled "
                         "subtrees (path, elements, text): where to look first")
    ev.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    ev.set_defaults(func=cmd_eval)
    return ev


def _sites_in(base: Path) -> list[Path]:
    return sorted(p for p in base.iterdir() if (p / "site.json").is_file()) \
        if base.is_dir() else []


def cmd_eval(args: argparse.Namespace) -> int:
    from ..evaluate import evaluate_site, format_errors, format_table, load_site
    from ..evaluate.data import DATA_MISSING, find_data

    data = Path(args.data) if args.data else find_data()
    base = None
    if data is not None:
        base = data / "sites" if (data / "sites").is_dir() else data
    folders = []
    for s in args.sites:
        f = Path(s)
        if (f / "site.json").is_file():
            folders.append(f)
        elif base is not None and (base / s / "site.json").is_file():
            folders.append(base / s)
        else:
            known = [p.name for p in _sites_in(base)] if base is not None else []
            where = f" (sites in {base}: {', '.join(known)})" if known else \
                f" ({DATA_MISSING})"
            print(f"temex eval: {s}: no such site: not a folder with site.json nor a site "
                  f"name{where}", file=sys.stderr)
            return EXIT_FAILED
    if not args.sites:
        if base is None:
            print(f"temex eval: {DATA_MISSING}", file=sys.stderr)
            return EXIT_USAGE
        folders = _sites_in(base)
        if not folders:
            print(f"temex eval: {base}: no sites in it (folders with a site.json)",
                  file=sys.stderr)
            return EXIT_FAILED
    from .progress import Progress

    results = []
    with Progress(len(folders), "eval", "sites", quiet=args.quiet) as bar:
        for k, f in enumerate(folders):
            bar.set_description(f.name)
            results.extend(evaluate_site(load_site(f), extract_options(args),
                                        explain=args.errors > 0))
            bar.update(k + 1)
    if not results:
        print("temex eval: no key page could be scored", file=sys.stderr)
        return EXIT_FAILED
    sys.stdout.write(format_table(results))
    if args.errors > 0:
        sys.stdout.write(format_errors(results, args.errors))
    return EXIT_OK
