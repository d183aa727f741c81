"""Train temex's block scorer (src/temex/content/model.json) and cross-validate it.

    .venv/bin/python -m bench.train.train_content_model [--data DIR] [--out FILE]
        [--cv 5] [--lodo] [--limit N] [--fold-models FILE] [--l2 X] [--weighting W]

Reads every page of ``DATA/content/<dataset>/manifest.jsonl`` (big9,
cleanportaleval, cleaneval, dragnet: the development data, ``$TEMEX_DATA/content``),
computes the features of :mod:`temex.content.scorer` for every text block, labels a
block *content* when most of its words are in the gold text (word trigrams,
or the whole gold line for blocks of one or two words), and fits two
two-stage scorers (``page``: no site evidence; ``site``: with the site's
other pages counted), each stage a logistic regression by Newton's method
with L2 regularisation (numpy) blended with gradient-boosted trees
(scikit-learn's ``HistGradientBoostingClassifier``: 100 trees of depth 4,
rate 0.1, the same L2; the scorer averages the two log-odds; each exported
forest is checked equal to scikit-learn's prediction), deterministic.
Each block is weighted by its share of the
page's words, so every page weighs the same, as in the page-averaged F1;
then pages are weighted (``--weighting``, :data:`WEIGHTING` = ``mix``: half
every page the same, half every dataset the same, so that CleanEval's 730
pages and its gold convention do not outvote the three other datasets), with
L2 penalty :data:`L2` = 3 (both chosen by the worst leave-one-dataset-out
margin over the best peer, docs/CONTENT.md).
The decision threshold (0.5) and the outside-region threshold (0.8) are
fixed constants, chosen once on out-of-fold probabilities of a grouped-CV run
(``--oof``; ``--threshold -1`` searches the threshold on the training pages).

Cross-validation (``--cv K``): sites are grouped by brand (registered
domain label: bbc.co.uk, bbc.com and big9's bbc are one group; hosting
platforms such as blogspot.com are one group), groups are dealt to K folds,
and every fold's pages are scored by models trained on the other folds only.
``--lodo`` adds leave-one-dataset-out (trained on the three other datasets,
the same threshold and selections). Figures are token F1 of the kept
blocks' words: ``page``, what the page level of extract_content keeps (the
scorer's region, the rules on pages under 400 characters and where the scorer
keeps under ``page_fallback`` of the rules' characters); ``region``, the
scorer's region alone; ``all``, every block over the threshold
(bench_content.py renders the text with extract_content: its figures are the
reference). ``--fold-models FILE`` writes the fold models for
``bench_content.py --cv-models FILE`` and for ``train_site_decision.py
--page-folds FILE``; ``--skip-sites added`` leaves out the 13 shared sites
added on 2026-12-03, as the shipped model's training did.
``--learner logistic`` fits the logistic regressions alone (the scorer
before the blend); ``--learner trees`` (with ``--no-write``) the trees
alone (``--trees-iters``, ``--trees-depth``, ``--trees-rate`` set the
trees of both), to compare learners by the same cross-validation
(docs/journal/2026-11-27-content-a-blended-scorer.md).
Reproduce the shipped file: run without arguments and compare
(``git diff src/temex/content/model.json``; tests/test_scorer.py does it with
TEMEX_SLOW=1).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from bench.common import DATA_HELP, data_dir
from temex.content.extract import ContentParams
from temex.content.region import Widening
from temex.content.scorer import (
    CONTEXT_FEATURES,
    FEATURES,
    MODEL_VERSION,
    SITE_FEATURES,
    Forest,
    context_features,
    select,
)
from temex.evaluate.content_sets import DATASETS
from temex.evaluate.training import SITES, Page, group_of, load, load_sites

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "src" / "temex" / "content" / "model.json"
#: Blocks outside the main region are kept from this probability on.
OUTSIDE = 0.8
#: Decision threshold inside the main region (chosen on grouped-CV out-of-fold
#: probabilities, docs/CONTENT.md).
THRESHOLD = 0.5
#: L2 penalty of both stages, and how pages are weighted (``page``: every page
#: the same; ``dataset``: every dataset the same; ``sqrt``: a dataset of n
#: pages weighs sqrt(n); ``mix``: half and half of page and dataset). Chosen by
#: the worst leave-one-dataset-out margin over the best peer, grouped 5-fold CV
#: within noise (docs/journal/2026-11-22-content-robustness-to-an-unseen-dataset-leave.md).
L2 = 3.0
WEIGHTING = "mix"
WEIGHTINGS = ("page", "dataset", "sqrt", "mix")
_PARAMS = ContentParams()


# -- logistic regression (Newton / IRLS, L2) --------------------------------
def fit_lr(X: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1.0) -> dict:
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    Z = np.hstack([np.ones((len(X), 1)), (X - mean) / scale])
    beta = np.zeros(Z.shape[1])
    reg = np.full(Z.shape[1], l2)
    reg[0] = 0.0
    for _ in range(30):
        z = np.clip(Z @ beta, -30, 30)
        p = 1 / (1 + np.exp(-z))
        g = Z.T @ (w * (p - y)) + reg * beta
        H = (Z * (w * p * (1 - p))[:, None]).T @ Z + np.diag(reg + 1e-9)
        step = np.linalg.solve(H, g)
        beta -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return {"mean": mean, "scale": scale, "w": beta}


#: The learner of both stages (``--learner``): ``blend`` (shipped: the mean
#: log-odds of the logistic regression and of gradient-boosted trees,
#: docs/journal/2026-11-27-content-a-blended-scorer.md), ``logistic`` (the scorer before it)
#: or ``trees`` alone (measured only), with the trees' settings.
LEARNER: dict = {"kind": "blend", "iters": 100, "depth": 4, "rate": 0.1}


def fit_stage(X: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1.0) -> dict:
    """One stage's model by :data:`LEARNER`: :func:`fit_lr`, gradient-boosted
    trees (scikit-learn, deterministic with ``random_state``; the labels are
    the blocks' content shares rounded at 0.5), or both."""
    if LEARNER["kind"] == "logistic":
        return fit_lr(X, y, w, l2)
    from sklearn.ensemble import HistGradientBoostingClassifier

    m = HistGradientBoostingClassifier(max_iter=LEARNER["iters"], max_depth=LEARNER["depth"],
                                       learning_rate=LEARNER["rate"], l2_regularization=l2,
                                       early_stopping=False, random_state=0)
    m.fit(X, y >= 0.5, sample_weight=w)
    if LEARNER["kind"] == "blend":
        return {"trees": m, "lr": fit_lr(X, y, w, l2)}
    return {"trees": m}


def _z_lr(m: dict, X: np.ndarray) -> np.ndarray:
    return m["w"][0] + ((X - m["mean"]) / m["scale"]) @ m["w"][1:]


def _sig(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(z, -30, 30)))


