# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The compiled kernel of the page layer: reads the tree that
selectolax's Lexbor parser built, by address (``LexborNode.mem_id``), in C,
with the struct layouts of :mod:`temex.page._lexbor` (``_lexbor.pxd``).

What it does is what :mod:`temex.page.dom` and :mod:`temex.page.walk` do
per node in Python: the flat arrays of a :class:`~temex.page.dom.Document`
in one pre-order pass (:func:`flatten`), the tag flags the walks read
(:func:`tag_flags`), and the walk of a subtree with its text nodes as an
event list (:func:`events`; the text layer's walks subclass its receiver,
``_kernel.pxd``). The loops over the arrays that :func:`flatten` builds
(blocks, subtree sums and hashes, block keys and words, name flags, the
pool's vocabulary) are :mod:`temex.page._array_kernel`. Python objects are
made with the same Python operations as the pure path (decoding with
``errors="replace"`` as selectolax does, ``str.split``), so the values are
equal, not just alike. :mod:`temex.page.kernel` loads it with the other
layers' compiled modules and names each function's Python twin
(``TWINS``); the pure-Python path stays the reference.
"""

cimport cython
from libc.stdint cimport uintptr_t
from libc.stdlib cimport free, malloc, realloc
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
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)


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
