"""Tests of the learned block scorer (temex.content.scorer) and its training script."""

from __future__ import annotations

from dataclasses import replace

import hashlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA

from temex.content.extract import ContentParams, extract_content, rule_signals
from temex.content.scorer import (CONTEXT_FEATURES, FEATURES, SITE_FEATURES, Forest,
                                  ScorerModel, block_features, load_model)
from temex.page import kernel
from temex.page.blocks import page_blocks
from temex.page.dom import parse
from temex.page.tokens import token_prf
from temex.template.site_index import SiteIndex

REPO = Path(__file__).resolve().parents[1]


needs_data = pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")


def test_model_file_loads() -> None:
    models = load_model()
    assert set(models) == {"page", "site"}
    page, site = models["page"], models["site"]
    assert page.names1 == FEATURES
    assert site.names1 == FEATURES + SITE_FEATURES
    assert page.names2 == FEATURES + CONTEXT_FEATURES
    assert site.names2 == FEATURES + SITE_FEATURES + CONTEXT_FEATURES
    for m in (page, site):
        assert len(m.w1) == len(m.names1) + 1 and len(m.w2) == len(m.names2) + 1
        assert 0.0 < m.threshold < 1.0
        # the shipped scorer blends each stage with its forest
        assert m.forest1 is not None and m.forest2 is not None
        assert len(m.forest1.roots) == len(m.forest2.roots) == 100


def _forest() -> dict[str, Any]:
    """Two stumps and a tree of depth 2 over three features."""
    return {"base": -0.25, "roots": [0, 3, 6],
            "feature": [0, -1, -1, 2, -1, -1, 1, 0, -1, -1, -1],
            "threshold": [0.5, 0, 0, -1.0, 0, 0, 3.0, 1.5, 0, 0, 0],
            "left": [1, -1, -1, 4, -1, -1, 7, 8, -1, -1, -1],
            "right": [2, -1, -1, 5, -1, -1, 10, 9, -1, -1, -1],
            "value": [0, 0.125, -0.5, 0, 2.0, 0.75, 0, 0, 1.0, -1.0, 0.5]}


def test_a_forest_sums_the_leaves_its_rows_reach() -> None:
    """The forest's raw score is its base plus, tree by tree, the value of
    the leaf reached going left where ``x[feature] <= threshold``; a stage
    of a blended model is the sigmoid of the mean of the logistic log-odds
    and that score, the same on the compiled path."""
    f = Forest(_forest(), 3)
    # row (0.5, 3.0, -1.0): left (0.125), left (2.0), left then left (1.0)
    assert f.raw([0.5, 3.0, -1.0]) == -0.25 + 0.125 + 2.0 + 1.0
    # row (2.0, 4.0, 0.0): right (-0.5), right (0.75), right (0.5)
    assert f.raw([2.0, 4.0, 0.0]) == -0.25 - 0.5 + 0.75 + 0.5
    d = {"features1": ["a", "b", "c"], "mean1": [0.0] * 3, "scale1": [1.0] * 3,
         "w1": [0.1, 0.2, -0.3, 0.4], "features2": ["a", "b", "c", "d"],
         "mean2": [0.0] * 4, "scale2": [1.0] * 4, "w2": [0.0, 0.5, 0.5, 0.5, -1.0],
         "threshold": 0.5, "forest1": _forest(), "forest2": {**_forest(), "base": 1.0}}
    m = ScorerModel(d)
    rows = [[0.5, 3.0, -1.0], [2.0, 4.0, 0.0], [1.0, 2.0, 3.0]]
    z = 0.1 + 0.2 * 0.5 + -0.3 * 3.0 + 0.4 * -1.0
    s1 = m.stage1(rows)
    assert s1[0] == pytest.approx(1 / (1 + math.exp(-0.5 * (z + f.raw(rows[0])))), abs=1e-15)
    ctx = [[0.25], [0.5], [0.75]]
    s2 = m.stage2(rows, ctx)
    assert kernel.get() is None or (s1, s2) == _pure_stages(m, rows, ctx)
    with pytest.raises(IndexError):  # a forest cannot read a row cut short
        m.stage1(rows, 2)
    with pytest.raises(ValueError):
        Forest({**_forest(), "left": [1, -1, -1, 4, -1, -1, 7, 99, -1, -1, -1]}, 3)
    with pytest.raises(ValueError):
        Forest({**_forest(), "feature": [0, -1, -1, 3, -1, -1, 1, 0, -1, -1, -1]}, 3)


