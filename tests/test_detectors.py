"""Detectors: parameters, the vote and intersect rules, and accuracy floors on
the real shared sites (node-level F1 of both classes against their gold)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA

from temex.errors import NotFittedError, ParameterError
from temex.evaluate import evaluate_site, load_site
from temex.page.dom import parse
from temex.template.detectors import ExtractOptions, get_detector
from temex.template.detectors.intersect import IntersectDetector
from temex.template.rules.region import content_region
from temex.template.detectors.vote import VoteDetector

PAGE = """<html><body><header><a href="/">Site</a><ul class="menu">
<li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></header>
<main><h1>{title}</h1><p>{body}</p><ul><li>{item}</li></ul></main>
<footer><p>(c) Site</p></footer></body></html>"""


def page(title: str, body: str = "text", item: str = "i", extra: str = "") -> object:
    return parse(PAGE.format(title=title, body=body + extra, item=item))


def tags_of(model: object, template: bool) -> set[str]:
    k = model.key  # type: ignore[attr-defined]
    return {k.tag[i] for i in k.in_body() if model.template[i] is template}  # type: ignore[attr-defined]


def test_vote_separates_template_from_content() -> None:
    key = page("Key", "own words", "mine")
    others = [page(f"T{i}", f"other {i}", f"it{i}") for i in range(3)]
    m = VoteDetector().fit(key, others).model_
    assert {"header", "footer", "a", "li"} <= tags_of(m, True)
    assert tags_of(m, False) == {"main", "h1", "p", "ul", "li"}
    assert m.pages == [d.url for d in others]


def test_papers_relation_overapproximates_the_content_area() -> None:
    key = page("Key", "own words", "mine")
    others = [page(f"T{i}", f"other {i}", f"it{i}") for i in range(3)]
    papers = VoteDetector(equality="label", evidence=False, region=None).fit(key, others).model_
    assert tags_of(papers, False) == set()  # every content node maps by tag


def test_threshold_counts_pages() -> None:
    key = page("Key")
    same = page("Other")
    different = parse(PAGE.replace("(c) Site", "another footer").format(
        title="x", body="y", item="z"))
    strict = VoteDetector(threshold=0.5, region=None).fit(key, [same, different]).model_
    loose = VoteDetector(threshold=0.0, region=None).fit(key, [same, different]).model_
    footer_p = [i for i, t in enumerate(key.tag) if t == "p"][-1]
    assert loose.votes[footer_p] == 1 and loose.votes[key.tag.index("header")] == 2
    assert loose.template[footer_p] and not strict.template[footer_p]


def test_intersect_is_successive_etdm() -> None:
    key = page("Key")
    pages = [page("A"), parse(PAGE.replace("<footer>", "<aside>").replace("</footer>", "</aside>")
                              .format(title="B", body="b", item="c"))]
    m = IntersectDetector().fit(key, pages).model_
    k = m.key
    footer = k.tag.index("footer")
    assert not m.template[footer]  # the second page has no footer
    assert m.template[k.tag.index("header")]


def test_unfitted_and_bad_parameters_fail_loudly() -> None:
    with pytest.raises(NotFittedError):
        VoteDetector().model_
    with pytest.raises(AttributeError):  # NotFittedError is also an AttributeError
        VoteDetector().template_
    with pytest.raises(ParameterError, match="threshold"):
        VoteDetector(threshold=1.0).fit(page("a"), [page("b")])
    with pytest.raises(ParameterError, match="equality"):
        VoteDetector(equality="nope").fit(page("a"), [page("b")])
    with pytest.raises(ParameterError, match="method"):
        get_detector("magic")


def test_params_are_stored_unchanged() -> None:
    det = VoteDetector(equality="strict", threshold=0.75)
    assert det.get_params() == {"equality": "strict", "threshold": 0.75, "evidence": True,
                                "region": 0.7, "region_threshold": 0.67,
                                "max_cells": 2_500, "evidence_share": 0.5,
                                "record_share": 0.5, "closure": True, "digits": True,
                                "title": True, "site_title": True,
                                "query_forms": True, "link_types": 200,
                                "named_lists": True, "labels": True, "moved": 20,
                                "kind_vote": True}
    assert "threshold=0.75" in repr(det)


MOVED = """<html><body><header><ul class="menu"><li><a href="/a">Articles</a></li>
<li><a href="/b">About us</a></li></ul></header>
<div class="main"><h1>{title}</h1><p>{body}</p>{unclosed}</div>
<footer><p class="legal">(c) The Site, all rights reserved. Contact us.</p></footer>
</body></html>"""


def test_a_block_that_moved_is_still_mapped() -> None:
    # An unclosed <div> in the key page's own text nests its footer inside
    # the main column; the other pages have it where it belongs. ETDM alone
    # cannot map it (its parent is not mapped), so the vote called it content.
    key = parse(MOVED.format(title="Key", body="own words " * 9,
                             unclosed="<div class='note'>a note").replace("</div>\n<footer>",
                                                                         "\n<footer>"))
    others = [parse(MOVED.format(title=f"T{i}", body=f"other {i} " * 9, unclosed=""))
              for i in range(3)]
    legal = key.tag.index("p", key.tag.index("footer"))
    assert key.parent[key.tag.index("footer")] != key.body  # the parser moved it
    assert VoteDetector().fit(key, others).model_.template[legal]
    assert not VoteDetector(moved=None).fit(key, others).model_.template[legal]
    # blocks only, with text: nothing shorter than the threshold moves
    assert not VoteDetector(moved=200).fit(key, others).model_.template[legal]
    with pytest.raises(ParameterError, match="moved"):
        VoteDetector(moved=0).fit(key, others)


def test_no_pages_means_no_template() -> None:
    m = VoteDetector().fit(page("a"), []).model_
    assert not any(m.template)


def test_content_region_is_where_the_unshared_text_is() -> None:
    key = page("Key " * 20, "a long paragraph of the page's own words " * 5, "item " * 20)
    m = VoteDetector(region=None).fit(key, [page("x"), page("y")]).model_
    r = content_region(m.key, m.template)
    assert m.key.tag[r] == "main"  # h1, p and li together, not the biggest alone


def test_demo_site_is_perfect(demo_site: Path) -> None:
    for r in evaluate_site(load_site(demo_site), ExtractOptions()):
        assert r.scores is not None
        assert r.scores.template[2] == 1.0 and r.scores.content[2] == 1.0


# Floors a little under the figures measured with `temex eval` (n = 4, vote,
# the defaults; docs/EVALUATION.md), every shared site: regression guards.
# Measured on 2026-12-06 against the gold of 2026-12-03/04 (30 sites); the
# older sites whose gold was redrawn then (wikinotes, bgbiao, hyperledger,
# ...) score lower against it with the same code. Raised the same day where
# in-page tables of contents, anchor permalinks and line-number gutters
# became template (temex.page.tocs, .permalinks, .linenos): bgbiao,
# clickwiki, hyperledger, rubima, wikinotes; cmsis where a permalink's only-child
# wrapper (Doxygen's span.permalink) became template with it. Raised on
# 2026-12-07 where listing entries' read-more links became template
# (temex.page.readmore): bgbiao, codare, cookwithtina.
FLOORS = {"americanpillowcase-shop": (0.96, 0.89), "bedrock-tech-blog": (0.99, 0.99),
          "bgbiao-hugo-zh": (0.98, 0.99), "birdie0-mdbook": (0.99, 0.99),
          "cezam-catalogue": (0.96, 0.99), "clickwiki-wiki": (0.98, 0.98),
          "cmsis-dv-doxygen": (0.97, 0.99), "cni-iisc-seminars": (0.93, 0.97),
          "codare-wordpress": (0.99, 0.99), "commmp-shop": (0.97, 0.79),
          "cookwithtina-recipes": (0.96, 0.90), "digitalplant": (0.92, 0.93),
          "dostips-forum": (0.88, 0.93), "doulcememoire-company": (0.94, 0.94),
          "everything-list-hypermail": (0.96, 0.99), "gpodder-devel-pipermail": (0.84, 0.98),
          "hackingthe.cloud": (0.99, 0.99), "hyperledger-fabric-docs": (0.92, 0.96),
          "klnet-forum": (0.92, 0.98), "mywordpress": (0.97, 0.87),
          "opendcl-forum": (0.98, 0.99), "openehr-org-archive": (0.99, 0.97),
          "pyconca2013-conference": (0.98, 0.98), "redux-saga-docs": (0.99, 0.99),
          "rubima-magazine": (0.98, 0.98), "schwalb-willmann-academic": (0.99, 0.99),
          "theory3": (0.97, 0.95), "toppra-furo": (0.94, 0.98), "ucf-news": (0.91, 0.81),
          "wikinotes": (0.98, 0.99)}


def test_accuracy_on_shared_sites(site_dirs: list[Path]) -> None:
    for folder in site_dirs:
        site = load_site(folder)
        results = evaluate_site(site, ExtractOptions())
        scores = [r.scores for r in results if r.scores is not None]
        assert scores, f"{site.name}: no key page could be scored"
        total = scores[0]
        for s in scores[1:]:
            total = total + s
        assert site.name in FLOORS, f"{site.name}: measure it and give it a floor"
        t_floor, c_floor = FLOORS[site.name]
        assert total.template[2] >= t_floor, (site.name, total.as_dict())
        assert total.content[2] >= c_floor, (site.name, total.as_dict())


def test_stricter_vote_inside_the_content_region() -> None:
    share = '<div class="share"><a href="/s">Share this</a></div>'
    body = "a paragraph long enough to be the page's own text " * 3
    key = page("A key page title " * 5, body, "an item of the key page " * 5, extra=share)
    others = [page("A", "other words " * 9, extra=share), page("B", "more words " * 9,
                                                                extra=share),
              page("C", "still other words " * 6)]
    default = VoteDetector().fit(key, others).model_
    majority = VoteDetector(region_threshold=0.5).fit(key, others).model_
    share_div = next(i for i in key.in_body() if key.classes[i] == ("share",))
    assert default.votes[share_div] == 2  # 2 of 3: a majority, not more than two thirds
    assert not default.template[share_div]
    assert majority.template[share_div]
    assert default.template[key.tag.index("header")]  # outside the region a majority does


def test_record_lists_inside_the_region_are_content() -> None:
    def listing(rows: list[str]) -> object:
        body = "".join(f"<tr><td><img class='icon' src='/i.png'></td><td>{r}"
                       "<span class='by'>by</span><a href='/last'>Last page</a></td></tr>"
                       for r in rows)
        return parse(PAGE.replace("<main>", "<main><table class='list'>" + body + "</table>")
                     .format(title="Forum", body="intro", item="i"))
    key = listing([f"own topic number {k} of the key page" for k in range(5)])
    others = [listing([f"topic {k} of page {p} with other words" for k in range(5)])
              for p in range(3)]
    m = VoteDetector().fit(key, others).model_
    k = m.key
    for i in k.in_body():
        if k.tag[i] in ("tr", "td", "img", "span"):
            assert not m.template[i], (k.tag[i], k.classes[i])
    assert m.template[k.tag.index("header")]
    assert m.region >= 0 and not any(m.kind_template)
    assert m.template_level(k.tag.index("header")) == "site"


def test_a_row_that_maps_by_chance_goes_with_its_list() -> None:
    """Two listings of the same items in another order (by date, by thread):
    every row's text is on the compared page, elsewhere, and the one row
    that sits at the same place maps; it is content with the rest of the
    list (rules.RECORD_MOVED), and the listing's own chrome stays template."""
    def listing(order: list[int]) -> object:
        rows = "".join(f"<li><a href='/m/{k}'>message number {k} about a subject {k}</a>"
                       f" <em>author {k}</em></li>" for k in order)
        return parse(PAGE.replace("<main>", "<main><ul class='messages'>" + rows + "</ul>")
                     .format(title="Archive", body="intro", item="i"))
    key = listing(list(range(20)))
    other = listing([0, *range(2, 20), 1])  # row 0 at its place, the others moved
    m = VoteDetector().fit(key, [other]).model_
    k = m.key
    first = k.children[next(i for i in k.in_body() if k.classes[i] == ("messages",))][0]
    assert not any(m.template[i] for i in k.descendants(first))
    assert m.template[k.tag.index("header")]


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
def test_a_listing_compared_with_its_other_sorting() -> None:
    """The mailing-list archive's listing by date compared with its listing
    by thread alone (real pages, 17,882 rows each): rows that sit at the same
    place by chance (an author's name, a message listed at the same row) are
    content with their list. Template F1 0.451 before the rule, 0.949 with it."""
    from temex.evaluate import gold_mask, score_nodes

    assert DATA is not None
    site = load_site(DATA / "sites" / "everything-list-hypermail")
    key, other = (parse((site.root / f).read_bytes()) for f in ("date.html", "index.html"))
    m = VoteDetector().fit(key, [other]).model_
    s = score_nodes(m.template, gold_mask(key, site.content_selector, site.template_selector))
    assert s.template[2] >= 0.9 and s.content[2] >= 0.99, s.as_dict()


