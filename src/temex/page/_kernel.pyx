# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The compiled kernel of the page layer: reads the tree that
selectolax's Lexbor parser built, by address (``LexborNode.mem_id``), in C,
with the struct layouts of :mod:`temex.page._lexbor` (``_lexbor.pxd``).

What it does is what :mod:`temex.page.dom`, :mod:`temex.page.walk`,
:mod:`temex.page.blocks` and :mod:`temex.page.names` do per node in Python:
the flat arrays of a :class:`~temex.page.dom.Document` in one pre-order pass
(:func:`flatten`), the walk of a subtree with its text nodes as an event
list (:func:`events`; the text layer's walks subclass its receiver,
``_kernel.pxd``), and the loops over the arrays (blocks, subtree sums and
hashes, block keys and words, name flags, the pool's vocabulary). Python
objects are made with the same Python operations as the pure path (decoding
with ``errors="replace"`` as selectolax does, ``str.split``, ``sorted``), so
the values are equal, not just alike. :mod:`temex.page.kernel` loads it with
the other layers' compiled modules and names each function's Python twin
(``TWINS``); the pure-Python path stays the reference.
"""

cimport cython
from libc.stdint cimport uintptr_t
from libc.stdlib cimport calloc, free, malloc, realloc
from cpython.bytes cimport PyBytes_FromStringAndSize

from temex.page._lexbor cimport (
    ATTR_LAST_ENTRY, ELEMENT_NODE, TAG_LAST_ENTRY, TEXT_NODE, Attr, CharData, Element, Node,
    _blank, _char_text, _decode, _entry_str)

#: lxb_tag_res_data_default, in id order (lower-cased, as temex reads tags)
_TAG_NAMES = [
    "#undef", "#end-of-file", "#text", "#document", "!--", "!doctype",
    "?processinginstruction", "a", "abbr", "acronym", "address", "altglyph", "altglyphdef",
    "altglyphitem", "animatecolor", "animatemotion", "animatetransform", "annotation-xml",
    "applet", "area", "article", "aside", "audio", "b", "base", "basefont", "bdi", "bdo",
    "bgsound", "big", "blink", "blockquote", "body", "br", "button", "canvas", "caption",
    "center", "cite", "clippath", "code", "col", "colgroup", "data", "datalist", "dd", "del",
    "desc", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "embed", "feblend",
    "fecolormatrix", "fecomponenttransfer", "fecomposite", "feconvolvematrix",
    "fediffuselighting", "fedisplacementmap", "fedistantlight", "fedropshadow", "feflood",
    "fefunca", "fefuncb", "fefuncg", "fefuncr", "fegaussianblur", "feimage", "femerge",
    "femergenode", "femorphology", "feoffset", "fepointlight", "fespecularlighting",
    "fespotlight", "fetile", "feturbulence", "fieldset", "figcaption", "figure", "font",
    "footer", "foreignobject", "form", "frame", "frameset", "glyphref", "h1", "h2", "h3", "h4",
    "h5", "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "image", "img",
    "input", "ins", "isindex", "kbd", "keygen", "label", "legend", "li", "lineargradient",
    "link", "listing", "main", "malignmark", "map", "mark", "marquee", "math", "menu", "meta",
    "meter", "mfenced", "mglyph", "mi", "mn", "mo", "ms", "mtext", "multicol", "nav", "nextid",
    "nobr", "noembed", "noframes", "noscript", "object", "ol", "optgroup", "option", "output",
    "p", "param", "path", "picture", "plaintext", "pre", "progress", "q", "radialgradient",
    "rb", "rp", "rt", "rtc", "ruby", "s", "samp", "script", "search", "section", "select",
    "selectedcontent", "slot", "small", "source", "spacer", "span", "strike", "strong",
    "style", "sub", "summary", "sup", "svg", "table", "tbody", "td", "template", "textarea",
    "textpath", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt", "u", "ul", "var",
    "video", "wbr", "xmp",
]
#: lxb_dom_attr_res_data_default, in id order (as Lexbor spells them)
_ATTR_NAMES = [
    "#undef", "accept", "accept-charset", "active", "align", "alink", "alt", "axis", "bgcolor",
    "charset", "checked", "class", "clear", "codetype", "color", "compact", "content",
    "declare", "defer", "dir", "direction", "disabled", "enctype", "face", "focus", "for",
    "frame", "height", "hover", "href", "hreflang", "html", "http-equiv", "id", "is", "lang",
    "language", "link", "maxlength", "media", "method", "multiple", "nohref", "noresize",
    "noshade", "nowrap", "placeholder", "pool", "public", "readonly", "rel", "required", "rev",
    "rules", "scheme", "scope", "scrolling", "selected", "shape", "size", "slot", "src",
    "style", "system", "target", "text", "title", "type", "valign", "valuetype", "vlink",
    "width", "xmlns",
]

cdef tuple TAG_NAMES = tuple(_TAG_NAMES)
cdef tuple ATTR_NAMES = tuple(_ATTR_NAMES)
assert len(TAG_NAMES) == TAG_LAST_ENTRY and len(ATTR_NAMES) == ATTR_LAST_ENTRY

#: Layout facts the loader checks against selectolax's public API first
LAYOUT = {"lexbor": (3, 1), "node_size": sizeof(Node), "tags": TAG_LAST_ENTRY,
          "attrs": ATTR_LAST_ENTRY}


def node_fields(uintptr_t address):
    """What the kernel reads of one node: ``(local_name, type, parent,
    first_child, last_child, next, prev)``, pointers as addresses (0: none).
    The loader compares it with selectolax's accessors before any walk."""
    cdef Node *n = <Node *> address
    return (n.local_name, n.type, <uintptr_t> n.parent, <uintptr_t> n.first_child,
            <uintptr_t> n.last_child, <uintptr_t> n.next, <uintptr_t> n.prev)


cdef inline str _tag_name(Element *el, dict own):
    """``LexborNode.tag`` lower-cased: the qualified name's entry (static
    table or the document's hash entry)."""
    cdef uintptr_t tid = el.qualified_name if el.qualified_name != 0 else el.node.local_name
    if tid < TAG_LAST_ENTRY:
        return <str> TAG_NAMES[tid]
    if tid == TAG_LAST_ENTRY:  # no name (Lexbor returns NULL)
        return ""
    name = own.get(tid)
    if name is None:
        name = own[tid] = _entry_str(tid).lower()
    return <str> name


cdef inline str _attr_name(Attr *a, dict own):
    cdef uintptr_t aid = a.qualified_name if a.qualified_name != 0 else a.node.local_name
    if aid < ATTR_LAST_ENTRY:
        return <str> ATTR_NAMES[aid]
    if aid == ATTR_LAST_ENTRY:
        return ""
    name = own.get(aid)
    if name is None:
        name = own[aid] = _entry_str(aid)
    return <str> name

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISDECIMAL(Py_UCS4 ch)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    bint PyUnicode_IS_ASCII(object s)


cdef str _collapse(str s):
    """``" ".join(s.split())``: whitespace runs (``str.isspace``) collapsed
    to one space, the ends stripped; ``s`` itself when it is so already."""
    cdef Py_ssize_t n = len(s), j, k = 0
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    cdef Py_UCS4 c
    cdef bint after_space = True, done = True
    cdef Py_UCS4 *buf
    cdef const unsigned char *b1
    if kind == 1:  # one byte per character (most text): no READ switch
        b1 = <const unsigned char *> data
        for j in range(n):
            c = b1[j]
            if Py_UNICODE_ISSPACE(c):
                if c != 32 or after_space:
                    done = False
                    break
                after_space = True
            else:
                after_space = False
    else:
        for j in range(n):
            c = PyUnicode_READ(kind, data, j)
            if Py_UNICODE_ISSPACE(c):
                if c != 32 or after_space:
                    done = False
                    break
                after_space = True
            else:
                after_space = False
    if done and (n == 0 or not after_space):
        return s
    buf = <Py_UCS4 *> malloc((n + 1) * sizeof(Py_UCS4))
    if buf == NULL:
        raise MemoryError()
    try:
        after_space = False  # a space is pending
        for j in range(n):
            c = PyUnicode_READ(kind, data, j)
            if Py_UNICODE_ISSPACE(c):
                after_space = k > 0
                continue
            if after_space:
                buf[k] = 32
                k += 1
                after_space = False
            buf[k] = c
            k += 1
        return <str> PyUnicode_FromKindAndData(4, buf, k)
    finally:
        free(buf)


def collapse(str s):
    """:func:`_collapse` (for the tests)."""
    return _collapse(s)



def flatten(uintptr_t root_address, Py_ssize_t max_elements, frozenset ignored):
    """The arrays of :func:`temex.page.dom._flatten` for the Lexbor subtree at
    ``root_address`` (``parser.root.mem_id``): ``(addresses, tag, id,
    classes, attrs, parent, children, depth, position, text, size, body)``,
    ``addresses`` the element nodes' addresses as native ``uintptr_t`` bytes;
    None when there are more than ``max_elements`` elements. ``ignored``:
    tags whose own text is left empty."""
    cdef Node *root = <Node *> root_address
    cdef Node *node = root
    cdef Element *el
    cdef Attr *a
    cdef Py_ssize_t n = 0, cap = 1024, sp = 0, stack_cap = 256, i, p, k
    cdef uintptr_t *addr = <uintptr_t *> malloc(cap * sizeof(uintptr_t))
    cdef Py_ssize_t *par = <Py_ssize_t *> malloc(cap * sizeof(Py_ssize_t))
    cdef Py_ssize_t *stack = <Py_ssize_t *> malloc(stack_cap * sizeof(Py_ssize_t))
    cdef Py_ssize_t *first = NULL
    cdef Py_ssize_t *last = NULL
    cdef Py_ssize_t *after = NULL
    cdef Py_ssize_t *nkids = NULL
    cdef Py_ssize_t *size = NULL
    cdef Py_ssize_t *dep = NULL
    cdef void *grown
    cdef list tag = [], ids = [], classes = [], attrs = [], pieces_of = []
    cdef dict own_tags = {}, own_attrs = {}, class_cache = {}
    cdef dict found
    cdef object v, cls, c, pieces
    cdef tuple no_attrs = ()
    cdef str t, name
    if addr == NULL or par == NULL or stack == NULL:
        free(addr); free(par); free(stack)
        raise MemoryError()
    try:
        while True:
            if node.type == ELEMENT_NODE:
                if n >= max_elements:
                    return None
                if n == cap:
                    cap *= 2
                    grown = <void *> realloc(<void *> addr, cap * sizeof(uintptr_t))
                    if grown == NULL:
                        raise MemoryError()
                    addr = <uintptr_t *> grown
                    grown = <void *> realloc(<void *> par, cap * sizeof(Py_ssize_t))
                    if grown == NULL:
                        raise MemoryError()
                    par = <Py_ssize_t *> grown
                el = <Element *> node
                addr[n] = <uintptr_t> node
                par[n] = stack[sp - 1] if sp > 0 else -1
                tag.append(_tag_name(el, own_tags))
                pieces_of.append(None)
                a = el.first_attr
                if a == NULL:
                    ids.append("")
                    classes.append(())
                    attrs.append(no_attrs)
                else:
                    found = {}
                    while a != NULL:
                        if a.value == NULL or a.value.data == NULL:
                            found[_attr_name(a, own_attrs)] = None
                        else:
                            found[_attr_name(a, own_attrs)] = _decode(a.value.data,
                                                                      a.value.length)
                        a = a.next
                    v = found.pop("id", None)
                    ids.append(v.strip() if v else "")
                    cls = found.pop("class", None)
                    if cls:
                        c = class_cache.get(cls)
                        if c is None:
                            c = class_cache[cls] = tuple(sorted(set(cls.split())))
                        classes.append(c)
                    else:
                        classes.append(())
                    if len(found) == 1:
                        for name, v in found.items():
                            attrs.append(((name.lower(), v or ""),))
                    elif found:
                        attrs.append(tuple(sorted([(name.lower(), v or "")
                                                   for name, v in found.items()])))
                    else:
                        attrs.append(no_attrs)
                n += 1
                if node.first_child != NULL:
                    if sp == stack_cap:
                        stack_cap *= 2
                        grown = <void *> realloc(<void *> stack, stack_cap * sizeof(Py_ssize_t))
                        if grown == NULL:
                            raise MemoryError()
                        stack = <Py_ssize_t *> grown
                    stack[sp] = n - 1
                    sp += 1
                    node = node.first_child
                    continue
            elif node.type == TEXT_NODE and sp > 0:
                if not _blank(<CharData *> node):
                    t = _decode((<CharData *> node).data.data, (<CharData *> node).data.length)
                    if t:
                        p = stack[sp - 1]
                        pieces = pieces_of[p]
                        if pieces is None:
                            pieces_of[p] = [t]
                        else:
                            pieces.append(t)
            # next node in pre-order: the next sibling of the node or of its
            # nearest ancestor that has one
            if node == root:
                break
            while node.next == NULL:
                node = node.parent
                sp -= 1
                if node == root:
                    break
            if node == root:
                break
            node = node.next

        text = [""] * n
        for i in range(n):
            pieces = pieces_of[i]
            if pieces is not None and tag[i] not in ignored:
                # " ".join(s.split()): whitespace runs collapsed, ends stripped
                text[i] = _collapse(pieces[0] if len(pieces) == 1 else " ".join(pieces))
        first = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        last = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        after = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        nkids = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        size = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        dep = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        if (first == NULL or last == NULL or after == NULL or nkids == NULL or size == NULL
                or dep == NULL):
            raise MemoryError()
        parent = [-1] * n
        depth = [0] * n
        position = [0] * n
        for i in range(n):
            first[i] = last[i] = after[i] = -1
            nkids[i] = 0
            size[i] = 1
            dep[i] = 0
        for i in range(1, n):
            p = par[i]
            if p >= 0:
                parent[i] = p
                position[i] = nkids[p]
                nkids[p] += 1
                if last[p] < 0:
                    first[p] = i
                else:
                    after[last[p]] = i
                last[p] = i
                dep[i] = dep[p] + 1
                depth[i] = dep[i]
        for i in range(n - 1, 0, -1):
            p = par[i]
            if p >= 0:
                size[p] += size[i]
        sizes = [1] * n
        children = [()] * n
        for i in range(n):
            if size[i] != 1:
                sizes[i] = size[i]
            if nkids[i]:
                kids = [0] * nkids[i]
                k = 0
                p = first[i]
                while p >= 0:
                    kids[k] = p
                    k += 1
                    p = after[p]
                children[i] = tuple(kids)
        body = tag.index("body") if "body" in tag else -1
        addresses = PyBytes_FromStringAndSize(<char *> addr, n * sizeof(uintptr_t))
        return (addresses, tag, ids, classes, attrs, parent, children, depth, position, text,
                sizes, body)
    finally:
        free(addr); free(par); free(stack)
        free(first); free(last); free(after); free(nkids); free(size); free(dep)


cdef class _Walk:
    """The events of one walk of a subtree (:func:`events`); the fields are
    declared in ``_kernel.pxd``."""

    cdef void enter(self, Py_ssize_t i) except *:
        if self.emit is None or self.tags[i] in self.emit:
            self.out.append(i)

    cdef void exit(self, Py_ssize_t i) except *:
        if self.emit is None or self.tags[i] in self.emit:
            self.out.append(~i)

    cdef void text(self, Py_ssize_t owner, CharData *t) except *:
        if self.template[owner]:
            return
        self.out.append(_char_text(t))


def tag_flags(list tag, frozenset block, frozenset ignored, frozenset hidden):
    """One byte per element: BLOCK (a block element), PRE (``pre``), IGNORED
    (script, style, noscript, template), HIDDEN (never visible text), LINK
    (``a``): what the walks and :func:`page_blocks` need of the tags."""
    cdef Py_ssize_t i, n = len(tag)
    cdef bytearray out = bytearray(n)
    cdef unsigned char f
    cdef dict seen = {}
    for i in range(n):
        t = tag[i]
        v = seen.get(t)
        if v is None:
            f = 0
            if t in block:
                f |= BLOCK
            if t == "pre":
                f |= PRE
            if t in ignored:
                f |= IGNORED
            if t in hidden:
                f |= HIDDEN
            if t == "a":
                f |= LINK
            if t == "dialog":
                f |= DIALOG
            v = seen[t] = f
        out[i] = <unsigned char> v
    return bytes(out)


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


cdef int _walk(_Walk w, uintptr_t start_address, Py_ssize_t start, list size,
               const unsigned char[:] skip) except -1:
    """Pre-order walk of the subtree of element ``start`` (Lexbor node at
    ``start_address``): ignored elements and elements with ``skip[i]`` and
    descendants are left out with their subtrees (element numbers jump by
    their ``size``), text nodes go to their nearest open element."""
    cdef Node *root = <Node *> start_address
    cdef Node *node = root
    cdef Py_ssize_t counter = start, i, sp = 0, stack_cap = 256
    cdef Py_ssize_t *stack = <Py_ssize_t *> malloc(stack_cap * sizeof(Py_ssize_t))
    cdef void *grown
    cdef bint has_skip = skip is not None
    if stack == NULL:
        raise MemoryError()
    try:
        while True:
            if node.type == ELEMENT_NODE:
                i = counter
                if (w.flags[i] & IGNORED) or (has_skip and skip[i] and <Py_ssize_t> size[i] > 1):
                    counter = i + <Py_ssize_t> size[i]
                else:
                    counter = i + 1
                    w.enter(i)
                    if node.first_child != NULL:
                        if sp == stack_cap:
                            stack_cap *= 2
                            grown = <void *> realloc(<void *> stack,
                                                     stack_cap * sizeof(Py_ssize_t))
                            if grown == NULL:
                                raise MemoryError()
                            stack = <Py_ssize_t *> grown
                        stack[sp] = i
                        sp += 1
                        node = node.first_child
                        continue
                    w.exit(i)
            elif node.type == TEXT_NODE and sp > 0:
                w.text(stack[sp - 1], <CharData *> node)
            if node == root:
                break
            while node.next == NULL:
                node = node.parent
                sp -= 1
                w.exit(stack[sp])
                if node == root:
                    break
            if node == root:
                break
            node = node.next
    finally:
        free(stack)
    return 0


def events(uintptr_t start_address, Py_ssize_t start, list size, bytes flags, object skip,
           bytes template, list tags=None, frozenset emit=None):
    """The walk of :func:`temex.page.walk.events` as one list: ``i`` enters
    element ``i``, ``~i`` leaves it, a ``str`` is a text node of the open
    element (left out when ``template`` of that element is set). ``skip``:
    bytes, one per element, or None. With ``emit``, elements whose tag
    (``tags[i]``) is not in it are walked without entries of their own."""
    cdef _Walk w = _Walk()
    w.out = []
    w.tags = tags
    w.emit = emit
    w.flags = flags
    w.template = template
    _walk(w, start_address, start, size, skip)
    return w.out


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
