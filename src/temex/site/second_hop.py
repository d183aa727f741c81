"""The second hop of a leaf key page (our addition to the papers, whose
candidates are the key page's links only): links of the key page's kind and
folder found on the pages loaded on the way (:class:`SecondHop`), and the
pages of its kind and folder it is then compared with (:func:`kin_pages`).
"""

from __future__ import annotations

from ..page.dom import Document
from ..page.urls import url_kind
from .duplicates import same_page_url, variant_urls
from .link_order import sibling_pattern
from .links import Link, get_links

__all__ = ["DEFAULT_SECOND_HOP", "SecondHop", "kin_pages"]

#: Second hop of leaf key pages (:class:`SecondHop`, :func:`kin_pages`):
#: a key page linking fewer pages (after :func:`distinct_links`) than the
#: offline pool holds (``2n + 2``, :mod:`temex.site.pool`, which then takes
#: the files of the key page's folder) is a leaf of its site. None: that
#: pool size; an int: another limit (0: never; bench/eval/bench_explore.py
#: measures 8, 16 and always, docs/EXPLORATION.md).
DEFAULT_SECOND_HOP: int | None = None


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
