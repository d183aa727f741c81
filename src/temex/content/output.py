"""Output stage: the kept blocks of a page written as text, Markdown, HTML or
a JSON report.

Idea: the pipeline's result is a set of kept blocks (:class:`Content`); every
output format is one walk over the page's elements whose own text belongs to
a kept block, in document order (:mod:`temex.content.text`: one line per
block element; Markdown keeps headings, lists, tables, code fences with their
language, quotes, links and images). Source: the CleanEval gold format (one
block per line) and CommonMark with GFM tables. Cost: O(n) per output over the
page's elements.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..page import kernel
from ..page.blocks import Blocks
from ..page.dom import Document
from .metadata import front_matter as metadata_front_matter
from .metadata import page_metadata, trafilatura_fields
from .text import markdown_text, text_lines

__all__ = ["Content"]

#: Inline (phrasing) elements: one without text or elements inside, directly
#: in a kept element, is the space between its words, or nothing
#: (:meth:`Content.keep_mask`).
_SPACERS = frozenset({"span", "font", "a", "b", "strong", "i", "em", "u", "s", "small", "big",
                      "code", "tt", "kbd", "samp", "var", "sub", "sup", "mark", "abbr", "cite",
                      "q", "dfn", "ins", "del", "label", "time", "nobr", "bdi", "bdo", "data"})


@dataclass
class Content:
    """The main content of one page.

    Attributes
    ----------
    doc : Document
    blocks : Blocks
    chosen : list of int
        Indices of the kept blocks, in document order.
    region : int
        The main block's element (-1 when nothing was kept).
    reason : str
        Why the result is empty, or "".
    stats : dict
    probs : list of float or None
        The page model's probability of each block, where the page level's
        scorer ran (the site-level decision reads it); not in any output.
    """

    doc: Document | None
    blocks: Blocks | None
    chosen: list[int]
    region: int = -1
    reason: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    probs: list[float] | None = field(default=None, repr=False)

    def keep_mask(self) -> list[bool]:
        """Elements whose own text belongs to a kept block, and elements
        without visible text of their own that hold a kept element: their
        whitespace separates kept text (the spaces and line breaks between
        the highlighted tokens of a ``<pre>``, which a block of its own
        would not keep: ``importtoppraasta`` for ``import toppra as ta``),
        and inside a kept ``<pre>`` every element without visible text (a
        highlighter's whitespace tokens)."""
        assert self.doc is not None and self.blocks is not None
        # text and Markdown both ask: made once per choice of blocks
        key = tuple(self.chosen)
        cached = self.__dict__.get("_keep_mask")
        if cached is not None and cached[0] == key:
            return list(cached[1])
        keep = self._keep_mask()
        self.__dict__["_keep_mask"] = (key, keep)
        return list(keep)

    def _keep_mask(self) -> list[bool]:
        assert self.doc is not None and self.blocks is not None
        k = kernel.get()
        if k is not None:  # the same passes in C
            doc = self.doc
            return k.keep_mask(self.blocks.block_of, list(self.chosen),  # type: ignore[no-any-return]
                               len(self.blocks), doc.parent, doc.text, doc.tag, doc.size, _SPACERS)
        chosen = set(self.chosen)
        keep = [b in chosen for b in self.blocks.block_of]
        doc = self.doc
        parent, text = doc.parent, doc.text
        holds = [False] * len(doc)  # a kept element inside (children come after parents)
        for i in range(len(doc) - 1, -1, -1):
            p = parent[i]
            if p >= 0 and (keep[i] or holds[i]):
                holds[p] = True
        tag, size = doc.tag, doc.size
        # a text-free element that holds kept text is kept; so is a text-free
        # inline leaf directly in a kept element: the space of Sphinx's
        # signatures and of highlighted inline code
        # (<span>int</span><span class="w"> </span><span>foo</span>) belongs to
        # no block, and the words around it were written as one ("intfoo").
        # Pre-order: a parent's verdict is final before its children's.
        for i in range(len(doc)):
            if keep[i] or text[i]:
                continue
            p = parent[i]
            if holds[i] or (size[i] == 1 and p >= 0 and keep[p] and tag[i] in _SPACERS):
                keep[i] = True
        # inside a kept <pre> every element without visible text is kept too:
        # a highlighter's whitespace tokens (Pygments' <span class="w"> </span>)
        # hold no kept element, and the code lost its spaces ("*[First item]")
        for i in [i for i, t in enumerate(tag) if t == "pre"]:
            if keep[i] or holds[i]:
                for j in range(i + 1, i + size[i]):
                    if not text[j]:
                        keep[j] = True
        return keep

    def lines(self) -> list[str]:
        """Kept text in document order, one line per block element; text
        placed directly in a container between its block children is a line
        of its own, at its place (:func:`temex.content.render.text_lines`)."""
        if self.doc is None or self.blocks is None or not self.chosen:
            return []

        return text_lines(self.doc, self.keep_mask(), markdown=False)

    def text(self, front_matter: bool = False) -> str:
        """One block per line (the format of the gold files); with
        ``front_matter``, the page's metadata first as YAML front matter, as
        :meth:`markdown` writes it."""
        head = ""
        if front_matter and self.doc is not None:
            head = metadata_front_matter(self.metadata(), self.doc.url)
        return head + "\n".join(self.lines())

    def markdown(self, front_matter: bool = False) -> str:
        """Kept text as Markdown (headings, lists, tables, code, quotes,
        links and images absolute); with ``front_matter``, the page's
        metadata first as YAML front matter (:mod:`temex.content.metadata`)."""
        head = ""
        if front_matter and self.doc is not None:
            head = metadata_front_matter(self.metadata(), self.doc.url)
        if self.doc is None or self.blocks is None or not self.chosen:
            return head

        return head + markdown_text(self.doc, self.keep_mask())

    def metadata(self) -> dict[str, Any]:
        """The page's metadata (:func:`temex.content.metadata.page_metadata`)."""
        if self.doc is None:
            return {}
        return page_metadata(self.doc)

    def html(self) -> str:
        """HTML of the kept blocks' elements, one per line (a block element
        nested in a kept block is output once, with its parent)."""
        if self.doc is None or self.blocks is None:
            return ""
        doc, out, last_end = self.doc, [], -1
        for b in self.chosen:
            node = self.blocks.node[b]
            if node < last_end:
                continue
            out.append(doc.elements[node].html or "")
            last_end = node + doc.size[node]
        return "\n".join(out)

    def report(self) -> dict[str, Any]:
        """The JSON report: the page, what was kept and why, the metadata
        (``metadata``, and its fields under trafilatura's names at the top:
        :func:`temex.content.metadata.trafilatura_fields`), the text."""
        d = self.doc
        meta, text = self.metadata(), self.text()
        return {"page": d.url if d else None, "empty": not self.chosen,
                "reason": self.reason, "blocks": len(self.blocks) if self.blocks else 0,
                "kept_blocks": len(self.chosen),
                "region": d.path(self.region) if d is not None and self.region >= 0 else None,
                "metadata": meta, "text": text,
                **trafilatura_fields(meta, d.url if d else "", text), **self.stats}


