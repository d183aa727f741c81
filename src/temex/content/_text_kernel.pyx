# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The compiled kernel of :mod:`temex.content.text`: the kept elements'
text lines (:func:`text_lines_kept`) and the Markdown writer
(:func:`markdown`: ``text.py``'s ``_Markdown``, method for method), each fed
by the page layer's walk of the Lexbor subtree (``temex/page/_kernel.pxd``:
``_walk`` and its receiver ``_Walk``, subclassed here). The same Python
string operations on the same values in the same order as the pure-Python
path, which stays the reference; :mod:`temex.page.kernel` loads it with the
other layers and names each function's twin (``TWINS``).
"""

cimport cython
from libc.stdint cimport uintptr_t

from temex.page._kernel cimport BLOCK, PRE, _Walk, _walk
from temex.page._lexbor cimport CharData, _char_text

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)


# -- text lines (temex.content.text.text_lines) ----------------------------------

cdef class _Lines(_Walk):
    """A walk into text lines: the text of elements not in ``template``,
    one line per block element (``pre`` kept as written)."""

    cdef list cur
    cdef int pre_depth

    cdef void flush(self) except *:
        text = "".join(self.cur)
        if not self.pre_depth:
            text = " ".join(text.split())  # whitespace runs collapsed, ends stripped
        if text.strip():
            self.out.append(text)
        self.cur.clear()

    cdef void enter(self, Py_ssize_t i) except *:
        cdef unsigned char f = self.flags[i]
        if f & BLOCK:
            self.flush()
        if f & PRE:
            self.pre_depth += 1

    cdef void exit(self, Py_ssize_t i) except *:
        cdef unsigned char f = self.flags[i]
        if f & PRE:
            self.flush()
            self.pre_depth -= 1
        elif f & BLOCK:
            self.flush()

    cdef void text(self, Py_ssize_t owner, CharData *t) except *:
        if self.template[owner]:
            return
        self.cur.append(_char_text(t))


cdef list _text_lines(uintptr_t start_address, Py_ssize_t start, list size, bytes flags,
                      object skip, bytes template):
    """:func:`temex.content.text.text_lines` (without Markdown) in one walk:
    the text of elements not in ``template``, one line per block element."""
    cdef _Lines w = _Lines()
    w.out = []
    w.cur = []
    w.pre_depth = 0
    w.flags = flags
    w.template = template
    _walk(w, start_address, start, size, skip)
    w.flush()
    return w.out


# -- the Markdown writer (temex.content.text._Markdown) ------------------------

cdef inline bint _visible(str s):
    """``bool(s.strip())``: a character that is not ``str.isspace``."""
    cdef Py_ssize_t j, n = len(s)
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    for j in range(n):
        if not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, j)):
            return True
    return False


cdef inline bint _escapable(str s):
    """``not _ESCAPED.isdisjoint(s)``: one of ``\\`*_[]<|`` in ``s``
    (tests/test_kernel.py checks the set is text.py's)."""
    cdef Py_ssize_t j, n = len(s)
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    cdef Py_UCS4 c
    for j in range(n):
        c = PyUnicode_READ(kind, data, j)
        if (c == 92 or c == 96 or c == 42 or c == 95 or c == 91 or c == 93 or c == 60
                or c == 124):
            return True
    return False


#: The characters :func:`_escapable` looks for.
ESCAPABLE = frozenset("\\`*_[]<|")


