"""Page metadata (:mod:`temex.content.metadata`), one test per source on real
pages of the shared content data (``<meta>``, Open Graph, JSON-LD, a visible
byline), and its places: the JSON report, batch rows, the crawl index, the
Markdown front matter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA

from temex.content.extract import extract_content
from temex.content.metadata import FIELDS, front_matter, page_metadata
from temex.crawler.process import page_meta
from temex.page.dom import parse


def _page(rel: str) -> dict[str, Any]:
    if DATA is None:
        pytest.skip("shared data not found (set TEMEX_DATA or put it at ../shared/data)")
    f = DATA / "content" / rel
    if not f.is_file():
        pytest.skip(f"shared page {rel} not found")
    return page_metadata(parse(f.read_bytes(), url=f"http://example.org/{rel}"))


def test_jsonld() -> None:
    # bbc: a NewsArticle in JSON-LD (headline, author, datePublished, publisher)
    md = _page("big9/bbc/2017-001.html")
    assert md["sources"]["authors"] == "jsonld"
    assert md["authors"] == ["Dave Lee"]
    assert md["sources"]["date"] == "jsonld" and md["date"].startswith("2017-03-28")
    assert md["title"] == "Elon Musk creates Neuralink brain electrode firm"
    assert md["site_name"] == "BBC News"
    assert md["language"] == "en"  # <html lang> before og:locale (en_GB)


def test_open_graph() -> None:
    md = _page("dragnet/nbcnews.com/510.html")
    assert md["sources"]["title"] == "opengraph"
    assert md["title"] == "Scranton, Pa., workers will get paid in full, for now"
    assert md["sources"]["site_name"] == "opengraph" and md["site_name"] == "Bottom Line"
    assert md["canonical"].startswith("http://bottomline.nbcnews.com/_news/2012/07/24/")
    assert md["description"].startswith("City workers in Scranton")
    assert md["language"] == "en"


def test_meta() -> None:
    md = _page("dragnet/nbcnews.com/510.html")
    assert md["sources"]["date"] == "meta" and "2012" in md["date"]
    md = _page("dragnet/adwords.blogspot.com/R605.html")
    assert md["sources"]["description"] == "meta"
    assert md["description"].startswith("Google's official blog")
    # the page itself: <title> and <link rel=canonical>
    assert md["sources"]["title"] == "page" and md["title"].startswith("App promoters")
    assert md["canonical"] == ("http://adwords.blogspot.com/2012/11/"
                               "app-promoters-are-you-prepared-for.html")


def test_byline() -> None:
    # Blogger: "Posted by Jessica Sapick, ..." in a post-author element
    md = _page("dragnet/adwords.blogspot.com/R605.html")
    assert md["sources"]["authors"] == "byline"
    assert md["authors"][0].startswith("Jessica Sapick")


def test_small_page_every_source_and_base() -> None:
    html = """<html lang="de"><head><title>T</title><base href="https://ex.org/news/">
    <meta name="description" content="D">
    <link rel="canonical" href="a.html">
    <script type="application/ld+json">{"@graph": [{"@type": "WebSite", "name": "Ex"},
      {"@type": "NewsArticle", "headline": "H", "author": [{"name": "A B"}, "C D"],
       "datePublished": "2020-01-02"}]}</script>
    <script type="application/ld+json">{broken</script>
    </head><body><p class="byline">By Zed</p><p>text</p></body></html>"""
    md = page_metadata(parse(html, url="https://ex.org/x"))
    assert md["title"] == "H" and md["authors"] == ["A B", "C D"]
    assert md["date"] == "2020-01-02" and md["site_name"] == "Ex"
    assert md["language"] == "de" and md["description"] == "D"
    assert md["canonical"] == "https://ex.org/news/a.html"
    md = page_metadata(parse("<p class='author'>By Zed</p><p>x</p>"))
    assert md["authors"] == ["Zed"] and md["sources"]["authors"] == "byline"
    assert set(FIELDS) <= set(md)


def test_report_front_matter_and_crawl_index() -> None:
    html = ("<html lang=en><head><title>T</title><meta property='og:site_name' content='S'>"
            "<meta name='author' content='Ann'></head><body><article><h1>T</h1>"
            + "<p>Some words of the article body here. </p>" * 20 + "</article></body></html>")
    doc = parse(html, url="https://ex.org/p")
    c = extract_content(doc)
    rep = c.report()
    assert rep["metadata"]["site_name"] == "S" and rep["metadata"]["authors"] == ["Ann"]
    json.dumps(rep)
    md = c.markdown(front_matter=True)
    assert md.startswith('---\nurl: "https://ex.org/p"\ntitle: "T"\nauthors:\n  - "Ann"\n')
    assert "\n---\n\n# T" in md
    assert not c.markdown().startswith("---")
    assert front_matter({"title": 'a "b"'}) == '---\ntitle: "a \\"b\\""\n---\n\n'
    title, meta = page_meta(doc)
    assert title == "T" and meta["authors"] == ["Ann"] and meta["site_name"] == "S"
    assert meta["language"] == "en"


def test_cli_content_front_matter(tmp_path: Path) -> None:
    import argparse

    from temex.cli.content import add_parser, run_content

    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a.html").write_text(
        "<html lang=en><head><title>Alpha</title><meta name=author content='Ann'></head><body>"
        "<article><h1>Alpha</h1>" + "<p>Some words of the article body here. </p>" * 20
        + "</article></body></html>")
    ap = argparse.ArgumentParser()
    add_parser(ap.add_subparsers())
    out = tmp_path / "out"
    args = ap.parse_args(["content", str(pages), "-f", "markdown", "--front-matter", "-o", str(out), "-q"])
    assert run_content(args) == 0
    md = (out / "a.md").read_text("utf-8")
    assert md.startswith("---\nurl: ") and 'title: "Alpha"\nauthors:\n  - "Ann"\n' in md
    assert "---\n\n# Alpha\n\nSome words" in md
