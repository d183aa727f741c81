"""Records stage: lists of alike sibling subtrees, teasers or the page's own.

Idea: a page's lists of records are one of two things. *Teaser records*
(related stories, comment threads, "more from" boxes) are at least 3
same-tag siblings each holding a linked title or author name and a little
text: boilerplate. The page's *own records* (the posts of a forum topic, the
rows of a listing, the products of a category) are lists of at least 3
siblings of one scaffolding whose text is mostly the page's own (not repeated
on the site's other pages): content, everything inside them included (the
author box, the date, "Reply").

Source: the record lists of MDR / DEPTA (Liu, Grossman and Zhai 2003,
"Mining data records in Web pages": alike adjacent sibling subtrees) reduced
to same tag and classes; the teaser rule is ours, the own-records
rule too (the gold convention of the evaluation data: posts,
rows and products are content).

Cost: O(n) per page for the teaser mask (subtree sums, one pass over the
children of every element); O(n·d) for own records (each member's
descendant names compared with its neighbour's, d the members' size).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import pairwise

from ..page.blocks import Blocks, subtree_sums
from ..page.dom import Document
from ..page.names import COMMENT_MEMO, comment_named, comment_sections, name_flags
from ..page.rows import RECORD_MIN, holds_link, row_groups, sibling_groups


__all__ = ["RecordLists", "alike", "anchor_element", "comment_blocks", "comment_sections",
           "headed_table_rows", "headed_tables", "own_records", "record_lists",
           "teaser_records"]


def teaser_records(doc: Document, blocks: Blocks, max_chars: int, max_ld: float,
                   anchor: int, strict: bool = False,
                   data_rows: Collection[int] = ()) -> list[bool]:
    """Mask of elements inside *teaser records*: one of at least 3 same-tag
    siblings whose subtree holds at least 2 blocks, one of them a link
    (linked title, author name), and fewer than ``max_chars`` characters
    (lists of related stories, comment threads); never the anchor's ancestors.

    With ``strict`` (our revision; the template-mask path) the
    siblings counted must be teasers too (at least 2 blocks, a link, fewer
    than ``max_chars`` characters). A short page's own text sits in a
    ``div`` among the ``div`` wrappers of its breadcrumb, byline and title
    block; a linked table of contents or one link made it look like one
    teaser of three, and the page lost its text (measured in
    docs/journal/2026-11-23-batch-content-of-unseen-pages-the-title.md). ``data_rows`` (the rows of
    tables with column headers, :func:`headed_table_rows`) are never
    teasers. With ``strict``, a record that holds code (a ``pre`` block) is
    no teaser either: a documentation page's examples come each with a
    linked "Run" or "Playground" button beside them, alike and short, and
    were taken for a list of related links."""
    n = len(doc)
    linked = [1 if lc > max_ld * c else 0 for lc, c in zip(blocks.link_chars, blocks.chars)]
    body, parent, tag = doc.body, doc.parent, doc.tag
    if strict:
        code = [1 if tag[nd] == "pre" else 0 for nd in blocks.node]
        nb, nl, ch, nc = subtree_sums(doc, blocks, [1] * len(blocks), linked, blocks.chars, code)
    else:
        nb, nl, ch = subtree_sums(doc, blocks, [1] * len(blocks), linked, blocks.chars)
        nc = [0] * n
    end = body + doc.size[body]
    out = [False] * n
    for i in range(body + 1, end):
        p = parent[i]
        if out[p]:
            out[i] = True
            continue
        if (nb[i] < 2 or not nl[i] or ch[i] >= max_chars or nc[i]
                or doc.is_ancestor(i, anchor) or i in data_rows):
            continue
        t = tag[i]
        same = 0
        for c in doc.children[p]:
            if tag[c] == t and (nb[c] >= 2 and nl[c] and ch[c] < max_chars and not nc[c]
                                if strict else nb[c]):
                same += 1
        out[i] = same >= 3
    return out


def headed_table_rows(doc: Document) -> frozenset[int]:
    """The ``tr`` rows of the tables that have column headers (a ``th``
    cell in their first row, :func:`headed_tables`).

    Why: a list of teasers (related stories, a comment list) is laid out as
    cards or list items; a table whose columns are named is data the page
    presents: a ranking with its ranks, a forum's topics with their
    replies and views, a price list. Its rows may each hold a linked title,
    and they are still the page's (the data convention: the rows of a
    listing are content). O(n)."""
    return frozenset(r for _, trs in _headed(doc) for r in trs)


def headed_tables(doc: Document) -> list[int]:
    """The tables with column headers: a ``th`` cell in their first row,
    in document order. O(n)."""
    return [t for t, _ in _headed(doc)]


def _headed(doc: Document) -> list[tuple[int, list[int]]]:
    """The tables with column headers and their ``tr`` rows (their own and
    those of their ``thead``, ``tbody`` and ``tfoot``)."""
    tag, children = doc.tag, doc.children
    if "th" not in tag:  # most pages have no header cell: one scan in C
        return []
    out = []
    for t in [i for i, x in enumerate(tag) if x == "table"]:
        trs = [c for c in children[t] if tag[c] == "tr"]
        for c in children[t]:
            if tag[c] in ("thead", "tbody", "tfoot"):
                trs.extend(r for r in children[c] if tag[r] == "tr")
        if trs and any(tag[c] == "th" for c in children[min(trs)]):
            out.append((t, trs))
    return out


def own_records(doc: Document, blocks: Blocks, specific: Sequence[bool], anchor: int,
                 share: float, named: Sequence[bool] | None = None) -> list[bool]:
    """Mask of elements inside the page's *own records* (the
    rule "sibling records whose text is mostly page-specific are content"; the
    gold convention of the evaluation data: posts of a topic, rows of a listing,
    products of a category are the page's content).

    Records: at least :data:`~temex.page.rows.RECORD_MIN` siblings with the
    same tag and classes (the classes most of the tag's siblings share:
    :func:`temex.page.rows.row_groups`), each holding at least 2 blocks, or
    each one block with a link (a listing's one-line row: a date and a
    linked title; category pages of a blog lost
    every row) where that list alone holds ``share`` of the page-specific
    text, none holding more than half of the list's text (so
    that a page's header / main / footer wrappers are no list), with one
    scaffolding (:func:`alike`: a sidebar's different widgets are no list,
    even where the site index has not seen their text). The list is
    the page's own when most of its text is page-specific (not ``boiler``:
    not repeated on the site's other pages, not template) and it holds the
    anchor (the first post of a topic is one of its posts), or when the
    page's lists together hold at least ``share`` of its page-specific text
    (a listing page's rows are most of the page). Without site evidence nothing
    tells page-specific text from repeated, so the rule needs it
    (:func:`temex.content.rules.rule_signals`). One-line rows are never the
    anchor's list (a thread's posts have more than a line). A list inside a negatively
    named subtree (``named``: user comments, related items) is not the page's
    own."""
    n = len(doc)
    nb, ch, mine, lc = subtree_sums(doc, blocks, [1] * len(blocks), blocks.chars,
                                    [c if sp else 0 for c, sp in zip(blocks.chars, specific)],
                                    blocks.link_chars)
    body = doc.body
    end = body + doc.size[body]
    total = mine[body]
    out = [False] * n
    if total <= 0:
        return out
    linked = holds_link(doc)
    inside = [False] * n  # inside a record of a list found before (pre-order)
    own: list[int] = []      # records of the anchor's list
    others: list[int] = []   # records of the other lists
    listed: float = 0        # page-specific characters of the other lists
    for p in range(body, end):
        # three rows hold three blocks at least (row_groups would find none)
        if (inside[p] or nb[p] < RECORD_MIN or len(doc.children[p]) < RECORD_MIN
                or (named is not None and named[p])):
            continue
        for single, members in row_groups(doc, p, nb, linked, shared_classes=True):
            g_ch = sum(ch[c] for c in members)
            g_mine = sum(mine[c] for c in members)
            if (2 * max(ch[c] for c in members) > g_ch or 2 * g_mine < g_ch
                    or not alike(doc, members)):
                continue
            holds_anchor = anchor >= 0 and any(doc.is_ancestor(c, anchor) for c in members)
            # one-line rows are no thread of posts, and they are a listing
            # only where that list alone is most of the page (a sidebar's
            # lists of linked titles and categories are one-line rows too);
            # the anchor may be one of a listing's rows where most rows are
            # mostly link text (a linked title and a date), never one of an
            # article's paragraphs (a few of them hold a link)
            if single and (g_mine < share * total or holds_anchor and sum(
                    2 * lc[c] > ch[c] for c in members) * 2 < len(members)):
                continue
            for c in members:
                for i in range(c, c + doc.size[c]):
                    inside[i] = True
            if holds_anchor and not single:
                own += members
            else:
                others += members
                listed += g_mine
    if listed >= share * total:  # a listing page: its lists together are most of it
        own += others
    for c in own:
        for i in range(c, c + doc.size[c]):
            out[i] = True
    return out


def alike(doc: Document, members: list[int], min_sim: float = 0.5) -> bool:
    """Whether sibling subtrees repeat one scaffolding (records of one kind):
    the mean Jaccard similarity of consecutive members' sets of descendant
    ``tag.class`` names is at least ``min_sim`` (the boxes of a sidebar,
    each a different widget, are not records)."""
    tag, classes = doc.tag, doc.classes
    vocab = [{(tag[i], classes[i]) for i in range(c + 1, c + doc.size[c])} for c in members]
    sims = [len(a & b) / len(a | b) if a or b else 1.0 for a, b in pairwise(vocab)]
    return sum(sims) >= min_sim * len(sims)


def anchor_element(blocks: Blocks, good: list[bool], named: list[int]) -> int:
    """Element of the kept block with the most non-link text, each negatively
    named ancestor dividing its weight by 4; -1 if none."""
    best, anchor = 0.0, -1
    for b, nd in enumerate(blocks.node):
        if good[b]:
            w = (blocks.chars[b] - blocks.link_chars[b]) * 0.25 ** named[nd]
            if w > best:
                best, anchor = w, nd
    return anchor



@dataclass
class RecordLists:
    """The record lists of a page (:func:`record_lists`).

    Attributes
    ----------
    members : list of list of int
        Per list, its record elements in document order.
    list_of, record_of : list of int
        Per element: the list (index into ``members``) and the record element
        it lies in, or -1.
    """

    members: list[list[int]]
    list_of: list[int]
    record_of: list[int]


def record_lists(doc: Document, blocks: Blocks, min_records: int = RECORD_MIN) -> RecordLists:
    """Lists of records of a page, without site evidence: groups of at least
    ``min_records`` sibling elements with the same tag and classes, each
    holding at least 2 blocks (a record has fields: title and text, author
    and message, name and price), of one scaffolding (:func:`alike`). The
    outermost lists only (a record's inner lists belong to it). Whether a
    list is the page's content (the posts of a thread, the rows of a
    listing, the sections of a landing page) or not (related stories,
    comments under an article) is for the scorer to learn from the list's
    features (:mod:`temex.content.features`). O(n) plus :func:`alike` on
    the candidate groups.

    The same groups as :func:`temex.page.rows.row_groups` without its
    one-line linked rows and shared classes, found by the same step
    (:func:`temex.page.rows.sibling_groups`); unlike :func:`own_records`
    nothing here asks whether the text is the page's own."""
    n = len(doc)
    list_of, record_of = [-1] * n, [-1] * n
    members: list[list[int]] = []
    if doc.body < 0 or not len(blocks):
        return RecordLists(members, list_of, record_of)
    (nb,) = subtree_sums(doc, blocks, [1] * len(blocks))
    body = doc.body
    tag, classes, children, size = doc.tag, doc.classes, doc.children, doc.size
    end = body + size[body]
    # min_records records of 2 blocks each hold 2 * min_records blocks: only
    # such elements can hold a list (found in one pass over the sums)
    least = 2 * min_records
    for p in [i for i, x in enumerate(nb[body:end], body) if x >= least]:
        if record_of[p] >= 0:  # inside a record of a list found before (pre-order)
            continue
        kids = children[p]
        if len(kids) >= min_records:
            for group in sibling_groups([c for c in kids if nb[c] >= 2],
                                        lambda c: (tag[c], classes[c]), min_records):
                if not alike(doc, group):
                    continue
                k = len(members)
                members.append(group)
                for c in group:  # a record's subtree is one slice (pre-order)
                    list_of[c:c + size[c]] = [k] * size[c]
                    record_of[c:c + size[c]] = [c] * size[c]
    return RecordLists(members, list_of, record_of)