def test_the_key_pages_peers_vote_for_the_chrome_of_their_kind() -> None:
    # Two posts beside the key post and two menu pages of another layout: a
    # reward box under every post has 2 votes of 4, yet both peers share it
    # (the kind vote); its text is the same, the posts' text is not. A
    # section heading every post repeats stays with the content it heads.
    def post(url: str, words: str, pages_own: str = "") -> object:
        box = ('<div class="reward"><button>Reward</button><img class="qr" src="/qr.png">'
               '<span>Scan the code to thank the author of this post</span></div>')
        body = (f"<h2>Background</h2><p>{words * 9}</p>{box}" if not pages_own else
                f"<p>{pages_own * 9}</p>")
        return parse(PAGE.format(title="T " + words, body=body, item="i"), url)

    key = post("https://blog.example/post/key-post/", "the key post's own words ")
    peers = [post(f"https://blog.example/post/other-{j}/", f"words of post {j} ") for j in (1, 2)]
    menus = [post(f"https://blog.example/{m}/", "", f"the {m} page text ") for m in ("about", "books")]
    k = key
    box = next(i for i in k.in_body() if k.classes[i] == ("reward",))
    h2 = k.tag.index("h2")
    with_peers = VoteDetector().fit(key, peers + menus).model_
    assert all(with_peers.template[j] for j in k.descendants(box))
    assert not with_peers.template[h2]
    alone = VoteDetector(kind_vote=False).fit(key, peers + menus).model_
    assert not alone.template[box]
    # all compared pages peers: the vote of all pages is theirs, unchanged
    same = VoteDetector().fit(key, peers).model_
    assert same.template == VoteDetector(kind_vote=False).fit(key, peers).model_.template


def test_kind_peers_by_address() -> None:
    from temex.page.urls import kind_peer

    assert kind_peer("https://a.example/post/one/", "https://a.example/post/two/")
    assert kind_peer("/www/post/one/index.html", "/www/post/two/index.html")
    assert kind_peer("/2024/05/a.html", "/2023/11/b.html")
    assert kind_peer("/list/date.html", "/list/")  # the folder's page beside a file
    assert kind_peer("/?p=12", "/?p=7")  # the same URL kind
    assert not kind_peer("/post/one/", "/about/")
    assert not kind_peer("/post/one/", "/post/")  # the folder's page of a folder page
    assert not kind_peer("/", "/about/")  # the root page has no siblings
    assert not kind_peer("/list/a.html", "/list/b/")
    assert not kind_peer("", "") and not kind_peer("/post/one/", "")  # no address


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
def test_a_post_compared_with_two_posts_and_two_menu_pages() -> None:
    """A post of the Chinese blog compared, as the offline pool chooses, with
    the two posts it links and two menu pages: the reward box under every
    post is template by the peers' vote (template F1 0.927 → 0.952)."""
    from temex.evaluate import gold_mask, score_nodes
    from temex.site.pool import choose_pages

    assert DATA is not None
    site = load_site(DATA / "sites" / "bgbiao-hugo-zh")
    f = site.root / "post" / "coredns-loop" / "index.html"
    key = parse(f.read_bytes(), str(f))
    pages, _, _ = choose_pages(key, f, site.root, 4)
    m = VoteDetector().fit(key, pages).model_
    box = next(i for i in key.in_body() if "post-reward" in key.classes[i])
    assert m.template[box]
    s = score_nodes(m.template, gold_mask(key, site.content_selector, site.template_selector))
    # 0.952 / 0.96+ before the gold of 2026-12-03/04 made the post's category
    # links template (same code: template 0.795, content 0.85; its table of
    # contents and category line are the template the vote misses now)
    assert s.template[2] >= 0.79 and s.content[2] >= 0.84, s.as_dict()


