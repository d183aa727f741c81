"""Train the site-level decision (:mod:`temex.content.decision`) on every shared site.

    .venv/bin/python -m bench.train.train_site_decision [--per-site 40] [--seed 0] [--write]
    .venv/bin/python -m bench.train.train_site_decision --explain SITE [--worst 3]

For each site of ``DATA/sites`` the fixed sample of ``bench/eval/every_page.py``
(``--per-site`` pages with gold, ``random.Random(seed)``), in folder mode (the
site index of every HTML file under the site's root, as ``temex content
SITE_DIR`` builds it): the decision's rows of every block
(:func:`temex.content.extract.decision_inputs`) and its label, the share of
its characters that the gold calls content (:func:`temex.evaluate.gold_mask`,
node-level gold), rounded at 0.5. The same for every site folder with three
pages or more of the news content datasets (:data:`CONTENT_SETS`; every page
of the folder is the evidence; labels from the gold text). Weights: every
site the same, every page of a site the same, every block by its characters
(token F1 counts text).

Leave one site out: for each site, trees trained on the other sites' blocks
decide the site's pages through the real pipeline
(:func:`temex.content.extract.extract_content` with the fold's decision), and
the page's token F1 against the gold text is scored, next to the hand-set
choice it replaces (``ContentParams(site_decision=False)``) and the page
alone; a content dataset is left out whole (its sites share brands with the
other datasets': bbc is in all three). Sites are printed worst left-out lift
first. The page model behind ``page_prob`` was trained on the older shared
sites and the content sets (``train_content_model.py``), so on those the
page level's verdict is better than on a site never seen: judge by the
thirteen sites added on 2026-12-03, or give ``--page-folds`` (the fold
models of ``train_content_model.py --cv 5 --fold-models FILE --skip-sites
added``): every group is then scored, the page alone too, with the page
model that did not see it (``--oof-rows``: its rows are collected with that
model too, stacking out of fold; measured and not shipped, docs/journal,
2026-12-06, out-of-fold page probabilities). ``--write`` then trains
on every site and writes ``src/temex/content/decision.json`` (deterministic:
``random_state`` fixed, no early stopping).
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

import temex
from bench.common import DATA_HELP, REPO, data_dir
from bench.eval.every_page import NEW_SITES
from temex.evaluate.pages import site_sample
from temex.content.decision import (  # noqa: E402
    DECISION_FEATURES,
    DECISION_VERSION,
    MAPPED_FEATURES,
    SiteDecision,
)
from temex.content.extract import ContentParams, decision_inputs, extract_content  # noqa: E402
from temex.content.folder import (  # noqa: E402
    index_folder,
    key_page_mask,
    similar_pages_mask,
)
from temex.content.scorer import Forest, load_model  # noqa: E402
from temex.evaluate import gold_mask  # noqa: E402
from temex.page.dom import parse  # noqa: E402
from temex.page.files import read_page  # noqa: E402
from temex.page.tokens import token_prf  # noqa: E402
from temex.errors import ParseError  # noqa: E402
from temex.template.site_index import SiteIndex  # noqa: E402

#: The trees' settings (scikit-learn's HistGradientBoostingClassifier).
TREES = {"max_iter": 100, "max_depth": 3, "learning_rate": 0.1, "l2_regularization": 1.0,
         "min_samples_leaf": 40}
#: The content datasets whose site folders hold several pages of one site
#: (folder mode applies): trained on, and scored leaving the dataset out.
CONTENT_SETS = ("big9", "cleanportaleval", "dragnet")
OUT = REPO / "src" / "temex" / "content" / "decision.json"
#: The mapped decision's file (``--mapped``).
OUT_MAPPED = OUT.with_name("decision_mapped.json")


def block_labels(doc, blocks, gold) -> list[float]:  # type: ignore[no-untyped-def]
    """Share of each block's own text that the gold calls content."""
    out = []
    for ps in blocks.pieces:
        tot = con = 0
        for i in ps:
            n = len(doc.text[i])
            tot += n
            con += n if gold[i] is False else 0
        out.append(con / tot if tot else 0.0)
    return out


def _rows(doc, index, params, label, mapped=None, models=None) -> tuple[list, list, list] | None:  # type: ignore[no-untyped-def]
    got = decision_inputs(doc, index, params, models=models, mapped=mapped)
    if got is None:
        return None
    cand, rows = got
    tot = sum(cand.blocks.chars) or 1
    return rows, label(cand), [c / tot for c in cand.blocks.chars]


