"""The site-level decision: which blocks are content, learned from the page
model's verdict and the site's evidence side by side.

Folder mode (``temex content DIR``: two or more other pages of the site, no
template mask) has two verdicts on every block: the page level's (the scorer
on the page alone: its probability and whether its region kept the block)
and the site's (how many other pages show the block's text, whether the
rules with site evidence keep it, whether it sits in a record list the site
does not show whole). Which is right depends on the page: on a tag page the
rows repeat on other tag pages and are still the page's own; on a product
page the related products repeat and are chrome. A hand-set rule chose one
(:func:`temex.content.extract.site_page_blocks`: the page's blocks less the
repeated ones, the rules' added where the page kept little), and on many
sites nobody tuned on it overruled the page model where the page model was
right. Here one model takes both verdicts as inputs, with the block's place
among its neighbours and on its page, and decides; it is trained on every
page of the shared sites, left out one site at a time
(``bench/train_site_decision.py``), and shipped as gradient-boosted trees in
``temex/content/decision.json`` (walked by :class:`temex.content.scorer.Forest`).

Where folder mode also maps the page with the pages the offline pool rule
chooses for it (``temex content DIR``: the key-page path of ``temex extract
PAGE --pages-dir DIR``, TeMex's exact top-down mapping), a second forest
(``decision_mapped.json``) reads two more inputs, :data:`MAPPED_FEATURES`:
whether that template mask holds the block and whether the content under
it kept the block. The mapping sees a fixed skeleton (a message's
"Previous message" line, a product's rating row) that text counts miss; the
text counts see a listing's own rows that the mapping, comparing it with
listings that show the same rows, calls template. Callers without the
mapping (the crawl, ``temex content --no-mapping``) use the first forest.

Source: stacking (Wolpert 1992, "Stacked generalization"): a second-level
learner over the outputs of the page model and of the site rules, as the
scorer's second stage stacks its first (Dragnet, Peters and Lecocq 2013).
Cost: O(blocks × trees × depth) per page, after the two verdicts it reads.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..page import kernel
from ..page.dom import HEADING_TAGS, Document
from ..page.names import comment_sections

if TYPE_CHECKING:
    from .candidates import Candidates
    from .output import Content

__all__ = ["DECISION_FEATURES", "MAPPED_FEATURES", "SiteDecision", "decision_rows",
           "load_decision"]

DECISION_VERSION = 3

#: One row a block; the names are the columns of the training script's table.
DECISION_FEATURES = (
    "page_prob",        # the page model's probability (page alone)
    "page_kept",        # the page level kept the block
    "page_region",      # inside the page level's region element
    "df_share",         # share of the site's other pages that show the text
    "df_log",           # log(1 + those pages)
    "boiler",           # repeated text or typed-link chrome (the site's verdict)
    "specific",         # the page's own text for the record rules (fresh lists)
    "rules_kept",       # the rules with site evidence kept it
    "rules_region",     # inside the rules' region element
    "chars_log",        # log(1 + visible characters)
    "link_share",       # characters inside links / characters
    "position",         # block index / blocks
    "near_page_kept",   # share of the 4 nearest blocks the page level kept
    "near_df_share",    # mean df_share of the 4 nearest blocks
    "near_rules_kept",  # share of the 4 nearest blocks the rules kept
    "page_kept_share",  # characters the page level kept / the page's
    "rules_kept_share",  # characters the rules kept / the page's
    "own_share",        # characters not boiler / the page's
    "page_own_kept",    # of the page level's characters, the share not boiler
    "others_log",       # log(1 + other pages in the evidence)
    "page_rules",       # the page level chose by its rules (a small page: no probabilities)
    "named",            # inside a negatively named subtree ("related", "share", ...)
    "teaser",           # inside a teaser record (the rules' record lists)
    "own_record",       # inside one of the page's own records
    "ld_ok",            # link density under the rules' limit, or a heading
    "title",            # the page's title block (the rules')
    "head",             # between the title and the region (the rules' head zone)
    "heading",          # an h1-h6 element
    "in_nav",           # inside <nav>
    "in_aside",         # inside <aside>
    "in_header",        # inside <header>
    "in_footer",        # inside <footer>
    "in_form",          # inside <form>
    "in_comments",      # inside a comment-named section (comments are content)
)

#: The mapped forest's two more columns, after :data:`DECISION_FEATURES`.
MAPPED_FEATURES = (
    "mapped",           # the key-page fit's template mask holds the block's element
    "mapped_kept",      # the content under that mask kept the block
)

#: The shipped forests' files: without and with the mapping's inputs.
_FILES = {False: "decision.json", True: "decision_mapped.json"}

_LANDMARKS = ("nav", "aside", "header", "footer", "form")


def _inside(doc: Document, region: int, nodes: Sequence[int]) -> list[float]:
    if region < 0:
        return [0.0] * len(nodes)
    end = region + doc.size[region]
    return [1.0 if region <= nd < end else 0.0 for nd in nodes]


def _near(values: Sequence[float], k: int = 2) -> list[float]:
    """Per block, the mean of ``values`` over the ``k`` blocks on each side
    (fewer at the page's ends), the block itself left out: one running sum."""
    n = len(values)
    prefix = [0.0] * (n + 1)
    for i, v in enumerate(values):
        prefix[i + 1] = prefix[i] + v
    out = []
    for b in range(n):
        lo, hi = max(0, b - k), min(n, b + k + 1)
        m = hi - lo - 1
        out.append((prefix[hi] - prefix[lo] - values[b]) / m if m else 0.0)
    return out


def _landmarks(doc: Document, nodes: Sequence[int]) -> list[list[float]]:
    """Per node of ``nodes``, 1.0 inside each of :data:`_LANDMARKS`."""
    masks = [doc.inside_mask(tag) for tag in _LANDMARKS]
    return [[1.0 if m[nd] else 0.0 for m in masks] for nd in nodes]


def decision_rows(cand: Candidates, page: Content, rules: dict[str, Any],
                  mapped: Sequence[bool] | None = None,
                  mapped_chosen: Sequence[int] = ()) -> list[list[float]]:
    """The rows of :data:`DECISION_FEATURES` for every block of the page of
    ``cand`` (its blocks, the site's evidence on them: ``cand.site`` is
    set); ``page`` the page level's content of the page alone (its
    ``probs`` None where it chose by its rules), ``rules`` the verdicts of
    :func:`temex.content.rules.rule_signals` with the site's evidence. With
    ``mapped`` (a template mask over the page's elements) and
    ``mapped_chosen`` (the blocks the content under it kept), the rows end
    with :data:`MAPPED_FEATURES`."""
    assert cand.site is not None
    doc, blocks, others, boiler = cand.doc, cand.blocks, cand.others, cand.boiler
    specific, df = cand.specific, cand.site.counts(cand.blocks, cand.member)
    page_probs, page_chosen, page_region = page.probs, page.chosen, page.region
    n = len(blocks)
    rules_chosen, rules_region = rules["chosen"], rules["region"]
    chars, links = blocks.chars, blocks.link_chars
    total = sum(chars) or 1
    page_kept = [0.0] * n
    for b in page_chosen:
        page_kept[b] = 1.0
    rules_kept = [0.0] * n
    for b in rules_chosen:
        rules_kept[b] = 1.0
    share = [k / others if others else 0.0 for k in df]
    page_chars = sum(chars[b] for b in page_chosen)
    page_own = sum(chars[b] for b in page_chosen if not boiler[b])
    per_page = [page_chars / total, sum(chars[b] for b in rules_chosen) / total,
                sum(c for c, x in zip(chars, boiler) if not x) / total,
                page_own / page_chars if page_chars else 0.0, math.log1p(others)]
    in_page = _inside(doc, page_region, blocks.node)
    in_rules = _inside(doc, rules_region, blocks.node)
    near_kept, near_share, near_rules = _near(page_kept), _near(share), _near(rules_kept)
    probs = page_probs if page_probs is not None else page_kept
    per_page.append(float(page_probs is None))
    head = set(rules["head"])
    node = blocks.node
    marks = _landmarks(doc, node)
    comments = comment_sections(doc)
    tail: list[list[float]] = [[]] * n
    if mapped is not None:
        kept = set(mapped_chosen)
        tail = [[float(mapped[node[b]]), float(b in kept)] for b in range(n)]
    return [[probs[b], page_kept[b], in_page[b], share[b], math.log1p(df[b]),
             float(boiler[b]), float(specific[b]), rules_kept[b], in_rules[b],
             math.log1p(chars[b]), links[b] / chars[b] if chars[b] else 0.0,
             b / n, near_kept[b], near_share[b], near_rules[b], *per_page,
             float(rules["named"][b]), float(rules["records"][b]), float(rules["own"][b]),
             float(rules["ld_ok"][b]), float(rules["title"] == b), float(b in head),
             float(doc.tag[node[b]] in HEADING_TAGS), *marks[b], float(comments[node[b]]), *tail[b]]
            for b in range(n)]


class SiteDecision:
    """The shipped decision: a forest of gradient-boosted trees over
    :data:`DECISION_FEATURES` (``mapped``: and :data:`MAPPED_FEATURES`), its
    log-odds compared with ``threshold``."""

    def __init__(self, d: dict[str, Any]) -> None:
        from .scorer import Forest

        features = tuple(d.get("features", ()))
        self.mapped = features == DECISION_FEATURES + MAPPED_FEATURES
        if d.get("version") != DECISION_VERSION or not (self.mapped
                                                        or features == DECISION_FEATURES):
            raise ValueError("site decision: the model file does not match this code's "
                             "features (retrain it: bench/train/train_site_decision.py)")
        self.width = len(features)
        self.forest = Forest(d["forest"], self.width)
        self.threshold: float = d["threshold"]
        self.trained_on: list[str] = list(d.get("trained_on", ()))

    def keep(self, rows: list[list[float]]) -> list[bool]:
        """Per row, whether the block is content (the walks in C when the
        kernel runs: the same sums in the same order)."""
        z = math.log(self.threshold / (1.0 - self.threshold))
        k = kernel.get()
        raws = (self.forest.compiled(k).raw_rows(rows) if k is not None
                else [self.forest.raw(r) for r in rows])
        return [r > z for r in raws]


@lru_cache(maxsize=2)
def load_decision(mapped: bool = False) -> SiteDecision | None:
    """The shipped decision (``mapped``: the one that also reads the key-page
    fit's verdicts), or None when the package has none."""
    try:
        raw = resources.files("temex.content").joinpath(_FILES[mapped]).read_text("utf-8")
    except (FileNotFoundError, OSError):
        return None
    return SiteDecision(json.loads(raw))
