"""Benchmarks for whole-collection stripping; prints Markdown for docs/BATCH.md.

(a) Quality per detector and sample size (RTDM paper §6.1 measure):
    *template-term F*: S = distinct word tokens of the page minus those of the
    gold content, T = distinct tokens of the page minus those of the predicted
    content; F = 2PR/(P+R) over S and T. *content F1*: bag-of-words token F1 of
    the predicted content against the gold text. One key page per site (its
    first page), the sample = the s pages of the site most similar to it
    among those of its template cluster (structure similarity >= 0.5, the
    batch pipeline's rule; ``pool.rank_by_similarity``); sites with
    fewer than s + 1 pages use all they have (marked in the table by the
    mean sample actually used).
(b) Throughput of strip-only (saved template applied, main content with
    the site index, text and Markdown rendered) next to parse-only time for the same pages, one core; and the
    whole ``run_batch`` on 1 and 2 workers.
(c) Peak memory per worker (ru_maxrss reported by each site task) and
    tracemalloc peak of one site task in process.

Usage: .venv/bin/python -m bench.eval.bench_batch [--quick] > out.md
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
import time
import tracemalloc
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench.common import data_dir
from temex.content.extract import main_content
from temex.content.render import content_text
from temex.evaluate import NoGoldError, gold_mask, load_site, url_to_file
from temex.page.dom import parse
from temex.page.files import html_files, unusable
from temex.site.pool import rank_by_similarity, similarity
from temex.template.detectors.chunks import ChunksDetector
from temex.template.detectors.intersect import IntersectDetector
from temex.template.detectors.rtdm import RTDMDetector
from temex.template.detectors.vote import VoteDetector
from temex.template.model import TemplateModel
from temex.template.saved import SavedTemplate, apply
from temex.template.site_index import SiteIndex

METHODS = {"vote": VoteDetector, "intersect": IntersectDetector, "rtdm": RTDMDetector,
           "chunks": ChunksDetector}
SIZES = (2, 4, 8, 16, 24)
_TOK = re.compile(r"\w+", re.UNICODE)


def toks(s: str) -> list[str]:
    return _TOK.findall(s.lower())


def prf(a: set[str] | Counter, b: set[str] | Counter) -> float:
    """F1 of predicted ``a`` against gold ``b`` (sets or bags)."""
    if isinstance(a, Counter):
        o = sum((a & b).values())
        na, nb = sum(a.values()), sum(b.values())
    else:
        o, na, nb = len(a & b), len(a), len(b)
    if not na and not nb:
        return 1.0
    if not o:
        return 0.0
    p, r = o / na, o / nb
    return 2 * p * r / (p + r)


def page_text(doc) -> str:  # noqa: ANN001
    return " ".join(doc.text_blocks(doc.body)) if doc.body >= 0 else ""


def scores(doc, pred: str, gold: str) -> tuple[float, float]:  # noqa: ANN001
    allt = set(toks(page_text(doc)))
    s_set = allt - set(toks(gold))
    t_set = allt - set(toks(pred))
    return prf(t_set, s_set), prf(Counter(toks(pred)), Counter(toks(gold)))


def content_sites(data: Path, min_pages: int = 8) -> list[tuple[str, str, list[Path]]]:
    out = []
    for ds in sorted((data / "content").iterdir()):
        if not ds.is_dir():
            continue
        for site in sorted(p for p in ds.iterdir() if p.is_dir()):
            files = sorted(site.glob("*.html"))
            if len(files) >= min_pages:
                out.append((ds.name, site.name, files))
    return out


def same_template(key, docs, threshold: float = 0.5):  # noqa: ANN001, ANN201
    """Pages of the key's template cluster (structure similarity >= threshold,
    the batch pipeline's clustering rule); all pages if fewer than 2 qualify."""
    near = [d for d in docs if similarity(key, d) >= threshold]
    return near if len(near) >= 2 else docs


