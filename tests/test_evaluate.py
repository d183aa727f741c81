"""temex.evaluate on real shared pages: the error listing accounts for every
mislabelled element exactly once."""

from __future__ import annotations

from pathlib import Path

from temex.api import ExtractOptions, extract_files
from temex.evaluate import error_subtrees, gold_mask, load_site, score_nodes, url_to_file


def test_error_subtrees_account_for_every_mislabelled_element(data_dir: Path) -> None:
    site = load_site(data_dir / "sites" / "americanpillowcase-shop")
    key = url_to_file(site.root, site.key_pages[0])  # a product page
    model = extract_files(key, pages_dir=site.root, options=ExtractOptions())
    gold = gold_mask(model.key, site.content_selector, site.template_selector)
    scores = score_nodes(model.template, gold)
    errors = error_subtrees(model.key, model.template, gold)
    assert scores.fp + scores.fn > 0
    assert sum(e.nodes for e in errors) == scores.fp + scores.fn
    assert [e.nodes for e in errors] == sorted((e.nodes for e in errors), reverse=True)
    kinds = {e.kind for e in errors}
    assert kinds <= {"content as template", "template as content"}
    doc = model.key
    for e in errors:
        i = doc.node_for_path(e.path)
        assert (gold[i] is False) == (e.kind == "content as template")
        assert bool(model.template[i]) != gold[i]
        if e.nodes > 1:  # a pure subtree: all of its scored elements are wrong
            assert all(bool(model.template[j]) != gold[j]
                       for j in doc.descendants(i) if gold[j] is not None)
