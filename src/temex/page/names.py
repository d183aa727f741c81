"""Element names (``id`` and classes) judged once per page, and their
counts down the tree: primitives for the content rules and features, which
ask per element of ``<body>`` whether its names mark it (negative names such
as ``sidebar``, positive ones such as ``article``) and how many of its
ancestors are so marked.

The loops are O(n) over the body; each distinct (id, classes) pair of a
page is judged once (a page repeats its names). Compiled when the kernel
runs (:mod:`temex.page.kernel`): the same values.
"""

from __future__ import annotations

from collections.abc import Callable

from . import kernel
from .dom import Document

__all__ = ["ancestor_counts", "flagged_below", "name_flags"]


def _span(doc: Document, start: int | None) -> tuple[int, int]:
    body = doc.body
    if body < 0:
        return 0, 0
    return (body if start is None else start), body + doc.size[body]


def name_flags(doc: Document, verdict: Callable[[str, tuple[str, ...]], object],
               start: int | None = None) -> bytes:
    """One byte per element: 1 where ``verdict(id, classes)`` is true, for the
    elements of ``<body>`` from ``start`` (default: ``<body>`` itself) that
    have an ``id`` or classes; 0 elsewhere. Each distinct pair is judged
    once."""
    a, end = _span(doc, start)
    k = kernel.get()
    if k is not None:
        return k.name_flags(doc.id, doc.classes, a, end, verdict)  # type: ignore[no-any-return]
    out = bytearray(len(doc))
    memo: dict[tuple[str, tuple[str, ...]], int] = {}
    ids, classes = doc.id, doc.classes
    for i in range(a, end):
        if ids[i] or classes[i]:
            key = (ids[i], classes[i])
            v = memo.get(key)
            if v is None:
                v = memo[key] = 1 if verdict(*key) else 0
            out[i] = v
    return bytes(out)


def ancestor_counts(doc: Document, flags: bytes, start: int | None = None) -> list[int]:
    """Per element of ``<body>`` from ``start`` (default ``<body>``): the
    flagged elements among it and its ancestors down from ``start``; 0
    elsewhere. ``named[i] = named[parent[i]] + flags[i]``."""
    a, end = _span(doc, start)
    k = kernel.get()
    if k is not None:
        return k.ancestor_counts(doc.parent, a, end, flags)  # type: ignore[no-any-return]
    out = [0] * len(doc)
    parent = doc.parent
    for i in range(a, end):
        out[i] = (out[parent[i]] if i != a else 0) + flags[i]
    return out


def flagged_below(doc: Document, flags: bytes, start: int | None = None) -> list[bool]:
    """Per element of ``<body>`` from ``start`` (default ``<body>``): it or an
    ancestor down from ``start`` is flagged; False elsewhere."""
    a, end = _span(doc, start)
    k = kernel.get()
    if k is not None:
        return k.flagged_below(doc.parent, a, end, flags)  # type: ignore[no-any-return]
    out = [False] * len(doc)
    parent = doc.parent
    for i in range(a, end):
        out[i] = bool(flags[i]) or (i != a and out[parent[i]])
    return out
