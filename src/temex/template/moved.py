"""Template blocks that moved: identical subtrees the top-down mapping missed.

ETDM (ETDM paper Def. 3.2) maps a node only when its parent is mapped, so a
block of the template that sits under another parent on one page is never
mapped there, however identical it is: an unclosed ``<div>`` in one page's
own text makes the parser nest the footer inside the content container; a
home page wraps the same footer in its own section. The vote then counts the
block as the key page's own, and it is kept as content.

:func:`moved_blocks` adds to a mapping the key page's unmapped subtrees that
occur, identical in shape and text, among the other page's unmapped nodes.
Identity ignores attributes other than id and class: relative links of one
menu differ with the page's depth (``../about/`` against ``about/``).
Our departure from the ETDM paper (its mapping is top-down only, §3),
kept apart from :func:`temex.template.mapping.etdm` so that the mapping
stays the paper's; the vote and every rule after it treat a moved block as
a mapped one.

Cost: one bottom-up pass per document (hashes and text lengths, O(n),
cached) and a dictionary lookup per unmapped key node; each candidate of
the page is looked at once, so a thousand identical rows stay linear.
"""

from __future__ import annotations

from collections import deque

from ..page.blocks import BLOCK_TAGS
from ..page.dom import Document

__all__ = ["DEFAULT_MOVED", "moved_blocks", "moved_hashes"]

#: Fewest characters of text a moved block holds (``moved`` of the
#: detectors; None turns the mapping off). Chosen leaving one site out
#: (docs/journal (core)): 20 to 80 give the same figures on every site.
DEFAULT_MOVED = 20


def moved_hashes(doc: Document) -> list[int]:
    """Bottom-up hash of each subtree over tag, id, classes and text (no
    other attribute). Cached on the document."""
    return _identity(doc)[0]


def _identity(doc: Document) -> tuple[list[int], list[int]]:
    """:func:`moved_hashes` and the characters of text under each element,
    in one reverse pass; cached on the document. O(n)."""
    cached: tuple[list[int], list[int]] | None = doc.__dict__.get("_moved_identity")
    if cached is not None:
        return cached
    tag, ids, classes, text, children = doc.tag, doc.id, doc.classes, doc.text, doc.children
    n = len(tag)
    h = [0] * n
    chars = [0] * n
    for i in range(n - 1, -1, -1):  # reverse pre-order: children before parents
        ch = children[i]
        own = text[i].strip()
        if ch:
            h[i] = hash((tag[i], ids[i], classes[i], own, tuple([h[c] for c in ch])))
            chars[i] = len(own) + sum([chars[c] for c in ch])
        else:
            h[i] = hash((tag[i], ids[i], classes[i], own, ()))
            chars[i] = len(own)
    doc.__dict__["_moved_identity"] = (h, chars)
    return h, chars


def moved_blocks(key: Document, page: Document, mapping: dict[int, int],
                 min_chars: int = DEFAULT_MOVED) -> dict[int, int]:
    """``mapping`` with the key page's moved blocks added (module docstring):
    each outermost unmapped key subtree rooted at a block element
    (:data:`temex.page.blocks.BLOCK_TAGS`), holding at least ``min_chars``
    characters of text, that is identical to an unmapped subtree of
    ``page`` is mapped onto it node for node (the first such subtree in
    document order whose nodes are all still free, so that the mapping
    stays one-to-one). A new dict; ``mapping`` is not changed.

    Blocks only, and not the shortest texts: an inline piece (a link to
    ``np.linspace`` in two code listings, a form's "Email*" label) that
    recurs inside content of different text is the page's own, and mapping
    it cost digitalplant 0.003 (docs/journal (core), "Blocks that moved")."""
    if not mapping:
        return mapping
    hk, chars = _identity(key)
    tags = key.tag
    wanted = {hk[k] for k in range(1, len(key))
              if k not in mapping and tags[k] in BLOCK_TAGS and chars[k] >= min_chars}
    if not wanted:
        return mapping
    hp = moved_hashes(page)
    taken = set(mapping.values())
    free: dict[int, deque[int]] = {}  # unmapped nodes of the page by identity, in order
    for p in range(len(page)):
        if hp[p] in wanted and p not in taken:
            free.setdefault(hp[p], deque()).append(p)
    out = dict(mapping)
    used: set[int] = set()
    k, nk = 1, len(key)
    while k < nk:
        size = key.size[k]
        queue = free.get(hk[k]) if k not in mapping else None
        if queue and tags[k] in BLOCK_TAGS and chars[k] >= min_chars:
            # the first free candidate; one that overlaps a block mapped
            # already stays so (``used`` only grows): each is looked at once
            while queue and (page.size[queue[0]] != size
                             or any(x in used for x in range(queue[0], queue[0] + size))):
                queue.popleft()
            if queue:
                c = queue.popleft()
                for j in range(size):
                    out[k + j] = c + j
                    used.add(c + j)
                k += size  # the whole block is mapped: skip its descendants
                continue
        k += 1
    return out
