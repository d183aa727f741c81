"""Text and Markdown of chosen elements of a page, one block per line.

Shared by the content outputs (:mod:`.render`, :mod:`.extract`): the page's
elements are walked once in document order (enter/exit events on an explicit
stack, no recursion); a block element (:data:`temex.page.blocks.BLOCK_TAGS`)
starts a new line.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from selectolax.lexbor import LexborNode

from ..page.blocks import BLOCK_TAGS
from ..page.dom import IGNORED_TAGS, Document, children_reversed

__all__ = ["events", "text_lines"]



def events(doc: Document, skip: list[bool] | None = None
           ) -> Iterator[tuple[str, int, Any]]:
    """Walk body: ("enter", i, None), ("exit", i, None), ("text", i, str) where
    i is the element the text belongs to. Ignored elements, and subtrees of
    elements with ``skip[i]``, are skipped."""
    if doc.body < 0:
        return
    index = doc.element_index()
    stack: list[tuple[LexborNode, bool]] = [(doc.elements[doc.body], False)]
    owner: list[int] = []
    while stack:
        node, done = stack.pop()
        if done:
            yield ("exit", owner.pop(), None)
            continue
        if node.is_text_node:
            if owner:
                yield ("text", owner[-1], node.text_content or "")
            continue
        if not node.is_element_node or (node.tag or "").lower() in IGNORED_TAGS:
            continue
        i = index[node.mem_id]
        if skip is not None and skip[i] and doc.size[i] > 1:  # leaves (br) still break lines
            continue
        owner.append(i)
        yield ("enter", i, None)
        stack.append((node, True))
        stack.extend((k, False) for k in children_reversed(node))


def text_lines(doc: Document, keep: list[bool], markdown: bool) -> list[str]:
    """Text of the elements with ``keep[i]`` (their own text nodes), in
    document order, one line per block element (paragraph, heading, list
    item, cell, line break ...); with ``markdown``, headings, list items,
    quotes, links, images with alt text and preformatted code are marked up.
    Text that sits directly in a container between its block children gets
    lines of its own at its place. O(n) over the parse tree."""
    template = [not k for k in keep]
    # Subtrees without kept text are not walked (most of a page, for the
    # narrowed main content).
    bare = [not k for k in keep]
    for i in range(len(doc) - 1, 0, -1):
        if not bare[i]:
            bare[doc.parent[i]] = False
    blocks: list[str] = []
    cur: list[str] = []
    prefix = ""
    link_stack: list[tuple[int, int]] = []  # (element, position in cur)
    pre_depth = 0

    def flush() -> None:
        nonlocal prefix
        text = "".join(cur)
        if not pre_depth:
            text = " ".join(text.split())  # whitespace runs collapsed, ends stripped
        if text.strip():
            blocks.append(prefix + text if markdown else text)
        cur.clear()
        prefix = ""

    for kind, i, value in events(doc, bare):
        tag = doc.tag[i]
        if kind == "text":
            if not template[i]:
                cur.append(value)
            continue
        if kind == "enter":
            if tag in BLOCK_TAGS:
                flush()
                if markdown and not template[i]:
                    prefix = _md_prefix(doc, i)
            if tag == "pre":
                pre_depth += 1
                if markdown and not template[i]:
                    cur.append("```\n")
            if markdown and tag == "a" and not template[i]:
                link_stack.append((i, len(cur)))
                cur.append("[")
            if tag == "img" and not template[i]:
                alt = dict(doc.attrs[i]).get("alt", "").strip()
                if alt and markdown:
                    cur.append(f"![{alt}]({dict(doc.attrs[i]).get('src', '')})")
        else:
            if markdown and link_stack and link_stack[-1][0] == i:
                _, start = link_stack.pop()
                href = dict(doc.attrs[i]).get("href", "")
                inner = "".join(cur[start + 1:]).strip()
                del cur[start:]
                cur.append(f"[{inner}]({href})" if inner and href else inner)
            if tag == "pre":
                if markdown and not template[i]:
                    cur.append("\n```")
                flush()
                pre_depth -= 1
            elif tag in BLOCK_TAGS:
                flush()
    flush()
    return blocks


def _md_prefix(doc: Document, i: int) -> str:
    tag = doc.tag[i]
    if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
        return "#" * int(tag[1]) + " "
    if tag == "li":
        p = doc.parent[i]
        if p >= 0 and doc.tag[p] == "ol":
            return f"{doc.position[i] + 1}. "
        return "- "
    if tag == "blockquote":
        return "> "
    return ""
