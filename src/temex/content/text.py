"""Text and Markdown of chosen elements of a page, one block per line.

Shared by the content outputs (:mod:`.render`, :mod:`.extract`): the page's
elements are walked once in document order (enter/exit events on an explicit
stack, no recursion); a block element (:data:`temex.page.blocks.BLOCK_TAGS`)
starts a new line.

:func:`markdown_text` writes the same text as Markdown that keeps the structure
(CommonMark with GFM tables): headings (whatever inline elements wrap their
text), paragraphs, ordered (``start`` honoured) and nested lists, data tables
(a table without block elements in its cells and with two columns somewhere;
layout tables stay paragraphs), fenced code blocks (language from
``class="language-x"``/``lang-x`` on ``pre`` or its ``code``), inline code,
emphasis, links and images made absolute against the page URL or its
``<base>`` (``javascript:`` links dropped, their text kept; images without
alt text, ``role=presentation`` or ``aria-hidden`` dropped), block quotes,
formulas once as their TeX source where the page gives it
(:mod:`.formulas`; in Markdown between ``$`` or ``$$`` marks, unescaped, as is
TeX between MathJax's ``\\(...\\)`` and ``\\[...\\]``).
Markdown special characters in text are backslash-escaped. The words are the
words of the text output (the round-trip test checks it on shared pages).
"""

from __future__ import annotations

import re
import sys
from typing import Any
from urllib.parse import urljoin

from ..page import kernel
from ..page.blocks import BLOCK_TAGS, tag_flags
from ..page.dom import HEADING_TAGS, Document
from ..page.linenos import gutters
from ..page.permalinks import LEVELS, permalinks
from ..page.readmore import read_more_links
from ..page.tocs import tocs
from ..page.walk import event_list, events
from .formulas import formula_keep, tex_annotation
from .metadata import base_url

__all__ = ["events", "markdown_text", "text_lines"]



def _bare(doc: Document, keep: list[bool]) -> list[bool]:
    # Subtrees without kept text are not walked (most of a page, for the
    # narrowed main content).
    bare = [not k for k in keep]
    for i in range(len(doc) - 1, 0, -1):
        if not bare[i]:
            bare[doc.parent[i]] = False
    return bare


def _without(doc: Document, keep: list[bool], roots: list[int]) -> list[bool]:
    """``keep`` without the subtrees of ``roots``: a new list when anything
    changes, else ``keep``."""
    out, size = keep, doc.size
    for i in roots:
        if not any(keep[i:i + size[i]]):
            continue
        if out is keep:
            out = list(keep)
        out[i:i + size[i]] = [False] * size[i]
    return out


def _written(doc: Document, keep: list[bool]) -> list[bool]:
    """The keep mask both writers write: each formula once (:mod:`.formulas`),
    no permalink (:mod:`temex.page.permalinks`), no in-page table of contents
    (:mod:`temex.page.tocs`), no code block's line-number gutter
    (:mod:`temex.page.linenos`), no listing entry's read-more link
    (:mod:`temex.page.readmore`): the chrome of a page kind that the shared
    sites' convention calls template, wherever the content was chosen."""
    keep = formula_keep(doc, keep)
    keep = _without(doc, keep, permalinks(doc, keep))
    keep = _without(doc, keep, read_more_links(doc))
    return _without(doc, _without(doc, keep, tocs(doc)), gutters(doc))


