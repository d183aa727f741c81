"""Text-chunk detector (temex.template.detectors.chunks) and the paper's measures."""

from __future__ import annotations

import math

import pytest
from conftest import find_data

from temex.content.render import content_text
from temex.errors import NotFittedError, ParameterError
from temex.page.dom import parse
from temex.template.detectors.chunks import ChunksDetector, page_chunks, table_discovery_ratio

data_dir = find_data  # the shared data folder (tests/conftest.py)


def page(body: str) -> str:
    return ("<html><body><table id=nav><tr><td><a>Home</a> | <a>News&nbsp;&amp;&nbsp;Views</a>"
            "</td></tr></table><div class=main>" + body + "</div>"
            "<div class=foot><img src=logo.gif alt='ACME Corp'><img src=s.gif alt=spacer>"
            "<p>&copy; 2003 ACME</p></div></body></html>")


PAGES = [page(f"<h1>Story {k}</h1><p>Body text number {k} is long enough.</p>")
         for k in range(4)]


def test_template_chunks_and_mask():
    docs = [parse(p, f"p{k}") for k, p in enumerate(PAGES)]
    det = ChunksDetector(threshold=0.5, region=None).fit(docs[0], docs[1:])
    texts = {t for _, t in det.template_chunks_}
    # entities decoded, nbsp is a space; own text precedes child text (module notes)
    assert any("Home News & Views" in t for t in texts)
    assert "ACME Corp" in texts  # ALT text counted (paper §5)
    assert not any("spacer" in t for t in texts)  # worthless ALT dropped
    assert not any("Story" in t for t in texts)
    assert content_text(det.model_).split("\n") == ["Story 0", "Body text number 0 is long enough."]
    assert det.model_.extra["chunks"]["atf"] > 0


def test_tag_path_is_second_key():
    html = "<html><body><div><p>Same</p></div><ul><li>Same</li></ul></body></html>"
    doc = parse(html)
    keys = [k for k, _ in page_chunks(doc)]
    assert len(keys) == 2 and keys[0] != keys[1]
    assert len({k for k, _ in page_chunks(doc, tag_path=False)}) == 1


def test_table_boundary_mode():
    doc = parse("<html><body><table><tr><td><p>a</p><p>b</p></td><td>c</td></tr></table>"
                "</body></html>")
    assert [t for (_, t), _ in page_chunks(doc, boundary="table")] == ["a b", "c"]
    assert [t for (_, t), _ in page_chunks(doc, boundary="block")] == ["a", "b", "c"]


def test_threshold_absolute_and_params():
    docs = [parse(p) for p in PAGES]
    det = ChunksDetector(threshold=4, region=None).fit(docs[0], docs[1:])
    assert det.model_.extra["chunks"]["df_threshold"] == 4
    with pytest.raises(ParameterError):
        ChunksDetector(threshold=-1).fit(docs[0], docs[1:])
    with pytest.raises(ParameterError):
        ChunksDetector(boundary="span").fit(docs[0], docs[1:])
    with pytest.raises(NotFittedError):
        _ = ChunksDetector().model_


def test_deep_tree():
    depth = 10_000
    html = "<html><body>" + "<div>" * depth + "deep" + "</div>" * depth + "</body></html>"
    d = parse(html)
    det = ChunksDetector().fit(d, [d, d])
    assert all(det.template_[i] for i in d.in_body())


def test_real_site_measures():
    data = data_dir()
    if data is None:
        pytest.skip("shared data not found (set TEMEX_DATA)")
    files = sorted((data / "content" / "dragnet" / "zenhabits.net").glob("*.html"))[:8]
    docs = [parse(f.read_bytes(), str(f)) for f in files]
    det = ChunksDetector().fit(docs[0], docs[1:])
    text = content_text(det.model_)
    gold = set(files[0].with_suffix(".txt").read_text("utf-8").lower().split())
    got = set(text.lower().split())
    assert len(gold & got) / len(gold) > 0.9
    assert 0 < det.model_.extra["chunks"]["atf"] < 1
    # ttdr against a gold mask built from the gold text lines
    lines = set(files[0].with_suffix(".txt").read_text("utf-8").splitlines())
    gold_mask = [None if not docs[0].text[i] else docs[0].text[i] not in lines
                 for i in range(len(docs[0]))]
    r = table_discovery_ratio(docs[0], det.template_chunks_, gold_mask)
    assert not math.isnan(r) and r > 0
