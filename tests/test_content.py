"""Tests of main-content extraction on real pages of the shared data."""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA

from temex.cli.content import add_parser as add_content_parser
from temex.cli.content import run_content
from temex.content.extract import ContentParams, extract_content
from temex.content.folder import extract_folder
from temex.page.dom import Document, parse
from temex.page.tokens import token_prf
from temex.template.site_index import SiteIndex

needs_data = pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")


def _under_a_template(site_name: str, rel: str) -> tuple[SiteIndex, Document, str]:
    """A page of a shared site as batch and crawl meet it: the site index of
    the site's first 24 files, the page (``rel``: the end of its path) and its
    gold text; the tests give it an empty template mask, so that the content
    stage runs as under a template."""
    from temex.evaluate import gold_text, load_site
    from temex.page.files import html_files

    site = load_site(DATA / "sites" / site_name)  # type: ignore[operator]
    files = sorted(html_files(site.root))
    index = SiteIndex([parse(f.read_bytes(), url=str(f)) for f in files[:24]], hashed=True)
    (f,) = [x for x in files if x.as_posix().endswith("/" + rel)]
    d = parse(f.read_bytes(), url=str(f))
    return index, d, gold_text(d, site.content_selector, site.template_selector)


def _on_and_off(site: str, path: str, **off: Any) -> tuple[float, float]:
    """Token F1 against its gold of the page level on a shared site's page
    (``path`` under the site's root), with the shipped parameters and with
    the fields ``off`` sets; the test skips when the site is not in the
    shared data."""
    from dataclasses import replace

    from temex.evaluate import gold_text, load_site

    if DATA is None or not (DATA / "sites" / site / "site.json").is_file():
        pytest.skip(f"{site} not in the shared data")
    s = load_site(DATA / "sites" / site)
    f = s.root / path
    d = parse(f.read_bytes(), url=str(f))
    gold = gold_text(d, s.content_selector, s.template_selector)
    on = token_prf(extract_content(d).text(), gold)[2]
    return on, token_prf(extract_content(d, params=replace(ContentParams(), **off)).text(),
                         gold)[2]


def _wceb2025_page(page: str) -> tuple[Document, str]:
    """A page of the wceb2025 content set (``site/number``) and its gold
    text; the test skips when the set is not in the shared data."""
    import gzip

    folder = DATA / "content" / "wceb2025" if DATA is not None else None
    if folder is None or not (folder / f"{page}.html.gz").is_file():
        pytest.skip("wceb2025 not in the shared data")
    doc = parse(gzip.decompress((folder / f"{page}.html.gz").read_bytes()))
    return doc, (folder / f"{page}.txt").read_text(encoding="utf-8")


def test_token_prf() -> None:
    assert token_prf("a b b", "a b") == pytest.approx((2 / 3, 1.0, 0.8))
    assert token_prf("", "") == (1.0, 1.0, 1.0)
    assert token_prf("x", "")[2] == 0.0


def test_repeated_blocks_and_comments_dropped() -> None:
    nav = "<ul class='menu'><li><a href=/a>Home</a></li><li><a href=/b>About us</a></li></ul>"
    foot = "<footer><p>Copyright Example Corp, all rights reserved.</p></footer>"

    def page(body: str) -> str:
        return f"<html><body>{nav}<div class=post><h1>T{body[:5]}</h1><p>{body}</p></div>" \
               f"<div id=comments><p>Great post, thanks a lot for writing this.</p></div>{foot}</body></html>"
    texts = ["Alpha " * 40, "Beta " * 40, "Gamma " * 40]
    docs = [parse(page(t)) for t in texts]
    c = extract_content(docs[0], SiteIndex(docs))
    text = c.text()
    assert "Alpha" in text and "Home" not in text and "Copyright" not in text
    assert "Great post" not in text


def test_unparsable_page_reported(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(b"\x00\x01binary\x00" * 20)
    (tmp_path / "b.html").write_text("<html><body><p>" + "word " * 50 + "</p></body></html>")
    out = tmp_path / "out"
    ap = argparse.ArgumentParser()
    add_content_parser(ap.add_subparsers())
    args = ap.parse_args(["content", str(tmp_path), "-o", str(out)])
    assert run_content(args) == 0
    assert (out / "a.txt").read_text() == ""
    assert "word" in (out / "b.txt").read_text()
    report = json.loads((out / "report.json").read_text())
    assert report["pages"]["a.html"]["empty"] is True
    assert "binary" in report["pages"]["a.html"]["reason"]


@needs_data
@pytest.mark.parametrize("dataset,site,floor", [
    ("dragnet", "everywhereist.com", 0.95),   # comment threads must go (0.991 measured)
    ("cleanportaleval", "blogs.wsj.com", 0.95),  # 0.998 measured; page-level only: ~0.87
])
def test_floor_on_real_sites(dataset: str, site: str, floor: float) -> None:
    folder = DATA / "content" / dataset / site  # type: ignore[operator]
    res = extract_folder(folder)
    f1 = [token_prf(res.contents[f.name].text(), f.with_suffix(".txt").read_text())[2]
          for f in sorted(folder.glob("*.html"))]
    assert statistics.mean(f1) >= floor


@needs_data
def test_folder_mode_holds_one_page_at_a_time() -> None:
    """Folder mode gives each page's content as soon as it is had and keeps
    no page it gave out: while the folder is walked, no earlier page is
    alive (holding them all cost 0.6-1.3 MB a page, docs/CONTENT.md), and
    the contents are those of ``extract_folder``."""
    import gc
    import weakref

    from temex.content.folder import iter_folder

    folder = DATA / "content" / "dragnet" / "everywhereist.com"  # type: ignore[operator]
    whole = extract_folder(folder)
    earlier: list[weakref.ref[Document]] = []
    n = 0
    for name, c in iter_folder(folder):
        assert c.text() == whole.contents[name].text()
        gc.collect()
        assert not [r for r in earlier if r() is not None]
        assert c.doc is not None
        earlier.append(weakref.ref(c.doc))
        n += 1
        del c
    assert n == len(whole.contents) >= 5


def test_a_page_gone_between_the_passes_is_an_error(tmp_path: Path) -> None:
    """Folder mode reads each page twice (counted, then taken); a page that
    goes away between the two is an empty content with its reason, listed
    in the errors, and the run goes on."""
    from temex.content.folder import iter_folder

    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.html").write_text(
            f"<html><body><nav>Home About</nav><p>The page {name} says something of its "
            f"own here, in a sentence long enough to be text.</p></body></html>")
    errors: dict[str, str] = {}
    got = {}
    for name, c in iter_folder(tmp_path, errors=errors):
        got[name] = c
        if name == "a.html":
            (tmp_path / "b.html").unlink()
    assert list(got) == ["a.html", "b.html", "c.html"]
    assert "page b says" not in got["b.html"].text() and got["b.html"].reason
    assert list(errors) == ["b.html"] and "b.html" in errors["b.html"]
    assert "page c says" in got["c.html"].text()


@needs_data
def test_site_evidence_matters() -> None:
    """With the rules alone, the page scores much lower without the other pages
    of its site; the learned scorer closes that gap from the page alone
    (nhl.com is in its training data, so only floors are checked). Measured
    with the model trained on six content sets: page level 0.974, site level 0.958 (the
    site's repeated text takes a byline or date line of the gold from six of
    the eight pages; docs/CONTENT.md), rules 0.96 / 0.69."""
    folder = DATA / "content" / "dragnet" / "nhl.com"  # type: ignore[operator]
    files = sorted(folder.glob("*.html"))[:8]
    docs = [parse(f.read_bytes()) for f in files]
    gold = [f.with_suffix(".txt").read_text() for f in files]
    idx = SiteIndex(docs)
    with_site = statistics.mean(token_prf(extract_content(d, idx).text(), g)[2]
                                for d, g in zip(docs, gold))
    alone = statistics.mean(token_prf(extract_content(d, None).text(), g)[2]
                            for d, g in zip(docs, gold))
    rules = ContentParams(scorer=False)
    rules_site = statistics.mean(token_prf(extract_content(d, idx, params=rules).text(), g)[2]
                                 for d, g in zip(docs, gold))
    rules_alone = statistics.mean(token_prf(extract_content(d, None, params=rules).text(),
                                            g)[2] for d, g in zip(docs, gold))
    assert rules_site > rules_alone + 0.1
    assert alone >= 0.97 and with_site >= 0.955


@needs_data
def test_formats_on_real_page() -> None:
    folder = DATA / "content" / "big9" / "bbc"  # type: ignore[operator]
    files = sorted(folder.glob("2013-*.html"))[:4]
    docs = [parse(f.read_bytes()) for f in files]
    c = extract_content(docs[0], SiteIndex(docs), params=ContentParams())
    assert c.text() and c.markdown() and c.html().lstrip().startswith("<")
    rep = c.report()
    assert rep["empty"] is False and rep["region"].startswith("/html/body")


@needs_data
def test_own_records_are_content() -> None:
    """The posts of a forum topic and the rows of a forum listing are the
    page's content (gold convention of the evaluation data); the teaser-records and
    repeated-text rules dropped them. With site evidence, the own-records rule
    keeps them (measured on these 12 pages, mean token F1 of threads /
    listings: the rules 0.956 / 0.991, 0.763 / 0.106 with the rule off; the
    site level with the model trained on six sets, which learned record lists, 0.959
    / 0.964, 0.859 / 0.603 with the rule off; retrained in the eighteenth
    session, ``<noscript>`` read as raw text and hidden mains shown, 0.959 /
    0.964, 0.860 / 0.775: the model alone keeps more of a listing, the rule
    still adds 0.10 / 0.19)."""
    from dataclasses import replace

    from temex.content.text import text_lines
    from temex.evaluate import gold_mask, load_site

    site = load_site(DATA / "sites" / "klnet-forum")  # type: ignore[operator]
    files = (sorted(site.root.glob("showthread*.html"))[:6]
             + sorted(site.root.glob("forumdisplay*.html"))[:6])
    docs = [parse(f.read_bytes(), url=str(f)) for f in files]
    idx = SiteIndex(docs)
    golds = []
    for d in docs:
        g = gold_mask(d, site.content_selector, site.template_selector)
        golds.append("\n".join(text_lines(d, [x is False for x in g], markdown=False)))

    def f1(params: ContentParams) -> tuple[float, float]:
        s = [token_prf(extract_content(d, idx, params=params).text(), g)[2]
             for d, g in zip(docs, golds)]
        return statistics.mean(s[:6]), statistics.mean(s[6:])

    # the rule's own effect, with text on two pages repeated as when it was
    # measured (folder_repeat_share=0: with 0.2, less text is repeated and
    # the threads lose less without the rule, 0.908 against 0.940), on the
    # hand-set folder choice it was measured on (the learned decision reads
    # the rules' verdicts as one input among others)
    before = replace(ContentParams(), folder_repeat_share=0.0, site_decision=False)
    on, off = f1(before), f1(replace(before, own_records=0.0))
    assert on[0] >= 0.9 and on[1] >= 0.9
    assert on[0] > off[0] + 0.09 and on[1] > off[1] + 0.15
    now = f1(ContentParams())
    assert now[0] >= 0.9 and now[1] >= 0.9


@needs_data
def test_sidebar_widgets_are_no_records() -> None:
    """Sibling boxes of different kinds (a blog sidebar's widgets: topics,
    recent posts, contributors) are no record list even when the site index
    has not seen their text (pages of a blog that is not in the 24-page
    sample of a site that mixes templates): the article stays the main
    content. Measured: 0.99 / 0.99 / 0.93; the own-records rule without the
    scaffolding check (:func:`temex.content.records.alike`) kept the
    widgets: 0.57 / 0.58 / 0.49."""
    folder = DATA / "content" / "dragnet" / "nytimes.com"  # type: ignore[operator]
    files = sorted(folder.glob("*.html"))
    idx = SiteIndex(parse(f.read_bytes()) for f in files[:24])
    for name in ("R842.html", "R843.html", "R844.html"):
        f = folder / name
        d = parse(f.read_bytes())
        assert not idx.member(d)
        text = extract_content(d, idx, member=False).text()
        assert token_prf(text, f.with_suffix(".txt").read_text())[2] >= 0.85


@needs_data
def test_page_title_listed_in_menus_is_kept() -> None:
    """A documentation site's menu lists every page's title, so a page's own
    ``h1`` is repeated text on every page; its ``<title>`` says it is this
    page's heading, and it is kept (it was dropped before; in folder mode a
    dropped heading over its kept sibling text is kept too, so the
    counterfactual turns both off)."""
    from dataclasses import replace

    from temex.page.blocks import page_blocks

    root = DATA / "sites" / "hackingthe.cloud" / "www"  # type: ignore[operator]
    files = sorted(root.glob("aws/*/*/index.html"))[:8]
    docs = [parse(f.read_bytes(), url=str(f)) for f in files]
    idx = SiteIndex(docs)
    kept = dropped = 0
    for d in docs:
        bl = page_blocks(d)
        h1 = next(" ".join(d.text[i] for i in bl.pieces[b])
                  for b in range(len(bl)) if d.tag[bl.node[b]] == "h1")
        kept += h1 in extract_content(d, idx).text()
        off = replace(ContentParams(), own_title=False, decision_lead_headings=False)
        dropped += h1 not in extract_content(d, idx, params=off).text()
    assert kept == len(docs) and dropped >= len(docs) // 2


@needs_data
def test_a_product_title_cut_in_the_title_and_shown_twice_is_the_pages() -> None:
    """A shop's product pages (americanpillowcase-shop) hold the product's
    name in a breadcrumb's ``h1`` and again in an ``h2`` over the product,
    the collections and "related products" boxes repeat it, and the
    ``<title>`` cuts it ("... for Tie-Dyin – American Pillowcase"). The
    ``h2`` is the page's own title, not repeated text, and is kept (HEAD
    before: 4 of 31 pages). All but one page with the blended scorer: it
    gives one product's ``h2`` 0.79, just under the 0.8 that
    a block outside the region needs (the logistic scorer gave it 0.93), so
    the page level that the site level starts from leaves it out there."""
    from dataclasses import replace

    from temex.page.blocks import page_blocks

    root = DATA / "sites" / "americanpillowcase-shop" / "www"  # type: ignore[operator]
    docs = [parse(f.read_bytes(), url=str(f))
            for f in sorted(root.glob("collections/*/products/*.html"))]
    assert len(docs) >= 20
    idx = SiteIndex(docs)
    kept = dropped = 0
    for d in docs:
        bl = page_blocks(d)
        name = next(bl.joined[b] for b in range(len(bl)) if d.tag[bl.node[b]] == "h2")
        kept += name in extract_content(d, idx).text()
        # the rule's own effect on the hand-set folder choice it was built for
        dropped += name not in extract_content(d, idx, params=replace(
            ContentParams(), own_title=False, site_decision=False)).text()
    assert kept >= len(docs) - 1 and dropped >= len(docs) // 2


