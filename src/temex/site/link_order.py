"""The order in which live exploration tries the key page's links (our
additions to the hyperlink paper's Alg. 1, which orders by link relevance
only): one URL of a page once (:func:`distinct_links`), variants of one page
last (:func:`variants_last`), the key page's URL ancestors last
(:func:`ancestors_last`), then a few links of its kind and folder first
(:func:`kind_front`, :func:`sibling_pattern`, :func:`folder_page_beside`),
as the offline pool (:mod:`temex.site.pool`) orders a folder's files.
:func:`temex.site.explore.explore_async` applies them in that order after the
menu-first order of :mod:`temex.site.menus`.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from ..page.urls import folder_of, url_kind, url_pattern
from .duplicates import same_page_url
from .duplicates import variants_last as _variants_last
from .links import Link

__all__ = ["DEFAULT_ANCESTORS_LAST", "DEFAULT_KIND_FIRST", "DEFAULT_VARIANTS", "ancestors_last",
           "distinct_links", "folder_page_beside", "kind_front", "kind_quota",
           "sibling_pattern", "variants_last"]

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


def variants_last(links: list[Link], key_url: str) -> list[Link]:
    """``links`` with variants of the key page or of an earlier link
    (:func:`temex.site.duplicates.variant_urls`: one product's colours and
    sizes) moved to the end, order otherwise kept (loaded, they are
    near-duplicates and waste a load each). The shared rule,
    :func:`temex.site.duplicates.variants_last` (the offline pool uses it
    too). O(L)."""
    return list(_variants_last(links, key_url, lambda ln: ln.url))


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
