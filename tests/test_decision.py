"""The learned site-level decision (temex.content.decision) in folder mode:
the shipped model, what it keeps that the hand-set choice dropped, and the
lift of the site over the page alone on every shared site."""

from __future__ import annotations

import statistics
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import DATA

from temex.content.decision import DECISION_FEATURES, MAPPED_FEATURES, load_decision
from temex.content.extract import ContentParams, extract_content
from temex.content.folder import index_folder, key_page_mask
from temex.evaluate import gold_text, load_site
from temex.page.dom import parse
from temex.page.files import html_files, read_page
from temex.page.tokens import token_prf

needs_data = pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
HAND_SET = replace(ContentParams(), site_decision=False)


def test_the_shipped_decision_reads_this_codes_features() -> None:
    d = load_decision()
    assert d is not None
    assert len(d.forest.roots) > 0 and 0 < d.threshold < 1
    # trained on every shared site and the news content sets
    assert len(d.trained_on) >= 30 and "big9" in d.trained_on
    assert len(DECISION_FEATURES) == len(set(DECISION_FEATURES))


def test_the_mapped_decision_reads_the_mapping_too() -> None:
    d = load_decision(mapped=True)
    assert d is not None and d.mapped and not load_decision().mapped
    assert d.width == len(DECISION_FEATURES) + len(MAPPED_FEATURES)
    # its trees do read the mapping
    assert max(d.forest.feature) >= len(DECISION_FEATURES)
    assert len(d.trained_on) >= 30 and "big9" in d.trained_on


def _folder_page(site_name: str, rel: str):  # type: ignore[no-untyped-def]
    assert DATA is not None
    site = load_site(DATA / "sites" / site_name)
    files = html_files(site.root)
    index, _, _ = index_folder(files, site.root)
    f = site.root / rel
    doc = parse(read_page(f), url=str(f))
    return index, doc, gold_text(doc, site.content_selector, site.template_selector)


@needs_data
def test_a_talk_pages_field_labels_are_kept() -> None:
    """A conference's talk pages share their field labels ("Description",
    "Abstract", on 52 of 121 pages) and time slots: the hand-set choice took
    them for repeated text and dropped them (token F1 0.467); the decision
    reads that a label on a minority of pages, between blocks the page level
    kept, is the page's (0.955; "Audience level:" is still lost)."""
    index, doc, gold = _folder_page("pyconca2013-conference",
                                    "en/schedule/presentation/233/index.html")
    hand = extract_content(doc, index, None, HAND_SET).text()
    text = extract_content(doc, index).text()
    assert "Abstract" not in hand and "Abstract" in text and "Terrace" in text
    assert token_prf(hand, gold)[2] < 0.5 and token_prf(text, gold)[2] >= 0.95


@needs_data
def test_a_tag_page_keeps_the_post_it_lists() -> None:
    """A tag page listing one post is a small page whose post title and date
    repeat on the other tag pages of that post: the hand-set choice kept the
    tag's name alone; the decision keeps the post's row."""
    index, doc, gold = _folder_page("schwalb-willmann-academic", "tags/arctic/index.html")
    hand = extract_content(doc, index, None, HAND_SET).text()
    text = extract_content(doc, index).text()
    title = "Teaching Remote Sensing for Arctic Ecology Research"
    assert title not in hand and title in text
    assert token_prf(text, gold)[2] >= 0.95


def _heading_decision(mapped: bool, keep_headings: bool = True):  # type: ignore[no-untyped-def]
    """A decision of one tree that keeps the headings whose text the site
    does not repeat and nothing else (``keep_headings`` False: nothing at
    all): what a decision trained without the site did on its tag pages
    that list one post, whose row the compared pages all show."""
    from temex.content.decision import DECISION_VERSION, SiteDecision

    features = DECISION_FEATURES + (MAPPED_FEATURES if mapped else ())
    leaf = 5.0 if keep_headings else -5.0
    # heading <= 0.5: drop; else boiler <= 0.5: keep (leaf), else drop
    return SiteDecision({"version": DECISION_VERSION, "features": list(features),
                         "threshold": 0.5, "forest": {
                             "base": 0.0,
                             "feature": [features.index("heading"), -1,
                                         features.index("boiler"), -1, -1],
                             "threshold": [0.5, 0.0, 0.5, 0.0, 0.0],
                             "left": [1, -1, 3, -1, -1], "right": [2, -1, 4, -1, -1],
                             "value": [0.0, -5.0, 0.0, leaf, -5.0], "roots": [0]}})


