"""RTDM-TD (temex.template.detectors.rtdm): hand-made trees, a slow reference, real pages."""

from __future__ import annotations

import random

import pytest
from conftest import find_data

from temex.content.render import content_text
from temex.page.dom import parse
from temex.template.detectors.rtdm import RTDMDetector, retrieve_template, rtdm_td

data_dir = find_data  # the shared data folder (tests/conftest.py)


def ref_cost(d1, a, d2, b):  # noqa: ANN001, ANN201 - plain recursion, tiny trees only
    """Restricted top-down distance (paper Def. 4) with text as a leaf, by
    brute recursion: no short-cuts, no memo, no prefix trimming."""
    txt = 0 if d1.text[a] == d2.text[b] else 1
    A, B = d1.children[a], d2.children[b]

    def pair(c, d):  # noqa: ANN001, ANN202
        if d1.tag[c] != d2.tag[d]:
            return 1 if d1.size[c] == 1 and d2.size[d] == 1 else d1.size[c] + d2.size[d]
        return ref_cost(d1, c, d2, d)

    M = [[0] * (len(B) + 1) for _ in range(len(A) + 1)]
    for i in range(1, len(A) + 1):
        M[i][0] = M[i - 1][0] + d1.size[A[i - 1]]
    for j in range(1, len(B) + 1):
        M[0][j] = M[0][j - 1] + d2.size[B[j - 1]]
    for i in range(1, len(A) + 1):
        for j in range(1, len(B) + 1):
            M[i][j] = min(M[i - 1][j] + d1.size[A[i - 1]], M[i][j - 1] + d2.size[B[j - 1]],
                          M[i - 1][j - 1] + pair(A[i - 1], B[j - 1]))
    return txt + M[len(A)][len(B)]


def random_html(rng: random.Random, n: int) -> str:
    tags = ["div", "p", "ul", "li", "span", "section"]
    words = ["home", "news", "about", "x", "y"]
    out, open_ = ["<html><body>"], []
    for _ in range(n):
        r = rng.random()
        if open_ and r < 0.3:
            out.append(f"</{open_.pop()}>")
        else:
            t = rng.choice(tags)
            out.append(f"<{t}>" + (rng.choice(words) if rng.random() < 0.5 else ""))
            open_.append(t)
    out.extend(f"</{t}>" for t in reversed(open_))
    return "".join(out) + "</body></html>"


def test_hand_made_pair():
    a = parse("<html><body><div id=nav><a>Home</a><a>News</a></div>"
              "<div id=main><h1>Title A</h1><p>Text A</p></div><p>(c) Site</p></body></html>")
    b = parse("<html><body><div id=nav><a>Home</a><a>News</a></div>"
              "<div id=main><h1>Title B</h1><p>Text B</p><p>More</p></div>"
              "<p>(c) Site</p></body></html>")
    res = rtdm_td(a, b)
    # h1 and p texts replaced (2), one <p> inserted (1)
    assert res.cost == 3 == ref_cost(a, 0, b, 0)
    mapped, kept = retrieve_template(a, b, res)
    texts = {a.text[i] for i in range(len(a)) if mapped[i] and kept[i] and a.text[i]}
    assert texts == {"Home", "News", "(c) Site"}
    assert all(mapped[i] for i in range(len(a)))  # every node of a is in the common subtree
    assert not kept[a.tag.index("h1")]


def test_identical_and_different_roots():
    a = parse("<html><body><p>x</p></body></html>")
    assert rtdm_td(a, a).cost == 0
    mapped, kept = retrieve_template(a, a, rtdm_td(a, a))
    assert all(mapped) and all(kept)
    det = RTDMDetector(region=None).fit(a, [a])
    assert all(det.template_)


@pytest.mark.parametrize("seed", range(40))
def test_matches_slow_reference(seed):
    rng = random.Random(seed)
    a = parse(random_html(rng, rng.randint(3, 25)))
    b = parse(random_html(rng, rng.randint(3, 25)))
    assert rtdm_td(a, b).cost == ref_cost(a, 0, b, 0)
    assert rtdm_td(b, a).cost == ref_cost(b, 0, a, 0)


def test_deep_tree_is_iterative():
    depth = 10_000
    html = "<html><body>" + "<div>" * depth + "x" + "</div>" * depth + "<p>a</p></body></html>"
    html2 = html.replace("<p>a</p>", "<p>b</p>").replace(">x<", ">y<")
    a, b = parse(html), parse(html2)
    res = rtdm_td(a, b)
    assert res.cost == 2
    model = RTDMDetector(region=None).fit(a, [b]).model_
    assert sum(model.template) == len(a) - 2


def test_real_pages_keep_content():
    data = data_dir()
    if data is None:
        pytest.skip("shared data not found (set TEMEX_DATA)")
    site = data / "content" / "dragnet" / "zenhabits.net"
    files = sorted(site.glob("*.html"))[:5]
    docs = [parse(f.read_bytes(), str(f)) for f in files]
    model = RTDMDetector().fit(docs[0], docs[1:]).model_
    text = content_text(model)
    gold = files[0].with_suffix(".txt").read_text("utf-8")
    gold_words = set(gold.lower().split())
    got_words = set(text.lower().split())
    assert len(gold_words & got_words) / len(gold_words) > 0.9
    assert len(gold_words & got_words) / len(got_words) > 0.8
    assert 0 < sum(model.template) < len(docs[0])


def test_a_level_aligned_greedily_solves_none_of_its_pairs():
    """Two listings of 1,000 different rows (1,000,000 cells: past
    ``max_cells``, aligned by identical subtrees only) map without solving
    a pair of rows: the alignment reads none, and solving them all (an
    archive's index of 17,000 messages against another) ran out of memory."""
    rows_a = "".join(f"<li><a href='/m{k}'>message {k}</a></li>" for k in range(1000))
    rows_b = "".join(f"<li><a href='/n{k}'>other {k}</a></li>" for k in range(1000))
    page = "<html><body><div id=nav><a>Home</a></div><ul>{}</ul><p>(c) Site</p></body></html>"
    a, b = parse(page.format(rows_a)), parse(page.format(rows_b))
    res = rtdm_td(a, b)
    assert len(res.ops) <= 4  # html, body, ul: no pair of rows
    mapped, kept = retrieve_template(a, b, res)
    li = [i for i in range(len(a)) if a.tag[i] == "li"]
    assert not any(mapped[i] for i in li)
    assert all(mapped[i] and kept[i] for i in range(len(a)) if a.text[i] in ("Home", "(c) Site"))
