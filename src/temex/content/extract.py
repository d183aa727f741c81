"""Main content of a page: its non-template part, narrowed to the main block.

temex knows a site's template (TeMex paper §1.1: the template has "regions
where the main content must be inserted"); what remains of a page after the
template is removed is its own part, which may still hold per-page noise
(comments, "related links", share bars, tag lists). The main content is
chosen by a short pipeline of stages, each a module with its idea, source and
cost:

1. **candidates** (:mod:`.candidates`): the page's text blocks and the site's
   evidence on them (repeated text, a template mask);
2. **features** (:mod:`.features`, with the rules' verdicts of :mod:`.rules`
   among them) and the learned **scorer** (:mod:`.scorer`): a probability per
   block;
3. **region** (:mod:`.region`): the main block as a maximum-weight subtree;
4. **title/head** (:mod:`.title`): the title heading and the zone under it;
5. **records** (:mod:`.records`): teaser lists dropped, the page's own lists
   of posts, rows or products kept;
6. **output** (:mod:`.output`): text, Markdown, HTML or a JSON report.

Which evidence chooses (measured in docs/CONTENT.md):

* the page alone: the scorer's ``page`` model, the rules on pages under
  ``small_page`` characters and where the scorer keeps under
  ``page_fallback`` of the characters the rules keep (it collapsed);
* one other page of the site: the larger of the ``page`` and ``site`` models'
  probabilities, less text on ``site_share`` of 3+ other pages;
* ``site_rules_min`` = 2 other pages or more, no template mask (folder mode):
  the page level's blocks less the site's repeated text, with the rules'
  blocks added where they keep under ``site_page`` of the rules' characters
  (:func:`site_page_blocks`);
* a template mask (batch, saved templates, crawl) or
  ``ContentParams(scorer=False)``: the rules with site evidence
  (:func:`temex.content.rules.rule_signals`); with site evidence (a mask,
  or folder mode), where the choice keeps nothing, or under half of a small
  page's own text, that own text (:func:`small_page_own_text`); under a
  template mask else, where they keep under half of
  the page's own text, the page level's blocks less the template and
  repeated text are added (:func:`page_level_added`).

Cost: O(n) per page once the site's block texts are counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..page.blocks import Blocks
from ..page.dom import HEADING_TAGS, Document
from ..template.model import TemplateModel
from ..template.site_index import SiteIndex
from .candidates import Candidates, candidates, repeated_text
from .decision import SiteDecision, decision_rows, load_decision
from .output import Content
from .params import ContentParams
from .records import alike_records, comment_blocks, comment_thread, headed_tables
from .rules import navigation_blocks, rule_signals
from .title import title_heading

if TYPE_CHECKING:
    from ..template.saved import SavedTemplate

__all__ = ["ContentParams", "Content", "extract_content", "main_content",
           "small_page_own_text", "page_level_added",
           "rule_signals", "repeated_text", "site_page_blocks",
           "content_text", "content_markdown", "content_html"]


def extract_content(doc: Document, site: SiteIndex | None = None,
                    template: Sequence[bool] | None = None,
                    params: ContentParams = ContentParams(), member: bool = True,
                    models: dict[str, Any] | None = None,
                    blocks: Blocks | None = None, *,
                    mapped: Sequence[bool] | None = None) -> Content:
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
    mapped : list of bool, optional
        With ``site`` and no ``template`` (folder mode): the template mask of
        ``doc`` mapped with the pages the offline pool rule chooses for it
        (:func:`temex.content.folder.key_page_mask`), an input of the site
        decision (:data:`temex.content.decision.MAPPED_FEATURES`), not a mask.
    """
    if doc.body < 0:
        return Content(doc, None, [], reason="page has no body")
    cand = candidates(doc, site, template, params, member, blocks)
    if not len(cand.blocks):
        return Content(doc, cand.blocks, [], reason="page has no visible text")
    small = sum(cand.blocks.chars) < params.small_page
    if not params.scorer or cand.masked or cand.others >= params.site_rules_min or small:
        chosen, region, stats = _by_rules(cand, params, models, small, mapped)
    else:
        chosen, region, stats = _by_scorer(cand, site, member, params, models)
    if cand.masked or cand.others >= params.site_rules_min:
        # site evidence tells the page's own text: where the choice kept
        # nothing or little of a small page, that text
        chosen, fallback = small_page_own_text(cand, chosen, params)
        if not fallback and cand.masked and params.page_added and params.scorer:
            chosen, fallback = page_level_added(cand, chosen, params, models)
        if fallback:
            stats = {**stats, "fallback": fallback}
    if not params.comments:
        drop = comment_blocks(doc, cand.blocks, chosen)
        chosen = [b for b in chosen if b not in drop]
    elif cand.masked:
        # the rules keep one main subtree; a thread beside the article is
        # added (comments are content by the data convention)
        chosen = sorted(set(chosen) | comment_thread(doc, cand.blocks, chosen, cand.boiler))
    reason = "" if chosen else "every text block is boilerplate"
    probs = stats.pop("probs", None)  # the page model's, for the site decision
    return Content(doc, cand.blocks, chosen, region, reason, stats, probs)


