"""In-page tables of contents: a generated list of links to the page's own sections.

Idea: Markdown processors (Python-Markdown's ``[TOC]``, kramdown's
``{:toc}`` as ``ul#markdown-toc``), MediaWiki (``#toc``), Hugo and many
blog themes write, above an article, a list whose every item links to one
of the article's headings: ``<ul><li><a href="#usage">1 Usage</a> ...``.
Read as text, every heading of the page then appears twice. The shared
sites' convention (the data README, "cases that are easy to get wrong")
calls such a list template, like a heading's permalink
(:mod:`temex.page.permalinks`), and a list of links to other pages that is
the page's own material (a Sphinx toctree, a wiki's category listing)
content. The list is recognised by where its links point and what it says,
not by a generator's class names: a ``<ul>`` or ``<ol>`` with at least
:data:`MIN_LINKS` links, every one of them to the fragment of an element of
the page outside the list (``#usage``, or the page's own address with a
fragment, as a mirror writes MediaWiki's), and no letter outside its links
(numbering and punctuation may sit between them). A list that says
something besides its links (a footnote list: each note's text, its
back-link "↩") is no table of contents, and neither is a list of links to
other pages.

Departure: the list alone is recognised, not the box around it (a
"Contents" caption, a show/hide toggle): those are a word or two, and a
box is told by its class names, which this module does not read.

Read by the text and Markdown writers (:mod:`temex.content.text`), which
leave tables of contents out, and by the template detectors' rules
(:mod:`temex.template.rules.sequence`), which call them template.

Cost: a scan of the page's ``<ul>`` / ``<ol>`` elements and, where one
holds a link, of its subtree; the ids and anchor names of the page mapped
once.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from ..page.dom import Document
from .permalinks import fragment_targets

__all__ = ["MIN_LINKS", "tocs"]

#: Fewest links of a table of contents: one link is "Back to top", two are
#: a page's "Top / Bottom" pair; three sections make a contents list.
MIN_LINKS = 3

_LISTS = ("ul", "ol")


def _fragment(href: str, url: str, here: tuple[str, str, str] | None) -> str:
    """The fragment ``href`` names on the page itself: ``#usage``, or the
    page's own address with one (``Counter.html#Properties``, as a site
    mirror or MediaWiki's static dump writes it); "" for a link elsewhere."""
    if href.startswith("#"):
        return href[1:]
    if "#" not in href or here is None:
        return ""
    target = urlsplit(urljoin(url, href))
    return target.fragment if (target.netloc, target.path, target.query) == here else ""


def _is_toc(doc: Document, root: int, where: dict[str, int],
            here: tuple[str, str, str] | None) -> bool:
    end = root + doc.size[root]
    tag, size, text, attrs = doc.tag, doc.size, doc.text, doc.attrs
    links = 0
    j = root + 1
    while j < end:
        if tag[j] == "a":
            href = next((v for n, v in attrs[j] if n == "href"), "").strip()
            fragment = _fragment(href, doc.url, here)
            target = where.get(fragment, -1) if fragment else -1
            if target < 0 or root <= target < end:
                return False
            links += 1
            j += size[j]
            continue
        if any(ch.isalpha() for ch in text[j]):
            return False
        j += 1
    return links >= MIN_LINKS and not any(ch.isalpha() for ch in text[root])


def tocs(doc: Document) -> list[int]:
    """The roots of the page's tables of contents (module docstring), each
    the outermost such list."""
    out: list[int] = []
    where: dict[str, int] | None = None
    page = urlsplit(doc.url) if doc.url else None
    here = (page.netloc, page.path, page.query) if page is not None else None
    roots = sorted(i for t in _LISTS for i in doc.positions(t))
    end = -1
    for i in roots:
        if i < end:
            continue
        if "a" not in doc.tag[i:i + doc.size[i]]:
            continue
        if where is None:
            where = fragment_targets(doc)
        if _is_toc(doc, i, where, here):
            out.append(i)
            end = i + doc.size[i]
    return out

