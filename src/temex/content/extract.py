"""Main content of a page: its non-template part, narrowed to the main block.

temex knows a site's template (TeMex paper §1.1: the template has "regions
where the main content must be inserted"); what remains of a page after the
template is removed is its own part. That part may still hold per-page noise:
user comments, per-page "related links" boxes, share bars, tag lists. This
module keeps the page's *main content*: the blocks (:mod:`temex.page.blocks`) that
survive site-level evidence, inside the region that page-level evidence marks
as the main block.

Since issue 10 the blocks are *chosen* by a learned scorer
(:mod:`temex.content.scorer`): the signals below are computed by
:func:`rule_signals` and enter it as features, together with generic block
features; the page model is used when no other page of the site is known, the
site model when a :class:`SiteIndex` holds one other page. With a template mask
the rules below choose (site evidence is what they were built on; measured in
docs/CONTENT.md), and so they do with ``ContentParams(scorer=False)``. With at
least ``site_rules_min`` = 2 other pages and no template mask (folder mode) the
page model's choice less the site's repeated text is kept, and the rules'
blocks are added where it keeps under ``site_page`` of their characters
(:func:`site_page_blocks`).

Signals and weights (chosen on the development data in
``/work/shared/data/content`` only, never per site; measured in
docs/CONTENT.md)

Site level
    *Template* — a block whose element is a template node of a fitted
    :class:`~temex.template.model.TemplateModel` (ETDM/TeMex) is boilerplate.
    *Repeated text* — a block whose normalised text (:func:`temex.page.blocks.norm_key`)
    occurs on at least ``repeat_min`` = 1 other page of the site is boilerplate
    (menus, footers, "Advertisement", section names), and a block of
    ``long_block`` = 100 characters or more must occur on 2 other pages (a
    paragraph quoted as a teaser elsewhere, a page saved twice). This is the text-equality
    evidence of :mod:`temex.template.detectors` without the mapping, so it can be
    applied to any page of a site in O(n) once the site's block texts are
    counted, :class:`SiteIndex`). With a template mask the mask already
    removes the site-wide chrome, and repeated text must occur on at least
    ``repeat_share`` = 0.3 of the site's other pages (7 of 23): text on a few
    of them is more often the page's own (a teaser, a product variant's
    description, a user name) than chrome. The page's first ``h1`` is never
    repeated text when its text is part of the page's ``<title>``: a site's
    menus list its pages' titles, so every page's own heading is "repeated".
    *Own records* — with site evidence, a list of at least 3 sibling records
    of one scaffolding (same tag and classes, similar descendants), whose
    text is mostly page-specific, is the page's own (issue 9, cause 3; the
    gold convention of the shared sites: posts of a topic, rows of a listing,
    products of a category are content) when it holds the anchor (the first
    post of a topic) or when the page's lists together hold at least
    ``own_records`` = 0.5 of its page-specific text (a listing page). Every
    block of such a record is kept unless the template mask removes it: the
    author box, dates, "Reply" and linked titles are part of the record, so
    the repeated-text, link-density, names and teaser-record verdicts do not
    apply inside it. Lists inside negatively named subtrees (comments,
    related items) are never own.
Page level
    *Link density* — a block with more than ``max_link_density`` = 0.5 of
    its characters inside ``<a>`` is boilerplate (Kohlschütter et al. 2010,
    "Boilerplate detection using shallow text features"), except headings
    ``h1``–``h3`` (linked titles).
    *Region* — each block weighs its character count, ``+1`` per character
    when kept, ``-penalty`` = 1 per character when boilerplate; the main
    block is the element whose subtree has the largest total weight
    (a maximum-weight subtree, the tree analogue of the densest region of
    Finn et al. 2001's body-text extraction). Only kept blocks inside it are
    output.
    *Records* — a block inside a *teaser record* is boilerplate: one of at
    least 3 same-tag siblings holding at least 2 blocks, one of them mostly
    link text (linked title or author name), and fewer than ``records`` = 400
    characters (related-story lists, comment threads), unless it holds the
    anchor (below).
    *Names* — a subtree whose ``id``/``class`` words start with a word of
    :data:`NEGATIVE_NAMES` (comments, related links, share bars, sidebars,
    widgets ...) is boilerplate, unless it contains the *anchor*, the kept
    block with the most non-link text, each negatively named ancestor
    dividing its weight by 4 (classes ``js-*`` are script hooks and ignored):
    it is the article body's, whatever its wrapper is called
    (``<body class="has-sidebar">``).
    *Title* — the page's main heading (the first kept ``h1``, else ``h2``,
    outside the region but before it) is added in front of it: content
    regions of news sites often start below the headline. With a template
    mask (the batch path, issue 11), every kept block of that heading
    element is added (a title wrapped in nested ``div``s, with its
    tagline), and so is what lies between the heading and the main block
    unless the template mask, link density or a negative name removes it
    (:func:`_title_zone`: byline, date, maintainer line, even when repeated
    text); the siblings of a teaser record must be teasers too
    (:func:`_records`).
    *Head zone* — with the site's repeated text but no template mask
    (folder mode), the kept blocks between the title and the region are
    added (:func:`_head_zone`: a product's price and stock lines, a byline;
    the main-text twin of the detector's head zone; docs/CONTENT.md).

Cost: O(n) per page once the site's block texts are counted.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..page.blocks import Blocks, heaviest_subtree, norm_key, page_blocks, subtree_sums
from ..page.dom import Document
from ..template.model import TemplateModel
from ..template.saved import SavedTemplate, text_mask
from ..template.site_index import SiteIndex
from .metadata import front_matter as metadata_front_matter
from .metadata import page_metadata
from .text import markdown_text, text_lines

__all__ = ["ContentParams", "Content", "extract_content", "main_content", "select_blocks",
           "rule_signals", "repeated_text", "site_page_blocks",
           "content_text", "content_markdown", "content_html", "content_json", "NEGATIVE_NAMES"]

#: Word prefixes of ``id``/``class`` values that mark per-page noise.
NEGATIVE_NAMES = ("comment", "disqus", "respond", "reply", "share", "sharing", "social",
                  "related", "sidebar", "widget", "promo", "sponsor", "advert", "breadcrumb",
                  "cookie", "newsletter", "subscribe", "popup", "modal", "footer", "nav",
                  "menu", "tags", "tagcloud", "trackback", "pingback", "recommend", "outbrain",
                  "taboola", "yarpp", "most-popular", "mostpopular")
_NAME_SPLIT = re.compile(r"[^a-z]+")
_HEADINGS = frozenset({"h1", "h2", "h3"})


@dataclass(frozen=True)
class ContentParams:
    """Weights of :mod:`temex.content.extract` (see the module docstring)."""

    repeat_min: int = 1
    max_link_density: float = 0.5
    penalty: float = 1.0
    names: bool = True
    records: int = 400
    long_block: int = 100
    title: bool = True
    #: Choose blocks with the learned scorer (:mod:`temex.content.scorer`);
    #: False: by the rules alone (the verdicts above).
    scorer: bool = True
    #: With the scorer and at least 3 other pages of the site: a block whose text
    #: occurs on this share of them is template whatever the scorer says.
    site_share: float = 0.8
    #: Pages with less visible text than this (characters) are too small for a
    #: statistical choice: the rules choose.
    small_page: int = 400
    #: With a template mask, or a site index holding at least this many other
    #: pages of the site, the rules with site evidence choose (the site model
    #: of the scorer is used with fewer): they were built on site evidence,
    #: and the scorer's site model, trained on news and blog pages, drops
    #: whole articles of documentation sites. Measured on the seven shared
    #: sites (site index of 24 pages, token F1 of the main text): rules 0.985
    #: / 0.988 on the two documentation sites against 0.728 / 0.801 for the
    #: scorer, equal or better on four of the other five, 0.003 lower on one
    #: (docs/CONTENT.md). Without a template mask their choice is combined
    #: with the page level's (``site_page``).
    site_rules_min: int = 2
    #: Page level (no site evidence): when the scorer keeps fewer than this
    #: share of the characters the rules keep, the rules choose. The scorer,
    #: trained on news and blog pages, collapses on pages unlike them (it kept
    #: a fraction of documentation articles); a choice far smaller than the
    #: rules' dense region is that failure, not a finer cut. Measured on the
    #: four content datasets and 40 pages of each shared site (docs/CONTENT.md,
    #: "Page level: the rules as a fallback"): 0.3 changes no dataset by more
    #: than +0.001 and lifts the documentation sites by 0.09-0.20; 0 turns it off.
    page_fallback: float = 0.3
    #: Site level without a template mask (``site_rules_min`` other pages or
    #: more): the page scorer's choice less the site's repeated text, unless
    #: it keeps less than this share of the characters the rules keep; then
    #: the rules' blocks and the scorer's together (:func:`site_page_blocks`).
    #: 0: the rules alone, as before. Chosen leaving one group out over the
    #: four content datasets (grouped CV) and the seven shared sites
    #: (``bench/bench_site_page.py``, docs/CONTENT.md): no content dataset
    #: below its page level, then the best worst margin over the rules.
    site_page: float = 0.85
    #: Own record lists (site evidence only): lists of at least 3 sibling
    #: records are the page's own (posts of a topic, rows of a listing,
    #: products of a category) when one holds the anchor (that one) or when
    #: together they hold at least this share of the page's text not repeated
    #: on other pages (all of them); 0 turns the rule off. Chosen leaving one
    #: site out (docs/CONTENT.md).
    own_records: float = 0.5
    #: With a template mask, repeated text needs ``max(repeat_min,
    #: ceil(repeat_share * k))`` of the site's k other pages: the mask already
    #: removes the site-wide chrome, and text on a few of 23 other pages is
    #: more often the page's own (a teaser, a product variant's description,
    #: a user name) than chrome. Chosen leaving one site out (docs/CONTENT.md).
    repeat_share: float = 0.3
    #: The page's first ``h1``, when its text is part of the ``<title>``, is
    #: never repeated text (:func:`_title_block`).
    own_title: bool = True


@dataclass
class Content:
    """The main content of one page.

    Attributes
    ----------
    doc : Document
    blocks : Blocks
    chosen : list of int
        Indices of the kept blocks, in document order.
    region : int
        The main block's element (-1 when nothing was kept).
    reason : str
        Why the result is empty, or "".
    stats : dict
    """

    doc: Document | None
    blocks: Blocks | None
    chosen: list[int]
    region: int = -1
    reason: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def keep_mask(self) -> list[bool]:
        """Elements whose own text belongs to a kept block."""
        assert self.doc is not None and self.blocks is not None
        chosen = set(self.chosen)
        return [b in chosen for b in self.blocks.block_of]

    def lines(self) -> list[str]:
        """Kept text in document order, one line per block element; text
        placed directly in a container between its block children is a line
        of its own, at its place (:func:`temex.content.render.text_lines`)."""
        if self.doc is None or self.blocks is None or not self.chosen:
            return []

        return text_lines(self.doc, self.keep_mask(), markdown=False)

    def text(self) -> str:
        """One block per line (the format of the gold files)."""
        return "\n".join(self.lines())

    def markdown(self, front_matter: bool = False) -> str:
        """Kept text as Markdown (headings, lists, tables, code, quotes,
        links and images absolute); with ``front_matter``, the page's
        metadata first as YAML front matter (:mod:`temex.content.metadata`)."""
        head = ""
        if front_matter and self.doc is not None:
            head = metadata_front_matter(self.metadata(), self.doc.url)
        if self.doc is None or self.blocks is None or not self.chosen:
            return head

        return head + markdown_text(self.doc, self.keep_mask())

    def metadata(self) -> dict[str, Any]:
        """The page's metadata (:func:`temex.content.metadata.page_metadata`)."""
        if self.doc is None:
            return {}
        return page_metadata(self.doc)

    def html(self) -> str:
        """HTML of the kept blocks' elements, one per line (a block element
        nested in a kept block is output once, with its parent)."""
        if self.doc is None or self.blocks is None:
            return ""
        doc, out, last_end = self.doc, [], -1
        for b in self.chosen:
            node = self.blocks.node[b]
            if node < last_end:
                continue
            out.append(doc.elements[node].html or "")
            last_end = node + doc.size[node]
        return "\n".join(out)

    def report(self) -> dict[str, Any]:
        d = self.doc
        return {"page": d.url if d else None, "empty": not self.chosen,
                "reason": self.reason, "blocks": len(self.blocks) if self.blocks else 0,
                "kept_blocks": len(self.chosen),
                "region": d.path(self.region) if d is not None and self.region >= 0 else None,
                "metadata": self.metadata(), "text": self.text(), **self.stats}


