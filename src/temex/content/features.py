"""Features stage: what the learned scorer knows of each block.

Idea: a block is judged by generic properties of HTML pages, never by a
site's or a dataset's names: its text (size, link density, punctuation,
sentence ends, stop-word density *relative to the page's*, so that no
language is assumed), its place (depth, position), its tag and its
ancestors' tags, the ``id``/``class`` words of its ancestors (negative:
comment, share, sidebar ...; positive: article, content, post ...), the
statistics of its parent's and grandparent's subtrees, its neighbours, words
shared with the page's ``<title>``, and the verdicts of the rules
(:mod:`temex.content.rules`) as features, not decisions. With site evidence
(:data:`SITE_FEATURES`): on how many of the site's other pages its text
occurs. Stage 2 (:func:`context_features`) adds the stage-1 probabilities of
the neighbours and of the enclosing subtrees: a short line inside an article
is content, the same line in a link list is not.

Source: the shallow text features of Kohlschütter, Fankhauser and Nejdl 2010
("Boilerplate detection using shallow text features", WSDM: words, link
density, their neighbours' values) and the stacked context of Dragnet
(Peters and Lecocq 2013, "Content extraction using diverse feature sets",
WWW); the selection of features is ours (docs/CONTENT.md).

Cost: O(n + w) per page: one pre-order pass over ``<body>`` for ancestors
and names, one pass of subtree sums, one pass over the blocks' words. When
the compiled kernel runs (:mod:`temex.page.kernel`), the groups' loops run in
C (:func:`_compiled_rows`, rows as :class:`FeatureRows`, laid out by the
groups' widths); the Python groups below stay the reference and give the
same values (tests/test_kernel.py, and the layers' tests on both paths).

The columns themselves (each group's names in row order, their widths, the
tag classes, ancestor tags, stop words and name words they read) are defined
in :mod:`temex.content.feature_columns`; this module builds the rows.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, overload

from ..page import kernel
from ..page.blocks import Blocks, subtree_sums
from ..page.dom import HEADING_TAGS, Document
from ..page.names import NameMemo, ancestor_counts, flagged_below, name_flags, part_flags
from ..page.tokens import tokens
from ..page.vocabulary import COMMENT_SECTION_PREFIXES
from .feature_columns import (
    _ANC,
    _ANC_BITS,
    _STOP,
    _TAGS,
    CONTEXT_FEATURES,
    FEATURES,
    SITE_FEATURES,
    WIDTHS,
    _comment_like,
    _positive,
    _tag_index,
    _tagclass,
    negative_words,
)
from .records import RecordLists, record_lists
from .text import _data_table  # the Markdown writer's table test: one definition
from .title import page_title_text

__all__ = ["CONTEXT_FEATURES", "FEATURES", "FeatureRows", "SITE_FEATURES",
           "block_features", "context_features", "logit"]

_ASCII_DIGIT = re.compile(r"[0-9]")

# the name verdicts of these three, remembered across pages (page.names)
_NEGATIVE_MEMO: NameMemo = {}
_POSITIVE_MEMO: NameMemo = {}
_COMMENT_MEMO: NameMemo = {}


_Rows = list[list[float]]


class FeatureRows(Sequence[list[float]]):
    """The feature rows of a page as the kernel makes them: one flat
    ``array('d')``, row after row, ``width`` values each. Reads as a
    sequence of lists (the pure path's rows; equal to them), and the
    compiled scorer reads the array itself, with no Python float per
    value."""

    __slots__ = ("values", "width")

    def __init__(self, values: Any, width: int) -> None:
        self.values, self.width = values, width

    def __len__(self) -> int:
        return len(self.values) // self.width if self.width else 0

    @overload
    def __getitem__(self, i: int) -> list[float]: ...
    @overload
    def __getitem__(self, i: slice) -> list[list[float]]: ...

    def __getitem__(self, i: int | slice) -> list[float] | list[list[float]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("row index out of range")
        w = self.width
        return self.values[i * w:(i + 1) * w].tolist()  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FeatureRows):
            return self.width == other.width and self.values == other.values
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        """The rows as a numpy matrix (the training script's)."""
        import numpy

        m = numpy.frombuffer(self.values, dtype=float).reshape(len(self), self.width).copy()
        return m if dtype is None else m.astype(dtype)


@dataclass
class _Page:
    """What several feature groups read of one page, computed once."""

    doc: Document
    blocks: Blocks
    parent_of: list[int]      # per block: the parent element (body for body)
    gparent_of: list[int]     # per block: the grandparent element
    sc: list[float]           # subtree sums: characters, link characters, blocks
    sl: list[float]
    sb: list[float]
    total: float              # characters of the page (at least 1)
    page_ld: float
    texts: list[str]          # per block: its text
    words: list[list[str]]    # per block: its lower-cased words
    sentences: list[int]      # per block: sentence ends


def _page(doc: Document, blocks: Blocks) -> _Page:
    n = len(blocks)
    body, parent = doc.body, doc.parent
    sc, sl, sb = subtree_sums(doc, blocks, blocks.chars, blocks.link_chars, [1] * n)
    total = max(1, sc[body])
    par = [parent[d] if d != body else body for d in blocks.node]
    gpar = [parent[p] if p != body else body for p in par]
    btext, words = blocks.joined, blocks.words
    sent = []
    for s in btext:
        ends = s.rstrip()[-1:] in (".", "!", "?", ":", '"', "\u201d")
        sent.append(s.count(". ") + s.count("? ") + s.count("! ") + ends)
    return _Page(doc, blocks, par, gpar, sc, sl, sb, total, sl[body] / total, btext, words,
                 sent)


def _text_rows(pg: _Page) -> _Rows:
    """:data:`TEXT_FEATURES`: the block's text, depth and position."""
    doc, blocks = pg.doc, pg.blocks
    n, chars, lchars = len(blocks), blocks.chars, blocks.link_chars
    body, depth = doc.body, doc.depth
    maxdepth = max([1, *(depth[i] for i in range(body, body + doc.size[body]))])
    bdepth = depth[body]
    is_stop = _STOP.__contains__
    stop_rates = [sum(map(is_stop, ws)) / len(ws) if ws else 0.0 for ws in pg.words]
    wsum = sum(chars) or 1
    page_stop = sum(r * c for r, c in zip(stop_rates, chars)) / wsum
    total = pg.total
    out: _Rows = []
    before = 0
    for b in range(n):
        c, s, ws = chars[b], pg.texts[b], pg.words[b]
        nw = len(ws)
        # counts by str.count and a C-level map: the same integers as a
        # generator over the characters, at a fraction of the cost
        punct = (s.count(".") + s.count(",") + s.count(";") + s.count(":") + s.count("!")
                 + s.count("?"))
        ends = s.rstrip()[-1:] in (".", "!", "?", ":", '"', "\u201d")
        # on ASCII text str.isdigit is [0-9]: one C scan instead of a call per character
        digits = len(_ASCII_DIGIT.findall(s)) if s.isascii() else sum(map(str.isdigit, s))
        out.append([1.0, math.log1p(c), math.log1p(c - lchars[b]),
                    lchars[b] / c if c else 0.0, math.log1p(nw),
                    (sum(map(len, ws)) / nw) if nw else 0.0,
                    stop_rates[b] - page_stop, punct / c if c else 0.0,
                    min(pg.sentences[b], 10) / 10.0, float(ends), digits / c if c else 0.0,
                    float(s[:1].isupper()), s.count(",") / max(1, nw),
                    float("|" in s or "\u2022" in s or "\u00bb" in s),
                    (depth[blocks.node[b]] - bdepth) / max(1, maxdepth - bdepth),
                    before / total, (before / total) ** 2, b / n, float(c < 20),
                    float(c > 400)])
        before += c
    return out


def _tag_rows(pg: _Page) -> _Rows:
    """:data:`TAG_FEATURES`: the block element's tag, one-hot."""
    tag = pg.doc.tag
    vec: dict[str, list[float]] = {}  # one row per value, shared
    out: _Rows = []
    for d in pg.blocks.node:
        tc = _tagclass(tag[d])
        v = vec.get(tc)
        if v is None:
            v = vec[tc] = [float(tc == x) for x in _TAGS]
        out.append(v)
    return out


def _ancestors(doc: Document, blocks: Blocks
               ) -> tuple[list[int], list[int], list[int], list[bool], list[bool], list[bool]]:
    """Per element of ``<body>``: the bitmask of :data:`_ANC` ancestors-or-self,
    the counts of negatively and positively named ancestors-or-self, a
    positive name on it or its parent, its own negative name, and whether it
    is inside an element named like a comment section. Negative words that
    name the layout the page's text is poured into
    (:func:`temex.page.names.part_flags`) do not count."""
    nn = len(doc)
    tag, parent = doc.tag, doc.parent
    body = doc.body
    bit = {t: 1 << k for k, t in enumerate(_ANC)}
    anc = [0] * nn
    for i in range(body, body + doc.size[body]):
        key = "h" if tag[i] in HEADING_TAGS else tag[i]
        anc[i] = (anc[parent[i]] if i != body else 0) | bit.get(key, 0)
    # (negative, positive, comment) name verdicts once per distinct id/class
    # set of the page (page.names), their counts down the tree
    neg, pos, comm_named = _name_flags(doc, blocks)
    negc, posc = ancestor_counts(doc, neg), ancestor_counts(doc, pos)
    comm = flagged_below(doc, comm_named)
    negself = [bool(x) for x in neg]
    posn = [False] * nn
    for i in range(body, body + doc.size[body]):
        posn[i] = bool(pos[i]) or (i != body and bool(pos[parent[i]]))
    return anc, negc, posc, posn, negself, comm


def _name_flags(doc: Document, blocks: Blocks) -> tuple[bytes, bytes, bytes]:
    """Per element: a negative name (less the page's layout words,
    :func:`temex.page.names.part_flags`), a positive one, a comment-like
    one; each pair judged once across pages (the memos above)."""
    return (part_flags(doc, negative_words, blocks.node, blocks.chars,
                       parts=COMMENT_SECTION_PREFIXES,
                       memo=_NEGATIVE_MEMO),
            name_flags(doc, _positive, memo=_POSITIVE_MEMO),
            name_flags(doc, _comment_like, memo=_COMMENT_MEMO))


def _ancestor_rows(pg: _Page, anc: list[int]) -> _Rows:
    """:data:`ANCESTOR_FEATURES`: which of :data:`_ANC` enclose the block."""
    bit = {t: 1 << k for k, t in enumerate(_ANC)}
    vec: dict[int, list[float]] = {}
    out: _Rows = []
    for d in pg.blocks.node:
        m = anc[d]
        v = vec.get(m)
        if v is None:
            v = vec[m] = [float(bool(m & bit[x])) for x in _ANC]
        out.append(v)
    return out


def _name_rows(pg: _Page, negc: list[int], posc: list[int], posn: list[bool],
               negself: list[bool]) -> _Rows:
    """:data:`NAME_FEATURES`: negative and positive ``id``/``class`` words of
    the block's ancestors (counts up to 3), on itself or its parent."""
    return [[min(negc[d], 3) / 3.0, float(negself[d] or negself[p]), min(posc[d], 3) / 3.0,
             float(posn[d])] for d, p in zip(pg.blocks.node, pg.parent_of)]


def _subtree_rows(pg: _Page) -> _Rows:
    """:data:`SUBTREE_FEATURES`: size, link density, number of blocks, share
    of the page and mean block size of the parent's and grandparent's
    subtrees."""
    sc, sl, sb, total = pg.sc, pg.sl, pg.sb, pg.total
    vec: dict[int, list[float]] = {}
    out: _Rows = []
    for p, gp in zip(pg.parent_of, pg.gparent_of):
        row: list[float] = []
        for a in (p, gp):
            v = vec.get(a)
            if v is None:
                v = vec[a] = [math.log1p(sc[a]), sl[a] / sc[a] if sc[a] else 0.0,
                              math.log1p(sb[a]), sc[a] / total,
                              math.log1p(sc[a] / max(1, sb[a]))]
            row += v
        out.append(row)
    return out


def _neighbour_rows(pg: _Page) -> _Rows:
    """:data:`NEIGHBOUR_FEATURES`: the previous and next blocks' link density
    and size, and whether the previous one is a heading."""
    blocks, tag = pg.blocks, pg.doc.tag
    n, chars, lchars, nd_of = len(blocks), blocks.chars, blocks.link_chars, blocks.node
    out: _Rows = []
    for b in range(n):
        prev = b - 1 if b > 0 else -1
        nxt = b + 1 if b + 1 < n else -1
        out.append([lchars[prev] / chars[prev] if prev >= 0 else 0.0,
                    lchars[nxt] / chars[nxt] if nxt >= 0 else 0.0,
                    math.log1p(chars[prev]) if prev >= 0 else 0.0,
                    math.log1p(chars[nxt]) if nxt >= 0 else 0.0,
                    float(prev >= 0 and tag[nd_of[prev]] in HEADING_TAGS),
                    math.log1p(chars[nxt] - lchars[nxt]) if nxt >= 0 else 0.0])
    return out


def _rule_rows(pg: _Page, rule: dict[str, Any]) -> _Rows:
    """:data:`RULE_FEATURES`: the rules' verdicts (:func:`temex.content.rules.rule_signals`
    without site evidence), the share of the page in their region, the
    page's size and link density."""
    doc = pg.doc
    region = rule["region"]
    region_end = region + doc.size[region] if region >= 0 else 0
    region_share = pg.sc[region] / pg.total if region >= 0 else 0.0
    log_total = math.log1p(pg.total)
    ld_ok, named, records, chosen = (rule["ld_ok"], rule["named"], rule["records"],
                                     rule["chosen_mask"])
    title = rule["title"]
    return [[float(ld_ok[b]), float(named[b]), float(records[b]),
             float(region >= 0 and region <= d < region_end), float(chosen[b]),
             float(b == title), region_share, log_total, pg.page_ld]
            for b, d in enumerate(pg.blocks.node)]


def _landmark_rows(pg: _Page, comm: list[bool]) -> _Rows:
    """:data:`LANDMARK_FEATURES`: words shared with the ``<title>``, the
    first ``h1`` and what follows it, a comment section around the block."""
    doc, blocks = pg.doc, pg.blocks
    tag, nd_of = doc.tag, blocks.node
    title_words = _title_words(doc)
    first_h1 = next((b for b in range(len(blocks)) if tag[nd_of[b]] == "h1"), -1)
    out: _Rows = []
    for b, ws in enumerate(pg.words):
        nw = len(ws)
        tw = sum(map(title_words.__contains__, ws)) / nw if nw and title_words else 0.0
        out.append([tw, float(tw > 0.8 and nw >= 2 and nw * 2 >= len(title_words) * 0.5),
                    float(first_h1 >= 0 and b >= first_h1), float(comm[nd_of[b]]),
                    float(b == first_h1)])
    return out


def _title_words(doc: Document) -> set[str]:
    """The lower-cased words of the page's ``<title>`` (before ``<body>``),
    cut as a block's (:func:`temex.page.tokens.tokens`)."""
    return set(tokens(page_title_text(doc)))


def block_lists(doc: Document, blocks: Blocks) -> tuple[list[int], list[int]]:
    """Per block: its record list and its record element (-1: none), from
    :func:`temex.content.records.record_lists` (cached on the page: stage 1
    and stage 2 both read it)."""
    cached = doc.__dict__.get("_block_lists")
    if cached is not None and cached[0] is blocks:
        return cached[1]  # type: ignore[no-any-return]
    rl: RecordLists = record_lists(doc, blocks)
    out = ([rl.list_of[d] for d in blocks.node], [rl.record_of[d] for d in blocks.node])
    doc.__dict__["_block_lists"] = (blocks, out)
    return out


def _record_rows(pg: _Page) -> _Rows:
    """:data:`RECORD_FEATURES`: the block's record list (a list of alike
    records: posts, rows, products, teasers, comments): its share of the
    page's characters and of its non-link characters, its number of records,
    link density, whether it holds the page's longest non-link text (a
    thread's first post, not a comment list under an article), the largest
    record's share of the list, whether the block is in the first record,
    and the share of the page in lists at all and in the block's record."""
    blocks = pg.blocks
    chars, lchars = blocks.chars, blocks.link_chars
    lists, recs = block_lists(pg.doc, blocks)
    nl = max(lists, default=-1) + 1
    lc, ll = [0.0] * nl, [0.0] * nl
    rc: dict[int, float] = {}
    first: dict[int, int] = {}
    for b, k in enumerate(lists):
        if k >= 0:
            lc[k] += chars[b]
            ll[k] += lchars[b]
            rc[recs[b]] = rc.get(recs[b], 0.0) + chars[b]
            first.setdefault(k, recs[b])
    nrec = [0] * nl
    rmax = [0.0] * nl
    for b, k in enumerate(lists):
        if k >= 0 and (b == 0 or recs[b - 1] != recs[b]):
            nrec[k] += 1
            rmax[k] = max(rmax[k], rc[recs[b]])
    text = [c - x for c, x in zip(chars, lchars)]
    anchor = max(range(len(blocks)), key=text.__getitem__) if len(blocks) else -1
    total, total_text = pg.total, max(1, sum(text))
    in_lists = sum(lc) / total
    out: _Rows = []
    for b, k in enumerate(lists):
        if k < 0:
            out.append([0.0] * 9 + [in_lists])
            continue
        out.append([1.0, lc[k] / total, (lc[k] - ll[k]) / total_text, math.log1p(nrec[k]),
                    ll[k] / lc[k] if lc[k] else 0.0, float(anchor >= 0 and lists[anchor] == k),
                    rmax[k] / lc[k] if lc[k] else 0.0, float(first[k] == recs[b]), in_lists,
                    rc[recs[b]] / total])
    return out


_CODE_SYMS = re.compile(r"[{}\[\]();=<>/\\_$#*&|+]")


def _kind_rows(pg: _Page, anc: list[int]) -> _Rows:
    """:data:`KIND_FEATURES`: the share of code symbols in the block's text
    (brackets, ``=``, ``;``), whether it is in a data table (no block
    element other than its cells inside) and that table's share of the
    page."""
    doc, blocks = pg.doc, pg.blocks
    tag, parent, body = doc.tag, doc.parent, doc.body
    table_bit = 1 << _ANC.index("table")
    tables: dict[int, tuple[bool, float]] = {}
    out: _Rows = []
    for b, d in enumerate(blocks.node):
        s = pg.texts[b]
        c = blocks.chars[b]
        syms = len(_CODE_SYMS.findall(s)) / c if c else 0.0
        dt, share = False, 0.0
        if anc[d] & table_bit:
            t = d
            while t > body and tag[t] != "table":
                t = parent[t]
            v = tables.get(t)
            if v is None:
                v = tables[t] = (_data_table(doc, t), pg.sc[t] / pg.total)
            dt, share = v
        out.append([syms, float(dt), share])
    return out


def _site_rows(pg: _Page, site: dict[str, Any]) -> _Rows:
    """:data:`SITE_FEATURES`: on how many of the site's other pages the
    block's text occurs, the rules' verdicts with that evidence, and the
    page's share of repeated text."""
    doc, blocks = pg.doc, pg.blocks
    chars, lchars = blocks.chars, blocks.link_chars
    pages, sdf, sr = site["pages"], site["df"], site["rule"]
    rep_share = sum(c for c, k in zip(chars, sdf) if k >= 1) / pg.total
    long_c = sum(c for c in chars if c >= 150)
    long_rep_share = (sum(c for c, k in zip(chars, sdf) if k >= 1 and c >= 150) / long_c
                      if long_c else 0.0)
    sreg = sr["region"]
    sreg_end = sreg + doc.size[sreg] if sreg >= 0 else 0
    out: _Rows = []
    for b, d in enumerate(blocks.node):
        c, df = chars[b], sdf[b]
        ld = lchars[b] / c if c else 0.0
        out.append([min(pages, 20) / 20.0, float(df >= 1), df / pages if pages else 0.0,
                    float(df >= 2 or (df >= 1 and c < 100)), float(sr["chosen_mask"][b]),
                    float(sreg >= 0 and sreg <= d < sreg_end), rep_share, long_rep_share,
                    float(df >= 1 and c >= 150 and ld < 0.3 and pg.sentences[b] >= 2)])
    return out


def block_features(doc: Document, blocks: Blocks, rule: dict[str, Any],
                   site: dict[str, Any] | None = None) -> Sequence[list[float]]:
    """Feature vectors of the blocks of ``doc`` (:data:`FEATURES`, then
    :data:`SITE_FEATURES` when ``site`` is given). ``rule``: the masks of
    :func:`temex.content.rules.rule_signals` without site evidence; ``site``:
    ``pages`` (number of other pages), ``df`` (per block, other pages holding
    its text), ``rule`` (the rule masks with site evidence). Compiled when
    the kernel runs (:func:`_compiled_rows`): the same rows, as
    :class:`FeatureRows`."""
    k = kernel.get()
    if k is not None and doc.body >= 0 and len(blocks):
        return _compiled_rows(k, doc, blocks, rule, site)
    pg = _page(doc, blocks)
    anc, negc, posc, posn, negself, comm = _ancestors(doc, blocks)
    groups = [_text_rows(pg), _tag_rows(pg), _ancestor_rows(pg, anc),
              _name_rows(pg, negc, posc, posn, negself), _subtree_rows(pg),
              _neighbour_rows(pg), _rule_rows(pg, rule), _landmark_rows(pg, comm),
              _record_rows(pg), _kind_rows(pg, anc)]
    if site is not None:
        groups.append(_site_rows(pg, site))
    return [list(chain.from_iterable(parts)) for parts in zip(*groups)]


#: Per tag seen: the index of its class in :data:`_TAGS` (filled by the kernel
#: through :func:`_tag_index`; a page repeats its tags).
_TAG_INDEX: dict[str, int] = {}


def _compiled_rows(k: Any, doc: Document, blocks: Blocks, rule: dict[str, Any],
                   site: dict[str, Any] | None) -> FeatureRows:
    """:func:`block_features` by the kernel (``temex.content._kernel.feature_rows``):
    the per-element and per-block loops of every group in C, from the same
    inputs as the pure path (subtree sums, name flags, record lists; checked
    equal on every shared page by ``bench/probes/kernel_identity.py`` and the
    tests)."""
    n = len(blocks)
    sc, sl, sb = subtree_sums(doc, blocks, blocks.chars, blocks.link_chars, [1] * n)
    neg, pos, comm = _name_flags(doc, blocks)
    lists, recs = block_lists(doc, blocks)
    masks = (rule["ld_ok"], rule["named"], rule["records"], rule["chosen_mask"],
             rule["region"], rule["title"])
    evidence = None if site is None else (site["pages"], site["df"],
                                          site["rule"]["chosen_mask"], site["rule"]["region"])
    width = len(FEATURES) + (len(SITE_FEATURES) if site is not None else 0)
    return FeatureRows(k.feature_rows(
        doc.tag, doc.parent, doc.size, doc.depth, doc.body, blocks.node, blocks.chars,
        blocks.link_chars, blocks.joined, blocks.words, sc, sl, sb, _ANC_BITS, _TAG_INDEX,
        _tag_index, WIDTHS, _ANC.index("table"), neg, pos, comm, _STOP,
        _title_words(doc), masks, lists, recs, lambda t: _data_table(doc, t), evidence), width)


def context_features(doc: Document, blocks: Blocks, s1: Sequence[float],
                     lists: tuple[Sequence[int], Sequence[int]] | None = None
                     ) -> list[list[float]]:
    """Stage-2 features (:data:`CONTEXT_FEATURES`) from stage-1 probabilities;
    ``lists``: per block its record list and record (:func:`block_lists`,
    computed when not given). Compiled when the kernel runs
    (``temex.content._kernel.context_rows``): the same rows."""
    n = len(blocks)
    lk, rk = lists if lists is not None else block_lists(doc, blocks)
    k = kernel.get()
    if k is not None and doc.body >= 0 and n:
        chars = blocks.chars
        ws, cs = subtree_sums(doc, blocks, [p * c for p, c in zip(s1, chars)], chars)
        return k.context_rows(list(s1), chars, blocks.node,  # type: ignore[no-any-return]
                              doc.parent, doc.body, len(doc), list(lk), list(rk), ws, cs)
    lw: dict[int, list[float]] = {}
    rw: dict[int, list[float]] = {}
    for b in range(n):
        if lk[b] >= 0:
            w = s1[b] * blocks.chars[b]
            x = lw.setdefault(lk[b], [0.0, 0.0])
            x[0] += w
            x[1] += blocks.chars[b]
            x = rw.setdefault(rk[b], [0.0, 0.0])
            x[0] += w
            x[1] += blocks.chars[b]
    nd_of, chars = blocks.node, blocks.chars
    parent, body = doc.parent, doc.body
    ws, cs = subtree_sums(doc, blocks, [p * c for p, c in zip(s1, chars)], chars)
    page = ws[body] / cs[body] if cs[body] else 0.0
    out: list[list[float]] = []
    for b in range(n):
        d = nd_of[b]
        p = parent[d] if d != body else body
        gp = parent[p] if p != body else body
        ggp = parent[gp] if gp != body else body
        lo, hi = max(0, b - 2), min(n, b + 3)
        wc = sum(chars[lo:hi])  # slices: the same sums, in the same order
        win = sum(map(operator.mul, s1[lo:hi], chars[lo:hi])) / wc if wc else 0.0
        out.append([logit(s1[b]), s1[b - 1] if b else 0.0, s1[b + 1] if b + 1 < n else 0.0,
                    ws[p] / cs[p] if cs[p] else 0.0, ws[gp] / cs[gp] if cs[gp] else 0.0,
                    ws[ggp] / cs[ggp] if cs[ggp] else 0.0, win, page,
                    _ratio(lw[lk[b]]) if lk[b] >= 0 else s1[b],
                    _ratio(rw[rk[b]]) if lk[b] >= 0 else s1[b]])
    return out


def _ratio(x: list[float]) -> float:
    return x[0] / x[1] if x[1] else 0.0


def logit(p: float) -> float:
    """log(p / (1 − p)), p clipped to [1e-6, 1 − 1e-6]."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))
