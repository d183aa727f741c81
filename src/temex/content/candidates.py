"""Candidates stage: the page's text blocks and the site's evidence on them.

Idea: the units of the choice are the page's text blocks
(:func:`temex.page.blocks.page_blocks`: a block element with the text of its
inline descendants, a line of the CleanEval gold). Before any page-level
judgement the site tells what is not this page's own: a block whose
normalised text occurs on other pages of the site is *repeated text* (menus,
footers, "Advertisement", section names), and a block inside a fitted
template is *template*. The page's own title is never repeated text when the
``<title>`` names it (the site's menus and listings show the pages' titles;
:func:`temex.content.title.own_title_blocks`).
With site evidence (a template mask, or other pages of the site), a page
kind's tag, category and previous / next lines, told by their HTML link
types, are template too (:func:`typed_link_chrome`): their text differs on
every page, so neither the mask nor the site's counts hold them.

Source: the text-equality evidence of TeMex/ETDM (temex.template.detectors)
without the mapping, counted once per site (:class:`SiteIndex`); the
``repeat_share`` revision under a template mask is ours. Cost: O(n) per
page once the site's block texts are counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..page.blocks import Blocks, page_blocks
from ..page.dom import Document
from ..template.rules.links import chrome_link_type, link_type_chrome
from ..template.site_index import SiteIndex
from .params import ContentParams
from .title import own_title_blocks

__all__ = ["Candidates", "candidates", "fresh_lists", "repeated_text", "typed_link_chrome"]


@dataclass
class Candidates:
    """A page's blocks with the site's verdicts on them.

    Attributes
    ----------
    doc : Document
    blocks : Blocks
    others : int
        Other pages of the site in the evidence (0: the page alone).
    boiler : list of bool
        Per block: repeated text or template (the site-level verdict).
    template : list of bool
        Per block: inside the template mask (all False without one).
    masked : bool
        A template mask was given.
    site : SiteIndex or None
        The site's evidence (``member``: the page is one of its pages), kept
        for :attr:`specific`.
    params : ContentParams
    member : bool
    """

    doc: Document
    blocks: Blocks
    others: int
    boiler: list[bool]
    template: list[bool]
    masked: bool
    site: SiteIndex | None = None
    params: ContentParams = field(default_factory=ContentParams)
    member: bool = True

    @cached_property
    def specific(self) -> list[bool]:
        """Per block: the page's own text for the own-records rule
        (:func:`temex.content.records.own_records`): not ``boiler``, or
        repeated text inside a record list that the site does not show whole
        (:func:`fresh_lists`). Computed on first use: only the rules read it,
        and the scorer's path never does."""
        fresh = fresh_lists(self.doc, self.blocks, self.site, self.boiler, self.params,
                            self.member, self.masked)
        return [not x or (f and not t) for x, f, t in zip(self.boiler, fresh, self.template)]


def candidates(doc: Document, site: SiteIndex | None, template: Sequence[bool] | None,
               params: ContentParams, member: bool = True,
               blocks: Blocks | None = None) -> Candidates:
    """The blocks of ``doc`` (``blocks`` when the caller has them) with the
    verdicts of ``site`` (its block-text counts; ``member``: ``doc`` is one of
    its pages) and of ``template`` (a mask over ``doc``'s elements)."""
    if blocks is None:
        blocks = page_blocks(doc)
    others = site.n_pages - (1 if member else 0) if site is not None else 0
    boiler = repeated_text(doc, blocks, site, params, member, template is not None)
    tmpl = [False] * len(blocks)
    if template is not None:
        for b, nd in enumerate(blocks.node):
            if template[nd] or all(template[i] for i in blocks.pieces[b]):
                boiler[b] = tmpl[b] = True
    if params.link_types is not None and (template is not None or others > 0):
        # with site evidence: a page kind's typed link lists are its chrome
        for b in typed_link_chrome(doc, blocks, boiler, params.link_types):
            boiler[b] = tmpl[b] = True
    return Candidates(doc, blocks, others, boiler, tmpl, template is not None, site, params,
                      member)


def _has_typed_link(doc: Document) -> bool:
    """Whether a link of the page has a page kind's link type
    (:func:`~temex.template.rules.links.chrome_link_type`), or the page
    declares its neighbours in ``<head>`` (``<link rel="next">``); most
    pages do neither, and the rule's sums are then not computed."""
    for i, tag in enumerate(doc.tag):
        if tag == "a" or tag == "link":
            for k, v in doc.attrs[i]:
                if k == "rel" and chrome_link_type(v):
                    return True
    return False


