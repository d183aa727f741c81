"""The depth scan of temex before its fast path, kept as
the reference :func:`temex.page.caps.cap_depth` must match output for output
(tests/test_dom.py): a lazy tag regex, and the window search run for the end
tags of uncounted elements too."""

from __future__ import annotations

import re

from temex.page.caps import _NOT_COUNTED, _RAW_TEXT

_TOKEN = re.compile(r"<(/?)([A-Za-z][^\s/>]*)[^>]*?(/?)>|<!--|<[!?]")
_RAW_END: dict[str, re.Pattern[str]] = {}


def reference_cap_depth(text: str, cap: int = 512, window: int = 64,
                        max_starts: int | None = None) -> tuple[str, int]:
    """Make elements nested deeper than ``cap`` siblings at depth ``cap``.

    One linear scan of the tags (comments and raw text such as ``<script>``
    skipped; void elements and elements with optional end tags not counted):
    a start tag that would open level ``cap + 1`` is closed at once
    (``<div>`` becomes ``<div></div>``) and its own end tag is dropped.
    End tags close the nearest open element of that name among the top
    ``window`` ones (a stray end tag is ignored), so the scan is O(tags).
    Returns the text (the same object when nothing was deeper) and the
    number of start tags seen; stops at once when that passes ``max_starts``.
    """
    stack: list[str] = []
    parts: list[str] = []
    last = skip = starts = 0
    n = len(text)
    for m in _TOKEN.finditer(text):
        b = m.start()
        if b < skip:
            continue
        close, name, selfclosing = m.groups()
        if name is None:  # comment, doctype, processing instruction
            if m.end() - b == 4:
                e = text.find("-->", b + 4)
                skip = n if e < 0 else e + 3
            else:
                e = text.find(">", b + 2)
                skip = n if e < 0 else e + 1
            continue
        name = name.lower()
        if close:
            k = len(stack) - 1
            if k < 0:
                continue
            if stack[k] == name:
                del stack[k]
            elif stack[k] == "\0" + name:  # end tag of a flattened element: dropped
                parts.append(text[last:b])
                last = m.end()
                del stack[k]
            else:
                low = max(-1, k - window)
                while k > low and stack[k] != name:
                    k -= 1
                if k > low:
                    del stack[k:]
            continue
        starts += 1
        if max_starts is not None and starts > max_starts:
            return text, starts
        if name in _NOT_COUNTED or selfclosing:
            continue
        if name in _RAW_TEXT:
            rx = _RAW_END.get(name)
            if rx is None:
                rx = _RAW_END[name] = re.compile(r"</" + re.escape(name) + r"[\s/>]",
                                                 re.IGNORECASE)
            hit = rx.search(text, m.end()) if name != "plaintext" else None
            skip = n if hit is None else hit.end()
            continue
        if len(stack) >= cap:
            e = m.end()
            parts.append(text[last:e])
            parts.append("</" + name + ">")
            last = e
            stack.append("\0" + name)
        else:
            stack.append(name)
    if not parts:
        return text, starts
    parts.append(text[last:])
    return "".join(parts), starts
