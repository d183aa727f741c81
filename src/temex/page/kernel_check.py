"""The compiled kernel's self-check: the probe document read through the
kernel and through the pure-Python readers (:mod:`.dom`, :mod:`.walk`,
:mod:`.blocks`) must agree before :func:`temex.page.kernel.get` trusts the
kernel (see :mod:`temex.page.kernel`). This module sits above the readers it
compares, which use the kernel: the page package registers
:func:`self_check` with :func:`temex.page.kernel.register_check` on import,
so that the kernel module imports none of them.
"""

from __future__ import annotations

import operator
from array import array
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from . import kernel
from .blocks import BLOCK_TAGS, HIDDEN_TAGS
from .dom import _FIELDS, IGNORED_TAGS, Document, _flatten
from .walk import pure_event_list

__all__ = ["PROBE", "self_check"]

#: A document that exercises what the kernel reads: static and custom tag and
#: attribute names (custom ones longer and shorter than Lexbor's 16-byte
#: inline names), SVG's case-adjusted and namespaced names, attributes
#: without value, repeated and spaced classes, whitespace-only, non-ASCII and
#: undecodable text, comments, raw text, template content, implied elements.
PROBE = (
    "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>T &amp; t\u00e9</title>"
    "<script type='application/ld+json'>{\"a\": \"<b>\"}</script><style>p{color:red}</style>"
    "<link rel=canonical href='/x'></head>\n<body class=' b  a b ' id=' main ' onload=x>"
    "<!-- a comment --><div id=x data-a-long-attribute-name-over-sixteen='v' hidden"
    " data-b=w DATA-C>text <b>bold</b> tail<br/>\u00e9\u00a0&nbsp; x</div>"
    "<my-custom-element-with-a-long-name>c</my-custom-element-with-a-long-name><x-y a=1>s</x-y>"
    "<svg viewBox='0 0 1 1'><foreignObject><p>f</p></foreignObject><use xlink:href='#a' href='#b'/>"
    "<clipPath></clipPath></svg><math><mi>x</mi><annotation-xml></annotation-xml></math>"
    "<table><tr><td>1<td>2</table><pre>  a\n b </pre><template><p>t</p></template>"
    "<noscript><p>n</p></noscript><ul><li>a<li>b</ul><input disabled value=''>"
    "<p>x<p>y<h1> <span>h</span> </h1><a href=/a>l</a><p title='\u00ff'>"
).encode("utf-8") + b"\xff\xc3( \xe2\x82</p>\t\n </body></html>\n"


def self_check(k: Any) -> str:
    """"" when the kernel reads :data:`PROBE` exactly as the pure-Python
    reader does, else what differs."""
    parser = LexborHTMLParser(PROBE)
    root = parser.root
    if root is None:
        return "probe has no root"
    # 1. the node fields, read only on nodes selectolax gives (no pointer
    # followed yet): a wrong offset shows here before any walk
    for node in root.traverse(include_text=True):
        got = k.node_fields(node.mem_id)
        kind = (1 if node.is_element_node else 3 if node.is_text_node
                else 8 if node.is_comment_node else got[1])
        want = (node.tag_id, kind, *[(x.mem_id if x is not None else 0)
                                     for x in (node.parent, node.first_child, node.last_child,
                                               node.next, node.prev)])
        if got != want:
            return f"node fields of <{node.tag}>: {got} != {want}"
    # 2. the whole document
    pure = Document(url="", parser=parser)
    _flatten(pure, root)
    r = k.flatten(root.mem_id, 1000, IGNORED_TAGS)
    if r is None:
        return "element cap"
    addresses, *fields = r
    for name, value in zip(_FIELDS, fields):
        if getattr(pure, name) != value:
            return f"Document.{name}"
    a = array("Q" if array("Q").itemsize == 8 else "L")
    a.frombytes(addresses)
    if list(a) != [el.mem_id for el in pure.elements]:
        return "element addresses"
    # 3. the text walk, with and without a skip and a template mask
    n = len(pure)
    for skip, template in ((None, [False] * n),
                           ([i % 3 == 0 for i in range(n)], [i % 2 == 0 for i in range(n)])):
        block, hidden = _block_tags()
        flags = k.tag_flags(pure.tag, block, IGNORED_TAGS, hidden)
        got_events = k.events(pure.elements[pure.body].mem_id, pure.body, pure.size, flags,
                              None if skip is None else bytes(skip), bytes(template))
        if got_events != pure_event_list(pure, skip, template):
            return "walk events"
    # 4. the scorer's dot product adds floats as this Python's sum does
    # (3.12 compensates): vectors where plain and compensated sums differ
    for f, w in _DOT_PROBES:
        if k.dot(f, w) != sum(map(operator.mul, f, w)):
            return "float sum"
        if f and k.psum(f) != sum(f):
            return "float sum"
    return ""


#: Rows and weights whose products lose low bits when added one by one.
_DOT_PROBES: tuple[tuple[list[float], list[float]], ...] = (
    ([1e16, 1.0, -1e16, 1.0, 3.3, 0.1, 0.7], [1.0] * 7),
    ([0.1] * 10 + [1e-17, 3.0], [0.3, 0.7] * 6),
    ([0.0, -2.5, 1e300, -1e300, 0.1], [1.0, 0.5, 1.0, 1.0, 3.0]),
    ([], []))


def _block_tags() -> tuple[frozenset[str], frozenset[str]]:
    return BLOCK_TAGS, HIDDEN_TAGS


kernel.register_check(self_check)
