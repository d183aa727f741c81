"""Folder mode's apply cost: the learned decision, with and without the
mapping, against the hand-set choice.

    .venv/bin/python -m bench.perf.folder_decision [--pages 80] [SITE ...]

For each shared site (default: four of different kinds), the site index of
every page under its root (as ``temex content SITE_DIR``), then each of its
first ``--pages`` pages' content three ways, alternated, three rounds: with
``ContentParams(site_decision=False)`` (hand-set), with the decision on the
text counts (``temex content --no-mapping``) and with the mapped decision
(the default: :func:`temex.content.folder.key_page_mask`, which reads and
maps the pages the pool rule chooses, is timed with it, its surveyed
candidates kept across the site's pages as ``iter_folder`` keeps them); the fastest round
of each, in ms a page, and the ratios to the hand-set choice. The fit (the
index) is the same for all and not timed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bench.common import DATA_HELP, data_dir
from temex.content.extract import ContentParams, extract_content
from temex.content.folder import index_folder, key_page_mask
from temex.evaluate import load_site
from temex.page.dom import Document, parse
from temex.page.files import html_files, read_page
from temex.site.pool import SurveyCache
from temex.template.site_index import SiteIndex

SITES = ("klnet-forum", "americanpillowcase-shop", "cmsis-dv-doxygen", "pyconca2013-conference")

Way = Callable[[Document, Path, SiteIndex, Path], object]
HAND_SET = replace(ContentParams(), site_decision=False)
WAYS: dict[str, Way] = {
    "hand-set": lambda d, f, index, root: extract_content(d, index, None, HAND_SET),
    "decision": lambda d, f, index, root: extract_content(d, index),
    "mapped": lambda d, f, index, root: extract_content(
        d, index, mapped=key_page_mask(d, f, root, _SURVEYED)),
}
#: The folder's surveyed candidates, as iter_folder keeps them (one a site,
#: a fresh one each round: the first page of a round reads its pool).
_SURVEYED = SurveyCache()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="*", metavar="SITE")
    ap.add_argument("--data", help=DATA_HELP)
    ap.add_argument("--pages", type=int, default=80)
    args = ap.parse_args(argv)
    data = data_dir(args.data)
    total = dict.fromkeys(WAYS, 0.0)
    print("| site | pages | hand-set ms/page | decision ms/page | mapped ms/page | "
          "decision / hand-set | mapped / hand-set |\n|---|---:|---:|---:|---:|---:|---:|")
    for name in args.sites or SITES:
        site = load_site(data / "sites" / name)
        files = html_files(site.root)
        index, _, _ = index_folder(files, site.root)
        pages = [(parse(read_page(f), url=str(f)), f) for f in files[:args.pages]]
        best = dict.fromkeys(WAYS, float("inf"))
        for _ in range(3):
            for label, way in WAYS.items():
                global _SURVEYED
                _SURVEYED = SurveyCache()
                t = time.perf_counter()
                for d, f in pages:
                    way(d, f, index, site.root)
                best[label] = min(best[label], (time.perf_counter() - t) / len(pages))
        for label in WAYS:
            total[label] += best[label]
        _row(name, len(pages), best)
    _row("**sum**", "", total)
    return 0


def _row(name: str, pages: object, ms: dict[str, float]) -> None:
    h, d, m = ms["hand-set"], ms["decision"], ms["mapped"]
    print(f"| {name} | {pages} | {1000 * h:.1f} | {1000 * d:.1f} | {1000 * m:.1f} | "
          f"{d / h:.2f} | {m / h:.2f} |")


if __name__ == "__main__":
    raise SystemExit(main())