def _negative_name(doc: Document, i: int) -> bool:
    if not doc.id[i] and not doc.classes[i]:
        return False
    for value in (doc.id[i], *doc.classes[i]):
        low = value.lower()
        if low.startswith("js-"):  # behaviour hooks, not names of a part
            continue
        for word in _NAME_SPLIT.split(low):
            if word and word.startswith(NEGATIVE_NAMES):
                return True
        if "most-popular" in low:
            return True
    return False


def rule_signals(doc: Document, blocks: Blocks, boiler: Sequence[bool],
                 params: ContentParams = ContentParams(),
                 template: Sequence[bool] | None = None,
                 masked: bool = False) -> dict[str, Any]:
    """Verdicts of the rules of this module (module docstring) for one page:
    per block ``ld_ok`` (link density below the limit, or a heading),
    ``named`` (inside a negatively named subtree), ``records`` (inside a
    teaser record), ``own`` (inside one of the page's own records),
    ``chosen_mask``; the ``region`` element, the ``title`` block (-1), the
    ``head`` blocks between title and region (:func:`_head_zone`) and the
    ``chosen`` blocks. ``boiler[b]`` is the site-level verdict for block
    ``b``; ``template[b]`` (given only with site evidence) its template
    verdict, which turns the own-records rule on. ``masked`` (a template
    mask was applied: the batch path, issue 11) turns on two revisions:
    the title heading's nested blocks with the zone between it and the
    main text (:func:`_title_zone`), and teaser
    lists of teasers only (``_records(strict=True)``)."""
    n = len(blocks)
    out: dict[str, Any] = {"ld_ok": [False] * n, "named": [False] * n,
                           "records": [False] * n, "own": [False] * n,
                           "chosen_mask": [False] * n,
                           "region": -1, "title": -1, "head": [], "chosen": []}
    if not n or doc.body < 0:
        return out
    tag, node = doc.tag, blocks.node
    ld_ok = [blocks.link_chars[b] <= params.max_link_density * blocks.chars[b]
             or tag[node[b]] in _HEADINGS for b in range(n)]
    out["ld_ok"] = ld_ok
    good = [not boiler[b] and ld_ok[b] for b in range(n)]
    body = doc.body
    end = body + doc.size[body]
    bad: list[bool] | None = None
    if params.names:
        named = [0] * len(doc)
        parent = doc.parent
        negative = [False] * len(doc)
        memo: dict[tuple[str, tuple[str, ...]], bool] = {}  # names repeat on a page
        ids, classes = doc.id, doc.classes
        for i in range(body + 1, end):
            if ids[i] or classes[i]:
                key = (ids[i], classes[i])
                v = memo.get(key)
                if v is None:
                    v = memo[key] = _negative_name(doc, i)
                negative[i] = v
            named[i] = named[parent[i]] + negative[i]
        anchor = _anchor(blocks, good, named) if any(good) else -1
        bad = [False] * len(doc)
        for i in range(body + 1, end):
            p = parent[i]
            bad[i] = bad[p] or (negative[i]
                                and not (anchor >= 0 and doc.is_ancestor(i, anchor)))
        out["named"] = [bad[node[b]] for b in range(n)]
        good = [g and not bad[node[b]] for b, g in enumerate(good)]
    own: list[bool] | None = None
    if template is not None and params.own_records > 0:
        anchor = _anchor(blocks, good, [0] * len(doc)) if any(good) else -1
        own = _own_records(doc, blocks, [not x for x in boiler], anchor, params.own_records,
                           bad)
        out["own"] = [own[node[b]] for b in range(n)]
        # a record's scaffolding (author box, date, "Reply", linked title) is
        # part of the record: only the template mask removes text from it
        good = [(not template[b]) if own[node[b]] else g for b, g in enumerate(good)]
    if params.records:
        anchor = _anchor(blocks, good, [0] * len(doc)) if any(good) else -1
        rec = _records(doc, blocks, params.records, params.max_link_density, anchor,
                       strict=masked)
        if own is not None:
            rec = [r and not o for r, o in zip(rec, own)]
        out["records"] = [rec[node[b]] for b in range(n)]
        good = [g and not rec[node[b]] for b, g in enumerate(good)]
    pen = params.penalty
    weights = [c if g else -pen * c for c, g in zip(blocks.chars, good)]
    region = heaviest_subtree(doc, blocks, weights)
    r_end = region + doc.size[region]
    chosen = [b for b in range(n) if good[b] and region <= node[b] < r_end]
    if params.title and chosen:
        title = _title_before(doc, blocks, good, region)
        if title >= 0:
            head = (_head_zone(doc, blocks, good, title, region)
                    if template is not None and not masked else [])
            chosen[:0] = [title, *head]
            out["title"] = title
            out["head"] = head
        if masked:
            extra = _title_zone(doc, blocks, good, chosen, region, template, ld_ok,
                                out["named"])
            if extra:
                chosen = sorted(set(chosen) | set(extra))
    mask = [False] * n
    for b in chosen:
        mask[b] = True
    out.update(region=region, chosen=chosen, chosen_mask=mask)
    return out


