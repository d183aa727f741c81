"""Outputs written back onto the key page."""

from __future__ import annotations

import json
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from temex.api import extract_files
from temex.content.render import TEMPLATE_CLASS, content_markdown, render
from temex.evaluate import load_site, url_to_file
from temex.page.dom import parse
from temex.template.detectors import ExtractOptions


def demo_model(demo_site: Path):  # type: ignore[no-untyped-def]
    site = load_site(demo_site)
    return extract_files(url_to_file(site.root, "/blog/saving-seeds/"), pages_dir=site.root,
                         options=ExtractOptions())


def test_annotated_marks_exactly_the_template(demo_site: Path) -> None:
    model = demo_model(demo_site)
    out = parse(render(model, "annotated"))
    assert len(out) == len(model.key)
    for i in model.key.in_body():
        assert (TEMPLATE_CLASS in out.classes[i]) == model.template[i]
        assert set(model.key.classes[i]) <= set(out.classes[i])  # own classes kept


def test_template_view_hides_content_and_keeps_layout(demo_site: Path) -> None:
    model = demo_model(demo_site)
    html = render(model, "template")
    p = LexborHTMLParser(html)
    main = p.css_first("main")
    assert "visibility:hidden" in main.attributes["style"]
    assert "visibility" not in (p.css_first("header").attributes.get("style") or "")
    assert "Saving your own seeds" in html  # hidden, not removed
    assert html.startswith("<!DOCTYPE html>")


def test_content_and_markdown(demo_site: Path) -> None:
    model = demo_model(demo_site)
    text = render(model, "content").splitlines()
    assert text == ["Saving your own seeds",
                    "Pick seed heads on a dry afternoon and hang them upside down.",
                    "Label every paper bag with the plant and the year.",
                    "Most seeds keep for three years in a cool drawer."]
    md = render(model, "markdown")
    assert md.startswith("# Saving your own seeds\n\nPick seed heads")
    assert "Recent posts" not in md and "Greenleaf" not in md


def test_markdown_links_lists_and_code() -> None:
    from temex.template.model import TemplateModel

    d = parse("<body><div><h2>T</h2><ul><li>see <a href='/x'>this</a></li></ul>"
              "<ol><li>one</li><li>two</li></ol><pre>a  b\n c</pre></div></body>")
    m = TemplateModel(key=d, template=[i < d.body + 1 for i in range(len(d))], votes=[],
                      pages=[], method="test", params={})
    md = content_markdown(m)  # the whole non-template part, unnarrowed
    assert "## T" in md and "- see [this](/x)" in md and "1. one" in md and "2. two" in md
    assert "```\na  b\n c\n```" in md


def test_json_report(demo_site: Path) -> None:
    model = demo_model(demo_site)
    rep = json.loads(render(model, "json"))
    assert rep["loads"] == 5 and len(rep["pages"]) == 4
    assert rep["counts"]["template_nodes"] + rep["counts"]["content_nodes"] \
        == rep["counts"]["body_nodes"]
    assert rep["content_roots"] == ["/html/body/div/main"]
    assert "/html/body/header" in rep["template_paths"]
    assert rep["params"]["equality"] == "label" and rep["method"] == "vote"
    assert set(rep["timings"]) >= {"parse_key", "parse_pages", "fit", "total"}
    assert rep["content"]["text"].startswith("Saving your own seeds\nPick seed heads")


def test_text_between_block_children_keeps_its_place() -> None:
    from temex.template.model import TemplateModel

    d = parse("<body><article><p>first</p> Output: <div><pre>code</pre></div>"
              " tail <b>bold</b><p>last</p></article></body>")
    m = TemplateModel(key=d, template=[i <= d.body for i in range(len(d))], votes=[],
                      pages=[], method="test", params={})
    assert render(m, "content").splitlines() == ["first", "Output:", "code", "tail bold", "last"]


def test_annotated_page_keeps_quirks_mode() -> None:
    # hypothesis' counterexample: with a doctype added, a standards-mode parser
    # closes the <p> at <table> and the annotated page re-parses into 7 elements
    from temex import VoteDetector, parse

    key = parse("<div><P><TABLE></div>")
    model = VoteDetector().fit(key, [parse("<div><P><TABLE></div>")]).model_
    out = render(model, "annotated")
    assert not out.lstrip().lower().startswith("<!doctype")
    assert len(parse(out)) == len(key)
