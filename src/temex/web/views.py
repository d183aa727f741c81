"""HTML of the key page as the app shows it: page, template or content view,
optionally with template nodes outlined (TeMex paper §2 and §3.3: the template
is shown by giving non-template nodes ``visibility:hidden``, so the layout and
styles of the page are kept).

Every view is the key page's own HTML with

* ``class="template_node"`` on template elements of ``<body>`` (as the
  annotated output) and ``class="temex-content"`` on the maximal non-template
  subtrees;
* a ``<base href>`` of the page's URL (unless the page has one), so its CSS
  and images load from the site;
* one ``<style>`` that makes the view: hide non-template nodes (template), hide
  template nodes (content), outline them (highlight);
* ``<meta http-equiv=refresh>``, ``<noscript>``, ``<script>`` and inline
  event handlers (``on*`` attributes) removed: scripts never run in the shown
  page (the app serves views with ``Content-Security-Policy: sandbox`` inside
  an ``<iframe sandbox>``), and a script left in it only made the browser log
  "Blocked script execution" for each one.
"""

from __future__ import annotations

import html
import re

from ..content.render import TEMPLATE_CLASS, _serialize, clone_tree
from ..template.model import TemplateModel

__all__ = ["CONTENT_CLASS", "VIEWS", "style_view", "view_base", "view_html"]

VIEWS = ("page", "template", "content")
CONTENT_CLASS = "temex-content"

_CSS = {
    "page": "",
    "template": f"body :not(.{TEMPLATE_CLASS}){{visibility:hidden !important}}",
    "content": (f"body .{TEMPLATE_CLASS}{{visibility:hidden !important}}"
                f"body .{CONTENT_CLASS}{{visibility:visible !important}}"),
}
_HIGHLIGHT = (f".{TEMPLATE_CLASS}:not(:has(.{TEMPLATE_CLASS})){{outline:2px dashed "
              "rgba(220,38,38,.85) !important;outline-offset:-2px !important}"
              f".{CONTENT_CLASS}{{outline:2px solid rgba(22,163,74,.9) !important;"
              "outline-offset:-2px !important;background-color:rgba(22,163,74,.07)}")
_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)


def view_html(model: TemplateModel, mode: str = "page", highlight: bool = False,
              base_url: str | None = None) -> str:
    """The key page prepared for showing in ``mode`` (one of :data:`VIEWS`)."""
    if mode not in VIEWS:
        raise ValueError(f"unknown view {mode!r}; choose from {', '.join(VIEWS)}")
    return style_view(view_base(model, base_url), mode, highlight)


def view_base(model: TemplateModel, base_url: str | None = None) -> str:
    """The key page with its classes, ``<base>`` and referrer policy, without
    the view's ``<style>``: one string serves every view (:func:`style_view`),
    so a finished job keeps this instead of its parsed pages."""
    doc = model.key
    copy, els = clone_tree(doc)
    content_roots = set(model.content_roots())
    for i in doc.in_body():
        cls = None
        if model.template[i]:
            cls = TEMPLATE_CLASS
        elif i in content_roots:
            cls = CONTENT_CLASS
        if cls:
            el = els[i]
            old = el.attributes.get("class") or ""
            el.attrs["class"] = (old + " " + cls).strip()
    has_base = False
    for i, el in enumerate(els):
        tag = doc.tag[i]
        if tag == "base" and el.attributes.get("href"):
            has_base = True
    for el in els:  # inline handlers: blocked by the sandbox, and logged as such
        handlers = [a for a in el.attributes if a.lower().startswith("on")]
        for a in handlers:
            del el.attrs[a]
    for el in list(copy.css("noscript, script, meta[http-equiv]")):
        if el.tag in ("noscript", "script") or \
                (el.attributes.get("http-equiv") or "").lower() == "refresh":
            el.decompose()
    out = _serialize(copy)
    inject = '<meta name="referrer" content="no-referrer">'
    base = base_url if base_url is not None else doc.url
    if not has_base and base and base.startswith(("http://", "https://")):
        inject += f'<base href="{html.escape(base, quote=True)}">'
    m = _HEAD.search(out)
    if not m:
        return inject + out
    return out[:m.end()] + inject + out[m.end():]


def style_view(base: str, mode: str = "page", highlight: bool = False) -> str:
    """:func:`view_base` output with the ``<style>`` of ``mode`` added at the
    end of its head (at the start when it has none). O(length)."""
    if mode not in VIEWS:
        raise ValueError(f"unknown view {mode!r}; choose from {', '.join(VIEWS)}")
    css = _CSS[mode] + (_HIGHLIGHT if highlight else "")
    style = (f'<style id="temex-view" data-view="{mode}" '
             f'data-highlight="{int(highlight)}">{css}</style>')
    m = _HEAD.search(base)
    if not m:
        return style + base
    end = base.lower().find("</head>", m.end())
    if end < 0:  # pragma: no cover - the serializer always closes head
        end = m.end()
    return base[:end] + style + base[end:]
