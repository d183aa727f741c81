"""The processing half of ``temex crawl``: every fetched page to its main
content, the template fitted once per template cluster.

1. Every page fetched (``done`` rows, in order of depth then URL, so the
   result does not depend on the order the fetches completed in) is parsed
   from its stored body; pages with the same DOM are counted once.
2. Template clusters (:func:`temex.batch.grouping.cluster`, Jaccard of
   ``tag.class`` vocabularies). A cluster of two pages or more is fitted once
   (``VoteDetector``: its first page as key page against ``n_pages`` of its
   members, those linked both ways with the key page first — the n-complete
   subdigraph of the links paper where the links allow — then the most
   similar) and saved as ``OUTDIR/templates/cK.template.json``; a template
   whose sample pages are unchanged since the last run is loaded, not
   fitted again. A page alone in its cluster gets page-level extraction (no
   template mask; the site's repeated text still applies).
3. One site index (:class:`temex.template.site_index.SiteIndex`, repeated
   block texts) of the first ``index_pages`` pages in crawl order, as
   ``temex batch`` counts its sample (``site_index="all"``: every page;
   ``"none"``: no repeated-text evidence; docs/CRAWL.md measures the three);
   main content with :func:`temex.content.extract.main_content` (a page
   outside the counted ones is not discounted).
4. Duplicates proven on the main text (:mod:`temex.crawler.dedupe`): a page
   whose text is an earlier written page's (same text), or resembles it to
   ``near_dup_resemblance`` (word 3-shingle Jaccard), points to it
   (``duplicate_of``, with ``duplicate_proof``) instead of being written.
5. One file per page mirroring its URL path under ``OUTDIR/pages/``, written
   only when its bytes change; ``OUTDIR/index.jsonl``; ``summary.json``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any

from ..batch.grouping import cluster_vocabularies
from ..content.extract import Content, extract_content, main_content
from ..content.metadata import FIELDS, front_matter, page_metadata
from ..content.params import ContentParams
from ..errors import ParameterError, ParseError
from ..page.dom import Document, parse
from ..page.files import stub_href, unusable
from ..site.links import get_links
from ..site.pool import most_similar, vocabulary
from ..site.sources.http import USER_AGENT
from ..template.detectors.vote import VoteDetector
from ..template.saved import SavedTemplate
from ..template.site_index import SiteIndex, page_fingerprint
from .dedupe import find_duplicates
from .fetch import body_path
from .options import CrawlOptions
from .report import is_redirect, outcome_counts
from .state import CrawlState, PageRow
from .urls import canonical, output_path, url_key

#: Which pages the site index (repeated text) counts: see :class:`CrawlOptions`.
SITE_INDEX_MODES = ("sample", "all", "none")

__all__ = ["SITE_INDEX_MODES", "PageResult", "page_meta", "process_pages", "write_if_changed"]


@dataclass
class PageResult:
    """One page of a crawl: its index row, and its main content."""

    url: str
    final_url: str | None = None
    status: int | None = None
    depth: int = 0
    title: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    template: str | None = None
    content_hash: str | None = None
    duplicate_of: str | None = None
    duplicate_proof: str | None = None
    path: str | None = None
    changed: bool = False
    error: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    text: str = field(default="", repr=False)
    markdown: str = field(default="", repr=False)

    def row(self) -> dict[str, Any]:
        """The JSONL index row (no content)."""
        d = asdict(self)
        d.pop("text")
        d.pop("markdown")
        return d


# <meta> fields the crawl index adds to page_metadata's (not in the front matter)
_EXTRA_META = {"keywords": "keywords", "article:modified_time": "modified", "og:type": "type"}


def page_meta(doc: Document) -> tuple[str, dict[str, Any]]:
    """Title and metadata of the crawl index: the fields of
    :func:`temex.content.metadata.page_metadata` under the same names as
    ``temex batch`` rows and ``temex content`` (title, authors, date,
    site_name, language, canonical, description; empty ones left out, the
    canonical URL normalised) plus keywords, modified and type."""
    md = page_metadata(doc)
    meta: dict[str, Any] = {}
    for f in FIELDS:
        v = md.get(f)
        if f == "canonical" and v:
            v = canonical(v, doc.url)
        if v:
            meta[f] = [str(x)[:1000] for x in v] if isinstance(v, list) else str(v)[:1000]
    end = doc.body if doc.body >= 0 else len(doc)
    for i in range(end):
        if doc.tag[i] == "meta":
            a = dict(doc.attrs[i])
            name = (a.get("name") or a.get("property") or "").strip().lower()
            field_ = _EXTRA_META.get(name)
            content = a.get("content", "").strip()
            if field_ and content and field_ not in meta:
                meta[field_] = content[:1000]
    return (md["title"] or "")[:1000], meta


#: The words counted in a page's stats (``words``), cut in the text as
#: written: not :func:`temex.page.tokens.tokens`, which lower-cases first and
#: so may count more (``"İx"`` lowers to ``i``, a combining dot, ``x``).
_WORD = re.compile(r"\w+", re.UNICODE)


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` atomically unless the file already holds it."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return True


def _front_matter(r: PageResult) -> str:
    # the same front matter as `temex content --front-matter` (one convention)
    return front_matter(r.metadata, r.final_url or r.url)


def _sample(key: int, members: Sequence[int], urls: Sequence[str],
            links: Sequence[set[str]], vocabs: Sequence[frozenset[str]], n: int,
            texts: Sequence[str]) -> list[int]:
    """Up to ``n`` pages (by number among the distinct DOMs) to compare with
    ``key``: linked both ways with it first, then the most similar. A page
    showing the key's own visible text (``texts``: :func:`page_fingerprint`;
    a forum topic under another URL) is no sample: mapped with its copy the
    key's whole content would be voted template."""
    members = [m for m in members if texts[m] != texts[key]]
    kk = url_key(urls[key])
    mine = links[key]
    mutual = [m for m in members if url_key(urls[m]) in mine and kk in links[m]]
    if len(mutual) >= n:
        return [mutual[k] for k in most_similar(vocabs[key], [vocabs[m] for m in mutual], n)]
    rest = [m for m in members if m not in mutual]
    return mutual + [rest[k] for k in most_similar(vocabs[key], [vocabs[m] for m in rest],
                                                   n - len(mutual))]