def eval_site(args: tuple[str, str, list[Path], tuple[int, ...]]) -> list[dict]:
    ds, site, files, sizes = args
    docs = []
    for f in files:
        try:
            d = parse(f.read_bytes(), str(f))
        except ValueError:
            continue
        if not unusable(d):
            docs.append((f, d))
    f0, key = docs[0]
    gold = f0.with_suffix(".txt").read_text("utf-8")
    others = same_template(key, [d for _, d in docs[1:]])
    rows = []
    for s in sizes:
        pages = rank_by_similarity(key, others, s)
        for name, cls in METHODS.items():
            t = time.perf_counter()
            model = cls().fit(key, pages).model_
            fit = time.perf_counter() - t
            tf, cf = scores(key, content_text(model), gold)
            rows.append({"dataset": ds, "site": site, "method": name, "size": s,
                         "used": len(pages), "term_f": tf, "content_f1": cf, "fit_s": fit})
    return rows


def eval_shared_site(args: tuple[Path, tuple[int, ...]]) -> list[dict]:
    folder, sizes = args
    site = load_site(folder)
    key_file = url_to_file(site.root, site.key_pages[0])
    key = parse(key_file.read_bytes(), str(key_file))
    try:
        gm = gold_mask(key, site.content_selector, site.template_selector)
    except NoGoldError:
        return []
    ignored = key.ignored_mask()
    gold = " ".join(key.text[i] for i in key.in_body() if gm[i] is False and not ignored[i])
    docs = []
    for f in html_files(site.root)[:80]:
        if f.resolve() == key_file.resolve():
            continue
        try:
            d = parse(f.read_bytes(), str(f))
        except ValueError:
            continue
        if not unusable(d):
            docs.append(d)
    docs = same_template(key, docs)
    rows = []
    for s in sizes:
        pages = rank_by_similarity(key, docs, s)
        for name, cls in METHODS.items():
            t = time.perf_counter()
            model = cls().fit(key, pages).model_
            fit = time.perf_counter() - t
            tf, cf = scores(key, content_text(model), gold)
            rows.append({"dataset": "sites", "site": site.name, "method": name, "size": s,
                         "used": len(pages), "term_f": tf, "content_f1": cf, "fit_s": fit})
    return rows


def table_a(rows: list[dict], sizes: tuple[int, ...]) -> str:
    out = ["| dataset | sites | method | " + " | ".join(f"s={s} term F / content F1"
                                                      for s in sizes) + " | fit s (s=8) |",
           "|---|---|---|" + "---|" * len(sizes) + "---|"]
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        groups.setdefault((r["dataset"], r["method"]), []).append(r)
    for (ds, m), rs in sorted(groups.items()):
        cells = []
        for s in sizes:
            sel = [r for r in rs if r["size"] == s]
            used = sum(r["used"] for r in sel) / len(sel)
            cells.append(f"{sum(r['term_f'] for r in sel) / len(sel):.3f} / "
                         f"{sum(r['content_f1'] for r in sel) / len(sel):.3f}"
                         + (f" (used {used:.1f})" if used < s - 0.05 else ""))
        fit8 = [r["fit_s"] for r in rs if r["size"] == 8]
        n_sites = len({r["site"] for r in rs})
        out.append(f"| {ds} | {n_sites} | {m} | " + " | ".join(cells)
                   + f" | {sum(fit8) / len(fit8):.3f} |")
    return "\n".join(out)


def chunk_measures(args: tuple[str, str, list[Path], int]) -> dict:
    """Paper measures of the chunks detector (Defs. 4.1.1, 4.1.2) for one site:
    atf over the cluster (key + s most similar pages) and ttdr on the key page,
    where a chunk is gold template when less than half of its tokens occur in
    the gold content (the paper counted template tables by hand)."""
    from temex.template.detectors.chunks import table_discovery_ratio

    ds, site, files, s = args
    docs = [(f, parse(f.read_bytes(), str(f))) for f in files]
    docs = [(f, d) for f, d in docs if not unusable(d)]
    f0, key = docs[0]
    gold = set(toks(f0.with_suffix(".txt").read_text("utf-8")))
    pages = rank_by_similarity(key, [d for _, d in docs[1:]], s)
    det = ChunksDetector().fit(key, pages)
    gm = []
    for i in range(len(key)):
        t = toks(key.text[i])
        gm.append(None if not t else sum(w in gold for w in t) / len(t) < 0.5)
    ttdr = table_discovery_ratio(key, det.template_chunks_, gm)
    return {"dataset": ds, "atf": det.model_.extra["chunks"]["atf"], "ttdr": ttdr,
            "chunks": det.model_.extra["chunks"]["template_chunks"]}


