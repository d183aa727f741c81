"""Candidates stage: the page's text blocks and the site's evidence on them.

Idea: the units of the choice are the page's text blocks
(:func:`temex.page.blocks.page_blocks`: a block element with the text of its
inline descendants, a line of the CleanEval gold). Before any page-level
judgement the site tells what is not this page's own: a block whose
normalised text occurs on other pages of the site is *repeated text* (menus,
footers, "Advertisement", section names), and a block inside a fitted
template is *template*. The page's own title is never repeated text when its
text is part of the ``<title>`` (the site's menus list the pages' titles).

Source: the text-equality evidence of TeMex/ETDM (temex.template.detectors)
without the mapping, counted once per site (:class:`SiteIndex`); the
``repeat_share`` revision under a template mask is issue 9's. Cost: O(n) per
page once the site's block texts are counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..page.blocks import Blocks, page_blocks
from ..page.dom import Document
from ..template.site_index import SiteIndex
from .params import ContentParams
from .title import own_title_block

__all__ = ["Candidates", "candidates", "repeated_text"]


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
    """

    doc: Document
    blocks: Blocks
    others: int
    boiler: list[bool]
    template: list[bool]
    masked: bool


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
    return Candidates(doc, blocks, others, boiler, tmpl, template is not None)


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
    own_title = own_title_block(doc, blocks) if params.own_title else -1
    if own_title >= 0:  # the page's title repeats in the site's menus
        boiler[own_title] = False
    return boiler
