"""Where the CPU of ``temex batch -j 1`` goes, step by step.

Runs :func:`temex.batch.pipeline.run_batch` in process (one worker) over the
content datasets of ``$TEMEX_DATA/content`` with
its steps wrapped in CPU timers (``time.process_time``; about a microsecond
per call, no profiler; a step's time excludes the timed steps it calls): the
fit of each site (its sample pages clustered, fitted, the site index), the
parse of every page (the sample pages' within the fit too), saving templates, the
template text mask, the main content, text, Markdown, metadata, the site
index look-up, writing; "other" is the rest (indexing, grouping, the nearest
cluster, stats, rows). Each step is also given as a multiple of the Lexbor
parse of the same pages (``LexborHTMLParser`` of the decoded text, timed
before the run).

    .venv/bin/python -m bench.perf.batch_shares [--datasets big9 dragnet ...] [--detail]

``--detail`` splits the fit (the ETDM mapping, the evidence rule, the
content-region rules, clustering, the site index, building the saved
template) and the main content (features, rules, scorer) into their parts.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from bench.common import data_dir
from temex.batch import pipeline, writers
from temex.batch.pipeline import BatchOptions, run_batch
from temex.content import extract
from temex.page import kernel
from temex.page.dom import decode_html
from temex.template.site_index import SiteIndex

clock = time.process_time
spent: dict[str, float] = {}
inside: list[list[float]] = []  # per open step: CPU of its timed sub-steps


def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its CPU added to ``spent[name]``, less the CPU of timed
    steps it calls (a sample page parsed by the fit counts as parse)."""
    def run(*args: Any, **kwargs: Any) -> Any:
        inside.append([0.0])
        t0 = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            t = clock() - t0
            nested = inside.pop()[0]
            spent[name] = spent.get(name, 0.0) + t - nested
            if inside:
                inside[-1][0] += t
    return run


def _detail_steps() -> dict[str, tuple[Any, str]]:
    """The parts of the fit and of the main content, patched where their
    callers look them up."""
    from temex.batch import grouping
    from temex.content import extract as ex
    from temex.template import saved, site_index
    from temex.template.detectors import base, vote

    out: dict[str, tuple[Any, str]] = {
        "fit: ETDM mapping": (base, "etdm"),
        "fit: evidence rule (supported_mapping)": (base, "supported_mapping"),
        "fit: content-region rules (apply_region)": (vote, "apply_region"),
        "fit: clustering (vocabulary, similarity)": (grouping, "similarity"),
        "fit: rank by similarity": (pipeline, "rank_by_similarity"),
        "fit: build saved template": (saved.SavedTemplate, "from_models"),
        "site index: page fingerprint": (site_index, "page_fingerprint"),
        "site index: block keys": (site_index.SiteIndex, "_keys"),
        "blocks (page_blocks)": (site_index, "page_blocks"),
    }
    from temex.content import scorer

    for owner, name in ((ex, "rule_signals"), (ex, "candidates"), (scorer, "block_features")):
        if hasattr(owner, name):  # the content model's stages move between versions
            out[f"main content: {name}"] = (owner, name)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+",
                    default=["big9", "cleanportaleval", "dragnet", "cleaneval"])
    ap.add_argument("--detail", action="store_true",
                    help="the fit and the main content split into their parts")
    args = ap.parse_args()
    data = data_dir()
    inputs = [str(data / "content" / d) for d in args.datasets]
    pages = sorted(p for d in inputs for p in Path(d).rglob("*.html"))
    base = 0.0
    for p in pages:
        text = decode_html(p.read_bytes())[0]
        t0 = clock()
        LexborHTMLParser(text)
        base += clock() - t0
    steps = {"fit (sample pages' parse excluded)": (pipeline, "_fit_clusters"),
             "parse (read, decode, Lexbor, Document)": (pipeline, "_load"),
             "save templates": (pipeline, "_save_templates"),
             "template text mask": (pipeline, "text_mask"),
             "main content": (pipeline, "extract_content"),
             "text": (extract.Content, "text"), "markdown": (extract.Content, "markdown"),
             "metadata": (pipeline, "page_metadata"), "site index look-up": (SiteIndex, "member"),
             "write": (writers.SiteWriter, "close")}
    if args.detail:
        steps.update(_detail_steps())
    for name, (owner, attr) in steps.items():
        setattr(owner, attr, timed(name, getattr(owner, attr)))
    out = Path(tempfile.mkdtemp(prefix="temex-shares-"))
    try:
        t0 = clock()
        s = run_batch(inputs, out / "o", BatchOptions(), workers=1, progress=False)
        total = clock() - t0
    finally:
        shutil.rmtree(out, ignore_errors=True)
    n = len(pages)
    spent["other (index, grouping, nearest cluster, stats, rows)"] = total - sum(spent.values())
    print(f"{s['pages']} pages of {', '.join(args.datasets)}, {s['sites']} sites; "
          f"{kernel.status()}; Lexbor parse {1000 * base / n:.2f} ms/page\n")
    print("| step | ms/page | × Lexbor parse | share |")
    print("|---|---|---|---|")
    for name, t in sorted(spent.items(), key=lambda x: -x[1]):
        print(f"| {name} | {1000 * t / n:.2f} | {t / base:.2f} | {100 * t / total:.0f}% |")
    print(f"| **all** | {1000 * total / n:.2f} | {total / base:.2f} | 100% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
