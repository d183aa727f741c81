"""The crawl check: does ``temex crawl`` lose a page, and how right is what
it writes? Prints the Markdown tables of docs/EVALUATION.md ("Crawl check");
the columns are described in :mod:`temex.evaluate.crawl_check`.

Usage: .venv/bin/python -m bench.eval.crawl_check [--sites a,b] [--detail K] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.common import data_dir
from temex.evaluate import load_site
from temex.evaluate.crawl_check import check_site


def _fmt(d: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items(), key=lambda kv: -kv[1])) or "–"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sites", default="", help="comma-separated site names (default all)")
    ap.add_argument("--max-pages", type=int, default=1000)
    ap.add_argument("--detail", type=int, default=0, metavar="K",
                    help="list the K worst written pages of each site")
    ap.add_argument("--json", default="", help="also write the rows to this file")
    a = ap.parse_args()
    folders = sorted(p for p in (data_dir() / "sites").iterdir() if (p / "site.json").is_file())
    if a.sites:
        want = set(a.sites.split(","))
        folders = [p for p in folders if p.name in want]
    print("temex crawl on the shared sites over 127.0.0.1, host scope, default options; "
          "token F1 of each written page's main text against its gold\n")
    print("| site | crawlable (html_ok) | fetched | written | duplicates (proof) | kept | errors | "
          "scored | no gold | F1 mean | F1 ≥ 0.95 | worst | dup F1 | dup loss | s |")
    print("|---|---:|---:|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for folder in folders:
        r = check_site(load_site(folder), a.max_pages, a.detail)
        rows.append(r)
        dup = f"{r['duplicates']}" + (f" ({_fmt(r['proofs'])})" if r["duplicates"] else "")
        errs = _fmt(r["errors"]) + (f"; robots {r['robots']}" if r["robots"] else "")
        print(f"| {r['site']} | {r['crawlable']} ({r['html_ok']}) | {r['fetched']} | {r['written']} | {dup} | "
              f"{r['kept']:.1%} | {errs} | {r['scored']} | {r['no_gold']} | "
              f"{r['f1_mean']:.3f} | {r['at_095']:.1%} | {r['f1_worst']:.3f} | {r['dup_f1']:.3f} | {r['dup_loss']:.3f} | "
              f"{r['seconds']:.1f} |", flush=True)
    ok = [r for r in rows if r["kept"] >= 0.95 and r["f1_mean"] >= 0.95]
    print(f"\n{len(ok)} of {len(rows)} sites with kept ≥ 95% and mean F1 ≥ 0.95.")
    ok = [r for r in rows if r["at_095"] >= 0.95]
    print(f"{len(ok)} of {len(rows)} sites with ≥ 95% of their written pages at F1 ≥ 0.95.")
    if a.detail:
        print("\nWorst written pages per site (F1, P, R; gold blocks missing from the page's "
              "text, extracted blocks not in the gold)\n")
        print("| site | page | template | F1 | P | R | missed | extra |")
        print("|---|---|---|---:|---:|---:|---|---|")
        for r in rows:
            for w in r["worst"]:
                print(f"| {r['site']} | `{w['url'][:70]}` | {w['template'] or 'page-level'} | "
                      f"{w['f1']:.3f} | {w['p']:.3f} | {w['r']:.3f} | {w['missed']} | "
                      f"{w['extra']} |")
        print("\nCrawlable files not kept (neither written nor a duplicate)\n")
        for r in rows:
            if r["missing"]:
                print(f"- {r['site']}: {len(r['missing'])}: "
                      + ", ".join(f"`{m}`" for m in r["missing"][:a.detail * 3]))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False), "utf-8")


if __name__ == "__main__":
    main()