@cython.wraparound(True)
@cython.boundscheck(True)
cdef class _Markdown:
    """:class:`temex.content.text._Markdown`, method for method, with its
    state in C fields: the same Python string operations on the same values
    in the same order. Its constants, regular expressions and rarely used
    helpers (``_url``, ``_code_lang``, ``_data_table``, ``_wrap_code``,
    ``_outside_ws``) are read from that module (``m``), so that both writers
    share them."""

    cdef object doc, m
    cdef list tag, attrs, parent
    cdef bytes keep
    cdef bytes acts
    cdef str base
    cdef list out, cur, context, lists, items, quotes, inline, rows
    cdef bint started
    cdef Py_ssize_t pre, inline_start, code, heading, table, cell
    cdef frozenset block_tags, headings, table_parts, code_tags, escaped
    cdef dict emphasis
    cdef object line_start_re, escape_start

    def __init__(self, object doc, bytes keep, object m):
        cdef Py_ssize_t i, n = len(doc)
        cdef frozenset md_tags = m._MARKDOWN_TAGS
        self.doc, self.m = doc, m
        self.tag, self.attrs, self.parent = doc.tag, doc.attrs, doc.parent
        self.keep = keep
        acts = bytearray(n)
        for i in range(n):
            if self.tag[i] in md_tags:
                acts[i] = 1
        self.acts = bytes(acts)
        self.base = m.base_url(doc)
        self.out, self.cur, self.context = [], [], []
        self.lists, self.items, self.quotes, self.inline, self.rows = [], [], [], [], []
        self.started = False
        self.pre, self.inline_start, self.code, self.heading = -1, 0, 0, 0
        self.table, self.cell = -1, -1
        self.block_tags, self.headings = m.BLOCK_TAGS, m._HEADINGS
        self.table_parts, self.code_tags, self.escaped = m._TABLE_PARTS, m._CODE, m._ESCAPED
        self.emphasis = m._EMPHASIS
        self.line_start_re = m._LINE_START
        self.escape_start = m._Markdown._escape_start

    # -- text ------------------------------------------------------------
    cdef int text(self, str value) except -1:
        if self.pre >= 0 or self.code:
            self.cur.append(value)
        else:
            if _escapable(value):  # most text has nothing to escape
                value = self.m._escape(value, self.table >= 0)
            if not self.started:
                value = self.line_start_re.sub(self.escape_start, value, count=1)
            self.cur.append(value)
        if _visible(value):
            self.started = True
        return 0

    cdef int flush(self) except -1:
        cdef Py_ssize_t k
        text = "".join(self.cur)
        self.cur.clear()
        self.started = False
        for k in range(len(self.inline)):  # inline elements cut by a block: plain text
            self.inline[k] = ((<tuple> self.inline[k])[0], -1)
        text = " ".join(text.split())
        if text:
            self.emit(self._prefix() + text)
        return 0

    cdef str _prefix(self):
        cdef str heading = "", t
        cdef Py_ssize_t k
        cdef list item
        for k in range(len(self.context) - 1, -1, -1):
            t = self.tag[<Py_ssize_t> self.context[k]]
            if t in self.headings:
                heading = "#" * int(t[1]) + " "
                break
            if t == "li":
                break
        if not self.items:
            return heading
        item = <list> self.items[-1]
        if item[1]:
            return heading  # continuation: indented by emit
        # the item's first block carries its marker, a heading too ("- ## Title")
        item[1] = True
        return str(item[0]) + heading

    cdef str _indent(self, bint first):
        cdef Py_ssize_t k, total = 0, n = len(self.items)
        if first and n:
            n -= 1
        for k in range(n):
            total += len(str((<list> self.items[k])[0]))
        return " " * total

    cdef int emit(self, str block) except -1:
        cdef bint first_line_marked = bool(self.items) and block.startswith(
            str((<list> self.items[-1])[0]))
        cdef list lines = block.split("\n")
        cdef str ind_first = self._indent(first_line_marked)
        cdef str ind_rest = self._indent(False)
        cdef Py_ssize_t k
        lines[0] = ind_first + lines[0]
        for k in range(1, len(lines)):
            ln = lines[k]
            if ln:
                lines[k] = ind_rest + ln
        if self.quotes:
            q = ">" * len(self.quotes)
            lines = [f"{q} {ln}" if ln else q for ln in lines]
        group = (<list> self.lists[0])[0] if self.lists else -1
        qgroup = self.quotes[0] if self.quotes else -1
        self.out.append(("\n".join(lines), group, qgroup, len(self.quotes)))
        return 0

    # -- elements --------------------------------------------------------
    cdef int enter(self, Py_ssize_t i) except -1:
        cdef str tag = self.tag[i]
        cdef list last
        if self.pre >= 0:
            if tag == "br":
                self.cur.append("\n")
            return 0
        if self.table >= 0 and tag in self.table_parts:
            if tag == "tr":
                self.rows.append([])
            elif tag == "td" or tag == "th":
                self.cell = len(self.cur)
            return 0
        if self.table >= 0 and tag in self.block_tags and tag != "table":
            self.cur.append(" ")  # a line break or block inside a cell: the cell goes on
            return 0
        if self.heading and tag == "br":
            self.cur.append(" ")
            return 0
        if tag in self.block_tags:
            self.flush()
            self.context.append(i)
        if tag in self.headings:
            self.heading += 1
        elif tag == "ul" or tag == "ol":
            start = 1
            if tag == "ol":
                try:
                    start = int(dict(self.attrs[i]).get("start", "1"))
                except ValueError:
                    start = 1
            self.lists.append([i, tag == "ol", max(0, min(start, 10**9 - 1))])
        elif tag == "li":
            if self.lists and (<list> self.lists[-1])[1]:
                last = <list> self.lists[-1]
                marker = f"{last[2]}. "
                last[2] += 1
            else:
                marker = "- "
            self.items.append([marker, False, i])
        elif tag == "blockquote":
            self.quotes.append(i)
        elif tag == "pre":
            self.pre = i
            self.inline_start = len(self.cur)
        elif tag == "table" and self.table < 0 and self.m._data_table(self.doc, i):
            self.table = i
            self.rows = []
        elif tag in self.code_tags:
            self.code += 1
            self.inline.append((i, len(self.cur)))
        elif tag == "annotation" and self.table < 0 and self.m._tex_mark(self.doc, i):
            self.code += 1  # TeX is written as it is, between $ marks
            self.inline.append((i, len(self.cur)))
        elif tag in self.emphasis or tag == "a":
            self.inline.append((i, len(self.cur)))
        elif tag == "img" and not self.code and (
                self.keep[i] or self.keep[<Py_ssize_t> self.parent[i]]):
            # an image has no text of its own: it goes with its parent's block
            self._image(i)
        return 0

    cdef int _image(self, Py_ssize_t i) except -1:
        a = dict(self.attrs[i])
        alt = " ".join(a.get("alt", "").split())
        if (not alt or a.get("role", "").lower() in ("presentation", "none")
                or a.get("aria-hidden", "").lower() == "true"):
            return 0
        src = self.m._image_src(a)
        if not src:
            return 0
        alt = self.m.re.sub(r"([\\\[\]])", r"\\\1", alt)
        self.cur.append(f"![{alt}]({self.m._url(self.base, src)})")
        self.started = True
        return 0

    cdef int exit(self, Py_ssize_t i) except -1:
        cdef str tag = self.tag[i]
        if self.pre >= 0:
            if i == self.pre:
                self._code_block(i)
            elif (tag in self.block_tags and tag != "br" and self.cur
                  and not (<str> self.cur[-1]).endswith("\n")):
                self.cur.append("\n")
            return 0
        if self.table >= 0:
            if (tag == "td" or tag == "th") and self.cell >= 0:
                cell = " ".join("".join(self.cur[self.cell:]).split())
                del self.cur[self.cell:]
                self.cell = -1
                if self.rows:
                    (<list> self.rows[-1]).append(cell)
                return 0
            if tag in self.block_tags and i != self.table:
                return 0
            if i == self.table:
                self._table()
                return 0
        if self.heading and tag == "br":
            return 0
        if self.inline and (<tuple> self.inline[-1])[0] == i:
            self._close_inline(i)
        if tag in self.block_tags:
            self.flush()
            if self.context and self.context[-1] == i:
                self.context.pop()
        if tag in self.headings:
            self.heading -= 1
        elif (tag == "ul" or tag == "ol") and self.lists and (<list> self.lists[-1])[0] == i:
            self.lists.pop()
        elif tag == "li" and self.items and (<list> self.items[-1])[2] == i:
            self.items.pop()
        elif tag == "blockquote" and self.quotes and self.quotes[-1] == i:
            self.quotes.pop()
        return 0

    cdef int _close_inline(self, Py_ssize_t i) except -1:
        _, start = self.inline.pop()
        cdef str tag = self.tag[i]
        m = self.m
        if tag in self.code_tags or tag == "annotation":
            self.code -= 1
        if start < 0:
            return 0
        inner = "".join(self.cur[start:])
        del self.cur[start:]
        if tag == "annotation":
            mark = m._tex_mark(self.doc, i)
            out = m._outside_ws(inner, mark, mark)
        elif tag in self.code_tags and self.code:  # inside another code span
            out = inner
        elif tag in self.code_tags:
            core = " ".join(inner.split())
            out = (m._outside_ws(inner, "", "").replace(inner.strip(), m._wrap_code(core))
                   if core else inner)
        elif tag == "a" and not self.code:  # markup in a code span is literal
            href = dict(self.attrs[i]).get("href", "").strip()
            if self.heading and m._to_own_heading(self.doc, i, href):
                out = inner  # a heading's link to itself: the title alone
            elif href and not href.lower().startswith(("javascript:", "vbscript:", "data:")):
                url = m._url(self.base, href)
                out = m._outside_ws(inner, "[", f"]({url})") if url else inner
            else:
                out = inner
        elif self.heading or self.code:
            out = inner
        else:
            mark = self.emphasis[tag]
            # emphasis around a link or code, or around text with an escaped
            # mark at its ends, stays valid CommonMark
            out = m._outside_ws(inner, mark, mark)
        self.cur.append(out)
        return 0

    cdef int _code_block(self, Py_ssize_t i) except -1:
        code = "".join(self.cur[self.inline_start:]).strip("\n")
        del self.cur[self.inline_start:]
        self.pre = -1
        self.flush()
        if self.context and self.context[-1] == i:
            self.context.pop()
        if not code.strip():
            return 0
        runs = [len(x) for x in self.m.re.findall(r"`{3,}", code)]
        fence = "`" * max(3, max(runs) + 1 if runs else 3)
        self.emit(f"{self._prefix()}{fence}{self.m._code_lang(self.doc, i)}\n{code}\n{fence}")
        return 0

    cdef int _table(self) except -1:
        rows = [r for r in self.rows if any(r)]
        table, self.table, self.rows = self.table, -1, []
        self.flush()  # text of the table outside its cells
        if self.context and self.context[-1] == table:
            self.context.pop()
        if not rows:
            return 0
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
        lines.extend("| " + " | ".join(r) + " |" for r in rows[1:])
        self.emit(self._prefix() + "\n".join(lines))
        return 0

    cdef str result(self):
        cdef list parts = []
        cdef tuple prev = None, block
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