def test_page_kind_template_is_marked() -> None:
    pager = '<div class="pager"><a href="/p/1">1</a><a href="/p/2">2</a><a href="/p/3">3</a></div>'
    body = "a paragraph long enough to be the page's own text " * 3
    key = page("A key page title " * 5, body, "an item of the key page " * 5, extra=pager)
    others = [page(f"T{j}", f"other words {j} " * 9, extra=pager) for j in range(3)]
    m = VoteDetector().fit(key, others).model_
    k = m.key
    div = next(i for i in k.in_body() if k.classes[i] == ("pager",))
    assert m.template[div] and m.template_level(div) == "kind"
    assert not m.site_template()[div] and m.site_template()[k.tag.index("footer")]
    assert m.counts()["kind_template_nodes"] >= 4


def test_text_free_fillers_follow_their_block_controls_do_not() -> None:
    # A divider and a picture between the page's own paragraphs are identical
    # on every page (the vote maps them), an icon-only "edit" link too; the
    # fillers belong to the block that holds them, the control stays template.
    extra = ('<hr class="divider"><img class="pic" src="/p.png">'
             '<a class="zoom" href="/p-large.png"><img src="/p.png"></a>'
             '<a class="edit" href="/edit"><i class="icon"></i></a>')
    body = "a paragraph long enough to be the page's own text " * 3
    key = page("A key page title " * 5, body, "an item of the key page " * 5, extra=extra)
    others = [page(f"T{j}", f"other words {j} " * 9, extra=extra) for j in range(3)]
    m = VoteDetector().fit(key, others).model_
    k = m.key
    hr = k.tag.index("hr")
    img = next(i for i in k.in_body() if k.classes[i] == ("pic",))
    edit = next(i for i in k.in_body() if k.classes[i] == ("edit",))
    assert m.votes[hr] == 3 and m.votes[edit] == 3
    zoom = next(i for i in k.in_body() if k.classes[i] == ("zoom",))
    assert not m.template[hr] and not m.template[img]
    assert not m.template[zoom] and not m.template[zoom + 1]
    assert m.template[edit] and m.template[edit + 1]
    off = VoteDetector(closure=False).fit(key, others).model_
    assert off.template[hr] and off.template[img]  # the vote alone maps them


def test_a_listing_weighs_as_one_piece_of_content() -> None:
    # Rows of a listing are many small content roots; a page-title slot
    # repeated in a toolbar outweighs each of them. Merged, the listing is
    # the region and the toolbar around it stays template.
    def rows_of(words: str) -> str:  # cells of the key page's own words, one label cell
        return "".join(f"<tr><td>{words} thread {k}</td><td>starter {words} {k}</td>"
                       f"<td>on day {k} of {words}</td><td>replies</td></tr>" for k in range(8))
    html = ("<html><body><header><a href='/'>Site</a></header><div class='page'>"
            "<div class='bar'><span>Threads in forum</span> <span>{name}</span></div>"
            "<table class='list'><tbody><tr><td>Thread</td><td>Starter</td><td>Date</td>"
            "<td>Replies</td></tr></tbody><tbody>{rows}</tbody></table></div>"
            "<footer>(c)</footer></body></html>")
    key = parse(html.format(name="The key forum with a rather long name of its own",
                            rows=rows_of("key")))
    others = [parse(html.format(name=f"Forum {j}", rows=rows_of(f"other{j}")))
              for j in range(3)]
    m = VoteDetector().fit(key, others).model_
    k = m.key
    assert k.tag[m.region] == "table"  # not only the rows' <tbody>
    bar = next(i for i in k.in_body() if k.classes[i] == ("bar",))
    assert all(m.template[i] for i in k.descendants(bar))
    header = k.parent[k.text.index("Thread")]  # column labels, the same on every page
    assert m.votes[header] == 3
    assert not any(m.template[i] for i in k.descendants(k.parent[header]))


def _shared_page(site_name: str, key_substr: str):  # type: ignore[no-untyped-def]
    """The fitted default model of the first key page of a shared site whose
    URL contains ``key_substr``, and the page's gold mask."""
    from conftest import DATA

    from temex.api import extract_files
    from temex.evaluate import gold_mask, url_to_file
    if DATA is None or not (DATA / "sites" / site_name).is_dir():
        pytest.skip(f"{site_name} not in the shared data")
    site = load_site(DATA / "sites" / site_name)
    kp = next(k for k in site.key_pages if key_substr in k)
    m = extract_files(url_to_file(site.root, kp), pages_dir=site.root, options=ExtractOptions())
    return m, gold_mask(m.key, site.content_selector, site.template_selector)


def test_a_product_title_in_an_h2_named_by_the_title_widens_the_region() -> None:
    # A Shopify product page: the region by text mass is the description tab;
    # the product's title is an <h2> (the <h1> is the breadcrumb's), its price
    # and "add to cart" form lie between the title and the description. The
    # <title> names the <h2>, so the region takes the product box, and the
    # price and the options between title and text are content.
    from temex.page.titles import head_titles
    from temex.template.rules.title import title_nodes
    m, gold = _shared_page("americanpillowcase-shop", "mattress-protector")
    k = m.key
    h2 = next(i for i in k.in_body() if "product-single__title" in k.classes[i])
    assert k.tag[h2] == "h2" and m.votes[h2] == 0
    assert norm_key_in(k, h2, head_titles(k))
    assert h2 in title_nodes(k, m.template)
    assert k.is_ancestor(m.region, h2)
    form = next(i for i in k.in_body() if "product-form" in k.classes[i])
    price = next(i for i in k.in_body() if "product_single_price" in k.classes[i])
    for i in (h2, price, form):
        assert not m.template[i] and gold[i] is False
    # the form's labels repeat on every product page: the vote alone maps them
    label = next(i for i in k.descendants(form) if k.tag[i] == "label")
    assert m.votes[label] == 4 and not m.template[label]
    off = get_detector("vote", title=False).fit(k, _pages_of(m)).model_
    assert off.template[h2] and off.template[form]


def norm_key_in(doc, i: int, title: str) -> bool:  # type: ignore[no-untyped-def]
    from temex.page.blocks import norm_key
    return norm_key(doc.subtree_text(i)) in title


def _pages_of(m):  # type: ignore[no-untyped-def]
    from temex.page.files import load_file
    return [load_file(Path(u)) for u in m.pages]


def test_page_kind_chrome_told_by_structure_is_template_on_key_pages() -> None:
    """The convention's chrome of a page kind inside the content, found by
    structure (temex.page.permalinks, .tocs, .linenos, .readmore), is template
    in the fitted model, its text-free wrapper with it, and the text around it
    content: Doxygen's ``<span class="permalink">`` around each member's
    ``◆`` link (the span's only child), a Markdown contents box, Chroma's
    line numbers, a WordPress listing's "vai al post" links."""
    from temex.page.linenos import gutters
    from temex.page.readmore import read_more_links
    from temex.page.tocs import tocs

    m, gold = _shared_page("cmsis-dv-doxygen", "group__spi__tests__data__xchg")
    k = m.key
    spans = [i for i in k.in_body() if "permalink" in k.classes[i]]
    assert len(spans) >= 8 and all(gold[i] for i in spans)
    assert all(m.template[i] for i in spans)
    assert not any(m.template[k.parent[i]] for i in spans)  # the member's heading
    for site, page, found in (("wikinotes", "/COMP_302/summary/", tocs),
                              ("bgbiao-hugo-zh", "coredns-loop", gutters),
                              ("cookwithtina-recipes", "/category/desserts/", read_more_links)):
        m, gold = _shared_page(site, page)
        roots = found(m.key)
        assert roots and all(m.template[j] for i in roots for j in m.key.descendants(i))
    # a read-more link's text-free wrapper (div.more-link-wrapper) goes with it
    wrappers = [m.key.parent[i] for i in read_more_links(m.key)]
    assert len(wrappers) == 10 and all(m.template[w] and gold[w] for w in wrappers)
    assert not any(m.template[m.key.parent[w]] for w in wrappers)  # the entry's text