def predict(m: dict, X: np.ndarray) -> np.ndarray:
    if "lr" in m:  # the scorer's blend: the mean of both log-odds
        return _sig(0.5 * (_z_lr(m["lr"], X) + m["trees"].decision_function(X)))
    if "trees" in m:
        return m["trees"].predict_proba(X)[:, 1]
    return _sig(_z_lr(m, X))


def forest_dict(trees, X: np.ndarray) -> dict:  # type: ignore[no-untyped-def]
    """A fitted binary ``HistGradientBoostingClassifier`` in the flat arrays
    :class:`temex.content.scorer.Forest` reads (every tree's nodes in
    scikit-learn's order, children after their parent, offset by the nodes
    before the tree), checked by the scorer's own walk against
    scikit-learn's log-odds on ``X``: the same comparisons and the same sums
    in the same order, so equal."""
    d: dict = {"base": float(np.ravel(trees._baseline_prediction)[0]), "feature": [],
               "threshold": [], "left": [], "right": [], "value": [], "roots": []}
    for (tree,) in trees._predictors:
        off = len(d["feature"])
        d["roots"].append(off)
        for nd in tree.nodes:
            leaf = bool(nd["is_leaf"])
            if not leaf and nd["is_categorical"]:
                raise ValueError("categorical split: not supported by the scorer")
            d["feature"].append(-1 if leaf else int(nd["feature_idx"]))
            d["threshold"].append(0.0 if leaf else float(nd["num_threshold"]))
            d["left"].append(-1 if leaf else off + int(nd["left"]))
            d["right"].append(-1 if leaf else off + int(nd["right"]))
            d["value"].append(float(nd["value"]) if leaf else 0.0)
    walk = Forest(d, X.shape[1])
    z = np.array([walk.raw(row) for row in X.tolist()])
    if not np.array_equal(z, trees.decision_function(X)):
        raise AssertionError("exported forest differs from scikit-learn's prediction")
    return d


