"""The template detectors' rules, one module per family; none comes from the
papers but the vote they refine (TeMex §3.1, ETDM Alg. 2).

:mod:`.evidence`
    whether a mapped node repeats on a compared page (repeated own text or
    identical attributed leaves; inside the region, most of a subtree's text).
:mod:`.region`
    the content region: the element holding the share ``region`` of the
    page's own non-link text; non-template slots outside it are template.
:mod:`.records`
    record lists inside the region are content; template there comes as
    whole widgets (*closure*); a short listing's row.
:mod:`.title`
    the page's title heading, and the region widened to it.
:mod:`.head_zone`
    what lies between the title and the text is content, but the kind's
    navigation and query widgets.
:mod:`.links`
    the kind's link lists told by link types, targets or names are template.
:mod:`.finish`
    fillers follow their block, header rows of a content table, labels.
:mod:`.sequence`
    the switches (:class:`Rules`) and the steps after the vote, in order,
    each with its switch and where it was measured (:data:`PLACING`,
    :data:`PASSES`); :func:`apply_region` runs them.

The data README's convention (the page's own records, title and byline are
content; the chrome of a page kind is template) is what these rules aim at.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from ..defaults import DEFAULT_REGION

if TYPE_CHECKING:
    from .evidence import DEFAULT_EVIDENCE_SHARE, muted_evidence, supported_mapping
    from .records import DEFAULT_RECORD_SHARE, siblings_alike
    from .region import content_region
    from .sequence import PASSES, PLACING, RULE_NAMES, RULES, Compared, Rules, apply_region
    from .title import title_nodes

#: Where each public name lives; a family module loads on first use (the
#: content stage reads two link rules without the rest).
_LAZY = {
    "DEFAULT_EVIDENCE_SHARE": ".evidence", "muted_evidence": ".evidence",
    "supported_mapping": ".evidence", "DEFAULT_RECORD_SHARE": ".records",
    "siblings_alike": ".records", "content_region": ".region", "PASSES": ".sequence",
    "PLACING": ".sequence", "RULE_NAMES": ".sequence", "RULES": ".sequence",
    "Compared": ".sequence", "Rules": ".sequence", "apply_region": ".sequence",
    "title_nodes": ".title",
}

__all__ = ["DEFAULT_EVIDENCE_SHARE", "DEFAULT_RECORD_SHARE", "DEFAULT_REGION", "PASSES",
           "PLACING", "RULES", "RULE_NAMES", "Compared", "Rules", "apply_region",
           "content_region", "muted_evidence", "siblings_alike",
           "supported_mapping", "title_nodes"]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value
