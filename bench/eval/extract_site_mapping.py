"""``temex.extract_site`` with and without the mapping, on every shared site.

    .venv/bin/python -m bench.eval.extract_site_mapping [--per-site 10] [--others 10] [SITE ...]

For each site of ``DATA/sites``, the first ``--per-site`` pages of the fixed
sample of :func:`temex.evaluate.pages.site_sample` (seed 0), each given the
next ``--others`` sampled pages as ``pages`` (a caller that holds a few pages
of the site, not its folder); token F1 of ``temex.extract_site(...,
format="text")`` against the gold text with the mapping (the default: the
page mapped with its most similar given pages) and ``mapping=False`` (the
text counts alone), the page alone (``temex.extract``) beside them, and the
seconds each path took. The shipped decisions read every shared site, so this
is in sample: it compares the two paths, not temex with its peers
(``bench.eval.every_page`` and the left-out tables do that).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import temex
from bench.common import DATA_HELP, data_dir
from temex.evaluate.pages import site_sample
from temex.page.files import read_page
from temex.page.tokens import token_prf


def site_rows(site_dir: Path, per_site: int, n_others: int) -> list[tuple[float, ...]]:
    """Per scored page: F1 mapped, F1 text counts, F1 page alone, seconds
    mapped, seconds text counts."""
    sample = site_sample(site_dir, per_site + n_others, 0)
    pages = [(read_page(f), g) for f, g in sample.pages]
    rows = []
    for i, (html, gold) in enumerate(pages[:per_site]):
        others = [h for j, (h, _) in enumerate(pages) if j != i][:n_others]
        t0 = time.perf_counter()
        mapped = temex.extract_site(html, others, format="text") or ""
        t1 = time.perf_counter()
        counts = temex.extract_site(html, others, format="text", mapping=False) or ""
        t2 = time.perf_counter()
        alone = temex.extract(html, format="text") or ""
        rows.append((token_prf(mapped, gold)[2], token_prf(counts, gold)[2],
                     token_prf(alone, gold)[2], t1 - t0, t2 - t1))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=None, help=DATA_HELP)
    ap.add_argument("--per-site", type=int, default=10)
    ap.add_argument("--others", type=int, default=10)
    ap.add_argument("sites", nargs="*", metavar="SITE")
    args = ap.parse_args(argv)
    data = data_dir(args.data)
    dirs = sorted(p for p in (data / "sites").iterdir() if (p / "site.json").is_file()
                  and (not args.sites or p.name in args.sites))
    table = []
    for d in dirs:
        rows = site_rows(d, args.per_site, args.others)
        if rows:
            table.append((d.name, *(statistics.fmean(c) for c in zip(*rows))))
    table.sort(key=lambda r: r[1] - r[2])
    print("| site | mapped | text counts | mapped - counts | page alone | seconds mapped / "
          "counts |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, m, c, a, tm, tc in table:
        print(f"| {name} | {m:.3f} | {c:.3f} | {m - c:+.3f} | {a:.3f} | {tm / tc:.1f}x |")
    if table:
        cols = list(zip(*table))
        m, c, a = (statistics.fmean(cols[k]) for k in (1, 2, 3))
        ratio = sum(cols[4]) / sum(cols[5])
        print(f"| **mean, {len(table)} sites** | {m:.3f} | {c:.3f} | {m - c:+.3f} | {a:.3f} | "
              f"{ratio:.1f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
