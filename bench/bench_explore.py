"""Benchmark of live exploration (issue 3) on the shared sites.

For every site of ``$TEMEX_DATA/sites`` (default ../shared/data relative to the
repository) and each of its key pages: serve the site on 127.0.0.1, run
``temex.site.explore.explore`` over HTTP (HttpSource, robots obeyed) and
``VoteDetector``, and score the key page's template against the gold
(``evaluate.gold_mask`` / ``score_nodes``). Repeated for several link orders
and CS sizes. Prints markdown tables (per site and averages).

    python bench/bench_explore.py [--n 2 3 4] [--orders menu paper] [--sites NAME ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# run from a clone as written in the docs: this clone's src/ first
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from temex.errors import PageLoadError
from temex.evaluate import NoGoldError, gold_mask, load_site, score_nodes
from temex.site.explore import explore, fit_exploration
from temex.site.sources.http import HttpSource
from temex.site.sources.localserve import serve_folder
from temex.template.detectors.vote import VoteDetector
from temex.template.equality import DEFAULT_EQUALITY


def data_dir() -> Path | None:
    env = os.environ.get("TEMEX_DATA")
    repo = Path(__file__).resolve().parents[1]
    for p in ([Path(env)] if env else []) + [repo.parent / "shared" / "data",
                                             Path("/work/shared/data")]:
        if (p / "sites").is_dir():
            return p
    return None


def synthetic_blog(folder: Path, posts: int = 12, seed: int = 1) -> list[str]:
    """A small blog whose articles link, in their text, to 4 other articles
    that do not link back: the case where in-text links cost loads. Every page
    has the same 5-item menu. Returns key page paths."""
    import random
    rnd = random.Random(seed)
    menu = ["/", "/blog/", "/about/", "/contact/", "/services/"]
    slugs = [f"post-{i}" for i in range(posts)]

    def page(path: str, body: str) -> None:
        nav = "".join(f"<li><a href='{m}'>{m.strip('/') or 'home'}</a></li>" for m in menu)
        html = (f"<html><body><header><nav><ul>{nav}</ul></nav></header><main>{body}</main>"
                f"<footer><p>(c) synthetic blog</p></footer></body></html>")
        target = folder / path.strip("/") / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, "utf-8")

    for m in menu:
        page(m, f"<h1>{m}</h1><p>Section page {m}.</p>")
    for s in slugs:
        others = rnd.sample([o for o in slugs if o != s], 4)
        text = " ".join(f"<p>See <a href='/blog/{o}/'>{o}</a> about topic {rnd.random():.4f}.</p>"
                        for o in others)
        page(f"/blog/{s}/", f"<article><h1>{s}</h1>{text}</article>")
    return [f"/blog/{s}/" for s in slugs[:5]]


def run_synthetic(orders: list[str], ns: list[int], max_loads: int) -> None:
    import tempfile
    print("\n| synthetic blog | order | n | loads | CS size |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        keys = synthetic_blog(Path(tmp))
        with serve_folder(tmp) as base:
            for order in orders:
                for n in ns:
                    res = [explore(base + k, n=n, max_loads=max_loads, order=order,
                                   source=HttpSource(concurrency=2)) for k in keys]
                    print(f"| blog | {order} | {n} | "
                          f"{statistics.fmean(r.loads for r in res):.2f} | "
                          f"{statistics.fmean(len(r.cs) for r in res):.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--orders", nargs="+", default=["menu", "menublock", "paper"])
    ap.add_argument("--sites", nargs="*")
    ap.add_argument("--max-loads", type=int, default=10)
    ap.add_argument("--equality", default=DEFAULT_EQUALITY)
    ap.add_argument("--detail", action="store_true", help="one row per key page")
    ap.add_argument("--synthetic", action="store_true",
                    help="also run the synthetic blog (in-text links that do not link back)")
    args = ap.parse_args(argv)
    data = data_dir()
    if data is None:
        print("no shared data (set TEMEX_DATA)", file=sys.stderr)
        return 2
    rows = []
    for folder in sorted((data / "sites").iterdir()):
        if not (folder / "site.json").is_file():
            continue
        site = load_site(folder)
        if args.sites and site.name not in args.sites:
            continue
        with serve_folder(site.root) as base:
            for order in args.orders:
                for n in args.n:
                    for kp in site.key_pages:
                        t0 = time.perf_counter()
                        try:
                            ex = explore(base + kp, n=n, max_loads=args.max_loads, order=order,
                                         source=HttpSource(concurrency=2))
                        except PageLoadError as e:  # the key page itself failed
                            print(f"skipped {site.name} {kp}: {e}", file=sys.stderr)
                            continue
                        model = fit_exploration(ex, VoteDetector(equality=args.equality))
                        wall = time.perf_counter() - t0
                        try:
                            s = score_nodes(model.template, gold_mask(
                                ex.key, site.content_selector, site.template_selector))
                            tp, tr, tf = s.template
                            cf = s.content[2]
                        except NoGoldError:
                            tp = tr = tf = cf = float("nan")
                        rows.append(dict(site=site.name, key=kp, order=order, n=n,
                                         loads=ex.loads, cs=len(ex.cs), tp=tp, tr=tr, tf=tf,
                                         cf=cf, wall=wall, cs_urls=[u[len(base):] for u in ex.cs]))
                        if args.detail:
                            r = rows[-1]
                            print(f"| {site.name} | {kp} | {order} | {n} | {r['loads']} | "
                                  f"{r['cs']} | {tf:.3f} | {cf:.3f} | {r['cs_urls']} |")

    def agg(sel: list[dict], k: str) -> float:
        vals = [r[k] for r in sel if r[k] == r[k]]
        return statistics.fmean(vals) if vals else float("nan")

    print("\n| site | order | n | loads | CS size | template P | template R | template F1 "
          "| content F1 | wall s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    sites = list(dict.fromkeys(r["site"] for r in rows))
    for order in args.orders:
        for n in args.n:
            for name in sites + ["**all**"]:
                sel = [r for r in rows if r["order"] == order and r["n"] == n
                       and (name == "**all**" or r["site"] == name)]
                if not sel:
                    continue
                print(f"| {name} | {order} | {n} | {agg(sel, 'loads'):.2f} | "
                      f"{agg(sel, 'cs'):.2f} | {agg(sel, 'tp'):.3f} | {agg(sel, 'tr'):.3f} | "
                      f"{agg(sel, 'tf'):.3f} | {agg(sel, 'cf'):.3f} | {agg(sel, 'wall'):.2f} |")
    if args.synthetic:
        run_synthetic(args.orders, args.n, args.max_loads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
