"""Explore a live site from one URL: the key page plus a few pages sharing
its template (TeMex).

``explore(url)`` loads the key page, orders its links (menu-first by default,
:mod:`temex.site.menus`; ``order="paper"`` for the hyperlink paper's Alg. 1 alone),
runs the complete-subdigraph search (:mod:`temex.site.candidates`) and returns an
:class:`Exploration`. :func:`fit_exploration` then runs a detector on it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from ..errors import PageError, PageLoadError, ParameterError, ParseError
from ..page.dom import Document, parse
from ..page.files import MAX_REFRESH_HOPS, stub_href, unusable
from ..template.detectors.vote import VoteDetector
from ..template.model import TemplateModel
from .candidates import Progress, find_cs
from .defaults import DEFAULT_MAX_LOADS, DEFAULT_N, ORDERS
from .duplicates import DEFAULT_DUPLICATE, same_page_url, variant_urls
from .duplicates import variants_last as _variants_last
from .links import Link, get_links, normalize_url, sort_links
from .menus import menu_first
from ..page.urls import folder_of, url_kind, url_pattern
from .pool import KIND_GAP, set_aside_far, similarity
from .sources.base import PageSource
from .sources.http import HttpSource

__all__ = [
    "DEFAULT_ANCESTORS_LAST",
    "DEFAULT_KIND_FIRST",
    "DEFAULT_MAX_LOADS",
    "DEFAULT_N",
    "DEFAULT_SECOND_HOP",
    "DEFAULT_VARIANTS",
    "ORDERS",
    "Exploration",
    "SecondHop",
    "explore",
    "explore_async",
    "fit_exploration",
    "load_document",
]

#: Links of the key page's own kind (:func:`temex.page.urls.url_pattern`),
#: then of its folder (:func:`sibling_pattern`), moved to the front of the
#: link order: a product is best compared with products, a
#: collection with collections. Chosen leave-one-site-out among 0 and 3 with
#: ``variants`` (docs/EXPLORATION.md, ``bench/eval/bench_explore.py --loso``).
DEFAULT_KIND_FIRST = 3
#: Variants of one page (:func:`temex.site.duplicates.variant_urls`) go last.
DEFAULT_VARIANTS = True
#: Links to the key page's ancestors in its URL path (the site's home page,
#: the listing of its section: hubs of another kind) go last
#: (:func:`ancestors_last`).
DEFAULT_ANCESTORS_LAST = True
#: Second hop of leaf key pages (:class:`SecondHop`, :func:`kin_pages`):
#: a key page linking fewer pages (after :func:`distinct_links`) than the
#: offline pool holds (``2n + 2``, :mod:`temex.site.pool`, which then takes
#: the files of the key page's folder) is a leaf of its site. None: that
#: pool size; an int: another limit (0: never; bench/eval/bench_explore.py
#: measures 8, 16 and always, docs/EXPLORATION.md).
DEFAULT_SECOND_HOP: int | None = None


@dataclass
class Exploration:
    """Result of :func:`explore`.

    Attributes
    ----------
    url : str
        URL asked for; ``key.url`` is the final URL after redirects.
    key : Document
    pages : list of Document
        The CS pages, in load order, then, when no ``n``-CS was found, the
        other loaded pages most like the key page (``filled``) up to ``n``
        (compare these with the key page).
    cs : list of str
        The CS pages' URLs as linked from the key page.
    filled : list of str
        URLs of the loaded pages added to an incomplete CS (a
        loaded page is not wasted because it is not linked both ways).
    why : dict of str to str
        Why each compared page was a candidate, in the order of
        the link rule: ``kind`` (the key page's URL kind), ``sibling`` (its
        folder), ``second hop`` (linked from a page loaded on the way),
        ``linked`` (the key page's other links); `` (filled)`` when it was
        added to an incomplete CS.
    edges : list of (str, str)
        Directed links among explored pages (the mutual-link graph is the
        pairs present in both directions, see :meth:`mutual_edges`).
    complete : bool
        True when a CS of the size asked for was found.
    loads : int
        Pages obtained, key page included (and the redirect stubs passed to
        reach it).
    requests : int
        Pages requested (including failures), key page included.
    redirect_stubs : list of str
        The meta-refresh stubs followed from the URL asked for to the key
        page (:func:`load_key`), in order.
    cache_hits, network_loads : int
        Of the source's loads during this run.
    errors : list of PageError
    explored : list of str
        Links requested, in order.
    timings : dict of str to float
        Seconds: ``key`` (load + parse of the key page), ``links`` (ordering),
        ``search`` (loads, parses and clique search), ``total``.
    """

    url: str
    key: Document
    pages: list[Document]
    cs: list[str]
    edges: list[tuple[str, str]]
    complete: bool
    n: int
    order: str
    loads: int
    requests: int
    cache_hits: int = 0
    network_loads: int = 0
    errors: list[PageError] = field(default_factory=list)
    explored: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    filled: list[str] = field(default_factory=list)
    why: dict[str, str] = field(default_factory=dict)
    set_aside: dict[str, str] = field(default_factory=dict)
    redirect_stubs: list[str] = field(default_factory=list)

    def mutual_edges(self) -> list[tuple[str, str]]:
        """Pairs of CS pages linked both ways."""
        e = set(self.edges)
        return [(a, b) for i, a in enumerate(self.cs) for b in self.cs[i + 1:]
                if (a, b) in e and (b, a) in e]

    def summary(self) -> dict[str, Any]:
        return {"url": self.url, "key": self.key.url, "redirect_stubs": self.redirect_stubs,
                "cs": self.cs, "filled": self.filled,
                "why": self.why, "set_aside": self.set_aside,
                "complete": self.complete, "n": self.n, "loads": self.loads,
                "requests": self.requests, "cache_hits": self.cache_hits,
                "errors": [e.as_dict() for e in self.errors],
                "timings": {k: round(v, 4) for k, v in self.timings.items()}}


def sibling_pattern(url: str) -> str:
    """The key page's folder as a pattern: :func:`temex.page.urls.url_pattern`
    of the parent path, any last segment with the same extension (and
    trailing slash): ``/collections/a.html`` and ``/collections/b.html`` are
    siblings, ``/collections/a/products/b.html`` is not."""
    parts = urlsplit(url)
    head, _, last = parts.path.rstrip("/").rpartition("/")
    ext = last.rpartition(".")[2] if "." in last else ""
    return (url_pattern(head) + "/*" + ("." + ext if ext else "")
            + ("/" if parts.path.endswith("/") else ""))


def kind_front(links: list[Link], key_url: str, k: int) -> list[Link]:
    """``links`` with ``k`` links moved to the front, order otherwise kept:
    those of the key page's kind (the same :func:`temex.page.urls.url_pattern`)
    first, then its siblings (the same :func:`sibling_pattern`, or the
    folder's own page beside a key page that is a file:
    :func:`folder_page_beside`), as the offline pool does
    (:mod:`temex.site.pool`). A departure from the
    hyperlink paper's Alg. 1 (sortLinks), which orders by link relevance
    only (a product is best compared with products). A variant put
    last by :func:`variants_last` still comes forward when its kind has
    fewer than ``k`` other links."""
    if k <= 0:
        return links
    kind, sib = url_kind(key_url), sibling_pattern(key_url)
    beside = folder_page_beside(key_url)
    same = [ln for ln in links if url_kind(ln.url) == kind]
    near = [ln for ln in links if url_kind(ln.url) != kind and (
        sibling_pattern(ln.url) == sib or _page_of(ln.url) == beside)]
    front = (same + near)[:k]
    chosen = {id(ln) for ln in front}
    return front + [ln for ln in links if id(ln) not in chosen]


def _page_of(url: str) -> str:
    """Host and :func:`temex.page.urls.folder_of` path of ``url``; "" for a URL with a query
    (another view of a page, not the page)."""
    parts = urlsplit(url)
    return "" if parts.query else parts.netloc + folder_of(parts.path)


def folder_page_beside(key_url: str) -> str | None:
    """For a key page that is a file (``/list/date.html``), its folder's
    own page (``/list/``, ``/list/index.html``), as :func:`_page_of` gives
    it; None for a folder's page. Such a page sits beside the key page (a
    flat archive's listing beside another listing), a sibling for
    :func:`kind_front` and not an ancestor for :func:`ancestors_last`."""
    parts = urlsplit(key_url)
    own = folder_of(parts.path)
    if own.endswith("/"):
        return None
    return parts.netloc + own.rpartition("/")[0] + "/"


def ancestors_last(links: list[Link], key_url: str) -> list[Link]:
    """``links`` with those to the key page's ancestors in its URL path moved
    to the end, order otherwise kept: for ``/en/schedule/talk/15/`` the
    pages of ``/en/schedule/talk/``, ``/en/schedule/``, ``/en/`` and ``/``
    (a folder's ``index.html`` is the folder), on the key page's host, with
    no query. A key page that is a file keeps its own folder's page in its
    place (:func:`folder_page_beside`: ``/list/`` beside ``/list/date.html``
    is a sibling, the rule of the offline pool).

    Our addition to the hyperlink paper's Alg. 1: the
    home page and the section's listing are linked from every page's menu
    and breadcrumb and were loaded first, yet they are hubs of another
    kind, often with a layout of their own (a landing page without the
    sidebar, a schedule without the sponsor bar every talk page carries),
    and two of them outvote the one page that shares the key page's
    template. They stay candidates, after the others. O(L)."""
    key = urlsplit(key_url)
    own = folder_of(key.path)  # the key page itself
    folder = own if own.endswith("/") else own.rpartition("/")[0] + "/"
    beside = folder_page_beside(key_url)

    def is_ancestor(url: str) -> bool:
        parts = urlsplit(url)
        if parts.netloc != key.netloc or parts.query:
            return False
        path = folder_of(parts.path)
        if parts.netloc + path == beside:
            return False  # a file's folder page sits beside it
        return path.endswith("/") and folder.startswith(path) and path != own

    front = [ln for ln in links if not is_ancestor(ln.url)]
    return front + [ln for ln in links if is_ancestor(ln.url)]


def kind_quota(links: list[Link], key_url: str, k: int) -> int:
    """How many of the ``k`` front places of :func:`kind_front` the key
    page's own links leave empty (links of its kind or folder it lacks)."""
    if k <= 0:
        return 0
    kind, sib = url_kind(key_url), sibling_pattern(key_url)
    have = sum(1 for ln in links if url_kind(ln.url) == kind or sibling_pattern(ln.url) == sib)
    return max(0, k - have)


class SecondHop:
    """Links of the key page's kind, then of its folder, found on the pages
    loaded, up to ``quota`` of them (:class:`temex.site.candidates.Discover`).

    Our addition to the papers (their candidates are the key
    page's links only, hyperlink paper §3.3, ETDM §4.1): a page deep in a
    site often links to few pages of its own kind (a wiki page links its
    course page and the home page, a sub-forum its parent forum), so the
    exploration compared it with hub pages of another kind, while the
    offline pool (:mod:`temex.site.pool`) compares it with its siblings.
    The hub pages loaded first list those siblings: the first ``quota`` of
    them (document order; the key page's variants,
    :func:`temex.site.duplicates.variant_urls`, and URLs already known
    skipped) are explored next, within the same load budget."""

    def __init__(self, key_url: str, known: list[Link], quota: int,
                 same_host: bool = False) -> None:
        self.key_url = key_url
        self.kind, self.sib = url_kind(key_url), sibling_pattern(key_url)
        self.seen = {same_page_url(key_url), *(same_page_url(ln.url) for ln in known)}
        self.quota = quota
        self.same_host = same_host
        #: URLs returned so far
        self.found: list[str] = []

    @property
    def wanting(self) -> bool:
        return self.quota > 0

    def __call__(self, page: Document) -> list[str]:
        if self.quota <= 0:
            return []
        same: list[str] = []
        near: list[str] = []
        for ln in get_links(page, same_host=self.same_host):
            k = same_page_url(ln.url)
            if k in self.seen or variant_urls(ln.url, self.key_url):
                continue
            if url_kind(ln.url) == self.kind:
                same.append(ln.url)
            elif sibling_pattern(ln.url) == self.sib:
                near.append(ln.url)
            else:
                continue
            self.seen.add(k)
        out = (same + near)[:self.quota]
        self.quota -= len(out)
        self.found += out
        return out


def variants_last(links: list[Link], key_url: str) -> list[Link]:
    """``links`` with variants of the key page or of an earlier link
    (:func:`temex.site.duplicates.variant_urls`: one product's colours and
    sizes) moved to the end, order otherwise kept (loaded, they are
    near-duplicates and waste a load each). The shared rule,
    :func:`temex.site.duplicates.variants_last` (the offline pool uses it
    too). O(L)."""
    return list(_variants_last(links, key_url, lambda ln: ln.url))


def fill_pages(key: Document, pages: dict[str, Document], cs: list[str], n: int) -> list[str]:
    """Loaded pages outside the CS, most like the key page first (same URL
    kind, then structural :func:`temex.site.pool.similarity`), as many as
    the CS lacks of ``n``."""
    kind = url_kind(key.url)
    rest = [u for u in pages if u not in cs]
    rest.sort(key=lambda u: (url_kind(pages[u].url) != kind, -similarity(key, pages[u])))
    return rest[:max(0, n - len(cs))]


def kin_pages(key_url: str, pages: dict[str, Document], n: int) -> list[str]:
    """The first ``n`` loaded pages (load order) of the key page's kind or
    folder (:func:`temex.page.urls.url_pattern`, :func:`sibling_pattern`).

    Used for a leaf key page when :class:`SecondHop` brought pages: the hub
    pages loaded on the way (its course or forum page, the home page) are
    pages of another kind, and voting with them costs the key page's
    kind-level chrome; the offline pool compares such a
    page with its siblings the same way (:mod:`temex.site.pool`)."""
    kind, sib = url_kind(key_url), sibling_pattern(key_url)
    return [u for u, d in pages.items()
            if url_kind(d.url) == kind or sibling_pattern(d.url) == sib][:n]


def distinct_links(links: list[Link], key_url: str | None) -> list[Link]:
    """``links`` without the key page and without second URLs of one page:
    URLs equal once session-id and sorting parameters are dropped
    (:func:`temex.site.duplicates.same_page_url`) count once, the
    first in document order."""
    seen = {same_page_url(key_url)} if key_url else set()
    out = []
    for ln in links:
        k = same_page_url(ln.url)
        if k not in seen:
            seen.add(k)
            out.append(ln)
    return out


async def _fetched(source: PageSource, url: str) -> Document | PageError:
    """``url`` fetched with ``source`` and parsed, usable or not."""
    res = await source.get(url)
    if not res.ok:
        return PageError(url, res.error or "failed")
    try:
        return parse(res.body, url=res.final_url or url, declared_encoding=res.charset)
    except ParseError as e:
        return PageError(url, str(e))


async def load_document(source: PageSource, url: str) -> Document | PageError:
    """Fetch ``url`` with ``source`` and parse it; failures become PageError."""
    doc = await _fetched(source, url)
    if isinstance(doc, PageError):
        return doc
    reason = unusable(doc)
    if reason:
        return PageError(url, reason)
    return doc


async def load_key(source: PageSource, url: str) -> tuple[Document | PageError, list[str]]:
    """The key page at ``url``, a redirect stub followed as a browser does:
    a page that is a ``<meta http-equiv=refresh>`` naming another address
    and next to nothing else (generated manuals keep one per old anchor) is
    not the page the reader gets, its target is. At most
    :data:`MAX_REFRESH_HOPS` stubs, never back to one passed (a loop is an
    error), each through ``source`` (its address guard included). Returns
    the page, or why it cannot be had, and the stubs passed, in order."""
    passed: list[str] = []
    at = url
    while True:
        doc = await _fetched(source, at)
        if isinstance(doc, PageError) and passed:  # say where the stub sent us
            return PageError(url, f"its meta refresh to {at}: {doc.error}"), passed
        if isinstance(doc, PageError):
            return doc, passed
        reason = unusable(doc)
        if not reason:
            return doc, passed
        href = stub_href(doc, reason)
        target = urljoin(doc.url or at, href) if href else ""
        if not target or urlsplit(target).scheme not in ("http", "https", urlsplit(at).scheme):
            return PageError(url, f"its meta refresh to {at}: {reason}" if passed else reason), \
                passed
        passed.append(doc.url or at)
        seen = {same_page_url(u) for u in [url, *passed]}
        if same_page_url(target) in seen:
            return PageError(url, f"meta-refresh redirect loop back to {target}"), passed
        if len(passed) > MAX_REFRESH_HOPS:
            return PageError(url, f"more than {MAX_REFRESH_HOPS} meta-refresh redirects"), passed
        at = target


async def explore_async(url: str, n: int = DEFAULT_N, max_loads: int | None = None,
                        source: PageSource | None = None, same_host: bool = False,
                        order: str = "menu", concurrency: int = 4,
                        progress: Progress | None = None,
                        duplicate: float | None = DEFAULT_DUPLICATE,
                        kind_first: int = DEFAULT_KIND_FIRST, fill: bool = True,
                        variants: bool = DEFAULT_VARIANTS,
                        second_hop: int | None = DEFAULT_SECOND_HOP,
                        ancestors: bool = DEFAULT_ANCESTORS_LAST,
                        kind_gap: float | None = KIND_GAP,
                        key_page: Document | None = None) -> Exploration:
    """Find ``n`` pages sharing the template of the page at ``url``.

    Parameters
    ----------
    url : str
        The key page (http/https; any URL ``source`` understands).
    n : int
        CS size sought (pages compared with the key page).
    max_loads : int, optional
        Most pages requested, key page included (>= 2); default ``n + 1``
        (``DEFAULT_MAX_LOADS`` with the default ``n``: the budget chosen
        leaving one site out in bench/eval/bench_explore.py).
    source : PageSource, optional
        Where pages come from; default a fresh :class:`HttpSource` with the
        address guard on (private, loopback and link-local addresses refused,
        :mod:`temex.site.sources.netguard`; pass
        ``HttpSource(guard_allow=["127.0.0.1:8000"], allow_private=False)`` for
        a local site). The source's connections are closed at the end (its
        counters and cache stay).
    same_host : bool
        Only follow links to the key page's exact host (default: same
        registrable domain).
    order : {"menu", "menublock", "paper", "document"}
        Link order: menu links first within each link-relevance level
        (default), menu blocks first whatever the level, Alg. 1 of the
        hyperlink paper, or document order (:mod:`temex.site.menus`).
    concurrency : int
        Pages requested at once.
    progress : callable, optional
        Called as ``progress(url, status, loads, max_loads)`` after each page.
    duplicate : float or None
        Near-duplicate threshold for loaded pages
        (:mod:`temex.site.duplicates`); None keeps copies.
    kind_first : int
        How many links of the key page's kind (same
        :func:`temex.page.urls.url_pattern`), then of its folder, go first
        (a product is best compared with products, a topic with
        topics; see ``DEFAULT_KIND_FIRST`` and :func:`kind_front`).
    fill : bool
        When no ``n``-CS is found, add the other loaded pages most like the
        key page (same kind first, then :func:`temex.site.pool.similarity`).
    variants : bool
        Try links that look like variants of the key page or of an earlier
        link (:func:`temex.site.duplicates.variant_urls`) last.
    second_hop : int or None
        When the key page links fewer than this many pages (None: ``2n + 2``,
        the offline pool's size), and fewer than
        ``kind_first`` of its kind and folder, explore such pages linked
        from the pages loaded (:class:`SecondHop`; loads are then
        sequential until they are found); when some were loaded, compare
        the key page with the pages of its kind and folder only, if two or
        more were loaded (:func:`kin_pages`). 0: never.
    ancestors : bool
        Try links to the key page's ancestors in its URL path (home page,
        section listing) last (:func:`ancestors_last`), unless the second
        hop is wanted: then the section page is the way to the siblings.
    kind_gap : float or None
        Pages found whose :func:`temex.site.pool.similarity` to the key page
        is this much or more below the best one's are of another kind and
        are not compared (:func:`temex.site.pool.near_best`, the offline
        pool's rule; their loads still count); None compares them all.
    key_page : Document, optional
        The key page already parsed (the DOM a browser shows at ``url``,
        sent by the browser extension): used instead of loading ``url``; it
        still counts as one of ``max_loads``, so the candidates sought are
        those of a load of ``url``. Its ``url`` should be ``url``.

    Raises
    ------
    PageLoadError
        When the key page itself cannot be loaded (nothing to explore).
    ParameterError
        For invalid ``n``, ``max_loads`` or ``order``.

    Cost: at most ``max_loads`` page loads; parsing and link extraction are
    O(size) per page; link ordering O(L² · depth) for L links of the key page.
    """
    if not isinstance(n, int) or n < 1:
        raise ParameterError("n", "an int >= 1", n)
    if max_loads is None:
        max_loads = n + 1
    if not isinstance(max_loads, int) or max_loads < 2:
        raise ParameterError("max_loads", "an int >= 2", max_loads)
    if order not in ORDERS:
        raise ParameterError("order", f"one of {ORDERS}", order)
    src: PageSource = (source if source is not None
                       else HttpSource(concurrency=concurrency, allow_private=False))
    hits0, net0 = src.n_cache_hits, src.n_network
    t0 = time.perf_counter()
    try:
        stubs: list[str] = []
        if key_page is not None:
            reason = unusable(key_page)
            key = PageError(url, reason) if reason else key_page
        else:
            key, stubs = await load_key(src, url)
        if progress:
            progress(url, "loaded" if isinstance(key, Document) else "error", 1, max_loads)
        if isinstance(key, PageError):
            raise PageLoadError(f"{url}: {key.error}")
        t1 = time.perf_counter()
        links = get_links(key, same_host=same_host)
        asked = normalize_url(url, url)
        links = distinct_links(links, asked)
        if stubs:  # the stubs passed are the key page again
            gone = {same_page_url(u) for u in stubs}
            links = [ln for ln in links if same_page_url(ln.url) not in gone]
        if order in ("menu", "menublock"):
            ordered = menu_first(key, links, key.url, by_level=order == "menu")
        elif order == "paper":
            ordered = sort_links(key, links, key.url)
        else:
            ordered = links
        if variants:
            ordered = variants_last(ordered, key.url)
        leaf = len(ordered) < (2 * n + 2 if second_hop is None else second_hop)
        quota = kind_quota(ordered, key.url, kind_first) if leaf else 0
        if ancestors and not quota:
            # a leaf's section page is the way to its siblings (SecondHop)
            ordered = ancestors_last(ordered, key.url)
        ordered = kind_front(ordered, key.url, kind_first)
        hop = SecondHop(key.url, ordered, quota, same_host) if quota else None
        t2 = time.perf_counter()

        async def load(u: str) -> Document | PageError:
            return await load_document(src, u)

        res = await find_cs(key, [ln.url for ln in ordered], load, n=n, max_loads=max_loads,
                            concurrency=concurrency, same_host=same_host,
                            key_urls=[asked] if asked else [], progress=progress,
                            duplicate=duplicate, discover=hop)
        t3 = time.perf_counter()
    finally:
        await src.aclose()
    cs = res.cs
    filled = fill_pages(key, res.pages, res.cs, n) if fill and not res.complete else []
    hopped = hop is not None and any(u in res.pages for u in hop.found)
    kin = kin_pages(key.url, res.pages, n) if hopped else []
    if len(kin) >= 2:
        cs = [u for u in cs if u in kin]
        filled = [u for u in kin if u not in cs]
    held = [u for u in res.held if u not in cs and u not in filled]
    held = held[:max(0, n - len(cs) - len(filled))] if fill else []
    filled += held
    pages = {**res.held, **res.pages}
    set_aside: dict[str, str] = {}
    if kind_gap is not None:  # pages of another kind by skeleton left out
        found_pages = [*cs, *filled]
        far = set_aside_far([similarity(key, pages[u]) for u in found_pages], kind_gap)
        set_aside = {found_pages[k]: why for k, why in far.items()}
        cs = [u for u in cs if u not in set_aside]
        filled = [u for u in filled if u not in set_aside]
    kind, sib = url_kind(key.url), sibling_pattern(key.url)
    found = set(hop.found) if hop is not None else set()
    beside = folder_page_beside(key.url)
    why = {}
    for u in [*cs, *filled]:
        d = pages[u]
        why[u] = ("kind" if url_kind(d.url) == kind else "sibling" if (
                      sibling_pattern(d.url) == sib or _page_of(d.url) == beside)
                  else "second hop" if u in found else "linked") + (
                      " (held by the key page)" if u in held else
                      " (filled)" if u in filled else "")
    return Exploration(
        url=url, key=key, pages=[pages[u] for u in [*cs, *filled]], cs=cs,
        filled=filled, set_aside=set_aside,
        edges=sorted(res.edges), complete=res.complete, n=n, order=order,
        loads=1 + len(stubs) + len(pages), requests=1 + len(stubs) + res.requests,
        redirect_stubs=stubs,
        cache_hits=src.n_cache_hits - hits0, network_loads=src.n_network - net0,
        errors=res.errors, explored=res.explored, why=why,
        timings={"key": t1 - t0, "links": t2 - t1, "search": t3 - t2, "total": t3 - t0})


def explore(url: str, n: int = DEFAULT_N, max_loads: int | None = None,
            source: PageSource | None = None, same_host: bool = False, order: str = "menu",
            concurrency: int = 4, progress: Progress | None = None,
            duplicate: float | None = DEFAULT_DUPLICATE,
            kind_first: int = DEFAULT_KIND_FIRST, fill: bool = True,
            variants: bool = DEFAULT_VARIANTS,
            second_hop: int | None = DEFAULT_SECOND_HOP,
            ancestors: bool = DEFAULT_ANCESTORS_LAST,
            kind_gap: float | None = KIND_GAP) -> Exploration:
    """Blocking wrapper of :func:`explore_async` (runs its own event loop;
    do not call from inside a running loop)."""
    return asyncio.run(explore_async(url, n=n, max_loads=max_loads, source=source,
                                     same_host=same_host, order=order,
                                     concurrency=concurrency, progress=progress,
                                     duplicate=duplicate, kind_first=kind_first,
                                     fill=fill, variants=variants,
                                     second_hop=second_hop, ancestors=ancestors,
                                     kind_gap=kind_gap))


def fit_exploration(exploration: Exploration, detector: Any = None) -> TemplateModel:
    """Run ``detector`` (default ``VoteDetector()``) on the key page and the CS
    pages; the model records loads, errors and timings of the exploration."""
    det = detector if detector is not None else VoteDetector()
    model: TemplateModel = det.fit(exploration.key, exploration.pages).model_
    model.loads = exploration.loads
    model.errors = [e.as_dict() for e in exploration.errors]
    model.timings = {**{f"explore_{k}": v for k, v in exploration.timings.items()},
                     **model.timings}
    model.extra["exploration"] = exploration.summary()
    model.extra["candidates"] = [{"page": u, "why": exploration.why.get(u, "linked")}
                                 for u in [*exploration.cs, *exploration.filled]]
    if exploration.set_aside:
        model.extra["set_aside"] = [{"page": u, "why": why}
                                    for u, why in exploration.set_aside.items()]
    return model