def typed_link_chrome(doc: Document, blocks: Blocks, boiler: Sequence[bool],
                      max_text: int) -> list[int]:
    """The page's own blocks inside a page kind's typed link lists: the
    detector's rule (:func:`temex.template.rules.links.link_type_chrome`:
    the largest elements at least half of whose links have the HTML link
    type ``tag``, ``prev`` or ``next``, with at most ``max_text`` characters
    outside links; WordPress's category links are ``rel="category tag"``)
    applied to the whole ``<body>`` of a page with site evidence.
    WordPress's "This entry was posted in X and tagged a, b" line names the
    post's own categories, so its text differs on every page and neither the
    fitted template (matched by text) nor the site's counts hold it; the
    data README's convention calls it template. An element holding the
    page's anchor (its own block with the most text outside links) is never
    one: a short chapter whose only links are its previous and next. Cost:
    one pass over the page's links, and the rule's sums over the body only
    on pages with a typed link."""
    body = doc.body
    own = [b for b in range(len(blocks)) if not boiler[b]]
    if body < 0 or not own or not _has_typed_link(doc):
        return []
    node = blocks.node
    anchor = max(own, key=lambda b: blocks.chars[b] - blocks.link_chars[b])
    inside = [False] * len(doc)
    for r in link_type_chrome(doc, body, [node[anchor]], max_text):
        inside[r:r + doc.size[r]] = [True] * doc.size[r]
    return [b for b in own if inside[node[b]]]


def fresh_lists(doc: Document, blocks: Blocks, site: SiteIndex | None,
                boiler: Sequence[bool], params: ContentParams = ContentParams(),
                member: bool = True, masked: bool = False) -> list[bool]:
    """Per block: inside a record list (:func:`temex.page.rows.list_keys`)
    that the site's other pages do not show whole, on as many pages as
    repeated text needs (:func:`repeated_text`). Every listing shares rows
    with another (a product in two categories, a post on its tag page and on
    the blog's page 3), so each row's text is repeated while the list is
    the page's own; a best-sellers box or a menu is repeated whole."""
    fresh = [False] * len(blocks)
    if site is None:
        return fresh
    need = _need(site, params, member, masked)
    chars = blocks.chars
    lists = site.list_counts(doc, blocks, member)
    if not lists:
        return fresh
    # text on nearly every page is chrome wherever it sits (a menu's items)
    common = [k >= params.site_share * (site.n_pages - member) for k in site.counts(blocks, member)]
    # the page's own blocks, longest first: the longest outside a list is the
    # first of them not in it
    own = sorted((b for b in range(len(blocks)) if not boiler[b]), key=lambda b: -chars[b])
    for count, rows in lists:
        if count >= need or 2 * sum(all(common[b] for b in row) for row in rows) >= len(rows):
            continue
        listed = {b for row in rows for b in row}
        longest = next((chars[b] for b in own if b not in listed), 0)
        if longest < max(sum(chars[b] for b in row) for row in rows):
            for b in listed:
                fresh[b] = True
    return fresh


def _need(site: SiteIndex, params: ContentParams, member: bool, masked: bool) -> int:
    others = site.n_pages - (1 if member else 0)
    need = params.repeat_min
    share = params.repeat_share if masked else params.folder_repeat_share
    if share > 0:
        need = max(need, math.ceil(share * others))
    return need


def repeated_text(doc: Document, blocks: Blocks, site: SiteIndex | None,
                  params: ContentParams = ContentParams(), member: bool = True,
                  masked: bool = False) -> list[bool]:
    """Site-level boilerplate verdict per block: text on at least
    ``repeat_min`` other pages of the site (``long_block`` characters or more:
    one more page) and at least ``repeat_share`` of them with a template
    mask (``masked``), ``folder_repeat_share`` without one, except the
    page's own title (``own_title``)."""
    if site is None:
        return [False] * len(blocks)
    need = _need(site, params, member, masked)
    boiler = site.repeated(blocks, need, member, params.long_block)
    if params.own_title:  # the page's title repeats in the site's menus
        for b in own_title_blocks(doc, blocks):
            boiler[b] = False
    return boiler