def test_a_line_between_the_title_and_the_text_is_content() -> None:
    # A wiki page: "Maintainer: admin" sits under the <h1>, the same on every
    # page, so the vote calls it template; it lies between the title and
    # the text it heads, not at the region's edge (the breadcrumb before the
    # title stays template).
    m, gold = _shared_page("wikinotes", "monday-march-5")
    k = m.key
    line = next(i for i in k.in_body() if k.text[i].startswith("Maintainer"))
    box = k.parent[k.parent[line]]
    assert m.votes[box] == 4 and gold[box] is False
    assert all(not m.template[i] for i in k.descendants(box))
    crumb = next(i for i in k.in_body() if "breadcrumb" in k.classes[i])
    assert all(m.template[i] for i in k.descendants(crumb))
    off = get_detector("vote", title=False).fit(k, _pages_of(m)).model_
    assert all(off.template[i] for i in k.descendants(box))


def test_link_widgets_between_title_and_text_stay_template() -> None:
    # A share bar between the title and the text is links: it stays template;
    # a byline there is content.
    byline = '<p class="by">By the same staff writer, on the usual day</p>'
    share = ('<div class="share"><a href="/t">Share on Twitter</a>'
             '<a href="/f">Share on Facebook</a></div>')
    html = ("<html><head><title>{t} - Site</title></head><body><header><a href='/'>Site</a>"
            "</header><main><div class='post'><h2>{t}</h2>" + byline + share +
            "<div class='text'><p>{b}</p><p>{b}</p></div></div></main>"
            "<footer><p>(c) Site</p></footer></body></html>")
    key = parse(html.format(t="The key page's own long title", b="its own words " * 20))
    others = [parse(html.format(t=f"Another page number {j} title", b=f"other words {j} " * 20))
              for j in range(3)]
    m = VoteDetector().fit(key, others).model_
    k = m.key
    by = next(i for i in k.in_body() if k.classes[i] == ("by",))
    sh = next(i for i in k.in_body() if k.classes[i] == ("share",))
    h2 = k.tag.index("h2")
    assert m.votes[by] == 3 and m.votes[sh] == 3
    assert not m.template[h2] and not m.template[by]
    assert all(m.template[i] for i in k.descendants(sh))
    off = VoteDetector(title=False).fit(key, others).model_
    assert off.template[h2] and off.template[by]


def test_a_title_heading_with_a_repeated_icon_is_still_the_title() -> None:
    # Under the first evidence rule (evidence_share=None) the wiki's <h1> is
    # template: an empty icon <span> inside it is identical on every page.
    # Its text is the page's own (no compared page has it), so it is the
    # page's title all the same, and the line under it is content.
    from temex.template.detectors.base import seen_texts
    from temex.template.rules.title import title_nodes
    m, gold = _shared_page("wikinotes", "monday-march-5")
    k = m.key
    pages = _pages_of(m)
    first = get_detector("vote", evidence_share=None, digits=False).fit(k, pages).model_
    h1 = k.tag.index("h1")
    assert m.votes[h1] == 4 and gold[h1] is False
    assert h1 not in title_nodes(k, [True] * len(k))
    assert h1 in title_nodes(k, [True] * len(k), seen_texts(pages))
    line = next(i for i in k.in_body() if k.text[i].startswith("Maintainer"))
    assert not first.template[h1] and not first.template[line]


def test_what_follows_the_text_keeps_the_majority_vote() -> None:
    # With 6 candidate pages, a product page's related-products list is
    # mapped by 4 of them (products of other collections list other
    # products): a majority, not the more than two thirds the vote asks
    # inside the content region. Widened to the product's <h2> title, the
    # region takes that list too (it follows the description in the same
    # container); after the text the majority vote holds, so it stays
    # template as the gold says.
    from conftest import DATA

    from temex.api import extract_files
    from temex.evaluate import gold_mask, url_to_file
    if DATA is None or not (DATA / "sites" / "americanpillowcase-shop").is_dir():
        pytest.skip("americanpillowcase-shop not in the shared data")
    site = load_site(DATA / "sites" / "americanpillowcase-shop")
    kp = next(k for k in site.key_pages if "mattress-protector" in k)
    m = extract_files(url_to_file(site.root, kp), pages_dir=site.root,
                      options=ExtractOptions(n_pages=6))
    k = m.key
    gold = gold_mask(k, site.content_selector, site.template_selector)
    related = next(i for i in k.in_body() if "related-products-container" in k.classes[i])
    h2 = next(i for i in k.in_body() if "product-single__title" in k.classes[i])
    assert len(m.pages) == 6 and k.is_ancestor(m.region, related)
    assert 4 <= m.votes[related] < 5 and gold[related] is True
    assert all(m.template[i] for i in k.descendants(related) if not k.is_ignored(i))
    assert not m.template[h2]


def _blog_post(title: str, tags: list[str], prev: str, nxt: str, typed: bool) -> str:
    """A blog post with a tag line and previous / next links after its text,
    told by their HTML link types (``typed``) or by their class names, and a
    table of contents into the page."""
    rel = (lambda r: f" rel='{r}'") if typed else (lambda r: "")
    tag_links = ", ".join(f"<a href='/tag/{t}/'{rel('tag')}>{t}</a>" for t in tags)
    tags_cls, nav_cls = ("utility", "around") if typed else ("post-tags", "post-nav")
    return (f"<html><head><title>{title}</title></head><body>"
            "<nav><a href='/'>Home</a> <a href='/about/'>About</a></nav>"
            f"<main><article><h1>{title}</h1>"
            f"<div class='toc'><a href='#a'>{title} at first</a> "
            f"<a href='#b'>{title} later</a></div>"
            f"<p>{(title + ' is the subject of this post, told at length. ') * 6}</p>"
            f"<div class='{tags_cls}'>Posted in <span>{tag_links}</span></div>"
            f"<div class='{nav_cls}'><a href='/{prev}/'{rel('prev')}>{prev}</a> "
            f"<a href='/{nxt}/'{rel('next')}>{nxt}</a></div></article></main>"
            "<footer><p>Made with care by the team</p></footer></body></html>")


@pytest.mark.parametrize("typed", [True, False])
def test_tag_lines_and_neighbour_links_inside_the_region_are_template(typed: bool) -> None:
    """Tag lines and previous / next links differ on every
    page, so no vote calls them template; their HTML link types
    (``link_types``) or their class names (``named_lists``) do. A table of
    contents (links into the page) and the post's text stay content."""
    key = parse(_blog_post("Saving seeds", ["garden", "seeds"], "Compost", "Pruning", typed))
    others = [parse(_blog_post(t, [t.lower(), "misc"], f"{t} before", f"{t} after", typed))
              for t in ("Watering", "Mulching", "Weeding")]
    on = VoteDetector().fit(key, others).model_
    rule_off = {"link_types": None} if typed else {"named_lists": False}
    off = VoteDetector(**rule_off).fit(key, others).model_  # type: ignore[arg-type]
    cls = {key.classes[i]: i for i in key.in_body() if key.classes[i]}
    lists = [cls[("utility",)], cls[("around",)]] if typed else [cls[("post-tags",)],
                                                                 cls[("post-nav",)]]
    assert all(on.template[i] for i in lists) and not any(off.template[i] for i in lists)
    assert not on.template[cls[("toc",)]]
    assert not on.template[next(i for i in key.in_body() if key.tag[i] == "p")]


def test_listings_sharing_their_rows_keep_them(data_dir: Path) -> None:
    """A blog's category listing compared with three sibling
    categories that list many of the same posts: every row repeats, the
    region found under the first evidence rule is a comment count (under
    ``MIN_REGION_SHARE`` of the text) and is looked for again under the
    text-share rule. Before: content F1 0.000; measured 0.921."""
    from temex.evaluate import gold_mask, score_nodes, url_to_file

    folder = data_dir / "sites" / "codare-wordpress"
    if not folder.is_dir():
        pytest.skip("codare-wordpress not in the shared data")
    site = load_site(folder)
    key = parse(url_to_file(site.root, "/category/shell/").read_bytes())
    pages = [parse(url_to_file(site.root, f"/category/{c}/").read_bytes())
             for c in ("applescript", "c", "cpp")]
    model = VoteDetector().fit(key, pages).model_
    s = score_nodes(model.template, gold_mask(key, site.content_selector,
                                              site.template_selector))
    assert s.content[2] >= 0.9 and s.template[2] >= 0.93, s.as_dict()


