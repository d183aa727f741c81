"""Page records for training and cross-validating the block scorer
(``bench/train/train_content_model.py``): per page of a content dataset or a
shared site, its blocks' features, labels against the gold text, and what
the scorer's selection reads, with an on-disk cache keyed by the code that
makes them.

Needs numpy (the ``test`` extra); nothing in temex imports this module.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..content.extract import ContentParams, rule_signals
from ..content.features import block_lists
from ..content.records import headed_tables
from ..content.region import introduced_elements, main_elements
from ..content.rules import navigation_blocks
from ..content.scorer import block_features
from ..content.title import title_heading
from ..errors import ParseError
from ..page.blocks import page_blocks
from ..page.dom import HEADING_TAGS, parse
from ..page.tokens import tokens
from ..template.site_index import SiteIndex
from .content_sets import pages_by_site

if TYPE_CHECKING:
    from ..page.blocks import Blocks
    from ..page.dom import Document
    from . import Site

__all__ = ["SITES", "Page", "group_of", "labels_for", "load", "load_sites", "page_record",
           "site_gold_pages"]

#: The source tree whose code makes the records (the cache key).
_SRC = Path(__file__).resolve().parents[1]

#: Pages per shared site in the page model's training (``--sites``) and in
#: ``--loso-sites`` (a fixed random sample; each site its own group). On,
#: with the six content datasets (docs/CONTENT.md, "The model").
SITES = 40
_PARAMS = ContentParams()
_SUFFIX = {"com", "org", "net", "co", "uk", "au", "gov", "edu", "mil", "ac", "info", "us",
           "ca", "de", "in", "www", "int", "biz", "tv", "nz", "ie", "fr", "jp"}


def group_of(site: str) -> str:
    """Brand of a site name: the last label that is not a public suffix part
    (``blogs.wsj.com`` → ``wsj``, ``adwords.blogspot.com`` → ``blogspot``,
    ``geocities.com_user`` → ``geocities``)."""
    host = site.split("_")[0].lower()
    if re.fullmatch(r"[\d.]+", host):
        return host
    labels = [x for x in host.split(".") if x and x not in _SUFFIX]
    return labels[-1] if labels else host


class Page:
    """One page's training record: block features (page, and site when a site
    index was given), labels and weights, token counts for scoring, and what
    the scorer's selection reads (numpy arrays where a column per block)."""

    __slots__ = ("dataset", "site", "name", "f_page", "f_site", "label", "weight", "btok",
                 "gold", "ctx_doc", "ctx_blocks", "rules", "chars", "traf", "lists", "mains",
                 "title", "nav", "tables", "introduced")
    dataset: str
    site: str
    name: str
    f_page: Any
    f_site: Any
    label: Any
    weight: Any
    btok: list[Counter[str]]
    gold: Counter[str]
    ctx_doc: _Tree
    ctx_blocks: _BlockView
    rules: Any
    chars: Any
    traf: float | None
    lists: Any
    mains: Any
    title: Any
    nav: Any
    tables: Any
    introduced: Any


def labels_for(btexts: list[list[str]], gold: str) -> list[float]:
    gt = tokens(gold)
    tri = {tuple(gt[i:i + 3]) for i in range(len(gt) - 2)}
    lines = {" ".join(tokens(line)) for line in gold.splitlines()}
    short_lines = [" ".join(tokens(line)) for line in gold.splitlines() if len(tokens(line)) <= 6]
    out = []
    for bt in btexts:
        if len(bt) >= 3:
            hit = sum(tuple(bt[i:i + 3]) in tri for i in range(len(bt) - 2))
            out.append(1.0 if hit / (len(bt) - 2) >= 0.5 else 0.0)
        elif bt:
            s = " ".join(bt)
            out.append(1.0 if s in lines or any(s in x for x in short_lines) else 0.0)
        else:
            out.append(0.0)
    return out


