"""The detectors' common base: scikit-learn's estimator convention (parameters
set in ``__init__`` and stored unchanged; ``fit(key, pages)`` validates,
learns and returns ``self``; learned state ends in ``_``), validation and the
per-page ETDM mask with the evidence rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import NotFittedError, ParameterError
from ...page.dom import Document
from ..equality import DEFAULT_EQUALITY, Equality, get_equality
from ..mapping import DEFAULT_MAX_CELLS, etdm
from ..model import TemplateModel
from ..moved import DEFAULT_MOVED, moved_blocks
from .rules import (
    DEFAULT_EVIDENCE_SHARE,
    DEFAULT_RECORD_SHARE,
    DEFAULT_REGION,
    LINK_TYPE_TEXT,
    apply_region,
    mapped_mask,
    muted_evidence,
    page_title,
    supported_mapping,
)

__all__ = ["BaseDetector", "FittedMixin", "seen_texts", "shared_texts", "site_titles"]


def seen_texts(pages: Sequence[Document]) -> set[str]:
    """Every non-empty own text of the compared pages (the record-list rule
    of :func:`.rules.refine_region` counts text found there as not
    page-specific)."""
    return {t for p in pages for t in p.text if t}


def shared_texts(pages: Sequence[Document]) -> set[str]:
    """The non-empty own texts that every compared page has: what the pages
    share word for word (the head zone rule of :func:`.rules.head_zone`
    leaves a navigation widget made of them template)."""
    if not pages:
        return set()
    out = {t for t in pages[0].text if t}
    for p in pages[1:]:
        out.intersection_update(p.text)
    return out


def site_titles(pages: Sequence[Document]) -> list[str]:
    """The compared pages' titles as their heads state them
    (:func:`.rules.page_title`): what most of them share is the site's name
    (the title rule of :func:`.rules.title_nodes`)."""
    return [page_title(p) for p in pages]


class FittedMixin:
    """``model_``, ``template_`` and ``votes_`` of a fitted detector; raises
    :class:`NotFittedError` before ``fit`` (scikit-learn's check_is_fitted)."""

    @property
    def model_(self) -> TemplateModel:
        try:
            model: TemplateModel = self.__dict__["_model"]
            return model
        except KeyError:
            raise NotFittedError(f"{type(self).__name__} is not fitted; call fit(key, pages)") \
                from None

    @property
    def template_(self) -> list[bool]:
        return self.model_.template

    @property
    def votes_(self) -> list[int]:
        return self.model_.votes


class BaseDetector(FittedMixin):
    """Shared parameters, validation and bookkeeping."""

    method = "base"

    def __init__(self, equality: str | Equality = DEFAULT_EQUALITY, evidence: bool = True,
                 region: float | None = DEFAULT_REGION,
                 max_cells: int = DEFAULT_MAX_CELLS,
                 evidence_share: float | None = DEFAULT_EVIDENCE_SHARE,
                 record_share: float | None = DEFAULT_RECORD_SHARE,
                 closure: bool = True, digits: bool = True, title: bool = True,
                 site_title: bool = True, query_forms: bool = True,
                 link_types: int | None = LINK_TYPE_TEXT, named_lists: bool = True,
                 labels: bool = True, moved: int | None = DEFAULT_MOVED) -> None:
        self.equality = equality
        self.evidence = evidence
        self.region = region
        self.max_cells = max_cells
        self.evidence_share = evidence_share
        self.record_share = record_share
        self.closure = closure
        self.digits = digits
        self.title = title
        self.site_title = site_title
        self.query_forms = query_forms
        self.link_types = link_types
        self.named_lists = named_lists
        self.labels = labels
        self.moved = moved

    def get_params(self) -> dict[str, Any]:
        """Parameters as given to ``__init__`` (scikit-learn's convention)."""
        init = type(self).__init__
        names = init.__code__.co_varnames[1:init.__code__.co_argcount]
        return {k: getattr(self, k) for k in names}

    def fit(self, key: Document, pages: Sequence[Document]) -> BaseDetector:
        raise NotImplementedError

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def _validate(self) -> Equality:
        if not isinstance(self.max_cells, int) or self.max_cells < 1:
            raise ParameterError("max_cells", "a positive int", self.max_cells)
        if self.region is not None and not (isinstance(self.region, (int, float))
                                            and 0 < self.region <= 1):
            raise ParameterError("region", "None or a number in (0, 1]", self.region)
        for name in ("evidence_share", "record_share"):
            v = getattr(self, name)
            if v is not None and not (isinstance(v, (int, float)) and 0 <= v <= 1):
                raise ParameterError(name, "None or a number in [0, 1]", v)
        if self.moved is not None and not (isinstance(self.moved, int) and self.moved >= 1):
            raise ParameterError("moved", "None or an int >= 1", self.moved)
        return get_equality(self.equality)

    def _finish(self, key: Document, template: list[bool],
                pages: Sequence[Document] = (), info: dict[str, int] | None = None
                ) -> list[bool]:
        if self.region is not None:
            return apply_region(key, template, self.region, record_share=self.record_share,
                                closure=self.closure, seen=seen_texts(pages), info=info,
                                title=self.title, **self._title_rules(pages))
        return template

    def _title_rules(self, pages: Sequence[Document]) -> dict[str, Any]:
        """The title rules' arguments of :func:`.rules.apply_region`."""
        return {"site_titles": site_titles(pages) if self.site_title else (),
                "shared": shared_texts(pages),
                "query_forms": self.query_forms, "link_types": self.link_types,
                "named_lists": self.named_lists, "labels": self.labels}

    def _page_mask(self, key: Document, page: Document, eq: Equality) -> list[bool]:
        return self._page_masks(key, page, eq)[0]

    def _page_masks(self, key: Document, page: Document, eq: Equality
                    ) -> tuple[list[bool], list[bool], dict[int, int]]:
        """The supported mapping under the first evidence rule (used to find
        the content region and outside it) and under the text-share rule
        (used inside the region, where widgets repeat inside the page's own
        blocks); the same mask twice when one rule is off; and the mapping
        itself, ETDM's with the blocks that moved
        (:mod:`temex.template.moved`)."""
        if key.tag[0] != page.tag[0]:  # Alg. 2: "if root(pk) ≅ root(p)"
            none = [False] * len(key)
            return none, none, {}
        mapping = etdm(key, page, eq, max_cells=self.max_cells)
        if self.moved is not None:
            mapping = moved_blocks(key, page, mapping, self.moved)
        if not self.evidence:
            m = mapped_mask(len(key), mapping)
            return m, m, mapping
        mute = muted_evidence(key, page, mapping)
        first = supported_mapping(key, page, mapping, None, mute=mute)
        if self.evidence_share is None:
            return first, first, mapping
        return first, supported_mapping(key, page, mapping, self.evidence_share,
                                        self.digits, mute=mute), mapping

    def params_dict(self) -> dict[str, Any]:
        return {k: (v if isinstance(v, (int, float, str, bool, type(None))) else repr(v))
                for k, v in self.get_params().items()}
