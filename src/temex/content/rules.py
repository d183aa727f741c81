"""The rules' verdicts on a page's blocks: link density, negative
names, records, region and title, and the blocks they keep.

Idea: a block is boilerplate when the site repeats it (candidates stage),
when most of its text is link text, when it sits in a subtree named like
per-page noise (comments, share bars, related links, sidebars), unless that
subtree holds the page's *anchor* (the kept block with the most non-link
text) or, with site evidence, the page's main records (the lists holding
most of its own text, comment threads aside: a name never drops a listing's
rows), or inside a teaser record; the page's own records are content (records stage). The kept blocks then choose the region (region stage) and
the title and head zone are added (title stage). The verdicts are the
learned scorer's features (:mod:`temex.content.features`) and, with a
template mask or ``ContentParams(scorer=False)``, the choice itself.

Source: link density after Kohlschütter, Fankhauser and Nejdl 2010
("Boilerplate detection using shallow text features", WSDM; the
``> 0.5`` of a block's characters inside ``<a>``); names, anchor and records
are ours (measured in docs/CONTENT.md). Cost: O(n) per page
(a few passes over the elements of ``<body>``), plus the own-records test.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache
from itertools import accumulate
from typing import Any

from ..page.blocks import Blocks
from ..page.dom import Document
from ..page.names import NameMemo, ancestor_counts, flagged_below, part_flags, without_anchor_ids
from ..page.vocabulary import COMMENT_SECTION_PREFIXES, RULE_NOISE_PREFIXES, RULE_NOISE_VALUES
from .params import ContentParams
from .records import (
    anchor_element,
    comment_sections,
    headed_table_rows,
    own_records,
    teaser_records,
)
from .region import rules_region
from .title import head_zone_blocks, title_before, title_zone

__all__ = ["link_density_ok", "named_subtrees", "navigation_blocks",
           "region_gaps", "rule_signals"]

_NAME_SPLIT = re.compile(r"[^a-z]+")
_HEADINGS = frozenset({"h1", "h2", "h3"})


@lru_cache(maxsize=1 << 13)
def _value_negative_words(value: str) -> frozenset[str]:
    """:func:`_negative_words` of one ``id`` or class value; cached across
    pages and sites (class values repeat from site to site far more than
    whole (id, classes) pairs)."""
    low = value.lower()
    if low.startswith("js-"):  # behaviour hooks, not names of a part
        return _NO_NAMES
    out = {w for w in _NAME_SPLIT.split(low) if w and w.startswith(RULE_NOISE_PREFIXES)}
    out.update(v for v in RULE_NOISE_VALUES if v in low)
    return frozenset(out) if out else _NO_NAMES  # most values: one shared empty set


_NO_NAMES: frozenset[str] = frozenset()


@lru_cache(maxsize=4096)
def _negative_words(id_: str, classes: tuple[str, ...]) -> frozenset[str]:
    """The ``id`` or class words that start with a word of
    :data:`~temex.page.vocabulary.RULE_NOISE_PREFIXES` (``js-`` hooks skipped); cached
    across pages."""
    values = (id_, *classes) if id_ else classes
    if len(values) == 1:
        return _value_negative_words(values[0])
    return frozenset().union(*map(_value_negative_words, values))


_NEGATIVE_MEMO: NameMemo = {}  # its verdicts across pages (page.names)


def link_density_ok(doc: Document, blocks: Blocks, max_link_density: float) -> list[bool]:
    """Per block: at most ``max_link_density`` of its characters inside
    ``<a>``, or a heading ``h1``–``h3`` (linked titles)."""
    tag, node = doc.tag, blocks.node
    return [blocks.link_chars[b] <= max_link_density * blocks.chars[b]
            or tag[node[b]] in _HEADINGS for b in range(len(blocks))]


def navigation_blocks(doc: Document, blocks: Blocks, ld_ok: Sequence[bool]) -> list[bool]:
    """Per block: a link-dense block (not ``ld_ok``: over the link-density
    limit and no ``h1``-``h3``) inside the page's navigation, a ``<nav>``
    element or an element with ``role="navigation"``: what HTML calls "a
    section with navigation links" (WHATWG HTML, the ``nav`` element; ARIA's
    ``navigation`` landmark). A table of contents, a pager, a breadcrumb.
    Unnamed elements are not guessed at here: names are the scorer's
    features. O(n)."""
    n = len(doc)
    tag, start = doc.tag, max(doc.body, 0)
    navs = [i for i, v in doc.attribute_values("role").items()
            if i >= start and v.strip().lower() == "navigation"]
    if "nav" in tag:
        navs += [i for i in range(start, n) if tag[i] == "nav"]
    if not navs:
        return [False] * len(blocks)
    flags = bytearray(n)
    for i in navs:
        flags[i] = 1
    inside = flagged_below(doc, bytes(flags))
    node = blocks.node
    return [inside[node[b]] and not ld_ok[b] for b in range(len(blocks))]


def named_subtrees(doc: Document, blocks: Blocks, good: Sequence[bool],
                   records: Sequence[bool] | None = None, anchors: bool = False) -> list[bool]:
    """Per element: inside a subtree whose ``id``/``class`` words start with
    a word of :data:`~temex.page.vocabulary.RULE_NOISE_PREFIXES` (not one that names the
    whole page,
    :func:`temex.page.names.part_flags`) that does not hold the anchor (the
    ``good`` block with the most non-link text, each negatively named
    ancestor dividing its weight by 4: the article body's, whatever its
    wrapper is called), nor an element of ``records`` (the page's main
    records: a name never drops them, a shop's product grid in a
    ``div.sidebar-hidden``). With ``anchors`` (site evidence: the rules
    choose), an id that is its heading's slug on a page whose headings all
    have one names no part (:func:`temex.page.names.without_anchor_ids`:
    a docs section "Literate nav syntax" is ``#literate-nav-syntax``)."""
    body = doc.body
    end = body + doc.size[body]
    # names judged once per distinct (id, classes) of the page, their counts
    # down the tree (the anchor's weight divides by 4 per named ancestor)
    # a word that names the layout the text is poured into (a page builder's
    # "elementor-widget" around every paragraph) names no part of the page
    negative = part_flags(doc, _negative_words, blocks.node, blocks.chars,
                          parts=COMMENT_SECTION_PREFIXES,
                          start=body + 1, memo=_NEGATIVE_MEMO)
    if anchors:
        negative = without_anchor_ids(doc, negative, _negative_words)
    named = ancestor_counts(doc, negative)
    anchor = anchor_element(blocks, list(good), named) if any(good) else -1
    # prefix counts of records' elements (pre-order): a subtree holds one
    # when its slice's count grows
    held = (list(accumulate(map(bool, records), initial=0)) if records is not None
            else [0] * (len(doc) + 1))
    bad = [False] * len(doc)
    # bad[i] = bad[parent[i]] or the test at i: the named elements in
    # pre-order, each passing one marks its subtree's slice and is skipped
    size = doc.size
    i = negative.find(1, body + 1, end)
    while i >= 0:
        if (not (anchor >= 0 and doc.is_ancestor(i, anchor))
                and held[i + size[i]] == held[i]):
            bad[i:i + size[i]] = [True] * size[i]
            i = negative.find(1, i + size[i], end)
        else:
            i = negative.find(1, i + 1, end)
    return bad


def rule_signals(doc: Document, blocks: Blocks, boiler: Sequence[bool],
                 params: ContentParams = ContentParams(),
                 template: Sequence[bool] | None = None,
                 masked: bool = False,
                 specific: Sequence[bool] | None = None) -> dict[str, Any]:
    """Verdicts of the rules (module docstring) for one page:
    per block ``ld_ok`` (link density below the limit, or a heading),
    ``named`` (inside a negatively named subtree), ``records`` (inside a
    teaser record), ``own`` (inside one of the page's own records),
    ``chosen_mask``; the ``region`` element, the ``title`` block (-1), the
    ``head`` blocks between title and region (:func:`~.title.head_zone_blocks`) and the
    ``chosen`` blocks. ``boiler[b]`` is the site-level verdict for block
    ``b``; ``template[b]`` (given only with site evidence) its template
    verdict, which turns the own-records rule on. ``masked`` (a template
    mask was applied: the batch path) turns on three revisions:
    the title heading's nested blocks with the zone between it and the
    main text (:func:`~.title.title_zone`), teaser lists of teasers only
    (``teaser_records(strict=True)``) and the linked lines between the
    region's kept blocks (:func:`region_gaps`). ``specific[b]``: block ``b`` is the
    page's own text for the own-records rule (default: not ``boiler``;
    :attr:`temex.content.candidates.Candidates.specific`)."""
    n = len(blocks)
    out: dict[str, Any] = {"ld_ok": [False] * n, "named": [False] * n,
                           "records": [False] * n, "own": [False] * n,
                           "chosen_mask": [False] * n,
                           "region": -1, "title": -1, "head": [], "chosen": []}
    if not n or doc.body < 0:
        return out
    node = blocks.node
    if specific is None:
        specific = [not x for x in boiler]
    ld_ok, data_rows = _link_density_verdicts(doc, blocks, params, masked)
    out["ld_ok"] = ld_ok
    good = [not boiler[b] and ld_ok[b] for b in range(n)]
    bad: list[bool] | None = None
    if params.names:
        bad = _named_verdicts(doc, blocks, good, specific, params, template)
        out["named"] = [bad[node[b]] for b in range(n)]
        good = [g and not bad[node[b]] for b, g in enumerate(good)]
    own: list[bool] | None = None
    if template is not None and params.own_records > 0:
        own = own_records(doc, blocks, specific, _anchor(doc, blocks, good),
                          params.own_records, bad)
        out["own"] = [own[node[b]] for b in range(n)]
        # a record's scaffolding (author box, date, "Reply", linked title) is
        # part of the record: only the template mask removes text from it
        good = [(not template[b]) if own[node[b]] else g for b, g in enumerate(good)]
    if params.records:
        rec = _teaser_verdicts(doc, blocks, good, params, masked, data_rows, own)
        out["records"] = [rec[node[b]] for b in range(n)]
        good = [g and not rec[node[b]] for b, g in enumerate(good)]
    neutral = _neutral_blocks(blocks, boiler, template, params, masked)
    chosen, region = rules_region(doc, blocks, good, params.penalty, neutral)
    if masked and params.gaps and chosen:
        chosen = sorted(set(chosen).union(region_gaps(doc, blocks, boiler, chosen, region,
                                                      out["named"], out["records"])))
    if params.title and chosen:
        chosen = _with_title(doc, blocks, good, chosen, region, out, template, masked)
    mask = [False] * n
    for b in chosen:
        mask[b] = True
    out.update(region=region, chosen=chosen, chosen_mask=mask)
    return out


def _link_density_verdicts(doc: Document, blocks: Blocks, params: ContentParams,
                           masked: bool) -> tuple[list[bool], frozenset[int]]:
    """Decides which blocks pass the link-density rule: per block
    :func:`link_density_ok`, and under a template mask (``masked``, with
    ``params.data_tables``) every block in a row of a table with named
    columns too: such a table is data, not navigation, and its linked cells
    (a ranking's titles, a listing's topics) are the page's. Returns the
    verdicts and those rows (:func:`~.records.headed_table_rows`; empty
    otherwise)."""
    ld_ok = link_density_ok(doc, blocks, params.max_link_density)
    data_rows = headed_table_rows(doc) if masked and params.data_tables else frozenset()
    if data_rows:
        ld_ok = [ok or r for ok, r in zip(ld_ok, in_headed_table(doc, blocks, data_rows))]
    return ld_ok, data_rows


def _named_verdicts(doc: Document, blocks: Blocks, good: list[bool], specific: Sequence[bool],
                    params: ContentParams, template: Sequence[bool] | None) -> list[bool]:
    """Decides which elements a negative name drops (:func:`named_subtrees`;
    with site evidence, ``template`` given, a heading's anchor id is no
    name). With site evidence and some of the page's own text (``specific``)
    under a name, the lists that hold most of it (a listing's rows,
    :func:`~.records.own_records`, found before any other name is read) are
    not dropped by a name. A comment thread is not the page's records
    (comments are content or not by convention: --no-comments), so the
    comment names still apply. Per element."""
    node = blocks.node
    bad = named_subtrees(doc, blocks, good, anchors=template is not None)
    if (template is not None and params.own_records > 0
            and any(bad[node[b]] and specific[b] for b in range(len(blocks)))):
        main_records = own_records(doc, blocks, specific, -1,
                                   params.own_records, comment_sections(doc))
        if any(main_records):
            bad = named_subtrees(doc, blocks, good, main_records, anchors=True)
    return bad


def _anchor(doc: Document, blocks: Blocks, good: list[bool]) -> int:
    """Decides the element the record rules keep the article by: the
    :func:`~.records.anchor_element` of the ``good`` blocks, names not
    weighed; -1 when no block is good."""
    return anchor_element(blocks, good, [0] * len(doc)) if any(good) else -1


def _teaser_verdicts(doc: Document, blocks: Blocks, good: list[bool], params: ContentParams,
                     masked: bool, data_rows: frozenset[int],
                     own: list[bool] | None) -> list[bool]:
    """Decides which elements are inside a teaser record
    (:func:`~.records.teaser_records`; under a template mask, ``masked``,
    lists of teasers only, and never a row of ``data_rows``), the page's
    own records (``own``) excepted. Per element."""
    rec = teaser_records(doc, blocks, params.records, params.max_link_density,
                         _anchor(doc, blocks, good), strict=masked, data_rows=data_rows)
    if own is not None:
        rec = [r and not o for r, o in zip(rec, own)]
    return rec


def _neutral_blocks(blocks: Blocks, boiler: Sequence[bool], template: Sequence[bool] | None,
                    params: ContentParams, masked: bool) -> list[bool] | None:
    """Decides which blocks neither grow nor shrink the region: under a
    template mask the template bounds the region, and text the page shares
    with its kind (repeated but not template: field labels, a fixed intro)
    sits inside it. None otherwise (no mask, no site evidence or
    ``params.neutral_repeats`` off)."""
    if masked and template is not None and params.neutral_repeats:
        return [bool(boiler[b]) and not template[b] for b in range(len(blocks))]
    return None


def _with_title(doc: Document, blocks: Blocks, good: list[bool], chosen: list[int], region: int,
                out: dict[str, Any], template: Sequence[bool] | None, masked: bool) -> list[int]:
    """Decides the title and the blocks it brings: the title block before the
    region (:func:`~.title.title_before`) and, with site evidence and no
    mask, the head zone between them (:func:`~.title.head_zone_blocks`), put
    first in ``chosen`` (in place) and written to ``out``'s ``title`` and
    ``head``; under a mask (``masked``), the title heading's nested blocks
    and the zone between it and the main text (:func:`~.title.title_zone`)
    added. Returns the chosen blocks."""
    title = title_before(doc, blocks, good, region)
    if title >= 0:
        head = (head_zone_blocks(doc, blocks, good, title, region)
                if template is not None and not masked else [])
        chosen[:0] = [title, *head]
        out["title"] = title
        out["head"] = head
    if masked:
        extra = title_zone(doc, blocks, good, chosen, region, template, out["ld_ok"],
                           out["named"])
        if extra:
            chosen = sorted(set(chosen) | set(extra))
    return chosen


def in_headed_table(doc: Document, blocks: Blocks, rows: Collection[int]) -> list[bool]:
    """Per block: inside one of ``rows``, the rows of the tables with column
    headers (:func:`temex.content.records.headed_table_rows`). O(n)."""
    if not rows:
        return [False] * len(blocks)
    flags = bytearray(len(doc))
    for r in rows:
        flags[r] = 1
    inside = flagged_below(doc, bytes(flags))
    return [inside[d] for d in blocks.node]


def region_gaps(doc: Document, blocks: Blocks, boiler: Sequence[bool], chosen: Sequence[int],
                region: int, named: Sequence[bool], records: Sequence[bool]) -> list[int]:
    """The page's own blocks between the first and the last kept block of
    the region that the rules left out for their links alone: neither
    repeated nor template (``boiler``), nor inside a negatively named
    subtree or a teaser record. Link density tells a menu from a paragraph,
    but inside the region, between paragraphs kept, a linked line is the
    page's: a talk's linked title on its speaker's page, a page's table of
    contents, a list of the references an article gives. Used under a
    template mask (batch, crawl), where the mask and the site's counts have
    already removed the chrome; measured in
    docs/journal/2026-11-26-crawl-linked-lines-inside-the-region.md."""
    node = blocks.node
    end = region + doc.size[region]
    inside = [b for b in chosen if region <= node[b] < end]
    if not inside:
        return []
    return [b for b in range(inside[0], inside[-1])
            if not boiler[b] and not named[b] and not records[b]]
