"""A compact, read-only DOM tree for template extraction.

HTML is parsed by selectolax's Lexbor backend (an HTML5 parser that builds the
same tree Chromium does) and flattened into parallel arrays indexed by element
number in document (pre-)order. Pre-order numbering gives every subtree a
contiguous range ``[i, i + size[i])``, so "is a descendant of" and "all nodes of
this subtree" are O(1) and slice operations.

Only elements are nodes (as in the ETDM paper, §3: DOM nodes are labelled by
tag); the text directly inside an element is kept as that element's *own text*,
whitespace collapsed. Comments and the doctype are dropped.

Every traversal here is iterative: real pages can be nested thousands of levels
deep and Python's recursion limit is 1,000.

Cost: O(n) time and memory for n elements; building the arrays costs several
times Lexbor's parse itself, most of it interpreter work per element
(``bench/perf/bench_speed.py``, docs/EVALUATION.md).
"""

from __future__ import annotations

import codecs
import re
import struct
import sys
from array import array
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from ..errors import ParseError
from . import kernel

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MAX_ELEMENTS", "HEADING_TAGS", "IGNORED_TAGS", "MAX_DEPTH",
           "Document",
           "build_document", "cap_depth", "children_reversed", "counted_bound", "decode_html",
           "lexbor_parse", "parse"]

#: Elements whose text is code or invisible; their text is not page text and
#: evaluation ignores them (the data's README.md: "scripts and styles ignored").
IGNORED_TAGS = frozenset({"script", "style", "noscript", "template"})
#: Parse as a browser that runs scripts does (the HTML Standard's scripting
#: flag, 13.2.6.4.4 "in head" and 13.2.6.4.7 "in body": the content of a
#: ``<noscript>`` is raw text up to ``</noscript>``). Every reader the page
#: was written for runs scripts. Parsed as markup, as Lexbor does without
#: the flag, a ``<noscript>`` in ``<head>`` that holds a tracking ``<img>``
#: closes the head early, and one that holds
#: ``<iframe src=... style="display:none" />`` (a tag manager's fallback,
#: self-closed as though it were void) opens an iframe that never closes:
#: the rest of the page became that hidden iframe's text, and a 2026
#: landing page gave one line. ``<noscript>`` content is ignored either way
#: (:data:`IGNORED_TAGS`).
SCRIPTING = True
#: The heading elements, ``h1`` to ``h6``.
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

#: Largest page accepted by :func:`parse` (bytes of HTML). Real pages are rarely
#: over 5 MB; a 100 MB "page" is an error, not a page.
DEFAULT_MAX_BYTES = 32 * 1024 * 1024

#: Deepest nesting of elements with a required end tag kept by :func:`parse`;
#: deeper elements become siblings at this depth, as in Chromium's parser
#: (kMaximumHTMLParserDOMTreeDepth = 512). Lexbor's tree builder checks the
#: stack of open elements for every tag, so its cost is tags × depth: 200,000
#: nested ``<div>`` took minutes; capped, about a second (docs/ROBUSTNESS.md).
MAX_DEPTH = 512

#: Most elements :func:`parse` builds for one page: each costs about 1 KB in
#: the library's arrays and Lexbor's tree, and several times that through a
#: fit, so a page of 1 million ``<p>`` (8 MB) is refused, not parsed
#: (docs/ROBUSTNESS.md gives the figures).
DEFAULT_MAX_ELEMENTS = 250_000

