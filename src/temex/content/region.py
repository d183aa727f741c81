"""Region stage: the page's main block as a maximum-weight subtree.

Idea: every block weighs its characters, positive when it is likely content
and negative when it is not; the main region is the element whose subtree
holds the largest total weight, and the blocks kept are the good ones inside
it (outside it only the very confident ones: a headline above the article
element, the posts of a forum page). With the scorer a block weighs
``chars × (p − threshold)``; with the rules ``+chars`` when kept and
``−penalty × chars`` when boilerplate.

Source: the tree analogue of the densest region of Finn, Kushmerick and
Smyth 2001 ("Fact or fiction: content classification for digital
libraries", body-text extraction: the span maximising tokens inside minus
tags outside); here over DOM subtrees (:func:`temex.page.blocks.heaviest_subtree`).
Where the page's title heading (:func:`temex.content.title.title_heading`)
lies outside the region and a subtree around it weighs at least half as
much, that subtree is the region (:func:`title_region`: a sidebar list or a
comment thread outweighed a short post). A region that falls inside a list
of alike records (the posts of a thread, the rows of a listing, the
sections of a landing page) is widened to the
list (:func:`list_region`); a region that holds under half of what the
scorer finds likely in the page's declared main element is widened to it
(:func:`main_region`); where the scorer keeps nothing beyond the title, or
little of the ``<article>`` that holds it, the article is the content
(:func:`title_article`). The cells of a table with named columns that lies
between the region's kept blocks, right after the region or in the row below
it, are kept with them (:func:`table_gaps`), and so are the list or table
that a kept block ending with a colon introduces (:func:`keep_introduced`).

Cost: O(n) per page (one reverse pre-order pass of subtree sums).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from ..page.blocks import Blocks, heaviest_element, heaviest_subtree, subtree_sums
from ..page.dom import HEADING_TAGS, Document

__all__ = ["INTRODUCED_TAGS", "KEEP_STEPS", "NO_WIDENING", "REGION_STEPS", "Widening",
           "component_parents", "introduced_elements", "keep_code", "keep_introduced",
           "list_region", "main_elements", "main_region", "rules_region", "select", "table_gaps",
           "title_article", "title_region"]


@dataclass(frozen=True)
class Widening:
    """What the widening mechanisms of :func:`select` need: each one's
    evidence from the page and its setting (from
    :class:`temex.content.params.ContentParams`). The defaults turn every
    mechanism off.

    ``lists`` (per block its record list and record element,
    :func:`temex.content.features.block_lists`) and ``list_threshold``:
    :func:`list_region`. ``mains`` (the page's main elements,
    :func:`main_elements`) and ``main_threshold``: :func:`main_region`.
    ``title`` (the block of the page's title heading) and ``title_ratio``:
    :func:`title_region`. ``article``: :func:`title_article`. ``tables``
    (the page's tables with column headers,
    :func:`temex.content.records.headed_tables`): :func:`table_gaps`.
    ``introduced`` (:func:`introduced_elements`): :func:`keep_introduced`.
    ``code``: :func:`keep_code`."""

    lists: tuple[Sequence[int], Sequence[int]] | None = None
    list_threshold: float = 0.0
    mains: Collection[int] = ()
    main_threshold: float = 0.0
    article: bool = False
    title: int = -1
    title_ratio: float = 0.0
    tables: Sequence[int] = ()
    introduced: Sequence[tuple[int, int]] = ()
    code: bool = False


#: Every widening off: the maximum-weight subtree alone.
NO_WIDENING = Widening()


@dataclass
class _Choice:
    """One page through :func:`select`'s steps: the region, the threshold
    its blocks are kept from (``inside``) and, once chosen, the kept
    blocks."""

    doc: Document
    blocks: Blocks
    probs: Sequence[float]
    weight: Sequence[float]
    region: int
    inside: float
    chosen: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _Step:
    """A named step of :func:`select`: it runs when ``on`` holds for the
    :class:`Widening`; ``measured`` says where its effect was measured."""

    name: str
    on: Callable[[Widening], bool]
    run: Callable[[_Choice, Widening], None]
    measured: str


def _to_title(c: _Choice, w: Widening) -> None:
    c.region = title_region(c.doc, c.blocks, c.weight, c.region, w.title, w.title_ratio)


def _to_list(c: _Choice, w: Widening) -> None:
    assert w.lists is not None
    widened = list_region(c.doc, c.blocks, c.region, w.lists)
    if widened >= 0:
        c.region, c.inside = widened, min(c.inside, w.list_threshold)


def _to_main(c: _Choice, w: Widening) -> None:
    widened = main_region(c.doc, c.blocks, c.probs, c.region, c.inside, w.mains,
                          w.main_threshold)
    if widened >= 0:
        c.region, c.inside = widened, min(c.inside, w.main_threshold)


#: The steps that move the region, in order (the title first, then the
#: widenings).
REGION_STEPS: tuple[_Step, ...] = (
    _Step("the title's region", lambda w: w.title >= 0 and w.title_ratio > 0, _to_title,
          "docs/journal, 'The title's region'"),
    _Step("a region inside a list is the list",
          lambda w: w.lists is not None and w.list_threshold > 0, _to_list,
          "docs/journal, 'A region inside a list is the list'"),
    _Step("the page's main element", lambda w: w.main_threshold > 0 and bool(w.mains),
          _to_main,
          "docs/journal, 'The page's main element', 'A region outside the main element'"),
)


def _table_gaps(c: _Choice, w: Widening) -> None:
    c.chosen = table_gaps(c.doc, c.blocks, c.probs, c.chosen, c.region, w.tables)


def _introduced(c: _Choice, w: Widening) -> None:
    c.chosen = keep_introduced(c.doc, c.blocks, c.probs, c.chosen, c.region, w.introduced)


def _code(c: _Choice, w: Widening) -> None:
    c.chosen = keep_code(c.doc, c.blocks, c.probs, c.chosen, c.region)


def _article(c: _Choice, w: Widening) -> None:
    c.chosen, c.region = title_article(c.doc, c.blocks, c.chosen, c.region)


#: The steps that add to the kept blocks, in order, after the region's
#: blocks are kept (the title's article last: it may move the region).
KEEP_STEPS: tuple[_Step, ...] = (
    _Step("a headed table between, after or below the kept blocks", lambda w: bool(w.tables),
          _table_gaps,
          "docs/journal, 'A table between kept blocks', 'A table after the region', "
          "'The tables of the next row'"),
    _Step("what a colon introduces", lambda w: bool(w.introduced), _introduced,
          "docs/journal, 'What a colon introduces'"),
    _Step("code inside the region", lambda w: w.code, _code,
          "docs/journal, 'Code inside the region'"),
    _Step("the title's article", lambda w: w.article, _article,
          "docs/journal, 'The title's article'"),
)


def select(doc: Document, blocks: Blocks, probs: Sequence[float], threshold: float,
           outside: float = 2.0, widening: Widening = NO_WIDENING) -> tuple[list[int], int]:
    """Kept blocks and the main region from block probabilities: the region
    is the element maximising the sum of ``chars * (p - threshold)`` over its
    blocks (a maximum-weight subtree); kept are the blocks inside it with
    ``p >= threshold`` (or the lower threshold a widening sets) and, outside
    it, those with ``p >= outside``. ``widening`` turns on the mechanisms of
    :data:`REGION_STEPS` (before the blocks are kept) and
    :data:`KEEP_STEPS` (after), each when its evidence and setting are
    given (:class:`Widening`)."""
    n = len(blocks)
    if not n or doc.body < 0:
        return [], -1
    node, chars = blocks.node, blocks.chars
    (weight,) = subtree_sums(doc, blocks, [c * (p - threshold) for c, p in zip(chars, probs)])
    c = _Choice(doc, blocks, probs, weight, heaviest_element(doc, weight), threshold)
    for step in REGION_STEPS:
        if step.on(widening):
            step.run(c, widening)
    r_end = c.region + doc.size[c.region]
    c.chosen = [b for b in range(n)
                if probs[b] >= (c.inside if c.region <= node[b] < r_end else outside)]
    for step in KEEP_STEPS:
        if step.on(widening):
            step.run(c, widening)
    return c.chosen, c.region


def _element_blocks(doc: Document, blocks: Blocks, e: int) -> range:
    """The blocks inside element ``e``: a run of the blocks, which are in
    document order, found by bisection on their elements. O(log blocks)."""
    node = blocks.node
    return range(bisect_left(node, e), bisect_left(node, e + doc.size[e]))


def table_gaps(doc: Document, blocks: Blocks, probs: Sequence[float], chosen: list[int],
               region: int, tables: Sequence[int]) -> list[int]:
    """``chosen`` and every block of a table with column headers (of
    ``tables``: those with a ``th`` in their first row,
    :func:`temex.content.records.headed_tables`) that lies inside
    ``region`` after its first kept block and before its last, that is
    ``region``'s next sibling, and the blocks of the next sibling of
    ``region``'s parent where they are such tables and headings only; never
    a block the caller vetoed (probability 0: template, navigation, repeated
    on the site).

    Why: a table is one unit of the text around it, but the scorer judges
    its cells one by one, and a cell ("4.2.3", "Herbert Dürr 63 16.6%") has
    none of the marks of prose; it scored 0.25-0.43 where the paragraphs
    around the table scored 0.9, and a release history or a statistics
    table inside an article was lost while its caption and the text on
    both sides were kept. Named columns make it data the page presents
    (as :func:`temex.content.rules.in_headed_table` reads them under a
    template); between kept blocks it is the article's. A table without
    header cells is not added: layout tables and widget grids look the
    same, and on the news sets adding them lost more than it gained
    (docs/journal, "A table between kept blocks").

    The same holds for such a table that is the region's next sibling
    element: a paragraph that introduces the table below it ("The following
    table lists ...") was the heaviest subtree and the table's cells,
    weighing less than nothing one by one, were left beside it (a page of
    deployments, a magazine's ranking; docs/journal, "A table after the
    region"). And for the tables of the row below the region's: in a grid
    the region is a column, its siblings the columns beside it (a sidebar)
    and its parent's next sibling the row under it, which spans the page (a
    course page's description, then its lecture and exam tables, each under
    its heading). Only a row of such tables and their headings: where the
    parent's next sibling is a side column instead, it holds a sidebar's
    other widgets too. A table elsewhere in the region's own row (beside it)
    is not added: on big9's and CleanEval's news pages those were sidebars'
    and portals' tables (docs/journal, "The tables of the next row"). O(n)."""
    if region < 0 or not tables:
        return chosen
    node, size, parent = blocks.node, doc.size, doc.parent
    end = region + size[region]  # in pre-order, the next sibling if it has the same parent
    inside = [b for b in chosen if region <= node[b] < end]
    if not inside:
        return chosen
    row = parent[region]
    below = row + size[row] if row >= 0 else -1  # in pre-order, the row's next sibling if any
    if not (0 <= below < len(doc) and parent[below] == parent[row]):
        below = -1
    below_end = below + size[below] if below >= 0 else -1
    added = set(chosen)
    row_tables: set[int] = set()  # the blocks of the headed tables of the row below
    for t in tables:
        if region < t < end or (t == end and parent[t] == parent[region]):
            run = _element_blocks(doc, blocks, t)
            if t == end or (inside[0] < run.start < run.stop and run.stop - 1 < inside[-1]):
                added.update(b for b in run if probs[b] > 0)
        elif below <= t < below_end:
            row_tables.update(_element_blocks(doc, blocks, t))
    if row_tables:
        # only a row of tables under their headings: a row that holds other
        # text too (a sidebar's widgets beside a quotes table) is not the page's
        row_blocks = _element_blocks(doc, blocks, below)
        if all(b in row_tables or doc.tag[node[b]] in HEADING_TAGS for b in row_blocks):
            added.update(b for b in row_blocks if probs[b] > 0)
    return sorted(added) if len(added) > len(chosen) else chosen


def keep_code(doc: Document, blocks: Blocks, probs: Sequence[float], chosen: list[int],
              region: int) -> list[int]:
    """``chosen`` and every code block (a ``<pre>`` block) inside ``region``,
    never one the caller vetoed (probability 0).

    Why: a code block inside the text's region is the text's own (an
    example, a command and its output, a listing), as a table with column
    headers is data (:func:`table_gaps`); by its features it is a line of
    punctuation without sentences or stop words, and the scorer puts some
    under the threshold, most often the last one of a page (a tool's usage
    text after the paragraph that names the tool; 0.45 on a security wiki's
    page, recall 0.889); code blocks are among what the model must keep.
    Measured in docs/journal, "Code inside the region". O(blocks)."""
    if region < 0:
        return chosen
    node, tag = blocks.node, doc.tag
    end = region + doc.size[region]
    kept = set(chosen)
    added = {b for b in range(len(node)) if region <= node[b] < end and tag[node[b]] == "pre"
             and probs[b] > 0 and b not in kept}
    return sorted(kept | added) if added else chosen


#: The elements a colon may introduce and that the scorer may miss: lists
#: and tables (their items are short and often linked, where prose is not),
#: and code blocks (a command's "Output:", scored under the threshold by the
#: blended scorer at the end of a page; docs/CONTENT.md).
INTRODUCED_TAGS = frozenset({"ul", "ol", "dl", "table", "pre"})


def introduced_elements(doc: Document, blocks: Blocks) -> list[tuple[int, int]]:
    """Pairs ``(block, element)``: a block whose text ends with a colon
    (``:`` or the full-width ``：``) and the list or table
    (:data:`INTRODUCED_TAGS`) that the text after it begins: the outermost
    list or table that holds the next block and starts after the block's
    element (whatever wrappers and spacers lie between them). O(blocks ×
    depth) at the blocks that end with a colon (their texts are joined
    once, as the scorer's features do)."""
    node, size, tag, parent = blocks.node, doc.size, doc.tag, doc.parent
    joined = blocks.joined
    out = []
    for b in range(len(joined) - 1):
        if not joined[b].endswith((":", "：")):
            continue
        end = node[b] + size[node[b]]  # pre-order: the elements after the block's start here
        x, found = node[b + 1], -1
        while x >= end:  # up from the next block to the first ancestor they share
            if tag[x] in INTRODUCED_TAGS:
                found = x
            x = parent[x]
        if found >= 0:
            out.append((b, found))
    return out


def keep_introduced(doc: Document, blocks: Blocks, probs: Sequence[float], chosen: list[int],
                    region: int, introduced: Sequence[tuple[int, int]]) -> list[int]:
    """``chosen`` and the blocks of every list or table that a kept block
    inside ``region`` introduces (of ``introduced``,
    :func:`introduced_elements`), when it lies inside the region too; never
    a block the caller vetoed (probability 0).

    Why: a sentence that ends with a colon ("Many patches were sent for
    review:", "Here's what has been done:") announces what follows it, and
    what follows is the text's own: a list of the patches, a table of the
    figures. One by one its items are short lines, often each a link, and
    the scorer reads them as a menu (a blog's progress report kept its
    sentences and lost the three lists they announce: token F1 0.873). The
    colon is the writer's statement, as a table's column headers are
    (:func:`table_gaps`); measured in docs/journal, "What a colon
    introduces". O(n)."""
    if region < 0:
        return chosen
    node = blocks.node
    end = region + doc.size[region]
    kept = set(chosen)
    added: set[int] = set()
    for b, e in introduced:
        if b in kept and region <= node[b] < end and e < end:
            added.update(x for x in _element_blocks(doc, blocks, e) if probs[x] > 0)
    return sorted(kept | added) if added - kept else chosen


def title_region(doc: Document, blocks: Blocks, weight: Sequence[float], region: int,
                 title: int, ratio: float) -> int:
    """The heaviest element around the page's title heading (the title's
    block ``title`` or an ancestor of it that does not hold ``region``) when
    its subtree weighs at least ``ratio`` times ``region``'s, else
    ``region``; ``region`` when it holds the title. ``weight``: per
    element, the subtree sum of the block weights :func:`select` gives
    (:func:`temex.page.blocks.subtree_sums`).

    Why: the maximum-weight subtree is the densest run of likely text, and
    on a short post it can be a sidebar's long list (a blog's books, a
    disclaimer) or the comment thread under it, each block scoring a little
    above the threshold. The heading that names the page (its text is part
    of the ``<title>``) sits with the page's own text; where the text around
    it weighs at least ``ratio`` of the densest run, it is the better
    guess. Where the region is the article's body below a title header
    (the usual page), the title's own subtrees weigh far less and nothing
    moves. Our departure from Finn et al.'s single densest region: the
    title as readability's and trafilatura's extractors use it, as an
    anchor. Measured by grouped cross-validation on every content set
    (docs/journal, "The title's region"). O(n)."""
    t = blocks.node[title]
    if region <= t < region + doc.size[region]:
        return region
    best, best_weight = -1, 0.0
    parent = doc.parent
    a = t
    while a >= doc.body and not (a <= region < a + doc.size[a]):
        if weight[a] > best_weight:
            best, best_weight = a, weight[a]
        a = parent[a]
    return best if best >= 0 and best_weight >= ratio * weight[region] else region


def title_article(doc: Document, blocks: Blocks, chosen: Sequence[int],
                  region: int) -> tuple[list[int], int]:
    """The ``<article>`` around the page's first ``h1``, as the region and
    with every block it holds, where the scorer kept nothing of it beyond
    the heading or a region inside it that holds under half of its text;
    else ``chosen`` and ``region`` unchanged. Blocks kept outside the
    article stay.

    Why: HTML's ``article`` is "a complete, or self-contained, composition"
    (WHATWG HTML, 4.3.2), and the one that holds the page's title is the
    page's item. A catalogue's item page (a course: its theme, title,
    town, a line of description, a contact tab) is a few short blocks,
    each of which scores as chrome would; the scorer keeps the heading or
    one line, or nothing, and the region rule has no dense text to find.
    Where the region holds most of the article (a post, its body the
    densest text), nothing changes. On the content sets it changes two
    pages of about 2,000; on the shared sites it lifts the item pages of
    the catalogue (docs/journal, "The title's article"). O(n)."""
    node, chars = blocks.node, blocks.chars
    title = next((b for b in range(len(blocks)) if doc.tag[node[b]] == "h1"), -1)
    if title < 0:
        return list(chosen), region
    a = node[title]
    while a >= 0 and doc.tag[a] != "article":
        a = doc.parent[a]
    if a < 0:
        return list(chosen), region
    a_end = a + doc.size[a]
    inner = [b for b in range(len(blocks)) if a <= node[b] < a_end]
    kept = sum(chars[b] for b in chosen if a <= node[b] < a_end)
    only_title = set(chosen) <= {title}
    if not (only_title or a <= region < a_end) or 2 * kept >= sum(chars[b] for b in inner):
        return list(chosen), region
    return sorted(set(inner).union(b for b in chosen if not a <= node[b] < a_end)), a


def main_elements(doc: Document, sections: int = 0, blocks: Blocks | None = None,
                  component_chars: int = 0) -> frozenset[int]:
    """The page's main elements: ``<main>`` and any element with
    ``role="main"``; where the page declares none and ``sections > 0``, the
    elements of ``<body>`` with ``sections`` or more ``<section>`` children,
    and, with ``blocks`` and ``component_chars > 0``, those with ``sections``
    or more children of one tag and classes that are each a section by
    their content (:func:`component_parents`).

    Why the sections: a ``section`` is "a thematic grouping of content"
    (WHATWG HTML 4.3.3), and a landing page that declares no ``main`` lays
    its content out as sections under one parent (a service's offer, its
    customers, its prices), each short and promotional, while the header,
    menus and footer sit beside that parent. It is the page's main element
    as much as a declared one: the region widens to it as to ``<main>``
    (:func:`main_region`). O(n)."""
    tag = doc.tag
    declared = frozenset([i for i, v in doc.attribute_values("role").items() if v == "main"]
                         + ([i for i, t in enumerate(tag) if t == "main"] if "main" in tag
                            else []))
    if declared or sections <= 0 or doc.body < 0:
        return declared
    # each section counted at its parent: one pass, no walk of every child list
    parent, body = doc.parent, doc.body
    counts = Counter(parent[i] for i in range(body + 1, body + doc.size[body])
                     if tag[i] == "section")
    mains = {p for p, c in counts.items() if c >= sections}
    if blocks is not None and component_chars > 0:
        mains.update(component_parents(doc, blocks, sections, component_chars))
    return frozenset(mains)


def component_parents(doc: Document, blocks: Blocks, count: int, min_chars: int) -> set[int]:
    """The elements of ``<body>`` with ``count`` or more children of one tag
    and classes (a class at least) that each hold a heading and ``min_chars``
    characters of text or more, under half of them inside links.

    Why: a landing page built of components (a content management system's
    "section" blocks, a page builder's rows) lays out its offer as sibling
    elements of one class, each a heading over a few lines of prose and a
    "learn more" link, as :func:`main_elements` reads ``<section>``
    children; only the markup differs (``div.container.section`` x 8 on a
    consulting firm's service page, where the region was the first
    component and the page kept one paragraph in five). A heading over
    prose is what tells those from a sidebar's widgets (their text is
    links), a comment list (no headings) and layout rows (neither). Measured
    on every content set and the shared sites (docs/journal, "A landing
    page's components"). O(n)."""
    tag, classes, parent, body = doc.tag, doc.classes, doc.parent, doc.body
    chars, links, heads = subtree_sums(doc, blocks, blocks.chars, blocks.link_chars,
                                       [1 if tag[d] in HEADING_TAGS else 0 for d in blocks.node])
    groups: Counter[tuple[int, str, tuple[str, ...]]] = Counter()
    for c in range(body + 1, body + doc.size[body]):
        if classes[c] and heads[c] and chars[c] >= min_chars and 2 * links[c] < chars[c]:
            groups[(parent[c], tag[c], classes[c])] += 1
    return {p for (p, _, _), k in groups.items() if k >= count}


def main_region(doc: Document, blocks: Blocks, probs: Sequence[float], region: int,
                inside: float, mains: Collection[int], threshold: float) -> int:
    """The page's main element (of ``mains``, :func:`main_elements`: the
    nearest above ``region``, else the page's only one when ``region`` lies
    outside it) when the blocks ``region`` keeps (``p >= inside``) hold
    under half of the characters of its blocks with ``p >= threshold``;
    else -1.

    Why: HTML's ``main`` element is "the dominant contents of the body"
    (WHATWG HTML, 4.4.14), a statement of the page's author. On a landing
    page of unlike sections (a product's features, its customers, its
    prices) the densest subtree is one section, and the other sections,
    each short and promotional, score low one by one; the author's main
    element holds them all. Where the region holds most of what the scorer
    finds likely in ``main`` (an article beside a few related links), it
    stays. A region outside the page's one main element (a shop's
    collection page whose densest run was a sidebar's) is judged the same
    way against it. Measured by grouped cross-validation on every content
    set and the shared sites (docs/journal, "The page's main element",
    "A region outside the main element"). O(depth + n)."""
    parent = doc.parent
    m = parent[region]
    while m >= 0 and m not in mains:
        m = parent[m]
    r_end = region + doc.size[region]
    if m < 0:
        if len(mains) != 1:
            return -1
        (m,) = mains
        if region <= m < r_end:  # the region holds the main element
            return -1
    node, chars = blocks.node, blocks.chars
    m_end = m + doc.size[m]
    kept = likely = 0
    for b in range(len(blocks)):
        if m <= node[b] < m_end and probs[b] >= threshold:
            likely += chars[b]
        if region <= node[b] < r_end and probs[b] >= inside:
            kept += chars[b]
    return m if 2 * kept < likely else -1


def list_region(doc: Document, blocks: Blocks, region: int,
                lists: tuple[Sequence[int], Sequence[int]]) -> int:
    """The container of the record list that holds every block of
    ``region``, or -1 when its blocks are not all in one list.

    Why: the heaviest subtree finds the densest text; on a page that is a
    list of alike records (a forum thread's posts, a question's answers, a
    listing's rows, a landing page's sections; MDR's data records, Liu,
    Grossman and Zhai 2003, as :func:`temex.content.records.record_lists`
    finds them) the densest text is one record, or a few, and each record
    alone scores as a teaser would. A region that falls inside one list is
    a part of it: the page is about the list, so the region is the list,
    and its records are judged as members of it (a lower threshold). An
    article above a comment list is not inside the list, and is left as
    it is. Measured on every content set by grouped cross-validation
    (docs/journal, "A region inside a list is the list"). O(n)."""
    node = blocks.node
    r_end = region + doc.size[region]
    list_of, record_of = lists
    found, record = -1, -1
    for b in range(len(blocks)):
        if region <= node[b] < r_end:
            k = list_of[b]
            if k < 0 or (found >= 0 and k != found):
                return -1
            found, record = k, record_of[b]
    if found < 0:
        return -1
    container = doc.parent[record]
    return container if container >= 0 else -1


def rules_region(doc: Document, blocks: Blocks, good: Sequence[bool],
                 penalty: float, neutral: Sequence[bool] | None = None) -> tuple[list[int], int]:
    """The rules' region: each block weighs ``+chars`` when ``good``, 0 when
    ``neutral`` (under a template mask: text repeated on the site but not
    template, :func:`temex.content.rules.rule_signals`) and ``-penalty *
    chars`` otherwise; kept are the good blocks inside the heaviest
    subtree. Returns ``(chosen, region)``."""
    weights = [c if g else -penalty * c for c, g in zip(blocks.chars, good)]
    if neutral is not None:
        weights = [0 if z and not g else w for w, z, g in zip(weights, neutral, good)]
    region = heaviest_subtree(doc, blocks, weights)
    r_end = region + doc.size[region]
    node = blocks.node
    return [b for b in range(len(blocks)) if good[b] and region <= node[b] < r_end], region
