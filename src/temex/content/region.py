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
Cost: O(n) per page (one reverse pre-order pass of subtree sums).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..page.blocks import Blocks, heaviest_subtree
from ..page.dom import Document

__all__ = ["rules_region", "select"]


def select(doc: Document, blocks: Blocks, probs: Sequence[float], threshold: float,
           outside: float = 2.0) -> tuple[list[int], int]:
    """Kept blocks and the main region from block probabilities: the region
    is the element maximising the sum of ``chars * (p - threshold)`` over its
    blocks (a maximum-weight subtree); kept are the blocks inside it with
    ``p >= threshold`` and, outside it, those with ``p >= outside``."""
    n = len(blocks)
    body = doc.body
    if not n or body < 0:
        return [], -1
    node, chars = blocks.node, blocks.chars
    region = heaviest_subtree(doc, blocks, [c * (p - threshold) for c, p in zip(chars, probs)])
    r_end = region + doc.size[region]
    chosen = [b for b in range(n)
              if probs[b] >= (threshold if region <= node[b] < r_end else outside)]
    return chosen, region


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
