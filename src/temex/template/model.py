"""TemplateModel: which nodes of a key page form the site's template.

A fitted detector produces a :class:`TemplateModel`. It knows the key page, the
template mask over the key page's elements, the pages compared and how the
result was obtained (parameters, loads, timings). Outputs (``temex.content.render``)
and evaluation (``temex.evaluate``) read only this object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..page.dom import Document

__all__ = ["TemplateModel"]


@dataclass(eq=False)
class TemplateModel:
    """The template of a key page (TeMex paper §3.1 phase 3: a subset of the
    key page's DOM nodes, closed upwards so it is itself a well-formed page,
    except that the root of the content region is content even when template
    controls sit inside it; see ``detectors.apply_region``).

    Attributes
    ----------
    key : Document
        The key page.
    template : list of bool
        ``template[i]`` is True when element ``i`` of the key page belongs to
        the template.
    votes : list of int
        For each key-page element, in how many compared pages it was mapped
        (and supported, see ``temex.template.detectors``).
    pages : list of str
        URLs or paths of the pages the key page was compared with.
    method, params : str, dict
        Detector name and its parameters.
    loads : int
        Pages loaded to build the model, key page included.
    timings : dict of str to float
        Seconds spent per phase (``load``, ``parse``, ``fit``, ...).
    errors : list of dict
        Pages that could not be used, each ``{"page": ..., "error": ...}``.
    region : int
        The content region's root (``rules.region.content_region``), -1
        when none was placed.
    kind_template : list of bool
        Two levels of template: ``kind_template[i]`` is True for a
        template element of the *page kind*, inside the content region
        (pagination, share bars, comment and review forms, breadcrumbs inside
        the main element: chrome that only pages of the key page's kind
        carry); the other template elements are *site-wide* (header, menus,
        sidebars, footer). Empty when the detector placed no region. Both
        levels are template (``template[i]`` is True); see
        :meth:`template_level`.
    fallback : str
        Why the template is the page-level one (no page sharing the key
        page's template was found: :mod:`temex.content.fallback`), or "".
    """

    key: Document
    template: list[bool]
    votes: list[int]
    pages: list[str]
    method: str
    params: dict[str, Any]
    loads: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    errors: list[dict[str, str]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    region: int = -1
    kind_template: list[bool] = field(default_factory=list)
    fallback: str = ""

    @property
    def n_nodes(self) -> int:
        return len(self.key)

    def template_nodes(self) -> list[int]:
        """Key-page element numbers in the template, in document order."""
        return [i for i, t in enumerate(self.template) if t]

    def content_nodes(self) -> list[int]:
        """Elements of ``<body>`` not in the template (the page's own part)."""
        return [i for i in self.key.in_body() if not self.template[i]]

    def template_roots(self) -> list[int]:
        """Template nodes whose parent is not in the template (usually just
        ``<html>``)."""
        k = self.key
        return [i for i in self.template_nodes() if k.parent[i] < 0 or not self.template[k.parent[i]]]

    def content_roots(self) -> list[int]:
        """Maximal non-template subtrees inside ``<body>``."""
        k = self.key
        return [i for i in self.content_nodes() if k.parent[i] >= 0 and self.template[k.parent[i]]]

    def template_level(self, i: int) -> str | None:
        """``"site"`` (site-wide template), ``"kind"`` (template of the page
        kind, inside the content region) or None (content)."""
        if not self.template[i]:
            return None
        return "kind" if self.kind_template and self.kind_template[i] else "site"

    def site_template(self) -> list[bool]:
        """The site-wide level alone: template minus the page-kind template
        (strip this to keep a page's kind chrome with its content)."""
        if not self.kind_template:
            return list(self.template)
        return [t and not k for t, k in zip(self.template, self.kind_template)]

    def counts(self) -> dict[str, int]:
        body = self.key.in_body()
        ignored = self.key.ignored_mask()
        in_body = [i for i in body if not ignored[i]]
        t = sum(1 for i in in_body if self.template[i])
        k = sum(1 for i in in_body if self.template[i] and self.kind_template
                and self.kind_template[i])
        return {"nodes": len(self.key), "body_nodes": len(in_body),
                "template_nodes": t, "content_nodes": len(in_body) - t,
                "site_template_nodes": t - k, "kind_template_nodes": k}