def _pure_stages(m: ScorerModel, rows: list[list[float]],
                 ctx: list[list[float]]) -> tuple[list[float], list[float]]:
    state = kernel._state
    try:
        kernel._state = (None, "off in this test")
        return m.stage1(rows), m.stage2(rows, ctx)
    finally:
        kernel._state = state


def test_features_have_the_declared_length() -> None:
    doc = parse("<html><head><title>A title here</title></head><body><nav><a href=/>Home</a>"
                "</nav><article><h1>A title here</h1><p>Some words, and more words. And a "
                "sentence.</p></article></body></html>")
    blocks = page_blocks(doc)
    rule = rule_signals(doc, blocks, [False] * len(blocks))
    assert all(len(f) == len(FEATURES) for f in block_features(doc, blocks, rule))
    site = {"pages": 2, "df": [0] * len(blocks), "rule": rule}
    assert all(len(f) == len(FEATURES) + len(SITE_FEATURES)
               for f in block_features(doc, blocks, rule, site))


def test_article_page_keeps_body_drops_chrome() -> None:
    para = ("The committee met on Tuesday to discuss the budget, and after a long debate "
            "it agreed to fund the new library. ")
    links = "".join(f"<li><a href=/s{i}>Section number {i}</a></li>" for i in range(12))
    html = (f"<html><body><header><ul class=menu>{links}</ul></header><div class=main>"
            f"<h1>Library funded</h1><p>{para * 3}</p><p>{para * 2}</p></div>"
            f"<footer><p><a href=/c>Contact</a> | <a href=/p>Privacy</a></p></footer>"
            f"</body></html>")
    c = extract_content(parse(html))
    text = c.text()
    assert "Library funded" in text and "committee" in text
    assert "Section number" not in text and "Privacy" not in text
    assert c.stats["scorer"] == "page"


@needs_data
@pytest.mark.parametrize("dataset,site,page,floor", [
    ("cleaneval", "aamc.org", None, 0.8),
    ("dragnet", "zenhabits.net", None, 0.9),
    ("big9", "bbc", None, 0.9),
])
def test_real_pages_page_level(dataset: str, site: str, page: str | None, floor: float) -> None:
    assert DATA is not None
    folder = DATA / "content" / dataset / site
    files = sorted(folder.glob("*.html"))[:3]
    scores = []
    for f in files:
        gold = f.with_suffix(".txt").read_text(encoding="utf-8")
        c = extract_content(parse(f.read_bytes(), url=str(f)))
        scores.append(token_prf(c.text(), gold)[2])
    assert min(scores) >= floor - 0.15 and sum(scores) / len(scores) >= floor


@needs_data
def test_site_evidence_is_used() -> None:
    assert DATA is not None
    files = sorted((DATA / "content" / "dragnet" / "nhl.com").glob("*.html"))
    docs = [parse(f.read_bytes(), url=str(f)) for f in files]
    gold = files[0].with_suffix(".txt").read_text(encoding="utf-8")
    # one other page of the site: the site model of the scorer
    c = extract_content(docs[0], SiteIndex(docs[:2]))
    assert c.stats["scorer"] == "site"
    assert token_prf(c.text(), gold)[2] >= 0.85
    # the whole site (site_rules_min other pages or more): the page level less
    # the site's repeated text, or the rules where it keeps much less
    idx = SiteIndex(docs)
    c = extract_content(docs[0], idx)
    assert c.stats["scorer"] == "page" and "site" in c.stats
    assert token_prf(c.text(), gold)[2] >= 0.85
    c = extract_content(docs[0], idx, params=ContentParams(site_page=0))
    assert c.stats["scorer"] == "rules"
    assert token_prf(c.text(), gold)[2] >= 0.85
    rules = extract_content(docs[0], idx, params=ContentParams(scorer=False))
    assert rules.chosen  # the rule-only path still works


#: Folder mode's hand-set choice, which the learned decision replaced.
HAND_SET = ContentParams(site_decision=False)


