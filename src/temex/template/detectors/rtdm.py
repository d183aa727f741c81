"""RTDM-TD: template detection by restricted top-down mapping.

Vieira et al., "A Fast and Robust Method for Web Page Template Detection and
Removal" (CIKM 2006), ../shared/papers/rtdm-td-template-detection-removal.txt:

* §3, Def. 4: a *restricted* top-down mapping: insertions, removals *and*
  replacements happen only at leaves, so a node is mapped only when its parent
  is mapped and both carry the same label.
* §4, Fig. 3 (RTDM-TD): for two nodes with the same label the children lists
  are aligned like a string edit distance; the cost matrix ``M`` and the
  backtracking matrix ``B`` (op, src, cost, next) are filled per pair.
  *Bottom-up short-cut* (Fig. 3 line 16): two children in the same set of
  identical subtrees cost 0 and are not descended into; the sets come from the
  bottom-up subtree hashes of :mod:`temex.page.dom`, linear time. *Top-down
  short-cut* (line 21): when one of two same-label children is a leaf nothing
  below can be mapped, the cost is the size of what is inserted or removed and
  there is no recursive call.
* §4, Fig. 4 (retrieveTemplate): walk ``B`` back from the last cell; zero-cost
  updates (identical subtrees) add the node and its descendants, "no op"
  (same label) adds the node and recurses through ``next``.
* §5, Figs. 5-6 (ExtractSubTree, FindTemplate): the template is the common
  subtree of two pages, then refined against each further sample page.

Departures (documented, all deliberate):

* Text. The paper's trees have text leaves; ours have elements with *own
  text* (:mod:`temex.page.dom`). Own text is treated as one extra leaf child of its
  element: equal text costs 0, different text 1 (a leaf replacement), and the
  element is template only when its text was kept (equal in every page, or
  empty). Its structure may still be template (its template children stay).
* FindTemplate picks pages at random (RandomPick); ``fit(key, pages)`` instead
  starts from the key page and maps the pages in the given order, so results
  are deterministic and expressed over the key page (a TemplateModel).
* Backtracking: instead of keeping every matrix ``B`` we backtrack each pair's
  matrix as soon as it is filled and keep only the chosen operations (the
  same information retrieveTemplate reads, in O(|children|) memory per pair).
* Very wide levels (more than ``max_cells`` cells in one children matrix,
  e.g. 300 × 300 siblings) are aligned greedily by identical subtrees only,
  and none of their children's pairs is solved (the greedy alignment reads
  none: two lists of 17,000 rows would otherwise solve 289 million pairs).
* Like the other detectors, the content-region rule of
  :func:`temex.template.detectors.apply_region` is applied by default (``region``).

Everything is iterative (explicit stacks): 10,000-deep trees are fine.

Cost: O(n1·n2) worst case per pair of pages (paper §4), near-linear in practice
thanks to the two short-cuts; retrieveTemplate O(n1).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...errors import ParameterError
from ...page.dom import Document
from ..model import TemplateModel
from ..rules import DEFAULT_REGION, apply_region
from .base import FittedMixin, subdocument

__all__ = ["rtdm_td", "retrieve_template", "RTDMResult", "RTDMDetector", "find_template",
           "rehash"]

DEFAULT_MAX_CELLS = 90_000

# operation codes stored in the backtracking lists
IDENT, NOOP, REPLACE, DELETE, INSERT = "ident", "noop", "update", "delete", "insert"


@dataclass
class RTDMResult:
    """Output of :func:`rtdm_td`.

    Attributes
    ----------
    cost : int
        Cost of the minimal restricted top-down mapping (unit costs; deleting
        or inserting a subtree costs its size, own text counts as a leaf).
    ops : dict
        ``(a, b) -> list of (op, c, d)``: the backtracked operations over the
        children of the mapped same-label pair (a, b) (the paper's ``B``
        reduced to the chosen path; ``next`` is the entry of ``(c, d)``).
    root : tuple of int
        The root pair.
    """

    cost: int
    ops: dict[tuple[int, int], list[tuple[str, int, int]]] = field(default_factory=dict)
    root: tuple[int, int] = (0, 0)
    same_root: bool = True


def _align(a: int, b: int, d1: Document, d2: Document,
           memo: dict[tuple[int, int], int], max_cells: int
           ) -> tuple[int, list[tuple[str, int, int]]]:
    """Fill M and B for the children of (a, b) (Fig. 3 lines 5-45) and
    backtrack. Needs ``memo`` to hold every same-label non-leaf pair.
    Steps: :func:`_middle` (the identical ends set aside), then
    :func:`_greedy_ops` on a level of more than ``max_cells`` cells, else
    :func:`_edit_matrix` and :func:`_backtrack`."""
    ops, A2, B2, tail, greedy = _middle(a, b, d1, d2, max_cells)
    if greedy:  # identical subtrees in order, the rest edited
        cost, mid = _greedy_ops(A2, B2, d1, d2)
    else:
        cost, Bop = _edit_matrix(A2, B2, d1, d2, memo)
        mid = _backtrack(Bop, A2, B2)
    ops.extend(mid)
    ops.extend(reversed(tail))
    return cost, ops


def _middle(a: int, b: int, d1: Document, d2: Document, max_cells: int
            ) -> tuple[list[tuple[str, int, int]], Sequence[int], Sequence[int],
                       list[tuple[str, int, int]], bool]:
    """The children of (a, b) left to align once their identical ends are
    set aside (:func:`_identical_ends`), and whether they make more than
    ``max_cells`` cells (a level aligned greedily, :func:`_greedy_ops`, which
    reads no pair of children). Returns ``(prefix ops, A2, B2, suffix ops
    last first, greedy)``."""
    A, B = d1.children[a], d2.children[b]
    ops, lo, hi1, hi2, tail = _identical_ends(A, B, d1.subtree_hash, d2.subtree_hash)
    A2, B2 = A[lo:hi1], B[lo:hi2]
    return ops, A2, B2, tail, len(A2) * len(B2) > max_cells


def _identical_ends(A: Sequence[int], B: Sequence[int], h1: Sequence[int], h2: Sequence[int]
                    ) -> tuple[list[tuple[str, int, int]], int, int, int,
                               list[tuple[str, int, int]]]:
    """Decides the common prefix and suffix of identical subtrees of two
    children lists (subtree hashes ``h1``, ``h2``): they are in every optimal
    mapping, so only ``A[lo:hi1]`` against ``B[lo:hi2]`` is left to align.
    Returns ``(prefix ops, lo, hi1, hi2, suffix ops last first)``."""
    ops: list[tuple[str, int, int]] = []
    lo, hi1, hi2 = 0, len(A), len(B)
    while lo < hi1 and lo < hi2 and h1[A[lo]] == h2[B[lo]]:
        ops.append((IDENT, A[lo], B[lo]))
        lo += 1
    tail: list[tuple[str, int, int]] = []
    while hi1 > lo and hi2 > lo and h1[A[hi1 - 1]] == h2[B[hi2 - 1]]:
        hi1 -= 1
        hi2 -= 1
        tail.append((IDENT, A[hi1], B[hi2]))
    return ops, lo, hi1, hi2, tail


def _greedy_ops(A2: Sequence[int], B2: Sequence[int], d1: Document, d2: Document
                ) -> tuple[int, list[tuple[str, int, int]]]:
    """Decides a very wide level's alignment without the matrix: each child
    of ``A2`` maps to the first identical subtree of ``B2`` after the last
    one mapped, every other child is deleted or inserted at its size.
    Returns ``(cost, ops)``. O(|A2| + |B2|) but for repeated subtrees."""
    h1, h2, s1, s2 = d1.subtree_hash, d2.subtree_hash, d1.size, d2.size
    ops: list[tuple[str, int, int]] = []
    cost = 0
    pos: dict[int, list[int]] = {}
    for j, d in enumerate(B2):
        pos.setdefault(h2[d], []).append(j)
    j0 = 0
    for c in A2:
        cand = [j for j in pos.get(h1[c], ()) if j >= j0]
        if cand:
            j = cand[0]
            for d in B2[j0:j]:
                ops.append((INSERT, -1, d))
                cost += s2[d]
            ops.append((IDENT, c, B2[j]))
            j0 = j + 1
        else:
            ops.append((DELETE, c, -1))
            cost += s1[c]
    for d in B2[j0:]:
        ops.append((INSERT, -1, d))
        cost += s2[d]
    return cost, ops


def _edit_matrix(A2: Sequence[int], B2: Sequence[int], d1: Document, d2: Document,
                 memo: dict[tuple[int, int], int]) -> tuple[int, list[list[str]]]:
    """Decides the cheapest edit of the children list ``A2`` into ``B2``
    (Fig. 3): ``M[i][j]``, the cost of the first i children of a against the
    first j of b, each cell the cheapest of a deletion, an insertion or the
    pair's cost (0 for identical subtrees, the bottom-up short-cut; a
    replacement across labels; the top-down short-cut when one is a leaf;
    else the pair's memoised mapping). Returns ``(M[m][n], B)``, ``B`` the
    operation chosen at each cell."""
    h1, h2, s1, s2, t1, t2 = (d1.subtree_hash, d2.subtree_hash, d1.size, d2.size,
                              d1.tag, d2.tag)
    m, n = len(A2), len(B2)

    def pair_cost(c: int, d: int) -> tuple[int, str]:
        if h1[c] == h2[d]:
            return 0, IDENT  # bottom-up short-cut: identical subtrees
        if t1[c] != t2[d]:
            if s1[c] == 1 and s2[d] == 1:
                return 1, REPLACE  # leaf replacement
            return s1[c] + s2[d], REPLACE
        if s1[c] == 1 or s2[d] == 1:  # top-down short-cut: nothing below maps
            txt = 0 if d1.text[c] == d2.text[d] else 1
            return s1[c] - 1 + s2[d] - 1 + txt, NOOP
        return memo[(c, d)], NOOP

    # M[i][j]: cost of the first i children of a against the first j of b
    M = [[0] * (n + 1) for _ in range(m + 1)]
    Bop = [[""] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        M[i][0] = M[i - 1][0] + s1[A2[i - 1]]
        Bop[i][0] = DELETE
    for j in range(1, n + 1):
        M[0][j] = M[0][j - 1] + s2[B2[j - 1]]
        Bop[0][j] = INSERT
    for i in range(1, m + 1):
        c = A2[i - 1]
        sc = s1[c]
        Mi, Mp, Bi = M[i], M[i - 1], Bop[i]
        for j in range(1, n + 1):
            d = B2[j - 1]
            best, op = Mp[j] + sc, DELETE
            v = Mi[j - 1] + s2[d]
            if v < best:
                best, op = v, INSERT
            pc, pop = pair_cost(c, d)
            v = Mp[j - 1] + pc
            if v < best or (v == best and pop != REPLACE):
                best, op = v, pop
            Mi[j], Bi[j] = best, op
    return M[m][n], Bop


def _backtrack(Bop: list[list[str]], A2: Sequence[int], B2: Sequence[int]
               ) -> list[tuple[str, int, int]]:
    """Decides the operations on the chosen path through ``Bop`` (the
    retrieveTemplate-style backtrack, Fig. 4 lines 10-27), walked from the
    last cell and returned first child first."""
    mid: list[tuple[str, int, int]] = []
    i, j = len(A2), len(B2)
    while i > 0 or j > 0:
        op = Bop[i][j]
        if op == DELETE:
            mid.append((DELETE, A2[i - 1], -1))
            i -= 1
        elif op == INSERT:
            mid.append((INSERT, -1, B2[j - 1]))
            j -= 1
        else:
            mid.append((op, A2[i - 1], B2[j - 1]))
            i -= 1
            j -= 1
    mid.reverse()
    return mid


def rtdm_td(d1: Document, d2: Document, *, root1: int = 0, root2: int = 0,
            max_cells: int = DEFAULT_MAX_CELLS) -> RTDMResult:
    """Minimal restricted top-down mapping of ``d1`` onto ``d2`` (Fig. 3).

    Returns an :class:`RTDMResult`; ``same_root`` is False (and the cost the
    full replacement) when the roots have different labels.

    Cost: O(Σ |C(a)|·|C(b)|) over same-label, non-identical pairs (a, b) whose
    children are both non-empty; each pair is solved once (memoised).
    """
    if d1.tag[root1] != d2.tag[root2]:
        return RTDMResult(d1.size[root1] + d2.size[root2], {}, (root1, root2), False)
    h1, h2 = d1.subtree_hash, d2.subtree_hash
    if h1[root1] == h2[root2]:
        return RTDMResult(0, {}, (root1, root2))
    memo: dict[tuple[int, int], int] = {}
    ops: dict[tuple[int, int], list[tuple[str, int, int]]] = {}
    stack: list[tuple[int, int, bool]] = [(root1, root2, False)]
    while stack:
        a, b, ready = stack.pop()
        if (a, b) in memo:
            continue
        if not ready:
            stack.append((a, b, True))
            # only the pairs the alignment of (a, b) reads: none on a level
            # aligned greedily, none in its identical ends (two lists of
            # 17,000 rows would push every pair)
            _, A2, B2, _, greedy = _middle(a, b, d1, d2, max_cells)
            if greedy:
                continue
            by_tag: dict[str, list[int]] = {}
            for d in B2:
                if d2.children[d]:
                    by_tag.setdefault(d2.tag[d], []).append(d)
            for c in A2:
                if not d1.children[c]:
                    continue
                for d in by_tag.get(d1.tag[c], ()):
                    if h1[c] != h2[d] and (c, d) not in memo:
                        stack.append((c, d, False))
            continue
        cost, pair_ops = _align(a, b, d1, d2, memo, max_cells)
        memo[(a, b)] = cost + (0 if d1.text[a] == d2.text[b] else 1)
        ops[(a, b)] = pair_ops
    return RTDMResult(memo[(root1, root2)], ops, (root1, root2))


def retrieve_template(d1: Document, d2: Document, result: RTDMResult
                      ) -> tuple[list[bool], list[bool]]:
    """Nodes of ``d1`` in the common subtree (Fig. 4), iteratively.

    Returns ``(mapped, text_kept)`` masks over ``d1``: ``mapped[i]`` when node
    ``i`` is in the restricted top-down mapping through "no op"/identical
    pairs; ``text_kept[i]`` when additionally its own text equals that of its
    image (the text leaf survived). Cost O(|d1|).
    """
    n = len(d1)
    mapped, kept = [False] * n, [False] * n
    if not result.same_root:
        return mapped, kept
    r1, r2 = result.root

    def ident(c: int) -> None:
        for k in d1.descendants(c):
            mapped[k] = kept[k] = True

    if d1.subtree_hash[r1] == d2.subtree_hash[r2]:
        ident(r1)
        return mapped, kept
    stack = [(r1, r2)]
    while stack:
        a, b = stack.pop()
        mapped[a] = True
        kept[a] = d1.text[a] == d2.text[b]
        for op, c, d in result.ops.get((a, b), ()):
            if op == IDENT:
                ident(c)
            elif op == NOOP:
                if (c, d) in result.ops:
                    stack.append((c, d))
                else:  # top-down short-cut pair: only the node itself maps
                    mapped[c] = True
                    kept[c] = d1.text[c] == d2.text[d]
    return mapped, kept


def rehash(doc: Document) -> None:
    """Recompute ``size`` and ``subtree_hash`` bottom-up (after editing texts),
    with the formula of :mod:`temex.page.dom`. O(n)."""
    doc.rehash()


def find_template(key: Document, pages: Sequence[Document],
                  max_cells: int = DEFAULT_MAX_CELLS) -> tuple[list[bool], list[int]]:
    """FindTemplate (Fig. 5) anchored on ``key``: S₀ = key, Sᵢ =
    ExtractSubTree(Sᵢ₋₁, Pᵢ) (Fig. 6). Returns the template mask over ``key``
    (mapped with text kept in every page, or text-free) and per-node votes
    (pages in which the node was still mapped)."""
    n = len(key)
    alive = [True] * n
    text_ok = [True] * n
    votes = [0] * n
    cur, index = key, list(range(n))
    for page in pages:
        res = rtdm_td(cur, page, max_cells=max_cells)
        mapped, kept = retrieve_template(cur, page, res)
        for j, old in enumerate(index):
            if mapped[j]:
                votes[old] += 1
                if not kept[j]:
                    text_ok[old] = False
            else:
                alive[old] = False
        if not any(mapped):
            break
        cur, index = subdocument(key, alive)
        changed = False
        for j, old in enumerate(index):
            if not text_ok[old] and cur.text[j]:
                cur.text[j] = ""
                changed = True
        if changed:
            rehash(cur)
    template = [alive[i] and (text_ok[i] or not key.text[i]) for i in range(n)]
    return template, votes


class RTDMDetector(FittedMixin):
    """RTDM-TD template detector (paper §5), scikit-learn style.

    Parameters
    ----------
    region : float or None, default 0.7
        Content-region rule (:func:`temex.template.detectors.apply_region`); None gives
        the paper's output unchanged.
    max_cells : int
        Largest children matrix filled exactly (see module notes).

    Attributes
    ----------
    model_ : TemplateModel
    template_, votes_ : list

    Notes
    -----
    Cost: one RTDM-TD per sample page against the shrinking template, O(n·m)
    worst case each, near-linear in practice.
    """

    method = "rtdm"

    def __init__(self, region: float | None = DEFAULT_REGION, max_cells: int = DEFAULT_MAX_CELLS) -> None:
        self.region = region
        self.max_cells = max_cells

    def get_params(self) -> dict[str, object]:
        return {"region": self.region, "max_cells": self.max_cells}

    def __repr__(self) -> str:
        return f"RTDMDetector(region={self.region!r}, max_cells={self.max_cells!r})"

    def fit(self, key: Document, pages: Sequence[Document]) -> RTDMDetector:
        if self.region is not None and not (isinstance(self.region, (int, float))
                                            and 0 < self.region <= 1):
            raise ParameterError("region", "None or a number in (0, 1]", self.region)
        if not isinstance(self.max_cells, int) or self.max_cells < 1:
            raise ParameterError("max_cells", "a positive int", self.max_cells)
        t0 = time.perf_counter()
        if pages:
            template, votes = find_template(key, pages, self.max_cells)
            if self.region is not None:
                template = apply_region(key, template, self.region)
        else:
            template, votes = [False] * len(key), [0] * len(key)
        self._model = TemplateModel(key=key, template=template, votes=votes,
                                    pages=[p.url for p in pages], method=self.method,
                                    params=dict(self.get_params()),
                                    timings={"fit": time.perf_counter() - t0})
        return self

