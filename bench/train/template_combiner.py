"""Learned per-node combiner against the hand rules, leave one site out.

    .venv/bin/python -m bench.train.template_combiner [--data DIR] [--n 4]

For every key page of the shared sites (``DATA/sites``; candidates chosen by
the rule of temex.site.pool, n pages) the default vote detector is fitted and,
for every scored element of the key page, per-node features are computed:
votes under the first evidence rule and under the text-share rule (share of
the pages), the hand rules' verdict and the parent's, inside / above / at the
content region, depth below the region, subtree size, own and subtree text
length, link density, share of the subtree's text found in the compared pages,
text-free subtree, member of a record group, tag (22 one-hot). Labels: the
data README's gold (temex.evaluate.gold_mask).

Leave one site out: a model is trained on the nodes of six sites (each site
weighing the same) and scores the seventh; printed per site next to the hand
rules (node F1 template / content, all key pages of a site pooled) and the
worst site. Models: logistic regression (``lr``), a depth-4 tree (``tree``),
30 depth-2 boosted trees (``gb``), each with and without the hand rules'
verdicts among the features. Needs numpy and scikit-learn (bench extras);
nothing is written: no combiner beat the rules on the worst site
(docs/EVALUATION.md), so none ships.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from bench.common import DATA_HELP, data_dir
from bench.eval.bench_core import (
    prepared,  # the key pages and their candidates, as bench_core scores them
)
from temex.page.dom import Document
from temex.template.detectors import get_detector
from temex.template.detectors.base import seen_texts
from temex.template.rules import Compared, apply_region
from temex.template.rules.records import record_groups

TAGS = ["a", "li", "ul", "div", "span", "p", "h", "table", "tr", "td", "form", "input", "img",
        "i", "nav", "section", "br", "hr", "button", "label", "option", "svg"]
#: Columns holding the hand rules' verdicts (dropped by the "without rules" models).
RULE_COLUMNS = (3, 15)


def tag_class(t: str) -> str:
    return {"h1": "h", "h2": "h", "h3": "h", "h4": "h", "h5": "h", "h6": "h", "th": "td",
            "tbody": "table", "thead": "table", "tfoot": "table", "select": "input",
            "textarea": "input", "ol": "ul"}.get(t, t)


def node_features(key: Document, pages: list[Document], n: int) -> tuple[list[list[float]],
                                                                          list[bool]]:
    """Features of every element of ``key`` and the hand rules' mask (the
    default vote detector's, recomputed from its parts)."""
    det = get_detector("vote")
    eq = det._validate()
    v1 = [0] * len(key)
    v2 = [0] * len(key)
    for p in pages:
        a, b, _ = det._page_masks(key, p, eq)
        for i in range(len(key)):
            v1[i] += a[i]
            v2[i] += b[i]
    k = max(len(pages), 1)
    need = math.floor(det.threshold * k + 1e-9) + 1
    need_in = math.floor(det.region_threshold * k + 1e-9) + 1
    info = {"region": -1}
    seen = seen_texts(pages)
    rules = apply_region(key, [v >= need for v in v1], det.region,
                         inside_template=[v >= need_in for v in v2],
                         compared=Compared(seen=seen), info=info)
    reg = info["region"]
    size = len(key)
    tot, lnk, sn = [0] * size, [0] * size, [0] * size
    in_link = [False] * size
    for i in range(size):
        p = key.parent[i]
        in_link[i] = key.tag[i] == "a" or (p >= 0 and in_link[p])
    for i in range(size - 1, -1, -1):
        ln = len(key.text[i])
        tot[i] += ln
        lnk[i] += ln if in_link[i] else 0
        sn[i] += ln if key.text[i] and key.text[i] in seen else 0
        p = key.parent[i]
        if p >= 0:
            tot[p] += tot[i]
            lnk[p] += lnk[i]
            sn[p] += sn[i]
    rec = [False] * size
    if reg >= 0:
        for p in key.descendants(reg):
            for g in record_groups(key, p):
                for r in g:
                    for j in key.descendants(r):
                        rec[j] = True
    rows = []
    for i in range(size):
        inside = reg >= 0 and key.is_ancestor(reg, i)
        above = reg >= 0 and key.is_ancestor(i, reg) and i != reg
        depth = key.depth[i] - key.depth[reg] if inside else 0
        p = key.parent[i]
        f = [1.0, v1[i] / k, v2[i] / k, float(rules[i]), float(inside), float(above),
             float(i == reg), min(depth, 10) / 10, math.log1p(key.size[i]) / 5,
             math.log1p(len(key.text[i])) / 5, math.log1p(tot[i]) / 5,
             lnk[i] / tot[i] if tot[i] else 0.0, sn[i] / tot[i] if tot[i] else 0.0,
             float(tot[i] == 0), float(rec[i]), float(rules[p]) if p >= 0 else 1.0]
        tc = tag_class(key.tag[i])
        f += [float(tc == t) for t in TAGS]
        rows.append(f)
    return rows, rules


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None, help=DATA_HELP)
    ap.add_argument("--n", type=int, default=4, help="candidate pages per key page (default 4)")
    args = ap.parse_args()
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    data = data_dir(args.data)
    cases = []  # (site, features, gold, rules) per key page, scored elements only
    for name, _kp, _f, key, pages, gold in prepared(data, args.n):
        rows, rules = node_features(key, pages, args.n)
        idx = [i for i, g in enumerate(gold) if g is not None]
        cases.append((name, np.array([rows[i] for i in idx]),
                      np.array([bool(gold[i]) for i in idx]),
                      np.array([rules[i] for i in idx], dtype=bool)))
    sites = sorted({c[0] for c in cases})

    def f1(pred, gold):  # type: ignore[no-untyped-def]
        tp = int(np.sum(pred & gold))
        fp = int(np.sum(pred & ~gold))
        fn = int(np.sum(~pred & gold))
        tn = int(np.sum(~pred & ~gold))
        return (2 * tp / (2 * tp + fp + fn) if tp else 0.0,
                2 * tn / (2 * tn + fn + fp) if tn else 0.0)

    models = {"lr": lambda: LogisticRegression(C=1.0, max_iter=2000),
              "tree": lambda: DecisionTreeClassifier(max_depth=4, min_samples_leaf=50,
                                                     random_state=0),
              "gb": lambda: GradientBoostingClassifier(n_estimators=30, max_depth=2,
                                                       random_state=0)}
    keep_all = list(range(cases[0][1].shape[1]))
    keep_no_rules = [j for j in keep_all if j not in RULE_COLUMNS]
    variants = [(f"{m}{'' if cols is keep_all else ' (no rules)'}", m, cols)
                for cols in (keep_all, keep_no_rules) for m in models]
    table: dict[str, dict[str, tuple[float, float]]] = {"hand rules": {}}
    for s in sites:
        te = [c for c in cases if c[0] == s]
        table["hand rules"][s] = f1(np.concatenate([c[3] for c in te]),
                                    np.concatenate([c[2] for c in te]))
    for label, m, cols in variants:
        table[label] = {}
        for s in sites:
            tr = [c for c in cases if c[0] != s]
            te = [c for c in cases if c[0] == s]
            per_site = {c[0]: 0 for c in tr}
            for c in tr:
                per_site[c[0]] += len(c[2])
            x = np.vstack([c[1][:, cols] for c in tr])
            y = np.concatenate([c[2] for c in tr])
            w = np.concatenate([np.full(len(c[2]), len(y) / (len(per_site) * per_site[c[0]]))
                                for c in tr])  # every training site weighs the same
            model = models[m]()
            model.fit(x, y, sample_weight=w)
            pred = model.predict(np.vstack([c[1][:, cols] for c in te])).astype(bool)
            table[label][s] = f1(pred, np.concatenate([c[2] for c in te]))
    print("## Learned per-node combiner, leave one site out (vote, n="
          f"{args.n})\n")
    print("Cells: template F1 / content F1 of the held-out site (model trained on the "
          "other six); hand rules: the shipped detector. Last column: the worst site, "
          "min(template F1, content F1).\n")
    print("| model | " + " | ".join(sites) + " | worst site |")
    print("|---" * (len(sites) + 2) + "|")
    for label, row in table.items():
        worst = min((min(v), s) for s, v in row.items())
        cells = [f"{row[s][0]:.3f} / {row[s][1]:.3f}" for s in sites]
        print(f"| {label} | " + " | ".join(cells) + f" | {worst[1]} ({worst[0]:.3f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
