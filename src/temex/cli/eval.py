"""``temex eval [SITE ...]``: node-level P/R/F1 against the gold of the shared
sites (:mod:`temex.evaluate`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .common import EXIT_FAILED, EXIT_OK, add_method_arguments, extract_options

__all__ = ["add_parser", "cmd_eval", "default_data_dir"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    ev: argparse.ArgumentParser = sub.add_parser(
        "eval", help="score extraction against the gold of shared sites",
        description="Node-level P/R/F1 (template and content) per site "
                    "and key page, offline candidates (temex.site.pool rule).")
    ev.add_argument("sites", nargs="*", metavar="SITE",
                    help="site folders (with site.json); default: every site under --data")
    ev.add_argument("--data", metavar="DIR",
                    help="folder of sites (default: $TEMEX_DATA/sites or ../shared/data/sites)")
    add_method_arguments(ev)
    ev.set_defaults(func=cmd_eval)
    return ev


def default_data_dir() -> Path | None:
    env = os.environ.get("TEMEX_DATA")
    candidates = [Path(env)] if env else []
    here = Path.cwd()
    candidates += [here / ".." / "shared" / "data", here / "shared" / "data",
                   Path(__file__).resolve().parents[3].parent / "shared" / "data"]
    for c in candidates:
        if (c / "sites").is_dir():
            return c.resolve()
    return None


def cmd_eval(args: argparse.Namespace) -> int:
    from ..evaluate import evaluate_site, format_table, load_site

    folders = [Path(s) for s in args.sites]
    if not folders:
        data = Path(args.data) if args.data else default_data_dir()
        if data is None:
            print("temex: no data folder found; give SITE folders or --data",
                  file=sys.stderr)
            return EXIT_FAILED
        base = data / "sites" if (data / "sites").is_dir() else data
        folders = sorted(p for p in base.iterdir() if (p / "site.json").is_file())
    results = []
    for f in folders:
        results.extend(evaluate_site(load_site(f), extract_options(args)))
    sys.stdout.write(format_table(results))
    return EXIT_OK
