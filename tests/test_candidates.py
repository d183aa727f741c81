"""Complete subdigraph search (hyperlink paper Alg. 2) on synthetic graphs and
on the real shared sites served on 127.0.0.1."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import DATA

from temex.errors import PageError
from temex.evaluate import NoGoldError, gold_mask, load_site, score_nodes
from temex.page.dom import Document, parse
from temex.site.candidates import find_cs, max_clique_with
from temex.site.explore import explore, fit_exploration
from temex.site.sources.http import HttpSource
from temex.site.sources.localserve import serve_folder
from temex.site.sources.mirror import MirrorSource

pytestmark = pytest.mark.timeout(120)
BASE = "http://site.test/"


def _page(name: str, links: list[str]) -> Document:
    body = "".join(f"<a href='/{t}'>{t}</a>" for t in links)
    return parse(f"<html><body><nav>{body}</nav><p>{name}</p></body></html>", BASE + name)


def _graph_loader(graph: dict[str, list[str]], calls: list[str]):
    async def load(url: str) -> Document | PageError:
        name = url[len(BASE):]
        calls.append(name)
        if name not in graph:
            return PageError(url, "HTTP 404")
        return _page(name, graph[name])
    return load


def run(graph: dict[str, list[str]], key_links: list[str], **kw: object):
    calls: list[str] = []
    key = _page("key", key_links)
    res = asyncio.run(find_cs(key, [BASE + u for u in key_links],
                              _graph_loader(graph, calls), **kw))  # type: ignore[arg-type]
    return res, calls


def test_max_clique_with_stops_at_target() -> None:
    adj = {"a": {"b", "c", "d"}, "b": {"a", "c"}, "c": {"a", "b"}, "d": {"a"}}
    assert max_clique_with("a", adj, ["a", "b", "c", "d"], 5) == ["a", "b", "c"]
    assert len(max_clique_with("a", adj, ["a", "b", "c", "d"], 2)) == 2
    assert max_clique_with("x", {"x": set()}, ["x"], 3) == ["x"]


def test_first_n_cs_found_with_minimal_loads() -> None:
    menu = ["m1", "m2", "m3", "m4"]
    graph = {m: menu for m in menu}
    res, calls = run(graph, ["m1", "m2", "m3", "m4"], n=3, concurrency=1)
    assert res.complete and [u[len(BASE):] for u in res.cs] == ["m1", "m2", "m3"]
    assert calls == ["m1", "m2", "m3"] and res.requests == 3
    assert len(res.mutual_edges()) == 3


def test_skips_pages_not_mutually_linked() -> None:
    menu = ["m1", "m2", "m3"]
    graph = {"art": ["m1"], "m1": menu, "m2": menu, "m3": menu}
    res, calls = run(graph, ["art", "m1", "dead", "m2", "m3"], n=3, concurrency=1)
    assert res.complete and [u[len(BASE):] for u in res.cs] == ["m1", "m2", "m3"]
    assert calls == ["art", "m1", "dead", "m2", "m3"]
    assert [e.error for e in res.errors] == ["HTTP 404"]


def test_best_m_cs_when_links_or_budget_run_out() -> None:
    graph = {"a": ["b"], "b": ["a"], "c": [], "d": []}
    res, _ = run(graph, ["a", "b", "c", "d"], n=3)
    assert not res.complete and len(res.cs) == 2
    res, calls = run({k: ["a", "b", "c", "d"] for k in "abcd"}, ["a", "b", "c", "d"],
                     n=4, max_loads=3, concurrency=1)
    assert len(calls) == 2 and len(res.cs) == 2 and not res.complete  # key + 2 loads


def test_batches_never_overload() -> None:
    menu = ["m1", "m2", "m3", "m4", "m5"]
    graph = {m: menu for m in menu}
    res, calls = run(graph, menu, n=3, concurrency=4)
    assert res.complete and len(calls) == 3  # batch size = n - |bestCS|


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
@pytest.mark.parametrize("site_name", ["hackingthe.cloud", "hyperledger-fabric-docs",
                                       "digitalplant"])
def test_real_site_over_http(site_name: str) -> None:
    assert DATA is not None
    folder = DATA / "sites" / site_name
    if not folder.is_dir():
        pytest.skip(f"{site_name} not in the shared data")
    site = load_site(folder)
    kp = site.key_pages[0]
    with serve_folder(site.root) as base:
        ex = explore(base + kp, n=2, source=HttpSource(concurrency=2))
    assert ex.complete and len(ex.pages) == 2 and ex.loads <= 4
    assert len(ex.mutual_edges()) == 1
    model = fit_exploration(ex)
    assert model.loads == ex.loads
    try:
        s = score_nodes(model.template, gold_mask(ex.key, site.content_selector,
                                                  site.template_selector))
    except NoGoldError:
        pytest.skip("key page without gold")
    assert max(s.template[2], s.content[2]) > 0.5


#: Live floors, node F1 template / content with every key page pooled,
#: explored with the defaults over HTTP on 127.0.0.1 (4 loads each), a
#: little under the figures measured on 2026-12-06 against the gold of
#: 2026-12-03/04 (30 sites; docs/EVALUATION.md): regression guards; raised
#: the same day for the four sites that in-page tables of contents, anchor
#: permalinks and line-number gutters as template (temex.page.tocs,
#: .permalinks, .linenos) lifted (bgbiao, clickwiki, hyperledger, rubima,
#: wikinotes), and cmsis where a permalink's only-child wrapper (Doxygen's
#: span.permalink) became template with it.
LIVE_FLOORS = {"americanpillowcase-shop": (0.97, 0.90), "bedrock-tech-blog": (0.99, 0.99),
               "bgbiao-hugo-zh": (0.97, 0.98), "birdie0-mdbook": (0.99, 0.99),
               "cezam-catalogue": (0.96, 0.98), "clickwiki-wiki": (0.98, 0.98),
               "cmsis-dv-doxygen": (0.97, 0.99), "cni-iisc-seminars": (0.91, 0.96),
               "codare-wordpress": (0.96, 0.95), "commmp-shop": (0.95, 0.60),
               "cookwithtina-recipes": (0.95, 0.87), "digitalplant": (0.92, 0.93),
               "dostips-forum": (0.78, 0.90), "doulcememoire-company": (0.94, 0.94),
               "everything-list-hypermail": (0.96, 0.99),
               "gpodder-devel-pipermail": (0.68, 0.96), "hackingthe.cloud": (0.99, 0.99),
               "hyperledger-fabric-docs": (0.92, 0.96), "klnet-forum": (0.92, 0.98),
               "mywordpress": (0.87, 0.59), "opendcl-forum": (0.98, 0.99),
               "openehr-org-archive": (0.99, 0.97), "pyconca2013-conference": (0.98, 0.98),
               "redux-saga-docs": (0.99, 0.99), "rubima-magazine": (0.98, 0.98),
               "schwalb-willmann-academic": (0.97, 0.99), "theory3": (0.97, 0.95),
               "toppra-furo": (0.94, 0.98), "ucf-news": (0.94, 0.85),
               "wikinotes": (0.98, 0.99)}


@pytest.mark.slow
@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
@pytest.mark.parametrize("site_name", sorted(LIVE_FLOORS))
def test_live_floors_and_budget(site_name: str) -> None:
    """Every shared site explored from each key page with the defaults: the
    pooled F1 floors hold and the loads (requests, key page included) stay
    within the budget: at most ``DEFAULT_MAX_LOADS`` each, 4 on average."""
    from temex.site.defaults import DEFAULT_MAX_LOADS
    assert DATA is not None
    folder = DATA / "sites" / site_name
    if not folder.is_dir():
        pytest.skip(f"{site_name} not in the shared data")
    site = load_site(folder)
    total = None
    requests = []
    with serve_folder(site.root) as base:
        for kp in site.key_pages:
            ex = explore(base + kp, source=HttpSource(concurrency=2))
            requests.append(ex.requests)
            try:
                gold = gold_mask(ex.key, site.content_selector, site.template_selector)
            except NoGoldError:
                continue
            s = score_nodes(fit_exploration(ex).template, gold)
            total = s if total is None else total + s
    assert total is not None
    t_floor, c_floor = LIVE_FLOORS[site_name]
    assert total.template[2] >= t_floor, (site_name, total.as_dict())
    assert total.content[2] >= c_floor, (site_name, total.as_dict())
    assert max(requests) <= DEFAULT_MAX_LOADS and sum(requests) <= 4 * len(requests)


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
def test_mirror_source_offline_matches_http() -> None:
    assert DATA is not None
    site = load_site(DATA / "sites" / "hackingthe.cloud")
    kp = site.key_pages[1]
    off = explore("http://mirror.test" + kp, n=3, source=MirrorSource(site.root))
    with serve_folder(site.root) as base:
        on = explore(base + kp, n=3, source=HttpSource())
    assert [u.split("/", 3)[3] for u in off.cs] == [u.split("/", 3)[3] for u in on.cs]
    assert off.loads == on.loads <= 5


def _cli(argv: list[str]) -> int:
    import argparse

    from temex.cli.candidates import add_parser as add_candidates_parser
    ap = argparse.ArgumentParser(prog="temex")
    add_candidates_parser(ap.add_subparsers())
    args = ap.parse_args(argv)
    return int(args.func(args))


def test_cli_unreachable_host_exits_nonzero(capsys: pytest.CaptureFixture[str]) -> None:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert _cli(["candidates", f"http://127.0.0.1:{port}/", "--timeout", "2",
                 "--allow-host", f"127.0.0.1:{port}"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("temex candidates:") and "cannot connect" in err and "\n" not in err


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
def test_cli_candidates_prints_pages(capsys: pytest.CaptureFixture[str]) -> None:
    assert DATA is not None
    site = load_site(DATA / "sites" / "hackingthe.cloud")
    with serve_folder(site.root) as base:
        rc = _cli(["candidates", base + site.key_pages[0], "-n", "2", "--progress",
                   "--allow-host", base.split("//")[1]])
    out, err = capsys.readouterr()
    assert rc == 0 and "loads: 3" in out and "<->" in out and "[1/" in err


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
def test_cli_load_budget_follows_n(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --max-loads the budget is the key page and n more, so a larger
    -n is not cut short by the default budget (a shortfall against an explicit
    -n exits 3)."""
    assert DATA is not None
    site = load_site(DATA / "sites" / "hackingthe.cloud")
    with serve_folder(site.root) as base:
        local = ["--allow-host", base.split("//")[1]]
        rc = _cli(["candidates", base + site.key_pages[0], "-n", "5", *local])
        out = capsys.readouterr().out
        assert rc == 0 and "loads: 6" in out
        rc = _cli(["candidates", base + site.key_pages[0], "-n", "5", "--max-loads", "4",
                   *local])
    assert rc == 3