_WS = re.compile(r"\s+")
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_.:-]+)""", re.IGNORECASE
)
# UTF-32 before UTF-16: the UTF-32-LE mark begins with the UTF-16-LE one.
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF32_LE, "utf-32-le"),
         (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))
# Python codecs that are no page charset: they fail on any non-ASCII byte
# (idna, punycode, undefined) or rewrite the text (backslash escapes, UTF-7).
_NOT_CHARSETS = frozenset({"idna", "punycode", "undefined", "unicode-escape",
                           "raw-unicode-escape", "utf-7", "mbcs", "oem"})
# WHATWG maps these labels to windows-1252, a superset that never fails.
_LATIN1_LABELS = frozenset({"iso-8859-1", "latin1", "latin-1", "ascii", "us-ascii",
                            "iso8859-1", "l1", "cp819", "windows-1252", "cp1252"})


def _codec(label: str | None) -> str | None:
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    if label in _LATIN1_LABELS:
        return "cp1252"
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    # utf-16 declared inside an ASCII-compatible byte stream is a lie (WHATWG).
    if name.startswith("utf-16") or name.startswith("utf-32"):
        return "utf-8"
    # bytes-to-bytes codecs (base64, zlib, ...) and the non-charsets above
    if not getattr(codecs.lookup(name), "_is_text_encoding", True) or name in _NOT_CHARSETS:
        return None
    return name


def _sniff_utf16(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark: HTML markup is ASCII, so one byte of
    every pair is NUL ("<\x00h\x00..." is little-endian)."""
    head = data[:1024]
    half = len(head) // 2
    if half < 2:
        return None
    even, odd = head[0:2 * half:2].count(0), head[1:2 * half:2].count(0)
    if odd >= half * 0.3 and even <= half * 0.05:
        return "utf-16-le"
    if even >= half * 0.3 and odd <= half * 0.05:
        return "utf-16-be"
    return None


#: Fewest bytes that are not UTF-8 with which a page's charset is detected
#: (:mod:`temex.page.charset`): fewer are stray bytes, read as windows-1252
#: without loading the detection.
MIN_DETECT_BYTES = 32


def _cp1252_fallback(err: UnicodeError) -> tuple[str, int]:
    """Codec error handler: bytes that are not UTF-8 are read as windows-1252
    (pages that mix UTF-8 with Latin-1 lose neither part)."""
    assert isinstance(err, UnicodeDecodeError)
    return err.object[err.start:err.end].decode("cp1252", errors="replace"), err.end


codecs.register_error("temex.cp1252", _cp1252_fallback)


