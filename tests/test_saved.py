"""Saved site templates (temex.template.saved) and the fit/strip CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import find_data

from temex.cli.main import main
from temex.content.render import content_text
from temex.errors import ModelFormatError
from temex.page.dom import parse
from temex.template.detectors.vote import VoteDetector
from temex.template.saved import FORMAT_VERSION, SavedTemplate, apply, node_signatures, strip

SRC = Path(__file__).resolve().parents[1] / "src"


data_dir = find_data  # the shared data folder (tests/conftest.py)


def page(k: int, nav: bool = True) -> str:
    navhtml = ("<ul class=menu><li><a href=/>Home</a></li><li><a href=/blog>Blog</a></li>"
               "<li><a href=/about>About</a></li></ul>") if nav else ""
    return (f"<html><head><title>P{k}</title></head><body><div id=header>{navhtml}</div>"
            f"<div class=post-{k}><h1>Article {k}</h1><p>Own words of page {k} here.</p>"
            f"<p>Second paragraph {k}.</p></div>"
            "<div id=footer><p>Copyright Example Ltd</p></div></body></html>")


@pytest.fixture()
def saved() -> SavedTemplate:
    docs = [parse(page(k), f"p{k}") for k in range(4)]
    m1 = VoteDetector().fit(docs[0], docs[1:]).model_
    m2 = VoteDetector().fit(docs[1], [docs[0], docs[2], docs[3]]).model_
    return SavedTemplate.from_models([m1, m2], site="example.org")


def test_apply_to_unseen_page(saved):
    doc = parse(page(9), "p9")
    text = content_text(strip(saved, doc))
    assert text.split("\n") == ["Article 9", "Own words of page 9 here.", "Second paragraph 9."]


def test_partial_template_page(saved):
    doc = parse(page(7, nav=False))  # the page lacks the menu: the rest still matches
    text = content_text(strip(saved, doc))
    assert "Copyright" not in text and "Article 7" in text


def test_roundtrip_and_versions(saved, tmp_path):
    f = tmp_path / "t.json"
    saved.save(f)
    back = SavedTemplate.load(f)
    doc = parse(page(5))
    assert apply(back, doc) == apply(saved, doc)
    d = json.loads(f.read_text())
    assert d["format"] == "temex-template" and d["version"] == FORMAT_VERSION
    assert len(d["key_pages"]) == 2
    d["version"] = 99
    f.write_text(json.dumps(d))
    with pytest.raises(ModelFormatError):
        SavedTemplate.load(f)
    f.write_text("{not json")
    with pytest.raises(ModelFormatError):
        SavedTemplate.load(f)


def test_signatures_are_stable_across_processes():
    code = ("import sys; sys.path.insert(0, %r); from temex.page.dom import parse; "
            "from temex.template.saved import node_signatures; "
            "print(node_signatures(parse('<html><body><div id=a1 class=\"x y\">t</div>"
            "</body></html>'))[1][-1])" % str(SRC))
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip()
            for seed in ("1", "2")}
    assert len(outs) == 1 and len(outs.pop()) == 16
    # digits in ids/classes are normalised: post-1 ~ post-2
    a = node_signatures(parse("<html><body><div class=post-1></div></body></html>"))[0]
    b = node_signatures(parse("<html><body><div class=post-22></div></body></html>"))[0]
    assert a == b


def test_deep_page_apply(saved):
    depth = 10_000
    doc = parse("<html><body>" + "<div>" * depth + "x" + "</div>" * depth + "</body></html>")
    assert len(apply(saved, doc)) == len(doc)


def test_cli_fit_and_strip(tmp_path, capsys):
    files = []
    for k in range(5):
        f = tmp_path / f"p{k}.html"
        # content -f uses the fit pages' repeated text too (temex.content): blocks that
        # differ in digits only would be site text, so page 4 gets its own words
        f.write_text(page(k) if k < 4 else page(k).replace("Own words", "Unique words")
                     .replace("Article 4", "Article four").replace("paragraph 4", "paragraph four"))
        files.append(str(f))
    tpl = tmp_path / "site.template.json"
    assert main(["fit", *files[:4], "-o", str(tpl)]) == 0
    assert main(["strip", "--template", str(tpl), files[4], "-f", "content"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["Article four", "Unique words of page 4 here.",
                                "Second paragraph four."]
    outdir = tmp_path / "out"
    assert main(["strip", "--template", str(tpl), *files[3:], "-f", "annotated",
                 "-o", str(outdir)]) == 0
    assert sorted(p.name for p in outdir.iterdir()) == ["p3.html", "p4.html"]
    assert "template_node" in (outdir / "p4.html").read_text()
    for m in ("rtdm", "chunks", "intersect"):
        assert main(["fit", *files[:4], "--method", m, "-o", str(tmp_path / f"{m}.json")]) == 0


def test_real_site_unseen_pages_match_direct_fit():
    data = data_dir()
    if data is None:
        pytest.skip("shared data not found (set TEMEX_DATA)")
    files = sorted((data / "content" / "dragnet" / "zenhabits.net").glob("*.html"))
    docs = [parse(f.read_bytes(), str(f)) for f in files]
    m = VoteDetector().fit(docs[0], docs[1:4]).model_
    st = SavedTemplate.from_models([m])
    for f, d in zip(files[5:], docs[5:]):
        gold = set(f.with_suffix(".txt").read_text("utf-8").lower().split())
        got = set(content_text(strip(st, d)).lower().split())
        assert len(gold & got) / len(gold) > 0.85, f


def test_site_index_field_optional_and_versioned(saved, tmp_path):
    from temex.template.site_index import SiteIndex

    d = saved.to_dict()
    assert "site_index" not in d  # old files: no field, loads with no index
    assert SavedTemplate.from_dict(json.loads(json.dumps(d))).site_index is None
    docs = [parse(page(k), f"p{k}") for k in range(4)]
    saved.site_index = SiteIndex(docs, hashed=True)
    path = tmp_path / "t.json"
    saved.save(path)
    back = SavedTemplate.load(path)
    assert back.site_index is not None and back.site_index.n_pages == 4
    assert back.site_index.df == saved.site_index.df
    assert back.site_index.member(docs[0]) and not back.site_index.member(parse(page(9), "p9"))
    raw = json.loads(path.read_text())
    raw["site_index"]["version"] = 99  # unknown index version: ignored, template still loads
    assert SavedTemplate.from_dict(raw).site_index is None


def test_signatures_match_the_plain_definition_on_shared_pages(data_dir) -> None:  # noqa: ANN001
    """Steps and repeated paths are hashed once per page; the
    signatures are still those of the definition (persisted in templates)."""
    from hashlib import blake2b

    from temex.errors import ParseError
    from temex.page.dom import parse
    from temex.template.saved import _ROOT, _step, node_signatures

    def plain(doc):  # noqa: ANN001, ANN202
        raw, path, text = [b""] * len(doc), [""] * len(doc), [""] * len(doc)
        for i in range(len(doc)):
            p = doc.parent[i]
            d = blake2b((raw[p] if p >= 0 else _ROOT) + b"/" + _step(doc, i).encode(),
                        digest_size=8).digest()
            raw[i], path[i] = d, d.hex()
            if doc.text[i]:
                text[i] = blake2b(d + b"\x00" + doc.text[i].encode("utf-8", "replace"),
                                  digest_size=8).hexdigest()
        return path, text

    checked = 0
    # files only: a site may have a folder named like a page (``blog.html/``)
    for f in sorted(f for f in data_dir.rglob("*.htm*") if f.is_file())[::4]:
        try:
            doc = parse(f.read_bytes())
        except ParseError:
            continue
        assert node_signatures(doc) == plain(doc), f
        checked += 1
    assert checked > 100


def test_fit_of_many_files_holds_a_few_pages(monkeypatch):
    """``temex fit`` reads each file, counts it into the site index and lets
    it go; only a key page and the pages compared with it are read again and
    held (holding every page given cost about 0.5 MB a page, docs/CLI.md). The template is the one fitted from the pages
    held in memory. The real reader is called, only counted."""
    import gc
    import weakref

    import temex.cli.fit as fit

    data = data_dir()
    if data is None:
        pytest.skip("shared data not found (set TEMEX_DATA)")
    files = [str(f) for f in sorted((data / "sites" / "wikinotes" / "www").rglob("index.html"))[:40]]
    real = fit.load_page
    alive: list[weakref.ref] = []
    most = [0]

    def counted(path):
        gc.collect()
        most[0] = max(most[0], sum(1 for r in alive if r() is not None))
        doc = real(path)
        if doc is not None:
            alive.append(weakref.ref(doc))
        return doc

    monkeypatch.setattr(fit, "load_page", counted)
    streamed = fit.fit_files(files, keys=2, n_pages=3)
    monkeypatch.setattr(fit, "load_page", real)
    held = fit.fit_saved([d for d in map(real, files) if d is not None], keys=2, n_pages=3)
    assert streamed is not None and streamed.to_dict() == held.to_dict()
    assert len(alive) >= len(files) + 2 * 4  # every file, then each key and its pages again
    # the key page and its 3 pages at hand, and the first key kept by its model
    assert most[0] <= 1 + 3 + 1