def select_blocks(doc: Document, blocks: Blocks, boiler: Sequence[bool],
                  params: ContentParams = ContentParams()) -> tuple[list[int], int]:
    """Kept blocks and the main region of one page by the rules (module
    docstring). ``boiler[b]`` is the site-level verdict (template or repeated
    text) for block ``b``. Returns ``(chosen, region)``."""
    r = rule_signals(doc, blocks, boiler, params)
    return r["chosen"], r["region"]


def _records(doc: Document, blocks: Blocks, max_chars: int, max_ld: float,
             anchor: int, strict: bool = False) -> list[bool]:
    """Mask of elements inside *teaser records*: one of at least 3 same-tag
    siblings whose subtree holds at least 2 blocks, one of them a link
    (linked title, author name), and fewer than ``max_chars`` characters
    (lists of related stories, comment threads); never the anchor's ancestors.

    With ``strict`` (our revision, issue 11; the template-mask path) the
    siblings counted must be teasers too (at least 2 blocks, a link, fewer
    than ``max_chars`` characters). A short page's own text sits in a
    ``div`` among the ``div`` wrappers of its breadcrumb, byline and title
    block; a linked table of contents or one link made it look like one
    teaser of three, and the page lost its text (measured in
    docs/BATCH.md, "Content of unseen pages")."""
    n = len(doc)
    linked = [1 if lc > max_ld * c else 0 for lc, c in zip(blocks.link_chars, blocks.chars)]
    nb, nl, ch = subtree_sums(doc, blocks, [1] * len(blocks), linked, blocks.chars)
    body, parent, tag = doc.body, doc.parent, doc.tag
    end = body + doc.size[body]
    out = [False] * n
    for i in range(body + 1, end):
        p = parent[i]
        if out[p]:
            out[i] = True
            continue
        if nb[i] < 2 or not nl[i] or ch[i] >= max_chars or doc.is_ancestor(i, anchor):
            continue
        t = tag[i]
        same = 0
        for c in doc.children[p]:
            if tag[c] == t and (nb[c] >= 2 and nl[c] and ch[c] < max_chars if strict else nb[c]):
                same += 1
        out[i] = same >= 3
    return out