def test_the_widget_around_a_query_form_is_template() -> None:
    """A catalogue's filter panel (a GET form, its checkboxes and
    labels around it) is on the listing alone, so no vote calls it template;
    the form that queries does. The listing's rows stay content."""
    menu = "<nav><a href='/'>Home</a> <a href='/courses/'>Courses</a></nav>"
    filters = ("<div class='panel'><b>Themes</b><form action='#s'><input type='hidden' "
               "name='t'></form><ul>" + "".join(
                   f"<li><label><input type='checkbox' value='{k}'> Theme number {k}</label>"
                   "</li>" for k in range(6)) + "</ul></div>")
    rows = "".join(f"<div class='row'><h3><a href='/c/{k}.html'>Course {k} on a subject</a>"
                   f"</h3><p>What course {k} teaches, in two sentences of its own.</p></div>"
                   for k in range(8))
    listing = parse(f"<html><head><title>Courses</title></head><body>{menu}<main>"
                    f"<h1>All our courses</h1>{filters}<section>{rows}</section></main>"
                    "<footer><p>Made by the training team</p></footer></body></html>")
    others = [parse(f"<html><head><title>Course {k}</title></head><body>{menu}<main>"
                    f"<h1>Course {k}</h1><p>{('Course ' + str(k) + ' explained. ') * 9}</p>"
                    "</main><footer><p>Made by the training team</p></footer></body></html>")
              for k in range(3)]
    on = VoteDetector().fit(listing, others).model_
    off = VoteDetector(query_forms=False).fit(listing, others).model_
    panel = next(i for i in listing.in_body() if listing.classes[i] == ("panel",))
    row = next(i for i in listing.in_body() if listing.classes[i] == ("row",))
    assert on.template[panel] and not on.template[row]
    assert not off.template[panel]


def test_short_labels_follow_the_line_they_label() -> None:
    """"From" and "Date" repeat on every message, so the vote
    maps them, but the header lines they label are the message's own."""
    def message(subject: str, who: str, when: str, body: str) -> str:
        return (f"<html><head><title>{subject}</title></head><body>"
                "<div class='nav'><a href='/'>Index</a> <a href='/by-date'>By date</a></div>"
                f"<h1>{subject}</h1><div class='mail'><address>"
                f"<span><dfn>From</dfn>: {who}</span><br><span><dfn>Date</dfn>: {when}</span>"
                f"</address><p>{body * 3}</p><p>{body * 3}</p></div>"
                "<div class='foot'><p>Archive generated by a mail archiver</p></div>"
                "</body></html>")
    key = parse(message("Many worlds", "Ann Example", "Fri 20 Feb 1998",
                        "A message about many worlds and what they mean. "))
    others = [parse(message(f"Subject {k}", f"Writer {k}", f"Mon {k} Mar 1998",
                            f"Another message, number {k}, about other things. "))
              for k in range(3)]
    on = VoteDetector().fit(key, others).model_
    off = VoteDetector(labels=False).fit(key, others).model_
    dfn = [i for i in key.in_body() if key.tag[i] == "dfn"]
    assert dfn and not any(on.template[i] for i in dfn)
    assert all(off.template[i] for i in dfn)


def _message(n: int, subject: str, author: str, words: str) -> str:
    # a mail archive's message page: no rel, no class names on the navigation
    return (f"<html><head><title>{subject}</title></head><body><div class='head'>"
            f"<h1>{subject}</h1><ul><li>This message: [ <a href='#body'>Message body</a> ]</li>"
            f"<li>Related messages: [ <a href='{n + 1:04d}.html'>Next message</a> ] "
            f"[ <a href='{n - 1:04d}.html'>Previous message</a> ]</li></ul>"
            f"<p class='from'>From: <a href='/people/{author}.html'>{author}</a>, "
            f"a list member since the spring</p>"
            f"<div class='mail'><p>{words}</p><p>{words}</p></div></div>"
            "<div class='foot'><a href='index.html'>thread</a> <a href='date.html'>date</a>"
            "</div></body></html>")


def test_series_links_between_title_and_text_stay_template() -> None:
    """Between the title and the text, a list whose links
    all lead to pages of the key page's own URL kind (``0101.html`` from
    ``/list/0100.html``) is the series' previous / next navigation, though
    its labels outweigh its links; the sender line, whose link leads to a
    page of another kind, stays content (:func:`head_zone`). Off, the list
    stays template all the same here, for its text is on every compared
    page (the shared-navigation rule, tested below); the series rule is
    what holds a list that is not (hypermail's key page 0100.html: content
    F1 0.901 without it, 1.000 with it)."""
    from temex.page.urls import url_kind
    from temex.template.rules.head_zone import _series_navigation

    key = parse(_message(100, "Re: many worlds", "wei", "one universe or many " * 15),
                url="https://example.org/list/0100.html")
    others = [parse(_message(n, f"Subject {n}", f"hal{n}", f"words of message {n} " * 15),
                    url=f"https://example.org/list/{n:04d}.html") for n in (96, 1, 2)]
    k = key
    nav = k.tag.index("ul")
    sender = next(i for i in k.in_body() if k.classes[i] == ("from",))
    on = VoteDetector().fit(key, others).model_
    assert on.votes[nav] == 3 and all(on.template[i] for i in k.descendants(nav))
    assert not on.template[sender] and not on.template[k.tag.index("h1")]
    own = url_kind(k.url)
    assert _series_navigation(k, nav, own) and not _series_navigation(k, sender, own)


def _message_with_foot(n: int, subject: str, words: str, cite: str = "") -> str:
    # a mail archive's message page whose related-messages list follows the
    # text, each item labelled and linked by the other message's subject
    def item(label: str, m: int) -> str:
        subject = "".join(chr(ord("a") + int(d)) for d in str(m))  # no digits: no digit rule
        return (f"<li><dfn>{label}</dfn>: <a href='{m:04d}.html'>"
                f"Jacques: \"On {subject} worlds and measure\"</a></li>")
    return (f"<html><head><title>{subject}</title></head><body><div class='page'>"
            f"<div class='head'><h1>{subject}</h1><ul><li><a href='index.html'>thread</a> "
            f"<a href='date.html'>date</a></li></ul></div>"
            f"<div class='mail'><p>{words}</p><p>{words}{cite}</p></div>"
            f"<div class='foot'><ul>{item('Next message', n + 1)}"
            f"{item('Previous message', n - 1)}{item('In reply to', n - 7)}</ul>"
            "<p>Generated by a mail archiver</p></div></div></body></html>")


def test_series_links_after_the_text_are_template() -> None:
    """After the text, the list of the next, previous and
    replied-to messages carries no ``rel`` and no navigation name, and its
    text (the other messages' subjects) differs on every page: told by its
    targets, pages of the key page's own URL kind, it is template
    (:func:`link_type_chrome`). A paragraph of the message that cites one
    earlier message is text, not a link list, and stays content."""
    cite = " As <a href='0042.html'>an earlier message</a> said, and I agree."
    key = parse(_message_with_foot(100, "Re: many worlds", "one universe or many " * 15, cite),
                url="https://example.org/list/0100.html")
    others = [parse(_message_with_foot(n, f"Subject {n}", f"words of message {n} " * 15),
                    url=f"https://example.org/list/{n:04d}.html") for n in (96, 11, 12)]
    k = key
    foot_list = next(i for i in k.in_body() if k.tag[i] == "ul"
                     and k.classes[k.parent[i]] == ("foot",))
    citing = [i for i in k.in_body() if k.tag[i] == "p" and any(
        k.tag[j] == "a" for j in k.descendants(i))]
    links = [i for i in k.descendants(foot_list) if k.tag[i] == "a"]
    on = VoteDetector().fit(key, others).model_
    assert all(on.template[i] for i in k.descendants(foot_list))
    assert citing and not any(on.template[i] for i in k.descendants(citing[0]))
    off = VoteDetector(link_types=None).fit(key, others).model_
    assert len(links) == 3 and not any(off.template[i] for i in links)