def _group(name: str, kind: str, pages: list, files: list, root: str, X: list, y: list,
           w: list) -> dict:
    return {"name": name, "kind": kind, "pages": pages, "files": files, "root": root,
            "X": np.array(X, dtype=float).reshape(len(y), -1) if y
            else np.zeros((0, len(DECISION_FEATURES))),
            "y": np.array(y), "w": np.array(w)}


def page_folds(path: Path | None) -> Callable[[str], dict[str, Any] | None]:
    """The page models that did not see a group, by group name: read from
    the fold models of ``train_content_model.py --cv K --fold-models FILE``
    (each trained without a fold of site brands); a group whose brand is in
    no fold (a site the page model never trained on) gets None, the shipped
    model. Without ``path`` every group gets the shipped model."""
    if path is None:
        return lambda name: None
    from temex.content.scorer import ScorerModel
    from temex.evaluate.training import group_of

    raw = json.loads(path.read_text(encoding="utf-8"))
    models: dict[int, dict[str, Any]] = {}

    def of(name: str) -> dict[str, Any] | None:
        f = raw["group_fold"].get(group_of(name.split("/")[-1]))
        if f is None:
            return None
        if f not in models:
            models[f] = {v: ScorerModel(d) for v, d in raw["models"][f].items()}
        return models[f]

    return of


def collect(data: Path, per_site: int, seed: int, names: list[str],
            datasets: tuple[str, ...] = CONTENT_SETS, mapped: bool = False,
            page_models: Callable[[str], dict[str, Any] | None] = page_folds(None)
            ) -> list[dict]:
    """Per group (a shared site, or a site folder of a content dataset with
    three pages or more): its name and kind (``site`` or the dataset), pages
    (path, gold text), the files of its index, and the blocks' rows, labels
    and weights of the pages the decision applies to. A shared site's labels
    come from its node-level gold; a content dataset's from its gold text
    (:func:`temex.evaluate.training.labels_for`: a block is content when most
    of its word trigrams are in the gold). With ``mapped``, each page's
    template mask of the key-page fit too (``mapped``: by page path), and
    the rows of the mapped decision. ``page_models`` gives each group the
    page models behind ``page_prob`` (:func:`page_folds`: out of fold, the
    stacking of Wolpert 1992, so that the decision learns how far the page
    level's verdict holds on a site it never trained on)."""
    from temex.evaluate.content_sets import pages_by_site, read_html
    from temex.evaluate.training import labels_for
    from temex.page.tokens import tokens

    params = ContentParams()
    groups = []
    for d in sorted(p for p in (data / "sites").iterdir() if (p / "site.json").is_file()):
        if names and d.name not in names:
            continue
        t = time.perf_counter()
        sample = site_sample(d, per_site, seed)
        site, files, pages = sample.site, sample.files, sample.pages
        index, _, _ = index_folder(files, site.root)
        models = page_models(site.name)
        X, y, w = [], [], []
        masks: dict[str, list[bool] | None] = {}
        for f, _gold in pages:
            doc = parse(read_page(f), url=str(f))
            m = key_page_mask(doc, f, site.root) if mapped else None
            masks[str(f)] = m
            gold = gold_mask(doc, site.content_selector, site.template_selector)
            got = _rows(doc, index, params, lambda c: block_labels(doc, c.blocks, gold), m,
                        models)
            if got is not None:
                X, y, w = X + got[0], y + got[1], w + got[2]
        groups.append(_group(site.name, "site", [(str(f), g) for f, g in pages],
                             [str(f) for f in files], str(site.root), X, y, w))
        groups[-1]["mapped"] = masks
        print(f"  {site.name}: {len(pages)} pages, {len(y)} blocks, "
              f"{time.perf_counter() - t:.0f}s", file=sys.stderr, flush=True)
    for ds in datasets if not names else ():
        for site_name, refs in sorted(pages_by_site(data, ds).items()):
            if len(refs) < 3:
                continue
            index = SiteIndex()
            docs = []
            for r in refs:
                try:
                    doc = parse(read_html(r.html), url=str(r.html))
                except ParseError:
                    continue
                index.add(doc)
                docs.append((r, doc))
            X, y, w = [], [], []
            masks = {}
            models = page_models(site_name)
            for r, doc in docs:
                gold = r.gold_text()
                m = (similar_pages_mask(doc, [o for _, o in docs if o is not doc]) if mapped
                     else None)
                masks[str(r.html)] = m
                got = _rows(doc, index, params, lambda c: labels_for(
                    [tokens(t) for t in c.blocks.joined], gold), m, models)
                if got is not None:
                    X, y, w = X + got[0], y + got[1], w + got[2]
            groups.append(_group(f"{ds}/{site_name}", ds,
                                 [(str(r.html), r.gold_text()) for r, _ in docs],
                                 [str(r.html) for r, _ in docs], "", X, y, w))
            groups[-1]["mapped"] = masks
        print(f"  {ds}: done", file=sys.stderr, flush=True)
    return groups


