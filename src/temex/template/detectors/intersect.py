"""``IntersectDetector`` (method ``intersect``): ETDM paper Alg. 2, successive
ETDM; the template starts as the key page and is replaced by its ETDM with
each page in turn, i.e. nodes must survive every page."""

from __future__ import annotations

import time
from collections.abc import Sequence

from ...page.dom import Document
from ..model import TemplateModel
from .base import BaseDetector, kind_mask, subdocument

__all__ = ["IntersectDetector"]


class IntersectDetector(BaseDetector):
    """Successive ETDM (ETDM paper Alg. 2): the template is refined by an ETDM
    with each page in turn, so a node survives only if every page maps it.

    The template after each step is materialised as a sub-document of the key
    page so the next ETDM aligns the *current* template, as in Alg. 2, not the
    full key page.

    Parameters are those of :class:`VoteDetector` without ``threshold``.
    """

    method = "intersect"

    def fit(self, key: Document, pages: Sequence[Document]) -> IntersectDetector:
        eq = self._validate()
        t0 = time.perf_counter()
        alive = [True] * len(key)
        votes = [0] * len(key)
        current, index = key, list(range(len(key)))
        for page in pages:
            mask = self._page_mask(current, page, eq)
            for j, m in enumerate(mask):
                if m:
                    votes[index[j]] += 1
                else:
                    alive[index[j]] = False
            if not any(mask):
                break
            current, index = subdocument(key, alive)
        info = {"region": -1}
        template = self._finish(key, alive, pages, info) if pages else [False] * len(key)
        self._model = TemplateModel(
            key=key, template=template, votes=votes, pages=[p.url for p in pages],
            method=self.method, params=self.params_dict(),
            timings={"fit": time.perf_counter() - t0}, region=info["region"],
            kind_template=kind_mask(key, template, info["region"]))
        return self
