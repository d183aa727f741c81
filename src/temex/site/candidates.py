"""Complete subdigraph search: pages that share the key page's template.

Hyperlink paper §3.3 Alg. 2 (= ETDM paper §4.1 Alg. 1). The key page's links
are explored in a given order (Alg. 1 sortLinks, or menu-first, see
:mod:`temex.site.menus`); each loaded page adds the directed edges
``link → existingLink`` for its links that the key page also has
(``getLinks(webPage) ∩ reachableLinks``). After each load, the largest set of
*processed* pages that contains the page just loaded and is pairwise mutually
linked is computed; the search stops at the first of size ``n``, else returns
the largest met (the best m-CS, m < n).

As in the papers, the CS is made of pages linked *from* the key page
(reachableLinks) and the key page is not a member: a deep article is seldom
linked back from the menu's pages, so requiring key ↔ page links would reject
the very pages the menu points to. Every member is linked by the key page; the
template is then extracted from the key page plus the CS (n + 1 pages).

Departures:

* incremental clique search — only cliques containing the new page, by an
  iterative branch and bound over its mutual neighbours; never the power set
  that the paper's formula ranges over (its cost is exponential, §5.2);
* a load budget (``max_loads``, key page included; failed requests count);
* concurrency: ``k = n - |bestCS|`` more pages are needed before an n-CS can
  exist, so the next ``k`` links (at most ``concurrency``) are loaded at once.
  That never loads a page the sequential algorithm would not have loaded;
* a page whose final URL (after redirects) is the key page or a page already
  loaded is skipped, and links are matched through redirects;
* a page whose text is a near-duplicate of the key page
  (:func:`temex.site.duplicates.is_copy`: the same page under another URL, a
  variant of one product, a list embedding the key page) is skipped: it
  would vote the key page's own content into the template. The
  template's text is estimated from the key page and the pages kept (text
  in two or more of them), but only copies *of the key page* are skipped: a
  page sharing text with another candidate and not with the key page cannot
  vote the key page's content into the template, and on the shop two
  different products sharing a long description were dropped that way
  (docs/EXPLORATION.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..errors import PageError
from ..page.dom import Document
from .duplicates import DEFAULT_DUPLICATE, held_by_key, is_copy
from .links import get_links, normalize_url

__all__ = ["CSResult", "Discover", "Loader", "Progress", "find_cs", "max_clique_with"]

#: ``load(url)`` returns the parsed page or a PageError (never raises).
Loader = Callable[[str], Awaitable["Document | PageError"]]
#: ``progress(url, status, loads_so_far, max_loads)``
Progress = Callable[[str, str, int, int], None]


class Discover(Protocol):
    """Second-hop links: called on each page kept, returns URLs
    not linked from the key page to try next (they go to the front of the
    queue); while ``wanting`` is true pages are loaded one at a time, so
    that what one page yields decides the next load
    (:class:`temex.site.second_hop.SecondHop`)."""

    @property
    def wanting(self) -> bool: ...

    def __call__(self, page: Document) -> list[str]: ...


@dataclass
class CSResult:
    """Outcome of :func:`find_cs`.

    Attributes
    ----------
    cs : list of str
        URLs (as linked from the key page) of the CS, in load order.
    complete : bool
        True when an ``n``-CS was found.
    pages : dict of str to Document
        Every page loaded successfully, by link URL.
    edges : set of (str, str)
        Directed links ``a → b`` between explored links (Alg. 2 connections).
    explored : list of str
        Links requested, in order.
    errors : list of PageError
    requests : int
        Pages requested (successful or not), key page excluded.
    held : dict of str to Document
        Near-duplicates of the key page that the key page holds (its
        chapters when it is a print view), kept for the fallback when too
        few pages are found.
    """

    cs: list[str] = field(default_factory=list)
    complete: bool = False
    pages: dict[str, Document] = field(default_factory=dict)
    edges: set[tuple[str, str]] = field(default_factory=set)
    explored: list[str] = field(default_factory=list)
    errors: list[PageError] = field(default_factory=list)
    held: dict[str, Document] = field(default_factory=dict)
    requests: int = 0

    def mutual_edges(self, urls: Sequence[str] | None = None) -> list[tuple[str, str]]:
        """Undirected mutual links among ``urls`` (default: the CS)."""
        us = list(self.cs if urls is None else urls)
        return [(a, b) for i, a in enumerate(us) for b in us[i + 1:]
                if (a, b) in self.edges and (b, a) in self.edges]


def max_clique_with(v: str, adj: dict[str, set[str]], order: Sequence[str],
                    target: int) -> list[str]:
    """Largest clique containing ``v`` in the undirected graph ``adj``, stopping
    early at ``target`` members. Among equally large cliques the one whose
    members come first in ``order`` wins.

    Iterative branch and bound (no recursion). Cost: exponential in the worst
    case in |adj[v]|, which is at most the number of loaded pages (bounded by
    ``max_loads``); in practice the early stop makes it O(target · |adj[v]|²).
    """
    pos = {u: k for k, u in enumerate(order)}
    cand = sorted(adj.get(v, ()), key=lambda u: pos.get(u, len(pos)))
    best: list[str] = [v]
    stack: list[tuple[list[str], list[str]]] = [([v], cand)]
    while stack:
        r, p = stack.pop()
        if len(r) > len(best):
            best = r
            if len(best) >= target:
                break
        if len(r) + len(p) <= len(best):
            continue
        for i in range(len(p) - 1, -1, -1):
            w = p[i]
            stack.append((r + [w], [x for x in p[i + 1:] if x in adj[w]]))
    return sorted(best, key=lambda u: pos.get(u, len(pos)))


async def find_cs(key: Document, order: Sequence[str], load: Loader, *, n: int = 3,
                  max_loads: int = 12, concurrency: int = 4, same_host: bool = False,
                  key_urls: Sequence[str] = (), progress: Progress | None = None,
                  duplicate: float | None = DEFAULT_DUPLICATE,
                  discover: Discover | None = None) -> CSResult:
    """Alg. 2: explore ``order`` (the key page's links, best first) until an
    ``n``-CS of mutually linked pages is found.

    Parameters
    ----------
    key : Document
        The key page (already loaded; it counts as one load of ``max_loads``).
    order : sequence of str
        Normalised link URLs of the key page in exploration order.
    load : Loader
        Fetches and parses one URL; returns a Document or a PageError.
    n : int
        CS size sought (pages besides the key page).
    max_loads : int
        Most pages requested, key page included.
    concurrency : int
        Most pages requested at once.
    key_urls : sequence of str
        Other URLs of the key page (the URL asked for, before redirects).
    duplicate : float or None
        Near-duplicate threshold (:mod:`temex.site.duplicates`); None keeps
        copies.
    discover : Discover, optional
        Second-hop links: URLs it returns for a kept page are explored next
        and count as reachable (a departure from Alg. 2, whose candidates
        are the key page's links only; a wiki page or a forum
        listing that links no page of its kind is compared with the
        siblings its parent page lists). Loads are sequential while it is
        ``wanting``.

    Cost: one load per explored link, one ``get_links`` per page and one
    clique search (see :func:`max_clique_with`) per page.
    """
    res = CSResult()
    reachable = set(order)
    alias: dict[str, str] = {}  # final URL of a loaded page -> its link URL
    own = {key.url, *key_urls}
    adj: dict[str, set[str]] = {}
    out_links: dict[str, set[str]] = {}
    loaded_order: list[str] = []
    best: list[str] = []
    queue = list(order)
    loads = 1
    while queue and loads < max_loads and len(best) < n:
        k = max(1, min(concurrency, n - len(best), max_loads - loads, len(queue)))
        if discover is not None and discover.wanting:
            k = 1
        batch, queue = queue[:k], queue[k:]
        res.explored += batch
        loads += len(batch)
        res.requests += len(batch)
        results = await asyncio.gather(*(load(u) for u in batch))
        for link, page in zip(batch, results):
            if isinstance(page, PageError):
                res.errors.append(page)
                if progress:
                    progress(link, f"error: {page.error}", loads, max_loads)
                continue
            final = normalize_url(page.url, page.url) or page.url
            if final in own or (final in alias and alias[final] != link):
                res.errors.append(PageError(link, f"same page as {alias.get(final, key.url)} "
                                            "(redirect)"))
                continue
            if duplicate is not None and is_copy(
                    page, [key, *(res.pages[u] for u in loaded_order)], duplicate,
                    key_only=True):
                if held_by_key(page, key, duplicate):
                    res.held[link] = page
                res.errors.append(PageError(link, "near-duplicate of an explored page"))
                if progress:
                    progress(link, "skipped: near-duplicate", loads, max_loads)
                continue
            alias[final] = link
            res.pages[link] = page
            if progress:
                progress(link, "loaded", loads, max_loads)
            if discover is not None:
                more = [u for u in discover(page) if u not in reachable and u not in own]
                reachable.update(more)
                queue = more + queue
            targets = {alias.get(u.url, u.url) for u in get_links(page, same_host=same_host)}
            out_links[link] = {t for t in targets if t in reachable and t != link}
            res.edges |= {(link, t) for t in out_links[link]}
            adj[link] = set()
            for q in loaded_order:
                if q in out_links[link] and link in out_links[q]:
                    adj[link].add(q)
                    adj[q].add(link)
            loaded_order.append(link)
            clique = max_clique_with(link, adj, loaded_order, n)
            if len(clique) > len(best):
                best = clique
            if len(best) >= n:
                break
    res.cs = best
    res.complete = len(best) >= n
    return res
