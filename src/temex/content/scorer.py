"""Learned block scorer: the probability that a text block is main content.

Idea: a classifier in two stages over the features of
:mod:`temex.content.features`: stage 1 judges each block alone, stage 2
again with the stage-1 probabilities of its neighbours and enclosing
subtrees. Each stage is a logistic regression and, where the model has one
(the shipped model has), a forest of gradient-boosted regression trees; the
block's log-odds are then the mean of the two (the trees learn interactions
a linear model cannot; the linear half keeps the smooth behaviour on pages
unlike any trained on: docs/journal/2026-11-27-content-a-blended-scorer.md). Two variants: ``page``
(the page alone) and ``site`` (with the site's other pages counted). Pure
Python at run time (compiled with the kernel: the same sums in the same
order); the weights and trees are a JSON file shipped in the package
(``temex/content/model.json``), reproduced by
``bench/train/train_content_model.py`` from the evaluation data only.

Source: stacked logistic regression over block features as in Dragnet
(Peters and Lecocq 2013, "Content extraction using diverse feature sets",
WWW); gradient boosting (Friedman 2001) with histogram trees as
scikit-learn's ``HistGradientBoostingClassifier`` fits them (only their
prediction is here: a walk from each root, ``x[feature] <= threshold`` to
the left); trained and checked by cross-validation grouped by site
(docs/CONTENT.md). Cost: O(blocks × (features + trees × depth)) per page.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from ..page import kernel
from ..page.blocks import Blocks
from ..page.dom import Document
from .features import CONTEXT_FEATURES, FEATURES, SITE_FEATURES, block_features, context_features
from .region import select

__all__ = ["Forest", "FEATURES", "SITE_FEATURES", "CONTEXT_FEATURES", "ScorerModel", "load_model",
           "block_features", "context_features", "select", "MODEL_VERSION"]

MODEL_VERSION = 3


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class Forest:
    """Gradient-boosted regression trees in flat arrays (one node per index;
    ``feature`` -1 at a leaf): the raw score of a row is ``base`` plus, tree
    by tree in order, the value of the leaf its walk reaches (the order
    scikit-learn adds them in, so the sums are the same)."""

    def __init__(self, d: dict[str, Any], width: int) -> None:
        self.base: float = d["base"]
        self.feature: list[int] = d["feature"]
        self.threshold: list[float] = d["threshold"]
        self.left: list[int] = d["left"]
        self.right: list[int] = d["right"]
        self.value: list[float] = d["value"]
        self.roots: list[int] = d["roots"]
        n = len(self.feature)
        if not all(len(a) == n for a in (self.threshold, self.left, self.right, self.value)):
            raise ValueError("content model: forest arrays of unequal lengths")
        if (any(f >= width for f in self.feature) or any(not 0 <= r < n for r in self.roots)
                or any(f >= 0 and not (i < a < n and i < b < n) for i, (f, a, b)
                       in enumerate(zip(self.feature, self.left, self.right)))):
            raise ValueError("content model: a forest node points outside its arrays")
        self._compiled: Any = None

    def raw(self, x: Sequence[float]) -> float:
        """The forest's log-odds for one row of features."""
        feature, threshold, left, right = self.feature, self.threshold, self.left, self.right
        z = self.base
        for i in self.roots:
            f = feature[i]
            while f >= 0:
                i = left[i] if x[f] <= threshold[i] else right[i]
                f = feature[i]
            z += self.value[i]
        return z

    def compiled(self, kern: Any) -> Any:
        """The kernel's copy of the arrays (made once)."""
        if self._compiled is None:
            self._compiled = kern.Forest(self.base, self.feature, self.threshold, self.left,
                                         self.right, self.value, self.roots)
        return self._compiled