def decode_html(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """Decode HTML bytes to text, returning ``(text, encoding)``.

    Order: a byte-order mark; else UTF-8 when the bytes are valid UTF-8 (valid
    multi-byte UTF-8 is almost never an accident, and pages often keep a stale
    ``<meta charset>`` after being converted); else the charset *declared* by
    the transport (HTTP ``Content-Type``), then a ``<meta>`` charset in the
    first 1024 bytes (WHATWG labels: latin-1 means windows-1252); else
    UTF-8 where valid and windows-1252 elsewhere (what browsers fall back to;
    pages mixing the two keep both) where the other bytes are few, and the
    detected charset where they are many (a Shift_JIS, GBK or windows-1251
    page served without a charset:
    :func:`temex.page.charset.undeclared_charset`). UTF-32 marks and UTF-16 without a mark
    (every other byte NUL) are recognised; a ``<meta>`` naming no charset
    (``base64``, ``idna``, an unknown label) is ignored.
    A declared charset that does not decode the bytes is not obeyed blindly
    (:func:`temex.page.charset.declared_charset_failed`: windows-1252 for a
    few stray bytes, charset detection for many); the encoding returned then
    says so (a :class:`~temex.page.charset.CharsetFallback`). No page is
    rejected for its encoding.
    This is the HTML Standard's sniffing with UTF-8 validity checked first,
    the rule the evaluation data used to store its pages.
    """
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(enc, errors="replace"), enc
    utf16 = _sniff_utf16(data)
    if utf16:
        return data.decode(utf16, errors="replace"), utf16
    candidates: list[str] = []
    for label in (declared, _sniff_meta(data[:1024])):
        codec = _codec(label)
        if codec and codec not in candidates:
            candidates.append(codec)
    for enc in ("utf-8", *candidates):
        try:
            return data.decode(enc), enc
        except (UnicodeError, LookupError):
            continue
    if not candidates:  # undeclared: windows-1252 for a few stray bytes, else detected
        # the first test of page/charset.py's policy (bad bytes counted as it
        # counts them), here: a page with a few stray bytes never loads it
        if data.decode("utf-8", errors="replace").count("\ufffd") < MIN_DETECT_BYTES:
            return data.decode("utf-8", errors="temex.cp1252"), "cp1252"
        from .charset import undeclared_charset  # legacy pages only

        return undeclared_charset(data, MIN_DETECT_BYTES)
    from .charset import declared_charset_failed  # broken pages only

    return declared_charset_failed(data, candidates, MIN_DETECT_BYTES)


_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
_MAGIC = (b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"%PDF", b"PK\x03\x04", b"\x1f\x8b",
          b"BZh", b"\xfd7zXZ", b"7z\xbc\xaf", b"\x7fELF", b"RIFF", b"OggS", b"wOF")


def _looks_binary(data: bytes) -> bool:
    """Binary data rather than HTML: a known file signature, or more than 2%
    control bytes in the first 4 KB (text has none; a stray NUL in a page is
    not enough). Byte-order marks and BOM-less UTF-16 are text."""
    if data.startswith(tuple(b for b, _ in _BOMS)) or _sniff_utf16(data):
        return False
    if data.startswith(_MAGIC):
        return True
    head = data[:4096]
    return len(head) - len(head.translate(None, _CONTROL)) > len(head) // 50


def _sniff_meta(head: bytes) -> str | None:
    m = _META_CHARSET.search(head)
    return m.group(1).decode("ascii", "replace") if m else None


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


# Start and end tags (name, "/" of a self-closing tag), comments, doctypes and
# processing instructions. Tags of void elements and of elements whose end tag
# is optional never deepen the stack the cap counts.
# (The rest of a tag is read greedily up to its first ">": the same tokens as
# a lazy "[^>]*?(/?)>" at a third of the cost; self-closing when it ends in "/".)
_TOKEN = re.compile(r"<(/?)([A-Za-z][^\s/>]*)([^>]*)>|<!--|<[!?]")
_VOID = frozenset("area base br col embed hr img input keygen link meta param source track "
                  "wbr basefont bgsound frame image isindex nextid".split())
_OPTIONAL_END = frozenset("p li dt dd option optgroup tr td th tbody thead tfoot colgroup "
                          "caption rb rt rp rtc html head body".split())
_NOT_COUNTED = _VOID | _OPTIONAL_END
_RAW_TEXT = frozenset("script style textarea title xmp iframe noembed noframes noscript "
                      "plaintext".split())
_RAW_END: dict[str, re.Pattern[str]] = {}


def cap_depth(text: str, cap: int = MAX_DEPTH, window: int = 64,
              max_starts: int | None = None) -> tuple[str, int]:
    """Make elements nested deeper than ``cap`` siblings at depth ``cap``.

    One linear scan of the tags (comments and raw text such as ``<script>``
    skipped; void elements and elements with optional end tags not counted):
    a start tag that would open level ``cap + 1`` is closed at once
    (``<div>`` becomes ``<div></div>``) and its own end tag is dropped.
    End tags close the nearest open element of that name among the top
    ``window`` ones (a stray end tag is ignored), so the scan is O(tags).
    Returns the text (the same object when nothing was deeper) and the
    number of start tags seen; stops at once when that passes ``max_starts``.
    """
    stack: list[str] = []
    parts: list[str] = []
    last = skip = starts = 0
    n = len(text)
    for m in _TOKEN.finditer(text):
        b = m.start()
        if b < skip:
            continue
        close, name, rest = m.groups()
        if name is None:  # comment, doctype, processing instruction
            if m.end() - b == 4:
                e = text.find("-->", b + 4)
                skip = n if e < 0 else e + 3
            else:
                e = text.find(">", b + 2)
                skip = n if e < 0 else e + 1
            continue
        name = name.lower()
        if close:
            k = len(stack) - 1
            # uncounted names (</p>, </li>, </td>) are never on the stack: the
            # window search below would find nothing
            if k < 0 or name in _NOT_COUNTED:
                continue
            if stack[k] == name:
                del stack[k]
            elif stack[k] == "\0" + name:  # end tag of a flattened element: dropped
                parts.append(text[last:b])
                last = m.end()
                del stack[k]
            else:
                low = max(-1, k - window)
                while k > low and stack[k] != name:
                    k -= 1
                if k > low:
                    del stack[k:]
            continue
        starts += 1
        if max_starts is not None and starts > max_starts:
            return text, starts
        if name in _NOT_COUNTED or rest.endswith("/"):
            continue
        if name in _RAW_TEXT:
            rx = _RAW_END.get(name)
            if rx is None:
                rx = _RAW_END[name] = re.compile(r"</" + re.escape(name) + r"[\s/>]",
                                                 re.IGNORECASE)
            hit = rx.search(text, m.end()) if name != "plaintext" else None
            skip = n if hit is None else hit.end()
            continue
        if len(stack) >= cap:
            e = m.end()
            parts.append(text[last:e])
            parts.append("</" + name + ">")
            last = e
            stack.append("\0" + name)
        else:
            stack.append(name)
    if not parts:
        return text, starts
    parts.append(text[last:])
    return "".join(parts), starts


# The name of every start tag, as _TOKEN reads it (in comments and raw text too).
_START_NAME = re.compile(r"<([A-Za-z][^\s/>]*)")


def counted_bound(text: str) -> int:
    """An upper bound on the nesting :func:`cap_depth` can reach: the start
    tags of counted elements (void elements and elements with optional end
    tags left out), wherever they stand. The stack the scan keeps only grows
    on such a tag, so a page whose bound is at most the cap is never changed
    by the scan. C speed: one ``findall`` and a ``Counter`` (about 0.4× the
    Lexbor parse of the page, against 3-4× for the scan)."""
    counts = Counter(_START_NAME.findall(text))
    return sum([c for name, c in counts.items() if name.lower() not in _NOT_COUNTED])


def lexbor_parse(html: bytes | str, url: str = "", *, declared_encoding: str | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES, max_elements: int = DEFAULT_MAX_ELEMENTS,
                 max_depth: int = MAX_DEPTH) -> tuple[LexborHTMLParser, str]:
    """The first half of :func:`parse` (checks, decoding, caps, the Lexbor
    parse): the parser and the encoding. :func:`build_document` makes the
    Document; ``site/pool.py`` ranks candidates on the Lexbor tree and builds
    only the chosen ones. Parameters and errors as :func:`parse`."""
    parser, encoding, text, unchecked = _lexbor_parse(html, url, declared_encoding, max_bytes,
                                                      max_elements, max_depth)
    # html and body are levels the scan never counts: an element at
    # max_depth + 1 is the deepest one the scan lets through
    if unchecked and _deeper_than(parser, max_depth + 1):
        parser = _scanned(text, url, max_elements, max_depth)
    return parser, encoding


def _lexbor_parse(html: bytes | str, url: str, declared_encoding: str | None, max_bytes: int,
                  max_elements: int, max_depth: int
                  ) -> tuple[LexborHTMLParser, str, str, bool]:
    """:func:`lexbor_parse` but for the depth check: ``(parser, encoding,
    text, unchecked)``; ``unchecked``: parsed before any scan, its tree's
    depth still to be checked (:func:`_parse_first`)."""
    size = len(html)
    if size > max_bytes:
        raise ParseError(f"{url or 'page'}: {size} bytes is over the limit of {max_bytes}")
    if isinstance(html, bytes):
        if _looks_binary(html):
            raise ParseError(f"{url or 'page'}: binary data, not HTML")
        text, encoding = decode_html(html, declared_encoding)
    else:
        text, encoding = html, "utf-8"
    if not text.strip():
        raise ParseError(f"{url or 'page'}: empty document")
    # the counts of the checks below, made once for this text
    _COUNTS[0] = [text, _count_starts(text), None]
    try:
        return _checked_parse(text, url, encoding, max_elements, max_depth)
    finally:
        _COUNTS[0] = None


def _checked_parse(text: str, url: str, encoding: str, max_elements: int, max_depth: int
                   ) -> tuple[LexborHTMLParser, str, str, bool]:
    """The depth check and parse of :func:`_lexbor_parse`."""
    # Fewer start tags than the cap (every "<" not opening an end tag could
    # be one) cannot nest deeper nor pass the element cap; nor can fewer
    # counted start tags than the cap (counted_bound): most pages skip the scan.
    # Of the others, pages whose worst case Lexbor parses fast are parsed
    # first and scanned only when the tree is deeper than the cap.
    if _needs_scan(text, max_depth, max_elements):
        if _parse_first(text, max_depth, max_elements):
            return _tree(text, url), encoding, text, True
        return _scanned(text, url, max_elements, max_depth), encoding, text, False
    return _tree(text, url), encoding, text, False


def _tree(text: str, url: str) -> LexborHTMLParser:
    """Lexbor's tree of ``text``, parsed as :data:`SCRIPTING` says; a
    ParseError when it has no document element."""
    parser = LexborHTMLParser(text, scripting=SCRIPTING)
    if parser.root is None:
        raise ParseError(f"{url or 'page'}: no document element")
    return parser


def _scanned(text: str, url: str, max_elements: int, max_depth: int) -> LexborHTMLParser:
    """The Lexbor parse of ``text`` after the depth scan (:func:`cap_depth`)."""
    text, starts = cap_depth(text, max_depth, max_starts=max_elements)
    if starts > max_elements:
        raise ParseError(f"{url or 'page'}: more than {max_elements} elements "
                         "(the limit of one page)")
    return _tree(text, url)


def build_document(parser: LexborHTMLParser, url: str = "", encoding: str = "utf-8",
                   max_elements: int = DEFAULT_MAX_ELEMENTS) -> Document:
    """The :class:`Document` of a Lexbor tree made by :func:`lexbor_parse`
    (:func:`parse` is the two in one). Raises ParseError past ``max_elements``."""
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
#: Bytes of a Lexbor address and the ``array`` code that reads them.
_ADDRESS_CODE = "Q" if array("Q").itemsize == struct.calcsize("P") else "L"
_ADDRESS = array(_ADDRESS_CODE).itemsize


def parse(html: bytes | str, url: str = "", *, declared_encoding: str | None = None,
          max_bytes: int = DEFAULT_MAX_BYTES,
          max_elements: int = DEFAULT_MAX_ELEMENTS, max_depth: int = MAX_DEPTH) -> Document:
    """Parse HTML into a :class:`Document`.

    Parameters
    ----------
    html : bytes or str
        The page. Bytes are decoded with :func:`decode_html`.
    url : str
        Where the page came from (kept on the document).
    declared_encoding : str, optional
        Charset declared by the transport (e.g. the HTTP ``Content-Type``).
    max_bytes : int
        Pages larger than this raise :class:`ParseError` instead of being parsed.
    max_elements : int
        Pages of more elements raise :class:`ParseError` (counted from the
        tags before parsing, and again while flattening).

    max_depth : int
        Elements nested deeper than this (default :data:`MAX_DEPTH`) become
        siblings at that depth (:func:`cap_depth`), as in Chromium.

    Raises
    ------
    ParseError
        When the input is too large, has too many elements, is empty, or
        looks binary.
    """
    parser, encoding, text, unchecked = _lexbor_parse(html, url, declared_encoding, max_bytes,
                                                      max_elements, max_depth)
    if not unchecked:
        return build_document(parser, url, encoding, max_elements)
    # parsed before any scan: the built depths tell whether the tree is deeper
    # than the scan lets through (then scanned and parsed again, as
    # lexbor_parse's check would have done before building)
    try:
        doc = build_document(parser, url, encoding, max_elements)
        if max(doc.depth) <= max_depth + 1:
            return doc
    except ParseError:
        pass
    return build_document(_scanned(text, url, max_elements, max_depth), url, encoding,
                          max_elements)


def _needs_scan(text: str, max_depth: int, max_elements: int) -> bool:
    """True unless cheap counts prove that :func:`cap_depth` would return the
    text unchanged with at most ``max_elements`` start tags. Pages of few
    enough possible start tags to be parsed first whatever they hold
    (:func:`_parse_first`) are not counted further: their tree is checked."""
    tags = _possible_starts(text)  # at least the start tags
    if tags > max_elements:
        return True
    if tags <= max_depth:
        return False
    return tags * tags <= _PARSE_FIRST or _counted(text) > max_depth


#: ``[text, possible start tags, counted_bound or None]`` of the text
#: :func:`_lexbor_parse` is checking, so that :func:`_needs_scan` and
#: :func:`_parse_first` count it once (each scan of a 100 KB page costs
#: about a tenth of its Lexbor parse). Found by identity, so another
#: thread's text is never taken for this one.
_COUNTS: list[list[Any] | None] = [None]


def _possible_starts(text: str) -> int:
    """Every ``<`` that opens no end tag: at least the start tags."""
    c = _COUNTS[0]
    if c is not None and c[0] is text:
        return int(c[1])
    return _count_starts(text)


def _count_starts(text: str) -> int:
    """``text.count("<") - text.count("</")``; one pass in the kernel."""
    k = kernel.get()
    if k is not None:
        return k.possible_starts(text)  # type: ignore[no-any-return]
    return text.count("<") - text.count("</")


def _counted(text: str) -> int:
    """:func:`counted_bound` of ``text``, once per checked text."""
    c = _COUNTS[0]
    if c is not None and c[0] is text:
        if c[2] is None:
            c[2] = counted_bound(text)
        return int(c[2])
    return counted_bound(text)


#: Pages of at most this many possible start tags × counted start tags are
#: parsed before any scan: Lexbor's cost is tags × depth of the open-element
#: stack, and the depth is at most a few times the counted tags (``ul``/``li``,
#: ``table``/``tr``/``td`` add levels), so such a page costs Lexbor at most
#: ~50 ms whatever its nesting (2,048 nested ``div`` in 2,048 tags: ~10 ms).
#: Pages of at most 2,048 possible start tags are under it without counting
#: (most pages the first count does not prove shallow); of the others, 575 of
#: the 607 shared pages that the counts cannot prove shallow are under it
#: (docs/ROBUSTNESS.md).
_PARSE_FIRST = 1 << 22


def _parse_first(text: str, max_depth: int, max_elements: int) -> bool:
    """True when Lexbor may parse ``text`` before the depth scan: its worst
    case is cheap (:data:`_PARSE_FIRST`), and the tree it builds is checked
    (the built Document's depths in :func:`parse`, :func:`_deeper_than` in
    :func:`lexbor_parse`): scanned and parsed again only when deeper."""
    tags = _possible_starts(text)
    if tags > max_elements:
        return False
    # the counted start tags are at most the possible ones
    return tags * tags <= _PARSE_FIRST or tags * _counted(text) <= _PARSE_FIRST


_DEEP_SELECTORS: dict[int, str] = {}


def _deeper_than(parser: LexborHTMLParser, max_depth: int) -> bool:
    """Whether an element of the parsed tree lies deeper than ``max_depth``
    (``<html>`` at depth 0): a CSS child chain of ``max_depth + 2`` universal
    selectors matched by Lexbor, in C (the match of each element climbs its
    ancestors: O(n × depth), about 0.3× the parse of a page)."""
    sel = _DEEP_SELECTORS.get(max_depth)
    if sel is None:
        sel = _DEEP_SELECTORS[max_depth] = " > ".join(["*"] * (max_depth + 2))
    return parser.css_first(sel) is not None


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
