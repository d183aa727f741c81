"""Title/head stage: the page's title heading and the zone between it and
the main region.

Idea: content regions of news and documentation pages often start below the
headline (the heaviest run of text is the article body), and between the
title and the body sit the byline, the date, a product's price and stock
lines, a "Maintainer:" line. The stage finds the page's title heading (the
first kept ``h1`` before the region, else ``h2``; with a template mask the
whole heading element, whatever block elements wrap its text) and adds it,
and with site evidence the kept blocks under it up to the region. It also
tells which headings are the page's own title: those whose text the page's
``<title>`` holds, or begins where the title was cut (:func:`names_page`; a
site's menus and listings show its pages' titles, so that heading "repeats"
on other pages).

Source: the detector's head zone (:func:`temex.template.rules.head_zone.head_zone`)
applied per page to text blocks (:func:`head_zone_blocks`); the title rule
and the zone rules are ours (docs/CONTENT.md;
docs/journal/2026-11-23-batch-content-of-unseen-pages-the-title.md). Cost:
O(blocks) for the title, O(region end) for the zones.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..page.blocks import Blocks, norm_key
from ..page.dom import Document
from ..page.titles import TITLE_HEADINGS, page_title_text

__all__ = ["head_zone_blocks", "names_page", "own_title_block", "own_title_blocks",
           "page_title_text", "title_before", "title_heading", "title_zone"]

#: The fewest characters of a heading's normalised text for it to name the
#: page (:func:`title_heading`, :func:`names_page`): shorter ones, "Home",
#: "News", are part of many titles by chance. Not the template rules'
#: :data:`temex.template.rules.title.TITLE_PART_MIN_CHARS` (12), a plainer
#: test on any heading of the tree.
NAMING_HEADING_MIN_CHARS = 8
#: The fewest characters of a cut ``<title>``'s part that must begin a
#: heading for the heading to name the page (:func:`names_page`): a third of
#: the 60-70 characters that titles are cut to, long enough not to begin a
#: heading by chance.
TITLE_PREFIX_CHARS = 24
_TITLE_SEPARATORS = re.compile(r"\s+[|–—·:»-]\s+")


def names_page(key: str, title: str) -> bool:
    """Whether a heading's normalised text ``key`` names the page whose
    normalised ``<title>`` is ``title``: it is part of the title, or a part
    of the title (split at its separators, " – ", " | ", " - ", ...) of
    ``TITLE_PREFIX_CHARS`` characters or more begins it. Shops and SEO
    plugins cut long titles (Shopify at 70 characters, "100% Cotton White
    T220 Percale ... for Tie-Dyin – Shop"), so a product's or a post's long
    heading is no longer part of its own title."""
    if key in title:
        return True
    return any(len(part) >= TITLE_PREFIX_CHARS and key.startswith(part)
               for part in (p.rstrip(".… ") for p in _TITLE_SEPARATORS.split(title)))


def _page_title(doc: Document) -> str:
    """The normalised text of the page's ``<title>`` (:func:`norm_key`), or ""."""
    return norm_key(page_title_text(doc))


def own_title_block(doc: Document, blocks: Blocks, title: str | None = None) -> int:
    """The block of the page's first ``h1`` when its text names the page
    (:func:`names_page`), else -1. A site's menus list its pages' titles, so a
    page's own heading is "repeated" on every page with the menu; the
    ``<title>`` tells that it is this page's (TeMex's template text is not
    the page's title). ``title``: the page's normalised ``<title>`` when
    the caller has it."""
    title = _page_title(doc) if title is None else title
    if not title:
        return -1
    for b, nd in enumerate(blocks.node):
        if doc.tag[nd] == "h1":
            key = blocks.key[b]
            return b if key and names_page(key, title) else -1
    return -1


def own_title_blocks(doc: Document, blocks: Blocks) -> list[int]:
    """The blocks of the page's own title, never repeated text: the first
    ``h1`` when it names the page (:func:`own_title_block`) and every
    ``h1``–``h3`` block with the text of :func:`title_heading`. A page may
    hold its title twice, once in chrome (a breadcrumb's ``h1``) and once
    over its content (a product's ``h2``); the site repeats it in menus,
    listings and "related" boxes, and the ``<title>`` tells it is this
    page's. O(blocks)."""
    title = _page_title(doc)  # located and normalised once for both
    own = {b for b in (own_title_block(doc, blocks, title),) if b >= 0}
    heading = title_heading(doc, blocks, title)
    if heading >= 0:
        key, tag, node = blocks.key[heading], doc.tag, blocks.node
        own.update(b for b in range(len(blocks))
                   if blocks.key[b] == key and tag[node[b]] in TITLE_HEADINGS)
    return sorted(own)


def title_heading(doc: Document, blocks: Blocks, title: str | None = None) -> int:
    """The block of the heading that names the page: the longest ``h1``,
    ``h2`` or ``h3`` block whose normalised text (:data:`NAMING_HEADING_MIN_CHARS` or
    more) names the page (:func:`names_page`; first on ties), else -1. Unlike
    :func:`own_title_block` not only the first ``h1``: blogs put the site's
    name in an ``h1`` and the post's title in an ``h2`` or ``h3``, and the
    ``<title>`` holds both ("Seth's Blog: Post title"); the longer names the
    page. ``title``: the page's normalised ``<title>`` when the caller has
    it. O(blocks).

    The content stage's title finder: one text block, found by the
    ``<title>`` alone (no template mask, no compared page). The detectors'
    (:func:`temex.template.rules.title.title_nodes`) lists elements, every
    ``<h1>`` the vote leaves among them, and asks the compared pages which
    heading names the site (:mod:`temex.page.titles` says how the two read
    the head)."""
    title = _page_title(doc) if title is None else title
    if not title:
        return -1
    best, best_len = -1, 0
    for b, nd in enumerate(blocks.node):
        if doc.tag[nd] in TITLE_HEADINGS:
            key = blocks.key[b]
            if (len(key) >= NAMING_HEADING_MIN_CHARS and len(key) > best_len
                    and names_page(key, title)):
                best, best_len = b, len(key)
    return best


def head_zone_blocks(doc: Document, blocks: Blocks, good: list[bool], title: int,
                     region: int) -> list[int]:
    """The kept blocks between the page's title heading and the region: the
    product's price, options and stock lines, a byline, a "Maintainer:"
    line. The region is the heaviest run of text, which on a product or wiki
    page starts at the description, below them. Folder mode only (the site's
    repeated text, no template mask; with a mask :func:`title_zone` does
    this), where the repeated text has already taken the chrome between the
    two (share bars, breadcrumbs) out of ``good``. Measured in
    docs/journal/2026-11-23-content-what-temex-extract-f-content-prints.md.

    The detectors' head zone
    (:func:`temex.template.rules.head_zone.head_zone`) for the main text, on
    other inputs: text blocks and the site's repeated text instead of the
    vote's element mask, so its zone ends at this region's first element
    (not at the heaviest content root after the title) and needs none of the
    detectors' exceptions (link-heavy widgets, query forms, series and shared
    navigation stay template there): repeated text left them out of
    ``good``. O(blocks)."""
    node = blocks.node
    t_node = node[title]
    t_end = t_node + doc.size[t_node]
    return [b for b in range(title + 1, len(blocks))
            if node[b] < region and good[b] and node[b] >= t_end
            and not doc.is_ancestor(node[b], region)]


def title_before(doc: Document, blocks: Blocks, good: list[bool], region: int) -> int:
    """The first kept ``h1`` block before ``region`` (else ``h2``), or -1."""
    for want in ("h1", "h2"):
        for b in range(len(blocks)):
            nd = blocks.node[b]
            if nd >= region:
                break
            if good[b] and doc.tag[nd] == want:
                return b
    return -1


def title_zone(doc: Document, blocks: Blocks, good: Sequence[bool], chosen: Sequence[int],
                region: int, template: Sequence[bool] | None, ld_ok: Sequence[bool],
                named: Sequence[bool]) -> list[int]:
    """Blocks to add to ``chosen`` for the page's title heading and the zone
    under it (our addition; the batch path: a template mask).

    *Heading*: the first ``h1`` element holding a kept block before the end
    of the main block ``region`` (else the first ``h2`` before it); every
    kept block inside it is the title. :func:`title_before` looks for a
    block whose own element is the heading; a heading that wraps its text
    in block elements (``<h1><div>title<div>subtitle</div></div></h1>``, a
    CMS's title and tagline) has none, so its title was lost whenever the
    main block starts below it.

    *Zone*: with ``template`` (the template verdict per block), the blocks
    after the heading up to the first chosen block after it (and before the
    main block) that the template mask leaves, that are no link lists
    (``ld_ok``) and that sit in no negatively named subtree (``named``):
    the page's byline, date, maintainer line, price. The site index calls
    them repeated text ("Maintainer: admin", "By Staff" repeat on many
    pages); the data README's convention makes them content. It is the
    detector's head-zone rule (:func:`temex.template.rules.head_zone.head_zone`)
    applied per page, where the template mask holds the site's chrome and
    the heading names the page. Where ``chosen`` holds nothing but the
    heading (a forum board of one or two topics, too few rows for a list,
    each row's "Started by ... · 3 replies" line repeated text once its
    digits are normalised), the zone does not stop at the region's end but
    where the template resumes (the first template block after the
    heading): the mask bounds the page's own area. Measured in
    docs/journal/2026-11-26-crawl-the-title-alone.md. O(region end), O(n)
    for a title alone."""
    body = doc.body
    r_end = region + doc.size[region]
    if r_end <= body + 1:
        return []
    head = [-1] * r_end  # the nearest h1/h2 ancestor-or-self of each node
    tag, parent = doc.tag, doc.parent
    for i in range(body + 1, r_end):
        head[i] = i if tag[i] in ("h1", "h2") else head[parent[i]] if parent[i] > body else -1
    title: list[int] = []
    for want, limit in (("h1", r_end), ("h2", region)):
        for b in range(len(blocks)):
            nd = blocks.node[b]
            if nd >= limit:
                break
            h = head[nd]
            if good[b] and h >= 0 and tag[h] == want:
                end = h + doc.size[h]
                title = [c for c in range(b, len(blocks)) if good[c] and blocks.node[c] < end]
                break
        if title:
            break
    if not title or template is None:
        return title
    inside = set(title)
    stop = next((c for c in chosen if c > title[-1] and c not in inside), len(blocks))
    # the rules kept the title alone (a listing of one or two rows, too few
    # for a list; a page of short lines): the zone runs past the region, up
    # to where the template resumes
    alone = set(chosen) <= inside
    zone = []
    for z in range(title[-1] + 1, stop):
        if template[z] if alone else blocks.node[z] >= r_end:
            break
        if not template[z] and ld_ok[z] and not named[z]:
            zone.append(z)
    return title + zone

