"""The crawl check: does ``temex crawl`` lose a page, and how
right is what it writes? (``bench/eval/crawl_check.py`` prints the tables;
tests/test_crawl.py runs it on a few sites.)

Per shared site (``$TEMEX_DATA/sites``): the site's web root served by
:func:`temex.site.sources.localserve.serve_folder` on 127.0.0.1, crawled with
the defaults of ``temex crawl`` from ``crawl_check.start`` of its site.json
(else its last key page), the scope the whole host. Columns:

- crawlable: the site's HTML files reachable from that page by ``<a href>``
  links on the host (:func:`reachable_files`, standard library only: an
  independent walk; the data's own check, ``crawl_check.html_ok``, counts
  URLs, so ``/a`` and ``/a/`` twice, and is shown beside it);
- written: pages with a file of their own; duplicates: pages pointing to
  another page's file, by the proof given in the index (``duplicate_proof``);
- kept: crawlable files whose page was written, is a duplicate or a redirect
  stub whose target was crawled, over crawlable (missing files are listed
  with ``--detail``);
- errors by reason (HTTP status, redirect stub, empty page, ...), robots.txt
  skips apart;
- token F1 (bag of words, :func:`temex.page.tokens.token_prf`) of each
  written page's main text against its gold text (content_selector minus
  template_selector, :func:`temex.evaluate.gold_text`), mean and worst page;
  pages whose file has no content element (no gold) are counted apart;
- dup F1: the text *written* for a duplicate (its twin's file) against the
  duplicate's own gold: what a reader of the output has for that page; dup
  loss: the largest drop, over the duplicates, from the F1 of the page's own
  main text to that of its twin's (what recording it as a duplicate cost).

``--detail K`` adds, per site, the K worst written pages with what they miss
and what they add (the largest runs of gold tokens left out, of extracted
tokens not in the gold).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from ..crawler import CrawlOptions, run_crawl
from ..page.dom import parse
from ..page.tokens import token_prf, tokens
from ..site.sources.localserve import serve_folder
from . import NoGoldError, Site, gold_text

__all__ = ["check_site", "error_kind", "page_file", "page_gold", "reachable_files"]


def page_gold(path: Path, site: Site) -> str | None:
    """The gold text of the page file at ``path`` (None: the page has no
    content element)."""
    try:
        return gold_text(parse(path.read_bytes(), url=str(path)), site.content_selector,
                         site.template_selector)
    except NoGoldError:
        return None


class _Hrefs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("a", "area"):
            self.hrefs += [v for k, v in attrs if k == "href" and v]


def page_file(root: Path, url_path: str) -> Path:
    f = root / unquote(url_path).lstrip("/")
    return (f / "index.html" if f.is_dir() else f).resolve()


def reachable_files(root: Path, start: str) -> set[Path]:
    """HTML files of a static site reachable from ``start`` by links on the
    same host (query strings ignored, as the file server does)."""
    seen, todo, files = {urlsplit(start).path}, [urlsplit(start).path], set()
    while todo:
        path = todo.pop()
        f = page_file(root, path)
        if not f.is_file() or f.suffix not in (".html", ".htm") or f in files:
            continue
        files.add(f)
        p = _Hrefs()
        p.feed(f.read_text(encoding="utf-8", errors="replace"))
        for h in p.hrefs:
            u = urlsplit(urljoin("http://x" + path, h))
            if u.netloc == "x" and u.scheme == "http" and u.path not in seen:
                seen.add(u.path)
                todo.append(u.path)
    return files


def error_kind(error: str) -> str:
    """A short reason class of an index row's ``error`` (the table's key)."""
    e = error.lower()
    for key, name in (("robots.txt", "robots"), ("redirect stub", "redirect stub"),
                      ("empty page", "empty page"), ("no page body", "no body"),
                      ("unreadable", "unreadable"), ("feed or sitemap", "feed"),
                      ("out of scope", "redirect out of scope"), ("timed out", "timeout"),
                      ("not html", "not HTML"), ("too large", "too large")):
        if key in e:
            return name
    for word in e.replace(":", " ").split():
        if word.isdigit() and len(word) == 3:
            return f"HTTP {word}"
    return e[:40]


def _missed_extra(text: str, gold: str) -> tuple[str, str]:
    """What a page loses and adds, by blocks (one line per block in both
    texts): the tokens of the gold lines missing from ``text`` and the
    longest of them; the same for extracted lines not in the gold."""
    got = {" ".join(x.split()) for x in text.splitlines()}
    want = {" ".join(x.split()) for x in gold.splitlines()}

    def say(lines: set[str]) -> str:
        lines.discard("")
        if not lines:
            return "–"
        n = sum(len(tokens(x)) for x in lines)
        top = max(lines, key=lambda x: len(tokens(x)))
        top = top if len(top) <= 60 else top[:57] + "..."
        return f"{n} tokens, {len(lines)} blocks; largest: {top.replace('|', '/')}"

    return say(want - got), say(got - want)


def check_site(site: Site, max_pages: int, detail: int) -> dict[str, Any]:
    check = site.meta.get("crawl_check", {})
    start = check.get("start") or site.key_pages[-1]
    with tempfile.TemporaryDirectory(prefix="crawl-check-") as tmp, \
            serve_folder(site.root) as base:
        t0 = time.perf_counter()
        results, summary = run_crawl(
            base + start, Path(tmp) / "crawl",
            CrawlOptions(scope=base + "/", max_pages=max_pages,
                         guard_allow=(base.split("/")[2],)),
            progress=False)
        wall = time.perf_counter() - t0
    text_of = {r.url: r.text for r in results}
    written = [r for r in results if r.path and not r.duplicate_of and not r.error]
    dups = [r for r in results if r.duplicate_of]
    errors = Counter(error_kind(r.error) for r in results if r.error)
    robots = errors.pop("robots", 0)
    proofs = Counter((getattr(r, "duplicate_proof", None) or "simhash, unstated").split(":")[0]
                     for r in dups)
    stubs = [r for r in results if r.error and r.error.startswith("redirect stub (meta refresh to")]

    def file_of(r: Any) -> Path:
        return page_file(site.root, urlsplit(r.final_url or r.url).path)

    def gold_of(r: Any) -> str | None:
        f = file_of(r)
        return page_gold(f, site) if f.is_file() else None

    want = reachable_files(site.root, start)
    missing = sorted(str(f.relative_to(site.root)) for f in
                     want - {file_of(r) for r in written + dups + stubs})

    scored: list[tuple[float, Any, str]] = []
    no_gold = 0
    for r in written:
        g = gold_of(r)
        if g is None:
            no_gold += 1
            continue
        scored.append((token_prf(r.text, g)[2], r, g))
    dup_f1, dup_loss = [], []
    for r in dups:
        g = gold_of(r)
        if g is not None:
            dup_f1.append(token_prf(text_of.get(r.duplicate_of or "", ""), g)[2])
            dup_loss.append(token_prf(r.text, g)[2] - dup_f1[-1])
    f1s = [f for f, _, _ in scored]
    worst = []
    for f, r, g in sorted(scored, key=lambda t: t[0])[:detail]:
        missed, extra = _missed_extra(r.text, g)
        p, rec, _ = token_prf(r.text, g)
        worst.append({"url": urlsplit(r.url).path + ("?" + urlsplit(r.url).query
                                                     if urlsplit(r.url).query else ""),
                      "f1": f, "p": p, "r": rec, "template": r.template,
                      "missed": missed, "extra": extra})
    crawlable = len(want)
    return {"site": site.name, "start": start, "crawlable": crawlable,
            "html_ok": check.get("html_ok"), "missing": missing,
            "fetched": summary["fetched"], "written": len(written), "duplicates": len(dups),
            "proofs": dict(proofs), "errors": dict(errors), "robots": robots,
            "kept": 1 - len(missing) / crawlable if crawlable else float("nan"),
            "scored": len(f1s), "no_gold": no_gold,
            "f1_mean": statistics.mean(f1s) if f1s else float("nan"),
            "f1_worst": min(f1s) if f1s else float("nan"),
            "at_095": sum(f >= 0.95 for f in f1s) / len(f1s) if f1s else float("nan"),
            "dup_f1": statistics.mean(dup_f1) if dup_f1 else float("nan"),
            "dup_loss": max(dup_loss) if dup_loss else float("nan"),
            "empty": summary.get("empty", 0), "seconds": wall, "worst": worst,
            "summary_line": {k: summary.get(k) for k in
                             ("usable", "duplicates", "errors", "failed", "files_written")}}