def test_a_heading_names_the_page_when_the_title_holds_it_or_was_cut_in_it() -> None:
    from temex.content.title import names_page

    title = "100% cotton white t0 percale wholesale bulk pillowcases for tie-dyin – american pillowcase"
    assert names_page("american pillowcase", title)  # part of it
    assert names_page("0% cotton white t0 percale wholesale bulk pillowcases for tie-dying, "
                      "silk screening", title.replace("100%", "0%"))  # cut
    assert names_page("the long post about the tides and the moon",
                      "the long post about the tid... | blog")
    # a short part does not name a heading it begins, nor a part in the middle
    assert not names_page("american pillowcase shams", title)
    assert not names_page("bulk pillowcases for tie-dying, silk screening", title)


def test_gold_text_renders_like_the_content_output() -> None:
    """The benches' gold text (temex.evaluate.gold_text) runs inline elements
    together as the extracted text does, and leaves out template and script."""
    from temex.evaluate import NoGoldError, gold_text
    from temex.page.tokens import tokens

    doc = parse("<body><nav>Menu</nav><main><p>foo<b>bar</b> baz</p><div class=share>Share"
                "</div><script>x=1</script><ul><li>one</li><li>two</li></ul></main></body>")
    text = gold_text(doc, "main", ".share")
    assert tokens(text) == ["foobar", "baz", "one", "two"]
    assert text.splitlines() == ["foobar baz", "one", "two"]
    with pytest.raises(NoGoldError):
        gold_text(doc, "article", None)


