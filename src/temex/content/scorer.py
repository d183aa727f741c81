"""Learned block scorer: the probability that a text block is main content.

A logistic regression in two stages over per-block features (pure Python at
run time; the weights are a small JSON file shipped in the package,
``temex/content/model.json``, reproduced by ``bench/train_content_model.py`` from
``../shared/data`` only).

Stage 1 features of a block (:data:`FEATURES`): its size, link density, tag,
ancestors (tags, ``id``/``class`` name words, negative and positive),
punctuation and stop-word density (relative to the page: no language is
assumed), depth and position in the page, the statistics of its parent and
grandparent subtrees, its neighbours, and the verdicts of the rules of
:mod:`temex.content.extract` (link density, names, records, region, title). The
*site* model adds the site evidence: on how many of the site's other pages
the block's text occurs. Stage 2 adds the stage-1 probabilities of the
block's neighbours and of its parent and grandparent subtrees, so that a
block is judged with its surroundings (a short line in an article is
content, the same line in a link list is not).

Nothing is specific to a site or a dataset: features are generic properties
of HTML pages, trained on ~1,300 pages of ~670 sites and checked by
cross-validation grouped by site (docs/CONTENT.md).
"""

from __future__ import annotations

import json
import math
import operator
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from ..page.blocks import Blocks, heaviest_subtree, subtree_sums
from ..page.dom import Document

__all__ = ["FEATURES", "SITE_FEATURES", "CONTEXT_FEATURES", "ScorerModel", "load_model",
           "block_features", "context_features", "MODEL_VERSION"]

MODEL_VERSION = 1

_TAGS = ("p", "h1", "h2", "h3", "h456", "li", "td", "div", "pre", "blockquote", "dd", "br",
         "body", "span_like")
_ANC = ("article", "main", "table", "form", "header", "footer", "nav", "aside", "ul", "li",
        "blockquote", "a", "h")
POSITIVE_NAMES = ("article", "content", "post", "entry", "story", "body", "main", "text",
                  "blog", "news", "page", "prose", "hentry")
_NEGATIVE = ("comment", "disqus", "respond", "reply", "share", "sharing", "social",
             "related", "sidebar", "widget", "promo", "sponsor", "advert", "breadcrumb",
             "cookie", "newsletter", "subscribe", "popup", "modal", "footer", "nav",
             "menu", "tags", "tagcloud", "trackback", "pingback", "recommend", "outbrain",
             "taboola", "yarpp", "popular", "banner", "masthead", "header", "login", "search",
             "pagination", "pager", "meta", "byline", "date", "author", "caption", "copyright",
             "skip", "top", "links", "ad", "ads", "list", "teaser", "more")
_STOP = frozenset("""a an the and or but if of to in on at by for with from as is are was were be
been being it its this that these those he she they we you i his her their our your my me him
them us not no so than then there here which who whom what when where why how all any some such
will would can could should may might must do does did has have had into about over after before
up out more most other also just only very""".split())
_WORD = re.compile(r"\w+", re.UNICODE)
_SPLIT = re.compile(r"[^a-z]+")
_ASCII_DIGIT = re.compile(r"[0-9]")

FEATURES: list[str] = (
    ["bias", "log_chars", "log_text_chars", "link_density", "log_words", "avg_word_len",
     "stop_rel", "punct_rate", "sentence_ends", "ends_punct", "digit_rate", "upper_start",
     "comma_rate", "pipe_or_bullet", "depth_rel", "pos_rel", "pos_rel_sq", "index_rel",
     "short", "very_long"]
    + [f"tag_{t}" for t in _TAGS]
    + [f"anc_{t}" for t in _ANC]
    + ["neg_names", "neg_self", "pos_names", "pos_near",
       "par_log_chars", "par_ld", "par_log_blocks", "par_share", "par_avg_chars",
       "gp_log_chars", "gp_ld", "gp_log_blocks", "gp_share", "gp_avg_chars",
       "prev_ld", "next_ld", "prev_log_chars", "next_log_chars", "prev_heading", "next_log_text",
       "rule_ld_ok", "rule_named", "rule_records", "rule_region", "rule_chosen",
       "rule_title", "region_share", "log_page_chars", "page_ld",
       "title_overlap", "title_equal", "after_h1", "comment_anc", "first_h1"])
SITE_FEATURES: list[str] = ["site_pages", "site_repeated", "site_df_rate", "site_long_repeated",
                            "site_rule_chosen", "site_rule_region", "site_rep_share",
                            "site_long_rep_share", "site_rep_prose"]