def _own_records(doc: Document, blocks: Blocks, specific: Sequence[bool], anchor: int,
                 share: float, named: Sequence[bool] | None = None) -> list[bool]:
    """Mask of elements inside the page's *own records* (issue 9, cause 3:
    "sibling records whose text is mostly page-specific are content"; the
    gold convention of ../shared/data: posts of a topic, rows of a listing,
    products of a category are the page's content).

    Records: at least 3 siblings with the same tag and classes, each holding
    at least 2 blocks, none holding more than half of the list's text (so
    that a page's header / main / footer wrappers are no list), with one
    scaffolding (:func:`_alike`: a sidebar's different widgets are no list,
    even where the site index has not seen their text). The list is
    the page's own when most of its text is page-specific (not ``boiler``:
    not repeated on the site's other pages, not template) and it holds the
    anchor (the first post of a topic is one of its posts), or when the
    page's lists together hold at least ``share`` of its page-specific text
    (a listing page's rows are most of the page). Without site evidence nothing tells page-specific text
    from repeated, so the rule needs it (:func:`rule_signals`). A list inside a
    negatively named subtree (``named``: user comments, related items) is not
    the page's own."""
    n = len(doc)
    nb, ch, mine = subtree_sums(doc, blocks, [1] * len(blocks), blocks.chars,
                                [c if sp else 0 for c, sp in zip(blocks.chars, specific)])
    body = doc.body
    end = body + doc.size[body]
    total = mine[body]
    out = [False] * n
    if total <= 0:
        return out
    tag, classes = doc.tag, doc.classes
    inside = [False] * n  # inside a record of a list found before (pre-order)
    own: list[int] = []      # records of the anchor's list
    others: list[int] = []   # records of the other lists
    listed: float = 0        # page-specific characters of the other lists
    for p in range(body, end):
        if inside[p] or len(doc.children[p]) < 3 or (named is not None and named[p]):
            continue
        groups: dict[tuple[str, tuple[str, ...]], list[int]] = {}
        for c in doc.children[p]:
            if nb[c] >= 2:
                groups.setdefault((tag[c], classes[c]), []).append(c)
        for members in groups.values():
            if len(members) < 3:
                continue
            g_ch = sum(ch[c] for c in members)
            g_mine = sum(mine[c] for c in members)
            if (2 * max(ch[c] for c in members) > g_ch or 2 * g_mine < g_ch
                    or not _alike(doc, members)):
                continue
            for c in members:
                for i in range(c, c + doc.size[c]):
                    inside[i] = True
            if anchor >= 0 and any(doc.is_ancestor(c, anchor) for c in members):
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


