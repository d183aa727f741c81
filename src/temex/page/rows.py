"""Candidate record lists of a page and their keys.

A list of records is at least 3 siblings of one tag and classes, each holding
2 text blocks or more, or each one linked block (a listing's one-line row).
:mod:`temex.content.records` judges whether such a list is the page's own;
:class:`temex.template.site_index.SiteIndex` counts each list's *key* (the
texts of its blocks, in order) across the site's pages, so that a list shown
whole on many pages (a best-sellers box, a menu) tells itself apart from a
listing whose rows recur elsewhere in other combinations (a category's
products, a tag page's posts: every listing shares rows with another).

Every record-list finder groups a parent's children by a signature and keeps
the groups of :data:`RECORD_MIN` or more (:func:`sibling_groups`, the one
home of that step); they differ in the children they admit and the
signature they group by:

* :func:`row_groups` (here): children holding 2 blocks or more, or one
  linked block, by tag and classes (or the classes most siblings share);
  the own-records rule (:func:`temex.content.records.own_records`) and the
  site index's list keys (:func:`list_keys`) read it;
* :func:`temex.content.records.record_lists`: children holding 2 blocks or
  more, by tag and exact classes, of one scaffolding, outermost lists only:
  the page-level lists the scorer's features describe (no site evidence);
* :func:`temex.template.rules.records.record_groups`: every child element,
  by tag and classes with digit runs abstracted (no blocks: the detectors
  work on elements); the detectors' record rule and the region's merged
  roots read it.

Source: the record lists of MDR (Liu, Grossman and Zhai 2003) reduced to
same tag and classes. Cost: O(n) per page plus O(log B) per row (B blocks).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Sequence

from .blocks import Blocks, subtree_sums
from .dom import Document

__all__ = ["RECORD_MIN", "holds_link", "list_keys", "row_groups", "sibling_groups"]


#: Fewest alike siblings that make a list of records, in every record-list
#: finder (module docstring). MDR's data records are two or more alike
#: siblings; two alike siblings are any pair of wrappers (a header's logo
#: and menu boxes, two paragraphs wrapped alike), so every record rule here
#: asks for three.
RECORD_MIN = 3


def sibling_groups(kids: Iterable[int], signature: Callable[[int], Hashable],
                   least: int = RECORD_MIN) -> list[list[int]]:
    """``kids`` grouped by ``signature``: the groups of at least ``least``
    members, each in the order of ``kids``, the groups in the order of their
    first member. ``kids`` are one parent's children, or elements whose
    signature names their parent (the region's merged roots,
    :mod:`temex.template.rules.region`). The step every record-list finder
    shares (module docstring). O(len(kids))."""
    groups: dict[Hashable, list[int]] = {}
    for c in kids:
        groups.setdefault(signature(c), []).append(c)
    return [g for g in groups.values() if len(g) >= least]


def holds_link(doc: Document) -> list[bool]:
    """Per element of ``<body>``: its subtree holds an ``<a>``. Cached on the
    document (read only): the own-records rule asks twice per page and the
    site index's list keys once."""
    cached = doc.__dict__.get("_holds_link")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    body, tag, parent = doc.body, doc.tag, doc.parent
    linked = [False] * len(doc)
    for i in range(body + doc.size[body] - 1, body, -1):
        if linked[i] or tag[i] == "a":
            linked[i] = linked[parent[i]] = True
    doc.__dict__["_holds_link"] = linked
    return linked


def row_groups(doc: Document, p: int, nb: Sequence[float], linked: Sequence[bool],
               shared_classes: bool = False) -> list[tuple[bool, list[int]]]:
    """The candidate record lists among the children of ``p``: at least
    :data:`RECORD_MIN` siblings of one tag and classes, each holding 2 blocks or more or, apart,
    one linked block (a listing's row: a date and a linked title in one
    line). With ``shared_classes``, a row's classes are those that at least
    half of its tag's siblings (:data:`RECORD_MIN` or more) carry, where it has any: a blog's
    posts are ``div.post.hentry.type-post`` each with its own ``post-248``
    and ``tag-php``; siblings with no class in common (a news page's
    ``cnn_stryscbx2``, ``cnn_stryscbx3`` boxes) keep their own. Returns
    ``(one_line, members)`` pairs."""
    tag, classes = doc.tag, doc.classes
    kids = [c for c in doc.children[p] if nb[c] >= 2 or (nb[c] == 1 and linked[c])]
    key = {c: classes[c] for c in kids}
    if shared_classes:
        count: dict[tuple[str, str], int] = {}
        same: dict[str, int] = {}
        for c in kids:
            same[tag[c]] = same.get(tag[c], 0) + 1
            for k in classes[c]:
                count[tag[c], k] = count.get((tag[c], k), 0) + 1
        for c in kids:
            shared = tuple(k for k in classes[c] if 2 * count[tag[c], k] >= same[tag[c]]
                           and same[tag[c]] >= RECORD_MIN)
            if shared:
                key[c] = shared
    return [(nb[members[0]] == 1, members)
            for members in sibling_groups(kids, lambda c: (nb[c] == 1, tag[c], key[c]))]


def list_keys(doc: Document, blocks: Blocks) -> list[tuple[str, list[list[int]]]]:
    """Every candidate record list of the page (:func:`row_groups` under
    every element of ``<body>``) as ``(key, rows)``: the key joins the
    normalised texts of the list's blocks (:func:`temex.page.blocks.norm_key`),
    so that a list repeated whole on another page (a best-sellers box, a
    menu) has the same key there, and a listing whose rows recur elsewhere in
    other combinations (a category's products, a tag page's posts) has a key
    of its own; ``rows``: the blocks of each row. Cached on the document
    (a sample page is counted by the site index, then extracted)."""
    cached = doc.__dict__.get("_list_keys")
    if cached is not None and cached[0] is blocks:
        return cached[1]  # type: ignore[no-any-return]
    out: list[tuple[str, list[list[int]]]] = []
    doc.__dict__["_list_keys"] = (blocks, out)
    if doc.body < 0 or not len(blocks):
        return out
    (nb,) = subtree_sums(doc, blocks, [1] * len(blocks))
    linked = holds_link(doc)
    keys, node = blocks.key, blocks.node
    # the blocks in element order: the blocks of a row are one slice
    order = sorted(range(len(blocks)), key=node.__getitem__)
    at = [node[b] for b in order]
    body, children, size = doc.body, doc.children, doc.size
    for p in range(body, body + size[body]):
        if nb[p] < RECORD_MIN or len(children[p]) < RECORD_MIN:
            continue
        for _, members in row_groups(doc, p, nb, linked):
            rows = [order[bisect_left(at, c):bisect_left(at, c + size[c])] for c in members]
            inside = sorted(b for row in rows for b in row)
            out.append(("\x00list\x00" + "\x1f".join(keys[b] for b in inside), rows))
    return out