def _own_chars_kept(cand: Candidates, chosen: list[int]) -> tuple[int, int]:
    """The page's own characters (blocks neither template nor repeated) and
    how many of them ``chosen`` keeps: the two fallbacks' measure."""
    chars, boiler = cand.blocks.chars, cand.boiler
    own_chars = sum(c for c, x in zip(chars, boiler) if not x)
    return own_chars, sum(chars[b] for b in chosen if not boiler[b])


def small_page_own_text(cand: Candidates, chosen: list[int], params: ContentParams
                        ) -> tuple[list[int], str]:
    """With site evidence (a template mask, or ``site_rules_min`` other pages
    of the site: folder mode), the page's own text (blocks neither template
    nor repeated on the site) where the choice kept too little of it:

    * nothing kept: all of it (the last page of a listing: two linked rows,
      too few for a list);
    * a page with less own text than ``small_page`` characters, of which the
      rules kept under half: all of it from the first kept block on (a talk's
      page: time, title, speaker and level, each a short block, and the
      region rule kept one; a breadcrumb before the title is not added).

    Returns the blocks and the fallback's name ("" when none applied). The
    region rule weighs blocks by their text, which a page of a few short
    blocks does not have; what the site does not repeat is its own."""
    own = [b for b, x in enumerate(cand.boiler) if not x]
    if not chosen:
        return own, "own text" if own else ""
    own_chars, kept = _own_chars_kept(cand, chosen)
    if own_chars >= params.small_page or 2 * kept >= own_chars:
        return chosen, ""
    first = min(chosen)
    return sorted(set(chosen) | {b for b in own if b >= first}), "small page's own text"


def page_level_added(cand: Candidates, chosen: list[int], params: ContentParams,
                     models: dict[str, Any] | None) -> tuple[list[int], str]:
    """Under a template mask, where the rules kept under half of the page's
    own text (blocks neither template nor repeated on the site), the page
    level's choice (:func:`extract_content` without site evidence) less the
    template and repeated blocks is added to theirs.

    Why: the rules' region is the ancestor of the densest text, and on a
    page whose own text is many short blocks (a product's description
    beside its options, a landing page of teasers, a post's byline above a
    long thread) it holds one of them. The page level reads each block's
    own features and keeps those; the mask and the site's counts still take
    out the chrome. The page level runs only on such pages (its cost is the
    scorer's, about twice the rules'). Returns the blocks and the
    fallback's name ("" when nothing was added). Measured on the crawl check
    and the content sets
    (docs/journal/2026-11-26-crawl-the-page-level-where-the-rules.md)."""
    own_chars, kept = _own_chars_kept(cand, chosen)
    if 2 * kept >= own_chars:
        return chosen, ""
    page = extract_content(cand.doc, None, None, params, models=models, blocks=cand.blocks)
    added = {b for b in page.chosen if not cand.boiler[b]} - set(chosen)
    if not added:
        return chosen, ""
    return sorted(added.union(chosen)), "page level added"


def _by_rules(cand: Candidates, params: ContentParams, models: dict[str, Any] | None,
              small: bool, mapped: Sequence[bool] | None = None
              ) -> tuple[list[int], int, dict[str, Any]]:
    """The rules with the site's evidence; without a template mask and with
    the scorer on, combined with the page level by the learned decision
    (with ``mapped``, the one that reads the mapping's verdicts too)."""
    doc, blocks = cand.doc, cand.blocks
    r = _site_rules(cand, params)
    folder = (params.scorer and not cand.masked and params.site_page > 0
              and cand.others >= params.site_rules_min)
    decision = None
    if folder and params.site_decision:
        if mapped is not None:
            decision = (models or {}).get("decision_mapped") or load_decision(mapped=True)
        if decision is None:
            mapped = None
            decision = (models or {}).get("decision") or load_decision()
    if decision is not None:
        return _decided(cand, r, params, models, decision, mapped)
    if params.scorer and not cand.masked and not small and params.site_page > 0:
        return _site_page_choice(doc, blocks, cand.boiler, r["chosen"], r["region"], params,
                                 models)
    return r["chosen"], r["region"], {"scorer": "rules"}


