"""Near-duplicate candidates: shingles, the offline filter, the live
test and URL normalisation."""

from __future__ import annotations

from temex import parse
from temex.site.duplicates import distinct_pages, is_copy, page_shingles, same_page_url

MENU = "<ul>" + "".join(f"<li><a href='/{w}'>{w} section of the site</a></li>"
                        for w in ("news", "about", "shop", "contact")) + "</ul>"


def page(text: str) -> object:
    return parse(f"<html><body><nav>{MENU}</nav><main><p>{text}</p></main>"
                 "<footer>(c) the same footer text on every page</footer></body></html>")


ARTICLE = ("the quick brown fox jumps over the lazy dog while the cat watches from "
           "the old wooden fence near the river bank on a sunny day ")


def test_copies_of_the_key_page_and_of_each_other_are_dropped() -> None:
    key = page(ARTICLE * 2)
    copy = page(ARTICLE * 2 + " (King size)")
    others = [page(f"entirely different words number {i} about another topic "
                   f"seen on page {i} of this site with text {i * 7}") for i in range(3)]
    kept = distinct_pages(key, [copy, others[0], others[1], others[1], others[2]])
    assert copy not in kept
    assert kept == [others[0], others[1], others[2]]  # the second others[1] is a copy too
    assert page_shingles(key) and page_shingles(key) is page_shingles(key)  # cached


def test_live_copy_test() -> None:
    key = page(ARTICLE * 2)
    other = page("entirely different words about another topic seen on a page of the site")
    assert is_copy(page(ARTICLE * 2), [key])
    assert not is_copy(other, [key])
    assert is_copy(page(ARTICLE * 2 + " variant"), [key, other])


def test_same_page_url_drops_session_and_sort_parameters() -> None:
    a = same_page_url("http://x.org/forumdisplay.php?f=3&s=abc123&sort=lastpost&order=desc#top")
    b = same_page_url("http://x.org/forumdisplay.php?sort=title&f=3")
    assert a == b == "http://x.org/forumdisplay.php?f=3"
    assert same_page_url("http://x.org/p?id=2") != same_page_url("http://x.org/p?id=3")


def test_url_pattern_abstracts_the_variable_parts() -> None:
    from temex.page.urls import url_pattern
    assert url_pattern("showthread.php-t=4331.html") == url_pattern("showthread.php-t=5.html")
    assert url_pattern("showthread.php-t=4331") != url_pattern("forumdisplay.php-f=14")
    assert url_pattern("p?id=3&s=2") == url_pattern("p?s=9&id=4") == "p?id=*&s=*"
    assert url_pattern("img/9f8e7d6c5b4a/x") == "img/*/x"


