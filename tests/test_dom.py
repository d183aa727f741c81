"""The DOM model: structure, text, hashes, encodings, and hostile input."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from temex.errors import ParseError
from temex.page.dom import MAX_DEPTH, decode_html, parse


def test_arrays_in_preorder() -> None:
    d = parse("<html><body><div id='a' class='y x x'>hi <b>there</b> you</div>"
              "<p>p</p><!-- c --></body></html>")
    assert d.tag == ["html", "head", "body", "div", "b", "p"]
    assert d.parent == [-1, 0, 0, 2, 3, 2]
    assert d.children[2] == (3, 5)
    assert d.id[3] == "a" and d.classes[3] == ("x", "y")
    assert d.text[3] == "hi you" and d.text[4] == "there"
    assert d.size[0] == 6 and d.size[3] == 2
    assert d.depth[4] == 3 and d.position[5] == 1
    assert d.body == 2
    assert list(d.descendants(3)) == [3, 4]
    assert d.subtree_text(3) == "hi there you"


def test_identical_subtrees_share_hashes() -> None:
    d = parse("<body><ul><li><a href=/>Home</a></li></ul><ul><li><a href=/>Home</a></li></ul>"
              "<ul><li><a href=/>Away</a></li></ul></body>")
    uls = [i for i, t in enumerate(d.tag) if t == "ul"]
    assert d.subtree_hash[uls[0]] == d.subtree_hash[uls[1]] != d.subtree_hash[uls[2]]


def test_paths_round_trip() -> None:
    d = parse("<body><div><p>a</p><p>b</p><span>c</span></div></body>")
    p2 = d.tag.index("span")
    assert d.path(p2) == "/html/body/div/span"
    second_p = [i for i, t in enumerate(d.tag) if t == "p"][1]
    assert d.path(second_p) == "/html/body/div/p[2]"
    for i in range(len(d)):
        assert d.node_for_path(d.path(i)) == i
    assert d.node_for_path("/html/body/table") == -1


def test_ten_thousand_levels_deep() -> None:
    html = "<html><body>" + "<div>" * 10_000 + "x" + "</div>" * 10_000 + "</body></html>"
    capped = parse(html)  # deeper than MAX_DEPTH: siblings there, as in Chromium
    assert max(capped.depth) <= MAX_DEPTH + 2 and len(capped) == 10_003
    assert "x" in capped.text
    d = parse(html, max_depth=20_000)  # uncapped: every walk is iterative
    assert max(d.depth) >= 10_000
    deepest = max(range(len(d)), key=d.depth.__getitem__)
    assert d.text[deepest] == "x"
    assert d.size[d.body] == len(d) - 2
    assert d.path(deepest).count("/div") >= 10_000


def test_hundred_thousand_siblings() -> None:
    d = parse("<body><ul>" + "<li>i</li>" * 100_000 + "</ul></body>")
    ul = d.tag.index("ul")
    assert len(d.children[ul]) == 100_000


def test_broken_html_is_repaired_like_a_browser() -> None:
    d = parse("<html><body><p>one<p>two<div>three</span></table><li>four")
    assert d.tag.count("p") == 2
    assert "li" in d.tag
    assert d.subtree_text(d.body) == "one two three four"


_NOSCRIPT = ('<html><head><title>Deploy</title>'
             '<noscript><img src="/pixel.gif"></noscript>'
             '<link rel="canonical" href="https://example.org/deploy"></head><body>'
             '<noscript><iframe src="https://tags.example/ns.html" style="display:none" />'
             '</noscript><main><h1>Deploy in one click</h1><p>Connect your repository and '
             'every push is built, tested and served from the region you choose.</p>'
             '</main></body></html>')


def test_noscript_is_read_as_a_browser_that_runs_scripts_reads_it(tmp_path: Path) -> None:
    """``<noscript>`` content is raw text (the HTML Standard's scripting
    flag): a self-closed ``<iframe />`` in it does not swallow the page as
    the iframe's text, and an ``<img>`` in a head's ``<noscript>`` does not
    close the head (the canonical link after it stays metadata). Through
    the command, as a user meets it."""
    d = parse(_NOSCRIPT)
    assert "iframe" not in d.tag and "h1" in d.tag
    assert d.tag[d.parent[d.tag.index("link")]] == "head"
    (tmp_path / "deploy.html").write_text(_NOSCRIPT, encoding="utf-8")
    r = _temex("content", "deploy.html", "-f", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    import json

    report = json.loads(r.stdout)
    assert "every push is built" in report["text"]
    assert report["metadata"]["canonical"] == "https://example.org/deploy"


@pytest.mark.parametrize("data, expected, encoding", [
    ("café".encode("cp1252"), "café", "cp1252"),                              # undeclared latin-1
    ('<meta charset="iso-8859-1"><p>café'.encode("cp1252"), "café", "cp1252"),
    ('<meta charset="shift_jis"><p>日本'.encode("shift_jis"), "日本", "shift_jis"),
    ("\ufeffnaïve".encode("utf-8"), "naïve", "utf-8"),                          # BOM
    ('<meta charset="windows-1251"><p>ok é'.encode(), "ok é", "utf-8"),  # lying meta
])
def test_encodings(data: bytes, expected: str, encoding: str) -> None:
    text, enc = decode_html(data)
    assert expected in text
    assert enc.replace("_", "-").startswith(encoding.replace("_", "-")[:5])


def test_transport_charset_wins_over_sniffing() -> None:
    data = "<p>Привет".encode("koi8-r")
    doc = parse(data, declared_encoding="koi8-r")
    assert doc.text[doc.tag.index("p")] == "Привет"


def test_invalid_bytes_become_replacement_characters() -> None:
    doc = parse(b'<meta charset="utf-8"><p>ok \xff\xfe bad</p>' + "é".encode())
    assert "ok" in doc.subtree_text(doc.body)


@pytest.mark.parametrize("data, message", [
    (b"", "empty"),
    (b"   \n ", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
])
def test_unusable_input_raises_parse_error(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse(data, url="x.html")


def test_too_large_is_an_error_not_a_parse() -> None:
    with pytest.raises(ParseError, match="over the limit"):
        parse(b"<p>" + b"a" * 2000, max_bytes=1000)


def _shared_pages() -> list[Path]:
    from conftest import DATA

    if DATA is None:
        return []
    return sorted(p for p in DATA.rglob("*.htm*") if p.is_file())


@pytest.mark.slow
def test_fast_builder_matches_the_reference_on_every_shared_page(data_dir: Path) -> None:
    """The one-pass builder gives the old builder's arrays, field for
    field (hashes and lazy fields included), on every page of the evaluation data."""
    from _reference_dom import FIELDS, reference_arrays

    pages = _shared_pages()
    assert len(pages) > 100
    checked = 0
    for path in pages:
        raw = path.read_bytes()
        try:
            doc = parse(raw, url=str(path))
        except ParseError:
            continue
        ref = reference_arrays(raw)
        for name in FIELDS:
            assert getattr(doc, name) == ref[name], f"{path}: {name} differs"
        assert doc.element_index() == {el.mem_id: k for k, el in enumerate(doc.elements)}
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("html", [
    "<html><body><div id=' a ' class='b  a b' data-X='1' ID2=''>x<!-- c --> y<b>z</b>"
    "\u00a0 w</div><svg viewBox='0 0 1 1'><foreignObject>t</foreignObject></svg>"
    "<template><p>inside</p></template><script>var a</script><p>\u3000</p></body></html>",
    "text only", "<frameset><frame src=a></frameset>", "<table><tr><td>1<td>2</table>x",
    "<p>" * 3000 + "deep",
])
def test_fast_builder_matches_the_reference_on_odd_markup(html: str) -> None:
    from _reference_dom import FIELDS, reference_arrays

    doc, ref = parse(html), reference_arrays(html)
    for name in FIELDS:
        assert getattr(doc, name) == ref[name], name


def test_rehash_after_editing_recomputes_the_lazy_hash() -> None:
    d = parse("<body><p>a</p><p>b</p></body>")
    before = list(d.subtree_hash)
    d.text[d.tag.index("p")] = "b"
    assert d.subtree_hash == before  # stale until rehash, as before
    d.rehash()
    ps = [i for i, t in enumerate(d.tag) if t == "p"]
    assert d.subtree_hash[ps[0]] == d.subtree_hash[ps[1]] != before[ps[0]]


# -- the depth scan's fast path ------------------------

def _scan_always(text: str, max_depth: int, max_elements: int) -> bool:
    """The rule before the fast path: scan every page of more possible start
    tags than the cap."""
    return text.count("<") - text.count("</") > min(max_depth, max_elements)


def _never(text: str, max_depth: int, max_elements: int) -> bool:
    """No page parsed before the depth scan (the rule before parse-first)."""
    return False


def _same_document(a: object, b: object, where: str) -> None:
    from _reference_dom import FIELDS

    for name in (*FIELDS, "encoding"):
        assert getattr(a, name) == getattr(b, name), f"{where}: {name} differs"


_HOSTILE_DEPTH = [
    "<div>" * 200_000,
    "<div>" * 600 + "x" + "</span>" * 600 + "</div>" * 600,          # stray end tags
    "</div></b>" * 300 + "<div><span>" * 400 + "deep" + "</i>" * 700,
    ("<section><article><b>" * 300) + "never closed",                 # never closed
    "<ul><li>" * 700 + "items" + "<p>" * 3000 + "paragraphs",          # implicit closes
    "<table><tr><td>" * 600 + "cells",
    "<div>" * 600 + "<script>" + "<div>" * 600 + "</script><!-- <div> -->t" + "</div>" * 600,
    "<div>" * 511 + "x", "<div>" * 512 + "x", "<div>" * 513 + "x",
    "<DIV class=a>" * 520 + "<Br/><img><P>" * 600 + "x",
    "<p>x</p>" * 1_000 + "<div>" * 600,
]


@pytest.mark.parametrize("html", _HOSTILE_DEPTH, ids=range(len(_HOSTILE_DEPTH)))
def test_fast_path_matches_the_scan_on_hostile_depth(html: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from temex.page import dom

    fast = parse(html)
    if dom.counted_bound(html) > MAX_DEPTH:
        assert dom._needs_scan(html, MAX_DEPTH, dom.DEFAULT_MAX_ELEMENTS)
    monkeypatch.setattr(dom, "_needs_scan", _scan_always)
    monkeypatch.setattr(dom, "_parse_first", _never)
    scanned = parse(html)
    _same_document(fast, scanned, html[:40])
    # the scan counts elements with a required end tag: <li>, <tbody><tr><td>
    # under each counted level may add levels, on both paths alike
    assert max(fast.depth) <= 4 * MAX_DEPTH + 4


@pytest.mark.slow
def test_fast_path_matches_the_scan_on_every_shared_page(data_dir: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages whose counted start tags prove the scan a no-op skip it, and
    pages parsed first whose tree is no deeper than the cap skip it too: their
    Documents are the scanned path's, field for field, on every shared page."""
    from temex.page import dom

    pages = _shared_pages()
    assert len(pages) > 100
    fast: dict[Path, object] = {}
    skipped = checked = 0
    for path in pages:
        raw = path.read_bytes()
        try:
            fast[path] = parse(raw, url=str(path))
        except ParseError:
            continue
        text = fast[path].parser.html or ""  # type: ignore[attr-defined]
        if not dom._needs_scan(text, MAX_DEPTH, dom.DEFAULT_MAX_ELEMENTS):
            skipped += 1
        elif dom._parse_first(text, MAX_DEPTH, dom.DEFAULT_MAX_ELEMENTS):
            checked += 1
    monkeypatch.setattr(dom, "_needs_scan", _scan_always)
    monkeypatch.setattr(dom, "_parse_first", _never)
    for path, doc in fast.items():
        _same_document(doc, parse(path.read_bytes(), url=str(path)), str(path))
    assert skipped > 100 and checked > 100


