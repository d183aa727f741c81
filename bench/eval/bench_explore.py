"""Benchmark of live exploration on the shared sites.

For every site of ``$TEMEX_DATA/sites`` (README.md, "Evaluation data"; relative to the
repository) and each of its key pages: serve the site on 127.0.0.1, run
``temex.site.explore.explore`` over HTTP (HttpSource, robots obeyed) and
``VoteDetector``, and score the key page's template against the gold
(``evaluate.gold_mask`` / ``score_nodes``). Repeated for several link orders
and CS sizes. Prints markdown tables (per site and averages).

    .venv/bin/python -m bench.eval.bench_explore [--n 2 3 4] [--orders menu paper] [--sites NAME ...]
    .venv/bin/python -m bench.eval.bench_explore --loso [--n 3] [--sites NAME ...]
    .venv/bin/python -m bench.eval.bench_explore --subsets 40 [--sites NAME ...]

``--loso``: every site's key pages are explored once per
exploration setting of ``EXPLORE_GRID`` (load budget, kind-first links, variant
URLs last, near-duplicate threshold; default order, n = 3), then every
detector point of ``bench_core.GRID`` is fitted on the same pages; prints per
site the loads (pages requested), template F1 and content F1 (node level, key
pages pooled) of the default, in-sample, and leave-one-site-out (the grid
point best on the other sites by the highest worst-site min(template F1,
content F1), ties by the mean, then by fewer loads, among the points within
the load budget: mean <= 4, no site above 5), and the worst site.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from bench.common import data_dir
from temex.errors import PageError, PageLoadError
from temex.evaluate import NoGoldError, gold_mask, load_site, score_nodes
from temex.site.explore import DEFAULT_KIND_FIRST, DEFAULT_MAX_LOADS, explore, fit_exploration
from temex.site.sources.http import HttpSource
from temex.site.sources.localserve import serve_folder
from temex.template.detectors.vote import VoteDetector
from temex.template.equality import DEFAULT_EQUALITY


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


#: Exploration settings of the ``--loso`` grid: the load budget
#: (``max_loads``, key page included), links of the key page's kind and
#: folder first (``kind_first``), variant URLs last (``variants``), the
#: near-duplicate threshold (``duplicate``), second-hop links of the key
#: page's kind for leaf key pages (``second_hop``: 0 off, None for the
#: default limit 2n + 2, :class:`temex.site.second_hop.SecondHop`), links to the
#: key page's URL ancestors last (``ancestors``, round 2).
EXPLORE_GRID = [dict(max_loads=ml, kind_first=kf, variants=True, duplicate=dup, second_hop=sh,
                     ancestors=an)
                for ml in (4, 5) for kf in (0, 3) for dup in (None, 0.7) for sh in (0, None)
                for an in (False, True)]
#: Detector points of the live ``--loso`` grid: the seventeen-site rules (on
#: / off) with the candidate-choice parameters at their defaults, and the
#: first region rules off (the offline grid, ``bench_core.GRID``, varies them all).
LIVE_DETECTOR_GRID = [dict(evidence_share=es, record_share=rs, closure=cl, digits=es is not None,
                           site_title=st, query_forms=qf, link_types=lt, named_lists=nl,
                           labels=lb, moved=mv, kind_vote=kv)
                      for es, cl, rs in ((0.5, True, 0.5), (None, False, None))
                      for mv in (None, 20)
                      for kv in (False, True)
                      for st in (False, True) for qf in (False, True)
                      for lt, nl, lb in ((None, False, False), (200, True, True))]


def loso(data: Path, n: int, only: list[str] | None,
         fill: bool = True, grid: list | None = None,  # type: ignore[type-arg]
         explore_grid: list | None = None) -> None:  # type: ignore[type-arg]
    """The ``--loso`` table (module docstring)."""
    from bench.eval.bench_core import DEFAULT_POINT, POOL_KEYS, cached_etdm, fmt_point
    from temex.content.fallback import page_level_fallback
    from temex.evaluate import Scores
    from temex.site.duplicates import DEFAULT_DUPLICATE
    from temex.site.explore import DEFAULT_ANCESTORS_LAST, DEFAULT_SECOND_HOP, DEFAULT_VARIANTS
    from temex.template.detectors import get_detector

    cached_etdm()
    sites = [load_site(f) for f in sorted((data / "sites").iterdir())
             if (f / "site.json").is_file()]
    sites = [s for s in sites if not only or s.name in only]
    names = [s.name for s in sites]
    detector_grid = [{k: v for k, v in g.items() if k not in POOL_KEYS}
                     for g in (grid if grid is not None else LIVE_DETECTOR_GRID)]
    detector_grid = [dict(t) for t in dict.fromkeys(tuple(g.items()) for g in detector_grid)]
    egrid = explore_grid if explore_grid is not None else EXPLORE_GRID
    GRID = [{**e, **d} for e in egrid for d in detector_grid]
    default_point = {"max_loads": DEFAULT_MAX_LOADS, "kind_first": DEFAULT_KIND_FIRST,
                     "variants": DEFAULT_VARIANTS,
                     "duplicate": DEFAULT_DUPLICATE, "second_hop": DEFAULT_SECOND_HOP,
                     "ancestors": DEFAULT_ANCESTORS_LAST,
                     **{k: v for k, v in DEFAULT_POINT.items() if k not in POOL_KEYS}}
    ekeys = ("max_loads", "kind_first", "variants", "duplicate", "second_hop", "ancestors")
    cases: dict[tuple, list] = {}  # type: ignore[type-arg]
    for site in sites:
        with serve_folder(site.root) as base:
            for e in egrid:
                ek = tuple(e[k] for k in ekeys)
                for kp in site.key_pages:
                    try:
                        ex = explore(base + kp, n=n, max_loads=e["max_loads"],
                                     source=HttpSource(concurrency=2), duplicate=e["duplicate"],
                                     kind_first=e["kind_first"], variants=e["variants"],
                                     second_hop=e["second_hop"], ancestors=e["ancestors"],
                                     fill=fill)
                        gold = gold_mask(ex.key, site.content_selector, site.template_selector)
                    except (PageLoadError, NoGoldError) as err:
                        print(f"skipped {site.name} {kp}: {err}", file=sys.stderr)
                        continue
                    cases.setdefault(ek, []).append((site.name, ex.key, ex.pages, gold,
                                                     ex.requests))
    results = []
    for g in GRID:
        params = {k: v for k, v in g.items() if k not in ekeys}
        per: dict[str, Scores] = {}
        loads: dict[str, list[int]] = {}
        for name, key, pages, gold, ld in cases.get(tuple(g[k] for k in ekeys), []):
            model = get_detector("vote", **params).fit(key, pages).model_
            if not pages:  # what temex extract answers
                page_level_fallback(model, "no page sharing its template was found")
            sc = score_nodes(model.template, gold)
            per[name] = per[name] + sc if name in per else sc
            loads.setdefault(name, []).append(ld)
        results.append({k: (v.template[2], v.content[2], statistics.fmean(loads[k]),
                            max(loads[k])) for k, v in per.items()})

    default = next((k for k, g in enumerate(GRID) if g == default_point), None)

    def score(r: dict, on: list[str]) -> tuple[float, float]:  # type: ignore[type-arg]
        vals = [min(r[s][0], r[s][1]) for s in on if s in r]
        return (min(vals), sum(vals) / len(vals)) if vals else (0.0, 0.0)

    def loads_of(r: dict, on: list[str]) -> float:  # type: ignore[type-arg]
        return statistics.fmean(r[s][2] for s in on if s in r) if r else 99.0

    def pick(on: list[str]) -> int:
        # highest worst site, then mean, then fewest loads; a point whose mean
        # loads exceed 4 or one site's 5 is not eligible (the load budget)
        ok = [j for j in range(len(GRID)) if loads_of(results[j], on) <= 4.0
              and all(results[j][s][3] <= 5 for s in on if s in results[j])]
        return max(ok or range(len(GRID)),
                   key=lambda j: (*score(results[j], on), -loads_of(results[j], on),
                                  j == default))

    if default is None:
        print("the shipped defaults are not in this grid; 'default' columns show the "
              "in-sample best", file=sys.stderr)
    best_all = pick(names)
    print(f"\n## Live, per site: in-sample and leave-one-site-out (menu order, n={n}, "
          f"fill={fill})\n")
    if default is None:
        default = best_all
    print(f"Default: {fmt_point(GRID[default])}. Best on all sites: "
          f"{fmt_point(GRID[best_all])}. {len(GRID)} grid points. Loads are pages "
          "requested, key page included (near-duplicates skipped and failed requests "
          "count).\n")
    print("| site | mean loads | max loads | default template F1 | default content F1 "
          "| LOSO template F1 | LOSO content F1 | LOSO loads | LOSO point |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst_d = worst_l = (2.0, "")
    all_loads, loso_loads = [], []
    for name in names:
        others = [x for x in names if x != name]
        k = pick(others)
        dt, dc, ml, mx = results[default].get(name, (0.0, 0.0, 0.0, 0))
        lt, lc, ll, _ = results[k].get(name, (0.0, 0.0, 0.0, 0))
        all_loads.append(ml)
        loso_loads.append(ll)
        worst_d = min(worst_d, (min(dt, dc), name))
        worst_l = min(worst_l, (min(lt, lc), name))
        print(f"| {name} | {ml:.2f} | {mx} | {dt:.3f} | {dc:.3f} | {lt:.3f} | {lc:.3f} "
              f"| {ll:.2f} | {fmt_point({kk: v for kk, v in GRID[k].items() if GRID[default].get(kk) != v}) or 'default'} |")
    print(f"| **mean / worst site** | {statistics.fmean(all_loads):.2f} | | "
          f"{worst_d[1]} ({worst_d[0]:.3f}) | | {worst_l[1]} ({worst_l[0]:.3f}) | | "
          f"{statistics.fmean(loso_loads):.2f} | |")


def subsets(data: Path, k: int, only: list[str] | None, n: int = 3, seed: int = 0) -> None:
    """``--subsets K``: how much page choice can give. For each key page, the
    HTML files it links to (offline, ``temex.site.pool.local_link_order``)
    are its live candidates; ``K`` random ``n``-subsets of them are fitted
    with the default ``VoteDetector`` and scored; prints per key page the
    mean and the best min(template F1, content F1), and the best subset."""
    import random

    from temex.evaluate import url_to_file
    from temex.site.pool import load_candidate, local_link_order

    rnd = random.Random(seed)
    print(f"\n| site | key page | linked pages | mean template F1 | mean content F1 "
          f"| best min(T, C) of {k} | best subset |")
    print("|---|---|---|---|---|---|---|")
    for folder in sorted((data / "sites").iterdir()):
        if not (folder / "site.json").is_file():
            continue
        site = load_site(folder)
        if only and site.name not in only:
            continue
        for kp in site.key_pages:
            f = url_to_file(site.root, kp)
            key = load_candidate(f)
            if isinstance(key, PageError):
                continue
            try:
                gold = gold_mask(key, site.content_selector, site.template_selector)
            except NoGoldError:
                continue
            docs = []
            for g in local_link_order(key, f, site.root):
                d = load_candidate(g)
                if not isinstance(d, PageError):
                    docs.append((str(g.relative_to(site.root)), d))
            if len(docs) < n:
                print(f"| {site.name} | {kp} | {len(docs)} | | | | |")
                continue
            res = []
            for _ in range(k):
                sub = rnd.sample(docs, n)
                model = VoteDetector().fit(key, [d for _, d in sub]).model_
                sc = score_nodes(model.template, gold)
                res.append((sc.template[2], sc.content[2], [r for r, _ in sub]))
            best = max(res, key=lambda r: min(r[0], r[1]))
            print(f"| {site.name} | {kp} | {len(docs)} | "
                  f"{statistics.fmean(r[0] for r in res):.3f} | "
                  f"{statistics.fmean(r[1] for r in res):.3f} | "
                  f"{min(best[0], best[1]):.3f} | {', '.join(best[2])} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--orders", nargs="+", default=["menu", "menublock", "paper"])
    ap.add_argument("--sites", nargs="*")
    ap.add_argument("--max-loads", type=int, default=DEFAULT_MAX_LOADS)
    ap.add_argument("--equality", default=DEFAULT_EQUALITY)
    ap.add_argument("--detail", action="store_true", help="one row per key page")
    ap.add_argument("--synthetic", action="store_true",
                    help="also run the synthetic blog (in-text links that do not link back)")
    ap.add_argument("--loso", action="store_true",
                    help="only the per-site in-sample / leave-one-site-out table")
    ap.add_argument("--loso-max-loads", type=int, nargs="+",
                    help="with --loso: only these max_loads values in the grid")
    ap.add_argument("--kind-first", type=int, nargs="+",
                    help="with --loso: only these kind_first values in the grid")
    ap.add_argument("--variants", choices=["on", "off"], nargs="+",
                    help="with --loso: only these variants settings in the grid")
    ap.add_argument("--second-hop", type=int, nargs="+",
                    help="with --loso: these second_hop limits instead of the grid's "
                         "0 and None (2n + 2); -1 for None")
    ap.add_argument("--duplicates", type=float, nargs="+",
                    help="with --loso: only these duplicate thresholds in the grid "
                         "(0 for None)")
    ap.add_argument("--ancestors", choices=["on", "off"], nargs="+",
                    help="with --loso: only these ancestors-last settings in the grid")
    ap.add_argument("--no-fill", action="store_true")
    ap.add_argument("--subsets", type=int, metavar="K",
                    help="only the page-choice headroom table: K random 3-subsets of the "
                         "pages each key page links to (offline files)")
    ap.add_argument("--default-only", action="store_true",
                    help="with --loso: fit the default grid point only")
    args = ap.parse_args(argv)
    data = data_dir()
    if args.subsets:
        subsets(data, args.subsets, args.sites)
        return 0
    if args.loso:
        grid = None
        if args.default_only:
            from bench.eval.bench_core import DEFAULT_POINT
            grid = [DEFAULT_POINT]
        egrid = [e for e in EXPLORE_GRID
                 if (not args.loso_max_loads or e["max_loads"] in args.loso_max_loads)
                 and (not args.kind_first or e["kind_first"] in args.kind_first)
                 and (not args.variants or ("on" if e["variants"] else "off") in args.variants)
                 and (not args.ancestors
                      or ("on" if e["ancestors"] else "off") in args.ancestors)
                 and (not args.duplicates
                      or (e["duplicate"] or 0.0) in args.duplicates)]
        if args.second_hop:  # other limits than the grid's (e.g. 8 16 1000000)
            hops = [None if h < 0 else h for h in args.second_hop]
            egrid = [{**e, "second_hop": h} for e in egrid if e["second_hop"] == 0
                     for h in hops]
        loso(data, args.n[0] if args.n != [2, 3, 4] else 3, args.sites,
             not args.no_fill, grid, egrid)
        return 0
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
                                         loads=ex.loads, requests=ex.requests, cs=len(ex.cs),
                                         tp=tp, tr=tr, tf=tf, cf=cf, wall=wall,
                                         cs_urls=[u[len(base):] for u in ex.cs]))
                        if args.detail:
                            r = rows[-1]
                            print(f"| {site.name} | {kp} | {order} | {n} | {r['loads']} | "
                                  f"{r['cs']} | {tf:.3f} | {cf:.3f} | {r['cs_urls']} |")

    def agg(sel: list[dict], k: str) -> float:
        vals = [r[k] for r in sel if r[k] == r[k]]
        return statistics.fmean(vals) if vals else float("nan")

    print("\n| site | order | n | loads | requests | CS size | template P | template R "
          "| template F1 | content F1 | wall s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    sites = list(dict.fromkeys(r["site"] for r in rows))
    for order in args.orders:
        for n in args.n:
            for name in sites + ["**all**"]:
                sel = [r for r in rows if r["order"] == order and r["n"] == n
                       and (name == "**all**" or r["site"] == name)]
                if not sel:
                    continue
                print(f"| {name} | {order} | {n} | {agg(sel, 'loads'):.2f} | "
                      f"{agg(sel, 'requests'):.2f} | {agg(sel, 'cs'):.2f} | "
                      f"{agg(sel, 'tp'):.3f} | {agg(sel, 'tr'):.3f} | {agg(sel, 'tf'):.3f} | "
                      f"{agg(sel, 'cf'):.3f} | {agg(sel, 'wall'):.2f} |")
    if args.synthetic:
        run_synthetic(args.orders, args.n, args.max_loads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