@needs_data
def test_a_decision_that_keeps_headings_alone_gives_the_page_level_choice() -> None:
    """A tag page listing one post: the post's date and title are on the
    other tag pages of that post and on the blog's listing, so every piece of
    site evidence calls them template, and a decision that learned to trust
    the site where all of it agrees kept the tag's name alone (left out,
    token F1 0.133 on seven such pages). Headings alone are no page's content
    where the page level finds text under them: its choice is kept. A
    decision that keeps nothing is left as it is (a search page's form, an
    empty blog index: the page level was wrong there)."""
    from temex.content.scorer import load_model

    index, doc, gold = _folder_page("schwalb-willmann-academic", "tags/arctic/index.html")
    title = "Teaching Remote Sensing for Arctic Ecology Research"
    alone = extract_content(doc).text()
    for mapped in (False, True):
        models = {**load_model(),
                  "decision_mapped" if mapped else "decision": _heading_decision(mapped)}
        mask = None
        if mapped:
            assert DATA is not None
            root = DATA / "sites" / "schwalb-willmann-academic" / "www"
            mask = key_page_mask(doc, root / "tags/arctic/index.html", root)
        off = replace(ContentParams(), decision_headings=False)
        bare = extract_content(doc, index, None, off, models=models, mapped=mask)
        assert bare.text().split() == ["arctic"]
        got = extract_content(doc, index, models=models, mapped=mask)
        assert title in got.text() and got.text() == alone
        assert token_prf(got.text(), gold)[2] >= 0.95
        nothing = {**models, "decision_mapped" if mapped else "decision":
                   _heading_decision(mapped, keep_headings=False)}
        # (the page's title is added after any decision: not its choice)
        assert title not in extract_content(doc, index, models=nothing, mapped=mask).text()


@needs_data
def test_a_threads_comments_the_page_level_kept_stay() -> None:
    """Comments are content by the shared sites' convention: the comments of
    a blog post that the page level kept stay after the decision, and
    ``--no-comments`` still drops them."""
    index, doc, _ = _folder_page("codare-wordpress",
                                 "2009/07/29/cc-cannot-open-shared-object-file/index.html")
    alone = extract_content(doc).text()
    text = extract_content(doc, index).text()
    assert "Faz tempo que não faço isso" in alone and "Faz tempo que não faço isso" in text
    off = extract_content(doc, index, None, replace(ContentParams(), comments=False)).text()
    assert "Faz tempo que não faço isso" not in off


@needs_data
def test_a_topics_replies_are_kept_as_its_first_post() -> None:
    """A forum topic: the page model keeps the first post and drops the
    replies (its training sets read a thread as one article and its
    comments), and the decision follows it even on the site it trained on.
    The replies are records alike the first post (``div.post.bg1`` beside
    ``div.post.bg2``) and keep what the decision kept of it: the topic's
    posts are content by the data convention (token F1 0.66 -> 0.94 left
    out). A blog post's comment list is no record alike the post: nothing
    is added there."""
    index, doc, gold = _folder_page("dostips-forum", "forum/viewtopic5a5e.html")
    off = extract_content(doc, index, None, replace(ContentParams(), decision_alike=False)).text()
    got = extract_content(doc, index).text()
    for reply in ("The common language in this forum is English", "Pass 0 for the size",
                  "You can also use the command", "Joined: 20 Aug 2010 13:57"):
        assert reply not in off and reply in got
    assert "Bitte um eure Hilfe" in got and "Delete all board cookies" not in got
    assert token_prf(got, gold)[2] >= token_prf(off, gold)[2] + 0.2
    assert token_prf(got, gold)[2] >= 0.9

    rel = "2007/09/15/javascript-executando-scripts-apos-o-carregamento-da-pagina/index.html"
    index, doc, _ = _folder_page("codare-wordpress", rel)
    off = extract_content(doc, index, None, replace(ContentParams(), decision_alike=False))
    assert extract_content(doc, index).chosen == off.chosen