def test_offline_pool_prefers_the_key_page_kind_and_drops_copies(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from temex.site.pool import choose_pages, load_candidate
    links = "".join(f"<li><a href='list-{i}.html'>list {i}</a></li>" for i in range(4))
    links += "".join(f"<li><a href='item-{i}.html'>item {i}</a></li>" for i in range(4))
    for name, text in [(f"list-{i}", f"listing {i} " + " ".join(f"w{i}{j}" for j in range(40)))
                       for i in range(4)] + [
            (f"item-{i}", f"item page {i} " + " ".join(f"v{i}{j}" for j in range(40)))
            for i in range(1, 4)] + [("item-0", ARTICLE * 2)]:
        (tmp_path / f"{name}.html").write_text(
            f"<html><body><nav><ul>{links}</ul></nav><main><p>{text}</p></main></body></html>")
    (tmp_path / "item-9.html").write_text(
        f"<html><body><nav><ul>{links}</ul></nav><main><p>{ARTICLE * 2}</p></main></body></html>")
    key = load_candidate(tmp_path / "item-9.html")
    pages, _, _ = choose_pages(key, tmp_path / "item-9.html", tmp_path, 3, pool_size=3)  # type: ignore[arg-type]
    names = sorted(p.url.rsplit("/", 1)[1] for p in pages)
    assert names == ["item-1.html", "item-2.html", "item-3.html"]  # item-0 is a copy


def test_variant_urls_are_one_item_in_another_colour_or_size() -> None:
    from temex.site.duplicates import variant_urls
    base = "http://x.org/shop/products/"
    gray = base + "cotton-body-pillow-cover-20-x-54-envelope-closure-gray.html"
    blue = base + "cotton-body-pillow-cover-20-x-54-envelope-closure-cadet-blue.html"
    assert variant_urls(gray, blue) and variant_urls(blue, gray)
    assert not variant_urls(gray, gray)
    # items that only start alike, other folders, short slugs: not variants
    assert not variant_urls(base + "how-to-write-a-good-title.html",
                            base + "how-to-choose-a-pillow-for-your-bed.html")
    assert not variant_urls(gray, "http://x.org/shop/sale/" + gray.rsplit("/", 1)[1])
    assert not variant_urls("http://x.org/notes/monday-march-5/",
                            "http://x.org/notes/monday-march-19/")
    assert not variant_urls(gray, base + "cotton-body-pillow-cover-20-x-54-with-a-long-"
                                         "different-tail-of-many-words.html")


def test_live_order_puts_the_key_kind_first_and_variants_last() -> None:
    from temex.site.explore import kind_front, sibling_pattern, variants_last
    from temex.site.links import Link

    def links(*paths: str) -> list[Link]:
        return [Link("http://x.org" + p, k, (k,), p) for k, p in enumerate(paths)]

    key = "http://x.org/c/pillows/products/soft-cotton-pillow-case-set-white.html"
    order = links("/", "/c/towels.html", "/pages/about.html",
                  "/c/pillows/products/soft-cotton-pillow-case-set-blue.html",
                  "/c/pillows/products/firm-foam-pillow.html",
                  "/c/pillows/products/silk-pillow-case.html")
    got = [ln.url[len("http://x.org"):] for ln in kind_front(variants_last(order, key), key, 3)]
    # the two other products first, the variant of the key page's product after them
    assert got[:3] == ["/c/pillows/products/firm-foam-pillow.html",
                       "/c/pillows/products/silk-pillow-case.html",
                       "/c/pillows/products/soft-cotton-pillow-case-set-blue.html"]
    assert [ln.url for ln in variants_last(order, key)][-1].endswith("set-blue.html")
    assert kind_front(order, key, 0) == order
    # a collection's siblings are the other collections of its folder
    coll = "http://x.org/c/bedding.html"
    assert sibling_pattern(coll) == sibling_pattern("http://x.org/c/towels.html")
    assert sibling_pattern(coll) != sibling_pattern(key)
    got = [ln.url[len("http://x.org"):] for ln in kind_front(order, coll, 3)]
    assert got[0] == "/c/towels.html"


def test_live_copy_test_counts_copies_of_the_key_page_only() -> None:
    key = page(ARTICLE * 2)
    other = page("entirely different words about another topic seen on a page of the site "
                 "with a long description shared by two products of the shop")
    twin = page("entirely different words about another topic seen on a page of the site "
                "with a long description shared by two products of the shop, in blue")
    assert is_copy(twin, [key, other])  # a copy of another candidate
    assert not is_copy(twin, [key, other], key_only=True)  # not of the key page
    assert is_copy(page(ARTICLE * 2 + " variant"), [key, other], key_only=True)


def test_variants_last_is_linear_and_matches_the_pairwise_rule() -> None:
    import random

    from temex.site.duplicates import variant_urls
    from temex.site.explore import variants_last
    from temex.site.links import Link
    rnd = random.Random(1)

    def url() -> str:
        words = [rnd.choice("abc") if i < 5 else rnd.choice("abcdef")
                 for i in range(rnd.randint(1, 9))]
        return "http://x.org" + rnd.choice(["/p/", "/q/"]) + "-".join(words) + ".html"

    demoted = 0
    for _ in range(100):
        key = url()
        urls = dict.fromkeys(url() for _ in range(25))
        links = [Link(u, i, (i,), "") for i, u in enumerate(urls)]
        first: list[str] = []
        later: list[str] = []
        for ln in links:
            if variant_urls(ln.url, key) or any(variant_urls(ln.url, o) for o in first):
                later.append(ln.url)
            else:
                first.append(ln.url)
        assert [ln.url for ln in variants_last(links, key)] == first + later
        demoted += len(later)
    assert demoted > 0


def _book(folder, chapters: int = 4):  # type: ignore[no-untyped-def]
    """A small book: one page per chapter and a print view holding them all."""
    import random
    rnd = random.Random(7)
    words = [f"w{k}" for k in range(400)]
    nav = "".join(f"<li><a href='ch{i}.html'>Chapter {i}</a></li>" for i in range(chapters))
    nav += "<li><a href='print.html'>Print</a></li>"
    texts = [" ".join(rnd.choice(words) for _ in range(120)) for _ in range(chapters)]

    def page(body: str) -> str:
        return (f"<html><body><nav class='menu'><ul>{nav}</ul></nav>"
                f"<main>{body}</main><footer><p>A book made with care</p></footer></body></html>")

    for i, t in enumerate(texts):
        (folder / f"ch{i}.html").write_text(page(f"<h1>Chapter {i}</h1><p>{t}</p>"))
    (folder / "print.html").write_text(page("".join(
        f"<h1>Chapter {i}</h1><p>{t}</p>" for i, t in enumerate(texts))))


def test_pages_the_key_page_holds_come_back_when_too_few_remain(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A print view holds every chapter; its chapters are
    near-duplicates of it, yet the only pages sharing its template. Offline,
    they come back last (said in the reasons); live, the same."""
    from temex.site.duplicates import held_by_key
    from temex.site.explore import explore, fit_exploration
    from temex.site.pool import choose_pages, load_candidate
    from temex.site.sources.http import HttpSource
    from temex.site.sources.localserve import serve_folder
    _book(tmp_path)
    key = load_candidate(tmp_path / "print.html")
    chapter = load_candidate(tmp_path / "ch0.html")
    assert held_by_key(chapter, key) and not held_by_key(key, chapter)  # type: ignore[arg-type]
    reasons: dict[str, str] = {}
    pages, _, _ = choose_pages(key, tmp_path / "print.html", tmp_path, 3,  # type: ignore[arg-type]
                               reasons=reasons)
    assert len(pages) == 3
    assert all(r.endswith("(held by the key page)") for r in reasons.values())
    with serve_folder(tmp_path) as base:
        ex = explore(base + "/print.html", n=3, max_loads=4, source=HttpSource())
    assert len(ex.pages) == 3 and all("held by the key page" in w for w in ex.why.values())
    model = fit_exploration(ex)
    nav = next(i for i in model.key.in_body() if model.key.tag[i] == "nav")
    assert model.template[nav] and model.extra["candidates"][0]["why"].endswith("page)")
