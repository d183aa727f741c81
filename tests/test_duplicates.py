"""Near-duplicate candidates (issue 9): shingles, the offline filter, the live
test and URL normalisation."""

from __future__ import annotations

from temex import parse
from temex.site.duplicates import distinct_pages, is_copy, normalise_url, shingles

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
    assert shingles(key) and shingles(key) is shingles(key)  # cached


def test_live_copy_test() -> None:
    key = page(ARTICLE * 2)
    other = page("entirely different words about another topic seen on a page of the site")
    assert is_copy(page(ARTICLE * 2), [key])
    assert not is_copy(other, [key])
    assert is_copy(page(ARTICLE * 2 + " variant"), [key, other])


def test_normalise_url_drops_session_and_sort_parameters() -> None:
    a = normalise_url("http://x.org/forumdisplay.php?f=3&s=abc123&sort=lastpost&order=desc#top")
    b = normalise_url("http://x.org/forumdisplay.php?sort=title&f=3")
    assert a == b == "http://x.org/forumdisplay.php?f=3"
    assert normalise_url("http://x.org/p?id=2") != normalise_url("http://x.org/p?id=3")


def test_url_pattern_abstracts_the_variable_parts() -> None:
    from temex.site.pool import url_pattern
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
