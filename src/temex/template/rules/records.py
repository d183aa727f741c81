"""Record lists and whole widgets inside the content region (our rules;
none comes from the papers).

A group of sibling elements alike (same tag and classes, digit runs
abstracted) whose text is the page's own is the page's list of records
(posts of a topic, rows of a listing, product cards): content, scaffolding
included. Template inside the region comes as whole widgets (*closure*,
:func:`refine_region`). A short listing's row is found through the compared
pages of the key page's kind (:func:`listing_row`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ...page.dom import Document
from ...page.rows import RECORD_MIN, sibling_groups
from .evidence import DIGIT_RUN

__all__ = ["DEFAULT_RECORD_SHARE", "RECORD_MIN", "RECORD_MOVED", "listing_row", "record_groups",
           "record_signature", "refine_region", "region_records", "siblings_alike",
           "whole_widgets"]


#: Record lists inside the content region: a group of at least
#: ``RECORD_MIN`` sibling elements with the same tag and classes (digits
#: abstracted) whose text is at least ``DEFAULT_RECORD_SHARE`` page-specific
#: (non-template) is the page's own list of records (posts of a topic, rows
#: of a listing, product cards, archive excerpts): every node of those records
#: is content. Chosen leave-one-site-out (docs/journal (core)).
DEFAULT_RECORD_SHARE = 0.5


#: A record list whose rows hold this share of their characters in nodes
#: the vote did not map to the same text (:func:`refine_region`, rule 1) is
#: the page's own, though the compared pages list the same items elsewhere:
#: its few rows that did map are coincidences (the same name at the same row
#: of two listings sorted differently). Chosen leaving one site out
#: (docs/journal (core), "What changed": rows that moved are content): the
#: same from 0.8 to 0.95.
RECORD_MOVED = 0.9


def record_signature(doc: Document, i: int) -> tuple[str, tuple[str, ...]]:
    """Element ``i``'s tag and classes, digit runs abstracted (``post-248``
    and ``post-251`` are one class): what the records of one list share."""
    return doc.tag[i], tuple(sorted({DIGIT_RUN.sub("#", c) for c in doc.classes[i]}))


def record_groups(doc: Document, parent: int) -> list[list[int]]:
    """Children of ``parent`` grouped by tag and classes (digit runs
    abstracted: :func:`record_signature`), groups of at least
    :data:`RECORD_MIN` members only.

    The detectors' record-list finder: every child element counts (the
    detectors see elements, not text blocks), unlike the content stage's
    :func:`temex.page.rows.row_groups` and
    :func:`temex.content.records.record_lists` (children with 2 blocks or
    more, exact classes); all three group with
    :func:`temex.page.rows.sibling_groups`."""
    return sibling_groups(doc.children[parent], lambda c: record_signature(doc, c))


def siblings_alike(doc: Document, i: int) -> list[int]:
    """The children of ``i``'s parent (``i`` included) with ``i``'s
    signature (:func:`record_signature`): the run of rows ``i`` is one of."""
    p = doc.parent[i]
    if p < 0:
        return [i]
    sig = record_signature(doc, i)
    return [c for c in doc.children[p] if record_signature(doc, c) == sig]


def listing_row(doc: Document, region: int,
                is_row: Callable[[int], bool]) -> int:
    """The row of a listing that holds the region, or -1 (our addition: the rows
    of a listing page are content).

    A listing page with one or two rows (a category with one post, a
    collection with one product) gives the record rule of
    :func:`refine_region` no list to see: the row's scaffolding ("Posted
    on", "by", "Read more", the image wrapper, the price box) maps onto the
    same scaffolding in the compared listings' rows and is voted template,
    and the region shrinks to the row's excerpt. The compared pages of the
    key page's kind show what the key page cannot: there the element is one
    of a run of siblings alike. Walking up from the region to ``<body>``,
    the first element that ``is_row`` (the peers' answer: see
    :class:`.vote.VoteDetector`) and that has fewer than
    :data:`RECORD_MIN` siblings alike on the key page itself is the row.
    O(depth) calls of ``is_row``."""
    i = region
    while i > doc.body and doc.parent[i] >= 0:
        if len(siblings_alike(doc, i)) < RECORD_MIN and is_row(i):
            return i
        i = doc.parent[i]
    return -1


def refine_region(doc: Document, template: list[bool], region: int,
                  record_share: float | None = DEFAULT_RECORD_SHARE,
                  seen: Collection[str] = (),
                  titles: Callable[[], Collection[int]] | None = None) -> list[bool]:
    """Rules inside the content region (our addition), in place:

    1. *record lists*: sibling records (:func:`record_groups`) whose text is
       mostly page-specific (at least ``record_share`` of their characters in
       non-template nodes whose text is nowhere in the compared pages,
       ``seen``: a "most viewed" list names the same posts on every page),
       or almost all not at their place on the compared pages
       (:data:`RECORD_MOVED` of their characters in non-template nodes,
       seen or not: a home page's posts listed again, in another order, by
       the category pages compared with it), are content, scaffolding
       included (labels, icons, author boxes, "by", "Last page" repeat on
       every page of the kind; a row that maps by chance goes with its list);
    2. *closure*: template inside the content element comes as whole
       widgets (share bars, pagination, forms, breadcrumbs: the data README's
       template_selector parts). Top-down from the region's root, a template
       node whose subtree holds content nodes is settled by the majority of
       its descendants: more content nodes, it is a container of the page's
       own material (the ``<table>`` of a listing, the wrappers of a product
       grid, mapped by every page of the kind) and becomes content, its
       children settled in turn; otherwise it is a widget with page slots
       (the last item of a breadcrumb) and its whole subtree is template,
       unless it holds one of ``titles()`` (the page's title headings,
       :func:`title_nodes`; asked only here, where a widget is in question)
       as content: the page's title is no slot, and a
       box that holds it (a product's title and price beside its pictures,
       arrows and order form, all the same on every product page) is
       settled as a container.
    """
    if record_share is not None:
        region_records(doc, template, region, record_share, seen)
    return whole_widgets(doc, template, region, titles)


def region_records(doc: Document, template: list[bool], region: int, record_share: float,
                   seen: Collection[str] = ()) -> list[bool]:
    """Rule 1 of :func:`refine_region`, in place: the record lists inside
    ``region`` (:func:`record_groups`) whose text is the page's own are
    content.

    The detectors' form of the content stage's own-records rule
    (:func:`temex.content.records.own_records`), on other evidence: the
    vote's template mask and the compared pages' texts (``seen``), element
    by element, where the content stage has text blocks and the site's
    repeated text. The two tests differ (rows that moved count here; one
    scaffolding, the anchor's list and one-line rows there) and were tuned
    apart, so each keeps its own."""
    ignored = doc.ignored_mask()
    own = [0 if ignored[i] else len(doc.text[i]) for i in range(len(doc))]
    for p in doc.descendants(region):
        if ignored[p] or doc.size[p] < 2 * RECORD_MIN:
            continue
        for g in record_groups(doc, p):
            total = page = moved = 0
            for r in g:
                for i in doc.descendants(r):
                    total += own[i]
                    if not template[i]:
                        moved += own[i]
                        if doc.text[i] not in seen:
                            page += own[i]
            if total and (page >= record_share * total or moved >= RECORD_MOVED * total):
                for r in g:
                    for i in doc.descendants(r):
                        template[i] = False
    return template


def whole_widgets(doc: Document, template: list[bool], region: int,
                  titles: Callable[[], Collection[int]] | None = None) -> list[bool]:
    """Rule 2 of :func:`refine_region` (*closure*), in place: template
    inside ``region`` comes as whole widgets."""
    ignored = doc.ignored_mask()
    stack = [region]
    while stack:
        i = stack.pop()
        if template[i]:
            t = c = 0
            for j in range(i + 1, i + doc.size[i]):
                if ignored[j]:
                    continue
                if template[j]:
                    t += 1
                else:
                    c += 1
            if not c:
                continue  # a whole template widget
            if t >= c and not (titles is not None and any(
                    i < x < i + doc.size[i] and not template[x] for x in titles())):
                # a widget with page slots (breadcrumb's last item)
                for j in doc.descendants(i):
                    template[j] = True
                continue
            template[i] = False  # a container of the page's own material
        stack.extend(c for c in doc.children[i] if not ignored[c])
    return template