#: Forests averaged (bagging over groups: each forest is trained without a
#: random third of the sites and site folders), to damp what one site's
#: quirks teach the trees; 1 trains one forest on every group. By decision,
#: as measured left out (docs/journal, 2026-12-07, four forests for the mapped
#: decision): four for the mapped one (mean 0.957 -> 0.960, no site lower
#: by more than 0.002), one for the text counts alone (four: 0.955 -> 0.954,
#: cmsis-dv-doxygen -0.047).
BAGS = {False: 1, True: 4}


def _fit_one(sites: list[dict]):  # type: ignore[no-untyped-def]
    from sklearn.ensemble import HistGradientBoostingClassifier

    sites = [s for s in sites if len(s["y"])]

    X = np.vstack([s["X"] for s in sites])
    y = np.concatenate([s["y"] for s in sites]) >= 0.5
    # every site weighs the same, whatever its pages and blocks
    w = np.concatenate([s["w"] / max(s["w"].sum(), 1e-9) for s in sites])
    m = HistGradientBoostingClassifier(early_stopping=False, random_state=0, **TREES)
    m.fit(X, y, sample_weight=w)
    return m


def fit(sites: list[dict], bags: int = 1):  # type: ignore[no-untyped-def]
    """The trees on ``sites`` (a list of ``bags`` forests to average), and
    every row they saw (the export's check)."""
    X = np.vstack([s["X"] for s in sites if len(s["y"])])
    if bags <= 1:
        return [_fit_one(sites)], X
    out = []
    for k in range(bags):
        rng = random.Random(k)
        bag = [s for s in sites if rng.random() >= 1 / 3] or sites
        out.append(_fit_one(bag))
    return out, X


def decision_dict(ms: list, X: np.ndarray, trained_on: list[str]) -> dict:  # type: ignore[type-arg]
    """The shipped form: one forest; several are averaged into one (every
    tree kept, its leaves divided by their number, the bases averaged),
    checked against the mean of scikit-learn's log-odds."""
    from bench.train.train_content_model import forest_dict

    parts = [forest_dict(m, X) for m in ms]
    if len(parts) == 1:
        forest = parts[0]
    else:
        k = len(parts)
        forest = {"base": sum(p["base"] for p in parts) / k, "feature": [], "threshold": [],
                  "left": [], "right": [], "value": [], "roots": []}
        for p in parts:
            off = len(forest["feature"])
            forest["roots"] += [r + off for r in p["roots"]]
            forest["left"] += [c + off if c >= 0 else -1 for c in p["left"]]
            forest["right"] += [c + off if c >= 0 else -1 for c in p["right"]]
            forest["feature"] += p["feature"]
            forest["threshold"] += p["threshold"]
            forest["value"] += [v / k for v in p["value"]]
        walk = Forest(forest, X.shape[1])
        z = np.array([walk.raw(row) for row in X[:2000].tolist()])
        mean = np.mean([m.decision_function(X[:2000]) for m in ms], axis=0)
        if not np.allclose(z, mean, atol=1e-9):
            raise AssertionError("averaged forest differs from the mean of the forests")
    mapped = X.shape[1] == len(DECISION_FEATURES) + len(MAPPED_FEATURES)
    return {"version": DECISION_VERSION,
            "features": list(DECISION_FEATURES + (MAPPED_FEATURES if mapped else ())),
            "threshold": 0.5, "trees": TREES, "bags": len(parts), "trained_on": trained_on,
            "forest": forest}


def _index(g: dict) -> SiteIndex:
    if "index" not in g:
        if g["kind"] == "site":
            g["index"] = index_folder([Path(f) for f in g["files"]], Path(g["root"]))[0]
        else:
            g["index"] = SiteIndex()
            for f in g["files"]:
                g["index"].add(parse(_read(f), url=f))
    return g["index"]


def _read(f: str) -> bytes:
    from temex.evaluate.content_sets import read_html

    return read_html(Path(f)) if f.endswith(".gz") else read_page(Path(f))


