"""Duplicates of a crawl proven on content: the rule of
:mod:`temex.crawler.dedupe` on real page texts, and its candidate search
against the brute force it replaces."""

from __future__ import annotations

import random

import pytest
from conftest import DATA

from temex.crawler.dedupe import find_duplicates, text_shingles
from temex.site.duplicates import jaccard
from temex.page.dom import parse


def _site_texts(name: str, n: int) -> list[str]:
    """Body texts of ``n`` pages of a shared site (real prose, real lengths)."""
    if DATA is None or not (DATA / "sites" / name / "www").is_dir():
        pytest.skip(f"shared site {name} not found (set TEMEX_DATA)")
    files = sorted((DATA / "sites" / name / "www").rglob("*.html"))[:n]
    out = []
    for f in files:
        doc = parse(f.read_bytes(), url=str(f))
        text = "\n".join(doc.text[i] for i in range(len(doc)) if doc.text[i].strip())
        if len(text.split()) > 50:
            out.append(text)
    return out


def test_resemblance_of_shingle_sets() -> None:
    a = text_shingles("the cat sat on the mat")
    assert a == {"the cat sat", "cat sat on", "sat on the", "on the mat"}
    assert text_shingles("Two words") == {"two words"} and text_shingles("") == frozenset()
    # repeated sentences count as often as they occur
    assert text_shingles("a b c a b c") == {"a b c", "b c a", "c a b", "a b c#2"}
    assert jaccard(a, a) == 1.0
    assert jaccard(a, text_shingles("the cat sat on the hat")) == pytest.approx(3 / 5)


def test_only_content_proves_a_duplicate() -> None:
    posts = _site_texts("klnet-forum", 12)
    first, later = posts[0], posts[1]
    topic = "http://h/viewtopic?t=1"
    texts = [first, later, first, first, first + "\n" + later, "x " + first]
    canon = [topic, topic, topic, None, topic, None]
    found = find_duplicates(texts, canon, 0.95)
    # a later page of a topic (same canonical URL, other posts) is written
    assert 1 not in found
    # the same text: proven, and the canonical URL named when it agrees
    assert found[2].twin == 0 and found[2].kind == "same canonical URL and same text"
    assert found[3].twin == 0 and found[3].kind == "same text"
    # a page holding another's text and more is not a duplicate of it
    assert 4 not in found
    # near-same: one word added to a long text
    assert found[5].twin == 0 and found[5].kind == "near-same text"
    assert 0.95 <= found[5].resemblance < 1
    assert "resemblance" in found[5].describe(0.95) and "0.95" in found[5].describe(0.95)
    # above 1: equal texts only
    assert set(find_duplicates(texts, canon, 1.01)) == {2, 3}


def test_empty_texts_are_never_duplicates() -> None:
    assert find_duplicates(["", "", "some text here"], [None, None, None]) == {}


@pytest.mark.parametrize("threshold", [0.5, 0.8, 0.95])
def test_candidates_miss_no_pair_that_brute_force_finds(threshold: float) -> None:
    """Prefix filtering finds exactly what comparing every pair finds: real
    page texts, and copies of them edited a little or a lot."""
    base = _site_texts("hackingthe.cloud", 20)
    rng = random.Random(7)
    texts = list(base)
    for t in base[:15]:
        words = t.split()
        for share in (0.01, 0.05, 0.2):
            w = list(words)
            for _ in range(max(1, int(len(w) * share))):
                w[rng.randrange(len(w))] = f"edit{rng.randrange(10**6)}"
            texts.append(" ".join(w))
    rng.shuffle(texts)
    found = find_duplicates(texts, [None] * len(texts), threshold)
    sets = [text_shingles(t) for t in texts]
    written: list[int] = []
    want: dict[int, int] = {}
    for k in range(len(texts)):
        best = None
        for j in written:
            r = jaccard(sets[k], sets[j])
            if texts[j] == texts[k]:
                best = (2.0, j)
                break
            if r >= threshold and (best is None or (r, -j) > (best[0], -best[1])):
                best = (r, j)
        if best is None:
            written.append(k)
        else:
            want[k] = best[1]
    assert {k: p.twin for k, p in found.items()} == want
    assert len(want) >= 5  # the edited copies are found

