"""Rules shared by the detectors: *evidence* and *content region*.

Content region (our addition, ``region=DEFAULT_REGION`` = 0.7 by default). The page's own
content sits in one region of the template (TeMex paper §1.1: templates have
"regions where the main content must be inserted"). Slots outside that region
that change per page (page title in a header, active menu item, an on-page
table of contents, previous/next links) are template, though no other page
repeats their text. Inside the region the vote is stricter
(``region_threshold``). See :func:`content_region`.

Evidence (our addition, ``evidence=True`` by default). A top-down mapping that
pairs two ``<ul>`` or ``<table>`` elements says nothing about whether they hold
template: the content area of every article has the same containers. A mapped
node therefore counts as template in a page only when its mapped subtree holds
*evidence* that it repeats: a pair of nodes with the same non-empty own text, or
a pair of identical childless elements that carry attributes (an icon, a logo
image, a search box). Containers inherit support from their children. The
papers' relations ignore text and would call every content container template;
the measured effect is in docs/BENCHMARKS.md. ``evidence=False`` gives the
papers' behaviour.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...page.dom import Document
from ..defaults import DEFAULT_REGION

__all__ = ["DEFAULT_REGION", "apply_region", "content_region", "mapped_mask", "subdocument",
           "supported_mapping"]


def supported_mapping(d1: Document, d2: Document, mapping: dict[int, int]) -> list[bool]:
    """Mask over ``d1``: mapped nodes whose mapped subtree holds evidence of
    repetition (see module docstring). O(|d1|)."""
    n = len(d1)
    sup = [False] * n
    t1, t2, h1, h2 = d1.text, d2.text, d1.subtree_hash, d2.subtree_hash
    for a in range(n - 1, -1, -1):  # reverse pre-order: children first
        b = mapping.get(a)
        if b is None:
            continue
        if sup[a]:
            pass
        elif t1[a] and t1[a] == t2[b] or (d1.size[a] == 1 and not t1[a] and h1[a] == h2[b]
              and (d1.attrs[a] or d1.classes[a] or d1.id[a])):
            sup[a] = True
        if sup[a]:
            p = d1.parent[a]
            if p >= 0:
                sup[p] = True
    # Text-free mapped subtrees (empty list items, rules, spacers) carry no
    # evidence either way: they follow their parent.
    has_text = [bool(t) for t in t1]
    for a in range(n - 1, 0, -1):
        if has_text[a]:
            has_text[d1.parent[a]] = True
    for a in range(1, n):
        if not sup[a] and not has_text[a] and a in mapping and sup[d1.parent[a]]:
            sup[a] = True
    return [s and (i in mapping) for i, s in enumerate(sup)]


def content_region(doc: Document, template: list[bool],
                   coverage: float = DEFAULT_REGION) -> int:
    """The element that holds the page's own content, or -1.

    Content roots are the maximal non-template subtrees of ``<body>``; each
    weighs the visible own text of its non-template nodes that is not link
    text (text inside ``<a>``): tables of contents, "previous/next" links and
    active menu items are links, paragraphs are not (the link-density signal of
    boilerplate detection). The region is the
    lowest common ancestor of the heaviest roots that together hold at least
    ``coverage`` of that text. O(n).
    """
    if doc.body < 0:
        return -1
    ignored = doc.ignored_mask()
    mass: dict[int, int] = {}
    root_of = [-1] * len(doc)
    in_link = [False] * len(doc)
    for i in doc.in_body():
        p = doc.parent[i]
        in_link[i] = doc.tag[i] == "a" or (p >= 0 and in_link[p])
        if template[i] or ignored[i]:
            continue
        r = root_of[p] if p >= 0 and not template[p] else i
        root_of[i] = r
        mass[r] = mass.get(r, 0) + (0 if in_link[i] else len(doc.text[i]))
    total = sum(mass.values())
    if not total:
        return -1
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


def apply_region(doc: Document, template: list[bool], coverage: float = DEFAULT_REGION,
                 inside_template: Sequence[bool] | None = None) -> list[bool]:
    """Mark every non-template node of ``<body>`` outside the content region as
    template (see :func:`content_region`). Such nodes are slots of the
    template filled per page (page title in the header, the active menu item,
    an on-page table of contents, previous/next links): their text differs
    between pages but they are not the page's content. The region's root
    itself is content. With ``inside_template``, nodes inside the region are
    template only where that stricter mask says so."""
    region = content_region(doc, template, coverage)
    if region < 0:
        return template
    out = list(template)
    inside = doc.descendants(region)
    for i in doc.in_body():
        if not out[i] and i not in inside:
            out[i] = True
    if inside_template is not None:
        for i in inside:
            out[i] = out[i] and bool(inside_template[i])
    # The region's root is the element the page's content was poured into
    # (the gold's content element); it is content even when a template
    # control (an "edit" button) sits inside it. The template then is no
    # longer closed upwards at this one node; render.template_html keeps such
    # controls visible.
    out[region] = False
    return out


def mapped_mask(n: int, mapping: dict[int, int]) -> list[bool]:
    mask = [False] * n
    for a in mapping:
        mask[a] = True
    return mask


def subdocument(doc: Document, keep: list[bool]) -> tuple[Document, list[int]]:
    """The tree induced by the nodes in ``keep`` (which must be closed upwards),
    renumbered in pre-order; returns it and the map new number -> old number."""
    index = [i for i, k in enumerate(keep) if k]
    new_of = {old: new for new, old in enumerate(index)}
    sub = Document(url=doc.url, encoding=doc.encoding)
    for old in index:
        sub.tag.append(doc.tag[old])
        sub.id.append(doc.id[old])
        sub.classes.append(doc.classes[old])
        sub.attrs.append(doc.attrs[old])
        p = doc.parent[old]
        sub.parent.append(new_of.get(p, -1) if p >= 0 else -1)
        sub.depth.append(doc.depth[old])
        sub.text.append(doc.text[old])
    kids: list[list[int]] = [[] for _ in index]
    for new, p in enumerate(sub.parent):
        if p >= 0:
            kids[p].append(new)
    sub.children = [tuple(k) for k in kids]
    sub.position = [0] * len(index)
    for k in kids:
        for pos, c in enumerate(k):
            sub.position[c] = pos
    sub.rehash()
    sub.body = new_of.get(doc.body, -1)
    return sub, index
