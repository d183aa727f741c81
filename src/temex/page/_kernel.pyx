# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The compiled kernel of the page layer: reads the tree that
selectolax's Lexbor parser built, by address (``LexborNode.mem_id``), in C.

It calls no Lexbor function and includes no Lexbor header: the few struct
layouts it reads are declared below, as Lexbor 3.1 defines them in the copy
that selectolax 1.0.0-1.0.2 compile in (``lexbor/source/lexbor/dom/interfaces/
node.h``, ``element.h``, ``attr.h``, ``character_data.h``, ``core/hash.h``,
``core/str.h``, ``tag/tag.h``; the static name tables of ``tag/res.h`` and
``dom/interfaces/attr_res.h``). :mod:`temex.page.kernel` loads it only for those
selectolax versions and only after it has read a probe document exactly as
the pure-Python reader does; otherwise temex runs the pure-Python path, which
gives the same output and stays the reference (tests compare both on every
shared page).

What it does is what :mod:`temex.page.dom` and :mod:`temex.content.text` do per
node in Python: the flat arrays of a :class:`~temex.page.dom.Document` in one
pre-order pass (:func:`flatten`), and the walk of a subtree with its text
nodes, as an event list (:func:`events`) or straight into text lines
(:func:`text_lines`). Python objects are made with the same Python operations
as the pure path (decoding with ``errors="replace"`` as selectolax does,
``str.split``, ``sorted``), so the values are equal, not just alike.
"""

cimport cython
from libc.stdint cimport uintptr_t
from libc.stdlib cimport calloc, free, malloc, realloc
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_DecodeUTF8
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

# -- Lexbor 3.1 layouts (see the module docstring) ---------------------------

cdef extern from *:
    """
    /* lexbor_hash_entry_t: names of tags and attributes, inline up to 16 bytes */
    typedef struct temex_lxb_hash_entry {
        union {
            unsigned char *long_str;
            unsigned char short_str[16 + 1];
        } u;
        size_t length;
        struct temex_lxb_hash_entry *next;
    } temex_lxb_hash_entry;

    /* lxb_tag_data_t and lxb_dom_attr_data_t (the same layout) */
    typedef struct {
        temex_lxb_hash_entry entry;
        uintptr_t id;
        size_t ref_count;
        unsigned char read_only;  /* C bool */
    } temex_lxb_name_data;

    /* lexbor_str_t */
    typedef struct {
        unsigned char *data;
        size_t length;
    } temex_lxb_str;

    /* lxb_dom_node_t (LXB_DOM_NODE_USER_VARIABLES not defined by selectolax) */
    typedef struct temex_lxb_node {
        void *events;                      /* lxb_dom_event_target_t */
        uintptr_t local_name;
        uintptr_t prefix;
        uintptr_t ns;
        void *owner_document;
        struct temex_lxb_node *next;
        struct temex_lxb_node *prev;
        struct temex_lxb_node *parent;
        struct temex_lxb_node *first_child;
        struct temex_lxb_node *last_child;
        void *user;
        int type;                          /* lxb_dom_node_type_t (an enum) */
    } temex_lxb_node;

    struct temex_lxb_element;

    /* lxb_dom_attr_t */
    typedef struct temex_lxb_attr {
        temex_lxb_node node;
        uintptr_t upper_name;
        uintptr_t qualified_name;
        temex_lxb_str *value;
        struct temex_lxb_element *owner;
        struct temex_lxb_attr *next;
        struct temex_lxb_attr *prev;
    } temex_lxb_attr;

    /* lxb_dom_element_t, up to the fields read here */
    typedef struct temex_lxb_element {
        temex_lxb_node node;
        uintptr_t upper_name;
        uintptr_t qualified_name;
        temex_lxb_str *is_value;
        temex_lxb_attr *first_attr;
        temex_lxb_attr *last_attr;
        temex_lxb_attr *attr_id;
        temex_lxb_attr *attr_class;
    } temex_lxb_element;

    /* lxb_dom_character_data_t (text nodes) */
    typedef struct {
        temex_lxb_node node;
        temex_lxb_str data;
    } temex_lxb_character_data;
    """
    ctypedef struct temex_lxb_hash_entry_u:
        unsigned char *long_str
        unsigned char short_str[17]

    ctypedef struct temex_lxb_hash_entry:
        temex_lxb_hash_entry_u u
        size_t length

    ctypedef struct temex_lxb_name_data:
        temex_lxb_hash_entry entry
        uintptr_t id

    ctypedef struct temex_lxb_str:
        unsigned char *data
        size_t length

    ctypedef struct temex_lxb_node:
        uintptr_t local_name
        temex_lxb_node *next
        temex_lxb_node *prev
        temex_lxb_node *parent
        temex_lxb_node *first_child
        temex_lxb_node *last_child
        int type

    ctypedef struct temex_lxb_attr:
        temex_lxb_node node
        uintptr_t qualified_name
        temex_lxb_str *value
        temex_lxb_attr *next

    ctypedef struct temex_lxb_element:
        temex_lxb_node node
        uintptr_t qualified_name
        temex_lxb_attr *first_attr

    ctypedef struct temex_lxb_character_data:
        temex_lxb_node node
        temex_lxb_str data

ctypedef temex_lxb_node Node
ctypedef temex_lxb_element Element
ctypedef temex_lxb_attr Attr
ctypedef temex_lxb_name_data NameData
ctypedef temex_lxb_character_data CharData

cdef enum:
    #: Lexbor node types (lxb_dom_node_type_t)
    ELEMENT_NODE = 1
    TEXT_NODE = 3
    #: Ids below these index Lexbor's static name tables; larger ids are the
    #: addresses of the document's own name entries (LXB_TAG__LAST_ENTRY,
    #: LXB_DOM_ATTR__LAST_ENTRY)
    TAG_LAST_ENTRY = 0xc7
    ATTR_LAST_ENTRY = 0x49
    HASH_SHORT_SIZE = 16

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


cdef inline str _decode(const unsigned char *data, size_t length):
    # selectolax decodes every name, value and text this way (util.pxi)
    return PyUnicode_DecodeUTF8(<const char *> data, <Py_ssize_t> length, "replace")


cdef inline str _entry_str(uintptr_t address):
    cdef NameData *d = <NameData *> address
    if d.entry.length <= HASH_SHORT_SIZE:
        return _decode(d.entry.u.short_str, d.entry.length)
    return _decode(d.entry.u.long_str, d.entry.length)


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


cdef inline bint _blank(CharData *t) noexcept nogil:
    """Text of ASCII whitespace only (selectolax's ``skip_empty``)."""
    cdef size_t k
    cdef unsigned char c
    if t.data.data == NULL:
        return True
    for k in range(t.data.length):
        c = t.data.data[k]
        if c != 32 and c != 9 and c != 10 and c != 12 and c != 13:
            return False
    return True


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
    """State of one walk of a subtree (:func:`events`, :func:`text_lines`)."""

    cdef list out, cur
    cdef int pre_depth
    cdef const unsigned char[:] flags
    cdef const unsigned char[:] template
    cdef bint lines
    cdef list tags
    cdef frozenset emit
    cdef _Markdown md  # the Markdown writer the walk feeds, or None

    cdef inline void flush(self) except *:
        text = "".join(self.cur)
        if not self.pre_depth:
            text = " ".join(text.split())  # whitespace runs collapsed, ends stripped
        if text.strip():
            self.out.append(text)
        self.cur.clear()

    cdef inline void enter(self, Py_ssize_t i) except *:
        cdef unsigned char f
        if self.md is not None:
            if self.md.acts[i]:
                self.md.enter(i)
            return
        if not self.lines:
            if self.emit is None or self.tags[i] in self.emit:
                self.out.append(i)
            return
        f = self.flags[i]
        if f & BLOCK:
            self.flush()
        if f & PRE:
            self.pre_depth += 1

    cdef inline void exit(self, Py_ssize_t i) except *:
        cdef unsigned char f
        if self.md is not None:
            if self.md.acts[i]:
                self.md.exit(i)
            return
        if not self.lines:
            if self.emit is None or self.tags[i] in self.emit:
                self.out.append(~i)
            return
        f = self.flags[i]
        if f & PRE:
            self.flush()
            self.pre_depth -= 1
        elif f & BLOCK:
            self.flush()

    cdef inline void text(self, Py_ssize_t owner, CharData *t) except *:
        if self.template[owner]:
            return
        if t.data.data == NULL:
            value = ""
        else:
            value = _decode(t.data.data, t.data.length)
        if self.md is not None:
            self.md.text(value)
        elif self.lines:
            self.cur.append(value)
        else:
            self.out.append(value)


cdef enum:
    #: bits of the per-element ``flags`` of :func:`tag_flags`
    BLOCK = 1
    PRE = 2
    IGNORED = 4
    HIDDEN = 8
    LINK = 16
    DIALOG = 32


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
    w.cur = []
    w.lines = False
    w.tags = tags
    w.emit = emit
    w.flags = flags
    w.template = template
    _walk(w, start_address, start, size, skip)
    return w.out


def text_lines(uintptr_t start_address, Py_ssize_t start, list size, bytes flags,
               object skip, bytes template):
    """:func:`temex.content.text.text_lines` (without Markdown) in one walk:
    the text of elements not in ``template``, one line per block element."""
    cdef _Walk w = _Walk()
    w.out = []
    w.cur = []
    w.pre_depth = 0
    w.lines = True
    w.flags = flags
    w.template = template
    _walk(w, start_address, start, size, skip)
    w.flush()
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


# -- the exact top-down mapping (temex.template.mapping), compiled ---------------

from libc.string cimport memset
from libc.stdlib cimport qsort

ctypedef long long i64


cdef struct _Memo:
    i64 s1
    i64 s2
    i64 score
    Py_ssize_t off    # first (i, j) pair in the pair store
    Py_ssize_t count  # pairs of the alignment
    int used


cdef struct _KJ:
    Py_ssize_t key
    Py_ssize_t j


cdef int _cmp_kj(const void *a, const void *b) noexcept nogil:
    cdef const _KJ *x = <const _KJ *> a
    cdef const _KJ *y = <const _KJ *> b
    if x.key != y.key:
        return -1 if x.key < y.key else 1
    if x.j != y.j:
        return -1 if x.j < y.j else 1
    return 0


cdef inline size_t _mix(i64 a, i64 b) noexcept nogil:
    cdef unsigned long long h = (<unsigned long long> a) * 0x9E3779B97F4A7C15ULL
    h ^= (<unsigned long long> b) + 0x7F4A7C159E3779B9ULL + (h << 6) + (h >> 2)
    h ^= h >> 29
    return <size_t> h


cdef class _Tree:
    """One document's arrays as the mapping reads them: key ids, subtree
    signatures, sizes, children (CSR)."""
    cdef Py_ssize_t n
    cdef Py_ssize_t *key
    cdef i64 *sig
    cdef i64 *size
    cdef Py_ssize_t *cstart
    cdef Py_ssize_t *clist

    def __cinit__(self, list keys, dict ids, list sig, list size, list children):
        cdef Py_ssize_t n = len(keys), i, k, m, total = 0
        cdef tuple ch
        self.n = n
        self.key = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        self.sig = <i64 *> malloc((n + 1) * sizeof(i64))
        self.size = <i64 *> malloc((n + 1) * sizeof(i64))
        self.cstart = <Py_ssize_t *> malloc((n + 2) * sizeof(Py_ssize_t))
        if self.key == NULL or self.sig == NULL or self.size == NULL or self.cstart == NULL:
            raise MemoryError()
        for i in range(n):
            kv = keys[i]
            got = ids.get(kv)
            if got is None:
                got = ids[kv] = len(ids)
            self.key[i] = <Py_ssize_t> got
            self.sig[i] = <i64> sig[i]
            self.size[i] = <i64> size[i]
            self.cstart[i] = total
            total += len(<tuple> children[i])
        self.cstart[n] = total
        self.clist = <Py_ssize_t *> malloc((total + 1) * sizeof(Py_ssize_t))
        if self.clist == NULL:
            raise MemoryError()
        for i in range(n):
            ch = <tuple> children[i]
            m = len(ch)
            for k in range(m):
                self.clist[self.cstart[i] + k] = <Py_ssize_t> ch[k]

    def __dealloc__(self):
        free(self.key); free(self.sig); free(self.size); free(self.cstart); free(self.clist)


cdef int _grow(void **block, size_t nbytes) except -1:
    """``realloc`` of ``block[0]`` to ``nbytes``; MemoryError, the old block
    kept, when it fails (the aligner's growable pair arrays)."""
    cdef void *grown = realloc(block[0], nbytes)
    if grown == NULL:
        raise MemoryError()
    block[0] = grown
    return 0


cdef class _Aligner:
    """:class:`temex.template.mapping._Aligner` for a relation whose key is
    the equality and that is local (``label``, ``strict``): the same
    recursion, tables, trims, bounds and tie-breaks, in C. Scores are memoised
    by the pair of subtree signatures, as there."""
    cdef _Tree t1, t2
    cdef Py_ssize_t max_cells, proxy_cells
    cdef _Memo *memo
    cdef size_t memo_cap, memo_len
    cdef int *pi      # pair store: (child index in a, child index in b)
    cdef int *pj
    cdef Py_ssize_t pairs_len, pairs_cap
    # scratch
    cdef Py_ssize_t *cx
    cdef Py_ssize_t *cy
    cdef Py_ssize_t cand_len, cand_cap
    cdef i64 *table
    cdef i64 *w
    cdef size_t table_cap, w_cap
    cdef int *ri
    cdef int *rj
    cdef Py_ssize_t r_len, r_cap
    cdef _KJ *kj
    cdef Py_ssize_t kj_cap

    def __cinit__(self, _Tree t1, _Tree t2, Py_ssize_t max_cells, Py_ssize_t proxy_cells):
        self.t1, self.t2 = t1, t2
        self.max_cells, self.proxy_cells = max_cells, proxy_cells
        self.memo_cap = 1024
        self.memo = <_Memo *> malloc(self.memo_cap * sizeof(_Memo))
        if self.memo == NULL:
            raise MemoryError()
        memset(self.memo, 0, self.memo_cap * sizeof(_Memo))

    def __dealloc__(self):
        free(self.memo); free(self.pi); free(self.pj); free(self.cx); free(self.cy)
        free(self.table); free(self.w); free(self.ri); free(self.rj); free(self.kj)

    # -- memo --------------------------------------------------------------
    cdef _Memo *find(self, i64 s1, i64 s2) noexcept:
        cdef size_t mask = self.memo_cap - 1, h = _mix(s1, s2) & mask
        while self.memo[h].used:
            if self.memo[h].s1 == s1 and self.memo[h].s2 == s2:
                return &self.memo[h]
            h = (h + 1) & mask
        return NULL

    cdef int grow_memo(self) except -1:
        cdef size_t old_cap = self.memo_cap, k, h, mask
        cdef _Memo *old = self.memo
        cdef _Memo *new = <_Memo *> malloc(2 * old_cap * sizeof(_Memo))
        if new == NULL:
            raise MemoryError()
        memset(new, 0, 2 * old_cap * sizeof(_Memo))
        mask = 2 * old_cap - 1
        for k in range(old_cap):
            if old[k].used:
                h = _mix(old[k].s1, old[k].s2) & mask
                while new[h].used:
                    h = (h + 1) & mask
                new[h] = old[k]
        self.memo = new
        self.memo_cap = 2 * old_cap
        free(old)
        return 0

    cdef int store(self, i64 s1, i64 s2, i64 score, Py_ssize_t off, Py_ssize_t count) except -1:
        cdef size_t mask, h
        if 2 * (self.memo_len + 1) > self.memo_cap:
            self.grow_memo()
        mask = self.memo_cap - 1
        h = _mix(s1, s2) & mask
        while self.memo[h].used:
            h = (h + 1) & mask
        self.memo[h].used = 1
        self.memo[h].s1 = s1
        self.memo[h].s2 = s2
        self.memo[h].score = score
        self.memo[h].off = off
        self.memo[h].count = count
        self.memo_len += 1
        return 0

    cdef int add_pair(self, Py_ssize_t i, Py_ssize_t j) except -1:
        if self.pairs_len == self.pairs_cap:
            self.pairs_cap = 2 * self.pairs_cap + 256
            _grow(<void **> &self.pi, self.pairs_cap * sizeof(int))
            _grow(<void **> &self.pj, self.pairs_cap * sizeof(int))
        self.pi[self.pairs_len] = <int> i
        self.pj[self.pairs_len] = <int> j
        self.pairs_len += 1
        return 0

    cdef int add_cand(self, Py_ssize_t x, Py_ssize_t y) except -1:
        if self.cand_len == self.cand_cap:
            self.cand_cap = 2 * self.cand_cap + 256
            _grow(<void **> &self.cx, self.cand_cap * sizeof(Py_ssize_t))
            _grow(<void **> &self.cy, self.cand_cap * sizeof(Py_ssize_t))
        self.cx[self.cand_len] = x
        self.cy[self.cand_len] = y
        self.cand_len += 1
        return 0

    cdef int add_result(self, Py_ssize_t i, Py_ssize_t j) except -1:
        if self.r_len == self.r_cap:
            self.r_cap = 2 * self.r_cap + 256
            _grow(<void **> &self.ri, self.r_cap * sizeof(int))
            _grow(<void **> &self.rj, self.r_cap * sizeof(int))
        self.ri[self.r_len] = <int> i
        self.rj[self.r_len] = <int> j
        self.r_len += 1
        return 0

    # -- the pieces of mapping._Aligner --------------------------------------
    cdef void trim(self, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *p, Py_ssize_t *s) noexcept:
        """Lengths of the identical prefix and suffix of the children of a, b."""
        cdef _Tree t1 = self.t1, t2 = self.t2
        cdef Py_ssize_t *c1 = t1.clist + t1.cstart[a]
        cdef Py_ssize_t *c2 = t2.clist + t2.cstart[b]
        cdef Py_ssize_t l1 = t1.cstart[a + 1] - t1.cstart[a]
        cdef Py_ssize_t l2 = t2.cstart[b + 1] - t2.cstart[b]
        cdef Py_ssize_t n = l1 if l1 < l2 else l2, pp = 0, ss = 0
        while pp < n and t1.sig[c1[pp]] == t2.sig[c2[pp]]:
            pp += 1
        while ss < n - pp and t1.sig[c1[l1 - 1 - ss]] == t2.sig[c2[l2 - 1 - ss]]:
            ss += 1
        p[0] = pp
        s[0] = ss

    cdef i64 score(self, Py_ssize_t x, Py_ssize_t y) except -1:
        cdef _Memo *m
        if self.t1.sig[x] == self.t2.sig[y]:
            return self.t1.size[x]
        m = self.find(self.t1.sig[x], self.t2.sig[y])
        if m == NULL:
            raise KeyError((x, y))
        return m.score

    cdef i64 bound(self, Py_ssize_t x, Py_ssize_t y) noexcept:
        cdef i64 a = self.t1.size[x], b = self.t2.size[y]
        if self.t1.sig[x] == self.t2.sig[y]:
            return a
        return a if a < b else b

    cdef i64 dp(self, Py_ssize_t *m1, Py_ssize_t n1, Py_ssize_t *m2, Py_ssize_t n2,
                bint by_bound) except -2:
        """mapping._Aligner._dp: the matched (i, j) go to the result list
        (``ri``, ``rj``), in order; returns the gain."""
        cdef Py_ssize_t i, j, bi = -1, bj = -1
        cdef i64 v, best = 0, wij, c
        cdef size_t cells = <size_t> n1 * <size_t> n2, tcells = <size_t> (n1 + 1) * <size_t> (n2 + 1)
        cdef void *g
        cdef Py_ssize_t *k1 = self.t1.key
        cdef Py_ssize_t *k2 = self.t2.key
        cdef i64 *w
        cdef i64 *table
        self.r_len = 0
        if cells > self.w_cap:
            g = realloc(<void *> self.w, cells * sizeof(i64))
            if g == NULL:
                raise MemoryError()
            self.w = <i64 *> g
            self.w_cap = cells
        w = self.w
        for i in range(n1):
            for j in range(n2):
                if k1[m1[i]] == k2[m2[j]]:
                    w[i * n2 + j] = self.bound(m1[i], m2[j]) if by_bound else self.score(m1[i], m2[j])
                else:
                    w[i * n2 + j] = 0
        if n1 == 1 or n2 == 1:  # a single candidate row or column
            for i in range(n1):
                for j in range(n2):
                    v = w[i * n2 + j]
                    if v > best:
                        best, bi, bj = v, i, j
            if best:
                self.add_result(bi, bj)
            return best
        if tcells > self.table_cap:
            g = realloc(<void *> self.table, tcells * sizeof(i64))
            if g == NULL:
                raise MemoryError()
            self.table = <i64 *> g
            self.table_cap = tcells
        table = self.table
        for j in range(n2 + 1):
            table[j] = 0
        for i in range(1, n1 + 1):
            table[i * (n2 + 1)] = 0
            for j in range(1, n2 + 1):
                v = table[i * (n2 + 1) + j - 1]
                c = table[(i - 1) * (n2 + 1) + j]
                if c > v:
                    v = c
                wij = w[(i - 1) * n2 + j - 1]
                if wij and table[(i - 1) * (n2 + 1) + j - 1] + wij > v:
                    v = table[(i - 1) * (n2 + 1) + j - 1] + wij
                table[i * (n2 + 1) + j] = v
        i, j = n1, n2
        while i > 0 and j > 0:
            wij = w[(i - 1) * n2 + j - 1]
            if wij and table[i * (n2 + 1) + j] == table[(i - 1) * (n2 + 1) + j - 1] + wij:
                self.add_result(i - 1, j - 1)
                i -= 1
                j -= 1
            elif table[i * (n2 + 1) + j] == table[(i - 1) * (n2 + 1) + j]:
                i -= 1
            else:
                j -= 1
        # reverse: in order
        i, j = 0, self.r_len - 1
        while i < j:
            self.ri[i], self.ri[j] = self.ri[j], self.ri[i]
            self.rj[i], self.rj[j] = self.rj[j], self.rj[i]
            i += 1
            j -= 1
        return table[n1 * (n2 + 1) + n2]

    cdef int greedy(self, Py_ssize_t *m1, Py_ssize_t n1, Py_ssize_t *m2, Py_ssize_t n2) except -1:
        """mapping._Aligner._greedy: in-order greedy matching by key, the
        matched (i, j) to the result list."""
        cdef Py_ssize_t i, j, lo, hi, mid, nxt = 0, key
        cdef void *g
        self.r_len = 0
        if n2 > self.kj_cap:
            g = realloc(<void *> self.kj, n2 * sizeof(_KJ))
            if g == NULL:
                raise MemoryError()
            self.kj = <_KJ *> g
            self.kj_cap = n2
        for j in range(n2):
            self.kj[j].key = self.t2.key[m2[j]]
            self.kj[j].j = j
        qsort(<void *> self.kj, n2, sizeof(_KJ), _cmp_kj)
        for i in range(n1):
            key = self.t1.key[m1[i]]
            # first entry with (key, j >= nxt)
            lo, hi = 0, n2
            while lo < hi:
                mid = (lo + hi) // 2
                if self.kj[mid].key < key or (self.kj[mid].key == key and self.kj[mid].j < nxt):
                    lo = mid + 1
                else:
                    hi = mid
            if lo < n2 and self.kj[lo].key == key:
                self.add_result(i, self.kj[lo].j)
                nxt = self.kj[lo].j + 1
        return 0

    cdef int approximate(self, Py_ssize_t *m1, Py_ssize_t n1, Py_ssize_t *m2,
                         Py_ssize_t n2) except -1:
        """mapping._Aligner._approximate: the matched (i, j) to the result list."""
        if <size_t> n1 * <size_t> n2 > <size_t> self.proxy_cells:
            return self.greedy(m1, n1, m2, n2)
        self.dp(m1, n1, m2, n2, True)
        return 0

    cdef int candidates(self, Py_ssize_t a, Py_ssize_t b) except -1:
        """mapping._Aligner.candidate_pairs into ``cx``, ``cy``."""
        cdef Py_ssize_t p, s, n1, n2, i, j
        cdef _Tree t1 = self.t1, t2 = self.t2
        cdef Py_ssize_t *m1
        cdef Py_ssize_t *m2
        self.cand_len = 0
        self.trim(a, b, &p, &s)
        n1 = t1.cstart[a + 1] - t1.cstart[a] - p - s
        n2 = t2.cstart[b + 1] - t2.cstart[b] - p - s
        if n1 <= 0 or n2 <= 0:
            return 0
        m1 = t1.clist + t1.cstart[a] + p
        m2 = t2.clist + t2.cstart[b] + p
        if n1 * n2 > self.max_cells:
            self.approximate(m1, n1, m2, n2)
            for i in range(self.r_len):
                self.add_cand(m1[self.ri[i]], m2[self.rj[i]])
            return 0
        for i in range(n1):
            for j in range(n2):
                if t1.key[m1[i]] == t2.key[m2[j]]:
                    self.add_cand(m1[i], m2[j])
        return 0

    cdef int align(self, Py_ssize_t a, Py_ssize_t b) except -1:
        """mapping._Aligner.align, stored in the memo."""
        cdef Py_ssize_t p, s, n1, n2, l1, l2, i, off = self.pairs_len
        cdef _Tree t1 = self.t1, t2 = self.t2
        cdef Py_ssize_t *c1 = t1.clist + t1.cstart[a]
        cdef i64 total = 1
        self.trim(a, b, &p, &s)
        l1 = t1.cstart[a + 1] - t1.cstart[a]
        l2 = t2.cstart[b + 1] - t2.cstart[b]
        n1, n2 = l1 - p - s, l2 - p - s
        for i in range(p):
            self.add_pair(i, i)
            total += t1.size[c1[i]]
        for i in range(s):
            total += t1.size[c1[l1 - 1 - i]]
        if n1 > 0 and n2 > 0:
            if n1 * n2 > self.max_cells:
                self.approximate(c1 + p, n1, t2.clist + t2.cstart[b] + p, n2)
                for i in range(self.r_len):
                    total += self.score(c1[p + self.ri[i]],
                                        t2.clist[t2.cstart[b] + p + self.rj[i]])
            else:
                total += self.dp(c1 + p, n1, t2.clist + t2.cstart[b] + p, n2, False)
            for i in range(self.r_len):
                self.add_pair(p + self.ri[i], p + self.rj[i])
        for i in range(s):
            self.add_pair(l1 - s + i, l2 - s + i)
        self.store(t1.sig[a], t2.sig[b], total, off, self.pairs_len - off)
        return 0

    cdef dict run(self, Py_ssize_t r1, Py_ssize_t r2):
        cdef Py_ssize_t sp = 0, cap = 256, a, b, k, x, y
        cdef Py_ssize_t *stack = <Py_ssize_t *> malloc(3 * cap * sizeof(Py_ssize_t))
        cdef void *g
        cdef _Tree t1 = self.t1, t2 = self.t2
        cdef dict mapping = {}
        cdef _Memo *m
        cdef i64 n
        if stack == NULL:
            raise MemoryError()
        try:
            stack[0], stack[1], stack[2] = r1, r2, 0
            sp = 1
            while sp:
                sp -= 1
                a, b, k = stack[3 * sp], stack[3 * sp + 1], stack[3 * sp + 2]
                if self.find(t1.sig[a], t2.sig[b]) != NULL:
                    continue
                if k:
                    self.align(a, b)
                    continue
                self.candidates(a, b)
                if sp + 1 + self.cand_len > cap:
                    cap = 2 * (sp + 1 + self.cand_len)
                    g = realloc(<void *> stack, 3 * cap * sizeof(Py_ssize_t))
                    if g == NULL:
                        raise MemoryError()
                    stack = <Py_ssize_t *> g
                stack[3 * sp], stack[3 * sp + 1], stack[3 * sp + 2] = a, b, 1
                sp += 1
                for k in range(self.cand_len):
                    x, y = self.cx[k], self.cy[k]
                    if t1.sig[x] != t2.sig[y] and self.find(t1.sig[x], t2.sig[y]) == NULL:
                        stack[3 * sp], stack[3 * sp + 1], stack[3 * sp + 2] = x, y, 0
                        sp += 1
            # phase 2: the mapping, top-down (mapping._Aligner.reconstruct)
            stack[0], stack[1] = r1, r2
            sp = 1
            while sp:
                sp -= 1
                a, b = stack[3 * sp], stack[3 * sp + 1]
                if t1.sig[a] == t2.sig[b]:
                    n = t1.size[a]
                    for k in range(n):
                        mapping[a + k] = b + k
                    continue
                mapping[a] = b
                m = self.find(t1.sig[a], t2.sig[b])
                if m == NULL:
                    raise KeyError((a, b))
                if sp + m.count > cap:
                    cap = 2 * (sp + m.count)
                    g = realloc(<void *> stack, 3 * cap * sizeof(Py_ssize_t))
                    if g == NULL:
                        raise MemoryError()
                    stack = <Py_ssize_t *> g
                for k in range(m.off, m.off + m.count):
                    stack[3 * sp] = t1.clist[t1.cstart[a] + self.pi[k]]
                    stack[3 * sp + 1] = t2.clist[t2.cstart[b] + self.pj[k]]
                    sp += 1
            return mapping
        finally:
            free(stack)


def etdm_exact(list k1, list s1, list size1, list children1,
               list k2, list s2, list size2, list children2,
               Py_ssize_t r1, Py_ssize_t r2, Py_ssize_t max_cells, Py_ssize_t proxy_cells):
    """:func:`temex.template.mapping.etdm` for a local relation whose key is
    the equality (``k1``, ``k2``: the keys; ``s1``, ``s2``: the subtree
    signatures of :func:`temex.template.mapping.signatures`): the same
    mapping, as a dict in the same insertion order."""
    cdef dict ids = {}
    cdef _Tree t1 = _Tree(k1, ids, s1, size1, children1)
    cdef _Tree t2 = _Tree(k2, ids, s2, size2, children2)
    return _Aligner(t1, t2, max_cells, proxy_cells).run(r1, r2)


def key_signatures(list keys, list children):
    """:func:`temex.template.mapping.signatures` of a local relation,
    compiled: the same Python ``hash`` of the same tuples, bottom-up."""
    cdef Py_ssize_t n = len(keys), i, m, c
    cdef list sig = [0] * n
    cdef tuple ch, kids
    for i in range(n - 1, -1, -1):
        ch = <tuple> children[i]
        m = len(ch)
        if m:
            kids = PyTuple_New(m)
            for c in range(m):
                v = sig[<Py_ssize_t> ch[c]]
                Py_INCREF(v)
                PyTuple_SET_ITEM(kids, c, v)
            sig[i] = hash((keys[i], kids))
        else:
            sig[i] = hash((keys[i],))
    return sig


# -- the Markdown writer (temex.content.text._Markdown), compiled ---------------

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
    """:func:`text_lines` of the elements with ``keep[i]``, the walk's
    masks made here (:func:`temex.content.text.text_lines`)."""
    template, bare = _keep_masks(keep, parent)
    return text_lines(start_address, start, size, flags, bare, template)


def markdown(uintptr_t start_address, object doc, list keep, bytes flags, object m):
    """:func:`temex.content.text.markdown_text` of ``doc`` (its body at
    ``start_address``) for the elements with ``keep[i]``, in one walk;
    ``m``: the module :mod:`temex.content.text` (constants and helpers)."""
    cdef bytes template, bare
    template, bare = _keep_masks(keep, doc.parent)
    cdef _Walk w = _Walk()
    w.out = []
    w.cur = []
    w.lines = False
    w.flags = flags
    w.template = template
    # the writer's keep: 1 where template is 0
    w.md = _Markdown(doc, template.translate(_FLIP), m)
    _walk(w, start_address, doc.body, doc.size, bare)
    w.md.flush()
    return w.md.result()


cdef bytes _FLIP = bytes([1, 0]) + bytes(254)


# -- primitives for the content features (temex.page.names, Blocks.words) --------

def words_of(list strings):
    """``re.findall(r"\\w+", s.lower())`` of each string: runs of characters
    that are ``str.isalnum`` or ``_`` (sre's Unicode word class)."""
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


# -- the content features (temex.content.features.block_features), compiled ------

cdef extern from "Python.h":
    bint Py_UNICODE_ISDIGIT(Py_UCS4 ch)
    bint Py_UNICODE_ISUPPER(Py_UCS4 ch)

from libc.math cimport log1p, signbit
from cpython.number cimport PyNumber_Power
from cpython.float cimport PyFloat_FromDouble, PyFloat_AsDouble
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython cimport array
import array as _array_module

cdef array.array _DOUBLES = _array_module.array("d")

cdef object _F0 = 0.0
cdef object _F1 = 1.0
cdef object _TWO = 2


cdef inline void _put(list row, Py_ssize_t j, double x):
    """``row[j] = x`` on a new list (PyList_New): the slot holds no reference
    yet; 0.0 and 1.0 share one object each."""
    cdef object v
    if x == 0.0 and not signbit(x):
        v = _F0
    elif x == 1.0:
        v = _F1
    else:
        v = PyFloat_FromDouble(x)
    Py_INCREF(v)
    PyList_SET_ITEM(row, j, v)


cdef inline void _set(double *row, Py_ssize_t j, double x) noexcept:
    row[j] = x


cdef inline double _q(double a, double b):
    """``a / b``, raising as Python does when ``b`` is 0."""
    if b == 0.0:
        raise ZeroDivisionError("division by zero")
    return a / b


def feature_rows(list tag, list parent, list size, list depth, Py_ssize_t body,
                 list node, list chars, list lchars, list texts, list words,
                 list sc, list sl, list sb, dict anc_bits, dict tag_index, object tag_class,
                 Py_ssize_t n_tags, Py_ssize_t n_anc, Py_ssize_t table_bit,
                 bytes neg, bytes pos, bytes comm, frozenset stop, object title_words,
                 tuple rule, list lists, list recs, object data_table, object site):
    """:func:`temex.content.features.block_features` in one pass per group:
    the same rows as one flat ``array('d')``, row after row (each
    ``20 + n_tags + n_anc + 47`` values, 9 more with ``site``), each value
    computed by the same operations in the same order (``rule``: ld_ok, named, records, chosen_mask, region, title;
    ``site``: None or (pages, df, chosen_mask, region); ``tag_class(tag)``:
    the index in ``_TAGS`` of a tag not in ``tag_index`` yet; the float sum
    of the page's stop-word rate is Python's own ``sum``)."""
    cdef Py_ssize_t nb = len(node), ne = len(tag), b, d, i, p, gp, j, k, col, nw, t
    cdef Py_ssize_t end = body + <Py_ssize_t> size[body] if body >= 0 else 0
    cdef Py_ssize_t nf = 20 + n_tags + n_anc + 4 + 10 + 6 + 9 + 5 + 10 + 3
    cdef Py_ssize_t nsite = 9 if site is not None else 0
    cdef const unsigned char[:] fneg = neg
    cdef const unsigned char[:] fpos = pos
    cdef const unsigned char[:] fcom = comm
    cdef long long *anc = <long long *> calloc(ne + 1, sizeof(long long))
    cdef long *negc = <long *> calloc(ne + 1, sizeof(long))
    cdef long *posc = <long *> calloc(ne + 1, sizeof(long))
    cdef unsigned char *below = <unsigned char *> calloc(ne + 1, 1)
    cdef double *c_ = <double *> calloc(nb + 1, sizeof(double))
    cdef double *l_ = <double *> calloc(nb + 1, sizeof(double))
    cdef long *sent = <long *> calloc(nb + 1, sizeof(long))
    cdef double *lc = NULL
    cdef double *ll = NULL
    cdef double *rmax = NULL
    cdef long *nrec = NULL
    cdef long *firstrec = NULL
    cdef double *rc = <double *> calloc(ne + 2, sizeof(double))
    cdef list stop_terms
    cdef array.array out
    cdef double *rowp
    cdef str s
    cdef Py_UCS4 ch, last
    cdef Py_ssize_t punct, commas, digits, syms, dots, ln, wlen, nstop, ntitle, maxdepth
    cdef Py_ssize_t bdepth, first_h1, nl, anchor, rk
    cdef bint upper, pipe, ends
    cdef double total, page_ld, page_stop, before, x, y, cc, ll_, region_share, log_total
    cdef double in_lists, total_text, tmax, rep_share, long_rep_share, long_c, pages_d
    cdef long long m
    cdef Py_ssize_t region = rule[4], title = rule[5], region_end
    cdef list ld_ok = rule[0], named = rule[1], records = rule[2], chosen = rule[3]
    cdef list sdf = None, schosen = None
    cdef Py_ssize_t sreg = -1, sreg_end = 0, pages = 0, df
    cdef dict tables = {}
    cdef list tclass = [], stop_rates = []
    cdef Py_ssize_t ntw = len(title_words)
    cdef int kind
    cdef void *data
    if (anc == NULL or negc == NULL or posc == NULL or below == NULL or c_ == NULL
            or l_ == NULL or sent == NULL or rc == NULL):
        free(anc); free(negc); free(posc); free(below); free(c_); free(l_); free(sent); free(rc)
        raise MemoryError()
    try:
        out = array.clone(_DOUBLES, nb * (nf + nsite), zero=False)
        if nb == 0:
            return out
        # _ancestors: the _ANC bitmask, name counts, comment sections, down the body
        for i in range(body, end):
            v = anc_bits.get(tag[i])
            m = <long long> v if v is not None else 0
            p = <Py_ssize_t> parent[i]
            if i != body:
                anc[i] = anc[p] | m
                negc[i] = negc[p] + fneg[i]
                posc[i] = posc[p] + fpos[i]
                below[i] = 1 if (fcom[i] or below[p]) else 0
            else:
                anc[i] = m
                negc[i] = fneg[i]
                posc[i] = fpos[i]
                below[i] = 1 if fcom[i] else 0
        for b in range(nb):
            c_[b] = <double> <Py_ssize_t> chars[b]
            l_[b] = <double> <Py_ssize_t> lchars[b]
        total = <double> max(1, <Py_ssize_t> sc[body])
        page_ld = <double> <Py_ssize_t> sl[body] / total
        maxdepth = 1
        for i in range(body, end):
            if <Py_ssize_t> depth[i] > maxdepth:
                maxdepth = <Py_ssize_t> depth[i]
        bdepth = <Py_ssize_t> depth[body]
        # the page's stop-word rate: Python's float sum, as the pure path
        stop_terms = []
        ln = 0
        for b in range(nb):
            ws = words[b]
            nw = len(ws)
            nstop = 0
            for w in ws:
                if w in stop:
                    nstop += 1
            stop_rates.append(nstop / <double> nw if nw else 0.0)
            stop_terms.append(stop_rates[b] * chars[b])
            ln += <Py_ssize_t> chars[b]
        page_stop = sum(stop_terms) / <double> (ln if ln else 1)
        first_h1 = -1
        for b in range(nb):
            if tag[<Py_ssize_t> node[b]] == "h1":
                first_h1 = b
                break
        # record lists: characters, link characters, records, largest record
        nl = 0
        for b in range(nb):
            if <Py_ssize_t> lists[b] + 1 > nl:
                nl = <Py_ssize_t> lists[b] + 1
        lc = <double *> calloc(nl + 1, sizeof(double))
        ll = <double *> calloc(nl + 1, sizeof(double))
        rmax = <double *> calloc(nl + 1, sizeof(double))
        nrec = <long *> calloc(nl + 1, sizeof(long))
        firstrec = <long *> calloc(nl + 1, sizeof(long))
        if lc == NULL or ll == NULL or rmax == NULL or nrec == NULL or firstrec == NULL:
            raise MemoryError()
        for k in range(nl):
            firstrec[k] = -2
        for b in range(nb):
            k = <Py_ssize_t> lists[b]
            if k >= 0:
                lc[k] += c_[b]
                ll[k] += l_[b]
                rc[<Py_ssize_t> recs[b] + 1] += c_[b]
                if firstrec[k] == -2:
                    firstrec[k] = <Py_ssize_t> recs[b]
        for b in range(nb):
            k = <Py_ssize_t> lists[b]
            if k >= 0 and (b == 0 or recs[b - 1] != recs[b]):
                nrec[k] += 1
                x = rc[<Py_ssize_t> recs[b] + 1]
                if x > rmax[k]:
                    rmax[k] = x
        anchor = 0
        tmax = c_[0] - l_[0]
        ln = 0
        for b in range(nb):
            x = c_[b] - l_[b]
            ln += <Py_ssize_t> chars[b] - <Py_ssize_t> lchars[b]
            if x > tmax:
                tmax = x
                anchor = b
        total_text = <double> max(1, ln)
        in_lists = 0.0
        for k in range(nl):
            in_lists += lc[k]
        in_lists = in_lists / total
        region_end = region + <Py_ssize_t> size[region] if region >= 0 else 0
        region_share = <double> <Py_ssize_t> sc[region] / total if region >= 0 else 0.0
        log_total = log1p(total)
        if site is not None:
            pages = <Py_ssize_t> site[0]
            sdf = site[1]
            schosen = site[2]
            sreg = <Py_ssize_t> site[3]
            sreg_end = sreg + <Py_ssize_t> size[sreg] if sreg >= 0 else 0
            ln = 0
            rk = 0
            long_c = 0.0
            for b in range(min(nb, len(sdf))):
                if <Py_ssize_t> sdf[b] >= 1:
                    ln += <Py_ssize_t> chars[b]
                    if <Py_ssize_t> chars[b] >= 150:
                        rk += <Py_ssize_t> chars[b]
            for b in range(nb):
                if <Py_ssize_t> chars[b] >= 150:
                    long_c += c_[b]
            rep_share = <double> ln / total
            long_rep_share = <double> rk / long_c if long_c else 0.0
        before = 0.0
        for b in range(nb):
            d = <Py_ssize_t> node[b]
            p = <Py_ssize_t> parent[d] if d != body else body
            gp = <Py_ssize_t> parent[p] if p != body else body
            s = texts[b]
            ws = words[b]
            nw = len(ws)
            cc = c_[b]
            # one scan of the text: punctuation, digits, code symbols, marks
            punct = commas = digits = syms = dots = 0
            pipe = False
            last = 0
            ln = len(s)
            kind = PyUnicode_KIND(s)
            data = PyUnicode_DATA(s)
            for j in range(ln):
                ch = PyUnicode_READ(kind, data, j)
                if ch == 46 or ch == 44 or ch == 59 or ch == 58 or ch == 33 or ch == 63:
                    punct += 1
                    if ch == 44:
                        commas += 1
                    elif ((ch == 46 or ch == 63 or ch == 33) and j + 1 < ln
                          and PyUnicode_READ(kind, data, j + 1) == 32):
                        dots += 1  # ". ", "? ", "! " (they cannot overlap)
                if Py_UNICODE_ISDIGIT(ch):
                    digits += 1
                if ch == 124 or ch == 0x2022 or ch == 0xbb:
                    pipe = True
                if (ch == 123 or ch == 125 or ch == 91 or ch == 93 or ch == 40 or ch == 41
                        or ch == 59 or ch == 61 or ch == 60 or ch == 62 or ch == 47 or ch == 92
                        or ch == 95 or ch == 36 or ch == 35 or ch == 42 or ch == 38
                        or ch == 124 or ch == 43):
                    syms += 1  # features._CODE_SYMS
                if not Py_UNICODE_ISSPACE(ch):
                    last = ch  # the last character of s.rstrip()
            ends = (last == 46 or last == 33 or last == 63 or last == 58 or last == 34
                    or last == 0x201d)
            sent[b] = dots + ends
            upper = ln > 0 and Py_UNICODE_ISUPPER(PyUnicode_READ(kind, data, 0))
            wlen = 0
            ntitle = 0
            for w in ws:
                wlen += len(<str> w)
                if ntw and w in title_words:
                    ntitle += 1
            rowp = out.data.as_doubles + b * (nf + nsite)
            col = 0
            # TEXT_FEATURES
            _set(rowp, 0, 1.0)
            _set(rowp, 1, log1p(cc))
            _set(rowp, 2, log1p(<double> (<Py_ssize_t> chars[b] - <Py_ssize_t> lchars[b])))
            _set(rowp, 3, l_[b] / cc if cc else 0.0)
            _set(rowp, 4, log1p(<double> nw))
            _set(rowp, 5, <double> wlen / <double> nw if nw else 0.0)
            _set(rowp, 6, <double> stop_rates[b] - page_stop)
            _set(rowp, 7, <double> punct / cc if cc else 0.0)
            _set(rowp, 8, <double> min(sent[b], 10) / 10.0)
            _set(rowp, 9, 1.0 if ends else 0.0)
            _set(rowp, 10, <double> digits / cc if cc else 0.0)
            _set(rowp, 11, 1.0 if upper else 0.0)
            _set(rowp, 12, <double> commas / <double> max(1, nw))
            _set(rowp, 13, 1.0 if pipe else 0.0)
            _set(rowp, 14, <double> (<Py_ssize_t> depth[d] - bdepth) / <double> max(1, maxdepth - bdepth))
            x = before / total
            _set(rowp, 15, x)
            # Python's float ** 2 calls libm's pow; C's pow(x, 2.0) may be x * x
            _set(rowp, 16, <double> PyNumber_Power(PyFloat_FromDouble(x), _TWO, None))
            _set(rowp, 17, <double> b / <double> nb)
            _set(rowp, 18, 1.0 if cc < 20 else 0.0)
            _set(rowp, 19, 1.0 if cc > 400 else 0.0)
            before += cc
            col = 20
            # TAG_FEATURES
            v = tag_index.get(tag[d])
            if v is None:
                v = tag_class(tag[d])
                if len(tag_index) < 4096:  # bounded: custom elements are many
                    tag_index[tag[d]] = v
            t = <Py_ssize_t> v
            for j in range(n_tags):
                _set(rowp, col + j, 1.0 if j == t else 0.0)
            col += n_tags
            # ANCESTOR_FEATURES
            m = anc[d]
            for j in range(n_anc):
                _set(rowp, col + j, 1.0 if (m >> j) & 1 else 0.0)
            col += n_anc
            # NAME_FEATURES
            _set(rowp, col, <double> min(negc[d], 3) / 3.0)
            _set(rowp, col + 1, 1.0 if (fneg[d] or fneg[p]) else 0.0)
            _set(rowp, col + 2, <double> min(posc[d], 3) / 3.0)
            _set(rowp, col + 3, 1.0 if (fpos[d] or (d != body and fpos[p])) else 0.0)
            col += 4
            # SUBTREE_FEATURES
            for i in (p, gp):
                x = <double> <Py_ssize_t> sc[i]
                y = <double> <Py_ssize_t> sb[i]
                _set(rowp, col, log1p(x))
                _set(rowp, col + 1, <double> <Py_ssize_t> sl[i] / x if x else 0.0)
                _set(rowp, col + 2, log1p(y))
                _set(rowp, col + 3, x / total)
                _set(rowp, col + 4, log1p(x / <double> max(1, <Py_ssize_t> sb[i])))
                col += 5
            # NEIGHBOUR_FEATURES
            if b > 0:
                _set(rowp, col, _q(l_[b - 1], c_[b - 1]))
                _set(rowp, col + 2, log1p(c_[b - 1]))
                _set(rowp, col + 4, 1.0 if tag[<Py_ssize_t> node[b - 1]] in (
                    "h1", "h2", "h3", "h4", "h5", "h6") else 0.0)
            else:
                _set(rowp, col, 0.0)
                _set(rowp, col + 2, 0.0)
                _set(rowp, col + 4, 0.0)
            if b + 1 < nb:
                _set(rowp, col + 1, _q(l_[b + 1], c_[b + 1]))
                _set(rowp, col + 3, log1p(c_[b + 1]))
                _set(rowp, col + 5, log1p(<double> (<Py_ssize_t> chars[b + 1]
                                                   - <Py_ssize_t> lchars[b + 1])))
            else:
                _set(rowp, col + 1, 0.0)
                _set(rowp, col + 3, 0.0)
                _set(rowp, col + 5, 0.0)
            col += 6
            # RULE_FEATURES
            _set(rowp, col, PyFloat_AsDouble(ld_ok[b]))
            _set(rowp, col + 1, PyFloat_AsDouble(named[b]))
            _set(rowp, col + 2, PyFloat_AsDouble(records[b]))
            _set(rowp, col + 3, 1.0 if (region >= 0 and region <= d < region_end) else 0.0)
            _set(rowp, col + 4, PyFloat_AsDouble(chosen[b]))
            _set(rowp, col + 5, 1.0 if b == title else 0.0)
            _set(rowp, col + 6, region_share)
            _set(rowp, col + 7, log_total)
            _set(rowp, col + 8, page_ld)
            col += 9
            # LANDMARK_FEATURES
            x = <double> ntitle / <double> nw if (nw and ntw) else 0.0
            _set(rowp, col, x)
            _set(rowp, col + 1, 1.0 if (x > 0.8 and nw >= 2
                                       and <double> (nw * 2) >= <double> ntw * 0.5) else 0.0)
            _set(rowp, col + 2, 1.0 if (first_h1 >= 0 and b >= first_h1) else 0.0)
            _set(rowp, col + 3, 1.0 if below[d] else 0.0)
            _set(rowp, col + 4, 1.0 if b == first_h1 else 0.0)
            col += 5
            # RECORD_FEATURES
            k = <Py_ssize_t> lists[b]
            if k < 0:
                for j in range(9):
                    _set(rowp, col + j, 0.0)
                _set(rowp, col + 9, in_lists)
            else:
                x = rc[<Py_ssize_t> recs[b] + 1]
                _set(rowp, col, 1.0)
                _set(rowp, col + 1, lc[k] / total)
                _set(rowp, col + 2, (lc[k] - ll[k]) / total_text)
                _set(rowp, col + 3, log1p(<double> nrec[k]))
                _set(rowp, col + 4, ll[k] / lc[k] if lc[k] else 0.0)
                _set(rowp, col + 5, 1.0 if <Py_ssize_t> lists[anchor] == k else 0.0)
                _set(rowp, col + 6, rmax[k] / lc[k] if lc[k] else 0.0)
                _set(rowp, col + 7, 1.0 if firstrec[k] == <Py_ssize_t> recs[b] else 0.0)
                _set(rowp, col + 8, in_lists)
                _set(rowp, col + 9, x / total)
            col += 10
            # KIND_FEATURES
            _set(rowp, col, <double> syms / cc if cc else 0.0)
            if anc[d] & (<long long> 1 << table_bit):
                t = d
                while t > body and tag[t] != "table":
                    t = <Py_ssize_t> parent[t]
                v = tables.get(t)
                if v is None:
                    v = tables[t] = (1.0 if data_table(t) else 0.0,
                                     <double> <Py_ssize_t> sc[t] / total)
                _set(rowp, col + 1, <double> v[0])
                _set(rowp, col + 2, <double> v[1])
            else:
                _set(rowp, col + 1, 0.0)
                _set(rowp, col + 2, 0.0)
            col += 3
            # SITE_FEATURES
            if site is not None:
                df = <Py_ssize_t> sdf[b]
                pages_d = <double> pages
                x = l_[b] / cc if cc else 0.0
                _set(rowp, col, <double> min(pages, 20) / 20.0)
                _set(rowp, col + 1, 1.0 if df >= 1 else 0.0)
                _set(rowp, col + 2, <double> df / pages_d if pages else 0.0)
                _set(rowp, col + 3, 1.0 if (df >= 2 or (df >= 1 and cc < 100)) else 0.0)
                _set(rowp, col + 4, PyFloat_AsDouble(schosen[b]))
                _set(rowp, col + 5, 1.0 if (sreg >= 0 and sreg <= d < sreg_end) else 0.0)
                _set(rowp, col + 6, rep_share)
                _set(rowp, col + 7, long_rep_share)
                _set(rowp, col + 8, 1.0 if (df >= 1 and cc >= 150 and x < 0.3
                                           and sent[b] >= 2) else 0.0)
        return out
    finally:
        free(anc); free(negc); free(posc); free(below); free(c_); free(l_); free(sent)
        free(rc); free(lc); free(ll); free(rmax); free(nrec); free(firstrec)


# -- the scorer's logistic regressions (temex.content.scorer), compiled ---------

from libc.math cimport exp, fabs, isfinite, log

cdef extern from "Python.h":
    int PY_VERSION_HEX


cdef double _psum(double *x, Py_ssize_t n) noexcept:
    """``sum(xs)`` of ``n`` Python floats as this Python adds them: the first
    added to the int 0, the others one by one (Python 3.12 and later: with
    Neumaier's compensation, as ``builtin_sum_impl`` does).
    :mod:`temex.page.kernel` checks it against ``sum`` itself before the
    kernel is used."""
    cdef Py_ssize_t j
    cdef double acc, t, c = 0.0
    if n == 0:
        return 0.0
    acc = 0.0 + x[0]
    if PY_VERSION_HEX >= 0x030C0000:
        for j in range(1, n):
            t = acc + x[j]
            if fabs(acc) >= fabs(x[j]):
                c += (acc - t) + x[j]
            else:
                c += (x[j] - t) + acc
            acc = t
        if c != 0.0 and isfinite(c):
            acc += c
    else:
        for j in range(1, n):
            acc += x[j]
    return acc


cdef double _dot(list f, Py_ssize_t wf, list g, double *k, Py_ssize_t nk,
                 double *buf) except? -1.0:
    """``sum(map(operator.mul, f[:wf] + g, k))`` (``buf``: room for ``nk``
    values): the row read into ``buf``, then :func:`_dot_flat`."""
    cdef Py_ssize_t j
    for j in range(wf if wf < nk else nk):
        buf[j] = PyFloat_AsDouble(f[j])
    return _dot_flat(buf, wf, g, k, nk, buf)


cdef double _dot_flat(const double *f, Py_ssize_t wf, list g, double *k, Py_ssize_t nk,
                      double *buf) except? -1.0:
    """``sum(map(operator.mul, f[:wf] + g, k))`` of a row held as ``wf``
    doubles (``buf``: room for ``nk`` products; it may be ``f`` itself,
    each product replacing the value it reads)."""
    cdef Py_ssize_t n = wf + (len(g) if g is not None else 0), j
    if nk < n:
        n = nk
    for j in range(n):
        buf[j] = (f[j] if j < wf else PyFloat_AsDouble(g[j - wf])) * k[j]
    return _psum(buf, n)


def dot(list f, list k):
    """``sum(map(operator.mul, f, k))`` (:func:`_dot`), for the self-check."""
    cdef Py_ssize_t nk = len(k), j
    cdef double *kk = <double *> malloc((2 * nk + 1) * sizeof(double))
    if kk == NULL:
        raise MemoryError()
    try:
        for j in range(nk):
            kk[j] = PyFloat_AsDouble(k[j])
        return _dot(f, len(f), None, kk, nk, kk + nk)
    finally:
        free(kk)


cdef struct _Node:
    double threshold
    double value
    int feature
    int child[2]


cdef class Forest:
    """:class:`temex.content.scorer.Forest` in C: the raw score of a row is
    ``base`` plus, tree by tree, the value of the leaf its walk reaches
    (``x[feature] <= threshold``: left). The Python class has checked that
    every node points inside the arrays and every child comes after its
    parent (so that a walk ends). Laid out for a walk without branches on
    the data: one record a node (its test, its value, its children: left at
    ``child[0]``), a leaf its own two children, and every walk ``depth``
    steps long (the deepest leaf's), so that the processor overlaps the
    walks of successive trees instead of mispredicting their turns (about
    10 ns a tree of depth 4 and a row)."""
    cdef double base
    cdef Py_ssize_t n, ntrees, depth
    cdef _Node *nodes
    cdef int *roots

    def __cinit__(self, double base, list feature, list threshold, list left, list right,
                  list value, list roots):
        cdef Py_ssize_t j
        cdef int i
        self.base = base
        self.n = len(feature)
        self.ntrees = len(roots)
        self.nodes = <_Node *> malloc((self.n + 1) * sizeof(_Node))
        self.roots = <int *> malloc((self.ntrees + 1) * sizeof(int))
        cdef int *deep = <int *> malloc((self.n + 1) * sizeof(int))
        if self.nodes == NULL or self.roots == NULL or deep == NULL:
            free(deep)
            raise MemoryError()
        for j in range(self.n):
            self.nodes[j].threshold = threshold[j]
            self.nodes[j].value = value[j]
            if feature[j] < 0:  # a leaf: reads feature 0 and stays
                self.nodes[j].feature = 0
                self.nodes[j].child[0] = self.nodes[j].child[1] = j
            else:
                self.nodes[j].feature = feature[j]
                self.nodes[j].child[0] = left[j]
                self.nodes[j].child[1] = right[j]
        for j in range(self.ntrees):
            self.roots[j] = roots[j]
        # the longest walk: every node's depth (children come after parents)
        self.depth = 0
        for j in range(self.n):
            deep[j] = 0
        for j in range(self.n):
            if feature[j] >= 0:
                for i in (left[j], right[j]):
                    deep[i] = deep[j] + 1
                    if deep[i] > self.depth:
                        self.depth = deep[i]
        free(deep)

    def __dealloc__(self):
        free(self.nodes)
        free(self.roots)

    cdef double raw(self, const double *x) noexcept:
        cdef double z = self.base
        cdef Py_ssize_t t, d
        cdef const _Node *nd
        cdef int i
        for t in range(self.ntrees):
            i = self.roots[t]
            for d in range(self.depth):
                # right where not x <= threshold (a NaN goes right, as in Python)
                nd = &self.nodes[i]
                i = nd.child[1 - (x[nd.feature] <= nd.threshold)]
            z += self.nodes[i].value
        return z

    def raw_rows(self, list rows):
        """``[Forest.raw(row) for row in rows]`` of
        :class:`temex.content.scorer.Forest` (the site decision's rows,
        lists of floats): the same walks and the same sums in the same
        order, so equal."""
        cdef Py_ssize_t r, j, w
        cdef list row, out = []
        cdef double *x = NULL
        cdef Py_ssize_t cap = 0
        try:
            for r in range(len(rows)):
                row = rows[r]
                w = len(row)
                if w > cap:
                    free(x)
                    x = <double *> malloc((w + 1) * sizeof(double))
                    if x == NULL:
                        raise MemoryError()
                    cap = w
                for j in range(w):
                    x[j] = row[j]
                out.append(self.raw(x))
        finally:
            free(x)
        return out


def logistic(object rows, object ctx, Py_ssize_t width, double b, list k,
             Forest forest=None):
    """``[_sigmoid(b + sum(map(operator.mul, row[:width] + ctx[i], k)))]``
    per row (:class:`temex.content.scorer.ScorerModel`'s stages: ``ctx``
    None for stage 1, ``width`` -1 for the whole row); with ``forest``, the
    sigmoid of ``0.5 * (that sum + forest's raw score of the row)``.
    ``rows``: a list of rows, or an object with ``values`` (a flat
    ``array('d')``) and ``width`` (:class:`temex.content.features.FeatureRows`)."""
    cdef Py_ssize_t nk = len(k), j, i, n = len(rows), wf, rw = 0, nx
    cdef double *kk = <double *> malloc((3 * nk + 1) * sizeof(double))
    cdef double *xb
    cdef double z, e
    cdef list out = PyList_New(n) if n else [], f = None, g = None
    cdef array.array flat = None
    if kk == NULL:
        raise MemoryError()
    if type(rows) is not list:
        flat = rows.values
        rw = rows.width
    xb = kk + 2 * nk
    try:
        for j in range(nk):
            kk[j] = PyFloat_AsDouble(k[j])
        for i in range(n):
            if ctx is not None:
                g = ctx[i]
            if flat is not None:
                wf = rw if width < 0 or width > rw else width
                if forest is not None:
                    for j in range(wf if wf < nk else nk):
                        xb[j] = flat.data.as_doubles[i * rw + j]
                z = b + _dot_flat(flat.data.as_doubles + i * rw, wf, g, kk, nk, kk + nk)
            else:
                f = rows[i]
                wf = len(f) if width < 0 or width > len(f) else width
                if forest is not None:
                    for j in range(wf if wf < nk else nk):
                        xb[j] = PyFloat_AsDouble(f[j])
                z = b + _dot(f, wf, g, kk, nk, kk + nk)
            if forest is not None:
                # the row as the forest reads it: the row's values, then the
                # context's; a short row would read past them (Python: an
                # IndexError)
                nx = wf + (len(g) if g is not None else 0)
                if nx < nk:
                    raise IndexError("feature row shorter than the model")
                for j in range(wf, nk):
                    xb[j] = PyFloat_AsDouble(g[j - wf])
                z = 0.5 * (z + forest.raw(xb))
            if z >= 0:
                z = 1.0 / (1.0 + exp(-z))
            else:
                e = exp(z)
                z = e / (1.0 + e)
            v = PyFloat_FromDouble(z)
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
        return out
    finally:
        free(kk)


cdef inline double _logit(double p) noexcept:
    """:func:`temex.content.features.logit`: ``min``/``max`` as Python's."""
    if 1e-6 > p:
        p = 1e-6
    if 1 - 1e-6 < p:
        p = 1 - 1e-6
    return log(p / (1 - p))


def context_rows(list s1, list chars, list node, list parent, Py_ssize_t body,
                 Py_ssize_t n_elements, list lk, list rk, list ws, list cs):
    """:func:`temex.content.features.context_features` from the subtree sums
    of ``s1 × chars`` and ``chars`` (``ws``, ``cs``): the same rows, the
    window's float sum as this Python's ``sum``."""
    cdef Py_ssize_t n = len(s1), b, d, p, gp, ggp, lo, hi, j, k, r, nl = 0
    cdef double *s = <double *> malloc((n + 1) * sizeof(double))
    cdef double *c = <double *> malloc((n + 1) * sizeof(double))
    cdef double *lw = NULL
    cdef double *rw = <double *> calloc(2 * (n_elements + 2), sizeof(double))
    cdef double buf[5]
    cdef double w, wc, page, x
    cdef list out = [], row
    if s == NULL or c == NULL or rw == NULL:
        free(s); free(c); free(rw)
        raise MemoryError()
    try:
        for b in range(n):
            s[b] = PyFloat_AsDouble(s1[b])
            c[b] = <double> <Py_ssize_t> chars[b]
            if <Py_ssize_t> lk[b] + 1 > nl:
                nl = <Py_ssize_t> lk[b] + 1
        lw = <double *> calloc(2 * (nl + 1), sizeof(double))
        if lw == NULL:
            raise MemoryError()
        for b in range(n):
            k = <Py_ssize_t> lk[b]
            if k >= 0:
                w = s[b] * c[b]
                r = <Py_ssize_t> rk[b] + 1
                lw[2 * k] += w
                lw[2 * k + 1] += c[b]
                rw[2 * r] += w
                rw[2 * r + 1] += c[b]
        x = PyFloat_AsDouble(cs[body])
        page = PyFloat_AsDouble(ws[body]) / x if x else 0.0
        for b in range(n):
            d = <Py_ssize_t> node[b]
            p = <Py_ssize_t> parent[d] if d != body else body
            gp = <Py_ssize_t> parent[p] if p != body else body
            ggp = <Py_ssize_t> parent[gp] if gp != body else body
            lo = b - 2 if b >= 2 else 0
            hi = b + 3 if b + 3 < n else n
            wc = 0.0
            for j in range(lo, hi):
                wc += c[j]  # an int sum in Python: exact either way
                buf[j - lo] = s[j] * c[j]
            row = PyList_New(10)
            _put(row, 0, _logit(s[b]))
            _put(row, 1, s[b - 1] if b else 0.0)
            _put(row, 2, s[b + 1] if b + 1 < n else 0.0)
            for j, k in enumerate((p, gp, ggp)):
                x = PyFloat_AsDouble(cs[k])
                _put(row, 3 + j, PyFloat_AsDouble(ws[k]) / x if x else 0.0)
            _put(row, 6, _psum(buf, hi - lo) / wc if wc else 0.0)
            _put(row, 7, page)
            k = <Py_ssize_t> lk[b]
            if k >= 0:
                r = <Py_ssize_t> rk[b] + 1
                _put(row, 8, lw[2 * k] / lw[2 * k + 1] if lw[2 * k + 1] else 0.0)
                _put(row, 9, rw[2 * r] / rw[2 * r + 1] if rw[2 * r + 1] else 0.0)
            else:
                _put(row, 8, s[b])
                _put(row, 9, s[b])
            out.append(row)
        return out
    finally:
        free(s); free(c); free(lw); free(rw)


def psum(list xs):
    """``sum(xs)`` of floats (:func:`_psum`), for the self-check."""
    cdef Py_ssize_t n = len(xs), j
    cdef double *x = <double *> malloc((n + 1) * sizeof(double))
    if x == NULL:
        raise MemoryError()
    try:
        for j in range(n):
            x[j] = PyFloat_AsDouble(xs[j])
        return _psum(x, n)
    finally:
        free(x)


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


# -- attribute lookups and the kept elements of a choice of blocks ----------------

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


def keep_mask(list block_of, list chosen, Py_ssize_t nblocks, list parent, list text,
              list tag, list size, frozenset spacers):
    """:meth:`temex.content.output.Content.keep_mask`'s three passes (the
    elements of kept blocks, the text-free elements that hold one or space
    one, the text-free elements of a kept ``<pre>``), in C: the same
    list."""
    cdef Py_ssize_t n = len(parent), i, j, p, b, e
    cdef unsigned char *ch = <unsigned char *> calloc(nblocks + 1, 1)
    cdef unsigned char *keep = <unsigned char *> calloc(n + 1, 1)
    cdef unsigned char *holds = <unsigned char *> calloc(n + 1, 1)
    cdef list out
    if ch == NULL or keep == NULL or holds == NULL:
        free(ch); free(keep); free(holds)
        raise MemoryError()
    try:
        for x in chosen:
            b = x
            if 0 <= b < nblocks:
                ch[b] = 1
        for i in range(n):
            b = block_of[i]
            keep[i] = 1 if (0 <= b < nblocks and ch[b]) else 0
        for i in range(n - 1, -1, -1):
            p = parent[i]
            if p >= 0 and (keep[i] or holds[i]):
                holds[p] = 1
        for i in range(n):
            if keep[i] or text[i]:
                continue
            p = parent[i]
            if holds[i] or (size[i] == 1 and p >= 0 and keep[p] and tag[i] in spacers):
                keep[i] = 1
        for i in range(n):
            if (keep[i] or holds[i]) and tag[i] == "pre":
                e = i + <Py_ssize_t> size[i]
                for j in range(i + 1, e):
                    if not text[j]:
                        keep[j] = 1
        out = [False] * n
        for i in range(n):
            if keep[i]:
                out[i] = True
        return out
    finally:
        free(ch); free(keep); free(holds)


# -- a saved template's match (temex.template.saved._reached_mask) ---------------

def reached_mask(list tags, list ids, list classes, list parent, list own, object struct,
                 object texts, dict free_paths, dict steps, dict known, dict text_verdict,
                 object step_of, object blake2b):
    """:func:`temex.template.saved._reached_mask` where the page's signatures
    are not cached: the same walk (a node is reached when its parent is and
    its path signature is one of ``struct``), the same memos (``steps``,
    ``known``, ``text_verdict``: the :class:`MatchCache`'s), the same
    ``blake2b`` digests; the loop in C. ``step_of(i)``: a node's step
    string. Returns the mask (before the ``<head>`` fill)."""
    cdef Py_ssize_t n = len(parent), i, p
    cdef unsigned char *reach = <unsigned char *> calloc(n + 1, 1)
    cdef list raw = [b""] * n
    cdef list mask = [False] * n
    cdef bytes root = b"temex1"
    cdef tuple sig
    if reach == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            p = parent[i]
            if p >= 0 and not reach[p]:
                continue
            key = (tags[i], ids[i], classes[i])
            step = steps.get(key)
            if step is None:
                step = steps[key] = b"/" + step_of(i).encode()
            joined = (raw[p] if p >= 0 else root) + step
            got = known.get(joined)
            if got is None:
                d = blake2b(joined, digest_size=8).digest()
                got = known[joined] = (d, d.hex())
            sig = <tuple> got
            if sig[1] not in struct:
                continue
            reach[i] = 1
            raw[i] = sig[0]
            t = own[i]
            if t:
                tkey = (sig[0], t)
                verdict = text_verdict.get(tkey)
                if verdict is None:
                    verdict = text_verdict[tkey] = blake2b(
                        sig[0] + b"\x00" + t.encode("utf-8", "replace"),
                        digest_size=8).hexdigest() in texts
                mask[i] = verdict
            else:
                c = free_paths.get(sig[1])
                mask[i] = c is None or c[0] >= c[1]
        return mask
    finally:
        free(reach)


def reached_mask_cached(list parent, list path, list text, object struct, object texts,
                        dict free_paths):
    """:func:`temex.template.saved._reached_mask` from the page's cached
    signatures (``node_signatures``): the same walk, the loop in C."""
    cdef Py_ssize_t n = len(parent), i, p
    cdef unsigned char *reach = <unsigned char *> calloc(n + 1, 1)
    cdef list mask = [False] * n
    if reach == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            p = parent[i]
            if (p < 0 or reach[p]) and path[i] in struct:
                reach[i] = 1
                if text[i]:
                    mask[i] = text[i] in texts
                else:
                    c = free_paths.get(path[i])
                    mask[i] = c is None or c[0] >= c[1]
        return mask
    finally:
        free(reach)
