"""Permalinks: a heading's or an entry's link to itself.

Idea: documentation and blog generators give each heading (and each API
entry) a link to itself, for readers who want to copy its address: Sphinx
and MkDocs write ``<h2>Usage<a class="headerlink" href="#usage">¶</a></h2>``
inside ``<section id="usage">``, Docusaurus a zero-width ``<a
class="hash-link" href="#usage">``, others a ``#`` or ``§``. Read as text,
every heading and signature then ends in a pilcrow ("Coroutine Objects¶",
``# Usage[¶](#usage)`` in Markdown). Such a link is recognised by what it
says and where it points, not by a generator's class names: an ``<a>``
whose ``href`` is the fragment of an element near it (the heading or entry
around it, its section a few levels up, or the entry's name beside it, as
Haddock writes ``<a id="t:Maybe">Maybe</a> ... <a href="#t:Maybe">#</a>``,
or the link itself, an HTML 4 anchor: ``<a href="#usage" name="usage">¶</a>``)
and whose text holds no letter or digit. A link to the page's own section
that says something ("Back to top", "see Usage") is no permalink.

Read by the text and Markdown writers (:mod:`temex.content.text`), which
leave permalinks out, and by the template detectors' rules
(:mod:`temex.template.rules`), which call them template: the
chrome of a page kind, like an edit link (the data README's convention).

Cost: a scan of the page's tags (``list.index``, in C) for ``<a>``, the kept
ones' ``href`` read; the ids and anchor names of the page mapped once where
a candidate (a kept ``#`` link without a letter or digit) is found.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..page.dom import Document

__all__ = ["fragment_targets", "permalinks"]

#: Levels above a link within which the element it points to lies: the
#: heading itself (MkDocs, Docusaurus), its section (Sphinx: ``section > h2 >
#: a``), the entry's name beside it (Haddock: ``p > (a#t:Maybe, a.selflink)``).
LEVELS = 3


def fragment_targets(doc: Document) -> dict[str, int]:
    """The element a fragment names, by fragment: an element's ``id``, or an
    ``<a name>`` (the HTML 4 anchor older generators still write, on the
    permalink itself: ``<a class="headerlink" href="#usage" name="usage">``);
    the first one where several share it, as browsers scroll to."""
    where: dict[str, int] = {}
    for k, x in enumerate(doc.id):
        if x:
            where.setdefault(x, k)
    for i in doc.positions("a"):
        name = next((v for n, v in doc.attrs[i] if n == "name"), "")
        if name:
            where.setdefault(name, i)
    return where


def permalinks(doc: Document, among: Sequence[bool] | None = None) -> list[int]:
    """The elements of ``doc`` that are permalinks (module docstring); with
    ``among`` (one flag per element), those flagged only."""
    out: list[int] = []
    attrs, parent, size, text = doc.attrs, doc.parent, doc.size, doc.text
    where: dict[str, int] | None = None  # element by id, made at the first candidate
    for i in doc.positions("a"):
        if among is not None and not among[i]:
            continue
        href = next((v for n, v in attrs[i] if n == "href"), "").strip()
        if len(href) < 2 or href[0] != "#" or any(
                ch.isalnum() for j in range(i, i + size[i]) for ch in text[j]):
            continue
        if where is None:
            where = fragment_targets(doc)
        target = where.get(href[1:], -1)
        if target < 0:
            continue
        p = parent[i]
        for _ in range(LEVELS):
            if p < 0:
                break
            if p <= target < p + size[p]:
                out.append(i)
                break
            p = parent[p]
    return out

