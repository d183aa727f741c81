"""ETDM: the fast iterative mapping against a plain recursive reference, the
properties of Definition 3.2, and the edge cases of real pages."""

from __future__ import annotations

import random
import time
from functools import cache

import pytest

from temex.page.dom import Document, parse
from temex.template.equality import Equality, get_equality
from temex.template.mapping import etdm, signatures


def reference_score(d1: Document, d2: Document, eq: Equality) -> int:
    """Size of the largest one-to-one, order-preserving top-down mapping,
    straight from the definition (recursive; small trees only)."""

    @cache
    def score(a: int, b: int) -> int:
        if not eq.equal(d1, a, d2, b):
            return 0
        c1, c2 = d1.children[a], d2.children[b]
        table = [[0] * (len(c2) + 1) for _ in range(len(c1) + 1)]
        for i in range(1, len(c1) + 1):
            for j in range(1, len(c2) + 1):
                table[i][j] = max(table[i - 1][j], table[i][j - 1],
                                  table[i - 1][j - 1] + score(c1[i - 1], c2[j - 1]))
        return 1 + table[-1][-1]

    return score(0, 0)


def check_is_etdm(d1: Document, d2: Document, m: dict[int, int], eq: Equality) -> None:
    """Definition 3.2 (exact, top-down) plus one-to-one and sibling order."""
    assert len(set(m.values())) == len(m), "one-to-one"
    for a, b in m.items():
        assert eq.equal(d1, a, d2, b), "exact"
        if d1.parent[a] >= 0:
            assert m.get(d1.parent[a]) == d2.parent[b], "top-down"
    for a in m:
        kids = [c for c in d1.children[a] if c in m]
        images = [m[c] for c in kids]
        assert images == sorted(images), "order-preserving"


def random_html(rng: random.Random, n: int) -> str:
    tags = ["div", "p", "ul", "li", "span", "a"]
    texts = ["", "", "x", "y", "menu"]
    classes = ["", "", "a", "b", "a b"]
    parts = ["<html><body>"]
    depth = 0
    for _ in range(n):
        if depth and rng.random() < 0.35:
            parts.append("</section>")
            depth -= 1
            continue
        t = rng.choice(tags)
        cls = rng.choice(classes)
        attr = f' class="{cls}"' if cls else ""
        if rng.random() < 0.4:
            parts.append(f"<section{attr}>")
            depth += 1
        else:
            parts.append(f"<{t}{attr}>{rng.choice(texts)}</{t}>")
    parts.append("</section>" * depth + "</body></html>")
    return "".join(parts)


@pytest.mark.parametrize("equality", ["label", "strict", "text", "weighted"])
def test_fast_equals_reference_on_random_trees(equality: str) -> None:
    rng = random.Random(7)
    eq = get_equality(equality)
    for _ in range(60):
        d1 = parse(random_html(rng, rng.randint(1, 40)))
        d2 = parse(random_html(rng, rng.randint(1, 40)))
        m = etdm(d1, d2, eq)
        check_is_etdm(d1, d2, m, eq)
        assert len(m) == reference_score(d1, d2, eq)


def test_identical_pages_map_completely() -> None:
    html = "<html><body><nav><a>Home</a><a>Blog</a></nav><p>text</p></body></html>"
    d1, d2 = parse(html), parse(html)
    assert etdm(d1, d2) == {i: i for i in range(len(d1))}


def test_disjoint_and_empty_pages() -> None:
    d1 = parse("<html><body><p>a</p></body></html>")
    d2 = parse("<svg><circle/></svg>")  # the parser still builds html/head/body
    m = etdm(d1, d2, get_equality("label"))
    assert set(m) == {0, 1, 2}  # html, head, body only
    assert etdm(d1, parse("<html lang=x><body><p>b</p></body></html>"),
                get_equality("text")) == {0: 0, 1: 1, 2: 2}


def test_roots_must_be_equal() -> None:
    d1 = parse("<html class='a'><body></body></html>")
    d2 = parse("<html class='b'><body></body></html>")
    assert etdm(d1, d2, get_equality("strict")) == {}


def test_order_and_one_to_one_where_the_paper_pseudocode_is_not() -> None:
    # Alg. 2's pseudo-code would map each <p> of d1 to both <p> of d2.
    d1 = parse("<body><p>a</p><p>a</p></body>")
    d2 = parse("<body><p>a</p></body>")
    m = etdm(d1, d2, get_equality("label"))
    assert sum(1 for a in m if d1.tag[a] == "p") == 1


def test_deep_trees_do_not_recurse() -> None:
    html = "<html><body>" + "<div>" * 10_000 + "x" + "</div>" * 10_000 + "</body></html>"
    other = "<html><body>" + "<div>" * 9_000 + "y" + "</div>" * 9_000 + "</body></html>"
    m = etdm(parse(html), parse(other), get_equality("label"))
    assert len(m) == 3 + 9_000


def test_hundred_thousand_siblings_stay_fast() -> None:
    d1 = parse("<body><ul>" + "".join(f"<li>{i}</li>" for i in range(100_000)) + "</ul></body>")
    d2 = parse("<body><ul>" + "".join(f"<li>{i * 2}</li>" for i in range(100_000)) + "</ul></body>")
    t = time.perf_counter()
    m = etdm(d1, d2)
    assert time.perf_counter() - t < 60  # a hang guard, not a speed target (see bench/)
    check_is_etdm(d1, d2, m, get_equality("text"))
    assert len(m) == 4 + 50_000  # html, head, body, ul + the even numbers


def test_greedy_fallback_keeps_the_mapping_valid() -> None:
    rng = random.Random(3)
    eq = get_equality("text")
    d1 = parse(random_html(rng, 300))
    d2 = parse(random_html(rng, 300))
    m = etdm(d1, d2, eq, max_cells=4)
    check_is_etdm(d1, d2, m, eq)
    assert len(m) <= reference_score(d1, d2, eq)


def test_signatures_are_equal_exactly_for_identical_subtrees() -> None:
    d = parse("<body><ul class=m><li>A</li></ul><ul class=m><li>A</li></ul>"
              "<ul class=m><li>B</li></ul></body>")
    sig = signatures(d, get_equality("text"))
    uls = [i for i, t in enumerate(d.tag) if t == "ul"]
    assert sig[uls[0]] == sig[uls[1]] != sig[uls[2]]
    label = signatures(d, get_equality("label"))
    assert label[uls[0]] == label[uls[2]]


def test_real_pages_give_a_valid_mapping(site_dirs: list) -> None:
    from temex.evaluate import load_site, url_to_file
    from temex.page.files import load_file

    for folder in site_dirs:
        site = load_site(folder)
        a = load_file(url_to_file(site.root, site.key_pages[0]))
        b = load_file(url_to_file(site.root, site.key_pages[1]))
        for name in ("text", "label"):
            eq = get_equality(name)
            m = etdm(a, b, eq)
            check_is_etdm(a, b, m, eq)
            assert len(m) > 10
