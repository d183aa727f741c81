"""Exact top-down mapping (ETDM) between two DOM trees.

Definition 3.2 of the ETDM paper: a mapping M between trees T and T' is an
*exact top-down mapping* when every pair is equal under ≅ and the parents of
every non-root pair are themselves paired. :func:`etdm` returns the *largest*
such mapping that is also one-to-one and order-preserving among siblings
(Kuo's mapping, Def. 3.1, with the sibling order of a top-down mapping), i.e.
Selkow's top-down tree alignment / "simple tree matching" restricted to ≅:

    score(a, b) = 0                                   if not a ≅ b
                = 1 + max over order-preserving one-to-one
                      matchings of children Σ score(c, c')  otherwise

Departure from the paper's Algorithm 2 (function ETDM): its pseudo-code maps
*every* pair of equal children of two mapped nodes, so one node of the key page
can be paired with several nodes of the other page and the order of siblings
is ignored. That is neither a mapping (Def. 3.1 requires one-to-one) nor the
largest one; with ≅ = "same tag" it maps any ``<p>`` onto any ``<p>``. We
compute the maximum one-to-one, order-preserving alignment instead.

Speed-ups, all exact unless noted:

* identical subtrees (equal signatures, see :func:`signatures`) map entirely,
  with score = subtree size, without looking inside;
* the common prefix and suffix of identical children are matched before the
  alignment (an identical pair is always in some optimal alignment);
* for local relations, scores are memoised by the pair of subtree signatures, so
  repeated structures (list items, table rows) are aligned once;
* only pairs with equal keys are scored.

Cost: O(Σ |C(a)|·|C(b)|) over the explored pairs (a, b), where C are children
lists after the prefix/suffix trim; in practice near-linear because templates
share long identical runs. The only approximation: when one children
alignment would exceed ``max_cells`` table cells (default 2,500, e.g. 50 × 50
siblings), that level is aligned with each pair weighted by an upper bound of
its score (the smaller subtree's size; exact for identical subtrees), so no
pair below it is explored unless chosen; past ``PROXY_CELLS`` (250,000) cells,
greedily (in order, first equal key that keeps the order). Both stay
one-to-one and order-preserving but may map fewer nodes than the maximum.
Without the bound, a comment thread of 150 entries against one of 100 explored
133,000 node pairs (3 s); with it, 0.01 s for 3% fewer mapped nodes; on the
shared sites the results are identical (docs/journal (core)). 100,000 siblings
stay fast.

Everything is iterative (an explicit stack), so 10,000-deep trees are fine.

Compiled: for a relation whose key is the equality and that is local (``label``,
the default, and ``strict``) the compiled kernel (:mod:`temex.page.kernel`,
``etdm_exact``) runs the same algorithm, tie-breaks included, and returns the
same mapping; :class:`_Aligner` is the reference and runs otherwise
(tests/test_kernel.py compares the two).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable

from ..page import kernel
from ..page.dom import Document
from .equality import Equality, TextEquality

__all__ = ["DEFAULT_MAX_CELLS", "etdm", "signatures"]

DEFAULT_MAX_CELLS = 2_500
#: Largest children table filled with size bounds instead of exact scores.
PROXY_CELLS = 250_000


def signatures(doc: Document, eq: Equality) -> list[int]:
    """Bottom-up subtree signature under ``eq``: hash of the node's key and its
    children's signatures. For a key relation, equal signatures mean the two
    subtrees are identical under ``eq`` (up to hash collisions). For a
    non-local relation (``weighted``) the full subtree hash is used (identical nodes are always
    weighted-equal). Cached on the document."""
    cache: dict[str, list[int]] = doc.__dict__.setdefault("_eq_sigs", {})
    sig = cache.get(eq.name)
    if sig is not None:
        return sig
    if not eq.local:
        sig = doc.subtree_hash
    else:
        keys = eq.feature_list(doc)
        k = kernel.get()
        if k is not None:  # the same hashes, compiled
            hashes: list[int] = k.key_signatures(keys, doc.children)
            cache[eq.name] = hashes
            return hashes
        sig = [0] * len(doc)
        children = doc.children
        for i in range(len(doc) - 1, -1, -1):
            ch = children[i]
            sig[i] = hash((keys[i], tuple(sig[c] for c in ch))) if ch else hash((keys[i],))
    cache[eq.name] = sig
    return sig


def etdm(d1: Document, d2: Document, eq: Equality | None = None, *, root1: int = 0,
         root2: int = 0, max_cells: int = DEFAULT_MAX_CELLS) -> dict[int, int]:
    """Largest exact top-down mapping from ``d1`` (rooted at ``root1``) to ``d2``.

    Returns a dict ``{node of d1: node of d2}``; empty when the roots differ
    under ≅. See the module docstring for the definition and cost.
    """
    eq = eq or TextEquality()
    if not len(d1) or not len(d2) or not eq.equal(d1, root1, d2, root2):
        return {}
    k = kernel.get() if eq.local and eq.key_is_equality else None
    if k is not None:  # the same alignment, compiled (``label``, ``strict``)
        mapping: dict[int, int] = k.etdm_exact(
            eq.keys(d1), signatures(d1, eq), d1.size, d1.children,
            eq.keys(d2), signatures(d2, eq), d2.size, d2.children,
            root1, root2, max_cells, PROXY_CELLS)
        return mapping
    return _Aligner(d1, d2, eq, max_cells).run(root1, root2)


class _Aligner:
    """State of one ETDM computation (scores and alignments of node pairs)."""

    def __init__(self, d1: Document, d2: Document, eq: Equality, max_cells: int) -> None:
        self.d1, self.d2, self.eq, self.max_cells = d1, d2, eq, max_cells
        self.k1, self.k2 = eq.keys(d1), eq.keys(d2)
        self.s1, self.s2 = signatures(d1, eq), signatures(d2, eq)
        self.local = eq.local
        self.exact = eq.key_is_equality
        # Relations that can compare precomputed features skip per-call work.
        self.feq = getattr(eq, "features_equal", None) if eq.local else None
        if self.feq is not None:
            self.f1, self.f2 = eq.feature_list(d1), eq.feature_list(d2)
        # memo: pair key -> (score, alignment as (child index 1, child index 2))
        self.memo: dict[Hashable, tuple[int, list[tuple[int, int]]]] = {}

    def pair_key(self, a: int, b: int) -> Hashable:
        return (self.s1[a], self.s2[b]) if self.local else (a, b)

    def equal(self, a: int, b: int) -> bool:
        if self.exact:
            return bool(self.k1[a] == self.k2[b])
        if self.feq is not None:
            return bool(self.feq(self.f1[a], self.f2[b]))
        return self.eq.equal(self.d1, a, self.d2, b)

    def score(self, a: int, b: int) -> int:
        """Score of an equal pair whose children were already solved."""
        if self.s1[a] == self.s2[b]:
            return self.d1.size[a]
        return self.memo[self.pair_key(a, b)][0]

    # -- phase 1: scores, bottom-up over an explicit stack ---------------------
    def run(self, r1: int, r2: int) -> dict[int, int]:
        stack: list[tuple[int, int, bool]] = [(r1, r2, False)]
        memo = self.memo
        while stack:
            a, b, ready = stack.pop()
            key = self.pair_key(a, b)
            if key in memo:
                continue
            if ready:
                memo[key] = self.align(a, b)
                continue
            stack.append((a, b, True))
            for c1, c2 in self.candidate_pairs(a, b):
                if self.s1[c1] != self.s2[c2] and self.pair_key(c1, c2) not in memo:
                    stack.append((c1, c2, False))
        return self.reconstruct(r1, r2)

    def _trim(self, a: int, b: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
        """Children of a and b with identical prefix/suffix removed; returns the
        middle parts and the prefix/suffix lengths."""
        c1, c2 = self.d1.children[a], self.d2.children[b]
        s1, s2 = self.s1, self.s2
        p = 0
        n = min(len(c1), len(c2))
        while p < n and s1[c1[p]] == s2[c2[p]]:
            p += 1
        s = 0
        while s < n - p and s1[c1[-1 - s]] == s2[c2[-1 - s]]:
            s += 1
        return c1[p:len(c1) - s], c2[p:len(c2) - s], p, s

    def candidate_pairs(self, a: int, b: int) -> list[tuple[int, int]]:
        """Equal child pairs whose score the alignment of (a, b) will need."""
        m1, m2, _, _ = self._trim(a, b)
        if not m1 or not m2:
            return []
        if len(m1) * len(m2) > self.max_cells:
            return self._approximate(m1, m2)
        by_key: dict[Hashable, list[int]] = {}
        for y in m2:
            by_key.setdefault(self.k2[y], []).append(y)
        out = []
        for x in m1:
            if self.exact:
                for y in by_key.get(self.k1[x], ()):
                    out.append((x, y))
            else:
                for y in by_key.get(self.k1[x], ()):
                    if self.equal(x, y):
                        out.append((x, y))
        return out

    def _approximate(self, m1: tuple[int, ...], m2: tuple[int, ...]) -> list[tuple[int, int]]:
        """Matching of children lists too long to align exactly: the same
        table with each pair weighted by the size it could map at most
        (identical subtrees: their size; else the smaller subtree's size),
        so no pair is explored before it is chosen; past ``PROXY_CELLS`` cells,
        in-order greedy matching."""
        if len(m1) * len(m2) > PROXY_CELLS:
            return self._greedy(m1, m2)
        size1, size2, s1, s2 = self.d1.size, self.d2.size, self.s1, self.s2

        def bound(x: int, y: int) -> int:
            return size1[x] if s1[x] == s2[y] else min(size1[x], size2[y])

        _, chosen = self._dp(m1, m2, bound)
        return [(m1[i], m2[j]) for i, j in chosen]

    def _greedy(self, m1: tuple[int, ...], m2: tuple[int, ...]) -> list[tuple[int, int]]:
        """In-order greedy matching by key: one-to-one, order-preserving."""
        where: dict[Hashable, list[int]] = {}
        for j, y in enumerate(m2):
            where.setdefault(self.k2[y], []).append(j)
        out: list[tuple[int, int]] = []
        nxt = 0
        for x in m1:
            pos = where.get(self.k1[x])
            if not pos:
                continue
            k = bisect_left(pos, nxt)
            while k < len(pos) and not self.equal(x, m2[pos[k]]):
                k += 1
            if k < len(pos):
                out.append((x, m2[pos[k]]))
                nxt = pos[k] + 1
        return out

    def align(self, a: int, b: int) -> tuple[int, list[tuple[int, int]]]:
        """Best order-preserving matching of the children of (a, b); returns
        (score of the pair, matched (child index in a, child index in b))."""
        d1 = self.d1
        c1, c2 = d1.children[a], self.d2.children[b]
        m1, m2, p, s = self._trim(a, b)
        pairs = [(i, i) for i in range(p)]
        total = 1 + sum(d1.size[c1[i]] for i in range(p))
        total += sum(d1.size[c1[len(c1) - 1 - i]] for i in range(s))
        mid: list[tuple[int, int]] = []
        if m1 and m2:
            if len(m1) * len(m2) > self.max_cells:
                pos1 = {x: i for i, x in enumerate(m1)}
                pos2 = {y: j for j, y in enumerate(m2)}
                for x, y in self._approximate(m1, m2):
                    total += self.score(x, y)
                    mid.append((pos1[x], pos2[y]))
            else:
                gain, mid = self._dp(m1, m2, self.score)
                total += gain
        pairs.extend((p + i, p + j) for i, j in mid)
        pairs.extend((len(c1) - s + i, len(c2) - s + i) for i in range(s))
        return total, pairs

    def _dp(self, m1: tuple[int, ...], m2: tuple[int, ...],
            weight: Callable[[int, int], int]) -> tuple[int, list[tuple[int, int]]]:
        """Maximum-weight order-preserving matching (LCS-style table) of equal
        pairs, each weighing ``weight(x, y)``."""
        n1, n2 = len(m1), len(m2)
        by_key: dict[Hashable, list[int]] = {}
        for j, y in enumerate(m2):
            by_key.setdefault(self.k2[y], []).append(j)
        w: list[dict[int, int]] = []
        for x in m1:
            row: dict[int, int] = {}
            for j in by_key.get(self.k1[x], ()):
                y = m2[j]
                if self.exact or self.equal(x, y):
                    row[j] = weight(x, y)
            w.append(row)
        if n1 == 1 or n2 == 1:  # common case: a single candidate row/column
            best, bi, bj = 0, -1, -1
            for i, row in enumerate(w):
                for j, v in row.items():
                    if v > best:
                        best, bi, bj = v, i, j
            return (best, [(bi, bj)]) if best else (0, [])
        table = [[0] * (n2 + 1) for _ in range(n1 + 1)]
        for i in range(1, n1 + 1):
            prev, cur, row = table[i - 1], table[i], w[i - 1]
            for j in range(1, n2 + 1):
                v = max(cur[j - 1], prev[j])
                wij = row.get(j - 1)
                if wij and prev[j - 1] + wij > v:
                    v = prev[j - 1] + wij
                cur[j] = v
        out: list[tuple[int, int]] = []
        i, j = n1, n2
        while i > 0 and j > 0:
            wij = w[i - 1].get(j - 1)
            if wij and table[i][j] == table[i - 1][j - 1] + wij:
                out.append((i - 1, j - 1))
                i -= 1
                j -= 1
            elif table[i][j] == table[i - 1][j]:
                i -= 1
            else:
                j -= 1
        out.reverse()
        return table[n1][n2], out

    # -- phase 2: the mapping, top-down ---------------------------------------
    def reconstruct(self, r1: int, r2: int) -> dict[int, int]:
        mapping: dict[int, int] = {}
        d1, d2 = self.d1, self.d2
        todo = [(r1, r2)]
        while todo:
            a, b = todo.pop()
            if self.s1[a] == self.s2[b]:
                # identical subtrees have the same pre-order shape
                mapping.update(zip(range(a, a + d1.size[a]), range(b, b + d1.size[a])))
                continue
            mapping[a] = b
            c1, c2 = d1.children[a], d2.children[b]
            for i, j in self.memo[self.pair_key(a, b)][1]:
                todo.append((c1[i], c2[j]))
        return mapping
