"""The per-page caps of :func:`temex.page.dom.parse` and the scan that
enforces them before Lexbor parses: :data:`MAX_DEPTH` (elements nested deeper
become siblings at that depth, :func:`cap_depth`), :data:`DEFAULT_MAX_ELEMENTS`,
:data:`DEFAULT_MAX_BYTES`; the cheap counts that let most pages skip the scan
(:func:`counted_bound`, :func:`_needs_scan`, :func:`_parse_first`) and the
depth check of a tree parsed first (:func:`_deeper_than`). Every cost and
figure: docs/ROBUSTNESS.md; before and after the caps:
docs/journal/2026-11-23-robustness-the-caps-measured-before-and-after.md.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from . import kernel

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MAX_ELEMENTS", "MAX_DEPTH", "cap_depth",
           "counted_bound"]

#: Largest page accepted by :func:`~temex.page.dom.parse` (bytes of HTML). Real pages are rarely
#: over 5 MB; a 100 MB "page" is an error, not a page.
DEFAULT_MAX_BYTES = 32 * 1024 * 1024
#: Deepest nesting of elements with a required end tag kept by
#: :func:`~temex.page.dom.parse`;
#: deeper elements become siblings at this depth, as in Chromium's parser
#: (kMaximumHTMLParserDOMTreeDepth = 512). Lexbor's tree builder checks the
#: stack of open elements for every tag, so its cost is tags × depth: 200,000
#: nested ``<div>`` took minutes; capped, about a second
#: (docs/journal/2026-11-23-robustness-the-caps-measured-before-and-after.md).
MAX_DEPTH = 512
#: Most elements :func:`~temex.page.dom.parse` builds for one page: each costs about 1 KB in
#: the library's arrays and Lexbor's tree, and several times that through a
#: fit, so a page of 1 million ``<p>`` (8 MB) is refused, not parsed
#: (docs/journal/2026-11-23-robustness-the-caps-measured-before-and-after.md gives the figures).
DEFAULT_MAX_ELEMENTS = 250_000

# Start and end tags (name, "/" of a self-closing tag), comments, doctypes and
# processing instructions. Tags of void elements and of elements whose end tag
# is optional never deepen the stack the cap counts.
# (The rest of a tag is read greedily up to its first ">": the same tokens as
# a lazy "[^>]*?(/?)>" at a third of the cost; self-closing when it ends in "/".)
_TOKEN = re.compile(r"<(/?)([A-Za-z][^\s/>]*)([^>]*)>|<!--|<[!?]")
_VOID = frozenset("area base br col embed hr img input keygen link meta param source track "
                  "wbr basefont bgsound frame image isindex nextid".split())
_OPTIONAL_END = frozenset("p li dt dd option optgroup tr td th tbody thead tfoot colgroup "
                          "caption rb rt rp rtc html head body".split())
_NOT_COUNTED = _VOID | _OPTIONAL_END
_RAW_TEXT = frozenset("script style textarea title xmp iframe noembed noframes noscript "
                      "plaintext".split())
_RAW_END: dict[str, re.Pattern[str]] = {}


def cap_depth(text: str, cap: int = MAX_DEPTH, window: int = 64,
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
        close, name, rest = m.groups()
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
            # uncounted names (</p>, </li>, </td>) are never on the stack: the
            # window search below would find nothing
            if k < 0 or name in _NOT_COUNTED:
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
        if name in _NOT_COUNTED or rest.endswith("/"):
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


# The name of every start tag, as _TOKEN reads it (in comments and raw text too).
_START_NAME = re.compile(r"<([A-Za-z][^\s/>]*)")


def counted_bound(text: str) -> int:
    """An upper bound on the nesting :func:`cap_depth` can reach: the start
    tags of counted elements (void elements and elements with optional end
    tags left out), wherever they stand. The stack the scan keeps only grows
    on such a tag, so a page whose bound is at most the cap is never changed
    by the scan. C speed: one ``findall`` and a ``Counter`` (about 0.4× the
    Lexbor parse of the page, against 3-4× for the scan)."""
    counts = Counter(_START_NAME.findall(text))
    return sum([c for name, c in counts.items() if name.lower() not in _NOT_COUNTED])


def _needs_scan(text: str, max_depth: int, max_elements: int) -> bool:
    """True unless cheap counts prove that :func:`cap_depth` would return the
    text unchanged with at most ``max_elements`` start tags. Pages of few
    enough possible start tags to be parsed first whatever they hold
    (:func:`_parse_first`) are not counted further: their tree is checked."""
    tags = _possible_starts(text)  # at least the start tags
    if tags > max_elements:
        return True
    if tags <= max_depth:
        return False
    return tags * tags <= _PARSE_FIRST or _counted(text) > max_depth


#: ``[text, possible start tags, counted_bound or None]`` of the text
#: :func:`temex.page.dom._lexbor_parse` is checking, so that :func:`_needs_scan` and
#: :func:`_parse_first` count it once (each scan of a 100 KB page costs
#: about a tenth of its Lexbor parse). Found by identity, so another
#: thread's text is never taken for this one.
_COUNTS: list[list[Any] | None] = [None]


def _possible_starts(text: str) -> int:
    """Every ``<`` that opens no end tag: at least the start tags."""
    c = _COUNTS[0]
    if c is not None and c[0] is text:
        return int(c[1])
    return _count_starts(text)


def _count_starts(text: str) -> int:
    """``text.count("<") - text.count("</")``; one pass in the kernel."""
    k = kernel.get()
    if k is not None:
        return k.possible_starts(text)  # type: ignore[no-any-return]
    return text.count("<") - text.count("</")


def _counted(text: str) -> int:
    """:func:`counted_bound` of ``text``, once per checked text."""
    c = _COUNTS[0]
    if c is not None and c[0] is text:
        if c[2] is None:
            c[2] = counted_bound(text)
        return int(c[2])
    return counted_bound(text)


#: Pages of at most this many possible start tags × counted start tags are
#: parsed before any scan: Lexbor's cost is tags × depth of the open-element
#: stack, and the depth is at most a few times the counted tags (``ul``/``li``,
#: ``table``/``tr``/``td`` add levels), so such a page costs Lexbor at most
#: ~50 ms whatever its nesting (2,048 nested ``div`` in 2,048 tags: ~10 ms).
#: Pages of at most 2,048 possible start tags are under it without counting
#: (most pages the first count does not prove shallow); of the others, 575 of
#: the 607 shared pages that the counts cannot prove shallow are under it
#: (docs/ROBUSTNESS.md).
_PARSE_FIRST = 1 << 22


def _parse_first(text: str, max_depth: int, max_elements: int) -> bool:
    """True when Lexbor may parse ``text`` before the depth scan: its worst
    case is cheap (:data:`_PARSE_FIRST`), and the tree it builds is checked
    (the built Document's depths in :func:`temex.page.dom.parse`,
    :func:`_deeper_than` in :func:`temex.page.dom.lexbor_parse`): scanned
    and parsed again only when deeper."""
    tags = _possible_starts(text)
    if tags > max_elements:
        return False
    # the counted start tags are at most the possible ones
    return tags * tags <= _PARSE_FIRST or tags * _counted(text) <= _PARSE_FIRST


_DEEP_SELECTORS: dict[int, str] = {}


def _deeper_than(parser: LexborHTMLParser, max_depth: int) -> bool:
    """Whether an element of the parsed tree lies deeper than ``max_depth``
    (``<html>`` at depth 0): a CSS child chain of ``max_depth + 2`` universal
    selectors matched by Lexbor, in C (the match of each element climbs its
    ancestors: O(n × depth), about 0.3× the parse of a page)."""
    sel = _DEEP_SELECTORS.get(max_depth)
    if sel is None:
        sel = _DEEP_SELECTORS[max_depth] = " > ".join(["*"] * (max_depth + 2))
    return parser.css_first(sel) is not None