@needs_data
def test_site_level_is_the_page_level_less_repeated_text() -> None:
    """Folder mode on big9's cnn (ContentParams.site_page): the site level
    keeps what the page scorer keeps less the blocks the site's other pages
    repeat, which the gold leaves out (the sixth page: token F1 0.997 ->
    1.000 with the blended scorer; the logistic one kept "WATCH" and "YOUR
    E-MAIL ALERTS" on the second page, which the blend drops by itself)."""
    assert DATA is not None
    files = sorted((DATA / "content" / "big9" / "cnn").glob("*.html"))[:12]
    docs = [parse(f.read_bytes(), url=str(f)) for f in files]
    idx = SiteIndex(docs)
    gold = files[5].with_suffix(".txt").read_text(encoding="utf-8")
    # the hand-set choice (the learned decision is the default:
    # test_decision.py); the decision gives 0.989 here against the page
    # alone's 0.997: big9 is where it loses (docs/journal, 2026-12-06)
    c = extract_content(docs[5], idx, params=HAND_SET)
    page = extract_content(docs[5], None)
    assert c.stats == {"scorer": "page", "site": "repeated text removed"}
    assert token_prf(extract_content(docs[5], idx).text(), gold)[2] >= 0.985
    assert page.blocks is not None
    dropped = set(page.chosen) - set(c.chosen)
    repeated = idx.counts(page.blocks, True)
    assert set(c.chosen) <= set(page.chosen) and dropped
    assert all(repeated[b] > 0 for b in dropped)
    assert token_prf(c.text(), gold)[2] > token_prf(page.text(), gold)[2]


@needs_data
def test_site_level_adds_the_rules_where_the_scorer_keeps_less() -> None:
    """Folder mode (hackingthe.cloud, 24 pages of the site): the site level
    is the page level's choice less the site's repeated text, unless it keeps
    under ``site_page`` of what the rules with site evidence keep; then the
    rules' blocks are added (:func:`site_page_blocks`). The shipped model
    keeps the documentation article (its code blocks included); a
    ``site_page`` no choice can reach forces the rules in."""
    from temex.content.extract import repeated_text, rule_signals, site_page_blocks
    from temex.evaluate import gold_text, load_site
    from temex.page.files import html_files

    assert DATA is not None
    site = load_site(DATA / "sites" / "hackingthe.cloud")
    files = list(html_files(site.root))[:24]
    docs = [parse(f.read_bytes(), url=str(f)) for f in files]
    idx = SiteIndex(docs)
    f = site.root / "aws" / "enumeration" / "whoami" / "index.html"
    doc = parse(f.read_bytes(), url=str(f))
    gold = gold_text(doc, site.content_selector, site.template_selector)
    c = extract_content(doc, idx, member=idx.member(doc))
    assert c.stats["scorer"] == "page" and token_prf(c.text(), gold)[2] > 0.95
    forced = extract_content(doc, idx, params=replace(HAND_SET, site_page=100.0),
                             member=idx.member(doc))
    assert forced.stats == {"scorer": "page", "site": "rules added"}
    assert forced.blocks is not None
    boiler = repeated_text(doc, forced.blocks, idx, ContentParams(), idx.member(doc))
    rules = rule_signals(doc, forced.blocks, boiler, ContentParams(),
                         [False] * len(forced.blocks))["chosen"]
    page = extract_content(doc).chosen
    assert forced.chosen == site_page_blocks(forced.blocks.chars, page, rules, boiler, 100.0)[0]
    assert set(rules) <= set(forced.chosen)


#: The scorer's training script, run as a module from the repository root.
TRAIN = "bench.train.train_content_model"


def _train(tmp: Path, *extra: str, timeout: float = 280) -> str:
    out = tmp / "model.json"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    subprocess.run([sys.executable, "-m", TRAIN, "--out", str(out), "--data", str(DATA),
                    *extra], check=True, env=env, cwd=REPO, capture_output=True, text=True,
                   timeout=timeout)
    return out.read_text(encoding="utf-8")


@pytest.mark.slow
@needs_data
def test_training_is_deterministic_on_a_tiny_subset(tmp_path: Path) -> None:
    a = _train(tmp_path, "--limit", "1", "--datasets", "cleanportaleval,cleaneval")
    b = _train(tmp_path, "--limit", "1", "--datasets", "cleanportaleval,cleaneval")
    assert a == b
    d = json.loads(a)
    assert set(d["models"]) == {"page", "site"}
    assert d["models"]["page"]["features1"] == FEATURES


