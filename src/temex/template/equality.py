"""Node equality relations (≅) for the exact top-down mapping.

The ETDM paper (Def. 3.2) leaves the relation ≅ between DOM nodes open: "the
more restrictive, the more precision (and less recall)" (§4.2). temex offers:

``label`` (default)
    Same tag. The relation most tree-mapping papers use (ETDM paper §3). On its
    own it over-approximates the template inside the content area (every
    article has the same ``<p>`` and ``<ul>``); temex's detectors add text
    evidence and the content-region rule, with which it is the best relation
    measured (:data:`DEFAULT_EQUALITY`).
``strict``
    Same tag, ``id`` and set of CSS classes.
``class``
    Same tag with compatible ``id`` and classes (as for ``text``), text ignored.
``weighted``
    The ETDM paper's "ponderation" (§4.2) of HTML id, CSS classes, number of
    children, relative position and other attributes. The paper does not give
    its weights; ours are listed in :class:`WeightedEquality` and were chosen
    on the development sites (bench/bench_core.py). Tags must always agree.
``text``
    Same tag and equal *own text* (the text directly inside the element),
    with a *compatible* ``id`` and class set: equal once digit runs are
    replaced by ``#`` (``post-614`` ~ ``post-27``), and for classes at least one
    shared class (or none on both sides). Sites add page-specific classes to
    ``<body>`` and state classes (``active``) to menu items, which ``strict``
    treats as different nodes.
    The papers' relations ignore text, so a ``<p>`` of one article maps onto
    the ``<p>`` of another and the whole content area looks like template.
    Requiring equal own text keeps menu items, headings and footers that repeat
    word for word, and stops the mapping where a page's own text begins; it
    also stops it above template parts nested in a container whose own text
    changes (a date line), which is why ``label`` with text *evidence* does
    better. Measured against the papers' relations in docs/journal (core).

A relation is a small object with three views of a node ``i``:

``key(doc, i)``
    hashable, equal for every two equal nodes (a necessary condition), so the
    mapping compares only nodes with equal keys;
``features(doc, i)``
    hashable, everything ``equal`` looks at when the relation is *local*
    (decided by the two nodes alone); subtree signatures are built from it, so
    scores can be memoised by signature pair;
``equal(d1, i, d2, j)``
    the relation itself. When ``key_is_equality`` is True it is just key
    equality and the mapping skips the call.

``weighted`` is not local (relative position depends on context): scores are
then memoised per node pair.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import cast

from ..errors import ParameterError
from ..page.dom import Document
from .defaults import DEFAULT_EQUALITY

__all__ = [
    "DEFAULT_EQUALITY",
    "EQUALITIES",
    "ClassEquality",
    "Equality",
    "LabelEquality",
    "StrictEquality",
    "TextEquality",
    "WeightedEquality",
    "get_equality",
]


_DIGITS = re.compile(r"[0-9]+")


def _norm_id(v: str) -> str:
    return _DIGITS.sub("#", v)


def _norm_classes(cs: tuple[str, ...]) -> frozenset[str]:
    return frozenset(_DIGITS.sub("#", c) for c in cs)


class Equality:
    """Base class: ≅ between node ``i`` of ``d1`` and node ``j`` of ``d2``."""

    name = "base"
    #: True when ``equal`` is exactly ``key(d1, i) == key(d2, j)``.
    key_is_equality = True
    #: True when ``equal`` depends only on ``features`` of the two nodes.
    local = True

    def key(self, doc: Document, i: int) -> Hashable:
        raise NotImplementedError

    def features(self, doc: Document, i: int) -> Hashable:
        return self.key(doc, i)

    def feature_list(self, doc: Document) -> list[Hashable]:
        """``features`` for every node (cached on the document)."""
        if type(self).features is Equality.features:
            return self.keys(doc)
        return self._per_node(doc, "_eq_feats", self.features)

    def equal(self, d1: Document, i: int, d2: Document, j: int) -> bool:
        return self.key(d1, i) == self.key(d2, j)

    def keys(self, doc: Document) -> list[Hashable]:
        """``key`` for every node of ``doc`` (cached on the document)."""
        return self._per_node(doc, "_eq_keys", self.key)

    def _per_node(self, doc: Document, slot: str,
                  fn: Callable[[Document, int], Hashable]) -> list[Hashable]:
        """``fn`` for every node of ``doc``, cached on it per relation name."""
        cache: dict[str, list[Hashable]] = doc.__dict__.setdefault(slot, {})
        values = cache.get(self.name)
        if values is None:
            values = [fn(doc, i) for i in range(len(doc))]
            cache[self.name] = values
        return values

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class LabelEquality(Equality):
    """n ≅ n' iff both have the same tag (label)."""

    name = "label"

    def key(self, doc: Document, i: int) -> Hashable:
        return doc.tag[i]

    def keys(self, doc: Document) -> list[Hashable]:
        return list(doc.tag)


class StrictEquality(Equality):
    """n ≅ n' iff tag, ``id`` and the set of CSS classes are all equal."""

    name = "strict"

    def key(self, doc: Document, i: int) -> Hashable:
        return (doc.tag[i], doc.id[i], doc.classes[i])


