"""Evidence: whether a node the top-down mapping pairs with a compared page's
node repeats there (our addition; ``evidence=False`` gives the papers'
behaviour).

A mapping that pairs two ``<ul>`` or ``<table>`` elements says nothing about
whether they hold template: the content area of every article has the same
containers. A mapped node therefore counts as template in a page only when
its mapped subtree holds *evidence* that it repeats: a pair of nodes with the
same non-empty own text, or a pair of identical childless elements that carry
attributes (an icon, a logo image, a search box). Containers inherit support
from their children. The papers' relations ignore text and would call every
content container template; the measured effect is in docs/journal (core).
Inside the content region a stricter form counts (``evidence_share``): a
text-holding subtree is repeated only when most of its text is; see
:func:`supported_mapping`.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ...page.dom import Document
from ...page.permalinks import permalinks

__all__ = ["DEFAULT_EVIDENCE_SHARE", "DIGIT_RUN", "LEAF_CHARS", "muted_evidence",
           "supported_mapping"]


#: Share of a mapped subtree's own text that must be repeated (same text at
#: the mapped node of the other page) for the subtree to count as repeated
#: (see :func:`supported_mapping`). Chosen leave-one-site-out
#: (docs/journal (core)).
DEFAULT_EVIDENCE_SHARE = 0.5


DIGIT_RUN = re.compile(r"[0-9]+")


#: Weight, in characters, of an identical attributed leaf (an icon, a
#: divider image) in the text share of :func:`supported_mapping`: about one
#: short label.
LEAF_CHARS = 8


def supported_mapping(d1: Document, d2: Document, mapping: dict[int, int],
                      share: float | None = DEFAULT_EVIDENCE_SHARE,
                      digits: bool = False,
                      mute: Collection[int] | None = None) -> list[bool]:
    """Mask over ``d1``: mapped nodes whose mapped subtree holds evidence of
    repetition (see module docstring). O(|d1|).

    With ``share`` (our revision of the evidence rule), a subtree
    that holds text counts as repeated only when at least ``share`` of its
    characters sit in nodes whose own text is repeated by the mapped node:
    one repeated heading anchor ("¶"), a "copy" label or the keywords of a
    code block no longer pull a whole block into the template. Text-free
    subtrees (icons, logos, search boxes, rules) still count through
    identical attributed leaves. ``share=None`` is the first rule: any
    repeated text or identical attributed leaf below a node supports it.
    With ``digits`` (share rule only), texts that differ only in their digit
    runs count as repeated: "Page 1 of 6" and "Page 2 of 6", "Tweet 0" and
    "Tweet 3" are one label with a counter. A permalink's text
    (:mod:`temex.page.permalinks`: Sphinx's "¶", on every heading of every
    page) is no evidence under either rule: it says nothing of whether the
    heading it sits in repeats. Nor are the tokens of a code block (an
    outermost ``<pre>``) unless the whole block is identical to the one it
    is mapped to (:func:`_changed_code`): text-aware equality for code,
    whose keywords and punctuation every block of a docs site shares.
    Those nodes are :func:`muted_evidence`'s, or ``mute`` where the caller
    has them (both rules ask for one page).

    Three steps: the rule's support of each mapped node
    (:func:`_share_support` or :func:`_any_support`), then the text-free
    subtrees follow their parent (:func:`_text_free_follow`); unmapped nodes
    are never supported."""
    if mute is None:
        mute = muted_evidence(d1, d2, mapping)
    if share is not None:
        sup = _share_support(d1, d2, mapping, share, digits, mute)
    else:
        sup = _any_support(d1, d2, mapping, mute)
    _text_free_follow(d1, mapping, sup)
    return [s and (i in mapping) for i, s in enumerate(sup)]


def _share_support(d1: Document, d2: Document, mapping: dict[int, int], share: float,
                   digits: bool, mute: Collection[int]) -> list[bool]:
    """The share rule of :func:`supported_mapping`: per node of ``d1``,
    whether it is mapped and at least ``share`` of its subtree's characters
    (an identical attributed leaf weighing :data:`LEAF_CHARS`) are repeated
    by their mapped nodes; a subtree without text, whether it holds an
    identical attributed leaf. One reverse pre-order pass. O(|d1|)."""
    n = len(d1)
    sup = [False] * n
    t1, t2, h1, h2 = d1.text, d2.text, d1.subtree_hash, d2.subtree_hash
    rep = [0] * n
    tot = [0] * n
    leaf = [False] * n
    for a in range(n - 1, -1, -1):  # reverse pre-order: children first
        b = mapping.get(a)
        ln = len(t1[a])
        tot[a] += ln
        if b is not None:
            if ln and a not in mute and (t1[a] == t2[b] or digits and DIGIT_RUN.sub(
                    "#", t1[a]) == DIGIT_RUN.sub("#", t2[b])):
                rep[a] += ln
            elif (d1.size[a] == 1 and not ln and h1[a] == h2[b]
                  and (d1.attrs[a] or d1.classes[a] or d1.id[a])):
                leaf[a] = True
                rep[a] += LEAF_CHARS
                tot[a] += LEAF_CHARS
            if tot[a]:
                sup[a] = rep[a] > 0 and rep[a] >= share * tot[a]
            else:
                sup[a] = leaf[a]
        p = d1.parent[a]
        if p >= 0:
            rep[p] += rep[a]
            tot[p] += tot[a]
            leaf[p] = leaf[p] or leaf[a]
    return sup


def _any_support(d1: Document, d2: Document, mapping: dict[int, int],
                 mute: Collection[int]) -> list[bool]:
    """The first rule of :func:`supported_mapping` (``share=None``): per
    node of ``d1``, whether it is mapped and is, or has below it on a chain
    of mapped nodes, a node whose own text its mapped node repeats or an
    identical attributed leaf. One reverse pre-order pass. O(|d1|)."""
    sup = [False] * len(d1)
    t1, t2, h1, h2 = d1.text, d2.text, d1.subtree_hash, d2.subtree_hash
    for a in range(len(d1) - 1, -1, -1):  # reverse pre-order: children first
        b = mapping.get(a)
        if b is None:
            continue
        if sup[a]:
            pass
        elif t1[a] and t1[a] == t2[b] and a not in mute or (
                d1.size[a] == 1 and not t1[a] and h1[a] == h2[b]
                and (d1.attrs[a] or d1.classes[a] or d1.id[a])):
            sup[a] = True
        if sup[a]:
            p = d1.parent[a]
            if p >= 0:
                sup[p] = True
    return sup


def _text_free_follow(d1: Document, mapping: dict[int, int], sup: list[bool]) -> None:
    """In place: text-free mapped subtrees (empty list items, rules,
    spacers) carry no evidence either way, so they follow their parent's
    support (top-down, so a chain of them follows the node above it).
    O(|d1|)."""
    n = len(d1)
    has_text = [bool(t) for t in d1.text]
    for a in range(n - 1, 0, -1):
        if has_text[a]:
            has_text[d1.parent[a]] = True
    for a in range(1, n):
        if not sup[a] and not has_text[a] and a in mapping and sup[d1.parent[a]]:
            sup[a] = True


def muted_evidence(d1: Document, d2: Document, mapping: dict[int, int]) -> set[int]:
    """The nodes of ``d1`` whose text is no evidence of repetition against
    ``d2`` (:func:`supported_mapping`): its permalinks and the nodes of its
    code blocks that differ from the block they are mapped to."""
    return _changed_code(d1, d2, mapping) | _permalink_set(d1)


def _permalink_set(doc: Document) -> frozenset[int]:
    """The page's permalinks (:func:`temex.page.permalinks.permalinks`),
    found once per document (the evidence rules ask for each compared page)."""
    cached = doc.__dict__.get("_permalink_set")
    if cached is None:
        cached = frozenset(permalinks(doc))
        doc.__dict__["_permalink_set"] = cached
    return cached


def _changed_code(d1: Document, d2: Document, mapping: dict[int, int]) -> set[int]:
    """The nodes of ``d1``'s code blocks (outermost ``<pre>``) that are not
    identical to the block they are mapped to: a code block is one text, and
    its tokens' spans ("import", "(", "=") repeat in every block of a docs
    site whatever the code says."""
    out: set[int] = set()
    h1, h2 = d1.subtree_hash, d2.subtree_hash
    end = -1
    for i in d1.positions("pre"):
        if i < end:
            continue  # a <pre> inside a <pre>
        end = i + d1.size[i]
        b = mapping.get(i)
        if b is None or h1[i] != h2[b]:
            out.update(range(i, end))
    return out
