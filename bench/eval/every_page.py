"""Every page of every shared site: the site level against the page level and the peers.

    .venv/bin/python -m bench.eval.every_page [--per-site 40] [--seed 0] [--json OUT] [SITE ...]

For each site of ``DATA/sites`` (the evaluation data: ``$TEMEX_DATA``), the
fixed sample of ``--per-site`` pages with gold of
:func:`temex.evaluate.pages.site_sample`, token F1 of the main text against
the gold text (bag of words, :func:`temex.page.tokens.token_prf`):

``site``
    ``temex content SITE_DIR`` (:func:`temex.evaluate.pages.site_scores`: the
    site index of every HTML file under the site's web root, the shipped
    defaults).
``page``
    ``temex.extract(html, format="content")``: the page alone, no other page.
``lift``
    ``site`` minus ``page``: what the site evidence adds to the page.
``pages dir`` (with ``--pages-dir``)
    ``temex extract PAGE --pages-dir ROOT -f content``: the key-page path,
    a template fitted on the pages the offline pool rule chooses from the
    site's web root, the main content under its mask (slow: the pool reads
    the folder for every page).
``by URL`` (with ``--by-url K``)
    ``temex extract URL -f content`` on the first ``K`` sampled pages of each
    site, its web root served on 127.0.0.1 (:func:`temex.evaluate.pages.url_scores`:
    the live path, the site's links explored from the page); the column's
    mean is over those pages only, ``site (same pages)`` beside it.
``trafilatura``, ``resiliparse``, ``readability``
    the page-level peers on the same pages (the ``bench`` extra; a missing
    one is left out and said). Their outputs are cached in ``--cache``
    (default ``bench/.cache/every_page_peers.json``, git-ignored): they do not
    change with temex.

Sites are printed worst lift first, then the means over all sites, over the
sites added on 2026-12-03 (``site.json`` has no earlier gold) and over the
rest. ``--json`` writes every page's scores (to compare two trees page by
page).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import temex
from bench.common import DATA_HELP, REPO, data_dir
from temex.evaluate.pages import pages_dir_scores, site_sample, site_scores, url_scores
from temex.page.files import read_page
from temex.page.tokens import token_prf

PEERS = ("trafilatura", "resiliparse", "readability")
#: The thirteen sites that joined the shared data on 2026-12-03 (data README):
#: nobody had tuned on them before.
NEW_SITES = frozenset({
    "bedrock-tech-blog", "clickwiki-wiki", "cmsis-dv-doxygen", "cni-iisc-seminars",
    "commmp-shop", "dostips-forum", "doulcememoire-company", "gpodder-devel-pipermail",
    "mywordpress", "redux-saga-docs", "schwalb-willmann-academic", "theory3", "ucf-news"})


def peer_extractors() -> dict[str, object]:
    out: dict[str, object] = {}
    try:
        import trafilatura
        out["trafilatura"] = lambda h: trafilatura.extract(h) or ""
    except ImportError:
        print("every_page: trafilatura not installed, left out", file=sys.stderr)
    try:
        from resiliparse.extract.html2text import extract_plain_text
        out["resiliparse"] = lambda h: extract_plain_text(h, main_content=True)
    except ImportError:
        print("every_page: resiliparse not installed, left out", file=sys.stderr)
    try:
        from readability import Document as RDoc
        from selectolax.lexbor import LexborHTMLParser

        def _readability(h: str) -> str:
            tree = LexborHTMLParser(RDoc(h).summary())
            for t in tree.css("script, style, noscript"):
                t.decompose()
            node = tree.body or tree.root
            return node.text(separator="\n") if node is not None else ""
        out["readability"] = _readability
    except ImportError:
        print("every_page: readability-lxml not installed, left out", file=sys.stderr)
    return out


def score_site(site_dir: Path, per_site: int, seed: int, peers: dict[str, object],
               cache: dict[str, dict[str, str]], with_pages_dir: bool = False,
               by_url: int = 0) -> dict[str, object]:
    sample = site_sample(site_dir, per_site, seed)
    rows: list[dict[str, object]] = [{"page": rel, "site": s, "page_alone": a}
                                     for rel, s, a in site_scores(sample)]
    if with_pages_dir:
        for row, f1 in zip(rows, pages_dir_scores(sample)):
            row["pages_dir"] = f1
    if by_url > 0:
        for row, f1 in zip(rows, url_scores(sample, by_url)):
            row["url"] = f1
            row["site_url_pages"] = row["site"]
    for row, (f, gold) in zip(rows, sample.pages):
        key = f"{sample.site.name}/{row['page']}"
        got = cache.setdefault(key, {})
        html = read_page(f).decode("utf-8", "replace")
        for name, fn in peers.items():
            if name not in got:
                try:
                    got[name] = fn(html)  # type: ignore[operator]
                except Exception as e:  # a peer's crash scores 0, said once
                    print(f"every_page: {name} failed on {key}: {e}", file=sys.stderr)
                    got[name] = ""
            row[name] = token_prf(got[name], gold)[2]
    return {"site": sample.site.name, "pages": rows}


def mean(rows: list[dict[str, object]], col: str) -> float:
    vals = [float(r[col]) for r in rows if col in r]  # type: ignore[arg-type]
    return statistics.mean(vals) if vals else float("nan")


def table(results: list[dict[str, object]], peers: list[str]) -> str:
    per = []
    key_mode = any("pages_dir" in row for r in results for row in r["pages"])  # type: ignore[attr-defined]
    url_mode = any("url" in row for r in results for row in r["pages"])  # type: ignore[attr-defined]
    extra = (["pages_dir"] if key_mode else []) + (["url", "site_url_pages"] if url_mode else [])
    for r in results:
        rows = r["pages"]  # type: ignore[assignment]
        s = {c: mean(rows, c) for c in ["site", "page_alone", *extra, *peers]}  # type: ignore[arg-type]
        s["lift"] = s["site"] - s["page_alone"]
        s["best peer"] = max((s[p] for p in peers), default=float("nan"))
        per.append((r["site"], len(rows), s))  # type: ignore[arg-type]
    per.sort(key=lambda t: t[2]["lift"])
    # the peers' columns, and the margin over the best, only where peers ran
    cols = ["site", "page_alone", "lift", *extra, *peers]
    head = "| " + " | ".join(["site", "pages", "site level", "page alone", "lift",
                              *(["pages dir"] if key_mode else []),
                              *(["by URL", "site (same pages)"] if url_mode else []), *peers,
                              *(["site − best peer"] if peers else [])]) + " |"
    out = [head, "|---|---:|" + "---:|" * (len(cols) + bool(peers))]

    def tail(s: dict[str, float]) -> str:
        return f" | {s['site'] - s['best peer']:+.3f} |" if peers else " |"

    for name, n, s in per:
        out.append(f"| {name} | {n} | " + " | ".join(
            f"{s[c]:+.3f}" if c == "lift" else f"{s[c]:.3f}" for c in cols) + tail(s))
    for label, keep in (("mean, all sites", lambda n: True),
                        ("mean, the 13 sites added 2026-12-03", lambda n: n in NEW_SITES),
                        ("mean, the other sites", lambda n: n not in NEW_SITES)):
        sel = [s for name, _, s in per if keep(name)]
        if not sel:
            continue
        m = {c: statistics.mean(s[c] for s in sel) for c in [*cols, "best peer"]}
        out.append(f"| **{label}** ({len(sel)}) | | " + " | ".join(
            f"{m[c]:+.3f}" if c == "lift" else f"{m[c]:.3f}" for c in cols) + tail(m))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="*", metavar="SITE", help="site names (default: all)")
    ap.add_argument("--data", help=DATA_HELP)
    ap.add_argument("--per-site", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-peers", action="store_true", help="temex's two paths only")
    ap.add_argument("--cache", default=str(REPO / "bench" / ".cache" / "every_page_peers.json"))
    ap.add_argument("--json", help="write every page's scores here")
    ap.add_argument("--pages-dir", action="store_true",
                    help="also score `temex extract PAGE --pages-dir ROOT` (slow)")
    ap.add_argument("--by-url", type=int, default=0, metavar="K",
                    help="also score `temex extract URL` on the first K pages of each site, "
                         "served on 127.0.0.1")
    args = ap.parse_args(argv)
    data = data_dir(args.data)
    dirs = sorted(p for p in (data / "sites").iterdir() if (p / "site.json").is_file())
    if args.sites:
        dirs = [d for d in dirs if d.name in set(args.sites)]
    peers = {} if args.no_peers else peer_extractors()
    cache_file = Path(args.cache)
    cache: dict[str, dict[str, str]] = {}
    if cache_file.is_file():
        cache = json.loads(cache_file.read_text("utf-8"))
    results = []
    t0 = time.perf_counter()
    for d in dirs:
        results.append(score_site(d, args.per_site, args.seed, peers, cache,
                                  args.pages_dir, args.by_url))
        print(f"  {d.name}: {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    if peers:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        cache_file.write_text(json.dumps(cache), "utf-8")
    print(f"Token F1 over {args.per_site} pages a site (seed {args.seed}), worst lift first; "
          f"temex {temex.__version__}\n")
    print(table(results, list(peers)))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
