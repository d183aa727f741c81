"""Read-more links: a listing entry's short link to the entry it closes.

Idea: blog and news listings end each entry with a link to the full entry,
"Read more", "Continue reading", "vai al post", "Scopri di più", after its
title, date and teaser. Read as text, every entry of a listing then ends in
the same words. The shared sites' convention (the data README, "more cases,
settled 2026-12-04") calls that link template, like a permalink
(:mod:`temex.page.permalinks`), and the entry's title, date and teaser
content. The link is recognised by where it points and where it sits, not
by its words or a theme's class names (``a.more-link``): an ``<a>`` outside
any heading that points where a link inside a heading before it points (the
entry's title), within the smallest element holding both that holds no
other heading (one entry, not the listing); its text is short (at most
:data:`MAX_CHARS` characters and :data:`MAX_WORDS` words), holds no digit
and no ``<time>`` (the entry's date, linked to the entry as WordPress
writes it, is content), is not the title again, and nothing of its block
follows it (the link closes the entry).

Departure: the convention names the link by what it says; this module
reads where it points, so a read-more link to another address than the
title's (a tracking redirect) stays, and so does a short link to the entry
that something of its block follows.

Read by the text and Markdown writers (:mod:`temex.content.text`), which
leave read-more links out, and by the template detectors' rules
(:mod:`temex.template.rules.sequence`), which call them template with their
text-free wrapper.

Cost: one pass over the page's headings and links, the entry's ancestors
walked for each link that points where a title points.
"""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin

from .blocks import BLOCK_TAGS
from .dom import HEADING_TAGS, Document

__all__ = ["MAX_CHARS", "MAX_WORDS", "read_more_links"]

#: Longest text of a read-more link: "Continue reading →", "Leggi tutto".
MAX_CHARS = 30
#: Most words of a read-more link ("Read the rest of this entry").
MAX_WORDS = 6


def _target(doc: Document, i: int, hrefs: dict[int, str]) -> str:
    """Where link ``i`` points, resolved against the page, without its
    fragment ("" for a fragment of the page itself or a script)."""
    href = hrefs.get(i, "").strip()
    if not href or href.startswith(("#", "javascript:", "mailto:")):
        return ""
    return urldefrag(urljoin(doc.url or "", href))[0]


def _closes_block(doc: Document, link: int, text: str) -> bool:
    """Nothing with a letter or digit follows ``link`` (whose text is
    ``text``) inside its nearest block ancestor: the block's text, in
    document order, ends with the link's."""
    block = doc.parent[link]
    while block > 0 and doc.tag[block] not in BLOCK_TAGS:
        block = doc.parent[block]
    return _alnum_end(doc.subtree_text(block)).endswith(_alnum_end(text))


def _alnum_end(text: str) -> str:
    """``text`` up to its last letter or digit."""
    end = len(text)
    while end and not text[end - 1].isalnum():
        end -= 1
    return text[:end]


def read_more_links(doc: Document) -> list[int]:
    """The page's read-more links (module docstring), in document order."""
    headings = sorted(i for t in HEADING_TAGS for i in doc.positions(t))
    if not headings:
        return []
    hrefs = doc.attribute_values("href")
    titled: dict[str, list[int]] = {}  # target -> headings whose link points there
    in_heading: set[int] = set()
    for h in headings:
        for j in range(h, h + doc.size[h]):
            if doc.tag[j] == "a":
                in_heading.add(j)
                target = _target(doc, j, hrefs)
                if target:
                    titled.setdefault(target, []).append(h)
    if not titled:
        return []
    heading_set = set(headings)
    out = []
    for a in doc.positions("a"):
        if a in in_heading:
            continue
        target = _target(doc, a, hrefs)
        before = [h for h in titled.get(target, ()) if h + doc.size[h] <= a]
        if not before:
            continue
        text = doc.subtree_text(a)
        if (not text or len(text) > MAX_CHARS or len(text.split()) > MAX_WORDS
                or any(ch.isdigit() for ch in text)
                or "time" in doc.tag[a:a + doc.size[a]]):
            continue
        h = before[-1]
        if text.casefold() == doc.subtree_text(h).casefold():
            continue
        # the smallest element holding the title and the link: one entry
        entry = next(p for p in doc.ancestors(h) if doc.is_ancestor(p, a))
        others = any(g in heading_set and not doc.is_ancestor(h, g)
                     for g in range(entry + 1, entry + doc.size[entry]))
        if not others and _closes_block(doc, a, text):
            out.append(a)
    return out