def _stage(b: float, k: list[float], forest: Forest | None,
           rows: Sequence[list[float]]) -> list[float]:
    """Probabilities of full rows: logistic, or the mean log-odds of the
    logistic and the forest."""
    if forest is None:
        return [_sigmoid(b + sum(map(operator.mul, f, k))) for f in rows]
    return [_sigmoid(0.5 * ((b + sum(map(operator.mul, f, k))) + forest.raw(f))) for f in rows]


class ScorerModel:
    """Weights of one variant (``page`` or ``site``): stage 1 and stage 2
    logistic regressions over standardised features, each with its forest
    where the model has one (:class:`Forest`), and the decision threshold."""

    def __init__(self, d: dict[str, Any]) -> None:
        self.names1: list[str] = d["features1"]
        self.mean1: list[float] = d["mean1"]
        self.scale1: list[float] = d["scale1"]
        self.w1: list[float] = d["w1"]
        self.names2: list[str] = d["features2"]
        self.mean2: list[float] = d["mean2"]
        self.scale2: list[float] = d["scale2"]
        self.w2: list[float] = d["w2"]
        self.threshold: float = d["threshold"]
        self.outside: float = d.get("outside", 2.0)
        # standardisation folded into the weights: z = b + sum(w_k * x_k)
        self._b1, self._k1 = self._fold(self.mean1, self.scale1, self.w1)
        self._b2, self._k2 = self._fold(self.mean2, self.scale2, self.w2)
        f1, f2 = d.get("forest1"), d.get("forest2")
        self.forest1 = Forest(f1, len(self.names1)) if f1 else None
        self.forest2 = Forest(f2, len(self.names2)) if f2 else None

    @staticmethod
    def _fold(mean: Sequence[float], scale: Sequence[float],
              w: Sequence[float]) -> tuple[float, list[float]]:
        k = [wk / s for wk, s in zip(w[1:], scale)]
        return w[0] - sum(kk * m for kk, m in zip(k, mean)), k

    def stage1(self, feats: Sequence[list[float]], width: int = -1) -> list[float]:
        """Stage-1 probabilities of the rows (their first ``width`` values;
        -1: all)."""
        b, k, forest = self._b1, self._k1, self.forest1
        kern = kernel.get()
        if kern is not None:
            return kern.logistic(  # type: ignore[no-any-return]
                feats, None, width, b, k, forest and forest.compiled(kern))
        if width >= 0:
            feats = [f[:width] for f in feats]
        return _stage(b, k, forest, feats)

    def stage2(self, feats: Sequence[list[float]], ctx: list[list[float]],
               width: int = -1) -> list[float]:
        """Stage-2 probabilities of the rows (their first ``width`` values)
        followed by their context features."""
        b, k, forest = self._b2, self._k2, self.forest2
        kern = kernel.get()
        if kern is not None:
            return kern.logistic(  # type: ignore[no-any-return]
                feats, ctx, width, b, k, forest and forest.compiled(kern))
        if width >= 0:
            feats = [f[:width] for f in feats]
        return _stage(b, k, forest, [f + c for f, c in zip(feats, ctx)])

    def probabilities(self, doc: Document, blocks: Blocks,
                      feats: Sequence[list[float]], width: int = -1) -> list[float]:
        """The blocks' probabilities from their feature rows (the first
        ``width`` values of each; -1: all): stage 1, then stage 2 with the
        context of stage 1. Compiled when the kernel runs: the same
        operations in the same order (this Python's float ``sum``)."""
        s1 = self.stage1(feats, width)
        return self.stage2(feats, context_features(doc, blocks, s1), width)


@lru_cache(maxsize=1)
def load_model() -> dict[str, ScorerModel]:
    """The shipped models by variant (``page``, ``site``)."""
    raw = resources.files("temex.content").joinpath("model.json").read_text(encoding="utf-8")
    d = json.loads(raw)
    if d.get("version") != MODEL_VERSION:
        raise ValueError(f"content model version {d.get('version')!r} is not supported")
    return {k: ScorerModel(v) for k, v in d["models"].items()}
