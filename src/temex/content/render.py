"""Outputs of a fitted TemplateModel (TeMex paper §3.3).

``template``
    The key page with every non-template element of ``<body>`` made invisible
    with ``visibility:hidden`` so the layout is kept: the template as a page,
    "ready to insert content" (TeMex paper §2, §3.3, human interface).
``annotated``
    The key page's own HTML with the class ``template_node`` added to every
    template element of ``<body>`` (TeMex paper §3.3, interface for systems),
    and the class ``template_kind`` added as well to the template elements of
    the page kind (inside the content region: pagination, share bars, comment
    forms); ``.template_node:not(.template_kind)`` selects the site-wide
    template alone (two levels).
``content`` / ``markdown`` / ``html``
    The page's main content (:mod:`temex.content.extract`: the non-template part,
    narrowed to the main block), one block per line, as Markdown, or as HTML.
    :func:`content_text`, :func:`content_markdown` and :func:`content_html`
    here give the whole non-template part, unnarrowed.
``json``
    A report: key page, pages used, loads, node counts (site-wide and
    page-kind template apart), template node paths, the roots of the
    page-kind template (``kind_template_roots``), timings and parameters.

Every walk here is iterative (enter/exit events on an explicit stack).
"""

from __future__ import annotations

import json
import threading
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode, SelectolaxError

from ..page.dom import IGNORED_TAGS, Document, children_reversed
from ..template.model import TemplateModel
from .formats import FORMATS
from .params import ContentParams
from .text import markdown_text, text_lines

__all__ = [
    "FORMATS",
    "KIND_CLASS",
    "TEMPLATE_CLASS",
    "annotated_html",
    "clone_tree",
    "content_html",
    "content_markdown",
    "content_text",
    "render",
    "report",
    "template_html",
]

TEMPLATE_CLASS = "template_node"
#: Second marker: template of the page kind (see the module docstring).
KIND_CLASS = "template_kind"
HIDDEN_STYLE = "visibility:hidden !important"
VISIBLE_STYLE = "visibility:visible !important"
MAX_PATH_CHARS = 2_000_000
_CLONE_LOCK = threading.Lock()



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


def clone_tree(doc: Document) -> tuple[LexborHTMLParser, list[LexborNode]]:
    """A copy of ``doc``'s Lexbor tree and its elements in the Document's
    order, to edit without touching ``doc`` (the renderers, the web view,
    the benchmarks' template-stripped pages)."""
    if doc.parser is None:
        raise ValueError("the key page has no parse tree to render")
    try:
        copy = doc.parser.clone()
    except SelectolaxError:
        # Lexbor cannot clone a doctype that names PUBLIC or SYSTEM without an
        # identifier (``<!DOCTYPE html PUBLIC>``). The Document keeps no
        # doctype: drop it and retry.
        with _CLONE_LOCK:
            _drop_doctype(doc.parser)
            copy = doc.parser.clone()
    els = _elements(copy.root) if copy.root is not None else []
    if len(els) != len(doc):  # cannot happen for a clone; guard anyway
        raise ValueError("cloned tree does not match the key page")
    return copy, els


def _drop_doctype(parser: LexborHTMLParser) -> None:
    node = parser.root.prev if parser.root is not None else None
    while node is not None:
        before = node.prev
        if node.tag == "-doctype":
            node.decompose()
        node = before


def _serialize(parser: LexborHTMLParser) -> str:
    # The page's own doctype, or none: adding one would switch a quirks-mode
    # page to standards mode, and a standards-mode parser closes a <p> at a
    # <table>, so the annotated page would not re-parse into the key page's
    # tree (found by tests/test_properties.py).
    return parser.html or ""


def annotated_html(model: TemplateModel) -> str:
    """Key page with class ``template_node`` on every template element of body,
    and ``template_kind`` too on the template of the page kind."""
    doc = model.key
    copy, els = clone_tree(doc)
    kind = model.kind_template
    for i in doc.in_body():
        if model.template[i]:
            el = els[i]
            cls = el.attributes.get("class") or ""
            mark = TEMPLATE_CLASS + (" " + KIND_CLASS if kind and kind[i] else "")
            el.attrs["class"] = (cls + " " + mark).strip()
    return _serialize(copy)


def template_html(model: TemplateModel) -> str:
    """Key page with non-template body elements hidden (``visibility:hidden``)."""
    doc = model.key
    copy, els = clone_tree(doc)
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


def content_text(model: TemplateModel) -> str:
    """Text of the non-template part, one block (paragraph, heading, list item,
    cell) per line."""
    return "\n".join(text_lines(model.key, [not t for t in model.template], markdown=False))


def content_markdown(model: TemplateModel) -> str:
    """The non-template part as Markdown."""
    return markdown_text(model.key, [not t for t in model.template])


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
    if model.fallback:
        out["fallback"] = f"page-level fallback: {model.fallback}"
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
        # Two levels: the page-kind template's roots; the rest of
        # the template is site-wide.
        kind = model.kind_template
        out["kind_template_roots"] = [
            doc.path(i) for i in model.template_nodes()
            if kind and kind[i] and not kind[doc.parent[i]]] if kind else []
    return out


def render(model: TemplateModel, fmt: str, params: ContentParams | None = None) -> str:
    """Render ``model`` in one of :data:`FORMATS`; ``params`` choose the main
    content of the ``content``, ``markdown``, ``html`` and ``json`` formats
    (default :class:`~temex.content.params.ContentParams`)."""
    if fmt == "template":
        return template_html(model)
    if fmt == "annotated":
        return annotated_html(model)
    if fmt in ("content", "markdown", "html"):
        # The page's main content: the non-template part narrowed to the main
        # block (temex.content); the functions of this module give the whole
        # non-template part.
        from . import extract as main_content

        fn = {"content": main_content.content_text, "markdown": main_content.content_markdown,
              "html": main_content.content_html}[fmt]
        return fn(model, params or ContentParams()) + "\n"
    if fmt == "json":
        from . import extract as main_content
        from .metadata import page_metadata, trafilatura_fields

        out = report(model)
        main = main_content.extract_content(model.key, None, model.template,
                                            params or ContentParams())
        meta = page_metadata(model.key, model.template)  # nothing from the template
        out["metadata"] = meta
        text = main.text()
        out["content"] = {"text": text, "empty": not main.chosen,
                          "reason": main.reason or None}
        out.update(trafilatura_fields(meta, model.key.url, text))  # trafilatura's names
        return json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