def test_scan_matches_the_old_scan() -> None:
    """The faster scan (greedy tag regex, uncounted end tags skipped) gives
    the old scan's text and start count: hostile cases, random tag soup."""
    import random

    from _reference_scan import reference_cap_depth

    from temex.page.dom import cap_depth

    rnd = random.Random(11)
    parts = ["<div>", "</div>", "<span a='<div>'>", "</span>", "<li>", "</li>", "<p>", "</p>",
             "<!--", "-->", "<script>", "</script >", "<b/>", "x", "<a>", "</a>", "<br>",
             "</x>", "<h1>", "<table>", "<td>", "<?x>", "<!d>", "<textarea>", "</textarea>",
             "<DIV class=a/>", "</Div>"]
    texts = _HOSTILE_DEPTH + ["".join(rnd.choice(parts) for _ in range(rnd.randint(1, 1500)))
                              for _ in range(400)]
    for text in texts:
        for cap in (512, 5, 1):
            assert cap_depth(text, cap) == reference_cap_depth(text, cap), text[:60]
        assert cap_depth(text, 3, max_starts=40) == reference_cap_depth(text, 3, max_starts=40)


# -- a declared charset that does not decode the page -----------------

def _temex(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    import os
    import sys

    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(repo / "src") + os.pathsep
               + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "temex", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


_CAFE = ('<html><head><meta charset="utf-8"><title>Café crème</title></head><body>'
         "<article><h1>Café crème</h1><p>Le café crème est servi à la terrasse, près de "
         "l'église.</p></article></body></html>")


def test_latin1_bytes_under_utf8_are_read_and_the_report_says_so(tmp_path: Path) -> None:
    """``<meta charset="utf-8">`` over Latin-1 bytes: "Café crème", not
    "Caf\ufffd cr\ufffdme", and the JSON report says what was done."""
    (tmp_path / "cafe.html").write_bytes(_CAFE.encode("latin-1"))
    r = _temex("content", "cafe.html", "-f", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    import json

    report = json.loads(r.stdout)
    assert "Café crème" in report["text"] and "\ufffd" not in report["text"]
    meta = report["metadata"]
    assert meta["encoding"] == "cp1252" and meta["title"] == "Café crème"
    assert "declared charset utf-8 does not decode" in meta["encoding_fallback"]
    assert "windows-1252" in meta["encoding_fallback"]


def test_a_page_in_another_charset_is_detected(tmp_path: Path) -> None:
    text = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 4
    page = (f'<html><head><meta charset="utf-8"><title>Булки</title></head><body>'
            f"<article><h1>Булки</h1><p>{text}</p></article></body></html>")
    (tmp_path / "ru.html").write_bytes(page.encode("cp1251"))
    r = _temex("content", "ru.html", "-f", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    import json

    report = json.loads(r.stdout)
    assert text.strip() in report["text"]
    assert report["metadata"]["encoding"] == "cp1251"
    assert "detected cp1251" in report["metadata"]["encoding_fallback"]


_LEGACY = {  # one paragraph per script, in an encoding of its locale, long enough to detect
    "shift_jis": "日本語のテキストです。これはテストの文章で、文字コードの判定を確かめます。" * 3,
    "euc_kr": "이것은 문자 인코딩 자동 감지를 확인하기 위한 한국어 테스트 문단입니다. " * 3,
    "gbk": "这是一个中文测试段落，用来检查字符编码的自动识别是否正确。" * 3,
    "big5": "這是一個中文測試段落，用來檢查字元編碼的自動識別是否正確。" * 3,
    "cp1251": "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 3,
    "koi8_r": "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 3,
    "cp1253": "Αυτή είναι μια δοκιμαστική παράγραφος στα ελληνικά για τον έλεγχο. " * 3,
    "cp1255": "זוהי פסקת בדיקה בעברית כדי לבדוק את זיהוי הקידוד של הדף הזה. " * 3,
}


@pytest.mark.parametrize("encoding", sorted(_LEGACY))
def test_an_undeclared_legacy_page_is_detected(tmp_path: Path, encoding: str) -> None:
    """A page that declares no charset (neither ``<meta>`` nor the transport)
    and is many bytes of a legacy encoding is read in the detected charset,
    not as windows-1252 mojibake; through ``temex content`` on the file."""
    text = _LEGACY[encoding].strip()
    page = (f"<html><head><title>t</title></head><body><article><p>{text}</p></article>"
            "</body></html>")
    (tmp_path / "page.html").write_bytes(page.encode(encoding))
    r = _temex("content", "page.html", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert text in r.stdout


def test_an_undeclared_latin_page_stays_windows_1252() -> None:
    """Undeclared Latin text with many accented letters is windows-1252, as a
    browser of a Western locale reads it, where detection would guess
    windows-1250 ("è" as "č"); a Polish windows-1250 page is read so too."""
    french = ("<p>Le château médiéval où nous séjournâmes était près d'une forêt; à l'été, "
              "les élèves y étudiaient la géologie.</p>") * 20
    text, enc = decode_html(french.encode("cp1252"))
    assert enc == "cp1252" and "séjournâmes" in text
    assert decode_html(("<p>Zażółć gęślą jaźń, Łódź.</p>" * 20).encode("cp1250"))[1] == "cp1252"


def test_utf8_page_with_stray_latin1_bytes_keeps_both() -> None:
    data = ('<meta charset="utf-8"><p>Schrödinger 明迪 and R'.encode() + b"\xe9p: x</p>")
    text, enc = decode_html(data)
    assert "Schrödinger 明迪 and Rép" in text
    assert enc == "cp1252" and "UTF-8" in getattr(enc, "reason", "")


def test_a_page_that_decodes_costs_no_fallback() -> None:
    """The fallback (and charset-normalizer) is loaded only when a declared
    charset fails: parsing good pages never imports it."""
    import subprocess
    import sys

    code = ("import sys; from temex.page.dom import parse\n"
            "for page in (b'<meta charset=utf-8><p>caf\\xc3\\xa9', b'<p>caf\\xe9',\n"
            "             b'<meta charset=latin-1><p>caf\\xe9'):\n"
            "    d = parse(page); assert type(d.encoding) is str, d.encoding\n"
            "assert 'temex.page.charset' not in sys.modules\n"
            "assert 'charset_normalizer' not in sys.modules\n"
            "parse(b'<meta charset=utf-8><p>caf\\xe9')\n"
            "assert 'temex.page.charset' in sys.modules\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=False, timeout=60)
    assert r.returncode == 0, r.stderr


def test_parsed_first_tree_is_checked_against_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page parsed before the scan keeps its tree only when no element lies
    deeper than the deepest one the scan lets through (``MAX_DEPTH`` counted
    levels under ``<body>``); one level deeper and it is scanned and parsed
    again: the same Document as the scan's either way."""
    from selectolax.lexbor import LexborHTMLParser

    from temex.page import dom

    for n in (MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2):
        html = "<html><body>" + "<div>" * n + "x"
        assert dom._parse_first(html, MAX_DEPTH, dom.DEFAULT_MAX_ELEMENTS)
        deepest = n + 1  # html 0, body 1
        tree = LexborHTMLParser(html)
        assert not dom._deeper_than(tree, deepest) and dom._deeper_than(tree, deepest - 1)
        fast = parse(html)
        with monkeypatch.context() as m:
            m.setattr(dom, "_parse_first", _never)
            _same_document(fast, parse(html), str(n))
        assert max(fast.depth) == (deepest if n <= MAX_DEPTH else MAX_DEPTH + 2)
