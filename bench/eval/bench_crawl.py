"""Benchmark of ``temex crawl`` on the shared sites served on 127.0.0.1;
prints the Markdown table of docs/CRAWL.md.

Per site: the site's ``www`` served by :func:`temex.site.sources.localserve.serve_folder`,
crawled from its ``crawl_check.start`` page (``run_crawl``: robots, sitemaps,
4 requests at a time, no delay, at most ``--max-pages`` pages). Columns:
pages written (fetched and usable), HTTP requests (robots.txt and sitemaps
included), wall time of the whole crawl (fetch + process); token F1 (bag of
words, :func:`temex.page.tokens.token_prf`) of each page's main text against
its gold text (content_selector minus template_selector of site.json, the
gold of :mod:`temex.evaluate`; pages without gold skipped), mean and worst
page; next to ``temex batch`` (:func:`temex.batch.pipeline.run_batch`, one
local worker) on the same pages' files, to temex page-level (each page
alone, :func:`temex.content.extract.extract_content` without site evidence)
and to trafilatura (page-level, ``extract(html)``, the bench extra) on the
same pages.

Usage: .venv/bin/python -m bench.eval.bench_crawl [--max-pages N] [--sites a,b] > out.md
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bench.common import data_dir
from temex.batch.pipeline import BatchOptions, run_batch
from temex.content.extract import extract_content
from temex.crawler import CrawlOptions, run_crawl
from temex.crawler.process import process_pages
from temex.crawler.state import CrawlState
from temex.evaluate import load_site, url_to_file
from temex.evaluate.crawl_check import page_gold
from temex.page.dom import parse
from temex.page.tokens import token_prf
from temex.site.sources.localserve import serve_folder


def stats(f1s: list[float]) -> str:
    if not f1s:
        return "– | –"
    return f"{statistics.mean(f1s):.3f} | {min(f1s):.3f}"


def bench_site(folder: Path, max_pages: int) -> dict:
    site = load_site(folder)
    start = site.meta.get("crawl_check", {}).get("start") or site.key_pages[0]
    tmp = Path(tempfile.mkdtemp(prefix="bench-crawl-"))
    try:
        with serve_folder(site.root) as base:
            t0 = time.perf_counter()
            results, summary = run_crawl(base + start, tmp / "crawl",
                                         CrawlOptions(allow_private=True, max_pages=max_pages),
                                         progress=False)
            wall = time.perf_counter() - t0
        pages = [r for r in results if not r.error and r.content_hash is not None]
        files = {}
        for r in pages:
            f = url_to_file(site.root, unquote(urlsplit(r.final_url or r.url).path))
            if f.is_file():
                files[r.url] = f
        gold = {u: page_gold(f, site) for u, f in files.items()}
        crawl_f1 = [token_prf(r.text, gold[r.url])[2] for r in pages
                    if gold.get(r.url) is not None]
        ablation = {}
        for mode in ("all", "none"):  # the same fetched pages, processed again
            state = CrawlState(tmp / "crawl" / "crawl.sqlite")
            try:
                res, _ = process_pages(state, tmp / "crawl", CrawlOptions(site_index=mode))
            finally:
                state.close()
            ablation[mode] = stats([token_prf(r.text, gold[r.url])[2] for r in res
                                    if gold.get(r.url) is not None])
        # temex batch on the same files (copied: one site folder)
        src = tmp / "files"
        for u, f in files.items():
            dst = src / f.relative_to(site.root)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, dst)
        t1 = time.perf_counter()
        run_batch([str(src)], tmp / "batch", BatchOptions(), engine="local", workers=1,
                  progress=False)
        batch_s = time.perf_counter() - t1
        by_file = {}
        for jl in (tmp / "batch" / "sites").glob("*.jsonl"):
            for line in jl.read_text("utf-8").splitlines():
                row = json.loads(line)
                by_file[str(Path(row["source"]).resolve())] = row.get("content") or ""
        batch_f1 = []
        page_f1 = []
        traf_f1 = []
        try:
            import trafilatura
        except ImportError:
            trafilatura = None
        for u, f in files.items():
            g = gold.get(u)
            if g is None:
                continue
            key = str((src / f.relative_to(site.root)).resolve())
            batch_f1.append(token_prf(by_file.get(key, ""), g)[2])
            page_f1.append(token_prf(extract_content(parse(f.read_bytes(), url=str(f))).text(),
                                     g)[2])
            if trafilatura is not None:
                text = trafilatura.extract(f.read_text("utf-8", errors="replace")) or ""
                traf_f1.append(token_prf(text, g)[2])
        return {"site": site.name, "pages": len(pages), "requests": summary["requests"],
                "wall": wall, "templates": summary["templates"],
                "page_level": summary["page_level"], "duplicates": summary["duplicates"],
                "scored": len(crawl_f1), "crawl": stats(crawl_f1), "batch": stats(batch_f1),
                "batch_s": batch_s, "page": stats(page_f1), "traf": stats(traf_f1),
                "ablation": ablation}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-pages", type=int, default=1000)
    ap.add_argument("--sites", default="")
    a = ap.parse_args()
    folders = sorted(p for p in (data_dir() / "sites").iterdir() if (p / "site.json").is_file())
    if a.sites:
        want = set(a.sites.split(","))
        folders = [p for p in folders if p.name in want]
    print(f"temex crawl on the shared sites over 127.0.0.1 (at most {a.max_pages} pages each); "
          "token F1 of each page's main text against gold, mean | worst page\n")
    print("| site | pages | requests | crawl s | templates | page-level | duplicates | scored "
          "| crawl F1 mean | worst | batch F1 mean | worst | batch s | page-level F1 mean | worst "
          "| trafilatura F1 mean | worst |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for folder in folders:
        r = bench_site(folder, a.max_pages)
        rows.append(r)
        print(f"| {r['site']} | {r['pages']} | {r['requests']} | {r['wall']:.1f} | "
              f"{r['templates']} | {r['page_level']} | {r['duplicates']} | {r['scored']} | "
              f"{r['crawl']} | {r['batch']} | {r['batch_s']:.1f} | {r['page']} | {r['traf']} |",
              flush=True)
    print("\nThe site index (repeated-text evidence) of the crawl: token F1 mean | worst page "
          "with the first 24 pages counted (default, as temex batch), every page, none\n")
    print("| site | sample (default) | worst | all pages | worst | none | worst |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['site']} | {r['crawl']} | {r['ablation']['all']} | "
              f"{r['ablation']['none']} |")


if __name__ == "__main__":
    main()