CONTEXT_FEATURES: list[str] = ["s1", "prev_s1", "next_s1", "par_s1", "gp_s1", "ggp_s1",
                               "win_s1", "page_s1"]


def _tagclass(t: str) -> str:
    if t in ("h4", "h5", "h6"):
        return "h456"
    if t in ("th", "td"):
        return "td"
    if t in ("dt", "dd"):
        return "dd"
    if t in _TAGS:
        return t
    return "span_like"


_NEG_PREFIXES = _NEGATIVE[:29]
_NEG_WORDS = frozenset(_NEGATIVE[29:])


@lru_cache(maxsize=4096)
def _name_verdicts(id_: str, classes: tuple[str, ...]) -> tuple[bool, bool, bool]:
    """(negative, positive, comment-like) verdicts of an element's ``id`` and
    classes, cached across pages: a site repeats its names on every page
    (4,096 entries, about a megabyte: a worker's memory stays flat)."""
    words: list[str] = []
    for value in (id_, *classes):
        low = value.lower()
        if low.startswith("js-"):
            continue
        words.extend(w for w in _SPLIT.split(low) if w)
    return (_neg(words) if words else False, _pos(words) if words else False,
            any(w.startswith(("comment", "disqus", "respond", "reply")) for w in words))


def _neg(words: list[str]) -> bool:
    return any(w.startswith(_NEG_PREFIXES) or w in _NEG_WORDS for w in words)


def _pos(words: list[str]) -> bool:
    return any(w.startswith(POSITIVE_NAMES) for w in words)


