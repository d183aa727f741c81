"""The page's title as its head states it, and the headings that may name
the page: what the two title finders share.

The two finders, each for its layer, read the head their own way:

* the content stage's (:mod:`temex.content.title`: ``names_page``,
  ``title_heading``, ``own_title_block``) reads :func:`page_title_text`, the
  first ``<title>`` as written, and picks one text block: the longest
  heading whose text names the page, a cut title's part included;
* the detectors' (:func:`temex.template.rules.title.title_nodes`) reads
  :func:`head_titles`, every ``<title>`` and the ``og:title`` /
  ``twitter:title`` content, and lists elements: every ``<h1>`` that is not
  template, then headings whose whole text is part of a title line, less
  those that name the site (the compared pages' lines tell it).

Both look for the title among :data:`TITLE_HEADINGS`. O(elements before
``<body>``) for each reader.
"""

from __future__ import annotations

from .blocks import norm_key
from .dom import Document

__all__ = ["TITLE_HEADINGS", "head_titles", "page_title_text"]


#: Headings that may name the page, ``h1`` to ``h3`` (both title finders).
#: Any element was measured and rejected for the detectors' rule
#: (docs/journal (core)): the active item of a forum's or a docs site's
#: navigation names the page too.
TITLE_HEADINGS = frozenset({"h1", "h2", "h3"})


def page_title_text(doc: Document) -> str:
    """The text of the page's ``<title>`` (the first before ``<body>``), or ""."""
    for i in range(max(doc.body, 0)):
        if doc.tag[i] == "title":
            return doc.text[i] or ""
    return ""


#: ``<meta>`` names (``property`` or ``name``) whose content states the
#: page's title (:func:`head_titles`).
_TITLE_META = frozenset({"og:title", "twitter:title"})


def head_titles(doc: Document) -> str:
    """The page's title as its head states it: the ``<title>`` and the
    ``og:title`` / ``twitter:title`` meta content, each normalised
    (:func:`temex.page.blocks.norm_key`), joined by a newline; "" when none.
    Unlike :func:`page_title_text`, every ``<title>`` with text counts, and
    a page without ``<body>`` is read whole."""
    out = []
    for i in range(max(doc.body, 0) if doc.body >= 0 else len(doc)):
        if doc.tag[i] == "title" and doc.text[i]:
            out.append(norm_key(doc.text[i]))
        elif doc.tag[i] == "meta":
            a = dict(doc.attrs[i])
            if a.get("property", a.get("name", "")).lower() in _TITLE_META and a.get("content"):
                out.append(norm_key(a["content"]))
    return "\n".join(out)
