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

Cost: one bottom-up hash per document (O(n), cached) and a dictionary
lookup per unmapped key node.
"""

from __future__ import annotations

from ..page.blocks import BLOCK_TAGS
from ..page.dom import Document

__all__ = ["DEFAULT_MOVED", "moved_blocks", "moved_hashes"]

#: Fewest characters of text a moved block holds (``moved`` of the
#: detectors; None turns the mapping off). Chosen leaving one site out
#: (docs/BENCHMARKS.md): 20 to 80 give the same figures on every site.
DEFAULT_MOVED = 20


def moved_hashes(doc: Document) -> list[int]:
    """Bottom-up hash of each subtree over tag, id, classes and text (no
    other attribute). Cached on the document."""
    cached: list[int] | None = doc.__dict__.get("_moved_hashes")
    if cached is not None:
        return cached
    tag, ids, classes, text, children = doc.tag, doc.id, doc.classes, doc.text, doc.children
    n = len(tag)
    h = [0] * n
    for i in range(n - 1, -1, -1):  # reverse pre-order: children before parents
        ch = children[i]
        h[i] = hash((tag[i], ids[i], classes[i], text[i].strip(),
                     tuple([h[c] for c in ch]) if ch else ()))
    doc.__dict__["_moved_hashes"] = h
    return h


def _has_text(doc: Document, i: int, min_chars: int) -> bool:
    total = 0
    for j in doc.descendants(i):
        total += len(doc.text[j].strip())
        if total >= min_chars:
            return True
    return False


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
    it cost digitalplant 0.003 (docs/BENCHMARKS.md, "Blocks that moved")."""
    if not mapping:
        return mapping
    hk = moved_hashes(key)
    tags = key.tag
    wanted = {hk[k] for k in range(1, len(key))
              if k not in mapping and tags[k] in BLOCK_TAGS}
    if not wanted:
        return mapping
    hp = moved_hashes(page)
    taken = set(mapping.values())
    free: dict[int, list[int]] = {}  # unmapped nodes of the page by identity
    for p in range(len(page)):
        if hp[p] in wanted and p not in taken:
            free.setdefault(hp[p], []).append(p)
    out = dict(mapping)
    used: set[int] = set()
    k, nk = 1, len(key)
    while k < nk:
        size = key.size[k]
        if k not in mapping and hk[k] in free and tags[k] in BLOCK_TAGS \
                and _has_text(key, k, min_chars):
            c = next((c for c in free[hk[k]] if page.size[c] == size
                      and not any(x in used for x in range(c, c + size))), -1)
            if c >= 0:
                for j in range(size):
                    out[k + j] = c + j
                    used.add(c + j)
                k += size  # the whole block is mapped: skip its descendants
                continue
        k += 1
    return out