@pytest.mark.parametrize("href", [
    "0230.html", "../list/0230.html", "/list/0231.html?x=1", "0230.html#start", "?p=2",
    "", ".", "..", "./", "https://example.org", "//example.org/list/0231.html",
    "https://example.org/list/0232.html", "mailto:list@example.org", "index.html",
    "../0230.html", "sub/0230.html"])
@pytest.mark.parametrize("base", ["https://example.org/list/0229.html",
                                  "https://example.org/list/?p=1",
                                  "/srv/mirror/www/list/0229.html"])
def test_the_series_prefilter_agrees_with_url_kind(href: str, base: str) -> None:
    """``rules._same_kind`` compares the last path segment's pattern before
    it resolves a link; it must answer as :func:`url_kind` does."""
    from temex.page.urls import url_kind
    from temex.template.rules.links import _same_kind

    own = url_kind(base)
    assert _same_kind(href, base, own) == (url_kind(href, base) == own)


def _product(slug: str, name: str, price: str, words: str) -> str:
    # a shop's product page: a breadcrumb heading names the product above the
    # vendor line and a side column of categories and shop promises, beside
    # the product itself and the shop's policy
    cats = "".join(f"<li><a href='/collections/{c}.html'>{c.title()}</a></li>"
                   for c in ("pillows", "sheets", "towels", "napkins"))
    return (f"<html><head><title>{name}</title></head><body><header><a href='/'>Shop</a>"
            "</header><main><nav class='crumbs'><a href='/'>Home</a> / "
            f"<h1>{name}</h1></nav><p class='by'>Sold and shipped by <a href='/vendors/acme.html'>"
            "Acme</a></p><div class='columns'><div class='side'><h4>Categories</h4>"
            f"<ul>{cats}</ul><ul><li>Free shipping on orders over fifty dollars</li>"
            "<li>Thirty days to return anything you bought</li></ul></div>"
            f"<div class='product'><span class='price'>{price}</span>"
            "<form method='post' action='/cart/add'><label>Quantity</label><input name='q'>"
            f"<button>Add to cart</button></form><p>{words}</p><p>{words}</p></div>"
            "<div class='policy'><p>" + "Every order ships from our own warehouse. " * 10
            + "</p></div></div></main><footer><p>Shop footer text</p></footer></body></html>")


def test_navigation_every_compared_page_shares_is_no_head_zone() -> None:
    """Between the title (a breadcrumb heading) and the
    text lies a side column whose every text is on every compared page and
    that links to other pages: template, though more than half of its text
    is no link (:func:`head_zone`). The vendor line, shared too but with one
    link, is the product's own, as a byline is."""
    key = parse(_product("blue", "Blue pillow case, king size", "$12.00",
                         "A blue pillow case of cotton. " * 8),
                url="https://example.org/products/blue.html")
    others = [parse(_product(s, f"{s.title()} product of the shop", p,
                             f"The {s} product, described. " * 8),
                    url=f"https://example.org/products/{s}.html")
              for s, p in (("sheet", "$30.00"), ("towel", "$8.50"), ("napkin", "$4.00"))]
    k = key
    side = next(i for i in k.in_body() if k.classes[i] == ("side",))
    vendor = next(i for i in k.in_body() if k.classes[i] == ("by",))
    m = VoteDetector().fit(key, others).model_
    assert k.is_ancestor(m.region, side) and m.votes[side] == 3
    assert all(m.template[i] for i in k.descendants(side))
    assert not any(m.template[i] for i in k.descendants(vendor))


def test_a_heading_in_a_nav_is_the_title_only_where_no_other_is() -> None:
    """``rules.title_nodes`` puts headings inside a ``<nav>`` last: on a
    product page whose breadcrumb ends in the product's name as an ``<h1>``,
    the head zone starts at the product box's own heading (tested on a real
    page below); a collection page whose breadcrumb heading is its only one
    keeps it as its title."""
    from temex.template.rules.title import title_nodes

    name = "Blue pillow case, king size"
    page = parse(f"<html><head><title>{name}</title></head><body><main><nav class='crumbs'>"
                 f"<a href='/'>Home</a> / <h1>{name}</h1></nav><div class='product'>"
                 f"<h2>{name}</h2><p>{'A blue pillow case of cotton. ' * 8}</p></div></main>"
                 "</body></html>")
    h1, h2 = page.tag.index("h1"), page.tag.index("h2")
    assert title_nodes(page, [False] * len(page)) == [h2, h1]
    alone = parse("<html><head><title>Pillows</title></head><body><nav><h1>Pillows</h1>"
                  "</nav><p>All our pillows</p></body></html>")
    assert title_nodes(alone, [False] * len(alone)) == [alone.tag.index("h1")]


def test_a_product_pages_side_column_and_order_form_on_the_shop() -> None:
    """A product page of the shared shop that no site.json names (random key
    pages, docs/EVALUATION.md): its category side column lies between the
    breadcrumb's h1 and the product, all of it on every compared page, and
    its order form between the product's own h2 and its description. The
    column is template and the form content: content F1 0.432 before the
    shared-navigation and nav-heading rules, 0.957 with them."""
    from temex.api import extract_files
    from temex.evaluate import gold_mask, score_nodes, url_to_file

    if DATA is None or not (DATA / "sites" / "americanpillowcase-shop").is_dir():
        pytest.skip("americanpillowcase-shop not in the shared data")
    site = load_site(DATA / "sites" / "americanpillowcase-shop")
    page = ("/collections/wholesale/products/wholesale-box-of-60-pillowcases-lilac-100-cotton-"
            "high-thread-count-pillow-cases-single-needle-hem-stitch-king-21x40-fits-20x36-"
            "pillow.html")
    m = extract_files(url_to_file(site.root, page), pages_dir=site.root)
    k = m.key
    gold = gold_mask(k, site.content_selector, site.template_selector)
    scores = score_nodes(m.template, gold)
    # 0.957 before the gold of 2026-12-03/04 made the form's controls (the
    # quantity, the add-to-cart button) template; 0.851 since, same code
    assert scores.content[2] >= 0.85, scores.as_dict()
    form = next(i for i in k.in_body() if k.tag[i] == "form" and "product-form" in k.classes[i])
    side = next(i for i in k.in_body() if "product_sidebar" in k.classes[i])
    assert not any(m.template[i] for i in k.descendants(form)) and gold[form] is False
    assert all(m.template[i] for i in k.descendants(side)) and gold[side] is True


def _post(slug: str, title: str, words: str, date: str = "May 30, 2021") -> str:
    # a WordPress post: the byline links the author (rel=author) and the post
    # itself (rel=bookmark, the permalink around its date)
    return (f"<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a>"
            "<a href='/recipes/'>Recipes</a></nav><article><h1>" + title + "</h1>"
            "<div class='entry-meta'>by <a href='/author/tina/' rel='author'>Tina</a> "
            f"Posted on <a href='/{slug}/'><time>{date}</time></a></div>"
            f"<div class='entry-content'><p>{words}</p><p>{words}</p></div></article>"
            "<footer>(c) Site</footer></body></html>")


def test_a_bylines_own_links_are_no_navigation() -> None:
    """Between the title and the text, the vote maps a byline whose text is
    mostly links (the author's name, the post's own date): links to the
    page's author (``rel=author``) and to the page itself (its permalink) lead
    nowhere else, so the head zone keeps the line as the page's own
    (``rules.own_link``); cookwithtina 0.985 / 0.961 → 0.989 / 0.973."""
    from temex.template.rules.links import own_link

    key = parse(_post("beef-stroganoff", "Beef Stroganoff", "beef and cream " * 20),
                url="https://example.org/beef-stroganoff/")
    others = [parse(_post(s, s.title(), f"words of {s} " * 20),
                    url=f"https://example.org/{s}/") for s in ("rice", "cake", "soup")]
    k = key
    meta = next(i for i in k.in_body() if k.classes[i] == ("entry-meta",))
    links = [i for i in k.descendants(meta) if k.tag[i] == "a"]
    assert [own_link(k, i) for i in links] == [True, True]
    assert not own_link(k, k.tag.index("a"))  # the menu's link home
    m = VoteDetector().fit(key, others).model_
    assert not any(m.template[i] for i in k.descendants(meta))
    assert m.template[k.tag.index("nav")]


