"""The page's title heading as the detectors find it, and the content
region widened to it (our rules). The content stage finds its own title
block (:mod:`temex.content.title`); what the two share is in
:mod:`temex.page.titles`.

The data README's convention: the page's own title heading and byline are
content. The region is widened to the page's title heading (an ``<h1>``, or
an ``<h2>``/``<h3>`` that the ``<title>`` names, :func:`title_nodes`) when it
sits at most :data:`TITLE_LEVELS` levels above the region
(:func:`widen_to_title`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ...page.blocks import norm_key
from ...page.dom import HEADING_TAGS, Document
from ...page.titles import TITLE_HEADINGS, head_titles

__all__ = ["TITLE_HEADINGS", "TITLE_LEVELS", "TITLE_PART_MIN_CHARS", "TITLE_TAGS",
           "head_titles", "title_nodes", "widen_to_title"]


#: How many levels above the content region the page's title may sit for the
#: region to be widened to it (:func:`widen_to_title`).
TITLE_LEVELS = 2


#: Headings that can be the page title (:func:`widen_to_title`).
TITLE_TAGS = frozenset({"h1"})


#: Shortest text (characters, normalised) of an ``h2``/``h3`` that is a title
#: heading because it is part of the head's title (:func:`title_nodes`):
#: shorter texts ("Home", "News") are part of titles by chance; 6 and 20 gave
#: the same figures on the shared sites (docs/journal (core)). The content
#: stage's own test, :data:`temex.content.title.NAMING_HEADING_MIN_CHARS`
#: (8), asks more of a match (a cut title's part may begin the heading) and
#: was measured on the content sets.
TITLE_PART_MIN_CHARS = 12



def title_nodes(doc: Document, template: Sequence[bool],
                seen: Collection[str] = (), site_titles: Sequence[str] = ()) -> list[int]:
    """Elements of ``<body>`` that can be the page's title heading (our rule):
    an ``<h1>``, or a heading (:data:`TITLE_HEADINGS`) whose text (at least
    :data:`TITLE_PART_MIN_CHARS` characters, normalised) is part of the
    page's title as the head states it
    (:func:`~temex.page.titles.head_titles`): product pages and many CMS
    themes put the page's title in an ``<h2>`` and keep ``<h1>`` for the
    logo or a breadcrumb. The heading must not be template under
    ``template``, or, with ``seen`` (the own texts of the compared pages),
    its text must be the page's own (at least half of its characters in
    texts that no compared page has): an icon repeated inside the title
    heading makes the vote map it, its text still names this page.

    With ``site_titles`` (the compared pages'
    :func:`~temex.page.titles.head_titles`), a heading that names the site
    rather than the page is none: its text is part of the title of most
    compared pages (a blog's name in an ``<h1>``
    on its home page, the logo heading of a theme). The site's own name is
    what every page's ``<title>`` shares beside the page's own name; a
    page's name is its own (:func:`_names_site`).

    Headings inside a ``<nav>`` come last (HTML: a ``nav`` is a section of
    navigation links): a breadcrumb that ends in the page's name as an
    ``<h1>`` names the page less than the heading over its content, where
    the head zone (:func:`head_zone`) starts. A shop's product pages put
    both: anchored on the breadcrumb, the zone ran from it over the side
    column, and the order form inside the product's box stayed template
    (random key pages: five product pages 0.63-0.94 → 0.96-0.97 content
    F1). Where the breadcrumb's heading is the only one (a collection page)
    it still anchors the zone.

    The detectors' title finder: elements, candidates in order, on the
    vote's mask and the compared pages. The content stage's
    (:func:`temex.content.title.title_heading`) picks one text block, the
    longest heading that names the page by its ``<title>`` alone, with no
    mask and no compared page (:mod:`temex.page.titles` says how the two
    read the head)."""
    title = head_titles(doc)
    out = []
    for i in doc.in_body():
        if template[i] and not (seen and _own_text(doc, i, seen)):
            continue
        if site_titles and doc.tag[i] in HEADING_TAGS and _names_site(doc, i, site_titles):
            continue
        if doc.tag[i] in TITLE_TAGS:
            out.append(i)
        elif title and doc.tag[i] in TITLE_HEADINGS:
            key = norm_key(doc.subtree_text(i))
            if len(key) >= TITLE_PART_MIN_CHARS and key in title:
                out.append(i)
    if len(out) > 1:
        # headings outside a <nav> first, each group in document order; a
        # walk up from the few headings, not a mask over the whole page
        # (title_nodes runs several times per fit)
        out.sort(key=lambda i: any(doc.tag[a] == "nav" for a in doc.ancestors(i)))
    return out


def _names_site(doc: Document, i: int, site_titles: Sequence[str]) -> bool:
    """Whether the text of heading ``i`` is a part, and not the whole, of
    more than half of ``site_titles`` (each title line as
    :func:`~temex.page.titles.head_titles` gives it).

    Not the whole: a site's name is what its pages' titles share *beside*
    their own names ("Post title | CODARE"). A compared page whose whole
    title is the heading's text (digits aside: an issue index "Magazine
    0045" among the indexes "Magazine 0057", "0056") is a page of the same
    kind named by the same pattern; the heading names this page."""
    key = norm_key(doc.subtree_text(i))
    if not key:
        return False
    part = sum(1 for t in site_titles if key in t and key not in t.split("\n"))
    return 2 * part > len(site_titles)


def _own_text(doc: Document, i: int, seen: Collection[str]) -> bool:
    """Whether at least half of the text below ``i`` is in own texts that are
    not in ``seen`` (and there is text)."""
    if doc.tag[i] not in HEADING_TAGS:
        return False
    total = new = 0
    for j in doc.descendants(i):
        n = len(doc.text[j])
        total += n
        if n and doc.text[j] not in seen:
            new += n
    return total > 0 and 2 * new >= total


def _heading_before(doc: Document, region: int, template: Sequence[bool],
                    seen: Collection[str]) -> list[int]:
    """Where no heading can be the title by :func:`title_nodes` (no
    ``<h1>``, a ``<title>`` that names the section only, "Industry News"),
    the nearest heading (:data:`TITLE_HEADINGS`) before the region within
    :data:`TITLE_LEVELS` levels above it, not template and of the page's own
    text (:func:`_own_text`: no compared page has it): the heading the
    page's text follows. As a list, for :func:`widen_to_title`."""
    top = region
    for _ in range(TITLE_LEVELS):
        if doc.parent[top] <= doc.body:
            break
        top = doc.parent[top]
    for j in range(region - 1, top, -1):
        if doc.tag[j] in TITLE_HEADINGS and not doc.is_ancestor(j, region):
            if not template[j] and _own_text(doc, j, seen):
                return [j]
            return []  # the nearest heading is the site's or the kind's
    return []


def widen_to_title(doc: Document, region: int, template: Sequence[bool],
                   seen: Collection[str] = (), site_titles: Sequence[str] = ()) -> int:
    """The content region widened to the page's title (our addition).

    The data README's convention: the page's own title heading and byline are
    content. (On the content datasets, whose gold is the main text, this
    costs token F1: docs/journal (core); ``title=False`` turns it off.) The
    text-mass region often starts below them (the article body, or a
    product's description, is heavier than the title block that precedes
    it). When a title heading
    (:func:`title_nodes`) outside the region meets the region at most
    ``TITLE_LEVELS`` levels above it (below ``<body>``), the region becomes
    the lowest such ancestor."""
    titles = [i for i in title_nodes(doc, template, seen, site_titles)
              if not doc.is_ancestor(region, i)]
    if not titles:
        titles = _heading_before(doc, region, template, seen)
    if not titles:
        return region
    lca = region
    for _ in range(TITLE_LEVELS):
        lca = doc.parent[lca]
        if lca <= doc.body:
            return region
        if any(doc.is_ancestor(lca, h) for h in titles):
            return lca
    return region