def _ctx(p: Page, s1: np.ndarray) -> np.ndarray:
    return np.array(context_features(p.ctx_doc, p.ctx_blocks, s1.tolist(), p.lists))


def page_f1(p: Page, keep: np.ndarray) -> float:
    e: Counter[str] = Counter()
    for k, c in zip(keep, p.btok):
        if k:
            e.update(c)
    ne, ng = sum(e.values()), sum(p.gold.values())
    if not ne and not ng:
        return 1.0
    ov = sum((e & p.gold).values())
    if not ov:
        return 0.0
    pr, rc = ov / ne, ov / ng
    return 2 * pr * rc / (pr + rc)


def page_factors(pages: list[Page], weighting: str = WEIGHTING) -> list[float]:
    """Weight of every page (its blocks' weights sum to it), normalised to a
    mean of 1 (:data:`WEIGHTING`)."""
    n = Counter(p.dataset for p in pages)
    if weighting == "page":
        return [1.0] * len(pages)
    if weighting not in WEIGHTINGS:
        raise ValueError(f"unknown weighting {weighting!r}")
    per = {"dataset": lambda k: 1.0 / k, "sqrt": lambda k: k ** -0.5,
           "mix": lambda k: 0.5 / len(pages) + 0.5 / (len(n) * k)}[weighting]
    f = [per(n[p.dataset]) for p in pages]
    s = sum(f) / len(pages)
    return [x / s for x in f]


def train(pages: list[Page], variant: str, l2: float = L2,
          threshold: float | None = None, weighting: str = WEIGHTING) -> dict:
    feat = "f_page" if variant == "page" else "f_site"
    # the shared sites' pages have page features only (no site index over them)
    pages = [p for p in pages if getattr(p, feat) is not None]
    X = np.vstack([getattr(p, feat) for p in pages])
    y = np.concatenate([p.label for p in pages])
    w = np.concatenate([p.weight * f for p, f in zip(pages, page_factors(pages, weighting))])
    m1 = fit_stage(X, y, w, l2)
    s1s = [predict(m1, getattr(p, feat)) for p in pages]
    ctx = [_ctx(p, s) for p, s in zip(pages, s1s)]
    X2 = np.hstack([X, np.vstack(ctx)])
    m2 = fit_stage(X2, y, w, l2)
    if "lr" in m1:  # the forests as the scorer reads them, checked on a sample
        m1["forest"] = forest_dict(m1["trees"], X[::50])
        m2["forest"] = forest_dict(m2["trees"], X2[::50])
    probs = [predict(m2, np.hstack([getattr(p, feat), c])) for p, c in zip(pages, ctx)]
    best_t, best = 0.5, -1.0
    grid = [threshold] if threshold is not None else np.arange(0.30, 0.61, 0.05)
    for t in grid:
        f = float(np.mean([page_f1(p, keep_of(p, pr, t, "region")) for p, pr in zip(pages, probs)]))
        if f > best + 1e-9:
            best_t, best = float(round(t, 2)), f
    return {"m1": m1, "m2": m2, "threshold": best_t, "train_f1": best}