@needs_data
def test_comments_are_kept_as_the_one_the_decision_kept() -> None:
    """A blog post whose longest kept block (a code listing) is in no
    record, with one comment kept whole (author, date, text): the records
    alike are tried from the next longest block, and the other comments,
    content by the data convention, are kept as that one was (token F1
    0.85 -> 0.91; left out 0.849 -> 0.914)."""
    index, doc, gold = _folder_page("codare-wordpress", "2006/12/28/php-como-enviar-emails/index.html")
    off = extract_content(doc, index, None, replace(ContentParams(), decision_alike=False)).text()
    got = extract_content(doc, index).text()
    for comment in ("Não funciona pro Outlook", "Mail_Mime do PEAR"):
        assert comment not in off and comment in got
    assert token_prf(got, gold)[2] >= token_prf(off, gold)[2] + 0.04


@needs_data
def test_a_label_over_the_pages_own_text_is_kept() -> None:
    """A seminar page labels its abstract with an ``h6`` "Abstract", the same
    on every seminar page: the site's evidence calls it template and the
    decision drops it, though the paragraph under it, its sibling, is the
    page's own text and kept. The heading is kept with it (the data
    convention keeps a page's headings); without the rule it is not."""
    index, doc, gold = _folder_page("cni-iisc-seminars", "seminars/2022-09-27/index.html")
    off = extract_content(doc, index, None,
                          replace(ContentParams(), decision_lead_headings=False)).text()
    got = extract_content(doc, index).text()
    assert "Abstract" not in off.splitlines() and "Abstract" in got.splitlines()
    assert token_prf(got, gold)[2] > token_prf(off, gold)[2]
    assert "Centre for Networked Intelligence" not in got  # the footer stays out


@needs_data
def test_the_mapping_keeps_a_shops_category_grid() -> None:
    """A shop's category page: its product grid repeats on the other
    category and shop pages, so the text counts take it for the site's and
    the decision without the mapping keeps little (token F1 under 0.35); the
    page mapped with the pages the pool rule chooses for it shows the grid
    in no template, and the mapped decision keeps it (0.7 and more)."""
    assert DATA is not None
    rel = "mywordpress/product-category/watches/index.html"
    index, doc, gold = _folder_page("mywordpress", rel)
    site = load_site(DATA / "sites" / "mywordpress")
    mapped = key_page_mask(doc, site.root / rel, site.root)
    assert mapped is not None and len(mapped) == len(doc)
    plain = extract_content(doc, index)
    with_map = extract_content(doc, index, mapped=mapped)
    assert plain.stats["site"] == "decision" and with_map.stats["site"] == "decision, mapped"
    assert token_prf(plain.text(), gold)[2] < 0.35
    assert token_prf(with_map.text(), gold)[2] >= 0.7


