"""The detectors' common base: scikit-learn's estimator convention (parameters
set in ``__init__`` and stored unchanged; ``fit(key, pages)`` validates,
learns and returns ``self``; learned state ends in ``_``), validation and the
per-page ETDM mask with the evidence rule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...errors import NotFittedError, ParameterError
from ...page.dom import Document
from ...page.titles import head_titles
from ..equality import DEFAULT_EQUALITY, Equality, get_equality
from ..mapping import DEFAULT_MAX_CELLS, etdm
from ..model import TemplateModel
from ..moved import moved_blocks
from ..rules import RULE_NAMES, RULES, Compared, Rules, apply_region
from ..rules.evidence import muted_evidence, supported_mapping

__all__ = ["BaseDetector", "FittedMixin", "kind_mask", "mapped_mask", "seen_texts",
           "shared_texts", "site_titles", "subdocument"]


def seen_texts(pages: Sequence[Document]) -> set[str]:
    """Every non-empty own text of the compared pages (the record-list rule
    of :func:`temex.template.rules.refine_region` counts text found there as not
    page-specific)."""
    return {t for p in pages for t in p.text if t}


def shared_texts(pages: Sequence[Document]) -> set[str]:
    """The non-empty own texts that every compared page has: what the pages
    share word for word (the head zone rule of :func:`temex.template.rules.head_zone`
    leaves a navigation widget made of them template)."""
    if not pages:
        return set()
    out = {t for t in pages[0].text if t}
    for p in pages[1:]:
        out.intersection_update(p.text)
    return out


def site_titles(pages: Sequence[Document]) -> list[str]:
    """The compared pages' titles as their heads state them
    (:func:`temex.page.titles.head_titles`): what most of them share is the
    site's name (the title rule of :func:`temex.template.rules.title_nodes`)."""
    return [head_titles(p) for p in pages]


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
    """Shared parameters, validation and bookkeeping.

    The rule switches are one :class:`temex.template.rules.Rules` object
    (``rules``); each of its fields may also be given by name
    (``VoteDetector(title=False)``), and reads back as an attribute
    (``det.title``). :meth:`get_params` lists them by name, in
    :attr:`PARAMS` order, as a saved model records them."""

    method = "base"
    #: Parameter names in the order :meth:`get_params` gives them.
    PARAMS: tuple[str, ...] = (
        "equality", "evidence", "region", "max_cells", "evidence_share", "record_share",
        "closure", "digits", "title", "site_title", "query_forms", "link_types",
        "named_lists", "labels", "moved")

    def __init__(self, equality: str | Equality = DEFAULT_EQUALITY,
                 max_cells: int = DEFAULT_MAX_CELLS, rules: Rules = RULES,
                 **switches: Any) -> None:
        unknown = sorted(set(switches) - set(self.PARAMS))
        if unknown:  # as for any keyword the detector does not take
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                            f"{unknown[0]!r}")
        self.equality = equality
        self.max_cells = max_cells
        self.rules = rules.with_switches(**switches)

    def get_params(self) -> dict[str, Any]:
        """Parameters by name (scikit-learn's convention), the rule switches
        among them."""
        return {k: getattr(self, k) for k in self.PARAMS}

    def fit(self, key: Document, pages: Sequence[Document]) -> BaseDetector:
        raise NotImplementedError

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def _validate(self) -> Equality:
        if not isinstance(self.max_cells, int) or self.max_cells < 1:
            raise ParameterError("max_cells", "a positive int", self.max_cells)
        rules = self.rules
        if rules.region is not None and not (isinstance(rules.region, (int, float))
                                             and 0 < rules.region <= 1):
            raise ParameterError("region", "None or a number in (0, 1]", rules.region)
        for name in ("evidence_share", "record_share"):
            v = getattr(rules, name)
            if v is not None and not (isinstance(v, (int, float)) and 0 <= v <= 1):
                raise ParameterError(name, "None or a number in [0, 1]", v)
        if rules.moved is not None and not (isinstance(rules.moved, int) and rules.moved >= 1):
            raise ParameterError("moved", "None or an int >= 1", rules.moved)
        return get_equality(self.equality)

    def _finish(self, key: Document, template: list[bool],
                pages: Sequence[Document] = (), info: dict[str, int] | None = None
                ) -> list[bool]:
        if self.rules.region is not None:
            return apply_region(key, template, self.rules.region, rules=self.rules,
                                compared=self._compared(pages), info=info)
        return template

    def _compared(self, pages: Sequence[Document], rows: Callable[[int], bool] | None = None
                  ) -> Compared:
        """What the compared pages tell the rules (:class:`temex.template.rules.Compared`)."""
        return Compared(seen=seen_texts(pages),
                        site_titles=site_titles(pages) if self.rules.site_title else (),
                        shared=shared_texts(pages), rows=rows)

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
        rules = self.rules
        if rules.moved is not None:
            mapping = moved_blocks(key, page, mapping, rules.moved)
        if not rules.evidence:
            m = mapped_mask(len(key), mapping)
            return m, m, mapping
        mute = muted_evidence(key, page, mapping)
        first = supported_mapping(key, page, mapping, None, mute=mute)
        if rules.evidence_share is None:
            return first, first, mapping
        return first, supported_mapping(key, page, mapping, rules.evidence_share,
                                        rules.digits, mute=mute), mapping

    def params_dict(self) -> dict[str, Any]:
        return {k: (v if isinstance(v, (int, float, str, bool, type(None))) else repr(v))
                for k, v in self.get_params().items()}


def kind_mask(doc: Document, template: Sequence[bool], region: int) -> list[bool]:
    """The page-kind level of a template mask: template elements inside the
    content region ``region`` (see :class:`temex.template.model.TemplateModel`);
    empty when there is no region."""
    if region < 0:
        return []
    inside = doc.descendants(region)
    return [bool(template[i]) and i in inside for i in range(len(doc))]


def mapped_mask(n: int, mapping: dict[int, int]) -> list[bool]:
    mask = [False] * n
    for a in mapping:
        mask[a] = True
    return mask


def subdocument(doc: Document, keep: list[bool]) -> tuple[Document, list[int]]:
    """The tree induced by the nodes in ``keep`` (which must be closed upwards),
    renumbered in pre-order; returns it and the map new number -> old number."""
    index = [i for i, k in enumerate(keep) if k]
    new_of = {old: new for new, old in enumerate(index)}
    sub = Document(url=doc.url, encoding=doc.encoding)
    for old in index:
        sub.tag.append(doc.tag[old])
        sub.id.append(doc.id[old])
        sub.classes.append(doc.classes[old])
        sub.attrs.append(doc.attrs[old])
        p = doc.parent[old]
        sub.parent.append(new_of.get(p, -1) if p >= 0 else -1)
        sub.depth.append(doc.depth[old])
        sub.text.append(doc.text[old])
    kids: list[list[int]] = [[] for _ in index]
    for new, p in enumerate(sub.parent):
        if p >= 0:
            kids[p].append(new)
    sub.children = [tuple(k) for k in kids]
    sub.position = [0] * len(index)
    for k in kids:
        for pos, c in enumerate(k):
            sub.position[c] = pos
    sub.rehash()
    sub.body = new_of.get(doc.body, -1)
    return sub, index


def _switch(name: str) -> property:
    return property(lambda self: getattr(self.rules, name),
                    doc=f"The ``{name}`` switch of ``rules`` (read only).")


for _name in RULE_NAMES:  # each rule switch reads as an attribute: det.title
    setattr(BaseDetector, _name, _switch(_name))