def probs_of(model: dict, p: Page, variant: str) -> np.ndarray:
    X = p.f_page if variant == "page" else p.f_site
    s1 = predict(model["m1"], X)
    return predict(model["m2"], np.hstack([X, _ctx(p, s1)]))


def keep_of(p: Page, pr: np.ndarray, t: float, sel: str) -> np.ndarray:
    """Kept blocks. ``region``: the scorer's selection (:func:`select`);
    ``page``: what the page level of extract_content keeps (the rules on
    small pages, and where the scorer keeps under ``page_fallback`` of the
    rules' characters); ``all``: every block at or above ``t``. The
    selections but ``all`` give links in the page's navigation no weight,
    as ``extract_content`` does (``ContentParams.navigation``)."""
    if sel == "all":
        return pr >= t
    if sel == "page":
        keep = np.zeros(len(pr), dtype=bool)
        rules = p.rules
        if p.chars.sum() < _PARAMS.small_page:
            keep[rules] = True
            return keep
        keep = keep_of(p, pr, t, "region")
        if (_PARAMS.page_fallback > 0 and rules
                and p.chars[keep].sum() < _PARAMS.page_fallback * p.chars[rules].sum()):
            keep[:] = False
            keep[rules] = True
        return keep
    outside = {"region": OUTSIDE, "region_only": 2.0, "region90": 0.9}[sel]
    if _PARAMS.navigation and p.nav.any():
        pr = np.where(p.nav, 0.0, pr)  # links in the page's navigation, as extract_content
    # "region" is extract_content's page level, the title's article included
    widening = Widening(
        lists=p.lists, list_threshold=_PARAMS.list_region, mains=p.mains,
        main_threshold=_PARAMS.main_region, article=sel == "region" and _PARAMS.title_article,
        title=p.title if sel == "region" else -1, title_ratio=_PARAMS.title_region,
        tables=p.tables if _PARAMS.table_gaps else (),
        introduced=p.introduced if _PARAMS.introduced else (), code=_PARAMS.code_region)
    chosen, _ = select(p.ctx_doc, p.ctx_blocks, pr.tolist(), t, outside, widening)
    keep = np.zeros(len(pr), dtype=bool)
    keep[chosen] = True
    return keep


SELECTIONS = ("page", "region", "all", "region_only")


def score(model: dict, pages: list[Page], variant: str, sel: str = "all") -> list[float]:
    return [page_f1(p, keep_of(p, probs_of(model, p, variant), model["threshold"], sel))
            for p in pages]


def folds_of(pages: list[Page], k: int) -> list[int]:
    groups = sorted({group_of(p.site) for p in pages})
    # deal groups to folds by a stable hash, largest first for balance
    size = Counter(group_of(p.site) for p in pages)
    order = sorted(groups, key=lambda g: (-size[g], zlib.crc32(g.encode())))
    load_: list[int] = [0] * k
    fold_of: dict[str, int] = {}
    for g in order:
        f = min(range(k), key=lambda i: (load_[i], i))
        fold_of[g] = f
        load_[f] += size[g]
    return [fold_of[group_of(p.site)] for p in pages]