def _alike(doc: Document, members: list[int], min_sim: float = 0.5) -> bool:
    """Whether sibling subtrees repeat one scaffolding (records of one kind):
    the mean Jaccard similarity of consecutive members' sets of descendant
    ``tag.class`` names is at least ``min_sim`` (the boxes of a sidebar,
    each a different widget, are not records)."""
    tag, classes = doc.tag, doc.classes
    vocab = [{(tag[i], classes[i]) for i in range(c + 1, c + doc.size[c])} for c in members]
    sims = [len(a & b) / len(a | b) if a or b else 1.0 for a, b in pairwise(vocab)]
    return sum(sims) >= min_sim * len(sims)


def _anchor(blocks: Blocks, good: list[bool], named: list[int]) -> int:
    """Element of the kept block with the most non-link text, each negatively
    named ancestor dividing its weight by 4; -1 if none."""
    best, anchor = 0.0, -1
    for b, nd in enumerate(blocks.node):
        if good[b]:
            w = (blocks.chars[b] - blocks.link_chars[b]) * 0.25 ** named[nd]
            if w > best:
                best, anchor = w, nd
    return anchor


def _title_block(doc: Document, blocks: Blocks) -> int:
    """The block of the page's first ``h1`` when its text is part of the
    page's ``<title>``, else -1. A site's menus list its pages' titles, so a
    page's own heading is "repeated" on every page with the menu; the
    ``<title>`` tells that it is this page's (TeMex's template text is not
    the page's title)."""
    title = ""
    for i in range(max(doc.body, 0)):
        if doc.tag[i] == "title":
            title = norm_key(doc.text[i] or "")
            break
    if not title:
        return -1
    for b, nd in enumerate(blocks.node):
        if doc.tag[nd] == "h1":
            key = blocks.key[b]
            return b if key and key in title else -1
    return -1


