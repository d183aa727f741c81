"""Outputs of a fitted TemplateModel (TeMex paper §3.3).

``template``
    The key page with every non-template element of ``<body>`` made invisible
    with ``visibility:hidden`` so the layout is kept: the template as a page,
    "ready to insert content" (TeMex paper §2, §3.3, human interface).
``annotated``
    The key page's own HTML with the class ``template_node`` added to every
    template element of ``<body>`` (TeMex paper §3.3, interface for systems).
``content`` / ``markdown`` / ``html``
    The page's main content (:mod:`temex.content`: the non-template part,
    narrowed to the main block), one block per line, as Markdown, or as HTML.
    :func:`content_text`, :func:`content_markdown` and :func:`content_html`
    here give the whole non-template part, unnarrowed.
``json``
    A report: key page, pages used, loads, node counts, template node paths,
    timings and parameters.

Every walk here is iterative (enter/exit events on an explicit stack).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from .dom import IGNORED_TAGS, Document, children_reversed
from .model import TemplateModel

__all__ = [
    "FORMATS",
    "TEMPLATE_CLASS",
    "annotated_html",
    "content_html",
    "content_markdown",
    "content_text",
    "render",
    "report",
    "template_html",
]

TEMPLATE_CLASS = "template_node"
HIDDEN_STYLE = "visibility:hidden !important"
VISIBLE_STYLE = "visibility:visible !important"
MAX_PATH_CHARS = 2_000_000
FORMATS = ("template", "annotated", "content", "markdown", "html", "json")

BLOCK_TAGS = frozenset(["address", "article", "aside", "blockquote", "body", "br", "dd", "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "caption", "legend", "option"])
_WS = re.compile(r"\s+")


def _elements(root: LexborNode) -> list[LexborNode]:
    """Elements under ``root`` in pre-order (same order as ``dom.parse``)."""
    out: list[LexborNode] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.is_element_node:
            continue
        out.append(node)
        stack.extend(children_reversed(node))
    return out


def _clone(doc: Document) -> tuple[LexborHTMLParser, list[LexborNode]]:
    if doc.parser is None:
        raise ValueError("the key page has no parse tree to render")
    copy = doc.parser.clone()
    els = _elements(copy.root) if copy.root is not None else []
    if len(els) != len(doc):  # cannot happen for a clone; guard anyway
        raise ValueError("cloned tree does not match the key page")
    return copy, els


def _serialize(parser: LexborHTMLParser) -> str:
    html = parser.html or ""
    return html if html.lstrip()[:9].lower() == "<!doctype" else "<!DOCTYPE html>\n" + html


def annotated_html(model: TemplateModel) -> str:
    """Key page with class ``template_node`` on every template element of body."""
    doc = model.key
    copy, els = _clone(doc)
    for i in doc.in_body():
        if model.template[i]:
            el = els[i]
            cls = el.attributes.get("class") or ""
            el.attrs["class"] = (cls + " " + TEMPLATE_CLASS).strip()
    return _serialize(copy)


def template_html(model: TemplateModel) -> str:
    """Key page with non-template body elements hidden (``visibility:hidden``)."""
    doc = model.key
    copy, els = _clone(doc)
    for i in doc.in_body():
        if doc.tag[i] in IGNORED_TAGS:
            continue
        p = doc.parent[i]
        if not model.template[i]:
            rule = HIDDEN_STYLE
        elif p >= 0 and not model.template[p]:
            rule = VISIBLE_STYLE  # a template control inside the content element
        else:
            continue
        el = els[i]
        style = (el.attributes.get("style") or "").strip().rstrip(";")
        el.attrs["style"] = (style + "; " if style else "") + rule
    return _serialize(copy)


def content_html(model: TemplateModel) -> str:
    """HTML of the maximal non-template subtrees of body, in document order."""
    doc = model.key
    return "\n".join(doc.elements[r].html or "" for r in model.content_roots()
                     if doc.tag[r] not in IGNORED_TAGS)


def _events(doc: Document, skip: list[bool] | None = None
            ) -> Iterator[tuple[str, int, Any]]:
    """Walk body: ("enter", i, None), ("exit", i, None), ("text", i, str) where
    i is the element the text belongs to. Ignored elements, and subtrees of
    elements with ``skip[i]``, are skipped."""
    if doc.body < 0:
        return
    index = {el.mem_id: k for k, el in enumerate(doc.elements)}
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


def content_text(model: TemplateModel) -> str:
    """Text of the non-template part, one block (paragraph, heading, list item,
    cell) per line."""
    return "\n".join(text_lines(model.key, [not t for t in model.template], markdown=False))


def content_markdown(model: TemplateModel) -> str:
    """The non-template part as Markdown."""
    return "\n\n".join(text_lines(model.key, [not t for t in model.template], markdown=True))


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
            text = _WS.sub(" ", text).strip()
        if text.strip():
            blocks.append(prefix + text if markdown else text)
        cur.clear()
        prefix = ""

    for kind, i, value in _events(doc, bare):
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


def report(model: TemplateModel, *, include_paths: bool = True) -> dict[str, Any]:
    """A JSON-ready report of the model."""
    doc = model.key
    out: dict[str, Any] = {
        "key_page": doc.url,
        "method": model.method,
        "params": model.params,
        "pages": model.pages,
        "loads": model.loads,
        "counts": model.counts(),
        "timings": {k: round(v, 6) for k, v in model.timings.items()},
        "errors": model.errors,
    }
    out.update(model.extra)
    if include_paths:
        # The template is closed upwards and the content downwards, so the
        # content roots describe both exactly; the full list of template paths
        # is added while it stays small (deep pages have very long paths).
        out["content_roots"] = [doc.path(i) for i in model.content_roots()]
        paths: list[str] = []
        budget = MAX_PATH_CHARS
        for i in model.template_nodes():
            if doc.body >= 0 and doc.is_ancestor(doc.body, i):
                p = doc.path(i)
                budget -= len(p)
                if budget < 0:
                    out["template_paths_omitted"] = (
                        f"over {MAX_PATH_CHARS} characters of paths; "
                        "template = body minus content_roots")
                    paths = []
                    break
                paths.append(p)
        out["template_paths"] = paths
    return out


def render(model: TemplateModel, fmt: str) -> str:
    """Render ``model`` in one of :data:`FORMATS`."""
    if fmt == "template":
        return template_html(model)
    if fmt == "annotated":
        return annotated_html(model)
    if fmt in ("content", "markdown", "html"):
        # The page's main content: the non-template part narrowed to the main
        # block (temex.content); the functions of this module give the whole
        # non-template part.
        from . import content as main_content

        fn = {"content": main_content.content_text, "markdown": main_content.content_markdown,
              "html": main_content.content_html}[fmt]
        return fn(model) + "\n"
    if fmt == "json":
        from . import content as main_content

        out = report(model)
        main = main_content.extract_content(model.key, None, model.template)
        out["content"] = {"text": main.text(), "empty": not main.chosen,
                          "reason": main.reason or None}
        return json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
