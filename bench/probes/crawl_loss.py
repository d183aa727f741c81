"""Where the crawl's written pages lose text: for each
written page, every gold token is put in one class by the element holding
it, so that a low F1 is charged to the part of temex that made it:

- *missed, template mask*: gold content whose element the site's template
  (the cluster's saved template, :func:`temex.template.saved.text_mask`)
  marks as template: the template detector's (src/temex/template/);
- *missed, content choice*: gold content outside the mask that the main
  content step did not keep (repeated text, the rules, the scorer:
  src/temex/content/);
- *extra*: kept text that the gold calls template (the mask let it through
  and the content step kept it).

*Listing pages*: pages whose gold text is at least half link text (the
linked titles of a listing's rows), and the share of their gold tokens kept.

Per site: the token totals of each class over the written pages, and the
pages losing most (with the largest missed block). The crawl is the one of
:mod:`crawl_check` (defaults, host scope); the main-content calls of
:mod:`temex.crawler.process` are wrapped to see the mask and the kept blocks
they used (the results are theirs, unchanged).

Usage: .venv/bin/python -m bench.probes.crawl_loss [--sites a,b] [--pages K]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.common import data_dir
from temex.crawler import CrawlOptions, process, run_crawl
from temex.evaluate import NoGoldError, gold_mask, load_site
from temex.evaluate.crawl_check import page_file
from temex.page.dom import Document, parse
from temex.page.tokens import tokens
from temex.site.sources.localserve import serve_folder
from temex.template.saved import text_mask

SEEN: dict[str, tuple[list[bool] | None, Any]] = {}  # url -> (template text mask, Content)


def _wrap() -> None:
    main_content, extract_content = process.main_content, process.extract_content

    def main_wrapped(saved: Any, doc: Document, *a: Any, **kw: Any) -> Any:
        c = main_content(saved, doc, *a, **kw)
        SEEN[doc.url] = (text_mask(saved, doc), c)
        return c

    def extract_wrapped(doc: Document, *a: Any, **kw: Any) -> Any:
        c = extract_content(doc, *a, **kw)
        SEEN[doc.url] = (None, c)
        return c

    process.main_content = main_wrapped  # type: ignore[assignment]
    process.extract_content = extract_wrapped  # type: ignore[assignment]


def attribute(doc: Document, mask: list[bool] | None, content: Any, gold_doc: Document,
              site: Any) -> dict[str, Any] | None:
    """Token counts of each class on one page (None: no gold)."""
    try:
        gold = gold_mask(gold_doc, site.content_selector, site.template_selector)
    except NoGoldError:
        return None
    keep = content.keep_mask() if content.chosen else [False] * len(doc)
    out: dict[str, Any] = {"gold": 0, "missed_mask": 0, "missed_content": 0, "extra": 0,
                           "kept_ok": 0, "gold_linked": 0, "largest": ""}
    largest = 0
    linked = [False] * len(doc)
    for i in range(len(doc)):
        p = doc.parent[i]
        linked[i] = doc.tag[i] == "a" or (p >= 0 and linked[p])
    for i in range(len(doc)):
        t = doc.text[i]
        if not t or gold[i] is None:
            continue
        n = len(tokens(t))
        if gold[i] is False:
            out["gold"] += n
            out["gold_linked"] += n if linked[i] else 0
            if keep[i]:
                out["kept_ok"] += n
            else:
                cls = "missed_mask" if mask is not None and mask[i] else "missed_content"
                out[cls] += n
                if n > largest:
                    largest = n
                    short = " ".join(t.split())
                    out["largest"] = (f"{cls.split('_')[1]}: {doc.tag[i]} "
                                      f"{short[:50] + '...' if len(short) > 50 else short}")
        elif keep[i]:
            out["extra"] += n
    return out


def site_loss(folder: Path, k: int) -> tuple[str, dict[str, int], list[tuple[str, dict[str, Any]]]]:
    site = load_site(folder)
    start = site.meta.get("crawl_check", {}).get("start") or site.key_pages[-1]
    SEEN.clear()
    with tempfile.TemporaryDirectory(prefix="crawl-loss-") as tmp, \
            serve_folder(site.root) as base:
        results, _ = run_crawl(base + start, Path(tmp) / "crawl",
                               CrawlOptions(scope=base + "/", guard_allow=(base.split("/")[2],)),
                               progress=False)
        pages = []
        for r in results:
            if r.error or r.duplicate_of or not r.path:
                continue
            f = page_file(site.root, urlsplit(r.final_url or r.url).path)
            seen = SEEN.get(r.final_url or r.url)
            if seen is None or not f.is_file():
                continue
            mask, content = seen
            gdoc = parse(f.read_bytes(), url=str(f))
            if len(gdoc) != len(content.doc):  # the served bytes are the file's
                continue
            a = attribute(content.doc, mask, content, gdoc, site)
            if a is not None:
                a["template"] = r.template or "page-level"
                pages.append((urlsplit(r.url).path, a))
    total = {c: sum(a[c] for _, a in pages) for c in
             ("gold", "kept_ok", "missed_mask", "missed_content", "extra")}
    # listing pages: most of the gold text is link text (the rows' linked titles)
    lists = [a for _, a in pages if a["gold"] and 2 * a["gold_linked"] >= a["gold"]]
    total["listings"] = len(lists)
    total["pages"] = len(pages)
    total["listing_gold"] = sum(a["gold"] for a in lists)
    total["listing_kept"] = sum(a["kept_ok"] for a in lists)
    worst = sorted(pages, key=lambda p: -(p[1]["missed_mask"] + p[1]["missed_content"]
                                          + p[1]["extra"]))[:k]
    return site.name, total, worst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sites", default="")
    ap.add_argument("--pages", type=int, default=3, help="pages listed per site")
    a = ap.parse_args()
    _wrap()
    folders = sorted(p for p in (data_dir() / "sites").iterdir() if (p / "site.json").is_file())
    if a.sites:
        folders = [p for p in folders if p.name in set(a.sites.split(","))]
    rows = [site_loss(f, a.pages) for f in folders]
    print("Gold tokens of the written pages, and where the crawl loses or adds them "
          "(share of the gold tokens)\n")
    print("| site | gold tokens | kept | missed: template mask | missed: content choice | "
          "extra (gold template kept) | listing pages | their gold kept |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, t, _ in rows:
        g = max(1, t["gold"])
        lk = f"{t['listing_kept'] / t['listing_gold']:.1%}" if t["listing_gold"] else "–"
        print(f"| {name} | {t['gold']} | {t['kept_ok'] / g:.1%} | {t['missed_mask'] / g:.1%} | "
              f"{t['missed_content'] / g:.1%} | {t['extra'] / g:.1%} | "
              f"{t['listings']} of {t['pages']} | {lk} |")
    print("\nThe pages losing most (tokens missed by the mask / by the content choice / "
          "extra; the largest missed element)\n")
    print("| site | page | template | gold | mask | content | extra | largest missed |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for name, _, worst in rows:
        for path, w in worst:
            print(f"| {name} | `{path[:60]}` | {w['template']} | {w['gold']} | "
                  f"{w['missed_mask']} | {w['missed_content']} | {w['extra']} | "
                  f"{w['largest'].replace('|', '/')} |")


if __name__ == "__main__":
    main()
