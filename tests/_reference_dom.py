"""The DOM builder of temex before the one-pass builder, kept as the reference the fast
builder of :mod:`temex.page.dom` must match array for array
(tests/test_dom.py) and as the "before" line of bench/perf/bench_speed.py.

A stack walk over ``first_child``/``next`` with one tuple per Lexbor node, then
an eager bottom-up pass for ``size`` and ``subtree_hash``."""

from __future__ import annotations

import re
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from temex.page.dom import IGNORED_TAGS, SCRIPTING, children_reversed, decode_html

_WS = re.compile(r"\s+")

FIELDS = ("tag", "id", "classes", "attrs", "parent", "children", "depth", "position", "text",
          "size", "subtree_hash", "body")


def reference_arrays(html: bytes | str) -> dict[str, Any]:
    """The arrays the old builder made from ``html`` (decoded as ``parse`` does)."""
    text_in = decode_html(html)[0] if isinstance(html, bytes) else html
    root = LexborHTMLParser(text_in, scripting=SCRIPTING).root
    assert root is not None
    return reference_flatten(root)


def reference_flatten(root: LexborNode) -> dict[str, Any]:
    tag: list[str] = []
    ids: list[str] = []
    classes: list[tuple[str, ...]] = []
    attrs: list[tuple[tuple[str, str], ...]] = []
    parent: list[int] = []
    depth: list[int] = []
    position: list[int] = []
    body = -1
    kids: list[list[int]] = []
    own_text: list[list[str]] = []
    stack: list[tuple[LexborNode, int]] = [(root, -1)]
    while stack:
        node, par = stack.pop()
        if node.is_text_node:
            if par >= 0:
                t = node.text_content
                if t and not t.isspace():
                    own_text[par].append(t)
            continue
        if not node.is_element_node:
            continue
        i = len(tag)
        name = (node.tag or "").lower()
        a = node.attributes
        tag.append(name)
        ids.append((a.get("id") or "").strip())
        cls = a.get("class")
        classes.append(tuple(sorted(set(cls.split()))) if cls else ())
        attrs.append(tuple(sorted((k.lower(), v or "") for k, v in a.items()
                                  if k not in ("id", "class"))))
        parent.append(par)
        depth.append(depth[par] + 1 if par >= 0 else 0)
        if par >= 0:
            position.append(len(kids[par]))
            kids[par].append(i)
        else:
            position.append(0)
        kids.append([])
        own_text.append([])
        if name == "body" and body < 0:
            body = i
        stack.extend((c, i) for c in children_reversed(node))
    n = len(tag)
    children = [tuple(k) if k else () for k in kids]
    text = [_WS.sub(" ", " ".join(own_text[i])).strip()
            if own_text[i] and tag[i] not in IGNORED_TAGS else "" for i in range(n)]
    size = [1] * n
    h = [0] * n
    for i in range(n - 1, -1, -1):
        ch = children[i]
        if ch:
            size[i] += sum(size[c] for c in ch)
        h[i] = hash((tag[i], ids[i], classes[i], attrs[i], text[i], tuple(h[c] for c in ch)))
    return {"tag": tag, "id": ids, "classes": classes, "attrs": attrs, "parent": parent,
            "children": children, "depth": depth, "position": position, "text": text,
            "size": size, "subtree_hash": h, "body": body}