def _head_zone(doc: Document, blocks: Blocks, good: list[bool], title: int,
               region: int) -> list[int]:
    """The kept blocks between the page's title heading and the region: the
    product's price, options and stock lines, a byline, a "Maintainer:"
    line. The region is the heaviest run of text, which on a product or wiki
    page starts at the description, below them. Folder mode only (the site's
    repeated text, no template mask; with a mask :func:`_title_zone` does
    this), where the repeated text has already taken the chrome between the
    two (share bars, breadcrumbs) out of ``good``: the detector's head zone
    (``template.detectors.rules.head_zone``) for the main text. Measured in
    docs/CONTENT.md ("What temex extract -f content prints")."""
    node = blocks.node
    t_node = node[title]
    t_end = t_node + doc.size[t_node]
    return [b for b in range(title + 1, len(blocks))
            if node[b] < region and good[b] and node[b] >= t_end
            and not doc.is_ancestor(node[b], region)]


def _title_before(doc: Document, blocks: Blocks, good: list[bool], region: int) -> int:
    """The first kept ``h1`` block before ``region`` (else ``h2``), or -1."""
    for want in ("h1", "h2"):
        for b in range(len(blocks)):
            nd = blocks.node[b]
            if nd >= region:
                break
            if good[b] and doc.tag[nd] == want:
                return b
    return -1


def _title_zone(doc: Document, blocks: Blocks, good: Sequence[bool], chosen: Sequence[int],
                region: int, template: Sequence[bool] | None, ld_ok: Sequence[bool],
                named: Sequence[bool]) -> list[int]:
    """Blocks to add to ``chosen`` for the page's title heading and the zone
    under it (our addition, issue 11; the batch path: a template mask).

    *Heading*: the first ``h1`` element holding a kept block before the end
    of the main block ``region`` (else the first ``h2`` before it); every
    kept block inside it is the title. :func:`_title_before` looks for a
    block whose own element is the heading; a heading that wraps its text
    in block elements (``<h1><div>title<div>subtitle</div></div></h1>``, a
    CMS's title and tagline) has none, so its title was lost whenever the
    main block starts below it.

    *Zone*: with ``template`` (the template verdict per block), the blocks
    after the heading up to the first chosen block after it (and before the
    main block) that the template mask leaves, that are no link lists
    (``ld_ok``) and that sit in no negatively named subtree (``named``):
    the page's byline, date, maintainer line, price. The site index calls
    them repeated text ("Maintainer: admin", "By Staff" repeat on many
    pages); the data README's convention makes them content. It is the
    detector's head-zone rule (:func:`temex.template.detectors.rules.head_zone`)
    applied per page, where the template mask holds the site's chrome and
    the heading names the page. O(region end)."""
    body = doc.body
    r_end = region + doc.size[region]
    if r_end <= body + 1:
        return []
    head = [-1] * r_end  # the nearest h1/h2 ancestor-or-self of each node
    tag, parent = doc.tag, doc.parent
    for i in range(body + 1, r_end):
        head[i] = i if tag[i] in ("h1", "h2") else head[parent[i]] if parent[i] > body else -1
    title: list[int] = []
    for want, limit in (("h1", r_end), ("h2", region)):
        for b in range(len(blocks)):
            nd = blocks.node[b]
            if nd >= limit:
                break
            h = head[nd]
            if good[b] and h >= 0 and tag[h] == want:
                end = h + doc.size[h]
                title = [c for c in range(b, len(blocks)) if good[c] and blocks.node[c] < end]
                break
        if title:
            break
    if not title or template is None:
        return title
    inside = set(title)
    stop = next((c for c in chosen if c > title[-1] and c not in inside), len(blocks))
    zone = []
    for z in range(title[-1] + 1, stop):
        if blocks.node[z] >= r_end:
            break
        if not template[z] and ld_ok[z] and not named[z]:
            zone.append(z)
    return title + zone


