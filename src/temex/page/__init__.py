"""The page layer: one HTML document as temex sees it.

``dom`` parses bytes into a :class:`~temex.page.dom.Document` (flat pre-order
arrays), ``files`` reads page files safely, ``blocks`` cuts a page into text
blocks (the one block-tag set), ``tokens`` scores text against gold.
"""

from __future__ import annotations

from . import kernel_check  # noqa: F401 - registers the compiled kernel's self-check
from .dom import Document, decode_html, parse

__all__ = ["Document", "decode_html", "parse"]
