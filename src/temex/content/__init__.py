"""The content layer: a page's main content and every output format.

``extract`` narrows a page's non-template part to its main content (page-level
and site-level evidence, blocks chosen by the learned scorer of ``scorer``), ``folder`` does it for every page of a folder,
``text`` writes chosen elements as text or Markdown, ``render`` produces the
outputs of a fitted model (template view, annotated page, text, Markdown,
HTML, JSON report).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .extract import Content, ContentParams, extract_content, main_content

__all__ = ["Content", "ContentParams", "extract_content", "main_content"]


def __getattr__(name: str) -> object:
    # loaded on first use: ``content.formats`` alone must stay cheap (CLI help)
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(".extract", __name__), name)
    globals()[name] = value
    return value