def block_features(doc: Document, blocks: Blocks, rule: dict[str, Any],
                   site: dict[str, Any] | None = None) -> list[list[float]]:
    """Feature vectors of the blocks of ``doc`` (:data:`FEATURES`, then
    :data:`SITE_FEATURES` when ``site`` is given). ``rule``: the masks of
    :func:`temex.content.rule_signals` without site evidence; ``site``:
    ``pages`` (number of other pages), ``df`` (per block, other pages holding
    its text), ``rule`` (the rule masks with site evidence)."""
    n = len(blocks)
    nd_of, chars, lchars = blocks.node, blocks.chars, blocks.link_chars
    tag, parent, text = doc.tag, doc.parent, doc.text
    body = doc.body
    end = body + doc.size[body]
    nn = len(doc)
    sc, sl, sb = subtree_sums(doc, blocks, chars, lchars, [1] * n)
    total = max(1, sc[body])
    page_ld = sl[body] / total
    # ancestor flags, name counts, depth
    anc = [0] * nn  # bitmask of _ANC
    negc = [0] * nn
    posc = [0] * nn
    posn = [0] * nn  # positive name within 2 levels
    negself = [False] * nn
    bit = {t: 1 << k for k, t in enumerate(_ANC)}
    maxdepth = 1
    ids, classes, depth = doc.id, doc.classes, doc.depth
    # (negative, positive, comment) name verdicts once per distinct id/class set
    # (_name_verdicts) and once per node (posself, comm_self), not per use
    posself = [False] * nn
    comm = [False] * nn  # inside an element named like a comment section
    for i in range(body, end):
        p = parent[i] if i != body else -1
        t = tag[i]
        m = anc[p] if p >= 0 else 0
        key = "h" if t in ("h1", "h2", "h3", "h4", "h5", "h6") else t
        if key in bit:
            m |= bit[key]
        anc[i] = m
        ng = ps = cm = False
        if ids[i] or classes[i]:
            ng, ps, cm = _name_verdicts(ids[i], classes[i])
            posself[i] = ps
        comm[i] = (comm[p] if p >= 0 else False) or cm
        negself[i] = ng
        negc[i] = (negc[p] if p >= 0 else 0) + ng
        posc[i] = (posc[p] if p >= 0 else 0) + ps
        posn[i] = ps or (p >= 0 and posself[p])
        if depth[i] > maxdepth:
            maxdepth = depth[i]
    bdepth = doc.depth[body]
    # block texts
    btext = [" ".join(text[i] for i in ps) for ps in blocks.pieces]
    stop_rates = []
    words_l = []
    is_stop = _STOP.__contains__
    for s in btext:
        ws = _WORD.findall(s.lower())
        words_l.append(ws)
        stop_rates.append(sum(map(is_stop, ws)) / len(ws) if ws else 0.0)
    wsum = sum(chars) or 1
    page_stop = sum(r * c for r, c in zip(stop_rates, chars)) / wsum
    title_words: set[str] = set()
    for i in range(0, body if body > 0 else 0):
        if tag[i] == "title":
            title_words = set(_WORD.findall(text[i].lower()))
            break
    first_h1 = -1
    for b in range(n):
        if tag[nd_of[b]] == "h1":
            first_h1 = b
            break
    region, region_end = rule["region"], rule["region"] + doc.size[rule["region"]] \
        if rule["region"] >= 0 else 0
    region_share = sc[region] / total if region >= 0 else 0.0
    chosen = rule["chosen_mask"]
    rep_share = long_rep_share = 0.0
    if site is not None:
        sdf = site["df"]
        rep_share = sum(c for c, k in zip(chars, sdf) if k >= 1) / total
        long_c = sum(c for c in chars if c >= 150)
        long_rep_share = (sum(c for c, k in zip(chars, sdf) if k >= 1 and c >= 150) / long_c
                          if long_c else 0.0)
    before = 0
    out: list[list[float]] = []
    tag_vec: dict[str, list[float]] = {}  # one-hot rows, built once per value
    anc_vec: dict[int, list[float]] = {}
    sub_vec: dict[int, list[float]] = {}  # parent/grandparent subtree rows by node
    for b in range(n):
        d = nd_of[b]
        c = chars[b]
        s = btext[b]
        ws = words_l[b]
        nw = len(ws)
        ld = lchars[b] / c if c else 0.0
        t = tag[d]
        tc = _tagclass(t)
        p = parent[d] if d != body else body
        gp = parent[p] if p != body else body
        stripped = s.rstrip()
        # counts by str.count and a C-level map: the same integers as a
        # generator over the characters, at a fraction of the cost
        punct = (s.count(".") + s.count(",") + s.count(";") + s.count(":") + s.count("!")
                 + s.count("?"))
        ends = stripped[-1:] in (".", "!", "?", ":", '"', "\u201d")
        sent = s.count(". ") + s.count("? ") + s.count("! ") + ends
        # on ASCII text str.isdigit is [0-9]: one C scan instead of a call per character
        digits = len(_ASCII_DIGIT.findall(s)) if s.isascii() else sum(map(str.isdigit, s))
        prev = b - 1 if b > 0 else -1
        nxt = b + 1 if b + 1 < n else -1
        f = [1.0, math.log1p(c), math.log1p(c - lchars[b]), ld, math.log1p(nw),
             (sum(map(len, ws)) / nw) if nw else 0.0,
             stop_rates[b] - page_stop, punct / c if c else 0.0, min(sent, 10) / 10.0,
             float(ends), digits / c if c else 0.0, float(s[:1].isupper()),
             s.count(",") / max(1, nw), float("|" in s or "\u2022" in s or "\u00bb" in s),
             (doc.depth[d] - bdepth) / max(1, maxdepth - bdepth), before / total,
             (before / total) ** 2, b / n, float(c < 20), float(c > 400)]
        v = tag_vec.get(tc)
        if v is None:
            v = tag_vec[tc] = [float(tc == x) for x in _TAGS]
        f += v
        m = anc[d]
        v = anc_vec.get(m)
        if v is None:
            v = anc_vec[m] = [float(bool(m & bit[x])) for x in _ANC]
        f += v
        f += [min(negc[d], 3) / 3.0, float(negself[d] or negself[p]), min(posc[d], 3) / 3.0,
              float(posn[d])]
        for a in (p, gp):
            v = sub_vec.get(a)
            if v is None:
                v = sub_vec[a] = [math.log1p(sc[a]), sl[a] / sc[a] if sc[a] else 0.0,
                                  math.log1p(sb[a]), sc[a] / total,
                                  math.log1p(sc[a] / max(1, sb[a]))]
            f += v
        f += [lchars[prev] / chars[prev] if prev >= 0 else 0.0,
              lchars[nxt] / chars[nxt] if nxt >= 0 else 0.0,
              math.log1p(chars[prev]) if prev >= 0 else 0.0,
              math.log1p(chars[nxt]) if nxt >= 0 else 0.0,
              float(prev >= 0 and tag[nd_of[prev]] in ("h1", "h2", "h3", "h4", "h5", "h6")),
              math.log1p(chars[nxt] - lchars[nxt]) if nxt >= 0 else 0.0]
        f += [float(rule["ld_ok"][b]), float(rule["named"][b]), float(rule["records"][b]),
              float(region >= 0 and region <= d < region_end), float(chosen[b]),
              float(b == rule["title"]), region_share, math.log1p(total), page_ld]
        tw = sum(map(title_words.__contains__, ws)) / nw if nw and title_words else 0.0
        f += [tw, float(tw > 0.8 and nw >= 2 and nw * 2 >= len(title_words) * 0.5),
              float(first_h1 >= 0 and b >= first_h1), float(comm[d]), float(b == first_h1)]
        if site is not None:
            pages = site["pages"]
            df = site["df"][b]
            sr = site["rule"]
            sreg = sr["region"]
            sreg_end = sreg + doc.size[sreg] if sreg >= 0 else 0
            f += [min(pages, 20) / 20.0, float(df >= 1), df / pages if pages else 0.0,
                  float(df >= 2 or (df >= 1 and c < 100)), float(sr["chosen_mask"][b]),
                  float(sreg >= 0 and sreg <= d < sreg_end), rep_share, long_rep_share,
                  float(df >= 1 and c >= 150 and ld < 0.3 and sent >= 2)]
        out.append(f)
        before += c
    return out


