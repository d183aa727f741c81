"""A compact, read-only DOM tree for template extraction: ``parse(html) ->
Document``.

HTML is parsed by selectolax's Lexbor backend (an HTML5 parser that builds the
same tree Chromium does) and flattened into parallel arrays indexed by element
number in document (pre-)order (:class:`~temex.page.document.Document`).
Only elements are nodes (as in the ETDM paper, §3: DOM nodes are labelled by
tag); comments and the doctype are dropped.

:func:`parse` is :func:`lexbor_parse` (the size and binary checks, decoding,
the per-page caps, Lexbor's parse) then :func:`build_document` (the arrays).
Their parts, one job a module, are re-exported here, where their callers
import them: the Document (``page/document.py``), bytes to text
(``page/decoding.py``), the caps and the scan that enforces them before the
parse (``page/caps.py``), the Document of a Lexbor tree (``page/flatten.py``).

Every traversal is iterative: real pages can be nested thousands of levels
deep and Python's recursion limit is 1,000.

Cost: O(n) time and memory for n elements; building the arrays costs several
times Lexbor's parse itself, most of it interpreter work per element
(``bench/perf/bench_speed.py``, docs/EVALUATION.md).
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from ..errors import ParseError
from .caps import (
    _COUNTS,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_ELEMENTS,
    MAX_DEPTH,
    _count_starts,
    _deeper_than,
    _needs_scan,
    _parse_first,
    cap_depth,
    counted_bound,
)
from .decoding import MIN_DETECT_BYTES, _looks_binary, decode_html
from .document import HEADING_TAGS, IGNORED_TAGS, Document, children_reversed
from .flatten import _FIELDS as _FIELDS
from .flatten import _flatten as _flatten
from .flatten import build_document

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MAX_ELEMENTS", "HEADING_TAGS", "IGNORED_TAGS", "MAX_DEPTH",
           "MIN_DETECT_BYTES", "Document",
           "build_document", "cap_depth", "children_reversed", "counted_bound", "decode_html",
           "lexbor_parse", "parse"]

#: Parse as a browser that runs scripts does (the HTML Standard's scripting
#: flag, 13.2.6.4.4 "in head" and 13.2.6.4.7 "in body": the content of a
#: ``<noscript>`` is raw text up to ``</noscript>``). Every reader the page
#: was written for runs scripts. Parsed as markup, as Lexbor does without
#: the flag, a ``<noscript>`` in ``<head>`` that holds a tracking ``<img>``
#: closes the head early, and one that holds
#: ``<iframe src=... style="display:none" />`` (a tag manager's fallback,
#: self-closed as though it were void) opens an iframe that never closes:
#: the rest of the page became that hidden iframe's text, and a 2026
#: landing page gave one line. ``<noscript>`` content is ignored either way
#: (:data:`IGNORED_TAGS`).
SCRIPTING = True


def lexbor_parse(html: bytes | str, url: str = "", *, declared_encoding: str | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES, max_elements: int = DEFAULT_MAX_ELEMENTS,
                 max_depth: int = MAX_DEPTH) -> tuple[LexborHTMLParser, str]:
    """The first half of :func:`parse` (checks, decoding, caps, the Lexbor
    parse): the parser and the encoding. :func:`build_document` makes the
    Document; ``site/pool.py`` ranks candidates on the Lexbor tree and builds
    only the chosen ones. Parameters and errors as :func:`parse`."""
    parser, encoding, text, unchecked = _lexbor_parse(html, url, declared_encoding, max_bytes,
                                                      max_elements, max_depth)
    # html and body are levels the scan never counts: an element at
    # max_depth + 1 is the deepest one the scan lets through
    if unchecked and _deeper_than(parser, max_depth + 1):
        parser = _scanned(text, url, max_elements, max_depth)
    return parser, encoding


def _lexbor_parse(html: bytes | str, url: str, declared_encoding: str | None, max_bytes: int,
                  max_elements: int, max_depth: int
                  ) -> tuple[LexborHTMLParser, str, str, bool]:
    """:func:`lexbor_parse` but for the depth check: ``(parser, encoding,
    text, unchecked)``; ``unchecked``: parsed before any scan, its tree's
    depth still to be checked (:func:`_parse_first`)."""
    size = len(html)
    if size > max_bytes:
        raise ParseError(f"{url or 'page'}: {size} bytes is over the limit of {max_bytes}")
    if isinstance(html, bytes):
        if _looks_binary(html):
            raise ParseError(f"{url or 'page'}: binary data, not HTML")
        text, encoding = decode_html(html, declared_encoding)
    else:
        text, encoding = html, "utf-8"
    if not text.strip():
        raise ParseError(f"{url or 'page'}: empty document")
    # the counts of the checks below, made once for this text
    _COUNTS[0] = [text, _count_starts(text), None]
    try:
        return _checked_parse(text, url, encoding, max_elements, max_depth)
    finally:
        _COUNTS[0] = None


def _checked_parse(text: str, url: str, encoding: str, max_elements: int, max_depth: int
                   ) -> tuple[LexborHTMLParser, str, str, bool]:
    """The depth check and parse of :func:`_lexbor_parse`."""
    # Fewer start tags than the cap (every "<" not opening an end tag could
    # be one) cannot nest deeper nor pass the element cap; nor can fewer
    # counted start tags than the cap (counted_bound): most pages skip the scan.
    # Of the others, pages whose worst case Lexbor parses fast are parsed
    # first and scanned only when the tree is deeper than the cap.
    if _needs_scan(text, max_depth, max_elements):
        if _parse_first(text, max_depth, max_elements):
            return _tree(text, url), encoding, text, True
        return _scanned(text, url, max_elements, max_depth), encoding, text, False
    return _tree(text, url), encoding, text, False


def _tree(text: str, url: str) -> LexborHTMLParser:
    """Lexbor's tree of ``text``, parsed as :data:`SCRIPTING` says; a
    ParseError when it has no document element."""
    parser = LexborHTMLParser(text, scripting=SCRIPTING)
    if parser.root is None:
        raise ParseError(f"{url or 'page'}: no document element")
    return parser


def _scanned(text: str, url: str, max_elements: int, max_depth: int) -> LexborHTMLParser:
    """The Lexbor parse of ``text`` after the depth scan (:func:`cap_depth`)."""
    text, starts = cap_depth(text, max_depth, max_starts=max_elements)
    if starts > max_elements:
        raise ParseError(f"{url or 'page'}: more than {max_elements} elements "
                         "(the limit of one page)")
    return _tree(text, url)


def parse(html: bytes | str, url: str = "", *, declared_encoding: str | None = None,
          max_bytes: int = DEFAULT_MAX_BYTES,
          max_elements: int = DEFAULT_MAX_ELEMENTS, max_depth: int = MAX_DEPTH) -> Document:
    """Parse HTML into a :class:`Document`.

    Parameters
    ----------
    html : bytes or str
        The page. Bytes are decoded with :func:`decode_html`.
    url : str
        Where the page came from (kept on the document).
    declared_encoding : str, optional
        Charset declared by the transport (e.g. the HTTP ``Content-Type``).
    max_bytes : int
        Pages larger than this raise :class:`ParseError` instead of being parsed.
    max_elements : int
        Pages of more elements raise :class:`ParseError` (counted from the
        tags before parsing, and again while flattening).

    max_depth : int
        Elements nested deeper than this (default :data:`MAX_DEPTH`) become
        siblings at that depth (:func:`cap_depth`), as in Chromium.

    Raises
    ------
    ParseError
        When the input is too large, has too many elements, is empty, or
        looks binary.
    """
    parser, encoding, text, unchecked = _lexbor_parse(html, url, declared_encoding, max_bytes,
                                                      max_elements, max_depth)
    if not unchecked:
        return build_document(parser, url, encoding, max_elements)
    # parsed before any scan: the built depths tell whether the tree is deeper
    # than the scan lets through (then scanned and parsed again, as
    # lexbor_parse's check would have done before building)
    try:
        doc = build_document(parser, url, encoding, max_elements)
        if max(doc.depth) <= max_depth + 1:
            return doc
    except ParseError:
        pass
    return build_document(_scanned(text, url, max_elements, max_depth), url, encoding,
                          max_elements)