def text_lines(doc: Document, keep: list[bool], markdown: bool) -> list[str]:
    """Text of the elements with ``keep[i]`` (their own text nodes), in
    document order, one line per block element (paragraph, heading, list
    item, cell, line break ...). With ``markdown``, the one Markdown text of
    :func:`markdown_text` as a single item (empty list when empty).
    Text that sits directly in a container between its block children gets
    lines of its own at its place. O(n) over the parse tree."""
    if markdown:
        md = markdown_text(doc, keep)
        return [md] if md else []
    keep = _written(doc, keep)
    k = kernel.get()
    address = doc.address(doc.body) if k is not None and doc.body >= 0 else None
    if address is not None:  # the same walk and lines, compiled
        return k.text_lines_kept(address, doc.body, doc.size,  # type: ignore[no-any-return]
                                 tag_flags(doc), list(keep), doc.parent)
    template = [not k for k in keep]
    bare = _bare(doc, keep)
    blocks: list[str] = []
    cur: list[str] = []
    pre_depth = 0

    def flush() -> None:
        text = "".join(cur)
        if not pre_depth:
            text = " ".join(text.split())  # whitespace runs collapsed, ends stripped
        if text.strip():
            blocks.append(text)
        cur.clear()

    for kind, i, value in events(doc, bare):
        tag = doc.tag[i]
        if kind == "text":
            if not template[i]:
                cur.append(value)
            continue
        if kind == "enter":
            if tag in BLOCK_TAGS:
                flush()
            if tag == "pre":
                pre_depth += 1
        else:
            if tag == "pre":
                flush()
                pre_depth -= 1
            elif tag in BLOCK_TAGS:
                flush()
    flush()
    return blocks


#: The headings (the compiled Markdown writer reads this module's names).
_HEADINGS = HEADING_TAGS
_EMPHASIS = {"em": "*", "i": "*", "strong": "**", "b": "**"}
_CODE = frozenset({"code", "kbd", "samp", "tt"})
#: Elements that make a table a layout table (its cells are paragraphs).
_LAYOUT = frozenset({"p", "div", "ul", "ol", "dl", "table", "blockquote", "pre", "section",
                     "article", "form", "header", "footer", "nav", "aside", "main"}) | _HEADINGS
_TABLE_PARTS = frozenset({"tbody", "thead", "tfoot", "tr", "td", "th"})
#: Tags whose enter or exit the Markdown writer acts on; for any other element
#: both are no-ops (whatever the state: a ``pre`` reacts to ``br`` and block
#: elements only, a table to its parts and block elements, inline marks are
#: pushed by ``_CODE``/``_EMPHASIS``/``a`` alone), so the kernel's walk leaves
#: them out.
_MARKDOWN_TAGS = (BLOCK_TAGS | _HEADINGS | _TABLE_PARTS | _CODE | frozenset(_EMPHASIS)
                  | frozenset({"a", "img", "br", "ul", "ol", "li", "blockquote", "pre", "table",
                               "annotation"}))
_ESCAPED = frozenset("\\`*_[]<|")
_ESCAPE = re.compile(r"([\\`*_\[\]<])")
_ESCAPE_TABLE = re.compile(r"([\\`*_\[\]<|])")
#: TeX between MathJax's default delimiters (and KaTeX auto-render's):
#: ``\(...\)`` inline, ``\[...\]`` display; the browser renders it, the page's
#: text holds the source (Sphinx, MkDocs' arithmatex, Jupyter Book, blogs).
_TEX_SPAN = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
_LINE_START = re.compile(r"^(\s*)(?:([#>+=~-])|(\d{1,9})([.)]))(?=\s|$)")
_LANG = re.compile(r"^(?:language|lang)-([\w#+.-]+)$")
_HIGHLIGHT = re.compile(r"^highlight-(?:source-)?([\w#+.-]+)$")
_NO_LANG = frozenset({"default", "none"})
_BACKTICKS = re.compile(r"`+")
_URL_DROP = re.compile(r"[\t\n\r]")


def _to_own_heading(doc: Document, i: int, href: str) -> bool:
    """Whether the link ``i`` in a heading points to that heading or its
    section (``href="#id"``, the id on the heading or an element around it
    a few levels up): a heading's link to itself, whatever its text."""
    if len(href) < 2 or href[0] != "#":
        return False
    name = href[1:]
    p = i
    for _ in range(LEVELS + 1):
        if p < 0:
            return False
        if doc.id[p] == name:
            return True
        p = doc.parent[p]
    return False


def _url(base: str, href: str) -> str:
    """``href`` made absolute against ``base`` (when ``base`` is absolute),
    with the characters that would end a Markdown link destination encoded."""
    href = _URL_DROP.sub("", href.strip())  # as browsers do
    if base and "://" in base:
        try:
            href = urljoin(base, href)
        except ValueError:
            return ""
    return href.replace(" ", "%20").replace("(", "%28").replace(")", "%29").replace("<", "%3C")