def context_features(doc: Document, blocks: Blocks, s1: Sequence[float]) -> list[list[float]]:
    """Stage-2 features (:data:`CONTEXT_FEATURES`) from stage-1 probabilities."""
    n = len(blocks)
    nd_of, chars = blocks.node, blocks.chars
    parent, body = doc.parent, doc.body
    ws, cs = subtree_sums(doc, blocks, [p * c for p, c in zip(s1, chars)], chars)
    page = ws[body] / cs[body] if cs[body] else 0.0
    out: list[list[float]] = []
    for b in range(n):
        d = nd_of[b]
        p = parent[d] if d != body else body
        gp = parent[p] if p != body else body
        ggp = parent[gp] if gp != body else body
        lo, hi = max(0, b - 2), min(n, b + 3)
        wc = sum(chars[lo:hi])  # slices: the same sums, in the same order
        win = sum(map(operator.mul, s1[lo:hi], chars[lo:hi])) / wc if wc else 0.0
        out.append([_logit(s1[b]), s1[b - 1] if b else 0.0, s1[b + 1] if b + 1 < n else 0.0,
                    ws[p] / cs[p] if cs[p] else 0.0, ws[gp] / cs[gp] if cs[gp] else 0.0,
                    ws[ggp] / cs[ggp] if cs[ggp] else 0.0, win, page])
    return out


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


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

    def stage1(self, feats: list[list[float]]) -> list[float]:
        b, k = self._b1, self._k1
        return [_sigmoid(b + sum(map(operator.mul, f, k))) for f in feats]

    def stage2(self, feats: list[list[float]], ctx: list[list[float]]) -> list[float]:
        b, k = self._b2, self._k2
        return [_sigmoid(b + sum(map(operator.mul, f + c, k))) for f, c in zip(feats, ctx)]

    def probabilities(self, doc: Document, blocks: Blocks,
                      feats: list[list[float]]) -> list[float]:
        s1 = self.stage1(feats)
        return self.stage2(feats, context_features(doc, blocks, s1))


@lru_cache(maxsize=1)
def load_model() -> dict[str, ScorerModel]:
    """The shipped models by variant (``page``, ``site``)."""
    raw = resources.files("temex.content").joinpath("model.json").read_text(encoding="utf-8")
    d = json.loads(raw)
    if d.get("version") != MODEL_VERSION:
        raise ValueError(f"content model version {d.get('version')!r} is not supported")
    return {k: ScorerModel(v) for k, v in d["models"].items()}


def select(doc: Document, blocks: Blocks, probs: Sequence[float], threshold: float,
           outside: float = 2.0) -> tuple[list[int], int]:
    """Kept blocks and the main region from block probabilities: the region
    is the element maximising the sum of ``chars * (p - threshold)`` over its
    blocks (a maximum-weight subtree); kept are the blocks inside it with
    ``p >= threshold`` and, outside it, those with ``p >= outside``."""
    n = len(blocks)
    body = doc.body
    if not n or body < 0:
        return [], -1
    node, chars = blocks.node, blocks.chars
    region = heaviest_subtree(doc, blocks, [c * (p - threshold) for c, p in zip(chars, probs)])
    r_end = region + doc.size[region]
    chosen = [b for b in range(n)
              if probs[b] >= (threshold if region <= node[b] < r_end else outside)]
    return chosen, region
