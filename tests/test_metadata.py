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
        pytest.skip("shared data not found (set TEMEX_DATA)")
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
    # a local file: its path as source:, never a url:
    assert md.startswith("---\nsource: ") and 'title: "Alpha"\nauthors:\n  - "Ann"\n' in md
    assert "---\n\n# Alpha\n\nSome words" in md


# -- structured authors first, nothing from the template, local files ----

def _temex(*args: str, cwd: Path) -> Any:
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(repo / "src") + os.pathsep
               + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "temex", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def _blog_page(k: int, label: str) -> str:
    nav = "".join(f"<li><a href='/p{j}/'>Post {j}</a></li>" for j in range(4))
    words = ["seeds", "herbs", "trees", "soil"]
    return (f"<html><head><title>Post {k}</title></head><body><header><ul>{nav}</ul></header>"
            f"<main><h1>Post {k}</h1>"
            + f"<p>This post is about {words[k]} and how to grow {words[k]} well. </p>" * 6
            + f"<div class='col-12'><p class='title_info_author bold'>{label}</p>"
            "<div class='share-buttons'><a href='https://facebook.com/x'>f</a></div></div>"
            "</main><footer>Footer of the blog</footer></body></html>")


@pytest.mark.parametrize("label", ["SHARE THIS ARTICLE", "Our writers"])
def test_no_author_from_a_share_bar_or_the_template(tmp_path: Path, label: str) -> None:
    """A label in an element named ``..._author`` on every page of the site is
    the template, not an author (``extract -f json``, site mode), and a
    control's words are never an author (``content``, one page alone)."""
    for k in range(4):
        (tmp_path / f"p{k}.html").write_text(_blog_page(k, label))
    r = _temex("extract", "p0.html", "--pages", "p1.html", "p2.html", "p3.html",
               "-f", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["metadata"]["authors"] == []
    if label.startswith("SHARE"):
        r = _temex("content", "p0.html", "-f", "json", cwd=tmp_path)
        assert json.loads(r.stdout)["metadata"]["authors"] == []


def test_jsonld_author_reference_and_rel_author_come_first(tmp_path: Path) -> None:
    page = ("<html><head><title>T</title><script type='application/ld+json'>"
            '{"@graph": [{"@type": "WebPage", "@id": "/#page", "author": {"@id": "/#ann"}},'
            ' {"@type": ["Person"], "@id": "/#ann", "name": "Ann Lee"}]}</script></head>'
            "<body><p class='author-box'>Written by the team</p>"
            "<p>By <a rel='author' href='/bob'>Bob Ray</a></p>"
            + "<p>Words of the article body here. </p>" * 20 + "</body></html>")
    (tmp_path / "a.html").write_text(page)
    md = json.loads(_temex("content", "a.html", "-f", "json", cwd=tmp_path).stdout)["metadata"]
    assert md["authors"] == ["Ann Lee"] and md["sources"]["authors"] == "jsonld"
    (tmp_path / "b.html").write_text(page.replace('"author": {"@id": "/#ann"}', '"x": 1'))
    md = json.loads(_temex("content", "b.html", "-f", "json", cwd=tmp_path).stdout)["metadata"]
    assert md["authors"] == ["Bob Ray"] and md["sources"]["authors"] == "markup"


def test_shared_blog_page_gets_its_jsonld_author() -> None:
    """A shared blog page whose share bar's label was once read as its author."""
    if DATA is None:
        pytest.skip("shared data not found (set TEMEX_DATA)")
    f = (DATA / "sites" / "digitalplant" / "www" / "digitalplant-my.com" / "en" / "blog"
         / "the-new-marketing-practices" / "index.html")
    if not f.is_file():
        pytest.skip("shared page not found")
    md = json.loads(_temex("content", str(f), "-f", "json", cwd=f.parent).stdout)["metadata"]
    assert "SHARE THIS ARTICLE" not in md["authors"] and md["sources"]["authors"] == "jsonld"


def test_local_file_has_no_file_canonical_and_its_path_as_source(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "a.html").write_text(
        "<html><head><title>A</title><link rel='canonical' href='/a/'></head><body><article>"
        + "<p>Words of the article body here. </p>" * 20 + "</article></body></html>")
    r = _temex("content", "site/a.html", "-f", "json", cwd=tmp_path)
    md = json.loads(r.stdout)["metadata"]
    assert md["canonical"] is None and "canonical" not in md["sources"]
    r = _temex("content", "site/a.html", "-f", "markdown", "--front-matter", cwd=tmp_path)
    assert r.stdout.startswith('---\nsource: "site/a.html"\ntitle: "A"\n'), r.stdout[:200]
    assert "url:" not in r.stdout.split("---")[1] and "file:" not in r.stdout
    r = _temex("extract", "site/a.html", "--pages", "site/a.html", "-f", "markdown",
               "--front-matter", cwd=tmp_path)
    assert r.stdout.startswith('---\nsource: "site/a.html"\n'), (r.stderr, r.stdout[:200])
