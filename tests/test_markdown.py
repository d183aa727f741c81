"""The Markdown writer (:func:`temex.content.text.markdown_text`): a golden
file per construct (``tests/golden/<construct>.html`` -> ``.md``, the whole
page kept, page URL ``https://example.org/blog/post.html``), and a round trip
on real shared pages: the Markdown read back as text has the words of the
``content`` output, in the same order."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import DATA

from temex.content.extract import extract_content
from temex.content.text import markdown_text
from temex.page.dom import Document, parse
from temex.page.tokens import tokens

GOLDEN = Path(__file__).parent / "golden"
CONSTRUCTS = ["headings", "paragraphs", "lists", "table", "code", "emphasis", "links", "images",
              "blockquote", "escaping", "formulas"]
PAGE_URL = "https://example.org/blog/post.html"


def _md(html: str, url: str = PAGE_URL) -> str:
    doc = parse(html, url=url)
    return markdown_text(doc, [True] * len(doc))


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_golden(construct: str) -> None:
    html = (GOLDEN / f"{construct}.html").read_text("utf-8")
    expected = (GOLDEN / f"{construct}.md").read_text("utf-8")
    assert _md(html) + "\n" == expected


def test_every_golden_file_is_tested() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.html")) == sorted(CONSTRUCTS)


def test_links_without_absolute_base_stay_as_written() -> None:
    # a page read from a file has a path, not a URL: hrefs are kept as written
    assert _md('<p><a href="b.html">b</a> <img src="c.png" alt="c"></p>', url="site/a.html") == (
        "[b](b.html) ![c](c.png)")


# -- round trip -----------------------------------------------------------

_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_IMAGE = re.compile(r"!\[(?:\\.|[^\]\\])*\]\([^)\s]*\)")
_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\([^)\s]*\)")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_BLOCK_MARK = re.compile(r"^\s*(?:>+ ?)*\s*(?:(?:[-+*]|\d{1,9}[.)])\s+)*(?:#{1,6}\s+)?")
_FENCE = re.compile(r"^(`{3,})([^`]*)$")
_EMPHASIS = re.compile(r"(?<!\\)\*+")
_TABLE_RULE = re.compile(r"^\|( --- \|)+$")


def markdown_to_text(md: str) -> str:
    """The text a Markdown renderer shows for the subset the writer emits
    (block marks, fences, code spans, images, links, emphasis, backslash
    escapes)."""
    out: list[str] = []
    fence = ""
    for line in md.split("\n"):
        body = _BLOCK_MARK.sub("", line, count=1)
        if fence:
            if body.strip() == fence:
                fence = ""
            else:
                out.append(re.sub(r"^(?:>+ ?)", "", line))
            continue
        m = _FENCE.match(body.strip())
        if m:
            fence = m.group(1)
            continue
        if _TABLE_RULE.match(body.strip()):
            continue
        spans = [m.group(2) for m in _CODE_SPAN.finditer(body)]
        pieces = _CODE_SPAN.split(body)  # text, fence, span, fence, span, ..., text
        body = "".join(p if k % 3 == 0 else (f"\x00{k // 3}\x00" if k % 3 == 2 else "")
                       for k, p in enumerate(pieces))
        body = _IMAGE.sub("", body)  # an image is inline, no text
        while True:
            new = _LINK.sub(r"\1", body)
            if new == body:
                break
            body = new
        body = _EMPHASIS.sub("", body)
        body = _ESCAPED.sub(r"\1", body)
        body = re.sub("\x00(\\d+)\x00", lambda m, spans=spans: spans[int(m.group(1))], body)
        out.append(body)
    return "\n".join(out)


def test_markdown_to_text_reads_the_golden_files() -> None:
    assert tokens(markdown_to_text((GOLDEN / "links.md").read_text())) == tokens(
        "A relative link, a root link, an absolute one, a script link, an anchor without href, "
        "spaces and parentheses and mail.")


def test_round_trip_on_shared_pages() -> None:
    data = DATA
    if data is None:
        pytest.skip("shared data not found (set TEMEX_DATA)")
    files = sorted((data / "content").rglob("*.html"))
    random.Random(10).shuffle(files)
    checked = 0
    for f in files[:150]:
        content = extract_content(parse(f.read_bytes(), url=f"https://example.org/{f.name}"))
        text, md = content.text(), content.markdown()
        assert tokens(markdown_to_text(md)) == tokens(text), f
        checked += bool(text)
    assert checked >= 100


def test_the_main_content_keeps_a_highlighters_whitespace_tokens() -> None:
    """Pygments (MkDocs, Sphinx, Hugo) writes the spaces of code as
    whitespace tokens, ``<span class="w"> </span>``: elements with no visible
    text and no kept element inside, which the main content's keep mask
    left out; the code lost its spaces (``*[First list item]``, YAML's
    ``apiVersion:v1kind:Service``). Inside a kept ``<pre>`` they are kept."""
    prose = "".join(f"<p>Paragraph {k} of the page tells how the navigation file is written "
                    "and read, with its lists and links, in some detail.</p>" for k in range(4))
    html = ("<html><body><nav><a href='/'>Home</a></nav><main><h1>Reference</h1>" + prose
            + '<div class="highlight"><pre><span></span><code><span class="k">*</span>'
              '<span class="w"> </span>[<span class="nt">First item</span>](a.md)\n'
              '<span class="w">    </span><span class="k">*</span><span class="w"> </span>'
              "Second</code></pre></div>" + prose + "</main></body></html>")
    content = extract_content(parse(html, url=PAGE_URL))
    assert "```\n* [First item](a.md)\n    * Second\n```" in content.markdown()
    assert "* [First item](a.md)" in content.text()


def test_a_formula_is_written_once_as_its_tex_source() -> None:
    """A KaTeX formula is a MathML ``<math>`` (its TeX in an annotation)
    beside an ``aria-hidden`` rendering of itself; the main content's text
    and Markdown say it once, as the TeX (``x2x^2x2`` before), between
    ``$`` marks in Markdown. A ``<math>``
    the page hides (Wikipedia shows an image whose ``alt`` is the TeX)
    changes nothing."""
    katex = ("<span class='katex'><span class='katex-mathml'><math><semantics><mrow><msup>"
             "<mi>x</mi><mn>2</mn></msup></mrow><annotation encoding='application/x-tex'>x^2"
             "</annotation></semantics></math></span><span class='katex-html' aria-hidden='true'>"
             "<span class='mord'>x</span><span class='msupsub'>2</span></span></span>")
    hidden = ("<span><span style='display: none'><math><semantics><mi>r</mi><annotation "
              "encoding='application/x-tex'>\\pi r^2</annotation></semantics></math></span>"
              "<img src='/area.svg' alt='pi r squared'></span>")
    html = (f"<html><body><article><h1>Squares and discs</h1><p>{'Numbers have squares. ' * 8}"
            f"We write {katex} for the square of x.</p><p>{'A disc has an area. ' * 8}"
            f"Its area is {hidden} for a radius r.</p></article></body></html>")
    content = extract_content(parse(html, url=PAGE_URL))
    text, md = content.text(), content.markdown()
    assert "We write x^2 for the square of x." in text and "x2" not in text
    assert "We write $x^2$ for the square of x." in md
    assert "Its area is for a radius r." in text and "pi r^2" not in text
    assert "pi r^2" not in md
    # the hidden formula changes nothing: the keep mask is the one given
    from temex.content.formulas import formula_keep

    page = parse(f"<html><body><p>Its area is {hidden}.</p></body></html>")
    keep = [not any(("style", "display: none") in page.attrs[a] for a in _ancestors(page, i))
            for i in range(len(page))]
    assert formula_keep(page, keep) is keep


def _ancestors(doc: Document, i: int) -> list[int]:
    out = []
    while i >= 0:
        out.append(i)
        i = doc.parent[i]
    return out
