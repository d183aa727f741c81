"""Menu-first link ordering: find the key page's menus before loading anything.

The hyperlink paper's future work (§5) proposes to "directly identify the menu
in the key page by measuring the density of links in its DOM tree". Links of a
site-wide menu appear on every page that carries the menu, so the pages they
point to are mutually linked: a menu of k items is a k-CS as soon as its pages
are loaded. Exploring menu links first therefore lets Alg. 2 stop after ``n``
loads instead of the paper's 5.3–10 (§5.2 of both papers).

A *menu block* here is a container with at least ``min_items`` sibling items of
the same tag, each holding (at any depth, through single-child wrappers) one
same-site link whose text is most of the item's text (prose with a link in
each paragraph is not a menu) — ``ul > li > a``, ``nav > a``, ``div > div > a`` — whose text is
short. Blocks are scored by link density (links per element of the block, the
paper's "links–DOM nodes ratio"), by navigation markers (inside ``<nav>``,
``<header>``, ``role=navigation``, an id/class containing ``nav``/``menu``),
and lose points for long anchor texts (article lists, not menus) and for
pagination.

:func:`menu_first` returns the exploration order: links of menu blocks (best
block first, each block's links in Alg. 1 order), then the remaining links in
Alg. 1 order with low-value links (pagination, query strings, feeds,
language switchers) last.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from yarl import URL

from ..page.dom import Document
from .links import Link, hdistance, hyperlink, link_rank, sort_links

__all__ = ["MenuBlock", "find_menus", "is_low_value", "menu_first"]

_NAV_WORDS = re.compile(r"nav|menu|header|tabs|topbar|sidebar|toc", re.IGNORECASE)
_PAGINATION = re.compile(r"(^|[/?&_-])(page|p|pg|offset|start)([=/-]?\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class MenuBlock:
    """A detected menu: its container element, its links and its score."""

    container: int
    links: tuple[str, ...]
    score: float
    in_nav: bool


def _nav_marked(doc: Document, i: int) -> bool:
    for a in (i, *doc.ancestors(i)):
        t = doc.tag[a]
        if t in ("nav", "header"):
            return True
        attrs = dict(doc.attrs[a])
        if attrs.get("role") == "navigation":
            return True
        if _NAV_WORDS.search(doc.id[a]) or any(_NAV_WORDS.search(c) for c in doc.classes[a]):
            return True
        if t == "body":
            return False
    return False


def is_low_value(link: Link) -> bool:
    """Pagination, query-string, feed and ``hreflang`` links: rarely the
    template's section roots, explored last."""
    u = URL(link.url)
    if u.query_string or _PAGINATION.search(u.path):
        return True
    text = link.text.strip()
    if text.isdigit() or text.lower() in {"next", "previous", "prev", "»", "«", "›", "‹"}:
        return True
    return bool(re.search(r"/(feed|rss|atom)/?$", u.path))


def _words(doc: Document, i: int) -> list[str]:
    return " ".join(doc.text[j] for j in doc.descendants(i) if doc.text[j]).split()


def find_menus(doc: Document, links: Sequence[Link], min_items: int = 3) -> list[MenuBlock]:
    """Menu blocks of ``doc`` among ``links`` (see module docstring), best first.

    Cost: O(n + A·depth) for n elements and A anchors.
    """
    url_of = {}
    for ln in links:
        for a in ln.nodes:
            url_of[a] = ln.url
    # item of an anchor: climb while the parent has a single element child
    groups: dict[tuple[int, str], list[int]] = {}
    item_of: dict[int, int] = {}
    for a in url_of:
        x = a
        while True:
            p = doc.parent[x]
            if p < 0 or len(doc.children[p]) != 1 or doc.tag[p] in ("body", "html"):
                break
            x = p
        p = doc.parent[x]
        if p >= 0:
            groups.setdefault((p, doc.tag[x]), []).append(a)
            item_of[a] = x
    blocks: list[MenuBlock] = []
    for (container, _), anchors in groups.items():
        urls = list(dict.fromkeys(url_of[a] for a in anchors))
        if len(urls) < min_items:
            continue
        size = doc.size[container]
        density = len(anchors) / size
        words = sum(len(_words(doc, a)) for a in anchors) / len(anchors)
        # menu items are (almost) all link: text around the link means prose
        own = sum(len(_words(doc, a)) for a in anchors)
        total = sum(len(_words(doc, item_of[a])) for a in anchors)
        if total and own / total < 0.5:
            continue
        nav = _nav_marked(doc, container)
        score = density * (2.0 if nav else 1.0) / (1.0 + max(0.0, words - 4) / 4)
        pag = sum(1 for a in anchors if (doc.text[a] or "").strip().isdigit())
        if pag * 2 >= len(anchors):
            score *= 0.1
        blocks.append(MenuBlock(container, tuple(urls), score, nav))
    blocks.sort(key=lambda b: (-b.score, b.container))
    return blocks


def menu_first(doc: Document, links: Sequence[Link], reference: str,
               min_items: int = 3, max_blocks: int = 0, by_level: bool = True
               ) -> list[Link]:
    """Exploration order with menu links first (see module docstring).

    With ``by_level`` (default) links found in any menu block (all blocks
    when ``max_blocks`` is 0) come before all other links, and both groups
    keep the hyperlink paper's link-relevance levels (Def. 4) and Alg. 1
    order, so pages of the key page's own section (same template, the best
    F1) are still preferred while links met only in the text (which seldom
    link back) are deferred. With
    ``by_level=False`` the links of the best menu blocks come first whatever
    their level (the top navigation bar's section roots).

    Cost: that of :func:`find_menus` plus :func:`~temex.site.links.sort_links`.
    """
    ordered = sort_links(doc, links, reference)
    blocks = find_menus(doc, links, min_items)
    if max_blocks:
        blocks = blocks[:max_blocks]
    in_menu: dict[str, int] = {}
    for b, block in enumerate(blocks):
        for u in block.links:
            in_menu.setdefault(u, b)
    ref = hyperlink(reference)
    rank = {ln.url: k for k, ln in enumerate(ordered)}
    nb = len(blocks)

    def key(ln: Link) -> tuple[int, int, tuple[int, int], int, int]:
        low = is_low_value(ln)
        if by_level:
            level = link_rank(hdistance(ref, hyperlink(ln.url)))
            return (int(low), int(ln.url not in in_menu), level, 0, rank[ln.url])
        return (int(low), 0, (0, 0), in_menu.get(ln.url, nb), rank[ln.url])

    return sorted(ordered, key=key)