@needs_data
def test_extract_content_keeps_the_head_zone_between_title_and_text(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`temex extract -f content` on a product page: the price, quantity and
    stock lines lie between the product's title and its description (the
    heaviest text); the template mask has taken the chrome there, so the
    rules keep them (``_title_zone``), and still not the breadcrumb."""
    from temex.cli.main import main
    from temex.evaluate import gold_text, load_site, url_to_file

    assert DATA is not None
    site = load_site(DATA / "sites" / "americanpillowcase-shop")
    key = url_to_file(site.root, site.key_pages[0])
    assert main(["extract", str(key), "--pages-dir", str(site.root), "-f", "content"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    gold = gold_text(parse(key.read_bytes(), url=str(key)), site.content_selector,
                     site.template_selector)
    assert lines[0] in gold.splitlines()[0]  # the title comes first
    assert "$8.56" in lines and any(line.startswith("Availability") for line in lines)
    assert lines.index("$8.56") < next(i for i, x in enumerate(lines) if x.startswith("Add some"))
    assert not any(line.startswith("Home") for line in lines)


def _batch_content(files: list[Path]) -> list[tuple[Path, str]]:
    """Main text of ``files`` on the batch path: the sample fitted as
    ``temex batch`` does, each page under its nearest cluster's template
    text mask plus the site index (bench/eval/bench_site_content.py's ``batch``)."""
    from temex.batch.grouping import nearest
    from temex.batch.pipeline import BatchOptions, SiteTask, _fit_clusters
    from temex.batch.readers import Entry
    from temex.template.saved import apply_with_text_mask

    fit = _fit_clusters(SiteTask("s", [Entry("file", str(f), url=str(f)) for f in files], "",
                                 BatchOptions()))
    assert fit.index is not None and fit.leaders
    out = []
    for f in files:
        d = parse(f.read_bytes(), url=str(f))
        st = fit.saved[nearest(fit.leaders, d)[0]]
        assert st is not None
        tmask = apply_with_text_mask(st, d)[1]
        out.append((f, extract_content(d, fit.index, tmask, member=fit.index.member(d)).text()))
    return out


@needs_data
def test_batch_keeps_a_title_heading_of_nested_blocks() -> None:
    """A title heading that wraps its text in block elements (wikinotes:
    ``<h1><div>Tuesday, January 7, 2014<div>The stable marriage
    problem</div></div></h1>``) has no block of its own ``h1`` element, so the
    title rule found none and the batch path lost the title of every page
    whose main block starts below it (the data README: the title heading is
    content). The heading's kept blocks are added (``_title_zone``):
    measured on these 26 pages, every output starts with the page's date
    and subtitle (before: none); mean token F1 0.906 -> 0.955 (0.964 with
    the zone under the title, next test)."""
    from temex.evaluate import gold_text, load_site

    site = load_site(DATA / "sites" / "wikinotes")  # type: ignore[operator]
    files = sorted(site.root.glob("MATH_340/lecture-notes/winter-2014/*/index.html"))
    assert len(files) >= 20
    scores = []
    for f, text in _batch_content(files):
        d = parse(f.read_bytes(), url=str(f))
        h1 = next(i for i in d.in_body() if d.tag[i] == "h1")
        title = [" ".join(d.text[i].split()) for i in d.descendants(h1) if d.text[i].strip()]
        assert text.splitlines()[:len(title)] == title, f.parent.name
        scores.append(token_prf(text, gold_text(d, site.content_selector,
                                                site.template_selector))[2])
    assert statistics.mean(scores) >= 0.94


@needs_data
def test_batch_keeps_the_rows_of_a_board_whose_title_alone_was_kept() -> None:
    """A forum board of one topic (opendcl, an SMF archive): the title, the
    topic's linked title and its "Started by X · 2008-07-29 · 0 replies"
    line, repeated text once digits are normalised; one row is no list, and
    the rules kept the title alone, whose zone stopped at the region's end.
    Where nothing but the title is kept, the zone runs to where the template
    resumes (``title.title_zone``): each board's "Started by" lines are kept
    (before: none on the boards of one topic), the big boards' too."""
    from temex.evaluate import gold_text, load_site

    site = load_site(DATA / "sites" / "opendcl-forum")  # type: ignore[operator]
    files = sorted(site.root.glob("boards/*.html")) + sorted(site.root.glob("topics/*.html"))[:20]
    one_topic = kept = rows = 0
    for f, text in _batch_content(files):
        if f.parent.name != "boards":
            continue
        d = parse(f.read_bytes(), url=str(f))
        want = [x for x in gold_text(d, site.content_selector, site.template_selector).splitlines()
                if x.startswith("Started by")]
        rows += len(want)
        kept += sum(x in text for x in want)
        if len(want) == 1:
            one_topic += 1
            assert want[0] in text, f.name
    assert one_topic >= 2 and kept >= rows - 2


@needs_data
def test_batch_short_page_text_is_no_teaser() -> None:
    """A short page's own text (a linked table of contents and three short
    paragraphs, under 400 characters) sits in a ``div`` beside the ``div``
    wrappers of its breadcrumb, byline and title block: the teaser-records
    rule took it for one teaser of three and dropped it. With a template
    mask the siblings must be teasers too (``teaser_records(strict=True)``):
    measured token F1 of this page 0.348 -> 0.882 (klnet-forum's two-post
    threads and the other sites: docs/BATCH.md)."""
    from temex.evaluate import gold_text, load_site

    site = load_site(DATA / "sites" / "wikinotes")  # type: ignore[operator]
    files = sorted(site.root.glob("MATH_340/lecture-notes/winter-2014/*/index.html"))
    text = dict(_batch_content(files))
    f = next(f for f in files if f.parent.name == "tuesday-february-25")
    gold = gold_text(parse(f.read_bytes(), url=str(f)), site.content_selector,
                     site.template_selector)
    assert "idk but it has to do with" in text[f]
    assert token_prf(text[f], gold)[2] >= 0.85


@needs_data
def test_batch_keeps_the_line_under_the_title() -> None:
    """What lies between the page's title heading and its text (a byline,
    a date, wikinotes' "Maintainer: admin") is the page's own (data README),
    but the site index calls it repeated text: most pages have the same
    maintainer. On the batch path the blocks between the title heading and
    the first kept block after it that the template mask leaves (no link
    list, no negative name) are content (``_title_zone``). Measured on these
    26 pages: the maintainer line is kept on 25 (before: 0)."""
    from temex.evaluate import gold_text, load_site

    site = load_site(DATA / "sites" / "wikinotes")  # type: ignore[operator]
    files = sorted(site.root.glob("MATH_340/lecture-notes/winter-2014/*/index.html"))
    want = kept = 0
    for f, text in _batch_content(files):
        gold = gold_text(parse(f.read_bytes(), url=str(f)), site.content_selector,
                         site.template_selector)
        line = next((x for x in gold.splitlines() if x.startswith("Maintainer:")), None)
        if line is not None:
            want += 1
            kept += line in text.splitlines()
    assert want >= 20 and kept >= want - 2


@needs_data
def test_folder_mode_keeps_the_head_zone_between_title_and_text() -> None:
    """Folder mode (site index, no template mask): on a landing page whose
    heaviest text starts below a run of short kept blocks under the title,
    the rules keep that zone (``_head_zone``): token F1 0.653 without it."""
    from temex.evaluate import NoGoldError, gold_text, load_site
    from temex.page.files import html_files

    assert DATA is not None
    site = load_site(DATA / "sites" / "digitalplant")
    docs, golds = [], {}
    for f in sorted(html_files(site.root)):
        d = parse(f.read_bytes(), url=str(f))
        try:
            golds[d.url] = gold_text(d, site.content_selector, site.template_selector)
        except NoGoldError:
            continue
        docs.append(d)
    index = SiteIndex(docs[:24], hashed=True)  # as bench_site_content's folder column
    key = next(d for d in docs if d.url.endswith("/en/index.html"))
    content = extract_content(key, index, member=index.member(key))
    # 0.739 against the gold of 2026-12-03/04 (with the hand-set choice and
    # with the decision: the contact form and search box are template since);
    # above 0.9 against the gold before it
    assert token_prf(content.text(), golds[key.url])[2] > 0.73


@needs_data
def test_record_lists_find_the_posts_of_a_thread() -> None:
    """A forum thread's posts are one list of alike records (the scorer's
    record features): on klnet's threads the outermost list is the posts
    inside ``div#posts``, one record per post."""
    from temex.content.records import record_lists
    from temex.page.blocks import page_blocks

    assert DATA is not None
    root = DATA / "sites" / "klnet-forum" / "www"
    f = sorted(root.rglob("showthread*"))[1]
    doc = parse(f.read_bytes(), url=str(f))
    lists = record_lists(doc, page_blocks(doc))
    posts = doc.id.index("posts")
    inside = [m for m in lists.members if doc.is_ancestor(posts, m[0])]
    assert len(inside) == 1 and len(inside[0]) >= 3
    assert all(doc.parent[r] == doc.parent[inside[0][0]] for r in inside[0])


@needs_data
def test_no_comments_leaves_the_article_alone(tmp_path: Path) -> None:
    """``temex content FILE --no-comments`` (``ContentParams.comments``):
    the blocks inside a comment section that does not hold the article are
    left out; the article is kept. Checked through the command on a real
    blog post with two comments."""
    import subprocess
    import sys

    from temex.content.records import comment_blocks

    assert DATA is not None
    f = (DATA / "sites" / "codare-wordpress" / "www" / "2006" / "11" / "08"
         / "shell-erro-argument-list-too-long" / "index.html")
    doc = parse(f.read_bytes(), url=str(f))
    full = extract_content(doc)
    dropped = comment_blocks(doc, full.blocks, full.chosen)  # type: ignore[arg-type]
    alone = extract_content(parse(f.read_bytes(), url=str(f)),
                            params=ContentParams(comments=False))
    assert set(alone.chosen) == set(full.chosen) - dropped
    runs = {}
    for extra in ([], ["--no-comments"]):
        r = subprocess.run([sys.executable, "-m", "temex", "content", str(f), *extra],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        runs[bool(extra)] = r.stdout
    assert runs[True] == alone.text() + "\n"
    assert "Argument list too long" in runs[True]
    assert "says:" not in runs[True] and "Obrigada pela dica" not in runs[True]


@needs_data
def test_a_name_never_drops_a_listings_main_records() -> None:
    """A shop's collection pages hold their product grid in a
    ``div.grid__item.sidebar-hidden``: the names rule read "sidebar" and
    dropped the grid, the page's content by the data's convention. With
    site evidence the lists that hold most of the page's own text are found before any name is read, and no name drops them;
    measured on the batch path (token F1 before -> after): bathroom
    0.000 -> 1.000, bed-sheets 0.030 -> 0.982, towels 0.017 -> 0.989, no
    page of the shop lower. A named list that is not the page's main
    records still goes: a product page's "Related Products"."""
    from temex.evaluate import gold_text, load_site

    site = load_site(DATA / "sites" / "americanpillowcase-shop")  # type: ignore[operator]
    files = sorted(site.root.rglob("*.html"))
    text = dict(_batch_content(files))
    # the last three: products that other collections and the sidebars list
    # too (0.011 -> 0.993, 0.024 -> 0.994, 0.034 -> 0.991: the site index
    # counts each list whole, test_a_listing_whose_rows_recur_...)
    for name in ("bathroom", "bed-sheets", "towels", "pillowcases", "egyptian-cotton",
                 "brushed-microfiber"):
        f = site.root / "collections" / f"{name}.html"
        d = parse(f.read_bytes(), url=str(f))
        assert d.parser is not None
        grid = d.parser.css_first("div.sidebar-hidden")
        assert grid is not None  # the name that dropped the grid is still there
        gold = gold_text(d, site.content_selector, site.template_selector)
        # >= 0.95 before the gold of 2026-12-03/04 made the collection's
        # sort bar and result count template; 0.859-0.878 since, same code
        assert token_prf(text[f], gold)[2] >= 0.85, name
    f = next(f for f in files if "/products/body-pillowcase" in str(f)
             and "cream" in f.name)
    d = parse(f.read_bytes(), url=str(f))
    assert d.parser is not None
    related = d.parser.css_first("div.related-products-container")
    assert related is not None and "Related Products" in related.text()
    assert "Related Products" not in text[f] and "Add to Cart" not in text[f]


def _shop_page(tiles: list[str], box: list[str], title: str) -> str:
    """A collection page of a made-up shop: a menu, a product grid of
    ``tiles`` (a linked name, a price, "Add to Cart") and a "Best sellers"
    box of ``box``."""
    def tile(name: str) -> str:
        return (f'<div class="tile"><a href="/p/{name}.html">{name} pillowcase set</a>'
                f'<div class="price">$12.00</div><form><button>Add to Cart</button></form></div>')
    menu = "".join(f'<li><a href="/c/{k}.html">Collection {k}</a></li>' for k in range(5))
    return (f"<html><head><title>{title}</title></head><body><ul class='menu'>{menu}</ul>"
            f"<main><h1>{title}</h1><div class='grid'>{''.join(map(tile, tiles))}</div></main>"
            f"<aside><h4>Best sellers</h4><div class='box'>{''.join(map(tile, box))}</div>"
            f"</aside></body></html>")


def test_a_listing_whose_rows_recur_in_other_combinations_is_the_pages_own() -> None:
    """Every listing shares rows with another (a product in two collections,
    a post on its tag page and on the blog's page 3), so each row's text is
    repeated on the site while the list is the page's own; a box shown whole
    on every page is not. The site index counts each
    record list whole (:func:`temex.page.rows.list_keys`): the grid's rows
    are page-specific text for the own-records rule, the best-sellers box
    and the menu stay repeated text."""
    from temex.content.candidates import candidates, fresh_lists

    names = [f"Product {c}" for c in "ABCDEFGHIJKLM"]
    box = names[10:]
    # ten collections, each a different run of five of the first ten products
    docs = [parse(_shop_page([names[(k + j) % 10] for j in range(5)], box, f"Collection {k}"),
                  url=f"http://shop.test/c/{k}.html") for k in range(10)]
    index = SiteIndex(docs, hashed=True)
    doc = docs[0]
    cand = candidates(doc, index, [False] * len(doc), ContentParams(), member=True)
    joined = cand.blocks.joined
    fresh = fresh_lists(doc, cand.blocks, index, cand.boiler, ContentParams(), True, True)
    grid_names = [b for b, t in enumerate(joined) if t.startswith("Product")]
    assert len(grid_names) == 8  # five in the grid, three in the box
    in_grid, in_box = grid_names[:5], grid_names[5:]
    assert all(cand.boiler[b] for b in grid_names)  # every name repeats on the site
    assert all(fresh[b] and cand.specific[b] for b in in_grid)
    assert not any(fresh[b] or cand.specific[b] for b in in_box)
    menu = [b for b, t in enumerate(joined) if t.startswith("Collection")][:5]
    assert not any(cand.specific[b] for b in menu)
    # the rules keep the grid, not the box nor the menu
    text = extract_content(doc, index, [False] * len(doc), ContentParams(),
                           member=True).text()
    assert all(f"{n} pillowcase set" in text for n in names[:5])
    assert "Best sellers" not in text and "Collection 3" not in text
    assert not any(f"{n} pillowcase set" in text for n in box)
    # an index read from a file written before lists were counted: no change
    old = SiteIndex.from_dict({**index.to_dict(), "lists": False})
    assert not any(fresh_lists(doc, cand.blocks, old, cand.boiler, ContentParams(), True, True))
    assert SiteIndex.from_dict(index.to_dict()).lists


@needs_data
def test_a_blogs_archive_pages_keep_their_one_line_rows() -> None:
    """The archive pages of a blog (``/post/page/N/``: a year heading, then
    one line per post: a date and a linked title) with the site index of the
    site's first pages and no template (``temex content DIR``'s folder mode):
    the page's most text-heavy line is one of the rows, and one-line rows
    holding it were never taken for a listing, so nothing was kept (token F1
    0.000 on every page; then 0.989 on each; since ``folder_repeat_share``
    the page scorer's choice drops page 8's last row, 0.940, while the
    site's folder mean rose 0.915 -> 0.957)."""
    from temex.evaluate import gold_text, load_site
    from temex.page.files import html_files

    site = load_site(DATA / "sites" / "bgbiao-hugo-zh")  # type: ignore[operator]
    files = list(html_files(site.root))
    docs = {f: parse(f.read_bytes(), url=str(f)) for f in files}
    index = SiteIndex(list(docs.values())[:24], hashed=True)
    pages = [site.root / "post" / "page" / str(k) / "index.html" for k in (2, 5, 8)]
    for f in pages:
        d = docs[f]
        gold = gold_text(d, site.content_selector, site.template_selector)
        text = extract_content(d, index, member=index.member(d)).text()
        assert token_prf(text, gold)[2] >= 0.93, f
    # the last page holds two rows, too few for a list: under a template mask
    # (batch, crawl) every rule dropped them and the page came out empty; the
    # page's own text (neither template nor repeated) is the answer there
    d = docs[site.root / "post" / "page" / "9" / "index.html"]
    gold = gold_text(d, site.content_selector, site.template_selector)
    got = extract_content(d, index, [False] * len(d), member=index.member(d))
    assert got.stats.get("fallback") == "own text"
    assert token_prf(got.text(), gold)[2] >= 0.85  # 0.889: the year heading repeats


def test_rows_group_by_the_classes_their_siblings_share() -> None:
    """``row_groups(shared_classes=True)``: posts with classes of their own
    beside the shared ones are one list; boxes with no class in common are
    none, as with exact classes."""
    from temex.page.blocks import page_blocks, subtree_sums
    from temex.page.rows import holds_link, row_groups

    def post(k: int, tags: str) -> str:
        return (f'<div class="post hentry post-{k} {tags}"><h2><a href="/p{k}">Post {k}</a></h2>'
                f'<p>Text of post {k}.</p></div>')
    posts = post(1, "tag-php tag-web") + post(2, "tag-java") + post(3, "") + post(4, "tag-c")
    boxes = "".join(f'<div class="box{k}"><h4>Box {k}</h4><p>Text {k}.</p></div>'
                    for k in range(2, 6))
    for html, want in ((posts, 4), (boxes, 0)):
        doc = parse(f"<html><body><main>{html}</main></body></html>")
        blocks = page_blocks(doc)
        (nb,) = subtree_sums(doc, blocks, [1] * len(blocks))
        main = doc.tag.index("main")
        got = row_groups(doc, main, nb, holds_link(doc), shared_classes=True)
        assert sum(len(m) for _, m in got) == want
        assert not row_groups(doc, main, nb, holds_link(doc))  # exact classes: none


@needs_data
def test_a_blogs_category_pages_keep_every_post() -> None:
    """WordPress lists a category's posts as ``div.post.hentry.type-post``
    siblings, each with classes of its own (``post-248``, ``tag-php``): no
    two rows had the same classes, so the own-records rule saw no list and
    kept the first posts (token F1 0.33–0.47, folder mode). Rows now group
    by the classes most of their siblings share (``temex.page.rows.row_groups``);
    siblings with nothing in common (a news page's numbered boxes) still do
    not group."""
    from temex.evaluate import gold_text, load_site
    from temex.page.files import html_files

    site = load_site(DATA / "sites" / "codare-wordpress")  # type: ignore[operator]
    docs = {f: parse(f.read_bytes(), url=str(f)) for f in html_files(site.root)}
    index = SiteIndex(list(docs.values())[:24], hashed=True)
    for name in ("php", "java", "shell"):
        d = docs[site.root / "category" / name / "index.html"]
        gold = gold_text(d, site.content_selector, site.template_selector)
        for mask in (None, [False] * len(d)):  # folder mode; under a template
            text = extract_content(d, index, mask, member=index.member(d)).text()
            assert token_prf(text, gold)[2] >= 0.9, (name, mask is None)


@needs_data
def test_a_small_pages_own_text_is_kept_from_its_first_kept_block_on() -> None:
    """Under a template mask (batch, crawl) the region rule kept one of a
    talk page's four short blocks (time, title, speaker, level: token F1
    0.595 in the crawl); a page with little own text, of which the rules kept
    under half, keeps all of it from the first kept block on, so a breadcrumb
    before the title (a lecture page's "Home MATH 255 <date>", whose date
    makes it the page's own) stays out. (Since repeated text weighs nothing
    in the region, ``neutral_repeats``, the rules keep the talk page's
    blocks themselves; the fallback is checked without it, the output with
    both. Since the rules keep the title alone, the lecture page's title
    zone runs to where the template resumes, so its lines are kept before
    the fallback is asked: the fallback is checked on the talk page.)"""
    from temex.evaluate import gold_text, load_site
    from temex.page.files import html_files

    cases = (("pyconca2013-conference",
              "en/schedule/presentation/234/index.html",
              ("Built in Numb support in Python 3-4", "Christopher Lambacher", "Intermediate")),
             ("wikinotes", "MATH_255/lecture-notes/winter-2013/wednesday-february-6/index.html",
              ("Wednesday, February 6, 2013", "L'Hospital's Rule")))
    for name, rel, lines in cases:
        site = load_site(DATA / "sites" / name)  # type: ignore[operator]
        index = SiteIndex([parse(f.read_bytes(), url=str(f))
                           for f in sorted(html_files(site.root))[:24]], hashed=True)
        f = site.root / rel
        d = parse(f.read_bytes(), url=str(f))
        gold = gold_text(d, site.content_selector, site.template_selector)
        for params in (ContentParams(neutral_repeats=False), ContentParams()):
            got = extract_content(d, index, [False] * len(d), params, member=index.member(d))
            if not params.neutral_repeats and name.startswith("pyconca"):
                assert got.stats.get("fallback") == "small page's own text", name
            text = got.text().splitlines()
            assert all(line in text for line in lines), (name, text)
            assert not any(line.startswith("Home ") for line in text)
            assert token_prf(got.text(), gold)[2] >= 0.88, name  # 0.917, 1.000 (0.900 before)


@needs_data
def test_the_page_level_adds_what_the_rules_left_of_a_pages_own_text() -> None:
    """Under a template mask the rules keep the region of the densest text;
    on a landing page of short teasers (a reading prize: one sentence each)
    it kept the heading and the first sentence (token F1 0.265 in the crawl),
    and on a product page the details beside the description (0.837). Where
    the rules kept under half of the page's own text, the page level's
    choice less the template and repeated text is added
    (``temex.content.extract.page_level_added``); off, the rules alone. The
    product page no longer shows it: the blended scorer's page level keeps
    less of it (0.785) than the rules (0.837), and nothing is added."""
    cases = (("cezam-catalogue", "animations-culturelles/prix-du-roman.html", 0.75),)
    for name, rel, floor in cases:
        index, d, gold = _under_a_template(name, rel)
        f1 = {}
        for added in (False, True):
            got = extract_content(d, index, [False] * len(d), ContentParams(page_added=added),
                                  member=index.member(d))
            assert (got.stats.get("fallback") == "page level added") is added, name
            f1[added] = token_prf(got.text(), gold)[2]
        assert f1[True] >= floor > f1[False], (name, f1)  # 0.862 / 0.265


@needs_data
def test_a_posts_tag_line_is_template_under_a_template() -> None:
    """WordPress's "This entry was posted in X and tagged a, b. Bookmark the
    permalink." names each post's own categories, so no template matched by
    text holds it, and the crawl kept it on every post (the data README's
    convention: template). Under a mask, a list of links mostly of the HTML
    link types ``tag``, ``prev``, ``next`` with little text outside them is
    template (``temex.content.candidates.typed_link_chrome``, the detector's
    ``link_types`` rule); ``link_types=None`` turns it off."""
    index, d, gold = _under_a_template(
        "codare-wordpress", "2008/02/13/tcl-tk-configurar-o-encoding-de-scripts/index.html")
    got = {}
    for limit in (None, 200):
        c = extract_content(d, index, [False] * len(d), ContentParams(link_types=limit),
                            member=index.member(d))
        got[limit] = c.text()
    assert "This entry was posted in" in got[None]
    assert "This entry was posted in" not in got[200]
    assert "Configurar o encoding" in got[200]
    assert token_prf(got[200], gold)[2] > token_prf(got[None], gold)[2]


def _in_folder(site_name: str, rel: str) -> tuple[SiteIndex, Document, str, list[bool] | None]:
    """A page of a shared site as ``temex content SITE_DIR`` meets it: the
    index of every HTML file under the site's web root, the page (``rel``:
    its path under the root), its gold text and its key-page fit's mask."""
    from temex.content.folder import index_folder, key_page_mask
    from temex.evaluate import gold_text, load_site
    from temex.page.files import html_files

    site = load_site(DATA / "sites" / site_name)  # type: ignore[operator]
    index, _, _ = index_folder(html_files(site.root), site.root)
    f = site.root / rel
    d = parse(f.read_bytes(), url=str(f))
    return (index, d, gold_text(d, site.content_selector, site.template_selector),
            key_page_mask(d, f, site.root))


@needs_data
def test_links_to_the_neighbours_a_page_declares_are_template_in_folder_mode() -> None:
    """A Pipermail message declares its neighbours in ``<head>`` (``<link
    rel="Previous" href="001067.html">``) and links them, without a ``rel``,
    above and below the message: "Previous message: <a>subject</a>". The
    subject differs on every page, so no count of repeated text holds the
    lines, and ``temex content`` kept them (the data README's convention:
    previous / next links are template). A labelled link to a declared
    neighbour is typed-link chrome (``temex.template.rules.links
    .declared_neighbours``); ``link_types=None`` turns the rule off."""
    index, d, gold, mapped = _in_folder(
        "gpodder-devel-pipermail", "pipermail/gpodder-devel/2008-January/001048.html")
    got = {limit: extract_content(d, index, None, ContentParams(link_types=limit),
                                  mapped=mapped).text() for limit in (None, 200)}
    assert "Previous message:" in got[None]
    assert "Previous message:" not in got[200] and "Next message:" not in got[200]
    assert "the update has been merged into our SVN repository" in got[200]
    f1 = {limit: token_prf(text, gold)[2] for limit, text in got.items()}
    assert f1[200] >= 0.9 > f1[None], f1  # 0.907 / 0.796


@needs_data
def test_the_decision_keeps_no_tag_line_and_a_thread_whole() -> None:
    """In folder mode the learned decision reads the typed-link verdict
    among its inputs, yet kept WordPress's "This entry was posted in X.
    Bookmark the permalink." where the page model liked its text; it stays
    out after the decision (``decision_typed``). The page model keeps a
    thread's long comments and drops its short ones and its author lines;
    where it kept any, the thread is added whole (``decision_comments``;
    token F1 0.277 when only the comments it kept were added)."""
    from dataclasses import replace

    index, d, gold, mapped = _in_folder(
        "codare-wordpress", "2008/05/17/mysql-insert-com-select-na-mesma-query/index.html")
    got = {name: extract_content(d, index, None, replace(ContentParams(), **off),
                                 mapped=mapped).text()
           for name, off in (("shipped", {}), ("typed", {"decision_typed": False}),
                             ("comments", {"decision_comments": False}))}
    assert "This entry was posted in" in got["typed"]
    assert "This entry was posted in" not in got["shipped"]
    for line in ("Obrigado pela dica!", "Tarilonte says:"):
        assert line in got["shipped"].splitlines() and line not in got["comments"]
    f1 = {name: token_prf(text, gold)[2] for name, text in got.items()}
    assert f1["shipped"] > f1["typed"] and f1["shipped"] >= 0.94 > 0.5 > f1["comments"], f1
    # 0.943; 0.939 with the tag line, 0.136 without the thread


def test_a_declared_neighbour_is_no_label_of_a_contents_list_or_a_listing() -> None:
    """Only a labelled link ("Next: <a>…</a>") to a neighbour the page
    declares is series navigation: the first entry of a docs index's
    contents is the chapter the page declares as its next, and a listing's
    page 2 declares page 1, its own folder, which each row's category line
    links to; both stay content."""
    from temex.template.rules.links import declared_neighbours, link_type_chrome

    html = ('<html><head><link rel="prev" href="/docs/"><link rel="next" href="/docs/b/">'
            '<link rel="next" href="intro.html"></head><body><main>'
            '<ul class="toc"><li><a href="intro.html">Introduction</a></li>'
            '<li><a href="usage.html">Usage</a></li></ul>'
            '<p class="row">Posted in <a href="/docs/">Docs</a> on 3 May</p>'
            '<p class="text">' + 'The page says what it has to say at length. ' * 8 + '</p>'
            '<div class="nav">Next page: <a href="/docs/b/">The next one</a></div>'
            '</main></body></html>')
    d = parse(html, url="/docs/page/2/index.html")
    assert declared_neighbours(d) == {("/docs/b", ""), ("/docs/page/2/intro.html", "")}
    main = next(i for i in d.in_body() if d.tag[i] == "main")
    text = next(i for i in d.in_body() if d.classes[i] == ("text",))
    roots = link_type_chrome(d, main, [text])
    assert [d.classes[r] for r in roots] == [("nav",)]


def test_a_short_chapter_linking_only_its_neighbours_keeps_its_text() -> None:
    """The element holding the page's own text is never typed-link chrome: a
    short book chapter whose only links are its previous and next ones
    lost all its text to the rule when it was applied to the whole page
    without that guard (an mdBook site, token F1 0.989 -> 0.818)."""
    html = ('<html><body><nav class="top">Book</nav><div class="page"><main>'
            '<h1>Summary</h1><p>This chapter only says where to go next.</p></main>'
            '<a rel="prev" href="/a">Previous</a><a rel="next" href="/c">Next</a>'
            '</div></body></html>')
    d = parse(html)
    text = extract_content(d, None, [False] * len(d)).text()
    assert "This chapter only says where to go next." in text
    assert "Previous" not in text.split()


@needs_data
def test_linked_lines_between_the_regions_kept_blocks_are_kept() -> None:
    """Under a template mask the rules drop a block whose text is mostly
    link text, even between two kept blocks of the region: a speaker's page
    lost its talk's linked title (token F1 0.848), a course summary its
    table of contents (0.910). The page's own blocks between the region's
    first and last kept blocks, outside negatively named subtrees and
    teaser records, are kept (``temex.content.rules.region_gaps``);
    ``gaps=False`` turns it off."""
    cases = (("pyconca2013-conference", "en/speaker/profile/103/index.html",
              "A Bad Idea in Python"),
             ("wikinotes", "COMP_330/summary/fall-2013/midterm-review/index.html", None))
    for name, rel, line in cases:
        index, d, gold = _under_a_template(name, rel)
        text = {g: extract_content(d, index, [False] * len(d), ContentParams(gaps=g),
                                   member=index.member(d)).text() for g in (False, True)}
        if line:
            assert line not in text[False].splitlines() and line in text[True].splitlines()
        f1 = {g: token_prf(t, gold)[2] for g, t in text.items()}
        assert f1[True] >= 0.95 > f1[False], (name, f1)  # 1.000 / 0.848, 1.000 / 0.910


@needs_data
def test_text_a_page_shares_with_its_kind_does_not_shrink_the_region() -> None:
    """A talk's page is a column of short blocks (time, title, speaker,
    "Audience level:", level, "Description", text), the labels repeated on
    every talk. Weighed against the region, the labels cut it down to the
    title alone (token F1 0.512); under a template mask, text repeated on the
    site but not template weighs nothing (``ContentParams.neutral_repeats``)
    and the page's own blocks around the labels come back. The labels
    themselves stay out (repeated text)."""
    index, d, gold = _under_a_template("pyconca2013-conference",
                                       "en/schedule/presentation/107/index.html")
    text = {n: extract_content(d, index, [False] * len(d), ContentParams(neutral_repeats=n),
                               member=index.member(d)).text() for n in (False, True)}
    assert "Dana Bauer" not in text[False] and "Dana Bauer" in text[True].splitlines()
    assert "Audience level:" not in text[True]
    f1 = {n: token_prf(t, gold)[2] for n, t in text.items()}
    assert f1[True] >= 0.9 > 0.6 > f1[False], f1  # 0.915 / 0.512


@needs_data
def test_folder_mode_keeps_the_talk_pages_whose_text_the_schedule_repeats(tmp_path: Path) -> None:
    """``temex content DIR`` over a conference site: a talk's time, title
    and speaker are on the schedule and on the speaker's page too, so with
    two pages enough to call text repeated every block of 18 talk and
    speaker pages was, and they came out empty ("every text block is
    boilerplate"). Without a template mask, repeated text now needs
    ``folder_repeat_share`` of the other pages (0.2), and a page with little
    own text keeps it (``small_page_own_text``, with site evidence)."""
    import subprocess
    import sys

    site = DATA / "sites" / "pyconca2013-conference" / "www"  # type: ignore[operator]
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "temex", "content", str(site), "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "122 pages read, 122 done, 0 with no main content" in r.stderr
    talk = (out / "2013.pycon.ca/en/schedule/presentation/104/index.txt").read_text("utf-8")
    assert "Jacob Kaplan-Moss" in talk.splitlines()


def test_code_keeps_the_spaces_between_highlighted_tokens() -> None:
    """A highlighted code block (Pygments: one ``<span>`` per token, the
    spaces and line breaks between them the ``<pre>``'s own text) kept its
    tokens but not the whitespace between them: ``importtoppraasta`` for
    ``import toppra as ta``, each line one glued word (toppra-furo
    0.846 -> 0.963 token F1 of the crawl, opendcl-forum 0.961 -> 0.989)."""
    code = ('<pre><span></span><span class="linenos"> 5</span> <span class="kn">import</span> '
            '<span class="nn">toppra</span> <span class="k">as</span> <span class="nn">ta'
            '</span>\n<span class="linenos"> 6</span> <span class="kn">import</span> '
            '<span class="nn">numpy</span> <span class="k">as</span> <span class="nn">np'
            '</span>\n</pre>')
    prose = "<p>" + " ".join(f"Sentence {k} of the example explains the path." for k in
                             range(30)) + "</p>"
    d = parse(f"<html><body><main><h1>Example</h1>{prose}{code}</main></body></html>")
    c = extract_content(d, params=ContentParams(scorer=False))
    lines = c.text().splitlines()
    assert " 5 import toppra as ta" in lines and " 6 import numpy as np" in lines
    assert "import toppra as ta" in c.markdown()


@needs_data
def test_comment_thread_kept_under_a_template(tmp_path: Path) -> None:
    """With a template mask (``extract -f content``, ``batch``, ``crawl``,
    ``strip``) the rules keep one main subtree, the article; the comment
    thread beside it is added, since comments are content by the data
    convention, and the reply form is not. ``--no-comments``
    leaves the thread out. Through ``temex extract`` and ``temex batch`` on
    real blog posts with comments."""
    import shutil
    import subprocess
    import sys

    assert DATA is not None
    root = DATA / "sites" / "codare-wordpress" / "www"
    key = root / "2006" / "09" / "17" / "zero-padding" / "index.html"
    article, comment, form = "técnica do transbordo", "4.to_s.rjust", "Leave a Reply"
    runs = {}
    for extra in ([], ["--no-comments"]):
        r = subprocess.run([sys.executable, "-m", "temex", "extract", str(key), "--pages-dir",
                            str(root), "-f", "content", *extra],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        runs[bool(extra)] = r.stdout
    assert article in runs[False] and comment in runs[False] and form not in runs[False]
    assert article in runs[True] and comment not in runs[True]
    # the batch path: a folder of posts fitted and stripped
    posts = [p for p in sorted((root / "2006").rglob("index.html")) if p != key][:10]
    site = tmp_path / "site"
    site.mkdir()
    for i, p in enumerate([*posts, key]):
        shutil.copy(p, site / f"p{i}.html")
    rows = {}
    for extra in ([], ["--no-comments"]):
        out = tmp_path / ("alone" if extra else "all")
        r = subprocess.run([sys.executable, "-m", "temex", "batch", str(site), "-o", str(out),
                            "-j", "1", "-q", *extra], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        lines = [json.loads(x) for f in (out / "sites").glob("*.jsonl")
                 for x in f.read_text().splitlines()]
        rows[bool(extra)] = next(x["content"] for x in lines
                                 if x["source"].endswith(f"p{len(posts)}.html"))
    assert article in rows[False] and comment in rows[False]
    assert article in rows[True] and comment not in rows[True]


@needs_data
def test_one_line_rows_of_a_listing_are_its_content() -> None:
    """A blog's category page lists its posts one line a row (a date and a
    linked title in one block): under a template the rows are the page's
    own records when that list alone is most of the page's own text (every
    row was dropped as link text before). Through ``temex extract``; the
    sidebar lists of linked titles stay out (test above)."""
    import subprocess
    import sys

    assert DATA is not None
    root = DATA / "sites" / "bgbiao-hugo-zh" / "www"
    key = root / "categories" / "golang" / "index.html"
    r = subprocess.run([sys.executable, "-m", "temex", "extract", str(key), "--pages-dir",
                        str(root), "-f", "content"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line[:4].isdigit()]
    assert len(rows) >= 8, r.stdout
    assert "Golang中的逃逸分析" in r.stdout and "使用jwt-go验证API" in r.stdout


def test_a_name_on_most_of_the_page_names_no_part_of_it() -> None:
    """A page builder wraps every paragraph in an ``elementor-widget``: the
    negative word "widget" then names the layout the article is poured
    into, not a part of the page (:func:`temex.page.names.part_flags`); the
    sidebar's own widget, the sidebar and the menu keep their names."""
    from temex.content.features import negative_words
    from temex.page.blocks import page_blocks
    from temex.page.names import name_flags, part_flags

    para = ("<div class='elementor-widget elementor-widget-text-editor'>"
            "<div class='elementor-widget-container'><p>{}</p></div></div>")
    body = "".join(para.format(f"Section {k} of the article says a good deal about "
                               f"learning languages with apps, part {k}. " * 3)
                   for k in range(12))
    html = ("<html><body><nav class='menu'><a href='/'>Home</a><a href='/a'>About</a></nav>"
            f"<main><article>{body}</article></main>"
            "<aside class='sidebar'><div class='widget'><a href='/x'>Archives</a>"
            "<p>Subscribe to the newsletter for more.</p></div></aside></body></html>")
    doc = parse(html)
    blocks = page_blocks(doc)
    named = name_flags(doc, lambda i, c: bool(negative_words(i, c)))
    parts = part_flags(doc, negative_words, blocks.node, blocks.chars)
    widgets = [i for i in doc.in_body() if "elementor-widget" in doc.classes[i]]
    side = [i for i in doc.in_body() if doc.classes[i] in (("sidebar",), ("widget",), ("menu",))]
    assert len(widgets) == 12 and all(named[i] and not parts[i] for i in widgets)
    assert len(side) == 3 and all(named[i] and parts[i] for i in side)
    c = extract_content(doc)
    text = c.text()
    assert all(f"part {k}." in text for k in range(12))
    assert "Subscribe to the newsletter" not in text


@pytest.mark.parametrize("page", ["krioda.com/0097", "entrepreneurshq.com/1628",
                                  "derekseaman.com/0489"])
def test_articles_poured_into_named_widgets_are_kept_whole(page: str) -> None:
    """Real 2025-26 articles (wceb2025) whose every paragraph or section sits
    in an element named ``...-widget`` (Elementor) or under a body class
    with a negative word: the page level kept one section. The layout's
    words name no part of the page (:func:`temex.page.names.part_flags`).
    Token F1 before -> measured: 0.034 -> 0.959, 0.078 -> 0.998,
    0.154 -> 0.998."""
    import gzip

    folder = DATA / "content" / "wceb2025" if DATA is not None else None
    if folder is None or not (folder / f"{page}.html.gz").is_file():
        pytest.skip("wceb2025 not in the shared data")
    doc = parse(gzip.decompress((folder / f"{page}.html.gz").read_bytes()))
    gold = (folder / f"{page}.txt").read_text(encoding="utf-8")
    assert token_prf(extract_content(doc).text(), gold)[2] >= 0.93


def test_closed_dialogs_popovers_and_modal_dialogs_are_not_the_page() -> None:
    """A ``<dialog>`` without ``open``, a ``popover`` and a modal dialog
    (``aria-modal="true"``) are shown only when a script opens them: their
    text (a shop's 98,000-character refund and privacy policies, sign-in
    forms, search panels) is no block of the page, while an open dialog's
    is. Real 2025 pages (wceb2025's allbirds.com collection and product
    pages, whose policy modals outweighed the whole page), each scored by
    the model of the cross-validation fold that never saw its site: token
    F1 0.040 -> 0.846, 0.011 -> 0.580 (the shipped model: 0.846, 0.557)."""
    import gzip

    from temex.page.blocks import page_blocks

    html = ("<html><body><main><h1>Title</h1><p>The page's own text.</p>"
            "<dialog><p>A closed dialog.</p></dialog><dialog open><p>An open dialog.</p>"
            "</dialog><div popover id='menu'><p>A popover menu.</p></div>"
            "<div role='dialog' aria-modal='true'><p>A modal policy.</p></div>"
            "<div role='dialog' aria-modal='false'><p>A dialog that is no modal.</p></div>"
            "</main></body></html>")
    text = " ".join(page_blocks(parse(html)).joined)
    assert "own text" in text and "An open dialog" in text and "no modal" in text
    assert "closed dialog" not in text and "popover menu" not in text
    assert "modal policy" not in text
    folder = DATA / "content" / "wceb2025" / "allbirds.com" if DATA is not None else None
    if folder is None or not (folder / "0632.html.gz").is_file():
        pytest.skip("wceb2025 not in the shared data")
    for page, floor in (("0632", 0.82), ("0580", 0.53)):
        doc = parse(gzip.decompress((folder / f"{page}.html.gz").read_bytes()))
        gold = (folder / f"{page}.txt").read_text(encoding="utf-8")
        assert token_prf(extract_content(doc).text(), gold)[2] >= floor


def test_a_noscript_fallback_does_not_swallow_the_page() -> None:
    """``<noscript>`` is read as a browser that runs scripts reads it
    (``page.dom.SCRIPTING``): a 2026 landing page's tag-manager fallback
    ``<noscript><iframe ... /></noscript>`` (the iframe self-closed) made the
    rest of the page an iframe's text, and a 2007 article's
    ``<noscript><div id="nav"></noscript>`` (a layout for readers without
    scripts) put the article inside a ``<noscript>``. Token F1 with the
    shipped model, before and after: wceb2025's render.com 0.019 -> 0.371,
    CleanEval's socialistworker.co.uk 0.000 -> 0.919."""
    doc, gold = _wceb2025_page("render.com/2838")
    assert token_prf(extract_content(doc).text(), gold)[2] >= 0.35
    folder = DATA / "content" / "cleaneval" / "socialistworker.co.uk" if DATA else None
    if folder is None or not (folder / "final-714.html").is_file():
        pytest.skip("cleaneval not in the shared data")
    doc = parse((folder / "final-714.html").read_bytes())
    gold = (folder / "final-714.txt").read_text(encoding="utf-8")
    assert token_prf(extract_content(doc).text(), gold)[2] >= 0.9


def test_a_main_element_hidden_whole_is_a_loading_state() -> None:
    """Where every child of ``<main>`` (or of ``<body>``) that holds text is
    hidden by its own markup, the page is waiting for a script (an access
    gate, a wrapper hidden until the fonts load): those children are read as
    shown (``page.blocks.loading_state``). A hidden pop-up beside visible
    text stays hidden, and a modal never shows. The real page: wceb2025's
    deathwishcoffee.com product page, whose shop app wraps the whole product
    in ``display:none`` (token F1 0.029 -> 0.566)."""
    from temex.page.blocks import page_blocks

    def shown(html: str) -> str:
        return " ".join(page_blocks(parse(html)).joined)

    gated = ("<html><body><nav><a href='/'>Shop</a></nav><main>"
             "<div style='display:none'><h1>Dark roast</h1><p>A bold blend.</p></div>"
             "<div hidden><p>Checking your access.</p></div><script>x()</script></main>"
             "<div role='dialog' aria-modal='true' style='display:none'><p>Sign in</p></div>"
             "</body></html>")
    text = shown(gated)
    assert "A bold blend" in text and "Checking your access" in text
    assert "Sign in" not in text
    assert "A slow page" in shown("<html><body><div style='visibility: hidden'>"
                                  "<p>A slow page.</p></div></body></html>")
    open_page = ("<html><body><main><p>The article.</p>"
                 "<div style='display:none'><p>A newsletter pop-up.</p></div></main>"
                 "</body></html>")
    assert "newsletter" not in shown(open_page)
    doc, gold = _wceb2025_page("deathwishcoffee.com/0583")
    assert token_prf(extract_content(doc).text(), gold)[2] >= 0.5


#: A page of tabs: the chosen panel shown, two hidden (``hidden``, a style),
#: beside a hidden element that is no panel and a panel that is a popover.
TABS_PAGE = (
    "<html><body><main><h1>Send a message</h1><p>Pick your language.</p>"
    "<div role='tablist'><button role='tab'>Python</button><button role='tab'>Ruby</button>"
    "<button role='tab'>Go</button></div>"
    "<div role='tabpanel'><pre>client.send(body)</pre></div>"
    "<div role='tabpanel' hidden><pre>client.send_message(body)</pre></div>"
    "<section style='display: none' role='region tabpanel'><pre>client.Send(body)</pre>"
    "</section><div hidden><p>A script's hidden template.</p></div>"
    "<div role='tabpanel' popover><p>A panel that pops over.</p></div>"
    "</main></body></html>")


def test_hidden_tab_panels_are_the_page() -> None:
    """A tab panel (``role="tabpanel"``) hidden by ``hidden`` or its style
    is the page's content one click away (WAI-ARIA's tabs pattern hides
    the panels whose tab is not chosen); any other element so hidden, and
    a panel that is a popover, are not. A real 2025 quickstart
    (wceb2025's twilio.com page, its code in eight languages, seven
    hidden): token F1 0.261 -> 0.96."""
    from temex.page.blocks import page_blocks

    text = " ".join(page_blocks(parse(TABS_PAGE)).joined)
    assert "client.send(body)" in text and "send_message" in text and "client.Send" in text
    assert "hidden template" not in text and "pops over" not in text
    doc, gold = _wceb2025_page("twilio.com/0681")
    assert token_prf(extract_content(doc).text(), gold)[2] >= 0.93


def test_the_title_heading_names_the_page_and_anchors_the_region() -> None:
    """The heading that names the page is the longest ``h1``-``h3`` whose
    text is part of the ``<title>`` (a blog's ``h1`` is its name, the
    post's title an ``h2``). A region that does not hold it gives way to the
    heaviest subtree around it when that weighs at least ``ratio`` of the
    region (:func:`temex.content.region.title_region`), and only then."""
    from temex.content.region import title_region
    from temex.content.title import title_heading
    from temex.page.blocks import page_blocks, subtree_sums

    html = ("<html><head><title>Seth's Blog: The short post about tides</title></head><body>"
            "<h1>Seth's Blog</h1><div id='post'><h2>The short post about tides</h2>"
            "<p id='body'>{post}</p></div><div id='side'><ul>{side}</ul></div></body></html>")
    doc = parse(html.format(post="Tides follow the moon. " * 6,
                            side="".join(f"<li>Book number {k} of the author</li>" for k in range(12))))
    blocks = page_blocks(doc)
    title = title_heading(doc, blocks)
    assert blocks.joined[title] == "The short post about tides"
    post, side = doc.id.index("post"), doc.id.index("side")
    side_list = doc.children[side][0]
    in_post = [post <= blocks.node[b] < post + doc.size[post] for b in range(len(blocks))]
    # the sidebar's list outweighs the post, the post weighs more than half of it
    weights = [0.3 * c if p else 0.2 * c for c, p in zip(blocks.chars, in_post)]
    weights[0] = -10.0  # the site's name
    (sums,) = subtree_sums(doc, blocks, weights)
    assert title_region(doc, blocks, sums, side_list, title, 0.5) == post
    assert title_region(doc, blocks, sums, side_list, title, 0.99) == side_list
    # a region that holds the title stays
    assert title_region(doc, blocks, sums, post, title, 0.5) == post
    # no heading of 8+ characters in the <title>: no title
    other = parse(html.replace("Seth's Blog: The short post about tides</title>",
                               "Home</title>").format(post="x", side=""))
    assert title_heading(other, page_blocks(other)) == -1


@needs_data
def test_a_comment_thread_that_outweighs_a_short_post_gives_way_to_the_post() -> None:
    """A real blog post (Dragnet's johndcook.com/233): a short post and a
    long comment thread whose replies score a little above the threshold;
    the densest subtree was the thread, the post's title heading is outside
    it (``ContentParams.title_region``). Token F1 measured with the logistic
    model: 0.258 -> 0.852; the blended scorer keeps the post without it
    (0.851 either way)."""
    from dataclasses import replace

    folder = DATA / "content" / "dragnet" / "johndcook.com"  # type: ignore[operator]
    doc = parse((folder / "233.html").read_bytes())
    gold = (folder / "233.txt").read_text(encoding="utf-8")
    off = extract_content(doc, params=replace(ContentParams(), title_region=0)).text()
    assert token_prf(off, gold)[2] == pytest.approx(0.851, abs=0.01)
    assert token_prf(extract_content(doc).text(), gold)[2] >= 0.83


def test_a_streamed_segment_is_visible_a_hidden_element_is_not() -> None:
    """React's streaming server rendering sends a late part of the page as
    ``<div hidden id="S:n">`` and moves it into place with a script at once
    (:func:`temex.page.blocks.streamed_segment`): its text is the page's.
    Any other ``hidden`` element stays out. A real 2025 post (wceb2025's
    lesswrong.com page, its whole article in such a segment): token F1
    0.000 -> 1.000."""
    import gzip

    from temex.page.blocks import page_blocks

    html = ("<html><body><header><a href='/'>Site</a></header><main><template id='B:0'>"
            "</template></main><div hidden id='S:0'><article><h1>The streamed title</h1>"
            "<p>{}</p></article></div><div hidden><p>A dialog nobody opened.</p></div>"
            "<div hidden id='S:x'><p>Not a segment id.</p></div></body></html>")
    doc = parse(html.format("The article text that the script moves into place. " * 8))
    text = " ".join(page_blocks(doc).joined)
    assert "The streamed title" in text and "nobody opened" not in text
    assert "Not a segment id" not in text
    assert "moves into place" in extract_content(doc).text()
    folder = DATA / "content" / "wceb2025" / "lesswrong.com" if DATA is not None else None
    if folder is None or not (folder / "0384.html.gz").is_file():
        pytest.skip("wceb2025 not in the shared data")
    doc = parse(gzip.decompress((folder / "0384.html.gz").read_bytes()))
    gold = (folder / "0384.txt").read_text(encoding="utf-8")
    assert token_prf(extract_content(doc).text(), gold)[2] >= 0.95


def test_a_region_inside_a_list_of_records_is_the_list() -> None:
    """The densest subtree of a thread is one post; a region whose blocks
    all sit in one list of alike records is widened to the list's container
    (:func:`temex.content.region.list_region`), a region outside any list is
    left alone."""
    from temex.content.features import block_lists
    from temex.content.region import list_region
    from temex.page.blocks import page_blocks

    post = ("<div class='post'><div class='author'>user{k} wrote on day {k}:</div>"
            "<div class='message'>{text}</div></div>")
    html = ("<html><body><nav><a href='/'>Forum</a></nav><h1>A topic</h1><div id='thread'>"
            + "".join(post.format(k=k, text=f"Reply {k} says something of its own. " * (3 + k))
                      for k in range(5))
            + "</div><p>An article paragraph outside any list, long enough to count. </p>"
            "</body></html>")
    doc = parse(html)
    blocks = page_blocks(doc)
    lists = block_lists(doc, blocks)
    thread = doc.id.index("thread")
    one_post = doc.children[thread][2]
    assert list_region(doc, blocks, one_post, lists) == thread
    assert list_region(doc, blocks, doc.body, lists) == -1


@needs_data
@pytest.mark.parametrize("site_name,rel,before", [
    ("klnet-forum", "forumdisplay.php-f=68.html", 0.892),
    # 1.0 before the gold of 2026-12-03/04 (its sort bar and result count
    # are template since): 0.883 with the same code, the list rule's or not
    ("americanpillowcase-shop", "collections/sheet-sets.html", 0.883),
])
def test_the_page_level_keeps_a_listings_rows(site_name: str, rel: str, before: float) -> None:
    """A forum's topic list and a shop's collection at the page level (no
    site evidence): the scorer's region was a few rows, each row alone
    scoring as a teaser; the list it sits in is the page's
    (``ContentParams.list_region``). Token F1 measured: 0.796 -> 0.993 and
    0.906 -> 0.982 (the model retrained with ``<noscript>`` read as raw
    text and hidden mains shown; 0.776 and 0.864 with modal dialogs hidden,
    0.762 and 0.873 before). With the blended scorer 0.892 -> 0.998 and
    1.000 without it."""
    from dataclasses import replace

    _, doc, gold = _under_a_template(site_name, rel)
    off = token_prf(extract_content(doc, params=replace(ContentParams(), list_region=0)).text(),
                    gold)[2]
    on = token_prf(extract_content(doc).text(), gold)[2]
    assert off == pytest.approx(before, abs=0.01)
    assert on >= min(0.97, before - 0.005)


def _landing_page(start: str, end: str, footer: str = "<p>Copyright</p>") -> Document:
    """A made landing page: a menu, three sections (a hero with the ``h1``,
    customers, pricing) between ``start`` and ``end``, and a footer."""
    return parse(("<html><body><nav><a href='/'>Home</a></nav>" + start
                  + "<section class='hero'><h1>Build apps</h1><p>{a}</p></section>"
                  "<section class='customers'><p>{b}</p></section>"
                  "<section class='pricing'><p>{c}</p></section>" + end
                  + "<footer>" + footer + "</footer></body></html>").format(
                      a="The platform teams use. " * 6, b="Trusted by teams everywhere. " * 6,
                      c="Plans for every team size. " * 6))


def test_a_region_under_half_of_the_main_elements_likely_text_is_the_main_element() -> None:
    """``region.main_region``: the nearest ``<main>`` (or ``role=main``)
    above the region, else the page's only one when the region lies outside
    it, when the region keeps under half of what main holds from the
    threshold on; a region holding most of it stays."""
    from temex.content.region import main_elements, main_region
    from temex.page.blocks import page_blocks

    doc = _landing_page("<main>", "</main>")
    blocks = page_blocks(doc)
    main = doc.tag.index("main")
    hero = doc.children[main][0]
    probs = [0.9 if doc.tag[blocks.node[b]] in ("h1", "p") and
             hero <= blocks.node[b] < hero + doc.size[hero] else 0.3
             for b in range(len(blocks))]
    mains = main_elements(doc)
    assert main_region(doc, blocks, probs, hero, 0.5, mains, 0.2) == main
    # the same region holding most of what main holds is left alone
    assert main_region(doc, blocks, probs, hero, 0.5, mains, 0.95) == -1
    # a region outside the page's only main element is judged against it
    footer = doc.tag.index("footer")
    assert main_region(doc, blocks, probs, footer, 0.5, mains, 0.2) == main
    assert main_region(doc, blocks, [0.9] * len(blocks), footer, 0.5, mains, 0.95) == -1
    # outside two main elements, or holding the main element: left alone
    nav = doc.tag.index("nav")
    assert main_region(doc, blocks, probs, footer, 0.5, mains | {nav}, 0.2) == -1
    assert main_region(doc, blocks, probs, doc.body, 0.5, mains, 0.2) == -1


def test_a_landing_page_without_main_has_its_sections_parent_for_main() -> None:
    """``region.main_elements(doc, sections)``: where the page declares no
    ``<main>``, an element with ``sections`` or more ``<section>`` children
    is its main element, and the region widens to it as to ``<main>``; a
    declared ``<main>`` wins, and two sections are not enough for 3."""
    from temex.content.region import main_elements, main_region
    from temex.page.blocks import page_blocks

    footer = "<section><p>Copyright</p></section>"
    doc = _landing_page("<div id='page'>", "</div>", footer)
    page = doc.id.index("page")
    assert main_elements(doc) == frozenset()
    assert main_elements(doc, 3) == {page}
    assert main_elements(doc, 4) == frozenset()
    blocks = page_blocks(doc)
    hero = doc.children[page][0]
    probs = [0.9 if hero <= blocks.node[b] < hero + doc.size[hero] else 0.3
             for b in range(len(blocks))]
    assert main_region(doc, blocks, probs, hero, 0.5, main_elements(doc, 3), 0.2) == page
    declared = _landing_page("<main><div id='page'>", "</div></main>", footer)
    assert main_elements(declared, 3) == {declared.tag.index("main")}


@pytest.mark.parametrize("page,before", [("gymprovisions.com/0194", 0.397),
                                         ("fau.edu/0076", 0.984)])
def test_a_landing_page_of_sections_without_main_keeps_its_sections(page: str,
                                                                      before: float) -> None:
    """Real 2025-26 service pages (wceb2025) without a ``<main>``: the
    densest subtree was one of their sections; their sections' parent is
    their main element (``ContentParams.main_sections``). Token F1 with the
    shipped model: 0.397 -> 0.901 and 0.179 -> 0.899 (by the fold models
    that never saw the sites: 0.471 -> 0.901, 0.179 -> 0.867). The blended
    scorer: 0.397 -> 0.893, and fau.edu 0.984 without it."""
    from dataclasses import replace

    doc, gold = _wceb2025_page(page)
    off = extract_content(doc, params=replace(ContentParams(), main_sections=0)).text()
    assert token_prf(off, gold)[2] == pytest.approx(before, abs=0.01)
    assert token_prf(extract_content(doc).text(), gold)[2] >= 0.85


def test_the_titles_article_where_the_scorer_kept_little_of_it() -> None:
    """``region.title_article``: the ``<article>`` around the first ``h1``
    becomes the region, with all its blocks, where the choice kept nothing
    beyond the heading or a region inside it holding under half of its
    text; a choice holding most of the article, or a page without one,
    is left alone."""
    from temex.content.region import title_article
    from temex.page.blocks import page_blocks

    html = ("<html><body><nav><a href='/'>Home</a></nav><article class='item'>"
            "<div class='theme'>Staff council</div><h1>Budgets of the council</h1>"
            "<div class='town'>Auray</div><p>{p}</p><ul class='tabs'><li>Contact</li></ul>"
            "</article><footer><p>Legal notice</p></footer></body></html>").format(
                p="What the law changes for the budgets, in one day. " * 2)
    doc = parse(html)
    blocks = page_blocks(doc)
    art = doc.tag.index("article")
    inner = [b for b in range(len(blocks)) if art <= blocks.node[b] < art + doc.size[art]]
    h1 = next(b for b in inner if doc.tag[blocks.node[b]] == "h1")
    assert title_article(doc, blocks, [h1], doc.body) == (inner, art)
    assert title_article(doc, blocks, [], doc.body) == (inner, art)
    line = next(b for b in inner if doc.tag[blocks.node[b]] == "p")
    # the paragraph is most of the article: nothing changes
    assert title_article(doc, blocks, [line], blocks.node[line]) == ([line], blocks.node[line])
    no_article = parse(html.replace("article", "div"))
    nb = page_blocks(no_article)
    assert title_article(no_article, nb, [], no_article.body) == ([], no_article.body)


@needs_data
@pytest.mark.parametrize("rel,before,after", [
    # against the gold of 2026-12-03/04 (the course pages' tab bar is template
    # since; same code): 0.526 -> 0.875 and 0.864 either way; before it
    # 0.435 -> 1.000 and 0.875 either way
    ("catalogue-formation/334004.html", 0.526, 0.87),
    ("catalogue-formation/334301.html", 0.864, 0.86)])
def test_an_item_page_of_short_blocks_keeps_its_article(rel: str, before: float,
                                                        after: float) -> None:
    """Course pages of the French catalogue at the page level: a theme, the
    title, a town, a line of description and a contact tab, each scoring
    as chrome would; the scorer kept the title or the line alone. The
    ``<article>`` around the title is the item (``ContentParams.title_article``).
    Token F1 measured: 0.364 -> 1.000 and 0.579 -> 1.000 with the logistic
    scorer; with the blended one 0.435 -> 1.000, and 0.875 either way."""
    from dataclasses import replace

    from temex.evaluate import gold_text, load_site

    site = load_site(DATA / "sites" / "cezam-catalogue")  # type: ignore[operator]
    f = site.root / rel
    doc = parse(f.read_bytes(), url=str(f))
    gold = gold_text(doc, site.content_selector, site.template_selector)
    off = extract_content(doc, params=replace(ContentParams(), title_article=False)).text()
    assert token_prf(off, gold)[2] == pytest.approx(before, abs=0.01)
    assert token_prf(extract_content(doc).text(), gold)[2] >= after


@pytest.mark.parametrize("page,before,after", [("zapier.com/0699", 0.870, 0.86),
                                               ("airtable.com/2841", 0.608, 0.92)])
def test_a_landing_page_of_unlike_sections_keeps_its_main_element(page: str, before: float,
                                                                   after: float) -> None:
    """Real 2025-26 landing pages (wceb2025): the densest subtree is one
    section, the others short and promotional; the page's ``<main>`` holds
    them all (``ContentParams.main_region``). Token F1 measured at the page
    level: 0.388 -> 0.969 and 0.406 -> 0.937 (0.427 before the model was
    retrained with modal dialogs hidden) with the logistic scorer. With the
    blended one: 0.608 -> 0.946 on airtable; on zapier the region is the
    ``<main>`` without the rule and 0.870 either way (the blend scores its
    short sections under the threshold: recall 0.956 -> 0.781)."""
    from dataclasses import replace

    doc, gold = _wceb2025_page(page)
    off = extract_content(doc, params=replace(ContentParams(), main_region=0)).text()
    assert token_prf(off, gold)[2] == pytest.approx(before, abs=0.01)
    assert token_prf(extract_content(doc).text(), gold)[2] >= after


def test_headed_table_rows() -> None:
    """``records.headed_table_rows``: the rows of a table whose first row
    holds a ``th`` (in ``thead`` or not); a table without headers has none."""
    from temex.content.records import headed_table_rows

    doc = parse("<html><body><table><thead><tr><th>Rank</th><th>Title</th></tr></thead>"
                "<tbody><tr><td>1</td><td><a href=/a>A</a></td></tr>"
                "<tr><td>2</td><td><a href=/b>B</a></td></tr></tbody></table>"
                "<table><tr><td><a href=/c>C</a></td></tr><tr><th>late header</th></tr></table>"
                "</body></html>")
    rows = headed_table_rows(doc)
    trs = [i for i in range(len(doc)) if doc.tag[i] == "tr"]
    assert rows == frozenset(trs[:3])


@needs_data
def test_a_ranking_tables_linked_rows_are_content_under_a_template() -> None:
    """A magazine's ranking page: a table with named columns (rank, last
    rank, title) whose title cells are links to the ranked articles. As a
    list of linked rows it read as teasers and navigation, and the page kept
    its intro alone. Under a mask, a headed table's rows are data
    (``ContentParams.data_tables``): token F1 here (empty mask, the site
    index of 24 pages) 0.243 -> 0.848, as in the crawl, with the logistic
    scorer. With the blended one the page level that the rules add to keeps
    the rows by itself: 0.976 off, 0.848 on (the rule now costs here; kept
    for the crawl's figure, to be chosen again with the blend)."""
    index, d, gold = _under_a_template(
        "rubima-magazine", "articles/0054/0054-RubyistMagazineRanking.html")
    got = {}
    for on in (False, True):
        c = extract_content(d, index, [False] * len(d), ContentParams(data_tables=on),
                            member=index.member(d))
        got[on] = token_prf(c.text(), gold)[2]
    assert "プログラマーのための YAML 入門" in extract_content(
        d, index, [False] * len(d), member=index.member(d)).text()
    assert got[True] >= 0.83 and got[False] >= 0.95, got


def test_a_products_options_are_content_and_other_form_lists_are_not() -> None:
    """The convention counts a product's options as its content: the short
    lists of a form that orders (it posts, asks for no typed text) are
    shown; a search panel's lists (a form that queries), a sign-up form's
    (typed fields) and lists outside any form (a currency switch) stay
    hidden (:func:`temex.page.blocks.shown_controls`). Under a template
    the product page's token F1 goes 0.933 -> 0.984 with its options."""
    from temex.page.blocks import page_blocks, shown_controls

    root = DATA / "sites" / "americanpillowcase-shop" / "www"  # type: ignore[operator]
    (f,) = root.glob("collections/pillowcases/products/american-pillowcase-white-standard-*.html")
    d = parse(f.read_bytes(), url=str(f))
    shown = shown_controls(d)
    options = [i for i in shown if d.tag[i] == "option"]
    assert options and all(d.tag[d.parent[i]] == "select" for i in options)
    assert "USD" not in {d.text[i].strip() for i in shown}  # the currency switch
    blocks = page_blocks(d)
    assert all(blocks.block_of[i] >= 0 for i in options if d.text[i].strip())
    # kept as batch and crawl meet the page, under a template
    index, page, gold = _under_a_template("americanpillowcase-shop", f.relative_to(root).as_posix())
    got = extract_content(page, index, [False] * len(page), member=index.member(page)).text()
    assert sum(d.text[i].strip() in got for i in options) == len(options)
    assert token_prf(got, gold)[2] >= 0.95
    # a search panel that queries (method="get"): nothing shown
    events = DATA / "sites" / "openehr-org-archive" / "www" / "news_events" / "events"  # type: ignore[operator]
    e = parse((events / "index.html?page=6.html").read_bytes())
    assert "option" in e.tag and not shown_controls(e)
    # a form that posts but asks for typed text (a job application)
    w, _ = _wceb2025_page("pwc.com/0710")
    assert "option" in w.tag and not shown_controls(w)


@needs_data
def test_navigation_links_are_no_content() -> None:
    """A short documentation page beside a long table of contents in a
    ``<nav>``: the scorer, which learned that lists of short linked items are
    a listing's rows, kept the table of contents over the page's few lines.
    Links in the page's navigation (``<nav>``, ``role="navigation"``) are
    never content now."""
    now, before = _on_and_off("hackingthe.cloud",
                              "aws/general-knowledge/iam-key-identifiers/index.html",
                              navigation=False)
    assert now >= 0.85 and before < 0.5


def test_navigation_blocks_are_nav_and_aria_navigation_links() -> None:
    from temex.content.rules import link_density_ok, navigation_blocks
    from temex.page.blocks import page_blocks

    html = (b"<html><body><nav><ul><li><a href=/a>Chapter one</a></li></ul></nav>"
            b"<div role=' Navigation '><p><a href=/b>Chapter two</a></p></div>"
            b"<nav><p>A line of text with <a href=/c>one link</a> in it.</p></nav>"
            b"<ul><li><a href=/d>A listing row</a></li></ul>"
            b"<p>The page's own text.</p></body></html>")
    d = parse(html)
    bl = page_blocks(d)
    flags = navigation_blocks(d, bl, link_density_ok(d, bl, 0.5))
    texts = [" ".join(d.text[i] for i in bl.pieces[b]) for b in range(len(bl))]
    assert [t for t, x in zip(texts, flags) if x] == ["Chapter one", "Chapter two"]


def test_batch_code_examples_with_a_run_link_are_no_teasers(tmp_path: Path) -> None:
    """Generated API documentation (rustdoc) gives every code example a
    linked "Run" button in the same wrapper: alike siblings of two blocks,
    one a link, under 400 characters, which the teaser-records rule took for
    a list of related links, and the batch path dropped every example (the
    Rust standard library's ``Vec`` page, docs/CONTENT.md). A record that
    holds code is no teaser; a real list of teasers still is. (Where the
    examples hold most of the page's own text they are its own records and
    were kept: here the prose holds most of it.)"""
    def page(name: str) -> str:
        examples = "".join(
            f'<p>Example {k} of {name}:</p><div class="example-wrap"><pre class="rust">'
            f"let v{k} = {name}::new();\nv{k}.push({k});</pre>"
            '<a class="test-arrow" href="https://play.example/">Run</a></div>'
            for k in range(3))
        prose = "".join(f"<p>The {name} type, part {k}: it holds values of the {name} kind,"
                        f" grows as they come and gives them back in the order of {name}s;"
                        " this part tells how to build, fill and empty one.</p>"
                        for k in range(6))
        related = "".join(f'<div class="teaser"><a href="/{name}{k}.html">Related story {k}'
                          f"</a><p>A line about story {k}.</p></div>" for k in range(3))
        return (f"<html><head><title>{name}</title></head><body>"
                '<nav><a href="/">Home</a> <a href="/a.html">A</a> <a href="/b.html">B</a></nav>'
                f"<main><h1>Struct {name}</h1>{prose}"
                f"{examples}<div>{related}</div></main>"
                "<footer><p>Built by the project's documentation tool.</p></footer></body></html>")

    files = []
    for name in ("Vec", "Deque", "Heap", "Queue"):
        f = tmp_path / f"{name}.html"
        f.write_text(page(name), encoding="utf-8")
        files.append(f)
    text = dict(_batch_content(files))[files[0]]
    assert all(f"v{k}.push({k});" in text for k in range(3))
    assert "Related story" not in text


def test_a_headings_anchor_id_names_no_part_of_the_page() -> None:
    """Docs generators give every heading the id of its text: "Literate nav
    syntax" is ``h2#literate-nav-syntax``, "Sharing data" a Sphinx
    ``section#sharing-data``; the negative-name rule read ``nav`` and
    ``sharing`` and the rules (batch, crawl, extract) dropped the sections'
    headings or the sections. On a page whose headings have such ids (three
    or more) an id that is its heading's slug names no part; a hand-written
    ``div#comments`` under "Comments" on a page without them still does."""
    from temex.content.rules import _negative_words, named_subtrees
    from temex.page.blocks import page_blocks

    body = "".join(f"<p>Paragraph {k} of a documentation page, long enough to be text.</p>"
                   for k in range(3))
    docs = parse("<html><body><main><h1 id='reference'>Reference</h1>"
                 f"<h2 id='literate-nav-syntax'>Literate nav syntax<a href='#x'>#</a></h2>{body}"
                 f"<section id='sharing-data-2'><h2>Sharing data</h2>{body}</section>"
                 f"<h2 id='config'>Config</h2>{body}</main>"
                 "<div id='sidebar'><h2>Sidebar</h2><p>Chrome.</p></div></body></html>")
    blog = parse(f"<html><body><main><h1>A post</h1>{body}</main><div id='comments'>"
                 f"<h2>Comments</h2><p>A reader's comment on the post.</p></div></body></html>")
    for doc, kept, dropped in ((docs, ["Literate nav syntax #", "Sharing data"], ["Chrome."]),
                               (blog, [], ["Comments"])):
        bl = page_blocks(doc)
        texts = [" ".join(doc.text[i] for i in bl.pieces[b]) for b in range(len(bl))]
        good = [True] * len(bl)
        with_anchors = named_subtrees(doc, bl, good, anchors=True)
        named = {t for b, t in enumerate(texts) if with_anchors[bl.node[b]]}
        assert not named & set(kept) and set(dropped) <= named, named
        before = named_subtrees(doc, bl, good)
        assert all(before[bl.node[texts.index(t)]] for t in kept)
    assert _negative_words("literate-nav-syntax", ())  # the word the rule reads


def test_a_shops_up_sells_and_cross_sells_are_named_chrome() -> None:
    """A shop's up-sells and cross-sells are recommended items, template by
    the data convention (like related products): WooCommerce writes
    ``section.up-sells.upsells.products`` under a product and
    ``div.cross-sells`` in the cart, Magento ``div.block.upsell`` and
    ``div.block.crosssell``. Each is a named subtree for the rules, as
    ``section.related.products`` was; the product's own text is not."""
    from temex.content.rules import named_subtrees
    from temex.page.blocks import page_blocks

    cards = "".join(f"<li class='product'><h2>Headphones {k}</h2><span>$ {k}9.00</span></li>"
                    for k in range(3))
    for box in ("<section class='up-sells upsells products'><h2>You may also like</h2>",
                "<div class='cross-sells'><h2>You may be interested in</h2>",
                "<div class='block upsell'><h2>We found other products</h2>",
                "<div class='block crosssell'><h2>More choices</h2>"):
        close = "</section>" if box.startswith("<section") else "</div>"
        doc = parse("<html><body><main><div class='product'><h1>Black headphones</h1>"
                    "<p>Closed headphones with a long cable, for the studio and the road.</p>"
                    f"</div>{box}<ul>{cards}</ul>{close}</main></body></html>")
        bl = page_blocks(doc)
        texts = [" ".join(doc.text[i] for i in bl.pieces[b]) for b in range(len(bl))]
        named = named_subtrees(doc, bl, [True] * len(bl))
        got = {t for b, t in enumerate(texts) if named[bl.node[b]]}
        assert "Headphones 1" in got and "Black headphones" not in got, (box, got)


def test_a_text_free_inline_element_is_the_space_between_its_words() -> None:
    """An inline element without text or elements inside (``<span> </span>``,
    ``<b> </b>``) belongs to no block; directly in a kept element it is
    kept, so that its whitespace still parts the words around it: Sphinx
    writes a C signature as ``<span>int</span><span class="w"> </span>
    <span>foo</span>``, and a 2025 help page (wceb2025's bcbsok.com page)
    links "the <a>Apple App Store</a>" with the space in a span of its own.
    Both writers, with and without the compiled kernel (tests/test_kernel.py
    compares them)."""
    html = ("<html><body><article><h1>Coroutine objects</h1><p>Coroutine objects are what "
            "functions declared with an async keyword return, in every version.</p>"
            "<dl><dt><span>int</span><span class='w'> </span><span>PyCoro_CheckExact</span>"
            "(<em>ob</em>)</dt><dd><p>Return true if its type is right<b> </b>and never fails "
            "at all.</p></dd></dl><p><code>a</code><span> </span><code>b</code> are two of "
            "them here.</p></article></body></html>")
    content = extract_content(parse(html))
    text = content.text()
    assert "int PyCoro_CheckExact(ob)" in text
    assert "right and never" in text and "a b are two" in text
    assert "`a` `b` are two" in content.markdown()
    doc, gold = _wceb2025_page("bcbsok.com/0344")
    text = extract_content(doc).text()
    assert "makes iPhones" in text and "the Apple App Store" in text
    assert "makesiPhones" not in text


def test_permalinks_are_left_out_of_text_and_markdown() -> None:
    """A heading's or an entry's link to itself (Sphinx's and MkDocs' ``¶``,
    Docusaurus' zero-width link, an icon font's glyph, Haddock's ``#``) is
    not written: an ``<a>`` pointing at the fragment of an element within
    three levels above it, whose text holds no letter or digit. A link to its own section
    that says something, and a symbol linking elsewhere, stay. Real pages:
    wceb2025's Ansible (icon glyph) and Docusaurus (zero-width) documentation."""
    html = ("<html><body><article><section id='usage'><h1>Usage of the tool"
            "<a class='headerlink' href='#usage'>\u00b6</a></h1><p>The tool reads a page and "
            "writes its text, and this paragraph says so at length.</p>"
            "<dl><dt id='c.run'><span>int</span><span> </span><span>run</span>()"
            "<a href='#c.run'>\u00b6</a></dt><dd><p>Runs it, every time it is asked to run "
            "<a href='#other'>\u00a7</a>.</p></dd></dl>"
            "<p><span>data</span> <a id='t:Maybe'>Maybe</a> a <a href='#t:Maybe'>#</a> holds "
            "an optional value; the type is used where a value may be missing.</p>"
            "<h2 id='next'>Next steps<a href='#next'>\u200b</a></h2><p>More text of the page "
            "follows here, <a href='#usage'>back to usage</a>.</p></section></article>"
            "<p id='other'>x</p></body></html>")
    content = extract_content(parse(html))
    md = content.markdown()
    assert "# Usage of the tool\n" in md and "int run()\n" in md and "## Next steps\n" in md
    assert "data Maybe a holds" in md
    assert "\u00b6" not in md and "\u200b" not in md and "\u00b6" not in content.text()
    assert "[back to usage](#usage)" in md and "[\u00a7](#other)" in md
    for page, heading in (("ansible.com/0687", "# Ansible playbooks\n"),
                          ("docusaurus.io/0675", "## Fast Track \u23f1\ufe0f\n")):
        doc, _ = _wceb2025_page(page)
        md = extract_content(doc).markdown()
        assert heading in md and "[](#" not in md and "[\u200b](#" not in md


def test_a_permalink_that_is_its_own_anchor_is_left_out() -> None:
    """An HTML 4 anchor on the permalink itself (``<a href="#usage"
    name="usage">``, as wikinotes' Markdown writes every heading's) points
    at the link: a permalink like one to its heading's ``id``."""
    html = ("<html><body><article><h1>Guide</h1><h2>Usage<a class='headerlink' "
            "href='#usage' name='usage'>\u00b6</a></h2><p>The tool reads a page and writes "
            "its text, and this paragraph says so at length for the reader.</p>"
            "</article></body></html>")
    from temex.page.permalinks import permalinks

    doc = parse(html)
    assert permalinks(doc) == [doc.positions("a")[0]]
    assert "\u00b6" not in extract_content(doc).text()


def test_read_more_links_are_left_out_of_text_and_markdown() -> None:
    """A listing entry's short link to the entry it closes ("Read more",
    "Continue reading", "vai al post") is template by the data README's
    convention and is not written: an ``<a>`` pointing where the link of a
    heading before it in the same entry points, with a short text, no digit
    and no ``<time>`` (the entry's date, linked to it, stays), that nothing
    of its block follows. A short link to the entry that a sentence goes on
    after, a "Read more" pointing elsewhere, and the title itself stay."""
    from temex.content.text import text_lines
    from temex.page.readmore import read_more_links

    def entry(n: int) -> str:
        return (f"<article><h2><a href='/post-{n}/'>Post number {'one two'.split()[n - 1]}"
                f"</a></h2><a href='/post-{n}/'><time>May {n}, 2024</time></a>"
                f"<p>The teaser of this post says what the post is about, at length "
                f"for the reader of the listing.</p><div><a href='/post-{n}/'>Read more"
                f"</a></div></article>")

    html = ("<html><body><main><h1>Blog</h1>" + entry(1) + entry(2)
            + "<article><h2><a href='/post-3/'>Post three</a></h2><p>See <a href='/post-3/'>"
            "the post</a> for the whole story of the third post.</p><p><a href='/elsewhere/'>"
            "Read more</a></p></article></main></body></html>")
    doc = parse(html, url="https://example.org/blog/")
    found = read_more_links(doc)
    assert [doc.subtree_text(a) for a in found] == ["Read more", "Read more"]
    assert all(doc.attrs[a] and dict(doc.attrs[a])["href"].startswith("/post-") for a in found)
    # the writers, given the whole page
    keep = [True] * len(doc)
    text = "\n".join(text_lines(doc, keep, False))
    md = "\n".join(text_lines(doc, keep, True))
    assert "Post number one" in text and "May 2, 2024" in text and "the post" in text
    assert text.count("Read more") == 1 and md.count("Read more") == 1
    assert "[Read more](https://example.org/elsewhere/)" in md
    # a single article whose title links to itself has nothing to close
    single = parse("<html><body><article><h1><a href='/a/'>Title</a></h1><p>Body text of "
                   "the page, long enough to be read as the page's own content.</p>"
                   "<p><a href='/a/'>Permalink</a> and more words after it.</p></article>"
                   "</body></html>", url="https://example.org/a/")
    assert read_more_links(single) == []


@needs_data
def test_a_listings_read_more_links_are_left_out() -> None:
    """A WordPress category page ends each of its ten entries with "vai al
    post" (``a.more-link``), which the page level kept: token F1 0.953 of
    the page alone, 0.966 without them; titles and dates stay."""
    from temex.evaluate import gold_text, load_site

    site = load_site(DATA / "sites" / "cookwithtina-recipes")  # type: ignore[operator]
    f = site.root / "category" / "desserts" / "index.html"
    d = parse(f.read_bytes(), url=str(f))
    text = extract_content(d).text()
    assert "vai al post" not in text and "Vegan Carrot Doughnut" in text
    assert token_prf(text, gold_text(d, site.content_selector, site.template_selector))[2] >= 0.96


def test_in_page_tables_of_contents_are_left_out_of_text_and_markdown() -> None:
    """A generated list of links to the page's own sections (Python-Markdown's
    ``div.toc``, kramdown's ``ul#markdown-toc``, MediaWiki's ``#toc``) is
    template by the data README's convention and is not written: a ``<ul>``
    or ``<ol>`` with three links or more, each to the fragment of an element
    outside it, and no letter outside its links. A footnote list (each
    note's text beside its back-link), a two-link "top / bottom" pair, a
    list of links to other pages and a sentence with an in-page link stay."""
    from temex.page.tocs import tocs

    html = ("<html><body><article><h1>Guide to the tool</h1>"
            "<div class='box'><ul><li><a href='#usage'>1 Usage</a><ul>"
            "<li><a href='#flags'>1.1 Flags</a></li></ul></li>"
            "<li><a href='#limits'>2 Limits</a></li></ul></div>"
            "<ul><li><a href='#usage'>Top</a></li><li><a href='#notes'>Bottom</a></li></ul>"
            "<h2 id='usage'>Usage</h2><p>The tool reads a page and writes its text, "
            "and this paragraph says so at length for the reader.</p>"
            "<h3 id='flags'>Flags</h3><p>Every flag is optional and has a default that "
            "suits most pages of most sites.</p>"
            "<h2 id='limits'>Limits</h2><ul><li>See <a href='#usage'>usage</a> first for the "
            "basics of the tool.</li><li><a href='/other.html'>Other page</a></li>"
            "<li><a href='/third.html'>Third page</a></li></ul>"
            "<ol id='notes'><li id='fn1'>A note on the tool's history <a href='#r1'>\u21a9</a>"
            "</li><li id='fn2'>A second note <a href='#r2'>\u21a9</a></li>"
            "<li id='fn3'>A third note <a href='#r3'>\u21a9</a></li></ol>"
            "<p>Refs <a id='r1'>1</a> <a id='r2'>2</a> <a id='r3'>3</a></p>"
            "</article></body></html>")
    doc = parse(html)
    assert tocs(doc) == [doc.positions("ul")[0]]  # the contents list alone, whole
    content = extract_content(doc)
    text, md = content.text(), content.markdown()
    for written in (text, md):
        assert "1.1 Flags" not in written and "2 Limits" not in written
        assert "Flags\n" in written and "Limits\n" in written
        assert "A note on the tool" in written and "See [usage](#usage) first" in md


@needs_data
def test_the_shared_sites_tables_of_contents_are_their_gold_template() -> None:
    """On real pages: a Python-Markdown contents box (wikinotes) and kramdown's
    ``ul#markdown-toc`` (rubima-magazine) are found whole, inside the gold's
    template, and their entries are not written."""
    from temex.evaluate import gold_mask, load_site
    from temex.page.tocs import tocs

    for site_name, rel, entry in (
            ("wikinotes", "MATH_235/summary/fall-2012/practice-final/index.html",
             "1.1 Solution"),
            ("rubima-magazine", "articles/0040/0040-CodePostMortem.html", "コードを見る")):
        site = load_site(DATA / "sites" / site_name)  # type: ignore[operator]
        doc = parse((site.root / rel).read_bytes(), url=str(site.root / rel))
        gold = gold_mask(doc, site.content_selector, site.template_selector)
        (root,) = tocs(doc)
        assert all(gold[j] is not False for j in doc.descendants(root))
        entries = [doc.text[i] for i in doc.descendants(root) if doc.tag[i] == "a"]
        assert "\u00b6" not in extract_content(doc).text()  # wikinotes: <a name> permalinks
        assert entry in entries
        # the entry's heading is written once, the entry itself not at all
        assert extract_content(doc).text().splitlines().count(entry) == (
            0 if entry[0].isdigit() else 1)
    # MediaWiki's contents box as a static mirror writes it: each link is the
    # page's own address with the fragment ("Counter.html#Value")
    site = load_site(DATA / "sites" / "clickwiki-wiki")  # type: ignore[operator]
    f = site.root / "wiki" / "Counter.html"
    doc = parse(f.read_bytes(), url=str(f))
    gold = gold_mask(doc, site.content_selector, site.template_selector)
    (root,) = tocs(doc)
    assert all(gold[j] is not False for j in doc.descendants(root))
    lines = extract_content(doc).text().splitlines()
    assert "Value" in lines and not any(x.startswith("1.1 ") for x in lines)


def test_line_number_gutters_are_left_out_of_text_and_markdown() -> None:
    """The numbers column of a highlighted code block in table form
    (Pygments' ``linenos="table"``, Hugo's Chroma) is template by the data
    README's convention and is not written: a ``<td>`` saying two or more
    consecutive whole numbers and nothing else, followed by a ``<td>``
    holding a ``<pre>``. A table numbering its rows (a number a cell) and a
    numbers cell beside plain text stay; the code stays."""
    from temex.page.linenos import gutters

    html = ("<html><body><article><h1>Counting in shell</h1><p>The script below counts "
            "to three and says so, which is all this paragraph needs to say.</p>"
            "<table class='x'><tr><td><pre>1\n2\n3</pre></td><td><pre>echo one\n"
            "echo two\necho three</pre></td></tr></table>"
            "<table><tr><td>7</td><td><pre>seven lines of output</pre></td></tr>"
            "<tr><td>8</td><td><pre>eight lines of output</pre></td></tr></table>"
            "<table><tr><td>4 5 6</td><td>four five six in words</td></tr></table>"
            "</article></body></html>")
    doc = parse(html)
    assert gutters(doc) == [doc.positions("td")[0]]
    content = extract_content(doc)
    for written in (content.text(), content.markdown()):
        assert "echo one" in written and "echo three" in written
        assert "1\n2\n3" not in written and "seven lines" in written
        assert "4 5 6" in written


@needs_data
def test_a_hugo_blogs_line_numbers_are_its_gold_template() -> None:
    """On a real Hugo page (Chroma's ``td.lntd`` tables), every gutter found
    is inside the gold's template, and the code's text is written without
    the numbers."""
    from temex.evaluate import gold_mask, gold_text, load_site
    from temex.page.linenos import gutters

    site = load_site(DATA / "sites" / "bgbiao-hugo-zh")  # type: ignore[operator]
    f = site.root / "post" / "coredns-loop" / "index.html"
    doc = parse(f.read_bytes(), url=str(f))
    gold = gold_mask(doc, site.content_selector, site.template_selector)
    found = gutters(doc)
    assert len(found) >= 4
    assert all(gold[j] is not False for i in found for j in doc.descendants(i))
    text = extract_content(doc).text()
    lines = set(text.splitlines())
    assert not any(doc.text[j].strip() in lines for i in found for j in doc.descendants(i)
                   if doc.text[j].strip())
    assert token_prf(text, gold_text(doc, site.content_selector, site.template_selector))[2] > 0.95


def test_a_headed_table_between_kept_blocks_is_kept() -> None:
    """The cells of a table with named columns that lies between the
    region's kept blocks are kept with them (``region.table_gaps``): one by
    one a cell has none of the marks of prose. A table without header cells
    (a layout grid) is not added, nor one after the last kept block, nor a
    cell the caller vetoed (probability 0). The real page: readability's
    lwn.net weekly edition, whose release history and developer statistics
    tables were lost (token F1 0.934 -> 0.998)."""
    from dataclasses import replace

    from temex.content.records import headed_tables
    from temex.content.region import table_gaps
    from temex.page.blocks import page_blocks

    table = ("<table><tr><th>Release</th><th>Date</th></tr>"
             "<tr><td>4.2.3</td><td>April 2014</td></tr></table>")
    grid = table.replace("<th>", "<td>").replace("</th>", "</td>")

    def kept(middle: str, end: str = "<p>After.</p>", veto: str = "") -> list[str]:
        doc = parse(f"<html><body><div><p>Before.</p>{middle}{end}</div></body></html>")
        blocks = page_blocks(doc)
        text = blocks.joined
        probs = [0.0 if t == veto else 0.9 if t in ("Before.", "After.") else 0.3
                 for t in text]
        chosen = [b for b, p in enumerate(probs) if p >= 0.5]
        region = doc.tag.index("div")
        tables = headed_tables(doc)
        return [text[b] for b in table_gaps(doc, blocks, probs, chosen, region, tables)]

    assert kept(table) == ["Before.", "Release", "Date", "4.2.3", "April 2014", "After."]
    assert kept(grid) == ["Before.", "After."]
    assert kept(table, end="") == ["Before."]
    assert "4.2.3" not in kept(table, veto="4.2.3")
    folder = DATA / "content" / "readability" / "lwn.net" if DATA is not None else None
    if folder is None or not (folder / "lwn-1.html").is_file():
        pytest.skip("readability not in the shared data")
    doc = parse((folder / "lwn-1.html").read_bytes())
    gold = (folder / "lwn-1.txt").read_text(encoding="utf-8")
    # the colon rule alone keeps these tables too (their sentences end with
    # one): off, both are off; on, this rule alone
    alone = ContentParams(introduced=False)
    on = token_prf(extract_content(doc, params=alone).text(), gold)[2]
    off = token_prf(extract_content(doc, params=replace(alone, table_gaps=False)).text(),
                    gold)[2]
    # blended scorer 0.998 / 0.988 (off was under 0.95 with the logistic one)
    assert on >= 0.99 and off < 0.99


def test_a_headed_table_right_after_the_region_is_kept() -> None:
    """A table with named columns that is the region's next sibling element
    is kept with it (``region.table_gaps``): the paragraph that introduces
    it was the heaviest subtree and the cells, one by one, weighed less
    than nothing. Not a table with an element between it and the region,
    nor a layout grid, nor a vetoed cell. The real page: openehr's
    deployments page, one paragraph over a table of jurisdictions."""
    from temex.content.records import headed_tables
    from temex.content.region import table_gaps
    from temex.page.blocks import page_blocks

    table = ("<table><tr><th>Entity</th><th>Country</th></tr>"
             "<tr><td>Health Service</td><td>Spain</td></tr></table>")
    grid = table.replace("<th>", "<td>").replace("</th>", "</td>")

    def kept(after: str, veto: str = "") -> list[str]:
        doc = parse(f"<html><body><div><h1>Title</h1><p>Intro.</p>{after}</div></body></html>")
        blocks = page_blocks(doc)
        text = blocks.joined
        probs = [0.0 if t == veto else 0.9 if t in ("Title", "Intro.") else 0.3 for t in text]
        chosen = [b for b, p in enumerate(probs) if p >= 0.5]
        region = doc.tag.index("p")
        return [text[b] for b in table_gaps(doc, blocks, probs, chosen, region,
                                            headed_tables(doc))]

    assert kept(table) == ["Title", "Intro.", "Entity", "Country", "Health Service", "Spain"]
    assert kept("<p>Aside.</p>" + table) == ["Title", "Intro."]
    assert kept(grid) == ["Title", "Intro."]
    assert "Spain" not in kept(table, veto="Spain")
    if DATA is None or not (DATA / "sites" / "openehr-org-archive").is_dir():
        pytest.skip("openehr-org-archive not in the shared data")
    _, doc, gold = _under_a_template("openehr-org-archive", "deployments/jurisdictions/index.html")
    on = token_prf(extract_content(doc).text(), gold)[2]
    off = token_prf(extract_content(doc, params=ContentParams(table_gaps=False)).text(), gold)[2]
    # logistic scorer 1.000 / 0.523; the blended one keeps the table without
    # the rule (0.976 either way)
    assert on >= 0.97 and off <= on


def test_the_headed_tables_of_the_row_below_the_region_are_kept() -> None:
    """In a grid the region is a column; the tables with named columns in
    the row under its row (its parent's next sibling) are kept with it, and
    so are their headings (``region.table_gaps``), where that row holds such
    tables and headings only. Not a table beside the region in its own row
    (a sidebar's), nor one two rows down, nor a row with other text too (a
    side column's widgets), nor a layout grid, nor a vetoed cell. The real
    page: a wiki's course page, its description in a column and its lecture
    and summary tables in the row below, which the page level lost (token
    F1 0.80 -> 0.99)."""
    from temex.content.records import headed_tables
    from temex.content.region import table_gaps
    from temex.page.blocks import page_blocks

    table = ("<h2>Lectures</h2><table><tr><th>Subject</th><th>Term</th></tr>"
             "<tr><td>Monday</td><td>Winter</td></tr></table>")
    grid = table.replace("<th>", "<td>").replace("</th>", "</td>")

    def kept(side: str = "", below: str = table, further: str = "", veto: str = ""
             ) -> list[str]:
        doc = parse("<html><body><div class=grid>"
                    f"<div class=row><div class=col><h1>Title</h1><p>Intro.</p></div>"
                    f"<div class=side>{side}</div></div>"
                    f"<div class=row><div class=col>{below}</div></div>"
                    f"<div class=row><div class=col>{further}</div></div>"
                    "</div></body></html>")
        blocks = page_blocks(doc)
        text = blocks.joined
        probs = [0.0 if t == veto else 0.9 if t in ("Title", "Intro.") else 0.3 for t in text]
        chosen = [b for b, p in enumerate(probs) if p >= 0.5]
        region = doc.classes.index(("col",))
        return [text[b] for b in table_gaps(doc, blocks, probs, chosen, region,
                                            headed_tables(doc))]

    assert kept() == ["Title", "Intro.", "Lectures", "Subject", "Term", "Monday", "Winter"]
    assert kept(side=table, below="") == ["Title", "Intro."]
    assert kept(below="", further=table) == ["Title", "Intro."]
    assert kept(below=grid) == ["Title", "Intro."]
    assert kept(below=table + "<p>A widget's text.</p>") == ["Title", "Intro."]
    assert "Winter" not in kept(veto="Winter")
    on, off = _on_and_off("wikinotes", "ANTH_360/index.html", table_gaps=False)
    assert on >= 0.99 and off < 0.85


def test_what_a_kept_sentence_ending_with_a_colon_introduces_is_kept() -> None:
    """A kept block inside the region whose text ends with a colon keeps
    the list or table that the text after it begins, whatever wrappers and
    spacers lie between (``region.introduced_elements``,
    ``region.keep_introduced``): its items, short linked lines one by one,
    read as a menu to the scorer; a code block (a command's "Output:").
    Not after a block without the colon, not when a paragraph comes first,
    not a list outside the region, not a vetoed item. The real page:
    wceb2025's progress report of a compiler backend, whose three announced
    lists of patches were lost (logistic scorer 0.873 -> 0.981; blended
    0.778 -> 0.897, its list items scoring lower: recall 0.819)."""
    from temex.content.region import introduced_elements, keep_introduced
    from temex.page.blocks import page_blocks

    items = "<ul><li><a href='/1'>Fix the loads</a></li><li><a href='/2'>Add types</a></li></ul>"

    def kept(intro: str, after: str = items, veto: str = "", outside: bool = False) -> list[str]:
        # outside: the region (the first div) closes after the sentence
        body = (f"<div><p>{intro}</p></div><div class='ulist'>{after}</div>" if outside
                else f"<div><p>{intro}</p><div class='ulist'>{after}</div></div>")
        doc = parse(f"<html><body>{body}</body></html>")
        blocks = page_blocks(doc)
        text = blocks.joined
        probs = [0.0 if t == veto else 0.9 if t == intro else 0.3 for t in text]
        chosen = [b for b, p in enumerate(probs) if p >= 0.5]
        region = doc.tag.index("div")
        return [text[b] for b in keep_introduced(doc, blocks, probs, chosen, region,
                                                 introduced_elements(doc, blocks))]

    assert kept("Patches sent for review:") == ["Patches sent for review:", "Fix the loads",
                                                "Add types"]
    assert kept("Patches sent for review.") == ["Patches sent for review."]
    spaced = "<div><br></div><span></span><div>" + items + "</div>"
    assert kept("Patches sent for review:", after=spaced)[1:] == ["Fix the loads", "Add types"]
    assert kept("Patches sent for review:", after="<p>Not a list</p>") == [
        "Patches sent for review:"]
    assert "Add types" not in kept("Patches sent for review:", veto="Add types")
    assert kept("Patches sent for review:", outside=True) == ["Patches sent for review:"]
    # a code block too: a command's output that the scorer left under the threshold
    assert kept("Output:", after="<pre>flag.txt 34 bytes</pre>") == ["Output:",
                                                                    "flag.txt 34 bytes"]
    assert kept("Output.", after="<pre>flag.txt 34 bytes</pre>") == ["Output."]
    doc, gold = _wceb2025_page("antoyo.xyz/0389")
    on = token_prf(extract_content(doc).text(), gold)[2]
    off = token_prf(extract_content(doc, params=ContentParams(introduced=False)).text(), gold)[2]
    assert on >= 0.89 and off < 0.8


def test_every_code_block_inside_the_region_is_kept() -> None:
    """``region.keep_code`` (``ContentParams.code_region``): a ``<pre>``
    inside the region is kept whatever its probability, unless vetoed; not
    one outside the region. The real page: a security wiki's page whose
    last code block the scorer put under the threshold (0.991 -> 1.000)."""
    from temex.content.region import keep_code
    from temex.page.blocks import page_blocks

    doc = parse("<html><body><div><p>Run the tool to list the users of an account.</p>"
                "<pre>usage: main.py [-h] --id ID</pre><pre>vetoed</pre></div>"
                "<pre>outside the region</pre></body></html>")
    blocks = page_blocks(doc)
    text = blocks.joined
    probs = [0.9 if t.startswith("Run") else 0.0 if t == "vetoed" else 0.3 for t in text]
    region = doc.tag.index("div")
    chosen = [b for b, p in enumerate(probs) if p >= 0.5]
    assert [text[b] for b in keep_code(doc, blocks, probs, chosen, region)] == [
        "Run the tool to list the users of an account.", "usage: main.py [-h] --id ID"]
    assert keep_code(doc, blocks, probs, chosen, -1) == chosen

    on, off = _on_and_off("hackingthe.cloud",
                          "aws/avoiding-detection/modify-guardduty-config/index.html",
                          code_region=False)
    assert on >= 0.995 and off < on


def test_a_landing_page_of_components_without_main_keeps_them() -> None:
    """``region.component_parents``: where the page declares no ``<main>``,
    an element with 3 or more children of one tag and classes, each a
    heading over 50 characters or more of prose (under half linked), is its
    main element (``ContentParams.main_components``). Not a sidebar of link
    widgets, nor a list of comments without headings. The real page:
    wceb2025's pwc.com service page, eight ``div.container.section``
    components, of which the region was the first (0.354 -> 0.977)."""
    from dataclasses import replace

    from temex.content.region import component_parents, main_elements
    from temex.page.blocks import page_blocks

    part = ("<div class='cmp section'><h2>{0}</h2><p>" + "We help {0} teams work. " * 3
            + "</p><a href='/{0}'>Learn more</a></div>")
    widget = "<div class='widget'><h3>Links</h3>" + "<a href='/x'>A linked page title</a>" * 4
    comment = "<div class='comment'><p>" + "I liked this post a lot, thanks. " * 3 + "</p></div>"
    html = ("<html><body><nav><a href='/'>Home</a></nav><div id='page'>{}</div>"
            "<div id='side'>{}</div><div id='comments'>{}</div></body></html>").format(
                "".join(part.format(w) for w in ("audit", "tax", "deals")), widget * 3,
                comment * 3)
    doc = parse(html)
    blocks = page_blocks(doc)
    assert component_parents(doc, blocks, 3, 50) == {doc.id.index("page")}
    assert component_parents(doc, blocks, 4, 50) == set()
    assert main_elements(doc, 3, blocks, 50) == {doc.id.index("page")}
    assert main_elements(doc, 3, blocks, 0) == frozenset()
    page, gold = _wceb2025_page("pwc.com/0710")
    off = extract_content(page, params=replace(ContentParams(), main_components=0)).text()
    on = extract_content(page).text()
    # logistic scorer 0.354 -> 0.977; the blended one chooses the components'
    # parent without the rule and keeps too little of it (recall 0.642):
    # 0.781 either way
    assert token_prf(on, gold)[2] >= 0.78 and token_prf(off, gold)[2] <= token_prf(on, gold)[2]