def score_group(g: dict, models: dict | None, params: ContentParams) -> list[float]:
    """Token F1 of every page of ``g`` in folder mode."""
    index = _index(g)
    masks = g.get("mapped", {})
    return [token_prf(extract_content(parse(_read(f), url=f), index, None, params,
                                      models=models, mapped=masks.get(f)).text(), gold)[2]
            for f, gold in g["pages"]]


def _alone(f: str, models: dict[str, Any] | None) -> str:
    """The page alone's text (``models``: another page model's)."""
    if models is None:
        return temex.extract(_read(f), url=f, format="text") or ""
    return extract_content(parse(_read(f), url=f), models=models).text()


def explain(sites: list[dict], name: str, worst: int, bags: int = 1) -> None:
    """The ``worst`` pages of site ``name`` by left-out lift, and on each the
    blocks the fold's decision got wrong (gold share, the decision, the page
    level's verdict, the other pages showing the text, the text)."""
    from temex.content.candidates import candidates

    k = next(i for i, s in enumerate(sites) if s["name"] == name)
    s = sites[k]
    m, X = fit([o for j, o in enumerate(sites) if j != k], bags)
    fold = SiteDecision(decision_dict(m, X, []))
    models = {**load_model(), "decision_mapped" if fold.mapped else "decision": fold}
    _index(s)
    rows = []
    for f, gold in s["pages"]:
        doc = parse(read_page(Path(f)), url=f)
        c = extract_content(doc, s["index"], None, ContentParams(), models=models,
                            mapped=s.get("mapped", {}).get(f))
        alone = extract_content(doc)
        rows.append((token_prf(c.text(), gold)[2] - token_prf(alone.text(), gold)[2], f, doc,
                     c, alone, s.get("mapped", {}).get(f)))
    from temex.evaluate import load_site

    site = load_site(next(p for p in Path(s["root"]).parents if (p / "site.json").is_file()))
    for lift, f, doc, c, alone, mapped in sorted(rows, key=lambda r: r[0])[:worst]:
        print(f"\n{f}: lift {lift:+.3f} ({c.stats})")
        gold = gold_mask(doc, site.content_selector, site.template_selector)
        cand = candidates(doc, s["index"], None, ContentParams())
        df = s["index"].counts(cand.blocks, True)
        lab = block_labels(doc, cand.blocks, gold)
        for b in range(len(cand.blocks)):
            kept, page = b in c.chosen, b in alone.chosen
            if kept != (lab[b] >= 0.5):
                held = "-" if mapped is None else int(mapped[cand.blocks.node[b]])
                print(f"  {b:4d} gold {lab[b]:.1f} kept {int(kept)} page {int(page)} map {held} "
                      f"df {df[b]:3d}/{cand.others} {doc.tag[cand.blocks.node[b]]:6s} "
                      f"{cand.blocks.joined[b][:60]!r}")