def comment_blocks(doc: Document, blocks: Blocks, chosen: Sequence[int]) -> set[int]:
    """The blocks of ``chosen`` that are comments: inside an element whose
    ``id``/``class`` words start with a comment-section word (``comment``,
    ``disqus``, ``respond``, ``reply``) and that does not hold the *anchor*,
    the chosen block with the most non-link text (the article, or a
    thread's first post, which some forums also call a comment). O(n)."""
    if not chosen:
        return set()
    anchor = blocks.node[max(chosen, key=lambda b: blocks.chars[b] - blocks.link_chars[b])]
    body = doc.body
    parent = doc.parent
    named = name_flags(doc, comment_named, body + 1, COMMENT_MEMO)
    inside = [False] * len(doc)
    for i in range(body + 1, body + doc.size[body]):
        inside[i] = inside[parent[i]] or (bool(named[i]) and not doc.is_ancestor(i, anchor))
    return {b for b in chosen if inside[blocks.node[b]]}


def comment_thread(doc: Document, blocks: Blocks, chosen: Sequence[int],
                   boiler: Sequence[bool]) -> set[int]:
    """The blocks of the page's comment thread, to add to ``chosen`` when
    comments are content (the data convention: comments themselves are
    content, their form is template; ``--no-comments`` turns this off). A
    block is one when it lies inside a comment-named section
    (:func:`comment_sections`) and comes after the *anchor* in document
    order (the chosen block outside comment sections with the most non-link
    text: the article, which the thread follows; so no ancestor of it), it
    is not the site's (``boiler``: repeated text or the template mask: a
    sidebar's "recent comments" widget) and no ``form`` holds it (the
    reply form). The main-block choice keeps one subtree, and the thread
    sits beside the article, not under it. O(n)."""
    if not chosen:
        return set()
    inside = comment_sections(doc)
    # the article, not a long comment the choice kept
    article = [b for b in chosen if not inside[blocks.node[b]]] or list(chosen)
    anchor = blocks.node[max(article, key=lambda b: blocks.chars[b] - blocks.link_chars[b])]
    in_form = doc.inside_mask("form")
    return {b for b, d in enumerate(blocks.node)
            if inside[d] and d > anchor and not boiler[b] and not in_form[d]}


