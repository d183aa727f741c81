"""The page-level fallback of template extraction.

When no page sharing the key page's template can be found (a page that links
nowhere, a site whose other pages all fail, a folder without other pages),
there is no cross-page evidence, but there is still an answer: the page's main
content chosen at the page level (:func:`temex.content.extract.extract_content`
with the learned scorer, no site) and, as its template, what can be known
without other pages: every element of ``<body>`` outside that content (the
page-level chrome). The model says why in ``fallback``; reports and the
command line show ``page-level fallback: <reason>``.

Cost: one page-level extraction, O(n).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..template.detectors import VoteDetector
from ..template.model import TemplateModel
from .extract import extract_content

if TYPE_CHECKING:
    from ..site.runner import NoTemplateFound, UrlOptions, UrlResult

__all__ = ["fallback_from", "page_level_fallback", "page_level_result"]


def page_level_fallback(model: TemplateModel, reason: str) -> TemplateModel:
    """``model`` (fitted on no other page) with the page-level template, in
    place: an element is content when it is, holds or lies in a block of the
    page's main content; every other element of ``<body>`` is template.
    Returns ``model``."""
    doc = model.key
    main = extract_content(doc)
    content = [False] * len(doc)
    if main.blocks is not None:
        for b in main.chosen:
            node = main.blocks.node[b]
            for j in doc.descendants(node):
                content[j] = True
            for a in doc.ancestors(node):
                content[a] = True
    model.template = [False] * len(doc)
    for i in doc.in_body():
        model.template[i] = not content[i]
    if doc.body >= 0:
        model.template[doc.body] = False  # the page's content is inside it
        for a in doc.ancestors(doc.body):
            model.template[a] = True
    model.region = main.region
    model.kind_template = []
    model.fallback = reason
    return model


def fallback_from(error: Any) -> TemplateModel:
    """The page-level model of a :class:`temex.site.runner.NoTemplateFound`
    (its exploration: the key page, loads and errors kept), the reason being
    the error's message without the page's address."""
    from ..site.explore import fit_exploration

    ex = error.exploration
    model = fit_exploration(ex, VoteDetector())
    reason = str(error)
    prefix = f"{ex.key.url}: "
    if reason.startswith(prefix):
        reason = reason[len(prefix):]
    return page_level_fallback(model, reason)


def page_level_result(error: NoTemplateFound, opts: UrlOptions) -> UrlResult:
    """The URL runner's answer instead of a
    :class:`temex.site.runner.NoTemplateFound`: a
    :class:`temex.site.runner.UrlResult` of the page level's model
    (:func:`fallback_from`), the exploration that found no page to compare,
    and the options ``opts`` it ran with."""
    from ..site.runner import UrlResult

    return UrlResult(fallback_from(error), error.exploration, opts)