def extract_content(doc: Document, site: SiteIndex | None = None,
                    template: Sequence[bool] | None = None,
                    params: ContentParams = ContentParams(), member: bool = True,
                    models: dict[str, Any] | None = None,
                    blocks: Blocks | None = None) -> Content:
    """Main content of ``doc``.

    Parameters
    ----------
    doc : Document
    site : SiteIndex, optional
        Block-text counts of the site's pages (``member``: ``doc`` is one of
        them).
    template : list of bool, optional
        Template mask over ``doc`` (a fitted model's ``template``).
    params : ContentParams
    models : dict, optional
        Scorer models by variant (``page``, ``site``) instead of the shipped
        ones (:func:`temex.content.scorer.load_model`; cross-validation).
    blocks : Blocks, optional
        ``page_blocks(doc)`` when the caller has it already.
    """
    if doc.body < 0:
        return Content(doc, None, [], reason="page has no body")
    if blocks is None:
        blocks = page_blocks(doc)
    if not len(blocks):
        return Content(doc, blocks, [], reason="page has no visible text")
    others = site.n_pages - (1 if member else 0) if site is not None else 0
    boiler = repeated_text(doc, blocks, site, params, member, template is not None)
    tmpl = [False] * len(blocks)
    if template is not None:
        for b, nd in enumerate(blocks.node):
            if template[nd] or all(template[i] for i in blocks.pieces[b]):
                boiler[b] = tmpl[b] = True
    site_rules = template is not None or others >= params.site_rules_min
    small = sum(blocks.chars) < params.small_page
    if not params.scorer or site_rules or small:
        r = rule_signals(doc, blocks, boiler, params,
                         tmpl if template is not None or others > 0 else None,
                         masked=template is not None)
        chosen, region = r["chosen"], r["region"]
        stats: dict[str, Any] = {"scorer": "rules"}
        if params.scorer and template is None and not small and params.site_page > 0:
            chosen, region, stats = _site_page_choice(doc, blocks, boiler, chosen, region,
                                                      params, models)
        reason = "" if chosen else "every text block is boilerplate"
        return Content(doc, blocks, chosen, region, reason, stats)
    from .scorer import block_features, load_model, select

    models = models or load_model()
    rule = rule_signals(doc, blocks, [False] * len(blocks), params)
    if others > 0:
        assert site is not None
        srule = rule_signals(doc, blocks, boiler, params)
        df = site.counts(blocks, member)
        feats = block_features(doc, blocks, rule, {"pages": others, "df": df, "rule": srule})
        variant = "site"
    else:
        feats = block_features(doc, blocks, rule)
        variant = "page"
    model = models[variant]
    probs = model.probabilities(doc, blocks, feats)
    if variant == "site":
        # site evidence adds to the page's own: a block is as likely content as
        # the more confident of the two models says (repeated site text is
        # dropped below; measured in docs/CONTENT.md)
        nf = len(models["page"].names1)
        alone = models["page"].probabilities(doc, blocks, [f[:nf] for f in feats])
        probs = [max(a, b) for a, b in zip(probs, alone)]
    for b in range(len(blocks)):
        if tmpl[b]:
            probs[b] = 0.0
    if variant == "site" and others >= 3 and site is not None:
        for b, k in enumerate(df):
            if k >= params.site_share * others:
                probs[b] = 0.0
    chosen, region = select(doc, blocks, probs, model.threshold, model.outside)
    stats = {"scorer": variant}
    if variant == "page" and params.page_fallback > 0 and rule["chosen"]:
        kept = sum(blocks.chars[b] for b in chosen)
        if kept < params.page_fallback * sum(blocks.chars[b] for b in rule["chosen"]):
            chosen, region = rule["chosen"], rule["region"]
            stats = {"scorer": "rules", "fallback": True}
    reason = "" if chosen else "every text block is boilerplate"
    return Content(doc, blocks, chosen, region, reason, stats)