def page_record(ds: str, site: str, name: str, d: Document, gold: str,
                index: SiteIndex | None, params: ContentParams) -> Page | None:
    """Features, labels and scoring data of one page (``index``: its site's
    pages, for the site features; None: page features only)."""
    blocks = page_blocks(d)
    if not len(blocks):
        return None
    rule = rule_signals(d, blocks, [False] * len(blocks), params)
    fp = block_features(d, blocks, rule)
    if index is not None:
        rep = index.repeated(blocks, params.repeat_min, True, params.long_block)
        srule = rule_signals(d, blocks, rep, params)
        df = [index.df.get(k, 0) - 1 for k in blocks.key]
        site_info = {"pages": index.n_pages - 1, "df": df, "rule": srule}
        fs = block_features(d, blocks, rule, site_info)
    btok = [tokens(" ".join(d.text[i] for i in ps)) for ps in blocks.pieces]
    p = Page()
    p.dataset, p.site, p.name = ds, site, name
    p.f_page = np.array(fp)
    p.f_site = np.array(fs) if index is not None else None
    p.label = np.array(labels_for(btok, gold))
    nt = sum(len(t) for t in btok) or 1
    p.weight = np.array([len(t) / nt for t in btok])
    p.btok = [Counter(t) for t in btok]
    p.gold = Counter(tokens(gold))
    # what context_features and select need: the tree arrays, not the page
    p.ctx_doc, p.ctx_blocks = _Tree(d), _BlockView(blocks)
    p.lists = block_lists(d, blocks)
    p.mains = main_elements(d, _PARAMS.main_sections, blocks, _PARAMS.main_components)
    p.title = title_heading(d, blocks)
    p.tables = headed_tables(d)
    p.introduced = introduced_elements(d, blocks)
    p.rules, p.chars = rule["chosen"], np.array(blocks.chars)
    p.nav = np.array(navigation_blocks(d, blocks, rule["ld_ok"]), dtype=bool)
    p.traf = None
    return p


def load_sites(data: Path, per_site: int = SITES, seed: int = 0,
               peer: bool = False, cache: Path | None = None, limit: int = 0) -> list[Page]:
    """Pages of the shared *sites* (``DATA/sites/<name>``: docs, forum, shop,
    wiki, organisation sites) as page-level training data: per site the first
    ``per_site`` pages with gold of a fixed random order (``random.Random(seed)``
    over the site's HTML files), so that a site of 690 pages does not outweigh
    one of 40. Gold: :func:`temex.evaluate.gold_text` of the site's selectors
    (the text the site-level benchmarks score). Page features only (no site
    index): they train the *page* model. Dataset ``"sites"``, site = the
    site's name (one group each). ``peer``: also trafilatura's token F1 per
    page (``p.traf``; the comparison of ``--loso-sites``). With ``cache``:
    computed once per version of the feature code."""
    return _cached(cache, f"sites-{per_site}-{seed}-{int(peer)}-{limit}",
                   lambda: _load_sites(data, per_site, seed, peer, limit))


def site_gold_pages(data: Path, seed: int = 0, limit: int = 0
                    ) -> Iterator[tuple[Site, Iterator[tuple[Path, bytes, Document, str]]]]:
    """Per shared site (``DATA/sites/<name>``, the first ``limit`` when given):
    ``(site, pages)``, ``pages`` an iterator of ``(file, bytes, Document,
    gold text)`` over the site's HTML files that have gold, in a fixed random
    order (``random.Random(seed)`` over the files), read as the caller takes
    them (callers take the first N: :func:`load_sites`,
    ``bench/probes/page_mechanisms.py``)."""
    import random

    from ..page.files import html_files
    from . import NoGoldError, gold_text, load_site

    def pages(site: Site, files: list[Path]) -> Iterator[tuple[Path, bytes, Document, str]]:
        for f in files:
            raw = f.read_bytes()
            try:
                d = parse(raw, url=str(f))
                if d.body < 0:
                    continue
                gold = gold_text(d, site.content_selector, site.template_selector)
            except (NoGoldError, ParseError):  # no gold, or no page (an empty file)
                continue
            yield f, raw, d, gold

    root = data / "sites"
    if not root.is_dir():
        return
    folders = [f for f in sorted(root.iterdir()) if (f / "site.json").is_file()]
    for folder in folders[:limit] if limit else folders:
        site = load_site(folder)
        files = html_files(site.root)
        random.Random(seed).shuffle(files)
        yield site, pages(site, files)


def _load_sites(data: Path, per_site: int, seed: int, peer: bool, limit: int = 0
                ) -> list[Page]:
    params = ContentParams()
    pages: list[Page] = []
    for site, gold_pages in site_gold_pages(data, seed, limit):
        n = 0
        # the next page is read only while one is wanted
        for f, raw, d, gold in gold_pages if per_site > 0 else ():
            p = page_record("sites", site.name, str(f.relative_to(site.root)), d, gold,
                            None, params)
            if p is None:
                continue
            if peer:
                import trafilatura

                from ..page.tokens import token_prf
                p.traf = token_prf(trafilatura.extract(raw.decode("utf-8", "replace")) or "",
                                   gold)[2]
            pages.append(p)
            n += 1
            if n >= per_site:
                break
        print(f"  sites/{site.name}: {n} pages", file=sys.stderr, flush=True)
    return pages


