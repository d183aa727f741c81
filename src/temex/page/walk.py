"""Walks of a page's body in document order, with its text nodes.

The content outputs (:mod:`temex.content.text`) write text where it stands
in the Lexbor tree: text between child elements keeps its place, which the
Document's per-element own text does not tell. :func:`events` is the
reference walk (Python over ``LexborNode`` objects); :func:`event_list` gives
the same walk as one list, from the compiled kernel when it runs
(:mod:`temex.page.kernel`), else from :func:`events`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from selectolax.lexbor import LexborNode

from . import kernel
from .blocks import tag_flags
from .dom import IGNORED_TAGS, Document, children_reversed

__all__ = ["event_list", "events", "pure_event_list", "tag_flags"]


def events(doc: Document, skip: Sequence[bool] | None = None
           ) -> Iterator[tuple[str, int, Any]]:
    """Walk body: ("enter", i, None), ("exit", i, None), ("text", i, str) where
    i is the element the text belongs to. Ignored elements, and subtrees of
    elements with ``skip[i]`` (elements with descendants; a leaf such as
    ``br`` is still entered), are skipped."""
    if doc.body < 0:
        return
    index = doc.element_index()
    stack: list[tuple[LexborNode, bool]] = [(doc.node(doc.body), False)]
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


def pure_event_list(doc: Document, skip: Sequence[bool] | None,
                    template: Sequence[bool]) -> list[int | str]:
    """:func:`events` as one list: ``i`` enters element ``i``, ``~i`` leaves
    it, a ``str`` is a text node of the open element unless ``template`` of
    that element is set."""
    out: list[int | str] = []
    for kind, i, value in events(doc, skip):
        if kind == "text":
            if not template[i]:
                out.append(value)
        elif kind == "enter":
            out.append(i)
        else:
            out.append(~i)
    return out


def event_list(doc: Document, skip: Sequence[bool] | None, template: Sequence[bool],
               emit: frozenset[str] | None = None) -> list[int | str]:
    """:func:`pure_event_list`, from the compiled kernel when it runs. With
    ``emit``, the kernel leaves out the entries of elements whose tag is not
    in it (their text stays): for a consumer to whom those are no-ops; the
    pure path gives them all."""
    k = kernel.get()
    address = doc.address(doc.body) if k is not None and doc.body >= 0 else None
    if address is None:
        return pure_event_list(doc, skip, template)
    return k.events(address, doc.body, doc.size, tag_flags(doc),  # type: ignore[no-any-return]
                    None if skip is None else bytes(skip), bytes(template), doc.tag, emit)
