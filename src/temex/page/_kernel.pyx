# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The compiled kernel of the page layer (issue 24): reads the tree that
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

from libc.stdint cimport uintptr_t
from libc.stdlib cimport free, malloc, realloc
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_DecodeUTF8

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
                text[i] = " ".join((pieces[0] if len(pieces) == 1
                                    else " ".join(pieces)).split())
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

    cdef inline void flush(self) except *:
        text = "".join(self.cur)
        if not self.pre_depth:
            text = " ".join(text.split())  # whitespace runs collapsed, ends stripped
        if text.strip():
            self.out.append(text)
        self.cur.clear()

    cdef inline void enter(self, Py_ssize_t i) except *:
        cdef unsigned char f
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
        if self.lines:
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
            v = seen[t] = f
        out[i] = <unsigned char> v
    return bytes(out)


cdef inline bint _invisible(tuple attrs) except -1:
    # temex.page.blocks._invisible
    for k, v in attrs:
        if k == "hidden":
            return True
        if k == "style" and "none" in v:
            s = v.replace(" ", "").lower()
            if "display:none" in s or "visibility:hidden" in s:
                return True
    return False


def page_blocks(list parent, list text, list attrs, Py_ssize_t body, Py_ssize_t end,
                bytes flags):
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
            if (p >= 0 and hidden[p]) or (f[i] & HIDDEN) or (a and _invisible(<tuple> a)):
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
