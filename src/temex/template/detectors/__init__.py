"""Template detectors: compare a key page with pages of its site.

All detectors follow scikit-learn's estimator convention: parameters are set in
``__init__`` and stored unchanged, ``fit(key_page, pages)`` validates them,
learns and returns ``self``; learned state ends in ``_`` (``model_``, the
:class:`~temex.template.model.TemplateModel`, ``template_``, ``votes_``).

``VoteDetector`` (method ``vote``, the default)
    TeMex paper §3.1 phase 2: the key page is mapped (ETDM) to each page
    independently; a key-page node belongs to the template when it is mapped
    in more than ``threshold`` of the pages (default: a strict majority).
``IntersectDetector`` (method ``intersect``)
    ETDM paper Alg. 2: the template starts as the key page and is replaced by
    its ETDM with each page in turn, i.e. nodes must survive every page.
``RTDMDetector`` (method ``rtdm``) and ``ChunksDetector`` (method ``chunks``)
    RTDM-TD and text-chunk document frequency (``rtdm.py``, ``chunks.py``).

The rules (evidence, content region and the passes after the vote) are in
:mod:`temex.template.rules`; this module holds the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import ParameterError
from ..defaults import DEFAULT_N_PAGES
from ..equality import DEFAULT_EQUALITY
from ..rules import DEFAULT_REGION, Rules, apply_region, content_region, supported_mapping
from .base import BaseDetector, FittedMixin, subdocument
from .intersect import IntersectDetector
from .vote import VoteDetector

__all__ = [
    "DEFAULT_N_PAGES",
    "DEFAULT_REGION",
    "ExtractOptions",
    "DETECTORS",
    "METHOD_PARAMS",
    "BaseDetector",
    "FittedMixin",
    "IntersectDetector",
    "Rules",
    "VoteDetector",
    "apply_region",
    "content_region",
    "get_detector",
    "subdocument",
    "supported_mapping",
]

DETECTORS: dict[str, type[Any]] = {
    "vote": VoteDetector,
    "intersect": IntersectDetector,
}


def _register_collection_detectors() -> None:
    """RTDM-TD and table-text-chunk detectors are registered on first use, so
    that importing the package does not import their modules."""
    if "rtdm" not in DETECTORS:
        from .chunks import ChunksDetector
        from .rtdm import RTDMDetector

        DETECTORS["rtdm"] = RTDMDetector
        DETECTORS["chunks"] = ChunksDetector


#: Parameters each method accepts from :class:`temex.api.ExtractOptions`.
METHOD_PARAMS = {
    "vote": ("equality", "threshold", "evidence", "region", "region_threshold", "max_cells",
             "evidence_share", "record_share", "closure", "digits", "title", "site_title",
             "query_forms", "link_types", "named_lists", "labels", "moved"),
    "intersect": ("equality", "evidence", "region", "max_cells", "evidence_share",
                  "record_share", "closure", "digits", "title", "site_title", "query_forms",
                  "link_types", "named_lists", "labels", "moved"),
    "rtdm": ("region", "max_cells"),
    "chunks": ("threshold", "tag_path", "boundary", "alt", "region"),
}


def get_detector(method: str, **params: Any) -> Any:
    """Build the detector called ``method`` (``vote``, ``intersect``, ``rtdm``,
    ``chunks``) with ``params``; every detector has ``fit(key, pages)``
    returning itself and a ``model_`` TemplateModel."""
    _register_collection_detectors()
    cls = DETECTORS.get(method)
    if cls is None:
        raise ParameterError("method", f"one of {sorted(DETECTORS)}", method)
    return cls(**params)


@dataclass
class ExtractOptions:
    """What to extract and how (one object from CLI flags or API arguments)."""

    method: str = "vote"
    equality: str = DEFAULT_EQUALITY
    threshold: float = 0.5
    n_pages: int = DEFAULT_N_PAGES
    evidence: bool = True
    region: float | None = DEFAULT_REGION
    region_threshold: float | None = 0.67
    extra: dict[str, Any] = field(default_factory=dict)

    def detector_params(self) -> dict[str, Any]:
        """The options the chosen method takes (``detectors.METHOD_PARAMS``)."""
        given: dict[str, Any] = {"equality": self.equality, "evidence": self.evidence,
                                 "region": self.region, "threshold": self.threshold,
                                 "region_threshold": self.region_threshold,
                                 **self.extra}
        accepted = METHOD_PARAMS.get(self.method, ())
        return {k: v for k, v in given.items() if k in accepted}
