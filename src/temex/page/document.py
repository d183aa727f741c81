"""The :class:`Document`: a parsed page as parallel arrays in document
(pre-)order, with the live Lexbor tree behind it.

Pre-order numbering gives every subtree a contiguous range ``[i, i +
size[i])``, so "is a descendant of" and "all nodes of this subtree" are O(1)
and slice operations. Only elements are nodes (as in the ETDM paper, §3: DOM
nodes are labelled by tag); the text directly inside an element is kept as
that element's *own text*, whitespace collapsed. Built by
:func:`temex.page.flatten.build_document`; :func:`temex.page.dom.parse` is the
usual way to one. Every walk here is iterative.
"""

from __future__ import annotations

import re
import struct
import sys
from array import array
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from . import kernel

__all__ = ["HEADING_TAGS", "IGNORED_TAGS", "Document", "children_reversed"]

#: Elements whose text is code or invisible; their text is not page text and
#: evaluation ignores them (the data's README.md: "scripts and styles ignored").
IGNORED_TAGS = frozenset({"script", "style", "noscript", "template"})
#: The heading elements, ``h1`` to ``h6``.
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

_WS = re.compile(r"\s+")
#: Bytes of a Lexbor address and the ``array`` code that reads them.
_ADDRESS_CODE = "Q" if array("Q").itemsize == struct.calcsize("P") else "L"
_ADDRESS = array(_ADDRESS_CODE).itemsize