def repeated_text(doc: Document, blocks: Blocks, site: SiteIndex | None,
                  params: ContentParams = ContentParams(), member: bool = True,
                  masked: bool = False) -> list[bool]:
    """Site-level boilerplate verdict per block: text on at least
    ``repeat_min`` other pages of the site (``long_block`` characters or more:
    one more page; with a template mask, ``masked``: at least ``repeat_share``
    of the other pages), except the page's own title (``own_title``)."""
    if site is None:
        return [False] * len(blocks)
    others = site.n_pages - (1 if member else 0)
    need = params.repeat_min
    if masked:
        need = max(need, math.ceil(params.repeat_share * others))
    boiler = site.repeated(blocks, need, member, params.long_block)
    own_title = _title_block(doc, blocks) if params.own_title else -1
    if own_title >= 0:  # the page's title repeats in the site's menus
        boiler[own_title] = False
    return boiler


def site_page_blocks(chars: Sequence[int], page: Sequence[int], rules: Sequence[int],
                     boiler: Sequence[bool], share: float) -> tuple[list[int], bool]:
    """The site level's choice from the page level's (``page``) and the rules'
    with site evidence (``rules``): the page's blocks less the repeated ones,
    unless they hold less than ``share`` of the characters of the rules'
    blocks; then the rules' blocks and those together. Returns the blocks and
    whether the rules' were added (:func:`_site_page_choice`)."""
    mine = [b for b in page if not boiler[b]]
    if sum(chars[b] for b in mine) >= share * sum(chars[b] for b in rules):
        return mine, False
    return sorted(set(rules) | set(mine)), True


def _site_page_choice(doc: Document, blocks: Blocks, boiler: Sequence[bool],
                      rules: list[int], region: int, params: ContentParams,
                      models: dict[str, Any] | None) -> tuple[list[int], int, dict[str, Any]]:
    """Site level without a template mask (issue 10): the page scorer's
    choice, less the site's repeated text, unless it keeps less than
    ``site_page`` of the characters the rules with site evidence keep
    (``rules``): then both, the rules' blocks and the scorer's.

    Why: the rules with site evidence were tuned in sample on the news
    datasets, and by grouped cross-validation the page scorer beats them on
    big9 (they keep captions and video titles that the gold leaves out);
    site evidence then only removes what repeats across the site. Where the
    scorer keeps much less than the rules, it has collapsed on a page unlike
    its news training (documentation articles, forum threads: the shared
    sites), and the rules' dense region is the page's, with whatever the
    scorer adds. Chosen on grouped-CV page probabilities of the four content
    datasets and the seven shared sites, leaving one group out
    (docs/CONTENT.md, "Site level: the page scorer with site evidence")."""
    page = extract_content(doc, None, None, params, models=models, blocks=blocks)
    chosen, added = site_page_blocks(blocks.chars, page.chosen, rules, boiler, params.site_page)
    if added:
        return chosen, region, {"scorer": "page", "site": "rules added"}
    return chosen, page.region, {"scorer": "page", "site": "repeated text removed"}


def _from_model(model: TemplateModel, params: ContentParams) -> Content:
    return extract_content(model.key, None, model.template, params)


def content_text(model: TemplateModel, params: ContentParams = ContentParams()) -> str:
    """Main content of a fitted model's key page, one block per line (drop-in
    for :func:`temex.content.render.content_text`)."""
    return _from_model(model, params).text()


def content_markdown(model: TemplateModel, params: ContentParams = ContentParams()) -> str:
    """Main content of a fitted model's key page as Markdown."""
    return _from_model(model, params).markdown()


def content_html(model: TemplateModel, params: ContentParams = ContentParams()) -> str:
    """Main content of a fitted model's key page as HTML fragments."""
    return _from_model(model, params).html()


def content_json(model: TemplateModel, params: ContentParams = ContentParams()) -> str:
    """Main content of a fitted model's key page as a JSON report."""
    return json.dumps(_from_model(model, params).report(), indent=2, ensure_ascii=False)


def main_content(saved: SavedTemplate | None, doc: Document,
                 params: ContentParams = ContentParams(),
                 mask: Sequence[bool] | None = None) -> Content:
    """Main content of ``doc`` under a saved template :
    the template text mask of :func:`text_mask` (or ``mask``) plus the repeated text of
    ``saved.site_index``; the page's own occurrence is discounted only when it
    was one of the indexed sample pages. O(n)."""
    if mask is None and saved is not None:
        mask = text_mask(saved, doc)
    index = saved.site_index if saved is not None else None
    member = index.member(doc) if index is not None else False
    return extract_content(doc, index, mask, params, member=member)

