"""Links: getLinks, hyperlink/DOM distances, sortLinks (hyperlink paper §3.2–3.3)
and menu detection."""

from __future__ import annotations

import pytest

from temex.page.dom import parse
from temex.site.links import (
    base_url,
    ddistance,
    get_links,
    hdistance,
    hyperlink,
    link_rank,
    normalize_url,
    same_site,
    sort_links,
)
from temex.site.menus import find_menus, is_low_value, menu_first

pytestmark = pytest.mark.timeout(30)


def test_normalize_url() -> None:
    b = "http://Example.COM:80/a/b/c.html"
    assert normalize_url("../x/./y.html#frag", b) == "http://example.com/a/x/y.html"
    assert normalize_url("https://example.com:443/", b) == "https://example.com/"
    assert normalize_url("index.html", b) == "http://example.com/a/b/"
    assert normalize_url("?page=2", b) == "http://example.com/a/b/c.html?page=2"
    for bad in ("mailto:x@y.z", "javascript:void(0)", "tel:123", "#top", "", "ftp://h/x"):
        assert normalize_url(bad, b) is None


def test_same_site_registrable_domain() -> None:
    assert same_site("http://www.bbc.co.uk/a", "https://news.bbc.co.uk/b")
    assert not same_site("http://www.bbc.co.uk/a", "http://news.bbc.co.uk/b", same_host=True)
    assert not same_site("http://a.github.io/", "http://b.github.io/")  # public suffix
    assert not same_site("http://127.0.0.1:8000/", "http://127.0.0.1:9000/")


HTML = """<html><head><base href="/docs/"></head><body>
<nav><ul>
 <li><a href="intro/">Intro</a></li><li><a href="guide/">Guide</a></li>
 <li><a href="api/">API</a></li><li><a href="faq/">FAQ</a></li></ul></nav>
<main><p>Text with <a href="guide/">the guide again</a>, <a href="#x">anchor</a>,
<a href="logo.png">img</a>, <a href="a.pdf">pdf</a>, <a href="mailto:a@b.c">mail</a>,
<a href="http://other.org/">other</a>, <a href="http://sub.example.com/z/">sub</a>,
<a href="/docs/key/">self</a>, <a href="/docs/key/deeper/">deeper</a>,
<a href="/docs/list/?page=2">2</a></p></main></body></html>"""


def doc():
    return parse(HTML, url="http://example.com/docs/key/")


def test_get_links_filters_and_base_href() -> None:
    d = doc()
    assert base_url(d) == "http://example.com/docs/"
    urls = [ln.url for ln in get_links(d)]
    assert urls == ["http://example.com/docs/intro/", "http://example.com/docs/guide/",
                    "http://example.com/docs/api/", "http://example.com/docs/faq/",
                    "http://sub.example.com/z/", "http://example.com/docs/key/deeper/",
                    "http://example.com/docs/list/?page=2"]
    guide = get_links(d)[1]
    assert len(guide.nodes) == 2 and guide.text == "Guide"
    assert "http://sub.example.com/z/" not in [ln.url for ln in get_links(d, same_host=True)]


def test_hdistance_paper_examples() -> None:
    h = ("research", "maths")
    assert hdistance(h, ("research", "maths")) == 0
    assert hdistance(h, ("research", "maths", "geometry")) == 1
    assert hdistance(h, ("research",)) == -1
    assert hdistance(h, ("research", "physics", "dynamics")) == -1
    assert hdistance(h, ("www.upv.es", "research")) == -2
    assert hyperlink("http://h/a/b/page.html") == ("h", "a", "b")
    assert hyperlink("http://h/a/b/") == ("h", "a", "b")


def test_link_rank_def4() -> None:
    ranks = sorted([-2, 3, 0, -1, 1], key=link_rank)
    assert ranks == [0, 1, 3, -1, -2]


def test_ddistance_def3() -> None:
    d = parse("<html><body><div><p><a>1</a></p><p><a>2</a></p></div><a>3</a></body></html>")
    a = [i for i, t in enumerate(d.tag) if t == "a"]
    assert ddistance(d, a[0], a[0]) == 0
    assert ddistance(d, a[0], a[1]) == 4  # a-p-div-p-a
    assert ddistance(d, a[0], a[2]) == 4  # a-p-div-body-a
    assert ddistance(d, a[1], a[0]) == ddistance(d, a[0], a[1])


def test_sort_links_alg1() -> None:
    d = doc()
    order = [ln.url.replace("http://example.com", "") for ln in
             sort_links(d, get_links(d), d.url)]
    # distance +1 (subdirectory) first, then -1 siblings, then -2
    assert order[0] == "/docs/key/deeper/"
    assert set(order[1:6]) == {"/docs/intro/", "/docs/guide/", "/docs/api/", "/docs/faq/",
                               "/docs/list/?page=2"}
    assert order[-1] == "http://sub.example.com/z/"
    # DOM relevance: after the first nav link, the farthest one (in <main>) comes next
    assert order[2] == "/docs/list/?page=2"


def test_find_menus_and_menu_first() -> None:
    d = doc()
    links = get_links(d)
    menus = find_menus(d, links)
    assert menus and menus[0].in_nav and len(menus[0].links) == 4
    order = [ln.url.rsplit("/docs", 1)[-1] for ln in menu_first(d, links, d.url)]
    assert order[0] == "/key/deeper/"  # level +1 first (by_level keeps Def. 4)
    assert order[1:5] == ["/intro/", "/guide/", "/api/", "/faq/"][:1] + order[2:5]
    assert set(order[1:5]) == {"/intro/", "/guide/", "/api/", "/faq/"}
    assert order[-1] == "/list/?page=2"  # pagination last
    block = [ln.url.rsplit("/docs", 1)[-1] for ln in
             menu_first(d, links, d.url, by_level=False)]
    assert set(block[:4]) == {"/intro/", "/guide/", "/api/", "/faq/"}
    assert is_low_value(links[-1])


def test_no_recursion_on_deep_pages() -> None:
    deep = "<div>" * 3000 + "<a href='/x/'>x</a><a href='/y/'>y</a>" + "</div>" * 3000
    d = parse(f"<html><body>{deep}</body></html>", url="http://h/k/")
    links = get_links(d)
    assert len(sort_links(d, links, d.url)) == 2
    assert menu_first(d, links, d.url)
