"""Explore a live site from one URL: the key page plus a few pages sharing
its template (TeMex).

``explore(url)`` loads the key page (:mod:`temex.site.loading`), orders its
links (menu-first by default, :mod:`temex.site.menus`; ``order="paper"`` for
the hyperlink paper's Alg. 1 alone; then the rules of
:mod:`temex.site.link_order`), runs the complete-subdigraph search
(:mod:`temex.site.candidates`; a leaf key page's second hop:
:mod:`temex.site.second_hop`), chooses the pages to compare and returns an
:class:`Exploration`. :func:`fit_exploration` then runs a detector on it. The
names of those modules that callers import from here are re-exported.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import PageError, PageLoadError, ParameterError
from ..page.dom import Document
from ..page.files import unusable
from ..page.urls import url_kind
from ..template.detectors.vote import VoteDetector
from ..template.model import TemplateModel
from .candidates import Progress, find_cs
from .defaults import DEFAULT_MAX_LOADS, DEFAULT_N, ORDERS
from .duplicates import DEFAULT_DUPLICATE, same_page_url
from .link_order import (
    DEFAULT_ANCESTORS_LAST,
    DEFAULT_KIND_FIRST,
    DEFAULT_VARIANTS,
    _page_of,
    ancestors_last,
    distinct_links,
    folder_page_beside,
    kind_front,
    kind_quota,
    sibling_pattern,
    variants_last,
)
from .links import get_links, normalize_url, sort_links
from .loading import load_document, load_key
from .menus import menu_first
from .pool import KIND_GAP, set_aside_far, similarity
from .second_hop import DEFAULT_SECOND_HOP, SecondHop, kin_pages
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
    "ancestors_last",
    "explore",
    "explore_async",
    "fill_pages",
    "fit_exploration",
    "folder_page_beside",
    "kin_pages",
    "kind_front",
    "load_document",
    "load_key",
    "sibling_pattern",
    "variants_last",
]


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


def fill_pages(key: Document, pages: dict[str, Document], cs: list[str], n: int) -> list[str]:
    """Loaded pages outside the CS, most like the key page first (same URL
    kind, then structural :func:`temex.site.pool.similarity`), as many as
    the CS lacks of ``n``."""
    kind = url_kind(key.url)
    rest = [u for u in pages if u not in cs]
    rest.sort(key=lambda u: (url_kind(pages[u].url) != kind, -similarity(key, pages[u])))
    return rest[:max(0, n - len(cs))]


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
