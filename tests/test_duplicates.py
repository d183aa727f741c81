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