def test_a_heading_names_the_site_only_beside_the_pages_own_names() -> None:
    """``rules.title_nodes`` with the compared pages' titles: a heading whose
    text is part of most of them beside their own names ("Post | CODARE")
    names the site and is no title; one that is the whole title of each
    (digits aside: an issue index among the other issues' indexes) names
    this page, a page of the same kind named by the same pattern."""
    from temex.template.rules.title import title_nodes

    page = parse("<html><head><title>{t}</title></head><body><h1>{h}</h1>"
                 "<p>text</p></body></html>".format(t="Rubyist Magazine 0045", h="Rubyist Magazine 0045"))
    h1 = page.tag.index("h1")
    none = [False] * len(page)
    issues = ["rubyist magazine 0", "rubyist magazine 0", "rubyist magazine 0"]
    assert h1 in title_nodes(page, none, site_titles=issues)
    posts = ["a post | rubyist magazine 0", "another | rubyist magazine 0", "rubyist magazine 0"]
    assert h1 not in title_nodes(page, none, site_titles=posts)


def test_a_key_pages_comments_are_content_beside_the_region() -> None:
    """A blog post compared with two other posts (codare-wordpress, as a
    crawl's cluster compares them): the comments sit beside the post, outside
    the content region, and their text differs on every page, so the vote
    leaves them out of the template; the content-region rule took them all
    the same, and a crawl lost the comments of every cluster's key page.
    Comments are content by the data convention: their text and what holds
    it stay content (``rules.comment_text``); a reply form stays template."""
    from conftest import DATA

    if DATA is None or not (DATA / "sites" / "codare-wordpress").is_dir():
        pytest.skip("codare-wordpress not in the shared data")
    root = DATA / "sites" / "codare-wordpress" / "www"
    key, *others = [parse((root / p / "index.html").read_bytes()) for p in (
        "2006/09/16/como-embutir-bibliotecas-e-frameworks-em-uma-aplicacao-cocoa",
        "2006/09/17/ruby-escapar-caracteres-especiais-em-html-entities",
        "2006/09/20/c-ler-linhas-de-um-arquivo-texto")]
    m = VoteDetector().fit(key, others).model_
    comments = [i for i in key.in_body() if "Cês tão chiques" in key.text[i]
                or key.text[i].startswith("Boa dica, principalmente")]
    assert len(comments) == 2 and not any(m.template[i] for i in comments)
    # beside the region, not in it: the region rule alone made them template
    assert m.region >= 0 and not any(key.is_ancestor(m.region, i) for i in comments)
    # what holds a comment (its item in the list, the list) is content too
    items = [next(a for a in key.ancestors(i) if key.tag[a] == "li") for i in comments]
    assert not any(m.template[a] for a in items)
    assert not m.template[key.parent[items[0]]]


def test_a_grid_of_card_links_is_the_pages_content() -> None:
    """A listing whose every card is one link (``<a>`` around the card's
    heading and summary) weighs its text: only phrasing-only links (menu
    items, tables of contents, previous / next) are left out of the region's
    weight. Before, the cards weighed nothing, the region was the page's
    short heading and every card was called template."""
    from temex.template.rules.region import inline_link_text

    cards = "".join(f"<a class='card' href='/p/{k}'><h3>Project {k} of the firm</h3>"
                    f"<p>What we built for client number {k}, and how it went.</p></a>"
                    for k in range(6))
    site = ("<html><body><header><a href='/'>Site</a><nav><a href='/a'>About us</a>"
            "<a href='/p'>Projects</a></nav></header>{main}"
            "<footer><p>(c) Site, all rights kept</p></footer></body></html>")
    key = parse(site.format(main=f"<div class='top'><h1>Projects</h1></div>"
                                 f"<div class='grid'>{cards}</div>"))
    others = [parse(site.format(main=f"<div class='top'><h1>Page {j}</h1></div>"
                                     f"<div class='text'><p>Words of page {j}.</p></div>"))
              for j in range(3)]
    links = inline_link_text(key)
    menu = key.text.index("About us")
    card_heading = key.text.index("Project 0 of the firm")
    assert links[menu] and not links[card_heading]
    nav = parse("<html><body><p><a href='/p/1'>Previous<br>The post before</a></p></body></html>")
    assert inline_link_text(nav)[nav.tag.index("a")]  # a line break is phrasing
    m = VoteDetector().fit(key, others).model_
    grid = next(i for i in key.in_body() if key.classes[i] == ("grid",))
    assert not any(m.template[i] for i in key.descendants(grid))
    assert all(m.template[i] for i in key.descendants(key.tag.index("footer")))


def test_a_real_grid_of_card_links_is_content() -> None:
    """The real case: a company site's projects page, six project cards
    (each a link around an image, a title and a line), compared with the
    blog's index, the legal page and two expert pages. Template / content
    F1 0.817 / 0.143 before (the region was the page's heading), 0.977 /
    0.949 measured with the cards weighed."""
    from temex.api import extract_files
    from temex.evaluate import gold_mask, score_nodes

    if DATA is None or not (DATA / "sites" / "digitalplant").is_dir():
        pytest.skip("digitalplant not in the shared data")
    site = load_site(DATA / "sites" / "digitalplant")
    m = extract_files(site.root / "en" / "projects" / "index.html", pages_dir=site.root,
                      options=ExtractOptions())
    s = score_nodes(m.template, gold_mask(m.key, site.content_selector, site.template_selector))
    assert s.template[2] >= 0.95 and s.content[2] >= 0.9, s.as_dict()


def test_a_headings_link_to_itself_is_template() -> None:
    """Sphinx's ``¶`` after every heading (a link to the heading's own
    section, no letter in it) is the chrome of a docs page, as an edit link
    is; its text differs on no page, but the vote cannot map it where the
    sections differ. The heading and the section stay content, and a link
    into the page that says something ("see Usage") is no permalink."""
    def doc_page(name: str, sections: list[str]) -> object:
        body = "".join(f"<section id='{s}'><h2>{s.title()} of {name}<a class='headerlink' "
                       f"href='#{s}'>¶</a></h2><p>What {name} says about {s}, at length "
                       f"enough to be text.</p></section>" for s in sections)
        return parse(f"<html><body><nav><a href='/'>Docs home</a></nav><article>{body}"
                     f"<p>Back to <a href='#{sections[0]}'>see what {name} says first</a>.</p>"
                     "</article><footer><p>(c) Docs</p></footer></body></html>")
    key = doc_page("key", ["usage", "install", "faq"])
    others = [doc_page(f"other{j}", [f"part{j}", "setup"]) for j in range(3)]
    m = VoteDetector().fit(key, others).model_
    k = m.key
    pilcrows = [i for i in k.in_body() if k.text[i] == "¶"]
    assert len(pilcrows) == 3 and all(m.template[i] for i in pilcrows)
    own = [i for i in k.in_body() if k.tag[i] == "h2" or "says about" in k.text[i]]
    assert len(own) == 6 and not any(m.template[i] for i in own)
    see = k.text.index("see what key says first")
    assert not m.template[see]




def test_the_pages_title_is_no_slot_of_a_widget() -> None:
    """A real product page (a key page nobody chose, bench/eval/random_keys.py):
    the product box's pictures, previous / next arrows and order form are
    the same on the four product pages it is compared with, and it holds the
    product's title (an ``h2`` that names the page's ``<title>``) and price:
    more template than content under it, so the closure took it for a
    widget with page slots and called the title and the price template. The
    page's title heading is no slot: the box is settled as a container.
    Content F1 0.253 before, 0.432 measured."""
    from temex.api import extract_files
    from temex.evaluate import gold_mask, score_nodes

    if DATA is None or not (DATA / "sites" / "americanpillowcase-shop").is_dir():
        pytest.skip("americanpillowcase-shop not in the shared data")
    site = load_site(DATA / "sites" / "americanpillowcase-shop")
    page = (site.root / "collections" / "wholesale" / "products" /
            ("wholesale-box-of-60-pillowcases-lilac-100-cotton-high-thread-count-pillow-cases-"
             "single-needle-hem-stitch-king-21x40-fits-20x36-pillow.html"))
    m = extract_files(page, pages_dir=site.root, options=ExtractOptions())
    k = m.key
    title = next(i for i in k.in_body() if "product-single__title" in k.classes[i])
    assert not m.template[title]
    s = score_nodes(m.template, gold_mask(k, site.content_selector, site.template_selector))
    assert s.content[2] >= 0.4, s.as_dict()