# -- offline choice without wasted builds ------------------

_ODD_PAGES = [
    "<html><head><meta http-equiv='Refresh' content='0;url=/'></head><body>x</body></html>",
    "<html><head><META HTTP-EQUIV=refresh></head><body><p>a</p><p>b</p></body></html>",
    "<rss><channel><item>x</item></channel></rss>", "<html><body></body></html>",
    "<body><div id=' a7 ' class='x1 y x1'>one <b>two</b> three<script>no</script>"
    "<svg><body class=q>in svg</body></svg></div><noscript><p>hid den</p></noscript>"
    "<template><i>t</i></template> four five six seven</body>",
    "<frameset><frame src=a></frameset>", "plain text only, no tags at all",
]


@pytest.mark.slow
def test_survey_matches_the_built_document() -> None:
    """The Lexbor-only survey that ranks candidates gives the vocabulary,
    shingles and unusable reason of the built Document: every shared page
    (the evaluation data) and odd markup."""
    from temex.errors import ParseError
    from temex.page.dom import build_document, lexbor_parse
    from temex.page.files import unusable
    from temex.site.duplicates import page_shingles, word_shingles
    from temex.site.pool import _survey, vocabulary

    pages: list[bytes | str] = list(_ODD_PAGES)
    if DATA is not None:
        pages += [p.read_bytes() for p in sorted(DATA.rglob("*.htm*")) if p.is_file()]
    checked = 0
    for html in pages:
        try:
            parser, enc = lexbor_parse(html)
        except ParseError:
            continue
        vocab, words, reason = _survey(parser, "")
        doc = build_document(parser, "", enc)
        assert vocab == vocabulary(doc)
        assert word_shingles(words) == page_shingles(doc)
        assert reason == unusable(doc)
        checked += 1
    assert checked >= len(_ODD_PAGES) - 1