def print_table(rows: list[tuple], groups: list[dict]) -> None:  # type: ignore[type-arg]
    """The left-out table, worst lift first, and its means."""
    rows.sort(key=lambda r: r[1] - r[3])
    print("Token F1, folder mode (every page of a group as its site's evidence), the "
          "decision trained leaving the site (a content dataset: the dataset) out; worst "
          "lift first\n")
    print("| site or dataset | left out | hand-set choice | page alone | lift (left out) | "
          "lift (hand-set) | left out, no comment rule |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, lo, hand, alone, bare, *_ in rows:
        print(f"| {name} | {lo:.3f} | {hand:.3f} | {alone:.3f} | {lo - alone:+.3f} | "
              f"{hand - alone:+.3f} | {bare:.3f} |")
    sites = {g["name"] for g in groups if g["kind"] == "site"}
    for label, keep in (("the shared sites", lambda n: n in sites),
                        ("the 13 sites added 2026-12-03", lambda n: n in NEW_SITES),
                        ("the other shared sites", lambda n: n in sites and n not in NEW_SITES)):
        sel = [r for r in rows if keep(r[0])]
        if sel:
            lo, hand, alone, bare = (statistics.mean(r[i] for r in sel) for i in (1, 2, 3, 4))
            print(f"| **mean, {label}** ({len(sel)}) | {lo:.3f} | {hand:.3f} | {alone:.3f} "
                  f"| {lo - alone:+.3f} | {hand - alone:+.3f} | {bare:.3f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="*", metavar="SITE")
    ap.add_argument("--data", help=DATA_HELP)
    ap.add_argument("--per-site", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", help="the collected rows (remade with --refresh; default "
                    "bench/.cache/site_decision-vN[-mapped][-oof].pkl)")
    ap.add_argument("--mapped", action="store_true",
                    help="the mapped decision: each page's key-page fit as two more inputs "
                         "(writes decision_mapped.json)")
    ap.add_argument("--page-folds", metavar="JSON",
                    help="out-of-fold page models (the file of train_content_model.py --cv K "
                         "--fold-models JSON --skip-sites added): every group is scored, the "
                         "page alone too, with the page model that did not see it")
    ap.add_argument("--oof-rows", action="store_true",
                    help="with --page-folds: the rows are collected with those models too "
                         "(out-of-fold stacking)")
    ap.add_argument("--refresh", action="store_true")
    ap.add_argument("--write", action="store_true", help="write the shipped model")
    ap.add_argument("--bags", type=int,
                    help="forests averaged, each without a random third of the groups "
                         "(default: 4 with --mapped, else 1)")
    ap.add_argument("--json", help="every page's left-out scores")
    ap.add_argument("--no-folds", action="store_true",
                    help="skip the left-out runs (with --write: only train and write)")
    ap.add_argument("--explain", metavar="SITE",
                    help="only list the blocks the decision left out for SITE gets wrong "
                         "on its worst pages")
    ap.add_argument("--worst", type=int, default=3, help="pages listed by --explain")
    args = ap.parse_args(argv)
    if args.bags is None:
        args.bags = BAGS[args.mapped]
    data = data_dir(args.data)
    if args.oof_rows and not args.page_folds:
        ap.error("--oof-rows needs --page-folds")
    suffix = ("-mapped" if args.mapped else "") + ("-oof" if args.oof_rows else "")
    cache = Path(args.cache or REPO / "bench" / ".cache"
                 / f"site_decision-v{DECISION_VERSION}{suffix}.pkl")
    # --page-folds: each group is also scored with the page model that did
    # not see it (the page alone too), so that the older sites' figures are
    # as honest as the added ones'; --oof-rows: its rows collected with it
    page_of = page_folds(Path(args.page_folds) if args.page_folds else None)
    if cache.is_file() and not args.refresh and not args.sites:
        groups = pickle.loads(cache.read_bytes())
    else:
        groups = collect(data, args.per_site, args.seed, args.sites, mapped=args.mapped,
                         page_models=page_of if args.oof_rows else page_folds(None))
        if not args.sites:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_bytes(pickle.dumps([{k: v for k, v in g.items() if k != "index"}
                                            for g in groups]))
    if args.explain:
        explain(groups, args.explain, args.worst, args.bags)
        return 0
    base = load_model()
    before = replace(ContentParams(), site_decision=False)
    no_rule = replace(ContentParams(), decision_comments=False)
    folds: list[tuple[str, list[dict]]] = [(g["name"], [g]) for g in groups
                                           if g["kind"] == "site"]
    for ds in CONTENT_SETS:
        held = [g for g in groups if g["kind"] == ds]
        if held:
            folds.append((ds, held))
    key = "decision_mapped" if args.mapped else "decision"
    rows = []
    for name, held in folds if not args.no_folds else ():
        m, X = fit([g for g in groups if all(g is not h for h in held)], args.bags)
        fold = SiteDecision(decision_dict(m, X, []))
        loso, hand, bare, alone = [], [], [], []
        for g in held:
            page = page_of(g["name"])  # None: the shipped page model
            with_fold = {**(page or base), key: fold}
            loso += score_group(g, with_fold, ContentParams())
            hand += score_group(g, page, before)
            bare += score_group(g, with_fold, no_rule)
            alone += [token_prf(_alone(f, page), gold)[2] for f, gold in g["pages"]]
        rows.append((name, statistics.mean(loso), statistics.mean(hand),
                     statistics.mean(alone), statistics.mean(bare), loso, hand, alone))
        print(f"  {name}: left out {rows[-1][1]:.3f}, hand-set {rows[-1][2]:.3f}, "
              f"page alone {rows[-1][3]:.3f}, no comment rule {rows[-1][4]:.3f}",
              file=sys.stderr, flush=True)
    if rows:
        print_table(rows, groups)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {r[0]: {"loso": r[5], "hand": r[6], "alone": r[7]} for r in rows}), "utf-8")
    if args.write:
        m, X = fit(groups, args.bags)
        trained = sorted({g["name"] if g["kind"] == "site" else g["kind"] for g in groups})
        out = OUT_MAPPED if args.mapped else OUT
        out.write_text(json.dumps(decision_dict(m, X, trained),
                                  separators=(",", ":")) + "\n", "utf-8")
        print(f"\nwrote {out.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