#: Attributes where lazy-loading scripts keep an image's address until it is
#: shown (lazysizes, WordPress plugins, jQuery Lazy Load): ``src`` holds a
#: placeholder until then.
_LAZY_SOURCES = ("data-src", "data-lazy-src", "data-original", "data-srcset", "data-lazy-srcset")


def _image_src(a: dict[str, str]) -> str:
    """The address of an image with attributes ``a``: a lazy loader's
    (:data:`_LAZY_SOURCES`), else ``src``, else the first of ``srcset``;
    never a ``data:`` URL (a placeholder). A ``srcset`` value's first
    candidate is its URL before the width or density."""
    for name in (*_LAZY_SOURCES, "src", "srcset"):
        value = a.get(name, "").strip()
        if name.endswith("srcset"):
            value = value.split(",")[0].strip().split(" ")[0] if value else ""
        if value and not value.startswith("data:"):
            return value
    return ""


def _code_lang(doc: Document, i: int) -> str:
    """Language of a ``pre`` from ``language-x``/``lang-x`` on it or on a
    ``code`` inside it, else on the two elements above it, where Pygments'
    wrappers name it: Sphinx writes ``<div class="highlight-python"><div
    class="highlight"><pre>``, MkDocs ``<div class="language-python
    highlight"><pre>``, GitHub ``<div class="highlight
    highlight-source-python"><pre>``. Sphinx's ``highlight-default`` (the
    project's default lexer, not named) and ``none`` name no language."""
    for j in range(i, i + doc.size[i]):
        if j == i or doc.tag[j] == "code":
            for c in doc.classes[j]:
                m = _LANG.match(c)
                if m:
                    return m.group(1)
    a = doc.parent[i]
    for _ in range(2):
        if a <= doc.body:
            break
        for c in doc.classes[a]:
            m = _LANG.match(c) or _HIGHLIGHT.match(c)
            if m:
                return "" if m.group(1) in _NO_LANG else m.group(1)
        a = doc.parent[a]
    return ""


def _data_table(doc: Document, i: int) -> bool:
    """A data table: no block element inside, two cells in some row."""
    widest = 0
    for j in range(i + 1, i + doc.size[i]):
        t = doc.tag[j]
        if t in _LAYOUT:
            return False
        if t == "tr":
            widest = max(widest, sum(doc.tag[c] in ("td", "th") for c in doc.children[j]))
    return widest >= 2


def _wrap_code(inner: str) -> str:
    runs = [len(m) for m in _BACKTICKS.findall(inner)]
    fence = "`" * (max(runs) + 1 if runs else 1)
    pad = " " if inner.startswith("`") or inner.endswith("`") else ""
    return f"{fence}{pad}{inner}{pad}{fence}"


def _escape(value: str, table: bool) -> str:
    """Text with Markdown's special characters backslash-escaped (``|`` too in
    a table), except TeX between MathJax's delimiters (:data:`_TEX_SPAN`),
    written as it is between ``$`` marks (``$$`` for display): ``\\(x^2\\)``
    is ``$x^2$``, not ``\\\\(x^2\\\\)``."""
    if table or ("\\(" not in value and "\\[" not in value):
        return (_ESCAPE_TABLE if table else _ESCAPE).sub(r"\\\1", value)
    out, at = [], 0
    for m in _TEX_SPAN.finditer(value):
        out.append(_ESCAPE.sub(r"\\\1", value[at:m.start()]))
        out.append(f"${m.group(1)}$" if m.group(1) is not None else f"$${m.group(2)}$$")
        at = m.end()
    out.append(_ESCAPE.sub(r"\\\1", value[at:]))
    return "".join(out)