def table_chunks(sites: list[tuple[str, str, list[Path]]], s: int = 8) -> str:
    import math

    rows = [chunk_measures((d, n, f, s)) for d, n, f in sites]
    out = ["| dataset | sites | avg template fraction (atf) | template discovery ratio "
           "(ttdr) | template chunks |", "|---|---|---|---|---|"]
    for ds in sorted({r["dataset"] for r in rows}):
        rs = [r for r in rows if r["dataset"] == ds]
        tt = [r["ttdr"] for r in rs if not math.isnan(r["ttdr"])]
        out.append(f"| {ds} | {len(rs)} | {sum(r['atf'] for r in rs) / len(rs):.3f} | "
                   f"{sum(tt) / len(tt) if tt else float('nan'):.3f} | "
                   f"{sum(r['chunks'] for r in rs) / len(rs):.1f} |")
    return "\n".join(out)


def bench_throughput(sites: list[tuple[str, str, list[Path]]]) -> str:
    """(b) strip-only vs parse-only on one core, then run_batch on 1 and 2 workers."""
    t_parse = t_strip = 0.0
    n = 0
    for _, _, files in sites:
        blobs = [f.read_bytes() for f in files]
        docs = [parse(b) for b in blobs[:5]]
        docs = [d for d in docs if not unusable(d)]
        if len(docs) < 2:
            continue
        st = SavedTemplate.from_models([VoteDetector().fit(docs[0], docs[1:5]).model_])
        st.site_index = SiteIndex(docs, hashed=True)  # the pipeline's site evidence
        for b in blobs:
            t0 = time.perf_counter()
            d = parse(b)
            t1 = time.perf_counter()
            mask = apply(st, d)  # the pipeline's work per page: template mask (stats,
            TemplateModel(key=d, template=mask, votes=[], pages=[], method="s",
                          params={}).counts()
            main = main_content(st, d)  # main content: text mask + site index
            main.text()
            main.markdown()
            t2 = time.perf_counter()
            t_parse += t1 - t0
            t_strip += t2 - t1
            n += 1
    ratio = (n / t_strip) / (n / t_parse)
    lines = [f"Strip-only speed / parse-only speed, same pages, same run: **{ratio:.2f}x** "
             f"(target >= 0.5x; strip takes {t_strip / t_parse:.2f}x the parse time).", "",
             "| measure | pages | seconds | pages/s |", "|---|---|---|---|",
             f"| parse only (1 core) | {n} | {t_parse:.2f} | {n / t_parse:.1f} |",
             f"| strip only: apply + main content + text + markdown (1 core) | {n} | "
             f"{t_strip:.2f} | {n / t_strip:.1f} |",
             f"| parse + strip (1 core) | {n} | {t_parse + t_strip:.2f} | "
             f"{n / (t_parse + t_strip):.1f} |"]
    from temex.batch.pipeline import BatchOptions, run_batch

    folders = sorted({str(files[0].parent.parent) for _, _, files in sites})
    mem = []
    for w in (1, 2):
        out = Path(tempfile.mkdtemp(prefix="temex-bench-"))
        try:
            s = run_batch(folders, out, BatchOptions(), workers=w, progress=False)
            if w == 1:
                quality = batch_quality(out)
        finally:
            shutil.rmtree(out, ignore_errors=True)
        lines.append(f"| run_batch end to end (index, cluster, fit, strip, write), {w} "
                     f"worker{'s' if w > 1 else ''} | {s['pages']} | {s['seconds']:.2f} | "
                     f"{s['pages_per_second']:.1f} |")
        mem.append((w, s["worker_peak_rss_mb"]))
    return "\n".join(lines) + "\n\n" + quality, mem