def _listing(url: str, rows: int, address: str = "https://blog.test/category/{}/") -> object:
    """A category page: site chrome, a heading, ``rows`` post rows alike."""
    posts = "".join(
        f'<div class="post post-{n}"><h2><a href="/p{n}/">Post {url} {n}</a></h2>'
        f'<div class="meta">Posted on <span>{n} May</span> by <a href="/a/">Ann</a></div>'
        f'<div class="summary"><p>Own excerpt of post {n} listed at {url}, '
        f'long enough to be the text of the page.</p></div>'
        f'<a class="more" href="/p{n}/">Read more</a></div>' for n in range(rows))
    return parse(f"<html><body><div class='menu'><a href='/'>Home</a><a href='/c/'>Cats</a>"
                 f"</div><div id='content'><h1>Category: {url}</h1>{posts}</div>"
                 f"<div class='foot'>Footer text of the site</div></body></html>",
                 url=address.format(url))


def test_the_row_of_a_one_row_listing_is_content() -> None:
    """A category with one post, compared with categories
    of several. The row's scaffolding ("Posted on", "by") maps onto the same
    scaffolding of the compared rows and was voted template; the region
    shrank to the excerpt. The compared pages of the key page's kind show
    the post's element as one of a run of rows as big as it
    (``vote.peer_rows``): the region is the listing and the row is content
    (``rules.listing_row``), but for its "Read more" link, template by the
    data README's convention (``temex.page.readmore``)."""
    key = _listing("solo", 1)
    peers = [_listing(name, 4) for name in ("java", "ruby", "php")]
    m = VoteDetector().fit(key, peers).model_
    row = next(i for i in key.in_body() if "post" in key.classes[i])
    more = next(i for i in key.descendants(row) if "more" in key.classes[i])
    assert m.template[more]
    assert not any(m.template[i] for i in key.descendants(row) if i != more)
    assert m.region == key.parent[row]
    menu = next(i for i in key.in_body() if "menu" in key.classes[i])
    assert m.template[menu]
    # compared with listings of another kind (by their address), the
    # scaffolding stays as the vote leaves it
    elsewhere = [_listing(name, 4, "https://blog.test/{}.html") for name in ("java", "ruby")]
    m2 = VoteDetector().fit(key, elsewhere).model_
    meta = next(i for i in key.in_body() if "meta" in key.classes[i])
    assert m2.template[meta] and m.template[meta] is False


def test_a_wrapper_mapped_onto_a_small_box_is_no_row() -> None:
    """The peers' rows must be about the row's size (``vote.ROW_SIZE``): a
    forum listing's page wrapper, mapped onto one of the small boxes a
    thread page stacks, is no row of a listing, and the region is not
    widened over the page."""
    from temex.template.rules.records import listing_row
    from temex.template.detectors.vote import peer_rows
    from temex.template.equality import get_equality
    from temex.template.mapping import etdm

    key = parse("<html><body><div><div class='top'>Site</div>"
                "<div><table><tr><td>Own row one of the forum</td></tr>"
                "<tr><td>Own row two of the forum</td></tr></table>"
                "<p>Forum tools and a long page of the forum's own text.</p></div>"
                "</div></body></html>", url="https://f.test/forumdisplay.php?f=3")
    thread = parse("<html><body><div><div class='top'>Site</div>"
                   "<div><b>box</b></div><div><i>post one</i></div><div><i>post two</i></div>"
                   "</div></body></html>", url="https://f.test/forumdisplay.php?f=4")
    mapping = etdm(key, thread, get_equality("label"))
    wrapper = next(i for i in key.in_body() if key.tag[i] == "table")
    wrapper = key.parent[wrapper]
    assert wrapper in mapping  # mapped onto one of three plain divs
    is_row = peer_rows(key, [(thread, mapping)])
    assert not is_row(wrapper)
    assert listing_row(key, wrapper, is_row) == -1


def test_the_heading_the_text_follows_is_the_title_where_none_is_named() -> None:
    """A news item whose ``<title>`` names its section only ("Industry
    News"), with no ``<h1>``: no heading is a title by ``title_nodes``, the
    region was the one ``<h4>`` that holds most of the text (the page's
    markup puts its body there), and the item's own heading, date and lead
    above it were template (content F1 0.696). The nearest heading before
    the region, of the page's own text, is the title the region widens to
    (``rules._heading_before``)."""
    from temex.evaluate import gold_mask, score_nodes

    if DATA is None or not (DATA / "sites" / "openehr-org-archive").is_dir():
        pytest.skip("openehr-org-archive not in the shared data")
    site = load_site(DATA / "sites" / "openehr-org-archive")
    root = site.root
    key = parse((root / "news_events/industry_news/387.html").read_bytes())
    pages = [parse((root / p).read_bytes()) for p in (
        "about/vision_and_mission.html", "about/origins.html",
        "about/history_2002_2018.html", "governance/organisational_structure.html")]
    m = VoteDetector().fit(key, pages).model_
    h2 = next(i for i in key.in_body() if key.tag[i] == "h2"
              and key.subtree_text(i).startswith("Better is transforming"))
    assert not m.template[h2] and key.is_ancestor(m.region, h2)
    s = score_nodes(m.template, gold_mask(key, site.content_selector, site.template_selector))
    assert s.content[2] >= 0.95, s.as_dict()


def test_a_permalink_is_no_evidence_that_its_heading_repeats() -> None:
    """Sphinx gives every heading a link to itself whose text is a pilcrow
    (``<h1>Title<a class="headerlink" href="#title">¶</a></h1>``): the same
    text on every page, mapped with the heading. Under the first evidence
    rule (used to place the region) it made every page's title heading
    repeated, though the titles differ; a heading whose text repeats ("See
    also") still is (``rules.supported_mapping``, ``_permalink_set``)."""
    from temex.template.rules.evidence import supported_mapping
    from temex.template.equality import get_equality
    from temex.template.mapping import etdm

    def doc(title: str) -> object:
        anchor = title.lower().replace(" ", "-")
        return parse(f"<html><body><section id='{anchor}'><h1>{title}"
                     f"<a class='headerlink' href='#{anchor}'>¶</a></h1>"
                     f"<p>Text of {title}.</p><section id='see-also'><h2>See also"
                     f"<a class='headerlink' href='#see-also'>¶</a></h2></section>"
                     f"</section></body></html>")

    a, b = doc("Quick start"), doc("Installation")
    mapping = etdm(a, b, get_equality("label"))
    first = supported_mapping(a, b, mapping, None)
    h1, h2 = a.tag.index("h1"), a.tag.index("h2")
    assert h1 in mapping and not first[h1]
    assert first[h2]


def test_a_code_block_repeats_only_as_a_whole() -> None:
    """A highlighted code block is one text cut into token spans ("import",
    "(", "="), and two examples of a docs site share most of their tokens
    whatever their code says: the evidence rules took the block for
    repeated, and the region shrank to the one ``<pre>`` left. A code block
    is evidence only where it is identical to the block it is mapped to
    (``rules._changed_code``); an identical block still is."""
    from temex.template.rules.evidence import supported_mapping
    from temex.template.equality import get_equality
    from temex.template.mapping import etdm

    def doc(code: list[str], shared: str) -> object:
        spans = "".join(f"<span class='n'>{w}</span> " for w in code)
        return parse(f"<html><body><pre>{spans}</pre><pre><span class='k'>{shared}"
                     f"</span></pre></body></html>")

    a = doc(["import", "toppra", "as", "ta", "(", ")", "="], "pip install toppra")
    b = doc(["import", "numpy", "as", "np", "(", ")", "="], "pip install toppra")
    mapping = etdm(a, b, get_equality("label"))
    pre, same = [i for i, t in enumerate(a.tag) if t == "pre"]
    for share in (None, 0.5):
        sup = supported_mapping(a, b, mapping, share)
        assert pre in mapping and not any(sup[i] for i in a.descendants(pre))
        assert sup[same]
