"""How near must two pages' texts be for ``temex crawl`` to call one a
duplicate of the other? The measurement behind ``near_dup_resemblance``
(docs/journal/2026-11-25-crawl-duplicates-the-threshold.md).

Per shared site: the crawl of :mod:`crawl_check` with ``dedupe=False`` (every
page written, its main text kept). For every pair of pages (earlier, later in
crawl order) the Jaccard resemblance of their word 3-shingle multisets (Broder
1997, "On the resemblance and containment of documents", section 2), as
:func:`temex.site.duplicates.jaccard` computes it. Recording the later page
as a duplicate of the earlier one means a reader gets the earlier page's text
for it; the *loss* of that is the share of the later page's gold tokens its
own text had and the earlier page's text has not (token recall, own minus
via the twin).

For each threshold: the pages the crawl's rule would record as duplicates
(a page is a duplicate of the most resembling earlier page *written* whose
resemblance reaches the threshold, as :mod:`temex.crawler.dedupe` does; it
also puts a page that is its own canonical URL first, which this leaves out), how many of
them lose more than 2% of their gold tokens, and the worst loss, per site and
overall; then leave-one-site-out: the lowest threshold with no such loss on
the 16 other sites, applied to the one left out.

Usage: .venv/bin/python -m bench.train.dup_threshold [--sites a,b]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.common import data_dir
from temex.crawler import CrawlOptions, run_crawl
from temex.crawler.dedupe import text_shingles
from temex.evaluate import load_site
from temex.evaluate.crawl_check import page_file, page_gold
from temex.page.tokens import token_prf
from temex.site.duplicates import jaccard
from temex.site.sources.localserve import serve_folder

THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 1.0)
LOSS = 0.02  # a duplicate "loses" when more than 2% of its gold tokens are gone


def site_pairs(folder: Path) -> tuple[str, int, list[tuple[int, int, float, float]]]:
    """(site, pages, [(i, j, resemblance, loss)]) for pairs with resemblance ≥ 0.5."""
    site = load_site(folder)
    start = site.meta.get("crawl_check", {}).get("start") or site.key_pages[-1]
    with tempfile.TemporaryDirectory(prefix="dup-threshold-") as tmp, \
            serve_folder(site.root) as base:
        results, _ = run_crawl(base + start, Path(tmp) / "crawl",
                               CrawlOptions(scope=base + "/", dedupe=False,
                                            guard_allow=(base.split("/")[2],)),
                               progress=False)
    pages: list[Any] = [r for r in results if not r.error and r.text]
    sets = [text_shingles(r.text) for r in pages]
    golds: dict[int, str | None] = {}

    def gold(k: int) -> str | None:
        if k not in golds:
            f = page_file(site.root, urlsplit(pages[k].final_url or pages[k].url).path)
            golds[k] = page_gold(f, site) if f.is_file() else None
        return golds[k]

    out = []
    for j in range(len(pages)):
        for i in range(j):
            a, b = sets[i], sets[j]
            small, large = sorted((len(a), len(b)))
            if not large or small / large < 0.5:  # resemblance ≤ small / large
                continue
            res = jaccard(a, b)
            if res < 0.5:
                continue
            g = gold(j)
            loss = 0.0
            if g is not None:
                loss = token_prf(pages[j].text, g)[1] - token_prf(pages[i].text, g)[1]
            out.append((i, j, res, loss))
    return site.name, len(pages), out


def merges(pairs: list[tuple[int, int, float, float]], t: float) -> list[float]:
    """Losses of the pages recorded as duplicates at threshold ``t``: each
    page against the first earlier page written (not itself a duplicate)."""
    dup: set[int] = set()
    losses = []
    by_j: dict[int, list[tuple[int, float, float]]] = {}
    for i, j, res, loss in pairs:
        by_j.setdefault(j, []).append((i, res, loss))
    for j in sorted(by_j):
        twins = [(res, -i, loss) for i, res, loss in by_j[j] if i not in dup and res >= t]
        if twins:  # the most resembling written page, then the earliest
            dup.add(j)
            losses.append(max(twins)[2])
    return losses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sites", default="")
    a = ap.parse_args()
    folders = sorted(p for p in (data_dir() / "sites").iterdir() if (p / "site.json").is_file())
    if a.sites:
        folders = [p for p in folders if p.name in set(a.sites.split(","))]
    rows = [site_pairs(f) for f in folders]
    print("Duplicates recorded at each resemblance threshold (word 3-shingle Jaccard): "
          f"pages recorded | of them losing > {LOSS:.0%} of their gold tokens | worst loss\n")
    print("| site | pages | " + " | ".join(f"≥ {t}" for t in THRESHOLDS) + " |")
    print("|---|---:|" + "---:|" * len(THRESHOLDS))
    for name, n, pairs in rows:
        cells = []
        for t in THRESHOLDS:
            ls = merges(pairs, t)
            bad = sum(x > LOSS for x in ls)
            cells.append(f"{len(ls)} / {bad} / {max(ls, default=0):.2f}")
        print(f"| {name} | {n} | " + " | ".join(cells) + " |", flush=True)
    print("\nLeave one site out: the lowest threshold with no duplicate losing more than "
          f"{LOSS:.0%} on the other sites, applied to the site left out\n")
    print("| left out | threshold | recorded | losing | worst loss |")
    print("|---|---:|---:|---:|---:|")
    for k, (name, _, pairs) in enumerate(rows):
        others = [p for m, (_, _, p) in enumerate(rows) if m != k]
        t = next((t for t in THRESHOLDS
                  if all(max(merges(p, t), default=0) <= LOSS for p in others)), 1.0)
        ls = merges(pairs, t)
        print(f"| {name} | {t} | {len(ls)} | {sum(x > LOSS for x in ls)} | "
              f"{max(ls, default=0):.2f} |")


if __name__ == "__main__":
    main()