def cross_validate(pages: list[Page], k: int, lodo: bool, threshold: float | None = None,
                   oof: dict | None = None, fold_out: list | None = None,
                   l2: float = L2, weighting: str = WEIGHTING) -> dict:
    res: dict = {}
    for variant in ("page", "site"):
        f1s = {sel: [0.0] * len(pages) for sel in SELECTIONS}
        fold = folds_of(pages, k)
        for i in range(k):
            tr = [p for p, f in zip(pages, fold) if f != i]
            te_idx = [j for j, f in enumerate(fold) if f == i]
            m = train(tr, variant, l2, threshold, weighting)
            if fold_out is not None:
                while len(fold_out) <= i:
                    fold_out.append({})
                fold_out[i][variant] = model_dicts({variant: m})[variant]
            for j in te_idx:
                if variant == "site" and pages[j].f_site is None:
                    for sel in SELECTIONS:
                        f1s[sel][j] = float("nan")
                    continue
                pr = probs_of(m, pages[j], variant)
                if oof is not None:
                    oof.setdefault(variant, {})[j] = pr
                for sel in SELECTIONS:
                    f1s[sel][j] = page_f1(pages[j], keep_of(pages[j], pr, m["threshold"], sel))
        for sel in SELECTIONS:
            res[f"cv{k}_{variant}_{sel}"] = f1s[sel]
        if lodo:  # the same selections and threshold as the K folds
            lf = {sel: [0.0] * len(pages) for sel in ("page", "region")}
            for ds in sorted({p.dataset for p in pages}):
                tr = [p for p in pages if p.dataset != ds]
                te_idx = [j for j, p in enumerate(pages) if p.dataset == ds]
                if not tr or not te_idx:
                    continue
                m = train(tr, variant, l2, threshold, weighting)
                for j in te_idx:
                    pr = probs_of(m, pages[j], variant)
                    for sel in lf:
                        lf[sel][j] = page_f1(pages[j], keep_of(pages[j], pr, m["threshold"], sel))
            for sel, f1 in lf.items():
                res[f"lodo_{variant}_{sel}"] = f1
    return res


def loso_sites(pages: list[Page], site_pages: list[Page], with_sites: bool,
               l2: float = L2, weighting: str = WEIGHTING) -> dict[str, dict[str, float]]:
    """Page level on the shared sites: per site the mean token F1 of its
    pages (``page`` selection) by the page model trained on ``pages`` (the
    content datasets) plus, when ``with_sites``, the *other* sites' pages
    (``loso``: never a page of the site scored) and all sites' pages
    (``in``); trafilatura's F1 on the same pages (``peer``)."""
    extra = site_pages if with_sites else []
    full = train(pages + extra, "page", l2, THRESHOLD, weighting)
    f_in = score(full, site_pages, "page", "page")
    out: dict[str, dict[str, float]] = {}
    for name in sorted({p.site for p in site_pages}):
        idx = [j for j, p in enumerate(site_pages) if p.site == name]
        te = [site_pages[j] for j in idx]
        m = full if not with_sites else train(
            pages + [p for p in site_pages if p.site != name], "page", l2, THRESHOLD, weighting)
        out[name] = {"pages": len(idx), "in": float(np.mean([f_in[j] for j in idx])),
                     "loso": float(np.mean(score(m, te, "page", "page"))),
                     "peer": float(np.mean([p.traf or 0.0 for p in te]))}
    return out


def _ds_order(d: str) -> tuple[int, str]:
    return (DATASETS.index(d) if d in DATASETS else len(DATASETS), d)


def model_dicts(models: dict) -> dict:
    """JSON form of trained models by variant (what ScorerModel reads)."""
    def r(a: np.ndarray) -> list[float]:
        return [float(f"{x:.6g}") for x in a]

    out = {}
    for variant, m in models.items():
        names1 = FEATURES + (SITE_FEATURES if variant == "site" else [])
        m1, m2 = m["m1"].get("lr", m["m1"]), m["m2"].get("lr", m["m2"])
        out[variant] = {
            "features1": names1, "mean1": r(m1["mean"]), "scale1": r(m1["scale"]),
            "w1": r(m1["w"]), "features2": names1 + CONTEXT_FEATURES,
            "mean2": r(m2["mean"]), "scale2": r(m2["scale"]), "w2": r(m2["w"]),
            "threshold": m["threshold"], "outside": OUTSIDE}
        if "forest" in m["m1"]:
            out[variant].update(forest1=m["m1"]["forest"], forest2=m["m2"]["forest"])
    return out


def to_json(models: dict, trained_on: list[str]) -> str:
    out = {"version": MODEL_VERSION, "trained_on": trained_on,
           "script": "bench/train/train_content_model.py", "models": model_dicts(models)}
    return json.dumps(out, indent=0, sort_keys=True) + "\n"


