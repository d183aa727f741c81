"""The :class:`~temex.page.document.Document` of a Lexbor tree
(:func:`build_document`): the compiled kernel's ``flatten`` when it runs,
else :func:`_flatten`, the pure-Python reader it is checked against
(``page/kernel_check.py``); the same arrays either way.
"""

from __future__ import annotations

from itertools import islice

from selectolax.lexbor import LexborHTMLParser, LexborNode

from ..errors import ParseError
from . import kernel
from .caps import DEFAULT_MAX_ELEMENTS
from .document import IGNORED_TAGS, Document

__all__ = ["build_document"]


def build_document(parser: LexborHTMLParser, url: str = "", encoding: str = "utf-8",
                   max_elements: int = DEFAULT_MAX_ELEMENTS) -> Document:
    """The :class:`Document` of a Lexbor tree made by
    :func:`temex.page.dom.lexbor_parse` (:func:`temex.page.dom.parse` is the
    two in one). Raises ParseError past ``max_elements``."""
    root = parser.root
    if root is None:
        raise ParseError(f"{url or 'page'}: no document element")
    doc = Document(url=url, encoding=encoding, parser=parser)
    k = kernel.get()
    if k is None:
        _flatten(doc, root, max_elements)
        return doc
    arrays = k.flatten(root.mem_id, max_elements, IGNORED_TAGS)
    if arrays is None:
        raise ParseError(f"{url or 'page'}: over the limit of {max_elements} elements")
    doc._addresses = arrays[0]
    for name, value in zip(_FIELDS, arrays[1:]):
        setattr(doc, name, value)
    return doc


#: The fields :func:`_flatten` fills, in the order of the kernel's ``flatten``.
_FIELDS = ("tag", "id", "classes", "attrs", "parent", "children", "depth", "position", "text",
           "size", "body")


def _flatten(doc: Document, root: LexborNode, max_elements: int = DEFAULT_MAX_ELEMENTS
             ) -> None:
    """Fill the arrays of ``doc`` from the Lexbor tree: one pass of Lexbor's
    own pre-order walk (no Python recursion, no explicit stack) collects the
    element and text nodes, then each field is read by its own comprehension
    or short loop (less interpreter work per element than one loop of eight
    appends); an element's parent is found by the Lexbor node's address.
    ``subtree_hash`` and paths are left to first use. More than
    ``max_elements`` elements (end tags such as ``</p>`` make elements the
    pre-parse count does not see) raise ParseError, checked every
    ``_CHUNK`` nodes of the walk so a hostile page is refused early."""
    walk = root.traverse(include_text=True, skip_empty=True)
    elements: list[LexborNode] = []
    texts: list[LexborNode] = []
    while True:
        chunk = list(islice(walk, _CHUNK))
        elements += [node for node in chunk if node.is_element_node]
        if len(elements) > max_elements:
            raise ParseError(f"{doc.url or 'page'}: over the limit of {max_elements} elements")
        # skip_empty dropped text nodes of ASCII whitespace only; others of
        # whitespace only vanish in the join below
        texts += [node for node in chunk if node.is_text_node]
        if len(chunk) < _CHUNK:
            break
    n = len(elements)
    index = {node.mem_id: k for k, node in enumerate(elements)}  # Lexbor address -> number
    get_index = index.get
    parent = [-1]
    parent += [get_index(up.mem_id, -1) if (up := node.parent) is not None else -1
               for node in elements[1:]]
    tag = [(node.tag or "").lower() for node in elements]
    no_attrs: tuple[tuple[str, str], ...] = ()
    ids = [""] * n
    classes: list[tuple[str, ...]] = [()] * n
    attrs = [no_attrs] * n
    class_cache: dict[str, tuple[str, ...]] = {}
    for i, a in enumerate([node.attributes for node in elements]):
        if not a:
            continue
        v = a.pop("id", None)
        if v:
            ids[i] = v.strip()
        cls = a.pop("class", None)
        if cls:
            c = class_cache.get(cls)
            if c is None:
                c = class_cache[cls] = tuple(sorted(set(cls.split())))
            classes[i] = c
        if len(a) == 1:
            for k, v in a.items():
                attrs[i] = ((k.lower(), v or ""),)
        elif a:
            attrs[i] = tuple(sorted([(k.lower(), v or "") for k, v in a.items()]))
    own: dict[int, list[str]] = {}  # element number -> its text pieces
    for p, t in zip([get_index(up.mem_id, -1) if (up := node.parent) is not None else -1
                     for node in texts], [node.text_content for node in texts]):
        if t and p >= 0:
            pieces = own.get(p)
            if pieces is None:
                own[p] = [t]
            else:
                pieces.append(t)
    text = [""] * n
    for i, pieces in own.items():
        if tag[i] not in IGNORED_TAGS:
            # " ".join(s.split()) is _WS.sub(" ", s).strip(): both split on
            # str.isspace() characters
            text[i] = " ".join((pieces[0] if len(pieces) == 1 else " ".join(pieces)).split())
    kids: list[list[int]] = [[] for _ in range(n)]
    depth = [0] * n
    position = [0] * n
    for i in range(1, n):
        p = parent[i]
        if p >= 0:
            siblings = kids[p]
            position[i] = len(siblings)
            siblings.append(i)
            depth[i] = depth[p] + 1
    size = [1] * n
    for i in range(n - 1, 0, -1):  # reverse pre-order: children before parents
        p = parent[i]
        if p >= 0:
            size[p] += size[i]
    doc.tag, doc.id, doc.classes, doc.attrs = tag, ids, classes, attrs
    doc.parent, doc.position, doc.depth, doc.text = parent, position, depth, text
    doc.children = [tuple(k) if k else () for k in kids]
    doc.size = size
    doc._elements = elements
    doc._index = index
    doc._hash = None
    doc.body = tag.index("body") if "body" in tag else -1


#: Nodes of the walk read between two checks of the element cap.
_CHUNK = 65536