def batch_quality(out: Path) -> str:
    """Content F1 of ``run_batch`` rows (every page stripped to its main content
    with its cluster's saved template and the site index of the sample) against
    the gold text, also split into pages of the fit's sample and pages never
    seen by the fit."""
    per: dict[str, list[float]] = {}
    seen: dict[tuple[str, bool], list[float]] = {}
    fitted: dict[str, list[bool]] = {}
    for f in (out / "sites").glob("*.jsonl"):
        for line in f.read_text().splitlines():
            r = json.loads(line)
            src = Path(r["source"])
            ds = src.parent.parent.name
            if "error" in r:
                per.setdefault(ds, []).append(0.0)
                continue
            gold = src.with_suffix(".txt").read_text("utf-8")
            f1 = prf(Counter(toks(r["content"])), Counter(toks(gold)))
            per.setdefault(ds, []).append(f1)
            seen.setdefault((ds, bool(r["stats"].get("in_sample"))), []).append(f1)
            fitted.setdefault(ds, []).append(r["stats"]["fitted"])

    def cell(v: list[float]) -> str:
        return f"{sum(v) / len(v):.3f} ({len(v)})" if v else "-"

    lines = ["Content F1 of `run_batch` output (default options: sample 24, vote, "
             "4 pages per key) against gold, every page of the dataset:", "",
             "| dataset | pages | content F1 (mean) | pages of the sample | pages never seen "
             "by the fit | pages with a fitted template |",
             "|---|---|---|---|---|---|"]
    for ds, v in sorted(per.items()):
        fz = fitted.get(ds, [])
        lines.append(f"| {ds} | {len(v)} | {sum(v) / len(v):.3f} | "
                     f"{cell(seen.get((ds, True), []))} | {cell(seen.get((ds, False), []))} | "
                     f"{sum(fz)}/{len(v)} |")
    return "\n".join(lines)


def bench_memory(sites: list[tuple[str, str, list[Path]]]) -> str:
    """tracemalloc peak of the biggest site task, in process."""
    from temex.batch.pipeline import BatchOptions, SiteTask, run_site
    from temex.batch.readers import Entry

    ds, site, files = max(sites, key=lambda x: len(x[2]))
    out = Path(tempfile.mkdtemp(prefix="temex-mem-"))
    try:
        task = SiteTask(site, [Entry("file", str(f), root=str(f.parent)) for f in files],
                        str(out), BatchOptions())
        tracemalloc.start()
        run_site(task)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return f"{ds}/{site} ({len(files)} pages): Python heap peak {peak / 2**20:.1f} MB (tracemalloc)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="sizes 2, 8 and 8 sites only")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--json", help="also dump raw rows here")
    ap.add_argument("--only-chunks", action="store_true", help="only the chunks measures")
    a = ap.parse_args()
    data = data_dir()
    if a.only_chunks:
        print(table_chunks(content_sites(data)))
        return
    sizes = (2, 8) if a.quick else SIZES
    sites = content_sites(data)
    if a.quick:
        sites = sites[:8]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(a.jobs) as ex:
        rows = [r for rs in ex.map(eval_site, [(d, s, f, sizes) for d, s, f in sites])
                for r in rs]
        shared = sorted(p for p in (data / "sites").iterdir() if (p / "site.json").is_file())
        rows += [r for rs in ex.map(eval_shared_site, [(p, sizes) for p in shared])
                 for r in rs]
    t_a = time.perf_counter() - t0
    if a.json:
        Path(a.json).write_text(json.dumps(rows))
    print(f"## (a) Template-term F and content token F1 by sample size\n\n"
          f"{len(sites)} content sites with >= 8 pages + {len(shared)} shared sites; one key "
          f"page per site; {t_a:.0f} s on {a.jobs} processes.\n")
    print(table_a(rows, sizes))
    print("\n### Chunks detector: the paper's measures (s = 8)\n")
    print(table_chunks(sites))
    tb, mem = bench_throughput(sites)
    print("\n## (b) Throughput\n")
    print(tb)
    print("\n## (c) Peak memory per worker\n")
    for w, m in mem:
        print(f"- run_batch, {w} worker(s): peak RSS of a worker process {m:.0f} MB "
              "(ru_maxrss; with 1 worker this is the main process)")
    print("- " + bench_memory(sites))


if __name__ == "__main__":
    main()
