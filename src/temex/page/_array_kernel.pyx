# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The page layer's loops over a Document's arrays, compiled: what
:mod:`temex.page.blocks`, :mod:`temex.page.names`, :mod:`temex.page.dom`
and the site pool do per element in Python, on the flat arrays that
:func:`temex.page._kernel.flatten` builds (no Lexbor node is read here):
the blocks and their subtree sums (:func:`page_blocks`,
:func:`subtree_sums`), the subtree hashes, the block keys and words
(:func:`join_pieces`, :func:`norm_keys`, :func:`words_of`), the name flags
and counts, the pool's vocabulary, the parse's start-tag bound
(:func:`possible_starts`) and :func:`attribute_values`. Python objects are
made with the same Python operations as the pure path (``str.split``,
``str.lower``, ``hash`` of the same tuples), so the values are equal, not
just alike. :mod:`temex.page.kernel` loads it with the other layers'
compiled modules and names each function's Python twin (``TWINS``); the
pure-Python path stays the reference.
"""

from libc.stdlib cimport calloc, free, malloc, realloc

from temex.page._kernel cimport BLOCK, DIALOG, HIDDEN, LINK

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISDECIMAL(Py_UCS4 ch)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    bint PyUnicode_IS_ASCII(object s)


# -- the blocks (temex.page.blocks) ----------------------------------------------

cdef bint _tab_panel(tuple attrs) except -1:
    # temex.page.blocks.tab_panel
    for k, v in attrs:
        if k == "role" and "tabpanel" in (<str> v).lower().split():
            return True
    return False


cdef inline bint _invisible(tuple attrs, str id_, bint dialog) except -1:
    # temex.page.blocks._invisible (streamed_segment: the id; dialog: the tag;
    # _tab_panel: tab_panel)
    if dialog and not any(k == "open" for k, _ in attrs):
        return True
    for k, v in attrs:
        if k == "hidden" and not _tab_panel(attrs):
            return not (id_.startswith("S:") and id_[2:].isdigit())
        if k == "style" and "none" in v:
            s = v.replace(" ", "").lower()
            if ("display:none" in s or "visibility:hidden" in s) and not _tab_panel(attrs):
                return True
        if k == "popover" or (k == "aria-modal" and v.strip().lower() == "true"):
            return True
    return False


def page_blocks(list parent, list text, list attrs, list ids, Py_ssize_t body,
                Py_ssize_t end, bytes flags):
    """:func:`temex.page.blocks.page_blocks` over the arrays (the body is
    nodes ``body`` to ``end - 1``): ``(node, pieces, chars, link_chars,
    block_of)``."""
    cdef Py_ssize_t n = len(parent), i, p, o, b
    cdef const unsigned char[:] f = flags
    cdef unsigned char *hidden = <unsigned char *> malloc(n + 1)
    cdef unsigned char *in_link = <unsigned char *> malloc(n + 1)
    cdef Py_ssize_t *owner = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t *block = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
    cdef list node = [], pieces = [], chars = [], link_chars = []
    cdef list block_of = [-1] * n
    cdef Py_ssize_t length
    cdef object s
    if hidden == NULL or in_link == NULL or owner == NULL or block == NULL:
        free(hidden); free(in_link); free(owner); free(block)
        raise MemoryError()
    try:
        for i in range(body, end):
            block[i] = -1
            p = <Py_ssize_t> parent[i] if i != body else -1
            a = attrs[i]
            if (p >= 0 and hidden[p]) or (f[i] & HIDDEN) or (
                    (a or (f[i] & DIALOG)) and _invisible(<tuple> a, <str> ids[i],
                                                          f[i] & DIALOG)):
                hidden[i] = 1
                continue
            hidden[i] = 0
            owner[i] = i if ((f[i] & BLOCK) or p < 0) else owner[p]
            in_link[i] = 1 if ((f[i] & LINK) or (p >= 0 and in_link[p])) else 0
            s = text[i]
            if not s:
                continue
            o = owner[i]
            b = block[o]
            if b < 0:
                b = block[o] = len(node)
                node.append(o)
                pieces.append([i])
                chars.append(0)
                link_chars.append(0)
            else:
                (<list> pieces[b]).append(i)
            length = len(<str> s) + 1
            chars[b] = <Py_ssize_t> chars[b] + length
            if in_link[i]:
                link_chars[b] = <Py_ssize_t> link_chars[b] + length
            block_of[i] = b
        return node, pieces, chars, link_chars, block_of
    finally:
        free(hidden); free(in_link); free(owner); free(block)


def subtree_sums(list parent, Py_ssize_t body, Py_ssize_t end, list node, tuple columns):
    """:func:`temex.page.blocks.subtree_sums` with the additions of Python
    numbers done in C in the same order: each sum is an ``int`` while only
    ints were added to it, else the ``float`` Python's ``+`` gives. None when a
    value is neither (the caller sums in Python)."""
    cdef Py_ssize_t n = len(parent), k, b, i, p, nb = len(node)
    cdef long long *iv = <long long *> malloc((n + 1) * sizeof(long long))
    cdef double *dv = <double *> malloc((n + 1) * sizeof(double))
    cdef unsigned char *isf = <unsigned char *> malloc(n + 1)
    cdef Py_ssize_t *nodes = <Py_ssize_t *> malloc((nb + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t *par = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
    cdef double x
    cdef long long y
    cdef list out = [], col_out
    cdef int overflow = 0
    if iv == NULL or dv == NULL or isf == NULL or nodes == NULL or par == NULL:
        free(iv); free(dv); free(isf); free(nodes); free(par)
        raise MemoryError()
    try:
        for b in range(nb):
            nodes[b] = <Py_ssize_t> node[b]
        for i in range(body + 1, end):
            par[i] = <Py_ssize_t> parent[i]
        for col in columns:
            for i in range(n):
                iv[i] = 0
                dv[i] = 0.0
                isf[i] = 0
            b = 0
            for v in col:
                if b >= nb:
                    break
                i = nodes[b]
                b += 1
                if type(v) is float:
                    x = <double> v
                    if not isf[i]:
                        dv[i] = <double> iv[i]
                        isf[i] = 1
                    dv[i] += x
                elif type(v) is int or type(v) is bool:
                    y = <long long> v
                    if isf[i]:
                        dv[i] += <double> y
                    else:
                        iv[i] += y
                else:
                    return None
            for i in range(end - 1, body, -1):
                p = par[i]
                if isf[i] or isf[p]:
                    if not isf[p]:
                        dv[p] = <double> iv[p]
                        isf[p] = 1
                    dv[p] = dv[p] + (dv[i] if isf[i] else <double> iv[i])
                else:
                    iv[p] += iv[i]
            col_out = [0] * n
            for i in range(n):
                if isf[i]:
                    col_out[i] = dv[i]
                elif iv[i]:
                    col_out[i] = iv[i]
            out.append(col_out)
        return out
    finally:
        free(iv); free(dv); free(isf); free(nodes); free(par)


# -- hashes, block keys, the pool's vocabulary (dom, blocks, site.pool) ----------

def subtree_hashes(list tag, list ids, list classes, list attrs, list text, list children):
    """:meth:`temex.page.dom.Document._compute_hash`, compiled: the same
    Python ``hash`` of the same tuples, bottom-up."""
    cdef Py_ssize_t n = len(tag), i
    cdef list h = [0] * n
    cdef tuple ch
    for i in range(n - 1, -1, -1):
        ch = <tuple> children[i]
        kids = tuple([h[c] for c in ch]) if ch else ()
        h[i] = hash((tag[i], ids[i], classes[i], attrs[i], text[i], kids))
    return h


def join_pieces(list text, list pieces):
    """For each block (a list of element numbers), the texts of its elements
    joined by a space: ``" ".join([text[i] for i in ps])`` per block."""
    cdef list out = [], parts
    cdef list ps
    cdef Py_ssize_t k, m
    for ps in pieces:
        m = len(ps)
        if m == 1:
            out.append(text[<Py_ssize_t> ps[0]])
            continue
        parts = [None] * m
        for k in range(m):
            parts[k] = text[<Py_ssize_t> ps[k]]
        out.append(" ".join(parts))
    return out


def norm_keys(list strings):
    """:func:`temex.page.blocks.norm_key` of each string: whitespace runs
    (``str.isspace``) collapsed to one space and stripped, decimal digit runs
    (``\\d``, Unicode category Nd: ``str.isdecimal``) replaced by ``0``, then
    ``str.lower`` (ASCII text lower-cased here). Lower-casing maps no
    character to or from a space or a decimal digit (tests/test_kernel.py
    checks every code point), so it may come last."""
    cdef list out = []
    cdef Py_UCS4 *buf = NULL
    cdef Py_ssize_t cap = 0, n, j, k
    cdef Py_UCS4 ch
    cdef bint space, digit, ascii
    cdef int kind
    cdef void *data
    cdef str s
    cdef void *grown
    try:
        for s in strings:
            n = len(s)
            if n > cap:
                cap = n + 64
                grown = realloc(<void *> buf, cap * sizeof(Py_UCS4))
                if grown == NULL:
                    raise MemoryError()
                buf = <Py_UCS4 *> grown
            kind = PyUnicode_KIND(s)
            data = PyUnicode_DATA(s)
            ascii = PyUnicode_IS_ASCII(s)
            k = 0
            space = False  # a space is pending (written before the next word)
            digit = False  # the last character written is a digit run's 0
            for j in range(n):
                ch = PyUnicode_READ(kind, data, j)
                if Py_UNICODE_ISSPACE(ch):
                    space = k > 0
                    continue
                if space:
                    buf[k] = 32
                    k += 1
                    space = False
                    digit = False
                if (48 <= <unsigned int> ch <= 57 if <unsigned int> ch < 128
                        else Py_UNICODE_ISDECIMAL(ch)):
                    if not digit:
                        buf[k] = 48
                        k += 1
                        digit = True
                    continue
                digit = False
                if ascii and 65 <= <unsigned int> ch <= 90:
                    buf[k] = <Py_UCS4> (<unsigned int> ch + 32)
                else:
                    buf[k] = ch
                k += 1
            key = PyUnicode_FromKindAndData(4, buf, k)
            out.append(key if ascii else (<str> key).lower())
        return out
    finally:
        free(buf)


cdef dict _TOKENS = {}  # (tag, name, mark) -> token, across pages (sites repeat names)


cdef inline str _token(str t, str mark, str name, object sub):
    cdef tuple key = (t, mark, name)
    cdef object got = _TOKENS.get(key)
    if got is None:
        if len(_TOKENS) >= 100000:  # bounded: a worker's memory stays flat
            _TOKENS.clear()
        got = _TOKENS[key] = t + mark + sub("#", name)
    return <str> got


def vocabulary(list tag, list ids, list classes, Py_ssize_t body, Py_ssize_t end,
               object digits):
    """:func:`temex.site.pool.vocabulary` of the elements ``body`` to ``end - 1``:
    the set of tags, ``tag.class`` and ``tag#id`` tokens, digit runs of the
    names replaced by ``#`` (``digits``: the compiled ``[0-9]+``), each
    (tag, id, classes) of the page named once."""
    cdef set out = set()
    cdef set done = set()
    cdef Py_ssize_t i
    cdef str t, id_
    cdef tuple cs
    sub = digits.sub
    for i in range(body, end):
        t = tag[i]
        id_ = ids[i]
        cs = classes[i]
        if not id_ and not cs:
            out.add(t)
            continue
        key = (t, id_, cs)
        if key in done:
            continue
        done.add(key)
        out.add(t)
        for c in cs:
            out.add(_token(t, ".", c, sub))
        if id_:
            out.add(_token(t, "#", id_, sub))
    return out


# -- primitives for the content features (temex.page.names, Blocks.words) --------

def words_of(list strings):
    """:func:`temex.page.tokens.tokens` of each string,
    ``re.findall(r"\\w+", s.lower())``: runs of characters that are
    ``str.isalnum`` or ``_`` (sre's Unicode word class)."""
    cdef list out = [], words
    cdef str low
    cdef Py_ssize_t n, j, start
    cdef int kind
    cdef void *data
    cdef Py_UCS4 c
    cdef bint word
    for s in strings:
        low = (<str> s).lower()
        n = len(low)
        kind = PyUnicode_KIND(low)
        data = PyUnicode_DATA(low)
        words = []
        start = -1
        for j in range(n):
            c = PyUnicode_READ(kind, data, j)
            if c < 128:
                word = (48 <= c <= 57) or (97 <= c <= 122) or (65 <= c <= 90) or c == 95
            else:
                word = Py_UNICODE_ISALNUM(c)
            if word:
                if start < 0:
                    start = j
            elif start >= 0:
                words.append(low[start:j])
                start = -1
        if start >= 0:
            words.append(low[start:n])
        out.append(words)
    return out


def ancestor_counts(list parent, Py_ssize_t start, Py_ssize_t end, bytes flags):
    """Per element: the flagged elements among it and its ancestors from
    ``start`` down (``start``'s own flag counted; elements outside
    ``start``..``end - 1``: 0)."""
    cdef Py_ssize_t n = len(parent), i
    cdef const unsigned char[:] f = flags
    cdef long *c = <long *> calloc(n + 1, sizeof(long))  # 0 outside the span
    cdef list out = [0] * n
    if c == NULL:
        raise MemoryError()
    try:
        for i in range(start, end):
            c[i] = (c[<Py_ssize_t> parent[i]] if i != start else 0) + f[i]
            if c[i]:
                out[i] = c[i]
        return out
    finally:
        free(c)


def flagged_below(list parent, Py_ssize_t start, Py_ssize_t end, bytes flags):
    """Per element: it or an ancestor from ``start`` down is flagged (False
    outside ``start``..``end - 1``)."""
    cdef Py_ssize_t n = len(parent), i
    cdef const unsigned char[:] f = flags
    cdef unsigned char *c = <unsigned char *> calloc(n + 1, 1)  # 0 outside the span
    cdef list out = [False] * n
    if c == NULL:
        raise MemoryError()
    try:
        for i in range(start, end):
            c[i] = 1 if (f[i] or (i != start and c[<Py_ssize_t> parent[i]])) else 0
            if c[i]:
                out[i] = True
        return out
    finally:
        free(c)


def name_index(list ids, list classes):
    """Per element, the number of its (id, classes) pair among the page's
    distinct pairs in order of first occurrence (-1: neither; 4 bytes each,
    native order), and those pairs: :func:`temex.page.names.name_flags`
    judges each pair once and reads the elements' verdicts through it."""
    cdef Py_ssize_t n = len(ids), i
    cdef bytearray raw = bytearray(4 * n)
    cdef int *idx = <int *> (<char *> raw)
    cdef dict seen = {}
    cdef list pairs = []
    for i in range(n):
        id_ = ids[i]
        cs = classes[i]
        if id_ or cs:
            key = (id_, cs)
            v = seen.get(key)
            if v is None:
                v = seen[key] = len(pairs)
                pairs.append(key)
            idx[i] = <int> v
        else:
            idx[i] = -1
    return bytes(raw), pairs


def flags_by_index(bytes index, Py_ssize_t start, Py_ssize_t end, bytes verdicts):
    """One byte per element: the verdict of its pair (:func:`name_index`)
    for the elements ``start`` to ``end - 1``; 0 elsewhere."""
    cdef Py_ssize_t n = len(index) // 4, i
    cdef const int *idx = <const int *> (<const char *> index)
    cdef const unsigned char *v = <const unsigned char *> (<const char *> verdicts)
    cdef bytearray out = bytearray(n)
    cdef unsigned char *o = <unsigned char *> (<char *> out)
    for i in range(start, end):
        if idx[i] >= 0:
            o[i] = v[idx[i]]
    return bytes(out)


def possible_starts(str text):
    """``text.count("<") - text.count("</")`` in one pass (the two cannot
    overlap): the bound of start tags the parse's depth check reads."""
    cdef Py_ssize_t n = len(text), j, count = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef const unsigned char *b
    if kind == 1:
        b = <const unsigned char *> data
        for j in range(n):
            if b[j] == 60:
                if j + 1 < n and b[j + 1] == 47:
                    continue
                count += 1
        return count
    for j in range(n):
        if PyUnicode_READ(kind, data, j) == 60:
            if j + 1 < n and PyUnicode_READ(kind, data, j + 1) == 47:
                continue
            count += 1
    return count


# -- attribute lookups (temex.page.dom.attribute_values) -------------------------

def attribute_values(list attrs, str name):
    """``{element: value}`` of the elements whose attributes (``Document.attrs``:
    tuples of ``(name, value)`` pairs) name ``name`` (the first such pair):
    :func:`temex.page.dom.attribute_values` in one C pass."""
    cdef dict out = {}
    cdef Py_ssize_t i, j, n = len(attrs)
    cdef tuple a, pair
    for i in range(n):
        a = <tuple> attrs[i]
        for j in range(len(a)):
            pair = <tuple> a[j]
            k = pair[0]
            if k is name or k == name:
                out[i] = pair[1]
                break
    return out