def fold_models(pages: list[Page], k: int, l2: float = L2,
                weighting: str = WEIGHTING) -> tuple[dict[str, int], list[dict]]:
    """Grouped K-fold: the fold of every site group, and per fold the models
    (JSON form, by variant) trained on the other folds."""
    fold = folds_of(pages, k)
    group_fold = {group_of(p.site): f for p, f in zip(pages, fold)}
    models = []
    for i in range(k):
        tr = [p for p, f in zip(pages, fold) if f != i]
        models.append(model_dicts({v: train(tr, v, l2, THRESHOLD, weighting)
                                   for v in ("page", "site")}))
    return group_fold, models


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None,
                    help=DATA_HELP)
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--out", default=str(MODEL))
    ap.add_argument("--cv", type=int, default=0, help="grouped K-fold cross-validation")
    ap.add_argument("--lodo", action="store_true", help="also leave one dataset out")
    ap.add_argument("--cache", default=str(ROOT / ".cache" / "content-features"),
                    help="features kept between runs, per version of the feature code "
                         "(none: recompute)")
    ap.add_argument("--limit", type=int, default=0, help="first N sites per dataset (tests)")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--cv-json", help="write per-dataset CV figures here")
    ap.add_argument("--threshold", type=float, default=THRESHOLD,
                    help="decision threshold (default: the shipped one; -1: search on the "
                         "training pages)")
    ap.add_argument("--l2", type=float, default=L2, help="L2 penalty (default: the shipped one)")
    ap.add_argument("--weighting", choices=WEIGHTINGS, default=WEIGHTING,
                    help="page weights (default: the shipped ones)")
    ap.add_argument("--sites", type=int, default=SITES, metavar="N",
                    help=f"N pages of each shared site (DATA/sites) in the page model's "
                         f"training and in --cv, each site one group (default {SITES}; 0: off)")
    ap.add_argument("--skip-sites", default="", metavar="NAME,...",
                    help="shared sites left out of the training and of --cv; 'added' "
                         "names the 13 added on 2026-12-03 (--skip-sites added: the "
                         "shipped model's sites)")
    ap.add_argument("--loso-sites", action="store_true",
                    help="page level on the shared sites: in sample and leaving one site out, "
                         "with trafilatura on the same pages (needs trafilatura); "
                         f"{SITES} pages per site unless --sites says otherwise")
    ap.add_argument("--oof", help="pickle the out-of-fold probabilities here (tuning)")
    ap.add_argument("--fold-models", metavar="JSON",
                    help="with --cv: write the fold models and the fold of every site group "
                         "(bench_content.py --cv-models reads it)")
    ap.add_argument("--learner", choices=("blend", "logistic", "trees"), default="blend",
                    help="both stages' learner: blend (shipped), the mean log-odds of logistic "
                         "and trees; logistic; trees (measured only: --no-write)")
    ap.add_argument("--trees-iters", type=int, default=LEARNER["iters"])
    ap.add_argument("--trees-depth", type=int, default=LEARNER["depth"])
    ap.add_argument("--trees-rate", type=float, default=LEARNER["rate"])
    args = ap.parse_args()
    if args.learner == "trees" and (not args.no_write or args.fold_models):
        ap.error(f"--learner {args.learner} is measured only: give --no-write and no "
                 "--fold-models")
    LEARNER.update(kind=args.learner, iters=args.trees_iters, depth=args.trees_depth,
                   rate=args.trees_rate)
    t0 = time.time()
    data = data_dir(args.data)
    pages = load(data, [d for d in args.datasets.split(",") if d], args.limit,
                 None if args.cache == "none" else Path(args.cache))
    print(f"{len(pages)} pages, {sum(len(p.label) for p in pages)} blocks, "
          f"{time.time() - t0:.0f} s", file=sys.stderr)
    thr = None if args.threshold < 0 else args.threshold
    site_pages: list[Page] = []
    if args.sites or args.loso_sites:
        site_pages = load_sites(data, args.sites or SITES, peer=args.loso_sites,
                                cache=None if args.cache == "none" else Path(args.cache),
                                limit=args.limit)
    skip = {n for n in args.skip_sites.split(",") if n}
    if "added" in skip:  # the 13 sites added on 2026-12-03, by one name
        from bench.eval.every_page import NEW_SITES
        skip = (skip - {"added"}) | NEW_SITES
    site_pages = [p for p in site_pages if p.site not in skip]
    datasets_only = pages
    if args.sites:  # one more "dataset"; each site its own group in the folds
        pages = pages + site_pages
    models = {v: train(pages, v, args.l2, thr, args.weighting) for v in ("page", "site")}
    trees = LEARNER["kind"] == "trees"
    text = "" if trees else to_json(models, sorted({p.dataset for p in pages}, key=_ds_order))
    digest = "none (trees)" if trees else hashlib.sha256(text.encode()).hexdigest()[:16]
    print(f"model digest {digest}; thresholds page {models['page']['threshold']} "
          f"site {models['site']['threshold']}")
    if not args.no_write:
        Path(args.out).write_text(text, encoding="utf-8")
    rows: dict = {}
    dsets = sorted({p.dataset for p in pages}, key=_ds_order)
    for v in ("page", "site"):
        f = [page_f1(p, keep_of(p, probs_of(models[v], p, v), THRESHOLD, "page"))
             if v == "page" or p.f_site is not None else float("nan") for p in pages]
        for ds in dsets:
            rows.setdefault(ds, {})[f"in_{v}"] = float(np.mean(
                [x for x, p in zip(f, pages) if p.dataset == ds]))
    if args.cv:
        oof: dict = {}
        fm: list = []
        cv = cross_validate(pages, args.cv, args.lodo, thr, oof,
                            fm if args.fold_models else None, args.l2, args.weighting)
        if args.fold_models:
            Path(args.fold_models).write_text(json.dumps(
                {"folds": args.cv, "digest": digest,
                 "group_fold": dict(zip(map(group_of, (p.site for p in pages)),
                                        folds_of(pages, args.cv))),
                 "models": fm}), encoding="utf-8")
        if args.oof:
            import pickle
            with open(args.oof, "wb") as fh:
                pickle.dump({"oof": oof, "pages": pages}, fh)
        for key, f in cv.items():
            for ds in dsets:
                rows[ds][key] = float(np.mean([x for x, p in zip(f, pages) if p.dataset == ds]))
    if args.loso_sites:
        res = loso_sites(datasets_only, site_pages, bool(args.sites), args.l2, args.weighting)
        print("| site | pages | page in sample | page LOSO | trafilatura | LOSO − trafilatura |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, r in res.items():
            print(f"| {name} | {r['pages']} | {r['in']:.3f} | {r['loso']:.3f} | {r['peer']:.3f} "
                  f"| {r['loso'] - r['peer']:+.3f} |")
        worst = min(res, key=lambda k: res[k]["loso"] - res[k]["peer"])
        print(f"worst site LOSO: {worst} {res[worst]['loso'] - res[worst]['peer']:+.3f}; "
              f"mean page LOSO {np.mean([r['loso'] for r in res.values()]):.3f}")
    cols = list(next(iter(rows.values())))
    print("| dataset | pages | " + " | ".join(cols) + " |")
    print("|---|---:|" + "---:|" * len(cols))
    for ds in dsets:
        n = sum(p.dataset == ds for p in pages)
        print(f"| {ds} | {n} | " + " | ".join(f"{rows[ds][c]:.3f}" for c in cols) + " |")
    if args.cv_json:
        per_page = [{"dataset": p.dataset, "site": p.site, "page": p.name,
                     **{k: round(v[j], 4) for k, v in cv.items()}}
                    for j, p in enumerate(pages)] if args.cv else []
        Path(args.cv_json).write_text(json.dumps({"digest": digest, "folds": args.cv,
                                                  "rows": rows, "pages": per_page}, indent=1),
                                      encoding="utf-8")
    print(f"{time.time() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