def _site_rules(cand: Candidates, params: ContentParams) -> dict[str, Any]:
    return rule_signals(cand.doc, cand.blocks, cand.boiler, params,
                        cand.template if cand.masked or cand.others > 0 else None,
                        masked=cand.masked, specific=cand.specific)


def decision_inputs(doc: Document, site: SiteIndex, params: ContentParams = ContentParams(),
                    member: bool = True, models: dict[str, Any] | None = None,
                    mapped: Sequence[bool] | None = None
                    ) -> tuple[Candidates, list[list[float]]] | None:
    """The candidates and the rows the site-level decision reads for ``doc``
    in folder mode (with ``mapped``: the mapped decision's rows), as
    :func:`extract_content` computes them; None where the decision does not
    apply (fewer than ``site_rules_min`` other pages, no text). The training
    script's reader."""
    if doc.body < 0:
        return None
    cand = candidates(doc, site, None, params, member)
    if not len(cand.blocks) or cand.others < params.site_rules_min:
        return None
    page = extract_content(doc, None, None, params, models=models, blocks=cand.blocks)
    return cand, site_decision_rows(cand, _site_rules(cand, params), page, params, models,
                                    mapped)


def site_decision_rows(cand: Candidates, rules: dict[str, Any], page: Content,
                       params: ContentParams = ContentParams(),
                       models: dict[str, Any] | None = None,
                       mapped: Sequence[bool] | None = None) -> list[list[float]]:
    """The rows of the site-level decision (:mod:`.decision`) for the page
    of ``cand``: ``rules`` the rules' verdicts with site evidence, ``page``
    the page level's content of the page alone; with ``mapped``, the
    mapping's verdicts after them (the content under that mask, chosen with
    ``params`` and ``models``, tells which blocks it kept)."""
    mapped_chosen: list[int] = []
    if mapped is not None:
        mapped_chosen = extract_content(cand.doc, None, mapped, params, models=models,
                                        blocks=cand.blocks).chosen
    return decision_rows(cand, page, rules, mapped, mapped_chosen)


def _decided(cand: Candidates, rules: dict[str, Any], params: ContentParams,
             models: dict[str, Any] | None, decision: SiteDecision,
             mapped: Sequence[bool] | None = None) -> tuple[list[int], int, dict[str, Any]]:
    """Site level without a template mask: the learned decision over the page
    level's verdict and the site's (:mod:`.decision`; with ``mapped``, the
    mapping's too) keeps the blocks."""
    page = extract_content(cand.doc, None, None, params, models=models, blocks=cand.blocks)
    keep = decision.keep(site_decision_rows(cand, rules, page, params, models, mapped))
    chosen = [b for b, k in enumerate(keep) if k]
    if params.decision_headings and _headings_alone(cand, chosen, page.chosen):
        chosen = list(page.chosen)
    if params.decision_alike:
        chosen = sorted(set(chosen) | alike_records(cand.doc, cand.blocks, chosen, cand.boiler))
    if params.decision_lead_headings:
        chosen = sorted(set(chosen) | lead_headings(cand, chosen))
    if params.decision_typed:
        # without a mask, cand.template holds the typed link lists alone
        chosen = [b for b in chosen if not cand.template[b]]
    if params.comments and params.decision_comments:
        # a thread the page level kept any of stays whole (comments are content
        # by the shared sites' convention, not by the news sets' gold: the page
        # model, trained on both, tells which a page's thread is, but it drops
        # short comments and author lines one by one)
        thread = comment_thread(cand.doc, cand.blocks, chosen, cand.boiler)
        if thread & set(page.chosen):
            chosen = sorted(set(chosen) | thread)
    return chosen, page.region, {"scorer": "page",
                                 "site": "decision, mapped" if mapped is not None else "decision"}


def lead_headings(cand: Candidates, chosen: Sequence[int]) -> set[int]:
    """The headings not in ``chosen`` whose next block is in it, is the
    page's own text (not ``boiler``) and is a sibling element of the
    heading: a label the site repeats on every page of a kind ("Abstract",
    "Bio") over text that is the page's own. The site's evidence calls the
    label template and the decision drops it; the data convention keeps a
    page's headings with its text. A comment-count heading over a list of
    comments is no sibling of the first comment's block. O(blocks)."""
    doc, node, boiler = cand.doc, cand.blocks.node, cand.boiler
    kept = set(chosen)
    return {b for b in range(len(node) - 1)
            if b not in kept and doc.tag[node[b]] in HEADING_TAGS and b + 1 in kept
            and not boiler[b + 1] and doc.parent[node[b + 1]] == doc.parent[node[b]]}


