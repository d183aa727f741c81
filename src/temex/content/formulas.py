"""Formulas in the text and Markdown outputs: each written once, as its TeX
source where the page gives it.

Idea: a formula of a web page is a MathML ``<math>`` element (MathML 3,
W3C 2014, §2.1), often beside a second, visual rendering of itself that is
hidden from assistive technology with ``aria-hidden="true"`` (WAI-ARIA 1.2:
the element is not exposed to the accessibility API; the ``<math>`` is the
accessible form). KaTeX writes ``span.katex > (span.katex-mathml > math,
span.katex-html[aria-hidden])``, MathJax 2 ``span.MathJax > (nobr[aria-hidden],
span.MJX_Assistive_MathML > math)``, MathJax 3 ``mjx-container >
(mjx-math[aria-hidden], mjx-assistive-mml > math)``. Read as plain text, a
page then says every formula two or three times (``x2x^2x2`` for x²). The
``<math>`` often carries its source in ``semantics > annotation
encoding="application/x-tex"`` (MathML 3, §5.1), which says the formula
once, in the notation people write and search.

So, with the elements to write given as a keep mask: inside a ``<math>``
that has a TeX annotation only the annotation is written; a written
``<math>``'s ``aria-hidden`` siblings and its parent's (the renderings) are
not. A ``<math>`` that is itself not written (Wikipedia hides it and shows
an image whose ``alt`` is the TeX) changes nothing. No library class is
named: the markup's own statements (MathML's annotation, ARIA's hiding).

Cost: one membership test of the page's tags when it has no ``<math>``
(most pages); else O(n): each formula's subtree once, each parent's
children once.
"""

from __future__ import annotations

from ..page.dom import Document

__all__ = ["formula_keep", "tex_annotation"]

#: Ancestors of a ``<math>`` whose other children may be its rendering.
RENDERING_LEVELS = 2


def tex_annotation(doc: Document, i: int) -> bool:
    """Whether element ``i`` is an ``annotation`` whose ``encoding`` names
    TeX (``application/x-tex``, ``TeX``, ``application/x-latex``)."""
    return doc.tag[i] == "annotation" and "tex" in dict(doc.attrs[i]).get("encoding", "").lower()


def formula_keep(doc: Document, keep: list[bool]) -> list[bool]:
    """``keep`` (one flag per element: its own text is written) with each
    written formula written once: its TeX annotation alone where it has one,
    its ``aria-hidden`` renderings not (module docstring). A new list when
    anything changes, else ``keep`` itself."""
    tag = doc.tag
    if "math" not in tag:
        return keep
    size, parent, children, attrs = doc.size, doc.parent, doc.children, doc.attrs
    out = keep
    seen: set[int] = set()  # parents whose children were looked at: O(n) in all
    for m in [i for i, t in enumerate(tag) if t == "math"]:
        end = m + size[m]
        if not any(out[m:end]):
            continue
        if out is keep:
            out = list(keep)
        tex = next((j for j in range(m + 1, end)
                    if tex_annotation(doc, j) and doc.text[j].strip()), -1)
        if tex >= 0:
            for j in range(m + 1, end):
                out[j] = j == tex
        node = m
        for _ in range(RENDERING_LEVELS):
            p = parent[node]
            if p < 0:
                break
            if p not in seen:
                seen.add(p)
                for c in children[p]:
                    if ("aria-hidden", "true") in attrs[c] and not c <= m < c + size[c]:
                        out[c:c + size[c]] = [False] * size[c]
            node = p
    return out