#: Site level minus page alone, token F1 over the fixed sample of 40 pages
#: of each shared site (temex.evaluate.pages; ``bench/eval/every_page.py``
#: prints it with the peers), with the shipped mapped decision (each page's
#: key-page fit read too, as ``temex content`` does; trained on these sites:
#: in sample; the left-out figures are in docs/EVALUATION.md), a little
#: under the figures measured on 2026-12-06: regression guards. Lower than
#: the unmapped decision's in sample on americanpillowcase (0.085 -> 0.058;
#: left out 0.914 -> 0.917), rubima (0.010 -> -0.007: its ranking pages'
#: tables repeat on the ranking pages the mapping compares them with),
#: cezam, cni-iisc and theory3 (0.001-0.007), for mywordpress +0.077,
#: commmp +0.030, digitalplant +0.020, gpodder +0.021 (CHANGELOG).
#: rubima (-0.007 -> -0.004), wikinotes (0.031 -> 0.035) and clickwiki
#: (0.048 -> 0.059) raised where in-page tables of contents became template
#: (neither path writes them now; the site level had kept more of them).
#: gpodder (0.009 -> 0.061) and codare (0.020 -> 0.078) raised where links to
#: the neighbours a page declares in <head> became typed link lists and the
#: folder decision stopped overruling those, and a comment thread of which the
#: page level kept any comment is added whole.
#: With four forests averaged in the mapped decision (retrained on the rows of
#: 2026-12-07), lowered on americanpillowcase (0.053 -> 0.040; in sample 0.936
#: -> 0.921, left out 0.905 -> 0.917) and digitalplant (0.028 -> 0.025; in
#: sample 0.927 -> 0.922, left out 0.913 -> 0.915): the averaged forests fit
#: the sites they trained on less closely and the sites left out better;
#: raised on mywordpress (0.076 -> 0.108), rubima (-0.009 -> 0.002) and cezam
#: (0.016 -> 0.022). With the page level's choice where the decision kept
#: headings alone, raised on mywordpress (0.108 -> 0.112). With the records
#: alike the decision's main record kept as it was (a topic's replies as its
#: first post), raised on dostips (0.069 -> 0.102) and codare (0.078 -> 0.081);
#: with that record found past a post's code listing, codare 0.081 -> 0.086
#: (measured 0.088); with a shop's up-sells named chrome, mywordpress 0.112 ->
#: 0.118 (measured 0.121); with a dropped heading kept over its kept sibling,
#: cni-iisc 0.000 -> 0.006 (measured 0.008).
LIFT_FLOORS: dict[str, float] = {"americanpillowcase-shop": 0.040, "bedrock-tech-blog": 0.009,
                                 "bgbiao-hugo-zh": 0.028, "birdie0-mdbook": 0.011,
                                 "cezam-catalogue": 0.022, "clickwiki-wiki": 0.055,
                                 "cmsis-dv-doxygen": 0.084, "cni-iisc-seminars": 0.006,
                                 "codare-wordpress": 0.086, "commmp-shop": 0.067,
                                 "cookwithtina-recipes": 0.011, "digitalplant": 0.025,
                                 "dostips-forum": 0.102, "doulcememoire-company": -0.003,
                                 "everything-list-hypermail": -0.002,
                                 "gpodder-devel-pipermail": 0.061, "hackingthe.cloud": -0.005,
                                 "hyperledger-fabric-docs": -0.004, "klnet-forum": 0.019,
                                 "mywordpress": 0.118, "opendcl-forum": -0.005,
                                 "openehr-org-archive": -0.004,
                                 "pyconca2013-conference": 0.009, "redux-saga-docs": 0.068,
                                 "rubima-magazine": 0.002,
                                 "schwalb-willmann-academic": 0.007, "theory3": -0.001,
                                 "toppra-furo": 0.028, "ucf-news": -0.001, "wikinotes": 0.031}


@pytest.mark.slow
@needs_data
def test_the_site_adds_to_the_page_on_every_site(site_dirs: list[Path]) -> None:
    from temex.evaluate.pages import site_sample, site_scores

    for folder in site_dirs:
        scores = site_scores(site_sample(folder))
        lift = statistics.mean(s for _, s, _ in scores) - statistics.mean(a for _, _, a in scores)
        assert folder.name in LIFT_FLOORS, f"{folder.name}: measure its lift and give it a floor"
        assert lift >= LIFT_FLOORS[folder.name], (folder.name, lift)


@needs_data
def test_the_kernels_walk_of_the_decision_is_the_pure_one() -> None:
    """The decision's trees walked in C (``Forest.raw_rows``) give the pure
    walk's log-odds exactly, on every block of real folder-mode pages."""
    from temex.content.extract import decision_inputs
    from temex.page import kernel

    k = kernel.get()
    if k is None:
        pytest.skip(f"nothing to compare: {kernel.status()}")
    d = load_decision()
    assert d is not None
    for site_name, rel in (("pyconca2013-conference", "en/schedule/presentation/233/index.html"),
                           ("codare-wordpress", "2007/05/03/python-singleton/index.html")):
        index, doc, _ = _folder_page(site_name, rel)
        got = decision_inputs(doc, index)
        assert got is not None
        rows = got[1]
        assert d.forest.compiled(k).raw_rows(rows) == [d.forest.raw(r) for r in rows]
    # the mapped forest, on rows with the mapping's two inputs
    d = load_decision(mapped=True)
    assert d is not None
    site = load_site(DATA / "sites" / "gpodder-devel-pipermail")
    f = sorted(p for p in html_files(site.root) if p.name[0].isdigit())[3]
    index, _, _ = index_folder(html_files(site.root), site.root)
    doc = parse(read_page(f), url=str(f))
    got = decision_inputs(doc, index, mapped=key_page_mask(doc, f, site.root))
    assert got is not None and len(got[1][0]) == d.width
    assert d.forest.compiled(k).raw_rows(got[1]) == [d.forest.raw(r) for r in got[1]]