def _code_digest() -> str:
    """Digest of the code that makes features and labels: a feature cache
    written by other code is never read."""
    import inspect

    h = hashlib.sha256()
    src = _SRC
    files = sorted([*(src / "content").glob("*.py"), *(src / "page").glob("*.py"),
                    src / "template" / "site_index.py", *(src / "evaluate").glob("*.py")])
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    for fn in (labels_for, page_record, _load_dataset, site_gold_pages, _load_sites, _Tree,
               _dump, _undump):
        h.update(inspect.getsource(fn).encode())
    return h.hexdigest()[:16]


class _Tags(dict[int, str]):
    """The tags :func:`title_article`, :func:`keep_code` and
    :func:`table_gaps` read (headings, ``article``, ``pre``) by node; any
    other node reads as ""."""

    def __missing__(self, key: int) -> str:
        return ""


_TREE_TAGS = HEADING_TAGS | {"article", "pre"}


class _Tree:
    """What :func:`context_features`, :func:`select` and :func:`title_article`
    read of a parsed page (``parent``, ``size``, ``body``, the heading,
    ``article`` and ``pre`` tags), without its texts and other tags: the training keeps
    thousands of pages in memory and in the feature cache."""

    __slots__ = ("parent", "size", "body", "tag", "_n")

    def __init__(self, d: Document) -> None:
        self.parent, self.size, self.body, self._n = d.parent, d.size, d.body, len(d)
        self.tag = _Tags((i, t) for i, t in enumerate(d.tag) if t in _TREE_TAGS)

    def __len__(self) -> int:
        return self._n


class _BlockView:
    __slots__ = ("node", "chars")

    def __init__(self, b: Blocks) -> None:
        self.node, self.chars = b.node, b.chars

    def __len__(self) -> int:
        return len(self.node)


def _cached(cache: Path | None, name: str, make: Callable[[], list[Page]]) -> list[Page]:
    """``make()``, kept in ``cache/<code digest>/<name>.pkl`` between runs."""
    import pickle

    if cache is None:
        return make()
    f = cache / _code_digest() / f"{name}.pkl"
    if f.is_file():
        with open(f, "rb") as fh:
            return [_undump(x) for x in pickle.load(fh)]
    out = make()
    f.parent.mkdir(parents=True, exist_ok=True)
    tmp = f.with_suffix(f".{os.getpid()}.tmp")  # two runs at once write their own
    with open(tmp, "wb") as fh:
        pickle.dump([_dump(p) for p in out], fh, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(f)
    return out


def _dump(p: Page) -> dict[str, Any]:
    """A page record as plain data (pickled classes would not load if their
    module moved)."""
    d = {k: getattr(p, k) for k in Page.__slots__}
    t, b = p.ctx_doc, p.ctx_blocks
    d["ctx_doc"] = (t.parent, t.size, t.body, len(t), dict(t.tag))
    d["ctx_blocks"] = (b.node, b.chars)
    return d


def _undump(d: dict[str, Any]) -> Page:
    p = Page()
    for k in Page.__slots__:
        setattr(p, k, d[k])
    t = _Tree.__new__(_Tree)
    t.parent, t.size, t.body, t._n, tags = d["ctx_doc"]
    t.tag = _Tags(tags)
    b = _BlockView.__new__(_BlockView)
    b.node, b.chars = d["ctx_blocks"]
    p.ctx_doc, p.ctx_blocks = t, b
    return p


def load(data: Path, datasets: list[str], limit: int = 0,
         cache: Path | None = None) -> list[Page]:
    """Features, labels and scoring data of every page of ``datasets`` (with
    ``cache``: computed once per version of the feature code)."""
    pages: list[Page] = []
    for ds in datasets:
        man = hashlib.sha256((data / "content" / ds / "manifest.jsonl").read_bytes()).hexdigest()
        pages += _cached(cache, f"{ds}-{limit}-{man[:8]}",
                         partial(_load_dataset, data, ds, limit))
    return pages


def _load_dataset(data: Path, ds: str, limit: int) -> list[Page]:
    params = ContentParams()
    pages: list[Page] = []
    by_site = pages_by_site(data, ds)
    sites = sorted(by_site)
    if limit:
        sites = sites[:limit]
    for site in sites:
        docs = []
        for r in by_site[site]:
            try:
                d = parse(r.read(), url=str(r.html))
            except Exception:  # noqa: BLE001 - a page the parser refuses is left out
                continue
            if d.body < 0:
                continue
            docs.append((r, d))
        index = SiteIndex(d for _, d in docs)
        for r, d in docs:
            p = page_record(ds, site, r.page, d, r.gold_text(), index, params)
            if p is not None:
                pages.append(p)
        print(f"  {ds}/{site}: {len(docs)} pages", file=sys.stderr, flush=True) \
            if len(docs) > 5 else None
    return pages