def _signature(key_hash: str, sample: Sequence[str], opts: CrawlOptions) -> str:
    blob = json.dumps([USER_AGENT, key_hash, sorted(sample), opts.n_pages, opts.detector],
                      sort_keys=True)
    return blake2b(blob.encode(), digest_size=12).hexdigest()


def _link_keys(doc: Document) -> set[str]:
    out = set()
    for link in get_links(doc, same_site_only=True):
        c = canonical(link.url)
        if c:
            out.add(url_key(c))
    return out


@dataclass
class _Usable:
    """What the first pass keeps of a usable page: never its Document."""

    result: PageResult
    row: PageRow
    dom: int  # the page's DOM hash: pages with the same DOM are counted once


def _stored(raw: Path, row: PageRow) -> tuple[bytes, Document]:
    """A fetched page's stored body and its parse (raises OSError,
    ParseError, ValueError or TypeError when it cannot be had)."""
    body = body_path(raw, row["body_hash"]).read_bytes()
    return body, parse(body, url=row["final_url"] or row["url"],
                       declared_encoding=row["charset"])


def process_pages(state: CrawlState, outdir: Path, opts: CrawlOptions,
                  log: Any = None) -> tuple[list[PageResult], dict[str, Any]]:
    """Main content of every fetched page; outputs written. Returns the page
    results (crawl order: depth, then URL) and the processing counts.

    Two passes over the stored bodies, one page in memory at a time: the
    first keeps of each page its metadata, DOM hash and, once per distinct
    DOM, its vocabulary and links (the clusters and the samples are chosen
    from those) and counts it into the site index; the templates' key and
    sample pages are parsed again to fit them; the second pass parses every
    page again for its main content. Holding every page cost about 1 MB a
    page (docs/CRAWL.md)."""
    raw = outdir / "raw"
    if opts.site_index not in SITE_INDEX_MODES:
        raise ParameterError("site_index", " or ".join(SITE_INDEX_MODES), opts.site_index)
    counted = {"all": None, "sample": max(1, opts.index_pages), "none": 0}[opts.site_index]
    rows = state.pages(("done", "error", "skipped"))
    skipped = {row["url"] for row in rows if row["state"] == "skipped"}
    results: list[PageResult] = []
    usable: list[_Usable] = []
    # per distinct DOM, in crawl order: its first page, address, vocabulary, links
    first: dict[int, int] = {}
    page_of: list[int] = []
    urls: list[str] = []
    vocabs: list[frozenset[str]] = []
    links: list[set[str]] = []
    texts: list[str] = []
    index = SiteIndex(hashed=True)
    for row in rows:
        r = PageResult(url=row["url"], final_url=row["final_url"], status=row["status"],
                       depth=row["depth"], changed=bool(row["changed"]), error=row["error"])
        results.append(r)
        if row["state"] != "done":
            continue
        try:
            body, doc = _stored(raw, row)
        except (OSError, ParseError, ValueError, TypeError) as e:
            r.error = f"stored body unreadable ({e})"
            continue
        reason = unusable(doc)
        if reason:
            href = stub_href(doc, reason)  # read once: its canonical URL is the target
            to = canonical(href, doc.url) if href else None
            r.error = f"redirect stub (meta refresh to {to})" if to else reason
            continue
        r.title, r.metadata = page_meta(doc)
        r.stats["bytes"] = len(body)
        h = doc.subtree_hash[0]
        if h not in first:
            first[h] = len(page_of)
            page_of.append(len(usable))
            urls.append(doc.url)
            vocabs.append(vocabulary(doc))
            links.append(_link_keys(doc))
            texts.append(page_fingerprint(doc))
            if counted is None or len(page_of) <= counted:
                index.add(doc)
        usable.append(_Usable(r, row, h))

    # 1-2. template clusters of the distinct DOMs; fit per cluster
    groups = cluster_vocabularies(vocabs, opts.cluster_threshold) if vocabs else []
    cluster_of: dict[int, int] = {}
    for c, g in enumerate(groups):
        for m in g:
            cluster_of[m] = c
    sigs_old: dict[str, str] = state.get_meta("template_signatures", {}) or {}
    sigs: dict[str, str] = {}
    saved: dict[int, SavedTemplate] = {}
    n_fitted = n_reused = 0
    tdir = outdir / "templates"

    def row_of(m: int) -> PageRow:
        return usable[page_of[m]].row

    for c, g in enumerate(groups):
        if len(g) < 2:
            continue
        sample = _sample(g[0], g[1:], urls, links, vocabs, max(1, opts.n_pages), texts)
        if not sample:
            continue  # every other page is a copy of the key: the page level
        sig = _signature(row_of(g[0])["body_hash"], [row_of(m)["body_hash"] for m in sample],
                         opts)
        name = f"c{c}"
        path = tdir / f"{name}.template.json"
        st = None
        if sigs_old.get(name) == sig and path.is_file():
            try:
                st = SavedTemplate.load(path)
                n_reused += 1
            except (OSError, ValueError):
                st = None
        if st is None:
            # the key and its sample parsed again (read in the first pass)
            try:
                key, *pages = [_stored(raw, row_of(m))[1] for m in [g[0], *sample]]
            except (OSError, ParseError, ValueError, TypeError):
                continue  # a body gone since the first pass: its pages get the page level
            model = VoteDetector(**opts.detector).fit(key, pages).model_
            st = SavedTemplate.from_models([model], site=str(state.get_meta("start", "")))
            del key, pages, model  # the template keeps what it needs of them
            st.site_index = index
            tdir.mkdir(parents=True, exist_ok=True)
            st.save(path)
            n_fitted += 1
        st.site_index = index
        saved[c] = st
        sigs[name] = sig
    state.set_meta("template_signatures", sigs)

    # 3. main content, every page parsed again
    docs: list[tuple[PageResult, PageRow]] = []
    for u in usable:
        r = u.result
        try:
            doc = _stored(raw, u.row)[1]
        except (OSError, ParseError, ValueError, TypeError) as e:
            r.error = f"stored body unreadable ({e})"
            continue
        c = cluster_of.get(first[u.dom], -1)
        st = saved.get(c)
        main: Content
        if st is not None:
            main = main_content(st, doc, ContentParams(comments=opts.comments))
            r.template = f"c{c}"
        else:
            main = extract_content(doc, index, None, ContentParams(comments=opts.comments),
                                   member=index.member(doc))
        r.text = main.text()
        r.markdown = main.markdown() if opts.output_format == "markdown" else r.text
        r.content_hash = blake2b(r.text.encode(), digest_size=12).hexdigest()
        r.stats.update(chars=len(r.text), words=len(_WORD.findall(r.text)),
                       blocks=len(main.chosen), cluster=f"c{c}", fitted=st is not None)
        if not r.text:
            r.stats["empty_reason"] = main.reason
        docs.append((r, u.row))

    # 4. duplicates, each with its proof
    if opts.dedupe:
        proofs = find_duplicates([r.text for r, _ in docs],
                                 [r.metadata.get("canonical") for r, _ in docs],
                                 opts.near_dup_resemblance,
                                 [canonical(r.final_url or r.url) or r.url for r, _ in docs])
        for k, proof in proofs.items():
            r = docs[k][0]
            r.duplicate_of = docs[proof.twin][0].url
            r.duplicate_proof = proof.describe(opts.near_dup_resemblance)

    # 5. files
    suffix = ".md" if opts.output_format == "markdown" else ".txt"
    used: dict[str, str] = {}
    n_written = n_same = n_removed = 0
    old_paths = {row["url"]: row["out_path"] for row in rows if row["out_path"]}
    ids = {row["url"]: row["id"] for row in rows}
    for r, row in docs:
        if r.duplicate_of is not None:
            continue
        rel = output_path(r.final_url or r.url, suffix)
        if rel in used and used[rel] != r.url:
            stem = rel[:-len(suffix)]
            rel = f"{stem}_{blake2b(r.url.encode(), digest_size=4).hexdigest()}{suffix}"
        used[rel] = r.url
        r.path = "pages/" + rel
        page = (_front_matter(r) + r.markdown + "\n") if suffix == ".md" else r.text + "\n"
        data = page.encode("utf-8")
        if write_if_changed(outdir / r.path, data):
            n_written += 1
        else:
            n_same += 1
    target = {r.url: r.path for r in results}
    live = {r.path for r in results if r.path}
    for r in results:
        if r.duplicate_of is not None:
            r.path = target.get(r.duplicate_of)
        old = old_paths.get(r.url)
        if old and old != r.path and old not in live:
            try:
                (outdir / old).unlink()
                n_removed += 1
            except OSError:
                pass
        state.set_output(ids[r.url], r.path, r.content_hash)
    lines = "".join(json.dumps(r.row(), ensure_ascii=False) + "\n" for r in results)
    write_if_changed(outdir / "index.jsonl", lines.encode("utf-8"))
    counts = {"pages": len(results), "usable": len(docs), "distinct_doms": len(vocabs),
              "clusters": len(groups), "templates": len(saved),
              "templates_fitted": n_fitted, "templates_reused": n_reused,
              "page_level": sum(1 for r, _ in docs if r.template is None),
              # pages with a file of their own: written now, or unchanged (a
              # re-crawl leaves a file whose bytes are the same as it was)
              "written": n_written, "unchanged": n_same,
              "duplicates": sum(1 for r in results if r.duplicate_of),
              "files_written": n_written, "files_unchanged": n_same, "files_removed": n_removed,
              "errors": sum(1 for r in results if r.error),
              # failures: pages that could not be had or used (robots.txt skips are
              # not, nor redirect stubs: an HTML redirect, its target followed)
              "failed": sum(1 for r in results if r.error and r.url not in skipped
                            and not is_redirect(r.error)),
              "empty": sum(1 for r, _ in docs if not r.text),
              **outcome_counts(results, skipped)}
    return results, counts