def _headings_alone(cand: Candidates, chosen: Sequence[int], page: Sequence[int]) -> bool:
    """Whether ``chosen`` (the decision's blocks) is headings alone, not
    none, where ``page`` (the page level's) holds a block that is no
    heading."""
    doc, node = cand.doc, cand.blocks.node

    def heading(b: int) -> bool:
        return doc.tag[node[b]] in HEADING_TAGS

    return bool(chosen) and all(heading(b) for b in chosen) \
        and any(not heading(b) for b in page)


def _by_scorer(cand: Candidates, site: SiteIndex | None, member: bool, params: ContentParams,
               models: dict[str, Any] | None) -> tuple[list[int], int, dict[str, Any]]:
    """The learned scorer: the ``page`` model alone, or with one or two other
    pages the larger of the ``page`` and ``site`` models' probabilities; the
    region by :func:`temex.content.region.select`; at the page level the
    rules where the scorer collapsed (``page_fallback``)."""
    from .features import block_lists
    from .region import Widening, introduced_elements, main_elements, select
    from .scorer import block_features, load_model

    doc, blocks = cand.doc, cand.blocks
    models = models or load_model()
    rule = rule_signals(doc, blocks, [False] * len(blocks), params)
    df: list[int] = []
    if cand.others > 0:
        assert site is not None
        srule = rule_signals(doc, blocks, cand.boiler, params)
        df = site.counts(blocks, member)
        feats = block_features(doc, blocks, rule,
                               {"pages": cand.others, "df": df, "rule": srule})
        variant = "site"
    else:
        feats = block_features(doc, blocks, rule)
        variant = "page"
    model = models[variant]
    probs = model.probabilities(doc, blocks, feats)
    page_probs = probs if variant == "page" else None
    if variant == "site":
        # site evidence adds to the page's own: a block is as likely content as
        # the more confident of the two models says (repeated site text is
        # dropped below; measured in docs/CONTENT.md)
        nf = len(models["page"].names1)
        alone = models["page"].probabilities(doc, blocks, feats, nf)
        probs = [max(a, b) for a, b in zip(probs, alone)]
    if page_probs is not None:
        page_probs = list(page_probs)  # the model's own, before the zeroing below
    for b in range(len(blocks)):
        if cand.template[b]:
            probs[b] = 0.0
    if params.navigation:
        for b, nav in enumerate(navigation_blocks(doc, blocks, rule["ld_ok"])):
            if nav:
                probs[b] = 0.0
    if variant == "site" and cand.others >= 3:
        for b, k in enumerate(df):
            if k >= params.site_share * cand.others:
                probs[b] = 0.0
    lists = block_lists(doc, blocks) if params.list_region > 0 else None
    mains = (main_elements(doc, params.main_sections, blocks, params.main_components)
             if params.main_region > 0 else frozenset())
    page_level = variant == "page"
    title = title_heading(doc, blocks) if page_level and params.title_region > 0 else -1
    widening = Widening(
        lists=lists, list_threshold=params.list_region, mains=mains,
        main_threshold=params.main_region, article=page_level and params.title_article,
        title=title, title_ratio=params.title_region,
        tables=headed_tables(doc) if params.table_gaps else (),
        introduced=introduced_elements(doc, blocks) if params.introduced else (),
        code=params.code_region)
    chosen, region = select(doc, blocks, probs, model.threshold, model.outside, widening)
    stats: dict[str, Any] = {"scorer": variant, "probs": page_probs}
    if variant == "page" and params.page_fallback > 0 and rule["chosen"]:
        kept = sum(blocks.chars[b] for b in chosen)
        if kept < params.page_fallback * sum(blocks.chars[b] for b in rule["chosen"]):
            chosen, region = rule["chosen"], rule["region"]
            stats = {"scorer": "rules", "fallback": True, "probs": page_probs}
    return chosen, region, stats


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
    """Site level without a template mask: the page scorer's
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
    (docs/journal/2026-11-23-content-site-level-the-page-scorer-with.md)."""
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


def main_content(saved: SavedTemplate | None, doc: Document,
                 params: ContentParams = ContentParams(),
                 mask: Sequence[bool] | None = None) -> Content:
    """Main content of ``doc`` under a saved template :
    the template text mask of :func:`text_mask` (or ``mask``) plus the repeated text of
    ``saved.site_index``; the page's own occurrence is discounted only when it
    was one of the indexed sample pages. O(n)."""
    if mask is None and saved is not None:
        from ..template.saved import text_mask  # the saved-template path only

        mask = text_mask(saved, doc)
    index = saved.site_index if saved is not None else None
    member = index.member(doc) if index is not None else False
    return extract_content(doc, index, mask, params, member=member)
