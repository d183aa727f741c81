"""Main content on the shared *sites*: page level, site level, trafilatura; LOSO.

For every page of each site in ``$TEMEX_DATA/sites`` that has gold, the main
text is scored (token F1, bag of words) against the gold text of the site's
selectors (content_selector minus template_selector, :mod:`temex.evaluate`):

``page``
    the page alone (:func:`temex.content.extract.extract_content`, the scorer).
``folder``
    a site index of the site's first 24 pages (``temex content DIR`` counts
    every page; 24 as ``temex batch`` does), no template: the rules.
``batch``
    what ``temex batch`` ships: the sample's template clusters fitted
    (:func:`temex.batch.pipeline._fit_clusters`, default options), each page's
    nearest cluster's template text mask plus the site index of the sample.
``batch (main)``
    the same with the rules as they were before the site-level
    changes (``own_records=0``, ``repeat_share=0``, ``own_title=False``).
``trafilatura``
    ``trafilatura.extract(html)`` (the bench extra; skipped when missing).

``--loso`` also chooses ``repeat_share`` and ``own_records`` of
:class:`temex.content.extract.ContentParams` (batch path) leaving one site out:
for each site, the candidate that maximises the worst margin over
``max(trafilatura, page)`` on the six other sites (ties: the higher mean) is
scored on the site left out. With ``--content`` only candidates that keep the
same batch path on the news content datasets (big9, CleanPortalEval, Dragnet:
each site's sample of 24 fitted as ``temex batch`` does, every page scored
against its gold) within ``--content-tol`` of the rules before the site-level
changes take part: the hold-out has news sites too.

Run from a clone::

    .venv/bin/python -m bench.eval.bench_site_content [--loso [--content]] [SITE ...]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from bench.common import data_dir  # noqa: E402
from temex.batch.grouping import nearest  # noqa: E402
from temex.batch.pipeline import BatchOptions, SiteTask, _fit_clusters  # noqa: E402
from temex.batch.readers import Entry  # noqa: E402
from temex.content.extract import ContentParams, extract_content  # noqa: E402
from temex.errors import ParseError  # noqa: E402
from temex.evaluate import NoGoldError, gold_text, load_site  # noqa: E402
from temex.page.dom import Document, parse  # noqa: E402
from temex.page.files import html_files  # noqa: E402
from temex.page.tokens import token_prf  # noqa: E402
from temex.template.saved import apply_with_text_mask  # noqa: E402
from temex.template.site_index import SiteIndex  # noqa: E402

SAMPLE = 24  # pages in the site index, as temex batch's default --sample
BEFORE = replace(ContentParams(), own_records=0.0, repeat_share=0.0, own_title=False,
                 page_added=False, link_types=None, gaps=False, neutral_repeats=False,
                 data_tables=False)
GRID = {"repeat_share": (0.0, 0.1, 0.2, 0.3), "own_records": (0.0, 0.5)}
NEWS = ("big9", "cleanportaleval", "dragnet")


@dataclass
class Page:
    doc: Document
    gold: str
    tmask: list[bool] | None
    traf: float | None


@dataclass
class Site:
    name: str
    pages: list[Page]
    index: SiteIndex       # batch: the sample's index
    folder: SiteIndex      # the first 24 pages, no template


def load(folder: Path) -> Site:
    site = load_site(folder)
    try:
        import trafilatura
    except ImportError:
        trafilatura = None
    files, golds, docs, trafs = [], [], [], []
    for f in html_files(site.root):
        try:
            raw = f.read_bytes()
            d = parse(raw, url=str(f))
            gold = gold_text(d, site.content_selector, site.template_selector)
        except (OSError, ParseError, NoGoldError):
            continue
        files.append(f)
        docs.append(d)
        golds.append(gold)
        trafs.append(None if trafilatura is None else
                     token_prf(trafilatura.extract(raw.decode("utf-8", "replace")) or "",
                               golds[-1])[2])
    # temex batch on the gold pages (as bench_crawl copies the crawled pages)
    entries = [Entry("file", str(f), url=str(f)) for f in files]
    fit = _fit_clusters(SiteTask(site.name, entries, "", BatchOptions()))
    has = bool(fit.leaders) and fit.leaders[0] is not None
    pages = []
    for d, g, t in zip(docs, golds, trafs):
        c = nearest(fit.leaders, d)[0] if has else (0 if fit.saved else -1)
        st = fit.saved[c] if c >= 0 else None
        tmask = apply_with_text_mask(st, d)[1] if st is not None else None
        pages.append(Page(d, g, tmask, t))
    index = fit.index if fit.index is not None else SiteIndex(hashed=True)
    return Site(site.name, pages, index, SiteIndex(docs[:SAMPLE], hashed=True))


def load_content_site(folder: Path) -> Site:
    """A site of a content dataset on the batch path (gold: the .txt files)."""
    files = sorted(folder.glob("*.html"))
    entries = [Entry("file", str(f), url=str(f)) for f in files]
    fit = _fit_clusters(SiteTask(folder.name, entries, "", BatchOptions()))
    has = bool(fit.leaders) and fit.leaders[0] is not None
    pages = []
    for f in files:
        try:
            d = parse(f.read_bytes(), url=str(f))
        except ParseError:
            continue
        c = nearest(fit.leaders, d)[0] if has else (0 if fit.saved else -1)
        st = fit.saved[c] if c >= 0 else None
        tmask = apply_with_text_mask(st, d)[1] if st is not None else None
        pages.append(Page(d, f.with_suffix(".txt").read_text("utf-8"), tmask, None))
    index = fit.index if fit.index is not None else SiteIndex(hashed=True)
    return Site(folder.name, pages, index, index)


def batch_f1(site: Site, params: ContentParams) -> list[float]:
    idx = site.index
    return [token_prf(extract_content(p.doc, idx, p.tmask, params,
                                      member=idx.member(p.doc)).text(), p.gold)[2]
            for p in site.pages]


def scores(site: Site) -> dict[str, float]:
    f1: dict[str, list[float]] = {"page": [], "folder": []}
    fi = site.folder
    for p in site.pages:
        f1["page"].append(token_prf(extract_content(p.doc).text(), p.gold)[2])
        f1["folder"].append(token_prf(extract_content(p.doc, fi, member=fi.member(p.doc)).text(),
                                      p.gold)[2])
    f1["batch"] = batch_f1(site, ContentParams())
    f1["batch (main)"] = batch_f1(site, BEFORE)
    if site.pages and site.pages[0].traf is not None:
        f1["trafilatura"] = [p.traf for p in site.pages if p.traf is not None]
    out = {k: statistics.mean(v) for k, v in f1.items() if v}
    out["worst batch"] = min(f1["batch"])
    return out


def loso(sites: list[Site], base: dict[str, dict[str, float]],
         news: dict[str, list[Site]] | None = None, tol: float = 0.005) -> list[str]:
    cands = [dict(zip(GRID, v)) for v in itertools.product(*GRID.values())]
    lines: list[str] = []
    if news:
        def news_f1(prm: ContentParams) -> dict[str, float]:
            return {ds: statistics.mean(x for s in ss for x in batch_f1(s, prm))
                    for ds, ss in news.items()}
        ref = news_f1(BEFORE)
        lines += [("Batch path on the news content datasets, token F1 (candidates more than "
                   f"{tol} below the rules before on one of them are left out):"), "",
                  "| candidate | " + " | ".join(news) + " | kept |",
                  "|---|" + "---:|" * (len(news) + 1),
                  "| before (own_records=0, repeat_share=0, own_title=False) | "
                  + " | ".join(f"{ref[d]:.3f}" for d in news) + " | |"]
        ok = []
        for c in cands:
            f = news_f1(replace(ContentParams(), **c))
            keep = all(f[d] >= ref[d] - tol for d in news)
            lines.append(f"| {c} | " + " | ".join(f"{f[d]:.3f}" for d in news)
                         + f" | {'yes' if keep else 'no'} |")
            if keep:
                ok.append(c)
        cands = ok or cands
        lines.append("")
    table: list[dict[str, float]] = []
    for c in cands:
        prm = replace(ContentParams(), **c)
        table.append({s.name: statistics.mean(batch_f1(s, prm)) for s in sites})
        print(f"  candidate {c}: " + " ".join(f"{v:.3f}" for v in table[-1].values()),
              file=sys.stderr, flush=True)
    bar = {s.name: max(base[s.name].get("trafilatura", 0.0), base[s.name]["page"])
           for s in sites}

    def pick(names: list[str]) -> int:
        return max(range(len(cands)), key=lambda k: (
            min(table[k][n] - bar[n] for n in names),
            statistics.mean(table[k][n] for n in names)))

    names = [s.name for s in sites]
    k_all = pick(names)
    lines += ["Token F1 of the batch path per candidate (site order as above):", "",
              "| candidate | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    lines += [f"| {c} | " + " | ".join(f"{t[n]:.3f}" for n in names) + " |"
              for c, t in zip(cands, table)]
    lines += ["", f"In sample (chosen on all {len(names)} sites): {cands[k_all]}", "",
             ("| site | in-sample F1 | LOSO choice | LOSO F1 | max(trafilatura, page) "
              "| LOSO margin |"), "|---|---:|---|---:|---:|---:|"]
    worst = (1.0, "")
    for n in names:
        k = pick([m for m in names if m != n])
        margin = table[k][n] - bar[n]
        worst = min(worst, (margin, n))
        choice = ", ".join(f"{a}={b}" for a, b in cands[k].items())
        lines.append(f"| {n} | {table[k_all][n]:.3f} | {choice} | {table[k][n]:.3f} | "
                     f"{bar[n]:.3f} | {margin:+.3f} |")
    lines += ["", f"Worst LOSO site: {worst[1]} (margin {worst[0]:+.3f})."]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="*", help="site folder names (default: every shared site)")
    ap.add_argument("--loso", action="store_true",
                    help="choose repeat_share and own_records leaving one site out")
    ap.add_argument("--content", action="store_true",
                    help="with --loso: only candidates that keep the news content datasets")
    ap.add_argument("--content-tol", type=float, default=0.005,
                    help="allowed drop on a news content dataset (default 0.005)")
    args = ap.parse_args()
    data = data_dir()
    names = args.sites or sorted(p.name for p in (data / "sites").iterdir()
                                   if (p / "site.json").is_file())
    cols = ["page", "folder", "batch (main)", "batch", "worst batch", "trafilatura"]
    print("| site | pages | " + " | ".join(cols) + " |")
    print("|---|---:|" + "---:|" * len(cols))
    sites, base = [], {}
    for name in names:
        s = load(data / "sites" / name)
        sites.append(s)
        base[name] = r = scores(s)
        cells = " | ".join(f"{r[c]:.3f}" if c in r else "–" for c in cols)
        print(f"| {name} | {len(s.pages)} | {cells} |", flush=True)
    if args.loso:
        news = None
        if args.content:
            news = {ds: [load_content_site(p) for p in sorted((data / "content" / ds).iterdir())
                         if p.is_dir()] for ds in NEWS if (data / "content" / ds).is_dir()}
        print()
        print("\n".join(loso(sites, base, news, args.content_tol)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