class TextEquality(Equality):
    """Same tag and own text, compatible id and classes.

    ids are compatible when equal after replacing digit runs by ``#``; class
    sets when both are empty or they share a class (digits likewise replaced).
    """

    name = "text"
    key_is_equality = False

    def key(self, doc: Document, i: int) -> Hashable:
        return (doc.tag[i], doc.text[i])

    def features(self, doc: Document, i: int) -> Hashable:
        return (doc.tag[i], doc.text[i], _norm_id(doc.id[i]), _norm_classes(doc.classes[i]))

    @staticmethod
    def features_equal(f1: Hashable, f2: Hashable) -> bool:
        """``equal`` on two ``features`` values (precomputed, no regex)."""
        t1, x1, i1, c1 = cast("tuple[str, str, str, frozenset[str]]", f1)
        t2, x2, i2, c2 = cast("tuple[str, str, str, frozenset[str]]", f2)
        if t1 != t2 or x1 != x2 or i1 != i2:
            return False
        return c1 == c2 or bool(c1 and c2 and c1 & c2)

    def equal(self, d1: Document, i: int, d2: Document, j: int) -> bool:
        if d1.tag[i] != d2.tag[j] or d1.text[i] != d2.text[j]:
            return False
        return self.features_equal(self.features(d1, i), self.features(d2, j))


class ClassEquality(Equality):
    """Same tag, compatible id and classes (as ``text``), text ignored."""

    name = "class"
    key_is_equality = False

    def key(self, doc: Document, i: int) -> Hashable:
        return doc.tag[i]

    def keys(self, doc: Document) -> list[Hashable]:
        return list(doc.tag)

    def features(self, doc: Document, i: int) -> Hashable:
        return (doc.tag[i], "", _norm_id(doc.id[i]), _norm_classes(doc.classes[i]))

    features_equal = staticmethod(TextEquality.features_equal)

    def equal(self, d1: Document, i: int, d2: Document, j: int) -> bool:
        return self.features_equal(self.features(d1, i), self.features(d2, j))


@dataclass(frozen=True, repr=True)
class WeightedEquality(Equality):
    """The ETDM paper's weighted relation (§4.2), with our weights.

    score = w_id·[ids equal] + w_classes·Jaccard(classes)
          + w_children·(1 − |c−c'|/max(c, c'))
          + w_position·(1 − |p−p'|/max(p, p'))   (p = depth, sibling index)
          + w_attributes·Jaccard(attribute names and values)

    Nodes are equal when their tags agree and ``score >= threshold``. Weights
    sum to 1. Components that are absent on both sides (no id, no classes, no
    attributes) count as agreeing.
    """

    w_id: float = 0.25
    w_classes: float = 0.25
    w_children: float = 0.15
    w_position: float = 0.1
    w_attributes: float = 0.25
    threshold: float = 0.7

    name = "weighted"
    key_is_equality = False
    local = False

    def key(self, doc: Document, i: int) -> Hashable:
        return doc.tag[i]

    def keys(self, doc: Document) -> list[Hashable]:
        return list(doc.tag)

    def score(self, d1: Document, i: int, d2: Document, j: int) -> float:
        s = self.w_id * (d1.id[i] == d2.id[j])
        s += self.w_classes * _jaccard(d1.classes[i], d2.classes[j])
        c1, c2 = len(d1.children[i]), len(d2.children[j])
        s += self.w_children * (1.0 - abs(c1 - c2) / max(c1, c2, 1))
        pos = 0.5 * (1.0 - abs(d1.depth[i] - d2.depth[j]) / max(d1.depth[i], d2.depth[j], 1))
        pos += 0.5 * (1.0 - abs(d1.position[i] - d2.position[j])
                      / max(d1.position[i], d2.position[j], 1))
        s += self.w_position * pos
        s += self.w_attributes * _jaccard(d1.attrs[i], d2.attrs[j])
        return s

    def equal(self, d1: Document, i: int, d2: Document, j: int) -> bool:
        return d1.tag[i] == d2.tag[j] and self.score(d1, i, d2, j) >= self.threshold


def _jaccard(a: tuple[object, ...], b: tuple[object, ...]) -> float:
    if not a and not b:
        return 1.0
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb)


#: The relation used unless another is asked for. Chosen by measurement
#: (docs/journal (core)): with the detectors' evidence and content-region
#: rules, ``label`` equals ``text`` on the shared sites and is better on the
#: 34 sites of the content datasets, where sites put page-specific classes and
#: ids on containers and a mapping that requires them stops early.

EQUALITIES: dict[str, type[Equality]] = {
    "label": LabelEquality,
    "strict": StrictEquality,
    "text": TextEquality,
    "class": ClassEquality,
    "weighted": WeightedEquality,
}


def get_equality(spec: str | Equality) -> Equality:
    """Return the relation named ``spec`` (or ``spec`` itself if already one)."""
    if isinstance(spec, Equality):
        return spec
    cls = EQUALITIES.get(spec)
    if cls is None:
        raise ParameterError("equality", f"one of {sorted(EQUALITIES)}", spec)
    return cls()
