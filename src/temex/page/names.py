"""Element names (``id`` and classes) judged once per page, and their
counts down the tree: primitives for the content rules and features, which
ask per element of ``<body>`` whether its names mark it (negative names such
as ``sidebar``, positive ones such as ``article``) and how many of its
ancestors are so marked.

The loops are O(n) over the body; each distinct (id, classes) pair of a
page is judged once (a page repeats its names). Compiled when the kernel
runs (:mod:`temex.page.kernel`): the same values.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache

from . import kernel
from .dom import HEADING_TAGS, Document
from .vocabulary import COMMENT_SECTION_PREFIXES

__all__ = ["LAYOUT_SHARE", "ancestor_counts", "comment_named", "comment_sections",
           "flagged_below", "name_flags", "part_flags", "without_anchor_ids"]


def _span(doc: Document, start: int | None) -> tuple[int, int]:
    body = doc.body
    if body < 0:
        return 0, 0
    return (body if start is None else start), body + doc.size[body]


#: Most verdicts a memo of :func:`name_flags` keeps across pages (emptied when
#: full, so that a worker's memory stays flat).
MEMO_SIZE = 8192

#: Verdicts by (id, classes): 1 or 0.
NameMemo = dict[tuple[str, tuple[str, ...]], int]


def name_flags(doc: Document, verdict: Callable[[str, tuple[str, ...]], object],
               start: int | None = None, memo: NameMemo | None = None) -> bytes:
    """One byte per element: 1 where ``verdict(id, classes)`` is true, for the
    elements of ``<body>`` from ``start`` (default: ``<body>`` itself) that
    have an ``id`` or classes; 0 elsewhere. Each distinct pair is judged
    once; with ``memo`` (for a verdict that depends on the names alone) once
    across the pages judged with it: a site repeats its names on every
    page. With the kernel every distinct pair of the page is judged, those
    outside the span too (a verdict is a function of the names: the same
    bytes)."""
    a, end = _span(doc, start)
    if memo is None:
        memo = {}
    elif len(memo) > MEMO_SIZE:
        memo.clear()
    k = kernel.get()
    if k is not None:
        # the page's distinct pairs found once (cached on the document), each
        # judged once per call, the elements' bytes filled in C
        index = doc.__dict__.get("_name_index")
        if index is None:
            index = doc.__dict__["_name_index"] = k.name_index(doc.id, doc.classes)
        # the memo read for every pair in one C-level pass; the verdict
        # asked only for the pairs it has not seen
        keys = index[1]
        got: list[int | None] = list(map(memo.get, keys))
        if None in got:
            for j, v in enumerate(got):
                if v is None:
                    key = keys[j]
                    got[j] = memo[key] = 1 if verdict(*key) else 0
        verdicts = bytes(got)  # type: ignore[arg-type]  # no None is left
        return k.flags_by_index(index[0], a, end, verdicts)  # type: ignore[no-any-return]
    out = bytearray(len(doc))
    ids, classes = doc.id, doc.classes
    for i in range(a, end):
        if ids[i] or classes[i]:
            key = (ids[i], classes[i])
            v = memo.get(key)
            if v is None:
                v = memo[key] = 1 if verdict(*key) else 0
            out[i] = v
    return bytes(out)


def ancestor_counts(doc: Document, flags: bytes, start: int | None = None) -> list[int]:
    """Per element of ``<body>`` from ``start`` (default ``<body>``): the
    flagged elements among it and its ancestors down from ``start``; 0
    elsewhere. ``named[i] = named[parent[i]] + flags[i]``."""
    a, end = _span(doc, start)
    k = kernel.get()
    if k is not None:
        return k.ancestor_counts(doc.parent, a, end, flags)  # type: ignore[no-any-return]
    out = [0] * len(doc)
    parent = doc.parent
    for i in range(a, end):
        out[i] = (out[parent[i]] if i != a else 0) + flags[i]
    return out


def flagged_below(doc: Document, flags: bytes, start: int | None = None) -> list[bool]:
    """Per element of ``<body>`` from ``start`` (default ``<body>``): it or an
    ancestor down from ``start`` is flagged; False elsewhere."""
    a, end = _span(doc, start)
    k = kernel.get()
    if k is not None:
        return k.flagged_below(doc.parent, a, end, flags)  # type: ignore[no-any-return]
    out = [False] * len(doc)
    parent = doc.parent
    for i in range(a, end):
        out[i] = bool(flags[i]) or (i != a and out[parent[i]])
    return out


#: Least share of a page's block text the scope of :func:`part_flags` holds.
LAYOUT_SHARE = 0.5


def part_flags(doc: Document, words: Callable[[str, tuple[str, ...]], Collection[str]],
               node: Sequence[int], chars: Sequence[int], share: float = LAYOUT_SHARE,
               parts: tuple[str, ...] = (), start: int | None = None,
               memo: NameMemo | None = None) -> bytes:
    """:func:`name_flags` for "its names mark a part of the page", where
    ``words(id, classes)`` gives the words of a vocabulary (negative names)
    found in an element's names, less the page's layout words: the words
    that an ancestor of the page's longest text block carries, and whose
    elements hold together ``share`` of the text, do not count
    on that block's ancestors nor inside its *scope*, its lowest ancestor
    holding ``share`` of the text of the blocks (``node``, ``chars``: each
    block's element in document order, and characters). A page builder's
    wrappers (Elementor's ``elementor-widget`` around every paragraph,
    Blogger's ``div.Blog.widget`` around the posts) name the layout the
    article is poured into, not a sidebar widget; the sidebar's own widgets,
    outside the scope, keep their name. Words that start with one of
    ``parts`` always count (a comment thread is a part of the page even when
    it holds its longest text). ``start`` and ``memo`` (whether ``words``
    finds any word) as for :func:`name_flags`. The
    text-mass analogue of a word that occurs
    in every document and so tells nothing (inverse document frequency,
    here within one page). O(n) in the compiled :func:`name_flags`, then
    O(depth + B + flagged elements of the scope)."""
    found: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}

    def named(id_: str, cls: tuple[str, ...]) -> frozenset[str]:
        got = found.get((id_, cls))
        if got is None:
            got = found[(id_, cls)] = frozenset(words(id_, cls))
        return got

    def own(i: int) -> frozenset[str]:
        return named(doc.id[i], doc.classes[i])

    flags = name_flags(doc, lambda i, c: bool(words(i, c)), start, memo)
    total = sum(chars)
    if not total or not any(flags):
        return flags
    longest = node[max(range(len(chars)), key=chars.__getitem__)]
    chain = [longest, *doc.ancestors(longest)]
    layout = frozenset(w for a in chain if flags[a] for w in own(a)
                       if not (parts and w.startswith(parts)))
    if not layout:
        return flags
    before = [0]  # characters of the blocks before each block
    for c in chars:
        before.append(before[-1] + c)

    def held(a: int) -> int:
        return before[bisect_left(node, a + doc.size[a])] - before[bisect_left(node, a)]

    # a layout word's elements hold most of the text together (a copyright
    # notice, the longest block in its named footer, holds little of it)
    mass = dict.fromkeys(layout, 0)
    open_until: dict[str, int] = {}
    i = flags.find(1)
    while i >= 0:
        for w in own(i) & layout:
            if open_until.get(w, -1) <= i:  # not inside an element counted
                open_until[w] = i + doc.size[i]
                mass[w] += held(i)
        i = flags.find(1, i + 1)
    layout = frozenset(w for w in layout if mass[w] >= share * total)
    if not layout:
        return flags
    scope = next((a for a in chain if held(a) >= share * total), chain[-1])
    out = bytearray(flags)
    for a in chain:
        if out[a]:
            out[a] = bool(own(a) - layout)
    i, end = scope, scope + doc.size[scope]
    i = out.find(1, i, end)
    while i >= 0:
        out[i] = bool(own(i) - layout)
        i = out.find(1, i + 1, end)
    return bytes(out)


_SLUG_WORD = re.compile(r"[a-z0-9]+")


def _slug_words(s: str) -> list[str]:
    return _SLUG_WORD.findall(s.lower())


#: Fewest headings with an anchor id (their text's slug) that tell a page's
#: generator gives every heading one (:func:`without_anchor_ids`).
ANCHORED_HEADINGS = 3


def _anchor_of(doc: Document, i: int) -> bool:
    """Element ``i`` has an ``id`` that is the slug of its heading: a
    heading's own text, or a section's whose first child element is its
    heading (a trailing number, a second heading of that text, allowed)."""
    tag, children = doc.tag, doc.children
    head = i if tag[i] in HEADING_TAGS else next(
        (c for c in children[i][:1] if tag[c] in HEADING_TAGS), -1)
    if head < 0:
        return False
    slug, text = _slug_words(doc.id[i]), _slug_words(doc.subtree_text(head))
    return bool(slug) and (slug == text or (slug[:-1] == text and slug[-1].isdigit()))


def without_anchor_ids(doc: Document, flags: bytes,
                       words: Callable[[str, tuple[str, ...]], Collection[str]]) -> bytes:
    """``flags`` (elements whose names hold a word of ``words(id, classes)``)
    less the elements named so by an anchor alone, on a page whose
    generator gives every heading one: an ``id`` that is the slug of the
    element's heading (:func:`_anchor_of`), classes with no such word, and
    at least ``ANCHORED_HEADINGS`` headings or sections of the page so
    named, a sibling of it among them. Documentation generators (MkDocs, Sphinx, Hugo, GitHub) give
    every heading or section the id its text makes, for links to it: a
    section titled "Literate nav syntax" or "Sharing with a single
    developer" is ``#literate-nav-syntax``, which names its subject, not its
    role. Where only the one section is so named (``<div id="comments">``
    under "Comments", a footer's ``#footer``) the id is the section's role,
    as written by hand; a theme's box beside the text (``div#sidebar``
    under "Sidebar") has no such sibling. O(n) when a flagged element is an
    anchor."""
    if not any(flags):
        return flags
    ids, classes = doc.id, doc.classes
    found = [i for i in range(len(doc)) if flags[i] and ids[i]
             and not words("", classes[i]) and _anchor_of(doc, i)]
    if not found:
        return flags
    tag, parent, children = doc.tag, doc.parent, doc.children
    anchored = {a for i in range(len(doc)) if tag[i] in HEADING_TAGS
                for a in (i, parent[i]) if a >= 0 and ids[a] and _anchor_of(doc, a)}
    if len(anchored) < ANCHORED_HEADINGS:
        return flags
    out = bytearray(flags)
    for i in found:
        # one of the document's run of headings or sections, not a theme's
        # own box beside it (a div#sidebar under a "Sidebar" heading)
        if any(c != i and c in anchored for c in children[parent[i]]):
            out[i] = 0
    return bytes(out)


#: Name words of comment threads and their parts.
_WORDS = re.compile(r"[^a-z]+")
COMMENT_MEMO: NameMemo = {}  # :func:`comment_named` verdicts across pages


def comment_named(id_: str, classes: tuple[str, ...]) -> bool:
    """An ``id`` or class word starts with a comment-section word
    (:data:`~temex.page.vocabulary.COMMENT_SECTION_PREFIXES`)."""
    return any(map(_comment_value, (id_, *classes) if id_ else classes))


@lru_cache(maxsize=1 << 13)
def _comment_value(value: str) -> bool:
    """:func:`comment_named` of one value; cached across pages and sites."""
    low = value.lower()
    return not low.startswith("js-") and any(
        w.startswith(COMMENT_SECTION_PREFIXES) for w in _WORDS.split(low) if w)


def comment_sections(doc: Document) -> list[bool]:
    """Per element: inside a subtree whose ``id``/``class`` words start with
    a comment-section word (``comment``, ``disqus``, ``respond``, ``reply``).
    Whether comments are content is a convention (``--no-comments``): the
    content rules never take a comment thread for the page's main records
    (:func:`temex.content.rules.rule_signals`) and add it beside the article
    (:func:`temex.content.records.comment_thread`); the content-region rule
    of the template detectors leaves its text content
    (:func:`temex.template.rules.region.comment_text`). O(n)."""
    if doc.body < 0:
        return [False] * len(doc)
    return flagged_below(doc, name_flags(doc, comment_named, doc.body + 1, COMMENT_MEMO))
