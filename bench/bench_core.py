"""Core benchmark: node-level accuracy and fit cost on the shared sites.

For every site under ../shared/data/sites (or $TEMEX_DATA/sites) and each of
its key pages, candidate pages are chosen offline by the rule of temex.pool,
then each configuration is fitted and scored against the site's gold
(temex.evaluate). Prints Markdown tables:

1. vote and intersect with n = 2, 3, 4, 6 candidate pages (our default relation);
2. the papers' relations (label, strict, weighted; no evidence, no region)
   against ours, n = 3, and what each of our two rules adds;
3. CPU time of fit per key page next to the time to parse the same pages.

Usage: python bench/bench_core.py [--data DIR] [--repeat R]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from temex.cli import default_data_dir
from temex.detectors import get_detector
from temex.dom import parse
from temex.evaluate import Scores, gold_mask, load_site, score_nodes, url_to_file
from temex.pool import choose_pages, load_file


def prepared(data: Path, n_max: int):  # type: ignore[no-untyped-def]
    """(site, key page, key doc, candidate docs, gold) for every key page."""
    out = []
    for folder in sorted((data / "sites").iterdir()):
        if not (folder / "site.json").is_file():
            continue
        site = load_site(folder)
        for kp in site.key_pages:
            f = url_to_file(site.root, kp)
            key = load_file(f)
            pages, _, _ = choose_pages(key, f, site.root, n_max)
            gold = gold_mask(key, site.content_selector, site.template_selector)
            out.append((site.name, kp, f, key, pages, gold))
    return out


def run(cases, method: str, n: int, **params):  # type: ignore[no-untyped-def]
    per_site: dict[str, Scores] = {}
    for name, _kp, f, key, pages, gold in cases:
        model = get_detector(method, **params).fit(key, pages[:n]).model_
        s = score_nodes(model.template, gold)
        per_site[name] = per_site[name] + s if name in per_site else s
    return per_site


def fmt(per_site: dict[str, Scores]) -> list[str]:
    cells = []
    for s in per_site.values():
        cells.append(f"{s.template[2]:.3f} / {s.content[2]:.3f}")
    tf = sum(s.template[2] for s in per_site.values()) / len(per_site)
    cf = sum(s.content[2] for s in per_site.values()) / len(per_site)
    cells.append(f"**{tf:.3f} / {cf:.3f}**")
    return cells


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=5, help="timing repetitions (min taken)")
    args = ap.parse_args()
    data = args.data or default_data_dir()
    if data is None:
        print("no data folder: give --data or set TEMEX_DATA", file=sys.stderr)
        return 1
    cases = prepared(data, 6)
    sites = list(dict.fromkeys(c[0] for c in cases))
    head = "| configuration | " + " | ".join(sites) + " | mean |"
    sep = "|---" * (len(sites) + 2) + "|"

    print("## Accuracy by method and number of candidate pages\n")
    print("Cells: template F1 / content F1, node level, all key pages of a site pooled.\n")
    print(head.replace("configuration", "method, n"))
    print(sep)
    for method in ("vote", "intersect"):
        for n in (2, 3, 4, 6):
            print(f"| {method}, n={n} | " + " | ".join(fmt(run(cases, method, n))) + " |")

    print("\n## Equality relations and our rules (vote, n=3)\n")
    print(head)
    print(sep)
    configs = [
        ("label (papers)", dict(equality="label", evidence=False, region=None)),
        ("strict (papers)", dict(equality="strict", evidence=False, region=None)),
        ("weighted (ETDM §4.2)", dict(equality="weighted", evidence=False, region=None)),
        ("text", dict(equality="text", evidence=False, region=None)),
        ("text + evidence", dict(equality="text", evidence=True, region=None)),
        ("label + evidence + region", dict(equality="label", evidence=True, region=0.8)),
        ("weighted + evidence + region", dict(equality="weighted", evidence=True, region=0.8)),
        ("text + evidence + region, majority inside", dict(region_threshold=0.5)),
        ("text + evidence + region, unanimity inside", dict(region_threshold=None)),
        ("**text + evidence + region, > 2/3 inside (default)**", dict()),
    ]
    for label, params in configs:
        print(f"| {label} | " + " | ".join(fmt(run(cases, "vote", 3, **params))) + " |")

    print("\n## Fit time against parse time (vote, n=3, per key page)\n")
    print("| site | key page | nodes | parse ms (key + 3 pages) | fit ms | fit / parse |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for name, kp, f, key, pages, _gold in cases:
        raw = [Path(f).read_bytes()] + [Path(p.url).read_bytes() for p in pages[:3]]
        t_parse = t_fit = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            docs = [parse(b) for b in raw]
            t1 = time.perf_counter()
            get_detector("vote").fit(docs[0], docs[1:])
            t2 = time.perf_counter()
            t_parse, t_fit = min(t_parse, t1 - t0), min(t_fit, t2 - t1)
        ratios.append(t_fit / t_parse)
        print(f"| {name} | {kp} | {len(key)} | {t_parse * 1000:.1f} | {t_fit * 1000:.1f} "
              f"| {t_fit / t_parse:.2f} |")
    print(f"| **mean** | | | | | **{sum(ratios) / len(ratios):.2f}** |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