@pytest.mark.slow
@needs_data
def test_a_tree_learner_is_measured_and_never_written(tmp_path: Path) -> None:
    """``--learner trees`` fits gradient-boosted stages alone for the same
    grouped cross-validation (docs/journal/2026-11-27-content-a-blended-scorer.md); temex's
    scorer reads blends of logistic weights and trees, so the script refuses
    to write such a model, and a measuring run leaves the output file alone."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    out = tmp_path / "model.json"
    refused = subprocess.run([sys.executable, "-m", TRAIN, "--out", str(out), "--data",
                              str(DATA), "--limit", "1", "--learner", "trees"], env=env,
                             cwd=REPO, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "measured only" in refused.stderr
    assert not out.exists()
    pytest.importorskip("sklearn")
    run = subprocess.run([sys.executable, "-m", TRAIN, "--out", str(out), "--data", str(DATA),
                          "--limit", "2", "--datasets", "cleanportaleval,cleaneval",
                          "--sites", "0", "--no-write", "--cv", "2", "--learner", "trees",
                          "--trees-iters", "5"], env=env, cwd=REPO, check=True,
                         capture_output=True, text=True, timeout=280)
    assert "none (trees)" in run.stdout and "| cleaneval | 2 |" in run.stdout
    assert not out.exists()


@pytest.mark.slow
@needs_data
def test_fold_models_give_the_site_decision_out_of_fold_page_probabilities(
        tmp_path: Path) -> None:
    """The site decision stacks the page model's probability: its bench
    scores a site (and collects its rows, ``--oof-rows``) with the fold
    model that did not see it (``--fold-models``, read by
    ``train_site_decision.page_folds``). A site
    left out by ``--skip-sites`` (here one added on 2026-12-03) is in no
    fold and gets the shipped model (None), as at inference."""
    pytest.importorskip("sklearn")
    folds = tmp_path / "folds.json"
    _train(tmp_path, "--limit", "2", "--datasets", "cleanportaleval", "--sites", "2",
           "--skip-sites", "added", "--cv", "2", "--fold-models", str(folds),
           "--trees-iters", "5")
    raw = json.loads(folds.read_text(encoding="utf-8"))
    assert "americanpillowcase-shop" in raw["group_fold"]
    assert "bedrock-tech-blog" not in raw["group_fold"]  # added 2026-12-03: skipped
    sys.path.insert(0, str(REPO))
    try:
        from bench.train.train_site_decision import page_folds
    finally:
        sys.path.remove(str(REPO))
    of = page_folds(folds)
    assert of("bedrock-tech-blog") is None and page_folds(None)("americanpillowcase-shop") is None
    shop, bbc = of("americanpillowcase-shop"), of("cleanportaleval/bbc.co.uk")
    assert shop is not None and bbc is not None
    assert (shop is bbc) == (raw["group_fold"]["americanpillowcase-shop"]
                             == raw["group_fold"]["bbc"])
    assert isinstance(shop["page"], ScorerModel)
    assert shop["page"].forest1 is not None and len(shop["page"].forest1.roots) == 5


@pytest.mark.slow
@needs_data
def test_a_blended_model_is_written_and_read(tmp_path: Path) -> None:
    """``--learner blend`` writes each stage's logistic weights and its
    forest (the script checks the exported trees against scikit-learn's own
    prediction before writing); the scorer reads the file, and both paths
    score a real page the same."""
    pytest.importorskip("sklearn")
    d = json.loads(_train(tmp_path, "--limit", "2", "--datasets", "cleanportaleval,cleaneval",
                          "--sites", "0", "--learner", "blend", "--trees-iters", "5"))
    assert d["version"] == 3
    m = ScorerModel(d["models"]["page"])
    assert m.forest1 is not None and len(m.forest1.roots) == 5
    assert m.forest2 is not None and len(m.forest2.roots) == 5
    assert DATA is not None
    raw = next((DATA / "content" / "big9" / "cnn").glob("*.html")).read_bytes()

    def scored() -> tuple[int, list[float]]:
        doc = parse(raw)
        blocks = page_blocks(doc)
        rows = block_features(doc, blocks, rule_signals(doc, blocks, [False] * len(blocks)))
        return len(blocks), m.probabilities(doc, blocks, rows)

    n, probs = scored()
    assert n and len(probs) == n and all(0.0 <= p <= 1.0 for p in probs)
    if kernel.get() is not None:
        state = kernel._state
        try:
            kernel._state = (None, "off in this test")
            assert scored() == (n, probs)
        finally:
            kernel._state = state


@pytest.mark.slow
@needs_data
@pytest.mark.skipif(not os.environ.get("TEMEX_SLOW"), reason="retrains on all data (TEMEX_SLOW=1)")
@pytest.mark.timeout(3600)
def test_training_reproduces_the_shipped_model(tmp_path: Path) -> None:
    shipped = (REPO / "src" / "temex" / "content" / "model.json").read_text(encoding="utf-8")
    again = _train(tmp_path, timeout=3600)
    assert hashlib.sha256(again.encode()).hexdigest() == hashlib.sha256(shipped.encode()).hexdigest()


@needs_data
def test_page_level_keeps_code_blocks_and_falls_back_on_the_rules() -> None:
    """A documentation article's code blocks (``pre``) are content.
    The scorer alone keeps every code block of a hackingthe.cloud article
    outside its training sample (``load_sites``' 40 pages), where the first
    learned model kept a fraction of such articles. Where the scorer keeps
    under ``page_fallback`` of the rules' characters (forced here) the rules
    choose."""
    from temex.content.rules import rule_signals
    from temex.evaluate import gold_text, load_site
    from temex.page.blocks import page_blocks

    assert DATA is not None
    site = load_site(DATA / "sites" / "hackingthe.cloud")
    f = site.root / "aws" / "post_exploitation" / "lambda_persistence" / "index.html"
    doc = parse(f.read_bytes(), url=str(f))
    gold = gold_text(doc, site.content_selector, site.template_selector)
    c = extract_content(doc, params=ContentParams(page_fallback=0))
    assert c.stats == {"scorer": "page"} and token_prf(c.text(), gold)[2] > 0.95
    blocks = page_blocks(doc)
    code = [b for b, nd in enumerate(blocks.node) if doc.tag[nd] == "pre"]
    assert len(code) >= 3 and set(code) <= set(c.chosen)
    fb = extract_content(parse(f.read_bytes(), url=str(f)),
                         params=ContentParams(page_fallback=100.0))
    assert fb.stats == {"scorer": "rules", "fallback": True}
    assert fb.chosen == rule_signals(fb.doc, fb.blocks,  # type: ignore[arg-type]
                                     [False] * len(fb.chosen and fb.blocks or []))["chosen"]


@needs_data
def test_shared_sites_as_page_level_training_data() -> None:
    """``temex.evaluate.training.load_sites`` (the training script's
    ``--sites`` / ``--loso-sites``): a
    fixed sample of each shared site's pages with gold, labelled from
    ``temex.evaluate.gold_text``, with page features only; the same sample
    twice (the leave-one-site-out table is reproducible)."""
    from temex.evaluate import training as tcm

    a = tcm.load_sites(DATA, 2)
    b = tcm.load_sites(DATA, 2)
    sites = sorted({p.site for p in a})
    assert len(sites) >= 7 and all(sum(p.site == s for p in a) == 2 for s in sites)
    assert [(p.site, p.name) for p in a] == [(p.site, p.name) for p in b]
    for p in a:
        assert p.dataset == "sites" and p.f_site is None
        assert p.f_page.shape == (len(p.label), len(FEATURES))
    # gold is the content element: some blocks are content, some template
    assert sum(p.label.sum() for p in a) > 0
    assert sum((1 - p.label).sum() for p in a) > 0


def test_feature_rows_read_as_the_lists_they_hold() -> None:
    """The kernel's flat rows (FeatureRows) read, compare and convert as the
    pure path's list of rows: the scorer and the training script take
    either."""
    from array import array

    import numpy

    from temex.content.features import FeatureRows

    lists = [[1.0, -0.5, 0.0], [2.5, 3.0, 1e-9]]
    rows = FeatureRows(array("d", [x for row in lists for x in row]), 3)
    assert len(rows) == 2 and rows[0] == lists[0] and rows[-1] == lists[1]
    assert rows[0:2] == lists and list(rows) == lists
    assert rows == lists and lists == rows and rows != [lists[0]]
    assert rows == FeatureRows(array("d", [x for row in lists for x in row]), 3)
    with pytest.raises(IndexError):
        rows[2]
    assert numpy.array(rows).tolist() == lists and numpy.array(rows).shape == (2, 3)
    assert len(FeatureRows(array("d"), 3)) == 0
    model = load_model()["page"]
    width = len(model.names1)
    flat = [[0.01 * ((7 * j + r) % 13) for j in range(width + 3)] for r in range(4)]
    packed = FeatureRows(array("d", [x for row in flat for x in row]), width + 3)
    # rows wider than the model (the site variant's rows read by the page
    # model) are cut to its width
    assert model.stage1(packed, width) == model.stage1(flat, width)
    assert model.stage1(packed, width) == model.stage1([row[:width] for row in flat])
    with pytest.raises(IndexError):  # a forest cannot read a row cut short
        model.stage1(packed, 5)
