"""The content region: the element that holds the page's own content (our
addition, ``region=DEFAULT_REGION`` = 0.7 by default).

The page's own content sits in one region of the template (TeMex paper §1.1:
templates have "regions where the main content must be inserted"). Slots
outside that region that change per page (page title in a header, active
menu item, an on-page table of contents, previous/next links) are template,
though no other page repeats their text. See :func:`content_region`; what
holds a comment thread after the region stays content (:func:`comment_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...page.blocks import BLOCK_TAGS
from ...page.dom import Document
from ...page.names import comment_sections
from ...page.rows import sibling_groups
from ..defaults import DEFAULT_REGION
from .records import record_signature

__all__ = ["DEFAULT_REGION", "MIN_REGION_SHARE", "ROW_GROUPS", "comment_text", "content_region",
           "inline_link_text", "text_share", "whole_table"]


def _merge_records(doc: Document, mass: dict[int, int]) -> dict[int, int]:
    """Content roots that are sibling records (same parent, same tag and
    classes, digit runs abstracted, at least ``RECORD_MIN`` of them:
    :func:`temex.page.rows.sibling_groups`) weigh as
    one root, their parent, and merged roots merge again when they are such
    records themselves (cells into their row, rows into their list). Our
    rule: a listing's rows, a topic's posts, a grid's cards
    are one piece of the page's own content, not many small ones, each
    outweighed by a title slot repeated in a breadcrumb or a toolbar."""
    out = dict(mass)
    parent = doc.parent
    changed = True
    while changed:
        changed = False
        roots = [r for r in out if parent[r] > doc.body]
        for members in sibling_groups(roots, lambda r: (parent[r], record_signature(doc, r))):
            changed = True
            p = parent[members[0]]
            for r in members:
                out[p] = out.get(p, 0) + out.pop(r)
    return out


#: Tags of :data:`BLOCK_TAGS` that are phrasing content in HTML (a line break,
#: form controls, an embedded frame): a link holding one is still an inline
#: link (:func:`inline_link_text`), "Previous<br>Post title" as much as "Next".
_PHRASING_BLOCKS = frozenset({"br", "button", "select", "option", "textarea", "iframe"})


_CARD_TAGS = BLOCK_TAGS - _PHRASING_BLOCKS


def inline_link_text(doc: Document) -> list[bool]:
    """Per element: inside a link whose content is phrasing only (a menu
    item, a table of contents entry, "previous" / "next"), the link text
    :func:`content_region` does not weigh. A link that holds a block (a
    heading, a paragraph, a ``div``: a card of a listing, each card one
    link) is the record itself, and its text is the page's. O(n)."""
    n = len(doc)
    tag, size = doc.tag, doc.size
    out = [False] * n
    if "a" not in tag:
        return out
    i = 0
    while i < n:
        if tag[i] == "a":
            end = i + size[i]
            if not any(tag[j] in _CARD_TAGS for j in range(i + 1, end)):
                out[i:end] = [True] * (end - i)
            else:  # nested inline links of a card still mark their text
                for j in range(i + 1, end):
                    if tag[j] == "a":
                        out[j:j + size[j]] = [True] * size[j]
            i = end
        else:
            i += 1
    return out


def content_region(doc: Document, template: Sequence[bool],
                   coverage: float = DEFAULT_REGION, records: bool = True) -> int:
    """The element that holds the page's own content, or -1.

    Content roots are the maximal non-template subtrees of ``<body>``; each
    weighs the visible own text of its non-template nodes that is not link
    text (text inside ``<a>``): tables of contents, "previous/next" links and
    active menu items are links, paragraphs are not (the link-density signal of
    boilerplate detection). The region is the
    lowest common ancestor of the heaviest roots that together hold at least
    ``coverage`` of that text. With ``records``, content roots
    that are sibling records weigh as one (:func:`_merge_records`). O(n)
    (the merge: O(n) per nesting level of records).
    """
    if doc.body < 0:
        return -1
    ignored = doc.ignored_mask()
    mass: dict[int, int] = {}
    root_of = [-1] * len(doc)
    in_link = inline_link_text(doc)
    for i in doc.in_body():
        p = doc.parent[i]
        if template[i] or ignored[i]:
            continue
        r = root_of[p] if p >= 0 and not template[p] and root_of[p] >= 0 else i
        root_of[i] = r
        mass[r] = mass.get(r, 0) + (0 if in_link[i] else len(doc.text[i]))
    total = sum(mass.values())
    if not total:
        return -1
    if records:
        mass = _merge_records(doc, mass)
    chosen: list[int] = []
    acc = 0
    for r, m in sorted(mass.items(), key=lambda kv: (-kv[1], kv[0])):
        chosen.append(r)
        acc += m
        if acc >= coverage * total:
            break
    lca = chosen[0]
    for r in chosen[1:]:
        while not doc.is_ancestor(lca, r):
            lca = doc.parent[lca]
    return lca


#: Least share of the page's visible text a content region found under the
#: first evidence rule must hold: below it the region is a slot
#: (a comment count, a date) left over where the compared pages repeat the
#: page's own rows (category listings of a blog share many posts), and the
#: region is looked for under the text-share rule instead. No key page of
#: the shared sites has a region under 0.12 offline; the one live case
#: (a category listing compared with three sibling categories) held 0.007.
MIN_REGION_SHARE = 0.05


def text_share(doc: Document, i: int) -> float:
    """Share of the visible text of ``<body>`` below element ``i``."""
    ignored = doc.ignored_mask()
    total = sum(len(doc.text[j]) for j in doc.in_body() if not ignored[j])
    held = sum(len(doc.text[j]) for j in doc.descendants(i) if not ignored[j])
    return held / total if total else 1.0


ROW_GROUPS = frozenset({"thead", "tbody", "tfoot"})


def whole_table(doc: Document, region: int) -> int:
    """A content region placed on a row group of a table (``<tbody>``) is
    moved to the table (our rule): the rows of a listing live in a
    ``<tbody>`` next to the header rows of the same table; the table is the
    unit (with :func:`table_headers`). A region on a cell stays: layout
    tables put a whole page in one table."""
    p = doc.parent[region]
    return p if doc.tag[region] in ROW_GROUPS and p > doc.body and doc.tag[p] == "table" \
        else region


def comment_text(doc: Document, template: Sequence[bool], region: int) -> list[int]:
    """Nodes of the comment thread after the content region whose own text
    the vote left out of the template (it differs on the compared pages):
    the comments themselves, which the data convention counts as content
    (their form is template), so the content-region rule does not take
    them (our rule); and the elements of the comment
    section that hold them (each comment's item, its body and author
    box: what holds content is content, as the region's own wrappers are;
    random key pages: codare's posts with comments 0.71-0.88 → 0.83-0.97
    content F1). A comment section is a subtree named like one
    (:func:`temex.page.names.comment_sections`); a ``form`` holds the
    reply form. O(n)."""
    end = region + doc.size[region]
    body_end = doc.body + doc.size[doc.body]
    if end >= body_end:
        return []
    inside = comment_sections(doc)
    in_form = doc.inside_mask("form")
    text = doc.text
    found = [i for i in range(end, body_end)
             if inside[i] and text[i] and not template[i] and not in_form[i]]
    holders: set[int] = set()
    for i in found:
        a = doc.parent[i]
        while a > doc.body and inside[a] and not in_form[a] and a not in holders:
            holders.add(a)
            a = doc.parent[a]
    return sorted(holders.union(found))
