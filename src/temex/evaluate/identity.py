"""What the compiled kernel and the pure-Python path must agree on for one
page: the check of ``bench/probes/kernel_identity.py`` (every shared page)
and of tests/test_kernel.py (every 7th)."""

from __future__ import annotations

import random
from typing import Any

from ..content.extract import extract_content
from ..content.text import markdown_text, text_lines
from ..errors import ParseError
from ..page.dom import parse
from ..page.flatten import _FIELDS

__all__ = ["outputs"]


def outputs(raw: bytes, name: str) -> list[Any]:
    """The Document arrays, element addresses, page-level main content
    (kept blocks, text, Markdown), text and Markdown of a random half of the
    elements and the body text of the page ``raw``."""
    try:
        doc = parse(raw, url="http://example.org/a/" + name)
    except ParseError as e:
        return ["error", str(e)]
    main = extract_content(doc)
    mask = [random.Random(len(raw) + i).random() < 0.5 for i in range(len(doc))]
    # every 97th node: the Lexbor element found from the root has the node's address
    found = [doc.node(i).mem_id == doc.address(i) for i in range(0, len(doc), 97)]
    return [[getattr(doc, f) for f in _FIELDS], found,
            main.chosen, main.text(), main.markdown(), text_lines(doc, mask, False),
            markdown_text(doc, mask), doc.subtree_text(doc.body) if doc.body >= 0 else ""]
