"""Main-content benchmark: temex against page-level extractors, side by side.

    .venv/bin/python -m bench.eval.bench_content [--data DIR] [--datasets big9,...]
        [--cv-models FOLDS.json] [--no-combined] [--peers all] [--write docs/CONTENT.md]

For every dataset under ``DATA/content`` (big9, cleanportaleval, dragnet,
cleaneval, readability, wceb2025: :mod:`content_sets`) and every page: token
precision/recall/F1 (:func:`temex.page.tokens.token_prf`) against the gold
``.txt``, averaged over pages (and per site), and ms/page, for

* ``temex site`` — folder mode: the site is *fitted* once (parse every page of
  the site's folder, count block texts; reported per site apart), then every
  page is *applied*: parsed again from its bytes and extracted, so ms/page is
  what a new page of a fitted site costs; ``temex page`` — the page alone;
  ``(CV)`` — the same with the grouped-CV fold model that never saw the page's
  site group (a group no fold holds: the shipped model, which never saw it);
* trafilatura, readability-lxml, resiliparse (``main_content=True``) and, with
  ``--peers all``, jusText (English stoplist) and boilerpy3 (ArticleExtractor)
  — each optional, skipped with a note when not importable — and ``all text``;
  their scores are kept in a cache between runs (``--cache``; keyed by the
  page's bytes and the peers' versions), so their ms/page are those of the run
  that filled it (``--no-cache`` measures them again);
* ``peer + temex`` — each peer run on the page with temex's site-level
  boilerplate removed (elements whose text blocks all repeat on other pages
  of the site; ms/page is the peer's alone).

Everything runs in one process on the same pages. Peers: ``pip install
trafilatura readability-lxml lxml_html_clean resiliparse justext boilerpy3
matplotlib``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from selectolax.lexbor import LexborHTMLParser  # noqa: E402

from bench.common import DATA_HELP, data_dir
from temex.content.extract import ContentParams, extract_content  # noqa: E402
from temex.content.render import clone_tree  # noqa: E402
from temex.evaluate.content_sets import dataset_names, pages_by_site  # noqa: E402
from temex.page.blocks import page_blocks  # noqa: E402
from temex.page.dom import Document, parse  # noqa: E402
from temex.page.tokens import token_prf  # noqa: E402
from temex.template.site_index import SiteIndex  # noqa: E402

Extractor = Callable[[str], str]


def _html_to_text(html: str) -> str:
    tree = LexborHTMLParser(html)
    for t in tree.css("script, style, noscript"):
        t.decompose()
    node = tree.body or tree.root
    return node.text(separator="\n") if node is not None else ""


def peers() -> tuple[dict[str, Extractor], list[str]]:
    """Importable peers and notes on the missing ones."""
    out: dict[str, Extractor] = {}
    notes: list[str] = []
    try:
        import trafilatura
        out["trafilatura"] = lambda h: trafilatura.extract(h) or ""
    except ImportError as e:
        notes.append(f"trafilatura skipped: {e}")
    try:
        from readability import Document as RDoc
        out["readability"] = lambda h: _html_to_text(RDoc(h).summary())
    except ImportError as e:
        notes.append(f"readability-lxml skipped: {e}")
    try:
        from resiliparse.extract.html2text import extract_plain_text
        out["resiliparse"] = lambda h: extract_plain_text(h, main_content=True)
    except ImportError as e:
        notes.append(f"resiliparse skipped: {e}")
    try:
        import justext
        stop = justext.get_stoplist("English")
        out["justext"] = lambda h: "\n".join(
            p.text for p in justext.justext(h.encode("utf-8"), stop, encoding="utf-8")
            if not p.is_boilerplate)
    except ImportError as e:
        notes.append(f"jusText skipped: {e}")
    try:
        from boilerpy3 import extractors
        ex = extractors.ArticleExtractor()

        def _bp(h: str) -> str:
            try:
                return ex.get_content(h) or ""
            except Exception:  # boilerpy3 raises on some markup
                return ""
        out["boilerpy3"] = _bp
    except ImportError as e:
        notes.append(f"boilerpy3 skipped: {e}")
    return out, notes


def without_template(doc: Document, index: SiteIndex, params: ContentParams) -> str:
    """The page with temex's site-level boilerplate removed: maximal elements
    of body whose text blocks all repeat on other pages of the site."""
    blocks = page_blocks(doc)
    rep = index.repeated(blocks, params.repeat_min, True, params.long_block)
    n = len(doc)
    total, boiler = [0] * n, [0] * n
    for b, nd in enumerate(blocks.node):
        total[nd] += 1
        boiler[nd] += rep[b]
    body = doc.body
    for i in range(body + doc.size[body] - 1, body, -1):
        p = doc.parent[i]
        total[p] += total[i]
        boiler[p] += boiler[i]
    copy, els = clone_tree(doc)  # a doctype Lexbor cannot clone is dropped there
    i = body + 1
    end = body + doc.size[body]
    drop = []
    while i < end:
        if total[i] and boiler[i] == total[i]:
            drop.append(i)
            i += doc.size[i]
        else:
            i += 1
    for i in drop:
        els[i].decompose()
    return copy.html or ""


def mean(xs: list[float]) -> float:
    return statistics.mean(xs) if xs else 0.0


def cv_models_of(data: Path, datasets: list[str], k: int) -> tuple[dict[str, int], list[dict]]:
    """Grouped K-fold scorer models (bench/train/train_content_model.py)."""
    from bench.train import train_content_model as tcm
    from temex.content.scorer import ScorerModel

    t0 = time.perf_counter()
    pages = tcm.load(data, datasets)
    group_fold, models = tcm.fold_models(pages, k)
    print(f"  grouped {k}-fold models trained in {time.perf_counter() - t0:.0f} s",
          file=sys.stderr, flush=True)
    return group_fold, [{v: ScorerModel(m) for v, m in fm.items()} for fm in models]


def load_cv_models(path: Path) -> tuple[dict[str, int], list[dict]]:
    """Fold models written by ``train_content_model.py --cv K --fold-models FILE``."""
    from temex.content.scorer import ScorerModel

    d = json.loads(path.read_text(encoding="utf-8"))
    return d["group_fold"], [{v: ScorerModel(m) for v, m in fm.items()} for fm in d["models"]]


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in ("trafilatura", "readability-lxml", "resiliparse", "justext", "boilerpy3"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = ""
    return out


class PeerCache:
    """Token P/R/F1 of the peers per page, kept between runs (the peers do not
    change with temex; they are most of a run's time). Keyed by page and a
    digest of its bytes; dropped whole when a peer's version changed."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.versions = _versions()
        self.rows: dict[str, dict] = {}
        if path is not None and path.is_file():
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                d = json.load(fh)
            if d.get("versions") == self.versions:
                self.rows = d["rows"]

    def get(self, key: str, digest: str, peer: str) -> list[float] | None:
        r = self.rows.get(key)
        if r is None or r.get("sha") != digest:
            return None
        v = r.get(peer)
        return list(v) if v is not None else None

    def put(self, key: str, digest: str, peer: str, prf_ms: list[float]) -> None:
        r = self.rows.get(key)
        if r is None or r.get("sha") != digest:
            r = self.rows[key] = {"sha": digest}
        r[peer] = prf_ms

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        with gzip.open(tmp, "wt", encoding="utf-8") as fh:
            json.dump({"versions": self.versions, "rows": self.rows}, fh)
        tmp.replace(self.path)


def run(data: Path, datasets: list[str], combined: bool, cv: int = 5,
        cv_models: Path | None = None, peer_names: list[str] | None = None,
        cache: PeerCache | None = None) -> dict:
    extractors, notes = peers()
    if peer_names is not None:
        extractors = {k: v for k, v in extractors.items() if k in peer_names}
    cache = cache or PeerCache(None)
    params = ContentParams()
    rules = ContentParams(scorer=False)
    results: dict = {"notes": notes, "datasets": {}, "cv": cv}
    group_fold: dict[str, int] = {}
    fold_models: list[dict] = []
    if cv_models is not None:
        group_fold, fold_models = load_cv_models(cv_models)
    elif cv:
        group_fold, fold_models = cv_models_of(data, datasets, cv)
    if fold_models:
        from temex.evaluate.training import group_of
    for ds in datasets:
        if not (data / "content" / ds / "manifest.jsonl").is_file():
            notes.append(f"{ds}: not found under {data}")
            continue
        scores: dict[str, list[tuple[float, float, float]]] = {}
        times: dict[str, float] = {}
        per_site: dict[str, dict[str, float]] = {}
        fits: dict[str, float] = {}
        n_pages = 0
        for site, refs in pages_by_site(data, ds).items():
            t0 = time.perf_counter()
            raws = {r.page: r.read() for r in refs}
            docs: dict[str, Document] = {}
            for r in refs:
                try:
                    d = parse(raws[r.page], url=str(r.html))
                except Exception:
                    continue
                if d.body >= 0:
                    docs[r.page] = d
            index = SiteIndex(docs.values())
            fits[site] = time.perf_counter() - t0
            site_scores: dict[str, list[float]] = {}
            # a site group that no fold holds (a dataset the fold models were
            # not trained on) is scored by the shipped model, which never saw it
            fm = (fold_models[group_fold[group_of(site)]]
                  if fold_models and group_of(site) in group_fold else None)
            for ref in refs:
                gold = ref.gold_text()
                raw = raws[ref.page]
                html = raw.decode("utf-8", errors="replace")
                digest = hashlib.sha1(raw).hexdigest()[:16]
                n_pages += 1
                runs: list[tuple[str, str, float]] = []
                variants: list[tuple[str, SiteIndex | None, ContentParams, dict | None]] = [
                    ("temex page", None, params, None), ("temex site", index, params, None)]
                if fold_models:
                    variants += [("temex page (CV)", None, params, fm),
                                 ("temex site (CV)", index, params, fm)]
                variants += [("temex rules page", None, rules, None),
                             ("temex rules site", index, rules, None)]
                for label, idx, prm, models in variants:
                    t0 = time.perf_counter()
                    try:
                        d = parse(raw, url=str(ref.html))
                        text = extract_content(d, idx, None, prm, models=models).text()
                    except Exception:
                        text = ""
                    runs.append((label, text, time.perf_counter() - t0))
                t0 = time.perf_counter()
                runs.append(("all text", _html_to_text(html), time.perf_counter() - t0))
                stripped = without_template(docs[ref.page], index, params) \
                    if combined and ref.page in docs else None
                measured = [(label, token_prf(out, gold), dt) for label, out, dt in runs]
                for name, ex in extractors.items():
                    for label, h in ((name, html), (f"{name} + temex", stripped)):
                        if h is None:
                            continue
                        hit = cache.get(ref.key, digest, label) if label == name else None
                        if hit is not None:
                            measured.append((label, (hit[0], hit[1], hit[2]), hit[3] / 1000))
                            continue
                        t0 = time.perf_counter()
                        try:
                            out = ex(h)
                        except Exception:
                            out = ""
                        dt = time.perf_counter() - t0
                        prf = token_prf(out, gold)
                        if label == name:
                            cache.put(ref.key, digest, label, [*prf, 1000 * dt])
                        measured.append((label, prf, dt))
                for label, prf, dt in measured:
                    scores.setdefault(label, []).append(prf)
                    times[label] = times.get(label, 0.0) + dt
                    site_scores.setdefault(label, []).append(prf[2])
            per_site[site] = {k: mean(v) for k, v in site_scores.items()}
            if len(refs) > 5:
                print(f"  {ds}/{site}: temex F1 {per_site[site]['temex site']:.3f} "
                      f"(fit {1000 * fits[site]:.0f} ms)", file=sys.stderr, flush=True)
        cache.save()
        results["datasets"][ds] = {
            "pages": n_pages,
            "rows": {k: {"P": mean([s[0] for s in v]), "R": mean([s[1] for s in v]),
                         "F1": mean([s[2] for s in v]), "ms": 1000 * times[k] / n_pages}
                     for k, v in scores.items()},
            "per_site": per_site, "fit_ms": {k: 1000 * v for k, v in fits.items()}}
        print(f"  {ds}: {n_pages} pages", file=sys.stderr, flush=True)
    return results


#: The peers the issue compares against (the summary's "best peer").
MAIN_PEERS = ("trafilatura", "readability", "resiliparse")
#: Per-site tables are written for datasets of at most this many sites.
PER_SITE_MAX = 30


def summary(results: dict) -> list[str]:
    """One row per dataset: temex (shipped and grouped CV) against the best of
    :data:`MAIN_PEERS`; then the macro mean over the datasets where a peer
    reaches 0.95."""
    out = ["### Summary: temex by grouped cross-validation against the best peer\n",
           "| dataset (pages) | temex page | temex page CV | temex site | temex site CV | "
           + " | ".join(MAIN_PEERS) + " | best peer | page CV − best | site CV − best |",
           "|---|" + "---:|" * (4 + len(MAIN_PEERS)) + "---|---:|---:|"]
    macro: dict[str, list[float]] = {}
    for ds, d in results["datasets"].items():
        rows = d["rows"]

        def f1(k: str) -> float | None:
            return rows[k]["F1"] if k in rows else None

        peers_f = {k: f1(k) for k in MAIN_PEERS if f1(k) is not None}
        best = max(peers_f, key=lambda k: peers_f[k]) if peers_f else ""
        cells = []
        for k in ("temex page", "temex page (CV)", "temex site", "temex site (CV)", *MAIN_PEERS):
            v = f1(k)
            cells.append(f"{v:.3f}" if v is not None else "-")
        diff = []
        for k in ("temex page (CV)", "temex site (CV)"):
            v = f1(k)
            diff.append(f"{v - peers_f[best]:+.3f}" if v is not None and best else "-")
        out.append(f"| {ds} ({d['pages']}) | " + " | ".join(cells)
                   + f" | {best} {peers_f.get(best, 0):.3f} | " + " | ".join(diff) + " |")
        if peers_f and max(peers_f.values()) >= 0.95:
            for k in ("temex page (CV)", "temex site (CV)", *MAIN_PEERS):
                v = f1(k)
                if v is not None:
                    macro.setdefault(k, []).append(v)
    if macro:
        sets = [ds for ds, d in results["datasets"].items()
                if max([d["rows"][k]["F1"] for k in MAIN_PEERS if k in d["rows"]] or [0])
                >= 0.95]
        out.append("\nMacro mean token F1 over the datasets where a peer reaches 0.95 ("
                   + ", ".join(sets) + "): "
                   + ", ".join(f"{k} {mean(v):.3f}" for k, v in macro.items()) + ".")
    return out


def markdown(results: dict) -> str:
    out: list[str] = summary(results) + [""]
    dss = list(results["datasets"])
    names: list[str] = []
    for ds in dss:
        for k in results["datasets"][ds]["rows"]:
            if k not in names:
                names.append(k)

    def two_column_table(title: str, a: str, b: str, fmt_b: str) -> None:
        out.append(title)
        out.append("| extractor | " + " | ".join(f"{d} {a} | {d} {b}" for d in dss) + " |")
        out.append("|---|" + "---:|---:|" * len(dss))
        for k in names:
            cells = []
            for ds in dss:
                r = results["datasets"][ds]["rows"].get(k)
                cells += [f"{r[a]:.3f}", format(r[b], fmt_b)] if r else ["-", "-"]
            out.append(f"| {k} | " + " | ".join(cells) + " |")

    two_column_table("### Token F1 (average over pages) and ms/page\n", "F1", "ms", ".1f")
    two_column_table("\n### Precision / recall\n", "P", "R", ".3f")
    main_peers = [k for k in names if "+" not in k and not k.startswith("temex")
                  and k != "all text"]
    for ds in dss:
        d = results["datasets"][ds]
        if len(d["per_site"]) > PER_SITE_MAX:
            continue
        out.append(f"\n### {ds}: F1 per site; temex fit per site\n")
        out.append("| site | temex fit ms | temex page | temex site | " + " | ".join(main_peers)
                   + " |")
        out.append("|---|---:|---:|---:|" + "---:|" * len(main_peers))
        for site, row in d["per_site"].items():
            out.append(f"| {site} | {d['fit_ms'][site]:.0f} | {row['temex page']:.3f} | "
                       f"{row['temex site']:.3f} | "
                       + " | ".join(f"{row.get(k, 0):.3f}" for k in main_peers) + " |")
    if results["notes"]:
        out.append("\nNotes: " + "; ".join(results["notes"]))
    return "\n".join(out) + "\n"


def chart(results: dict, path: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    dss = list(results["datasets"])
    names = [k for k in results["datasets"][dss[0]]["rows"]
             if "+" not in k and "rules" not in k and "CV" not in k]
    fig, ax = plt.subplots(figsize=(9, 4))
    w = 0.8 / len(names)
    for j, k in enumerate(names):
        ys = [results["datasets"][d]["rows"].get(k, {}).get("F1", 0) for d in dss]
        ax.bar([i + j * w for i in range(len(dss))], ys, w, label=k)
    ax.set_xticks([i + 0.4 - w / 2 for i in range(len(dss))], dss)
    ax.set_ylim(0.5, 1.0)
    ax.set_ylabel("token F1 (mean over pages)")
    ax.legend(fontsize=8, ncol=4, loc="lower center")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return True


MARK = "<!-- bench_content results -->"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None,
                    help=DATA_HELP)
    ap.add_argument("--datasets", default="",
                    help="comma-separated dataset names (default: every folder of DATA/content "
                         "with a manifest.jsonl)")
    ap.add_argument("--no-combined", action="store_true", help="skip the peer + temex runs")
    ap.add_argument("--cv", type=int, default=5, metavar="K",
                    help="also score every page with scorer models trained without its "
                         "site group (grouped K-fold; 0: skip)")
    ap.add_argument("--cv-models", metavar="JSON",
                    help="fold models of train_content_model.py --fold-models instead of "
                         "training them here")
    ap.add_argument("--peers", default=",".join(MAIN_PEERS),
                    help="comma-separated peers (trafilatura, readability, resiliparse, justext, "
                         "boilerpy3) or all (default: the first three)")
    ap.add_argument("--cache", default=str(ROOT / ".cache" / "bench_content_peers.json.gz"),
                    help="peer scores kept between runs (keyed by page bytes and peer versions)")
    ap.add_argument("--no-cache", action="store_true", help="run every peer again")
    ap.add_argument("--json", metavar="FILE", help="write the raw results here")
    ap.add_argument("--write", metavar="MD", help="replace the results section of this file")
    args = ap.parse_args()
    data = data_dir(args.data)
    names = [d for d in args.datasets.split(",") if d] or dataset_names(data)
    peer_names = None if args.peers == "all" else [p for p in args.peers.split(",") if p]
    cache = PeerCache(None if args.no_cache else Path(args.cache))
    res = run(data, names, not args.no_combined, args.cv,
              Path(args.cv_models) if args.cv_models else None, peer_names, cache)
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1), encoding="utf-8")
    md = markdown(res)
    print(md)
    if args.write:
        p = Path(args.write)
        png = p.parent / "content_f1.png"
        if chart(res, png):
            md += f"\n![token F1 per dataset]({png.name})\n"
        old = p.read_text(encoding="utf-8") if p.exists() else MARK + "\n"
        head = old.split(MARK)[0]
        p.write_text(head + MARK + "\n\n" + md, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