def _record_of(doc: Document, nd: int, counts: dict[int, Counter[tuple[str, str]]],
               found: dict[int, int]) -> int:
    """The nearest element from ``nd`` up (below ``body``) with a class and
    a sibling of its tag that shares a class; -1 when none. ``counts``
    memoises, per parent, its children's (tag, class) pairs, and ``found``
    each element's answer: asked for every block of a deep page, each
    element is looked at once."""
    path = []
    a, rec = nd, -1
    while a >= 0 and a != doc.body and doc.parent[a] >= 0:
        if a in found:
            rec = found[a]
            break
        path.append(a)
        up = doc.parent[a]
        if doc.classes[a]:
            pairs = counts.get(up)
            if pairs is None:
                pairs = counts[up] = Counter((doc.tag[c], k) for c in doc.children[up]
                                             for k in set(doc.classes[c]))
            if any(pairs[doc.tag[a], k] > 1 for k in set(doc.classes[a])):
                rec = a
                break
        a = up
    for x in path:
        found[x] = rec
    return rec


def alike_records(doc: Document, blocks: Blocks, chosen: Sequence[int],
                  boiler: Sequence[bool]) -> set[int]:
    """The blocks of the records alike the one that holds ``chosen``'s
    longest block in a record, at the places (tags and classes from the
    record down) where ``chosen`` holds a block of that one: a forum topic's
    replies, kept as its first post was; a blog post's comments, kept as
    the one the decision kept. A block's record is the nearest element from
    it up with a class and a sibling of its tag that shares a class
    (``post bg1`` beside ``post bg2``); blocks in none are passed over (a
    post's code listing). A sibling counts where its block at the longest
    block's place is the page's own text (not ``boiler``), so that alike
    wrappers of chrome add nothing, and where the decision kept two blocks
    of the record or more."""
    if not chosen:
        return set()
    node, chars = blocks.node, blocks.chars
    counts: dict[int, Counter[tuple[str, str]]] = {}
    found: dict[int, int] = {}
    records = ((b, rec) for b in sorted(chosen, key=lambda b: -chars[b])
               if (rec := _record_of(doc, node[b], counts, found)) >= 0)
    main, record = next(records, (-1, -1))
    if record < 0:
        return set()
    mine = [b for b in chosen if doc.is_ancestor(record, node[b])]
    if len(mine) < 2:
        # one kept block is no record kept (a result count beside its twin
        # under the grid): nothing to copy
        return set()
    cls = set(doc.classes[record])
    twins = [c for c in doc.children[doc.parent[record]] if c != record
             and doc.tag[c] == doc.tag[record] and cls & set(doc.classes[c])]

    def place(top: int, nd: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
        steps = []
        while nd != top:
            steps.append((doc.tag[nd], doc.classes[nd]))
            nd = doc.parent[nd]
        return tuple(reversed(steps))

    kept = {place(record, node[b]) for b in mine}
    main_place = place(record, node[main])
    # each block in one of the twins (disjoint subtrees, children in
    # document order: their numbers ascend)
    theirs: dict[int, list[int]] = {s: [] for s in twins}
    for b, nd in enumerate(node):
        k = bisect_right(twins, nd) - 1
        if k >= 0 and doc.is_ancestor(twins[k], nd):
            theirs[twins[k]].append(b)
    out: set[int] = set()
    for s, bs in theirs.items():
        places = {b: place(s, node[b]) for b in bs}
        if not any(at == main_place and not boiler[b] for b, at in places.items()):
            continue
        out.update(b for b, at in places.items() if at in kept)
    return out
