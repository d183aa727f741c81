"""Duplicate pages of a crawl, proven on their main text.

A page is recorded as a duplicate of an earlier page only with a proof
stated in the index:

- ``same text``: its main text is the earlier page's, character for
  character (``same canonical URL and same text`` when both pages also
  declare the same ``<link rel=canonical>``);
- ``near-same text``: the resemblance (Jaccard coefficient,
  :func:`temex.site.duplicates.jaccard`) of the two texts' word 3-shingles
  (:func:`text_shingles`) reaches ``threshold`` (Broder 1997, "On the
  resemblance and containment of documents", section 2; a shingle repeated in a text counts
  as often as it occurs, so the coefficient is that of the multisets). The
  resemblance bounds what the reader loses: the shingles of the page not in
  its twin's text are at most ``1 - threshold`` of the two pages' shingles
  together.
  The default, and how it was chosen:
  :data:`temex.site.defaults.DEFAULT_NEAR_DUP`.

A canonical URL alone proves nothing (the later pages of a forum topic may
declare the first page as canonical and hold other posts); neither does a
64-bit fingerprint: candidates are found exactly.

Candidates: every pair with resemblance at least ``threshold`` is found, none
missed, by prefix filtering (Bayardo, Ma and Srikant 2007, "Scaling up all
pairs similarity search", section 4: with the shingles of every set sorted in
one global order, rarest first, two sets of resemblance ``t`` share a shingle
within their first ``|x| - ceil(t |x|) + 1``), then the resemblance is
computed exactly. A duplicate always points to a page that was written (no
chains); among several, the most resembling, then the earliest. Pages whose
own URL is the canonical URL they declare come first, so that of two pages
with the same text the canonical one is written and the other points to it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..page.tokens import tokens
from ..site.defaults import DEFAULT_NEAR_DUP
from ..site.duplicates import jaccard

__all__ = ["DuplicateProof", "find_duplicates", "text_shingles"]


def text_shingles(text: str, k: int = 3) -> frozenset[str]:
    """The ``k``-word shingles of ``text`` (lower-cased words,
    :func:`temex.page.tokens.tokens`; a text of fewer than ``k`` words is
    one shingle), a repeated shingle numbered by
    its occurrence (``"a b c"``, ``"a b c#2"``): the multiset as a set, so
    that a text repeating a sentence is not made smaller than it is.

    Not the candidate pages' near-duplicate shingles
    (:func:`temex.site.duplicates.page_shingles`: hashed 4-word shingles of
    the whole body, a set, compared by containment once the template's
    shingles are set aside; that module's docstring compares the two
    schemes): strings, so that the proof and the prefix order are the same
    in every run."""
    words = tokens(text)
    if len(words) <= k:
        return frozenset([" ".join(words)]) if words else frozenset()
    seen: Counter[str] = Counter()
    out = []
    for i in range(len(words) - k + 1):
        g = " ".join(words[i:i + k])
        seen[g] += 1
        out.append(g if seen[g] == 1 else f"{g}#{seen[g]}")
    return frozenset(out)


@dataclass(frozen=True)
class DuplicateProof:
    """Why page ``index`` is recorded as a duplicate of page ``twin``."""

    twin: int
    kind: str          # "same text", "same canonical URL and same text", "near-same text"
    resemblance: float

    def describe(self, threshold: float) -> str:
        if self.kind == "near-same text":
            return (f"near-same text: word 3-shingle resemblance {self.resemblance:.3f}"
                    f" ≥ {threshold}")
        return self.kind


def find_duplicates(texts: Sequence[str], canonicals: Sequence[str | None],
                    threshold: float = DEFAULT_NEAR_DUP,
                    urls: Sequence[str] | None = None) -> dict[int, DuplicateProof]:
    """Duplicates among ``texts`` (pages in crawl order, with their declared
    canonical URLs and, optionally, their own URLs; empty texts are never
    duplicates): ``{page: proof}``, each proof naming a page that is not
    itself a duplicate, its own canonical page first, else an earlier one.
    ``threshold`` above 1 turns the near-same rule off (equal texts only)."""
    found: dict[int, DuplicateProof] = {}
    by_text: dict[str, int] = {}
    near = threshold <= 1.0
    # one shingle set per distinct text (a crawl's same-text pages share it:
    # the sets are most of the memory of a large crawl's processing)
    by_distinct: dict[str, frozenset[str]] = {}
    sets: list[frozenset[str]] = []
    for t in texts:
        if t and near and t not in by_distinct:
            by_distinct[t] = text_shingles(t)
        sets.append(by_distinct[t] if t and near else frozenset())
    df: Counter[str] = Counter()
    for s in sets:
        df.update(s)
    index: dict[str, list[int]] = {}  # prefix shingle -> written pages
    order = list(range(len(texts)))
    if urls is not None:  # canonical pages first, each group in crawl order
        order.sort(key=lambda k: canonicals[k] != urls[k])
    pos = {k: n for n, k in enumerate(order)}
    for k in order:
        text = texts[k]
        if not text:
            continue
        twin = by_text.get(text)
        if twin is not None:
            same_canon = canonicals[k] is not None and canonicals[k] == canonicals[twin]
            found[k] = DuplicateProof(twin, "same canonical URL and same text" if same_canon
                                      else "same text", 1.0)
            continue
        s = sets[k]
        best: tuple[float, int] | None = None
        prefix: list[str] = []
        if s:
            prefix = sorted(s, key=lambda g: (df[g], g))[:len(s) - math.ceil(threshold * len(s)) + 1]
            seen: set[int] = set()
            for g in prefix:
                for j in index.get(g, ()):
                    if j in seen:
                        continue
                    seen.add(j)
                    small, large = sorted((len(s), len(sets[j])))
                    if small < threshold * large:  # resemblance ≤ small / large
                        continue
                    r = jaccard(s, sets[j])
                    if r >= threshold and (best is None or
                                           (r, -pos[j]) > (best[0], -pos[best[1]])):
                        best = (r, j)
        if best is not None:
            found[k] = DuplicateProof(best[1], "near-same text", best[0])
            continue
        by_text[text] = k
        for g in prefix:
            index.setdefault(g, []).append(k)
    return found