cdef class _MarkdownWalk(_Walk):
    """A walk that feeds the Markdown writer: the elements it acts on, and
    the text of elements not in ``template``."""

    cdef _Markdown md

    cdef void enter(self, Py_ssize_t i) except *:
        if self.md.acts[i]:
            self.md.enter(i)

    cdef void exit(self, Py_ssize_t i) except *:
        if self.md.acts[i]:
            self.md.exit(i)

    cdef void text(self, Py_ssize_t owner, CharData *t) except *:
        if self.template[owner]:
            return
        self.md.text(_char_text(t))


cdef tuple _keep_masks(list keep, list parent):
    """``(template, bare)`` of a keep mask, one byte per element: template:
    not kept; bare: not kept and no kept element below (text.py's ``_bare``:
    subtrees without kept text are not walked)."""
    cdef Py_ssize_t n = len(keep), i
    cdef bytearray template = bytearray(n), bare
    for i in range(n):
        if not keep[i]:
            template[i] = 1
    bare = bytearray(template)
    for i in range(n - 1, 0, -1):
        if not bare[i]:
            bare[<Py_ssize_t> parent[i]] = 0
    return bytes(template), bytes(bare)


def text_lines_kept(uintptr_t start_address, Py_ssize_t start, list size, bytes flags,
                    list keep, list parent):
    """:func:`_text_lines` of the elements with ``keep[i]``, the walk's
    masks made here (:func:`temex.content.text.text_lines`)."""
    template, bare = _keep_masks(keep, parent)
    return _text_lines(start_address, start, size, flags, bare, template)


def markdown(uintptr_t start_address, object doc, list keep, bytes flags, object m):
    """:func:`temex.content.text.markdown_text` of ``doc`` (its body at
    ``start_address``) for the elements with ``keep[i]``, in one walk;
    ``m``: the module :mod:`temex.content.text` (constants and helpers)."""
    cdef bytes template, bare
    template, bare = _keep_masks(keep, doc.parent)
    cdef _MarkdownWalk w = _MarkdownWalk()
    w.out = []
    w.flags = flags
    w.template = template
    # the writer's keep: 1 where template is 0
    w.md = _Markdown(doc, template.translate(_FLIP), m)
    _walk(w, start_address, doc.body, doc.size, bare)
    w.md.flush()
    return w.md.result()


cdef bytes _FLIP = bytes([1, 0]) + bytes(254)