def _tex_mark(doc: Document, i: int) -> str:
    """The Markdown delimiter of the formula whose TeX source the
    ``annotation`` element ``i`` holds (:mod:`.formulas`): ``$$`` where its
    ``<math>`` is a display formula (``display="block"``), else ``$``; ""
    for an annotation in another notation."""
    if not tex_annotation(doc, i):
        return ""
    m = doc.parent[i]
    while m >= 0 and doc.tag[m] != "math":
        m = doc.parent[m]
    block = m >= 0 and dict(doc.attrs[m]).get("display", "").strip().lower() == "block"
    return "$$" if block else "$"


def _outside_ws(inner: str, mark_open: str, mark_close: str) -> str:
    """``inner`` wrapped in marks, its leading and trailing whitespace kept outside."""
    core = inner.strip()
    if not core:
        return inner
    lead = inner[: len(inner) - len(inner.lstrip())]
    trail = inner[len(inner.rstrip()):]
    return f"{lead}{mark_open}{core}{mark_close}{trail}"


class _Markdown:
    """State of one Markdown walk (see :func:`markdown_text`)."""

    def __init__(self, doc: Document, keep: list[bool]) -> None:
        self.doc = doc
        self.keep = keep
        self.base = base_url(doc)
        self.out: list[tuple[str, int, int, int]] = []  # text, list group, quote group, quote depth
        self.cur: list[str] = []
        self.started = False  # the current block has visible text
        self.context: list[int] = []  # open block elements
        self.lists: list[list[int]] = []  # [element, ordered, next number]
        self.items: list[list[Any]] = []  # [marker, used, list element]
        self.quotes: list[int] = []
        self.inline: list[tuple[int, int]] = []  # (element, start in cur); start -1: broken
        self.pre = -1  # the open pre element
        self.inline_start = 0  # where the pre's text starts in cur
        self.code = 0
        self.heading = 0
        self.table = -1  # the open data table
        self.rows: list[list[str]] = []
        self.cell = -1

    # -- text ------------------------------------------------------------
    def text(self, value: str) -> None:
        if self.pre >= 0 or self.code:
            self.cur.append(value)
        else:
            if not _ESCAPED.isdisjoint(value):  # most text has nothing to escape
                value = _escape(value, self.table >= 0)
            if not self.started:
                value = _LINE_START.sub(self._escape_start, value, count=1)
            self.cur.append(value)
        if value.strip():
            self.started = True

    @staticmethod
    def _escape_start(m: re.Match[str]) -> str:
        if m.group(2):
            return f"{m.group(1)}\\{m.group(2)}"
        return f"{m.group(1)}{m.group(3)}\\{m.group(4)}"

    def flush(self) -> None:
        text = "".join(self.cur)
        self.cur.clear()
        self.started = False
        for k, (el, _) in enumerate(self.inline):  # inline elements cut by a block: plain text
            self.inline[k] = (el, -1)
        text = " ".join(text.split())
        if text:
            self.emit(self._prefix() + text)

    def _prefix(self) -> str:
        doc = self.doc
        heading = ""
        for el in reversed(self.context):
            t = doc.tag[el]
            if t in _HEADINGS:
                heading = "#" * int(t[1]) + " "
                break
            if t == "li":
                break
        if not self.items:
            return heading
        item = self.items[-1]
        if item[1]:
            return heading  # continuation: indented by emit
        # the item's first block carries its marker, a heading too ("- ## Title")
        item[1] = True
        return str(item[0]) + heading

    def _indent(self, first: bool) -> str:
        """Indent of the current block: the widths of the enclosing items'
        markers (a first line of an item carries its own marker)."""
        widths = [len(str(m)) for m, _, _ in self.items]
        if first and widths:
            widths.pop()
        return " " * sum(widths)

    def emit(self, block: str, first_line_marked: bool | None = None) -> None:
        if first_line_marked is None:
            first_line_marked = bool(self.items) and block.startswith(str(self.items[-1][0]))
        lines = block.split("\n")
        ind_first = self._indent(first_line_marked)
        ind_rest = self._indent(False)
        lines = [ind_first + lines[0]] + [ind_rest + ln if ln else ln for ln in lines[1:]]
        if self.quotes:
            q = ">" * len(self.quotes)
            lines = [f"{q} {ln}" if ln else q for ln in lines]
        group = self.lists[0][0] if self.lists else -1
        qgroup = self.quotes[0] if self.quotes else -1
        self.out.append(("\n".join(lines), group, qgroup, len(self.quotes)))

    # -- elements --------------------------------------------------------
    def enter(self, i: int) -> None:
        doc, tag = self.doc, self.doc.tag[i]
        if self.pre >= 0:
            if tag == "br":
                self.cur.append("\n")
            return
        if self.table >= 0 and tag in _TABLE_PARTS:
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th"):
                self.cell = len(self.cur)
            return
        if self.table >= 0 and tag in BLOCK_TAGS and tag != "table":
            self.cur.append(" ")  # a line break or block inside a cell: the cell goes on
            return
        if self.heading and tag == "br":
            self.cur.append(" ")
            return
        if tag in BLOCK_TAGS:
            self.flush()
            self.context.append(i)
        if tag in _HEADINGS:
            self.heading += 1
        elif tag in ("ul", "ol"):
            start = 1
            if tag == "ol":
                try:
                    start = int(dict(doc.attrs[i]).get("start", "1"))
                except ValueError:
                    start = 1
            self.lists.append([i, tag == "ol", max(0, min(start, 10**9 - 1))])
        elif tag == "li":
            if self.lists and self.lists[-1][1]:
                marker = f"{self.lists[-1][2]}. "
                self.lists[-1][2] += 1
            else:
                marker = "- "
            self.items.append([marker, False, i])
        elif tag == "blockquote":
            self.quotes.append(i)
        elif tag == "pre":
            self.pre = i
            self.inline_start = len(self.cur)
        elif tag == "table" and self.table < 0 and _data_table(doc, i):
            self.table = i
            self.rows = []
        elif tag in _CODE:
            self.code += 1
            self.inline.append((i, len(self.cur)))
        elif tag == "annotation" and self.table < 0 and _tex_mark(doc, i):
            self.code += 1  # TeX is written as it is, between $ marks
            self.inline.append((i, len(self.cur)))
        elif tag in _EMPHASIS or tag == "a":
            self.inline.append((i, len(self.cur)))
        elif tag == "img" and not self.code and (self.keep[i] or self.keep[doc.parent[i]]):
            # an image has no text of its own: it goes with its parent's block
            self._image(i)

    def _image(self, i: int) -> None:
        a = dict(self.doc.attrs[i])
        alt = " ".join(a.get("alt", "").split())
        if (not alt or a.get("role", "").lower() in ("presentation", "none")
                or a.get("aria-hidden", "").lower() == "true"):
            return
        src = _image_src(a)
        if not src:
            return
        alt = re.sub(r"([\\\[\]])", r"\\\1", alt)
        self.cur.append(f"![{alt}]({_url(self.base, src)})")
        self.started = True

    def exit(self, i: int) -> None:
        tag = self.doc.tag[i]
        if self.pre >= 0:
            if i == self.pre:
                self._code_block(i)
            elif tag in BLOCK_TAGS and tag != "br" and self.cur and not self.cur[-1].endswith("\n"):
                self.cur.append("\n")
            return
        if self.table >= 0:
            if tag in ("td", "th") and self.cell >= 0:
                cell = " ".join("".join(self.cur[self.cell:]).split())
                del self.cur[self.cell:]
                self.cell = -1
                if self.rows:
                    self.rows[-1].append(cell)
                return
            if tag in BLOCK_TAGS and i != self.table:
                return
            if i == self.table:
                self._table()
                return
        if self.heading and tag == "br":
            return
        if self.inline and self.inline[-1][0] == i:
            self._close_inline(i)
        if tag in BLOCK_TAGS:
            self.flush()
            if self.context and self.context[-1] == i:
                self.context.pop()
        if tag in _HEADINGS:
            self.heading -= 1
        elif tag in ("ul", "ol") and self.lists and self.lists[-1][0] == i:
            self.lists.pop()
        elif tag == "li" and self.items and self.items[-1][2] == i:
            self.items.pop()
        elif tag == "blockquote" and self.quotes and self.quotes[-1] == i:
            self.quotes.pop()

    def _close_inline(self, i: int) -> None:
        _, start = self.inline.pop()
        tag = self.doc.tag[i]
        if tag in _CODE or tag == "annotation":
            self.code -= 1
        if start < 0:
            return
        inner = "".join(self.cur[start:])
        del self.cur[start:]
        if tag == "annotation":
            mark = _tex_mark(self.doc, i)
            out = _outside_ws(inner, mark, mark)
        elif tag in _CODE and self.code:  # inside another code span: its marks say it
            out = inner
        elif tag in _CODE:
            core = " ".join(inner.split())
            out = _outside_ws(inner, "", "").replace(inner.strip(), _wrap_code(core)) if core else inner
        elif tag == "a" and not self.code:  # markup in a code span is literal
            href = dict(self.doc.attrs[i]).get("href", "").strip()
            if self.heading and _to_own_heading(self.doc, i, href):
                out = inner  # mdBook's <h1 id=x><a href="#x">Title</a>: the title alone
            elif href and not href.lower().startswith(("javascript:", "vbscript:", "data:")):
                url = _url(self.base, href)
                out = _outside_ws(inner, "[", f"]({url})") if url else inner
            else:
                out = inner
        elif self.heading or self.code:
            out = inner
        else:
            mark = _EMPHASIS[tag]
            # emphasis around a link or code, or around text with an escaped
            # mark at its ends, stays valid CommonMark
            out = _outside_ws(inner, mark, mark)
        self.cur.append(out)

    def _code_block(self, i: int) -> None:
        code = "".join(self.cur[self.inline_start:]).strip("\n")
        del self.cur[self.inline_start:]
        self.pre = -1
        self.flush()
        if self.context and self.context[-1] == i:
            self.context.pop()
        if not code.strip():
            return
        runs = [len(m) for m in re.findall(r"`{3,}", code)]
        fence = "`" * max(3, max(runs) + 1 if runs else 3)
        self.emit(f"{self._prefix()}{fence}{_code_lang(self.doc, i)}\n{code}\n{fence}")

    def _table(self) -> None:
        rows = [r for r in self.rows if any(r)]
        table, self.table, self.rows = self.table, -1, []
        self.flush()  # text of the table outside its cells
        if self.context and self.context[-1] == table:
            self.context.pop()
        if not rows:
            return
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
        lines.extend("| " + " | ".join(r) + " |" for r in rows[1:])
        self.emit(self._prefix() + "\n".join(lines))

    def result(self) -> str:
        parts: list[str] = []
        prev: tuple[str, int, int, int] | None = None
        for block in self.out:
            if prev is not None:
                if block[1] >= 0 and block[1] == prev[1]:
                    parts.append("\n")
                elif block[2] >= 0 and block[2] == prev[2]:
                    parts.append("\n" + ">" * min(block[3], prev[3]) + "\n")
                else:
                    parts.append("\n\n")
            parts.append(block[0])
            prev = block
        return "".join(parts)


def markdown_text(doc: Document, keep: list[bool]) -> str:
    """The text of the elements with ``keep[i]`` as Markdown (see the module
    docstring); links and images resolved against the page's ``<base>`` or
    URL. The same words as :func:`text_lines` without ``markdown``. O(n)."""
    keep = _written(doc, keep)
    k = kernel.get()
    address = doc.address(doc.body) if k is not None and doc.body >= 0 else None
    if address is not None:  # the same writer, compiled, in the same walk
        return k.markdown(address, doc, list(keep), tag_flags(doc),  # type: ignore[no-any-return]
                          sys.modules[__name__])
    md = _Markdown(doc, keep)
    if doc.body >= 0:
        for ev in event_list(doc, _bare(doc, keep), [not k for k in keep], _MARKDOWN_TAGS):
            if isinstance(ev, str):
                md.text(ev)
            elif ev >= 0:
                md.enter(ev)
            else:
                md.exit(~ev)
    md.flush()
    return md.result()