def test_choice_builds_only_the_chosen_pages(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from temex.site import pool

    for k in range(12):
        (tmp_path / f"p{k}.html").write_text(
            f"<body><nav class='m'>menu</nav><div class='c{k % 3}'>page {k} own words "
            f"here {k * 7} and more of them {k}</div></body>")
    built: list[str] = []
    real = pool._Candidate.build

    def counting(self: pool._Candidate) -> Document:
        built.append(self.path)
        return real(self)

    monkeypatch.setattr(pool._Candidate, "build", counting)
    key = pool.load_candidate(tmp_path / "p0.html")
    assert isinstance(key, Document)
    pages, errors, _ = pool.choose_pages(key, tmp_path / "p0.html", tmp_path, 3)
    assert len(pages) == 3 and built == [d.url for d in pages] and not errors


def test_second_hop_loads_what_a_kept_page_yields_next_and_one_at_a_time() -> None:
    """find_cs with ``discover``: URLs a kept page yields are explored before
    the rest of the key page's links, one page at a time while the
    discoverer is wanting, and count as reachable (their links form edges)."""
    graph = {"hub": ["k1", "k2", "other"], "k1": ["k2", "hub"], "k2": ["k1", "hub"],
             "other": ["hub"]}

    class Hop:
        wanting = True

        def __call__(self, page: Document) -> list[str]:
            if not page.url.endswith("/hub"):
                return []
            self.wanting = False
            return [BASE + "k1", BASE + "k2"]

    calls: list[str] = []
    key = _page("key", ["hub", "other"])
    res = asyncio.run(find_cs(key, [BASE + "hub", BASE + "other"],
                              _graph_loader(graph, calls), n=3, max_loads=4, concurrency=4,
                              discover=Hop()))
    assert calls == ["hub", "k1", "k2"]
    assert res.complete and sorted(u[len(BASE):] for u in res.cs) == ["hub", "k1", "k2"]


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
@pytest.mark.parametrize("site_name,key_substr,scores_higher", [
    ("wikinotes", "/ANAT_322/lecture-notes/", 0.02),
    # 0.996 against 0.988 (min of template and content F1) since in-page
    # tables of contents and anchor permalinks are template: they were most
    # of what the hub pages' fit got wrong (0.02 and more before)
    ("wikinotes", "/COMP_302/summary/", 0.005),
    # since the gold of 2026-12-03 (a topic row's own page links are
    # template) the sub-forum scores 0.739 compared with its siblings and
    # 0.781 with the hub pages: the siblings are still the pages compared
    ("klnet-forum", "forumdisplay.php-f=14", None)])
def test_leaf_page_is_compared_with_its_siblings(site_name: str, key_substr: str,
                                                 scores_higher: float | None) -> None:
    """A leaf key page (fewer links than the offline pool's
    2n + 2, ``DEFAULT_SECOND_HOP``) that links no page of its kind (a wiki page links its course page
    and the home page, a sub-forum its parent forum) is compared with pages
    of its kind and folder found on the pages loaded (``SecondHop``,
    ``kin_pages``), within the same budget of 4 requests; without the second
    hop it is compared with hub pages and scores lower."""
    from temex.page.urls import url_kind
    from temex.site.explore import sibling_pattern
    assert DATA is not None
    folder = DATA / "sites" / site_name
    if not folder.is_dir():
        pytest.skip(f"{site_name} not in the shared data")
    site = load_site(folder)
    kp = next(k for k in site.key_pages if key_substr in k)
    f1 = {}
    with serve_folder(site.root) as base:
        for hop in (0, None):
            kw = {} if hop is None else {"second_hop": hop}
            ex = explore(base + kp, source=HttpSource(concurrency=2), **kw)
            assert ex.requests <= 4
            s = score_nodes(fit_exploration(ex).template,
                            gold_mask(ex.key, site.content_selector, site.template_selector))
            f1[hop] = min(s.template[2], s.content[2])
    kind, sib = url_kind(ex.key.url), sibling_pattern(ex.key.url)
    assert len(ex.pages) >= 2
    assert all(url_kind(p.url) == kind or sibling_pattern(p.url) == sib for p in ex.pages)
    if scores_higher is not None:
        assert f1[None] > f1[0] + scores_higher, f1
    else:
        assert f1[None] >= 0.73, f1  # measured 0.739


def test_second_hop_that_finds_nothing_keeps_the_cs() -> None:
    """A leaf key page whose loaded pages yield no new page of its kind (the
    demo blog post links all its sibling posts itself) keeps its complete
    CS, hub page included: ``kin_pages`` applies only to pages the second
    hop brought. (The key page's ancestors stay in their place both ways:
    a page that wants the second hop keeps them, ``explore.ancestors_last``.)"""
    www = Path(__file__).resolve().parents[1] / "src" / "temex" / "demo" / "greenleaf" / "www"
    with serve_folder(www) as base:
        on = explore(base + "/blog/planting-in-autumn/", source=HttpSource(concurrency=2))
        off = explore(base + "/blog/planting-in-autumn/", source=HttpSource(concurrency=2),
                      second_hop=0, ancestors=False)
    assert on.complete and len(on.pages) == 3
    assert [p.url for p in on.pages] == [p.url for p in off.pages]


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
def test_offline_pool_puts_the_key_pages_variants_last() -> None:
    """The offline pool (``temex eval``, ``temex extract --pages-dir``)
    orders candidates as live exploration does: variants of the key page
    (one product's sizes: ``...-6-sizes-to-choose-from-king.html``) go
    last (``temex.site.duplicates.variants_last``, shared with
    ``explore.variants_last``). Before, with ``-n 3`` the shop's
    mattress-protector page was compared with three sizes of itself, and
    its own description was voted template (content F1 0.020)."""
    from temex.site.duplicates import variant_urls
    from temex.site.pool import candidate_order, choose_pages

    site = load_site(DATA / "sites" / "americanpillowcase-shop")  # type: ignore[operator]
    key = next(k for k in site.key_pages if "mattress-protector" in k)
    f = site.root / key.lstrip("/")
    doc = parse(f.read_bytes(), url=str(f))
    order = [str(p.relative_to(site.root)) for p in candidate_order(doc, f, site.root)]
    variant = [variant_urls("/" + p, key) for p in order]
    assert sum(variant) >= 3
    first = variant.index(True)
    assert first >= 2 * 4 + 2  # after the default pool (2n + 2 for n = 4)
    assert first > len(order) // 2  # the variants (of the key page and others) come last
    pages, _, _ = choose_pages(doc, f, site.root, 3)
    assert not any(variant_urls("/" + str(Path(p.url).relative_to(site.root)), key)
                   for p in pages)
    from temex.api import ExtractOptions, extract_files

    model = extract_files(f, pages_dir=site.root, options=ExtractOptions(n_pages=3))
    assert not any(variant_urls("/" + str(Path(p).relative_to(site.root)), key)
                   for p in model.pages)
    gold = gold_mask(model.key, site.content_selector, site.template_selector)
    assert score_nodes(model.template, gold).content[2] >= 0.5


def test_ancestors_last_orders_the_home_and_section_pages_after_the_others() -> None:
    """``explore.ancestors_last``: links to the key page's URL ancestors (a
    folder's ``index.html`` is the folder) go last, in their order; other
    hosts, queries, the key page's own folder page and other pages stay,
    and so does the folder page beside a key page that is a file."""
    from temex.site.explore import ancestors_last
    from temex.site.links import Link

    key = "http://h/en/schedule/talk/15/index.html"
    urls = ["http://h/en/", "http://h/en/about/", "http://h/en/schedule/index.html",
            "http://h/en/schedule/talk/15/", "http://h/", "http://h/en/?lang=fr",
            "http://o/en/", "http://h/en/schedule/talk/16/"]
    out = [ln.url for ln in ancestors_last([Link(u, 0, (), "") for u in urls], key)]
    assert out == ["http://h/en/about/", "http://h/en/schedule/talk/15/", "http://h/en/?lang=fr",
                   "http://o/en/", "http://h/en/schedule/talk/16/",
                   "http://h/en/", "http://h/en/schedule/index.html", "http://h/"]
    blog = [ln.url for ln in ancestors_last([Link(u, 0, (), "") for u in
                                             ["http://h/", "http://h/blog/",
                                              "http://h/blog/b.html"]],
                                            "http://h/blog/a.html")]
    # a file's own folder page sits beside it (a flat archive's listing)
    assert blog == ["http://h/blog/", "http://h/blog/b.html", "http://h/"]


@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
def test_a_talk_page_is_not_outvoted_by_the_home_and_schedule_pages() -> None:
    """Live over HTTP: a conference's talk page links the
    home page and the schedule first (its menu and breadcrumb), and both
    lack the sponsor bar every talk and menu page carries; two of three
    compared pages outvoted it. With the key page's ancestors last it is
    compared with menu pages that carry it (template F1 0.661 -> 0.987)."""
    assert DATA is not None
    folder = DATA / "sites" / "pyconca2013-conference"
    if not folder.is_dir():
        pytest.skip("pyconca2013-conference not in the shared data")
    site = load_site(folder)
    kp = "/en/schedule/presentation/15/index.html"
    f1 = {}
    with serve_folder(site.root) as base:
        for anc in (False, True):
            ex = explore(base + kp, source=HttpSource(concurrency=2), ancestors=anc)
            assert ex.requests <= 4
            gold = gold_mask(ex.key, site.content_selector, site.template_selector)
            f1[anc] = score_nodes(fit_exploration(ex).template, gold).template[2]
            urls = [p.url[len(base):] for p in ex.pages]
            assert ("/en/" in urls) is (not anc), urls
    assert f1[False] < 0.7 and f1[True] > 0.95, f1


def test_near_best_sets_aside_pages_of_another_kind() -> None:
    """``pool.near_best``: candidates whose skeleton similarity is
    ``KIND_GAP`` or more below the best one's are left out, order kept."""
    from temex.site.pool import KIND_GAP, near_best

    assert near_best([0.52, 1.0, 0.51]) == [1]
    assert near_best([0.9, 0.7, 0.55]) == [0, 1, 2]
    assert near_best([0.9, 0.9 - KIND_GAP]) == [0]
    assert near_best([0.52, 1.0], gap=None) == [0, 1]
    assert near_best([]) == []


@pytest.mark.slow
@pytest.mark.skipif(DATA is None, reason="shared data not found (set TEMEX_DATA)")
def test_a_listing_is_compared_with_its_own_kind_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Offline and live, on the mailing-list archive: its
    two listings (by date, by thread) share a template that no message page
    has (37 of 81,000 elements). The folder's index file is met among the
    file's siblings (offline; live, the folder's page beside a file is no
    ancestor tried last but a sibling: ``explore.folder_page_beside``), and
    the message pages, of another skeleton (tag.class
    similarity 0.52 against 1.00), are not compared: before, the listings
    were compared with four message pages and nothing was template
    (template F1 0.000 each)."""
    from temex.api import ExtractOptions, extract_files
    from temex.site.pool import choose_pages

    assert DATA is not None
    folder = DATA / "sites" / "everything-list-hypermail"
    if not folder.is_dir():
        pytest.skip("everything-list-hypermail not in the shared data")
    site = load_site(folder)
    f = site.root / "date.html"
    key = parse(f.read_bytes(), url=str(f))
    pages, _, _ = choose_pages(key, f, site.root, 4)
    assert [Path(p.url).name for p in pages] == ["index.html"]
    message = site.root / "0100.html"
    pages, _, _ = choose_pages(parse(message.read_bytes(), url=str(message)), message,
                               site.root, 4)
    assert len(pages) == 4 and "index.html" not in [Path(p.url).name for p in pages]
    model = extract_files(f, pages_dir=site.root, options=ExtractOptions())
    gold = gold_mask(model.key, site.content_selector, site.template_selector)
    assert score_nodes(model.template, gold).template[2] >= 0.9
    # the report says which pages were found and not compared, and why
    aside = model.extra["set_aside"]
    assert len(aside) == 3 and all(Path(a["page"]).name.startswith("0") and
                                   a["why"].startswith("another kind by structure")
                                   for a in aside), aside
    with serve_folder(site.root) as base:  # live, each listing from the other
        for kp, other in (("/index.html", "/date.html"), ("/date.html", "/")):
            ex = explore(base + kp, source=HttpSource(concurrency=2))
            assert [p.url[len(base):] for p in ex.pages] == [other] and ex.loads <= 4
            assert list(ex.why.values()) == ["sibling"]  # as the offline pool says
            assert ex.set_aside and all(w.startswith("another kind by structure")
                                        for w in ex.set_aside.values())
            gold = gold_mask(ex.key, site.content_selector, site.template_selector)
            assert score_nodes(fit_exploration(ex).template, gold).template[2] >= 0.9
        # the command says so too
        _cli(["candidates", base + "/index.html", "--allow-host", base.split("//")[1]])
        out = capsys.readouterr().out
        assert "set aside:" in out and "another kind by structure" in out, out
