"""Learned block scorer: the probability that a text block is main content.

Idea: a logistic regression in two stages over the features of
:mod:`temex.content.features`: stage 1 judges each block alone, stage 2
again with the stage-1 probabilities of its neighbours and enclosing
subtrees. Two variants: ``page`` (the page alone) and ``site`` (with the
site's other pages counted). Pure Python at run time; the weights are a
small JSON file shipped in the package (``temex/content/model.json``),
reproduced by ``bench/train_content_model.py`` from ``../shared/data`` only.

Source: stacked logistic regression over block features as in Dragnet
(Peters and Lecocq 2013, "Content extraction using diverse feature sets",
WWW); trained and checked by cross-validation grouped by site
(docs/CONTENT.md). Cost: O(blocks × features) per page.
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

__all__ = ["FEATURES", "SITE_FEATURES", "CONTEXT_FEATURES", "ScorerModel", "load_model",
           "block_features", "context_features", "select", "MODEL_VERSION"]

MODEL_VERSION = 2


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class ScorerModel:
    """Weights of one variant (``page`` or ``site``): stage 1 and stage 2
    logistic regressions over standardised features, and the decision
    threshold."""

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

    @staticmethod
    def _fold(mean: Sequence[float], scale: Sequence[float],
              w: Sequence[float]) -> tuple[float, list[float]]:
        k = [wk / s for wk, s in zip(w[1:], scale)]
        return w[0] - sum(kk * m for kk, m in zip(k, mean)), k

    def stage1(self, feats: Sequence[list[float]], width: int = -1) -> list[float]:
        """Stage-1 probabilities of the rows (their first ``width`` values;
        -1: all)."""
        b, k = self._b1, self._k1
        kern = kernel.get()
        if kern is not None:
            return kern.logistic(feats, None, width, b, k)  # type: ignore[no-any-return]
        if width >= 0:
            feats = [f[:width] for f in feats]
        return [_sigmoid(b + sum(map(operator.mul, f, k))) for f in feats]

    def stage2(self, feats: Sequence[list[float]], ctx: list[list[float]],
               width: int = -1) -> list[float]:
        """Stage-2 probabilities of the rows (their first ``width`` values)
        followed by their context features."""
        b, k = self._b2, self._k2
        kern = kernel.get()
        if kern is not None:
            return kern.logistic(feats, ctx, width, b, k)  # type: ignore[no-any-return]
        if width >= 0:
            feats = [f[:width] for f in feats]
        return [_sigmoid(b + sum(map(operator.mul, f + c, k))) for f, c in zip(feats, ctx)]

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