@dataclass(eq=False)
class Document:
    """A parsed page: element arrays in document order plus the live Lexbor tree.

    Node ``i`` is the i-th element in pre-order; node 0 is ``<html>``. All
    per-node attributes are lists indexed by node number.

    Attributes
    ----------
    url : str
        Where the page came from (URL or file path); informational.
    tag, id : list of str
        Lower-case tag name; value of the ``id`` attribute ("" when absent).
    classes : list of tuple of str
        CSS classes, sorted, duplicates removed.
    attrs : list of tuple of (str, str)
        Other attributes, sorted by name (``id`` and ``class`` excluded).
    parent : list of int
        Parent node number, -1 for the root.
    children : list of tuple of int
        Child element numbers in document order.
    depth, position : list of int
        Depth (root 0) and index among the parent's element children.
    text : list of str
        Own text: the element's direct text children, whitespace collapsed.
        Empty for script, style, noscript and template.
    size : list of int
        Number of elements in the subtree rooted at the node (itself included).
    subtree_hash : list of int
        Bottom-up hash of tag, id, classes, attributes, own text and children:
        equal hashes mean identical subtrees (up to hash collisions). Process-
        local (Python's ``hash``); do not persist.
    body : int
        Number of the ``<body>`` element (-1 if the parser produced none).
    encoding : str
        Encoding the bytes were decoded with.
    """

    url: str
    tag: list[str] = field(default_factory=list)
    id: list[str] = field(default_factory=list)
    classes: list[tuple[str, ...]] = field(default_factory=list)
    attrs: list[tuple[tuple[str, str], ...]] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    children: list[tuple[int, ...]] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    position: list[int] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    size: list[int] = field(default_factory=list)
    body: int = -1
    encoding: str = "utf-8"
    parser: LexborHTMLParser | None = field(default=None, repr=False)
    _elements: list[LexborNode] | None = field(default=None, repr=False)
    _addresses: bytes | None = field(default=None, repr=False)
    _paths: list[str] | None = field(default=None, repr=False)
    _hash: list[int] | None = field(default=None, repr=False)
    _index: dict[int, int] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.tag)

    @property
    def elements(self) -> list[LexborNode]:
        """The Lexbor element of each node (``LexborNode``, in node order).
        The compiled kernel builds a Document without them: they are made on
        first use by selectolax's walk of the same tree (prefer :meth:`node`
        for a few of them)."""
        if self._elements is None:
            self._elements = []
            if self.parser is not None and self.parser.root is not None and len(self):
                self._elements = [el for el in self.parser.root.traverse()
                                  if el.is_element_node]
                assert len(self._elements) == len(self), "the Lexbor tree changed"
        return self._elements

    @elements.setter
    def elements(self, value: list[LexborNode]) -> None:
        self._elements = value

    def address(self, i: int) -> int | None:
        """Lexbor node address (``mem_id``) of node ``i``; None when the
        Document has no Lexbor tree."""
        if self._addresses is not None:
            return int.from_bytes(self._addresses[_ADDRESS * i:_ADDRESS * (i + 1)],
                                  sys.byteorder)
        if self.parser is None:
            return None
        return self.elements[i].mem_id

    def node(self, i: int) -> LexborNode:
        """The Lexbor element of node ``i``. Without :attr:`elements` made,
        found from the root along its ancestors (each one's children scanned
        for the next address): O(depth × siblings), for a few nodes."""
        if self._elements is not None or self._addresses is None:
            return self.elements[i]
        assert self.parser is not None and self.parser.root is not None
        chain = [i, *self.ancestors(i)]
        chain.pop()  # node 0 is the root
        node = self.parser.root
        for j in reversed(chain):
            want = self.address(j)
            c = node.first_child
            while c is not None and c.mem_id != want:
                c = c.next
            assert c is not None, "the Lexbor tree changed"
            node = c
        return node

    @property
    def subtree_hash(self) -> list[int]:
        """Bottom-up hash of each subtree (see the class docstring), computed
        on first use: the content path never reads it."""
        if self._hash is None:
            self._hash = self._compute_hash()
        return self._hash

    @subtree_hash.setter
    def subtree_hash(self, value: list[int]) -> None:
        self._hash = value

    def rehash(self) -> None:
        """Compute ``size`` bottom-up from ``children`` and forget
        ``subtree_hash`` (recomputed on next use), after building or editing
        the arrays. O(n)."""
        n = len(self.tag)
        size = [1] * n
        children = self.children
        for i in range(n - 1, -1, -1):  # reverse pre-order: children before parents
            ch = children[i]
            if ch:
                size[i] += sum([size[c] for c in ch])
        self.size = size
        self._hash = None

    def _compute_hash(self) -> list[int]:
        k = kernel.get()
        if k is not None:  # the same hashes, compiled
            return k.subtree_hashes(self.tag, self.id, self.classes,  # type: ignore[no-any-return]
                                    self.attrs, self.text, self.children)
        tag, ids, classes, attrs, text = self.tag, self.id, self.classes, self.attrs, self.text
        children = self.children
        n = len(tag)
        h = [0] * n
        for i in range(n - 1, -1, -1):  # reverse pre-order: children before parents
            ch = children[i]
            h[i] = hash((tag[i], ids[i], classes[i], attrs[i], text[i],
                         tuple([h[c] for c in ch]) if ch else ()))
        return h

    def element_index(self) -> dict[int, int]:
        """``{Lexbor node mem_id: node number}`` of every element, built once
        per document (walks of the Lexbor tree map nodes back with it)."""
        if self._index is None:
            if self._addresses is not None:
                a = array(_ADDRESS_CODE)
                a.frombytes(self._addresses)
                self._index = {m: k for k, m in enumerate(a)}
            else:
                self._index = {el.mem_id: k for k, el in enumerate(self.elements)}
        return self._index

    # -- navigation -------------------------------------------------------
    def descendants(self, i: int) -> range:
        """Node numbers of the subtree rooted at ``i`` (itself included)."""
        return range(i, i + self.size[i])

    def is_ancestor(self, a: int, d: int) -> bool:
        """True when ``a`` is ``d`` or one of its ancestors."""
        return a <= d < a + self.size[a]

    def ancestors(self, i: int) -> Iterator[int]:
        """Proper ancestors of ``i`` from the parent up to the root."""
        p = self.parent[i]
        while p >= 0:
            yield p
            p = self.parent[p]

    def in_body(self) -> range:
        """Node numbers of ``<body>`` and its descendants (empty without body)."""
        return self.descendants(self.body) if self.body >= 0 else range(0)

    def is_ignored(self, i: int) -> bool:
        """True for script/style/noscript/template elements and their content."""
        if self.tag[i] in IGNORED_TAGS:
            return True
        return any(self.tag[a] in IGNORED_TAGS for a in self.ancestors(i))

    def ignored_mask(self) -> list[bool]:
        """``mask[i]`` is True when node ``i`` is or lies inside an ignored element."""
        mask = [False] * len(self)
        for i, t in enumerate(self.tag):
            p = self.parent[i]
            mask[i] = t in IGNORED_TAGS or (p >= 0 and mask[p])
        return mask

    def attribute_values(self, name: str) -> dict[int, str]:
        """``{element: value}`` of the elements that carry the attribute
        ``name`` (not ``id`` nor ``class``: fields of their own), made once
        per page and name: the landmark rules ask each page for its ``role``
        attributes. Compiled when the kernel runs (the same dict)."""
        cache = self.__dict__.setdefault("_attribute_values", {})
        got = cache.get(name)
        if got is None:
            k = kernel.get()
            if k is not None:
                got = k.attribute_values(self.attrs, name)
            else:
                got = {}
                for i, a in enumerate(self.attrs):
                    for key, value in a:
                        if key == name:
                            got[i] = value
                            break
            cache[name] = got
        return got  # type: ignore[no-any-return]

    def positions(self, tag: str) -> list[int]:
        """The elements with ``tag``, in document order: ``list.index``'s
        scan, in C, where a Python loop over every element would not be."""
        out, i, tags = [], -1, self.tag
        try:
            while True:
                i = tags.index(tag, i + 1)
                out.append(i)
        except ValueError:
            return out

    def inside_mask(self, tag: str | Collection[str]) -> list[bool]:
        """``mask[i]`` is True when node ``i`` is or lies inside a ``tag``
        element (a ``form``: a reply form, an order form), or one of the
        ``tag`` names when it is a collection (the headings). O(n)."""
        wanted = frozenset((tag,)) if isinstance(tag, str) else tag
        mask = [False] * len(self)
        tags, parent = self.tag, self.parent
        for i, t in enumerate(tags):
            p = parent[i]
            mask[i] = t in wanted or (p >= 0 and mask[p])
        return mask

    # -- paths --------------------------------------------------------------
    def step(self, i: int) -> str:
        """The last step of :meth:`path` for node ``i``: ``tag`` or ``tag[k]``."""
        if self._paths is None:
            self._paths = self._compute_steps()
        return self._paths[i]

    def path(self, i: int) -> str:
        """A stable XPath-like path: ``/html/body/div[2]/ul/li[3]`` (1-based
        index among same-tag siblings, omitted when the tag is unique there).
        O(depth): paths are built on demand, never all at once (on a
        10,000-deep page all paths together would take gigabytes)."""
        steps = [self.step(i)]
        steps.extend(self.step(a) for a in self.ancestors(i))
        return "/" + "/".join(reversed(steps))

    def _compute_steps(self) -> list[str]:
        steps = [""] * len(self)
        if len(self):
            steps[0] = self.tag[0]
        for p in range(len(self)):
            kids = self.children[p]
            if not kids:
                continue
            counts: dict[str, int] = {}
            for c in kids:
                counts[self.tag[c]] = counts.get(self.tag[c], 0) + 1
            seen: dict[str, int] = {}
            for c in kids:
                t = self.tag[c]
                seen[t] = seen.get(t, 0) + 1
                steps[c] = f"{t}[{seen[t]}]" if counts[t] > 1 else t
        return steps

    def node_for_path(self, path: str) -> int:
        """Inverse of :meth:`path`; -1 when this document has no such node.
        O(length of the path × siblings)."""
        parts = [p for p in path.split("/") if p]
        if not parts or not len(self) or self.step(0) != parts[0]:
            return -1
        node = 0
        for part in parts[1:]:
            for c in self.children[node]:
                if self.step(c) == part:
                    node = c
                    break
            else:
                return -1
        return node

    # -- text ---------------------------------------------------------------
    def subtree_text(self, i: int, skip: set[int] | None = None) -> str:
        """Visible text of the subtree at ``i`` in document order, one space
        between text pieces; subtrees rooted at nodes in ``skip`` and ignored
        elements are left out. Uses the Lexbor tree, so text between child
        elements keeps its place."""
        return " ".join(self.text_blocks(i, skip)).strip()

    def text_blocks(self, i: int, skip: set[int] | None = None) -> list[str]:
        """Text pieces of the subtree at ``i`` in document order."""
        out: list[str] = []
        stack: list[Any] = [(self.node(i), i)]
        index = self.element_index() if skip else None
        while stack:
            node, _ = stack.pop()
            if node.is_text_node:
                t = _WS.sub(" ", node.text_content or "").strip()
                if t:
                    out.append(t)
                continue
            if not node.is_element_node:
                continue
            if node.tag in IGNORED_TAGS:
                continue
            if index is not None and skip and index.get(node.mem_id, -1) in skip:
                continue
            stack.extend((c, 0) for c in children_reversed(node))
        return out


def children_reversed(node: LexborNode) -> list[LexborNode]:
    """The child nodes of a Lexbor node (elements, text, comments), last first:
    ready to push on an explicit stack so they pop in document order."""
    kids: list[LexborNode] = []
    c = node.child
    while c is not None:
        kids.append(c)
        c = c.next
    kids.reverse()
    return kids
