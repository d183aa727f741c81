# cython: language_level=3
"""The Lexbor 3.1 struct layouts that temex's compiled layers read, and the
small node readers they share (``cimport``\ ed by :mod:`temex.page._kernel`
and :mod:`temex.content._text_kernel`).

No Lexbor function is called and no Lexbor header included: the few layouts
read are declared here as Lexbor 3.1 defines them in the copy that
selectolax 1.0.0-1.0.2 compile in (``lexbor/source/lexbor/dom/interfaces/
node.h``, ``element.h``, ``attr.h``, ``character_data.h``, ``core/hash.h``,
``core/str.h``, ``tag/tag.h``). :mod:`temex.page.kernel` trusts the compiled
layers only for those selectolax versions and only after the page layer has
read a probe document exactly as the pure-Python reader does. The static
name tables of ``tag/res.h`` and ``dom/interfaces/attr_res.h`` are Python
tuples, in :mod:`temex.page._kernel`, their one reader.
"""

from libc.stdint cimport uintptr_t
from cpython.unicode cimport PyUnicode_DecodeUTF8

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


cdef inline str _decode(const unsigned char *data, size_t length):
    # selectolax decodes every name, value and text this way (util.pxi)
    return PyUnicode_DecodeUTF8(<const char *> data, <Py_ssize_t> length, "replace")


cdef inline str _entry_str(uintptr_t address):
    cdef NameData *d = <NameData *> address
    if d.entry.length <= HASH_SHORT_SIZE:
        return _decode(d.entry.u.short_str, d.entry.length)
    return _decode(d.entry.u.long_str, d.entry.length)


cdef inline str _char_text(CharData *t):
    """A text node's text, "" where Lexbor holds no data."""
    if t.data.data == NULL:
        return ""
    return _decode(t.data.data, t.data.length)


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
