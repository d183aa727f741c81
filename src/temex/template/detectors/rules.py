"""Rules shared by the detectors: *evidence*, *content region* and the rules
inside the region (*record lists*, *closure*, *title*).

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
papers' behaviour. Inside the content region a stricter form counts
(``evidence_share``, issue 9): a text-holding subtree is repeated only when
most of its text is; see :func:`supported_mapping`.

Inside the content region (issue 9, :func:`refine_region`,
:func:`widen_to_title`, :func:`head_zone`): record lists whose text is
page-specific are content; template inside the region comes as whole widgets
(*closure*); the region is widened to the page's title heading (an ``<h1>``,
or an ``<h2>``/``<h3>`` that the ``<title>`` names, :func:`title_nodes`), and
what sits between that title and the text it heads (byline, price, options
form) is content. The data README's convention (the page's
own records, title and byline are content; the chrome of a page kind is
template) is what these rules aim at; none of them comes from the papers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from urllib.parse import urljoin, urlsplit

from ...page.blocks import BLOCK_TAGS, norm_key
from ...page.dom import HEADING_TAGS, Document
from ...page.names import comment_sections
from ...page.permalinks import permalinks
from ...page.urls import url_kind, url_pattern
from ..defaults import DEFAULT_REGION

__all__ = ["DEFAULT_EVIDENCE_SHARE", "DEFAULT_RECORD_SHARE", "DEFAULT_REGION", "apply_region",
           "content_region", "find_query_forms", "follow_parent", "head_zone", "HEADING_TAGS",
           "kind_mask", "listing_row", "muted_evidence", "siblings_alike",
           "chrome_link_type", "labels_follow_block", "link_type_chrome", "mapped_mask",
           "named_link_lists",
           "query_widgets",
           "page_title", "record_groups", "refine_region", "subdocument", "supported_mapping",
           "table_headers", "title_nodes", "whole_table", "widen_to_title"]


#: Share of a mapped subtree's own text that must be repeated (same text at
#: the mapped node of the other page) for the subtree to count as repeated
#: (see :func:`supported_mapping`). Chosen leave-one-site-out
#: (docs/BENCHMARKS.md).
DEFAULT_EVIDENCE_SHARE = 0.5

_DIGIT_RUN = re.compile(r"[0-9]+")

#: Weight, in characters, of an identical attributed leaf (an icon, a
#: divider image) in the text share of :func:`supported_mapping`: about one
#: short label.
LEAF_CHARS = 8


def supported_mapping(d1: Document, d2: Document, mapping: dict[int, int],
                      share: float | None = DEFAULT_EVIDENCE_SHARE,
                      digits: bool = False,
                      mute: Collection[int] | None = None) -> list[bool]:
    """Mask over ``d1``: mapped nodes whose mapped subtree holds evidence of
    repetition (see module docstring). O(|d1|).

    With ``share`` (our revision of the evidence rule, issue 9), a subtree
    that holds text counts as repeated only when at least ``share`` of its
    characters sit in nodes whose own text is repeated by the mapped node:
    one repeated heading anchor ("¶"), a "copy" label or the keywords of a
    code block no longer pull a whole block into the template. Text-free
    subtrees (icons, logos, search boxes, rules) still count through
    identical attributed leaves. ``share=None`` is the first rule: any
    repeated text or identical attributed leaf below a node supports it.
    With ``digits`` (share rule only), texts that differ only in their digit
    runs count as repeated: "Page 1 of 6" and "Page 2 of 6", "Tweet 0" and
    "Tweet 3" are one label with a counter. A permalink's text
    (:mod:`temex.page.permalinks`: Sphinx's "¶", on every heading of every
    page) is no evidence under either rule: it says nothing of whether the
    heading it sits in repeats. Nor are the tokens of a code block (an
    outermost ``<pre>``) unless the whole block is identical to the one it
    is mapped to (:func:`_changed_code`): text-aware equality for code,
    whose keywords and punctuation every block of a docs site shares
    (issue 22 cause 3). Those nodes are :func:`muted_evidence`'s, or
    ``mute`` where the caller has them (both rules ask for one page)."""
    n = len(d1)
    sup = [False] * n
    t1, t2, h1, h2 = d1.text, d2.text, d1.subtree_hash, d2.subtree_hash
    if mute is None:
        mute = muted_evidence(d1, d2, mapping)
    if share is not None:
        rep = [0] * n
        tot = [0] * n
        leaf = [False] * n
        for a in range(n - 1, -1, -1):  # reverse pre-order: children first
            b = mapping.get(a)
            ln = len(t1[a])
            tot[a] += ln
            if b is not None:
                if ln and a not in mute and (t1[a] == t2[b] or digits and _DIGIT_RUN.sub(
                        "#", t1[a]) == _DIGIT_RUN.sub("#", t2[b])):
                    rep[a] += ln
                elif (d1.size[a] == 1 and not ln and h1[a] == h2[b]
                      and (d1.attrs[a] or d1.classes[a] or d1.id[a])):
                    leaf[a] = True
                    rep[a] += LEAF_CHARS
                    tot[a] += LEAF_CHARS
                if tot[a]:
                    sup[a] = rep[a] > 0 and rep[a] >= share * tot[a]
                else:
                    sup[a] = leaf[a]
            p = d1.parent[a]
            if p >= 0:
                rep[p] += rep[a]
                tot[p] += tot[a]
                leaf[p] = leaf[p] or leaf[a]
    else:
        for a in range(n - 1, -1, -1):  # reverse pre-order: children first
            b = mapping.get(a)
            if b is None:
                continue
            if sup[a]:
                pass
            elif t1[a] and t1[a] == t2[b] and a not in mute or (
                    d1.size[a] == 1 and not t1[a] and h1[a] == h2[b]
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


def muted_evidence(d1: Document, d2: Document, mapping: dict[int, int]) -> set[int]:
    """The nodes of ``d1`` whose text is no evidence of repetition against
    ``d2`` (:func:`supported_mapping`): its permalinks and the nodes of its
    code blocks that differ from the block they are mapped to."""
    return _changed_code(d1, d2, mapping) | _permalink_set(d1)


def _permalink_set(doc: Document) -> frozenset[int]:
    """The page's permalinks (:func:`temex.page.permalinks.permalinks`),
    found once per document (the evidence rules ask for each compared page)."""
    cached = doc.__dict__.get("_permalink_set")
    if cached is None:
        cached = frozenset(permalinks(doc))
        doc.__dict__["_permalink_set"] = cached
    return cached


def _changed_code(d1: Document, d2: Document, mapping: dict[int, int]) -> set[int]:
    """The nodes of ``d1``'s code blocks (outermost ``<pre>``) that are not
    identical to the block they are mapped to: a code block is one text, and
    its tokens' spans ("import", "(", "=") repeat in every block of a docs
    site whatever the code says."""
    out: set[int] = set()
    h1, h2 = d1.subtree_hash, d2.subtree_hash
    end = -1
    for i in d1.positions("pre"):
        if i < end:
            continue  # a <pre> inside a <pre>
        end = i + d1.size[i]
        b = mapping.get(i)
        if b is None or h1[i] != h2[b]:
            out.update(range(i, end))
    return out


def _merge_records(doc: Document, mass: dict[int, int]) -> dict[int, int]:
    """Content roots that are sibling records (same parent, same tag and
    classes, digit runs abstracted, at least ``RECORD_MIN`` of them) weigh as
    one root, their parent, and merged roots merge again when they are such
    records themselves (cells into their row, rows into their list). Our
    rule (issue 9 cause 3): a listing's rows, a topic's posts, a grid's cards
    are one piece of the page's own content, not many small ones, each
    outweighed by a title slot repeated in a breadcrumb or a toolbar."""
    out = dict(mass)
    changed = True
    while changed:
        changed = False
        groups: dict[tuple[int, tuple[str, tuple[str, ...]]], list[int]] = {}
        for r in out:
            p = doc.parent[r]
            if p > doc.body:
                groups.setdefault((p, _signature(doc, r)), []).append(r)
        for (p, _sig), members in groups.items():
            if len(members) >= RECORD_MIN:
                changed = True
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
    ``coverage`` of that text. With ``records`` (issue 9), content roots
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


#: Record lists inside the content region (issue 9): a group of at least
#: ``RECORD_MIN`` sibling elements with the same tag and classes (digits
#: abstracted) whose text is at least ``DEFAULT_RECORD_SHARE`` page-specific
#: (non-template) is the page's own list of records (posts of a topic, rows
#: of a listing, product cards, archive excerpts): every node of those records
#: is content. Chosen leave-one-site-out (docs/BENCHMARKS.md).
DEFAULT_RECORD_SHARE = 0.5
RECORD_MIN = 3

#: A record list whose rows hold this share of their characters in nodes
#: the vote did not map to the same text (:func:`refine_region`, rule 1) is
#: the page's own, though the compared pages list the same items elsewhere:
#: its few rows that did map are coincidences (the same name at the same row
#: of two listings sorted differently). Chosen leaving one site out
#: (docs/BENCHMARKS.md, "What changed": rows that moved are content): the
#: same from 0.8 to 0.95.
RECORD_MOVED = 0.9

def _signature(doc: Document, i: int) -> tuple[str, tuple[str, ...]]:
    return doc.tag[i], tuple(sorted({_DIGIT_RUN.sub("#", c) for c in doc.classes[i]}))


def record_groups(doc: Document, parent: int) -> list[list[int]]:
    """Children of ``parent`` grouped by tag and classes (digit runs
    abstracted), groups of at least ``RECORD_MIN`` members only."""
    groups: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for c in doc.children[parent]:
        groups.setdefault(_signature(doc, c), []).append(c)
    return [g for g in groups.values() if len(g) >= RECORD_MIN]


def siblings_alike(doc: Document, i: int) -> list[int]:
    """The children of ``i``'s parent (``i`` included) with ``i``'s
    signature (:func:`_signature`): the run of rows ``i`` is one of."""
    p = doc.parent[i]
    if p < 0:
        return [i]
    sig = _signature(doc, i)
    return [c for c in doc.children[p] if _signature(doc, c) == sig]


def listing_row(doc: Document, region: int,
                is_row: Callable[[int], bool]) -> int:
    """The row of a listing that holds the region, or -1 (our addition,
    issue 22 cause 6: the rows of a listing page are content).

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
    """Rules inside the content region (our addition, issue 9), in place:

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
    inside = doc.descendants(region)
    ignored = doc.ignored_mask()
    if record_share is not None:
        own = [0 if ignored[i] else len(doc.text[i]) for i in range(len(doc))]
        for p in inside:
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


#: How many levels above the content region the page's title may sit for the
#: region to be widened to it (:func:`widen_to_title`).
TITLE_LEVELS = 2

#: Headings that can be the page title (:func:`widen_to_title`).
TITLE_TAGS = frozenset({"h1"})


def page_title(doc: Document) -> str:
    """The page's title as its head states it: the ``<title>`` and the
    ``og:title`` / ``twitter:title`` meta content, each normalised
    (:func:`temex.page.blocks.norm_key`), joined by a newline; "" when none."""
    out = []
    for i in range(max(doc.body, 0) if doc.body >= 0 else len(doc)):
        if doc.tag[i] == "title" and doc.text[i]:
            out.append(norm_key(doc.text[i]))
        elif doc.tag[i] == "meta":
            a = dict(doc.attrs[i])
            if a.get("property", a.get("name", "")).lower() in _TITLE_META and a.get("content"):
                out.append(norm_key(a["content"]))
    return "\n".join(out)


_TITLE_META = frozenset({"og:title", "twitter:title"})

#: Shortest heading text (characters, normalised) that names the page by
#: matching its ``<title>`` (:func:`title_nodes`): shorter texts ("Home",
#: "News") match titles by chance.
TITLE_MIN_CHARS = 12

#: Tags a title-matching element may have (:func:`title_nodes`). Any
#: element was measured and rejected (docs/BENCHMARKS.md): the active item of
#: a forum's or a docs site's navigation names the page too.
TITLE_MATCH_TAGS = frozenset({"h1", "h2", "h3"})

#: Largest share of link text in a widget between the title and the text
#: for :func:`head_zone` to call it content: share bars, "related stories"
#: boxes and tag lists are links; bylines, dates, prices and option forms are
#: not.
ZONE_LINK_SHARE = 0.5


def title_nodes(doc: Document, template: Sequence[bool],
                seen: Collection[str] = (), site_titles: Sequence[str] = ()) -> list[int]:
    """Elements of ``<body>`` that can be the page's title heading (our rule,
    issue 9): an ``<h1>``, or a heading (:data:`TITLE_MATCH_TAGS`) whose text
    (at least :data:`TITLE_MIN_CHARS` characters, normalised) is part of the
    page's title as the head states it (:func:`page_title`): product pages
    and many CMS themes put the page's title in an ``<h2>`` and keep ``<h1>``
    for the logo or a breadcrumb. The heading must not be template under
    ``template``, or, with ``seen`` (the own texts of the compared pages),
    its text must be the page's own (at least half of its characters in
    texts that no compared page has): an icon repeated inside the title
    heading makes the vote map it, its text still names this page.

    With ``site_titles`` (the compared pages' :func:`page_title`), a heading
    that names the site rather than the page is none (issue 22): its text is
    part of the title of most compared pages (a blog's name in an ``<h1>``
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
    it still anchors the zone."""
    title = page_title(doc)
    out = []
    for i in doc.in_body():
        if template[i] and not (seen and _own_text(doc, i, seen)):
            continue
        if site_titles and doc.tag[i] in HEADING_TAGS and _names_site(doc, i, site_titles):
            continue
        if doc.tag[i] in TITLE_TAGS:
            out.append(i)
        elif title and doc.tag[i] in TITLE_MATCH_TAGS:
            key = norm_key(doc.subtree_text(i))
            if len(key) >= TITLE_MIN_CHARS and key in title:
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
    :func:`page_title` gives it).

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
    the nearest heading (:data:`TITLE_MATCH_TAGS`) before the region within
    :data:`TITLE_LEVELS` levels above it, not template and of the page's own
    text (:func:`_own_text`: no compared page has it): the heading the
    page's text follows. As a list, for :func:`widen_to_title`."""
    top = region
    for _ in range(TITLE_LEVELS):
        if doc.parent[top] <= doc.body:
            break
        top = doc.parent[top]
    for j in range(region - 1, top, -1):
        if doc.tag[j] in TITLE_MATCH_TAGS and not doc.is_ancestor(j, region):
            if not template[j] and _own_text(doc, j, seen):
                return [j]
            return []  # the nearest heading is the site's or the kind's
    return []


def widen_to_title(doc: Document, region: int, template: Sequence[bool],
                   seen: Collection[str] = (), site_titles: Sequence[str] = ()) -> int:
    """The content region widened to the page's title (our addition, issue 9).

    The data README's convention: the page's own title heading and byline are
    content. (On the content datasets, whose gold is the main text, this
    costs token F1: docs/BENCHMARKS.md; ``title=False`` turns it off.) The
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


def find_query_forms(doc: Document, region: int) -> list[int]:
    """Forms inside ``region`` that query rather than submit (issue 22):
    ``method="get"``, or no method (HTML's default), or ``role="search"``.
    A search panel, a filter or a sorting bar leads to other pages of the
    site; a form that posts (an order form with a product's options, a
    comment form) sends something. O(size of the region)."""
    out = []
    for i in doc.descendants(region):
        if doc.tag[i] == "form":
            a = dict(doc.attrs[i])
            if a.get("method", "get").strip().lower() == "get" or a.get("role") == "search":
                out.append(i)
    return out


_LINK = frozenset({"a"})


def _tagged_text(doc: Document, region: int, tags: Collection[str],
                 skip: Callable[[int], bool] | None = None
                 ) -> tuple[list[int], list[int]]:
    """For every element inside ``region``: the characters of visible text
    below it, and those of them inside an element of ``tags`` (link text,
    control labels) that ``skip`` does not exempt. One reverse pass,
    O(size of the region)."""
    n = len(doc)
    chars = [0] * n
    tagged = [0] * n
    under = [False] * n
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    for i in inside:
        under[i] = (doc.tag[i] in tags and not (skip is not None and skip(i))) or (
            i != region and under[doc.parent[i]])
    for i in reversed(inside):
        if ignored[i]:
            continue
        ln = len(doc.text[i])
        chars[i] += ln
        if under[i]:
            tagged[i] += ln
        if i != region:
            p = doc.parent[i]
            chars[p] += chars[i]
            tagged[p] += tagged[i]
    return chars, tagged


#: Elements whose text is a control's label (:func:`query_widgets`).
_CONTROL_TEXT = frozenset({"label", "option", "button", "select", "legend", "a"})


def _heaviest_root(doc: Document, template: Sequence[bool], start: int, end: int) -> int:
    """The heaviest content root (non-link own text, as :func:`content_region`
    weighs it) among the elements ``start`` .. ``end - 1``, or -1."""
    ignored = doc.ignored_mask()
    in_link: dict[int, bool] = {}
    mass: dict[int, int] = {}
    root_of: dict[int, int] = {}
    for i in range(start, end):
        p = doc.parent[i]
        in_link[i] = doc.tag[i] == "a" or in_link.get(p, False)
        if template[i] or ignored[i]:
            continue
        r = root_of.get(p, i) if p >= start and not template[p] else i
        root_of[i] = r
        mass[r] = mass.get(r, 0) + (0 if in_link[i] else len(doc.text[i]))
    if not mass:
        return -1
    return max(mass, key=lambda r: (mass[r], -r))


def query_widgets(doc: Document, template: Sequence[bool], region: int,
                  seen: Collection[str] = (), site_titles: Sequence[str] = ()) -> list[int]:
    """Roots of the widgets around query forms inside ``region`` (our rule,
    issue 22): from each form that queries (:func:`find_query_forms`: a
    search panel, a filter, a sorting bar), the largest ancestor whose text
    is at least half control labels (``label``, ``option``, ``button``,
    links) and that holds neither the page's title nor its main text (the
    heaviest content root after the title). A catalogue's filter panel, its
    checkboxes outside the form itself, is chrome of the listing's kind that
    no other page kind carries, so no vote calls it template. O(size of the
    region) per form."""
    forms = find_query_forms(doc, region)
    if not forms:
        return []
    end = region + doc.size[region]
    titles = [t for t in title_nodes(doc, template, seen, site_titles)
              if doc.is_ancestor(region, t) and t != region]
    t = titles[0] if titles else -1
    body = _heaviest_root(doc, template, t + doc.size[t] if t >= 0 else region + 1, end)
    chars, labels = _tagged_text(doc, region, _CONTROL_TEXT)

    def holds_page(a: int) -> bool:
        return (t >= 0 and doc.is_ancestor(a, t)) or (body >= 0 and doc.is_ancestor(a, body))

    out = []
    for q in forms:
        top, a = q, doc.parent[q]
        while a > region and not holds_page(a) and 2 * labels[a] >= chars[a]:
            top, a = a, doc.parent[a]
        if not holds_page(top):
            out.append(top)
    return out


def head_zone(doc: Document, template: list[bool], region: int,
              seen: Collection[str] = (), site_titles: Sequence[str] = (),
              query_forms: bool = True, series_links: bool = True,
              shared: Collection[str] = ()) -> list[bool]:
    """Inside the content region, in place: template between the page's
    title heading and its main text is content (our rule, issue 9 cause 5).
    Chrome inside a content region sits at its edges (breadcrumbs before
    the title; pagination, share bars, related lists, comment forms after
    the text); what sits between the title and the text it heads is the
    page's own: a byline, a date, a maintainer line, a product's price,
    options and "add to cart" form. The title is the first title heading
    (:func:`title_nodes`) inside the region; the main text is the heaviest
    content root (non-link own text, as :func:`content_region` weighs it)
    after it. Every template subtree that lies wholly between the two, and
    every template ancestor of either inside the region, becomes content.

    With ``query_forms`` (issue 22), a subtree holding a form that queries
    (:func:`query_forms`: a search panel, a filter or sorting bar) stays
    template: it leads to other pages of the site, where an order form that
    posts a product's options is the product's own.

    With ``series_links`` (issue 22 cause 4), a subtree whose links to other
    pages all lead to pages of the key page's own URL kind
    (:func:`temex.page.urls.url_kind`: ``0101.html`` from ``0100.html``)
    stays template too: the previous / next / in-reply-to links of a series,
    which a byline, a price or an order form never are; the
    :data:`CHROME_LINK_TYPES` of :func:`link_type_chrome` told by their
    targets where the page gives no ``rel``.

    With ``shared`` (the own texts that every compared page has), a subtree
    all of whose text is among them and that holds two links or more to
    other pages stays template (issue 22 cause 2: nothing identical on
    every compared page is content): a side column of category links and
    shop promises that a breadcrumb heading puts "between" the title and
    the product. A byline is never such: its date or author differs from
    one of the compared pages, and it links to one author at most.
    (Measured on the shared sites' random key pages: with one link enough, a
    byline whose compared pages were all posted the same day by the same
    author turned template.)"""
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    titles = [t for t in title_nodes(doc, template, seen, site_titles)
              if t in inside and t != region]
    if not titles:
        return template
    t = titles[0]
    for j in doc.descendants(t):
        template[j] = False
    start = t + doc.size[t]
    end_region = region + doc.size[region]
    in_link = [False] * len(doc)
    mass: dict[int, int] = {}
    root_of: dict[int, int] = {}
    for i in range(start, end_region):
        p = doc.parent[i]
        in_link[i] = doc.tag[i] == "a" or in_link[p]
        if template[i] or ignored[i]:
            continue
        r = root_of.get(p, i) if not template[p] and p >= start else i
        root_of[i] = r
        mass[r] = mass.get(r, 0) + (0 if in_link[i] else len(doc.text[i]))
    if not mass:
        return template
    body = max(mass, key=lambda r: (mass[r], -r))
    if not mass[body]:
        return template
    # link text below each node; the page's own links (its author, its
    # permalink) lead nowhere else: a byline's
    chars, links = _tagged_text(doc, region, _LINK,
                                skip=lambda j: own_link(doc, j))
    queries = find_query_forms(doc, region) if query_forms else []
    own_kind = url_kind(doc.url) if series_links and doc.url else None
    i = start
    while i < body:
        if template[i] and not ignored[i] and i + doc.size[i] <= body:
            if chars[i] and links[i] <= ZONE_LINK_SHARE * chars[i] and not any(
                    doc.is_ancestor(i, q) for q in queries) and not (
                    series_links and _series_navigation(doc, i, own_kind)) and not (
                    shared and _shared_navigation(doc, i, shared, ignored)):
                for j in doc.descendants(i):
                    template[j] = False
            i += doc.size[i]
        else:
            i += 1
    for x in (t, body):
        for a in doc.ancestors(x):
            if a == region or not doc.is_ancestor(region, a):
                break
            template[a] = False
    return template


#: Fewest links to other pages that make a subtree of shared text a
#: navigation widget (:func:`_shared_navigation`): two, as for
#: :func:`named_link_lists`.
SHARED_NAVIGATION_LINKS = 2


def _shared_navigation(doc: Document, i: int, shared: Collection[str],
                       ignored: Sequence[bool]) -> bool:
    """Whether every own text below ``i`` is in ``shared`` (and there is
    some) and ``i`` holds :data:`SHARED_NAVIGATION_LINKS` links or more to
    other pages (:func:`head_zone`). O(size of ``i``)."""
    away = 0
    has_text = False
    for j in doc.descendants(i):
        if ignored[j]:
            continue
        if doc.text[j]:
            if doc.text[j] not in shared:
                return False
            has_text = True
        if doc.tag[j] == "a" and not own_link(doc, j):
            href = (dict(doc.attrs[j]).get("href") or "").strip()
            if href and not href.startswith("#"):
                away += 1
    return has_text and away >= SHARED_NAVIGATION_LINKS


#: HTML link types of a page's own metadata: its author, its permalink.
OWN_LINK_TYPES = frozenset({"author", "bookmark"})


def own_link(doc: Document, i: int) -> bool:
    """Whether link ``i`` is the page's own: an HTML link type of
    :data:`OWN_LINK_TYPES` (``rel="author"``, ``rel="bookmark"``: the
    standard's keywords for the page's author and its permalink), or an
    address that is the page's own (fragment and query aside)."""
    attrs = dict(doc.attrs[i])
    if OWN_LINK_TYPES & set((attrs.get("rel") or "").lower().split()):
        return True
    href = (attrs.get("href") or "").strip()
    if not href or href.startswith("#") or not doc.url:
        return False
    target = urlsplit(urljoin(doc.url, href))
    here = urlsplit(doc.url)
    return (target.netloc, target.path.rstrip("/")) == (here.netloc, here.path.rstrip("/"))


def _series_navigation(doc: Document, i: int, own_kind: str | None) -> bool:
    """Whether ``i`` holds links to other pages and all of them lead to pages
    of URL kind ``own_kind`` (:func:`head_zone`). O(size of ``i``)."""
    if own_kind is None:
        return False
    away = 0
    for j in doc.descendants(i):
        if doc.tag[j] != "a":
            continue
        href = (dict(doc.attrs[j]).get("href") or "").strip()
        if not href or href.startswith("#"):
            continue
        if url_kind(href, doc.url) != own_kind:
            return False
        away += 1
    return away > 0


#: HTML link types (the HTML standard's ``rel`` keywords) of a page kind's
#: link lists (:func:`link_type_chrome`): ``tag`` (tags and categories),
#: ``prev`` / ``next`` (the neighbouring pages of a series or a listing).
CHROME_LINK_TYPES = frozenset({"tag", "prev", "next"})


def chrome_link_type(rel: str) -> bool:
    """Whether a ``rel`` attribute value names a :data:`CHROME_LINK_TYPES`
    type (keywords are space-separated and ASCII case-insensitive)."""
    return not CHROME_LINK_TYPES.isdisjoint(rel.lower().split())

#: Most characters of text outside links in a :func:`link_type_chrome` list:
#: about two lines of labels ("This entry was posted in", "Bookmark the").
#: Chosen leave-one-site-out among 100, 200 and 400 (docs/BENCHMARKS.md).
LINK_TYPE_TEXT = 200


class _LinkSums:
    """Per element of a region, sums over its subtree (one reverse pass,
    :func:`_link_sums`): visible text (``chars``), text inside links
    (``link_chars``), links with an ``href`` (``links``), those that lead to
    another page (``away``: not ``#...``), those of a
    :data:`CHROME_LINK_TYPES` type (``typed``) and, of the others, those
    that lead to another page of a given URL kind (``series``)."""

    __slots__ = ("away", "chars", "link_chars", "links", "series", "typed")

    def __init__(self, n: int) -> None:
        self.chars = [0] * n
        self.link_chars = [0] * n
        self.links = [0] * n
        self.away = [0] * n
        self.typed = [0] * n
        self.series = [0] * n


def _link_sums(doc: Document, region: int, own_kind: str | None = None) -> _LinkSums:
    """:class:`_LinkSums` of every element inside ``region``; ``series``
    counts links to other pages of URL kind ``own_kind``
    (:func:`temex.page.urls.url_kind`; None: none counted). O(size of the
    region)."""
    sums = _LinkSums(len(doc))
    chars, link_chars, links, away, typed, series = (
        sums.chars, sums.link_chars, sums.links, sums.away, sums.typed, sums.series)
    in_link = [False] * len(doc)
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    for i in inside:
        in_link[i] = doc.tag[i] == "a" or (i != region and in_link[doc.parent[i]])
    for i in reversed(inside):
        if ignored[i]:
            continue
        ln = len(doc.text[i])
        chars[i] += ln
        if in_link[i]:
            link_chars[i] += ln
        if doc.tag[i] == "a":
            attrs = dict(doc.attrs[i])
            href = attrs.get("href")
            if href is not None:
                links[i] += 1
                if not href.strip().startswith("#"):
                    away[i] += 1
                if chrome_link_type(attrs.get("rel", "")):
                    typed[i] += 1
                elif own_kind is not None and away[i] \
                        and _same_kind(href.strip(), doc.url, own_kind) \
                        and not own_link(doc, i):
                    series[i] += 1
        if i != region:
            p = doc.parent[i]
            chars[p] += chars[i]
            link_chars[p] += link_chars[i]
            links[p] += links[i]
            away[p] += away[i]
            typed[p] += typed[i]
            series[p] += series[i]
    return sums


def _same_kind(href: str, base: str, kind: str) -> bool:
    """Whether link target ``href`` (from page ``base``) has URL kind
    ``kind`` (:func:`temex.page.urls.url_kind`). The last path segment of
    a target is its own unless the path is empty or ends in a dot segment,
    and :func:`~temex.page.urls.url_pattern` works segment by segment, so
    the last segment's pattern is compared first: resolving every link of
    a listing cost a fifth of a fit."""
    path, _, query = href.partition("#")[0].partition("?")
    last = path.rpartition("/")[2]
    if path and last not in (".", ".."):
        if url_pattern(last + ("?" + query if query else "")) != kind.rpartition("/")[2]:
            return False
    return url_kind(href, base) == kind


def _outermost(doc: Document, region: int, keep: Callable[[int], bool]) -> list[int]:
    """The outermost elements strictly inside ``region`` for which ``keep``
    holds, in document order."""
    out = []
    i, end = region + 1, region + doc.size[region]
    while i < end:
        if keep(i):
            out.append(i)
            i += doc.size[i]
        else:
            i += 1
    return out


def link_type_chrome(doc: Document, region: int, avoid: Collection[int] = (),
                     max_text: int = LINK_TYPE_TEXT) -> list[int]:
    """Roots of the page kind's link lists inside ``region``, told by their
    HTML link types (our rule, issue 22 cause 4): the largest elements at
    least half of whose links are of a :data:`CHROME_LINK_TYPES` type, with
    at most ``max_text`` characters outside links, holding none of ``avoid``
    (the title). Tag and category lines ("Posted in X | Tagged a, b"), the
    links to the previous and next post: the data README's convention calls
    them template, and no vote can, since their text differs on every page.
    Links without such a type (a listing's titles, a post's own links) keep
    an element out.

    Where the page gives no ``rel``, a link to another page of the key
    page's own URL kind (:func:`temex.page.urls.url_kind`: ``0230.html``
    from ``0229.html``) is of the series' type too, as in
    :func:`head_zone`: the next / previous / in-reply-to list under a
    message. Told by targets alone, an element needs
    :data:`SERIES_LINKS` such links or more and at least
    :data:`NAMED_LIST_LINK_SHARE` of its text in links: a listing's rows,
    a sub-forum's or a docs page's description beside its link, and a
    paragraph citing an earlier post are text, not a link list
    (random key pages of the shared sites: without the two conditions, the
    sub-forums of a forum's index and a docs page's annotated reading list
    turned template). O(size of the region)."""
    own_kind = url_kind(doc.url) if doc.url else None
    s = _link_sums(doc, region, own_kind)
    held: set[int] = set()
    for a in avoid:
        held.add(a)
        held.update(doc.ancestors(a))

    def chrome(i: int) -> bool:
        typed = s.typed[i] + s.series[i]
        if not typed or 2 * typed < s.links[i] or i in held \
                or s.chars[i] - s.link_chars[i] > max_text:
            return False
        return s.typed[i] > 0 or (s.series[i] >= SERIES_LINKS
                                  and s.link_chars[i] >= NAMED_LIST_LINK_SHARE * s.chars[i])

    return _outermost(doc, region, chrome)


#: Fewest links to pages of the key page's own kind that make a list
#: series navigation where no ``rel`` says so (:func:`link_type_chrome`):
#: a previous and a next, as :func:`named_link_lists` asks two links.
SERIES_LINKS = 2


#: Name words (of an element's ``id`` and classes, split at non-letters) of
#: the navigation a page kind carries inside its main element
#: (:func:`named_link_lists`): the conventions of web themes and frameworks,
#: as the boilerplate detectors read them (Readability's "unlikely
#: candidates", the scorer's negative names).
NAVIGATION_NAMES = frozenset({"nav", "navigation", "pagination", "pager", "paging", "tags",
                              "tag", "breadcrumb", "breadcrumbs", "share", "sharing",
                              "social", "related", "prev", "previous", "next"})

#: Least share of link text in a :func:`named_link_lists` list: half, as the
#: head zone's (a breadcrumb ends with the page's own name, not a link).
#: 0.5, 0.6 and 0.7 give the same offline figures but cookwithtina's
#: (0.975 / 0.935 at 0.7, 0.976 / 0.938 below); live, a topic's breadcrumb
#: "Boards / Deployment / Topic 721" holds 0.55.
NAMED_LIST_LINK_SHARE = 0.5

_NAME_WORDS = re.compile(r"[^a-z]+")


def named_link_lists(doc: Document, region: int) -> list[int]:
    """Roots of the navigation named as such inside ``region`` (our rule,
    issue 22 cause 4): the outermost elements whose ``id`` or classes hold a
    :data:`NAVIGATION_NAMES` word (``post-nav``, ``post-tags``,
    ``pagination``, ``share-links``, ``breadcrumbs``), at least
    :data:`NAMED_LIST_LINK_SHARE` of whose text is link text, with two links
    or more to other pages (tabs and tables of contents point into the page)
    and that are no heading (a heading's id is its own text). Tag lines,
    previous / next links and pagination whose text differs on every page,
    so that no vote calls them template, and that carry no link types
    (:func:`link_type_chrome`). O(size of the region)."""
    s = _link_sums(doc, region)
    ignored = doc.ignored_mask()
    return _outermost(doc, region, lambda i: (
        s.away[i] >= 2 and s.chars[i] > 0
        and s.link_chars[i] >= NAMED_LIST_LINK_SHARE * s.chars[i]
        and doc.tag[i] not in HEADING_TAGS and not ignored[i]
        and _named_navigation(doc.id[i], doc.classes[i])))


def _named_navigation(id_: str, classes: tuple[str, ...]) -> bool:
    for value in (id_, *classes):
        if any(w in NAVIGATION_NAMES for w in _NAME_WORDS.split(value.lower())):
            return True
    return False


#: Least share of the page's visible text a content region found under the
#: first evidence rule must hold (issue 22): below it the region is a slot
#: (a comment count, a date) left over where the compared pages repeat the
#: page's own rows (category listings of a blog share many posts), and the
#: region is looked for under the text-share rule instead. No key page of
#: the shared sites has a region under 0.12 offline; the one live case
#: (a category listing compared with three sibling categories) held 0.007.
MIN_REGION_SHARE = 0.05


def _text_share(doc: Document, i: int) -> float:
    """Share of the visible text of ``<body>`` below element ``i``."""
    ignored = doc.ignored_mask()
    total = sum(len(doc.text[j]) for j in doc.in_body() if not ignored[j])
    held = sum(len(doc.text[j]) for j in doc.descendants(i) if not ignored[j])
    return held / total if total else 1.0


#: Longest text of a label that follows its block (:func:`labels_follow_block`).
LABEL_CHARS = 30


def labels_follow_block(doc: Document, template: list[bool], region: int) -> list[bool]:
    """Inside the content region, in place: a short inline label that is
    template in a block that is content is content (our rule, issue 22
    causes 3 and 4): "From", "Date", "Posted on", "by", "Brand:" repeat on
    every page, so the vote maps them, but they are part of the line they
    label, whose value differs (text-aware equality at the level of the
    line). Inline means an element that is no block (:data:`BLOCK_TAGS`)
    under the nearest block ancestor; short, at most :data:`LABEL_CHARS`
    characters; a label holds no link or control (:data:`CONTROL_TAGS`: a
    "Continue reading" link or an icon button is chrome). O(size of the
    region)."""
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    control = [False] * len(doc)
    for i in reversed(inside):
        if doc.tag[i] in CONTROL_TAGS:
            control[i] = True
        if i != region and control[i]:
            control[doc.parent[i]] = True
    block: dict[int, int] = {}
    for i in inside:
        block[i] = i if (doc.tag[i] in BLOCK_TAGS or i == region) else \
            block.get(doc.parent[i], region)
    for i in inside:
        b = block[i]
        if (template[i] and b != i and not template[b] and not ignored[i] and not control[i]
                and 0 < len(doc.subtree_text(i).strip()) <= LABEL_CHARS):
            for j in doc.descendants(i):
                template[j] = False
    return template


def comment_text(doc: Document, template: Sequence[bool], region: int) -> list[int]:
    """Nodes of the comment thread after the content region whose own text
    the vote left out of the template (it differs on the compared pages):
    the comments themselves, which the data convention counts as content
    (their form is template), so the content-region rule does not take
    them (our rule, issue 22 cause 6); and the elements of the comment
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


def apply_region(doc: Document, template: list[bool], coverage: float = DEFAULT_REGION,
                 inside_template: Sequence[bool] | None = None,
                 record_share: float | None = DEFAULT_RECORD_SHARE,
                 closure: bool = True, seen: Collection[str] = (),
                 info: dict[str, int] | None = None, title: bool = True,
                 site_titles: Sequence[str] = (), query_forms: bool = True,
                 link_types: int | None = LINK_TYPE_TEXT,
                 named_lists: bool = True, labels: bool = True,
                 shared: Collection[str] = (),
                 rows: Callable[[int], bool] | None = None) -> list[bool]:
    """Mark every non-template node of ``<body>`` outside the content region as
    template (see :func:`content_region`). Such nodes are slots of the
    template filled per page (page title in the header, the active menu item,
    an on-page table of contents, previous/next links): their text differs
    between pages but they are not the page's content. The region's root
    itself is content. With ``inside_template``, nodes inside the region are
    template only where that stricter mask says so. With ``closure``, the
    rules of :func:`refine_region` follow. With ``info``, the region's root
    is stored as ``info["region"]`` (-1 when none); a region holding less than
    :data:`MIN_REGION_SHARE` of the page's text is looked for again under the
    text-share rule, as when none is found. With ``closure`` and
    ``title``, the region is first widened to the page title
    (:func:`widen_to_title`; the stricter inside vote then holds only up to
    the end of the region found by text mass: what follows the text in the
    title's container keeps the majority vote), and what lies between the
    title and the text is content (:func:`head_zone`; ``shared``, the texts
    every compared page has, keeps the navigation made of them template
    there). ``site_titles``
    (the compared pages' titles, :func:`title_nodes`) and ``query_forms``
    (:func:`head_zone`, :func:`query_widgets`: the widgets around forms that
    query are template) go to the title rules. With ``closure`` and
    ``link_types`` (a number of characters, None: off), the page kind's link
    lists told by their link types are template (:func:`link_type_chrome`),
    and with ``named_lists`` those named as navigation
    (:func:`named_link_lists`); with ``labels``, short labels follow the
    line they label (:func:`labels_follow_block`). With ``closure``, a
    heading's or entry's link to itself (:func:`temex.page.permalinks.permalinks`:
    Sphinx's ``¶``) is template wherever it is: the chrome of a page kind,
    as an edit link, which the text outputs leave out too. With
    ``closure``, ``record_share`` and ``rows`` (the peers' answer, whether a
    node is one of a run of rows alike on the compared pages of the key
    page's kind), a region inside the row of a short listing is widened to
    the listing and the row is content (:func:`listing_row`)."""
    region = content_region(doc, template, coverage, records=closure)
    if region >= 0 and inside_template is not None and \
            _text_share(doc, region) < MIN_REGION_SHARE:
        region = -1  # a slot (a comment count), not the page's content: see below
    if region < 0 and inside_template is not None:
        # Every node repeats under the first evidence rule (pages of one kind
        # share their furniture and labels; listings of overlapping posts
        # share their rows): look for the region where the
        # text-share rule leaves page-specific text. Containers without own
        # text that hold template under that rule (body, main, a product box
        # with its "add to cart" button) stay template, so the content roots
        # are the page-specific subtrees themselves.
        mixed = list(inside_template)
        for i in range(len(doc) - 1, 0, -1):
            p = doc.parent[i]
            if mixed[i] and template[p] and not doc.text[p]:
                mixed[p] = True
        region = content_region(doc, mixed, coverage, records=closure)
    own_rows: list[int] = []
    if region >= 0 and closure and record_share is not None and rows is not None:
        row = listing_row(doc, region, rows)
        if row >= 0:
            region = doc.parent[row]
            own_rows = siblings_alike(doc, row)
    core = region
    if region >= 0 and closure and title:
        region = widen_to_title(doc, region, template if inside_template is None
                                else inside_template, seen, site_titles)
    if region >= 0 and closure:
        region = whole_table(doc, region)
    if info is not None:
        info["region"] = region
    if region < 0:
        return template
    out = list(template)
    inside = doc.descendants(region)
    for i in doc.in_body():
        if not out[i] and i not in inside:
            out[i] = True
    if closure:
        for i in comment_text(doc, template, region):
            out[i] = False
    if inside_template is not None:
        # Widened to the title, the region also takes what follows the text
        # in the title's container (related lists, "more on this story",
        # recently viewed items): the stricter inside vote is for the page's
        # own area, from the title to the end of the text; after it the
        # vote of the template around the region holds (our rule, issue 9).
        after = core + doc.size[core] if core != region else len(doc)
        for i in inside:
            if i < after:
                out[i] = out[i] and bool(inside_template[i])
    if closure:
        out[region] = False
        if title:
            head_zone(doc, out, region, seen, site_titles, query_forms,
                      series_links=link_types is not None, shared=shared)
        for r in own_rows:  # a short listing's rows (listing_row)
            for j in doc.descendants(r):
                out[j] = False
        # the title headings of the mask as the closure finds it, worked out
        # only if the closure meets a widget that holds content (title_nodes
        # is a fifth of a fit's time)
        before_closure = list(out)
        found: list[list[int]] = []

        def title_headings() -> list[int]:
            if not found:
                found.append([x for x in title_nodes(doc, before_closure, seen, site_titles)
                              if x != region])
            return found[0]

        refine_region(doc, out, region, record_share, seen,
                      title_headings if title else None)
    if closure:
        follow_parent(doc, out, region)
        table_headers(doc, out, region)
    if closure and labels:
        labels_follow_block(doc, out, region)
    if closure and query_forms:
        for r in query_widgets(doc, out, region, seen, site_titles):
            for j in doc.descendants(r):
                out[j] = True
    if closure:
        for r in permalinks(doc):
            for j in doc.descendants(r):
                out[j] = True
    if closure and named_lists:
        for r in named_link_lists(doc, region):
            for j in doc.descendants(r):
                out[j] = True
    if closure and link_types is not None:
        titles = [t for t in title_nodes(doc, out, seen, site_titles)
                  if doc.is_ancestor(region, t)][:1]
        for r in link_type_chrome(doc, region, titles, link_types):
            for j in doc.descendants(r):
                out[j] = True
    # The region's root is the element the page's content was poured into
    # (the gold's content element); it is content even when a template
    # control (an "edit" button) sits inside it. The template then is no
    # longer closed upwards at this one node; render.template_html keeps such
    # controls visible.
    out[region] = False
    return out


#: Elements that make a text-free subtree a control rather than a filler
#: (:func:`follow_parent`): a link, a button, a form field.
CONTROL_TAGS = frozenset({"a", "button", "input", "select", "textarea", "form", "label",
                          "iframe", "object", "embed"})


def follow_parent(doc: Document, template: list[bool], region: int) -> list[bool]:
    """Inside the content region, in place: a template subtree that holds no
    text and no control (:data:`CONTROL_TAGS`) and whose parent is content
    becomes content (our rule, issue 9 cause 4). Spacers, dividers, clearing
    ``<br>``, pictures and icons between paragraphs are identical on every
    page, so the vote maps them, but they carry no evidence of their own:
    they belong to the block that holds them. A text-free control (an "edit"
    icon, a share button) stays template; a link around a picture (a zoom,
    a gallery) is the picture's."""
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    empty = [not doc.text[i] and doc.tag[i] not in CONTROL_TAGS for i in range(len(doc))]
    picture = [doc.tag[i] == "img" for i in range(len(doc))]
    for i in reversed(inside):  # children first
        if doc.tag[i] == "a" and picture[i] and not doc.text[i]:
            empty[i] = all(empty[c] for c in doc.children[i])  # a linked picture
        p = doc.parent[i]
        if p >= 0:
            if not empty[i]:
                empty[p] = False
            picture[p] = picture[p] or picture[i]
    for i in inside:
        if i == region or ignored[i] or not template[i]:
            continue
        p = doc.parent[i]
        if empty[i] and not template[p]:
            for j in doc.descendants(i):
                template[j] = False
    return template


_ROW_GROUPS = frozenset({"thead", "tbody", "tfoot"})


def whole_table(doc: Document, region: int) -> int:
    """A content region placed on a row group of a table (``<tbody>``) is
    moved to the table (our rule, issue 9): the rows of a listing live in a
    ``<tbody>`` next to the header rows of the same table; the table is the
    unit (with :func:`table_headers`). A region on a cell stays: layout
    tables put a whole page in one table."""
    p = doc.parent[region]
    return p if doc.tag[region] in _ROW_GROUPS and p > doc.body and doc.tag[p] == "table" \
        else region


def table_headers(doc: Document, template: list[bool], region: int) -> list[bool]:
    """Inside the content region, in place: the header rows of a table of
    the page's own rows are content (our rule, issue 9 cause 3). Column
    labels ("Thread", "Replies", "Price") repeat on every page of the kind,
    so the vote calls them template, but they belong to the table: a
    template row (or row group) of a content table that comes before a
    content row becomes content."""
    for t in doc.descendants(region):
        if doc.tag[t] != "table" or template[t]:
            continue
        rows: list[int] = []
        for c in doc.children[t]:
            rows.extend(doc.children[c] if doc.tag[c] in _ROW_GROUPS else (c,))
        first = next((r for r in rows if doc.tag[r] == "tr" and not template[r]), -1)
        if first < 0:
            continue
        for r in rows:
            if r >= first:
                break
            if doc.tag[r] == "tr" and template[r]:
                for j in doc.descendants(r):
                    template[j] = False
                p = doc.parent[r]
                if p != t:
                    template[p] = False
    return template


def kind_mask(doc: Document, template: Sequence[bool], region: int) -> list[bool]:
    """The page-kind level of a template mask: template elements inside the
    content region ``region`` (see :class:`temex.template.model.TemplateModel`);
    empty when there is no region."""
    if region < 0:
        return []
    inside = doc.descendants(region)
    return [bool(template[i]) and i in inside for i in range(len(doc))]


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
